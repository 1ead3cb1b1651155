"""The network diagram's scene items: an edge per weight, a circle per neuron (with its map and dead mark), and
the hovered neuron's enlarged map."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QLineF, QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QImage, QPainter, QPainterPath, QPen, QPixmap
from PySide6.QtWidgets import (
    QGraphicsEllipseItem,
    QGraphicsItem,
    QGraphicsLineItem,
    QGraphicsPathItem,
    QGraphicsPixmapItem,
    QGraphicsRectItem,
    QGraphicsSimpleTextItem,
)

from autograd_core.numbers import format_number

from ..look.theme import Palette, palette, plot_text_size

RADIUS = 18.0
MAGNIFIED_PX = 168  # side of a hovered neuron's enlarged map

WIDTH_LEVELS = 8  # edge widths 0.5 … 6 px in this many steps
ALPHA_LEVELS = 6
MAX_EDGE_WIDTH = 6.0

HoverReport = Callable[[QGraphicsItem | None], None]  # the item now under the pointer (None: it left)


class _ReportsHover:
    """Reports which item the pointer is over to the ``report_hover`` it was built with (the diagram shows that
    item's numbers)."""

    report_hover: HoverReport

    def hoverEnterEvent(self, event):
        self.report_hover(self)
        super().hoverEnterEvent(event)

    def hoverLeaveEvent(self, event):
        self.report_hover(None)
        super().hoverLeaveEvent(event)


class EdgeItem(_ReportsHover, QGraphicsLineItem):
    """One weight.  Its hover shape is a wide band so thin edges are easy to point at."""

    def __init__(self, hover: HoverReport, layer: int, row: int, col: int, line: QLineF):
        super().__init__(line)
        self.report_hover, self.layer, self.row, self.col = hover, layer, row, col
        self.style_key = None
        self.setAcceptHoverEvents(True)
        self.setZValue(0)


class EdgePens:
    """An edge's pen per look (sign, width level, alpha level) in one palette, built once and shared: a frame
    restyles every edge, and a few dozen pens serve them all."""

    def __init__(self, pal: Palette):
        self.colors = pal
        self._cache: dict = {}

    def pen(self, key: tuple[bool, int, int]) -> QPen:
        pen = self._cache.get(key)
        if pen is None:
            positive, w, a = key
            # Faint edges are mixed with the background rather than drawn translucent: same look, and
            # antialiased opaque lines paint about three times faster in Qt's raster engine.
            base = QColor(self.colors.sign_colors[1] if positive else self.colors.sign_colors[0])
            back = QColor(self.colors.plot_background)
            f = 0.12 + 0.88 * a / (ALPHA_LEVELS - 1)
            color = QColor(
                round(back.red() + (base.red() - back.red()) * f),
                round(back.green() + (base.green() - back.green()) * f),
                round(back.blue() + (base.blue() - back.blue()) * f),
            )
            pen = QPen(color, 0.5 + (MAX_EDGE_WIDTH - 0.5) * w / (WIDTH_LEVELS - 1))
            pen.setCosmetic(True)
            pen.setCapStyle(Qt.PenCapStyle.FlatCap)  # round caps cost 4× the paint time; ends hide under circles
            self._cache[key] = pen
        return pen


class NeuronItem(_ReportsHover, QGraphicsEllipseItem):
    """One neuron (or input).  ``layer`` 0 is the input layer."""

    def __init__(self, hover: HoverReport, layer: int, index: int, center: QPointF, radius: float = RADIUS):
        super().__init__(QRectF(center.x() - radius, center.y() - radius, 2 * radius, 2 * radius))
        self.report_hover, self.layer, self.index = hover, layer, index
        self.setAcceptHoverEvents(True)
        self.setZValue(10)
        self.image_item: QGraphicsPixmapItem | None = None
        self.dead_mark: QGraphicsPathItem | None = None

    @property
    def dead(self) -> bool:
        return self.dead_mark is not None

    def set_dead(self, dead: bool) -> None:
        """Gray the unit's map and cross it out (a dead ReLU)."""
        if dead == self.dead:
            return
        if dead:
            r = self.rect().adjusted(4, 4, -4, -4) if self.rect().width() > 12 else self.rect()
            path = QPainterPath()
            path.moveTo(r.topLeft())
            path.lineTo(r.bottomRight())
            path.moveTo(r.topRight())
            path.lineTo(r.bottomLeft())
            self.dead_mark = QGraphicsPathItem(path, self)
            pen = QPen(QColor(palette().error), 2.5)
            pen.setCosmetic(True)
            self.dead_mark.setPen(pen)
            self.dead_mark.setZValue(2)
        else:
            self.dead_mark.setParentItem(None)
            if self.scene() is not None:
                self.scene().removeItem(self.dead_mark)
            self.dead_mark = None
        if self.image_item is not None:
            self.image_item.setOpacity(0.3 if dead else 1.0)

    def set_fill(self, brush: QBrush) -> None:
        """The circle's fill: painted now, or, while a map is shown inside, kept for when it is removed
        (an opaque fill over the map, which stacks behind the circle, hid it after a theme switch)."""
        self._fill = brush
        if self.image_item is None:
            self.setBrush(brush)

    def set_image(self, image: QImage | None) -> None:
        """Show ``image`` inside the circle, under its outline; None removes it.

        Give it transparent corners (a disc): clipping every repaint to the
        circle would cost more than drawing the rest of the diagram.
        """
        if image is None:
            if self.image_item is not None:
                if self.scene() is not None:
                    self.scene().removeItem(self.image_item)
                self.image_item = None
                self.setBrush(self._fill)
            return
        if self.image_item is None:
            self._fill = self.brush()
            self.setBrush(QBrush(Qt.BrushStyle.NoBrush))  # the outline stays on top of the picture
            self.image_item = QGraphicsPixmapItem(self)
            self.image_item.setFlag(QGraphicsPixmapItem.GraphicsItemFlag.ItemStacksBehindParent, True)
            self.image_item.setTransformationMode(Qt.TransformationMode.SmoothTransformation)
        pixmap = QPixmap.fromImage(image)
        rect = self.rect()
        self.image_item.setPixmap(pixmap)
        self.image_item.setScale(rect.width() / max(1, pixmap.width()))
        self.image_item.setPos(rect.topLeft())
        self.image_item.setOpacity(0.3 if self.dead else 1.0)

    def move_to(self, center: QPointF) -> None:
        """Center the circle on ``center``, its map and dead mark with it (they are drawn in the rect's coordinates)."""
        shift = center - self.rect().center()
        if shift.isNull():
            return
        self.setRect(self.rect().translated(shift))
        if self.image_item is not None:
            self.image_item.setPos(self.rect().topLeft())
        if self.dead_mark is not None:
            self.dead_mark.setPos(self.dead_mark.pos() + shift)


class Magnifier(QGraphicsRectItem):
    """A hovered neuron's map, enlarged, with a title: a fixed size in pixels whatever the zoom."""

    def __init__(self):
        super().__init__()
        self.setFlag(QGraphicsRectItem.GraphicsItemFlag.ItemIgnoresTransformations)
        self.setZValue(100)
        self.title = QGraphicsSimpleTextItem(self)
        self.key = QGraphicsSimpleTextItem(self)
        self.apply_palette(palette())
        self.picture = QGraphicsPixmapItem(self)
        self.picture.setTransformationMode(Qt.TransformationMode.SmoothTransformation)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.hide()

    def apply_palette(self, pal: Palette, presentation: bool | None = None) -> None:
        self.setBrush(QBrush(QColor(pal.plot_background)))
        pen = QPen(QColor(pal.neuron_border), 1.5)
        pen.setCosmetic(True)
        self.setPen(pen)
        font = QFont()
        font.setPointSizeF(plot_text_size(presentation, 1.05))
        font.setBold(True)
        self.title.setFont(font)
        small = QFont()
        small.setPointSizeF(plot_text_size(presentation, 0.9))
        self.key.setFont(small)
        for item in (self.title, self.key):
            item.setBrush(QBrush(QColor(pal.plot_text)))

    def show_map(self, title: str, key: str, image: QImage, extent=None, points=None) -> None:
        """The map enlarged under ``title``, its color ``key`` below; with the plane's ``extent`` (x0, x1, y0, y1)
        the training ``points`` (X, y) are drawn on it and a line says what plane it is."""
        self.title.setText(title)
        lines = [key]
        pixmap = QPixmap.fromImage(image).scaled(
            MAGNIFIED_PX, MAGNIFIED_PX, Qt.AspectRatioMode.IgnoreAspectRatio, Qt.TransformationMode.SmoothTransformation
        )
        if extent is not None:
            x0, x1, y0, y1 = extent
            f = format_number
            lines.append(f"over x1 {f(x0)} … {f(x1)} (→), x2 {f(y0)} … {f(y1)} (↑)")
            if points is not None and len(points[0]):
                self._draw_points(pixmap, extent, *points)
                lines.append("dots: the training points")
        self.key.setText("\n".join(lines))
        pad, title_h = 6, self.title.boundingRect().height()
        width = max(MAGNIFIED_PX, self.title.boundingRect().width(), self.key.boundingRect().width()) + 2 * pad
        self.title.setPos(pad, pad)
        self.picture.setPixmap(pixmap)
        self.picture.setPos((width - MAGNIFIED_PX) / 2, pad + title_h + 4)
        self.key.setPos(pad, pad + title_h + 8 + MAGNIFIED_PX)
        self.setRect(QRectF(0, 0, width, self.key.pos().y() + self.key.boundingRect().height() + pad))
        self.show()

    def _draw_points(self, pixmap: QPixmap, extent, X, y) -> None:
        """The points in their class colors, as on the boundary plot (x right, x2 up)."""
        x0, x1, y0, y1 = extent
        pal = palette()
        painter = QPainter(pixmap)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        outline = QPen(QColor(pal.point_outline), 0.8)
        painter.setPen(outline)
        side = pixmap.width()
        for px, py, label in zip(X[:, 0], X[:, 1], y):
            u, v = (px - x0) / (x1 - x0) * side, (1 - (py - y0) / (y1 - y0)) * side
            if 0 <= u <= side and 0 <= v <= side:
                painter.setBrush(QBrush(QColor(pal.class_colors[int(label) % len(pal.class_colors)])))
                painter.drawEllipse(QPointF(u, v), 2.6, 2.6)
        painter.end()
