"""The scene's items: each box (``NodeItem``), edge (``EdgeItem``), bundle of plain edges, trunk, and the layer
that paints every box at once when zoomed far out.

Each item paints itself straight from its numbers and the shared pens and colors of its host's ``Appearance``
(no child text items), and draws less the further out the view is zoomed.  What an item asks of whoever built
it is ``ItemHost`` (the view's ``ItemBuilder``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Protocol

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QFontMetricsF, QPainter, QPainterPath, QPen, QPolygonF
from PySide6.QtWidgets import QGraphicsItem, QGraphicsObject, QStyleOptionGraphicsItem

from autograd_core.drawing import Drawing
from autograd_core.graph_numbers import box_lines, box_title

from ..look.theme import gradient_strength, readable_text
from .appearance import Appearance

BOX_PADDING = 14.0  # a box is this much wider than its longest text (drawn 4 px in from each side)
NUMBERS_MIN_POINTS = 4.5  # on-screen size below which a box's numbers are not drawn (they could not be read)
NAMES_MIN_POINTS = 5.0  # ... and below which its name, drawn larger, is not drawn either

NO_CONTENTS = QGraphicsItem.GraphicsItemFlag.ItemHasNoContents  # (an enum lookup costs a microsecond or two)


class ItemHost(Protocol):
    """What the scene's items ask of whoever builds them: the look they share, the drawing they are placed
    from, and the box text a hover or double-click asks for."""

    look: Appearance
    drawing: Drawing | None
    plain: bool  # zoomed so far out that the box layer paints every box

    def grad_name(self) -> str: ...

    def trunk_rect(self, source) -> QRectF: ...

    def tooltip_for(self, node) -> str: ...

    def toggle_group_soon(self, node) -> None: ...


class NodeItem(QGraphicsItem):
    """One box: name/op, value, gradient; fill by gradient, border by kind."""

    def __init__(self, host: ItemHost, node, attrs: dict, width: float, height: float):
        super().__init__()
        self.host, self.look, self.node = host, host.look, node
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
        if host.plain:  # far out the box layer paints every box at once (ItemBuilder.set_plain)
            self.setFlag(NO_CONTENTS, True)

    @staticmethod
    def _title(attrs: dict) -> str:
        return box_title(attrs)

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
        return self.look.fill_for(self.shade)

    def look(self) -> tuple:
        """What a box shows when its numbers are too small to be drawn: its color (to 1/128) and its border."""
        return self.shade, self.non_finite

    def texts(self) -> tuple[str, str]:
        """The value and gradient lines, formatted once per new number (not once per repaint)."""
        grad_name = self.host.grad_name()
        key = (self.value, self.grad, grad_name, self.kind)
        cached = self._texts
        if cached[0] != key or cached[0] is None:  # (nan != nan: formatted again, which is right too)
            cached = self._texts = (key, *box_lines(self.kind, self.value, self.grad, grad_name))
        return cached[1], cached[2]

    def pen(self) -> QPen:
        """The border pen, built once per look (kind, state, theme, line width) and shared by every box."""
        look = self.look  # (looked up here, built there: a repaint asks every box on screen)
        kind, non_finite, highlighted, current = self.kind, self.non_finite, self.highlighted, self.current
        pen = look.box_pens.get((kind, non_finite, highlighted, current, look.theme, look.line_width))
        return pen if pen is not None else look.box_pen(kind, non_finite, highlighted, current)

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget=None) -> None:
        look = self.look
        lod = QStyleOptionGraphicsItem.levelOfDetailFromTransform(painter.worldTransform())
        fill = self.fill()
        if lod * look.name_points < NAMES_MIN_POINTS:  # far out (big graphs): a plain box, the fast path
            painter.setPen(look.plain_pen(self.pen()))
            painter.setBrush(fill)
            painter.drawRect(-self.width / 2, -self.height / 2, self.width, self.height)
            return
        colors = look.colors
        rect = self.box()
        pen = self.pen()
        # Semantic zoom: numbers only where they can be read, names a little further out, then plain boxes.
        body_points = lod * look.body_font.pointSizeF()
        if body_points < NUMBERS_MIN_POINTS:
            painter.setPen(QPen(pen.color(), pen.widthF()))
            painter.setBrush(fill)
            painter.drawRect(rect)
            if lod * look.name_font.pointSizeF() >= NAMES_MIN_POINTS:
                painter.setPen(readable_text(fill, look.theme))
                _draw_fitted(painter, rect.adjusted(3, 0, -3, 0), self.title, look.name_font, look.name_metrics)
            return
        painter.setPen(pen)
        painter.setBrush(fill)
        radius = 12.0 if self.kind in ("input", "parameter") else 4.0
        painter.drawRoundedRect(rect, radius, radius)
        if self.non_finite:
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(QBrush(colors.non_finite, Qt.BrushStyle.BDiagPattern))
            painter.drawRoundedRect(rect, radius, radius)
        text = readable_text(fill, look.theme)
        painter.setPen(text)
        line_h = rect.height() / 3
        top = QRectF(rect.left() + 4, rect.top() + 2, rect.width() - 8, line_h)
        painter.setFont(look.title_font)
        painter.drawText(top, Qt.AlignmentFlag.AlignCenter, self.title)
        mid = top.translated(0, line_h - 2)
        value_text, grad_text = self.texts()
        _draw_fitted(painter, mid, value_text, look.body_font, look.body_metrics)
        bottom = mid.translated(0, line_h - 2)
        _draw_fitted(painter, bottom, grad_text, look.body_font, look.body_metrics)

    def hoverEnterEvent(self, event) -> None:
        self.setToolTip(self.host.tooltip_for(self.node))
        super().hoverEnterEvent(event)

    def mouseDoubleClickEvent(self, event) -> None:
        # Collapsing or opening a group rebuilds every item, this one included: the host does it after Qt has
        # finished delivering this click (deleting the item that holds the mouse grab inside its own event
        # crashes Qt).
        event.accept()
        self.host.toggle_group_soon(self.node)


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


def arrow_points(arrow: tuple, line_width: float) -> tuple:
    """The arrowhead's three corners, from the drawing's arrow (tip x, y and direction dx, dy)."""
    ex, ey, dx, dy = arrow
    size = 9.0 * line_width
    nx_, ny_ = -dy * size * 0.45, dx * size * 0.45
    bx, by = ex - dx * size, ey - dy * size
    return ((ex, ey), (bx + nx_, by + ny_), (bx - nx_, by - ny_))


def edge_bounds(host: ItemHost, commands: list, own: QPainterPath, points: tuple) -> QRectF:
    """What an edge paints: its route's points (a trunk stretch: its end, where the edge leaves it), its
    arrowhead and, for a route along a trunk (painted whole when highlighted), the trunk."""
    bounds = own.controlPointRect()
    (x0, y0), (x1, y1), (x2, y2) = points
    left, top = min(x0, x1, x2), min(y0, y1, y2)
    bounds = bounds.united(QRectF(left, top, max(x0, x1, x2) - left, max(y0, y1, y2) - top))
    for c in commands:
        if c[0] == "T":
            bounds = bounds.united(host.trunk_rect(c[1]))
    return bounds.adjusted(-6, -6, 6, 6)


class EdgeItem(QGraphicsItem):
    """parent → child along its routed path (``autograd_core.drawing``), with an arrowhead on the child's border.

    An edge that rides its source's trunk paints only its own ends (the trunk
    is one ``TrunkItem``); highlighted, it paints its whole route.
    """

    def __init__(self, host: ItemHost, u, v, key):
        super().__init__()
        self.host, self.u, self.v, self.key = host, u, v, key
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

        The path without the trunk stretch is built now (its control points bound the edge, measured by Qt
        instead of Python); the whole route only when first needed.
        """
        self.prepareGeometryChange()
        self.commands = commands
        self._path = None
        self.arrow_points = arrow_points(arrow, self.host.look.line_width)
        self._own_path = own = painter_path(commands, self.host.drawing.trunks, whole=False)
        self._bounds = edge_bounds(self.host, commands, own, self.arrow_points)

    @property
    def arrow(self) -> QPolygonF:
        return QPolygonF([QPointF(x, y) for x, y in self.arrow_points])

    @property
    def own_path(self) -> QPainterPath:
        """The route without its trunk stretch (the trunk's own item draws that)."""
        if self._own_path is None:
            self._own_path = painter_path(self.commands, self.host.drawing.trunks, whole=False)
        return self._own_path

    @property
    def path(self) -> QPainterPath:
        """The whole route as drawn, trunk stretch included."""
        if self._path is None:
            has_trunk = any(c[0] == "T" for c in self.commands)
            self._path = painter_path(self.commands, self.host.drawing.trunks) if has_trunk else self.own_path
        return self._path

    def boundingRect(self) -> QRectF:
        return self._bounds

    def shape(self) -> QPainterPath:
        return self.path

    def paint(self, painter: QPainter, option, widget=None) -> None:
        look = self.host.look
        color = look.colors.highlight if self.highlighted else look.colors.edge
        painter.setPen(look.edge_pen(self.highlighted))
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

    def __init__(self, host: ItemHost, edges: list):
        """``edges``: (u, v, key) of the host's drawing, each painted as an ``EdgeItem`` would paint it plain
        (the items themselves are made only when needed: see ``LazyEdges``)."""
        super().__init__()
        self.look = host.look
        self.paths: list[QPainterPath] = []
        self.arrows = QPainterPath()
        arrows = self.arrows
        paths = self.paths
        drawing = host.drawing
        routes, tips, trunks, width = drawing.paths, drawing.arrows, drawing.trunks, host.look.line_width
        bounds = QRectF()
        for edge in edges:
            commands = routes[edge]
            own = painter_path(commands, trunks, whole=False)
            paths.append(own)
            points = arrow_points(tips[edge], width)
            (x0, y0), (x1, y1), (x2, y2) = points
            arrows.moveTo(x0, y0)
            arrows.lineTo(x1, y1)
            arrows.lineTo(x2, y2)
            arrows.closeSubpath()
            bounds = bounds.united(edge_bounds(host, commands, own, points))
        self._bounds = bounds

    def boundingRect(self) -> QRectF:
        return self._bounds

    def paint(self, painter: QPainter, option, widget=None) -> None:
        painter.setPen(self.look.edge_pen(False))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        draw = painter.drawPath
        for path in self.paths:
            draw(path)
        if QStyleOptionGraphicsItem.levelOfDetailFromTransform(painter.worldTransform()) < 0.2:
            return  # zoomed far out: the arrowhead is a dot
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(self.look.colors.edge)
        painter.drawPath(self.arrows)


