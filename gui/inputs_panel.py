"""One row per input: value (spin box + slider, editable range) and gradient.

With the gradient check on, each row also shows the numeric gradient from
finite differences and the relative error, flagged when they disagree.
"""

from __future__ import annotations

import math

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QDoubleSpinBox,
    QGridLayout,
    QLabel,
    QScrollArea,
    QSlider,
    QVBoxLayout,
    QWidget,
)

from autograd_core.numbers import format_number
from gui.expression_state import ExpressionState
from gui.graph_state import Change

SLIDER_STEPS = 1000
MAX_ROWS = 40  # thousands of rows of widgets would freeze the window for seconds
MISMATCH = 1e-4  # relative error above which a gradient check is flagged


class InputRow:
    """The widgets of one input, kept in sync with the state."""

    def __init__(self, panel: InputsPanel, name: str, row: int):
        self.panel, self.name = panel, name
        grid = panel.grid
        self.label = QLabel(f"<b>{name}</b>")
        self.label.setToolTip(f"Input {name}: a leaf of the graph you can change")
        self.spin = QDoubleSpinBox()
        self.spin.setObjectName(f"value_{name}")
        self.spin.setDecimals(4)
        self.spin.setRange(-1e9, 1e9)
        self.spin.setSingleStep(0.1)
        self.spin.setKeyboardTracking(False)
        self.spin.setMaximumWidth(120)
        self.spin.setToolTip(f"Value of {name}; the graph recomputes as soon as it changes")
        self.slider = QSlider(Qt.Orientation.Horizontal)
        self.slider.setObjectName(f"slider_{name}")
        self.slider.setRange(0, SLIDER_STEPS)
        self.slider.setMinimumWidth(90)
        self.slider.setToolTip(f"Drag to change {name} within its range")
        self.low = QDoubleSpinBox()
        self.high = QDoubleSpinBox()
        for box, what in ((self.low, "minimum"), (self.high, "maximum")):
            box.setDecimals(2)
            box.setRange(-1e9, 1e9)
            box.setKeyboardTracking(False)
            box.setToolTip(f"Slider {what} for {name}")
            box.setMaximumWidth(76)
        self.low.setObjectName(f"low_{name}")
        self.high.setObjectName(f"high_{name}")
        self.grad = QLabel()
        self.grad.setObjectName(f"grad_{name}")
        self.grad.setToolTip(f"d(output)/d({name}) from autograd")
        self.grad.setMinimumWidth(64)
        self.numeric = QLabel()
        self.numeric.setObjectName(f"numeric_{name}")
        self.numeric.setToolTip(f"Numeric gradient of {name} by central finite differences")
        self.error = QLabel()
        self.error.setObjectName(f"relerr_{name}")
        self.error.setToolTip("Relative error |autograd − numeric| / max(|autograd|, |numeric|)")
        # Three lines per input: name, value, gradient / slider between its bounds / gradient check.
        top = 3 * row
        grid.addWidget(self.label, top, 0)
        grid.addWidget(self.spin, top, 1, 1, 2)
        grid.addWidget(self.grad, top, 3)
        grid.addWidget(self.low, top + 1, 0, 1, 1)
        grid.addWidget(self.slider, top + 1, 1, 1, 2)
        grid.addWidget(self.high, top + 1, 3)
        grid.addWidget(self.numeric, top + 2, 1)
        grid.addWidget(self.error, top + 2, 2, 1, 2)
        self.update_from_state()
        self.spin.valueChanged.connect(self._spin_changed)
        self.slider.valueChanged.connect(self._slider_moved)
        self.low.valueChanged.connect(self._range_edited)
        self.high.valueChanged.connect(self._range_edited)

    def widgets(self) -> list[QWidget]:
        return [self.label, self.spin, self.slider, self.low, self.high, self.grad, self.numeric, self.error]

    def _spin_changed(self, value: float) -> None:
        if not self.panel.updating:
            self.panel.state.set_value(self.name, value)

    def _slider_moved(self, position: int) -> None:
        if self.panel.updating:
            return
        lo, hi = self.panel.state.ranges[self.name]
        self.panel.state.set_value(self.name, lo + (hi - lo) * position / SLIDER_STEPS)

    def _range_edited(self) -> None:
        if self.panel.updating:
            return
        if not self.panel.state.set_range(self.name, self.low.value(), self.high.value()):
            self.update_from_state()  # refused: show the range in force again
            return
        self.update_from_state()

    def update_from_state(self) -> None:
        state = self.panel.state
        value = state.values.get(self.name, 0.0)
        lo, hi = state.ranges.get(self.name, (-5.0, 5.0))
        self.panel.updating = True
        try:
            if self.spin.value() != value:
                self.spin.setValue(value)
            self.low.setValue(lo)
            self.high.setValue(hi)
            self.slider.setValue(round((value - lo) / (hi - lo) * SLIDER_STEPS) if hi > lo else 0)
        finally:
            self.panel.updating = False
        grad = state.input_grad(self.name)
        self.grad.setText(f"grad {format_number(grad)}")
        self.grad.setToolTip(f"d(output)/d({self.name}) from autograd = {grad!r}")
        result = state.gradcheck_results.get(self.name) if state.gradcheck_enabled else None
        self.numeric.setVisible(state.gradcheck_enabled)
        self.error.setVisible(state.gradcheck_enabled)
        if result is None:
            self.numeric.setText("")
            self.error.setText("")
            return
        bad = not (result.rel_error <= MISMATCH)
        self.numeric.setText(f"numeric {format_number(result.numeric)}")
        self.numeric.setToolTip(f"Numeric gradient = {result.numeric!r}; autograd = {result.analytic!r}")
        mark = "✗ mismatch" if bad else "✓"
        rel = "nan" if math.isnan(result.rel_error) else f"{result.rel_error:.1e}"
        self.error.setText(f"rel {rel} {mark}")
        self.error.setStyleSheet("color: #d0021b; font-weight: bold;" if bad else "color: #2e9d4f;")

    @property
    def mismatch(self) -> bool:
        return "mismatch" in self.error.text()


