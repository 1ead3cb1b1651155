"""What a graph view shows of one computation graph: values, gradients, the backward trace.

Any root Tensor can be shown: an expression's output (``ExpressionState``
builds on this class) or one data point's loss through a trained network
(the sample-graph view).  All autograd work is delegated to ``autograd_core``
(backward, the backward trace, the non-finite report); this object only
keeps *which* state is on screen.

One source of truth: after every change the state makes one immutable
``GraphSnapshot`` (values, shown gradients, local derivatives, the current
step) and emits ONE ``changed`` signal whose ``Change`` flags say what
changed, so a view redraws from the snapshot, never from live Tensors, and a
slider move or a keystroke refreshes each widget once.

Gradient display has three modes:

* ``"none"``     – backward not run: the engine's gradients (0 after zero_grad);
* ``"done"``     – after ``backward()``: the engine's gradients;
* ``"stepping"`` – walking the backward trace: only nodes reached so far have a
  gradient.  Each step applies (and Back undoes) only its own contributions,
  so a step costs the same at step 1 and at step 1,500; the engine is never
  mutated until the last step, which runs the real ``backward()``.
"""

from __future__ import annotations

import enum
from contextlib import contextmanager
from typing import Any, Protocol

from PySide6.QtCore import QObject, QTimer, Signal

from autograd_core import non_finite_nodes
from autograd_core.drawing.graph import GraphSnapshot, numbers_of, to_networkx
from autograd_core.drawing.grouping import OVERVIEW_NODES, add_overview_groups
from autograd_core.engine.tensor import topological_order
from autograd_core.language.trace import backward_steps


class Change(enum.Flag):
    """What one ``changed`` signal says changed."""

    NONE = 0
    STRUCTURE = enum.auto()  # a graph of another shape: lay it out again
    VALUES = enum.auto()  # node values and local derivatives
    GRADS = enum.auto()  # the gradients shown (backward, zero grad, a step)
    STEP = enum.auto()  # the step-by-step position and its ledger
    CHECKS = enum.auto()  # non-finite report, gradient check
    PROGRAM = enum.auto()  # ExpressionState: a new program (its inputs may differ)
    ERROR = enum.auto()  # ExpressionState: a typing error appeared or went away

    @classmethod
    def everything_drawn(cls) -> Change:
        return cls.STRUCTURE | cls.VALUES | cls.GRADS | cls.STEP


class Tracer(Protocol):
    """Where stepping's steps come from: the engine's backward, or (Break it) a replay of it broken on purpose."""

    broken: bool  # the last steps given are not the engine's own backward: their end never runs it

    def trace(self, root) -> list:
        """The steps to walk from ``root``."""


class BackwardTrace:
    """The engine's own backward, one node at a time."""

    broken = False

    def trace(self, root) -> list:
        return backward_steps(root)


