"""Where every box and every edge of a graph drawing goes, in scene units (no Qt).

The view gives each node's box size; ``draw(graph, method, sizes)`` returns a
``Drawing``: box centers and, for every edge, a path that touches no box it
does not connect and ends with its arrowhead on the target box's border.

Layered drawings follow Sugiyama's method, as Graphviz ``dot`` does:

1. *Layers.*  Longest path from the leaves, then each node moves to the
   layer that shortens its edges (a leaf sits just before its first use).
2. *Virtual nodes.*  An edge that skips layers gets one slot in each layer
   it crosses, so it passes *between* boxes, never behind one.
3. *Order.*  Start from the depth-first order (no crossing at all for a tree),
   then barycenter sweeps and adjacent swaps ("transpose"); the order with the
   fewest crossings wins.
4. *Coordinates.*  Each layer is placed by isotonic regression: every node as
   close as possible to the mean of its neighbors, boxes kept apart by a gap
   (virtual slots weigh more, so long edges stay straight).
5. *Routes.*  An edge leaves its source's border, runs through each layer at
   its slot's height and crosses each gap between layers as a cubic curve (its
   control points stay inside the gap, where there is no box).  Each box
   spreads its edges' ports along its border in the order of the other ends,
   so the two edges of ``x*x`` are two lines with two arrowheads.

Force layouts (spring, Kamada–Kawai) are scaled to the box sizes, their
overlaps are pushed apart, and an edge that would cross a box is bent around it.
"""

from __future__ import annotations

import math
import random
import re
from bisect import bisect_right, insort
from dataclasses import dataclass, field
from functools import cached_property
from itertools import pairwise

import networkx as nx

from autograd_core.drawing.graph import topological_nodes

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
        import numpy as np

        rects = [self.box(n) for n in self.centers]
        step = 40.0
        for cmds in [*self.paths.values(), *self.trunks.values()]:
            here = None
            for c in cmds:
                if c[0] == "T":
                    here = None  # the trunk's own commands are in the list too
                    continue
                end = (c[-2], c[-1])
                if c[0] == "M" or here is None:
                    here = end
                    continue
                if c[0] == "C":
                    xs, ys = (here[0], c[1], c[3], c[5]), (here[1], c[2], c[4], c[6])
                    rects.append((min(xs), min(ys), max(xs), max(ys)))
                else:
                    pieces = max(1, math.ceil(math.dist(here, end) / step))
                    for i in range(pieces):
                        a = (here[0] + (end[0] - here[0]) * i / pieces, here[1] + (end[1] - here[1]) * i / pieces)
                        b = (
                            here[0] + (end[0] - here[0]) * (i + 1) / pieces,
                            here[1] + (end[1] - here[1]) * (i + 1) / pieces,
                        )
                        rects.append((min(a[0], b[0]), min(a[1], b[1]), max(a[0], b[0]), max(a[1], b[1])))
                here = end
        return np.array(rects, dtype=float).reshape(-1, 4)

    def extent(self) -> tuple[float, float, float, float]:
        """(left, top, right, bottom) of everything drawn: boxes and edges."""
        if not self.centers:
            return (0.0, 0.0, 0.0, 0.0)
        o = self.obstacles
        return (float(o[:, 0].min()), float(o[:, 1].min()), float(o[:, 2].max()), float(o[:, 3].max()))


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
        a = cw - (obstacles[:, 0] - left) * s
        b = vh - ch - (obstacles[:, 3] - top) * s
        order = np.argsort(-a)
        a, b = a[order], b[order]
        suffix = np.minimum.accumulate(b)  # suffix[i] = min b over the i+1 largest a
        xs = np.concatenate(([cx], np.sort(a[(a > cx) & (a <= xmax)])))
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


# ------------------------------------------------------------------ entry


def draw(
    graph: nx.DiGraph,
    method: str = "layered",
    sizes: dict | None = None,
    *,
    direction: str = "LR",
    layering=None,
    gaps: tuple[float, float] = (LAYER_GAP, NODE_GAP),
    aspect: float | None = None,
    folds: int = 1,
    view: tuple | None = None,
    positions: dict | None = None,
) -> Drawing:
    """A drawing of ``graph`` with boxes of ``sizes`` ({node: (w, h)}, default 100×50).

    ``direction`` ("LR" or "TB") orients a layered drawing; ``layering`` (from
    ``layered_order``) lets both orientations share the ordering work; ``gaps``
    are the space between layers and between two boxes of a layer; ``folds``
    cuts a deep layered drawing into that many blocks of layers side by side
    (``fold_blocks``); ``aspect`` (width/height of the view) stretches a force
    layout towards the view's shape, and ``view`` (width, height, legend corner
    width and height, margin, largest scale: see ``fit_in_view``) compacts it
    to show largest there.  ``positions`` (``graph.layout``'s for ``method``) spares a force layout
    computed already, for other box sizes.
    """
    sizes = {n: (sizes or {}).get(n, (100.0, 50.0)) for n in graph.nodes}
    if graph.number_of_nodes() == 0:
        return Drawing({}, {}, {}, {}, direction)
    if method == "layered":
        order = layering if layering is not None else layered_order(graph)
        blocks = fold_blocks(order, sizes, direction, gaps, folds) if folds > 1 else None
        return _layered_drawing(graph, order, sizes, direction, gaps, blocks)
    from autograd_core.drawing.graph import layout

    pos = positions if positions is not None else layout(graph, method)
    if view is not None and aspect is None:
        aspect = max(view[0] - 2 * view[4], 1.0) / max(view[1] - 2 * view[4], 1.0)
    return _force_drawing(graph, pos, sizes, aspect, view)


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
    layer: dict = {}
    for n in reversed(order):
        layer[n] = min((layer[s] for s in graph.successors(n)), default=1) - 1
    for _ in range(4):
        moved = False
        for n in order:
            ins, outs = graph.in_degree(n), graph.out_degree(n)
            if ins > outs and ins:
                best = 1 + max(layer[p] for p in graph.predecessors(n))
                if best < layer[n]:
                    layer[n], moved = best, True
        for n in reversed(order):
            ins, outs = graph.in_degree(n), graph.out_degree(n)
            if outs > ins and outs:
                best = min(layer[s] for s in graph.successors(n)) - 1
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


