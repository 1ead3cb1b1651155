"""The expression playground's model: text → program → evaluation → trace.

Widgets never touch the engine; they call the methods here and redraw when a
signal says something changed.  All autograd work is delegated to
``autograd_core`` (compile, evaluate, backward, the backward trace, gradcheck,
the non-finite report); this object only keeps *which* state is on screen.

Gradient display has three modes:

* ``"none"``     – backward not run: the engine's gradients (0 after zero_grad);
* ``"done"``     – after ``backward()``: the engine's gradients;
* ``"stepping"`` – walking the backward trace: only nodes reached so far have a
  gradient, taken from ``trace.grads_after`` (the engine is never mutated
  until the last step, which runs the real ``backward()``).
"""

from __future__ import annotations

import math
from typing import Any

from PySide6.QtCore import QObject, QTimer, Signal

from autograd_core import gradcheck, non_finite_nodes
from autograd_core.expression import ExpressionError, compile_expression
from autograd_core.graph import to_networkx
from autograd_core.trace import backward_steps, grads_after

# Values given to inputs the user has not set yet: the article's a, b, c first.
DEFAULT_VALUES = (2.0, -3.0, 10.0, 0.5, -1.5, 3.0, -0.5, 1.5, -2.0, 0.25)


def default_range(value: float) -> tuple[float, float]:
    bound = max(5.0, math.ceil(abs(value) * 2.0)) if math.isfinite(value) else 5.0
    return (-bound, bound)


