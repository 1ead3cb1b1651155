"""The Tensor graph as a networkx graph, and where to draw each node.

``to_networkx`` copies everything a view shows onto plain graph attributes
(label, op, value, gradient, kind, depth, group; each edge's local
derivative and its formula), so the GUI never walks Tensors itself.  It is a
``MultiDiGraph`` because one op can use the same node twice (``x*x`` has two
edges x → x*x, keyed by argument index): that double edge is the lesson.

``layout(graph)`` puts inputs on the left and the output on the right, one
column per ``networkx.topological_generations`` layer, then reorders each
column by a few barycenter sweeps (each node moves towards the mean height of
its neighbors), which removes most edge crossings in O(E) per sweep.
"""

from __future__ import annotations

import heapq
import math
import re
from dataclasses import dataclass
from operator import attrgetter

import networkx as nx

from autograd_core.engine.explain import derivative_formulas
from autograd_core.engine.tensor import Tensor, topological_order
from autograd_core.engine.user_ops import UnknownDerivative

LAYOUTS = ("layered", "spring", "kamada_kawai")


def to_networkx(root: Tensor) -> nx.MultiDiGraph:
    """One node per Tensor (ids 0..n-1 in topological order, the root last); one edge per use.

    Node attributes: label, op, data, grad, kind, depth (longest path from a
    leaf), group, tensor.  Edge parent → child, key = argument index, with
    attributes local (∂child/∂parent), index and formula.  ``graph.graph``
    holds ``root`` (the root's id) and ``ids`` (Tensor → id).
    """
    order = topological_order(root)
    ids = {node: i for i, node in enumerate(order)}
    graph = nx.MultiDiGraph(root=len(order) - 1, ids=ids)
    # Filled in place (networkx's own adjacency dicts, as add_nodes_from / add_edges_from would):
    # four times faster, which matters for a 2,000-node expression typed in the GUI thread.
    node_attrs, succ, pred = graph._node, graph._succ, graph._pred
    depth = [0] * len(order)
    for i, node in enumerate(order):
        succ[i] = {}
        pred[i] = {}
        parents = node.parents
        if parents:
            parent_ids = [ids[p] for p in parents]
            depth[i] = 1 + max(depth[p] for p in parent_ids)
            mine = pred[i]
            formulas = derivative_formulas(node)
            locals_ = node.local_grads if node.op_entry is not None else (None,) * len(parents)
            for index, (p, local) in enumerate(zip(parent_ids, locals_)):
                keys = mine.get(p)
                if keys is None:
                    keys = mine[p] = succ[p][i] = {}
                keys[index] = {"local": local, "index": index, "formula": formulas[index]}
        node_attrs[i] = {
            "label": node.label,
            "op": node.op,
            "data": node.data,
            "grad": node.grad,
            "kind": node.kind,
            "depth": depth[i],
            "group": node.group,
            "tensor": node,
            "user_op": node.is_user_op,
        }
    return graph


@dataclass(frozen=True)
class GraphSnapshot:
    """What a view draws of one graph at one moment; never changes once made.

    ``graph`` carries the structure and what does not change with the numbers
    (label, op, kind, group, each edge's formula); it is shared by every
    snapshot of the same structure (``structure_version``).  The numbers are
    copied, indexed by node id: ``values``, ``grads`` (None where the
    step-by-step backward has not reached a node yet) and ``locals`` (each
    node's local derivative with respect to each argument, in argument order).
    ``highlight`` is the current backward step: (nodes, edges, current node).
    ``grad_name`` is what the per-node numbers in ``grads`` are ("grad", or
    "tangent" in forward mode).
    """

    graph: nx.MultiDiGraph
    structure_version: int
    values: tuple
    grads: tuple
    locals: tuple
    highlight: tuple = (frozenset(), frozenset(), None)
    grad_name: str = "grad"

    def value(self, node) -> float | None:
        return self.values[node] if isinstance(node, int) and 0 <= node < len(self.values) else None

    def grad(self, node) -> float | None:
        return self.grads[node] if isinstance(node, int) and 0 <= node < len(self.grads) else None

    def local(self, u, v, key) -> float | None:
        """∂v/∂u along edge (u, v, key) (key = argument index)."""
        if not isinstance(v, int) or not 0 <= v < len(self.locals):
            return None
        index = self.graph.edges[u, v, key].get("index", key)
        row = self.locals[v]
        return row[index] if 0 <= index < len(row) else None