def _limit_width(layer_of: dict, rank: dict, width: int) -> dict:
    """Split every layer of more than ``width`` nodes into consecutive layers of at most ``width`` (in DFS order).

    Nodes of one layer have no edge between them, so any split keeps every edge
    pointing forward."""
    by_layer: dict = {}
    for n, k in layer_of.items():
        by_layer.setdefault(k, []).append(n)
    out: dict = {}
    shift = 0
    for k in sorted(by_layer):
        nodes = sorted(by_layer[k], key=rank.__getitem__)
        parts = max(1, math.ceil(len(nodes) / width))
        size = math.ceil(len(nodes) / parts)
        for i, n in enumerate(nodes):
            out[n] = k + shift + i // size
        shift += parts - 1
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


def layered_order(graph: nx.DiGraph, *, sweeps: int = 24, max_width: int | None = None) -> LayeredOrder:
    """Layers, virtual nodes and an order with few crossings (see the module's docstring).

    ``max_width`` splits a layer with more boxes than that into several
    consecutive layers (fifty terms of one sum become five columns of ten),
    so that a drawing can follow the view's shape instead of one long strip.
    """
    rank, edge_rank = _dfs_rank(graph)
    best, segments = _order_layering(graph, assign_layers(graph), rank, edge_rank, sweeps, max_width)
    if best.crossings and segments <= THOROUGH_SEGMENTS:
        # A small graph also tries the shortest layering (dot's); the fewest crossings win, ties keep the first.
        tight = tight_layers(graph)
        if tight is not None and tight != best.layer_of:
            order, _ = _order_layering(graph, tight, rank, edge_rank, sweeps, max_width)
            if order.crossings < best.crossings:
                best = order
    return best


def _order_layering(graph, layer_of, rank, edge_rank, sweeps, max_width) -> tuple[LayeredOrder, int]:
    """The order of one layering (see ``layered_order``) and its number of segments."""
    if max_width:
        layer_of = _limit_width(layer_of, rank, max_width)
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
    for chain in order.chains.values():
        for a, b in pairwise(chain):
            if (a, b) in linked or block_of[layer_at[a]] != block_of[layer_at[b]]:
                continue  # a segment between two blocks does not pull their coordinates together
            linked.add((a, b))
            down.setdefault(a, []).append(b)
            up.setdefault(b, []).append(a)
    coord: dict = {}
    for items in layers:
        c = 0.0
        for i, it in enumerate(items):
            if i:
                c += separation(items[i - 1], it)
            coord[it] = c
        mid = c / 2
        for it in items:
            coord[it] -= mid
    for sweep in range(8 if len(coord) <= TRANSPOSE_SEGMENTS else 2):
        downward = sweep % 2 == 0
        rng = range(1, len(layers)) if downward else range(len(layers) - 2, -1, -1)
        for k in rng:
            _place_layer(layers[k], up if downward else down, coord, separation, is_virtual)
    for k in range(len(layers)):
        _place_layer(layers[k], None, coord, separation, is_virtual, both=(up, down))
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
        for i, (a, b) in enumerate(pairwise(chain)):
            k = layer_at[b]
            src = out_port[e] if i == 0 else coord[a]
            dst = in_port[e] if i == len(chain) - 2 else coord[b]
            sideways[k] = max(sideways[k], abs(src - dst))
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
    for e, chain in order.chains.items():
        u, v = chain[0], chain[-1]
        ku, kv = order.layer_of[u], order.layer_of[v]
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
                mid = (here_flow + enter) / 2
                cmds.append(("C", *point(mid, here), *point(mid, target), *point(enter, target)))
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


