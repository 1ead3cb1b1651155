"""Ordering the nodes within each layer so that few edges cross."""

from __future__ import annotations

import random
from bisect import bisect_right, insort
from itertools import pairwise

import networkx as nx

from autograd_core.drawing.base import (
    QUICK_SWEEPS,
    RESTART_WORK,
    RESTARTS,
    THOROUGH_SEGMENTS,
    TRANSPOSE_SEGMENTS,
    TRUNK_EDGES,
)
from autograd_core.drawing.layering import (
    LayeredOrder,
    _is_virtual,
    _limit_width,
    _natural,
    argument_indices,
    assign_layers,
    tight_layers,
)
from autograd_core.language.naming import unit_layer


def _dfs_rank(graph: nx.DiGraph, rng: random.Random | None = None) -> tuple[dict, dict]:
    """Depth-first post-order from the output(s), arguments in order: a tree's planar order.

    Also, for every edge, where in that order its argument was asked for: an
    edge from a node drawn elsewhere (used twice) runs in its consumer's
    subtree at that place, not next to its source.  With ``rng`` each node's
    arguments are visited in a random order (another planar order of a tree:
    a different start for the crossing minimization).
    """
    rank: dict = {}
    edge_rank: dict = {}
    multi = graph.is_multigraph()

    index = argument_indices(graph)
    incoming: dict = {}
    for e in index:
        incoming.setdefault(e[1], []).append(e)

    def arguments(n) -> list:
        if multi:
            args = [(e[0], e) for e in sorted(incoming.get(n, ()), key=index.__getitem__)]
        else:
            args = [(u, (u, n, 0)) for u in sorted(graph.predecessors(n), key=_natural)]
        if rng is not None:
            rng.shuffle(args)
        return args

    started: set = set()
    for sink in sorted((n for n in graph if graph.out_degree(n) == 0), key=_natural):
        stack = [(sink, arguments(sink), 0)]
        started.add(sink)
        while stack:
            n, args, i = stack.pop()
            if i == len(args):
                rank[n] = len(rank)
                continue
            stack.append((n, args, i + 1))
            parent, edge = args[i]
            edge_rank[edge] = len(rank) - 0.5
            if parent not in started:
                started.add(parent)
                stack.append((parent, arguments(parent), 0))
    for n in sorted(graph, key=_natural):
        rank.setdefault(n, len(rank))
    return rank, edge_rank


def layering_basis(graph: nx.DiGraph) -> tuple[dict, dict, dict]:
    """(rank, edge rank, layer of each node): what every ``layered_order`` of ``graph`` starts from, to compute
    once when several are tried (widths, directions: 10 of a 2,000-node overview's 100 ms layout)."""
    rank, edge_rank = _dfs_rank(graph)
    return rank, edge_rank, assign_layers(graph)


def layered_order(
    graph: nx.DiGraph, *, sweeps: int = 24, max_width: int | None = None, basis: tuple | None = None
) -> LayeredOrder:
    """Layers, virtual nodes and an order with few crossings (see the module's docstring).

    ``max_width`` splits a layer with more boxes than that into several
    consecutive layers (fifty terms of one sum become five columns of ten),
    so that a drawing can follow the view's shape instead of one long strip.
    ``basis``: ``layering_basis(graph)``, computed before (read, never changed).
    """
    rank, edge_rank, layer_of = basis if basis is not None else layering_basis(graph)
    best, segments = _order_layering(graph, layer_of, rank, edge_rank, sweeps, max_width)
    if best.crossings and segments <= THOROUGH_SEGMENTS:
        # A small graph also tries the shortest layering (dot's); the fewest crossings win, ties keep the first.
        tight = tight_layers(graph)
        if tight is not None and tight != best.layer_of:
            order, _ = _order_layering(graph, tight, rank, edge_rank, sweeps, max_width)
            if order.crossings < best.crossings:
                best = order
    return best


def layer_items(graph: nx.DiGraph, basis: tuple) -> list[list]:
    """The items (nodes and virtual slots) of each layer of ``layered_order(graph, basis=basis)``, in no
    particular order: its layers' sizes without the work of ordering them (a big graph's direction is chosen
    from those alone)."""
    rank, edge_rank, layer_of = basis
    order, segments = _order_layering(graph, layer_of, rank, edge_rank, 0, None, minimize=False)
    if segments <= THOROUGH_SEGMENTS:  # a small graph may take another layering (see layered_order)
        return layered_order(graph, basis=basis).layers
    return order.layers


