"""Forward mode walked node by node: the tangents of one seeded input (ẋ = 1), in topological order.

The expression area steps through these as it steps through backward: ``position`` steps are taken, the
node of the last one is highlighted, and only the tangents reached so far are drawn.  Nothing here mutates
a Tensor (``forward_steps`` computes the tangents on the side).
"""

from __future__ import annotations

from autograd_core.engine.forward import ForwardStep, forward_steps
from autograd_core.engine.tensor import Tensor


class ForwardWalk:
    """The forward steps of the shown root and how many of them are taken."""

    def __init__(self):
        self.trace: list[ForwardStep] = []  # one step per node of the shown graph, in topological order
        self.position = 0  # steps taken

    def rebuild(self, root: Tensor | None, seeded: Tensor | None) -> None:
        """The steps of ``root`` with tangent 1 on the leaf ``seeded`` (None: on none, or no root), keeping as
        many steps taken as the new trace has."""
        self.trace = forward_steps(root, {seeded: 1.0} if seeded is not None else {}) if root is not None else []
        self.position = min(self.position, len(self.trace))

    def clear(self) -> None:
        self.trace, self.position = [], 0

    def move(self, k: int) -> bool:
        """Have ``k`` steps taken; False when the trace has no such position."""
        if not 0 <= k <= len(self.trace):
            return False
        self.position = k
        return True

    @property
    def current(self) -> ForwardStep | None:
        """The step just taken (None before the first)."""
        return self.trace[self.position - 1] if 0 < self.position <= len(self.trace) else None

    @property
    def done(self) -> bool:
        return bool(self.trace) and self.position == len(self.trace)

    def tangents(self, n: int) -> tuple:
        """The tangent drawn on each of ``n`` nodes (node id order): the steps taken, None for the others."""
        taken = [step.tangent for step in self.trace[: min(self.position, n)]]
        return tuple(taken) + (None,) * (n - len(taken))

    def highlight(self, node_ids: dict) -> tuple[frozenset, frozenset, int] | None:
        """The current step's node and the edges from its parents, as ids of ``node_ids`` (None: no such step)."""
        step = self.current
        if step is None or step.node not in node_ids:
            return None
        node = node_ids[step.node]
        parents = {node_ids[p] for p in step.node.parents if p in node_ids}
        edges = {(node_ids[p], node, i) for i, p in enumerate(step.node.parents) if p in node_ids}
        return frozenset({node, *parents}), frozenset(edges), node
