"""Putting a laid-out graph into the scene: the boxes, trunks and edge bundles, added in batches so the window
never freezes; the numbers each box shows, repainting only what shows a change; and which boxes and edges are
highlighted.  The graph view owns one ``ItemBuilder`` and hands it each drawing its layouts give."""

from __future__ import annotations

import math
import time
from collections.abc import Callable

from PySide6.QtCore import QObject, QRectF, QTimer
from PySide6.QtWidgets import QGraphicsScene

from autograd_core.drawing import Drawing
from autograd_core.drawing.graph import GraphSnapshot
from autograd_core.graph_numbers import box_lines, box_title, grad_of, value_of

from .appearance import Appearance, BoxFonts
from .items import BOX_PADDING, NO_CONTENTS, BoxLayer, EdgeBundle, LazyEdges, NodeItem, TrunkItem, _Root, painter_path

BATCH = 100  # items per building task; one event-loop turn runs tasks for at most BATCH_MS
BATCH_MS = 15.0


def node_width(box: BoxFonts, attrs: dict, node=None, snapshot: GraphSnapshot | None = None) -> float:
    """A box's width in ``box``'s fonts: its title and, when they are longer than usual ones, its numbers as
    ``snapshot`` has them."""
    title = box_title(attrs)
    width = box.widths.get(title)  # titles repeat (+, *, tanh): measured once per font
    if width is None:
        text = max(box.title_metrics.horizontalAdvance(title), box.value_width)
        width = box.widths[title] = text + BOX_PADDING  # (at least a usual number's width: boxes line up)
    if node is not None and snapshot is not None:
        usual = len(box.VALUE_SAMPLE)
        value, grad = value_of(snapshot, node, attrs), grad_of(snapshot, node, attrs)
        for text in box_lines(attrs.get("kind", "op"), value, grad, snapshot.grad_name):
            if len(text) > usual:
                width = max(width, box.body_metrics.horizontalAdvance(text) + BOX_PADDING)
    return width


