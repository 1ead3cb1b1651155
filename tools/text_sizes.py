"""The on-screen size of every visible text of a shown window, and presentation mode's growth over normal mode.

``measure(window)`` returns ``{key: TextSize}``: each visible text element's size on screen, in points, keyed
stably (its kind of element, its text and its nearest named owner, so the same element has the same key in both
modes).  ``compare(normal, presentation)`` returns the layout checks' ``Finding``s where presentation mode does not
make a text large enough:

* **widget text** (labels, rich-text labels: their largest font, buttons, check boxes, combos, spin boxes, line
  and text edits, tab bars, group-box titles, table and list cells, table headers) may not be smaller in
  presentation mode than in normal mode (ratio ≥ 1.0, less ``WIDGET_TOLERANCE``);
* **plot text** (everything drawn inside a pyqtgraph plot: axis numbers, axis labels, titles, legends, text
  items; and the network diagram's labels and magnifier) and the graph views' legend must be at least
  ``PLOT_RATIO`` × as large (1.5×, allowing rounding).  A text item in a view that scales its scene counts at
  its size on screen: font size × the view's scale × the item's own scale (``ItemIgnoresTransformations``
  respected), so a diagram fitted smaller in presentation mode shows up here;
* **graph box text** (the value and gradient text in the boxes of the expression, sample and lab step graphs)
  depends on the graph view's Fit, which shows a graph whole when it can: it may not be smaller than in normal
  mode (``GRAPH_RATIO``; Fit aims at 1.1×, gui.graph_view.PRESENTATION_TEXT_MARGIN).  ``check_graph=False``
  (or the module's ``CHECK_GRAPH_TEXT``) reports it without holding it.

Which is which: a text is plot text when it is drawn inside a plot (a pyqtgraph view) or the network diagram's
view, or is a graph view's legend; graph text is the graph views' box text; everything else (including the
labels, keys, captions and combos around the plots, and tables such as the confusion matrix) is widget text.

``python tools/text_sizes.py`` runs every tour state in light normal and light presentation mode at the three
window sizes and prints, per state and size, the smallest ratio of widget text, of plot/diagram text and of graph
box text, and the findings (``--quick`` for the representative states, ``--sizes 1280x720``, ``--only 'train-*'``).
"""

from __future__ import annotations

import math
import os
import sys
from dataclasses import dataclass
from pathlib import Path

if __name__ == "__main__":
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QFont, QTextDocument
from PySide6.QtGui import Qt as _GuiQt
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QAbstractSpinBox,
    QComboBox,
    QGraphicsSimpleTextItem,
    QGraphicsTextItem,
    QGraphicsView,
    QGroupBox,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QTabBar,
    QTextEdit,
    QWidget,
)

from tools.layout_checks import Finding, _plain, _visible_on_screen

WIDGET, PLOT, GRAPH = "widget", "plot", "graph"
WIDGET_TOLERANCE = 0.02  # widget text: presentation ≥ (1 − this) × normal
PLOT_RATIO = 1.49  # plot, diagram and graph-legend text: presentation ≥ this × normal (1.5, rounded)
GRAPH_RATIO = 1.0  # graph box text: presentation ≥ normal (Fit shows a graph whole rather than 1.5× cropped)
MAX_CELLS = 40  # rows of a table or list measured (their font is the view's, or the item's own)


@dataclass(frozen=True)
class TextSize:
    key: str
    kind: str  # WIDGET, PLOT or GRAPH
    points: float  # on screen


# ------------------------------------------------------------------ font sizes


def _dpi(widget: QWidget | None = None) -> float:
    return float(widget.logicalDpiY()) if widget is not None else 96.0


def font_points(font: QFont, widget: QWidget | None = None) -> float:
    """A font's size in points (a pixel-sized font converted at the widget's dpi)."""
    if font.pointSizeF() > 0:
        return font.pointSizeF()
    return font.pixelSize() * 72.0 / _dpi(widget)


