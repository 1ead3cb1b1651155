"""A picture of a graph too big to draw node by node: a few boxes, each a value and what only it depends on (no Qt).

The article's whole training loss is about 70,000 nodes; drawn one box each it would be a picture of megabytes
that no one can read.  Folding keeps what matters near the output: every box is a *head* node together with the
nodes it dominates, i.e. every node whose every path to the root passes through the head.  Such a box has edges
leaving only from its head, so it shows the head's value and gradient and no edge between boxes is lost (the same
promise as the graph view's groups).  The boxes start as the root alone; the largest box is opened into the boxes of
the nodes its head immediately dominates until there are about ``max_boxes``.  Leaves used in several places (the
weights of a network) hang from one shared node and are folded into one box of leaves; past the budget, the
smallest boxes of one opening share a box too.

Dominators of a DAG take one pass in reverse topological order (Cooper, Harvey and Kennedy's "intersect" on
topological indices: a dominator always comes later), so 70,000 nodes fold in well under a second, without
building the networkx graph of the whole.
"""

from __future__ import annotations

import heapq

import networkx as nx

from autograd_core.engine.tensor import Tensor, topological_order

MAX_BOXES = 40  # boxes of a folded picture: its text stays readable on a notebook's width, its SVG a few kB
LEAF_BOX_MIN = 4  # this many leaves dominated by the same node share one box


def dominators(order: list[Tensor]) -> tuple[list[int], list[list[int]], list[list[int]]]:
    """(idom, parents, consumers) by index in ``order`` (a topological order, the root last).

    ``idom[i]`` is the immediate dominator of node i towards the root (the root's is itself); ``parents[i]``
    and ``consumers[i]`` list the indices of i's arguments (one per use) and of the nodes using it.
    """
    index = {node: i for i, node in enumerate(order)}
    at = index.__getitem__
    parents = [list(map(at, node.parents)) for node in order]
    consumers: list[list[int]] = [[] for _ in order]
    for i, ps in enumerate(parents):
        for p in ps:
            consumers[p].append(i)  # in increasing order: the sums' chains are walked once each
    n = len(order)
    idom = list(range(n))
    for i in range(n - 2, -1, -1):
        uses = consumers[i]
        d = uses[0]
        for c in uses:
            while d != c:  # the common dominator: the later of the two is never below the other
                while d < c:
                    d = idom[d]
                while c < d:
                    c = idom[c]
        idom[i] = d
    return idom, parents, consumers


class _Box:
    """Heads folded into one picture box, with how many nodes it stands for."""

    __slots__ = ("heads", "size", "kind", "members", "name")

    def __init__(self, heads: list[int], size: int, kind: str, members: list[int] | None = None, name: str = ""):
        self.heads, self.size, self.kind = heads, size, kind  # kind: "node", "chain", "leaves" or "rest"
        self.members = members or heads  # the nodes it holds besides its heads' dominated ones (a chain's)
        self.name = name


def fold(root: Tensor, max_boxes: int = MAX_BOXES, order: list[Tensor] | None = None) -> tuple[nx.MultiDiGraph, str]:
    """(graph of boxes, the sentence saying what was folded), the graph's node attributes as ``to_networkx``'s
    (label, op, data, grad, kind) plus, for a folded box, ``members`` (how many nodes it holds) and ``lines``.

    Opening a box shows its head and, as boxes of their own, the nodes it immediately dominates: the largest
    ``SIBLINGS`` of them one each and the others together, so the budget goes to depth (one training example's
    path through the network) rather than to a hundred alike terms of a sum.  A sum written ``a + b + c + …``
    (a chain of ``+`` each used only by the next) opens as one box "Σ n terms", as the graph view names it.
    """
    order = order if order is not None else topological_order(root)
    n = len(order)
    idom, parents, consumers = dominators(order)
    children: list[list[int]] = [[] for _ in range(n)]
    size = [1] * n
    for i in range(n - 1):
        children[idom[i]].append(i)
        size[idom[i]] += size[i]  # (idom[i] > i: every child is counted before its dominator)
    boxes: dict[int, _Box] = {n - 1: _Box([n - 1], n, "node")}  # keyed by the box's first head
    heap = [(-n, n - 1)]
    rests: list = []  # boxes of several heads: opened (their largest heads taken out) only when budget is left

    def add(new: list[_Box]) -> None:
        for box in new:
            if box.kind == "rest" and len(box.heads) == 1:
                box = _Box(box.heads, box.size, "node")
            boxes[box.heads[0]] = box
            if box.kind == "node" and size[box.heads[0]] > 1:
                heapq.heappush(heap, (-box.size, box.heads[0]))
            elif box.kind == "rest":
                heapq.heappush(rests, (-box.size, box.heads[0]))

    while (heap or rests) and len(boxes) < max_boxes:
        if not heap:  # every single value is open: show more of the values that share a box
            box = boxes.pop(heapq.heappop(rests)[1])
            take = max(min(max_boxes - len(boxes) - 1, SIBLINGS), 1)
            kept, rest = box.heads[:take], box.heads[take:]
            add(
                [_Box([k], size[k], "node") for k in kept]
                + ([_Box(rest, box.size - sum(size[k] for k in kept), "rest")] if rest else [])
            )
            continue
        _, head = heapq.heappop(heap)
        chain = _chain(order, head, parents, consumers)
        kids = [k for m in chain for k in children[m] if k not in chain] if len(chain) > 1 else children[head]
        if not kids:
            continue
        leaves = [k for k in kids if not parents[k]]
        inner = [k for k in kids if parents[k]]
        new: list[_Box] = []
        if len(leaves) >= LEAF_BOX_MIN:
            new.append(_Box(leaves, len(leaves), "leaves"))
        else:
            inner += leaves
        inner.sort(key=lambda k: (-size[k], k))
        room = max_boxes - len(boxes) - len(new)
        keep = len(inner) if len(inner) <= min(room, SIBLINGS + 1) else max(min(room - 1, SIBLINGS), 1)
        rest = inner[keep:]
        new.extend(_Box([k], size[k], "node") for k in inner[:keep])
        if rest:
            new.append(_Box(rest, sum(size[k] for k in rest), "rest"))
        if len(chain) > 1:
            terms = sum(1 for m in chain for p in parents[m] if p not in chain)
            word = f"{'Σ' if order[head].op == '+' else 'Π'} {terms} {'terms' if order[head].op == '+' else 'factors'}"
            boxes[head] = _Box([head], len(chain), "chain", sorted(chain), word)
        else:
            boxes[head] = _Box([head], 1, "node")
        add(new)
    return _box_graph(order, boxes, idom, parents, consumers), _sentence(n, boxes)


