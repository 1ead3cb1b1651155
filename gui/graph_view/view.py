"""A zoomable drawing of any computation graph from ``autograd_core.drawing.graph.to_networkx``: the view itself
(its scene, building the items in batches, layouts on a worker thread, groups, highlights, appearance).

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

Fit and zoom are in ``navigation``, the numbers and tooltips in ``numbers``, export in ``export``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from weakref import WeakMethod

import networkx as nx
from PySide6.QtCore import QObject, QRectF, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QCursor, QFont, QFontMetricsF, QPainter, QPen
from PySide6.QtWidgets import (
    QFrame,
    QGraphicsScene,
    QGraphicsView,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QToolButton,
    QWidget,
)

from autograd_core.drawing import LAYER_GAP, NODE_GAP, Drawing
from autograd_core.drawing.collapse import collapse_groups, groups_of
from autograd_core.drawing.fit import (
    DIRECTION_BOTH_NODES,
    NORMAL_FIT_MARGIN,
    PRESENTATION_FIT_MARGIN,
    PRESENTATION_GAPS,
    layout_for_view,
    view_scale,
)
from autograd_core.drawing.graph import GraphSnapshot, snapshot_of_graph
from autograd_core.numbers import format_number

from ..look.theme import diverging_color, graph_colors, palette
from .export import GraphExport
from .items import (
    BOX_PADDING,
    NAMES_MIN_POINTS,
    NO_CONTENTS,
    BoxFonts,
    BoxLayer,
    EdgeBundle,
    LazyEdges,
    NodeItem,
    TrunkItem,
    _Root,
    painter_path,
)
from .navigation import FitAndZoom
from .numbers import BoxNumbers
from .overlays import BusySign, Legend, OverviewMap
from .worker import paused_gc

LAYOUTS = {"layered": "Layered", "spring": "Spring", "kamada_kawai": "Kamada–Kawai"}
ASYNC_LAYOUT_NODES = 40  # above this, drawing is batched and antialiasing is off
SYNC_LAYOUT_NODES = 15  # a layered layout up to this size is computed at once; every other one on a worker thread

LARGE_GRAPH_NODES = 1500  # above this the view says so and offers to collapse groups
HUGE_GRAPH_NODES = 6000  # above this nothing is drawn until the user asks
KAMADA_KAWAI_MAX_NODES = 600  # O(n²) memory and time: refuse beyond this
BATCH = 100  # items per building task; one event-loop turn runs tasks for at most BATCH_MS
BATCH_MS = 15.0


class _LayoutSignals(QObject):
    """Carries a finished layout from the worker thread to the GUI thread (queued)."""

    done = Signal(int, object, str)  # generation, (Drawing, readable zoom) (None on failure), error text


_executor: ThreadPoolExecutor | None = None


def _layout_executor() -> ThreadPoolExecutor:
    # One worker: a newer graph's layout waits for the older one, whose result is then dropped (and one
    # already outdated when its turn comes is not run at all: ``_layout_job``'s ``current``).
    global _executor
    if _executor is None:
        _executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="graph-layout")
    return _executor


def _layout_job(
    generation: int, graph, method: str, sizes: dict, view: tuple, gaps, signals, reference, current
) -> None:
    """Lay ``graph`` out off the GUI thread, unless the view has moved on (``current``, a weak reference to its
    generation getter, gives a newer one or none): five quick edits during one long layout cost two layouts, not
    five.  (Weak: this thread must never hold the last reference to a widget.)"""
    getter = current()
    if getter is None or getter() != generation:
        _hand_back(signals, generation, None, "")  # (dropped by the view, as a finished outdated layout is)
        return
    try:
        with paused_gc():
            result = layout_for_view(graph, method, sizes, view, gaps, reference)
            _ = result[0].obstacles  # (cached on the drawing) here rather than in the GUI thread's first Fit
    except Exception as err:  # reported to the user by the view
        _hand_back(signals, generation, None, f"{type(err).__name__}: {err}")
        return
    _hand_back(signals, generation, result, "")


def _hand_back(signals: _LayoutSignals, *done) -> None:
    """Emit ``done`` to the view, unless the view (which owns ``signals``) was deleted meanwhile."""
    try:
        signals.done.emit(*done)
    except RuntimeError:  # its C++ object went with the view's, in the GUI thread
        pass


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


class GraphView(FitAndZoom, BoxNumbers, GraphExport, QGraphicsView):
    """Draws a networkx computation graph; zoom with the wheel, pan by dragging."""

    layout_started = Signal()
    drawn = Signal()  # every item of the current graph is in the scene
    message = Signal(str)
    message_superseded = Signal(str, str)  # (said, now): a message the view said is now this ("" withdraws it)
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
        # Owned by the view (deleted with it, in the GUI thread), though a layout job holds them till it ends.
        self._signals = _LayoutSignals(self)
        self._signals.done.connect(self._layout_done)
        self._reorient_signals = _LayoutSignals(self)
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
        self.busy_sign = BusySign(self.viewport())
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
        if plain != self._plain and not self._exporting:  # an export in bands keeps the boxes' own text
            self._set_plain(plain)

    def _set_plain(self, plain: bool) -> None:
        """Far out (``plain``) the box layer paints every box; closer in each box paints itself, with text."""
        self._plain = plain
        for item in self.nodes.values():
            item.setFlag(NO_CONTENTS, plain)
        if self._box_layer is not None:
            self._box_layer.setVisible(plain)

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
        self.busy_sign.restyle(self.colors.background, self.colors.text)
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
        job = (self._generation, graph, "layered", drawing.sizes, view, self.gaps, signals, reference)
        _layout_executor().submit(_layout_job, *job, WeakMethod(self._current_generation))  # off the GUI thread: ≤1 s

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
        self.busy_sign.stop()

    def _current_generation(self) -> int:
        """The graph's generation now (read from the layout thread: a plain Python attribute)."""
        return self._generation

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
            current = WeakMethod(self._current_generation)
            job = (_layout_job, generation, graph, method, sizes, view, self.gaps, self._signals, reference, current)
            self.busy_sign.start(n, method)
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
            self.busy_sign.stop()
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
        self.edges = LazyEdges(self, edges, self._root)
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
        """What the trunk of ``source`` paints (its TrunkItem's rectangle, measured the same way before the item
        is built: an edge's item can be made, for a highlight, while the graph is still being built)."""
        rect = self._trunk_rects.get(source)
        if rect is None:
            commands = self.drawing.trunks.get(source) if self.drawing is not None else None
            if not commands:
                return QRectF()
            rect = TrunkItem.bounds_of(painter_path(commands))
        return rect

    def _add_edges(self, chunk: list) -> None:
        bundle = EdgeBundle(self, chunk)  # (each edge's own item is made when first needed: LazyEdges)
        bundle.setParentItem(self._root)
        self._items_rect = self._items_rect.united(bundle.boundingRect())

    def _finish(self) -> None:
        self._batch_timer.stop()
        self.busy = False
        self.busy_sign.stop()
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
