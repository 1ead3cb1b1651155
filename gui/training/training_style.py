"""Color helpers of the training views (the plots and the network diagram must agree).

The colors themselves are in ``gui.look.theme`` (one ``Palette`` per theme); this module turns them into what
pyqtgraph and the diagram need.  Class 0 is blue and class 1 orange everywhere: points, the probability map
and the color bar; the sign of a weight has its own pair (``Palette.sign_colors``).  The map behind the points is paler
than the points (light theme) or darker (dark theme), so both read on a projector.
"""

from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QPoint, QPointF, Qt, QTimer
from PySide6.QtGui import QColor, QFont, QFontMetricsF

from ..look.theme import PALETTES, Palette, class_rgb, palette, plot_text_size, rgb

# The light theme's class colors (the names other modules and tests import; views use palette()).
CLASS_COLORS = PALETTES["light"].class_colors
NEGATIVE = QColor(CLASS_COLORS[0])
POSITIVE = QColor(CLASS_COLORS[1])


def _rgb(name: str) -> list[int]:
    c = QColor(name)
    return [c.red(), c.green(), c.blue(), 255]


def probability_colormap(pal: Palette | None = None) -> pg.ColorMap:
    """The diverging blue–neutral–orange map of P(class 1), in the palette's colors."""
    pal = pal or palette()
    colors = np.array([_rgb(c) for c in pal.probability_stops], dtype=np.ubyte)
    return pg.ColorMap(np.array([0.0, 0.5, 1.0]), colors, name=f"probability-{pal.name}")


def region_colors(pal: Palette | None = None) -> dict:
    """The colors ``autograd_core.learn.regions.region_rgba`` paints a map in (``palette``, ``background``,
    ``ramp``): one call for the live map and the PNG, so both draw the same picture of the same grid."""
    pal = pal or palette()
    return {
        "palette": class_rgb(pal.name),
        "background": rgb(pal.plot_background),  # unsure regions fade into the theme's background
        "ramp": [rgb(c) for c in pal.probability_stops],  # the color bar's stops (probability_colormap)
    }


def signed_color(value: float, scale: float, pal: Palette | None = None) -> QColor:
    """The palette's sign colors (not the class colors); paler as |value| shrinks relative to ``scale``."""
    pal = pal or palette()
    base = QColor(pal.sign_colors[1] if value >= 0 else pal.sign_colors[0])
    strength = 0.0 if scale <= 0 or not np.isfinite(value) else min(1.0, abs(value) / scale)
    base.setAlphaF(0.25 + 0.75 * strength)
    return base


def plot_font(presentation: bool | None = None, scale: float = 1.0) -> QFont:
    font = QFont()
    font.setPointSizeF(plot_text_size(presentation, scale))
    return font


def _nicer(spacing: float) -> float:
    """The next "nice" tick spacing above ``spacing`` (1, 2, 5, 10, 20, 50, … × a power of ten)."""
    exponent = math.floor(math.log10(spacing) + 1e-9)
    mantissa = spacing / 10**exponent
    step = 2.0 if mantissa < 1.5 else 2.5 if mantissa < 3.5 else 2.0
    return spacing * step


def readable_ticks(axis: pg.AxisItem) -> None:
    """Ticks far enough apart for their text (fewer on a short axis in a big font), and the axis label hidden
    when the axis is too short to show it whole.  Installed once per axis; it reads the axis's current font."""
    if getattr(axis, "_readable_ticks", False):
        return
    axis._readable_ticks = True
    original = axis.tickSpacing
    vertical = axis.orientation in ("left", "right")

    def spacing(min_val: float, max_val: float, size: float):
        levels = original(min_val, max_val, size)
        span = abs(max_val - min_val)
        _fit_label(axis, size, vertical)
        if not levels or span == 0 or size <= 0 or axis._tickSpacing is not None:
            return levels
        fm = QFontMetricsF(axis.style.get("tickFont") or QFont())
        need = 1.6 * fm.height() if vertical else 1.4 * fm.horizontalAdvance("−0.00")
        major = levels[0][0]
        if size * major / span >= need:
            return levels
        for _ in range(12):
            major = _nicer(major)
            if size * major / span >= need:
                break
        return [(major, 0.0)]

    axis.tickSpacing = spacing


def _fit_label(axis: pg.AxisItem, size: float, vertical: bool) -> None:
    """A vertical axis's label needs its text's length of axis: shorter, it is hidden (the title says it)."""
    if not vertical or not axis.labelText:
        return
    font = QFont(axis.label.font())
    styled = str(axis.labelStyle.get("font-size", ""))
    if styled.endswith("pt"):
        font.setPointSizeF(float(styled[:-2]))  # the size the label's html asks for
    want = QFontMetricsF(font).horizontalAdvance(axis.labelText) + 8 <= size
    if want != getattr(axis, "_label_fits", True):
        axis._label_fits = want
        # not while the axis draws itself: the label's room changes the layout
        QTimer.singleShot(0, axis, lambda: axis.showLabel(want))


def style_plot(widget: pg.PlotWidget, pal: Palette | None = None, presentation: bool | None = None) -> None:
    """Background, axes and axis text of a pyqtgraph plot in the palette's colors and the mode's sizes."""
    pal = pal or palette()
    widget.setBackground(pal.plot_background)
    style_axes(widget, pal.axis, pal.plot_text, presentation)


