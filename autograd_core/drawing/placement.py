"""Coordinates and routes of a layered drawing once its layers are ordered."""

from __future__ import annotations

from itertools import pairwise

import networkx as nx

from autograd_core.drawing.base import (
    BEND_ROOM,
    EDGE_GAP,
    LANE_GAP,
    LANE_MARGIN,
    MIN_LAYER_GAP,
    TRANSPOSE_SEGMENTS,
    Drawing,
    Point,
)
from autograd_core.drawing.layering import LayeredOrder, _is_virtual, argument_indices

# ------------------------------------------------------------------ coordinates


def _layered_drawing(
    graph: nx.DiGraph, order: LayeredOrder, sizes: dict, direction: str, gaps, blocks: list | None = None
) -> Drawing:
    """Coordinates and routes of a layered drawing; ``blocks`` (first layer of each block) folds it.

    A folded drawing puts its blocks of consecutive layers side by side (top
    to bottom layers: columns; left to right: bands, one under the other),
    each flowing the same way.  An edge that leaves a block's last layer runs
    on past it, then along the gap between the two blocks, and enters the
    next block from before its first layer: each such edge has its own lane,
    nested so that they cross no more than the unfolded ones did.
    """
    across = 1 if direction == "LR" else 0  # index of the in-layer axis in (w, h)
    along = 1 - across
    layers = order.layers
    starts = sorted(set(blocks or [0]) | {0})
    block_of = []
    for k in range(len(layers)):
        block_of.append(sum(1 for b in starts if b <= k) - 1)
    nblocks = len(starts)

    virtual = {it for items in layers for it in items if _is_virtual(it)}
    is_virtual = virtual.__contains__
    half = {it: (EDGE_GAP if it in virtual else sizes[it][across]) / 2 for items in layers for it in items}
    layer_gap, node_gap = gaps
    layer_at = {it: k for k, items in enumerate(layers) for it in items}

    def separation(a, b) -> float:
        return half[a] + half[b] + (EDGE_GAP if a in virtual or b in virtual else node_gap)

    up: dict = {}
    down: dict = {}
    linked: set = set()
    folded = nblocks > 1
    for chain in order.chains.values():
        for a, b in pairwise(chain):
            if (a, b) in linked or (folded and block_of[layer_at[a]] != block_of[layer_at[b]]):
                continue  # a segment between two blocks does not pull their coordinates together
            linked.add((a, b))
            down.setdefault(a, []).append(b)
            up.setdefault(b, []).append(a)
    coord: dict = {}
    offsets = [_offsets(items, separation) for items in layers]  # (the layers' order stays as it is)
    for items, off in zip(layers, offsets):
        mid = off[-1] / 2 if items else 0.0
        for it, c in zip(items, off):
            coord[it] = c - mid
    for sweep in range(8 if len(coord) <= TRANSPOSE_SEGMENTS else 2):
        downward = sweep % 2 == 0
        rng = range(1, len(layers)) if downward else range(len(layers) - 2, -1, -1)
        for k in rng:
            _place_layer(layers[k], up if downward else down, coord, separation, is_virtual, offsets=offsets[k])
    for k in range(len(layers)):
        _place_layer(layers[k], None, coord, separation, is_virtual, both=(up, down), offsets=offsets[k])
    # layer positions along the flow
    thickness = [max((sizes[it][along] for it in items if not is_virtual(it)), default=0.0) for items in layers]

    # ports: each box spreads its edges along its border in the order of their other ends
    def ports():
        out_port: dict = {}
        in_port: dict = {}
        by_source: dict = {}
        by_target: dict = {}
        index = argument_indices(graph)
        for e, chain in order.chains.items():
            by_source.setdefault(chain[0], []).append((coord[chain[1]], index[e], e))
            by_target.setdefault(chain[-1], []).append((coord[chain[-2]], index[e], e))
        for n, items in by_source.items():
            items.sort(key=_port_order)
            for e, c in zip((x[2] for x in items), _spread(coord[n], sizes[n][across], len(items))):
                out_port[e] = c
        for n, items in by_target.items():
            items.sort(key=_port_order)
            for e, c in zip((x[2] for x in items), _spread(coord[n], sizes[n][across], len(items))):
                in_port[e] = c
        return out_port, in_port

    # Folding: the segments from each block's last layer to the next block's first get lanes.
    lanes: dict = {}  # (boundary, owner) -> lane index; owner: an edge, or ("trunk", source)
    lane_count = [0] * nblocks
    if nblocks > 1:
        out_port, in_port = ports()  # in-block order only: compared within one block's frame
        crossing: list[dict] = [{} for _ in range(nblocks)]
        for e, chain in order.chains.items():
            for i, (a, b) in enumerate(pairwise(chain)):
                k = layer_at[a]
                if block_of[k] == block_of[k + 1]:
                    continue
                trunk_run = _is_virtual(a) and _is_virtual(b) and a[1][0] == "trunk"
                owner = a[1] if trunk_run else e
                src = out_port[e] if i == 0 else coord[a]
                dst = in_port[e] if i == len(chain) - 2 else coord[b]
                crossing[block_of[k]].setdefault(owner, (src, dst))
        for bnd, owners in enumerate(crossing):
            ranked = sorted(owners, key=lambda o: (-owners[o][0], -owners[o][1]))
            for i, o in enumerate(ranked):
                lanes[(bnd, o)] = i
            lane_count[bnd] = len(ranked)
        # each block side by side: its own across range, then the lanes of the wrap to the next one
        lane_margin = LANE_MARGIN
        shift = 0.0
        extent = []
        for bi in range(nblocks):
            items = [it for k, its in enumerate(layers) if block_of[k] == bi for it in its]
            lo = min(coord[it] - half[it] for it in items)
            hi = max(coord[it] + half[it] for it in items)
            extent.append((lo, hi))
        block_shift = []
        for bi in range(nblocks):
            if bi:
                gap = 2 * lane_margin + max(lane_count[bi - 1] - 1, 0) * LANE_GAP
                shift = block_shift[-1] + extent[bi - 1][1] + gap - extent[bi][0]
            block_shift.append(shift)
        for k, items in enumerate(layers):
            for it in items:
                coord[it] += block_shift[block_of[k]]
        block_hi = [extent[bi][1] + block_shift[bi] for bi in range(nblocks)]
    out_port, in_port = ports()

    def channel(count: int) -> float:
        return 0.0 if not count else 2 * LANE_MARGIN + (count - 1) * LANE_GAP

    # Between two layers, as much room as their edges need to bend: a curve that moves sideways by d
    # gets about BEND_ROOM·d along the flow, at least MIN_LAYER_GAP, at most the layer gap.
    sideways = [0.0] * len(layers)
    for e, chain in order.chains.items():
        last = len(chain) - 1
        src = out_port[e]  # each segment from its source's port (or slot) to its target's
        for i in range(1, last + 1):
            b = chain[i]
            dst = in_port[e] if i == last else coord[b]
            k = layer_at[b]
            d = abs(src - dst)
            if d > sideways[k]:
                sideways[k] = d
            src = dst
    flow = []
    f = 0.0
    for k, t in enumerate(thickness):
        if k and block_of[k] != block_of[k - 1]:  # a new block starts after the lanes' channel
            f = channel(lane_count[block_of[k] - 1]) + t / 2
        elif k:
            f += thickness[k - 1] / 2 + min(layer_gap, max(MIN_LAYER_GAP, BEND_ROOM * sideways[k])) + t / 2
        else:
            f = t / 2
        flow.append(f)

    def point(flow_c: float, across_c: float) -> Point:
        return (flow_c, across_c) if direction == "LR" else (across_c, flow_c)

    def wrap(k: int, owner, here: float, target: float) -> list:
        """Commands from layer k's far side (at ``here``) to layer k+1's near side (at ``target``) in the next block."""
        bnd = block_of[k]
        i, count = lanes[(bnd, owner)], lane_count[bnd]
        out_level = flow[k] + thickness[k] / 2 + LANE_MARGIN + i * LANE_GAP
        lane = block_hi[bnd] + LANE_MARGIN + i * LANE_GAP
        enter = flow[k + 1] - thickness[k + 1] / 2
        in_level = enter - LANE_MARGIN - (count - 1 - i) * LANE_GAP
        return [
            ("L", *point(out_level, here)),
            ("L", *point(out_level, lane)),
            ("L", *point(in_level, lane)),
            ("L", *point(in_level, target)),
            ("L", *point(enter, target)),
        ]

    centers = {}
    for k, items in enumerate(layers):
        for it in items:
            if not is_virtual(it):
                centers[it] = point(flow[k], coord[it])
    # Each trunk once: per layer it crosses, a run across the layer and a curve to the next one.
    trunks: dict = {}
    trunk_at: dict = {}  # (source, layer) -> index of the trunk's run across that layer
    for chain in order.chains.values():
        u = chain[0]
        if len(chain) < 3 or chain[1][1][0] != "trunk" or u in trunks:
            continue
        ku = order.layer_of[u]
        items = order.trunks[u]
        first = items[0]
        cmds = [("M", *point(flow[ku + 1] - thickness[ku + 1] / 2, coord[first]))]
        for i, item in enumerate(items):
            k = ku + 1 + i
            if i and block_of[k] != block_of[k - 1]:
                cmds.extend(wrap(k - 1, ("trunk", u), coord[items[i - 1]], coord[item]))
            elif i:
                here_flow = flow[k - 1] + thickness[k - 1] / 2
                enter = flow[k] - thickness[k] / 2
                mid = (here_flow + enter) / 2
                prev = coord[items[i - 1]]
                cmds.append(("C", *point(mid, prev), *point(mid, coord[item]), *point(enter, coord[item])))
            trunk_at[(u, k)] = len(cmds)
            cmds.append(("L", *point(flow[k] + thickness[k] / 2, coord[item])))
        trunks[u] = cmds
    paths = {}
    arrows = {}
    lr = direction == "LR"
    layer_of = order.layer_of
    for e, chain in order.chains.items():
        u, v = chain[0], chain[-1]
        ku, kv = layer_of[u], layer_of[v]
        start = flow[ku] + sizes[u][along] / 2
        cmds = [("M", *point(start, out_port[e]))]
        here_flow, here = flow[ku] + thickness[ku] / 2, out_port[e]
        if here_flow > start:
            cmds.append(("L", *point(here_flow, here)))
        on_trunk = len(chain) > 2 and chain[1][1][0] == "trunk"
        k = ku + 1
        while k <= kv:
            item = chain[k - ku]
            target = in_port[e] if k == kv else coord[item]
            enter = flow[k] - thickness[k] / 2
            if block_of[k] != block_of[k - 1]:
                cmds.extend(wrap(k - 1, e, here, target))
            else:
                mid = (here_flow + enter) / 2  # (point() of each pair, inline)
                cmds.append(
                    ("C", mid, here, mid, target, enter, target) if lr else ("C", here, mid, target, mid, target, enter)
                )
            here = target
            if k < kv and on_trunk:  # ride the trunk to the layer before the target
                cmds.append(("T", u, trunk_at[(u, k)], trunk_at[(u, kv - 1)] + 1))
                k = kv - 1
                here = coord[chain[k - ku]]
                here_flow = flow[k] + thickness[k] / 2
            elif k < kv:
                here_flow = flow[k] + thickness[k] / 2
                cmds.append(("L", *point(here_flow, here)))
            k += 1
        tip_flow = flow[kv] - sizes[v][along] / 2
        if tip_flow > flow[kv] - thickness[kv] / 2:
            cmds.append(("L", *point(tip_flow, here)))
        paths[e] = cmds
        arrows[e] = (*point(tip_flow, here), *point(1.0, 0.0))
    return Drawing(centers, sizes, paths, arrows, direction, trunks)


