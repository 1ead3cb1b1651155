"""The network as circles and lines: every weight an edge, colored by sign, as thick as it is large.

Items are built once per architecture and only restyled per frame.  Pens are
quantised (a few widths and alphas per sign) and cached, and an edge whose
style did not change is left alone, so a frame costs little even for a few
hundred weights.

Linked views: ``edge_mode`` colors edges by weight or by the gradient of the
last step; ``set_neuron_maps`` paints each hidden unit's output over the
plane inside its circle (hover enlarges it); ``set_dead`` grays out and
crosses ReLU units that are dead; a click on an edge (or a neuron: its bias)
emits ``parameter_picked`` for the loss slice.
"""

from __future__ import annotations

import math
import re
from contextlib import contextmanager

import numpy as np
from PySide6.QtCore import QPointF, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QFont, QImage, QPainter, QPen, QTransform
from PySide6.QtWidgets import (
    QComboBox,
    QGraphicsEllipseItem,
    QGraphicsLineItem,
    QGraphicsScene,
    QGraphicsView,
    QHBoxLayout,
    QLabel,
    QVBoxLayout,
    QWidget,
)

from autograd_core.language.naming import class_name, connection_name, parameter_name, unit_name
from autograd_core.numbers import counted, format_number

from ..look.theme import Palette, palette, plot_text_size
from .network_diagram_layout import (
    LABEL_GAP_PX,
    LAYER_GAP,
    MAX_ASPECT,
    MAX_LAYER_GAP,
    MIN_LAYER_GAP,
    NEURON_GAP,
    PICK_TOLERANCE_PX,
    DiagramGeometry,
    DiagramView,
)
from .network_items import (
    ALPHA_LEVELS,
    MAGNIFIED_PX,
    MAX_EDGE_WIDTH,
    RADIUS,
    WIDTH_LEVELS,
    EdgeItem,
    EdgePens,
    Magnifier,
    NeuronItem,
)
from .neuron_maps import describe_range, map_image, map_images

__all__ = [  # the items and geometry live beside this module; they stay importable from here
    "ALPHA_LEVELS",
    "DEAD_TEXT",
    "EDGE_MODES",
    "FAINT",
    "LABEL_GAP_PX",
    "LAYER_GAP",
    "MAGNIFIED_PX",
    "MAX_ASPECT",
    "MAX_EDGE_WIDTH",
    "MAX_LAYER_GAP",
    "MIN_LAYER_GAP",
    "NEURON_GAP",
    "PICK_TOLERANCE_PX",
    "RADIUS",
    "STRONGEST_INPUTS",
    "TITLES",
    "WIDTH_LEVELS",
    "EdgeItem",
    "Magnifier",
    "NetworkDiagram",
    "NeuronItem",
]

EDGE_MODES = ("weight", "gradient")
STRONGEST_INPUTS = 3  # weights into a neuron drawn in full; the others of a wide layer are drawn faint
FAINT = 0.05  # their strength cap (the faintest alpha and width)
DEAD_TEXT = "dead: outputs 0 for every training point, so it gets no gradient and cannot recover"
TITLES = {  # short: the header shares a row with the edge-mode combo, even at 1024 px in presentation mode
    "weight": "<b>Network</b>",
    "gradient": "<b>Network</b> (gradient)",
}


def edge_key(mode: str, pal: Palette) -> str:
    """What an edge's color and width mean in ``mode``, with the theme's words for the sign colors."""
    neg, pos = pal.sign_names
    if mode == "gradient":
        return f"edges: gradient ∂loss/∂w of the last step ({neg} −, {pos} +; thicker = larger |∂loss/∂w|)"
    return (
        f"edges: weight w ({neg} −, {pos} +; thicker = larger |w|, of its layer's largest; past a "
        f"neuron's {STRONGEST_INPUTS} largest inputs drawn faint: hover the neuron to see them all)"
    )


# The key under the diagram, per mode: what an edge's color and width stand for (the sign colors are not the
# class colors; this line says so where the edges are).
EDGE_LEGEND = {
    "weight": (("− weight", "+ weight"), "width: |w|"),
    "gradient": (("− gradient", "+ gradient"), "width: |∂loss/∂w|"),
}


