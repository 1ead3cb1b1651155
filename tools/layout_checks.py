"""Layout checks on a shown window, measured from geometry and font metrics (not pixels, except the theme check).

``check_window(window, mode)`` returns a list of ``Finding``: a visible label, button, combo or spin box whose
text does not fit (and is not elided on purpose with the full text in its tooltip), a visible widget outside its
window, a legend or banner outside its view, a banner over a training plot, a plot whose background is not its
theme's color, a table that scrolls sideways or cuts a cell's or header's text (without an elision and the whole
text in its tooltip), and (presentation mode at 1280×720 and 1024×700) a decision boundary, loss/accuracy or loss
slice plot whose data area is too small to read; a box of a graph of up to 15 boxes outside its view, a running
lesson's subject (its graph, or its boundary and curves) smaller than a quarter of the window, and a status
message about boxes off screen that the view contradicts.  Used by ``tools/screenshot_tour.py`` (on every picture)
and ``tests/gui/test_layout_modes.py``.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QPoint, QRect, QRectF, Qt
from PySide6.QtGui import QColor, QFontMetricsF, QTextDocument
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractScrollArea,
    QAbstractSpinBox,
    QCheckBox,
    QComboBox,
    QGraphicsView,
    QGroupBox,
    QLabel,
    QRadioButton,
    QTabBar,
    QWidget,
)

SLACK = 1.0  # px of rounding allowed


@dataclass(frozen=True)
class Finding:
    kind: str
    widget: str
    detail: str

    def __str__(self) -> str:
        return f"{self.kind}: {self.widget}: {self.detail}"


def describe(widget: QWidget) -> str:
    name = widget.objectName() or type(widget).__name__
    text = ""
    for attr in ("text", "currentText", "title"):
        getter = getattr(widget, attr, None)
        if callable(getter):
            try:
                value = getter()
            except TypeError:
                continue
            if isinstance(value, str) and value:
                text = value
                break
    parent = widget.parentWidget()
    owner = ""
    while parent is not None and not owner:
        owner = parent.objectName()
        parent = parent.parentWidget()
    plain = _plain(text)[:40]
    return f"{name}{' «' + plain + '»' if plain else ''}{' in ' + owner if owner else ''}"


def _plain(text: str) -> str:
    if "<" in text and ">" in text:
        doc = QTextDocument()
        doc.setHtml(text)
        return doc.toPlainText()
    return text.replace("&&", "\0").replace("&", "").replace("\0", "&")


def _elided_on_purpose(widget: QWidget, text: str) -> bool:
    tip = widget.toolTip()
    return bool(tip) and _plain(text).strip() in _plain(tip)


def _clipped_by_scroll_area(widget: QWidget) -> bool:
    """Inside a scroll area's viewport: parts may be scrolled out of sight on purpose."""
    parent = widget.parentWidget()
    while parent is not None:
        if isinstance(parent, QAbstractScrollArea):
            return True
        parent = parent.parentWidget()
    return False


def _visible_on_screen(widget: QWidget) -> bool:
    if not (widget.isVisible() and widget.width() > 0 and widget.height() > 0):
        return False
    if not widget.visibleRegion().isEmpty():
        return True
    # a view whose viewport covers it whole (a pyqtgraph plot) has no visible region of its own: its viewport's
    return isinstance(widget, QAbstractScrollArea) and not widget.viewport().visibleRegion().isEmpty()


