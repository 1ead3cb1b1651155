"""Predict, then reveal: the lesson panel's guess box.  A number field (or a sign picker) and the button that
reveals the answer; the panel checks the guess (``autograd_core.lessons.predict``) and the box shows the truth
beside it.  Enter in the field reveals, as the button does."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QLineEdit, QPushButton, QVBoxLayout, QWidget

from ..look.theme import palette

SIGNS = (("positive (+)", "+"), ("negative (−)", "-"), ("zero (0)", "0"))
REVEAL_WORDS = {  # the reveal's first action -> what the button says it does
    "backward": "Backward",
    "step": "Step",
    "step all": "Step to the end",
    "play": "Play",
    "epochs": "Play",
}


class PredictBox(QWidget):
    """The guess, typed before the reveal; ``submitted`` carries what was typed (or the sign picked)."""

    submitted = Signal(str)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("lessonPredict")
        self.prompt = QLabel("Your guess:")
        self.guess = QLineEdit()
        self.guess.setObjectName("lessonGuess")
        self.guess.setPlaceholderText("a number, like -0.5")
        self.guess.setToolTip("Type your prediction, then press Enter or the reveal button")
        self.guess.returnPressed.connect(self._submit)
        self.sign = QComboBox()
        self.sign.setObjectName("lessonSign")
        self.sign.addItem("pick a sign…", "")
        for text, value in SIGNS:
            self.sign.addItem(text, value)
        self.sign.setToolTip("Pick the sign you predict, then press the reveal button (or Enter)")
        self.prompt.setBuddy(self.guess)
        self.reveal_button = QPushButton("Check, then reveal")
        self.reveal_button.setObjectName("lessonReveal")
        self.reveal_button.setToolTip("Check your guess, then reveal the answer beside it")
        self.reveal_button.setDefault(True)
        self.reveal_button.clicked.connect(self._submit)
        self.result = QLabel()
        self.result.setObjectName("lessonPredictResult")
        self.result.setWordWrap(True)
        self.result.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.result.hide()
        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.prompt)
        row.addWidget(self.guess, 1)
        row.addWidget(self.sign, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(row)
        layout.addWidget(self.reveal_button)
        layout.addWidget(self.result)
        self.answer = "number"

    def keyPressEvent(self, event) -> None:
        # Enter in the sign picker reveals, as Enter in the number field does (that one says so itself: its
        # returnPressed; the key then comes here too and must not reveal twice)
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and self.sign.hasFocus():
            self._submit()
            return
        super().keyPressEvent(event)

    def ask(self, task) -> None:
        """A fresh box for ``task``: its kind of answer, its reveal named on the button."""
        self.answer = task.answer
        number = task.answer == "number"
        self.guess.setVisible(number)
        self.sign.setVisible(not number)
        self.guess.clear()
        self.sign.setCurrentIndex(0)
        first = task.reveal[0].verb if task.reveal else ""
        does = REVEAL_WORDS.get(first, "reveal")
        self.reveal_button.setText(f"Check my guess, then {does}")
        self.reveal_button.setToolTip(
            f"Checks your guess ({'within ' + _tolerance(task) if number else 'its sign'}), then does: "
            + ", ".join(f"{a.verb} {a.args}".strip() for a in task.reveal)
        )
        self.result.hide()
        self.result.clear()

    def typed(self) -> str:
        return self.guess.text() if self.answer == "number" else str(self.sign.currentData() or "")

    def say(self, text: str, good: bool | None) -> None:
        """The truth beside the guess (``good``: right, wrong, or None for a message about what was typed)."""
        colors = palette()
        color = {True: colors.ok, False: colors.error, None: colors.window_text}[good]
        mark = {True: "✓ ", False: "✗ ", None: ""}[good]
        self.result.setText(f"<span style='color:{color}'><b>{mark}</b></span>{_escape(text)}")
        self.result.show()

    def focus(self) -> None:
        (self.guess if self.answer == "number" else self.sign).setFocus(Qt.FocusReason.OtherFocusReason)

    def _submit(self) -> None:
        self.submitted.emit(self.typed())


def _tolerance(task) -> str:
    from autograd_core.numbers import format_number

    return f"±{format_number(task.tolerance * 100)} %" if task.relative else f"±{format_number(task.tolerance)}"


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