def _order_layering(
    graph, layer_of, rank, edge_rank, sweeps, max_width, minimize: bool = True
) -> tuple[LayeredOrder, int]:
    """The order of one layering (see ``layered_order``) and its number of segments (``minimize=False``: the
    layers as they start, before the crossings are reduced)."""
    if max_width:
        # the units of one network layer (L1.n1 … L1.n16, boxes or the nodes inside them) are never split
        together = {n: key for n, group in graph.nodes(data="group") if (key := unit_layer(group)) is not None}
        layer_of = _limit_width(layer_of, rank, max_width, together)
    depth = max(layer_of.values(), default=-1) + 1
    layers: list[list] = [[] for _ in range(depth)]
    key: dict = {}
    for n, k in layer_of.items():
        layers[k].append(n)
        key[n] = (rank[n], 0)
    edges = list(graph.edges(keys=True)) if graph.is_multigraph() else [(u, v, 0) for u, v in graph.edges()]
    long_edges: dict = {}
    for u, v, _k in edges:
        if layer_of[v] - layer_of[u] > 1:
            long_edges[u] = long_edges.get(u, 0) + 1
    chains: dict = {}
    up: dict = {n: [] for n in layer_of}  # item -> items in the previous layer it connects to
    down: dict = {n: [] for n in layer_of}
    linked: set = set()

    def link(a, b) -> None:
        linked.add((a, b))
        down[a].append(b)
        up[b].append(a)

    trunks: dict = {}  # source -> its trunk's slots, layer by layer
    for u, v, k in edges:
        ku, kv = layer_of[u], layer_of[v]
        if kv - ku > 1 and long_edges.get(u, 0) >= TRUNK_EDGES:
            trunk = trunks.setdefault(u, [])
            while len(trunk) < kv - ku - 1:  # extend the trunk to this edge's last layer
                layer = ku + 1 + len(trunk)
                item = ("virtual", ("trunk", u), layer)
                layers[layer].append(item)
                key[item] = (edge_rank.get((u, v, k), rank[u]), 1 + layer)
                up[item], down[item] = [], []
                link(trunk[-1] if trunk else u, item)
                trunk.append(item)
            chain = [u, *trunk[: kv - ku - 1], v]
            link(chain[-2], v)
        else:
            chain = [u]
            for layer in range(ku + 1, kv):
                item = ("virtual", (u, v, k), layer)
                layers[layer].append(item)
                key[item] = (edge_rank.get((u, v, k), rank[u]), 1 + layer)
                up[item], down[item] = [], []
                chain.append(item)
            chain.append(v)
            for a, b in pairwise(chain):
                if (a, b) not in linked or not (_is_virtual(a) or _is_virtual(b)):
                    link(a, b)
        chains[(u, v, k)] = chain
    for items in layers:
        items.sort(key=lambda it: key[it])
    segments = len(linked)
    if not minimize:
        return LayeredOrder(layers, layer_of, chains, -1, trunks), segments

    def start(seed: int) -> list:
        """The layers in the order of a depth-first search that takes the arguments in a random order."""
        rank_, edge_rank_ = _dfs_rank(graph, random.Random(seed))

        def key_of(it):
            if _is_virtual(it):
                e = it[1]
                if e[0] == "trunk":
                    return (rank_[e[1]], 1 + it[2])
                return (edge_rank_.get(e, rank_[e[0]]), 1 + it[2])
            return (rank_[it], 0)

        return [sorted(items, key=key_of) for items in layers]

    best_layers, best = _order(layers, up, down, segments, sweeps, start)
    return LayeredOrder(best_layers, layer_of, chains, best, trunks), segments


