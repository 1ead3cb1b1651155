"""A zoomable drawing of any computation graph from ``autograd_core.drawing.graph.to_networkx``: the view itself,
a small widget composed of the parts that do the work.

Reusable on purpose: the expression playground shows an expression here, and a
network's sample graph can be shown with its neuron groups collapsed.  The view
knows nothing of how the graph was made; it reads node attributes (``label, op,
data, grad, kind, group``) and edge attributes (``local, formula, index``).

Its parts, each given what it needs when it is made (no part reads another's private state):
``Appearance`` (theme, fonts, shared pens), ``LayoutRunner`` (layouts, on a worker thread when slow),
``ItemBuilder`` (the scene's items, built in batches; box numbers; highlights), ``Navigator`` (Fit, zoom,
where the overlays sit) and ``Exporter`` (PNG, SVG).  What a box says is ``autograd_core.graph_numbers``.

Speed: each node is one custom item painted directly (no child text items);
text is skipped when zoomed out, and further out one ``BoxLayer`` paints every
box (a ``drawRects`` per color) while the boxes keep answering the mouse; a
value change repaints only the boxes whose numbers can be read and changed, or
whose color changed; layouts of large graphs are computed on a worker thread;
items are added in batches so the window never freezes, and an edge's painter
paths are built only when it is highlighted (bundles paint plain edges).
"""

from __future__ import annotations

from dataclasses import replace

import networkx as nx
from PySide6.QtCore import QPointF, QRectF, Qt, QTimer, Signal
from PySide6.QtGui import QCursor, QPainter
from PySide6.QtWidgets import (
    QGraphicsScene,
    QGraphicsView,
    QLabel,
    QToolButton,
    QWidget,
)

from autograd_core.drawing.collapse import collapse_groups, groups_of
from autograd_core.drawing.fit import DIRECTION_BOTH_NODES, view_scale
from autograd_core.drawing.graph import GraphSnapshot, snapshot_of_graph
from autograd_core.graph_numbers import grad_of, tooltip_html, value_of

from ..look.theme import palette
from .appearance import Appearance
from .builder import ItemBuilder, node_width
from .export import Exporter
from .items import NAMES_MIN_POINTS, NUMBERS_MIN_POINTS, NodeItem
from .layout_runner import LayoutRunner
from .navigation import Navigator
from .overlays import BusySign, LargeGraphBanner, Legend, OverviewMap

LAYOUTS = {"layered": "Layered", "spring": "Spring", "kamada_kawai": "Kamada–Kawai"}
ASYNC_LAYOUT_NODES = 40  # above this, drawing is batched and antialiasing is off

LARGE_GRAPH_NODES = 1500  # above this the view says so and offers to collapse groups
HUGE_GRAPH_NODES = 6000  # above this nothing is drawn until the user asks
KAMADA_KAWAI_MAX_NODES = 600  # O(n²) memory and time: refuse beyond this


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


def _part(part: str, name: str, settable: bool = False) -> property:
    """A ``GraphView`` attribute that one of its parts keeps (read there, and written there when ``settable``)."""

    def get(self):
        return getattr(getattr(self, part), name)

    def put(self, value) -> None:
        setattr(getattr(self, part), name, value)

    return property(get, put if settable else None, doc=f"``{part}.{name}``")


