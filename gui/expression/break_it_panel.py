"""Break it: the switch that runs backward with one of the article's two bugs, and what shows it is broken.

The broken replay itself is ``autograd_core.language.break_it``; ``ExpressionState.set_bug`` walks it.  This panel
only offers the switch, shows the bug's code in the article's form, and, while the grads on screen are broken,
says so: a marker, the one sentence why (``Replay.reason``) and a gradient check in the error color.
"""

from __future__ import annotations

from PySide6.QtWidgets import QApplication, QComboBox, QLabel, QVBoxLayout, QWidget

from autograd_core.language.break_it import BUG_CODE
from autograd_core.numbers import LEDGER, format_number

from ..graph_view.graph_state import Change
from ..shell.theme import monospace_font, set_text_role

# (what the switch says, the bug: a key of break_it.BUGS, None for the correct backward)
CHOICES = (
    ("Correct (+=)", None),
    ("= in place of +=", "assign"),
    ("Wrong order: creation order", "creation_order"),
    ("Wrong order: as soon as one consumer delivered", "eager"),
)
MARKER = "⚠ BROKEN backward: the grads shown are wrong on purpose"


def check_line(wrong: list[tuple[str, float, float]]) -> str:
    """The gradient check of a broken backward in one line: each wrong input's grad beside the true slope."""
    if not wrong:
        return "grad check: the inputs' grads agree with finite differences (the bug hit inner nodes only)"
    parts = [f"{name}'s grad {format_number(shown, LEDGER)} ≠ {format_number(numeric, LEDGER)}" for name, shown,
             numeric in wrong]  # fmt: skip
    return f"grad check: {', '.join(parts)} by finite differences"


class BreakItPanel(QWidget):
    """The Break-it switch, the bug's code, and the marks of a broken backward."""

    def __init__(self, state, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("breakItPanel")
        self.state = state
        self.combo = QComboBox()
        self.combo.setObjectName("breakItCombo")
        for text, bug in CHOICES:
            self.combo.addItem(text, bug)
        self.combo.setToolTip(
            "Break it: run backward with one of the article's two bugs on purpose and see what goes wrong. "
            "A broken result is always marked and never kept; Correct (+=) brings the right grads back."
        )
        self.combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.combo.setMinimumContentsLength(12)  # a narrow column: the long entries are cut in the closed combo only
        self.combo.activated.connect(self._chosen)
        title = QLabel("<b>Break it</b>")
        title.setToolTip(self.combo.toolTip())
        self.marker = QLabel(MARKER)
        self.marker.setObjectName("brokenMarker")
        self.marker.setWordWrap(True)
        set_text_role(self.marker, "error")
        self.reason = QLabel()
        self.reason.setObjectName("brokenReason")
        self.reason.setWordWrap(True)
        self.check = QLabel()
        self.check.setObjectName("brokenCheck")
        self.check.setWordWrap(True)
        set_text_role(self.check, "error")
        self.check.setToolTip("The grads shown against central finite differences of the expression")
        self.code = QLabel()
        self.code.setObjectName("bugCode")
        self.code.setTextFormat(self.code.textFormat().PlainText)
        self.code.setToolTip("The bug as the article's code would have it")
        self.code.setFont(monospace_font())
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 4, 0, 0)
        layout.setSpacing(3)
        layout.addWidget(title)
        layout.addWidget(self.combo)
        layout.addWidget(self.marker)
        layout.addWidget(self.reason)
        layout.addWidget(self.check)
        layout.addWidget(self.code)
        state.changed.connect(self._state_changed)
        self.refresh()

    @property
    def bug(self) -> str | None:
        return self.combo.currentData()

    def set_bug(self, bug: str | None) -> None:
        """Set the switch as a click would (a lesson's ``break`` action)."""
        index = self.combo.findData(bug)
        if index < 0:
            raise ValueError(f"no Break-it choice {bug!r}")
        self.combo.setCurrentIndex(index)
        self._chosen(index)

    def _chosen(self, _index: int) -> None:
        self.state.set_bug(self.combo.currentData())

    def _state_changed(self, change: Change) -> None:
        if change & (Change.GRADS | Change.STEP | Change.STRUCTURE | Change.CHECKS):
            self.refresh()

    def refresh(self) -> None:
        state = self.state
        if self.combo.currentData() != state.bug:
            self.combo.setCurrentIndex(max(0, self.combo.findData(state.bug)))
        broken = state.broken
        self.marker.setVisible(broken)
        self.reason.setVisible(broken)
        self.reason.setText(state.replay.reason if broken else "")
        done = state.broken_done
        self.check.setVisible(done)
        self.check.setText(check_line(state.broken_checks()) if done else "")
        self.code.setVisible(state.bug is not None)
        self.code.setText(BUG_CODE.get(state.bug, "") if state.bug else "")

    def set_presentation(self, _on: bool) -> None:
        self.code.setFont(monospace_font(QApplication.font().pointSizeF()))