class GraphState(QObject):
    """Holds a root Tensor, its graph's structure and the backward trace; emits one ``changed`` per change."""

    changed = Signal(object)  # Change flags; ``snapshot`` is already the new one
    playing_changed = Signal(bool)
    message = Signal(str)  # one-line status text

    def __init__(self, parent: QObject | None = None, tracer: Tracer | None = None):
        super().__init__(parent)
        self.tracer = tracer if tracer is not None else BackwardTrace()  # the steps stepping walks
        self._root = None
        self.graph = None  # networkx graph of the root's structure (to_networkx)
        self.tensors: list = []  # node id -> Tensor of the current evaluation
        self.node_ids: dict[Any, int] = {}  # Tensor -> node id in ``graph``
        self.snapshot: GraphSnapshot | None = None
        self.mode = "none"
        self.steps: list = []
        self.position = 0  # number of trace steps taken while stepping
        self._reached: dict = {}  # while stepping: Tensor -> gradient so far (reached nodes only)
        self._undo: list = []  # per step taken: [(Tensor, gradient before or _UNREACHED)]
        self.non_finite: list = []
        self.structure_version = 0  # bumps when the graph's shape (not just its numbers) changes
        self._pending = Change.NONE
        self._batching = 0
        self._timer = QTimer(self)
        self._timer.timeout.connect(self._play_tick)
        self.play_interval_ms = 600

    @property
    def root(self):
        return self._root

    # ------------------------------------------------------------ one signal per change

    @contextmanager
    def batch(self):
        """Changes made inside the block are announced together, by one ``changed`` signal."""
        self._batching += 1
        try:
            yield
        finally:
            self._batching -= 1
            if not self._batching and self._pending:
                change, self._pending = self._pending, Change.NONE
                if change & Change.everything_drawn() or self.snapshot is None:
                    self._make_snapshot()
                self.changed.emit(change)

    def _notify(self, change: Change) -> None:
        self._pending |= change
        if not self._batching:
            with self.batch():
                pass

    def _make_snapshot(self) -> None:
        if self.graph is None:
            self.snapshot = None
            return
        values, grads, locals_ = numbers_of(self.tensors)
        if self.mode == "stepping":
            reached = self._reached
            grads = tuple(reached.get(t) for t in self.tensors)
        self.snapshot = GraphSnapshot(self.graph, self.structure_version, values, grads, locals_, self.highlight())

    # ------------------------------------------------------------ showing a root

    def show_root(self, root, structure_changed: bool = True, also: Change = Change.NONE, graph=None) -> None:
        """Show the graph that ends at ``root``, keeping the gradient mode.

        After Backward the new graph is backpropagated too; while stepping, the
        trace is rebuilt and the same number of steps stays taken.  When the
        structure is the same, the networkx graph is kept and only the numbers
        are read again.  ``graph``: ``root``'s graph already built (``overview_graph``,
        on a worker thread), used instead of building it here.
        """
        change = Change.VALUES | Change.GRADS | Change.CHECKS | also
        self._root = root
        if root is None:
            self.graph, self.node_ids, self.tensors = None, {}, []
            self.steps, self.position, self._reached, self._undo = [], 0, {}, []
            change |= Change.STRUCTURE | Change.STEP
        else:
            if self.mode == "done":
                root.backward()
            order = topological_order(root)
            if graph is not None and graph.number_of_nodes() == len(order):
                self.graph = graph
                structure_changed = True
            elif structure_changed or self.graph is None or len(order) != self.graph.number_of_nodes():
                self.graph = to_networkx(root)
                self._add_overview_groups()
                structure_changed = True
            self.tensors = order
            self.node_ids = {t: i for i, t in enumerate(order)}
            if self.mode == "stepping":
                position = self.position
                self.steps = self.tracer.trace(root)
                self._replay(min(position, len(self.steps)))
                if self.position == len(self.steps) and not self.tracer.broken:
                    root.backward()
                change |= Change.STEP
        if structure_changed:
            self.structure_version += 1
            change |= Change.STRUCTURE | Change.STEP
        with self.batch():
            self._refresh_checks()
            self._notify(change)

    def _add_overview_groups(self) -> None:
        """A big graph without groups of its own (an expression) gets overview groups: names, sums, terms."""
        add_overview_groups(self.graph, OVERVIEW_NODES)  # (the view starts with them collapsed)

    # ------------------------------------------------------------ backward

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
        self.steps, self.position, self._reached, self._undo = [], 0, {}, []
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
        self.steps, self.position, self._reached, self._undo = [], 0, {}, []
        self._refresh_grads()
        self.message.emit("Gradients set to zero.")

    def start_stepping(self, taken: int | None = 0) -> None:
        """Begin a step-by-step backward pass from zero gradients, ``taken`` steps already taken (None: all)."""
        self.root.zero_grad()
        self.mode = "stepping"
        self.steps = self.tracer.trace(self.root)
        self._replay(len(self.steps) if taken is None else min(taken, len(self.steps)))
        if self.position and self.position == len(self.steps) and not self.tracer.broken:
            self.root.backward()  # walked to its end: the engine holds what the trace shows, as after a last step

    def _replay(self, k: int) -> None:
        """Reset the trace to its start (the root seeded) and take ``k`` steps."""
        root = self.root
        seed = self.steps[0].seed if self.steps else (root.grad + 1.0 if root.is_leaf else 1.0)
        self._reached = {root: seed}
        self._undo = []
        self.position = 0
        for _ in range(k):
            self._apply_next()

    _UNREACHED = object()

    def _apply_next(self) -> None:
        """Apply step ``position`` (its node's gradient and each contribution), remembering how to undo it."""
        step = self.steps[self.position]
        reached, missing = self._reached, self._UNREACHED
        undo = [(step.node, reached.get(step.node, missing))]
        reached[step.node] = step.grad
        for c in step.contributions:
            undo.append((c.parent, reached.get(c.parent, missing)))
            reached[c.parent] = c.after
        self._undo.append(undo)
        self.position += 1

    def _undo_last(self) -> None:
        reached, missing = self._reached, self._UNREACHED
        for tensor, before in reversed(self._undo.pop()):
            if before is missing:
                reached.pop(tensor, None)
            else:
                reached[tensor] = before
        self.position -= 1

    def step(self) -> bool:
        """Take one step of the backward trace; False when there is none left."""
        if self.root is None:
            return False
        if self.mode != "stepping":
            self.start_stepping()
        if self.position >= len(self.steps):
            return False
        first = self.position == 0
        self._apply_next()
        last = self.position == len(self.steps)
        if last and not self.tracer.broken:
            self.root.zero_grad()
            self.root.backward()  # the engine now holds what the trace showed
        # the engine's numbers change only at the ends of the trace: check them for inf/nan only then
        self._refresh_grads(checks=first or last)
        return True

    def back(self) -> bool:
        """Undo one step of the trace."""
        if self.mode != "stepping" or self.position == 0:
            return False
        at_end = self.position == len(self.steps)
        if at_end:
            self.root.zero_grad()
        self._undo_last()
        self._refresh_grads(checks=at_end)
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
        """Node id -> gradient shown (None: not reached yet while stepping)."""
        if self.snapshot is None:
            return {}
        return dict(enumerate(self.snapshot.grads))

    def displayed_grad(self, tensor) -> float | None:
        """The gradient shown for one Tensor of the graph (None: not reached yet)."""
        if self.mode == "stepping":
            return self._reached.get(tensor)
        return tensor.grad

    def ledger(self) -> list[tuple[int, str]]:
        """(step number, sentence) for every contribution made so far."""
        lines = []
        for k in range(1, self.position + 1 if self.mode == "stepping" else 1):
            lines.extend((k, sentence) for sentence in self.step_sentences(k))
        return lines

    def step_sentences(self, k: int) -> list[str]:
        """The ledger lines of step ``k`` (counted from 1)."""
        return self.steps[k - 1].sentences()

    def highlight(self) -> tuple[frozenset, frozenset, int | None]:
        """Nodes and edges of the current step: the node and the parents it feeds."""
        step = self.current_step
        if step is None or step.node not in self.node_ids:
            return frozenset(), frozenset(), None
        ids = self.node_ids
        node = ids[step.node]
        parents = {ids[c.parent] for c in step.contributions if c.parent in ids}
        edges = {(ids[c.parent], node, c.index) for c in step.contributions if c.parent in ids}
        return frozenset({node, *parents}), frozenset(edges), node

    # ------------------------------------------------------------ checks

    def _refresh_grads(self, checks: bool = True) -> None:
        with self.batch():
            if checks:
                self._refresh_checks()
            self._notify(Change.GRADS | Change.STEP | (Change.CHECKS if checks else Change.NONE))

    def _refresh_checks(self) -> None:
        root = self.root
        self.non_finite = non_finite_nodes(root, self.tensors or None) if root is not None else []
        if self.non_finite:
            self.message.emit("Not finite: " + self.non_finite[0].message)
