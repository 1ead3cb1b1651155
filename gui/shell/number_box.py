"""A spin box for numbers as people write them (0.001, 1e-3, −2), shown by the app's one number formatter.

Qt's QDoubleSpinBox keeps a fixed number of decimals and its validator drops the keys it does not expect.
Typing 1e-3 into it gave 13 (the e and the - were ignored, so a learning rate of 1e-3 became 13 and training
diverged), a value of 1e-5 was stored as 0, and every box wrote "2.0000" where the graph writes "2".
``NumberBox`` keeps the value exactly as typed or set, accepts scientific notation and the true minus sign,
and writes the value with ``format_number`` like every other view.
"""

from __future__ import annotations

import math
import re

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeyEvent, QValidator
from PySide6.QtWidgets import QAbstractSpinBox, QDoubleSpinBox, QSpinBox

from autograd_core.numbers import MINUS, format_number, parse_number

_BEGUN = re.compile(r"[+-]?[\d,]*\.?\d*([eE][+-]?\d*)?")  # what a number can start with while it is typed
_UNFINISHED_EXPONENT = re.compile(r"[eE][+-]?$")  # "12 e": the first letter of a typed unit ("12 neurons")
EXACT = 323  # decimals: Qt rounds every value to this many, and 323 keeps every double as it is


class NumberBox(QDoubleSpinBox):
    """A QDoubleSpinBox that keeps every digit, reads 1e-3 and writes numbers as the rest of the app does.

    ``smallest_step`` is the adaptive step's least (Qt's is 10^−decimals, 1e−323 here): the arrows take an L2
    penalty from 0 to 1e−5, not to 1e−323."""

    def __init__(self, low: float, high: float, digits: int = 6, smallest_step: float = 1e-5, parent=None):
        super().__init__(parent)
        self.digits = digits
        self.smallest_step = smallest_step
        self.setDecimals(EXACT)
        self.setRange(low, high)
        self.setKeyboardTracking(False)  # the value changes when typing ends, not at each key
        # a typed number out of range becomes the nearest one allowed (visible in the box), not the old value
        self.setCorrectionMode(QAbstractSpinBox.CorrectionMode.CorrectToNearestValue)

    def textFromValue(self, value: float) -> str:
        return format_number(value, self.digits)

    def valueFromText(self, text: str) -> float:
        unchanged = _unchanged(self, text)
        if unchanged is not None:
            return unchanged
        value = _read(self, text, decimal_comma=True)
        return self.value() if value is None else value

    def validate(self, text: str, pos: int):
        return _validate(self, text, whole=False), text, pos

    def fixup(self, text: str) -> str:
        value = _read(self, text, decimal_comma=True)
        if value is None or not math.isfinite(value):
            value = self.value()
        return self.prefix() + self.textFromValue(min(max(value, self.minimum()), self.maximum())) + self.suffix()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if not _cancel_typing(self, event):
            super().keyPressEvent(event)

    def stepBy(self, steps: int) -> None:
        """One step of singleStep, or of the adaptive step (a tenth of the value's power of ten, at least
        ``smallest_step``), rounded to the step: 0.1 + 0.1 + 0.1 is 0.3, not 0.30000000000000004."""
        value = self.value()
        step = self.singleStep()
        if self.stepType() == QAbstractSpinBox.StepType.AdaptiveDecimalStepType:
            size = abs(value)
            if size < self.smallest_step:
                step = self.smallest_step
            else:
                power = math.floor(math.log10(size))
                if size == 10.0**power and (steps < 0) == (value > 0):  # toward zero from 1: 0.99, not 0.9
                    power -= 1
                step = max(self.smallest_step, 10.0 ** (power - 1))
        places = min(max(3 - math.floor(math.log10(step)), 0), EXACT)
        stepped = round(value + steps * step, places)
        self.setValue(min(max(stepped, self.minimum()), self.maximum()))


