"""The chain rule along one path of a graph: from a node up to the output, one local derivative per edge.

``chain_path(root, start)`` picks a shortest path start → … → root and
multiplies the local derivatives along it.  When several paths join start
to the root, d(root)/d(start) is the sum of every path's product (that is
what backward adds up); ``ChainPath`` gives that total and the number of
paths, so a view can say how much of the gradient one path carries.
"""

from __future__ import annotations

import math
from collections import deque

from autograd_core.engine.explain import derivative_formula
from autograd_core.engine.functional import grad
from autograd_core.engine.tensor import Tensor, topological_order
from autograd_core.numbers import counted


class ChainPath:
    """start = nodes[0] → … → nodes[-1] = root; ``indices[i]`` is nodes[i]'s argument position in nodes[i + 1]."""

    __slots__ = ("nodes", "indices", "locals", "formulas", "product", "count", "total")

    def __init__(self, nodes, indices, locals_, formulas, count, total):
        self.nodes: list[Tensor] = nodes
        self.indices: list[int] = indices
        self.locals: list[float] = locals_  # ∂nodes[i+1]/∂nodes[i]
        self.formulas: list[str] = formulas  # the same as text, from the op table
        self.product = math.prod(locals_) if locals_ else 1.0
        self.count = count  # paths from start to root
        self.total = total  # d(root)/d(start): the sum over all of them

    def __repr__(self) -> str:
        paths = counted(self.count, "path")
        return f"ChainPath({len(self.nodes)} nodes, product={self.product:g}, {paths}, total={self.total:g})"


def chain_path(root: Tensor, start: Tensor) -> ChainPath | None:
    """A shortest path from ``start`` up to ``root`` with its chain-rule product; None if there is none."""
    order = topological_order(root)
    if start not in set(order):
        return None
    consumers: dict[Tensor, list[tuple[Tensor, int]]] = {}
    paths: dict[Tensor, int] = {root: 1}
    for node in reversed(order):
        for index, parent in enumerate(node.parents):
            consumers.setdefault(parent, []).append((node, index))
            paths[parent] = paths.get(parent, 0) + paths.get(node, 0)
    # breadth first from start along consumers: the first time root is met is a shortest path
    previous: dict[Tensor, tuple[Tensor, int] | None] = {start: None}
    queue = deque([start])
    while queue and root not in previous:
        node = queue.popleft()
        for consumer, index in consumers.get(node, ()):
            if consumer not in previous:
                previous[consumer] = (node, index)
                queue.append(consumer)
    nodes, indices = [root], []
    while previous[nodes[-1]] is not None:
        parent, index = previous[nodes[-1]]
        indices.append(index)
        nodes.append(parent)
    nodes.reverse()
    indices.reverse()
    locals_ = [nodes[i + 1].local_grads[index] for i, index in enumerate(indices)]
    formulas = [derivative_formula(nodes[i + 1], index) for i, index in enumerate(indices)]
    total = 1.0 if start is root else grad(root, start)[0].data
    return ChainPath(nodes, indices, locals_, formulas, paths.get(start, 0), total)