def document_points(doc: QTextDocument, widget: QWidget | None = None) -> float:
    """The largest font of a rich-text document (headings, <big>, styled spans resolved by Qt)."""
    biggest = font_points(doc.defaultFont(), widget) if not doc.toPlainText().strip() else 0.0
    block = doc.begin()
    while block.isValid():
        for part in block.textFormats():
            text = block.text()[part.start : part.start + part.length]
            if text.strip():
                biggest = max(biggest, font_points(part.format.font(), widget))
        block = block.next()
    return biggest or font_points(doc.defaultFont(), widget)


def _rich_points(text: str, font: QFont, widget: QWidget) -> float:
    doc = QTextDocument()
    doc.setDefaultFont(font)
    doc.setHtml(text)
    return document_points(doc, widget)


def _is_rich(label: QLabel) -> bool:
    fmt = label.textFormat()
    if fmt == Qt.TextFormat.RichText:
        return True
    return fmt == Qt.TextFormat.AutoText and _GuiQt.mightBeRichText(label.text())


# ------------------------------------------------------------------ keys


def _owner(widget: QWidget) -> str:
    """The nearest ancestor with a name of its own: an object name, or a class of the app's (a panel)."""
    parent = widget.parentWidget()
    while parent is not None:
        if parent.objectName() and not parent.objectName().startswith("qt_"):
            return parent.objectName()
        if not type(parent).__module__.startswith(("PySide6", "shiboken")):
            return type(parent).__name__
        parent = parent.parentWidget()
    return ""


_ATTRIBUTES: dict[int, str] = {}  # id(widget) → "Panel.attribute" while a measurement runs


def _attribute_names(top: QWidget) -> dict[int, str]:
    """Widgets kept as attributes of the app's own widgets (``NetworkDiagram.mode``): their most stable name."""
    names: dict[int, str] = {}
    for owner in (top, *top.findChildren(QWidget)):
        for attr, value in getattr(owner, "__dict__", {}).items():
            if isinstance(value, QWidget) and not attr.startswith("_"):
                names.setdefault(id(value), f"{type(owner).__name__}.{attr}")
    return names


def _name(obj) -> str:
    name = obj.objectName() if hasattr(obj, "objectName") else ""
    return name if name and not name.startswith("qt_") else type(obj).__name__


def _short(text: str) -> str:
    return " ".join(_plain(text).split())[:40]


class _Keys:
    """Stable keys: the same element gets the same key in both modes (a repeated one is numbered in order)."""

    def __init__(self):
        self.seen: dict[str, int] = {}
        self.sizes: dict[str, TextSize] = {}

    def add(self, key: str, kind: str, points: float) -> None:
        if not (points > 0 and math.isfinite(points)):
            return
        n = self.seen.get(key, 0)
        self.seen[key] = n + 1
        self.sizes[key if n == 0 else f"{key} #{n + 1}"] = TextSize(key, kind, points)


# ------------------------------------------------------------------ widgets


