"""The network as circles and lines: every weight an edge, coloured by sign, as thick as it is large.

Items are built once per architecture and only restyled per frame.  Pens are
quantised (a few widths and alphas per sign) and cached, and an edge whose
style did not change is left alone, so a frame costs little even for a few
hundred weights.

Built to grow: ``edge_mode`` already colours edges by weight or by gradient,
and ``set_neuron_image`` paints a picture (e.g. a neuron's own activation map)
inside a neuron's circle.
"""

from __future__ import annotations

import math

import numpy as np
from PySide6.QtCore import QLineF, QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QFont, QImage, QPainter, QPen, QPixmap, QTransform
from PySide6.QtWidgets import (
    QComboBox,
    QGraphicsEllipseItem,
    QGraphicsLineItem,
    QGraphicsPixmapItem,
    QGraphicsScene,
    QGraphicsSimpleTextItem,
    QGraphicsView,
    QHBoxLayout,
    QLabel,
    QVBoxLayout,
    QWidget,
)

from gui.training_style import NEGATIVE, POSITIVE

LAYER_GAP = 220.0
NEURON_GAP = 46.0
RADIUS = 15.0
WIDTH_LEVELS = 8  # edge widths 0.5 … 6 px in this many steps
ALPHA_LEVELS = 6
MAX_EDGE_WIDTH = 6.0
EDGE_MODES = ("weight", "gradient")


def neuron_name(layer: int, index: int, sizes: tuple[int, ...]) -> str:
    """Layer 0 is the input: x₁, x₂; others use the model's names, L1.n0 …"""
    if layer == 0:
        return f"x{index + 1}"
    return f"L{layer}.n{index}"


class EdgeItem(QGraphicsLineItem):
    """One weight.  Its hover shape is a wide band so thin edges are easy to point at."""

    def __init__(self, diagram: NetworkDiagram, layer: int, row: int, col: int, line: QLineF):
        super().__init__(line)
        self.diagram, self.layer, self.row, self.col = diagram, layer, row, col
        self.style_key = None
        self.setAcceptHoverEvents(True)
        self.setZValue(0)

    def hoverEnterEvent(self, event):
        self.diagram._hover(self)
        super().hoverEnterEvent(event)

    def hoverLeaveEvent(self, event):
        self.diagram._hover(None)
        super().hoverLeaveEvent(event)


class NeuronItem(QGraphicsEllipseItem):
    """One neuron (or input).  ``layer`` 0 is the input layer."""

    def __init__(self, diagram: NetworkDiagram, layer: int, index: int, centre: QPointF, radius: float = RADIUS):
        super().__init__(QRectF(centre.x() - radius, centre.y() - radius, 2 * radius, 2 * radius))
        self.diagram, self.layer, self.index = diagram, layer, index
        self.setAcceptHoverEvents(True)
        self.setZValue(10)
        self.image_item: QGraphicsPixmapItem | None = None

    def hoverEnterEvent(self, event):
        self.diagram._hover(self)
        super().hoverEnterEvent(event)

    def hoverLeaveEvent(self, event):
        self.diagram._hover(None)
        super().hoverLeaveEvent(event)

    def set_image(self, image: QImage | None) -> None:
        """Show ``image`` inside the circle (clipped to it); None removes it."""
        if image is None:
            if self.image_item is not None:
                if self.scene() is not None:
                    self.scene().removeItem(self.image_item)
                self.image_item = None
            return
        if self.image_item is None:
            self.setFlag(QGraphicsEllipseItem.GraphicsItemFlag.ItemClipsChildrenToShape, True)
            self.image_item = QGraphicsPixmapItem(self)
            self.image_item.setTransformationMode(Qt.TransformationMode.SmoothTransformation)
        pixmap = QPixmap.fromImage(image)
        rect = self.rect()
        self.image_item.setPixmap(pixmap)
        self.image_item.setScale(rect.width() / max(1, pixmap.width()))
        self.image_item.setPos(rect.topLeft())