def text_findings(widget: QWidget) -> list[Finding]:
    """Whole text shown?  Font metrics against the room the widget has."""
    found = []
    fm = QFontMetricsF(widget.font())
    if isinstance(widget, QLabel):
        if widget.pixmap() is not None and not widget.pixmap().isNull():
            return []
        text = widget.text()
        if not text.strip():
            return []
        room = widget.contentsRect().width() - 2 * widget.margin() - max(widget.indent(), 0)
        if widget.wordWrap():
            need = widget.heightForWidth(widget.width())
            if need > widget.height() + SLACK:
                if not _elided_on_purpose(widget, text):
                    found.append(
                        Finding("clipped text", describe(widget), f"needs {need} px high, has {widget.height()}")
                    )
            return found
        if widget.textFormat() == widget.textFormat().RichText or ("<" in text and ">" in text):
            doc = QTextDocument()
            doc.setDefaultFont(widget.font())
            doc.setHtml(text)
            doc.setDocumentMargin(0)
            need = doc.idealWidth()
        else:
            need = max(fm.horizontalAdvance(line) for line in text.split("\n"))
        if need > room + SLACK and not _elided_on_purpose(widget, text):
            found.append(Finding("clipped text", describe(widget), f"needs {need:.0f} px, has {room}"))
        return found
    if isinstance(widget, QAbstractButton):
        text = widget.text()
        if not text.strip() or isinstance(widget.parentWidget(), QTabBar):
            return []
        hint = widget.minimumSizeHint() if isinstance(widget, (QCheckBox, QRadioButton)) else widget.sizeHint()
        need = fm.horizontalAdvance(_plain(text)) + (widget.iconSize().width() + 4 if not widget.icon().isNull() else 0)
        padding = 20 if isinstance(widget, (QCheckBox, QRadioButton)) else 8
        if isinstance(widget, (QCheckBox, QRadioButton)):
            need = hint.width()
        else:
            need += padding
        if need > widget.width() + SLACK and not _elided_on_purpose(widget, text):
            found.append(Finding("clipped text", describe(widget), f"needs {need:.0f} px, has {widget.width()}"))
        return found
    if isinstance(widget, QComboBox):
        text = widget.currentText()
        if text:
            need = fm.horizontalAdvance(text) + 26  # frame, padding, the arrow
            if need > widget.width() + SLACK and not _elided_on_purpose(widget, text):
                found.append(Finding("clipped text", describe(widget), f"needs {need:.0f} px, has {widget.width()}"))
        return found
    if isinstance(widget, QAbstractSpinBox):
        text = widget.text()
        need = fm.horizontalAdvance(text) + 30  # frame, padding, the arrows
        if need > widget.width() + SLACK:
            found.append(Finding("clipped text", describe(widget), f"needs {need:.0f} px, has {widget.width()}"))
        if widget.height() + SLACK < fm.height() + 6:
            found.append(
                Finding("clipped text", describe(widget), f"{widget.height()} px high for {fm.height():.0f} px text")
            )
        return found
    if isinstance(widget, QGroupBox):
        text = widget.title()
        if text and fm.horizontalAdvance(_plain(text)) + 16 > widget.width() + SLACK:
            found.append(
                Finding("clipped text", describe(widget), f"title needs {fm.horizontalAdvance(text) + 16:.0f} px")
            )
        return found
    if isinstance(widget, QTabBar):
        for i in range(widget.count()):
            text = widget.tabText(i)
            rect = widget.tabRect(i)
            if rect.isEmpty():
                continue
            need = fm.horizontalAdvance(_plain(text)) + 12
            if need > rect.width() + SLACK and widget.elideMode().name == "ElideNone":
                found.append(
                    Finding("clipped text", f"tab «{_plain(text)}»", f"needs {need:.0f} px, has {rect.width()}")
                )
    return found


def geometry_findings(window: QWidget, widget: QWidget) -> list[Finding]:
    """A visible widget lies inside its window and inside each parent (cut off by a parent = clipped).

    A scroll area may hide parts on purpose, in the directions it scrolls: a panel that cannot scroll
    sideways must fit its width.
    """
    rect = QRect(QPoint(0, 0), widget.size())
    child = widget
    parent = widget.parentWidget()
    while parent is not None and parent is not window:
        rect = rect.translated(child.pos())
        area = parent.parentWidget()
        if isinstance(area, QAbstractScrollArea) and parent is area.viewport():
            sideways = area.horizontalScrollBarPolicy() != Qt.ScrollBarPolicy.ScrollBarAlwaysOff
            if not sideways and rect.right() > parent.width() + 1 and rect.left() < parent.width():
                return [
                    Finding("clipped by scroll area", describe(widget), f"right edge {rect.right()} > {parent.width()}")
                ]
            return []
        if isinstance(parent, QAbstractScrollArea) or isinstance(parent, QTabBar):
            return []
        if not parent.rect().adjusted(-1, -1, 1, 1).contains(rect) and rect.intersects(parent.rect()):
            return [
                Finding(
                    "clipped by parent",
                    describe(widget),
                    f"{rect.getRect()} in {describe(parent)} {parent.rect().getRect()}",
                )
            ]
        child, parent = parent, parent.parentWidget()
    top_left = widget.mapTo(window, QPoint(0, 0))
    rect = QRect(top_left, widget.size())
    if not window.rect().adjusted(-1, -1, 1, 1).contains(rect):
        return [Finding("outside window", describe(widget), f"{rect.getRect()} in {window.rect().getRect()}")]
    return []