def _widget_text(widget: QWidget, keys: _Keys) -> None:
    where = _ATTRIBUTES.get(id(widget)) or f"{_name(widget)} in {_owner(widget)}"
    if isinstance(widget, QLabel):
        if widget.pixmap() is not None and not widget.pixmap().isNull():
            return
        text = widget.text()
        if not text.strip():
            return
        points = _rich_points(text, widget.font(), widget) if _is_rich(widget) else font_points(widget.font(), widget)
        keys.add(f"label «{_short(text)}» {where}", WIDGET, points)
    elif isinstance(widget, QAbstractButton):
        if widget.text().strip() and not isinstance(widget.parentWidget(), QTabBar):
            keys.add(f"button «{_short(widget.text())}» {where}", WIDGET, font_points(widget.font(), widget))
    elif isinstance(widget, QComboBox):
        keys.add(f"combo «{_short(widget.currentText())}» {where}", WIDGET, font_points(widget.font(), widget))
    elif isinstance(widget, QAbstractSpinBox):
        keys.add(f"spin box {where}", WIDGET, font_points(widget.font(), widget))
    elif isinstance(widget, QLineEdit):
        if not isinstance(widget.parentWidget(), (QAbstractSpinBox, QComboBox)):
            keys.add(f"line edit {where}", WIDGET, font_points(widget.font(), widget))
    elif isinstance(widget, (QTextEdit, QPlainTextEdit)):
        if widget.toPlainText().strip():
            points = font_points(widget.font(), widget)
            if isinstance(widget, QTextEdit):
                points = max(points, document_points(widget.document(), widget))
            keys.add(f"text edit {where}", WIDGET, points)
    elif isinstance(widget, QGroupBox):
        if widget.title().strip():
            keys.add(f"group «{_short(widget.title())}» {where}", WIDGET, font_points(widget.font(), widget))
    elif isinstance(widget, QTabBar):
        for i in range(widget.count()):
            if widget.isTabVisible(i) and widget.tabText(i).strip():
                keys.add(f"tab «{_short(widget.tabText(i))}» {where}", WIDGET, font_points(widget.font(), widget))
    elif isinstance(widget, QHeaderView):
        model = widget.model()
        if model is None:
            return
        orientation = widget.orientation()
        for section in range(min(widget.count(), MAX_CELLS)):
            if widget.isSectionHidden(section):
                continue
            text = str(model.headerData(section, orientation) or "")
            if text.strip():
                font = model.headerData(section, orientation, Qt.ItemDataRole.FontRole)
                points = font_points(font if isinstance(font, QFont) else widget.font(), widget)
                keys.add(f"header «{_short(text)}» {where}", WIDGET, points)
    elif isinstance(widget, QAbstractItemView) and not isinstance(widget, QHeaderView):
        _cells(widget, keys, where)


def _cells(view: QAbstractItemView, keys: _Keys, where: str) -> None:
    model = view.model()
    if model is None:
        return
    viewport = view.viewport().rect()
    root = view.rootIndex()
    try:
        columns = model.columnCount(root)
    except TypeError:  # a list model's columnCount is private: one column
        columns = 1
    for r in range(min(model.rowCount(root), MAX_CELLS)):
        for c in range(columns):
            index = model.index(r, c, root)
            if not view.visualRect(index).intersects(viewport):
                continue
            text = str(index.data(Qt.ItemDataRole.DisplayRole) or "")
            if not text.strip():
                continue
            font = index.data(Qt.ItemDataRole.FontRole)
            points = font_points(font if isinstance(font, QFont) else view.font(), view)
            keys.add(f"cell {r},{c} {where}", WIDGET, points)


# ------------------------------------------------------------------ graphics views


def _view_name(view: QGraphicsView) -> str:
    if id(view) in _ATTRIBUTES:
        return _ATTRIBUTES[id(view)]
    owner = _owner(view)
    return f"{_name(view)} in {owner}" if owner else _name(view)


def _scale(transform) -> float:
    """The linear scale of a transform (rotation ignored: an axis label turned 90° keeps its size)."""
    return math.sqrt(abs(transform.m11() * transform.m22() - transform.m12() * transform.m21()))


def _view_kind(view: QGraphicsView) -> str | None:
    import pyqtgraph as pg

    from gui.graph_view import GraphView
    from gui.plots.network_diagram_layout import DiagramView

    if isinstance(view, GraphView):
        return GRAPH
    if isinstance(view, pg.GraphicsView | DiagramView):  # (the network diagram's view: a plot's text too)
        return PLOT
    return None


def _scene_text(view: QGraphicsView, keys: _Keys, kind: str) -> None:
    """Every visible text item of the view's scene, at its size on screen."""
    scene = view.scene()
    if scene is None:
        return
    viewport = QRectF(view.viewport().rect())
    where = _view_name(view)
    for item in scene.items():
        if isinstance(item, QGraphicsSimpleTextItem):
            text = item.text()
            points = font_points(item.font(), view)
        elif isinstance(item, QGraphicsTextItem):
            text = item.toPlainText()
            points = document_points(item.document(), view)
        else:
            continue
        if not text.strip() or not item.isVisible() or item.effectiveOpacity() <= 0.01:
            continue
        device = item.deviceTransform(view.viewportTransform())
        if not device.mapRect(item.boundingRect()).intersects(viewport):
            continue
        if item.parentItem() is not None and item.parentItem() is _title_label(view):
            label = "title"  # (a long title is shortened to fit its plot: the same title in both modes)
        else:
            label = f"text «{_short(text)}»"
        keys.add(f"{label} in {where}", kind, points * _scale(device))


