"""The one number formatter: precision policy, signs, inf/nan, missing values."""

import math

from autograd_core.numbers import COMPACT, LEDGER, MINUS, format_full, format_number, format_percent


def test_compact_and_ledger_precision():
    assert format_number(math.pi) == "3.142" and COMPACT == 4
    assert format_number(math.pi, LEDGER) == "3.14159"
    assert format_number(4.915e-05) == f"4.915e{MINUS}05"


def test_true_minus_on_screen_and_ascii_on_request():
    assert format_number(-3.0) == f"{MINUS}3"
    assert format_number(-3.0, ascii=True) == "-3"
    assert format_number(-math.inf) == f"{MINUS}inf" and format_number(math.inf) == "inf"
    assert format_number(math.nan) == "nan"


def test_point_sign_and_missing():
    assert format_number(1.0, point=True) == "1.0" and format_number(1e-7, point=True) == "1e-07".replace("-", MINUS)
    assert format_number(0.25, signed=True) == "+0.25" and format_number(0.0, signed=True) == "0"
    assert format_number(None) == "—" and format_percent(None) == "—" and format_percent(math.nan) == "—"
    assert format_percent(0.975) == "97.5 %"


def test_full_precision_round_trips():
    for x in (0.1 + 0.2, -1 / 3, 1e-300, 12345678.901234):
        assert float(format_full(x).replace(MINUS, "-")) == x
    assert format_full(None) == "—" and format_full(math.inf) == "inf"
