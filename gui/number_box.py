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

from PySide6.QtGui import QValidator
from PySide6.QtWidgets import QAbstractSpinBox, QDoubleSpinBox, QSpinBox

from autograd_core.numbers import MINUS, format_number, parse_number

_BEGUN = re.compile(r"[+-]?\d*[.,]?\d*([eE][+-]?\d*)?")  # what a number can start with while it is typed
EXACT = 323  # decimals: Qt rounds every value to this many, and 323 keeps every double as it is
STEP_DIGITS = 12  # the arrows step to a value rounded to this many significant digits (0.1 + 0.2 gives 0.3)


class NumberBox(QDoubleSpinBox):
    """A QDoubleSpinBox that keeps every digit, reads 1e-3 and writes numbers as the rest of the app does."""

    def __init__(self, low: float, high: float, digits: int = 6, parent=None):
        super().__init__(parent)
        self.digits = digits
        self.setDecimals(EXACT)
        self.setRange(low, high)
        self.setKeyboardTracking(False)  # the value changes when typing ends, not at each key
        # a typed number out of range becomes the nearest one allowed (visible in the box), not the old value
        self.setCorrectionMode(QAbstractSpinBox.CorrectionMode.CorrectToNearestValue)

    def textFromValue(self, value: float) -> str:
        return format_number(value, self.digits)

    def valueFromText(self, text: str) -> float:
        value = parse_number(_bare(self, text))
        return self.value() if value is None else value

    def validate(self, text: str, pos: int):
        return _validate(self, text, whole=False), text, pos

    def fixup(self, text: str) -> str:
        value = parse_number(_bare(self, text))
        if value is None or not math.isfinite(value):
            value = self.value()
        return self.prefix() + self.textFromValue(min(max(value, self.minimum()), self.maximum())) + self.suffix()

    def stepBy(self, steps: int) -> None:
        """Qt's step (fixed or adaptive), rounded: 0.1 + 0.1 + 0.1 is 0.3, not 0.30000000000000004."""
        old = self.value()
        self.blockSignals(True)  # one valueChanged, for the rounded value
        try:
            super().stepBy(steps)
            stepped = self.value()
            self.setValue(old)
        finally:
            self.blockSignals(False)
        self.setValue(float(f"{stepped:.{STEP_DIGITS}g}"))


class WholeNumberBox(QSpinBox):
    """A QSpinBox that does not turn 3.5 into 35: Qt's dropped the point, so typing 3.5 neurons gave 35.

    A number that is not whole (3.5, 1e2) is kept while typed and rounded to the nearest allowed one."""

    def __init__(self, low: int, high: int, parent=None):
        super().__init__(parent)
        self.setRange(low, high)
        self.setKeyboardTracking(False)
        self.setCorrectionMode(QAbstractSpinBox.CorrectionMode.CorrectToNearestValue)

    def validate(self, text: str, pos: int):
        return _validate(self, text, whole=True), text, pos

    def valueFromText(self, text: str) -> int:
        value = parse_number(_bare(self, text))
        if value is None or not math.isfinite(value):
            return self.value()
        return int(min(max(math.floor(value + 0.5), self.minimum()), self.maximum()))

    def fixup(self, text: str) -> str:
        return self.prefix() + self.textFromValue(self.valueFromText(text)) + self.suffix()


def _bare(box: QAbstractSpinBox, text: str) -> str:
    """``text`` without the box's prefix and suffix."""
    if box.prefix() and text.startswith(box.prefix()):
        text = text[len(box.prefix()) :]
    if box.suffix() and text.endswith(box.suffix()):
        text = text[: -len(box.suffix())]
    return text


def _validate(box, text: str, whole: bool) -> QValidator.State:
    """Acceptable: a number in range (a whole one for a whole-number box); Intermediate: a number on its way
    ("", "-", "1e-") or one that fixup will round or bring into range; Invalid: a key that makes no number."""
    bare = _bare(box, text).strip().replace(MINUS, "-").replace(" ", "")
    value = parse_number(bare)
    if value is not None:
        inside = math.isfinite(value) and box.minimum() <= value <= box.maximum() and (not whole or value.is_integer())
        return QValidator.State.Acceptable if inside else QValidator.State.Intermediate
    return QValidator.State.Intermediate if _BEGUN.fullmatch(bare) else QValidator.State.Invalid
