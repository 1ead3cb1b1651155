"""One row per input: value (spin box + slider, editable range) and gradient.

With the gradient check on, each row also shows the numeric gradient from
finite differences and how the gradient *on screen* compares with it: a tick
only beside a number that was checked, never before Backward has run.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from PySide6.QtCore import QEvent, Qt, QTimer
from PySide6.QtWidgets import (
    QApplication,
    QCheckBox,
    QGridLayout,
    QLabel,
    QScrollArea,
    QSlider,
    QVBoxLayout,
    QWidget,
)

from autograd_core.engine.gradcheck import relative_error
from autograd_core.numbers import COMPACT, LEDGER, format_number, format_scientific

from ..graph_view.graph_state import Change
from ..look.app_style import set_text_role
from ..shell.number_box import NumberBox
from .expression_state import MISMATCH, ExpressionState

SLIDER_STEPS = 1000
MAX_ROWS = 40  # thousands of rows of widgets would freeze the window for seconds
ROWS_PER_TURN = 6  # new rows built per event-loop turn (the first ones fill the visible part)
ROW_PAUSE_MS = 30  # between turns: a graph's layout, on a worker thread, needs Python's lock meanwhile
BOX_LIMIT = 1e15  # the spin boxes' range; beyond it (or inf/nan) the value is shown as text


LINES = 4  # grid lines per input


def slider_position(value: float, lo: float, hi: float) -> int:
    """Where ``value`` sits between ``lo`` and ``hi`` (clamped; inf/nan and an empty range at an end)."""
    if not (hi > lo) or math.isnan(value):
        return 0
    t = (value - lo) / (hi - lo) if math.isfinite(value) else (1.0 if value > 0 else 0.0)
    return round(min(max(t, 0.0), 1.0) * SLIDER_STEPS) if math.isfinite(t) else 0


# Each verdict's text role: its color comes from the theme's palette and follows every switch.
VERDICT_ROLES = {
    "pending": "pending",
    "ok": "ok",
    "accumulated": "error",
    "mismatch": "error",
    "nonfinite": "error",
}


def comparable(state: ExpressionState) -> bool:
    """True when the gradients on screen are a finished backward pass (so a check can judge them)."""
    if not getattr(state, "plain_reverse", True):  # forward mode's tangents or a derivative graph's gradients
        return False
    return state.mode == "done" or (state.mode == "stepping" and state.position == len(state.steps))


def grad_tooltip(state: ExpressionState, name: str, grad: float | None) -> str:
    if grad is None:
        return f"{name}.grad: not reached yet by the step-by-step backward pass"
    if state.mode == "none":
        return f"{name}.grad = {grad!r}: backward has not run yet (press Backward, F5)"
    if not comparable(state):
        return f"{name}.grad so far = {grad!r}: the step-by-step pass may still add to it"
    return f"d(output)/d({name}) from autograd = {grad!r}"


def check_against_screen(state: ExpressionState, name: str, grad: float | None, result) -> tuple[str, str, str]:
    """(verdict, text, tooltip) comparing the gradient *shown* for ``name`` with the numeric one.

    The check judges the number on screen, never one the learner cannot see: before Backward
    (or halfway through stepping) there is nothing to compare yet, and gradients accumulated by
    several Backward presses are flagged as such — each pass alone agrees with the numeric one.
    """
    numeric = result.numeric
    if not comparable(state) or grad is None:
        if not getattr(state, "plain_reverse", True):
            return "pending", "not gradients", "Forward mode or a derivative graph is shown: the check needs Reverse"
        if state.mode == "none":
            return "pending", "needs Backward", "The gradient shown is 0 until backward runs: press Backward"
        return "pending", "needs last step", "The step-by-step pass is not finished: Step or Play to the end"
    if not (math.isfinite(grad) and math.isfinite(numeric)):
        return (
            "nonfinite",
            "✗ not finite",
            f"grad shown = {grad!r}, numeric = {numeric!r}: a gradient that is inf or nan cannot be checked",
        )
    rel = relative_error(grad, numeric)
    shown = f"grad shown = {grad!r}, numeric = {numeric!r}, relative error = {format_number(rel)}"
    formula = "relative error = |grad − numeric| / max(|grad|, |numeric|, 1)"
    if rel <= MISMATCH:
        return "ok", f"rel {format_scientific(rel)} ✓", f"{shown}: they agree ({formula})"
    if result.rel_error <= MISMATCH and result.analytic != 0.0:
        passes = grad / result.analytic
        whole = math.isfinite(passes) and passes > 1.5 and abs(passes - round(passes)) < 1e-9
        times = f" ×{round(passes)}" if whole else ""
        return (
            "accumulated",
            f"✗ accumulated{times}",
            f"{shown}. One backward pass gives {result.analytic!r}, which agrees with the numeric gradient; "
            "pressing Backward again added (+=) to the leaf gradients. Zero grad, then Backward.",
        )
    return "mismatch", f"rel {format_scientific(rel)} ✗ mismatch", f"{shown}: they disagree ({formula})"


class InputRow:
    """The widgets of one line of inputs, kept in sync with the state.

    A row is reused for whichever input sits at its line (``set_name``): a new
    expression renames rows instead of destroying and building widgets, which
    cost ~2.5 ms a row and froze typing for a third of a second with 40 inputs.
    """

    def __init__(self, panel: InputsPanel, name: str, row: int):
        self.panel, self.name = panel, name
        grid = panel.grid
        self.label = QLabel()
        self.spin = NumberBox(-BOX_LIMIT, BOX_LIMIT, digits=LEDGER)
        self.spin.setSingleStep(0.1)
        self.slider = QSlider(Qt.Orientation.Horizontal)
        self.slider.setRange(0, SLIDER_STEPS)
        self.slider.setMinimumWidth(60)
        self.low = NumberBox(-BOX_LIMIT, BOX_LIMIT, digits=COMPACT)
        self.high = NumberBox(-BOX_LIMIT, BOX_LIMIT, digits=COMPACT)
        self.grad = QLabel()
        self.fit_widths()
        self.numeric = QLabel()
        self.error = QLabel()
        self.verdict = ""  # "", "pending", "ok", "accumulated", "mismatch" or "nonfinite"
        # Four lines per input: name and value / slider between its bounds / gradient / gradient check.  The
        # gradient has a line of its own, so it shows whole even in a narrow column (presentation mode).
        top = LINES * row
        grid.addWidget(self.label, top, 0)
        grid.addWidget(self.spin, top, 1, 1, 3)
        grid.addWidget(self.low, top + 1, 0, 1, 1)
        grid.addWidget(self.slider, top + 1, 1, 1, 2)
        grid.addWidget(self.high, top + 1, 3)
        grid.addWidget(self.grad, top + 2, 0, 1, 4)
        grid.addWidget(self.numeric, top + 3, 0, 1, 2)
        grid.addWidget(self.error, top + 3, 2, 1, 2)
        self.set_name(name)
        self.spin.valueChanged.connect(self._spin_changed)
        self.slider.valueChanged.connect(self._slider_moved)
        self.low.valueChanged.connect(self._range_edited)
        self.high.valueChanged.connect(self._range_edited)

    def fit_widths(self) -> None:
        """Widths from the font in use (presentation mode's is 1.6× larger): the value box holds the longest
        number format_number writes with its digits (below 1e-4 it switches to 1.23457e−05), the bounds
        show "−100" whole and grow to their longest number."""
        fm = self.spin.fontMetrics()
        arrows = 34  # frame, padding and the spin arrows
        self.spin.setMaximumWidth(fm.horizontalAdvance(format_number(-0.000123456789, self.spin.digits)) + arrows)
        for box in (self.low, self.high):
            box.setMinimumWidth(fm.horizontalAdvance(format_number(-100.0, box.digits)) + arrows)
            box.setMaximumWidth(fm.horizontalAdvance(format_number(-0.000123456789, box.digits)) + arrows)

    def set_name(self, name: str) -> None:
        """Show input ``name`` on this row: names, tooltips, then its value and gradient."""
        self.name = name
        self.label.setText(f"<b>{name}</b>")
        self.label.setToolTip(f"Input {name}: a leaf of the graph you can change")
        self.spin.setObjectName(f"value_{name}")
        self.spin.setToolTip(f"Value of {name}; the graph recomputes as soon as it changes")
        self.slider.setObjectName(f"slider_{name}")
        self.slider.setToolTip(f"Drag to change {name} within its range")
        for box, what in ((self.low, "minimum"), (self.high, "maximum")):
            box.setToolTip(f"Slider {what} for {name}")
        self.low.setObjectName(f"low_{name}")
        self.high.setObjectName(f"high_{name}")
        self.grad.setObjectName(f"grad_{name}")
        self.grad.setToolTip(f"d(output)/d({name}) from autograd")
        self.numeric.setObjectName(f"numeric_{name}")
        self.numeric.setToolTip(f"Numeric gradient of {name} by central finite differences")
        self.error.setObjectName(f"relerr_{name}")
        self.error.setToolTip("The gradient shown compared with the numeric one")
        self.update_from_state()

    def set_visible(self, visible: bool) -> None:
        checking = self.panel.state.gradcheck_enabled
        for widget in self.widgets():
            widget.setVisible(visible and (checking or widget not in (self.numeric, self.error)))
            if not visible:
                widget.setObjectName("")  # a spare row answers to no input's name

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
            if math.isfinite(value) and abs(value) <= BOX_LIMIT:
                self.spin.setSpecialValueText("")
                if self.spin.value() != value:
                    self.spin.setValue(value)
            else:  # a box cannot hold it (a hand-edited session): show the value itself, never a clamped one
                self.spin.setSpecialValueText(format_number(value))
                self.spin.setValue(self.spin.minimum())
            self.low.setValue(lo)
            self.high.setValue(hi)
            self.slider.setValue(slider_position(value, lo, hi))
        finally:
            self.panel.updating = False
        grad = state.input_grad(self.name)
        if state.direction == "forward":
            self.grad.setText(f"tangent {format_number(grad)}")
            self.grad.setToolTip(f"{self.name}'s tangent in forward mode (1 for the seeded input, else 0)")
        else:
            self.grad.setText(f"grad {format_number(grad)}")
            self.grad.setToolTip(grad_tooltip(state, self.name, grad))
        result = state.gradcheck_results.get(self.name) if state.gradcheck_enabled else None
        self.numeric.setVisible(state.gradcheck_enabled)
        self.error.setVisible(state.gradcheck_enabled)
        if result is None:
            self.verdict = ""
            self.numeric.setText("")
            self.error.setText("")
            return
        self.numeric.setText(f"numeric {format_number(result.numeric)}")
        self.numeric.setToolTip(f"Numeric gradient of {self.name} by central finite differences = {result.numeric!r}")
        self.verdict, text, tip = check_against_screen(state, self.name, grad, result)
        self.error.setText(text)
        self.error.setToolTip(tip)
        set_text_role(self.error, VERDICT_ROLES[self.verdict])

    @property
    def mismatch(self) -> bool:
        return self.verdict == "mismatch"


class InputsPanel(QWidget):
    """Rows of inputs; rebuilt when the program's inputs change, refreshed otherwise."""

    def __init__(self, state: ExpressionState, parent: QWidget | None = None):
        super().__init__(parent)
        self.state = state
        self.rows: dict[str, InputRow] = {}  # the inputs shown, by name
        self._lines: list[InputRow] = []  # every row built so far, shown or hidden, in grid order
        self._stretch_line = 0
        self._more_scheduled = False
        self.wait_while: Callable[[], bool] | None = None  # while it answers True, rows not yet built wait
        self.updating = False
        self.gradcheck = QCheckBox("Gradient check")
        self.gradcheck.setObjectName("gradcheckToggle")
        self.gradcheck.setToolTip(
            "Gradient check (finite differences): show, for each input, the numeric gradient by central finite "
            "differences and compare it with the "
            f"gradient on screen once Backward has run; relative errors above {format_number(MISMATCH)} are flagged"
        )
        self.gradcheck.toggled.connect(state.set_gradcheck)
        self.empty = QLabel("No inputs: the expression has no free names.")
        self.empty.setObjectName("hintLabel")
        self.empty.setToolTip("Unassigned names in the expression become inputs")
        self.body = body = QWidget()
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
        layout.addWidget(self.gradcheck, 0, Qt.AlignmentFlag.AlignLeft)  # as wide as its text: a click hits it
        layout.addWidget(self.empty)
        layout.addWidget(scroll, 1)
        state.changed.connect(self._state_changed)

    def changeEvent(self, event) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange:
            for line in self._lines:
                line.fit_widths()

    def _state_changed(self, change: Change) -> None:
        """One refresh per change of the state (a new program rebuilds the rows)."""
        if change & Change.PROGRAM:
            self.rebuild()
        elif change & (Change.VALUES | Change.GRADS | Change.CHECKS):
            self.refresh()

    def rebuild(self) -> None:
        """Show a row per input: rows already built are renamed; new ones are built ROWS_PER_TURN at a
        time, ROW_PAUSE_MS apart (a row costs 1–2.5 ms: forty at once froze the window for a tenth of a second)."""
        self._more_scheduled = False
        names = self.state.inputs[:MAX_ROWS]
        shown = list(self.rows)
        if shown == names:
            self.refresh()
            return
        continuing = 0 < len(shown) < len(names) and names[: len(shown)] == shown
        if not continuing:
            self.rows = {}
        # Rows kept (the new program's inputs start like the old one's) show the new program's values: its
        # example may start x at 1 where the old one had 2.
        for row in self.rows.values():
            row.update_from_state()
        # Rows shown and hidden inside a hidden body cost a flag each, not a layout pass each (0.2 ms a widget).
        hidden, focus = self.body.isHidden(), QApplication.focusWidget()
        if focus is None or not self.body.isAncestorOf(focus):
            self.body.hide()
        built = 0
        for i in range(len(self.rows), len(names)):
            name = names[i]
            if i < len(self._lines):
                self._lines[i].set_name(name)  # a row already built: renamed, not rebuilt
            elif built < ROWS_PER_TURN:
                self._lines.append(InputRow(self, name, i))
                built += 1
            else:
                break
            self.rows[name] = self._lines[i]
        count = len(self.rows)
        for i, line in enumerate(self._lines):
            line.set_visible(i < count)
        self.body.setHidden(hidden)
        if self.gradcheck.isChecked() != self.state.gradcheck_enabled:
            self.refresh()  # rows renamed above already show the rest of the state
        self.grid.setRowStretch(LINES * self._stretch_line, 0)
        self._stretch_line = count
        self.grid.setRowStretch(LINES * count, 1)
        hidden = len(self.state.inputs) - len(names)
        if hidden > 0:
            self.empty.setText(f"Showing the first {MAX_ROWS} inputs; {hidden} more are not listed.")
        else:
            self.empty.setText("No inputs: the expression has no free names.")
        self.empty.setVisible(not names or hidden > 0)
        if count < len(names):
            self._more_scheduled = True
            QTimer.singleShot(ROW_PAUSE_MS, self, self._build_more)

    def _build_more(self) -> None:
        if not self._more_scheduled:
            return
        if self.wait_while is not None and self.wait_while():
            # Python's lock is busy with a worker (a graph's layout): each Qt call would wait for it
            QTimer.singleShot(ROW_PAUSE_MS, self, self._build_more)
            return
        self.rebuild()

    @property
    def complete(self) -> bool:
        """Every input that gets a row has it (rows are built over a few event-loop turns)."""
        return list(self.rows) == self.state.inputs[:MAX_ROWS]

    def refresh(self) -> None:
        if self.gradcheck.isChecked() != self.state.gradcheck_enabled:
            self.gradcheck.blockSignals(True)
            self.gradcheck.setChecked(self.state.gradcheck_enabled)
            self.gradcheck.blockSignals(False)
        for row in self.rows.values():
            row.update_from_state()