def overlay_findings(window) -> list[Finding]:
    """Legends, keys and banners sit inside the view they belong to."""
    found = []
    for area in window.areas.values():
        view = getattr(area, "view", None)
        legend = getattr(view, "legend", None) if view is not None else None
        if legend is not None and legend.isVisible() and view.isVisible():
            inner = view.viewport().rect() if legend.parentWidget() is view.viewport() else view.rect()
            if not inner.contains(legend.geometry()):
                found.append(Finding("legend outside view", describe(legend), f"{legend.geometry().getRect()}"))
    for banner in window.findChildren(QWidget):
        if "banner" in banner.objectName().lower() or banner.objectName() == "curveKey":
            if not banner.isVisible():
                continue
            parent = banner.parentWidget()
            if parent is not None and not parent.rect().contains(banner.geometry()):
                found.append(Finding("banner outside view", describe(banner), f"{banner.geometry().getRect()}"))
    return found


def _shown_rect(widget, window) -> QRect:
    """The part of ``widget`` its ancestors leave on screen (window coordinates): a plot in a scroll area is
    clipped by the area's viewport, and what is scrolled out of it is covered by nothing."""
    rect = QRect(widget.mapTo(window, QPoint(0, 0)), widget.size())
    parent = widget.parentWidget()
    while parent is not None and parent is not window:
        rect = rect.intersected(QRect(parent.mapTo(window, QPoint(0, 0)), parent.size()))
        parent = parent.parentWidget()
    return rect


def banner_overlap_findings(window) -> list[Finding]:
    """A shown banner of the training area covers none of its plots or its diagram (window coordinates)."""
    import pyqtgraph as pg

    training = getattr(window, "training", None)
    banner = getattr(getattr(training, "training_panel", None), "banner", None)
    if banner is None or not _visible_on_screen(banner):
        return []
    box = QRect(banner.mapTo(window, QPoint(0, 0)), banner.size())
    found = []
    for view in training.findChildren(QGraphicsView):
        # (isVisible, not _visible_on_screen: Qt leaves a view covered by the banner out of the visible region)
        if not view.isVisible() or view.width() <= 0 or view.height() <= 0:
            continue
        if not (isinstance(view, pg.PlotWidget) or view is training.diagram.view):
            continue
        rect = _shown_rect(view, window)
        if box.intersects(rect):
            overlap = box.intersected(rect)
            found.append(
                Finding("banner over a plot", describe(view), f"{overlap.width()}×{overlap.height()} px covered")
            )
    return found


def theme_findings(window, theme: str) -> list[Finding]:
    """The plots and the diagram show the palette's plot background (sampled pixels, corners of each view)."""
    import pyqtgraph as pg

    from gui.look.theme import palette

    want = QColor(palette(theme).plot_background)
    found = []
    views = [w for w in window.findChildren(QGraphicsView) if isinstance(w, pg.PlotWidget) and _visible_on_screen(w)]
    diagram = getattr(getattr(window, "training", None), "diagram", None)
    if diagram is not None and _visible_on_screen(diagram.view):
        views.append(diagram.view)
    for view in views:
        image = view.grab().toImage()
        if image.isNull():
            continue
        w, h = image.width(), image.height()
        samples = [image.pixelColor(x, y) for x, y in ((3, 3), (w - 4, 3), (3, h - 4), (w - 4, h - 4))]
        close = sum(1 for c in samples if _near(c, want))
        if close < 2:  # a corner may be covered by a legend or an axis
            got = ", ".join(c.name() for c in samples)
            found.append(Finding("wrong theme color", describe(view), f"corners {got}, palette {want.name()}"))
    return found


