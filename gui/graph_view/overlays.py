"""Widgets over the graph's viewport that stay put while the scene zooms and pans: the legend (gradient color
bar and box kinds), the overview map of the whole graph, and the sign that a layout is being computed."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Protocol

from PySide6.QtCore import QPointF, QRectF, QSize, Qt, QTimer
from PySide6.QtGui import QColor, QFontMetricsF, QImage, QPainter, QPen
from PySide6.QtWidgets import QFrame, QGraphicsView, QHBoxLayout, QLabel, QPushButton, QWidget

from autograd_core.numbers import format_number

from ..look.theme import diverging_color
from .appearance import Appearance

OVERVIEW_WIDTH = 200  # pixels
BUSY_SIGN_DELAY_MS = 150  # a layout done sooner shows no sign (no flash on every keystroke)
LAYOUT_NAMES = {"layered": "layered", "spring": "spring", "kamada_kawai": "Kamada–Kawai"}


class LegendFacts(Protocol):
    """What the legend says of the graph beyond its look: which groups are closed, and the gradient scale."""

    collapsed: set[str]
    grad_scale: float


class DrawnBoxes(Protocol):
    """What the overview map draws: the boxes (node -> NodeItem) and the graph's extent in the scene."""

    nodes: Mapping

    def graph_rect(self) -> QRectF: ...