class LazyEdges(Mapping):
    """(u, v, key) -> ``EdgeItem`` of every drawn edge, each item made the first time it is asked for.

    Plain edges are painted by their ``EdgeBundle``; an item is needed only to highlight its edge (or by
    whoever asks for it), so a 1,600-edge overview makes none of its items while it is built."""

    def __init__(self, host: ItemHost, edges: list, root: QGraphicsItem):
        self.host, self.root = host, root
        self._keys = dict.fromkeys(edges)  # (in the drawing's order)
        self._items: dict = {}

    def __getitem__(self, edge) -> EdgeItem:
        item = self._items.get(edge)
        if item is None:
            if edge not in self._keys:
                raise KeyError(edge)
            drawing = self.host.drawing
            item = EdgeItem(self.host, *edge)
            item.set_route(drawing.paths[edge], drawing.arrows[edge])
            item.setParentItem(self.root)
            self._items[edge] = item
        return item

    def __contains__(self, edge) -> bool:
        return edge in self._keys

    def __iter__(self):
        return iter(self._keys)

    def __len__(self) -> int:
        return len(self._keys)

    @property
    def made(self) -> dict:
        """The items made so far."""
        return self._items


class TrunkItem(QGraphicsItem):
    """The shared stretch of a node's long edges (drawn once, under the edges that ride it)."""

    def __init__(self, look: Appearance, commands: list):
        super().__init__()
        self.look = look
        self.path = painter_path(commands)
        self._bounds = self.bounds_of(self.path)

    @staticmethod
    def bounds_of(path: QPainterPath) -> QRectF:
        """A trunk's rectangle: its route's control points and the pen around them."""
        return path.controlPointRect().adjusted(-4, -4, 4, 4)

    def boundingRect(self) -> QRectF:
        return self._bounds

    def paint(self, painter: QPainter, option, widget=None) -> None:
        painter.setPen(self.look.edge_pen(False))
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

    def __init__(self, look: Appearance, items: list[NodeItem]):
        super().__init__()
        self.look = look
        self.items = items
        self._groups: list | None = None
        self._rects: list[QRectF] | None = None
        bounds = QRectF()
        for item in items:
            bounds = bounds.united(item.boundingRect().translated(item.pos()))
        self._bounds = bounds
        self.setZValue(1)

    def mark_dirty(self) -> None:
        self._groups = None
        self.update()

    def boundingRect(self) -> QRectF:
        return self._bounds

    def _regroup(self) -> list:
        if self._rects is None:  # boxes do not move once built
            self._rects = [item.box().translated(item.pos()) for item in self.items]
        look = self.look
        by_look: dict = {}  # look -> (a box with that look, the rectangles of every box with it)
        for item, rect in zip(self.items, self._rects):
            key = (item.kind, item.non_finite, item.highlighted, item.current, item.shade)
            group = by_look.get(key)
            if group is None:
                group = by_look[key] = (item, [])
            group[1].append(rect)
        groups = []
        for item, rects in by_look.values():
            groups.append((look.plain_pen(item.pen()), item.fill(), rects))
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
