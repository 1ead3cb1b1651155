"""One way to write a number, used by every message and every view.

The precision policy: a number is read at a glance in a box, a plot caption
or a status line (``COMPACT``, 4 significant digits), written out with more
care in the backward ledger and formulas (``LEDGER``, 6), and given in full
on hover (``format_full``: Python's shortest round-trip ``repr``).  inf and
nan are spelled out, a missing value is a dash, and on screen the minus sign
is the true minus (U+2212), which lines up with the plus; ``ascii=True``
keeps ``-`` for text meant to be copied back into a program or a shell.
"""

from __future__ import annotations

import math
import re

COMPACT = 4  # significant digits at a glance: graph boxes, captions, status lines
LEDGER = 6  # significant digits in the backward ledger and formulas
MINUS = "\u2212"
MISSING = "—"
NUMBER = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?")  # what parse_number reads (after its commas)


def format_number(
    value: float | None,
    digits: int = COMPACT,
    *,
    signed: bool = False,
    point: bool = False,
    ascii: bool = False,
) -> str:
    """``value`` to ``digits`` significant digits.

    ``signed`` writes a leading + on positive numbers (weights), ``point``
    keeps a decimal point on whole numbers ("1.0", so a gradient reads as a
    float), ``ascii`` uses '-' instead of the true minus sign.
    """
    if value is None:
        return MISSING
    value = float(value)
    if math.isnan(value):
        return "nan"
    if math.isinf(value):
        text = "inf" if value > 0 else "-inf"
    else:
        text = f"{value:.{digits}g}"
        if point and not any(ch in text for ch in ".en"):
            text += ".0"
    if signed and not text.startswith("-") and value != 0:
        text = "+" + text
    return text if ascii else text.replace("-", MINUS)


def plural(count: int, noun: str, many: str | None = None) -> str:
    """``noun`` for one, ``many`` (``noun`` + "s" unless given) for any other count: messages say "1 point" and
    "0 points", "1 box" and "2 boxes", never "point(s)"."""
    return noun if count == 1 else (many or noun + "s")


def counted(count: int, noun: str, many: str | None = None) -> str:
    """The count and its noun: ``counted(1, "dead ReLU unit")`` is "1 dead ReLU unit", 3 gives "3 … units"."""
    return f"{count} {plural(count, noun, many)}"


def format_percent(fraction: float | None, decimals: int = 1) -> str:
    """A fraction in [0, 1] as a percentage ("97.5 %"); a dash when missing or not finite."""
    if fraction is None or not math.isfinite(fraction):
        return MISSING
    return f"{100.0 * fraction:.{decimals}f} %"


def format_fixed(value: float | None, decimals: int = 1) -> str:
    """A measure read to a fixed number of decimals (seconds, steps per second, pixels): "0.25", "12.0"."""
    if value is None:
        return MISSING
    value = float(value)
    if not math.isfinite(value):
        return format_number(value)
    return f"{value:.{decimals}f}".replace("-", MINUS)


def format_scientific(value: float | None, digits: int = 2) -> str:
    """Always in powers of ten, ``digits`` significant ("5.0e−01"): a relative error, whose size is its exponent."""
    if value is None:
        return MISSING
    value = float(value)
    if not math.isfinite(value):
        return format_number(value)
    return f"{value:.{max(0, digits - 1)}e}".replace("-", MINUS)


def format_full(value: float | None) -> str:
    """Every digit (the shortest text that reads back as the same float), for hover text."""
    if value is None:
        return MISSING
    return format_number(value, 17) if not math.isfinite(value) else repr(float(value)).replace("-", MINUS)


def parse_number(text: str, decimal_comma: bool = True) -> float | None:
    """The number a person typed, else None: spaces, '+', the true minus (as this module writes it) and
    scientific notation are read; words (nan, inf) and anything else are not.  A comma is a thousands
    separator beside a decimal point (1,000.5) or where no decimals are expected (``decimal_comma=False``:
    10,000 steps), else a decimal comma (0,5)."""
    plain = text.strip().replace(MINUS, "-").replace(" ", "")
    plain = plain.replace(",", "") if "." in plain or not decimal_comma else plain.replace(",", ".")
    return float(plain) if NUMBER.fullmatch(plain) else None


def is_number(text: str) -> bool:
    """Whether Python reads ``text`` as a float (a table's cell, a lesson action's argument)."""
    try:
        float(text)
    except ValueError:
        return False
    return True
