"""Layer assignment for layered drawings, and folding wide drawings into blocks."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from itertools import pairwise

import networkx as nx

from autograd_core.drawing.graph import topological_nodes

# ------------------------------------------------------------------ layering and order


@dataclass
class LayeredOrder:
    """Layers of real and virtual nodes, each in drawing order; shared by both orientations."""

    layers: list  # list of lists of items: real nodes or ("virtual", edge, k)
    layer_of: dict  # real node -> layer index
    chains: dict  # edge (u, v, key) -> [u, virtual..., v]
    crossings: int  # between adjacent layers, counting virtual slots
    trunks: dict = field(default_factory=dict)  # source -> its trunk's slots, layer by layer


def _is_virtual(item) -> bool:
    return isinstance(item, tuple) and len(item) == 3 and item[0] == "virtual"


def _natural(n):
    if isinstance(n, (int, float)):
        return (0, n, ())
    return (1, 0, tuple(int(p) if p.isdigit() else p for p in re.split(r"(\d+)", str(n))))


def argument_indices(graph: nx.DiGraph) -> dict:
    """Edge (u, v, key) -> the argument position of u in v's op (the key when no ``index`` is stored)."""
    if graph.is_multigraph():
        return {(u, v, k): (i if i is not None else k) for u, v, k, i in graph.edges(keys=True, data="index")}
    return {(u, v, 0): 0 for u, v in graph.edges()}


def assign_layers(graph: nx.DiGraph) -> dict:
    """Layer of each node: every edge goes from a lower to a higher layer, edges kept short.

    Each node starts as late as possible (just before its first use: a tree
    then has only edges of length one), then a node with more inputs than
    uses moves as early as its inputs allow, and one with more uses as late as
    its first use allows, until nothing moves (a cheap stand-in for dot's
    network simplex, which minimizes the total edge length).
    """
    order = topological_nodes(graph)
    succ, pred = graph._succ, graph._pred  # (networkx's own dicts: its degree and neighbor views cost more)
    if graph.is_multigraph():  # degrees count each key, as graph.in_degree does
        ins = {n: sum(map(len, pred[n].values())) for n in order}
        outs = {n: sum(map(len, succ[n].values())) for n in order}
    else:
        ins, outs = {n: len(pred[n]) for n in order}, {n: len(succ[n]) for n in order}
    layer: dict = {}
    for n in reversed(order):
        layer[n] = min((layer[s] for s in succ[n]), default=1) - 1
    gather = [n for n in order if ins[n] > outs[n] and ins[n]]  # move towards their inputs
    spread = [n for n in reversed(order) if outs[n] > ins[n] and outs[n]]  # ... towards their first use
    for _ in range(4):
        moved = False
        for n in gather:
            best = 1 + max(layer[p] for p in pred[n])
            if best < layer[n]:
                layer[n], moved = best, True
        for n in spread:
            best = min(layer[s] for s in succ[n]) - 1
            if best > layer[n]:
                layer[n], moved = best, True
        if not moved:
            break
    used = sorted(set(layer.values()))
    rank = {k: i for i, k in enumerate(used)}
    return {n: rank[k] for n, k in layer.items()}


def tight_layers(graph: nx.DiGraph, max_rounds: int | None = None) -> dict | None:
    """Layers with the least total edge length (every edge pointing to a later layer), as ``dot`` ranks.

    Gansner et al.'s network simplex: a spanning tree of tight edges (length
    one), then, while a tree edge's cut value is negative, swap it for the
    non-tree edge that keeps the tree tight.  Many layerings are as short; the
    ordering then tries this one next to ``assign_layers``'s.  None for a graph
    that is not connected (or, as a guard, one that has not converged).
    """
    nodes = topological_nodes(graph)
    n_nodes = len(nodes)
    if n_nodes == 0:
        return {}
    number = {n: i for i, n in enumerate(nodes)}
    weights: dict = {}
    for u, v in graph.edges():  # a multigraph lists an edge once per key: its weight
        e = (number[u], number[v])
        weights[e] = weights.get(e, 0) + 1
    edges = list(weights)
    weight = [weights[e] for e in edges]
    incident: list = [[] for _ in range(n_nodes)]
    for j, (a, b) in enumerate(edges):
        incident[a].append(j)
        incident[b].append(j)
    rank = [0] * n_nodes
    for j in sorted(range(len(edges)), key=lambda j: edges[j][1]):  # longest path (ids are topological)
        a, b = edges[j]
        rank[b] = max(rank[b], rank[a] + 1)

    def slack(j: int) -> int:
        return rank[edges[j][1]] - rank[edges[j][0]] - 1

    # a feasible tree: grow tight edges from node 0, shifting the tree towards the closest outside node
    in_tree = [False] * n_nodes
    in_tree[0] = True
    tree = [False] * len(edges)
    count = 1
    while True:
        stack = [i for i in range(n_nodes) if in_tree[i]]
        while stack:
            i = stack.pop()
            for j in incident[i]:
                a, b = edges[j]
                m = b if a == i else a
                if not in_tree[m] and slack(j) == 0:
                    in_tree[m], tree[j] = True, True
                    count += 1
                    stack.append(m)
        if count == n_nodes:
            break
        best = None
        for j, (a, b) in enumerate(edges):
            if in_tree[a] != in_tree[b] and (best is None or slack(j) < slack(best)):
                best = j
        if best is None:
            return None  # not connected
        delta = slack(best) if in_tree[edges[best][0]] else -slack(best)
        for i in range(n_nodes):
            if in_tree[i]:
                rank[i] += delta
    for _ in range(max_rounds if max_rounds is not None else 4 * n_nodes + 20):
        # root the tree at node 0: parent edge and depth of every node
        parent_edge = [-1] * n_nodes
        depth = [0] * n_nodes
        order = [0]
        seen = [False] * n_nodes
        seen[0] = True
        for i in order:
            for j in incident[i]:
                if tree[j]:
                    a, b = edges[j]
                    m = b if a == i else a
                    if not seen[m]:
                        seen[m] = True
                        parent_edge[m] = j
                        depth[m] = depth[i] + 1
                        order.append(m)

        def up_to(i: int) -> int:
            a, b = edges[parent_edge[i]]
            return b if a == i else a

        # cut values: every edge adds its weight to each tree edge on its tree path, with the sign of
        # its direction across that edge's cut (tail side to head side counts +)
        cut = [0] * len(edges)
        for k, (x, y) in enumerate(edges):
            if tree[k]:
                cut[k] += weight[k]
                continue
            w = weight[k]
            while x != y:
                if depth[x] >= depth[y]:  # x's side: x lies below the tree edge
                    j = parent_edge[x]
                    cut[j] += w if edges[j][0] == x else -w
                    x = up_to(x)
                else:
                    j = parent_edge[y]
                    cut[j] += -w if edges[j][0] == y else w
                    y = up_to(y)
        leave = next((j for j in range(len(edges)) if tree[j] and cut[j] < 0), None)
        if leave is None:
            low = min(rank)
            return {n: rank[i] - low for n, i in number.items()}
        a, b = edges[leave]
        child = a if parent_edge[a] == leave else b
        below = [False] * n_nodes  # the subtree cut off by the leaving edge
        below[child] = True
        for i in order:
            if i != child and parent_edge[i] >= 0 and below[up_to(i)]:
                below[i] = True
        tail_below = below[a]
        enter = None
        for k, (x, y) in enumerate(edges):  # from the head side to the tail side, least slack
            if not tree[k] and below[x] != tail_below and below[y] == tail_below:
                if enter is None or slack(k) < slack(enter):
                    enter = k
        if enter is None:
            return None
        delta = slack(enter)
        for i in range(n_nodes):  # the head side moves later until the entering edge is tight
            if below[i] != tail_below:
                rank[i] += delta
        tree[leave], tree[enter] = False, True
    return None