TEXT_GAP_PX = 2.0  # diagram labels keep at least this many pixels apart (touching reads as one word)


def diagram_text_findings(view: QGraphicsView, gap: float = TEXT_GAP_PX) -> list[Finding]:
    """The text items of a graphics view (the network diagram's input, output and layer labels) as drawn on
    screen: none touches or overlaps another (they keep ``gap`` px apart) and none is cut by the view's edge."""
    from PySide6.QtCore import QRectF
    from PySide6.QtWidgets import QGraphicsSimpleTextItem, QGraphicsTextItem

    scene = view.scene()
    if scene is None:
        return []
    boxes = []
    for item in scene.items():
        if not isinstance(item, (QGraphicsSimpleTextItem, QGraphicsTextItem)) or not item.isVisible():
            continue
        text = item.text() if isinstance(item, QGraphicsSimpleTextItem) else item.toPlainText()
        if not text.strip():
            continue
        # the text's box on screen: its advance × its line height
        rect = item.deviceTransform(view.viewportTransform()).mapRect(item.boundingRect())
        boxes.append((text, rect))
    found = []
    viewport = QRectF(view.viewport().rect())
    for i, (text, rect) in enumerate(boxes):
        if not viewport.adjusted(-SLACK, -SLACK, SLACK, SLACK).contains(rect):
            found.append(Finding("diagram text cut", f"«{text}»", f"{_rect(rect)} in {_rect(viewport)}"))
        for other, orect in boxes[i + 1 :]:
            if rect.adjusted(-gap / 2, -gap / 2, gap / 2, gap / 2).intersects(
                orect.adjusted(-gap / 2, -gap / 2, gap / 2, gap / 2)
            ):
                found.append(
                    Finding("diagram text overlaps", f"«{text}» and «{other}»", f"{_rect(rect)} and {_rect(orect)}")
                )
    return found


def _rect(rect) -> str:
    return f"({rect.x():.0f}, {rect.y():.0f}, {rect.width():.0f}×{rect.height():.0f})"


def _near(a: QColor, b: QColor, tolerance: int = 12) -> bool:
    return abs(a.red() - b.red()) + abs(a.green() - b.green()) + abs(a.blue() - b.blue()) <= tolerance


def collapsed_findings(window, least: int = 40) -> list[Finding]:
    """A plot or graph that the window would show but that has (almost) no room: a splitter pane squeezed to
    nothing, a view pushed out by its neighbors.  Plots in tabs not shown are not visible to the window."""
    import pyqtgraph as pg

    from gui.graph_view import GraphView

    found = []
    for view in window.findChildren(QGraphicsView):
        if not isinstance(view, (pg.PlotWidget, GraphView)) or not view.isVisibleTo(window):
            continue
        if not all(p.isVisible() for p in _ancestors(view, window)):
            continue
        if view.width() < least or view.height() < least:
            found.append(Finding("collapsed view", describe(view), f"{view.width()}×{view.height()} px"))
    return found


def plot_overflow_findings(window) -> list[Finding]:
    """A plot whose parts stand out of its widget: a title or axis wider than the data area's column pushed the
    color bar (or an axis) past the plot's edge, where it is cut off."""
    import pyqtgraph as pg

    found = []
    for view in window.findChildren(pg.PlotWidget):
        if not _visible_on_screen(view) or view.width() < 40:
            continue
        item = view.getPlotItem()
        layout = item.layout
        for index in range(layout.count()):
            part = layout.itemAt(index)
            if not getattr(part, "isVisible", lambda: True)():
                continue
            right = part.geometry().right()
            if right > view.width() + 1:
                found.append(Finding("plot overflow", describe(view), f"{type(part).__name__} ends at {right:.0f} px"))
                break
    return found


# Plots that use their space: in presentation mode at these window sizes, the decision boundary's data area
# (the square plane inside the axes) and the loss and accuracy plots' data areas are at least this large.
PLOT_SIZE_MODES = ((1280, 720), (1024, 700))
BOUNDARY_LEAST_PX = 250  # each side of the boundary's data area
METRICS_LEAST_PX = (150, 120)  # width, height of each of the loss and accuracy plots' data areas
SLICE_LEAST_PX = (150, 100)  # width, height of the loss slice's data area (its caption below scrolls with it)