class GraphView(QGraphicsView):
    """Draws a networkx computation graph; zoom with the wheel, pan by dragging."""

    layout_started = Signal()
    drawn = Signal()  # every item of the current graph is in the scene
    message = Signal(str)
    message_superseded = Signal(str, str)  # (said, now): a message the view said is now this ("" withdraws it)
    groups_changed = Signal()

    # What its parts keep, read here by the rest of the app: the look, the drawn items, where the view looks.
    theme = _part("look", "theme")
    colors = _part("look", "colors")
    font_scale = _part("look", "font_scale")
    line_width = _part("look", "line_width")
    presentation = _part("look", "presentation")
    title_font = _part("look", "title_font")
    body_font = _part("look", "body_font")
    name_font = _part("look", "name_font")
    node_height = _part("look", "node_height")
    fit_margin = _part("look", "fit_margin")
    gaps = _part("look", "gaps")
    nodes = _part("builder", "nodes")
    edges = _part("builder", "edges")
    positions = _part("builder", "positions")
    drawing = _part("builder", "drawing")
    busy = _part("builder", "busy")
    highlight_nodes = _part("builder", "highlight_nodes")
    highlight_edges = _part("builder", "highlight_edges")
    current_node = _part("builder", "current_node")
    auto_fit = _part("navigator", "auto_fit", settable=True)  # keep fitting on resize until the user zooms
    fit_whole = _part("navigator", "fit_whole", settable=True)  # View ▸ Whole graph
    fit_is_partial = _part("navigator", "fit_is_partial", settable=True)
    fit_said = _part("navigator", "fit_said", settable=True)
    # Fit keeps text readable for graphs of up to this many boxes; a bigger one is fitted whole.  A view whose
    # boxes are what it teaches (the sample graph, expanded) keeps text readable at any size.
    readable_fit_boxes = _part("navigator", "readable_fit_boxes", settable=True)

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
        self.look = Appearance("light")
        self.method = "layered"
        self.base_graph: nx.MultiDiGraph | None = None
        self.graph: nx.MultiDiGraph | None = None  # what is drawn (groups may be collapsed)
        self.collapsed: set[str] = set()
        self._drawn_version = -1  # structure_version of the GraphState last drawn (show_state)
        self.snapshot: GraphSnapshot | None = None  # the numbers drawn: never live Tensors
        self.grad_scale = 0.0
        self.force_huge = False
        self._highlight_request: tuple = (set(), set(), None)  # as asked, before mapping onto group boxes
        self.dimmed = False
        self.layouts = LayoutRunner(self, self._layout_done, self._reoriented)
        self.builder = ItemBuilder(
            self.scene(), self, self.look, self.tooltip_for, self.toggle_group_of, self._grad_name, self._finished
        )
        self._reorient_timer = QTimer(self)
        self._reorient_timer.setSingleShot(True)
        self._reorient_timer.setInterval(200)
        self._reorient_timer.timeout.connect(self._reorient)
        self.legend = Legend(self.viewport(), self.look, self)
        self.overview = OverviewMap(self, self.look, self.builder, self._go_to)
        self.busy_sign = BusySign(self.viewport())
        self.error_label = QLabel(self.viewport())  # why the graph is dimmed (set_dimmed)
        self.error_label.setObjectName("graphOverlay")
        self.error_label.setWordWrap(True)
        self.error_label.hide()
        self.banner = LargeGraphBanner(self, self.collapse_all, self._draw_anyway)
        self.banner_label, self.collapse_button = self.banner.label, self.banner.collapse_button
        self.draw_anyway_button = self.banner.draw_anyway_button
        overlays = (self.legend, self.overview, self.error_label, self.banner)
        say, supersede = self.message.emit, self.message_superseded.emit
        self.navigator = Navigator(self, self.look, self.builder, self, overlays, say, supersede)
        self.exporter = Exporter(self, self.look, self.builder, self.legend, self._drawn_stamp, say)
        self._apply_background()

    # ---- appearance

    def edge_pen(self, highlighted: bool):
        """The pen of every edge (built once per look, not once per edge and repaint)."""
        return self.look.edge_pen(highlighted)

    def fill_for(self, shade: int | None):
        """A box's fill for a gradient of color strength ``shade``/128 (None: no gradient)."""
        return self.look.fill_for(shade)

    def set_theme(self, theme: str) -> None:
        self.look.set_theme(theme)
        self._apply_background()
        self.builder.restyled()
        self.overview.invalidate()
        self.scene().update()
        self.legend.update()

    def drawBackground(self, painter: QPainter, rect: QRectF) -> None:
        # Every repaint of the view starts here: the moment to choose who paints the boxes at this zoom.
        super().drawBackground(painter, rect)
        plain = self.transform().m11() * self.look.name_points < NAMES_MIN_POINTS
        if plain != self.builder.plain and not self.exporter.exporting:  # (an export in bands keeps box text)
            self.builder.set_plain(plain)

    def set_presentation(self, on: bool) -> None:
        """Bigger text and thicker lines for a projector."""
        self.look.set_presentation(on)
        self.navigator.place_overlays()
        if self.base_graph is not None:
            self._rebuild(relayout=True)

    def _apply_background(self) -> None:
        colors = self.look.colors
        self.setBackgroundBrush(colors.background)
        self.busy_sign.restyle(colors.background, colors.text)
        self.error_label.setStyleSheet(
            f"background: {colors.background.name()}; color: {colors.text.name()};"
            f"border: 1px solid {palette(self.look.theme).error}; border-radius: 4px; padding: 6px;"
        )

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self.navigator.place_overlays()
        if self.navigator.auto_fit and not self.builder.busy:
            self.fit()
            self._reorient_timer.start()

    def scrollContentsBy(self, dx: int, dy: int) -> None:
        # QWidget.scroll moves the viewport's child widgets too: put the legend and messages back
        super().scrollContentsBy(dx, dy)
        self.navigator.place_overlays()

    def _reorient(self) -> None:
        """After a resize, turn (LR ⇄ TB) or fold a small layered graph again if that shows it clearly larger."""
        drawing, graph = self.builder.drawing, self.graph
        if not self.navigator.auto_fit or self.builder.busy or drawing is None or graph is None:
            return
        if drawing.direction not in ("LR", "TB") or graph.number_of_nodes() > DIRECTION_BOTH_NODES:
            return
        view = self.view_shape()
        reference = self.navigator.normal_reference(graph, view)
        self.layouts.reorient(graph, drawing.sizes, view, self.look.gaps, reference)

    def _reoriented(self, generation: int, result: tuple | None, error: str) -> None:
        self.layouts.reorient_pending = False
        drawing, navigator = self.builder.drawing, self.navigator
        if generation != self.layouts.generation or result is None or drawing is None:
            return
        if self.builder.busy or not navigator.auto_fit:
            return
        other, floor = result
        view = self.view_shape()
        # presentation mode's readable zoom depends on the view's size (not in normal mode, nor for Whole graph)
        moved = self.look.presentation and not navigator.fit_whole and abs(floor - navigator.fit_floor) > 0.02 * floor
        if view_scale(other, view) > 1.05 * view_scale(drawing, view) or moved:
            self._rebuild(relayout=True)

    @property
    def settled(self) -> bool:
        """No layout is being computed or due (a resize looks for a better layout 200 ms later)."""
        return not self.builder.busy and not self._reorient_timer.isActive() and not self.layouts.reorient_pending

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
            self.navigator.fit_is_partial = False
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
        if same_shape and not self.builder.busy:
            if graph is not self.base_graph:
                self.base_graph = graph
                self.graph = collapse_groups(graph, self.collapsed & set(groups_of(graph)))
            self.refresh_values(previous)
            return
        new_structure = graph is not self.base_graph
        if new_structure:
            self.navigator.fit_whole = False  # Whole graph was asked for the graph on screen; a new one opens readable
        self.base_graph = graph
        groups = set(groups_of(graph))
        self.collapsed &= groups
        if collapsed is None and new_structure and graph.graph.get("overview"):
            self.collapsed = groups  # a big expression: start from its overview
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
        self.builder.root.setOpacity(0.3 if dimmed else 1.0)
        self.error_label.setText(message)
        self.error_label.setVisible(bool(dimmed and message))
        self.navigator.place_overlays()

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
        moved_on = current != self.builder.current_node
        self.builder.mark_highlight(nodes, edges, current)
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
        self.layouts.new_generation()
        self.builder.clear()
        self.overview.invalidate()
        self.busy_sign.stop()

    def _drawn_stamp(self) -> tuple:
        """Which graph is drawn: a layout's generation and the state's structure (a banded export checks it)."""
        return self.layouts.generation, self._drawn_version

    def relayout(self) -> None:
        """Lay the graph out again (Fit asked for the whole graph, or for a readable part, of a layered one)."""
        self._rebuild(relayout=True)

    def _rebuild_soon(self) -> None:
        """Rebuild once the current event is handled (a new big graph: the state's other observers go first,
        so no single event keeps the window busy for all of them)."""
        self._clear()
        self.builder.busy = True
        generation = self.layouts.generation
        QTimer.singleShot(0, self, lambda: generation == self.layouts.generation and self._rebuild(relayout=True))

    def _rebuild(self, relayout: bool) -> None:
        self._clear()
        graph = collapse_groups(self.base_graph, self.collapsed)
        self.graph = graph
        n = graph.number_of_nodes()
        groups = self.groups()
        if n > LARGE_GRAPH_NODES:
            held_back = n > HUGE_GRAPH_NODES and not self.force_huge
            text = self.banner.tell(n, collapsible=bool(groups) and not self.collapsed, held_back=held_back)
            self.navigator.place_overlays()
            self.message.emit(text)
            if held_back:
                return
        else:
            self.banner.hide()
        method = self.method
        if method == "kamada_kawai" and n > KAMADA_KAWAI_MAX_NODES:
            self.message.emit(f"Kamada–Kawai is too slow for {n} nodes; using the layered layout.")
            method = "layered"
        self.builder.busy = True
        self.builder.root.setVisible(False)  # no repaint of a half-built graph between batches
        large = n > ASYNC_LAYOUT_NODES
        self.setRenderHint(QPainter.RenderHint.Antialiasing, not large)
        self.layout_started.emit()
        box, height, snapshot = self.look.box_fonts, self.look.node_height, self.snapshot
        sizes = {node: (node_width(box, attrs, node, snapshot), height) for node, attrs in graph.nodes(data=True)}
        view = self.view_shape()
        reference = self.navigator.normal_reference(graph, view)
        if self.layouts.lay_out(graph, method, sizes, view, self.look.gaps, reference):
            self.busy_sign.start(n, method)  # (said if the worker thread takes long)

    def _layout_done(self, generation: int, result: tuple | None, error: str) -> None:
        if generation != self.layouts.generation or self.graph is None:
            return  # a newer graph replaced this one while the layout ran
        if error or result is None:
            self.builder.busy = False
            self.busy_sign.stop()
            self.builder.root.setVisible(True)
            self.message.emit(f"Layout failed: {error}")
            return
        drawing, self.navigator.fit_floor = result
        self.builder.start(self.graph, drawing)

    def _finished(self) -> None:
        """Every item is in: numbers, highlight and Fit."""
        self.busy_sign.stop()
        rect = self.graph_rect().adjusted(-40, -40, 40, 40)
        self.scene().setSceneRect(rect)
        self.refresh_values()
        self.set_highlight(*self._highlight_request)
        self.fit()
        self.drawn.emit()

    def trunk_rect(self, source) -> QRectF:
        """What the trunk of ``source`` paints (see ``ItemBuilder.trunk_rect``)."""
        return self.builder.trunk_rect(source)

    # ---- numbers

    def _grad_name(self) -> str:
        return self.snapshot.grad_name if self.snapshot is not None else "grad"

    def grad_of(self, node, attrs: dict) -> float | None:
        return grad_of(self.snapshot, node, attrs)

    def value_of(self, node, attrs: dict) -> float | None:
        return value_of(self.snapshot, node, attrs)

    def refresh_values(self, previous: GraphSnapshot | None = None) -> None:
        """Give each box its numbers from the snapshot; repaint only what shows a change (``ItemBuilder``),
        and the legend when the gradient scale changed."""
        if self.graph is None or self.snapshot is None:
            return
        look = self.look
        shown = not self.builder.plain and self.transform().m11() * look.body_font.pointSizeF() >= NUMBERS_MIN_POINTS
        scale, looks_changed = self.builder.refresh_numbers(self.snapshot, previous, self.grad_scale, shown)
        rescaled = scale != self.grad_scale
        self.grad_scale = scale
        if looks_changed:
            self.overview.invalidate()
        if rescaled or previous is None:
            self.legend.update()

    def tooltip_for(self, node) -> str:
        """Full-precision value and gradient, and the local derivative of each incoming edge."""
        return tooltip_html(self.graph, self.base_graph, self.snapshot, node)

    # ---- where the view looks (the navigator's)

    def graph_rect(self) -> QRectF:
        """The drawn graph's extent in the scene (boxes, edges and arrowheads); measured once per build."""
        return self.builder.graph_rect()

    def view_shape(self) -> tuple:
        return self.navigator.view_shape()

    def fit_placement(self, rect: QRectF | None = None) -> tuple[float, QPointF]:
        return self.navigator.fit_placement(rect)

    def readable_scale(self) -> float:
        return self.navigator.readable_scale()

    def fit_zoom(self) -> float:
        return self.navigator.fit_zoom()

    def show_whole(self) -> None:
        self.navigator.show_whole()

    def fit(self, whole: bool | None = None) -> None:
        self.navigator.fit(whole)

    def boxes_off_screen(self) -> int:
        return self.navigator.boxes_off_screen()

    def partial_fit_message(self) -> str:
        return self.navigator.partial_fit_message()

    def focus_box(self) -> QRectF | None:
        return self.navigator.focus_box()

    def follow_current(self) -> None:
        self.navigator.follow_current()

    def fitted_text_points(self) -> float:
        return self.navigator.fitted_text_points()

    def zoom(self, factor: float) -> None:
        self.navigator.zoom(factor)

    def zoom_in(self) -> None:
        self.navigator.zoom_in()

    def zoom_out(self) -> None:
        self.navigator.zoom_out()

    def _go_to(self, target: QPointF) -> None:
        """Center on scene point ``target`` (a click in the overview map): the user has moved the view."""
        self.navigator.auto_fit = False
        self.centerOn(target)

    # ---- export (the exporter's)

    def render_image(self, scale: float = 2.0):
        return self.exporter.render_image(scale)

    def export_png(self, path: str, background: bool = False) -> None:
        self.exporter.export_png(path, background)

    def export_svg(self, path: str) -> None:
        self.exporter.export_svg(path)

    def export(self, path: str, background: bool = False) -> None:
        """PNG or SVG by the file's extension (``background``: see ``Exporter.export_png``)."""
        self.exporter.export(path, background)

    # ---- input

    def mousePressEvent(self, event) -> None:
        self.navigator.auto_fit = False  # the user is panning: leave the view where they put it
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
        if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_Space) and not self.builder.busy:
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
