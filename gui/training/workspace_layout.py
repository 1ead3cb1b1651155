"""The training area's responsive layout: where the settings, the boundary, the diagram and the curves go.

Two decisions follow from the room the views have, in the font in use:

- Narrow: when the views would have less than ~115 average characters (and 700 px) beside the settings column,
  the settings become a "Settings" tab beside the curves (with the sample entry), so the views get the whole width.
- Columns: when the views' area is more than 1.5× as wide as it is high (a short window, or presentation mode's
  larger text), the boundary takes a full-height column and the diagram sits over the curves beside it; stacked
  in rows, each would get a strip a few lines high.  Columns too when rows would leave the decision boundary's
  plane less than ``BOUNDARY_LEAST_PX`` on a side (a lesson's dock takes the window's width) and columns do not.

The shares come from what each view holds: the boundary's plane is square, so it gets at least the room that
square needs beside its axes, color bar and toggles, as long as the other views keep the least they need.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QEvent, QObject, QSize, Qt, QTimer
from PySide6.QtGui import QFont, QFontMetricsF
from PySide6.QtWidgets import QHBoxLayout, QLayout, QScrollArea, QSplitter, QVBoxLayout, QWidget

from ..look.theme import PRESENTATION_SCALE, presentation_on

TAB_NAMES = ("Loss && accuracy", "Gradient flow", "Loss slice", "Confusion matrix", "Landscape", "Runs")
SHORT_TAB_NAMES = ("Loss", "Gradients", "Slice", "Confusion", "Landscape", "Runs")  # the columns layout's half
NARROW_ROOM_CHARS = 115  # the views want this many average characters of width beside the settings column …
NARROW_ROOM_PX = 700  # … and this many pixels; with less, the settings become a tab (see reflow)
COLUMNS_ASPECT = 1.5  # views' area wider than this × its height: boundary | diagram over curves (see reflow)
BOUNDARY_LEAST_PX = 260  # the boundary's plane, each side, whenever the window can give it (the checks ask 250)
CURVES_LEAST_PX = 120  # the height of a curve plot's data area …
CURVES_LEAST_LINES = 5  # … and the lines of text around it (tabs, title, axis): the least the curves keep
SETTINGS_LEAST_LINES = 2  # the lines of settings the Settings tab keeps in view (a form row), when it is the
# curves' page: the rest scrolls, and a lesson's boundary keeps its plane (lesson 8 at 1024×700, presentation)
OTHER_LEAST_PX = 200  # the least width of the diagram (or the diagram over the curves) beside the boundary


@dataclass(frozen=True)
class TrainingViews:
    """The widgets the layout places (built by the area, which wires them to the controller)."""

    boundary: QWidget  # the BoundaryPlot
    boundary_plot: object  # the boundary's pyqtgraph PlotWidget (its view box is the plane)
    regression_plot: QWidget
    sample_entry: QWidget
    diagram: QWidget
    curves: object  # the QTabWidget of curve pages
    controls: QWidget  # the play / step / status row over the views
    banner: QWidget  # why training stopped, a refused setting: a row of its own under the views
    settings: tuple  # the network and training panels, in the settings column
    tall_pages: tuple  # curve pages that need height beside the diagram (maps, matrix)
    slice_page: QWidget  # the loss slice: a plot over a caption of three to six lines
    set_compact: object  # (bool) -> None: the loss and accuracy plots for half the width, or not


class WorkspaceLayout(QObject):
    """Builds the area's layout on ``host`` and keeps it fitted: on a resize, a font change, a banner, a view
    shown or hidden (a lesson steps the ones it does not need back)."""

    def __init__(self, host: QWidget, views: TrainingViews):
        super().__init__(host)
        self.host, self.v = host, views
        side = QWidget()
        side_layout = QVBoxLayout(side)
        side_layout.setContentsMargins(0, 0, 4, 0)
        for panel in views.settings:
            side_layout.addWidget(panel)
        side_layout.addStretch(1)
        scroll = QScrollArea()
        scroll.setWidget(side)
        scroll.setWidgetResizable(True)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.side_scroll = scroll

        boundary_side = QWidget()
        boundary_layout = QVBoxLayout(boundary_side)
        boundary_layout.setContentsMargins(0, 0, 0, 0)
        boundary_layout.addWidget(views.boundary, 1)
        boundary_layout.addWidget(views.sample_entry)
        boundary_layout.addWidget(views.regression_plot, 1)
        self._boundary_side, self._boundary_layout = boundary_side, boundary_layout
        self.views = QSplitter(Qt.Orientation.Horizontal)
        self.views.addWidget(boundary_side)
        self.views.addWidget(views.diagram)
        # The columns layout (a wide, short area): the diagram over the curves beside a full-height boundary.
        self.column = QSplitter(Qt.Orientation.Vertical)
        self.column.setChildrenCollapsible(False)
        self.views.addWidget(self.column)
        self.column.hide()
        self.views.setSizes([500, 500, 0])
        self.body = QSplitter(Qt.Orientation.Vertical)
        self.body.addWidget(self.views)
        self.body.addWidget(views.curves)
        self.body.setChildrenCollapsible(False)  # a short window squeezes both, never hides the curves
        self.views.setChildrenCollapsible(False)
        self.body.setStretchFactor(0, 3)
        self.body.setStretchFactor(1, 2)
        # A drag shows where the handle goes and resizes the plots and the diagram once, on release: each move
        # re-laid out and repainted them all (~50-130 ms of the GUI thread per drag, 0.1-0.5 s stalls).
        for splitter in (self.views, self.column, self.body):
            splitter.setOpaqueResize(False)
        right = QWidget()
        right_layout = QVBoxLayout(right)
        right_layout.setContentsMargins(4, 0, 0, 0)
        right_layout.addWidget(views.controls)
        right_layout.addWidget(self.body, 1)
        # The banner takes its own row under the views: the plots shrink by its height while it shows, and it
        # never covers one of them (a short loss plot least of all).
        views.controls.layout().removeWidget(views.banner)
        right_layout.addWidget(views.banner)
        views.banner.hide()
        self._right = right
        self._outer = QHBoxLayout(host)
        self._outer.setContentsMargins(4, 4, 4, 4)
        self._outer.addWidget(scroll)
        self._outer.addWidget(right, 1)
        self.narrow = False  # the settings column is a tab beside the curves
        self.columns = False  # the diagram and the curves share a column beside the boundary
        self._shape = None  # what the splitters were last shared for
        self._moving = False  # True while the layout moves views itself
        self._reflow_soon = QTimer(self)  # once the curves' tabs have changed (a lesson hides several at once)
        self._reflow_soon.setSingleShot(True)
        self._reflow_soon.setInterval(0)
        self._reflow_soon.timeout.connect(self.reflow)
        self._chrome: dict[float, tuple[int, int]] = {}  # font size → the plot's room around its plane
        self._pages_width = 0  # the least width of the curves' page on screen (``_fit_curves_minimum``)
        # shown, hidden or taller: the splitters' shares again
        for watched in (views.banner, views.curves, side, views.diagram, host):
            watched.installEventFilter(self)
        views.boundary_plot.getPlotItem().getViewBox().sigResized.connect(self._plane_resized)
        views.curves.currentChanged.connect(self._tab_changed)

    # ------------------------------------------------------------------ the two decisions

    def reflow(self) -> None:
        """Narrow or not, columns or rows, and the splitters' shares for the room the views have now."""
        if self._moving:
            return  # (a view moving between splitters is hidden and shown again: not a lesson's doing)
        self._moving = True
        try:
            self._reflow()
        finally:
            self._moving = False

    def _reflow(self) -> None:
        self._fit_curves_minimum()
        host = self.host
        chars = max(1, host.fontMetrics().averageCharWidth())
        side_width = self.side_width()
        narrow = host.width() - side_width < max(NARROW_ROOM_PX, NARROW_ROOM_CHARS * chars)
        if narrow != self.narrow:
            self._set_narrow(narrow)
        width = host.width() - (0 if narrow else side_width)
        height = host.height() - self.v.controls.heightForWidth(width)
        self._set_columns(width > COLUMNS_ASPECT * height or self._boundary_needs_columns(width, height))
        least = self.v.curves.minimumSize()
        shape = (width, height, narrow, self.columns, self.banner_room(), *self._shown(), least.width(), least.height())
        if shape != self._shape:  # a new size, font, banner or view: the splitters' shares again (a drag keeps its own)
            self._shape = shape
            self._share(width, height)
        if not narrow:
            self.fit_side_panel()
        self.fit_curve_tabs()

    def _set_narrow(self, narrow: bool) -> None:
        """The settings as a "Settings" tab beside the curves (with the sample entry), or a column of their own."""
        self.narrow = narrow
        scroll, curves = self.side_scroll, self.v.curves
        if narrow:
            self._outer.removeWidget(scroll)
            scroll.setMinimumWidth(0)
            scroll.setMaximumWidth(16777215)
            scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
            scroll.widget().layout().insertWidget(0, self.v.sample_entry)
            curves.addTab(scroll, "Settings")
            curves.setTabToolTip(curves.count() - 1, "Settings: sample entry, network, data and training")
        else:
            index = curves.indexOf(scroll)
            if curves.currentIndex() == index:
                curves.setCurrentIndex(0)
            curves.removeTab(index)
            self._boundary_layout.insertWidget(1, self.v.sample_entry)
            self._outer.insertWidget(0, scroll)
            scroll.show()

    def _set_columns(self, on: bool) -> None:
        """Columns: [boundary | diagram over curves]; rows: [boundary | diagram] over the curves."""
        if on == self.columns:
            return
        self.columns = on
        curves = self.v.curves
        current = curves.currentIndex()
        for index, names in enumerate(zip(TAB_NAMES, SHORT_TAB_NAMES, strict=True)):
            curves.setTabText(index, names[on])
        self.v.set_compact(on)
        # half the width: the tabs share what there is, elided (their tooltips say the whole name), never hidden
        # behind scroll arrows
        bar = curves.tabBar()
        bar.setElideMode(Qt.TextElideMode.ElideRight if on else Qt.TextElideMode.ElideNone)
        bar.setUsesScrollButtons(not on)
        if on:
            self.column.addWidget(self.v.diagram)
            self.column.addWidget(curves)
            self.column.setStretchFactor(0, 11)
            self.column.setStretchFactor(1, 9)
            self.column.show()
        else:
            self.views.insertWidget(1, self.v.diagram)
            self.body.addWidget(curves)
            self.body.setStretchFactor(0, 3)
            self.body.setStretchFactor(1, 2)
            self.column.hide()
        curves.setCurrentIndex(current)

    # ------------------------------------------------------------------ what each view holds

    def _shown(self) -> tuple[bool, bool, bool]:
        """Whether the boundary, the diagram and the curves are on screen (a lesson steps some back)."""
        return (not self.v.boundary.isHidden(), not self.v.diagram.isHidden(), not self.v.curves.isHidden())

    def chrome(self, width: int | None = None) -> tuple[int, int]:
        """The boundary's width and height around its square plane, in the font in use: the plot's axes, color
        bar and title (measured once the plot has been laid out in this font, estimated before), and the
        widgets around the plot (toggles, the sample entry) as they lay out at ``width`` (the boundary's width
        in the layout being weighed; its width now when None)."""
        metrics = self.host.fontMetrics()
        # (at least the estimate: the axes widen with their tick labels, e.g. "−1.5" after "0")
        estimate = (16 * metrics.averageCharWidth() + 40, 4 * metrics.lineSpacing())
        measured = self._chrome.get(self._font_key(), estimate)
        inner = (max(measured[0], estimate[0]), max(measured[1], estimate[1]))
        plot, side = self.v.boundary_plot, self._boundary_side
        outer_width = 0
        if side.isVisible() and plot.isVisible() and plot.width() > 0:
            outer_width = max(0, side.width() - plot.width())
            width = side.width() if width is None else width
        return inner[0] + outer_width, inner[1] + self._beside_plot(width)

    def _beside_plot(self, width: int | None) -> int:
        """The height of what the boundary's column holds besides the plot (the toggles and key, which wrap in a
        narrow column; the sample entry; paint tools a lesson has not stepped back) at ``width``; three lines
        when the width is not known yet.  (Read from the widgets and the toggles' own layout: a QWidgetItem
        asked of a layout outlives, in Python, the item Qt deletes when its widget moves, and Qt reuses its
        address for a new widget.)"""
        if width is None or width <= 0:
            return 3 * self.host.fontMetrics().lineSpacing()
        boundary = self.v.boundary
        spacing = max(0, boundary.layout().spacing())
        total = 0
        for child in boundary.layout().children():  # the toggles' flow layout
            if isinstance(child, QLayout):
                height = child.heightForWidth(width) if child.hasHeightForWidth() else -1
                total += (height if height >= 0 else child.sizeHint().height()) + spacing
        parts = [boundary.tools, self.v.sample_entry]
        for widget in parts:
            if widget.isHidden() or widget.parentWidget() not in (boundary, self._boundary_side):
                continue
            height = widget.heightForWidth(width) if widget.hasHeightForWidth() else -1
            total += (height if height >= 0 else widget.sizeHint().height()) + spacing
        return total

    def _font_key(self) -> float:
        return self.host.font().pointSizeF()

    def _plane_resized(self, *_args) -> None:
        """The plot's room around its plane, measured each time the plot is laid out (the next shares count on
        it; sharing again now would move the views under a picture being taken)."""
        plot = self.v.boundary_plot
        rect = plot.getPlotItem().getViewBox().sceneBoundingRect()
        if rect.width() >= 20 and rect.height() >= 20:
            inner = (max(0, plot.width() - round(rect.width())), max(0, plot.height() - round(rect.height())))
            self._chrome[self._font_key()] = inner

    def _fit_curves_minimum(self) -> bool:
        """The curves are as small as the page on screen allows: a page behind another tab (the landscape's maps
        want 365 px, the runs table 144 px of height) or one a lesson hid no longer sets their least size, so
        the Settings tab of a narrow window leaves the boundary its room.  True when it changed (then the
        shares are made again: a tab that needs more gets it when it is chosen)."""
        curves = self.v.curves
        current = curves.currentIndex()
        shown = [curves.widget(current)] if current >= 0 and curves.isTabVisible(current) else []
        frame = 2 * curves.style().pixelMetric(curves.style().PixelMetric.PM_DefaultFrameWidth)
        bar = curves.tabBar().minimumSizeHint()
        least = [self._page_least(page) for page in shown]
        self._pages_width = max([0, *(size.width() for size in least)]) + frame
        width = max([bar.width(), *(size.width() for size in least)]) + frame
        height = bar.height() + max([0, *(size.height() for size in least)]) + frame
        if (curves.minimumWidth(), curves.minimumHeight()) == (width, height):
            return False
        curves.setMinimumSize(width, height)
        return True

    def _page_least(self, page: QWidget) -> QSize:
        """A curves page's least size: its own, or for the Settings tab (a scroll area) a few lines of it."""
        hint = page.minimumSizeHint()
        if page is self.side_scroll:
            return QSize(hint.width(), SETTINGS_LEAST_LINES * self.host.fontMetrics().lineSpacing())
        return hint

    def _other_least(self, columns: bool) -> int:
        """The least width of the views beside the boundary: the diagram (rows), or the diagram over the curves
        (columns), as their own minimum sizes and the font ask."""
        _, diagram, curves = self._shown()
        widths = [OTHER_LEAST_PX]
        if diagram:
            widths.append(self.v.diagram.minimumWidth() or self.v.diagram.minimumSizeHint().width())
        if curves and columns:  # the page on screen: beside the boundary the tab bar elides, whatever its least
            widths.append(self._pages_width)  # (counting it flipped columns on and off while the area was shown)
        return max(widths)

    def _curves_least(self) -> int:
        """The least height of the curves: a plot's data area and the text around it; the settings' tab (a
        lesson that shows no curves keeps its settings there) a few of their rows, the rest scrolls."""
        curves = self.v.curves
        if curves.isHidden():
            return 0
        lines = self.host.fontMetrics().lineSpacing()
        if curves.currentWidget() is self.side_scroll:
            least = curves.tabBar().sizeHint().height() + SETTINGS_LEAST_LINES * lines
        else:
            least = CURVES_LEAST_PX + CURVES_LEAST_LINES * lines
        return max(least, curves.minimumHeight())

    def _boundary_least_width(self, width: int, beside: bool, columns: bool) -> int:
        """The boundary's width: half the room, or more when its plane needs it and the view ``beside`` it (the
        diagram, or the column of diagram and curves) keeps its least."""
        if not beside:
            return width
        need = BOUNDARY_LEAST_PX + self.chrome()[0]
        return max(width // 2, min(need, width - self._other_least(columns)))

    def _rows_side(self, width: int, height: int) -> int:
        """The boundary plane's short side in rows, the curves keeping their least height."""
        _, diagram, _ = self._shown()
        boundary_width = self._boundary_least_width(width, diagram, False)
        cw, ch = self.chrome(boundary_width)
        return min(boundary_width - cw, height - self.banner_room() - self._curves_least() - ch)

    def _columns_side(self, width: int, height: int) -> int:
        _, diagram, curves = self._shown()
        boundary_width = self._boundary_least_width(width, diagram or curves, True)
        cw, ch = self.chrome(boundary_width)
        return min(boundary_width - cw, height - self.banner_room() - ch)

    def _boundary_needs_columns(self, width: int, height: int) -> bool:
        """True when rows leave the boundary's plane under its least side and columns give it more."""
        if self.v.boundary.isHidden() or not self.v.boundary.isVisibleTo(self.host):
            return False
        rows = self._rows_side(width, height)
        return rows < BOUNDARY_LEAST_PX and self._columns_side(width, height) > rows

    # ------------------------------------------------------------------ shares

    def banner_room(self) -> int:
        """The height the banner's row takes from the views while it shows (0 when hidden)."""
        banner = self.v.banner
        if banner.isHidden():
            return 0
        width = max(self._right.contentsRect().width(), 100)
        return banner.layout().totalHeightForWidth(width) + self._right.layout().spacing()

    def _share(self, width: int, height: int) -> None:
        """The boundary half the width, or what its plane needs; in columns the diagram 55 % of the height, in
        rows the boundary and diagram 60 % (64 % when the settings are a tab), or what the plane needs while
        the curves keep their least.  The banner's row is taken from the diagram (in columns) or the boundary
        and diagram (in rows): the curves keep their height, so a short loss plot stays readable."""
        _, diagram, curves = self._shown()
        beside = (diagram or curves) if self.columns else diagram
        left = self._boundary_least_width(width, beside, self.columns)
        room = width - self._splitter_frame()  # what the splitter shares: a set size beyond it is scaled down
        self.views.setSizes([min(left, room), max(room - left, 0)])
        if self.columns:
            self._share_column(height)
        else:
            share = 0.64 if self.narrow else 0.6
            outer, spacing = self._outer.contentsMargins(), self._right.layout().spacing()
            room = height - outer.top() - outer.bottom() - spacing - self.body.handleWidth()  # what the body shares
            banner = self.banner_room()
            least = min(BOUNDARY_LEAST_PX + self.chrome(left)[1] + banner, room - self._curves_least())
            if least > share * room:  # the plane's square needs more than the share: the curves keep their least
                self.body.setSizes([least - banner, max(room - least, 0)])
            else:
                self.body.setSizes(self._less_banner(height, share))

    def _share_column(self, height: int | None = None) -> None:
        """The diagram over the curves: 55 % of the column for the diagram beside the curves' plots, 48 % beside
        the tabs that need height (the landscape maps, the confusion matrix, the settings), 45 % beside the loss
        slice (a plot over a caption of three to six lines)."""
        if height is None:  # (the column has lost the banner's row already)
            height = sum(self.column.sizes()) + self.banner_room()
        current = self.v.curves.currentWidget()
        tall = current in (*self.v.tall_pages, self.side_scroll)
        share = 0.45 if current is self.v.slice_page else 0.48 if tall else 0.55
        self.column.setSizes(self._less_banner(height, share))

    def _less_banner(self, height: int, share: float) -> list[int]:
        """[upper, curves] for a splitter of ``height`` less the banner's row: the upper view gives up the banner's
        height (keeping at least 30 % of the room), the curves keep ``1 - share`` of the room."""
        room = self.banner_room()
        upper = int(height * share)
        upper = max(upper - room, int(0.3 * (height - room)))
        return [upper, max(height - room - upper, 0)]

    def _splitter_frame(self) -> int:
        """The width the views' splitter does not share: the area's margins and its handle."""
        outer, right = self._outer.contentsMargins(), self._right.layout().contentsMargins()
        return outer.left() + outer.right() + right.left() + self.views.handleWidth()

    def _tab_changed(self, _index: int) -> None:
        if self._fit_curves_minimum():
            self._reflow_soon.start()
        if self.columns:
            self._share_column()

    # ------------------------------------------------------------------ the settings column and the tabs

    def side_width(self) -> int:
        """The settings column's width: its widest row in the font in use, and the scroll bar."""
        side = self.side_scroll.widget()
        side.adjustSize()
        return side.minimumSizeHint().width() + self.side_scroll.verticalScrollBar().sizeHint().width() + 6

    def fit_side_panel(self) -> None:
        """The settings column is as wide as its widest row in the font in use (it scrolls up and down)."""
        width = self.side_width()
        self.side_scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        if self.side_scroll.minimumWidth() != width or self.side_scroll.maximumWidth() != width:
            self.side_scroll.setFixedWidth(width)

    def fit_curve_tabs(self) -> None:
        """Beside the boundary the curves have half the width: when their tabs do not fit in the font in use, the
        tab bar's text shrinks to fit, never below the normal mode's size (then the tabs elide, with the whole
        name in their tooltips)."""
        curves = self.v.curves
        bar = curves.tabBar()
        font = QFont(self.host.font())
        room = curves.width() - 4
        if self.columns and room > 0:
            metrics = QFontMetricsF(font)
            texts = [curves.tabText(i).replace("&&", "&") for i in range(curves.count())]
            shown = QFontMetricsF(bar.font())
            padding = 6 + max(bar.tabSizeHint(i).width() - shown.horizontalAdvance(t) for i, t in enumerate(texts))
            words = sum(metrics.horizontalAdvance(text) for text in texts)
            if words + len(texts) * padding > room:
                least = font.pointSizeF() / (PRESENTATION_SCALE if presentation_on() else 1.0)
                scale = (room - len(texts) * padding) / max(words, 1.0)
                font.setPointSizeF(max(least, font.pointSizeF() * scale))
                bar.setFont(font)
                return
        bar.setFont(QFont())  # (inherits the area's font again)

    def eventFilter(self, watched, event) -> bool:
        kind = event.type()
        if watched is self.v.curves and kind == QEvent.Type.Resize:
            self.fit_curve_tabs()
        if watched in (self.v.curves, self.host) and kind in (QEvent.Type.LayoutRequest, QEvent.Type.Show):
            if self._fit_curves_minimum():  # a lesson hid or showed some of the curves' tabs (maybe while unseen)
                self._reflow_soon.start()
        if watched is self.v.banner and kind in (QEvent.Type.Show, QEvent.Type.Hide, QEvent.Type.Resize):
            self.reflow()  # (a longer message: more lines)
        if watched in (self.v.curves, self.v.diagram) and kind in (QEvent.Type.ShowToParent, QEvent.Type.HideToParent):
            self.reflow()  # a lesson stepped a view back, or brought it again: the others get its room
        if watched is self.side_scroll.widget() and kind == QEvent.Type.LayoutRequest and not self.narrow:
            self.fit_side_panel()
        return super().eventFilter(watched, event)
