"""The expression playground's model: text → program → evaluation → graph.

Widgets never touch the engine; they call the methods here and redraw when
the one ``changed`` signal (``GraphState``) says what changed: a keystroke or
a slider move is one signal, so each widget refreshes once.  Showing a graph, backward and the step-by-step
trace live in ``GraphState`` (shared with the sample-graph view); this class
adds what is particular to a typed expression: text, inputs and their values,
parse errors and the gradient check, and the maths views.  Its parts are composed
objects: ``preparer`` (typing compiled ahead, a long text off the GUI thread,
``text_preparer``), ``walk`` (forward mode's steps, ``autograd_core.language.forward_walk``)
and ``break_it`` (the Break-it switch and its replay, ``autograd_core.language.break_it``).

* ``direction``: "reverse" (backward stepping, in ``GraphState``) or
  "forward": tangents stepped node by node in topological order from one
  seeded input (ẋ = 1), with their own ledger;
* ``derivative``: show d(output)/d(x) (1st or 2nd order) as its own graph,
  built with ``grad(create_graph=True)``, instead of the expression;
* ``selected``: a node whose chain-rule path to the output the maths panel
  writes out (and the graph highlights);
* ``bug``: Break it, backward run with one of the article's two bugs on purpose
  (``autograd_core.language.break_it``): Backward and Step then walk the broken
  replay, whose wrong grads are shown (never written into a Tensor) and marked
  ``broken``; turning the switch off runs the correct backward again.
"""

from __future__ import annotations

import math
from typing import Any

from PySide6.QtCore import QObject, Signal

from autograd_core import gradcheck
from autograd_core.drawing.graph import GraphSnapshot, numbers_of
from autograd_core.engine.forward import pass_counts
from autograd_core.engine.functional import grad
from autograd_core.engine.gradcheck import relative_error
from autograd_core.engine.tensor import Tensor, topological_order
from autograd_core.language.break_it import BUGS, BreakItSwitch
from autograd_core.language.chain_path import ChainPath, chain_path
from autograd_core.language.expression import ExpressionError
from autograd_core.language.forward_walk import ForwardWalk
from autograd_core.language.trace import output_name

from ..graph_view.graph_state import Change, GraphState
from .text_preparer import TextPreparer

# Values given to inputs the user has not set yet: the article's a, b, c first.
DEFAULT_VALUES = (2.0, -3.0, 10.0, 0.5, -1.5, 3.0, -0.5, 1.5, -2.0, 0.25)
MISMATCH = 1e-4  # relative error above which a gradient check is flagged (the inputs' check, Break it's)


def derivative_title(name: str, order: int, of: str = "f") -> str:
    """'∂g/∂x' or '∂²g/∂x²' (``of``: the output's name): the label of a derivative graph's root."""
    return f"∂{of}/∂{name}" if order == 1 else f"∂²{of}/∂{name}²"


def shape_signature(root) -> tuple:
    """What a graph's drawing depends on (ops, labels and edges), to tell a new shape from new numbers."""
    order = topological_order(root)
    ids = {t: i for i, t in enumerate(order)}
    return tuple((t.op, t.label, t.kind, tuple(ids[p] for p in t.parents)) for t in order)


def default_range(value: float) -> tuple[float, float]:
    bound = max(5.0, math.ceil(abs(value) * 2.0)) if math.isfinite(value) else 5.0
    return (-bound, bound)