def numbers_of(order: list[Tensor]) -> tuple[tuple, tuple, tuple]:
    """(values, gradients, local derivatives) of the nodes of ``order`` (a topological order), by position.

    An op written by hand has None for each local derivative: its closure knows them, no view may guess."""
    try:
        locals_ = tuple(map(_LOCAL_GRADS, order))
    except UnknownDerivative:
        locals_ = tuple((None,) * len(n.parents) if n.is_user_op else n.local_grads for n in order)
    return tuple(map(_DATA, order)), tuple(map(_GRAD, order)), locals_


_DATA, _GRAD, _LOCAL_GRADS = attrgetter("data"), attrgetter("grad"), attrgetter("local_grads")


def snapshot_of_graph(graph: nx.MultiDiGraph, grads: dict | None = None, version: int = 0) -> GraphSnapshot:
    """A snapshot from a ``to_networkx`` graph's own attributes (``grads`` overrides the gradients)."""
    n = graph.number_of_nodes()
    values = [None] * n
    shown = [None] * n
    locals_: list = [()] * n
    for node, attrs in graph.nodes(data=True):
        if isinstance(node, int) and 0 <= node < n:
            values[node] = attrs.get("data")
            shown[node] = grads.get(node) if grads is not None else attrs.get("grad")
    for _u, v, key, attrs in graph.edges(keys=True, data=True):
        if isinstance(v, int) and 0 <= v < n:
            row = list(locals_[v])
            index = attrs.get("index", key)
            row.extend([None] * (index + 1 - len(row)))
            row[index] = attrs.get("local")
            locals_[v] = tuple(row)
    return GraphSnapshot(graph, version, tuple(values), tuple(shown), tuple(locals_))


def topological_nodes(graph: nx.DiGraph) -> list:
    """A topological order: ``to_networkx``'s ids already are one (checked in O(E)), else networkx's."""
    nodes = list(graph)
    # (each pair once, read from networkx's own dict: a MultiDiGraph's edge view was 3× slower)
    if nodes == list(range(len(nodes))) and all(u < v for u, targets in graph._succ.items() for v in targets):
        return nodes
    return lexicographic_order(graph)


def lexicographic_order(graph: nx.DiGraph) -> list:
    """``nx.lexicographical_topological_sort(graph, key=_sort_key)``, the same order, read from networkx's own
    dicts (its edge views made it most of the time a 400-box overview took to be layered)."""
    succ, pred = graph._succ, graph._pred
    multi = graph.is_multigraph()
    ids = {n: i for i, n in enumerate(graph)}
    indegree = {v: sum(map(len, nbrs.values())) if multi else len(nbrs) for v, nbrs in pred.items()}
    ready = [(_sort_key(v), ids[v], v) for v in graph if not indegree[v]]
    heapq.heapify(ready)
    order = []
    while ready:
        node = heapq.heappop(ready)[2]
        order.append(node)
        for child, keys in succ[node].items():
            left = indegree[child] - (len(keys) if multi else 1)
            indegree[child] = left
            if not left:
                heapq.heappush(ready, (_sort_key(child), ids[child], child))
    if len(order) != len(ids):
        raise nx.NetworkXUnfeasible("Graph contains a cycle or graph changed during iteration")
    return order


def update_values(graph: nx.MultiDiGraph) -> None:
    """Re-read ``data`` and ``grad`` from the Tensors (e.g. after ``backward()``), without rebuilding."""
    for _, attrs in graph.nodes(data=True):
        tensor = attrs["tensor"]
        attrs["data"] = tensor.data
        attrs["grad"] = tensor.grad