class InputsPanel(QWidget):
    """Rows of inputs; rebuilt when the program's inputs change, refreshed otherwise."""

    def __init__(self, state: ExpressionState, parent: QWidget | None = None):
        super().__init__(parent)
        self.state = state
        self.rows: dict[str, InputRow] = {}
        self.updating = False
        self.gradcheck = QCheckBox("Gradient check (finite differences)")
        self.gradcheck.setObjectName("gradcheckToggle")
        self.gradcheck.setToolTip(
            "Show, for each input, the numeric gradient by central finite differences next to autograd's, "
            f"with the relative error; errors above {MISMATCH:g} are flagged"
        )
        self.gradcheck.toggled.connect(state.set_gradcheck)
        self.empty = QLabel("No inputs: the expression has no free names.")
        self.empty.setObjectName("hintLabel")
        self.empty.setToolTip("Unassigned names in the expression become inputs")
        body = QWidget()
        self.grid = QGridLayout(body)
        self.grid.setContentsMargins(2, 2, 2, 2)
        self.grid.setHorizontalSpacing(6)
        self.grid.setColumnStretch(2, 1)
        self.grid.setVerticalSpacing(3)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(body)
        scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.gradcheck)
        layout.addWidget(self.empty)
        layout.addWidget(scroll, 1)
        state.changed.connect(self._state_changed)

    def _state_changed(self, change: Change) -> None:
        """One refresh per change of the state (a new program rebuilds the rows)."""
        if change & Change.PROGRAM:
            self.rebuild()
        elif change & (Change.VALUES | Change.GRADS | Change.CHECKS):
            self.refresh()

    def rebuild(self) -> None:
        names = self.state.inputs[:MAX_ROWS]
        if list(self.rows) == names:
            self.refresh()
            return
        for row in self.rows.values():
            for widget in row.widgets():
                self.grid.removeWidget(widget)
                widget.hide()  # deleteLater waits for the event loop; until then it would still show
                widget.setParent(None)
                widget.deleteLater()
        self.rows = {}
        for i, name in enumerate(names):
            self.rows[name] = InputRow(self, name, i)
        self.grid.setRowStretch(3 * len(names), 1)
        hidden = len(self.state.inputs) - len(names)
        if hidden > 0:
            self.empty.setText(f"Showing the first {MAX_ROWS} inputs; {hidden} more are not listed.")
        else:
            self.empty.setText("No inputs: the expression has no free names.")
        self.empty.setVisible(not names or hidden > 0)

    def refresh(self) -> None:
        if self.gradcheck.isChecked() != self.state.gradcheck_enabled:
            self.gradcheck.blockSignals(True)
            self.gradcheck.setChecked(self.state.gradcheck_enabled)
            self.gradcheck.blockSignals(False)
        for row in self.rows.values():
            row.update_from_state()