class NetworkDiagram(QWidget):
    """Inputs, hidden neurons and output as circles; weights as edges; hover for numbers.

    Where the circles, edges and labels are is its ``geometry``'s (``DiagramGeometry``), which its ``view``
    (``DiagramView``) fits to the widget; the diagram styles them, picks and describes what is under the pointer.
    """

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._update_key()  # the key's hints come back (or go) with the room it has

    hovered = Signal(str)  # the text shown under the diagram
    parameter_picked = Signal(int, int, object)  # model layer (0-based), neuron, source input (None: the bias)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.scene = QGraphicsScene(self)
        # Every edge is restyled each frame (its bounding rect changes with its width): a BSP index would be
        # rebuilt each time; a few hundred items are found faster without one.
        self.scene.setItemIndexMethod(QGraphicsScene.ItemIndexMethod.NoIndex)
        self._hovered = None
        self.picked: tuple[int, int, int | None] | None = None  # (diagram layer, neuron, source or None)
        self.magnifier: Magnifier | None = None
        self.geometry = DiagramGeometry(self.scene, self._hover, self._neurons_moved)
        self.view = DiagramView(self.scene, self.geometry, self._clicked)
        self.view.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        self.view.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.view.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.colors = palette()
        self.view.setBackgroundBrush(QBrush(QColor(self.colors.plot_background)))
        self.view.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
        self.view.setViewportUpdateMode(QGraphicsView.ViewportUpdateMode.FullViewportUpdate)
        self.view.setOptimizationFlag(QGraphicsView.OptimizationFlag.DontSavePainterState, True)
        self.info = QLabel("Hover over a weight or a neuron to see its numbers.")
        self.info.setObjectName("hintLabel")
        self.info.setWordWrap(True)
        self.info.setMinimumHeight(self.info.fontMetrics().height() * 2 + 4)
        self.mode = QComboBox()
        self.mode.addItems(["Weights", "Gradients"])  # short: the header row is narrow at 1024 px
        self._mode_tip()
        self.mode.currentIndexChanged.connect(self._mode_changed)
        self.edge_mode = "weight"

        header = QHBoxLayout()
        self.title = QLabel(TITLES["weight"])  # its tooltip (the edge key) comes with _update_key
        self.title.setWordWrap(True)
        self.title.setMinimumWidth(80)
        self.key = QLabel()
        self.key.setObjectName("hintLabel")
        self.key.setWordWrap(True)
        header.addWidget(self.title, 1)
        header.addWidget(self.mode)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(header)
        layout.addWidget(self.view, 1)
        layout.addWidget(self.key)
        layout.addWidget(self.info)

        self.sizes: tuple[int, ...] = ()
        self.activation = ""
        self.activations: tuple[str, ...] = ()  # one per hidden layer
        self.weights: list = []
        self.grads: list = []
        self._pens = EdgePens(self.colors)
        self._font = QFont()
        self._font.setPointSizeF(plot_text_size(None, 1.1))
        self._font.setBold(True)
        self.geometry.set_label_style(self._font, QColor(self.colors.plot_text))
        self.maps: dict[tuple[int, int], np.ndarray] = {}  # (layer, index) → the unit's output over the plane
        self.map_images: dict[tuple[int, int], QImage] = {}
        self.dead: set[tuple[int, int]] = set()
        self._pick_items: list = []
        self._update_key()

    # The geometry's, read here by the rest of the app: the circles per layer, the edges (in ``edge_item``'s
    # order), the layers' labels and the distance between layers.

    @property
    def neurons(self) -> list[list[NeuronItem]]:
        return self.geometry.neurons

    @property
    def edges(self) -> list[EdgeItem]:
        return self.geometry.edges

    @property
    def layer_labels(self) -> list:
        return self.geometry.layer_labels

    @property
    def layer_gap(self) -> float:
        return self.geometry.layer_gap

    def label_margins(self) -> tuple[float, float]:
        """Pixels left and right of the circles for the input names and 'score' (they ignore the zoom)."""
        return self.geometry.label_margins()

    def layer_activation(self, layer: int) -> str:
        """The activation of hidden layer ``layer`` (1 = the first)."""
        if 1 <= layer <= len(self.activations):
            return self.activations[layer - 1]
        return self.activation

    # ------------------------------------------------------------- building

    input_labels: tuple[str, ...] = ()  # the inputs' names when not x1, x2 (regression's x, typed features)
    class_names: list[str] | None = None  # the data's names for its classes and coordinates (hover text)
    feature_names: list[str] | None = None

    def set_data_names(self, class_names=None, feature_names=None) -> None:
        """The data's own names (iris: setosa …, PC1, PC2): the hover names the inputs and outputs by them; the
        nodes keep x1, x2 (the labels stay short beside the inputs)."""
        self.class_names = list(class_names) if class_names else None
        self.feature_names = list(feature_names) if feature_names else None
        if self._hovered is not None:
            self._hover(self._hovered)

    def set_input_labels(self, labels) -> None:
        """Name the input nodes (``x`` for regression, a feature's expression); () gives x1, x2 …."""
        labels = tuple(labels)
        if labels == self.input_labels:
            return
        self.input_labels = labels
        if self.sizes:
            sizes, activations = self.sizes, self.activations
            self.sizes = ()  # rebuild with the new labels
            self.set_architecture(sizes, activations)

    def set_architecture(self, sizes: tuple[int, ...], activation: str | tuple | list = "") -> None:
        """Rebuild the items for layer sizes (inputs, hidden…, outputs); ``activation`` is one name for every
        hidden layer or one per hidden layer."""
        sizes = tuple(int(s) for s in sizes)
        if isinstance(activation, tuple | list):
            activations = tuple(activation)
            activation = activations[0] if activations and len(set(activations)) == 1 else "/".join(activations)
        else:
            activations = (activation,) * max(0, len(sizes) - 2)
        if sizes == self.sizes and activation == self.activation and activations == self.activations:
            return
        self.sizes, self.activation, self.activations = sizes, activation, activations
        self._hovered = None
        self.scene.clear()
        self.maps, self.map_images, self.dead, self.picked, self._pick_items = {}, {}, set(), None, []
        self.magnifier = Magnifier()
        self.scene.addItem(self.magnifier)
        geometry = self.geometry
        geometry.build(sizes)
        last = len(sizes) - 1
        for layer, column in enumerate(geometry.neurons):
            for item in column:
                self._style_neuron(item, layer, last)
        geometry.add_labels(self.input_labels, self.layer_activation)
        geometry.neurons_moved()
        self._update_key()
        self.view.fit()
        if self.weights:
            self._restyle()

    @contextmanager
    def fitting_once(self):
        """Resizes and restyles inside fit the network to the view once, after: a mode switch moves the
        splitters around the diagram several times, and each fit lays out every edge again.  The fit waits for
        the next turn of the event loop (or paint), with the resizes Qt's layouts make after ours."""
        view = self.view
        view.held += 1
        try:
            yield
        finally:
            view.held -= 1
            if not view.held and view.missed:
                view.missed = False
                view.fit_soon()

    def apply_palette(self, pal: Palette, presentation: bool | None = None) -> None:
        """The theme's colors and the mode's label size (labels ≥ 1.5× in presentation mode).  Edges and maps are
        drawn again only for new colors: a mode switch changes sizes alone (a 3 × 32 network's 2,200 pens and 96
        maps cost a tenth of a second)."""
        recolored = pal != self.colors
        self.colors = pal
        if recolored:
            self._pens = EdgePens(pal)
        self.view.setBackgroundBrush(QBrush(QColor(pal.plot_background)))
        self._font = QFont(self._font)
        self._font.setPointSizeF(plot_text_size(presentation, 1.1))
        last = len(self.neurons) - 1
        for layer, column in enumerate(self.neurons):
            for item in column:
                self._style_neuron(item, layer, last)
                if item.dead_mark is not None:
                    pen = item.dead_mark.pen()
                    pen.setColor(QColor(pal.error))
                    item.dead_mark.setPen(pen)
        self.geometry.set_label_style(self._font, QColor(pal.plot_text))
        if self.magnifier is not None:
            self.magnifier.apply_palette(pal, presentation)
        if recolored:
            for edge in self.edges:
                edge.style_key = None
            self._restyle()
            if self.maps:
                self.set_neuron_maps_again()
        self._update_key()
        if self.picked is not None:
            self.pick(*self.picked, emit=False)
        self.view.fit_soon()

    def _style_neuron(self, item: NeuronItem, layer: int, last: int) -> None:
        pal = self.colors
        if layer == 0:
            fill, border = QColor(pal.input_fill), QColor(pal.neuron_border)
        elif layer == last:
            fill, border = QColor(pal.output_fill), QColor(pal.output_border)
        else:
            fill, border = QColor(pal.neuron_fill), QColor(pal.neuron_border)
        item.set_fill(QBrush(fill))
        pen = QPen(border, 2.0)
        pen.setCosmetic(True)
        item.setPen(pen)

    def edge_item(self, layer: int, row: int, col: int) -> EdgeItem:
        """The edge from neuron ``col`` of ``layer - 1`` to neuron ``row`` of ``layer`` (``edges`` is in that order)."""
        before = sum(self.sizes[k - 1] * self.sizes[k] for k in range(1, layer))
        return self.edges[before + row * self.sizes[layer - 1] + col]

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

    map_extent: tuple[float, float, float, float] | None = None  # the plane the maps are over (x0, x1, y0, y1)
    map_points: tuple | None = None  # (X, y): the training points the enlarged map shows

    def set_neuron_maps(self, maps: list[np.ndarray], extent=None, points=None) -> None:
        """Each hidden layer's unit maps, (units, n, n) arrays as ``unit_maps`` gives them, painted in the circles;
        ``extent`` and ``points`` (X, y) let the enlarged map say what plane it is over and show the data on it."""
        if extent is not None:
            self.map_extent, self.map_points = tuple(float(v) for v in extent), points
        for li, layer_maps in enumerate(maps):
            layer = li + 1
            if layer >= len(self.neurons) - 1 or len(layer_maps) != len(self.neurons[layer]):
                return  # a stale picture of another architecture
            images = map_images(layer_maps, self.layer_activation(layer), round_mask=True, pal=self.colors)
            for j, (values, image) in enumerate(zip(layer_maps, images)):
                self.maps[(layer, j)] = values
                self.map_images[(layer, j)] = image
                self.set_neuron_image(layer, j, image)
        if self._hovered is not None:
            self._hover(self._hovered)

    def set_neuron_maps_again(self) -> None:
        """Repaint the maps shown (new theme colors) from the values kept."""
        layers = len(self.neurons) - 2
        maps = []
        for layer in range(1, layers + 1):
            if not all((layer, j) in self.maps for j in range(len(self.neurons[layer]))):
                return
            maps.append(np.array([self.maps[(layer, j)] for j in range(len(self.neurons[layer]))]))
        self.set_neuron_maps(maps)

    def set_dead(self, units) -> None:
        """Mark hidden units ``(diagram layer, index)`` as dead ReLUs (all others alive)."""
        dead = {(int(a), int(b)) for a, b in units}
        if dead == self.dead:
            return
        self.dead = dead
        for layer, column in enumerate(self.neurons[1:-1], start=1):
            for item in column:
                item.set_dead((layer, item.index) in dead)
        self._update_key()

    def _mode_changed(self, index: int) -> None:
        self.edge_mode = EDGE_MODES[index]
        self.title.setText(TITLES[self.edge_mode])
        self._restyle()
        self._update_key()

    def edge_legend(self) -> str:
        """The key of the edges in this mode: a stroke in each sign color with its meaning, and what width shows."""
        (negative, positive), width = EDGE_LEGEND[self.edge_mode]
        neg, pos = self.colors.sign_colors
        return (
            f"<span style='color:{neg}'><b>━━</b></span> {negative}  "
            f"<span style='color:{pos}'><b>━━</b></span> {positive}  ·  {width}"
        )

    def _update_key(self) -> None:
        parts = [self.edge_legend()]
        if self.dead:
            parts.append(
                f"<span style='color:{self.colors.error}'><b>✕</b></span> {counted(len(self.dead), 'dead ReLU unit')}"
            )
        hints = (["circles: unit outputs"] if len(self.sizes) > 2 else []) + ["click an edge: loss slice"]
        text = " · ".join(parts + hints)
        plain = re.sub(r"<[^>]+>", "", text)
        if self.key.fontMetrics().horizontalAdvance(plain) > 2 * max(1, self.key.width()):
            text = " · ".join(parts)  # a narrow area (presentation at 1024 px): the hints live in the tooltip
        if text != self.key.text():
            self.key.setText(text)
        zero, peak = ("dark", "light") if self.colors.name == "dark" else ("white", "dark")
        neg, pos = self.colors.sign_names
        maps = (
            f"Circles: each hidden unit's output over the input plane ({zero} 0 → {peak} high; hover to enlarge)"
            if self.activation in ("relu", "sigmoid")
            else f"Circles: each hidden unit's output over the plane ({neg} −, {zero} 0, {pos} +; hover to enlarge)"
        )
        self.key.setToolTip(
            f"{edge_key(self.edge_mode, self.colors).capitalize()}.<br>{maps}.<br>Click an edge for its loss slice."
        )
        self.title.setToolTip(edge_key(self.edge_mode, self.colors))
        self._mode_tip()

    def _mode_tip(self) -> None:
        neg, pos = self.colors.sign_names
        self.mode.setToolTip(
            f"Color and thickness of every edge: the weight itself ({neg} negative, {pos} positive), "
            "or its current gradient ∂loss/∂w"
        )

    # --------------------------------------------------------------- picking

    def _clicked(self, pos: QPointF, tolerance: float) -> bool:
        """A click at scene ``pos``: pick the neuron under it (its bias) or the nearest edge within ``tolerance``."""
        for item in self.scene.items(pos):
            if isinstance(item, NeuronItem):
                if item.layer == 0:
                    return False
                self.pick(item.layer, item.index, None)
                return True
        ends = self.geometry.edge_ends
        if not len(ends):
            return False
        a, b = ends[:, :2], ends[:, 2:]
        p = np.array([pos.x(), pos.y()])
        ab = b - a
        t = np.clip(np.einsum("ij,ij->i", p - a, ab) / np.maximum(np.einsum("ij,ij->i", ab, ab), 1e-12), 0.0, 1.0)
        distance = np.linalg.norm(a + t[:, None] * ab - p, axis=1)
        best = int(np.argmin(distance))
        if distance[best] > tolerance:
            return False
        edge = self.edges[best]
        self.pick(edge.layer, edge.row, edge.col)
        return True

    def pick(self, layer: int, index: int, source: int | None, emit: bool = True) -> None:
        """Highlight weight ``source → index`` of diagram ``layer`` (or the neuron's bias when source is None)."""
        for item in self._pick_items:
            self.scene.removeItem(item)
        self._pick_items = []
        self.picked = (layer, index, source)
        selection = QColor(self.colors.selection)
        selection.setAlpha(150)
        pen = QPen(selection, 9.0)
        pen.setCosmetic(True)
        pen.setCapStyle(Qt.PenCapStyle.RoundCap)
        target = self.neurons[layer][index]
        if source is None:
            ring = QGraphicsEllipseItem(target.rect().adjusted(-4, -4, 4, 4))
            ring.setPen(pen)
            ring.setZValue(9)
            self._pick_items.append(ring)
        else:
            halo = QGraphicsLineItem(self.edge_item(layer, index, source).line())
            halo.setPen(pen)
            halo.setZValue(9)
            self._pick_items.append(halo)
        for item in self._pick_items:
            item.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
            self.scene.addItem(item)
        if emit:
            self.parameter_picked.emit(layer - 1, index, source)

    def clear_pick(self) -> None:
        for item in self._pick_items:
            self.scene.removeItem(item)
        self._pick_items, self.picked = [], None

    def _edge_values(self) -> list[np.ndarray]:
        source = self.grads if self.edge_mode == "gradient" else self.weights
        return [np.asarray(W, dtype=float) for W, _b in source]

    def _restyle(self) -> None:
        values = self._edge_values()
        if len(values) != len(self.sizes) - 1 or not self.edges or sum(v.size for v in values) != len(self.edges):
            return  # (weights of the network before, until the new one's arrive)
        finite = [np.abs(v[np.isfinite(v)]) for v in values]
        peaks = [float(f.max()) if f.size else 0.0 for f in finite]
        if self.edge_mode == "weight":
            # Weights by their layer's largest: a 16 × 16 layer (smaller weights, fan-in 16) reads as well as
            # the first; gradients share one scale, so a vanishing gradient still shows as faint early layers.
            scales = np.concatenate([np.full(v.size, p) for v, p in zip(values, peaks)])
        else:
            scales = np.full(sum(v.size for v in values), max(peaks, default=0.0))
        # One vectorised pass for every edge's (sign, width level, alpha level), in the same order as self.edges.
        flat = np.concatenate([v.ravel() for v in values])
        flat = np.where(np.isfinite(flat), flat, 0.0)
        strength = np.divide(np.abs(flat), scales, out=np.zeros_like(flat), where=scales > 0)
        # At step 0 most weights are middling, and drawn in proportion a 16 × 16 layer was a hairball: weak
        # edges fade (squared), and past the STRONGEST_INPUTS largest into each neuron they are drawn faintest
        # (hover still gives every number).
        strength = strength**2
        if self.edge_mode == "weight":
            capped = np.minimum(strength, np.concatenate([_faint_beyond_strongest(v) for v in values]))
            strength = np.where(self._revealed(), strength, capped)  # a hovered neuron's own edges all in full
        width_level = np.minimum(WIDTH_LEVELS - 1, (strength * WIDTH_LEVELS).astype(int))
        alpha_level = np.minimum(ALPHA_LEVELS - 1, (strength * ALPHA_LEVELS).astype(int))
        sign = flat >= 0
        for edge, s, w, a in zip(self.edges, sign.tolist(), width_level.tolist(), alpha_level.tolist()):
            key = (s, w, a)
            if key != edge.style_key:
                edge.style_key = key
                edge.setPen(self._pens.pen(key))
                edge.setZValue(w)  # strong edges on top of faint ones

    # --------------------------------------------------------------- hover

    def describe(self, item) -> str:
        """The numbers under the pointer: a weight and its gradient, or a neuron's bias."""
        if isinstance(item, EdgeItem):
            w = _value(self.weights, item.layer - 1, 0, item.row, item.col)
            g = _value(self.grads, item.layer - 1, 0, item.row, item.col)
            name = parameter_name(item.layer, item.row, item.col)
            edge = connection_name(item.layer, item.row, item.col)
            w, g = format_number(w, signed=True), format_number(g, signed=True)
            return f"weight {name} ({edge}):  w = {w},  gradient ∂loss/∂w = {g}"
        if isinstance(item, NeuronItem):
            name = unit_name(item.layer, item.index)
            if item.layer == 0:
                if item.index >= 2 or len(self.input_labels) == 1:  # a typed feature (x1*x2), regression's x
                    label = self.input_labels[item.index] if item.index < len(self.input_labels) else name
                    return f"input {label}" + (": a feature computed from x1 and x2" if item.index >= 2 else "")
                feature = self.feature_names[item.index] if self.feature_names else None
                what = f" ({feature})" if feature else ""
                return f"input {name}{what}: the point's {'first' if item.index == 0 else 'second'} coordinate"
            b = _value(self.weights, item.layer - 1, 1, item.index)
            g = _value(self.grads, item.layer - 1, 1, item.index)
            if item.layer == len(self.sizes) - 1:
                role = (
                    f"output (score; P({class_name(1, self.class_names)}) = σ(score))"
                    if self.sizes[-1] == 1
                    else f"output: the score of {class_name(item.index, self.class_names)} (P = softmax of the scores)"
                )
            else:
                role = self.layer_activation(item.layer)
            b, g = format_number(b, signed=True), format_number(g, signed=True)
            text = f"neuron {name} [{role}]:  bias b = {b},  gradient ∂loss/∂b = {g}"
            if (item.layer, item.index) in self.dead:
                text += f".  ✕ {DEAD_TEXT}"
            return text
        return "Hover over a weight or a neuron to see its numbers."

    def _revealed(self) -> np.ndarray:
        """Per edge, True when it goes into or out of the hovered neuron (drawn by its own strength, not faint)."""
        item = self._hovered
        if not isinstance(item, NeuronItem) or not self.edges:
            return np.zeros(len(self.edges), dtype=bool)
        ends = np.array([(e.layer, e.row, e.col) for e in self.edges])
        into = (ends[:, 0] == item.layer) & (ends[:, 1] == item.index)
        out = (ends[:, 0] == item.layer + 1) & (ends[:, 2] == item.index)
        return into | out

    def _neurons_moved(self) -> None:
        """The pick and the magnifier follow the neurons' new places (the geometry moved them)."""
        if self.picked is not None:
            self.pick(*self.picked, emit=False)
        if self._hovered is not None:
            self._magnify(self._hovered if isinstance(self._hovered, NeuronItem) else None)

    def _hover(self, item) -> None:
        neuron_changed = item is not self._hovered and NeuronItem in (type(item), type(self._hovered))
        self._hovered = item
        if neuron_changed and self.edge_mode == "weight":
            self._restyle()
        text = self.describe(item)
        if item is not None:
            item.setToolTip(text)
        self.info.setText(text)
        self.hovered.emit(text)
        self._magnify(item if isinstance(item, NeuronItem) else None)

    def _magnify(self, item: NeuronItem | None) -> None:
        """Show the hovered unit's map enlarged beside it, kept inside the view."""
        magnifier = self.magnifier
        if magnifier is None:
            return
        key = None if item is None else (item.layer, item.index)
        if key not in self.map_images:
            magnifier.hide()
            return
        name = unit_name(item.layer, item.index)
        activation = self.layer_activation(item.layer)
        title = f"{name} ({activation}) output" + ("  ✕ dead" if key in self.dead else "")
        values = self.maps[key]
        image = map_image(values, activation, self.colors)
        magnifier.show_map(title, describe_range(values, activation), image, self.map_extent, self.map_points)
        center = item.rect().center()
        p = self.view.mapFromScene(center)
        r_px = item.rect().width() / 2 * self.view.transform().m11()
        w, h = magnifier.rect().width(), magnifier.rect().height()
        vw, vh = self.view.viewport().width(), self.view.viewport().height()
        dx = r_px + 10 if p.x() + r_px + 10 + w <= vw else -(r_px + 10 + w)
        dy = min(max(-h / 2, 2 - p.y()), vh - 2 - h - p.y())
        magnifier.setPos(center)
        magnifier.setTransform(QTransform.fromTranslate(dx, dy))


def _faint_beyond_strongest(W: np.ndarray) -> np.ndarray:
    """Per weight of ``W`` (rows: the neurons fed), 1 for the STRONGEST_INPUTS largest |w| into each neuron and
    FAINT for the rest (a strength cap), flattened as ``W.ravel()``; a neuron with few inputs keeps all."""
    W = np.where(np.isfinite(W), np.abs(W), 0.0)
    if W.ndim != 2 or W.shape[1] <= 2 * STRONGEST_INPUTS:
        return np.ones(W.size)
    rank = np.argsort(np.argsort(-W, axis=1, kind="stable"), axis=1)
    return np.where(rank < STRONGEST_INPUTS, 1.0, FAINT).ravel()


def _value(arrays, layer: int, which: int, *index) -> float:
    try:
        return float(np.asarray(arrays[layer][which])[index])
    except (IndexError, TypeError, ValueError):
        return math.nan