class WholeNumberBox(QSpinBox):
    """A QSpinBox that does not turn 3.5 into 35: Qt's dropped the point, so typing 3.5 neurons gave 35.

    A number that is not whole (3.5, 1e2) is kept while typed and rounded to the nearest allowed one; a comma
    separates thousands (10,000 steps)."""

    def __init__(self, low: int, high: int, parent=None):
        super().__init__(parent)
        self.setRange(low, high)
        self.setKeyboardTracking(False)
        self.setCorrectionMode(QAbstractSpinBox.CorrectionMode.CorrectToNearestValue)

    def validate(self, text: str, pos: int):
        return _validate(self, text, whole=True), text, pos

    def valueFromText(self, text: str) -> int:
        unchanged = _unchanged(self, text)
        if unchanged is not None:
            return int(unchanged)
        value = _read(self, text, decimal_comma=False)
        if value is None or not math.isfinite(value):
            return self.value()
        return int(min(max(math.floor(value + 0.5), self.minimum()), self.maximum()))

    def fixup(self, text: str) -> str:
        return self.prefix() + self.textFromValue(self.valueFromText(text)) + self.suffix()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if not _cancel_typing(self, event):
            super().keyPressEvent(event)


def _cancel_typing(box: QAbstractSpinBox, event: QKeyEvent) -> bool:
    """Escape in a box being typed into gives the value in force back (True: the key is used).  Qt kept the typed
    text, which leaving the box then applied: the box showed 1e-320 while the program still used −3, then used it."""
    if event.key() != Qt.Key.Key_Escape:
        return False
    shown = box.specialValueText() if box.specialValueText() and box.value() == box.minimum() else None
    shown = shown or box.prefix() + box.textFromValue(box.value()) + box.suffix()
    if box.lineEdit().text() == shown:
        return False  # nothing typed: Escape goes on (a dialog closes)
    box.lineEdit().setText(shown)
    box.selectAll()
    return True


def _unchanged(box, text: str) -> float | None:
    """The box's value when ``text`` is what the box shows for it (Enter in a box nobody edited keeps every
    digit: the box writes 1.23457 for 1.23456789), or the special value's text (an input no box can hold);
    else None."""
    if box.specialValueText() and text == box.specialValueText():
        return box.minimum()
    if text == box.prefix() + box.textFromValue(box.value()) + box.suffix():
        return box.value()
    return None


def _bare(box: QAbstractSpinBox, text: str) -> str:
    """``text`` without the box's prefix and suffix."""
    if box.prefix() and text.startswith(box.prefix()):
        text = text[len(box.prefix()) :]
    if box.suffix() and text.endswith(box.suffix()):
        text = text[: -len(box.suffix())]
    return text


def _read(box, text: str, decimal_comma: bool) -> float | None:
    """The number typed in ``text`` (the box's prefix and suffix, and a unit's first letter, left out)."""
    bare = _bare(box, text).strip()
    value = parse_number(bare, decimal_comma)
    if value is None and box.suffix().strip():  # "12 e" of "12 neurons" typed: the e was kept as an exponent
        value = parse_number(_UNFINISHED_EXPONENT.sub("", bare), decimal_comma)
    return value


def _validate(box, text: str, whole: bool) -> QValidator.State:
    """Acceptable: a number in range (a whole one for a whole-number box), or the box's special value text;
    Intermediate: a number on its way ("", "-", "1e-") or one that fixup will round or bring into range;
    Invalid: a key that makes no number."""
    if box.specialValueText() and text == box.specialValueText():
        return QValidator.State.Acceptable
    bare = _bare(box, text).strip().replace(MINUS, "-").replace(" ", "")
    value = parse_number(bare, decimal_comma=not whole)
    if value is not None:
        inside = math.isfinite(value) and box.minimum() <= value <= box.maximum() and (not whole or value.is_integer())
        return QValidator.State.Acceptable if inside else QValidator.State.Intermediate
    return QValidator.State.Intermediate if _BEGUN.fullmatch(bare) else QValidator.State.Invalid