class BusySign(QLabel):
    """ "Laying out 412 boxes (Kamada–Kawai)…" in the middle of an empty view while a layout runs on its worker
    thread: a blank view with no sign read as a hang (a Kamada–Kawai layout of a 20-term expression takes ~20 s)."""

    def __init__(self, viewport: QWidget):
        super().__init__(viewport)
        self.setObjectName("layoutBusySign")
        self.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.setWordWrap(True)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self._appear)
        self.hide()

    def start(self, boxes: int, method: str) -> None:
        """Say so if the layout is still running ``BUSY_SIGN_DELAY_MS`` from now."""
        self.setText(f"Laying out {boxes:,} boxes ({LAYOUT_NAMES.get(method, method)} layout)…")
        self._timer.start(BUSY_SIGN_DELAY_MS)

    def stop(self) -> None:
        self._timer.stop()
        self.hide()

    def restyle(self, background: QColor, text: QColor) -> None:
        self.setStyleSheet(
            f"QLabel#layoutBusySign {{ background: {background.name()}; color: {text.name()}; "
            f"border: 1px solid {text.name()}; border-radius: 4px; padding: 10px 16px; }}"
        )

    def _appear(self) -> None:
        viewport = self.parentWidget()
        self.setFixedWidth(min(420, max(160, viewport.width() - 32)))
        self.adjustSize()
        self.move((viewport.width() - self.width()) // 2, (viewport.height() - self.height()) // 2)
        self.show()
        self.raise_()


class LargeGraphBanner(QFrame):
    """Across the top of a large graph: how large it is, and the offer to collapse its groups (or to draw a very
    large one at all, which is not drawn until asked)."""

    def __init__(self, parent: QWidget, collapse: Callable[[], None], draw_anyway: Callable[[], None]):
        super().__init__(parent)
        self.setObjectName("largeGraphBanner")
        layout = QHBoxLayout(self)
        layout.setContentsMargins(8, 4, 8, 4)
        self.label = QLabel()
        self.label.setWordWrap(True)
        self.collapse_button = QPushButton("Collapse groups")
        self.collapse_button.setToolTip("Draw each group (e.g. one neuron) as a single box")
        self.collapse_button.clicked.connect(collapse)
        self.draw_anyway_button = QPushButton("Draw anyway")
        self.draw_anyway_button.setToolTip("Draw every node even though the graph is very large")
        self.draw_anyway_button.clicked.connect(draw_anyway)
        close = QPushButton("×")
        close.setToolTip("Hide this message")
        close.setFixedWidth(28)
        close.clicked.connect(self.hide)
        layout.addWidget(self.label, 1)
        layout.addWidget(self.collapse_button)
        layout.addWidget(self.draw_anyway_button)
        layout.addWidget(close)
        self.hide()

    def tell(self, nodes: int, collapsible: bool, held_back: bool) -> str:
        """Show how large a graph of ``nodes`` is and what can be done (``held_back``: not drawn until asked);
        the text, for the view's message too."""
        text = f"Large graph: {nodes} nodes."
        text += " Collapse groups to see its structure." if collapsible else " Text appears when you zoom in."
        if held_back:
            text = f"Very large graph: {nodes} nodes. Not drawn yet, so the window stays responsive."
        self.label.setText(text)
        self.collapse_button.setVisible(collapsible)
        self.draw_anyway_button.setVisible(held_back)
        self.show()
        return text


class Legend(QWidget):
    """Color bar for the gradient scale and swatches for node kinds.

    A child of the viewport, so it stays put while the scene zooms and pans;
    its size comes from its own text (swatches wrap onto more rows when the
    view is narrow), and Fit keeps the graph out of its corner.
    """

    PAD = 8.0
    MARGIN = 8  # from the viewport's edges

    def __init__(self, viewport: QWidget, look: Appearance, facts: LegendFacts):
        super().__init__(viewport)
        self.look, self.facts = look, facts
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        self.setObjectName("graphLegend")

    def kinds(self) -> list[tuple[str, QColor, Qt.PenStyle]]:
        colors = self.look.colors
        return [
            ("input", colors.leaf_border, Qt.PenStyle.SolidLine),
            ("param", colors.parameter_border, Qt.PenStyle.SolidLine),
            ("const", colors.constant_border, Qt.PenStyle.DashLine),
            ("op", colors.op_border, Qt.PenStyle.SolidLine),
            ("inf/nan", colors.non_finite, Qt.PenStyle.SolidLine),
            *((("group", colors.parameter_border, Qt.PenStyle.DashDotLine),) if self.facts.collapsed else ()),
        ]

    def _rows(self, width: float) -> list[list[tuple[float, str]]]:
        """Swatch rows (x offset, name) that fit in ``width`` (inside the padding)."""
        fm = QFontMetricsF(self.look.body_font)
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
        fm = QFontMetricsF(self.look.body_font)
        swatch = fm.height() * 0.8
        row = sum(swatch + 4 + fm.horizontalAdvance(name) + 12 for name, _c, _s in self.kinds()) - 12
        scale = fm.horizontalAdvance("−0.0000e+00  0  +0.0000e+00")
        title = fm.horizontalAdvance("gradient (log scale)")
        return max(row, scale, title) + 2 * self.PAD

    def size_for(self, available_width: float) -> QSize:
        """The legend's size when at most ``available_width`` pixels wide."""
        fm = QFontMetricsF(self.look.body_font)
        width = min(self.natural_width(), max(available_width, 80.0))
        rows = self._rows(width - 2 * self.PAD)
        lh = fm.height()
        height = self.PAD + lh + lh * 0.8 + 1 + lh + 3 + len(rows) * (lh + 3) + self.PAD
        return QSize(math.ceil(width), math.ceil(height))

    def sizeHint(self) -> QSize:
        return self.size_for(self.parentWidget().width() - 2 * self.MARGIN)

    def paintEvent(self, event) -> None:
        painter = QPainter(self)
        self.draw(painter, QRectF(self.rect()))

    def draw(self, painter: QPainter, rect: QRectF) -> None:
        look = self.look
        colors = look.colors
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(QPen(colors.muted, 1))
        bg = QColor(colors.background)
        bg.setAlpha(235)
        painter.setBrush(bg)
        painter.drawRoundedRect(rect.adjusted(0.5, 0.5, -0.5, -0.5), 6, 6)
        painter.setFont(look.body_font)
        fm = QFontMetricsF(look.body_font)
        pad, lh = self.PAD, fm.height()
        bar = QRectF(rect.left() + pad, rect.top() + pad + lh, rect.width() - 2 * pad, lh * 0.8)
        steps = 48
        for i in range(steps):
            s = -1.0 + 2.0 * (i + 0.5) / steps
            painter.fillRect(
                QRectF(bar.left() + bar.width() * i / steps, bar.top(), bar.width() / steps + 1, bar.height()),
                diverging_color(s, look.theme),
            )
        painter.setPen(colors.text)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawRect(bar)
        scale = self.facts.grad_scale
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

    def __init__(self, view: QGraphicsView, look: Appearance, boxes: DrawnBoxes, go: Callable[[QPointF], None]):
        """Over ``view``'s viewport, the ``boxes`` drawn in it; a click sends the scene point to ``go``."""
        super().__init__(view.viewport())
        self.view, self.look, self.boxes, self.go = view, look, boxes, go
        self.setObjectName("graphOverview")
        self.setToolTip("Overview of the whole graph: click or drag to move there")
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        self._image: QImage | None = None
        self.hide()

    def _mapping(self) -> tuple[QRectF, float, QPointF]:
        """(graph rect, scale, offset): map a scene point p to offset + (p - rect.topLeft()) * scale."""
        rect = self.boxes.graph_rect()
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
        look = self.look
        colors = look.colors
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
        for item in self.boxes.nodes.values():
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
            painter.setBrush(colors.muted if shade is None else look.fill_for(shade))
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
        painter.setPen(QPen(self.look.colors.highlight, 2))
        painter.drawRect(frame.intersected(QRectF(self.rect()).adjusted(1, 1, -1, -1)))

    def _go(self, pos) -> None:
        rect, scale, offset = self._mapping()
        self.go(rect.topLeft() + (QPointF(pos) - offset) / max(scale, 1e-9))

    def mousePressEvent(self, event) -> None:
        self._go(event.position())
        event.accept()

    def mouseMoveEvent(self, event) -> None:
        if event.buttons() & Qt.MouseButton.LeftButton:
            self._go(event.position())
        event.accept()
