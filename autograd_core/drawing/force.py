"""Force layouts scaled to box sizes, packed, compacted and freed of overlaps."""

from __future__ import annotations

import math

import networkx as nx

from autograd_core.drawing.base import COMPACT_NODES, COMPACT_THOROUGH_NODES, FORCE_GAP, PACK_GAIN, Drawing, fit_in_view
from autograd_core.drawing.routing import _box, route_straight

# ------------------------------------------------------------------ force layouts


def _force_drawing(
    graph: nx.DiGraph, pos: dict, sizes: dict, aspect: float | None = None, view: tuple | None = None
) -> Drawing:
    nodes = list(graph.nodes)
    if len(nodes) == 1:
        centers = {nodes[0]: (0.0, 0.0)}
        return Drawing(centers, sizes, {}, {}, "free")
    # scale so that a typical edge is about one box long (overlap removal then makes room)
    lengths = [math.dist(pos[u], pos[v]) for u, v in graph.edges() if u != v]
    typical = sorted(lengths)[len(lengths) // 2] if lengths else 1.0
    mean_w = sum(s[0] for s in sizes.values()) / len(sizes)
    mean_h = sum(s[1] for s in sizes.values()) / len(sizes)
    scale = (0.8 * math.hypot(mean_w, mean_h) + FORCE_GAP) / (typical or 1.0)
    xs, ys = [p[0] for p in pos.values()], [p[1] for p in pos.values()]
    w, h = (max(xs) - min(xs)) or 1.0, (max(ys) - min(ys)) or 1.0
    natural = min(max(math.sqrt((aspect or 1.0) / (w / h)), 0.5), 2.0)  # towards the view's shape (≤ 2× either way)
    unit = (mean_w + FORCE_GAP, mean_h + FORCE_GAP)
    if len(nodes) > COMPACT_NODES:
        shrinks, orders, rounds, steps = (1.0,), [(0, 1)], 0, 0
    elif len(nodes) > COMPACT_THOROUGH_NODES:
        shrinks, orders, rounds, steps = (1.0,), [(0, 1)], 1, 0
    else:
        shrinks, orders, rounds, steps = (1.0, 0.6), [(0, 1), (1, 0)], 2, 8
    # Compaction: overlaps pushed apart, then every box slid towards the drawing's left, then top (or top,
    # then left), as far as the others allow: the force layout's arrangement (who is beside whom) without
    # the empty room.  The stretch towards the view's shape is searched: narrower while the result is
    # too wide for the view, wider while it is too tall; the one that shows largest in the view is kept.
    target = aspect or 1.0
    best = None
    tried: set = set()

    def attempt(stretch: float) -> float:
        """The best compacted drawing at this stretch; returns its width/height."""
        nonlocal best
        shape = 1.0
        top = None
        for shrink in shrinks:
            sx, sy = scale * stretch * shrink, scale / stretch * shrink
            start = {n: (pos[n][0] * sx, pos[n][1] * sy) for n in nodes}
            spread = remove_overlaps(start, sizes, FORCE_GAP, unit=unit)
            for first, second in orders:
                centers = spread
                for r in range(rounds + 1):
                    if r:
                        centers = compact(compact(centers, sizes, FORCE_GAP, first), sizes, FORCE_GAP, second)
                    shown = _shown_scale(centers, sizes, aspect, view)
                    if top is None or shown > top[0]:
                        top = (shown, centers)
                    if best is None or shown > best[0] * 1.001:
                        best = (shown, centers)
        left, upper, right, lower = _extent(top[1], sizes)
        shape = (right - left) / max(lower - upper, 1.0)
        return shape

    stretch = natural
    shape = attempt(stretch)
    tried.add(round(stretch, 4))
    direction = 0.8 if shape > target else 1.25
    for _ in range(steps):
        stretch *= direction
        if round(stretch, 4) in tried or not 0.1 < stretch < 10:
            break
        tried.add(round(stretch, 4))
        before = best[0]
        shape = attempt(stretch)
        if (shape > target) != (direction < 1) and best[0] <= before:
            break  # past the view's shape and no better
    if len(nodes) <= COMPACT_THOROUGH_NODES:
        # Rows: the boxes in bands of the force layout's height order, each band in its left-to-right
        # order, packed (or columns, the same way turned); kept where clearly larger than the above.
        compacted = best[0]
        for axis in (1, 0):
            for count in range(1, len(nodes) + 1):
                centers = pack_rows(pos, sizes, FORCE_GAP, count, axis)
                shown = _shown_scale(centers, sizes, aspect, view)
                if shown > max(best[0], compacted * PACK_GAIN):
                    best = (shown, centers)
    centers = best[1]
    paths, arrows = route_straight(graph, centers, sizes)
    return Drawing(centers, sizes, paths, arrows, "free")


def pack_rows(pos: dict, sizes: dict, gap: float, count: int, axis: int = 1) -> dict:
    """Boxes in ``count`` rows (``axis`` 1; columns for 0): split in the order of ``pos`` along ``axis``
    into rows of equal counts, each row in the order along the other axis, ``gap`` apart and centered."""
    other = 1 - axis
    nodes = sorted(pos, key=lambda n: (pos[n][axis], pos[n][other]))
    per = math.ceil(len(nodes) / count)
    rows = [sorted(nodes[i : i + per], key=lambda n: pos[n][other]) for i in range(0, len(nodes), per)]
    out = {}
    level = 0.0
    for row in rows:
        thick = max(sizes[n][axis] for n in row)
        length = sum(sizes[n][other] for n in row) + gap * (len(row) - 1)
        along = -length / 2
        for n in row:
            p = [0.0, 0.0]
            p[other] = along + sizes[n][other] / 2
            p[axis] = level + thick / 2
            out[n] = (p[0], p[1])
            along += sizes[n][other] + gap
        level += thick + gap
    return out


def compact(centers: dict, sizes: dict, gap: float, axis: int) -> dict:
    """Slide every box towards the low end of ``axis`` (0: x, 1: y) as far as the boxes beside it allow.

    Boxes are taken in the order of their low edges; each stops ``gap`` after the boxes already placed
    that share its range on the other axis (widened by ``gap``), so no two boxes come closer than ``gap``
    and none passes another."""
    other = 1 - axis
    nodes = sorted(centers, key=lambda n: centers[n][axis] - sizes[n][axis] / 2)
    low = min(centers[n][axis] - sizes[n][axis] / 2 for n in nodes)
    placed: list[tuple[float, float, float]] = []  # (low, high) on the other axis, high end along ``axis``
    out = {}
    for n in nodes:
        c, s = centers[n], sizes[n]
        olo, ohi = c[other] - s[other] / 2, c[other] + s[other] / 2
        start = low
        for plo, phi, end in placed:
            if plo < ohi + gap and olo < phi + gap and end + gap > start:
                start = end + gap
        moved = list(c)
        moved[axis] = start + s[axis] / 2
        out[n] = (moved[0], moved[1])
        placed.append((olo, ohi, start + s[axis]))
    return out


def _extent(centers: dict, sizes: dict) -> tuple[float, float, float, float]:
    return (
        min(c[0] - sizes[n][0] / 2 for n, c in centers.items()),
        min(c[1] - sizes[n][1] / 2 for n, c in centers.items()),
        max(c[0] + sizes[n][0] / 2 for n, c in centers.items()),
        max(c[1] + sizes[n][1] / 2 for n, c in centers.items()),
    )


def _shown_scale(centers: dict, sizes: dict, aspect: float | None, view: tuple | None = None) -> float:
    """How large boxes at ``centers`` show in ``view`` (see ``draw``), or else in a view of width/height
    ``aspect`` (height 1; square without one)."""
    import numpy as np

    boxes = np.array([_box(c, sizes[n]) for n, c in centers.items()], dtype=float)
    extent = (boxes[:, 0].min(), boxes[:, 1].min(), boxes[:, 2].max(), boxes[:, 3].max())
    if view is not None:
        width, height, corner_w, corner_h, margin, largest = view[:6]
        return fit_in_view(extent, boxes, (width, height), (corner_w, corner_h), margin, largest)[0]
    a = aspect or 1.0
    return min(a / max(extent[2] - extent[0], 1.0), 1.0 / max(extent[3] - extent[1], 1.0))


def remove_overlaps(
    centers: dict, sizes: dict, gap: float, max_rounds: int = 400, unit: tuple[float, float] = (1.0, 1.0)
) -> dict:
    """Push boxes apart (along the axis of least overlap) until no two boxes, plus ``gap``, overlap.

    Overlaps are compared in ``unit`` (x, y) lengths: with a typical box's width and height, wide boxes
    are pushed sideways as readily as up or down, so that the drawing does not grow in one direction only."""
    nodes = list(centers)
    xs = [centers[n][0] for n in nodes]
    ys = [centers[n][1] for n in nodes]
    ws = [sizes[n][0] + gap for n in nodes]
    hs = [sizes[n][1] + gap for n in nodes]
    cell = max(max(ws), max(hs))
    for round_ in range(max_rounds):
        grid: dict = {}
        for i in range(len(nodes)):
            grid.setdefault((int(xs[i] // cell), int(ys[i] // cell)), []).append(i)
        moved = False
        for i in range(len(nodes)):
            cx, cy = int(xs[i] // cell), int(ys[i] // cell)
            for dx in (-1, 0, 1):
                for dy in (-1, 0, 1):
                    for j in grid.get((cx + dx, cy + dy), ()):
                        if j <= i:
                            continue
                        ox = (ws[i] + ws[j]) / 2 - abs(xs[i] - xs[j])
                        oy = (hs[i] + hs[j]) / 2 - abs(ys[i] - ys[j])
                        if ox <= 0 or oy <= 0:
                            continue
                        moved = True
                        if ox * unit[1] < oy * unit[0]:
                            s = 1.0 if xs[j] > xs[i] or (xs[j] == xs[i] and j > i) else -1.0
                            xs[i] -= s * ox / 2 + s * 0.01
                            xs[j] += s * ox / 2 + s * 0.01
                        else:
                            s = 1.0 if ys[j] > ys[i] or (ys[j] == ys[i] and j > i) else -1.0
                            ys[i] -= s * oy / 2 + s * 0.01
                            ys[j] += s * oy / 2 + s * 0.01
        if not moved:
            break
        if round_ % 50 == 49:  # stuck: spread everything a little
            mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
            xs = [mx + (x - mx) * 1.1 for x in xs]
            ys = [my + (y - my) * 1.1 for y in ys]
    return {n: (xs[i], ys[i]) for i, n in enumerate(nodes)}