def layout(graph: nx.DiGraph, method: str = "layered", *, sweeps: int = 4) -> dict[int, tuple[float, float]]:
    """Positions ``{node: (x, y)}``, x growing from the inputs (left) to the output (right); deterministic.

    "layered" (default) is fast (about O(sweeps·E)).  "spring" and
    "kamada_kawai" start from the layered positions and are O(n²) per
    iteration / in memory: fine for a few hundred nodes, slow for thousands.
    """
    if method not in LAYOUTS:
        raise ValueError(f"unknown layout {method!r}; choose one of {', '.join(LAYOUTS)}")
    if graph.number_of_nodes() == 0:
        return {}
    layered = _layered(graph, sweeps)
    if method == "layered" or graph.number_of_nodes() < 3:
        return layered
    simple = nx.Graph()
    simple.add_nodes_from(graph.nodes)
    simple.add_edges_from((u, v) for u, v in graph.edges() if u != v)
    scale = max(max(abs(x), abs(y)) for x, y in layered.values()) or 1.0
    start = {n: (x / scale, y / scale) for n, (x, y) in layered.items()}
    if method == "spring":
        raw = nx.spring_layout(simple, pos=start, seed=0)
    else:
        raw = nx.kamada_kawai_layout(simple, pos=start)
    pos = {n: (float(p[0]), float(p[1])) for n, p in raw.items()}
    return _orient(graph, pos)


def _layered(graph: nx.DiGraph, sweeps: int) -> dict[int, tuple[float, float]]:
    generations = list(nx.topological_generations(graph))
    column = {}
    for k, generation in enumerate(generations):
        for n in generation:
            column[n] = k
    # A constant leaf (the 2 in 2*x) sits just left of its first use, not far away with the inputs.
    for n in generations[0] if generations else ():
        if graph.nodes[n].get("kind") == "constant":
            uses = [column[s] for s in graph.successors(n)]
            if uses:
                column[n] = max(min(uses) - 1, 0)
    columns: list[list] = [[] for _ in generations]
    for n in sorted(column, key=_sort_key):
        columns[column[n]].append(n)
    columns = [c for c in columns if c]
    for k, nodes in enumerate(columns):
        for n in nodes:
            column[n] = k
    preds = {n: list(graph.predecessors(n)) for n in column}
    succs = {n: list(graph.successors(n)) for n in column}
    y: dict = {}
    for nodes in columns:
        _place(nodes, y)
    for _ in range(sweeps):
        for nodes in columns[1:]:
            _reorder(nodes, preds, y)
        for nodes in reversed(columns[:-1]):
            _reorder(nodes, succs, y)
    return {n: (float(column[n]), y[n]) for n in column}


def _sort_key(n):
    """Numeric ids first; string ids (collapsed groups) in natural order: L1.n2 before L1.n10."""
    if isinstance(n, (int, float)):
        return (0, n, ())
    return (1, 0, tuple(int(part) if part.isdigit() else part for part in re.split(r"(\d+)", str(n))))


def _place(nodes: list, y: dict) -> None:
    middle = (len(nodes) - 1) / 2.0
    for rank, n in enumerate(nodes):
        y[n] = rank - middle


def _reorder(nodes: list, neighbors: dict, y: dict) -> None:
    """Sort one column by the mean height of each node's neighbors (stable: ties keep their order)."""

    def barycenter(n):
        around = neighbors[n]
        return sum(y[m] for m in around) / len(around) if around else y[n]

    nodes.sort(key=lambda n: (barycenter(n), y[n]))
    _place(nodes, y)


def _orient(graph: nx.DiGraph, pos: dict) -> dict:
    """Mirror a force layout if needed so that the output is to the right of the leaves."""
    sinks = [n for n in graph if graph.out_degree(n) == 0]
    sources = [n for n in graph if graph.in_degree(n) == 0]
    if sinks and sources:
        right = sum(pos[n][0] for n in sinks) / len(sinks)
        left = sum(pos[n][0] for n in sources) / len(sources)
        if right < left:
            return {n: (-x, y) for n, (x, y) in pos.items()}
    return pos


def count_crossings(graph: nx.DiGraph, pos: dict) -> int:
    """How many pairs of edges (as straight segments) cross: O(E²), for tests and small graphs."""
    segments = [(pos[u], pos[v]) for u, v in graph.edges() if u != v]
    crossings = 0
    for i in range(len(segments)):
        (a, b) = segments[i]
        for j in range(i + 1, len(segments)):
            (c, d) = segments[j]
            if _segments_cross(a, b, c, d):
                crossings += 1
    return crossings


def _segments_cross(a, b, c, d) -> bool:
    """Proper crossing only: segments sharing an end point do not count."""
    if a in (c, d) or b in (c, d):
        return False

    def side(p, q, r):
        v = (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])
        return 0 if math.isclose(v, 0.0, abs_tol=1e-12) else (1 if v > 0 else -1)

    return side(a, b, c) * side(a, b, d) < 0 and side(c, d, a) * side(c, d, b) < 0