class ExpressionState(QObject):
    """Holds program, values, evaluation, graph and backward trace; emits on change."""

    text_changed = Signal(str)  # text set from outside (example, session): the editor follows
    program_changed = Signal()  # a new program compiled: inputs may differ
    evaluated = Signal()  # values recomputed: new evaluation and graph
    grads_changed = Signal()  # displayed gradients changed (backward, zero grad, step)
    error_changed = Signal(object)  # ExpressionError or None
    playing_changed = Signal(bool)
    gradcheck_changed = Signal()
    message = Signal(str)  # one-line status text

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self.text = ""
        self.program = None
        self.evaluation = None
        self.graph = None  # networkx graph of the evaluation (to_networkx)
        self.node_ids: dict[Any, int] = {}  # Tensor -> node id in ``graph``
        self.values: dict[str, float] = {}
        self.ranges: dict[str, tuple[float, float]] = {}
        self.error: ExpressionError | None = None
        self.mode = "none"
        self.steps: list = []
        self.position = 0  # number of trace steps taken while stepping
        self.gradcheck_enabled = False
        self.gradcheck_results: dict[str, Any] = {}
        self.non_finite: list = []
        self.structure_version = 0  # bumps when the graph's shape (not just its numbers) changes
        self._timer = QTimer(self)
        self._timer.timeout.connect(self._play_tick)
        self.play_interval_ms = 600

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
        self._set_error(None)
        self.program = program
        for i, name in enumerate(program.inputs):
            if name not in self.values:
                self.values[name] = DEFAULT_VALUES[i % len(DEFAULT_VALUES)]
            if name not in self.ranges:
                self.ranges[name] = default_range(self.values[name])
        self.program_changed.emit()
        self._evaluate(structure_changed=True)
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
        self.error_changed.emit(err)
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

    def _evaluate(self, structure_changed: bool) -> None:
        values = {name: self.values[name] for name in self.program.inputs}
        try:
            self.evaluation = self.program.evaluate(values)
        except ExpressionError as err:  # e.g. a runtime check inside the language
            self._set_error(err)
            return
        root = self.evaluation.output
        if self.mode == "done":
            root.backward()
        self.graph = to_networkx(root)
        self.node_ids = {data["tensor"]: node for node, data in self.graph.nodes(data=True)}
        if structure_changed:
            self.structure_version += 1
        if self.mode == "stepping":
            self.steps = backward_steps(root)
            self.position = min(self.position, len(self.steps))
            if self.position == len(self.steps):
                root.backward()
        self._refresh_checks()
        self.evaluated.emit()
        self.grads_changed.emit()

    # ------------------------------------------------------------ backward

    @property
    def root(self):
        return self.evaluation.output if self.evaluation is not None else None

    def backward(self) -> None:
        """Run the engine's backward(); leaves accumulate, as in PyTorch."""
        if self.root is None:
            return
        self.stop()
        accumulated = self.mode == "done"
        if self.mode == "stepping":
            self.root.zero_grad()  # stepping started from zero; finish the same pass
            accumulated = False
        self.mode = "done"
        self.steps, self.position = [], 0
        self.root.backward()
        self._refresh_grads()
        if accumulated:
            self.message.emit("Backward again: leaf gradients accumulated (+=). Press Zero grad to reset them.")
        else:
            self.message.emit("Backward done: every node holds d(output)/d(node).")

    def zero_grad(self) -> None:
        if self.root is None:
            return
        self.stop()
        self.root.zero_grad()
        self.mode = "none"
        self.steps, self.position = [], 0
        self._refresh_grads()
        self.message.emit("Gradients set to zero.")

    def start_stepping(self) -> None:
        """Begin a step-by-step backward pass from zero gradients."""
        self.root.zero_grad()
        self.mode = "stepping"
        self.steps = backward_steps(self.root)
        self.position = 0

    def step(self) -> bool:
        """Take one step of the backward trace; False when there is none left."""
        if self.root is None:
            return False
        if self.mode != "stepping":
            self.start_stepping()
        if self.position >= len(self.steps):
            return False
        self.position += 1
        if self.position == len(self.steps):
            self.root.zero_grad()
            self.root.backward()  # the engine now holds what the trace showed
        self._refresh_grads()
        return True

    def back(self) -> bool:
        """Undo one step of the trace."""
        if self.mode != "stepping" or self.position == 0:
            return False
        if self.position == len(self.steps):
            self.root.zero_grad()
        self.position -= 1
        self._refresh_grads()
        return True

    def play(self, interval_ms: int | None = None) -> None:
        """Animate the remaining steps."""
        if self.root is None:
            return
        if interval_ms is not None:
            self.set_play_interval(interval_ms)
        if self.mode != "stepping" or self.position >= len(self.steps):
            self.start_stepping()
            self._refresh_grads()
        self._timer.start(self.play_interval_ms)
        self.playing_changed.emit(True)

    def stop(self) -> None:
        if self._timer.isActive():
            self._timer.stop()
            self.playing_changed.emit(False)

    @property
    def playing(self) -> bool:
        return self._timer.isActive()

    def set_play_interval(self, interval_ms: int) -> None:
        self.play_interval_ms = max(20, int(interval_ms))
        if self._timer.isActive():
            self._timer.setInterval(self.play_interval_ms)

    def _play_tick(self) -> None:
        if not self.step() or self.position >= len(self.steps):
            self.stop()

    # ------------------------------------------------------------ what to show

    @property
    def current_step(self):
        """The trace step just taken (None unless stepping)."""
        if self.mode == "stepping" and 0 < self.position <= len(self.steps):
            return self.steps[self.position - 1]
        return None

    def displayed_grads(self) -> dict[int, float | None]:
        """Node id -> gradient to show (None: not reached yet while stepping)."""
        if self.graph is None:
            return {}
        if self.mode == "stepping":
            reached = grads_after(self.root, self.steps, self.position)
            return {node: reached.get(t) for t, node in self.node_ids.items()}
        return {node: t.grad for t, node in self.node_ids.items()}

    def input_grad(self, name: str) -> float | None:
        if self.evaluation is None or name not in self.evaluation.inputs:
            return None
        leaf = self.evaluation.inputs[name]
        if self.mode == "stepping":
            return grads_after(self.root, self.steps, self.position).get(leaf)
        return leaf.grad

    def ledger(self) -> list[tuple[int, str]]:
        """(step number, sentence) for every contribution made so far."""
        lines = []
        for k, step in enumerate(self.steps[: self.position] if self.mode == "stepping" else []):
            lines.extend((k + 1, sentence) for sentence in step.sentences())
        return lines

    def highlight(self) -> tuple[set[int], set[tuple[int, int, int]], int | None]:
        """Nodes and edges of the current step: the node and the parents it feeds."""
        step = self.current_step
        if step is None or step.node not in self.node_ids:
            return set(), set(), None
        node = self.node_ids[step.node]
        parents = {self.node_ids[c.parent] for c in step.contributions if c.parent in self.node_ids}
        edges = {(self.node_ids[c.parent], node, c.index) for c in step.contributions if c.parent in self.node_ids}
        return {node, *parents}, edges, node

    # ------------------------------------------------------------ checks

    def set_gradcheck(self, enabled: bool) -> None:
        self.gradcheck_enabled = bool(enabled)
        self._refresh_checks()
        self.gradcheck_changed.emit()

    def _refresh_grads(self) -> None:
        self._refresh_checks()
        self.grads_changed.emit()

    def _refresh_checks(self) -> None:
        root = self.root
        self.non_finite = non_finite_nodes(root) if root is not None else []
        if self.non_finite:
            self.message.emit("Not finite: " + self.non_finite[0].message)
        self.gradcheck_results = {}
        if self.gradcheck_enabled and self.program is not None and self.program.inputs:
            self.gradcheck_results = {r.name: r for r in self.gradient_check()}
        self.gradcheck_changed.emit()

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
        self.set_gradcheck(bool(data.get("gradcheck", False)))
        self.load(data.get("text", ""), values, ranges)
