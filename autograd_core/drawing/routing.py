"""Straight edges bent around the boxes they would cross."""

from __future__ import annotations

import math
from itertools import pairwise

import networkx as nx

from autograd_core.drawing.base import Point


def route_straight(graph: nx.DiGraph, centers: dict, sizes: dict, margin: float = 6.0):
    """Straight edges between box borders, bent around any box in the way; parallel edges side by side."""
    boxes = {n: _inflate(_box(centers[n], sizes[n]), margin) for n in centers}
    index = _BoxIndex(boxes)
    edges = list(graph.edges(keys=True)) if graph.is_multigraph() else [(u, v, 0) for u, v in graph.edges()]
    counts: dict = {}
    for u, v, _k in edges:
        counts[(u, v)] = counts.get((u, v), 0) + 1
    seen: dict = {}
    paths, arrows = {}, {}
    for e in edges:
        u, v, _k = e
        n = counts[(u, v)]
        i = seen.get((u, v), 0)
        seen[(u, v)] = i + 1
        a, b = centers[u], centers[v]
        offset = (i - (n - 1) / 2) * 10.0
        dx, dy = b[0] - a[0], b[1] - a[1]
        length = math.hypot(dx, dy) or 1.0
        nx_, ny_ = -dy / length * offset, dx / length * offset
        a2, b2 = (a[0] + nx_, a[1] + ny_), (b[0] + nx_, b[1] + ny_)
        points = [a2, *_detour(a2, b2, index, {u, v}, 0), b2]
        if any(index.first_hit(p, q, {u, v}) for p, q in pairwise(points)):
            points = [a2, *_visibility_route(a2, b2, index, {u, v}), b2]  # dense spot: shortest way round
        # clip at the two borders
        start = _exit_point(points[0], points[1], _box(centers[u], sizes[u]))
        end = _exit_point(points[-1], points[-2], _box(centers[v], sizes[v]))
        points = [start, *points[1:-1], end]
        cmds = [("M", *points[0])] + [("L", *p) for p in points[1:]]
        last = points[-2]
        d = (end[0] - last[0], end[1] - last[1])
        dl = math.hypot(*d) or 1.0
        paths[e] = cmds
        arrows[e] = (end[0], end[1], d[0] / dl, d[1] / dl)
    return paths, arrows


def _box(c: Point, s) -> tuple:
    return (c[0] - s[0] / 2, c[1] - s[1] / 2, c[0] + s[0] / 2, c[1] + s[1] / 2)


def _inflate(b, m) -> tuple:
    return (b[0] - m, b[1] - m, b[2] + m, b[3] + m)


