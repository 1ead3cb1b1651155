"""Shared by the layout modules: gaps and work limits, the Drawing result, and fitting it in a view."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

Point = tuple[float, float]
EdgeKey = tuple  # (u, v, key)

LAYER_GAP = 56.0  # between the columns (rows) of boxes of a layered drawing
NODE_GAP = 16.0  # between two boxes of one layer
MIN_LAYER_GAP = 14.0  # between two layers whose edges run (nearly) straight
BEND_ROOM = 0.25  # room between layers per unit an edge moves sideways (up to LAYER_GAP)
EDGE_GAP = 7.0  # between an edge's slot and its neighbor in a layer
LANE_GAP = 5.0  # between two edges wrapping from one block of a folded drawing to the next
LANE_MARGIN = 10.0  # between those edges and the boxes
FORCE_GAP = 22.0  # between boxes of a force layout after overlap removal
COMPACT_NODES = 300  # a force layout of up to this many nodes is compacted ...
COMPACT_THOROUGH_NODES = 60  # ... and of up to this many, at several stretches, spacings and axis orders
PACK_GAIN = 1.1  # a force layout's boxes are packed in rows where that shows them this much larger
TRUNK_EDGES = 8  # a node with this many edges that skip layers sends them along one shared trunk
RESTARTS = 8  # restarts of the crossing minimization from other depth-first orders, for small graphs
RESTART_WORK = 800  # ... fewer above 100 segments (RESTART_WORK / segments): the work stays bounded
# Work limits, in segments between adjacent layers (edges split at their virtual slots):
THOROUGH_SEGMENTS = 250  # up to this: four strategies, sifting and restarts (every example, typical expressions)
TRANSPOSE_SEGMENTS = 1500  # up to this: one strategy with adjacent swaps; above: QUICK_SWEEPS barycenter sweeps
QUICK_SWEEPS = 4


@dataclass(frozen=True)
class Drawing:
    """Box centers and edge routes in scene units.

    ``paths[edge]`` is a list of commands, ``("M", x, y)``, ``("L", x, y)`` and
    ``("C", x1, y1, x2, y2, x, y)`` (a cubic curve), from the source's border to
    the tip of the arrow on the target's border; ``arrows[edge]`` is that tip
    and the unit direction the arrow points in.  A node with many edges that
    skip layers sends them along one shared *trunk* (as dot's ``concentrate``),
    so a value used everywhere is one line, not dozens side by side: its
    stretch along the trunk is the command ``("T", source, first, end)``,
    ``trunks[source][first:end]``; ``path(edge)`` writes it out.
    """

    centers: dict
    sizes: dict
    paths: dict = field(default_factory=dict)
    arrows: dict = field(default_factory=dict)
    direction: str = "LR"  # LR (layers left to right), TB (top to bottom) or free
    trunks: dict = field(default_factory=dict)  # source -> commands of the trunk its long edges share

    def path(self, edge) -> list:
        """The edge's commands with its stretch along a trunk (``("T", source, first, end)``) written out."""
        out = []
        for c in self.paths[edge]:
            if c[0] == "T":
                out.extend(self.trunks[c[1]][c[2] : c[3]])
            else:
                out.append(c)
        return out

    def box(self, node) -> tuple[float, float, float, float]:
        """(left, top, right, bottom) of a node's box."""
        (x, y), (w, h) = self.centers[node], self.sizes[node]
        return (x - w / 2, y - h / 2, x + w / 2, y + h / 2)

    def bounds(self) -> tuple[float, float, float, float]:
        boxes = [self.box(n) for n in self.centers]
        if not boxes:
            return (0.0, 0.0, 0.0, 0.0)
        return (
            min(b[0] for b in boxes),
            min(b[1] for b in boxes),
            max(b[2] for b in boxes),
            max(b[3] for b in boxes),
        )

    @cached_property
    def obstacles(self):
        """Rectangles (left, top, right, bottom) that cover every box and every edge, as a numpy array:
        what must stay clear of a reserved corner of the view (an edge's curve lies inside the rectangle of
        its control points; a long straight stretch is cut into short pieces)."""

        rects = [self.box(n) for n in self.centers]
        curves = []  # (x0, y0, then the curve's three points): their rectangles below, all at once
        segments = []  # straight stretches (x0, y0, x1, y1): cut into pieces below, all at once
        add_curve, add_segment = curves.append, segments.append
        for cmds in [*self.paths.values(), *self.trunks.values()]:
            hx = hy = None
            for c in cmds:
                op = c[0]
                if op == "T":
                    hx = None  # the trunk's own commands are in the list too
                    continue
                if op == "M" or hx is None:
                    hx, hy = c[-2], c[-1]
                    continue
                if op == "C":
                    add_curve((hx, hy, *c[1:]))
                else:
                    add_segment((hx, hy, c[-2], c[-1]))
                hx, hy = c[-2], c[-1]
        boxes = np.array(rects, dtype=float).reshape(-1, 4)
        points = np.array(curves, dtype=float).reshape(-1, 8)
        xs, ys = points[:, 0::2], points[:, 1::2]
        curve_rects = np.stack([xs.min(axis=1), ys.min(axis=1), xs.max(axis=1), ys.max(axis=1)], axis=1)
        return np.concatenate([boxes, curve_rects, _pieces(np.array(segments, dtype=float).reshape(-1, 4), 40.0)])

    def extent(self) -> tuple[float, float, float, float]:
        """(left, top, right, bottom) of everything drawn: boxes and edges."""
        if not self.centers:
            return (0.0, 0.0, 0.0, 0.0)
        o = self.obstacles
        return (float(o[:, 0].min()), float(o[:, 1].min()), float(o[:, 2].max()), float(o[:, 3].max()))


def _pieces(segments, step: float):
    """Each straight stretch (x0, y0, x1, y1) cut into ⌈length / step⌉ equal pieces, as the rectangles around
    them (vectorized: a 2,000-node graph has thousands of stretches, and Fit reads them on the GUI thread)."""
    if not len(segments):
        return np.empty((0, 4))
    start, delta = segments[:, :2], segments[:, 2:] - segments[:, :2]
    counts = np.maximum(1, np.ceil(np.hypot(delta[:, 0], delta[:, 1]) / step)).astype(int)
    owner = np.repeat(np.arange(len(segments)), counts)
    index = np.arange(counts.sum()) - np.repeat(np.cumsum(counts) - counts, counts)
    n = counts[owner][:, None].astype(float)
    a = start[owner] + delta[owner] * index[:, None] / n
    b = start[owner] + delta[owner] * (index[:, None] + 1) / n
    return np.concatenate([np.minimum(a, b), np.maximum(a, b)], axis=1)


def clear_of_corner(
    obstacles,
    start: tuple[float, float],
    view: tuple[float, float],
    corner: tuple[float, float],
    x_range: tuple[float, float],
    y_range: tuple[float, float],
    keep: tuple[float, float, float, float] | None = None,
) -> tuple[float, float]:
    """Where a view at a fixed zoom goes, near ``start``, with no obstacle under its bottom-left corner.

    All in drawing units: ``start`` and the result are the view's top-left (x, y), ``view`` its (width,
    height), ``corner`` the reserved rectangle's (width, height) at the view's bottom-left (a legend), and
    ``x_range``/``y_range`` the allowed top-left positions.  The view moves along one axis only (the
    shortest of four moves: down, up, left, right) and keeps the rectangle ``keep`` (left, top, right,
    bottom: the box the view is about) in sight and clear of the corner; if no move does, the shorter
    move that clears at least ``keep`` (down or left), else ``start``, is returned.  Fit uses this when the
    graph is too big to show whole at a readable size.
    """
    import numpy as np

    boxes = np.asarray(obstacles, dtype=float).reshape(-1, 4)
    (x0, y0), height, (corner_w, corner_h) = start, view[1], corner
    eps = 1e-6

    def under_corner(x: float, y: float):
        band = (boxes[:, 0] < x + corner_w) & (boxes[:, 2] > x) & (boxes[:, 1] < y + height)
        return boxes[band & (boxes[:, 3] > y + height - corner_h)]

    def allowed(x: float, y: float) -> bool:
        return x_range[0] - eps <= x <= x_range[1] + eps and y_range[0] - eps <= y <= y_range[1] + eps

    def keeps(x: float, y: float) -> bool:
        if keep is None:
            return True
        left, top, right, bottom = keep
        inside = left >= x and right <= x + view[0] and top >= y and bottom <= y + height
        return inside and (left >= x + corner_w or bottom <= y + height - corner_h)

    best = None
    for move in ("down", "up", "left", "right"):
        x, y = x0, y0
        for _ in range(len(boxes) + 1):  # each move passes at least one more box
            hit = under_corner(x, y)
            if not len(hit):
                if not keeps(x, y):
                    break
                cost = abs(x - x0) + abs(y - y0)
                if best is None or cost < best[0]:
                    best = (cost, x, y)
                break
            if move == "down":  # the corner's top below them
                y = float(hit[:, 3].max()) - height + corner_h + eps
            elif move == "up":  # the corner's bottom above them
                y = float(hit[:, 1].min()) - height - eps
            elif move == "left":  # the corner's right edge left of them
                x = float(hit[:, 0].min()) - corner_w - eps
            else:
                x = float(hit[:, 2].max()) + eps
            if not allowed(x, y):
                break
    if best is None and keep is not None and not keeps(x0, y0):
        # no place clears every box: at least the kept one, moved above or right of the corner
        left, _top, _right, bottom = keep
        for x, y in ((x0, bottom - height + corner_h + eps), (left - corner_w - eps, y0)):
            if allowed(x, y) and keeps(x, y) and (best is None or abs(x - x0) + abs(y - y0) < best[0]):
                best = (abs(x - x0) + abs(y - y0), x, y)
    return (best[1], best[2]) if best is not None else (x0, y0)


def fit_in_view(
    extent: tuple,
    obstacles,
    view: tuple[float, float],
    corner: tuple[float, float] = (0.0, 0.0),
    margin: float = 0.0,
    max_scale: float = math.inf,
) -> tuple[float, float, float]:
    """The largest scale at which a drawing fits a view, clear of a reserved corner; and where it goes.

    ``extent`` (left, top, right, bottom) is what must be shown, ``obstacles``
    (an n×4 array of rectangles in the same units) what must not lie under
    the reserved rectangle of size ``corner`` (width, height) at the view's
    bottom-left (a legend), ``view`` is (width, height) in pixels and
    ``margin`` is kept free along the view's edges.  The drawing may use the
    whole view as long as nothing of it is under the corner: it is moved up
    or right of the center only as far as needed.  Returns (scale, x, y) with
    (x, y) the view position of the extent's top-left corner.
    """
    import numpy as np

    left, top, right, bottom = extent
    w, h = max(right - left, 1.0), max(bottom - top, 1.0)
    vw, vh = view
    cw, ch = corner
    room_w, room_h = vw - 2 * margin, vh - 2 * margin
    if room_w <= 0 or room_h <= 0:
        return 0.05, margin, margin
    full = min(room_w / w, room_h / h, max_scale)
    obstacles = np.asarray(obstacles, dtype=float).reshape(-1, 4)
    # Sorted once by left edge: at every scale ``a`` below is then already in decreasing order (the search
    # tries up to 17 scales; sorting each time cost most of a 2,000-node Fit on the GUI thread).
    by_left = np.argsort(obstacles[:, 0], kind="stable")
    lefts, bottoms = obstacles[by_left, 0] - left, obstacles[by_left, 3] - top
    if len(bottoms) > 1:
        # Only an obstacle lower than every one left of it can decide where the drawing goes (one to its right
        # and higher is under the corner only when that one is too): the same places, found among ~100 of a
        # 2,000-node overview's 15,000 rectangles instead of all of them at each of up to 17 scales.
        lower = np.empty(len(bottoms), dtype=bool)
        lower[0] = True
        lower[1:] = bottoms[1:] > np.maximum.accumulate(bottoms)[:-1]
        lefts, bottoms = lefts[lower], bottoms[lower]

    def place(s: float):
        """(cost, x, y) of the best position at scale ``s`` clear of the corner, or None."""
        xmin, xmax = margin, vw - margin - w * s
        ymin, ymax = margin, vh - margin - h * s
        if xmax < xmin - 1e-6 or ymax < ymin - 1e-6:
            return None
        xmax, ymax = max(xmax, xmin), max(ymax, ymin)
        cx, cy = (xmin + xmax) / 2, (ymin + ymax) / 2
        if cw <= 0 or ch <= 0 or not len(obstacles):
            return 0.0, cx, cy
        # An obstacle lies under the corner iff x < a and y > b (x, y: the extent's top-left on screen).
        a = cw - lefts * s  # decreasing
        b = vh - ch - bottoms * s
        suffix = np.minimum.accumulate(b)  # suffix[i] = min b over the i+1 largest a
        xs = np.concatenate(([cx], a[(a > cx) & (a <= xmax)][::-1]))
        count = np.searchsorted(-a, -xs, side="left")  # how many obstacles have a > x
        limit = np.where(count > 0, np.minimum(ymax, suffix[np.maximum(count - 1, 0)]), ymax)
        ok = limit >= ymin - 1e-9
        if not ok.any():
            return None
        ys = np.minimum(cy, limit)
        cost = np.where(ok, (xs - cx) + (cy - ys), np.inf)
        i = int(np.argmin(cost))
        return float(cost[i]), float(xs[i]), float(ys[i])

    found = place(full)
    if found is not None:
        return full, found[1], found[2]
    lo, hi = 0.0, full
    best = None
    # Above the corner, the whole width; beside it, the whole height: either always works.
    above = min((vh - ch - 2 * margin) / h, room_w / w, max_scale)
    beside = min((vw - cw - 2 * margin) / w, room_h / h, max_scale)
    for s in (above, beside):
        if s > lo and (got := place(s)) is not None:
            lo, best = s, (s, got[1], got[2])
    for _ in range(14):
        mid = (lo + hi) / 2
        got = place(mid)
        if got is not None:
            lo, best = mid, (mid, got[1], got[2])
        else:
            hi = mid
    if best is None:
        s = max(lo, 0.05)
        return s, margin, margin
    return best
