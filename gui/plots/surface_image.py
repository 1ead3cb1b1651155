"""A function on a grid as a filled contour image: one color per band between levels, gray where inf or nan.

Shared by the Optimizer lab's map and the training area's loss landscape; the
bands come from ``autograd_core.lab.surfaces.contour_bands``, the colors from the
theme (``gui.shell.theme.lab_colors``).
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QRectF

from autograd_core.lab.surfaces import contour_bands

from ..shell.theme import lab_colors


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