def data_area(plot) -> tuple[float, float]:
    """Width and height in pixels of a pyqtgraph plot's data area (its view box)."""
    rect = plot.getPlotItem().getViewBox().sceneBoundingRect()
    return rect.width(), rect.height()


def _boundary_lesson(window) -> bool:
    """True while a training lesson about the decision boundary runs (lessons 7 and 8)."""
    lesson = getattr(getattr(window, "lessons", None), "lesson", None)
    return lesson is not None and lesson.tab == "training" and "boundary" in lesson.controls


def plot_size_findings(window, mode) -> list[Finding]:
    """The training tab's boundary and curves are large enough to read, in presentation mode at 1280×720
    and 1024×700 (a strip a few lines high was the rows layout's result there); while a lesson about the
    boundary runs, its plane at every size and in both modes (the lesson's dock takes the window's width)."""
    training = getattr(window, "training", None)
    if mode is None or training is None or window.tabs.currentWidget() is not training:
        return []
    lesson = _boundary_lesson(window)
    if not lesson and (not mode.presentation or tuple(mode.size) not in PLOT_SIZE_MODES):
        return []
    found = []
    boundary = training.boundary.plot
    if _visible_on_screen(boundary):
        w, h = data_area(boundary)
        if min(w, h) < BOUNDARY_LEAST_PX:
            found.append(Finding("small plot", "decision boundary", f"data area {w:.0f}×{h:.0f} px"))
    if not mode.presentation or tuple(mode.size) not in PLOT_SIZE_MODES:
        return found  # (the curves' least sizes are presentation mode's)
    metrics = training.metrics
    if training.curves.currentWidget() is metrics:
        for plot in (metrics.loss_plot, metrics.acc_plot):
            w, h = data_area(plot)
            if w < METRICS_LEAST_PX[0] or h < METRICS_LEAST_PX[1]:
                found.append(Finding("small plot", describe(plot), f"data area {w:.0f}×{h:.0f} px"))
    if training.curves.currentWidget() is training.loss_slice:
        w, h = data_area(training.loss_slice.plot)
        if w < SLICE_LEAST_PX[0] or h < SLICE_LEAST_PX[1]:
            found.append(Finding("small plot", "loss slice", f"data area {w:.0f}×{h:.0f} px"))
    return found


def table_findings(window) -> list[Finding]:
    """A table fits its columns to its width: no sideways scroll bar, and every cell in view shows its whole text or
    is elided with the whole text in its tooltip."""
    from PySide6.QtWidgets import QTableView

    found = []
    for table in window.findChildren(QTableView):
        if not _visible_on_screen(table) or table.window() is not window:
            continue
        bar = table.horizontalScrollBar()
        if bar.isVisible() and bar.maximum() > 0:
            found.append(Finding("table scrolls sideways", describe(table), f"by {bar.maximum()} px"))
        found += cell_findings(table)
    return found


def cell_need(table, index) -> int:
    """The width a cell needs for its whole text: its delegate's size hint (the text's advance in the table's
    font, check box, icon and margins)."""
    from PySide6.QtWidgets import QStyleOptionViewItem

    option = QStyleOptionViewItem()
    table.initViewItemOption(option)
    return table.itemDelegateForIndex(index).sizeHint(option, index).width()


def elided_cells(table) -> list[tuple[int, int, str]]:
    """(row, column, text) of every cell in view that does not show its whole text (elided or clipped): the
    figure for how readable a table is, where the findings only ask that a cut be on purpose."""
    cut: list[tuple[int, int, str]] = []
    cell_findings(table, cut)
    if not table.wordWrap():
        return cut
    # a cell whose text wraps onto lines its row has room for shows it whole
    fm = QFontMetricsF(table.font())
    whole = []
    for r, c, text in cut:
        index = table.model().index(r, c)
        padding = cell_need(table, index) - fm.horizontalAdvance(text)
        room = QRectF(0, 0, max(table.columnWidth(c) - padding, 1), 1e6)
        lines = fm.boundingRect(room, int(Qt.TextFlag.TextWordWrap), text)
        if lines.width() <= room.width() + SLACK and lines.height() <= table.rowHeight(r):
            whole.append((r, c, text))
    return [cell for cell in cut if cell not in whole]


