"""A zoomable drawing of any computation graph from ``autograd_core.drawing.graph.to_networkx``.

Reusable on purpose: the expression playground shows an expression here, and a
network's sample graph can be shown with its neuron groups collapsed.  The view
knows nothing of how the graph was made; it reads node attributes (``label, op,
data, grad, kind, group``) and edge attributes (``local, formula, index``).

Speed: each node is one custom item painted directly (no child text items);
text is skipped when zoomed out, and further out one ``BoxLayer`` paints every
box (a ``drawRects`` per color) while the boxes keep answering the mouse; a
value change repaints only the boxes whose numbers can be read and changed, or
whose color changed; layouts of large graphs are computed on a worker thread;
items are added in batches so the window never freezes, and an edge's painter
paths are built only when it is highlighted (bundles paint plain edges).
"""

from __future__ import annotations

import math
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import replace

import networkx as nx
import numpy as np
from PySide6.QtCore import QObject, QPointF, QRect, QRectF, QSize, QSizeF, Qt, QTimer, Signal
from PySide6.QtGui import (
    QBrush,
    QColor,
    QCursor,
    QFont,
    QFontMetricsF,
    QImage,
    QPainter,
    QPainterPath,
    QPen,
    QPolygonF,
    QTransform,
)
from PySide6.QtWidgets import (
    QFrame,
    QGraphicsItem,
    QGraphicsObject,
    QGraphicsScene,
    QGraphicsView,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QStyleOptionGraphicsItem,
    QToolButton,
    QWidget,
)

from autograd_core.drawing import (
    LAYER_GAP,
    NODE_GAP,
    Drawing,
    clear_of_corner,
    draw,
    fit_in_view,
    layer_width_for,
    layered_order,
)
from autograd_core.drawing.graph import GraphSnapshot, snapshot_of_graph
from autograd_core.drawing.graph import layout as force_positions
from autograd_core.drawing.grouping import is_generated_name
from autograd_core.numbers import format_full, format_number

from ..shell.theme import diverging_color, gradient_strength, graph_colors, palette, readable_text

LAYOUTS = {"layered": "Layered", "spring": "Spring", "kamada_kawai": "Kamada–Kawai"}
ASYNC_LAYOUT_NODES = 40  # above this, drawing is batched and antialiasing is off
SYNC_LAYOUT_NODES = 15  # a layered layout up to this size is computed at once; every other one on a worker thread

LARGE_GRAPH_NODES = 1500  # above this the view says so and offers to collapse groups
HUGE_GRAPH_NODES = 6000  # above this nothing is drawn until the user asks
KAMADA_KAWAI_MAX_NODES = 600  # O(n²) memory and time: refuse beyond this
BATCH = 100  # items per building task; one event-loop turn runs tasks for at most BATCH_MS
BATCH_MS = 15.0
MAX_FIT_SCALE = 1.5  # a three-node graph should not fill a projector (text up to 14.9 pt, 22.3 pt in presentation)
READABLE_POINTS = 9.0  # Fit never shows box text smaller than this (× 1.5 in presentation mode: 13.5 pt) ...
# ... a graph too big for that is shown around its output (or the current step) with the overview map
READABLE_FIT_MAX_BOXES = 60  # ... if it has at most this many boxes; a bigger one is fitted whole, as an overview
# Presentation mode's Fit shows box text at least this much larger than normal mode's Fit would in the same view
# (the window's larger text elsewhere leaves the view up to 5 % smaller than in normal mode)
PRESENTATION_TEXT_MARGIN = 1.1
NORMAL_FIT_MARGIN, PRESENTATION_FIT_MARGIN = 12.0, 8.0  # pixels around a fitted graph
PRESENTATION_GAPS = (30.0, 8.0)  # between layers, between boxes: narrower than LAYER_GAP, NODE_GAP for the projector
EXPORT_MAX_PIXELS = 8e6  # PNG export size cap (painting 12 MP took ~0.8 s in the GUI thread)
OVERVIEW_WIDTH = 200  # pixels
BOX_PADDING = 14.0  # a box is this much wider than its longest text (drawn 4 px in from each side)
NUMBERS_MIN_POINTS = 4.5  # on-screen size below which a box's numbers are not drawn (they could not be read)
NAMES_MIN_POINTS = 5.0  # ... and below which its name, drawn larger, is not drawn either
TB_LAYER_GAP = 0.6  # top-to-bottom layer gap, as a fraction of the left-to-right one
DIRECTION_BOTH_NODES = 300  # up to this size both orientations are drawn and the larger-looking one is kept
SPLIT_LAYERS_MAX_NODES = 1000  # up to this size a very wide layer is split to fit the view's shape
MAX_FOLDS = 4  # a deep layered drawing of up to FOLD_NODES nodes is tried in up to this many blocks
FOLD_NODES = 120  # (each try is a drawing: 0.1 s → 0.55 s for 260 nodes; bigger graphs open as overviews)
FOLD_COST = 0.04  # ... and folded only where each fold shows it at least this much larger


NO_CONTENTS = QGraphicsItem.GraphicsItemFlag.ItemHasNoContents  # (an enum lookup costs a microsecond or two)


def node_name(attrs: dict, node) -> str:
    label = attrs.get("label") or ""
    return label if label else f"{attrs.get('op') or 'node'} #{node}"


# ------------------------------------------------------------------ collapse


def collapse_groups(graph: nx.MultiDiGraph, collapsed: set[str]) -> nx.MultiDiGraph:
    """The graph with every node of each collapsed group merged into one box.

    A group box shows the value and gradient of the group's output (its last
    node, in topological order, with an edge leaving the group); ``output_op``
    and ``output_label`` name that node (``relu``, ``score``) for the box's title.
    """
    if not collapsed:
        return graph
    nodes_attrs = graph.nodes
    mapping = {}
    members: dict[str, list] = {}
    for node, attrs in graph.nodes(data=True):
        group = attrs.get("group")
        if group in collapsed:
            mapping[node] = f"group:{group}"
            members.setdefault(group, []).append(node)
        else:
            mapping[node] = node
    out = nx.MultiDiGraph()
    # networkx's own dicts, filled in place (as add_node / add_edge would; several times faster)
    out_nodes, succ, pred = out._node, out._succ, out._pred
    for node, attrs in graph.nodes(data=True):
        if mapping[node] == node:
            out_nodes[node] = dict(attrs)
            succ[node], pred[node] = {}, {}
    for group, nodes in members.items():
        order = sorted(nodes)  # ids are topological
        leaving = [n for n in order if any(mapping[s] != mapping[n] for s in graph._succ[n])]
        output = (leaving or order)[-1]
        o = nodes_attrs[output]
        box = f"group:{group}"
        out_nodes[box] = dict(
            label=group,
            op=f"{len(nodes)} nodes",
            output_op=o.get("op") or "",
            output_label=o.get("label") or "",
            data=o.get("data"),
            grad=o.get("grad"),
            kind="group",
            depth=max(nodes_attrs[n].get("depth", 0) for n in nodes),
            group=group,
            tensor=o.get("tensor"),
            members=order,
            output=output,
        )
        succ[box], pred[box] = {}, {}
    for u, targets in graph._succ.items():
        a = mapping[u]
        for v, keys in targets.items():
            b = mapping[v]
            if a == b:
                continue
            grouped = isinstance(a, str) or isinstance(b, str)
            if grouped and b in succ[a]:
                continue  # one edge between a group box and a neighbor
            out_keys = succ[a].get(b)
            if out_keys is None:
                out_keys = succ[a][b] = pred[b][a] = {}
            for key, attrs in keys.items():
                if grouped:
                    out_keys[0] = {"local": None, "formula": "", "index": attrs.get("index", key)}
                    break
                out_keys[key] = dict(attrs)
    return out


def groups_of(graph: nx.MultiDiGraph) -> list[str]:
    return sorted({g for _, g in graph.nodes(data="group") if g})