def _port_order(item: tuple) -> tuple:
    """Ports in the order of the other ends, then of the argument (never comparing node ids of mixed types)."""
    return item[0], item[1]


def _spread(center: float, extent: float, count: int) -> list[float]:
    """``count`` port positions along a border of length ``extent``, centered, at most 14 apart."""
    if count == 1:
        return [center]
    step = min(14.0, extent * 0.8 / (count - 1))
    first = center - step * (count - 1) / 2
    return [first + i * step for i in range(count)]


def _place_layer(items, neighbors, coord, separation, is_virtual, both=None, offsets=None) -> None:
    """Isotonic regression (pool adjacent violators) under minimum separations.

    ``offsets``: each item's distance from the first at minimum separations (``separation`` summed), when
    known already (a layer's order does not change while it is placed, sweep after sweep)."""
    if not items:
        return
    desired, weights = [], []
    value_of = coord.__getitem__
    if both is not None:
        ups, downs = both[0].get, both[1].get
    else:
        ups, downs = neighbors.get, None
    for it in items:
        around = ups(it, _NONE) + downs(it, _NONE) if downs is not None else ups(it, _NONE)
        if around:
            n = len(around)
            desired.append(sum(map(value_of, around)) / n)
            weights.append(4.0 if is_virtual(it) else 1.0 * n)
        else:
            desired.append(coord[it])
            weights.append(0.05)
    if offsets is None:
        offsets = _offsets(items, separation)
    # minimize sum w (q_i + off_i - d_i)^2 with q non-decreasing
    values: list[float] = []  # the blocks': value, weight, count
    masses: list[float] = []
    counts: list[int] = []
    for d, w, off in zip(desired, weights, offsets):
        v, c = d - off, 1
        while values and values[-1] > v:
            v1, w1 = values.pop(), masses.pop()
            v, w, c = (v1 * w1 + v * w) / (w1 + w), w1 + w, counts.pop() + c
        values.append(v)
        masses.append(w)
        counts.append(c)
    i = 0
    for value, count in zip(values, counts):
        for _ in range(count):
            coord[items[i]] = value + offsets[i]
            i += 1


_NONE: list = []  # (never changed)


def _offsets(items: list, separation) -> list[float]:
    """Each item's distance from the first when every neighbor is at its minimum separation."""
    offsets = [0.0]
    for i in range(1, len(items)):
        offsets.append(offsets[-1] + separation(items[i - 1], items[i]))
    return offsets
