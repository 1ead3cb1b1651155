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


def test_a_count_says_its_noun_for_one_and_for_many():
    from autograd_core.numbers import counted, plural

    assert counted(1, "dead ReLU unit") == "1 dead ReLU unit"
    assert counted(2, "dead ReLU unit") == "2 dead ReLU units"
    assert counted(0, "point") == "0 points"
    assert counted(1, "box", "boxes") == "1 box" and counted(3, "box", "boxes") == "3 boxes"
    assert plural(1, "field") == "field" and plural(4, "field") == "fields"


def test_no_message_says_one_or_many_with_an_s_in_brackets():
    """Messages say "1 point" and "2 points": no "(s)" after a noun in a string of the app or the library (their
    docstrings and comments aside, and the formula tanh(s))."""
    import io
    import re
    import tokenize
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    bracketed = re.compile(r"[a-z]\(s\)")
    found = []
    for folder in ("gui", "autograd_core"):
        for path in sorted((root / folder).rglob("*.py")):
            before = tokenize.NEWLINE
            for token in tokenize.generate_tokens(io.StringIO(path.read_text(encoding="utf-8")).readline):
                docstring = before in (tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT)
                text = re.sub(r"\{[^{}]*\}", "", token.string.replace("tanh(s)", ""))  # (an f-string's code aside)
                if token.type == tokenize.STRING and not docstring and bracketed.search(text):
                    found.append(f"{path.relative_to(root)}:{token.start[0]}")
                if token.type not in (tokenize.NL, tokenize.COMMENT):
                    before = token.type
    assert found == [], found
