"""The expression playground's model: text → program → evaluation → graph.

Widgets never touch the engine; they call the methods here and redraw when
the one ``changed`` signal (``GraphState``) says what changed: a keystroke or
a slider move is one signal, so each widget refreshes once.  Showing a graph, backward and the step-by-step
trace live in ``GraphState`` (shared with the sample-graph view); this class
adds what is particular to a typed expression: text, inputs and their values,
parse errors and the gradient check.
"""

from __future__ import annotations

import math
from typing import Any

from PySide6.QtCore import QObject, Signal

from autograd_core import gradcheck
from autograd_core.expression import ExpressionError, compile_expression
from gui.graph_state import Change, GraphState

# Values given to inputs the user has not set yet: the article's a, b, c first.
DEFAULT_VALUES = (2.0, -3.0, 10.0, 0.5, -1.5, 3.0, -0.5, 1.5, -2.0, 0.25)


def default_range(value: float) -> tuple[float, float]:
    bound = max(5.0, math.ceil(abs(value) * 2.0)) if math.isfinite(value) else 5.0
    return (-bound, bound)


class ExpressionState(GraphState):
    """Holds text, program, input values and gradient check on top of the shown graph."""

    text_changed = Signal(str)  # text set from outside (example, session): the editor follows

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self.program = None
        self.gradcheck_enabled = False
        self.gradcheck_results: dict[str, Any] = {}
        self.text = ""
        self.evaluation = None
        self.values: dict[str, float] = {}
        self.ranges: dict[str, tuple[float, float]] = {}
        self.error: ExpressionError | None = None

    # ------------------------------------------------------------ program

    def set_text(self, text: str, force: bool = False) -> bool:
        """Compile ``text``; on an error keep the last good program on screen.

        Returns True when the text compiled.
        """
        if text == self.text and not force and self.program is not None and self.error is None:
            return True
        self.text = text
        try:
            program = compile_expression(text)
        except ExpressionError as err:
            self._set_error(err)
            return False
        with self.batch():
            self._set_error(None)
            self.program = program
            for i, name in enumerate(program.inputs):
                if name not in self.values:
                    self.values[name] = DEFAULT_VALUES[i % len(DEFAULT_VALUES)]
                if name not in self.ranges:
                    self.ranges[name] = default_range(self.values[name])
            self._evaluate(structure_changed=True, also=Change.PROGRAM)
        return True

    def load(self, text: str, values: dict[str, float] | None = None, ranges: dict | None = None) -> bool:
        """Replace text and values at once (an example, a saved session)."""
        self.stop()
        for name, value in (values or {}).items():
            self.values[name] = float(value)
            self.ranges[name] = default_range(float(value))
        for name, bounds in (ranges or {}).items():
            lo, hi = float(bounds[0]), float(bounds[1])
            if lo < hi:
                self.ranges[name] = (lo, hi)
        self.mode = "none"
        self.text_changed.emit(text)
        return self.set_text(text, force=True)

    @property
    def inputs(self) -> list[str]:
        return list(self.program.inputs) if self.program is not None else []

    def _set_error(self, err: ExpressionError | None) -> None:
        if err is None and self.error is None:
            return
        self.error = err
        self._notify(Change.ERROR)
        if err is not None:
            self.message.emit(f"Line {err.line}, column {err.column}: {err.message}")

    # ------------------------------------------------------------ values

    def set_value(self, name: str, value: float) -> None:
        """Change one input and recompute at once (gradients too if they were shown)."""
        value = float(value)
        if self.values.get(name) == value:
            return
        self.values[name] = value
        lo, hi = self.ranges.get(name, default_range(value))
        if not lo <= value <= hi:
            self.ranges[name] = (min(lo, value), max(hi, value))
        if self.program is not None and name in self.program.inputs:
            self._evaluate(structure_changed=False)

    def set_range(self, name: str, lo: float, hi: float) -> bool:
        if not (math.isfinite(lo) and math.isfinite(hi)) or lo >= hi:
            self.message.emit(f"Range for {name}: the minimum must be below the maximum.")
            return False
        self.ranges[name] = (float(lo), float(hi))
        value = self.values.get(name, 0.0)
        clamped = min(max(value, lo), hi)
        if clamped != value:
            self.set_value(name, clamped)
        return True

    def _evaluate(self, structure_changed: bool, also: Change = Change.NONE) -> None:
        values = {name: self.values[name] for name in self.program.inputs}
        try:
            self.evaluation = self.program.evaluate(values)
        except ExpressionError as err:  # e.g. a runtime check inside the language
            self._set_error(err)
            return
        with self.batch():
            self._check_gradients()  # the values changed: check again (stepping does not change them)
            self.show_root(self.evaluation.output, structure_changed, also)

    # ------------------------------------------------------------ what to show

    def input_grad(self, name: str) -> float | None:
        """The gradient shown for input ``name`` (from the snapshot: None while stepping has not reached it)."""
        if self.evaluation is None or name not in self.evaluation.inputs or self.snapshot is None:
            return None
        node = self.node_ids.get(self.evaluation.inputs[name])
        return self.snapshot.grad(node) if node is not None else None

    # ------------------------------------------------------------ checks

    def set_gradcheck(self, enabled: bool) -> None:
        self.gradcheck_enabled = bool(enabled)
        self._check_gradients()
        self._notify(Change.CHECKS)

    def _check_gradients(self) -> None:
        self.gradcheck_results = {}
        if self.gradcheck_enabled and self.program is not None and self.program.inputs:
            self.gradcheck_results = {r.name: r for r in self.gradient_check()}

    def gradient_check(self) -> list:
        """Autograd vs central finite differences for each input (autograd_core.gradcheck)."""
        program = self.program
        names = list(program.inputs)

        def fn(*leaves):
            return program.evaluate(dict(zip(names, leaves))).output

        return gradcheck(fn, [self.values[n] for n in names], names=names)

    # ------------------------------------------------------------ session

    def session_state(self) -> dict:
        return {
            "text": self.text,
            "values": dict(self.values),
            "ranges": {k: list(v) for k, v in self.ranges.items()},
            "gradcheck": self.gradcheck_enabled,
        }

    def restore_session(self, data: dict) -> None:
        if not isinstance(data, dict) or not isinstance(data.get("text", ""), str):
            raise ValueError("the session's expression section is not valid")
        values = {str(k): float(v) for k, v in (data.get("values") or {}).items()}
        ranges = {str(k): (float(v[0]), float(v[1])) for k, v in (data.get("ranges") or {}).items()}
        with self.batch():
            self.set_gradcheck(bool(data.get("gradcheck", False)))
            self.load(data.get("text", ""), values, ranges)
