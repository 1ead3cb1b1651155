"""How large a graph shows in a view, and which layered drawing shows it best: the view's layout policy, free of Qt.

Fit shows a graph as large as the view allows (up to ``MAX_FIT_SCALE``), its box text never below
``READABLE_POINTS`` for a graph of up to ``READABLE_FIT_MAX_BOXES`` boxes (a bigger one is cropped around its
output), with the legend's bottom-left corner kept clear (``fit_in_view``).  A view is described by a tuple
(width, height, corner width, corner height, margin, largest scale[, readable scale]) in pixels, so this
arithmetic is tested without a window.
"""

from __future__ import annotations

import math

import networkx as nx
import numpy as np

from autograd_core.drawing import (
    LAYER_GAP,
    NODE_GAP,
    Drawing,
    draw,
    fit_in_view,
    layer_width_for,
    layered_order,
)
from autograd_core.drawing.crossings import layer_items, layering_basis
from autograd_core.drawing.graph import layout as force_positions
from autograd_core.language.naming import unit_layer

MAX_FIT_SCALE = 1.5  # a three-node graph should not fill a projector (text up to 14.9 pt, 22.3 pt in presentation)
READABLE_POINTS = 9.0  # Fit never shows box text smaller than this (× 1.5 in presentation mode: 13.5 pt) ...
# ... a graph too big for that is shown around its output (or the current step) with the overview map
READABLE_FIT_MAX_BOXES = 60  # ... if it has at most this many boxes; a bigger one is fitted whole, as an overview
# Presentation mode's Fit shows box text at least this much larger than normal mode's Fit would in the same view
# (the window's larger text elsewhere leaves the view up to 5 % smaller than in normal mode)
PRESENTATION_TEXT_MARGIN = 1.1
NORMAL_FIT_MARGIN, PRESENTATION_FIT_MARGIN = 12.0, 8.0  # pixels around a fitted graph
PRESENTATION_GAPS = (30.0, 8.0)  # between layers, between boxes: narrower than LAYER_GAP, NODE_GAP for the projector
TB_LAYER_GAP = 0.6  # top-to-bottom layer gap, as a fraction of the left-to-right one
DIRECTION_BOTH_NODES = 300  # up to this size both orientations are drawn and the larger-looking one is kept
SPLIT_LAYERS_MAX_NODES = 1000  # up to this size a very wide layer is split to fit the view's shape
MAX_FOLDS = 4  # a deep layered drawing of up to FOLD_NODES nodes is tried in up to this many blocks
FOLD_NODES = 120  # (each try is a drawing: 0.1 s → 0.55 s for 260 nodes; bigger graphs open as overviews)
FOLD_COST = 0.04  # ... and folded only where each fold shows it at least this much larger
ITEM_PAD = 4.0  # boxes, paths and arrowheads paint this far outside their geometry (pens, antialiasing)