# ------------------------------------------------------------------ layout


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
    if graph.number_of_nodes() > DIRECTION_BOTH_NODES:
        order = layered_order(graph)
        direction = guess_direction(order, sizes, aspect, gaps)
        g = by_direction[direction]
        width = layer_width_for(sizes, g, aspect, direction)
        widest = max(len(items) for items in order.layers)
        if graph.number_of_nodes() <= SPLIT_LAYERS_MAX_NODES and widest > 2 * width:
            # an overview of hundreds of groups side by side (one term each of a long sum): a strip
            # 20,000 units long, unreadable at Fit; split into columns that take the view's shape
            order = layered_order(graph, max_width=width)
        return draw(graph, method, sizes, direction=direction, layering=order, gaps=g)
    plain = layered_order(graph)
    widest = max(sum(1 for it in items if it in graph) for items in plain.layers)
    tried = []  # (score: Fit's scale, a little less for each fold; drawing)
    for direction, g in by_direction.items():
        orders = [plain]
        width = layer_width_for(sizes, g, aspect, direction)
        if widest > width:  # also try splitting the widest layers
            orders.append(layered_order(graph, max_width=width))
        for order in orders:
            most = MAX_FOLDS if graph.number_of_nodes() <= FOLD_NODES else 1
            for folds in range(1, min(most, len(order.layers) // 2) + 1):
                drawing = draw(graph, method, sizes, direction=direction, layering=order, gaps=g, folds=folds)
                tried.append((view_scale(drawing, view) * (1.0 - FOLD_COST * (folds - 1)), drawing))
    if graph.number_of_nodes() > READABLE_FIT_MAX_BOXES or max(score for score, _ in tried) >= readable:
        return max(tried, key=lambda t: t[0])[1]
    narrowest = max(2, widest // 2)
    for width in range(widest - 1, narrowest - 1, -1):
        order = layered_order(graph, max_width=width)
        for direction, g in by_direction.items():
            drawing = draw(graph, method, sizes, direction=direction, layering=order, gaps=g)
            tried.append((view_scale(drawing, view), drawing))
        if max(score for score, _ in tried) >= readable:
            return max(tried, key=lambda t: t[0])[1]
    # Fit will show part of it at the readable scale, around its output: the drawing that shows most boxes there
    return max(tried, key=lambda t: (boxes_around_output(t[1], graph, view, readable), t[0]))[1]


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


ITEM_PAD = 4.0  # boxes, paths and arrowheads paint this far outside their geometry (pens, antialiasing)


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


def guess_direction(order, sizes: dict, aspect: float, gaps: tuple = (LAYER_GAP, NODE_GAP)) -> str:
    """LR or TB from the layers' count and the widest layer, without drawing both (big graphs)."""
    w = sum(s[0] for s in sizes.values()) / max(len(sizes), 1)
    h = sum(s[1] for s in sizes.values()) / max(len(sizes), 1)
    depth = len(order.layers)
    breadth = max((len(items) for items in order.layers), default=1)
    lr = (0.0, 0.0, depth * (w + gaps[0]), breadth * (h + gaps[1]))
    tb = (0.0, 0.0, breadth * (w + gaps[1]), depth * (h + gaps[0]))
    return "LR" if fit_scale(lr, aspect) >= fit_scale(tb, aspect) else "TB"


class _LayoutSignals(QObject):
    """Carries a finished layout from the worker thread to the GUI thread (queued)."""

    done = Signal(int, object, str)  # generation, (Drawing, readable zoom) (None on failure), error text


_executor: ThreadPoolExecutor | None = None


def _layout_executor() -> ThreadPoolExecutor:
    # One worker: a newer graph's layout waits for the older one, whose result is then dropped.
    global _executor
    if _executor is None:
        _executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="graph-layout")
    return _executor


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


def _layout_job(generation: int, graph, method: str, sizes: dict, view: tuple, gaps, signals, reference=None) -> None:
    try:
        result = layout_for_view(graph, method, sizes, view, gaps, reference)
    except Exception as err:  # reported to the user by the view
        signals.done.emit(generation, None, f"{type(err).__name__}: {err}")
        return
    signals.done.emit(generation, result, "")


# ------------------------------------------------------------------ items


class NodeItem(QGraphicsItem):
    """One box: name/op, value, gradient; fill by gradient, border by kind."""

    def __init__(self, view: GraphView, node, attrs: dict, width: float, height: float):
        super().__init__()
        self.view, self.node = view, node
        self.kind = attrs.get("kind", "op")
        self.source = attrs.get("output") if self.kind == "group" else node  # whose numbers it shows
        self.title = self._title(attrs)
        self.width, self.height = width, height
        self._box = QRectF(-width / 2, -height / 2, width, height)
        self._bounds = self._box.adjusted(-4.0, -4.0, 4.0, 4.0)
        self.value: float | None = None
        self.grad: float | None = None
        self.non_finite = False  # the value or the gradient is inf or nan
        self.shade: int | None = None  # the gradient's color strength in 1/128 (None: no gradient)
        self.highlighted = False
        self.current = False
        self._texts: tuple = (None,)  # (key, value text, gradient text): formatted once per new number
        self.setAcceptHoverEvents(True)
        self.setZValue(1)  # boxes above edges
        if view._plain:  # far out the box layer paints every box at once (GraphView._set_plain)
            self.setFlag(NO_CONTENTS, True)

    @staticmethod
    def _title(attrs: dict) -> str:
        label, op, kind = attrs.get("label") or "", attrs.get("op") or "", attrs.get("kind", "op")
        if kind == "group":
            function = attrs.get("output_op") or ""
            function = function if function.isalpha() else attrs.get("output_label") or ""  # relu, or "score"
            return f"▣ {label} · {function}" if function else f"▣ {label} ({op})"
        if label and op:
            return f"{label} = {op}"
        group = attrs.get("group")
        if op and group and kind == "op" and not is_generated_name(group):
            return f"{group} · {op}"  # which neuron (or named value) an opened group's node belongs to
        if label:
            return label
        if kind == "constant" and not op:
            return "const"
        return op or "?"

    def set_numbers(self, value: float | None, grad: float | None, scale: float) -> bool:
        """Take new numbers; True when the box's look (color, inf/nan border) changed."""
        look = self.shade, self.non_finite
        self.value, self.grad = value, grad
        self.non_finite = (value is not None and not math.isfinite(value)) or (
            grad is not None and not math.isfinite(grad)
        )
        self.shade = None if grad is None else round(gradient_strength(grad, scale) * 128)
        return (self.shade, self.non_finite) != look

    def boundingRect(self) -> QRectF:
        return self._bounds

    def box(self) -> QRectF:
        return QRectF(self._box)

    def fill(self) -> QColor:
        """The fill for the gradient, at 1/128 steps of the color scale (one QColor per step, shared)."""
        return self.view.fill_for(self.shade)

    def look(self) -> tuple:
        """What a box shows when its numbers are too small to be drawn: its color (to 1/128) and its border."""
        return self.shade, self.non_finite

    def texts(self) -> tuple[str, str]:
        """The value and gradient lines, formatted once per new number (not once per repaint)."""
        view = self.view
        grad_name = view.snapshot.grad_name if view.snapshot is not None else "grad"
        key = (self.value, self.grad, grad_name, self.kind)
        cached = self._texts
        if cached[0] != key or cached[0] is None:  # (nan != nan: formatted again, which is right too)
            value_name = "out" if self.kind == "group" else "data"  # a group shows its output
            cached = self._texts = (
                key,
                f"{value_name} {format_number(self.value)}",
                f"{grad_name} {format_number(self.grad)}",
            )
        return cached[1], cached[2]

    def pen(self) -> QPen:
        """The border pen, built once per look (kind, state, theme, line width) and shared by every box."""
        view = self.view
        key = (self.kind, self.non_finite, self.highlighted, self.current, view.theme, view.line_width)
        pen = view._box_pens.get(key)
        if pen is None:
            colors, lw = view.colors, view.line_width
            pen = QPen(colors.op_border, lw)
            if self.kind == "input":
                pen = QPen(colors.leaf_border, lw * 2)
            elif self.kind == "parameter":
                pen = QPen(colors.parameter_border, lw * 2)
            elif self.kind == "constant":
                pen = QPen(colors.constant_border, lw, Qt.PenStyle.DashLine)
            elif self.kind == "group":
                pen = QPen(colors.parameter_border, lw * 1.5, Qt.PenStyle.DashDotLine)
            if self.non_finite:
                pen = QPen(colors.non_finite, lw * 3)
            if self.highlighted:
                pen = QPen(colors.highlight, lw * (4 if self.current else 3))
            view._box_pens[key] = pen
        return pen

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget=None) -> None:
        view = self.view
        lod = QStyleOptionGraphicsItem.levelOfDetailFromTransform(painter.worldTransform())
        fill = self.fill()
        if lod * view._name_points < NAMES_MIN_POINTS:  # far out (big graphs): a plain box, the fast path
            pen = self.pen()
            plain = view._plain_pens.get(id(pen))
            if plain is None:  # the same color and width, solid (a dashed outline of a 2-pixel box is noise)
                plain = view._plain_pens[id(pen)] = QPen(pen.color(), pen.widthF())
            painter.setPen(plain)
            painter.setBrush(fill)
            painter.drawRect(-self.width / 2, -self.height / 2, self.width, self.height)
            return
        colors = view.colors
        rect = self.box()
        pen = self.pen()
        # Semantic zoom: numbers only where they can be read, names a little further out, then plain boxes.
        body_points = lod * view.body_font.pointSizeF()
        if body_points < NUMBERS_MIN_POINTS:
            painter.setPen(QPen(pen.color(), pen.widthF()))
            painter.setBrush(fill)
            painter.drawRect(rect)
            if lod * view.name_font.pointSizeF() >= NAMES_MIN_POINTS:
                painter.setPen(readable_text(fill, view.theme))
                _draw_fitted(painter, rect.adjusted(3, 0, -3, 0), self.title, view.name_font, view._name_metrics)
            return
        painter.setPen(pen)
        painter.setBrush(fill)
        radius = 12.0 if self.kind in ("input", "parameter") else 4.0
        painter.drawRoundedRect(rect, radius, radius)
        if self.non_finite:
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(QBrush(colors.non_finite, Qt.BrushStyle.BDiagPattern))
            painter.drawRoundedRect(rect, radius, radius)
        text = readable_text(fill, view.theme)
        painter.setPen(text)
        line_h = rect.height() / 3
        top = QRectF(rect.left() + 4, rect.top() + 2, rect.width() - 8, line_h)
        painter.setFont(view.title_font)
        painter.drawText(top, Qt.AlignmentFlag.AlignCenter, self.title)
        mid = top.translated(0, line_h - 2)
        value_text, grad_text = self.texts()
        _draw_fitted(painter, mid, value_text, view.body_font, view._body_metrics)
        bottom = mid.translated(0, line_h - 2)
        _draw_fitted(painter, bottom, grad_text, view.body_font, view._body_metrics)

    def hoverEnterEvent(self, event) -> None:
        self.setToolTip(self.view.tooltip_for(self.node))
        super().hoverEnterEvent(event)

    def mouseDoubleClickEvent(self, event) -> None:
        # Collapsing or opening a group rebuilds every item, this one included: do it after Qt has finished
        # delivering this click (deleting the item that holds the mouse grab inside its own event crashes Qt).
        event.accept()
        view, node = self.view, self.node
        QTimer.singleShot(0, view, lambda: view.toggle_group_of(node))


def _draw_fitted(painter: QPainter, rect: QRectF, text: str, font: QFont, metrics: QFontMetricsF) -> None:
    """Centered text, drawn smaller if it is wider than the box (boxes are sized for usual numbers)."""
    width = metrics.horizontalAdvance(text)
    if width > rect.width() > 0:
        font = QFont(font)
        font.setPointSizeF(max(font.pointSizeF() * rect.width() / width, 1.0))
    painter.setFont(font)
    painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, text)


def painter_path(
    commands: list, trunks: dict | None = None, whole: bool = True, path: QPainterPath | None = None
) -> QPainterPath:
    """A QPainterPath from drawing commands (M, L, C); a trunk stretch (T) is drawn from ``trunks``,
    or skipped when not ``whole`` (the trunk's own item draws it).  With ``path``, added to it."""
    path = QPainterPath() if path is None else path
    for c in commands:
        op = c[0]
        if op == "M":
            path.moveTo(c[1], c[2])
        elif op == "L":
            path.lineTo(c[1], c[2])
        elif op == "C":
            path.cubicTo(c[1], c[2], c[3], c[4], c[5], c[6])
        else:  # ("T", source, first, end)
            stretch = trunks[c[1]][c[2] : c[3]]
            if not whole:
                path.moveTo(stretch[-1][-2], stretch[-1][-1])
                continue
            for t in stretch:
                if t[0] == "L":
                    path.lineTo(t[1], t[2])
                elif t[0] == "C":
                    path.cubicTo(t[1], t[2], t[3], t[4], t[5], t[6])
    return path