SIBLINGS = 2  # nodes an opened box shows one each; the others it dominates share one box
CHAIN_MIN = 3  # ``+`` (or ``*``) nodes in a row that open as one box "Σ n terms"


def _chain(order, head: int, parents, consumers) -> set[int]:
    """The ``+`` (or ``*``) nodes of the sum ending at ``head``: each unnamed and used only by the next."""
    op = order[head].op
    if op not in ("+", "*"):
        return {head}
    members, frontier = {head}, [head]
    while frontier:
        m = frontier.pop()
        for p in parents[m]:
            if p not in members and order[p].op == op and consumers[p] == [m] and not order[p].label:
                members.add(p)
                frontier.append(p)
    return members if len(members) >= CHAIN_MIN else {head}


def _box_graph(order, boxes: dict, idom, parents, consumers) -> nx.MultiDiGraph:
    owner = {h: first for first, box in boxes.items() for h in box.members}

    def box_of(i: int) -> int:
        path = []
        while i not in owner:
            path.append(i)
            i = idom[i]
        box = owner[i]
        for j in path:  # (remembered: the next walk from below stops here)
            owner[j] = box
        return box

    graph = nx.MultiDiGraph()
    for first, box in boxes.items():
        graph.add_node(first, **_attrs(order, box))
    for first, box in boxes.items():
        for h in box.heads:
            for c in dict.fromkeys(consumers[h]):
                target = box_of(c)
                if target == first:
                    continue
                single = boxes[target].size == 1 and c == target
                if single:  # a node drawn as itself: one edge per use (x*x has two)
                    for index, p in enumerate(parents[c]):
                        if p == h and not graph.has_edge(first, target, index):
                            graph.add_edge(first, target, key=index, index=index)
                elif not graph.has_edge(first, target):
                    graph.add_edge(first, target, key=0, index=0)
    return graph


def _attrs(order, box: _Box) -> dict:
    head = order[box.heads[0]]
    if box.kind == "chain":
        label = f"{head.label}: {box.name}" if head.label else box.name
        return {"label": label, "op": "", "data": head.data, "grad": head.grad, "kind": "group",
                "members": box.size, "folded": True}  # fmt: skip
    if box.kind == "node":
        attrs = {"label": head.label, "op": head.op, "data": head.data, "grad": head.grad, "kind": head.kind}
        if box.size > 1:
            attrs.update(members=box.size, folded=True)
        return attrs
    if box.kind == "leaves":
        names = list(dict.fromkeys(order[h].label for h in box.heads if order[h].label))
        shown = ", ".join(names[:3]) + (", …" if len(names) > 3 else "")
        title, lines = f"{len(box.heads):,} leaves", (shown or f"{box.size:,} nodes", "")
    else:
        title, lines = f"{len(box.heads):,} more values", (f"{box.size:,} nodes", "")
    return {"label": title, "op": "", "data": None, "grad": None, "kind": "group", "members": box.size,
            "folded": True, "lines": lines}  # fmt: skip


def _sentence(n: int, boxes: dict) -> str:
    folded = sum(box.size for box in boxes.values() if box.size > 1)
    folds = sum(1 for box in boxes.values() if box.size > 1)
    shared = [kind for kind in ("leaves", "rest") if any(box.kind == kind for box in boxes.values())]
    several = {"leaves": "leaves used in several places", "rest": "values beyond those shown"}
    extra = f"; {' and '.join(several[k] for k in shared)} share one box" if shared else ""
    return (
        f"{n:,} nodes, too many to draw one by one: {folded:,} of them are folded into {folds} ▣ "
        f"{'box' if folds == 1 else 'boxes'}. A ▣ box is a value with every node only it depends on, and shows "
        f"that value's numbers{extra}. draw(root, max_boxes={2 * MAX_BOXES}) opens more."
    )