def compute_drawing(
    graph: nx.MultiDiGraph,
    method: str,
    sizes: dict,
    aspect: float = 1.6,
    gaps: tuple = (LAYER_GAP, NODE_GAP),
    view: tuple | None = None,
    positions: dict | None = None,
) -> Drawing:
    """Boxes and routed edges from autograd_core.drawing, shaped for the view.

    ``view`` is (width, height, corner width, corner height, margin, largest scale[, readable scale]) in
    pixels (the legend's corner is kept clear; see ``fit_in_view``); without it, a view of width/height
    ``aspect``.  A layered graph takes the orientation (left to right, or top to bottom) and the folding
    (blocks of layers side by side) that show it largest; a small one too big to show whole at the
    readable scale also tries narrower layers (four inputs in two rows), as Fit would crop it."""
    if view is None:
        view = (1000.0 * aspect, 1000.0, 0.0, 0.0, 0.0, math.inf)
    readable = view[6] if len(view) > 6 else 0.0
    aspect = max(view[0] - 2 * view[4], 1.0) / max(view[1] - 2 * view[4], 1.0)
    if method != "layered" or graph.number_of_nodes() < 2:
        return draw(graph, method, sizes, aspect=aspect, view=view, positions=positions)
    # Top to bottom, an edge's curve needs less room between layers than left to right (boxes are wide, not tall).
    by_direction = {"LR": gaps, "TB": (gaps[0] * TB_LAYER_GAP, gaps[1])}
    basis = layering_basis(graph)  # shared by every order tried below
    if graph.number_of_nodes() > DIRECTION_BOTH_NODES:
        layers = layer_items(graph, basis)  # (their sizes alone choose; ordering them is left to the one drawn)
        direction = guess_direction(layers, sizes, aspect, gaps)
        g = by_direction[direction]
        width = layer_width_for(sizes, g, aspect, direction)
        widest = max(len(items) for items in layers)
        if graph.number_of_nodes() <= SPLIT_LAYERS_MAX_NODES and widest > 2 * width:
            # an overview of hundreds of groups side by side (one term each of a long sum): a strip
            # 20,000 units long, unreadable at Fit; split into columns that take the view's shape
            order = layered_order(graph, max_width=width, basis=basis)
        else:
            order = layered_order(graph, basis=basis)
        return draw(graph, method, sizes, direction=direction, layering=order, gaps=g)
    plain = layered_order(graph, basis=basis)
    widest = max(sum(1 for it in items if it in graph) for items in plain.layers)
    units = widest_unit_layer(graph)
    if units > layer_width_for(sizes, by_direction["TB"], aspect, "TB"):
        # a network layer too wide for a row of this view is drawn as a column, as in the network diagram
        # (it is never split: see layered_order), not as a strip across the view
        del by_direction["TB"]
    tried = []  # (score: Fit's scale, a little less for each fold; drawing)
    for direction, g in by_direction.items():
        orders = [plain]
        width = layer_width_for(sizes, g, aspect, direction)
        if widest > width:  # also try splitting the widest layers
            orders.append(layered_order(graph, max_width=width, basis=basis))
        for order in orders:
            most = MAX_FOLDS if graph.number_of_nodes() <= FOLD_NODES else 1
            for folds in range(1, min(most, len(order.layers) // 2) + 1):
                drawing = draw(graph, method, sizes, direction=direction, layering=order, gaps=g, folds=folds)
                tried.append((view_scale(drawing, view) * (1.0 - FOLD_COST * (folds - 1)), drawing))
    if graph.number_of_nodes() > READABLE_FIT_MAX_BOXES or max(score for score, _ in tried) >= readable:
        return max(tried, key=lambda t: t[0])[1]
    narrowest = max(2, widest // 2)
    for width in range(widest - 1, narrowest - 1, -1):
        order = layered_order(graph, max_width=width, basis=basis)
        for direction, g in by_direction.items():
            drawing = draw(graph, method, sizes, direction=direction, layering=order, gaps=g)
            tried.append((view_scale(drawing, view), drawing))
        if max(score for score, _ in tried) >= readable:
            return max(tried, key=lambda t: t[0])[1]
    # Fit will show part of it at the readable scale, around its output: the drawing that shows most boxes there
    return max(tried, key=lambda t: (boxes_around_output(t[1], graph, view, readable), t[0]))[1]


def widest_unit_layer(graph) -> int:
    """How many neurons the widest network layer of the graph has (boxes or nodes named L1.n1 …; 0 for none)."""
    count: dict = {}
    for group in {g for _n, g in graph.nodes(data="group")}:
        if (k := unit_layer(group)) is not None:
            count[k] = count.get(k, 0) + 1
    return max(count.values(), default=0)


def output_node(graph):
    """The graph's output a cropped Fit shows: its last sink (a program's main result), or None."""
    sinks = [n for n in graph if graph.out_degree(n) == 0]
    return sinks[-1] if sinks else None


def window_start(center: float, low: float, high: float, size: float) -> float:
    """Where a window of ``size`` centered on ``center`` starts, kept inside [low, high] (centered on the span
    when it is the smaller)."""
    return (low + high - size) / 2 if high - low <= size else min(max(center - size / 2, low), high - size)


def boxes_around_output(drawing: Drawing, graph, view: tuple, scale: float) -> int:
    """How many boxes a view at ``scale`` shows whole when centered on the graph's output (as Fit does when
    the whole graph does not fit at a readable size; see GraphView.focus_box)."""
    width, height, _cw, _ch, margin = view[:5]
    output = output_node(graph)
    if output is None:
        return 0
    left, top, right, bottom = drawing.extent()
    w, h = (width - 2 * margin) / scale, (height - 2 * margin) / scale
    fl, ft, fr, fb = drawing.box(output)
    x, y = window_start((fl + fr) / 2, left, right, w), window_start((ft + fb) / 2, top, bottom, h)
    boxes = np.array([drawing.box(n) for n in graph])
    inside = (boxes[:, 0] >= x) & (boxes[:, 2] <= x + w) & (boxes[:, 1] >= y) & (boxes[:, 3] <= y + h)
    return int(inside.sum())


def padded_obstacles(drawing: Drawing) -> np.ndarray:
    """The drawing's box and path rectangles as the items paint them."""
    return drawing.obstacles + np.array((-ITEM_PAD, -ITEM_PAD, ITEM_PAD, ITEM_PAD))


def view_scale(drawing: Drawing, view: tuple) -> float:
    """The scale at which Fit would show ``drawing`` in ``view`` (see ``compute_drawing``)."""
    width, height, corner_w, corner_h, margin, largest = view[:6]
    left, top, right, bottom = drawing.extent()
    extent = (left - ITEM_PAD, top - ITEM_PAD, right + ITEM_PAD, bottom + ITEM_PAD)
    obstacles = padded_obstacles(drawing)
    return fit_in_view(extent, obstacles, (width, height), (corner_w, corner_h), margin, largest)[0]


def fit_scale(bounds: tuple, aspect: float) -> float:
    """How large a drawing shows in a view of width/height ``aspect`` (height 1)."""
    width, height = max(bounds[2] - bounds[0], 1.0), max(bounds[3] - bounds[1], 1.0)
    return min(aspect / width, 1.0 / height)


def guess_direction(layers, sizes: dict, aspect: float, gaps: tuple = (LAYER_GAP, NODE_GAP)) -> str:
    """LR or TB from the layers' count and the widest layer, without drawing both (big graphs).

    ``layers``: a ``LayeredOrder`` or its layers (lists of items; only their sizes count)."""
    layers = getattr(layers, "layers", layers)
    w = sum(s[0] for s in sizes.values()) / max(len(sizes), 1)
    h = sum(s[1] for s in sizes.values()) / max(len(sizes), 1)
    depth = len(layers)
    breadth = max((len(items) for items in layers), default=1)
    lr = (0.0, 0.0, depth * (w + gaps[0]), breadth * (h + gaps[1]))
    tb = (0.0, 0.0, breadth * (w + gaps[1]), depth * (h + gaps[0]))
    return "LR" if fit_scale(lr, aspect) >= fit_scale(tb, aspect) else "TB"


def presentation_floor(graph, method: str, reference: tuple, positions: dict | None = None) -> float:
    """The smallest zoom at which presentation mode's Fit shows box text PRESENTATION_TEXT_MARGIN × as large
    as normal mode's Fit would: normal mode's drawing of the graph, fitted in the same view.

    ``reference`` is (normal sizes, normal gaps, normal view shape, text scale of presentation mode)."""
    sizes, gaps, view, text_scale = reference
    normal = compute_drawing(graph, method, sizes, gaps=gaps, view=view, positions=positions)
    normal_zoom = max(view[6], min(view[5], view_scale(normal, view)))  # what normal mode's Fit does
    return PRESENTATION_TEXT_MARGIN * normal_zoom / text_scale


def layout_for_view(graph, method: str, sizes: dict, view: tuple, gaps, reference: tuple | None = None):
    """(drawing, readable zoom): in presentation mode (``reference``) the readable zoom is raised to keep
    text larger than normal mode's, and the layout is chosen for it (see compute_drawing)."""
    positions = None
    if reference is not None:
        if method != "layered" and graph.number_of_nodes() >= 2:  # one force layout for both box sizes
            positions = force_positions(graph, method)
        view = (*view[:6], max(view[6], presentation_floor(graph, method, reference, positions)))
    return compute_drawing(graph, method, sizes, gaps=gaps, view=view, positions=positions), view[6]
