"""``backward()`` replayed one node at a time, for the learner to step through.

``backward_steps(root)`` walks the graph in exactly ``backward()``'s order (the
reverse of ``topological_order``) and records, for every node, its gradient at
that moment and, for each parent edge, the local derivative, the contribution
``local × grad`` and the parent's gradient before and after.  It only
simulates: no Tensor's ``grad`` changes, so the GUI can step back and forth.
The arithmetic is the engine's own (``before + local * grad`` in argument
order), so replaying every step gives bit-for-bit ``backward()``'s gradients.
"""

from __future__ import annotations

from autograd_core.engine.explain import UNKNOWN_FORMULA, derivative_formula, node_name
from autograd_core.engine.ops import wrap
from autograd_core.engine.tensor import Tensor, topological_order
from autograd_core.engine.user_ops import UNKNOWN_LOCAL
from autograd_core.numbers import LEDGER, format_number


class Contribution:
    """What one edge parent → node adds to the parent's gradient."""

    __slots__ = ("parent", "index", "local", "formula", "contribution", "before", "after")

    def __init__(self, parent, index, local, formula, contribution, before, after):
        self.parent: Tensor = parent
        self.index: int = index  # argument position of the parent in the node's op
        self.local: float | None = local  # ∂node/∂parent (None for an op written by hand: its closure knows)
        self.formula: str = formula  # the same, as text: "b", "(1 − tanh²(h))"
        self.contribution: float = contribution  # local · grad(node)
        self.before: float = before  # parent's gradient before this edge
        self.after: float = after  # ... and after

    def __repr__(self) -> str:
        return f"Contribution({node_name(self.parent)}: {self.before:g} + {self.contribution:g} = {self.after:g})"


class BackwardStep:
    """One node processed by ``backward()``: its gradient and what it passes to each parent."""

    __slots__ = ("node", "grad", "contributions", "number", "is_root", "seed")

    def __init__(self, node: Tensor, grad: float, contributions: list[Contribution], number: int, seed: float | None):
        self.node = node
        self.grad = grad  # the node's gradient when backward() reaches it (final from then on)
        self.contributions = contributions
        self.number = number  # 0-based position in backward()'s order
        self.is_root = seed is not None
        self.seed = seed  # the root's seeded gradient (1.0, or leaf grad + 1.0), else None

    def __repr__(self) -> str:
        return f"BackwardStep({self.number}: {node_name(self.node)}, grad={self.grad:g})"

    def sentences(self) -> list[str]:
        """The step in words, one sentence per line of the ledger."""
        name = node_name(self.node)
        lines = []
        if self.is_root:
            if self.node.is_leaf:
                lines.append(f"grad({name}) += 1.0: the output is {name} itself → {_attr(name)} = {fmt(self.seed)}")
            else:
                lines.append(f"grad({name}) = 1.0: the output's gradient with respect to itself")
        if self.node.is_leaf:
            lines.append(f"{name} is a leaf ({self.node.kind}): nothing to pass on; {_attr(name)} = {fmt(self.grad)}")
            return lines
        if self.node.is_user_op:
            lines.append(f"{name} is an op written in Python: its local derivative {UNKNOWN_LOCAL}")
            for c in self.contributions:
                p = node_name(c.parent)
                lines.append(
                    f"grad({p}) += {fmt(c.contribution)} (what its _backward added) → {_attr(p)} = {fmt(c.after)}"
                )
            return lines
        for c in self.contributions:
            p = node_name(c.parent)
            lines.append(
                f"grad({p}) += ∂{_wrap(name)}/∂{_wrap(p)} · grad({name}) = {c.formula} · {fmt(self.grad)}"
                f" = {fmt(c.contribution)} → {_attr(p)} = {fmt(c.after)}"
            )
        return lines


def backward_steps(root: Tensor) -> list[BackwardStep]:
    """Every node in ``backward()``'s order, with its edges' contributions; mutates nothing.

    Starts as ``backward()`` does: leaves keep their current gradient (they
    accumulate), interior nodes start at 0, the root is seeded with 1.0.
    """
    order = topological_order(root)
    grads = {node: (node.grad if node.is_leaf else 0.0) for node in order}
    seed = root.grad + 1.0 if root.is_leaf else 1.0
    grads[root] = seed
    steps = []
    for number, node in enumerate(reversed(order)):
        g = grads[node]
        if node.is_user_op:
            contributions = _user_step(node, g, grads)
            steps.append(BackwardStep(node, g, contributions, number, seed if node is root else None))
            continue
        contributions = []
        for index, (parent, local) in enumerate(zip(node.parents, node.local_grads)):
            before = grads[parent]
            contribution = local * g
            after = before + contribution
            grads[parent] = after
            contributions.append(
                Contribution(parent, index, local, derivative_formula(node, index), contribution, before, after)
            )
        steps.append(BackwardStep(node, g, contributions, number, seed if node is root else None))
    return steps


def _user_step(node: Tensor, g: float, grads: dict[Tensor, float]) -> list[Contribution]:
    """An op written by hand, replayed: its closure is run on the replay's gradients, then every grad is put back.

    What it added to each input is all that can be known (its local derivative lives in the closure), so each
    distinct input gets one contribution, the difference its closure made."""
    parents = list(dict.fromkeys(node.parents))
    saved = [(n, n.grad) for n in (node, *parents)]
    try:
        node.grad = g
        for parent in parents:
            parent.grad = grads[parent]
        node._backward()
        after = [parent.grad for parent in parents]
    finally:
        for n, grad in saved:
            n.grad = grad
    contributions = []
    for parent, value in zip(parents, after):
        before = grads[parent]
        grads[parent] = value
        index = node.parents.index(parent)
        contributions.append(Contribution(parent, index, None, UNKNOWN_FORMULA, value - before, before, value))
    return contributions


def grads_after(root: Tensor, steps: list[BackwardStep], k: int) -> dict[Tensor, float]:
    """Each reached node's gradient after the first ``k`` steps (the root counts as reached by its seed)."""
    if not 0 <= k <= len(steps):
        raise ValueError(f"k must be between 0 and {len(steps)}, got {k}")
    grads = {root: steps[0].seed if steps else (root.grad + 1.0 if root.is_leaf else 1.0)}
    for step in steps[:k]:
        grads[step.node] = step.grad
        for c in step.contributions:
            grads[c.parent] = c.after
    return grads


# ------------------------------------------------------------------ words


def fmt(x: float) -> str:
    """A gradient in the ledger: 6 significant digits, '1.0' rather than '1'."""
    return format_number(x, LEDGER, point=True)


def output_name(output: Tensor, taken=()) -> str:
    """The name the maths gives the output backward runs from: the user's own (``g`` in ``f = a*b; g = f*f``,
    so its gradients read ∂g/∂a, not ∂f/∂a), else ``f`` (``out`` if the program already uses ``f``)."""
    if output.label:
        return output.label
    return "out" if "f" in taken else "f"


_wrap = wrap


def _attr(name: str) -> str:
    return f"{_wrap(name)}.grad"