def _place_layer(items, neighbors, coord, separation, is_virtual, both=None) -> None:
    """Isotonic regression (pool adjacent violators) under minimum separations."""
    if not items:
        return
    desired, weights = [], []
    for it in items:
        if both is not None:
            around = both[0].get(it, []) + both[1].get(it, [])
        else:
            around = neighbors.get(it, [])
        if around:
            desired.append(sum(coord[m] for m in around) / len(around))
            weights.append(4.0 if is_virtual(it) else 1.0 * len(around))
        else:
            desired.append(coord[it])
            weights.append(0.05)
    offsets = [0.0]
    for i in range(1, len(items)):
        offsets.append(offsets[-1] + separation(items[i - 1], items[i]))
    # minimize sum w (q_i + off_i - d_i)^2 with q non-decreasing
    blocks: list[list[float]] = []  # [value, weight, count]
    for d, w, off in zip(desired, weights, offsets):
        blocks.append([d - off, w, 1])
        while len(blocks) > 1 and blocks[-2][0] > blocks[-1][0]:
            v2, w2, c2 = blocks.pop()
            v1, w1, c1 = blocks[-1]
            blocks[-1] = [(v1 * w1 + v2 * w2) / (w1 + w2), w1 + w2, c1 + c2]
    i = 0
    for value, _w, count in blocks:
        for _ in range(count):
            coord[items[i]] = value + offsets[i]
            i += 1


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


# ------------------------------------------------------------------ measuring


def flatten(cmds: list, steps: int = 12) -> list[Point]:
    """A path's commands as a polyline (curves sampled), for geometry checks and crossing counts."""
    points: list[Point] = []
    for c in cmds:
        if c[0] in ("M", "L"):
            points.append((c[1], c[2]))
        else:
            p0 = points[-1]
            p1, p2, p3 = (c[1], c[2]), (c[3], c[4]), (c[5], c[6])
            for i in range(1, steps + 1):
                t = i / steps
                s = 1 - t
                points.append(
                    (
                        s**3 * p0[0] + 3 * s * s * t * p1[0] + 3 * s * t * t * p2[0] + t**3 * p3[0],
                        s**3 * p0[1] + 3 * s * s * t * p1[1] + 3 * s * t * t * p2[1] + t**3 * p3[1],
                    )
                )
    return points


def count_path_crossings(paths: dict) -> int:
    """Points where two drawn edges cross (edges sharing an end node are not compared), via numpy.

    Each segment is half-open (its end point belongs to the next one), so two
    polylines crossing exactly at a vertex of one of them (rounded coordinates,
    as ``dot`` writes them) count once, neither zero times nor twice.
    """
    import numpy as np

    keys = list(paths)
    segs = []
    owner = []
    for i, k in enumerate(keys):
        pts = paths[k]
        for a, b in pairwise(pts):
            if a != b:
                segs.append((a[0], a[1], b[0], b[1]))
                owner.append(i)
    if not segs:
        return 0
    s = np.array(segs)
    own = np.array(owner)
    ends = [(k[0], k[1]) for k in keys]
    share = np.array([[len({a[0], a[1]} & {b[0], b[1]}) > 0 for b in ends] for a in ends])
    px, py, qx, qy = s[:, 0], s[:, 1], s[:, 2], s[:, 3]
    rx, ry = qx - px, qy - py
    total = 0
    chunk = 512
    for start in range(0, len(s), chunk):
        sl = slice(start, start + chunk)
        denom = rx[sl, None] * ry[None, :] - ry[sl, None] * rx[None, :]
        wx = px[None, :] - px[sl, None]
        wy = py[None, :] - py[sl, None]
        with np.errstate(divide="ignore", invalid="ignore"):
            t = (wx * ry[None, :] - wy * rx[None, :]) / denom
            u = (wx * ry[sl, None] - wy * rx[sl, None]) / denom
        hit = (np.abs(denom) > 1e-12) & (t > -1e-9) & (t < 1 - 1e-9) & (u > -1e-9) & (u < 1 - 1e-9)
        oi, oj = own[sl, None], own[None, :]
        hit &= oi < oj
        hit &= ~share[oi, oj]
        total += int(hit.sum())
    return total


def edge_box_hits(drawing: Drawing, steps: int = 16, tolerance: float = 0.5) -> list:
    """(edge, node) for every drawn edge that enters a box it does not connect; [] is a clean drawing."""
    hits = []
    boxes = {n: drawing.box(n) for n in drawing.centers}
    shrunk = {n: (b[0] + tolerance, b[1] + tolerance, b[2] - tolerance, b[3] - tolerance) for n, b in boxes.items()}
    index = _BoxIndex(shrunk)
    for e in drawing.paths:
        pts = flatten(drawing.path(e), steps)
        for a, b in pairwise(pts):
            hit = index.first_hit(a, b, {e[0], e[1]})
            if hit is not None:
                hits.append((e, hit[0]))
                break
    return hits


def box_overlaps(drawing: Drawing) -> list:
    """Pairs of boxes that overlap."""
    nodes = list(drawing.centers)
    out = []
    boxes = [drawing.box(n) for n in nodes]
    order = sorted(range(len(nodes)), key=lambda i: boxes[i][0])
    for ii, i in enumerate(order):
        bi = boxes[i]
        for j in order[ii + 1 :]:
            bj = boxes[j]
            if bj[0] >= bi[2]:
                break
            if bj[1] < bi[3] and bi[1] < bj[3]:
                out.append((nodes[i], nodes[j]))
    return out