def _order(layers: list, up: dict, down: dict, segments: int, sweeps: int, dfs_start=None) -> tuple[list, int]:
    """The order of every layer with the fewest crossings found, and that count.

    Works on items numbered 0…n-1 (a list lookup is several times faster than
    hashing a virtual node's nested tuple), then gives the items back.
    """
    items = [it for layer in layers for it in layer]
    number = {it: i for i, it in enumerate(items)}
    layers_i = [[number[it] for it in layer] for layer in layers]
    up_i = [[number[m] for m in up[it]] for it in items]
    down_i = [[number[m] for m in down[it]] for it in items]
    depth = len(layers_i)
    thorough = segments <= THOROUGH_SEGMENTS
    # Several strategies (barycenter or median, first sweep down or up); the fewest crossings win.
    strategies = [(False, True), (True, True), (False, False), (True, False)]
    if not thorough:
        strategies = strategies[:1]
    if segments > TRANSPOSE_SEGMENTS:  # a big graph: a few sweeps, no counting in between (it must draw fast)
        pos = _positions(layers_i, len(items))
        for sweep in range(QUICK_SWEEPS):
            downward = sweep % 2 == 0
            for k in range(1, depth) if downward else range(depth - 2, -1, -1):
                _sort_by_barycenter(layers_i[k], up_i if downward else down_i, pos)
        best, best_layers = _total_crossings(layers_i, down_i, pos), layers_i
    else:
        best, best_layers = None, layers_i
        for median, downward_first in strategies:
            start = [list(layer) for layer in layers_i]
            crossings, result = _minimize(
                start, up_i, down_i, sweeps, median, downward_first, segments <= TRANSPOSE_SEGMENTS, thorough
            )
            if best is None or crossings < best:
                best, best_layers = crossings, result
            if best == 0:
                break
        # Restarts from other depth-first orders (each node's arguments in a random order: another planar
        # order of a tree), while the graph is small (seeded: deterministic).
        rng = random.Random(0)
        restarts = min(RESTARTS, RESTART_WORK // max(segments, 1)) if thorough and dfs_start is not None else 0
        for r in range(restarts if best else 0):
            start = [[number[it] for it in layer] for layer in dfs_start(r)]
            crossings, result = _minimize(
                start, up_i, down_i, sweeps, rng.random() < 0.5, rng.random() < 0.5, True, True
            )
            if crossings < best:
                best, best_layers = crossings, result
            if best == 0:
                break
    return [[items[i] for i in layer] for layer in best_layers], best


def _positions(layers: list, count: int) -> list:
    pos = [0] * count
    for layer in layers:
        for i, it in enumerate(layer):
            pos[it] = i
    return pos


def _minimize(layers, up, down, sweeps, median, downward_first, do_transpose, sift=False):
    depth = len(layers)
    pos = _positions(layers, len(up))
    counter = _Crossings(layers, down, pos)
    best = counter.total
    best_layers = [list(items) for items in layers]
    stale = 0
    for sweep in range(sweeps if best else 0):
        downward = (sweep % 2 == 0) == downward_first
        rng = range(1, depth) if downward else range(depth - 2, -1, -1)
        for k in rng:
            _sort_by_barycenter(layers[k], up if downward else down, pos, median)
        if do_transpose:
            # every other pair of sweeps, one round that also swaps neighbors whose crossings tie (as dot does):
            # a way off a plateau
            sideways = sweep % 4 >= 2
            _transpose(layers, up, down, pos, rounds=1 if sideways else 4, sideways=sideways)
        crossings = counter.update()
        if crossings < best:
            best, best_layers, stale = crossings, [list(items) for items in layers], 0
        else:
            stale += 1
        if best == 0 or stale >= 6:
            break
    if best and sift:
        layers = [list(items) for items in best_layers]
        pos = _positions(layers, len(up))
        counter = _Crossings(layers, down, pos)
        for _ in range(4):
            _sift(layers, up, down, pos)
            _transpose(layers, up, down, pos)
            crossings = counter.update()
            if crossings >= best:
                break
            best, best_layers = crossings, [list(items) for items in layers]
    return best, best_layers


class _Crossings:
    """The crossings between adjacent layers, recounted only where a layer's order changed."""

    def __init__(self, layers: list, down: list, pos: list):
        self.layers, self.down, self.pos = layers, down, pos
        self.seen = [list(items) for items in layers]
        self.counts = [_layer_crossings(layers[k], down, pos) for k in range(len(layers) - 1)]
        self.total = sum(self.counts)

    def update(self) -> int:
        layers, seen = self.layers, self.seen
        changed = [layers[k] != seen[k] for k in range(len(layers))]
        for k in range(len(layers) - 1):
            if changed[k] or changed[k + 1]:
                self.counts[k] = _layer_crossings(layers[k], self.down, self.pos)
        for k, c in enumerate(changed):
            if c:
                seen[k] = list(layers[k])
        self.total = sum(self.counts)
        return self.total


def _pair_costs(a: int, b: int, up: list, down: list, pos: list) -> tuple[int, int]:
    """Crossings between the edges of a and b (to both adjacent layers) with a above b, and with b above a."""
    ab = ba = 0
    for x in up[a]:
        px = pos[x]
        for y in up[b]:
            py = pos[y]
            if px > py:
                ab += 1
            elif px < py:
                ba += 1
    for x in down[a]:
        px = pos[x]
        for y in down[b]:
            py = pos[y]
            if px > py:
                ab += 1
            elif px < py:
                ba += 1
    return ab, ba


def _sift(layers: list, up: list, down: list, pos: list) -> None:
    """Sifting: move each item to the place in its layer where its edges cross least."""
    for items in layers:
        if len(items) < 3:
            continue
        for v in sorted(items, key=lambda it: -(len(up[it]) + len(down[it]))):
            i = items.index(v)
            del items[i]
            # cost of v at position 0, then the change as v passes each item w
            best_at, best_delta, delta = 0, 0, 0
            for j, w in enumerate(items):
                pos[w] = j
            for j, w in enumerate(items):
                before, after = _pair_costs(v, w, up, down, pos)
                delta += after - before
                if delta < best_delta:
                    best_delta, best_at = delta, j + 1
            items.insert(best_at, v)
            for j, w in enumerate(items):
                pos[w] = j


def _sort_by_barycenter(items: list, neighbors: list, pos: list, median: bool = False) -> None:
    keyed = []
    for it in items:
        around = neighbors[it]
        here = pos[it]
        if not around:
            keyed.append((here, here, it))
        elif len(around) == 1:
            keyed.append((pos[around[0]], here, it))
        elif median:
            values = sorted([pos[m] for m in around])
            mid = len(values) // 2
            keyed.append((values[mid] if len(values) % 2 else (values[mid - 1] + values[mid]) / 2, here, it))
        else:
            keyed.append((sum([pos[m] for m in around]) / len(around), here, it))
    keyed.sort()
    for i, k in enumerate(keyed):
        it = k[2]
        items[i] = it
        pos[it] = i


def _transpose(layers: list, up: list, down: list, pos: list, rounds: int = 4, sideways: bool = False) -> None:
    """Swap neighbors in a layer while that removes crossings (dot's transpose step).

    A round looks again only at the layers next to one that changed in the last."""
    depth = len(layers)
    look = [True] * depth
    for _ in range(rounds):
        changed = [False] * depth
        for k in range(depth):
            if not look[k]:
                continue
            items = layers[k]
            for i in range(len(items) - 1):
                a, b = items[i], items[i + 1]
                now, swapped = _pair_costs(a, b, up, down, pos)  # crossings with a above b, and b above a
                if swapped < now or (sideways and swapped == now and now):
                    items[i], items[i + 1] = b, a
                    pos[a], pos[b] = i + 1, i
                    changed[k] = True
                elif len(down[a]) == 1 and len(down[b]) == 1:
                    _swap_parallel(layers, k, i, up, down, pos, changed)
        if not any(changed):
            return
        look = [changed[k] or (k and changed[k - 1]) or (k + 1 < depth and changed[k + 1]) for k in range(depth)]


def _swap_parallel(layers: list, k: int, i: int, up: list, down: list, pos: list, changed: list) -> None:
    """Swap two parallel paths that start side by side at ``layers[k][i:i + 2]``, if that removes crossings.

    Two long edges (or chains of one-argument ops) that run side by side
    through several layers cross nothing between their ends, so swapping
    them in every one of those layers changes only the crossings at the two
    ends, which swapping in one layer alone cannot reach.
    """
    a, b = layers[k][i], layers[k][i + 1]
    if len(up[a]) == 1 and len(up[b]) == 1:
        ua, ub = up[a][0], up[b][0]
        if pos[ub] == pos[ua] + 1 and len(down[ua]) == 1 and len(down[ub]) == 1:
            return  # the middle of a pair of paths that run side by side from further up: tried from their top
    run = [(a, b)]
    m = k
    while len(down[a]) == 1 and len(down[b]) == 1:
        na, nb = down[a][0], down[b][0]
        if pos[nb] != pos[na] + 1 or len(up[na]) != 1 or len(up[nb]) != 1:
            break
        a, b = na, nb
        m += 1
        run.append((a, b))
    if m == k:
        return
    delta = 0
    first, last = run[0], run[-1]
    for side, (x_, y_) in ((up, first), (down, last)):
        for x in side[x_]:
            px = pos[x]
            for y in side[y_]:
                py = pos[y]
                if px > py:
                    delta -= 1
                elif px < py:
                    delta += 1
    if delta >= 0:
        return
    for j, (a, b) in enumerate(run):
        layer = layers[k + j]
        pa, pb = pos[a], pos[b]
        layer[pa], layer[pb] = b, a
        pos[a], pos[b] = pb, pa
        changed[k + j] = True


def _total_crossings(layers: list, down: list, pos: list) -> int:
    return sum(_layer_crossings(layers[k], down, pos) for k in range(len(layers) - 1))


def _layer_crossings(items: list, down: list, pos: list) -> int:
    """Crossings between one layer and the next: inversions of the lower ends (kept sorted with bisect)."""
    seen: list = []
    crossings = 0
    for it in items:
        ends = [pos[b] for b in down[it]]
        if len(ends) > 1:
            ends.sort()
        for e in ends:
            crossings += len(seen) - bisect_right(seen, e)  # earlier edges that end strictly below e
        for e in ends:
            insort(seen, e)
    return crossings  # edges that share an end point are equal, not inverted: no crossing
