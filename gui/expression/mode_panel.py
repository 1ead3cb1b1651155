"""Reverse or forward mode, forward mode's seeded input, and what each mode costs for this expression.

Reverse mode is the backward pass the ledger steps through; forward mode
carries a tangent (ẋ = 1 on one input) through the graph in topological
order.  The cost line says why backprop wins: forward mode needs one pass
per input, reverse mode one per output.  When forward mode has finished, its
result is put beside reverse mode's gradient for the same input.
"""

from __future__ import annotations

import math

from PySide6.QtWidgets import QButtonGroup, QComboBox, QHBoxLayout, QLabel, QRadioButton, QVBoxLayout, QWidget

from autograd_core.engine.forward import tangent_symbol
from autograd_core.numbers import LEDGER, format_number

from ..graph_view.graph_state import Change
from ..look.theme import palette

AGREE = 1e-12  # relative difference under which forward and reverse mode are said to agree


class ModePanel(QWidget):
    """The mode toggle (Reverse / Forward), the seed chooser and the cost counter, for an ExpressionState."""

    def __init__(self, state, parent: QWidget | None = None):
        super().__init__(parent)
        self.state = state
        self.theme = "light"
        self.reverse_button = QRadioButton("Reverse")
        self.reverse_button.setObjectName("reverseModeButton")
        self.reverse_button.setToolTip("Reverse mode (backpropagation): the backward pass, one node at a time")
        self.forward_button = QRadioButton("Forward")
        self.forward_button.setObjectName("forwardModeButton")
        self.forward_button.setToolTip(
            "Forward mode: carry a tangent ẋ = 1 from one input through the graph, one node at a time (F8)"
        )
        self.group = QButtonGroup(self)
        self.group.addButton(self.reverse_button)
        self.group.addButton(self.forward_button)
        self.reverse_button.setChecked(True)
        self.reverse_button.toggled.connect(lambda on: on and state.set_direction("reverse"))
        self.forward_button.toggled.connect(lambda on: on and state.set_direction("forward"))
        self.seed_combo = QComboBox()
        self._seed_names: list[str] | None = None  # the inputs the combo lists
        self.seed_combo.setObjectName("seedCombo")
        self.seed_combo.setToolTip("Forward mode's seed: this input's tangent is 1, every other input's 0")
        self.seed_combo.activated.connect(lambda i: state.set_seed(self.seed_combo.itemData(i)))
        self.seed_label = QLabel("Forward seed")
        self.seed_label.setToolTip(self.seed_combo.toolTip())
        self.cost = QLabel()
        self.cost.setObjectName("costCounter")
        self.cost.setWordWrap(True)
        self.cost.setToolTip(
            "Passes over the graph for the whole gradient: forward mode one per input, reverse mode one per output. "
            "A loss has one output and many inputs: that is why training uses reverse mode."
        )
        self.agreement = QLabel()
        self.agreement.setObjectName("modeAgreement")
        self.agreement.setWordWrap(True)
        self.agreement.setToolTip("Forward mode's result (jvp) beside reverse mode's gradient for the same input")
        row = QHBoxLayout()  # two short rows: the column stays as narrow as the backward buttons
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(QLabel("<b>Mode</b>"))
        row.addWidget(self.reverse_button)
        row.addWidget(self.forward_button)
        row.addStretch(1)
        seed_row = QHBoxLayout()
        seed_row.setContentsMargins(0, 0, 0, 0)
        seed_row.addWidget(self.seed_label)
        seed_row.addWidget(self.seed_combo, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(row)
        layout.addLayout(seed_row)
        layout.addWidget(self.cost)
        layout.addWidget(self.agreement)
        state.changed.connect(self._state_changed)
        self.refresh()

    def set_theme(self, theme: str) -> None:
        self.theme = theme
        self.refresh()

    def _state_changed(self, change: Change) -> None:
        if change & (Change.PROGRAM | Change.GRADS | Change.STEP | Change.VALUES | Change.STRUCTURE):
            self.refresh()

    def refresh(self) -> None:
        state = self.state
        forward = state.direction == "forward"
        button = self.forward_button if forward else self.reverse_button
        if not button.isChecked():
            button.blockSignals(True)
            button.setChecked(True)
            button.blockSignals(False)
        inputs = state.inputs
        if self._seed_names != inputs:  # (reading 600 items back from the combo cost 2 ms per slider move)
            self.seed_combo.clear()
            for name in inputs:
                self.seed_combo.addItem(f"{tangent_symbol(name)} = 1", name)
            self._seed_names = inputs
        seed = state.seed_input()
        if seed is not None:
            self.seed_combo.setCurrentIndex(inputs.index(seed))
        self.seed_combo.setEnabled(forward and bool(inputs))
        self.seed_label.setEnabled(forward)
        self.cost.setText(state.cost_text() if state.program is not None else "")
        self.agreement.setText(self._agreement_text())
        self.agreement.setVisible(bool(self.agreement.text()))

    def _agreement_text(self) -> str:
        state = self.state
        if state.direction != "forward" or not state.forward_done:
            return ""
        seed = state.seed_input()
        jvp = state.forward_trace[-1].tangent
        reverse = state.reverse_gradient(seed)
        if reverse is None:
            return ""
        colors = palette(self.theme)
        jt, rt = format_number(jvp, LEDGER), format_number(reverse, LEDGER)
        if jvp == reverse or (math.isfinite(jvp) and abs(jvp - reverse) <= AGREE * max(1.0, abs(reverse))):
            verdict = f"<span style='color:{colors.ok}'>✓ they agree</span>"
        else:
            verdict = f"<span style='color:{colors.error}'>✗ they differ</span>"
        return f"forward (jvp): {jt} · reverse: ∂/∂{seed} = {rt} — {verdict}"