def cell_findings(table, cut: list | None = None) -> list[Finding]:
    """Every cell and header section of a table in view shows its whole text: the room the delegate needs for it
    (the text's advance in the table's font, plus check box, icon and margins) fits the column, or the cell is
    elided on purpose (an elide mode, and the whole text in its tooltip).  ``cut``, when given, receives
    (row, column, text) of every cell that does not show its whole text, on purpose or not."""
    found = []
    model = table.model()
    if model is None:
        return found
    fm = QFontMetricsF(table.font())
    eliding = table.textElideMode() != Qt.TextElideMode.ElideNone
    viewport = table.viewport().rect()
    header = table.horizontalHeader()
    for c in range(model.columnCount()):
        if table.isColumnHidden(c) or table.columnWidth(c) <= 0:
            continue
        width = table.columnWidth(c)
        label = str(model.headerData(c, Qt.Orientation.Horizontal) or "")
        if header.isVisible() and label:
            need = QFontMetricsF(header.font()).horizontalAdvance(label) + 2 * header.style().pixelMetric(
                header.style().PixelMetric.PM_HeaderMargin, None, header
            )
            tip = str(model.headerData(c, Qt.Orientation.Horizontal, Qt.ItemDataRole.ToolTipRole) or "")
            elided = header.textElideMode() != Qt.TextElideMode.ElideNone and label in tip
            if need > width + SLACK and not elided:
                found.append(Finding("clipped header", describe(table), f"«{label}» needs {need:.0f} px, has {width}"))
        for r in range(model.rowCount()):
            index = model.index(r, c)
            rect = table.visualRect(index)
            if table.isRowHidden(r) or not rect.intersects(viewport):
                continue
            text = str(index.data(Qt.ItemDataRole.DisplayRole) or "")
            if not text:
                continue
            need = max(cell_need(table, index), fm.horizontalAdvance(text))
            if need <= width + SLACK:
                continue
            if cut is not None:
                cut.append((r, c, text))
            tip = str(index.data(Qt.ItemDataRole.ToolTipRole) or "")
            if not (eliding and text in tip):
                found.append(
                    Finding("clipped cell", describe(table), f"row {r} «{text}» needs {need:.0f} px, has {width}")
                )
    return found


WHOLE_GRAPH_BOXES = 15  # a graph of up to this many boxes is shown whole (every box inside its view)


def graph_box_findings(view, window=None) -> list[Finding]:
    """A graph of up to WHOLE_GRAPH_BOXES boxes shows every box inside its view (a box cut by the view's edge, or
    off screen, is a finding) while a lesson is about it, or when the view does not crop it on purpose (a Fit
    that keeps text readable and says how many boxes it leaves off screen, with the overview map, does); a
    bigger graph may be cropped."""
    if not _visible_on_screen(view) or view.busy or not view.nodes or len(view.nodes) > WHOLE_GRAPH_BOXES:
        return []
    if view.fit_is_partial and (window is None or view not in lesson_views(window)):
        return []
    shown = view.mapToScene(view.viewport().rect()).boundingRect().adjusted(-SLACK, -SLACK, SLACK, SLACK)
    off = [item for item in view.nodes.values() if not shown.contains(item.sceneBoundingRect())]
    if not off:
        return []
    return [Finding("box outside its view", describe(view), f"{len(off)} of {len(view.nodes)} boxes not wholly shown")]


def _graph_views(window) -> list:
    from gui.graph_view import GraphView

    views = [getattr(area, "view", None) for area in getattr(window, "areas", {}).values()]
    return [v for v in views if isinstance(v, GraphView)]


# A lesson's subject: the views it is about, which together take at least this share of the window's area.
LESSON_VIEW_LEAST = 0.25