def _title_label(view: QGraphicsView):
    plot = getattr(view, "getPlotItem", None)
    return getattr(plot(), "titleLabel", None) if callable(plot) else None


def _axis_ticks(view, keys: _Keys) -> None:
    """pyqtgraph axes draw their numbers themselves, in their tick font (or the view's font)."""
    import pyqtgraph as pg

    where = _view_name(view)
    for item in view.scene().items():
        if not isinstance(item, pg.AxisItem) or not item.isVisible() or item.style.get("showValues") is False:
            continue
        font = item.style.get("tickFont") or view.font()
        device = item.deviceTransform(view.viewportTransform())
        name = getattr(item, "orientation", "axis")
        keys.add(f"axis numbers {name} in {where}", PLOT, font_points(font, view) * _scale(device))


def _graph_view(view, keys: _Keys) -> None:
    """A graph view: the boxes' value text at the current zoom (GRAPH) and the legend's text (PLOT)."""
    where = _view_name(view)
    if view.nodes:
        keys.add(f"graph box text in {where}", GRAPH, view.fitted_text_points())
    legend = getattr(view, "legend", None)
    if legend is not None and legend.isVisible():
        keys.add(f"graph legend in {where}", PLOT, font_points(view.body_font, view))


# ------------------------------------------------------------------ measure and compare


def measure(window: QWidget, extra: tuple[QWidget, ...] = ()) -> dict[str, TextSize]:
    """Every visible text of ``window`` (and of the windows in ``extra``, a dialog) at its on-screen size."""
    from gui.graph_view import GraphView

    keys = _Keys()
    _ATTRIBUTES.clear()
    for top in (window, *extra):
        _ATTRIBUTES.update(_attribute_names(top))
    for top in (window, *extra):
        for widget in top.findChildren(QWidget):
            if widget.window() is not top:
                continue
            if isinstance(widget, QGraphicsView):
                # (a pyqtgraph view's own visible region is empty: its viewport covers it)
                if not widget.isVisible() or not _visible_on_screen(widget.viewport()):
                    continue
                kind = _view_kind(widget)
                if isinstance(widget, GraphView):
                    _graph_view(widget, keys)
                    _scene_text(widget, keys, GRAPH)
                elif kind is not None:
                    _scene_text(widget, keys, kind)
                    if kind == PLOT:
                        _axis_ticks(widget, keys)
                continue
            if _visible_on_screen(widget):
                _widget_text(widget, keys)
    _ATTRIBUTES.clear()
    return keys.sizes


def ratios(normal: dict[str, TextSize], presentation: dict[str, TextSize]) -> dict[str, tuple[str, float]]:
    """key → (kind, presentation ÷ normal) for the texts shown in both."""
    out = {}
    for key, small in normal.items():
        big = presentation.get(key)
        if big is not None and small.points > 0:
            out[key] = (small.kind, big.points / small.points)
    return out


# Whether ``compare`` holds graph box text to GRAPH_RATIO (it depends on the graph views' Fit).
CHECK_GRAPH_TEXT = True


def compare(
    normal: dict[str, TextSize], presentation: dict[str, TextSize], check_graph: bool | None = None
) -> list[Finding]:
    """Texts that presentation mode does not make large enough: widget text smaller than in normal mode, plot
    and diagram text (and the graph legends) less than 1.5×, graph box text smaller than in normal mode
    (``check_graph``, by default CHECK_GRAPH_TEXT)."""
    check_graph = CHECK_GRAPH_TEXT if check_graph is None else check_graph
    found = []
    for key, (kind, ratio) in sorted(ratios(normal, presentation).items()):
        small, big = normal[key].points, presentation[key].points
        detail = f"{small:.1f} pt → {big:.1f} pt (×{ratio:.2f})"
        if kind == WIDGET and ratio < 1.0 - WIDGET_TOLERANCE:
            found.append(Finding("smaller in presentation", key, detail))
        elif kind == PLOT and ratio < PLOT_RATIO:
            found.append(Finding("plot text not 1.5×", key, detail))
        elif kind == GRAPH and check_graph and ratio < GRAPH_RATIO:
            found.append(Finding("graph text smaller in presentation", key, detail))
    return found


