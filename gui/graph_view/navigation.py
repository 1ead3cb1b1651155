"""Where the graph view looks: Fit (readable text, the legend's corner kept clear), zoom, following the current
step, and where the legend, overview map and messages sit over the viewport.

The arithmetic (what scale fits, which corner is clear) is ``autograd_core.drawing.fit``'s; this applies it to
the viewport."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

import networkx as nx
from PySide6.QtCore import QPointF, QRect, QRectF, QSizeF
from PySide6.QtGui import QTransform
from PySide6.QtWidgets import QFrame, QGraphicsView, QLabel

from autograd_core.drawing import LAYER_GAP, NODE_GAP, clear_of_corner, fit_in_view
from autograd_core.drawing.fit import (
    MAX_FIT_SCALE,
    NORMAL_FIT_MARGIN,
    READABLE_FIT_MAX_BOXES,
    READABLE_POINTS,
    output_node,
    padded_obstacles,
    window_start,
)
from autograd_core.drawing.graph import GraphSnapshot

from ..look.theme import presentation_on
from .appearance import Appearance
from .builder import ItemBuilder, node_width
from .overlays import OVERVIEW_WIDTH, Legend, OverviewMap


class FitHost(Protocol):
    """What Fit asks of the view beyond its widget and items: the graph drawn with its numbers, its layout
    method, the current step, whether a layout is under way, and a new layout of the same graph."""

    graph: nx.MultiDiGraph | None
    snapshot: GraphSnapshot | None
    method: str
    busy: bool
    current_node: object

    def relayout(self) -> None: ...


class Navigator:
    """Fit, zoom and overlay placement of one graph view.

    ``view`` is the widget it moves (scale, center, scene rectangle), ``builder`` has the drawn items, ``host``
    the rest (``FitHost``); ``legend``, ``overview``, ``error_label`` and ``banner`` are the widgets over the
    viewport it places; ``say`` and ``supersede`` report Fit's message and its later corrections."""

    def __init__(
        self,
        view: QGraphicsView,
        look: Appearance,
        builder: ItemBuilder,
        host: FitHost,
        overlays: tuple[Legend, OverviewMap, QLabel, QFrame],
        say: Callable[[str], None],
        supersede: Callable[[str, str], None],
    ):
        self.view, self.look, self.builder, self.host = view, look, builder, host
        self.legend, self.overview, self.error_label, self.banner = overlays
        self.say, self.supersede = say, supersede
        # the last "Fit keeps the graph's text readable…" message said and still true ("" when none)
        self.fit_said = ""
        self.auto_fit = True  # keep fitting on resize until the user zooms by hand
        self.fit_whole = False  # Fit shows the whole graph even below readable text (View ▸ Whole graph)
        self.fit_is_partial = False  # the last Fit kept the text readable and left part of the graph off screen
        self.fit_floor = 0.0  # the zoom Fit keeps text readable at, from the last layout (see layout_for_view)
        # window size → viewport size at normal mode's last Fit in a window that size: presentation mode's
        # reference (the panels around the view take other widths in presentation mode, so its view may be
        # much smaller)
        self.normal_viewports: dict[tuple, tuple] = {}

    def place_overview(self) -> None:
        """The overview map sits beside the legend, bottom left, while part of the graph is off screen."""
        vp = self.view.viewport().rect()
        rect = self.builder.graph_rect()
        shown = self.view.mapToScene(vp).boundingRect()
        off_screen = bool(self.builder.nodes) and not shown.adjusted(-2, -2, 2, 2).contains(rect)
        if not off_screen or not self._room_for_map():
            self.overview.hide()
        else:
            self.overview.setGeometry(self._overview_geometry())
            self.overview.show()
            self.overview.update()
        self._recheck_fit_message()

    def _recheck_fit_message(self) -> None:
        """Fit's message counts the boxes off screen: every move of the view (a resize, Fit, a new graph, the
        lesson dock closing) tells it again with the new count, or withdraws it once none is, or once the
        user has zoomed or dragged away from what Fit showed."""
        said = self.fit_said
        if not said or self.host.busy:  # (a graph being drawn is judged once it is: its last Fit comes here too)
            return
        now = self.partial_fit_message() if self.auto_fit and self.fit_is_partial and self.boxes_off_screen() else ""
        if now != said:
            self.fit_said = now
            self.supersede(said, now)

    def _room_for_map(self) -> bool:
        """Whether the viewport is big enough to show the overview map at all."""
        vp = self.view.viewport().rect()
        return vp.width() >= 300 and vp.height() >= 200

    def _overview_geometry(self) -> QRect:
        """Where the overview map goes: the graph's shape, no taller than the legend (or 100 px), right of
        the legend, or above it when the view is too narrow for both side by side."""
        vp = self.view.viewport().rect()
        rect = self.builder.graph_rect()
        m = Legend.MARGIN
        aspect = max(rect.width(), 1.0) / max(rect.height(), 1.0)
        legend = self.legend.geometry() if self.legend.isVisibleTo(self.view) else QRect(0, vp.height(), 0, 0)
        tallest = legend.height() or 100
        beside = vp.width() - (legend.right() + 1 + m) - m
        widest = min(OVERVIEW_WIDTH, vp.width() // 4) if beside < 60 else min(OVERVIEW_WIDTH, beside)
        width = int(min(max(tallest * aspect, 60), widest))  # boxes only: no text to grow with the mode
        height = int(min(max(width / aspect, 40), tallest))
        if beside < 60:
            return QRect(m, legend.top() - m - height, width, height)
        return QRect(legend.right() + 1 + m if legend.width() else m, vp.height() - m - height, width, height)

    def normal_reference(self, graph, view: tuple) -> tuple | None:
        """What normal mode would lay out in this view, for presentation_floor: in presentation mode, for a
        graph Fit keeps readable (else None)."""
        if not self.look.presentation or self.fit_whole or graph.number_of_nodes() > READABLE_FIT_MAX_BOXES:
            return None
        box = self.look.normal_box_fonts
        sizes = {
            node: (node_width(box, attrs, node, self.host.snapshot), box.node_height)
            for node, attrs in graph.nodes(data=True)
        }
        width, height, corner_w, corner_h = view[:4]
        seen = self.normal_viewports.get(self.view.window().size().toTuple())
        if seen is not None:  # normal mode's view in a window of this size was that size
            width, height = seen
        # normal mode's legend: its text 1/font_scale as large; its padding is not, so this is a little small,
        # which makes normal mode's zoom a little large: the floor errs on the side of larger text
        corner = (corner_w / self.look.font_scale, corner_h / self.look.font_scale)
        readable = READABLE_POINTS / box.body.pointSizeF()
        normal_view = (width, height, *corner, NORMAL_FIT_MARGIN, MAX_FIT_SCALE, readable)
        return sizes, (LAYER_GAP, NODE_GAP), normal_view, self.look.font_scale

    def place_overlays(self) -> None:
        hint = self.legend.sizeHint()
        m = Legend.MARGIN
        self.legend.setGeometry(
            m, max(self.view.viewport().height() - hint.height() - m, 0), hint.width(), hint.height()
        )
        self.place_overview()
        width = min(self.view.viewport().width() - 16, 640)
        self.error_label.setFixedWidth(max(120, width))
        self.error_label.adjustSize()
        self.error_label.move(8, 8)
        self.banner.setGeometry(8, 8, max(200, self.view.viewport().width() - 16), self.banner.sizeHint().height())

    # ---- navigation

    def _legend_corner(self) -> tuple[float, float]:
        """Width and height of the viewport's bottom-left corner the legend takes (nothing drawn goes under it)."""
        if not self.legend.isVisibleTo(self.view):  # (a graph fitted while its tab is hidden leaves it room too)
            return (0.0, 0.0)
        legend = self.legend.geometry()
        m = Legend.MARGIN
        return (float(legend.right() + 1 + m), float(self.view.viewport().height() - legend.top() + m))

    def view_shape(self) -> tuple:
        """The viewport as a layout sees it: (width, height, legend corner width and height, margin, largest
        scale, readable scale)."""
        vp = self.view.viewport().rect()
        corner, readable = self._legend_corner(), self.readable_scale() if not self.fit_whole else 0.0
        return (float(vp.width()), float(vp.height()), *corner, self.look.fit_margin, MAX_FIT_SCALE, readable)

    def fit_placement(self, rect: QRectF | None = None) -> tuple[float, QPointF]:
        """The scale Fit uses and where the graph's top-left corner goes in the viewport: as large as the
        whole viewport allows, moved up or right of the center only as far as the legend's corner needs."""
        rect = self.builder.graph_rect() if rect is None else rect
        width, height, corner_w, corner_h, margin, largest = self.view_shape()[:6]
        if self.builder.drawing is not None and self.builder.drawing.centers:
            obstacles = padded_obstacles(self.builder.drawing)
        else:
            obstacles = [(rect.left(), rect.top(), rect.right(), rect.bottom())]
        extent = (rect.left(), rect.top(), rect.right(), rect.bottom())
        scale, x, y = fit_in_view(extent, obstacles, (width, height), (corner_w, corner_h), margin, largest)
        return scale, QPointF(x, y)

    def readable_scale(self) -> float:
        """The zoom at which box text is READABLE_POINTS on screen (× 1.5 in presentation mode)."""
        return READABLE_POINTS * self.look.font_scale / self.look.body_font.pointSizeF()

    def fit_zoom(self) -> float:
        """The smallest zoom Fit shows this graph's text at (presentation: above normal mode's text too)."""
        return max(self.readable_scale(), self.fit_floor)

    # Fit keeps text readable for graphs of up to this many boxes; a bigger one is fitted whole.  A view whose
    # boxes are what it teaches (the sample graph, expanded) keeps text readable at any size.
    readable_fit_boxes: float = READABLE_FIT_MAX_BOXES

    def show_whole(self) -> None:
        """Fit the whole graph, even if its text gets too small to read (the map of a big graph)."""
        self.fit(whole=True)

    def fit(self, whole: bool | None = None) -> None:
        """Show the whole graph as large as it goes, clear of the legend; but never with text too small to
        read: a bigger graph is shown around its output, or the current step, with the overview map."""
        self.auto_fit = True
        if not self.look.presentation and not presentation_on() and self.view.isVisible():
            # (not while the window switches to presentation: its fonts are large already, this view's not yet)
            size = self.view.viewport().size()
            self.normal_viewports[self.view.window().size().toTuple()] = (float(size.width()), float(size.height()))
        rect = self.builder.graph_rect()
        switched = whole is not None and bool(whole) != self.fit_whole
        self.fit_whole = self.fit_whole if whole is None else bool(whole)
        if rect.isEmpty():
            return
        scale, corner = self.fit_placement(rect)
        readable = self.fit_zoom()
        if scale >= self.readable_scale():
            # the whole graph fits with readable text: shown whole (presentation's floor, normal mode's text
            # and more, raises the zoom only where no box is lost by it)
            readable = min(readable, scale)
        if (
            switched
            and not self.host.busy
            and self._layout_depends_on_fit()
            and (self.fit_is_partial or scale < readable)
        ):
            # a layered drawing that must be cropped is laid out to show the most around its output; the
            # whole graph is laid out to show largest: lay it out again for what was asked
            self.fit_is_partial = False  # (until the new drawing is fitted)
            self.host.relayout()
            return
        readable_wanted = not self.fit_whole and len(self.builder.nodes) <= self.readable_fit_boxes
        was_partial, self.fit_is_partial = self.fit_is_partial, readable_wanted and scale < readable
        if self.fit_is_partial:
            self.fit_around_focus(rect, readable)
            asked = not was_partial or whole is not None  # (the Fit button): say why it is not all shown
            if asked and self.boxes_off_screen():
                self.fit_said = self.partial_fit_message()
                self.say(self.fit_said)
            return
        vp = QRectF(self.view.viewport().rect())
        # the viewport in scene units, placed so that the graph's top-left corner falls on ``corner``
        top_left = rect.topLeft() - QPointF(corner.x() - vp.left(), corner.y() - vp.top()) / scale
        shown = QRectF(top_left, QSizeF(vp.width() / scale, vp.height() / scale))
        scene_rect = shown.united(rect)
        if scene_rect.width() * scale <= vp.width() + 1 and scene_rect.height() * scale <= vp.height() + 1:
            # the graph fits: a scene a pixel smaller than the viewport, or rounding shows scroll bars, which
            # shrink the viewport, which refits the view… endlessly
            scene_rect = QRectF(shown.topLeft(), QSizeF((vp.width() - 1) / scale, (vp.height() - 1) / scale))
        self.view.scene().setSceneRect(scene_rect)
        self.view.setTransform(QTransform.fromScale(scale, scale))
        self.view.centerOn(shown.center())
        self.place_overview()

    def boxes_off_screen(self) -> int:
        """How many boxes are not wholly in the viewport (the box drawn, not the room kept for its outline)."""
        shown = self.view.mapToScene(self.view.viewport().rect()).boundingRect()
        return sum(1 for item in self.builder.nodes.values() if not shown.contains(item.mapRectToScene(item.box())))

    def partial_fit_message(self) -> str:
        """Why Fit does not show the whole graph, and how many boxes that leaves off screen."""
        off = self.boxes_off_screen()
        where = "drag it, click the map beside the legend," if self.overview.isVisible() else "drag it"
        verb = "is" if off == 1 else "are"
        return (
            f"Fit keeps the graph's text readable, so {off} of its {len(self.builder.nodes)} boxes {verb} off screen: "
            f"{where} or choose View ▸ Whole graph (Ctrl+9)."
        )

    def _layout_depends_on_fit(self) -> bool:
        """Whether compute_drawing picks a different layered drawing for a readable Fit and for the whole."""
        graph = self.host.graph
        return self.host.method == "layered" and graph is not None and graph.number_of_nodes() <= READABLE_FIT_MAX_BOXES

    def focus_box(self) -> QRectF | None:
        """What a partial Fit shows: the current backward step's box, else the graph's output."""
        node = self.host.current_node if self.host.current_node in self.builder.nodes else None
        if node is None and self.host.graph is not None:
            node = output_node(self.host.graph)
        return self.builder.nodes[node].sceneBoundingRect() if node in self.builder.nodes else None

    def fit_around_focus(self, rect: QRectF, scale: float) -> None:
        """Readable text, part of the graph on screen: the focus as near the center as the legend allows.

        The scene gets room below the graph as tall as the legend's corner (where the overview map sits
        too), so a place with no box under that corner always exists."""
        vp = QRectF(self.view.viewport().rect())
        corner_w, corner_h = (value / scale for value in self._partial_corner())
        m = self.look.fit_margin / scale
        scene_rect = rect.adjusted(-m, -m, m, m + corner_h)
        width, height = vp.width() / scale, vp.height() / scale
        # at least the view's size (else the view could not move along that axis to clear the corner):
        # wider on both sides (the graph stays centered), taller below (room under the graph for the corner)
        grow = max(width - scene_rect.width(), 0.0) / 2
        scene_rect.adjust(-grow, 0.0, grow, max(height - scene_rect.height(), 0.0))
        self.view.scene().setSceneRect(scene_rect)
        self.view.setTransform(QTransform.fromScale(scale, scale))
        focus_box = self.focus_box()
        focus = focus_box.center() if focus_box is not None else rect.center()
        x_range = (scene_rect.left(), scene_rect.right() - width)
        y_range = (scene_rect.top(), scene_rect.bottom() - height)
        x = window_start(focus.x(), scene_rect.left(), scene_rect.right(), width)
        y = window_start(focus.y(), scene_rect.top(), scene_rect.bottom(), height)
        if self.builder.drawing is not None and len(self.builder.drawing.obstacles) and corner_w > 0:
            obstacles = padded_obstacles(self.builder.drawing)
            keep = None if focus_box is None else focus_box.getCoords()
            x, y = clear_of_corner(obstacles, (x, y), (width, height), (corner_w, corner_h), x_range, y_range, keep)
        self.view.centerOn(QPointF(x + width / 2, y + height / 2))
        self.place_overview()

    def _partial_corner(self) -> tuple[float, float]:
        """Width and height (pixels) of the bottom-left corner the legend and the overview map take."""
        taken = self._overview_geometry() if self._room_for_map() else QRect()
        if self.legend.isVisibleTo(self.view):
            taken = taken.united(self.legend.geometry())
        if taken.isEmpty():
            return (0.0, 0.0)
        m = Legend.MARGIN
        return float(taken.right() + 1 + m), float(self.view.viewport().height() - taken.top() + m)

    def follow_current(self) -> None:
        """Bring the current backward step's box into view when it is off screen or under the legend or map."""
        item = self.builder.nodes.get(self.host.current_node) if self.host.current_node is not None else None
        if item is None or self.host.busy:
            return
        box = self.view.mapFromScene(item.sceneBoundingRect()).boundingRect()
        covered = any(o.isVisible() and box.intersects(o.geometry()) for o in (self.legend, self.overview))
        if self.view.viewport().rect().contains(box) and not covered:
            return
        # as a cropped Fit shows it (at this zoom): around the node, with none under the legend or map
        self.fit_around_focus(self.builder.graph_rect(), self.view.transform().m11())

    def fitted_text_points(self) -> float:
        """On-screen size, in points, of the value and gradient text at the current zoom."""
        return self.look.body_font.pointSizeF() * self.view.transform().m11()

    def zoom(self, factor: float) -> None:
        current = self.view.transform().m11()
        factor = min(max(factor, 0.02 / current), 8.0 / current)
        self.auto_fit = False
        self.view.scale(factor, factor)
        self.place_overview()

    def zoom_in(self) -> None:
        self.zoom(1.25)

    def zoom_out(self) -> None:
        self.zoom(0.8)