class EdgeItem(QGraphicsItem):
    """parent → child along its routed path (``autograd_core.drawing``), with an arrowhead on the child's border.

    An edge that rides its source's trunk paints only its own ends (the trunk
    is one ``TrunkItem``); highlighted, it paints its whole route.
    """

    def __init__(self, view: GraphView, u, v, key):
        super().__init__()
        self.view, self.u, self.v, self.key = view, u, v, key
        self.highlighted = False
        self.commands: list = []
        self._own_path: QPainterPath | None = None  # built when first needed: plain edges are painted by bundles
        self._path: QPainterPath | None = None
        self.arrow_points: tuple = ()
        self._bounds = QRectF()
        # Plain edges are painted together by their EdgeBundle (one Python call per ~100 edges, not one per
        # edge); this item paints only while highlighted, on top of the bundle.
        self.setFlag(NO_CONTENTS, True)
        self.setZValue(0.5)

    def set_highlighted(self, on: bool) -> None:
        if on != self.highlighted:
            self.highlighted = on
            self.setFlag(NO_CONTENTS, not on)
            self.update()

    def set_route(self, commands: list, arrow: tuple) -> None:
        """Take the route from the drawing's commands (M, L, C, T) and the arrowhead at its tip.

        The painter paths are built when first needed (a highlight, a hit test): a plain edge is painted
        by its bundle, so building 2,000 of them up front only delayed the first picture.
        """
        self.prepareGeometryChange()
        self.commands = commands
        self._path = self._own_path = None
        ex, ey, dx, dy = arrow
        size = 9.0 * self.view.line_width
        nx_, ny_ = -dy * size * 0.45, dx * size * 0.45
        bx, by = ex - dx * size, ey - dy * size
        self.arrow_points = ((ex, ey), (bx + nx_, by + ny_), (bx - nx_, by - ny_))
        xs = [p[0] for p in self.arrow_points]
        ys = [p[1] for p in self.arrow_points]
        trunks = []
        for c in commands:
            if c[0] == "T":  # highlighted, the edge paints its trunk stretch too
                trunks.append(c[1])
                stretch = self.view.drawing.trunks[c[1]][c[2] : c[3]]
                xs.append(stretch[-1][-2])
                ys.append(stretch[-1][-1])
            else:
                xs.extend(c[1::2])
                ys.extend(c[2::2])
        bounds = QRectF(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))
        for source in trunks:
            bounds = bounds.united(self.view.trunk_rect(source))
        self._bounds = bounds.adjusted(-6, -6, 6, 6)

    @property
    def arrow(self) -> QPolygonF:
        return QPolygonF([QPointF(x, y) for x, y in self.arrow_points])

    @property
    def own_path(self) -> QPainterPath:
        """The route without its trunk stretch (the trunk's own item draws that)."""
        if self._own_path is None:
            self._own_path = painter_path(self.commands, self.view.drawing.trunks, whole=False)
        return self._own_path

    @property
    def path(self) -> QPainterPath:
        """The whole route as drawn, trunk stretch included."""
        if self._path is None:
            has_trunk = any(c[0] == "T" for c in self.commands)
            self._path = painter_path(self.commands, self.view.drawing.trunks) if has_trunk else self.own_path
        return self._path

    def boundingRect(self) -> QRectF:
        return self._bounds

    def shape(self) -> QPainterPath:
        return self.path

    def paint(self, painter: QPainter, option, widget=None) -> None:
        colors = self.view.colors
        color = colors.highlight if self.highlighted else colors.edge
        painter.setPen(self.view.edge_pen(self.highlighted))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawPath(self.path if self.highlighted else self.own_path)
        if QStyleOptionGraphicsItem.levelOfDetailFromTransform(painter.worldTransform()) < 0.2:
            return  # zoomed far out: the arrowhead is a dot
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(color)
        painter.drawPolygon(self.arrow)


class EdgeBundle(QGraphicsItem):
    """The plain look of a batch of neighboring edges: their paths stroked in one Python call, their arrowheads
    in one fill.

    Each edge keeps a path of its own: stroked as one path, a bundle whose edges cross (a layer of 16 neurons
    into the next 16) took Qt's stroker five times as long as stroking them one by one (119 ms against 23 ms for
    the sample graph's 310 edges), and that was most of the first picture of the Sample graph tab."""

    def __init__(self, view: GraphView, edges: list[EdgeItem]):
        super().__init__()
        self.view = view
        self.paths: list[QPainterPath] = []
        self.arrows = QPainterPath()
        trunks = view.drawing.trunks
        arrows = self.arrows
        paths = self.paths
        bounds = QRectF()
        for edge in edges:
            paths.append(painter_path(edge.commands, trunks, whole=False))
            (x0, y0), (x1, y1), (x2, y2) = edge.arrow_points
            arrows.moveTo(x0, y0)
            arrows.lineTo(x1, y1)
            arrows.lineTo(x2, y2)
            arrows.closeSubpath()
            bounds = bounds.united(edge.boundingRect())
        self._bounds = bounds

    def boundingRect(self) -> QRectF:
        return self._bounds

    def paint(self, painter: QPainter, option, widget=None) -> None:
        painter.setPen(self.view.edge_pen(False))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        draw = painter.drawPath
        for path in self.paths:
            draw(path)
        if QStyleOptionGraphicsItem.levelOfDetailFromTransform(painter.worldTransform()) < 0.2:
            return  # zoomed far out: the arrowhead is a dot
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(self.view.colors.edge)
        painter.drawPath(self.arrows)


class TrunkItem(QGraphicsItem):
    """The shared stretch of a node's long edges (drawn once, under the edges that ride it)."""

    def __init__(self, view: GraphView, commands: list):
        super().__init__()
        self.view = view
        self.path = painter_path(commands)
        self._bounds = self.path.controlPointRect().adjusted(-4, -4, 4, 4)

    def boundingRect(self) -> QRectF:
        return self._bounds

    def paint(self, painter: QPainter, option, widget=None) -> None:
        painter.setPen(self.view.edge_pen(False))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawPath(self.path)


class BoxLayer(QGraphicsItem):
    """Every box of the graph as a plain rectangle, painted in one call per color.

    Zoomed out so far that no name can be read, a box is a colored rectangle
    with its border: the view then gives its ``NodeItem``s no contents (they
    still answer hover, clicks and tooltips) and this one item paints them all,
    so a repaint of 2,000 boxes costs a few ``drawRects`` instead of 2,000
    Python calls.  The rectangles are grouped by look again only after a box's
    color or border changed (``mark_dirty``).
    """

    def __init__(self, view: GraphView, items: list[NodeItem]):
        super().__init__()
        self.view = view
        self.items = items
        self._groups: list | None = None
        self._rects: list[QRectF] | None = None
        bounds = QRectF()
        for item in items:
            bounds = bounds.united(item._bounds.translated(item.pos()))
        self._bounds = bounds
        self.setZValue(1)

    def mark_dirty(self) -> None:
        self._groups = None
        self.update()

    def boundingRect(self) -> QRectF:
        return self._bounds

    def _regroup(self) -> list:
        if self._rects is None:  # boxes do not move once built
            self._rects = [item._box.translated(item.pos()) for item in self.items]
        view = self.view
        by_look: dict = {}  # look -> (a box with that look, the rectangles of every box with it)
        for item, rect in zip(self.items, self._rects):
            key = (item.kind, item.non_finite, item.highlighted, item.current, item.shade)
            group = by_look.get(key)
            if group is None:
                group = by_look[key] = (item, [])
            group[1].append(rect)
        groups = []
        for item, rects in by_look.values():
            pen = item.pen()
            plain = view._plain_pens.get(id(pen))
            if plain is None:  # the same color and width, solid (a dashed outline of a 2-pixel box is noise)
                plain = view._plain_pens[id(pen)] = QPen(pen.color(), pen.widthF())
            groups.append((plain, item.fill(), rects))
        return groups

    def paint(self, painter: QPainter, option, widget=None) -> None:
        if self._groups is None:
            self._groups = self._regroup()
        for pen, fill, rects in self._groups:
            painter.setPen(pen)
            painter.setBrush(fill)
            painter.drawRects(rects)


class _Root(QGraphicsObject):
    """Parent of every item: dimming the whole graph is one setOpacity call."""

    def boundingRect(self) -> QRectF:
        return QRectF()

    def paint(self, painter, option, widget=None) -> None:
        pass


# ------------------------------------------------------------------ legend


class Legend(QWidget):
    """Color bar for the gradient scale and swatches for node kinds.

    A child of the viewport, so it stays put while the scene zooms and pans;
    its size comes from its own text (swatches wrap onto more rows when the
    view is narrow), and Fit keeps the graph out of its corner.
    """

    PAD = 8.0
    MARGIN = 8  # from the viewport's edges

    def __init__(self, view: GraphView):
        super().__init__(view.viewport())
        self.view = view
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        self.setObjectName("graphLegend")

    def kinds(self) -> list[tuple[str, QColor, Qt.PenStyle]]:
        colors = self.view.colors
        return [
            ("input", colors.leaf_border, Qt.PenStyle.SolidLine),
            ("param", colors.parameter_border, Qt.PenStyle.SolidLine),
            ("const", colors.constant_border, Qt.PenStyle.DashLine),
            ("op", colors.op_border, Qt.PenStyle.SolidLine),
            ("inf/nan", colors.non_finite, Qt.PenStyle.SolidLine),
            *((("group", colors.parameter_border, Qt.PenStyle.DashDotLine),) if self.view.collapsed else ()),
        ]

    def _rows(self, width: float) -> list[list[tuple[float, str]]]:
        """Swatch rows (x offset, name) that fit in ``width`` (inside the padding)."""
        fm = QFontMetricsF(self.view.body_font)
        swatch = fm.height() * 0.8
        rows: list[list[tuple[float, str]]] = [[]]
        x = 0.0
        for name, _c, _s in self.kinds():
            w = swatch + 4 + fm.horizontalAdvance(name)
            if rows[-1] and x + w > width:
                rows.append([])
                x = 0.0
            rows[-1].append((x, name))
            x += w + 12
        return rows

    def natural_width(self) -> float:
        fm = QFontMetricsF(self.view.body_font)
        swatch = fm.height() * 0.8
        row = sum(swatch + 4 + fm.horizontalAdvance(name) + 12 for name, _c, _s in self.kinds()) - 12
        scale = fm.horizontalAdvance("−0.0000e+00  0  +0.0000e+00")
        title = fm.horizontalAdvance("gradient (log scale)")
        return max(row, scale, title) + 2 * self.PAD

    def size_for(self, available_width: float) -> QSize:
        """The legend's size when at most ``available_width`` pixels wide."""
        fm = QFontMetricsF(self.view.body_font)
        width = min(self.natural_width(), max(available_width, 80.0))
        rows = self._rows(width - 2 * self.PAD)
        lh = fm.height()
        height = self.PAD + lh + lh * 0.8 + 1 + lh + 3 + len(rows) * (lh + 3) + self.PAD
        return QSize(math.ceil(width), math.ceil(height))

    def sizeHint(self) -> QSize:
        return self.size_for(self.view.viewport().width() - 2 * self.MARGIN)

    def paintEvent(self, event) -> None:
        painter = QPainter(self)
        self.draw(painter, QRectF(self.rect()))

    def draw(self, painter: QPainter, rect: QRectF) -> None:
        view = self.view
        colors = view.colors
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(QPen(colors.muted, 1))
        bg = QColor(colors.background)
        bg.setAlpha(235)
        painter.setBrush(bg)
        painter.drawRoundedRect(rect.adjusted(0.5, 0.5, -0.5, -0.5), 6, 6)
        painter.setFont(view.body_font)
        fm = QFontMetricsF(view.body_font)
        pad, lh = self.PAD, fm.height()
        bar = QRectF(rect.left() + pad, rect.top() + pad + lh, rect.width() - 2 * pad, lh * 0.8)
        steps = 48
        for i in range(steps):
            s = -1.0 + 2.0 * (i + 0.5) / steps
            painter.fillRect(
                QRectF(bar.left() + bar.width() * i / steps, bar.top(), bar.width() / steps + 1, bar.height()),
                diverging_color(s, view.theme),
            )
        painter.setPen(colors.text)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawRect(bar)
        scale = view.grad_scale
        painter.drawText(
            QRectF(bar.left(), rect.top() + pad - 2, bar.width(), lh),
            Qt.AlignmentFlag.AlignLeft,
            "gradient (log scale)",
        )
        label_row = QRectF(bar.left(), bar.bottom() + 1, bar.width(), lh)
        painter.drawText(label_row, Qt.AlignmentFlag.AlignLeft, f"−{format_number(scale)}" if scale else "−")
        painter.drawText(label_row, Qt.AlignmentFlag.AlignHCenter, "0")
        painter.drawText(label_row, Qt.AlignmentFlag.AlignRight, f"+{format_number(scale)}" if scale else "+")
        swatch = lh * 0.8
        styles = {name: (color, style) for name, color, style in self.kinds()}
        y = label_row.bottom() + 3
        for row in self._rows(rect.width() - 2 * pad):
            for x, name in row:
                color, style = styles[name]
                painter.setPen(QPen(color, 2, style))
                painter.setBrush(colors.neutral_fill)
                painter.drawRoundedRect(QRectF(bar.left() + x, y + 2, swatch, swatch), 3, 3)
                painter.setPen(colors.text)
                painter.drawText(QPointF(bar.left() + x + swatch + 4, y + fm.ascent()), name)
            y += lh + 3