def _limit_width(layer_of: dict, rank: dict, width: int, together: dict | None = None) -> dict:
    """Split every layer of more than ``width`` nodes into consecutive layers of at most ``width`` (in DFS order).

    Nodes of one layer have no edge between them, so any split keeps every edge
    pointing forward.  Nodes with the same ``together`` key (the units of one
    network layer) stay in one layer however many they are: a layer of 16
    neurons wrapped onto two rows reads as two layers of 8."""
    together = together or {}
    by_layer: dict = {}
    for n, k in layer_of.items():
        by_layer.setdefault(k, []).append(n)
    out: dict = {}
    shift = 0
    for k in sorted(by_layer):
        units: dict = {}  # one entry per key (its members) or per node without one, in DFS order
        for n in sorted(by_layer[k], key=rank.__getitem__):
            key = together.get(n)
            units.setdefault(("node", n) if key is None else ("key", key), []).append(n)
        parts = max(1, math.ceil(len(by_layer[k]) / width))
        size = math.ceil(len(by_layer[k]) / parts)
        part, filled = 0, 0
        for members in units.values():
            if filled and filled + len(members) > size:
                part, filled = part + 1, 0
            for n in members:
                out[n] = k + shift + part
            filled += len(members)
        shift += part
    return out


def layer_width_for(sizes: dict, gaps: tuple, aspect: float, direction: str) -> int:
    """How many boxes a layer may hold for a drawing of ``len(sizes)`` boxes to take the view's shape."""
    n = max(len(sizes), 1)
    w = sum(s[0] for s in sizes.values()) / n
    h = sum(s[1] for s in sizes.values()) / n
    if direction == "LR":  # layers are columns: depth × (w + layer gap) wide, width × (h + node gap) tall
        ratio = (w + gaps[0]) / (h + gaps[1]) / aspect
    else:
        ratio = aspect * (h + gaps[0]) / (w + gaps[1])
    return max(3, round(math.sqrt(n * ratio)))


def fold_blocks(order: LayeredOrder, sizes: dict, direction: str, gaps: tuple, count: int) -> list[int]:
    """The first layer of each of ``count`` blocks of about equal length along the flow.

    A cut moves a layer or two from the even split when that makes fewer
    edges wrap from one block to the next."""
    along = 0 if direction == "LR" else 1
    layers = order.layers
    depth = len(layers)
    count = min(count, depth)
    if count <= 1:
        return [0]
    thick = [max((sizes[it][along] for it in items if not _is_virtual(it)), default=0.0) for items in layers]
    start = [0.0]
    for k in range(1, depth):
        start.append(start[-1] + thick[k - 1] + gaps[0])
    total = start[-1] + thick[-1]
    pitch = total / depth
    at = {it: k for k, items in enumerate(layers) for it in items}
    segments = set()
    for chain in order.chains.values():
        segments.update(pairwise(chain))
    wraps = [0] * depth  # segments entering layer k from layer k-1
    for a, _b in segments:
        if at[a] + 1 < depth:
            wraps[at[a] + 1] += 1
    cuts = [0]
    for j in range(1, count):
        ideal = total * j / count
        best = None
        for c in range(cuts[-1] + 1, depth - (count - j) + 1):
            cost = abs(start[c] - ideal) / pitch + 0.3 * wraps[c]
            if abs(start[c] - ideal) <= 2.5 * pitch and (best is None or cost < best[0]):
                best = (cost, c)
        if best is None:
            best = (0, min(max(cuts[-1] + 1, round(ideal / pitch)), depth - (count - j)))
        cuts.append(best[1])
    return cuts
