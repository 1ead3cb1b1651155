"""What a graph view shows of one computation graph: values, gradients, the backward trace.

Any root Tensor can be shown: an expression's output (``ExpressionState``
builds on this class) or one data point's loss through a trained network
(the sample-graph view).  All autograd work is delegated to ``autograd_core``
(backward, the backward trace, the non-finite report); this object only
keeps *which* state is on screen and emits signals when it changes.

Gradient display has three modes:

* ``"none"``     – backward not run: the engine's gradients (0 after zero_grad);
* ``"done"``     – after ``backward()``: the engine's gradients;
* ``"stepping"`` – walking the backward trace: only nodes reached so far have a
  gradient, taken from ``trace.grads_after`` (the engine is never mutated
  until the last step, which runs the real ``backward()``).
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QObject, QTimer, Signal

from autograd_core import non_finite_nodes
from autograd_core.graph import to_networkx
from autograd_core.trace import backward_steps, grads_after


class GraphState(QObject):
    """Holds a root Tensor, its networkx graph and the backward trace; emits on change."""

    evaluated = Signal()  # a new graph (or new values): redraw
    grads_changed = Signal()  # displayed gradients changed (backward, zero grad, step)
    playing_changed = Signal(bool)
    message = Signal(str)  # one-line status text

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self._root = None
        self.graph = None  # networkx graph of the root (to_networkx)
        self.node_ids: dict[Any, int] = {}  # Tensor -> node id in ``graph``
        self.mode = "none"
        self.steps: list = []
        self.position = 0  # number of trace steps taken while stepping
        self.non_finite: list = []
        self.structure_version = 0  # bumps when the graph's shape (not just its numbers) changes
        self._timer = QTimer(self)
        self._timer.timeout.connect(self._play_tick)
        self.play_interval_ms = 600

    @property
    def root(self):
        return self._root

    def show_root(self, root, structure_changed: bool = True) -> None:
        """Show the graph that ends at ``root``, keeping the gradient mode.

        After Backward the new graph is backpropagated too; while stepping, the
        trace is rebuilt and the same number of steps stays taken.
        """
        self._root = root
        if root is None:
            self.graph, self.node_ids = None, {}
            self.steps, self.position = [], 0
        else:
            if self.mode == "done":
                root.backward()
            self.graph = to_networkx(root)
            self.node_ids = {data["tensor"]: node for node, data in self.graph.nodes(data=True)}
            if self.mode == "stepping":
                self.steps = backward_steps(root)
                self.position = min(self.position, len(self.steps))
                if self.position == len(self.steps):
                    root.backward()
        if structure_changed:
            self.structure_version += 1
        self._refresh_checks()
        self.evaluated.emit()
        self.grads_changed.emit()

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

    def displayed_grad(self, tensor) -> float | None:
        """The gradient shown for one Tensor of the graph (None: not reached yet)."""
        if self.mode == "stepping":
            return grads_after(self.root, self.steps, self.position).get(tensor)
        return tensor.grad

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

    def _refresh_grads(self) -> None:
        self._refresh_checks()
        self.grads_changed.emit()

    def _refresh_checks(self) -> None:
        root = self.root
        self.non_finite = non_finite_nodes(root) if root is not None else []
        if self.non_finite:
            self.message.emit("Not finite: " + self.non_finite[0].message)
