"""A function on a grid as a filled contour image: one color per band between levels, gray where inf or nan.

Shared by the Optimizer lab's map and the training area's loss landscape; the
bands come from ``autograd_core.lab.surfaces.contour_bands``, the colors from the
theme (``gui.look.theme.lab_colors``).
"""

from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QPointF, QRectF
from PySide6.QtGui import QColor, QFontMetricsF, QPainter
from PySide6.QtWidgets import QHBoxLayout, QSizePolicy, QWidget

from autograd_core.lab.surfaces import contour_bands
from autograd_core.numbers import format_number

from ..look.theme import lab_colors, palette


def band_colors(count: int, theme: str) -> np.ndarray:
    """RGBA rows for ``count`` bands (low → high) and one more, last, for inf/nan."""
    colors = lab_colors(theme)
    stops = [colors.surface_low, colors.surface_mid, colors.surface_high]
    rgb = np.array([[c.red(), c.green(), c.blue()] for c in stops], dtype=float)
    t = np.linspace(0.0, 1.0, max(count, 1))
    table = np.empty((len(t) + 1, 4), dtype=np.ubyte)
    for k in range(3):
        table[:-1, k] = np.round(np.interp(t, [0.0, 0.5, 1.0], rgb[:, k]))
    table[:-1, 3] = 255
    bad = colors.non_finite
    table[-1] = (bad.red(), bad.green(), bad.blue(), 255)
    return table


def show_bands(
    image: pg.ImageItem, values: np.ndarray, levels: np.ndarray, xs: np.ndarray, ys: np.ndarray, theme: str
) -> None:
    """Paint ``values[i, j]`` (at xs[j], ys[i]) into a row-major ImageItem as filled contour bands."""
    n = len(levels)
    table = band_colors(n + 1, theme)
    bands = contour_bands(values, levels)
    image.setImage(table[np.where(bands < 0, n + 1, bands)], autoLevels=False)
    x0, x1, y0, y1 = float(xs[0]), float(xs[-1]), float(ys[0]), float(ys[-1])
    dx = (x1 - x0) / max(len(xs) - 1, 1)
    dy = (y1 - y0) / max(len(ys) - 1, 1)
    image.setRect(QRectF(x0 - dx / 2, y0 - dy / 2, x1 - x0 + dx, y1 - y0 + dy))


class BandKey(QWidget):
    """The color scale beside a banded map: each band's color, low at the bottom, with the level numbers at its
    edges (every n-th when the strip is short), so a color can be read as a value."""

    def __init__(self, title: str, parent: QWidget | None = None):
        super().__init__(parent)
        self.title = title
        self.levels = np.zeros(0)
        self.colors = np.zeros((0, 4), dtype=np.ubyte)
        self.theme = "light"
        self.setMinimumWidth(56)
        self.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Expanding)
        self.setToolTip(f"{title}: the value at each band's edge; gray: inf or nan")

    def set_bands(self, levels: np.ndarray, theme: str) -> None:
        """The levels between bands (as ``show_bands`` got them) in ``theme``'s colors."""
        self.levels = np.asarray(levels, dtype=float)
        self.colors = band_colors(len(self.levels) + 1, theme)[:-1]
        self.theme = theme
        self.setFixedWidth(self._width())
        self.update()

    def _strip(self) -> QRectF:
        fm = QFontMetricsF(self.font())
        top = fm.height() * 1.5  # the title's row and half a number's height
        return QRectF(4, top, 14, max(1.0, self.height() - top - fm.height() / 2 - 2))

    def shown_levels(self) -> list[int]:
        """Indices of the levels whose numbers are written: as many as fit a line apart, the highest always."""
        n = len(self.levels)
        if not n:
            return []
        pitch = self._strip().height() / (n + 1)
        every = max(1, math.ceil(1.3 * QFontMetricsF(self.font()).height() / max(pitch, 1e-6)))
        return sorted(range(n - 1, -1, -every))  # from the top down: the highest level is always written

    def labels(self) -> list[str]:
        return [format_number(float(self.levels[i])) for i in self.shown_levels()]

    def _width(self) -> int:
        fm = QFontMetricsF(self.font())
        numbers = [fm.horizontalAdvance(format_number(float(v))) for v in self.levels] or [0.0]
        return math.ceil(max(4 + 14 + 4 + max(numbers), fm.horizontalAdvance(self.title)) + 6)

    def band_rect(self, k: int) -> QRectF:
        """Where band ``k`` (0 = lowest) is painted."""
        strip = self._strip()
        h = strip.height() / max(len(self.colors), 1)
        return QRectF(strip.left(), strip.bottom() - (k + 1) * h, strip.width(), h)

    def paintEvent(self, event) -> None:
        pal = palette(self.theme)
        painter = QPainter(self)
        painter.setPen(QColor(pal.plot_text))
        fm = QFontMetricsF(self.font())
        painter.drawText(QPointF(2, fm.ascent()), self.title)
        for k, rgba in enumerate(self.colors):
            painter.fillRect(self.band_rect(k), QColor(*(int(v) for v in rgba)))
        painter.setPen(QColor(pal.axis))
        painter.drawRect(self._strip())
        painter.setPen(QColor(pal.plot_text))
        for i in self.shown_levels():
            y = self.band_rect(i).top()  # level i is the edge between band i and band i + 1
            painter.drawLine(QPointF(18, y), QPointF(21, y))
            painter.drawText(QPointF(23, y + fm.ascent() / 2 - 1), format_number(float(self.levels[i])))
        painter.end()


def beside(plot: QWidget, key: BandKey) -> QWidget:
    """The map with its color scale on its right, as one widget."""
    box = QWidget()
    row = QHBoxLayout(box)
    row.setContentsMargins(0, 0, 0, 0)
    row.setSpacing(2)
    row.addWidget(plot, 1)
    row.addWidget(key)
    return box