class _BoxIndex:
    """Boxes in a uniform grid, to find those a segment may cross without testing all of them."""

    def __init__(self, boxes: dict):
        self.boxes = boxes
        sizes = [max(b[2] - b[0], b[3] - b[1]) for b in boxes.values()] or [1.0]
        self.cell = max(sizes) * 2
        self.grid: dict = {}
        for n, b in boxes.items():
            for gx in range(int(b[0] // self.cell), int(b[2] // self.cell) + 1):
                for gy in range(int(b[1] // self.cell), int(b[3] // self.cell) + 1):
                    self.grid.setdefault((gx, gy), []).append(n)

    def first_hit(self, p: Point, q: Point, exclude: set):
        """The box the segment p→q enters first (and its entry parameter), ignoring ``exclude``."""
        c = self.cell
        x0, x1 = sorted((p[0], q[0]))
        y0, y1 = sorted((p[1], q[1]))
        candidates = set()
        for gx in range(int(x0 // c), int(x1 // c) + 1):
            for gy in range(int(y0 // c), int(y1 // c) + 1):
                candidates.update(self.grid.get((gx, gy), ()))
        best = None
        for n in candidates:
            if n in exclude:
                continue
            t = segment_box_entry(p, q, self.boxes[n])
            if t is not None and (best is None or t < best[1]):
                best = (n, t)
        return best


def segment_box_entry(p: Point, q: Point, box: tuple, eps: float = 1e-9):
    """Parameter t in [0, 1] where p→q enters the open box (left, top, right, bottom), or None (Liang–Barsky)."""
    t0, t1 = 0.0, 1.0
    dx, dy = q[0] - p[0], q[1] - p[1]
    for pk, qk in ((-dx, p[0] - box[0]), (dx, box[2] - p[0]), (-dy, p[1] - box[1]), (dy, box[3] - p[1])):
        if abs(pk) < eps:
            if qk <= eps:
                return None
            continue
        r = qk / pk
        if pk < 0:
            t0 = max(t0, r)
        else:
            t1 = min(t1, r)
        if t0 >= t1 - eps:
            return None
    return t0


def _detour(p: Point, q: Point, index: _BoxIndex, exclude: set, depth: int) -> list:
    """Bend points that take p→q around every box in its way (around the side nearer the line)."""
    hit = index.first_hit(p, q, exclude)
    if hit is None or depth > 8:
        return []
    b = _inflate(index.boxes[hit[0]], 2.0)
    dx, dy = q[0] - p[0], q[1] - p[1]
    length = math.hypot(dx, dy) or 1.0
    corners = [(b[0], b[1]), (b[2], b[1]), (b[2], b[3]), (b[0], b[3])]
    side = [((c[0] - p[0]) * dy - (c[1] - p[1]) * dx) / length for c in corners]
    left = [c for c, s in zip(corners, side) if s < 0]
    right = [c for c, s in zip(corners, side) if s >= 0]
    options = []
    for group in (left, right):
        if not group:
            continue
        along = sorted(group, key=lambda c: (c[0] - p[0]) * dx + (c[1] - p[1]) * dy)
        cost = math.dist(p, along[0]) + sum(math.dist(a, b2) for a, b2 in pairwise(along)) + math.dist(along[-1], q)
        options.append((cost, along))
    options.sort(key=lambda o: o[0])
    along = options[0][1]
    points = [p, *along, q]
    out = []
    for a, c in pairwise(points):
        out.extend(_detour(a, c, index, exclude, depth + 1))
        if c is not q:
            out.append(c)
    return out


def _visibility_route(p: Point, q: Point, index: _BoxIndex, exclude: set) -> list:
    """Bend points of the shortest path from p to q through box corners that sees no box on the way (A*)."""
    import heapq

    corners = []
    for n, b in index.boxes.items():
        if n in exclude:
            continue
        c = _inflate(b, 2.0)
        corners += [(c[0], c[1]), (c[2], c[1]), (c[2], c[3]), (c[0], c[3])]
    corners = [c for c in corners if index.first_hit(c, c, set()) is None]
    goal = len(corners)
    points = [*corners, q, p]
    start = goal + 1
    best = {start: 0.0}
    came: dict = {}
    heap = [(math.dist(p, q), start)]
    done: set = set()
    while heap:
        _f, i = heapq.heappop(heap)
        if i == goal:
            path = []
            while i in came:
                i = came[i]
                if i != start:
                    path.append(points[i])
            return path[::-1]
        if i in done:
            continue
        done.add(i)
        here = points[i]
        for j in range(goal + 1):
            if j in done:
                continue
            cost = best[i] + math.dist(here, points[j])
            if cost >= best.get(j, math.inf) or index.first_hit(here, points[j], exclude) is not None:
                continue
            best[j], came[j] = cost, i
            heapq.heappush(heap, (cost + math.dist(points[j], q), j))
    return []  # no way round (cannot happen once boxes are apart): the straight line


def _exit_point(center: Point, toward: Point, box: tuple) -> Point:
    """Where the segment center→toward leaves the box (center is inside it)."""
    dx, dy = toward[0] - center[0], toward[1] - center[1]
    if dx == 0 and dy == 0:
        return center
    t = math.inf  # `center` may sit off the box's center (parallel edges)
    for d, lo, hi, c in ((dx, box[0], box[2], center[0]), (dy, box[1], box[3], center[1])):
        if d > 0:
            t = min(t, (hi - c) / d)
        elif d < 0:
            t = min(t, (lo - c) / d)
    t = min(t, 1.0)
    return (center[0] + dx * t, center[1] + dy * t)
