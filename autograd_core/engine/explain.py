"""What a node means in words: each edge's derivative formula, an op applied to its parents' values, and where
a value or gradient first stopped being finite.

Kept apart from the node itself (``tensor.py``) because none of it is needed to compute: it is what the ledger,
the graph's hover and the status line say about a graph once it exists.
"""

from __future__ import annotations

import math

from autograd_core.engine.tensor import Tensor, topological_order
from autograd_core.numbers import LEDGER, format_number

UNKNOWN_FORMULA = (
    "?"  # the formula of a derivative that lives in a closure; the sentence that says why is user_ops.UNKNOWN_LOCAL
)

# ------------------------------------------------------------------ words


def derivative_formula(node: Tensor, index: int) -> str:
    """A short text for ∂node/∂parent[index], in terms of the parents' names (from the op table)."""
    return derivative_formulas(node)[index]


def derivative_formulas(node: Tensor) -> list[str]:
    """``derivative_formula`` for every parent of ``node``: the parents' names formatted once, or not at all
    for a formula that names no operand (("1", "1") of +)."""
    op, parents = node.op_entry, node.parents
    if op is None:  # a node written by hand: its closure holds the derivative
        return [UNKNOWN_FORMULA] * len(parents)
    texts = op.formula[: len(parents)] if not callable(op.formula) else ()
    if len(texts) == len(parents) and not any("{" in t or "}" in t for t in texts):
        return list(texts)
    names = [p.label or _fmt_number(p.data) for p in parents]
    return [op.derivative_text(index, names) for index in range(len(parents))]


def node_name(node: Tensor, depth: int = 2) -> str:
    """The node's label, a constant's value, or a short formula such as 'tanh(… + c)' (the op table's text)."""
    if node.label:
        return node.label
    if node.is_leaf:
        return format_number(node.data, LEDGER)
    if depth == 0:
        return "…"
    if node.op_entry is None:  # an op written by hand, unlabeled: its closure is all there is
        return f"op({', '.join(node_name(p, depth - 1) for p in node.parents)})"
    text = node.op_entry.show([node_name(p, depth - 1) for p in node.parents], node)
    if len(text) > 30 and depth > 1:
        return node_name(node, depth - 1)
    return text


def describe_node(node: Tensor) -> str:
    """`log(-1)` style text: the op applied to its parents' values."""
    op = node.op_entry
    if op is None or node.is_leaf:
        return node.label or _fmt_number(node.data)
    values = [_fmt_number(p.data) for p in node.parents]
    if op.symbol and len(values) == 2:  # '1 / 0': spaced, as a status line reads
        return f"{values[0]} {op.symbol} {values[1]}"
    return op.show(values, node)


def _fmt_number(x: float) -> str:
    return format_number(x, LEDGER)


# ------------------------------------------------------- non-finite report


class NonFinite:
    """A node whose value or gradient is inf/nan, and the op that first made it so."""

    __slots__ = ("node", "what", "source", "message")

    def __init__(self, node: Tensor, what: str, source: Tensor, message: str):
        self.node, self.what, self.source, self.message = node, what, source, message

    def __repr__(self) -> str:
        return f"NonFinite({self.what}: {self.message})"


def non_finite_nodes(root: Tensor, order: list[Tensor] | None = None) -> list[NonFinite]:
    """List nodes whose value or gradient is not finite, each with its origin.

    A value's origin is the first node (in forward order) that turned finite
    parents into a non-finite value; a gradient's origin is the first node (in
    backward order) whose non-finite local derivative or gradient passed it on.
    ``order`` is ``topological_order(root)`` when the caller has it already.
    """
    order = topological_order(root) if order is None else order
    report: list[NonFinite] = []
    value_origin: dict[Tensor, Tensor] = {}
    for node in order:
        if math.isfinite(node.data):
            continue
        origin = next((value_origin[p] for p in node.parents if p in value_origin), node)
        value_origin[node] = origin
        label = f" at node '{origin.label}'" if origin.label else ""
        report.append(NonFinite(node, "value", origin, f"{describe_node(origin)} = {_fmt_number(origin.data)}{label}"))
    grad_origin: dict[Tensor, Tensor] = {}
    for node in reversed(order):
        for parent in node.parents:
            if not math.isfinite(parent.grad) and parent not in grad_origin:
                # Passed on by a non-finite gradient, or made here by a non-finite local derivative.
                grad_origin[parent] = grad_origin.get(node, node)
    if not math.isfinite(root.grad):
        grad_origin.setdefault(root, root)
    for node in order:
        if node in grad_origin:
            origin = grad_origin[node]
            name = node.label or describe_node(node)
            report.append(
                NonFinite(
                    node,
                    "grad",
                    origin,
                    f"grad({name}) = {_fmt_number(node.grad)}, first made non-finite at {describe_node(origin)}",
                )
            )
    return report