def style_axes(
    widget: pg.PlotWidget,
    line: str,
    text: str,
    presentation: bool | None = None,
    names: tuple[str, ...] = ("bottom", "left", "right", "top"),
) -> None:
    """A plot's axes: lines in ``line``, numbers and labels in ``text`` at the mode's plot text size."""
    item = widget.getPlotItem()
    font = plot_font(presentation)
    for name in names:
        axis = item.getAxis(name)
        if axis.autoSIPrefix:
            # Off: it rewrote the label's html on every range change (each frame, each hidden axis too) and
            # scaled ranges inside (0, 1) to "×0.001" units, which reads badly on a projector.
            axis.enableAutoSIPrefix(False)
        if not axis.isVisible():
            continue  # (the top and right axes are never shown: each styling call rewrote their labels)
        # (each rewrites the label's html: only when its color changes, not for a mode switch's new sizes)
        if axis.pen().color() != QColor(line):
            axis.setPen(line)
        if axis.textPen().color() != QColor(text):
            axis.setTextPen(text)
        axis.setStyle(tickFont=font)
        readable_ticks(axis)
        axis.label.setFont(font)
        # The label is html styled by labelStyle (setLabel would also reset the axis's SI-prefix ranges).
        axis.labelStyle = {"color": text, "font-size": f"{font.pointSizeF():.1f}pt"}
        axis._updateLabel()
    _room_above(item, font)


def _room_above(item: pg.PlotItem, font: QFont) -> None:
    """A vertical axis's top number reaches half a line above the data area; with no title above the plot it
    was cut by the plot's edge (the lab's map showed half a "3"): keep that half line inside the plot."""
    left, _top, right, bottom = item.layout.getContentsMargins()
    top = 1.0 if item.titleLabel.isVisible() else QFontMetricsF(font).height() / 2 + 1
    item.layout.setContentsMargins(left, top, right, bottom)


def set_plot_title(
    widget: pg.PlotWidget, title: str, pal: Palette | None = None, presentation: bool | None = None
) -> None:
    """The plot's title in the palette's color and the mode's size.  A title wider than the plot (which would
    widen the plot's layout past its view and cut the data area off) is cut at its last ":" or "," that fits,
    with the whole title as the plot's tooltip; ``refit_title`` chooses again after a resize."""
    pal = pal or palette()
    size = plot_text_size(presentation, 1.1)
    widget._title_args = (title, pal, presentation)
    font = QFont()
    font.setPointSizeF(size)
    shown = _fitting_title(title, QFontMetricsF(font), _title_room(widget))
    widget.setToolTip(title if shown != title else "")
    widget.getPlotItem().setTitle(shown, color=pal.plot_text, size=f"{size:.1f}pt")
    _room_above(widget.getPlotItem(), plot_font(presentation))


def _title_room(widget: pg.PlotWidget) -> float:
    """The title's width: the data area's column, which is the plot's width less what stands beside the data area
    (the left axis, a color bar and its numbers).  A title wider than that column widened it and pushed the color
    bar out of the plot (lesson 7 at 1280×720 in presentation mode showed the bar without its numbers)."""
    layout = widget.getPlotItem().layout
    beside = 0.0
    for column in range(layout.columnCount()):
        if column == 1:  # (the title's and the view box's column)
            continue
        widths = [
            item.effectiveSizeHint(Qt.SizeHint.MinimumSize).width()
            for item in (layout.itemAt(row, column) for row in range(layout.rowCount()))
            if item is not None and item.isVisible()
        ]
        if widths and max(widths) > 0:
            beside += max(widths) + layout.horizontalSpacing()
    return widget.width() - 24 - beside


def _fitting_title(title: str, fm: QFontMetricsF, room: float) -> str:
    if room <= 0 or "<" in title or fm.horizontalAdvance(title) <= room:  # (rich titles are left whole)
        return title
    forms = [title[:i] for i, ch in enumerate(title) if ch in ":,"]
    for form in reversed(forms):
        if fm.horizontalAdvance(form) <= room:
            return form
    return forms[0] if forms else title


def refit_title(widget: pg.PlotWidget) -> None:
    """Choose the title's form again for the plot's width (from a resize)."""
    args = getattr(widget, "_title_args", None)
    if args is not None:
        set_plot_title(widget, *args)


def map_plot(name: str, x_label: str, y_label: str) -> tuple[pg.PlotWidget, pg.ImageItem]:
    """A plot for a map of values over a plane (the lab's surface, the loss landscape): no menu, no buttons,
    plain axis numbers, and a row-major image item already added."""
    widget = pg.PlotWidget()
    widget.setObjectName(name)
    item = widget.getPlotItem()
    item.setMenuEnabled(False)
    item.hideButtons()
    item.setLabel("bottom", x_label)
    item.setLabel("left", y_label)
    for axis in ("bottom", "left"):
        item.getAxis(axis).enableAutoSIPrefix(False)
    image = pg.ImageItem(axisOrder="row-major")
    widget.addItem(image)
    return widget, image


def data_to_pixel(widget: pg.PlotWidget, x: float, y: float) -> QPoint:
    """Data coordinates → a pixel of the plot's viewport (where a click would land)."""
    vb = widget.getPlotItem().getViewBox()
    return widget.mapFromScene(vb.mapViewToScene(QPointF(x, y)))


def pixel_to_data(widget: pg.PlotWidget, pos: QPoint) -> tuple[float, float]:
    """A pixel of the plot's viewport → data coordinates."""
    p = widget.getPlotItem().getViewBox().mapSceneToView(widget.mapToScene(pos))
    return p.x(), p.y()