class OverviewMap(QWidget):
    """A small map of the whole graph beside the legend, with the part on screen framed.

    Shown while the view is zoomed in past the whole graph; click or drag in it to go there.
    Boxes only (colored as in the view), so it costs a few milliseconds even for thousands.
    """

    def __init__(self, view: GraphView):
        super().__init__(view.viewport())
        self.view = view
        self.setObjectName("graphOverview")
        self.setToolTip("Overview of the whole graph: click or drag to move there")
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        self._image: QImage | None = None
        self.hide()

    def _mapping(self) -> tuple[QRectF, float, QPointF]:
        """(graph rect, scale, offset): map a scene point p to offset + (p - rect.topLeft()) * scale."""
        rect = self.view.graph_rect()
        inner = QRectF(self.rect()).adjusted(4, 4, -4, -4)
        scale = min(inner.width() / max(rect.width(), 1.0), inner.height() / max(rect.height(), 1.0))
        offset = QPointF(
            inner.left() + (inner.width() - rect.width() * scale) / 2,
            inner.top() + (inner.height() - rect.height() * scale) / 2,
        )
        return rect, scale, offset

    def invalidate(self) -> None:
        """The boxes' colors or places changed: draw them again at the next paint."""
        self._image = None
        if self.isVisible():
            self.update()

    def _render_boxes(self) -> QImage:
        """The map's background and boxes (one drawRects per color), kept until a box's look changes."""
        view = self.view
        colors = view.colors
        image = QImage(self.size(), QImage.Format.Format_ARGB32_Premultiplied)
        image.fill(0)  # transparent: the rounded corners show the graph behind
        painter = QPainter(image)
        bg = QColor(colors.background)
        bg.setAlpha(235)
        painter.setPen(QPen(colors.muted, 1))
        painter.setBrush(bg)
        painter.drawRoundedRect(QRectF(self.rect()).adjusted(0.5, 0.5, -0.5, -0.5), 5, 5)
        rect, scale, offset = self._mapping()
        painter.setPen(Qt.PenStyle.NoPen)
        groups: dict = {}
        left, top = rect.left(), rect.top()
        for item in view.nodes.values():
            pos = item.pos()
            key = item.shade if item.grad else None  # no gradient (or 0): muted
            groups.setdefault(key, []).append(
                QRectF(
                    offset.x() + (pos.x() - item.width / 2 - left) * scale,
                    offset.y() + (pos.y() - item.height / 2 - top) * scale,
                    max(item.width * scale, 1.5),
                    max(item.height * scale, 1.5),
                )
            )
        for shade, rects in groups.items():
            painter.setBrush(colors.muted if shade is None else view.fill_for(shade))
            painter.drawRects(rects)
        painter.end()
        return image

    def paintEvent(self, event) -> None:
        view = self.view
        if self._image is None or self._image.size() != self.size():
            self._image = self._render_boxes()
        painter = QPainter(self)
        painter.drawImage(0, 0, self._image)
        rect, scale, offset = self._mapping()
        shown = view.mapToScene(view.viewport().rect()).boundingRect()
        frame = QRectF(offset + (shown.topLeft() - rect.topLeft()) * scale, shown.size() * scale)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.setPen(QPen(view.colors.highlight, 2))
        painter.drawRect(frame.intersected(QRectF(self.rect()).adjusted(1, 1, -1, -1)))

    def _go(self, pos) -> None:
        rect, scale, offset = self._mapping()
        target = rect.topLeft() + (QPointF(pos) - offset) / max(scale, 1e-9)
        self.view.auto_fit = False
        self.view.centerOn(target)

    def mousePressEvent(self, event) -> None:
        self._go(event.position())
        event.accept()

    def mouseMoveEvent(self, event) -> None:
        if event.buttons() & Qt.MouseButton.LeftButton:
            self._go(event.position())
        event.accept()


# ------------------------------------------------------------------ the view


def tool_button(text: str, tip: str, slot) -> QToolButton:
    """A small text button with a tooltip, for the toolbars above a graph."""
    button = QToolButton()
    button.setText(text)
    button.setToolTip(tip)
    button.clicked.connect(slot)
    return button


def view_tool_buttons(view: GraphView, export_slot) -> tuple[QToolButton, QToolButton, QToolButton, QToolButton]:
    """Zoom out, zoom in, fit and export buttons for ``view`` (the same in every graph area)."""
    return (
        tool_button("−", "Zoom out (Ctrl+-)", view.zoom_out),
        tool_button("+", "Zoom in (Ctrl++)", view.zoom_in),
        tool_button(
            "Fit",
            "Fit the graph to the window, its text kept readable (Ctrl+0); View ▸ Whole graph shows all of it (Ctrl+9)",
            lambda: view.fit(whole=False),
        ),
        tool_button("Export…", "Save the graph as PNG or SVG", export_slot),
    )


class BoxFonts:
    """The fonts of the boxes at one text scale, and the sizes a layout needs from them.

    Fitting a graph cancels bigger fonts if boxes and gaps grow alike, and wasted room shrinks the text.  So
    a box is as wide as its title and numbers need when it is laid out, and at least as wide as usual
    numbers need (a longer one met later, a slider away, is drawn a little smaller: the tooltip has it in
    full)."""

    VALUE_SAMPLE = "data −0.0000"

    def __init__(self, scale: float):
        base = 11.0 * scale
        self.title = QFont()
        self.title.setPointSizeF(base)
        self.title.setBold(True)
        self.body = QFont()
        self.body.setPointSizeF(base * 0.9)
        self.title_metrics = QFontMetricsF(self.title)
        self.body_metrics = QFontMetricsF(self.body)
        self.node_height = self.body_metrics.height() * 3 + 6
        self.value_width = self.body_metrics.horizontalAdvance(self.VALUE_SAMPLE)
        self.widths: dict[str, float] = {}  # box width per title (titles repeat: +, *, tanh)


