"""What an expression is made of, for task conditions that check a structure rather than a number.

"x is used twice through +" (``uses(x, "+") == 2``), "the output is a product with d"
(``output_op == "*" and feeds_output(d)``), "a relu node exists" (``count("relu") >= 1``): a value can be
right for the wrong reason (``x**2`` has x's gradient of ``x + x``… at the right point), a structure cannot.
The structure is read from the expression's text with the language's own compiler (never eval), so the
state a condition reads needs nothing besides the text the app already gives it (``expression``).
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache

from autograd_core.engine.custom_ops import CUSTOM_OPS
from autograd_core.engine.tensor import topological_order
from autograd_core.language.expression import ExpressionError, compile_expression


class Structure:
    """The ops of an expression's graph, by the names a lesson may use: the ledger's (``*``, ``+``, ``**2``,
    ``tanh``) and the op table's (``mul``, ``add``, ``pow_const``, ``tanh``)."""

    def __init__(self, output_op: str = "", output_operands: tuple[str, ...] = (), uses=None, ops=None):
        self.output_op = output_op  # the op that made the output ("" for a leaf or no expression)
        self.output_operands = output_operands  # labels of the output's direct operands
        self.uses: Counter = uses if uses is not None else Counter()  # (label, op) -> edges into that op
        self.ops: Counter = ops if ops is not None else Counter()  # op -> nodes made by it

    def count(self, op: str) -> int:
        return self.ops.get(op, 0)

    def used(self, label: str, op: str) -> int:
        return self.uses.get((label, op), 0)

    def feeds_output(self, label: str) -> bool:
        return label in self.output_operands


EMPTY = Structure()


def _names(node) -> tuple[str, ...]:
    entry = node.op_entry
    names = {node.op}
    if entry is not None:
        names.add(entry.base.name)
    return tuple(n for n in names if n)


@lru_cache(maxsize=128)
def expression_structure(text: str) -> Structure:
    """The structure of the expression ``text`` (EMPTY when it does not compile: no structure to check)."""
    if not isinstance(text, str) or not text.strip():
        return EMPTY
    try:
        program = compile_expression(text)
        root = program.evaluate(dict.fromkeys(program.inputs, 1.0)).output
    except ExpressionError:
        return EMPTY
    uses: Counter = Counter()
    ops: Counter = Counter()
    for node in topological_order(root):
        if node.is_leaf:
            continue
        names = _names(node)
        for name in names:
            ops[name] += 1
        for parent in node.parents:
            if parent.label:
                for name in names:
                    uses[(parent.label, name)] += 1
    output_op = root.op if not root.is_leaf else ""
    operands = tuple(p.label for p in root.parents if p.label)
    return Structure(output_op, operands, uses, ops)


CUSTOM_OPS.subscribe(expression_structure.cache_clear)  # a text's ops change when the learner's ops do