def min_ratios(normal: dict[str, TextSize], presentation: dict[str, TextSize]) -> dict[str, tuple[float, str]]:
    """kind → (smallest ratio, its key)."""
    least: dict[str, tuple[float, str]] = {}
    for key, (kind, ratio) in ratios(normal, presentation).items():
        if kind not in least or ratio < least[kind][0]:
            least[kind] = (ratio, key)
    return least


def measure_state(tour, state, size: tuple[int, int], theme: str = "light"):
    """The state shown in normal mode and in presentation mode at ``size``: (normal, presentation) measurements."""
    from tools.tour_states import Mode

    out = []
    for on in (False, True):
        mode = Mode(theme, on, size)
        tour.apply_mode(mode)  # as the screenshot tour does: a mode, the state, the mode again
        state.setup(tour)
        tour.apply_mode(mode)
        extra = (tour.dialog,) if tour.dialog is not None else ()
        out.append(measure(tour.window, extra))
    return out[0], out[1]


def main(argv: list[str] | None = None) -> int:
    import argparse
    import fnmatch
    import tempfile
    import time

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="only the representative states")
    parser.add_argument("--only", default="*", help="states whose name matches (fnmatch, comma list)")
    parser.add_argument("--sizes", default="1600x1000,1280x720,1024x700", help="window sizes, comma list")
    parser.add_argument("--theme", default="light")
    parser.add_argument("--findings", action="store_true", help="list every finding (default: the first 3)")
    args = parser.parse_args(argv)

    from PySide6.QtWidgets import QApplication

    from tools.tour_states import Tour, build_states

    states = [s for s in build_states() if not args.quick or s.representative]
    states = [s for s in states if any(fnmatch.fnmatch(s.name, p) for p in args.only.split(","))]
    sizes = [tuple(int(v) for v in s.split("x")) for s in args.sizes.split(",")]
    app = QApplication.instance() or QApplication(sys.argv)
    app.setApplicationName("autograd-playground-text-sizes")
    tour = Tour(tempfile.mkdtemp(prefix="text-sizes-"))
    started = time.monotonic()
    total = 0
    worst: dict[tuple[int, int], dict[str, tuple[float, str]]] = {size: {} for size in sizes}
    print(f"{'state':30} {'size':>9} {'widgets':>8} {'plot':>6} {'graph':>6}  findings")
    try:
        for state in states:
            for size in sizes:
                normal, big = measure_state(tour, state, size, args.theme)
                least = min_ratios(normal, big)
                found = compare(normal, big)
                total += len(found)
                for kind, (ratio, key) in least.items():
                    if kind not in worst[size] or ratio < worst[size][kind][0]:
                        worst[size][kind] = (ratio, f"{state.name}: {key}")
                cells = [f"{least[k][0]:.2f}" if k in least else "-" for k in (WIDGET, PLOT, GRAPH)]
                print(
                    f"{state.name:30} {size[0]}x{size[1]:<4} {cells[0]:>8} {cells[1]:>6} {cells[2]:>6}  {len(found)}",
                    flush=True,
                )
                for f in found if args.findings else found[:3]:
                    print(f"    {f}")
    finally:
        tour.close()
    print(f"\nsmallest ratio (presentation ÷ normal) per size, {len(states)} states, {args.theme} theme:")
    for size in sizes:
        for kind in (WIDGET, PLOT, GRAPH):
            if kind in worst[size]:
                ratio, where = worst[size][kind]
                print(f"  {size[0]}x{size[1]:<4} {kind:6} ×{ratio:.2f}  ({where})")
    print(f"{total} finding(s) in {time.monotonic() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
