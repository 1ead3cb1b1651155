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
from PySide6.QtWidgets import QAbstractSpinBox, QDoubleSpinBox

from autograd_core.numbers import MINUS, format_number

_NUMBER = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?")
_BEGUN = re.compile(r"[+-]?\d*\.?\d*([eE][+-]?\d*)?")  # what a number can start with while it is typed
EXACT = 323  # decimals: Qt rounds every value to this many, and 323 keeps every double as it is
STEP_DIGITS = 12  # the arrows step to a value rounded to this many significant digits (0.1 + 0.2 gives 0.3)


def parse_number(text: str) -> float | None:
    """The number ``text`` spells (spaces, '+', the true minus and scientific notation allowed), else None."""
    plain = text.strip().replace(MINUS, "-").replace(" ", "")
    return float(plain) if _NUMBER.fullmatch(plain) else None


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
        value = parse_number(self._bare(text))
        return self.value() if value is None else value

    def validate(self, text: str, pos: int):
        bare = self._bare(text).strip().replace(MINUS, "-").replace(" ", "")
        if _NUMBER.fullmatch(bare):
            inside = self.minimum() <= float(bare) <= self.maximum()
            state = QValidator.State.Acceptable if inside else QValidator.State.Intermediate
        elif _BEGUN.fullmatch(bare):
            state = QValidator.State.Intermediate  # "", "-", "1e", "1e-": a number on its way
        else:
            state = QValidator.State.Invalid
        return state, text, pos

    def fixup(self, text: str) -> str:
        value = parse_number(self._bare(text))
        if value is None or not math.isfinite(value):
            return self.textFromValue(self.value())
        return self.textFromValue(min(max(value, self.minimum()), self.maximum()))

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

    def _bare(self, text: str) -> str:
        """The text without the box's prefix and suffix."""
        if self.prefix() and text.startswith(self.prefix()):
            text = text[len(self.prefix()) :]
        if self.suffix() and text.endswith(self.suffix()):
            text = text[: -len(self.suffix())]
        return text
