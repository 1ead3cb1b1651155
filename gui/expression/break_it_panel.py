"""Break it: the switch that runs backward with one of the article's two bugs, and what shows it is broken.

The broken replay itself is ``autograd_core.language.break_it``; ``ExpressionState.set_bug`` walks it.  This panel
only offers the switch, shows the bug's code in the article's form, and, while the grads on screen are broken,
says why in one sentence (``Replay.reason``) with a gradient check in the error color; the BROKEN marks themselves
are over the ledger (``BackwardPanel``'s progress line) and beside the graph (``ExpressionPanel.broken_badge``).
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QApplication,
    QComboBox,
    QFrame,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from autograd_core.language.break_it import BUG_CODE
from autograd_core.numbers import LEDGER, format_number

from ..graph_view.graph_state import Change
from ..look.app_style import monospace_font, set_text_role

# (what the switch says, the bug: a key of break_it.BUGS, None for the correct backward)
CHOICES = (
    ("Correct (+=)", None, "backward as the article writes it: grad +=, in reversed topological order"),
    ("= in place of +=", "assign", "each edge writes grad = … and throws away what the node already held"),
    ("Creation order", "creation_order", "wrong order: nodes processed in the order they were made, not its reverse"),
    ("Eager order", "eager", "wrong order: each node passed on as soon as one consumer delivered, not all of them"),
)
CODE_LINES = 5  # the bug's code box shows this many lines at most (it scrolls): the ledger above keeps the height


def check_line(wrong: list[tuple[str, float, float]]) -> str:
    """The gradient check of a broken backward in one line: each wrong input's grad beside the true slope."""
    if not wrong:
        return "grad check: the inputs' grads agree with finite differences (the bug hit inner nodes only)"
    parts = [f"{name}'s grad {format_number(shown, LEDGER)} ≠ {format_number(numeric, LEDGER)}" for name, shown,
             numeric in wrong]  # fmt: skip
    return f"grad check: {', '.join(parts)} by finite differences"


class BreakItPanel(QWidget):
    """The Break-it switch (this row), and ``details``: the bug's code and what a broken backward says."""

    def __init__(self, state, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("breakItPanel")
        self.state = state
        self.combo = QComboBox()
        self.combo.setObjectName("breakItCombo")
        for i, (text, bug, tip) in enumerate(CHOICES):
            self.combo.addItem(text, bug)
            self.combo.setItemData(i, tip, Qt.ItemDataRole.ToolTipRole)
        self.combo.setToolTip(
            "Break it: run backward with one of the article's two bugs on purpose and see what goes wrong. "
            "A broken result is always marked and never kept; Correct (+=) brings the right grads back."
        )
        self.combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.combo.setMinimumContentsLength(12)  # a narrow column: the long entries are cut in the closed combo only
        self.combo.currentIndexChanged.connect(self._chosen)  # (refresh's own setting is the state's: no-op)
        title = QLabel("<b>Break it</b>")
        title.setToolTip(self.combo.toolTip())
        self.reason = QLabel()
        self.reason.setObjectName("brokenReason")
        self.reason.setWordWrap(True)
        self.check = QLabel()
        self.check.setObjectName("brokenCheck")
        self.check.setWordWrap(True)
        set_text_role(self.check, "error")
        self.check.setToolTip("The grads shown against central finite differences of the expression")
        self.code = QPlainTextEdit()
        self.code.setObjectName("bugCode")
        self.code.setReadOnly(True)
        self.code.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)  # code keeps its lines; the box scrolls
        self.code.setToolTip("The bug as the article's code would have it")
        self._code_font(monospace_font())
        layout = QHBoxLayout(self)  # the switch: one row under the Backward buttons
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(3)
        layout.addWidget(title)
        layout.addWidget(self.combo, 1)
        # What a broken run says, under the ledger (``details``, placed by the area), scrolls in its own box: a
        # short column keeps the ledger readable.
        details = QWidget()
        inner = QVBoxLayout(details)
        inner.setContentsMargins(0, 0, 0, 0)
        inner.setSpacing(3)
        inner.addWidget(self.check)  # the red check first: in a short column it is what shows
        inner.addWidget(self.reason)
        inner.addWidget(self.code)
        inner.addStretch(1)
        self.details = QScrollArea()
        self.details.setObjectName("breakItDetails")
        self.details.setWidgetResizable(True)
        self.details.setFrameShape(QFrame.Shape.NoFrame)
        self.details.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.details.setWidget(details)
        state.changed.connect(self._state_changed)
        self.refresh()

    @property
    def bug(self) -> str | None:
        return self.combo.currentData()

    def set_bug(self, bug: str | None) -> None:
        """Set the switch as choosing in its list does (the screenshot tour, tests); a lesson switches the state."""
        index = self.combo.findData(bug)
        if index < 0:
            raise ValueError(f"no Break-it choice {bug!r}")
        self.combo.setCurrentIndex(index)  # (its signal switches the state)
        self.state.set_bug(bug)

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
        self.reason.setVisible(broken)
        self.reason.setText(state.replay.reason if broken else "")
        done = state.broken_done
        self.check.setVisible(done)
        self.check.setText(check_line(state.broken_checks()) if done else "")
        self.code.setVisible(state.bug is not None)
        if self.details.isHidden() != (state.bug is None):
            self.details.setVisible(state.bug is not None)
        code = BUG_CODE.get(state.bug, "") if state.bug else ""
        if self.code.toPlainText() != code:
            self.code.setPlainText(code)

    def _code_font(self, font) -> None:
        self.code.setFont(font)
        lines = CODE_LINES * self.code.fontMetrics().lineSpacing()
        self.code.setFixedHeight(
            lines + 2 * self.code.frameWidth() + 8 + self.code.horizontalScrollBar().sizeHint().height()
        )

    def set_presentation(self, _on: bool) -> None:
        self._code_font(monospace_font(QApplication.font().pointSizeF()))