class ItemBuilder:
    """The items of the drawn graph, and the ``ItemHost`` they ask for their look and text.

    ``scene`` receives the items (under one root, so that clearing or dimming the graph is one call);
    ``context`` owns the batch timer; ``tooltip_for``, ``toggle_group`` and ``grad_name`` answer the items'
    hover, double-click and gradient line; ``finished`` is called once every item of a drawing is in."""

    def __init__(
        self,
        scene: QGraphicsScene,
        context: QObject,
        look: Appearance,
        tooltip_for: Callable[[object], str],
        toggle_group: Callable[[object], None],
        grad_name: Callable[[], str],
        finished: Callable[[], None],
    ):
        self.scene, self.context, self.look = scene, context, look
        # (the items call these two straight, the hover's and each repainted box's text: no hop through a method)
        self.tooltip_for, self.grad_name = tooltip_for, grad_name
        self._toggle_group, self._finished = toggle_group, finished
        self.nodes: dict = {}
        self.edges: dict = {}
        self.positions: dict = {}
        self.drawing: Drawing | None = None  # boxes and routed edges of what is drawn
        self.trunk_rects: dict = {}
        self.plain = False  # zoomed so far out that the box layer paints every box
        self.box_layer: BoxLayer | None = None
        self.busy = False  # a layout is being computed or its items added
        self.highlight_nodes: set = set()
        self.highlight_edges: set = set()
        self.current_node = None
        self._items_rect = QRectF()
        self._graph_rect: QRectF | None = None
        self.root = _Root()
        scene.addItem(self.root)
        self.pending: list[Callable[[], None]] = []
        self.batch_timer = QTimer(context)
        self.batch_timer.setInterval(0)
        self.batch_timer.timeout.connect(self.run_batch)

    # ---- what the items ask (ItemHost)

    def toggle_group_soon(self, node) -> None:
        """Open or close ``node``'s group once the current event is handled (a double-click on its box: the
        rebuild deletes that box, which must not happen inside its own event)."""
        toggle = self._toggle_group
        QTimer.singleShot(0, self.context, lambda: toggle(node))

    def trunk_rect(self, source) -> QRectF:
        """What the trunk of ``source`` paints (its TrunkItem's rectangle, measured the same way before the item
        is built: an edge's item can be made, for a highlight, while the graph is still being built)."""
        rect = self.trunk_rects.get(source)
        if rect is None:
            commands = self.drawing.trunks.get(source) if self.drawing is not None else None
            if not commands:
                return QRectF()
            rect = TrunkItem.bounds_of(painter_path(commands))
        return rect

    # ---- building

    def clear(self) -> None:
        """Every item out, and any building still to come dropped."""
        self.batch_timer.stop()
        self.pending.clear()
        # One call takes every item out: a fresh parent replaces the old one (removing items one by one
        # from Python cost ~30 ms for a 2,000-node graph).
        old, self.root = self.root, _Root()
        self.root.setOpacity(old.opacity())
        self.root.setVisible(old.isVisible())
        self.scene.removeItem(old)
        self.scene.addItem(self.root)
        self.nodes, self.edges, self.positions = {}, {}, {}
        self.box_layer = None
        self._items_rect = QRectF()  # what the edges and trunks built so far cover
        self.drawing = None
        self._graph_rect = None
        self.highlight_nodes, self.highlight_edges = set(), set()
        self.busy = False

    def start(self, graph, drawing: Drawing) -> None:
        """Add ``drawing``'s items for ``graph``: at once when few, else in batches between event-loop turns."""
        self.drawing = drawing
        self.positions = dict(drawing.centers)
        nodes = list(graph.nodes)
        pending = self.pending
        for start in range(0, len(nodes), BATCH):
            pending.append(lambda chunk=nodes[start : start + BATCH]: self._add_nodes(graph, chunk))
        # neighbors together, so that each EdgeBundle covers a small part of the scene
        centers = drawing.centers
        edges = sorted(graph.edges(keys=True), key=lambda e: (centers[e[0]][0], centers[e[0]][1]))
        self.edges = LazyEdges(self, edges, self.root)
        pending.append(self._add_trunks)
        for start in range(0, len(edges), BATCH):
            pending.append(lambda chunk=edges[start : start + BATCH]: self._add_edges(chunk))
        pending.append(self._finish)
        if len(nodes) + len(edges) <= BATCH:
            while pending:
                pending.pop(0)()
        else:
            self.batch_timer.start()

    def run_batch(self) -> None:
        """Run building tasks for about ``BATCH_MS``, then let the event loop breathe."""
        end = time.perf_counter() + BATCH_MS / 1000.0
        while self.pending:
            self.pending.pop(0)()
            if time.perf_counter() > end:
                return
        self.batch_timer.stop()

    def _add_nodes(self, graph, chunk: list) -> None:
        drawing, root = self.drawing, self.root
        for node in chunk:
            width, height = drawing.sizes[node]
            item = NodeItem(self, node, graph.nodes[node], width, height)
            x, y = drawing.centers[node]
            item.setPos(x, y)
            item.setParentItem(root)
            self.nodes[node] = item

    def _add_trunks(self) -> None:
        self.trunk_rects = {}
        for source, commands in self.drawing.trunks.items():
            item = TrunkItem(self.look, commands)
            item.setParentItem(self.root)
            self.trunk_rects[source] = item.boundingRect()
            self._items_rect = self._items_rect.united(self.trunk_rects[source])

    def _add_edges(self, chunk: list) -> None:
        bundle = EdgeBundle(self, chunk)  # (each edge's own item is made when first needed: LazyEdges)
        bundle.setParentItem(self.root)
        self._items_rect = self._items_rect.united(bundle.boundingRect())

    def _finish(self) -> None:
        self.batch_timer.stop()
        self.busy = False
        self.box_layer = BoxLayer(self.look, list(self.nodes.values()))
        self.box_layer.setVisible(self.plain)
        self.box_layer.setParentItem(self.root)
        self.root.setVisible(True)
        # the root's childrenBoundingRect, from the rectangles the items already know (asking 4,000 Python
        # items for their boundingRect took 15-50 ms)
        self._graph_rect = self._items_rect.united(self.box_layer.boundingRect())
        self._finished()

    def graph_rect(self) -> QRectF:
        """The drawn graph's extent in the scene (boxes, edges and arrowheads); measured once per build."""
        if self._graph_rect is None:
            self._graph_rect = self.root.childrenBoundingRect()
        return QRectF(self._graph_rect)

    # ---- how the boxes look

    def set_plain(self, plain: bool) -> None:
        """Far out (``plain``) the box layer paints every box; closer in each box paints itself, with text."""
        self.plain = plain
        for item in self.nodes.values():
            item.setFlag(NO_CONTENTS, plain)
        if self.box_layer is not None:
            self.box_layer.setVisible(plain)

    def restyled(self) -> None:
        """The theme changed: the box layer groups its boxes by their new pens and fills."""
        if self.box_layer is not None:
            self.box_layer.mark_dirty()

    def refresh_numbers(
        self, snap: GraphSnapshot, previous: GraphSnapshot | None, old_scale: float, numbers_shown: bool
    ) -> tuple[float, bool]:
        """Give each box its numbers from ``snap``; repaint only what shows a change.  Returns the gradient
        color scale (the largest finite |grad|) and whether some box's look changed.

        A box whose numbers changed is repainted when its numbers can be read at this zoom (``numbers_shown``);
        otherwise only if its color or border changed.  Zoomed far out, the box layer paints every box: it is
        repainted once, and only if some box's look changed.
        """
        scale = 0.0
        for g in snap.grads:
            if g is not None and (g > scale or -g > scale) and math.isfinite(g):
                scale = abs(g)
        rescaled = scale != old_scale
        same = previous is not None and previous.graph is snap.graph and previous.grad_name == snap.grad_name
        plain = self.plain
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
        if looks_changed and self.box_layer is not None:
            self.box_layer.mark_dirty()
        return scale, looks_changed

    def mark_highlight(self, nodes: set, edges: set, current) -> None:
        """Mark drawn ``nodes`` and ``edges`` (``current``: the step's own box) and unmark the others."""
        had_highlight = bool(self.highlight_nodes)
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
        if self.box_layer is not None and (self.highlight_nodes or had_highlight):
            self.box_layer.mark_dirty()  # borders changed