class _View(QGraphicsView):
    """Keeps the whole network in view when the widget is resized."""

    def resizeEvent(self, event):
        super().resizeEvent(event)
        self.fit()

    margin_px = (64, 34)  # room for the labels, which keep their size in pixels whatever the zoom

    def fit(self):
        items = [i for i in self.scene().items() if isinstance(i, NeuronItem)] if self.scene() else []
        if not items:
            return
        rect = items[0].sceneBoundingRect()
        for item in items[1:]:
            rect = rect.united(item.sceneBoundingRect())
        # Fit once to learn the scale, then again with the pixel margins turned into scene units.
        self.fitInView(rect, Qt.AspectRatioMode.KeepAspectRatio)
        scale = max(self.transform().m11(), 1e-6)
        mx, my = self.margin_px[0] / scale, self.margin_px[1] / scale
        self.fitInView(rect.adjusted(-mx, -my, mx, my), Qt.AspectRatioMode.KeepAspectRatio)


class NetworkDiagram(QWidget):
    """Inputs, hidden neurons and output as circles; weights as edges; hover for numbers."""

    hovered = Signal(str)  # the text shown under the diagram

    def __init__(self, parent=None):
        super().__init__(parent)
        self.scene = QGraphicsScene(self)
        # Every edge is restyled each frame (its bounding rect changes with its width): a BSP index would be
        # rebuilt each time; a few hundred items are found faster without one.
        self.scene.setItemIndexMethod(QGraphicsScene.ItemIndexMethod.NoIndex)
        self.view = _View(self.scene)
        self.view.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        self.view.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.view.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.view.setBackgroundBrush(QBrush(QColor("#ffffff")))
        self.view.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
        self.view.setViewportUpdateMode(QGraphicsView.ViewportUpdateMode.FullViewportUpdate)
        self.view.setOptimizationFlag(QGraphicsView.OptimizationFlag.DontSavePainterState, True)
        self.info = QLabel("Hover over a weight or a neuron to see its numbers.")
        self.info.setObjectName("hintLabel")
        self.info.setWordWrap(True)
        self.info.setMinimumHeight(self.info.fontMetrics().height() * 2 + 4)
        self.mode = QComboBox()
        self.mode.addItems(["Edges: weights", "Edges: gradients"])
        self.mode.setToolTip(
            "Colour and thickness of every edge: the weight itself (blue negative, orange positive), "
            "or its current gradient ∂loss/∂w"
        )
        self.mode.currentIndexChanged.connect(self._mode_changed)
        self.edge_mode = "weight"

        header = QHBoxLayout()
        title = QLabel("<b>Network</b> — edge colour: sign (blue −, orange +), width: size")
        title.setWordWrap(True)
        title.setMinimumWidth(80)
        header.addWidget(title, 1)
        header.addWidget(self.mode)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(header)
        layout.addWidget(self.view, 1)
        layout.addWidget(self.info)

        self.sizes: tuple[int, ...] = ()
        self.activation = ""
        self.neurons: list[list[NeuronItem]] = []
        self.edges: list[EdgeItem] = []
        self.weights: list = []
        self.grads: list = []
        self._hovered = None
        self._pen_cache: dict = {}
        self._font = QFont()
        self._font.setPointSizeF(11)
        self._font.setBold(True)

    # ------------------------------------------------------------- building

    def set_architecture(self, sizes: tuple[int, ...], activation: str = "") -> None:
        """Rebuild the items for layer sizes (inputs, hidden…, outputs)."""
        sizes = tuple(int(s) for s in sizes)
        if sizes == self.sizes and activation == self.activation:
            return
        self.sizes, self.activation = sizes, activation
        self._hovered = None
        self.scene.clear()
        self.neurons, self.edges = [], []
        tallest = max(sizes) if sizes else 1
        gap = NEURON_GAP * min(1.0, 16 / tallest)  # wide layers are squeezed to the height of 16 neurons
        radius = min(RADIUS, 0.36 * gap)
        for layer, n in enumerate(sizes):
            x = layer * LAYER_GAP
            column = []
            for j in range(n):
                y = (j - (n - 1) / 2) * gap
                column.append(NeuronItem(self, layer, j, QPointF(x, y), radius))
            self.neurons.append(column)
        for layer in range(1, len(sizes)):
            for row, target in enumerate(self.neurons[layer]):
                for col, source in enumerate(self.neurons[layer - 1]):
                    edge = EdgeItem(self, layer, row, col, QLineF(source.rect().center(), target.rect().center()))
                    self.scene.addItem(edge)
                    self.edges.append(edge)
        last = len(sizes) - 1
        for layer, column in enumerate(self.neurons):
            for item in column:
                self.scene.addItem(item)
                self._style_neuron(item, layer, last)
        self._add_labels(last)
        self.view.fit()
        if self.weights:
            self._restyle()

    def _style_neuron(self, item: NeuronItem, layer: int, last: int) -> None:
        if layer == 0:
            fill, border = QColor("#eceff1"), QColor("#455a64")
        elif layer == last:
            fill, border = QColor("#fff8e1"), QColor("#202124")
        else:
            fill, border = QColor("#ffffff"), QColor("#455a64")
        item.setBrush(QBrush(fill))
        pen = QPen(border, 2.0)
        pen.setCosmetic(True)
        item.setPen(pen)

    def _label(self, text: str, anchor: QPointF, align: str) -> None:
        """Text at a fixed size in pixels (it ignores the zoom), placed left of, right of or above ``anchor``."""
        item = QGraphicsSimpleTextItem(text)
        item.setFont(self._font)
        item.setBrush(QBrush(QColor("#202124")))
        item.setFlag(QGraphicsSimpleTextItem.GraphicsItemFlag.ItemIgnoresTransformations)
        w, h = item.boundingRect().width(), item.boundingRect().height()
        dx, dy = {"left": (-w - 6, -h / 2), "right": (6, -h / 2), "above": (-w / 2, -h - 4)}[align]
        item.setPos(anchor)
        item.setTransform(QTransform.fromTranslate(dx, dy))  # in pixels, because transformations are ignored
        item.setZValue(20)
        self.scene.addItem(item)

    def _add_labels(self, last: int) -> None:
        for j, item in enumerate(self.neurons[0] if self.neurons else []):
            r = item.rect()
            self._label(f"x{'₁₂₃₄'[j] if j < 4 else j + 1}", QPointF(r.left(), r.center().y()), "left")
        if len(self.neurons) > 1:
            r = self.neurons[last][0].rect()
            self._label("score", QPointF(r.right(), r.center().y()), "right")
        for layer in range(1, last):
            r = self.neurons[layer][0].rect()
            self._label(
                f"{len(self.neurons[layer])} {self.activation}".strip(), QPointF(r.center().x(), r.top()), "above"
            )

    # ------------------------------------------------------------- updating

    def set_weights(self, weights: list, grads: list | None = None) -> None:
        """Restyle edges from [(W, b)] per layer (and the matching gradients)."""
        self.weights = weights
        self.grads = grads or []
        self._restyle()
        if self._hovered is not None:
            self._hover(self._hovered)

    def set_neuron_image(self, layer: int, index: int, image: QImage | None) -> None:
        """Paint ``image`` inside neuron ``index`` of ``layer`` (1 = first hidden layer)."""
        self.neurons[layer][index].set_image(image)

    def _mode_changed(self, index: int) -> None:
        self.edge_mode = EDGE_MODES[index]
        self._restyle()

    def _edge_values(self) -> list[np.ndarray]:
        source = self.grads if self.edge_mode == "gradient" else self.weights
        return [np.asarray(W, dtype=float) for W, _b in source]

    def _restyle(self) -> None:
        values = self._edge_values()
        if len(values) != len(self.sizes) - 1 or not self.edges:
            return
        finite = [np.abs(v[np.isfinite(v)]) for v in values]
        scale = max((float(f.max()) for f in finite if f.size), default=0.0)
        # One vectorised pass for every edge's (sign, width level, alpha level), in the same order as self.edges.
        flat = np.concatenate([v.ravel() for v in values])
        flat = np.where(np.isfinite(flat), flat, 0.0)
        strength = np.abs(flat) / scale if scale > 0 else np.zeros_like(flat)
        width_level = np.minimum(WIDTH_LEVELS - 1, (strength * WIDTH_LEVELS).astype(int))
        alpha_level = np.minimum(ALPHA_LEVELS - 1, (np.sqrt(strength) * ALPHA_LEVELS).astype(int))
        sign = flat >= 0
        for edge, s, w, a in zip(self.edges, sign.tolist(), width_level.tolist(), alpha_level.tolist()):
            key = (s, w, a)
            if key != edge.style_key:
                edge.style_key = key
                edge.setPen(self._pen(key))
                edge.setZValue(w)  # strong edges on top of faint ones

    def _pen(self, key) -> QPen:
        pen = self._pen_cache.get(key)
        if pen is None:
            positive, w, a = key
            # Faint edges are mixed with white rather than drawn translucent: same look, and
            # antialiased opaque lines paint about three times faster in Qt's raster engine.
            base = POSITIVE if positive else NEGATIVE
            f = 0.2 + 0.8 * (a + 1) / ALPHA_LEVELS
            colour = QColor(
                round(255 + (base.red() - 255) * f),
                round(255 + (base.green() - 255) * f),
                round(255 + (base.blue() - 255) * f),
            )
            pen = QPen(colour, 0.5 + (MAX_EDGE_WIDTH - 0.5) * w / (WIDTH_LEVELS - 1))
            pen.setCosmetic(True)
            pen.setCapStyle(Qt.PenCapStyle.FlatCap)  # round caps cost 4× the paint time; ends hide under circles
            self._pen_cache[key] = pen
        return pen

    # --------------------------------------------------------------- hover

    def describe(self, item) -> str:
        """The numbers under the pointer: a weight and its gradient, or a neuron's bias."""
        if isinstance(item, EdgeItem):
            w = _value(self.weights, item.layer - 1, 0, item.row, item.col)
            g = _value(self.grads, item.layer - 1, 0, item.row, item.col)
            src = neuron_name(item.layer - 1, item.col, self.sizes)
            dst = neuron_name(item.layer, item.row, self.sizes)
            return f"weight {src} → {dst}:  w = {_fmt(w)},  gradient ∂loss/∂w = {_fmt(g)}"
        if isinstance(item, NeuronItem):
            name = neuron_name(item.layer, item.index, self.sizes)
            if item.layer == 0:
                return f"input {name}: the point's {'first' if item.index == 0 else 'second'} coordinate"
            b = _value(self.weights, item.layer - 1, 1, item.index)
            g = _value(self.grads, item.layer - 1, 1, item.index)
            role = "output (score; P(class 1) = σ(score))" if item.layer == len(self.sizes) - 1 else self.activation
            return f"neuron {name} [{role}]:  bias b = {_fmt(b)},  gradient ∂loss/∂b = {_fmt(g)}"
        return "Hover over a weight or a neuron to see its numbers."

    def _hover(self, item) -> None:
        self._hovered = item
        text = self.describe(item)
        if item is not None:
            item.setToolTip(text)
        self.info.setText(text)
        self.hovered.emit(text)


def _value(arrays, layer: int, which: int, *index) -> float:
    try:
        return float(np.asarray(arrays[layer][which])[index])
    except (IndexError, TypeError, ValueError):
        return math.nan


def _fmt(v: float) -> str:
    if not math.isfinite(v):
        return "—" if math.isnan(v) else str(v)
    return f"{v:+.4g}"
