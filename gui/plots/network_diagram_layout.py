"""Where the network diagram's circles and labels go: the layer gap that fits the view's shape, inputs and
outputs spaced so their fixed-size labels never touch, and the view that keeps the whole network in sight."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from PySide6.QtCore import QEvent, QLineF, QPointF, QRectF, Qt, QTimer
from PySide6.QtGui import QBrush, QColor, QFont, QTransform
from PySide6.QtWidgets import QGraphicsScene, QGraphicsSimpleTextItem, QGraphicsView

from autograd_core.language.naming import input_name

from .network_items import RADIUS, EdgeItem, HoverReport, NeuronItem

LAYER_GAP = 220.0  # the gap a diagram is built with; fit() then stretches it to the view's shape
MIN_LAYER_GAP, MAX_LAYER_GAP = 160.0, 800.0  # a tall view keeps layers apart, a very wide one does not draw threads
MAX_ASPECT = 2.7  # nor is a network stretched wider than this × its height (unless LAYER_GAP already makes it so)
NEURON_GAP = 46.0
LABEL_GAP_PX = 4.0  # the input and output labels (a fixed size in pixels) keep at least this far apart
PICK_TOLERANCE_PX = 6.0  # a click this close to an edge picks it


class DiagramView(QGraphicsView):
    """Keeps the whole network in view when the widget is resized: the geometry it is given places the layers
    and labels for the view's shape, and a left click goes to ``clicked`` (scene point, tolerance in scene units;
    True when it picked something)."""

    held = 0  # inside NetworkDiagram.fitting_once: resizes wait for one fit at the end
    missed = False
    margin_px = (64, 34)  # room for the labels, which keep their size in pixels whatever the zoom

    def __init__(self, scene, geometry: DiagramGeometry, clicked: Callable[[QPointF, float], bool]):
        super().__init__(scene)
        self.geometry, self.clicked = geometry, clicked
        # One fit per turn of the event loop: a dock shown or a window resized resizes the view several times in
        # one turn (layout, then each splitter), and every fit moves each edge.  The fit waits for a 0 ms timer
        # or the window's next paint, whichever comes first (see eventFilter): no frame shows it unfitted.
        self._fit_timer = QTimer(self)
        self._fit_timer.setSingleShot(True)
        self._fit_timer.setInterval(0)
        self._fit_timer.timeout.connect(self._fit_due)
        self._painted_window = None

    def resizeEvent(self, event):
        super().resizeEvent(event)
        self.fit_soon()

    def showEvent(self, event):
        super().showEvent(event)
        window = self.window()
        if window is not self and window is not self._painted_window:
            if self._painted_window is not None:
                self._painted_window.removeEventFilter(self)
            window.installEventFilter(self)
            self._painted_window = window

    def eventFilter(self, watched, event):
        if event.type() == QEvent.Type.UpdateRequest and self._fit_timer.isActive():
            self.fit()  # before the window paints: what it moves is painted in this same pass
        return super().eventFilter(watched, event)

    def fit_soon(self):
        if self.held:
            self.missed = True
        elif not self._fit_timer.isActive():
            self._fit_timer.start()

    def _fit_due(self):
        self.fit()

    def fit_pending(self) -> None:
        """A fit asked for and not done yet, now (before a picture of the view is taken)."""
        if self._fit_timer.isActive():
            self.fit()

    def mousePressEvent(self, event):
        if event.button() == Qt.MouseButton.LeftButton:
            scale = max(self.transform().m11(), 1e-6)
            if self.clicked(self.mapToScene(event.position().toPoint()), PICK_TOLERANCE_PX / scale):
                event.accept()
                return
        super().mousePressEvent(event)

    def fit(self):
        # the input and output labels keep their size in pixels: spaced for the zoom, they never touch; set in
        # two columns they need more room beside the network, and the network is fitted again (at most once a side)
        self._fit_timer.stop()
        self.geometry.start_fit()
        for _ in range(4):
            if not self._fit_once():
                break

    def _fit_once(self) -> bool:
        """Fit the network; True when its labels then asked for other margins."""
        items = [i for i in self.scene().items() if isinstance(i, NeuronItem)] if self.scene() else []
        if not items:
            return False
        geometry = self.geometry
        left, right = geometry.label_margins()
        top = self.margin_px[1]
        # The network's height is fixed, its width is not: stretch the layers to the view's shape first.
        geometry.fit_to_aspect(self.viewport().width() - left - right, self.viewport().height() - 2 * top)
        rect = items[0].sceneBoundingRect()
        for item in items[1:]:
            rect = rect.united(item.sceneBoundingRect())
        # The scale that leaves the pixel margins free, then those margins in scene units.
        width_px, height_px = self.viewport().width() - left - right, self.viewport().height() - 2 * top
        scale = min(width_px / max(rect.width(), 1e-6), height_px / max(rect.height(), 1e-6))
        if scale <= 0:  # a view too small for the margins: fit the circles alone
            self.fitInView(rect, Qt.AspectRatioMode.KeepAspectRatio)
            scale = max(self.transform().m11(), 1e-6)
        shown = rect.adjusted(-left / scale, -top / scale, right / scale, top / scale)
        self.setSceneRect(shown)  # the scene's own rect only grows: an old, wider layout would be centered instead
        self.fitInView(shown, Qt.AspectRatioMode.KeepAspectRatio)
        geometry.fit_layer_labels(geometry.layer_gap * self.transform().m11())
        return geometry.space_labels(self.transform().m11())


class DiagramGeometry:
    """Where the network diagram's circles, edges and labels are: it builds them into ``scene`` for an
    architecture, spaces the layers for the view's shape and the labels for its zoom, and moves every edge and
    label after its neurons.  ``hover`` goes to each item built (which item the pointer is over); ``moved`` is
    called after neurons moved (the diagram puts its pick and magnifier back over them)."""

    def __init__(self, scene: QGraphicsScene, hover: HoverReport, moved: Callable[[], None]):
        self.scene, self.hover, self.moved = scene, hover, moved
        self.layer_gap = LAYER_GAP  # scene units between layers; fit() adapts it to the view's aspect ratio
        self.neurons: list[list[NeuronItem]] = []
        self.edges: list[EdgeItem] = []
        self.label_anchors: list[tuple[QGraphicsSimpleTextItem, NeuronItem, str]] = []
        self.label_floor: dict[str, tuple[int, int]] = {}  # side → (label columns, every n-th label) this fit
        self.layer_labels: list[QGraphicsSimpleTextItem] = []  # "16 relu" over/under each hidden layer
        self.edge_ends = np.zeros((0, 4))  # each edge's (x1, y1, x2, y2), for picking the nearest
        self.tallest, self.neuron_gap = 1, NEURON_GAP  # the tallest layer's size and its neurons' spacing
        self.font = QFont()
        self.text_color = QColor()

    def build(self, sizes: tuple[int, ...]) -> None:
        """The neurons and edges of layer sizes (inputs, hidden…, outputs), into the (cleared) scene; the edges
        get their ends when the labels are added (``add_labels``)."""
        self.neurons, self.edges, self.label_anchors, self.layer_labels = [], [], [], []
        self.layer_gap = LAYER_GAP
        tallest = max(sizes) if sizes else 1
        gap = NEURON_GAP * min(1.0, 16 / tallest)  # wide layers are squeezed to the height of 16 neurons
        self.tallest, self.neuron_gap = tallest, gap
        radius = min(RADIUS, 0.42 * gap)  # big enough to read the unit maps inside
        for layer, n in enumerate(sizes):
            x = layer * LAYER_GAP
            column = []
            # a narrow layer (the two inputs) is spread over the middle of the tallest one: its labels, a fixed
            # size in pixels, never overlap however small the view
            spread = gap if n >= tallest else max(gap, (tallest - 1) * gap / (n + 1))
            for j in range(n):
                y = (j - (n - 1) / 2) * spread
                column.append(NeuronItem(self.hover, layer, j, QPointF(x, y), radius))
            self.neurons.append(column)
        for layer in range(1, len(sizes)):
            for row in range(sizes[layer]):
                for col in range(sizes[layer - 1]):
                    edge = EdgeItem(self.hover, layer, row, col, QLineF())  # (its ends: neurons_moved)
                    self.scene.addItem(edge)
                    self.edges.append(edge)
        for column in self.neurons:
            for item in column:
                self.scene.addItem(item)

    def start_fit(self) -> None:
        """A new fit: its labels may take fewer columns again (``space_labels`` only adds within one fit)."""
        self.label_floor = {}

    def label_margins(self) -> tuple[float, float]:
        """Pixels left and right of the circles for the input names and 'score' (they ignore the zoom)."""
        widths = {"left": 0.0, "right": 0.0}
        for label, _item, side in self.label_anchors:
            if side in widths:
                widths[side] = max(widths[side], label.boundingRect().width() + abs(label.data(2) or 0.0))
        return widths["left"] + 14, widths["right"] + 14

    def fit_to_aspect(self, width_px: float, height_px: float) -> None:
        """Pick the layer gap that makes the network as wide as ``width_px`` when its height fills ``height_px``.

        Circles stay round (the view scales uniformly); only the distance between layers changes.
        """
        if len(self.neurons) < 2 or width_px <= 0 or height_px <= 0:
            return
        first = self.neurons[0][0].rect()
        radius = first.width() / 2
        top = min(column[0].rect().top() for column in self.neurons)
        bottom = max(column[-1].rect().bottom() for column in self.neurons)
        height = max(bottom - top, 1e-6)
        spans = len(self.neurons) - 1
        gap = (width_px * height / height_px - 2 * radius) / spans
        widest = max(LAYER_GAP, min(MAX_LAYER_GAP, (MAX_ASPECT * height - 2 * radius) / spans))
        self.place_layers(min(widest, max(MIN_LAYER_GAP, gap)))

    def place_layers(self, gap: float) -> None:
        """Move the layers ``gap`` apart, and everything placed from neuron centers with them (no rebuild: maps,
        dead marks and the picked weight stay)."""
        if abs(gap - self.layer_gap) < 0.5:
            return
        self.layer_gap = gap
        for layer, column in enumerate(self.neurons):
            for item in column:
                item.move_to(QPointF(layer * gap, item.rect().center().y()))
        self.neurons_moved()

    def space_labels(self, scale: float) -> bool:
        """Space the inputs and the outputs so that their labels, a fixed size in pixels, keep LABEL_GAP_PX
        apart at the zoom ``scale``: a narrow layer spreads towards the height of the tallest one; where that is
        not enough (a very short view, a layer as tall as the tallest) its labels alternate between two columns,
        and where even that is not enough only every second (third …) label is shown (the hover names every
        node).  A fit's repeated calls only ever add columns or thin labels out (``label_floor``), so they
        settle.  True when the room the labels take beside the network changed."""
        if len(self.neurons) < 2 or scale <= 0:
            return False
        moved, widened = False, False
        tallest, gap = self.tallest, self.neuron_gap
        for layer, side in ((0, "left"), (len(self.neurons) - 1, "right")):
            column = self.neurons[layer]
            labels = [(column.index(item), label) for label, item, where in self.label_anchors if where == side]
            n = len(column)
            if n < 2 or not labels:
                continue
            height = max(label.boundingRect().height() for _j, label in labels) + LABEL_GAP_PX
            spread = gap if n >= tallest else max(gap, (tallest - 1) * gap / (n + 1))
            widest = gap if n >= tallest else (tallest - 1) * gap / (n - 1)  # as tall as the tallest layer
            spread = min(widest, max(spread, height / scale))
            if abs(column[1].rect().center().y() - column[0].rect().center().y() - spread) > 0.5:
                for j, item in enumerate(column):
                    item.move_to(QPointF(item.rect().center().x(), (j - (n - 1) / 2) * spread))
                moved = True
            pitch = spread * scale  # pixels between neighboring neurons
            columns = 1 if pitch >= height - 1e-6 else 2
            every = 1
            while columns * every * pitch < height - 1e-6 and every < n:
                every += 1
            least_columns, least_every = self.label_floor.get(side, (1, 1))
            columns, every = max(columns, least_columns), max(every, least_every)
            self.label_floor[side] = (columns, every)
            stride = max(label.boundingRect().width() for _j, label in labels) + 2 * LABEL_GAP_PX
            for j, label in labels:
                label.setVisible(j % every == 0)
                shift = ((j // every) % columns) * stride * (-1 if side == "left" else 1)
                if (label.data(2) or 0.0) != shift:
                    label.setData(2, shift)
                    _place(label)
                    widened = True
        if moved:
            self.neurons_moved()
        return widened

    def neurons_moved(self) -> None:
        """Edges and labels follow the neurons' new places (then whoever placed things over them: ``moved``)."""
        # (each neuron's center read once: a 3 × 32 network has 2,200 edges, and each fit moves them all)
        centers = [[(c.x(), c.y()) for c in (n.rect().center() for n in column)] for column in self.neurons]
        ends = np.empty((len(self.edges), 4))
        for k, edge in enumerate(self.edges):
            (x1, y1), (x2, y2) = centers[edge.layer - 1][edge.col], centers[edge.layer][edge.row]
            edge.setLine(x1, y1, x2, y2)
            ends[k] = (x1, y1, x2, y2)
        self.edge_ends = ends
        for label, item, side in self.label_anchors:
            label.setPos(_anchor(item.rect(), side))
        self.moved()

    def set_label_style(self, font: QFont, color: QColor) -> None:
        """The labels' font (its size follows the mode) and color (the theme's), for those built later too."""
        self.font, self.text_color = font, color
        for label, _item, _side in self.label_anchors:
            label.setFont(font)
            label.setBrush(QBrush(color))
            _place(label)

    def _label(self, text: str, anchor: QPointF, align: str) -> QGraphicsSimpleTextItem:
        """Text at a fixed size in pixels (it ignores the zoom), placed left of, right of, above or below ``anchor``."""
        item = QGraphicsSimpleTextItem(text)
        item.setFont(self.font)
        item.setBrush(QBrush(self.text_color))
        item.setFlag(QGraphicsSimpleTextItem.GraphicsItemFlag.ItemIgnoresTransformations)
        item.setData(0, align)
        item.setPos(anchor)
        _place(item)
        item.setZValue(20)
        self.scene.addItem(item)
        return item

    def fit_layer_labels(self, layer_gap_px: float) -> None:
        """Drop the activation from the hidden layers' labels when neighbors (two layers apart) would touch."""
        for item in self.layer_labels:
            full = item.data(1)
            item.setText(full)
            if item.boundingRect().width() > 2 * layer_gap_px - 8:
                item.setText(full.split(" ")[0])
            _place(item)

    def add_labels(self, input_labels: tuple[str, ...], activation_of: Callable[[int], str]) -> None:
        """The inputs' names (``input_labels``, else x1, x2 …), the outputs' and each hidden layer's size and
        activation (``activation_of(layer)``)."""
        last = len(self.neurons) - 1
        for j, item in enumerate(self.neurons[0] if self.neurons else []):
            text = input_labels[j] if j < len(input_labels) else input_name(j)
            label = self._label(text, _anchor(item.rect(), "left"), "left")
            self.label_anchors.append((label, item, "left"))
        if len(self.neurons) > 1:
            outputs = self.neurons[last]
            names = ["score"] if len(outputs) == 1 else [f"score{k + 1}" for k in range(len(outputs))]
            for item, name in zip(outputs, names):
                self.label_anchors.append((self._label(name, _anchor(item.rect(), "right"), "right"), item, "right"))
        # Labels keep their size in pixels while the layers come closer as the view shrinks (a 1280×720
        # projector): alternate above/below so neighboring layers' labels never run into each other.
        self.layer_labels = []
        for layer in range(1, last):
            column = self.neurons[layer]
            activation = activation_of(layer)
            text = f"{len(column)} {activation}".strip()
            item, align = (column[0], "above") if layer % 2 else (column[-1], "below")
            label = self._label(text, _anchor(item.rect(), align), align)
            self.label_anchors.append((label, item, align))
            label.setData(1, text)
            label.setToolTip(f"{text}: {len(column)} neurons, activation {activation or 'none'}")
            self.layer_labels.append(label)


def _anchor(rect: QRectF, side: str) -> QPointF:
    """The point of a neuron's circle that a label on ``side`` of it hangs from."""
    return {
        "left": QPointF(rect.left(), rect.center().y()),
        "right": QPointF(rect.right(), rect.center().y()),
        "above": QPointF(rect.center().x(), rect.top()),
        "below": QPointF(rect.center().x(), rect.bottom()),
    }[side]


def _place(item: QGraphicsSimpleTextItem) -> None:
    """Offset a zoom-independent label (in pixels) to the side of its anchor that ``data(0)`` names."""
    w, h = item.boundingRect().width(), item.boundingRect().height()
    offsets = {"left": (-w - 6, -h / 2), "right": (6, -h / 2), "above": (-w / 2, -h - 4), "below": (-w / 2, 4)}
    dx, dy = offsets[item.data(0)]
    dx += item.data(2) or 0.0  # a second (third …) column of labels beside a layer too short for one
    item.setTransform(QTransform.fromTranslate(dx, dy))  # pixels: transformations are ignored