class ExpressionState(GraphState):
    """Holds text, program, input values and gradient check on top of the shown graph."""

    text_changed = Signal(str)  # text set from outside (example, session): the editor follows

    def __init__(self, parent: QObject | None = None):
        self.break_it = BreakItSwitch()  # which backward stepping walks: the correct one or a broken replay
        super().__init__(parent, tracer=self.break_it)
        self.program = None
        self.gradcheck_enabled = False
        self.gradcheck_results: dict[str, Any] = {}
        self.text = ""
        self.evaluation = None
        self.values: dict[str, float] = {}
        self.ranges: dict[str, tuple[float, float]] = {}
        self.error: ExpressionError | None = None
        self.direction = "reverse"  # or "forward"
        self.seed: str | None = None  # forward mode: the input whose tangent is 1
        self.walk = ForwardWalk()  # forward mode's steps on the shown graph
        self.derivative: tuple[str, int] | None = None  # (input, order) while a derivative graph is shown
        self.selected: int | None = None  # node id whose chain-rule path is written out
        self._selected_version = -1
        self._derivative_signature = None
        self.preparer = TextPreparer(self, self)  # texts compiled ahead; a long one's graph built off this thread

    # ------------------------------------------------------------ program

    def set_text(self, text: str, force: bool = False) -> bool:
        """Compile ``text``; on an error keep the last good program on screen.

        Returns True when the text compiled.
        """
        self.preparer.cancel()  # this text is newer than any being prepared by request_text
        if text == self.text and not force and self.program is not None and self.error is None:
            return True
        self.text = text
        return self.install(text, self.preparer.take(text))

    def install(self, text: str, program, evaluation=None, graph=None) -> bool:
        """Make ``program`` (or the ExpressionError) the one shown; ``evaluation`` and ``graph``: computed ahead."""
        self.text = text
        if isinstance(program, ExpressionError):
            self._set_error(program)
            return False
        with self.batch():
            self._set_error(None)
            self.program = program
            self.give_defaults(program)
            self._evaluate(structure_changed=True, also=Change.PROGRAM, evaluation=evaluation, graph=graph)
        return True

    def give_defaults(self, program) -> dict[str, float]:
        """Values (and slider ranges) for the inputs not set yet; returns the program's input values."""
        for i, name in enumerate(program.inputs):
            if name not in self.values:
                self.values[name] = DEFAULT_VALUES[i % len(DEFAULT_VALUES)]
            if name not in self.ranges:
                self.ranges[name] = default_range(self.values[name])
        return {name: self.values[name] for name in program.inputs}

    # ------------------------------------------------------------ typing: big texts off the GUI thread

    def request_text(self, text: str) -> None:
        """``set_text(text, force=True)`` for a typing pause; a long text is compiled, then its graph built, on a
        worker thread, and shown when both are done unless a newer text came first (``text_preparer``)."""
        if not self.preparer.request(text):
            self.set_text(text, force=True)

    @property
    def pending(self) -> bool:
        """A text from ``request_text`` is being prepared: the graph on screen is about to change."""
        return self.preparer.pending

    def compile_text(self, text: str) -> None:
        """Compile ``text`` now for a ``set_text(text)`` that follows (a long text is left to ``request_text``)."""
        self.preparer.prepare(text)

    def load(self, text: str, values: dict[str, float] | None = None, ranges: dict | None = None) -> bool:
        """Replace text and values at once (an example, a saved session)."""
        self.stop()
        self.preparer.cancel()
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

    def _evaluate(self, structure_changed: bool, also: Change = Change.NONE, evaluation=None, graph=None) -> None:
        """Evaluate the program (unless ``evaluation`` is given) and show it; ``graph``: its graph, built ahead."""
        values = {name: self.values[name] for name in self.program.inputs}
        try:
            self.evaluation = evaluation if evaluation is not None else self.program.evaluate(values)
        except ExpressionError as err:  # e.g. a runtime check inside the language
            self._set_error(err)
            return
        with self.batch():
            self._check_gradients()  # the values changed: check again (stepping does not change them)
            root = self._derivative_root()
            if self.derivative is not None:  # a new derivative graph: the same shape only if its signature is
                signature = shape_signature(root)
                structure_changed = structure_changed or signature != self._derivative_signature
                self._derivative_signature = signature
            else:
                self._derivative_signature = None
            self.show_root(root, structure_changed, also, graph=graph if root is self.evaluation.output else None)

    # ------------------------------------------------------------ derivative graphs

    def set_derivative(self, name: str | None, order: int = 1) -> None:
        """Show d^order(output)/d(name)^order as its own graph (None: the expression itself)."""
        self.stop()
        if name is not None and (name not in self.inputs or order not in (1, 2)):
            self.message.emit(f"No derivative graph for {name!r}: choose one of the inputs and order 1 or 2.")
            return
        wanted = (name, int(order)) if name is not None else None
        if wanted == self.derivative:
            return
        self.derivative = wanted
        if self.program is not None and self.evaluation is not None:
            self._evaluate(structure_changed=True)
        if wanted is not None and self.derivative == wanted:
            self.message.emit(
                f"Showing {derivative_title(*wanted, self.output_name)} as its own graph (built with create_graph): "
                "Backward on it gives the next derivative."
            )

    def _derivative_root(self):
        """The root to show: the expression's output, or the derivative graph asked for."""
        out = self.evaluation.output
        if self.derivative is None:
            return out
        name, order = self.derivative
        leaf = self.evaluation.inputs.get(name)
        if leaf is None:
            self.derivative = None
            self.message.emit(f"The expression has no input {name} any more: showing the expression.")
            return out
        g = out
        for _ in range(order):
            (g,) = grad(g, leaf, create_graph=True, allow_unused=True)
            if g is None:  # the output (or its derivative) does not depend on the input at all
                g = Tensor(0.0, kind="constant")
                self.message.emit(f"The output does not depend on {name}: its derivative is the constant 0.")
                break
        if not g.label:
            g.label = derivative_title(name, order, self.output_name)
        return g

    @property
    def output_name(self) -> str:
        """The output's name in the maths (the user's ``g``; ``f`` for an unnamed last line)."""
        evaluation = self.evaluation
        if evaluation is None:
            return "f"
        return output_name(evaluation.output, (*evaluation.inputs, *evaluation.named))

    @property
    def plain_reverse(self) -> bool:
        """True when the numbers on screen are the expression's own reverse-mode gradients."""
        return self.direction == "reverse" and self.derivative is None

    # ------------------------------------------------------------ forward mode

    def set_direction(self, direction: str) -> None:
        """'reverse' (backward stepping) or 'forward' (tangents from one seeded input)."""
        if direction not in ("reverse", "forward"):
            raise ValueError(f"unknown mode {direction!r}; choose 'reverse' or 'forward'")
        if direction == self.direction:
            return
        self.stop()
        self.direction = direction
        self.walk.position = 0
        with self.batch():
            self._rebuild_forward()
            self._notify(Change.GRADS | Change.STEP | Change.CHECKS)
        if direction == "forward":
            self.message.emit(
                f"Forward mode: ẋ = 1 for {self.seed_input() or 'the seeded input'}; "
                "Step (F6) computes one node's tangent."
            )
        else:
            self.message.emit("Reverse mode: Step (F6) walks the backward pass.")

    def set_seed(self, name: str) -> None:
        """Forward mode's direction: tangent 1 on input ``name``, 0 on the others."""
        if name not in self.inputs:
            self.message.emit(f"No input {name!r} to seed.")
            return
        if name == self.seed:
            return
        self.seed = name
        self.walk.position = 0
        with self.batch():
            self._rebuild_forward()
            self._notify(Change.GRADS | Change.STEP)

    def seed_input(self) -> str | None:
        inputs = self.inputs
        return self.seed if self.seed in inputs else (inputs[0] if inputs else None)

    def _rebuild_forward(self) -> None:
        if self.direction != "forward" or self.root is None or self.evaluation is None:
            self.walk.clear()
            return
        name = self.seed_input()
        self.walk.rebuild(self.root, self.evaluation.inputs.get(name) if name is not None else None)

    def show_root(self, root, structure_changed: bool = True, also: Change = Change.NONE, graph=None) -> None:
        with self.batch():
            super().show_root(root, structure_changed, also, graph)
            self._rebuild_forward()
            if self.structure_version != self._selected_version:
                self.selected = None

    @property
    def forward_trace(self) -> list:
        """Forward mode's ForwardStep per node of the shown graph, in topological order."""
        return self.walk.trace

    @property
    def forward_position(self) -> int:
        """Forward steps taken."""
        return self.walk.position

    @property
    def forward_current(self):
        """The forward step just taken (None before the first)."""
        return self.walk.current if self.direction == "forward" else None

    @property
    def forward_done(self) -> bool:
        return self.walk.done

    def forward_sentences(self, k: int) -> list[str]:
        """The forward ledger line of step ``k`` (counted from 1)."""
        return [self.walk.trace[k - 1].sentence(numbers=True)]

    def _forward_move(self, k: int) -> bool:
        if self.root is None or not self.walk.move(k):
            return False
        self._notify(Change.GRADS | Change.STEP)
        return True

    # ------------------------------------------------------------ stepping: forward, correct or broken backward

    def step(self) -> bool:
        if self.direction == "forward":
            if not self.walk.trace:
                self._rebuild_forward()
            return self._forward_move(self.walk.position + 1)
        if not super().step():
            return False
        if self.broken_done:  # the broken trace's last step: say what broke
            self.message.emit(self.broken_message())
        return True

    def back(self) -> bool:
        if self.direction == "forward":
            return self._forward_move(self.walk.position - 1)
        return super().back()

    def backward(self) -> None:
        """In forward mode: every tangent at once (the whole forward pass).  With a bug on: the broken replay
        walked to its end, from zero each time (its wrong grads never accumulate)."""
        if self.direction == "forward":
            self.stop()
            self._forward_move(len(self.walk.trace))
            return
        if self.bug is None:
            super().backward()
            return
        if self.root is None:
            return
        self.stop()
        with self.batch():
            self.start_stepping(None)
            self._refresh_grads()
        self.message.emit(self.broken_message())

    def zero_grad(self) -> None:
        """In forward mode: back to no tangent computed."""
        if self.direction == "forward":
            self.stop()
            self._forward_move(0)
            return
        super().zero_grad()

    def play(self, interval_ms: int | None = None) -> None:
        if self.direction != "forward":
            super().play(interval_ms)
            return
        if self.root is None:
            return
        if interval_ms is not None:
            self.set_play_interval(interval_ms)
        if self.walk.done:
            self._forward_move(0)
        self._timer.start(self.play_interval_ms)
        self.playing_changed.emit(True)

    def _play_tick(self) -> None:
        if self.direction != "forward":
            super()._play_tick()
        elif not self.step() or self.walk.done:
            self.stop()

    # ------------------------------------------------------------ Break it

    @property
    def bug(self) -> str | None:
        """The Break-it switch: a key of break_it.BUGS, None for the correct backward."""
        return self.break_it.bug

    @property
    def replay(self):
        """The broken Replay being walked (None: the correct backward_steps)."""
        return self.break_it.replay

    def set_bug(self, bug: str | None) -> None:
        """Switch a bug on (a key of BUGS) or off (None).  Grads on screen are walked again at once with the new
        setting: the broken ones appear, or, switched off, the right ones come back."""
        if not self.break_it.switch(bug):
            return
        self.stop()
        with self.batch():
            shown = self.root is not None and self.direction == "reverse" and self.mode != "none"
            if shown and (self.mode == "done" or self.position >= len(self.steps)):
                self.backward()  # the whole pass, broken or right
            elif self.root is not None and self.mode == "stepping":  # (hidden by forward mode: walked there too)
                self.start_stepping(self.position)
                self._refresh_grads()
            self._notify(Change.STEP | Change.CHECKS)
        if bug is None:
            self.message.emit("Break it off: backward is correct again" + (", right grads shown." if shown else "."))
        elif not shown:
            self.message.emit(f"Break it on ({BUGS[bug]}): press Backward or Step to run the broken backward.")

    @property
    def broken(self) -> bool:
        """True while the grads on screen come from a backward broken on purpose (never a correct result)."""
        return self.break_it.broken and self.mode == "stepping" and self.direction == "reverse"

    @property
    def broken_done(self) -> bool:
        """The broken backward walked to its end: its wrong grads are all on screen."""
        return self.broken and self.position >= len(self.steps)

    def broken_message(self) -> str:
        return self.break_it.message() if self.broken else ""

    def step_marks(self, k: int) -> list[str]:
        """What each ledger line of step ``k`` shows: "" or, in a broken replay, "overwritten" / "late"."""
        step = self.steps[k - 1]
        return step.marks() if hasattr(step, "marks") else [""] * len(step.sentences())

    def broken_checks(self) -> list[tuple[str, float, float]]:
        """(input, grad shown, finite-difference gradient) for each input whose shown grad is wrong."""
        if not self.broken_done or self.program is None or not self.program.inputs:
            return []
        wrong = []
        for result in self.gradient_check():
            shown = self.input_grad(result.name)
            if shown is not None and relative_error(shown, result.numeric) > MISMATCH:
                wrong.append((result.name, shown, result.numeric))
        return wrong

    def reverse_gradient(self, name: str | None = None) -> float | None:
        """d(shown root)/d(input) by reverse mode (a float pass that changes no .grad): forward mode's check."""
        name = name or self.seed_input()
        if self.root is None or self.evaluation is None or name not in self.evaluation.inputs:
            return None
        leaf = self.evaluation.inputs[name]
        (g,) = grad(self.root, leaf, allow_unused=True)
        return g.data if g is not None else 0.0

    def cost_text(self) -> str:
        """How many passes each mode needs for the full gradient of the current expression."""
        counts = pass_counts(len(self.inputs), 1)
        f, r = counts["forward"], counts["reverse"]
        return (
            f"forward mode: {f} pass{'es' if f != 1 else ''} (one per input) · "
            f"reverse mode: {r} pass{'es' if r != 1 else ''} (one per output)"
        )

    # ------------------------------------------------------------ selection: a chain-rule path

    def select(self, node: int | None) -> None:
        """Choose the node whose path to the output the maths panel writes out (None: no selection)."""
        if node is not None and not (isinstance(node, int) and 0 <= node < len(self.tensors)):
            node = None
        if node == self.selected:
            return
        self.selected = node
        self._selected_version = self.structure_version
        self._notify(Change.STEP)

    def selected_path(self) -> ChainPath | None:
        if self.selected is None or self.root is None or self.selected >= len(self.tensors):
            return None
        return chain_path(self.root, self.tensors[self.selected])

    # ------------------------------------------------------------ snapshot

    def _make_snapshot(self) -> None:
        if self.direction != "forward" or self.graph is None:
            super()._make_snapshot()
            return
        values, _, locals_ = numbers_of(self.tensors)
        tangents = self.walk.tangents(len(self.tensors))
        self.snapshot = GraphSnapshot(
            self.graph, self.structure_version, values, tangents, locals_, self.highlight(), grad_name="tangent"
        )

    def highlight(self) -> tuple[frozenset, frozenset, int | None]:
        if self.direction == "forward":
            return self.walk.highlight(self.node_ids) or self._path_highlight()
        if self.current_step is not None:
            return super().highlight()
        return self._path_highlight()

    def _path_highlight(self) -> tuple[frozenset, frozenset, int | None]:
        path = self.selected_path()
        if path is None:
            return frozenset(), frozenset(), None
        ids = self.node_ids
        nodes = [ids[t] for t in path.nodes if t in ids]
        edges = {(ids[a], ids[b], i) for a, b, i in zip(path.nodes, path.nodes[1:], path.indices)}
        return frozenset(nodes), frozenset(edges), ids.get(path.nodes[0])

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
