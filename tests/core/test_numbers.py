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


# Format specs in gui/ that are not numbers a person reads: Qt font sizes in points, and the optimizer lab's
# timing line (owned elsewhere, still to be routed).  Every other number on screen goes through this module.
AD_HOC_FORMAT_ALLOWED = {
    ("gui/plots/gradient_flow_plot.py", 2),
    ("gui/plots/boundary_plot.py", 1),
    ("gui/plots/regression_plot.py", 1),
    ("gui/training/training_style.py", 2),
    ("gui/lab/optimizer_lab.py", 3),
    ("gui/expression/broken_export.py", 9),  # SVG coordinates of the broken run's banner, not numbers to read
    ("gui/workshop/derivative_plot.py", 1),  # the legend's point size
}


def test_gui_writes_numbers_only_through_the_numbers_module():
    import pathlib
    import re

    root = pathlib.Path(__file__).resolve().parents[2]
    spec = re.compile(
        r"\{[^{}:!]+(?:![rsa])?:[<>^=+\- #0-9,_.]*[eEfFgG%]\}"  # an f-string or str.format spec
        r"|%[-+ 0#]*\d*\.\d+[eEfFgG]"  # printf style
        r"|format\([^()]*,\s*[\"']"  # format(value, spec)
    )
    found = {}
    for path in sorted((root / "gui").rglob("*.py")):
        count = len(spec.findall(path.read_text(encoding="utf-8")))
        if count:
            found[(path.relative_to(root).as_posix(), count)] = True
    assert set(found) <= AD_HOC_FORMAT_ALLOWED, sorted(set(found) - AD_HOC_FORMAT_ALLOWED)