class GraphView(QGraphicsView):
    """Draws a networkx computation graph; zoom with the wheel, pan by dragging."""

    layout_started = Signal()
    drawn = Signal()  # every item of the current graph is in the scene
    message = Signal(str)
    groups_changed = Signal()

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("graphView")
        self.setScene(QGraphicsScene(self))
        self.scene().setItemIndexMethod(QGraphicsScene.ItemIndexMethod.NoIndex)
        self.setRenderHints(QPainter.RenderHint.Antialiasing | QPainter.RenderHint.TextAntialiasing)
        self.setDragMode(QGraphicsView.DragMode.ScrollHandDrag)
        # No scroll bars: drag, the wheel and the overview map move around; a scroll bar coming and going
        # would change the viewport's size, and with it what Fit shows.
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorUnderMouse)
        self.setViewportUpdateMode(QGraphicsView.ViewportUpdateMode.BoundingRectViewportUpdate)
        self.setToolTip(
            "The computation graph. Wheel: zoom; drag: pan; hover a node for full-precision numbers."
            " Double-click a group's box, or press Enter over it, to open or close it."
        )
        self.theme = "light"
        self.colors = graph_colors(self.theme)
        self.font_scale = 1.0
        self.line_width = 1.0
        self.presentation = False
        self._make_fonts()
        self.method = "layered"
        self.base_graph: nx.MultiDiGraph | None = None
        self.graph: nx.MultiDiGraph | None = None  # what is drawn (groups may be collapsed)
        self.collapsed: set[str] = set()
        self._drawn_version = -1  # structure_version of the GraphState last drawn (show_state)
        self.snapshot: GraphSnapshot | None = None  # the numbers drawn: never live Tensors
        self.grad_scale = 0.0
        self.nodes: dict = {}
        self.edges: dict = {}
        self.positions: dict = {}
        self.drawing: Drawing | None = None  # boxes and routed edges of what is drawn
        self._trunk_rects: dict = {}
        self._edge_pens: dict = {}
        self._box_pens: dict = {}
        self._plain_pens: dict = {}
        self._fills: dict = {}  # (theme, shade) -> QColor
        self._plain = False  # zoomed so far out that the box layer paints every box
        self._box_layer: BoxLayer | None = None
        self._items_rect = QRectF()
        self._graph_rect: QRectF | None = None
        self._root = _Root()
        self.scene().addItem(self._root)
        self._generation = 0
        self._pending: list[Callable[[], None]] = []
        self._batch_timer = QTimer(self)
        self._batch_timer.setInterval(0)
        self._batch_timer.timeout.connect(self._run_batch)
        self._signals = _LayoutSignals()
        self._signals.done.connect(self._layout_done)
        self._reorient_signals = _LayoutSignals()
        self._reorient_signals.done.connect(self._reoriented)
        self.busy = False
        self._fit_floor = 0.0  # the zoom Fit keeps text readable at, from the last layout (see layout_for_view)
        self.force_huge = False
        self.highlight_nodes: set = set()
        self.highlight_edges: set = set()
        self.current_node = None
        self._highlight_request: tuple = (set(), set(), None)  # as asked, before mapping onto group boxes
        self.dimmed = False
        self.auto_fit = True  # keep fitting on resize until the user zooms by hand
        self.fit_whole = False  # Fit shows the whole graph even below readable text (View ▸ Whole graph)
        self.fit_is_partial = False  # the last Fit kept the text readable and left part of the graph off screen
        self._reorient_timer = QTimer(self)
        self._reorient_timer.setSingleShot(True)
        self._reorient_timer.setInterval(200)
        self._reorient_timer.timeout.connect(self._reorient)
        self._reorient_pending = False  # a re-layout for the new size is being computed
        # window size → viewport size at normal mode's last Fit in a window that size: presentation mode's
        # reference (the panels around the view take other widths in presentation mode, so its view may be
        # much smaller)
        self._normal_viewports: dict[tuple, tuple] = {}
        self.legend = Legend(self)
        self.overview = OverviewMap(self)
        self._overlay = QLabel(self.viewport())
        self._overlay.setObjectName("graphOverlay")
        self._overlay.setWordWrap(True)
        self._overlay.hide()
        self.banner = self._make_banner()
        self._apply_background()

    # ---- appearance

    def _make_fonts(self) -> None:
        box = self._box_fonts = BoxFonts(self.font_scale)
        self._normal_box_fonts = box if self.font_scale == 1.0 else BoxFonts(1.0)  # presentation Fit's reference
        self.title_font, self.body_font, self.node_height = box.title, box.body, box.node_height
        self._body_metrics = box.body_metrics
        self.name_font = QFont(self.title_font)  # zoomed out: the name alone, twice as large
        self.name_font.setPointSizeF(box.title.pointSizeF() * 2.0)
        self._name_metrics = QFontMetricsF(self.name_font)
        self._name_points = self.name_font.pointSizeF()
        # for the projector the gaps between layers and around the graph stay narrow (see BoxFonts)
        self.fit_margin = PRESENTATION_FIT_MARGIN if self.presentation else NORMAL_FIT_MARGIN
        self.gaps = PRESENTATION_GAPS if self.presentation else (LAYER_GAP, NODE_GAP)  # between layers, boxes

    def edge_pen(self, highlighted: bool) -> QPen:
        """The pen of every edge (built once per look, not once per edge and repaint)."""
        key = (self.theme, self.line_width, highlighted)
        pen = self._edge_pens.get(key)
        if pen is None:
            color = self.colors.highlight if highlighted else self.colors.edge
            pen = QPen(color, self.line_width * (3.0 if highlighted else 1.2))
            pen.setCapStyle(Qt.PenCapStyle.FlatCap)  # no square cap poking past the arrow's tip
            self._edge_pens[key] = pen
        return pen

    def fill_for(self, shade: int | None) -> QColor:
        """A box's fill for a gradient of color strength ``shade``/128 (None: no gradient)."""
        key = (self.theme, shade)
        color = self._fills.get(key)
        if color is None:
            color = self.colors.neutral_fill if shade is None else diverging_color(shade / 128.0, self.theme)
            self._fills[key] = color
        return color

    def set_theme(self, theme: str) -> None:
        self.theme = theme
        self.colors = graph_colors(theme)
        self._apply_background()
        if self._box_layer is not None:
            self._box_layer.mark_dirty()
        self.overview.invalidate()
        self.scene().update()
        self.legend.update()

    def drawBackground(self, painter: QPainter, rect: QRectF) -> None:
        # Every repaint of the view starts here: the moment to choose who paints the boxes at this zoom.
        super().drawBackground(painter, rect)
        plain = self.transform().m11() * self._name_points < NAMES_MIN_POINTS
        if plain != self._plain:
            self._set_plain(plain)

    def _set_plain(self, plain: bool) -> None:
        """Far out (``plain``) the box layer paints every box; closer in each box paints itself, with text."""
        self._plain = plain
        for item in self.nodes.values():
            item.setFlag(NO_CONTENTS, plain)
        if self._box_layer is not None:
            self._box_layer.setVisible(plain)

    @contextmanager
    def _boxes_painting_themselves(self):
        """Around an export: every box paints itself at the export's own scale (its text when it fits)."""
        plain = self._plain
        if plain:
            self._set_plain(False)
        try:
            yield
        finally:
            if plain:
                self._set_plain(True)

    def set_presentation(self, on: bool) -> None:
        """Bigger text and thicker lines for a projector."""
        self.presentation = bool(on)
        self.font_scale = 1.5 if on else 1.0
        self.line_width = 1.6 if on else 1.0
        self._make_fonts()
        self._place_overlays()
        if self.base_graph is not None:
            self._rebuild(relayout=True)

    def _apply_background(self) -> None:
        self.setBackgroundBrush(self.colors.background)
        self._overlay.setStyleSheet(
            f"background: {self.colors.background.name()}; color: {self.colors.text.name()};"
            f"border: 1px solid {palette(self.theme).error}; border-radius: 4px; padding: 6px;"
        )

    def _make_banner(self) -> QFrame:
        banner = QFrame(self)
        banner.setObjectName("largeGraphBanner")
        layout = QHBoxLayout(banner)
        layout.setContentsMargins(8, 4, 8, 4)
        self.banner_label = QLabel()
        self.banner_label.setWordWrap(True)
        self.collapse_button = QPushButton("Collapse groups")
        self.collapse_button.setToolTip("Draw each group (e.g. one neuron) as a single box")
        self.collapse_button.clicked.connect(self.collapse_all)
        self.draw_anyway_button = QPushButton("Draw anyway")
        self.draw_anyway_button.setToolTip("Draw every node even though the graph is very large")
        self.draw_anyway_button.clicked.connect(self._draw_anyway)
        close = QPushButton("×")
        close.setToolTip("Hide this message")
        close.setFixedWidth(28)
        close.clicked.connect(banner.hide)
        layout.addWidget(self.banner_label, 1)
        layout.addWidget(self.collapse_button)
        layout.addWidget(self.draw_anyway_button)
        layout.addWidget(close)
        banner.hide()
        return banner

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._place_overlays()
        if self.auto_fit and not self.busy:
            self.fit()
            self._reorient_timer.start()

    def _place_overview(self) -> None:
        """The overview map sits beside the legend, bottom left, while part of the graph is off screen."""
        vp = self.viewport().rect()
        rect = self.graph_rect()
        shown = self.mapToScene(vp).boundingRect()
        off_screen = bool(self.nodes) and not shown.adjusted(-2, -2, 2, 2).contains(rect)
        if not off_screen or not self._room_for_map():
            self.overview.hide()
            return
        self.overview.setGeometry(self._overview_geometry())
        self.overview.show()
        self.overview.update()

    def _room_for_map(self) -> bool:
        """Whether the viewport is big enough to show the overview map at all."""
        vp = self.viewport().rect()
        return vp.width() >= 300 and vp.height() >= 200

    def _overview_geometry(self) -> QRect:
        """Where the overview map goes: the graph's shape, no taller than the legend (or 100 px), right of
        the legend, or above it when the view is too narrow for both side by side."""
        vp = self.viewport().rect()
        rect = self.graph_rect()
        m = Legend.MARGIN
        aspect = max(rect.width(), 1.0) / max(rect.height(), 1.0)
        legend = self.legend.geometry() if self.legend.isVisibleTo(self) else QRect(0, vp.height(), 0, 0)
        tallest = legend.height() or 100
        beside = vp.width() - (legend.right() + 1 + m) - m
        widest = min(OVERVIEW_WIDTH, vp.width() // 4) if beside < 60 else min(OVERVIEW_WIDTH, beside)
        width = int(min(max(tallest * aspect, 60), widest))  # boxes only: no text to grow with the mode
        height = int(min(max(width / aspect, 40), tallest))
        if beside < 60:
            return QRect(m, legend.top() - m - height, width, height)
        return QRect(legend.right() + 1 + m if legend.width() else m, vp.height() - m - height, width, height)

    def scrollContentsBy(self, dx: int, dy: int) -> None:
        # QWidget.scroll moves the viewport's child widgets too: put the legend and messages back
        super().scrollContentsBy(dx, dy)
        self._place_overlays()

    def _reorient(self) -> None:
        """After a resize, turn (LR ⇄ TB) or fold a small layered graph again if that shows it clearly larger."""
        drawing, graph = self.drawing, self.graph
        if not self.auto_fit or self.busy or drawing is None or graph is None or drawing.direction not in ("LR", "TB"):
            return
        if graph.number_of_nodes() > DIRECTION_BOTH_NODES:
            return
        signals = self._reorient_signals
        self._reorient_pending = True
        view = self.view_shape()
        reference = self._normal_reference(graph, view)
        job = (_layout_job, self._generation, graph, "layered", drawing.sizes, view, self.gaps, signals, reference)
        _layout_executor().submit(*job)  # off the GUI thread: a 300-node layout takes a second

    def _reoriented(self, generation: int, result: tuple | None, error: str) -> None:
        self._reorient_pending = False
        drawing = self.drawing
        if generation != self._generation or result is None or drawing is None or self.busy or not self.auto_fit:
            return
        other, floor = result
        view = self.view_shape()
        # presentation mode's readable zoom depends on the view's size (not in normal mode, nor for Whole graph)
        floor_moved = self.presentation and not self.fit_whole and abs(floor - self._fit_floor) > 0.02 * floor
        if view_scale(other, view) > 1.05 * view_scale(drawing, view) or floor_moved:
            self._rebuild(relayout=True)

    @property
    def settled(self) -> bool:
        """No layout is being computed or due (a resize looks for a better layout 200 ms later)."""
        return not self.busy and not self._reorient_timer.isActive() and not self._reorient_pending

    def _normal_reference(self, graph, view: tuple) -> tuple | None:
        """What normal mode would lay out in this view, for presentation_floor: in presentation mode, for a
        graph Fit keeps readable (else None)."""
        if not self.presentation or self.fit_whole or graph.number_of_nodes() > READABLE_FIT_MAX_BOXES:
            return None
        box = self._normal_box_fonts
        sizes = {node: (self._node_width(attrs, node, box), box.node_height) for node, attrs in graph.nodes(data=True)}
        width, height, corner_w, corner_h = view[:4]
        seen = self._normal_viewports.get(self.window().size().toTuple())
        if seen is not None:  # normal mode's view in a window of this size was that size
            width, height = seen
        # normal mode's legend: its text 1/font_scale as large; its padding is not, so this is a little small,
        # which makes normal mode's zoom a little large: the floor errs on the side of larger text
        corner = (corner_w / self.font_scale, corner_h / self.font_scale)
        readable = READABLE_POINTS / box.body.pointSizeF()
        normal_view = (width, height, *corner, NORMAL_FIT_MARGIN, MAX_FIT_SCALE, readable)
        return sizes, (LAYER_GAP, NODE_GAP), normal_view, self.font_scale

    def _place_overlays(self) -> None:
        hint = self.legend.sizeHint()
        m = Legend.MARGIN
        self.legend.setGeometry(m, max(self.viewport().height() - hint.height() - m, 0), hint.width(), hint.height())
        self._place_overview()
        width = min(self.viewport().width() - 16, 640)
        self._overlay.setFixedWidth(max(120, width))
        self._overlay.adjustSize()
        self._overlay.move(8, 8)
        self.banner.setGeometry(8, 8, max(200, self.viewport().width() - 16), self.banner.sizeHint().height())

    # ---- graph in

    def set_graph(
        self,
        graph: nx.MultiDiGraph | None,
        grads: dict | None = None,
        relayout: bool = True,
        collapsed: set[str] | None = None,
    ) -> None:
        """Show a ``to_networkx`` graph with the numbers it carries (``grads`` overrides its gradients)."""
        snapshot = snapshot_of_graph(graph, grads) if graph is not None else None
        self.show_snapshot(snapshot, relayout=relayout, collapsed=collapsed)

    def show_snapshot(
        self, snapshot: GraphSnapshot | None, relayout: bool = True, collapsed: set[str] | None = None
    ) -> None:
        """Draw ``snapshot``; with ``relayout=False`` and the same shape, only the numbers that changed.

        ``collapsed`` (groups drawn as one box) replaces the current choice; by
        default the groups collapsed now stay collapsed.
        """
        if collapsed is not None and set(collapsed) != self.collapsed:
            self.collapsed = set(collapsed)
            relayout = True
        if snapshot is None:
            self.snapshot = None
            self.base_graph = None
            self._clear()
            self.overview.hide()  # (no graph: no map, and nothing cropped)
            self.fit_is_partial = False
            return
        graph = snapshot.graph
        same_shape = not relayout and (
            graph is self.base_graph
            or (
                self.base_graph is not None
                and graph.number_of_nodes() == self.base_graph.number_of_nodes()
                and graph.number_of_edges() == self.base_graph.number_of_edges()
            )
        )
        previous, self.snapshot = self.snapshot, snapshot
        if same_shape and not self.busy:
            if graph is not self.base_graph:
                self.base_graph = graph
                self.graph = collapse_groups(graph, self.collapsed & set(groups_of(graph)))
            self.refresh_values(previous)
            return
        new_structure = graph is not self.base_graph
        if new_structure:
            self.fit_whole = False  # Whole graph was asked for the graph on screen; a new one opens readable
        self.base_graph = graph
        self.collapsed &= set(groups_of(graph))
        if collapsed is None and new_structure and graph.graph.get("overview"):
            self.collapsed = set(groups_of(graph))  # a big expression: start from its overview
            collapsed = self.collapsed
        if graph.number_of_nodes() > ASYNC_LAYOUT_NODES:
            self._rebuild_soon()
        else:
            self._rebuild(relayout=True)
        if collapsed is not None:
            self.groups_changed.emit()

    def set_grads(self, grads: dict | None) -> None:
        """Show other gradients (node id -> grad or None) with the same values, e.g. while stepping."""
        if self.snapshot is None:
            return
        shown = tuple(grads.get(i) for i in range(len(self.snapshot.grads))) if grads is not None else None
        if shown is None:
            shown = snapshot_of_graph(self.snapshot.graph).grads
        previous, self.snapshot = self.snapshot, replace(self.snapshot, grads=shown)
        self.refresh_values(previous)

    def show_state(self, state, change=None, collapsed: set[str] | None = None) -> None:
        """Draw a ``GraphState``'s snapshot: its graph, the gradients it shows and the current step.

        The layout is recomputed only when the state's structure changed, so
        dragging a value or following new weights keeps every box in place.
        """
        snapshot = state.snapshot
        version = snapshot.structure_version if snapshot is not None else -1
        relayout = version != self._drawn_version
        self._drawn_version = version
        self.show_snapshot(snapshot, relayout=relayout, collapsed=collapsed)
        if snapshot is not None:
            self.set_highlight(*snapshot.highlight)

    def show_grads(self, state) -> None:
        """Refresh only the gradients and the highlighted step of a ``GraphState``."""
        self.show_state(state)

    def set_layout_method(self, method: str) -> None:
        if method not in LAYOUTS:
            raise ValueError(f"unknown layout {method!r}; choose one of {', '.join(LAYOUTS)}")
        self.method = method
        if self.base_graph is not None:
            self._rebuild(relayout=True)

    def set_dimmed(self, dimmed: bool, message: str = "") -> None:
        """Fade the graph (the expression has an error) and say why over it."""
        self.dimmed = dimmed
        self._root.setOpacity(0.3 if dimmed else 1.0)
        self._overlay.setText(message)
        self._overlay.setVisible(bool(dimmed and message))
        self._place_overlays()

    def _shown(self, node):
        """The drawn node standing for ``node``: itself, or its group's box when the group is collapsed."""
        if self.graph is None or node is None or node in self.graph:
            return node
        if self.base_graph is not None and node in self.base_graph:
            group = self.base_graph.nodes[node].get("group")
            if group in self.collapsed:
                return f"group:{group}"
        return None

    def set_highlight(self, nodes: set, edges: set, current=None) -> None:
        """Mark the nodes and edges of the current backward step (a collapsed group's box stands in)."""
        self._highlight_request = (set(nodes), set(edges), current)
        if self.collapsed:
            shown_edges = set()
            for u, v, key in edges:
                a, b = self._shown(u), self._shown(v)
                if a is not None and b is not None and a != b:
                    shown_edges.add((u, v, key) if (a, b) == (u, v) else (a, b, 0))
            nodes, edges, current = {self._shown(n) for n in nodes} - {None}, shown_edges, self._shown(current)
        had_highlight, moved_on = bool(self.highlight_nodes), current != self.current_node
        for node in self.highlight_nodes - set(nodes):
            if node in self.nodes:
                self.nodes[node].highlighted = self.nodes[node].current = False
                self.nodes[node].update()
        for edge in self.highlight_edges - set(edges):
            if edge in self.edges:
                self.edges[edge].set_highlighted(False)
        self.highlight_nodes, self.highlight_edges, self.current_node = set(nodes), set(edges), current
        for node in self.highlight_nodes:
            item = self.nodes.get(node)
            if item is not None:
                item.highlighted, item.current = True, node == current
                item.update()
        for edge in self.highlight_edges:
            item = self.edges.get(edge)
            if item is not None:
                item.set_highlighted(True)
        if self._box_layer is not None and (self.highlight_nodes or had_highlight):
            self._box_layer.mark_dirty()  # borders changed
        if current is not None and moved_on:  # (a redraw of the same step leaves the view where the user put it)
            self.follow_current()

    # ---- groups

    def groups(self) -> list[str]:
        return groups_of(self.base_graph) if self.base_graph is not None else []

    def collapse_all(self) -> None:
        self.set_collapsed(set(self.groups()))

    def expand_all(self) -> None:
        self.set_collapsed(set())

    def set_collapsed(self, groups: set[str]) -> None:
        self.collapsed = set(groups) & set(self.groups())
        self.banner.hide()
        if self.base_graph is not None:
            self._rebuild(relayout=True)
        self.groups_changed.emit()

    def toggle_group_of(self, node) -> None:
        if self.graph is None or node not in self.graph:
            return
        group = self.graph.nodes[node].get("group")
        if not group:
            return
        self.set_collapsed(self.collapsed ^ {group})

    def _draw_anyway(self) -> None:
        self.force_huge = True
        self.banner.hide()
        if self.base_graph is not None:
            self._rebuild(relayout=True)

    # ---- building

    def _clear(self) -> None:
        self._generation += 1
        self._batch_timer.stop()
        self._pending.clear()
        # One call takes every item out: a fresh parent replaces the old one (removing items one by one
        # from Python cost ~30 ms for a 2,000-node graph).
        old, self._root = self._root, _Root()
        self._root.setOpacity(old.opacity())
        self._root.setVisible(old.isVisible())
        self.scene().removeItem(old)
        self.scene().addItem(self._root)
        self.nodes, self.edges, self.positions = {}, {}, {}
        self._box_layer = None
        self._items_rect = QRectF()  # what the edges and trunks built so far cover
        self.overview.invalidate()
        self.drawing = None
        self._graph_rect: QRectF | None = None
        self.highlight_nodes, self.highlight_edges = set(), set()
        self.busy = False

    def _rebuild_soon(self) -> None:
        """Rebuild once the current event is handled (a new big graph: the state's other observers go first,
        so no single event keeps the window busy for all of them)."""
        self._clear()
        self.busy = True
        generation = self._generation
        QTimer.singleShot(0, self, lambda: generation == self._generation and self._rebuild(relayout=True))

    def _rebuild(self, relayout: bool) -> None:
        self._clear()
        graph = collapse_groups(self.base_graph, self.collapsed)
        self.graph = graph
        n = graph.number_of_nodes()
        groups = self.groups()
        if n > LARGE_GRAPH_NODES:
            collapsible = bool(groups) and not self.collapsed
            text = f"Large graph: {n} nodes."
            text += " Collapse groups to see its structure." if collapsible else " Text appears when you zoom in."
            if n > HUGE_GRAPH_NODES and not self.force_huge:
                text = f"Very large graph: {n} nodes. Not drawn yet, so the window stays responsive."
            self.banner_label.setText(text)
            self.collapse_button.setVisible(collapsible)
            self.draw_anyway_button.setVisible(n > HUGE_GRAPH_NODES and not self.force_huge)
            self.banner.show()
            self._place_overlays()
            self.message.emit(text)
            if n > HUGE_GRAPH_NODES and not self.force_huge:
                return
        else:
            self.banner.hide()
        method = self.method
        if method == "kamada_kawai" and n > KAMADA_KAWAI_MAX_NODES:
            self.message.emit(f"Kamada–Kawai is too slow for {n} nodes; using the layered layout.")
            method = "layered"
        self.busy = True
        self._root.setVisible(False)  # no repaint of a half-built graph between batches
        large = n > ASYNC_LAYOUT_NODES
        self.setRenderHint(QPainter.RenderHint.Antialiasing, not large)
        self.layout_started.emit()
        generation = self._generation
        sizes = {node: (self._node_width(attrs, node), self.node_height) for node, attrs in graph.nodes(data=True)}
        view = self.view_shape()
        reference = self._normal_reference(graph, view)
        if n > SYNC_LAYOUT_NODES or method != "layered":  # Spring and Kamada–Kawai take 0.1–1 s even when small
            # Started once the current event is handled: a worker thread competes for Python's lock, so
            # starting it now would slow down whatever else this change does in the GUI thread.
            job = (_layout_job, generation, graph, method, sizes, view, self.gaps, self._signals, reference)
            QTimer.singleShot(0, self, lambda: generation == self._generation and _layout_executor().submit(*job))
        else:
            try:
                result = layout_for_view(graph, method, sizes, view, self.gaps, reference)
            except Exception as err:
                self._layout_done(generation, None, f"{type(err).__name__}: {err}")
                return
            self._layout_done(generation, result, "")

    def _layout_done(self, generation: int, result: tuple | None, error: str) -> None:
        if generation != self._generation or self.graph is None:
            return  # a newer graph replaced this one while the layout ran
        if error or result is None:
            self.busy = False
            self._root.setVisible(True)
            self.message.emit(f"Layout failed: {error}")
            return
        graph = self.graph
        drawing, self._fit_floor = result
        self.drawing = drawing
        self.positions = dict(drawing.centers)
        nodes = list(graph.nodes)
        for start in range(0, len(nodes), BATCH):
            self._pending.append(lambda chunk=nodes[start : start + BATCH]: self._add_nodes(chunk))
        # neighbors together, so that each EdgeBundle covers a small part of the scene
        centers = drawing.centers
        edges = sorted(graph.edges(keys=True), key=lambda e: (centers[e[0]][0], centers[e[0]][1]))
        self._pending.append(self._add_trunks)
        for start in range(0, len(edges), BATCH):
            self._pending.append(lambda chunk=edges[start : start + BATCH]: self._add_edges(chunk))
        self._pending.append(self._finish)
        if len(nodes) + len(edges) <= BATCH:
            while self._pending:
                self._pending.pop(0)()
        else:
            self._batch_timer.start()

    def _run_batch(self) -> None:
        """Run building tasks for about ``BATCH_MS``, then let the event loop breathe."""
        end = time.perf_counter() + BATCH_MS / 1000.0
        while self._pending:
            self._pending.pop(0)()
            if time.perf_counter() > end:
                return
        self._batch_timer.stop()

    def _node_width(self, attrs: dict, node=None, box: BoxFonts | None = None) -> float:
        """A box's width: its title and, when they are longer than usual ones, its numbers as they are now
        (in this view's fonts, or ``box``'s)."""
        box = box or self._box_fonts
        title = NodeItem._title(attrs)
        width = box.widths.get(title)  # titles repeat (+, *, tanh): measured once per font
        if width is None:
            text = max(box.title_metrics.horizontalAdvance(title), box.value_width)
            width = box.widths[title] = text + BOX_PADDING  # (at least a usual number's width: boxes line up)
        if node is not None and self.snapshot is not None:
            usual = len(box.VALUE_SAMPLE)
            value_name = "out" if attrs.get("kind") == "group" else "data"
            numbers = ((value_name, self.value_of(node, attrs)), (self.snapshot.grad_name, self.grad_of(node, attrs)))
            for name, number in numbers:
                text = f"{name} {format_number(number)}"
                if len(text) > usual:
                    width = max(width, box.body_metrics.horizontalAdvance(text) + BOX_PADDING)
        return width

    def _add_nodes(self, chunk: list) -> None:
        graph, drawing = self.graph, self.drawing
        for node in chunk:
            width, height = drawing.sizes[node]
            item = NodeItem(self, node, graph.nodes[node], width, height)
            x, y = drawing.centers[node]
            item.setPos(x, y)
            item.setParentItem(self._root)
            self.nodes[node] = item

    def _add_trunks(self) -> None:
        self._trunk_rects = {}
        for source, commands in self.drawing.trunks.items():
            item = TrunkItem(self, commands)
            item.setParentItem(self._root)
            self._trunk_rects[source] = item.boundingRect()
            self._items_rect = self._items_rect.united(self._trunk_rects[source])

    def trunk_rect(self, source) -> QRectF:
        return self._trunk_rects.get(source, QRectF())

    def _add_edges(self, chunk: list) -> None:
        drawing = self.drawing
        items = []
        for u, v, key in chunk:
            item = EdgeItem(self, u, v, key)
            item.set_route(drawing.paths[(u, v, key)], drawing.arrows[(u, v, key)])
            item.setParentItem(self._root)
            self.edges[(u, v, key)] = item
            items.append(item)
        bundle = EdgeBundle(self, items)
        bundle.setParentItem(self._root)
        self._items_rect = self._items_rect.united(bundle.boundingRect())

    def _finish(self) -> None:
        self._batch_timer.stop()
        self.busy = False
        self._box_layer = BoxLayer(self, list(self.nodes.values()))
        self._box_layer.setVisible(self._plain)
        self._box_layer.setParentItem(self._root)
        self._root.setVisible(True)
        # the root's childrenBoundingRect, from the rectangles the items already know (asking 4,000 Python
        # items for their boundingRect took 15-50 ms)
        self._graph_rect = self._items_rect.united(self._box_layer.boundingRect())
        rect = self.graph_rect().adjusted(-40, -40, 40, 40)
        self.scene().setSceneRect(rect)
        self.refresh_values()
        self.set_highlight(*self._highlight_request)
        self.fit()
        self.drawn.emit()

    # ---- numbers

    def _source(self, node, attrs: dict):
        """The base-graph node whose numbers a drawn box shows (a collapsed group shows its output)."""
        return attrs.get("output") if attrs.get("kind") == "group" else node

    def grad_of(self, node, attrs: dict) -> float | None:
        return self.snapshot.grad(self._source(node, attrs)) if self.snapshot is not None else None

    def value_of(self, node, attrs: dict) -> float | None:
        return self.snapshot.value(self._source(node, attrs)) if self.snapshot is not None else None

    def refresh_values(self, previous: GraphSnapshot | None = None) -> None:
        """Give each box its numbers from the snapshot; repaint only what shows a change.

        A box whose numbers changed is repainted when its numbers can be read at
        this zoom; otherwise only if its color or border changed.  Zoomed far
        out, the box layer paints every box: it is repainted once, and only if
        some box's look changed.
        """
        if self.graph is None or self.snapshot is None:
            return
        snap = self.snapshot
        scale = 0.0
        for g in snap.grads:
            if g is not None and (g > scale or -g > scale) and math.isfinite(g):
                scale = abs(g)
        rescaled = scale != self.grad_scale
        self.grad_scale = scale
        same = previous is not None and previous.graph is snap.graph and previous.grad_name == snap.grad_name
        plain = self._plain
        numbers_shown = not plain and self.transform().m11() * self.body_font.pointSizeF() >= NUMBERS_MIN_POINTS
        values, grads = snap.values, snap.grads
        n = len(values) if len(grads) == len(values) else 0
        looks_changed = not same
        for item in self.nodes.values():
            source = item.source
            if type(source) is int and 0 <= source < n:
                value, grad = values[source], grads[source]
            else:
                value, grad = snap.value(source), snap.grad(source)
            old_value, old_grad = item.value, item.grad
            numbers_changed = not (old_value == value and old_grad == grad)  # nan never equals: redrawn
            if same and not rescaled and not numbers_changed:
                continue
            look_changed = item.set_numbers(value, grad, scale)
            looks_changed |= look_changed
            if not plain and (look_changed or not same or (numbers_shown and numbers_changed)):
                item.update()
        if looks_changed:
            if self._box_layer is not None:
                self._box_layer.mark_dirty()
            self.overview.invalidate()
        if rescaled or previous is None:
            self.legend.update()

    def tooltip_for(self, node) -> str:
        """Full-precision value and gradient, and the local derivative of each incoming edge."""
        graph = self.graph
        attrs = graph.nodes[node]
        name = node_name(attrs, node)
        grad = self.grad_of(node, attrs)
        lines = [
            f"<b>{_esc(name)}</b> ({_esc(attrs.get('kind', 'op'))}"
            + (f", op {_esc(attrs.get('op'))}" if attrs.get("op") else "")
            + ")",
            f"data = {format_full(self.value_of(node, attrs))}",
            f"{self.snapshot.grad_name} = {format_full(grad)}"
            if grad is not None
            else f"{self.snapshot.grad_name}: not computed yet",
        ]
        incoming = sorted(graph.in_edges(node, keys=True, data=True), key=lambda e: e[3].get("index", e[2]))
        if incoming:
            lines.append("local derivatives:")
        for u, v, key, data in incoming:
            parent = node_name(graph.nodes[u], u)
            local = self.snapshot.local(u, v, key) if isinstance(u, int) and isinstance(v, int) else None
            if local is None:
                lines.append(f"&nbsp;&nbsp;from {_esc(parent)}")
                continue
            formula = data.get("formula") or ""
            shown = f"{_esc(formula)} = {format_full(local)}" if formula else format_full(local)
            lines.append(f"&nbsp;&nbsp;∂{_esc(name)}/∂{_esc(parent)} = {shown}")
        if attrs.get("kind") == "group":
            params = [m for m in attrs.get("members", ()) if self.base_graph.nodes[m].get("kind") == "parameter"]
            for m in params[:24]:
                p = self.base_graph.nodes[m]
                value, g = self.snapshot.value(m), self.snapshot.grad(m)
                lines.append(f"&nbsp;&nbsp;{_esc(p.get('label'))} = {format_number(value)}, grad {format_number(g)}")
            if len(params) > 24:
                lines.append(f"&nbsp;&nbsp;… and {len(params) - 24} more parameters")
            lines.append("Double-click to expand this group.")
        elif attrs.get("group"):
            lines.append(f"group {_esc(attrs['group'])}: double-click to collapse it.")
        return "<br>".join(lines)

    # ---- navigation

    def graph_rect(self) -> QRectF:
        """The drawn graph's extent in the scene (boxes, edges and arrowheads); measured once per build."""
        if self._graph_rect is None:
            self._graph_rect = self._root.childrenBoundingRect()
        return QRectF(self._graph_rect)

    def _legend_corner(self) -> tuple[float, float]:
        """Width and height of the viewport's bottom-left corner the legend takes (nothing drawn goes under it)."""
        if not self.legend.isVisibleTo(self):  # (a graph fitted while its tab is hidden leaves it room too)
            return (0.0, 0.0)
        legend = self.legend.geometry()
        m = Legend.MARGIN
        return (float(legend.right() + 1 + m), float(self.viewport().height() - legend.top() + m))

    def view_shape(self) -> tuple:
        """The viewport as a layout sees it: (width, height, legend corner width and height, margin, largest
        scale, readable scale)."""
        vp = self.viewport().rect()
        corner, readable = self._legend_corner(), self.readable_scale() if not self.fit_whole else 0.0
        return (float(vp.width()), float(vp.height()), *corner, self.fit_margin, MAX_FIT_SCALE, readable)

    def fit_placement(self, rect: QRectF | None = None) -> tuple[float, QPointF]:
        """The scale Fit uses and where the graph's top-left corner goes in the viewport: as large as the
        whole viewport allows, moved up or right of the center only as far as the legend's corner needs."""
        rect = self.graph_rect() if rect is None else rect
        width, height, corner_w, corner_h, margin, largest = self.view_shape()[:6]
        if self.drawing is not None and self.drawing.centers:
            obstacles = padded_obstacles(self.drawing)
        else:
            obstacles = [(rect.left(), rect.top(), rect.right(), rect.bottom())]
        extent = (rect.left(), rect.top(), rect.right(), rect.bottom())
        scale, x, y = fit_in_view(extent, obstacles, (width, height), (corner_w, corner_h), margin, largest)
        return scale, QPointF(x, y)

    def readable_scale(self) -> float:
        """The zoom at which box text is READABLE_POINTS on screen (× 1.5 in presentation mode)."""
        return READABLE_POINTS * self.font_scale / self.body_font.pointSizeF()

    def show_whole(self) -> None:
        """Fit the whole graph, even if its text gets too small to read (the map of a big graph)."""
        self.fit(whole=True)

    def fit(self, whole: bool | None = None) -> None:
        """Show the whole graph as large as it goes, clear of the legend; but never with text too small to
        read: a bigger graph is shown around its output, or the current step, with the overview map."""
        self.auto_fit = True
        if not self.presentation and self.isVisible():
            size = self.viewport().size()
            self._normal_viewports[self.window().size().toTuple()] = (float(size.width()), float(size.height()))
        rect = self.graph_rect()
        switched = whole is not None and bool(whole) != self.fit_whole
        self.fit_whole = self.fit_whole if whole is None else bool(whole)
        if rect.isEmpty():
            return
        scale, corner = self.fit_placement(rect)
        readable = max(self.readable_scale(), self._fit_floor)  # (presentation: above normal mode's text)
        if switched and not self.busy and self._layout_depends_on_fit() and (self.fit_is_partial or scale < readable):
            # a layered drawing that must be cropped is laid out to show the most around its output; the
            # whole graph is laid out to show largest: lay it out again for what was asked
            self.fit_is_partial = False  # (until the new drawing is fitted)
            self._rebuild(relayout=True)
            return
        readable_wanted = not self.fit_whole and len(self.nodes) <= READABLE_FIT_MAX_BOXES
        was_partial, self.fit_is_partial = self.fit_is_partial, readable_wanted and scale < readable
        if self.fit_is_partial:
            self._fit_around_focus(rect, readable)
            if not was_partial:
                where = "drag it, click the map beside the legend," if self.overview.isVisible() else "drag it"
                self.message.emit(
                    f"Fit keeps the graph's text readable, so part of it is off screen: {where} "
                    "or choose View ▸ Whole graph (Ctrl+9)."
                )
            return
        vp = QRectF(self.viewport().rect())
        # the viewport in scene units, placed so that the graph's top-left corner falls on ``corner``
        top_left = rect.topLeft() - QPointF(corner.x() - vp.left(), corner.y() - vp.top()) / scale
        shown = QRectF(top_left, QSizeF(vp.width() / scale, vp.height() / scale))
        scene_rect = shown.united(rect)
        if scene_rect.width() * scale <= vp.width() + 1 and scene_rect.height() * scale <= vp.height() + 1:
            # the graph fits: a scene a pixel smaller than the viewport, or rounding shows scroll bars, which
            # shrink the viewport, which refits the view… endlessly
            scene_rect = QRectF(shown.topLeft(), QSizeF((vp.width() - 1) / scale, (vp.height() - 1) / scale))
        self.scene().setSceneRect(scene_rect)
        self.setTransform(QTransform.fromScale(scale, scale))
        self.centerOn(shown.center())
        self._place_overview()

    def _layout_depends_on_fit(self) -> bool:
        """Whether compute_drawing picks a different layered drawing for a readable Fit and for the whole."""
        graph = self.graph
        return self.method == "layered" and graph is not None and graph.number_of_nodes() <= READABLE_FIT_MAX_BOXES

    def focus_box(self) -> QRectF | None:
        """What a partial Fit shows: the current backward step's box, else the graph's output."""
        node = self.current_node if self.current_node in self.nodes else None
        if node is None and self.graph is not None:
            node = output_node(self.graph)
        return self.nodes[node].sceneBoundingRect() if node in self.nodes else None

    def _fit_around_focus(self, rect: QRectF, scale: float) -> None:
        """Readable text, part of the graph on screen: the focus as near the center as the legend allows.

        The scene gets room below the graph as tall as the legend's corner (where the overview map sits
        too), so a place with no box under that corner always exists."""
        vp = QRectF(self.viewport().rect())
        corner_w, corner_h = (value / scale for value in self._partial_corner())
        m = self.fit_margin / scale
        scene_rect = rect.adjusted(-m, -m, m, m + corner_h)
        width, height = vp.width() / scale, vp.height() / scale
        # at least the view's size (else the view could not move along that axis to clear the corner):
        # wider on both sides (the graph stays centered), taller below (room under the graph for the corner)
        grow = max(width - scene_rect.width(), 0.0) / 2
        scene_rect.adjust(-grow, 0.0, grow, max(height - scene_rect.height(), 0.0))
        self.scene().setSceneRect(scene_rect)
        self.setTransform(QTransform.fromScale(scale, scale))
        focus_box = self.focus_box()
        focus = focus_box.center() if focus_box is not None else rect.center()
        x_range = (scene_rect.left(), scene_rect.right() - width)
        y_range = (scene_rect.top(), scene_rect.bottom() - height)
        x = window_start(focus.x(), scene_rect.left(), scene_rect.right(), width)
        y = window_start(focus.y(), scene_rect.top(), scene_rect.bottom(), height)
        if self.drawing is not None and len(self.drawing.obstacles) and corner_w > 0:
            obstacles = padded_obstacles(self.drawing)
            keep = None if focus_box is None else focus_box.getCoords()
            x, y = clear_of_corner(obstacles, (x, y), (width, height), (corner_w, corner_h), x_range, y_range, keep)
        self.centerOn(QPointF(x + width / 2, y + height / 2))
        self._place_overview()

    def _partial_corner(self) -> tuple[float, float]:
        """Width and height (pixels) of the bottom-left corner the legend and the overview map take."""
        taken = self._overview_geometry() if self._room_for_map() else QRect()
        if self.legend.isVisibleTo(self):
            taken = taken.united(self.legend.geometry())
        if taken.isEmpty():
            return (0.0, 0.0)
        m = Legend.MARGIN
        return float(taken.right() + 1 + m), float(self.viewport().height() - taken.top() + m)

    def follow_current(self) -> None:
        """Bring the current backward step's box into view when it is off screen or under the legend or map."""
        item = self.nodes.get(self.current_node) if self.current_node is not None else None
        if item is None or self.busy:
            return
        box = self.mapFromScene(item.sceneBoundingRect()).boundingRect()
        covered = any(o.isVisible() and box.intersects(o.geometry()) for o in (self.legend, self.overview))
        if self.viewport().rect().contains(box) and not covered:
            return
        # as a cropped Fit shows it (at this zoom): around the node, with none under the legend or map
        self._fit_around_focus(self.graph_rect(), self.transform().m11())

    def fitted_text_points(self) -> float:
        """On-screen size, in points, of the value and gradient text at the current zoom."""
        return self.body_font.pointSizeF() * self.transform().m11()

    def zoom(self, factor: float) -> None:
        current = self.transform().m11()
        factor = min(max(factor, 0.02 / current), 8.0 / current)
        self.auto_fit = False
        self.scale(factor, factor)
        self._place_overview()

    def zoom_in(self) -> None:
        self.zoom(1.25)

    def zoom_out(self) -> None:
        self.zoom(0.8)

    def mousePressEvent(self, event) -> None:
        self.auto_fit = False  # the user is panning: leave the view where they put it
        super().mousePressEvent(event)

    def node_at(self, pos) -> object | None:
        """The drawn node whose box is at viewport position ``pos``, or None."""
        for item in self.items(pos):
            if isinstance(item, NodeItem):
                return item.node
        return None

    def keyPressEvent(self, event) -> None:
        """Enter or Space opens or closes the group of the box under the mouse."""
        key = event.key()
        if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_Space) and not self.busy:
            node = self.node_at(self.viewport().mapFromGlobal(QCursor.pos()))
            if node is not None and self.graph is not None and self.graph.nodes[node].get("group"):
                self.toggle_group_of(node)
                event.accept()
                return
        super().keyPressEvent(event)

    def wheelEvent(self, event) -> None:
        delta = event.angleDelta().y()
        if delta:
            self.zoom(1.0015**delta)
        event.accept()

    # ---- export

    def render_image(self, scale: float = 2.0) -> QImage:
        rect = self.graph_rect().adjusted(-20, -20, 20, 20)
        if rect.isEmpty():
            rect = QRectF(0, 0, 200, 100)
        legend = self.legend.sizeHint()
        limit = 8000.0 / max(rect.width(), rect.height(), 1.0)
        # at most EXPORT_MAX_PIXELS: a 2,000-node graph at twice its size took seconds to paint and compress
        pixels = math.sqrt(EXPORT_MAX_PIXELS / max(rect.width() * rect.height(), 1.0))
        scale = min(scale, limit, max(pixels, 0.5))
        width = int(rect.width() * scale)
        height = int(rect.height() * scale) + legend.height() + 16
        image = QImage(max(width, legend.width() + 16), height, QImage.Format.Format_ARGB32)
        image.fill(self.colors.background)
        painter = QPainter(image)
        painter.setRenderHints(QPainter.RenderHint.Antialiasing | QPainter.RenderHint.TextAntialiasing)
        with self._boxes_painting_themselves():
            self.scene().render(painter, QRectF(0, 0, width, rect.height() * scale), rect)
        self.legend.draw(painter, QRectF(8, height - legend.height() - 8, legend.width(), legend.height()))
        painter.end()
        return image

    def export_png(self, path: str, background: bool = False) -> None:
        """Paint the graph (GUI thread) and write it as PNG.

        With ``background`` the compression (1–2 s for a big graph; Qt releases Python's lock meanwhile) runs on
        a worker thread into ``path + ".part"``, renamed when complete, and the outcome comes as ``message``:
        the window never freezes, and a half-written file never takes the name.
        """
        image = self.render_image()
        if not background:
            if not image.save(str(path), "PNG"):
                raise OSError(f"could not write {path}")
            return
        self.message.emit(f"Saving the graph to {path}…")
        threading.Thread(target=self._save_png, args=(image, str(path)), daemon=True).start()

    def _save_png(self, image: QImage, path: str) -> None:
        part = path + ".part"
        try:
            if not image.save(part, "PNG"):
                raise OSError(f"could not write {path}")
            os.replace(part, path)
            text = f"Graph saved to {path}"
        except OSError as err:
            text = f"Could not save the graph: {err}"
            try:
                os.remove(part)
            except OSError:
                pass
        try:
            self.message.emit(text)  # queued to the GUI thread
        except RuntimeError:
            pass  # the view was closed meanwhile

    def export_svg(self, path: str) -> None:
        from PySide6.QtSvg import QSvgGenerator

        rect = self.graph_rect().adjusted(-20, -20, 20, 20)
        legend = self.legend.sizeHint()
        generator = QSvgGenerator()
        generator.setFileName(str(path))
        size = QSize(int(max(rect.width(), legend.width() + 16)), int(rect.height()) + legend.height() + 16)
        generator.setSize(size)
        generator.setViewBox(QRectF(0, 0, size.width(), size.height()))
        generator.setTitle("Autograd Playground graph")
        painter = QPainter()
        if not painter.begin(generator):
            raise OSError(f"could not write {path}")
        painter.fillRect(QRectF(0, 0, size.width(), size.height()), self.colors.background)
        with self._boxes_painting_themselves():
            self.scene().render(painter, QRectF(0, 0, rect.width(), rect.height()), rect)
        self.legend.draw(painter, QRectF(8, size.height() - legend.height() - 8, legend.width(), legend.height()))
        painter.end()

    def export(self, path: str, background: bool = False) -> None:
        """PNG or SVG by the file's extension (``background``: see ``export_png``; SVG is quick and always here)."""
        if str(path).lower().endswith(".svg"):
            self.export_svg(path)
            if background:
                self.message.emit(f"Graph saved to {path}")
        else:
            self.export_png(path, background=background)


def _esc(text) -> str:
    return str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