def lesson_views(window) -> list[QWidget]:
    """The views a running lesson is about: the graph (an expression lesson); the boundary, the network diagram
    and the curves a training lesson names among its controls; none when no lesson runs."""
    panel = getattr(window, "lessons", None)
    lesson = getattr(panel, "lesson", None) if panel is not None else None
    if lesson is None:
        return []
    if (lesson.tab or "expression") == "training":
        training = window.training
        named = {
            "boundary": training.boundary.plot,
            "diagram": training.diagram.view,
            "curves": training.curves,
            "loss_slice": training.curves,
        }
        views = {id(w): w for name, w in named.items() if name in lesson.controls}
        return [w for w in views.values() if _visible_on_screen(w)]
    area = window.areas.get(lesson.tab or "expression")
    view = getattr(area, "view", None) or getattr(getattr(area, "plot", None), "plot", None)  # (the workshop's)
    return [view] if view is not None else []


def lesson_view_findings(window) -> list[Finding]:
    """A running lesson's subject takes at least a quarter of the window (it was a 180-px column beside two
    columns of controls)."""
    views = lesson_views(window)
    if not views and getattr(getattr(window, "lessons", None), "lesson", None) is None:
        return []
    area = sum(v.width() * v.height() for v in views if _visible_on_screen(v))
    whole = window.width() * window.height()
    if area >= LESSON_VIEW_LEAST * whole:
        return []
    names = ", ".join(describe(v) for v in views) or "(not on screen)"
    return [Finding("lesson view small", names, f"{area / whole:.0%} of the window, less than a quarter")]


def status_findings(window) -> list[Finding]:
    """A status message about the graph on screen says what the view shows: "N of its M boxes … off screen"
    names as many boxes off screen as there are (it stayed after Leave lesson, after a resize, with none off)."""
    import re

    text = window.statusBar().currentMessage()
    match = re.search(r"(\d+) of its (\d+) box(?:es)?\b[^.]*off screen", text)
    if not match:
        return []
    area = window.tabs.currentWidget()
    view = getattr(area, "view", None)
    if view not in _graph_views(window) or view.busy:
        return []
    off, total = int(match.group(1)), int(match.group(2))
    if (off, total) == (view.boxes_off_screen(), len(view.nodes)):
        return []
    return [
        Finding(
            "status contradicts view",
            describe(view),
            f"«{text[:60]}…» but {view.boxes_off_screen()} of {len(view.nodes)} boxes are off screen",
        )
    ]


def _ancestors(widget: QWidget, window: QWidget):
    parent = widget.parentWidget()
    while parent is not None and parent is not window:
        yield parent
        parent = parent.parentWidget()


def check_window(window, mode=None) -> list[Finding]:
    """Every check on the window as it is shown now (``mode``: the tour's Mode, for the theme check and size)."""
    found: list[Finding] = []
    for widget in window.findChildren(QWidget):
        if not _visible_on_screen(widget) or widget.window() is not window:
            continue
        found += text_findings(widget)
        found += geometry_findings(window, widget)
    found += overlay_findings(window)
    found += banner_overlap_findings(window)
    found += collapsed_findings(window)
    found += plot_overflow_findings(window)
    found += table_findings(window)
    found += plot_size_findings(window, mode)
    for view in _graph_views(window):
        found += graph_box_findings(view, window)
    found += lesson_view_findings(window)
    found += status_findings(window)
    diagram = getattr(getattr(window, "training", None), "diagram", None)
    if diagram is not None and diagram.view.isVisible() and _visible_on_screen(diagram.view.viewport()):
        found += diagram_text_findings(diagram.view)
    if mode is not None:
        found += theme_findings(window, mode.theme)
        if (window.width(), window.height()) != tuple(mode.size):
            found.append(
                Finding("window resized", "main window", f"{window.width()}×{window.height()} not {mode.size}")
            )
    return found


def check_dialog(dialog) -> list[Finding]:
    """The text and geometry checks on a dialog's own widgets (a dialog is its own window)."""
    found: list[Finding] = []
    for widget in dialog.findChildren(QWidget):
        if not _visible_on_screen(widget) or widget.window() is not dialog:
            continue
        found += text_findings(widget)
        found += geometry_findings(dialog, widget)
    return found
