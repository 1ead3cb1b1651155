"""Backward controls and the ledger: the chain rule written out, one sentence per contribution.

The sentences come from ``autograd_core.language.trace`` (``BackwardStep.sentences``);
this panel only lists them, highlights the current step and drives the state.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QGridLayout,
    QLabel,
    QListView,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSlider,
    QVBoxLayout,
    QWidget,
)

from ..graph_view.graph_state import Change, GraphState
from ..look.app_style import set_text_role
from ..look.theme import palette

SPEEDS_MS = (1500, 1000, 700, 450, 300, 180, 100, 50)  # slider position -> interval
MARK_TIPS = {  # a ledger line of a backward broken on purpose (Break it), and why it is marked
    "overwritten": "'=' in place of '+=': this line threw away the gradient the node already held",
    "late": "Too late: the node had already passed its gradient on, so its inputs never get this part",
}


def backward_column(state) -> tuple[QWidget, BackwardPanel]:
    """A "Backward" heading over a BackwardPanel for ``state``: the right-hand column of a graph area."""
    panel = BackwardPanel(state)
    column = QWidget()
    layout = QVBoxLayout(column)
    layout.setContentsMargins(4, 4, 4, 4)
    layout.addWidget(QLabel("<b>Backward</b>"))
    layout.addWidget(panel, 1)
    return column, panel


class BackwardPanel(QWidget):
    """Buttons (Backward, Zero grad, Step, Back, Play) + speed + ledger, for any GraphState."""

    def __init__(self, state: GraphState, parent: QWidget | None = None):
        super().__init__(parent)
        self.state = state

        def button(text: str, name: str, tip: str, slot) -> QPushButton:
            b = QPushButton(text)
            b.setObjectName(name)
            b.setToolTip(tip)
            b.clicked.connect(slot)
            return b

        self.backward_button = button(
            "Backward",
            "backwardButton",
            "Run backward() on the output: every node gets d(output)/d(node) (F5)",
            state.backward,
        )
        self.zero_button = button("Zero grad", "zeroGradButton", "Set every gradient to zero", state.zero_grad)
        self.step_button = button(
            "Step", "stepButton", "Process one node of the backward pass and show its contributions (F6)", state.step
        )
        self.back_button = button("Back", "backButton", "Undo the last step (Shift+F6)", state.back)
        self.play_button = button(
            "Play", "playButton", "Animate the remaining steps (F7); press again to pause", self.toggle_play
        )
        self.speed = QSlider(Qt.Orientation.Horizontal)
        self.speed.setObjectName("speedSlider")
        self.speed.setRange(0, len(SPEEDS_MS) - 1)
        self.speed.setValue(2)
        self.speed.setToolTip("Animation speed: slow on the left, fast on the right")
        self.speed.valueChanged.connect(lambda i: state.set_play_interval(SPEEDS_MS[i]))
        state.set_play_interval(SPEEDS_MS[self.speed.value()])
        self.progress = QLabel()
        self.progress.setObjectName("stepProgress")
        self.progress.setWordWrap(True)
        self.progress.setToolTip("How far the step-by-step backward pass has come")
        self.ledger = QListWidget()
        self.ledger.setObjectName("ledger")
        self.ledger.setWordWrap(True)
        self.ledger.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)  # lines wrap instead
        # Laid out in batches: a ledger of thousands of wrapped lines would be measured whole at every step.
        self.ledger.setLayoutMode(QListView.LayoutMode.Batched)
        self.ledger.setBatchSize(200)
        self.ledger.setAlternatingRowColors(True)
        self.ledger.setToolTip(
            "The ledger: each contribution of the chain rule, grad(parent) += ∂node/∂parent · grad(node). "
            "A node used twice receives two contributions that add up."
        )
        grid = QGridLayout()
        grid.setContentsMargins(0, 0, 0, 0)
        grid.addWidget(self.backward_button, 0, 0)
        grid.addWidget(self.zero_button, 0, 1)
        grid.addWidget(self.step_button, 1, 0)
        grid.addWidget(self.back_button, 1, 1)
        grid.addWidget(self.play_button, 2, 0)
        grid.addWidget(self.speed, 2, 1)
        title = self.ledger_title = QLabel("<b>Ledger</b> (chain rule, step by step)")
        title.setToolTip(self.ledger.toolTip())
        title.setWordWrap(True)  # (a narrow column: the graph beside it keeps the width)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(grid)
        layout.addWidget(self.progress)
        layout.addWidget(title)
        layout.addWidget(self.ledger, 1)
        layout.addStretch(0)  # the ledger stepped back (a lesson): the buttons stay at the top, not half-way down
        self._trace = None  # the trace whose lines the ledger shows
        self._starts: list[int] = []  # first ledger row of each step shown
        self._bold = 0  # the step whose lines are bold
        self._labeled_forward = False  # the buttons read as forward mode's
        self._first_mark = None  # the first marked line of a broken backward (Break it), shown when it ends
        state.changed.connect(self._state_changed)
        state.playing_changed.connect(self._playing)
        self.refresh()

    def toggle_play(self) -> None:
        if self.state.playing:
            self.state.stop()
        else:
            self.state.play()

    def _playing(self, playing: bool) -> None:
        self.play_button.setText("Pause" if playing else "Play")

    def _forward(self) -> bool:
        """True when the state steps forward mode (an ExpressionState with its mode toggle on Forward)."""
        return getattr(self.state, "direction", "reverse") == "forward"

    def _label_buttons(self, forward: bool) -> None:
        if forward:
            self.backward_button.setText("Run forward")
            self.backward_button.setToolTip("Compute every tangent at once: the whole forward pass (F5)")
            self.zero_button.setText("Reset")
            self.zero_button.setToolTip("Forget the tangents: back to before the first forward step")
            self.step_button.setToolTip("Compute one node's tangent, in topological order (F6)")
            self.play_button.setToolTip("Animate the remaining forward steps (F7); press again to pause")
        else:
            self.backward_button.setText("Backward")
            self.backward_button.setToolTip("Run backward() on the output: every node gets d(output)/d(node) (F5)")
            self.zero_button.setText("Zero grad")
            self.zero_button.setToolTip("Set every gradient to zero")
            self.step_button.setToolTip("Process one node of the backward pass and show its contributions (F6)")
            self.play_button.setToolTip("Animate the remaining steps (F7); press again to pause")

    def _refresh_forward(self) -> None:
        state = self.state
        total = len(state.forward_trace)
        position = state.forward_position
        seed = state.seed_input()
        if state.root is None:
            self.progress.setText("No graph yet: nothing to differentiate.")
        elif position == 0:
            self.progress.setText(f"Forward mode, seeded {seed}: press Step to compute the tangents node by node.")
        else:
            step = state.forward_current
            name = (step.node.label or step.node.op) if step is not None else ""
            self.progress.setText(
                f"Forward step {position} of {total}: node {name}"
                + (f" — done, the output's tangent is d(output)/d({seed})" if position == total else "")
            )
        has_graph = state.root is not None
        self.backward_button.setEnabled(has_graph)
        self.zero_button.setEnabled(has_graph)
        self.step_button.setEnabled(has_graph and position < total)
        self.back_button.setEnabled(position > 0)
        self.play_button.setEnabled(has_graph)
        self._fill_ledger()

    def refresh(self) -> None:
        state = self.state
        forward = self._forward()
        if forward != self._labeled_forward:
            self._labeled_forward = forward
            self._label_buttons(forward)
        if forward:
            self._refresh_forward()
            return
        stepping = state.mode == "stepping"
        total = len(state.steps)
        broken = getattr(state, "broken", False)
        set_text_role(self.progress, "error" if broken else None)
        if state.root is None:
            self.progress.setText("No graph yet: nothing to differentiate.")
        elif broken:
            self.progress.setText(f"BROKEN backward (step {state.position} of {total})")
        elif stepping:
            node = state.current_step.node if state.current_step is not None else None
            name = (node.label or node.op) if node is not None else ""
            self.progress.setText(
                f"Step {state.position} of {total}"
                + (f": node {name}" if name else " (press Step)")
                + (" — done, gradients match backward()" if state.position == total else "")
            )
        elif state.mode == "done":
            self.progress.setText("Backward done. Step to see it node by node.")
        else:
            self.progress.setText("Press Step to walk the backward pass node by node.")
        has_graph = state.root is not None
        self.backward_button.setEnabled(has_graph)
        self.zero_button.setEnabled(has_graph)
        self.step_button.setEnabled(has_graph and not (stepping and state.position >= total))
        self.back_button.setEnabled(stepping and state.position > 0)
        self.play_button.setEnabled(has_graph)
        self._fill_ledger()

    def _state_changed(self, change: Change) -> None:
        if change & (Change.GRADS | Change.STEP | Change.STRUCTURE):
            self.refresh()

    def _fill_ledger(self) -> None:
        """Add or remove only the steps taken or undone since the last call (cost independent of the step)."""
        state = self.state
        if self._forward():  # forward mode's tangent steps have ledger lines of their own
            trace, target, sentences_of = state.forward_trace, state.forward_position, state.forward_sentences
        else:
            trace, target = state.steps, (state.position if state.mode == "stepping" else 0)
            sentences_of = state.step_sentences
        marks_of = getattr(state, "step_marks", None) if not self._forward() else None
        if trace is not self._trace:  # a new trace (new graph, new values, other mode): write it again
            self.ledger.clear()
            self._starts = []
            self._bold = 0
            self._trace = trace
            self._first_mark = None
        while len(self._starts) > target:
            first = self._starts.pop()
            if self._first_mark is not None and self.ledger.row(self._first_mark) >= first:
                self._first_mark = None
            while self.ledger.count() > first:
                self.ledger.takeItem(self.ledger.count() - 1)
        while len(self._starts) < target:
            k = len(self._starts) + 1
            self._starts.append(self.ledger.count())
            marks = marks_of(k) if marks_of is not None else ()
            for i, sentence in enumerate(sentences_of(k)):
                # (no Python object stored in the item: a segfault in ledger.clear() was seen once while the
                # layout thread ran, and nothing read that data)
                mark = marks[i] if i < len(marks) else ""
                item = QListWidgetItem(f"{k}. ⚠ {sentence}" if mark else f"{k}. {sentence}")  # (⚠: seen selected too)
                if mark:
                    item.setForeground(QColor(palette().error))
                    item.setToolTip(MARK_TIPS[mark])
                    item.setData(Qt.ItemDataRole.AccessibleDescriptionRole, mark)
                    if self._first_mark is None:
                        self._first_mark = item
                self.ledger.addItem(item)
        self._set_bold(self._bold, False)
        self._bold = target
        last = self._set_bold(target, True)
        if last is not None:
            self.ledger.setCurrentItem(last)
            self.ledger.scrollToItem(last)
            if self._first_mark is not None and target == len(trace):  # a broken pass done: its first wrong line
                self.ledger.scrollToItem(self._first_mark)
        else:
            self.ledger.clearSelection()

    def _set_bold(self, k: int, bold: bool) -> QListWidgetItem | None:
        """Bold (or not) the lines of step ``k``; returns its last line."""
        if not 0 < k <= len(self._starts):
            return None
        end = self._starts[k] if k < len(self._starts) else self.ledger.count()
        item = None
        for i in range(self._starts[k - 1], end):
            item = self.ledger.item(i)
            font = item.font()
            font.setBold(bold)
            item.setFont(font)
        return item

    def recolor(self) -> None:
        """A theme switch: the marked lines of a broken backward take the new palette's error color."""
        color = QColor(palette().error)
        for i in range(self.ledger.count()):
            item = self.ledger.item(i)
            if item.data(Qt.ItemDataRole.AccessibleDescriptionRole):
                item.setForeground(color)

    def marked(self) -> list[tuple[str, str]]:
        """(mark, text) of each marked ledger line: what a broken backward overwrote or delivered too late."""
        lines = []
        for i in range(self.ledger.count()):
            item = self.ledger.item(i)
            mark = item.data(Qt.ItemDataRole.AccessibleDescriptionRole)
            if mark:
                lines.append((mark, item.text()))
        return lines

    def sentences(self) -> list[str]:
        return [self.ledger.item(i).text() for i in range(self.ledger.count())]
