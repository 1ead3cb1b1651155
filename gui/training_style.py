"""Colours of the training views, in one place (the plots and the network diagram must agree).

Class 0 is blue and class 1 orange everywhere: points, the probability map,
the colour bar and the sign of a weight (blue negative, orange positive).
The map behind the points is paler than the points so both read on a projector.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtGui import QColor

CLASS_COLORS = ("#1565c0", "#ef6c00")  # class 0 blue, class 1 orange
NEGATIVE = QColor(CLASS_COLORS[0])
POSITIVE = QColor(CLASS_COLORS[1])
TRAIN_COLOR = "#1565c0"
TEST_COLOR = "#ef6c00"
POINT_OUTLINE = "#202124"
CONTOUR_COLOR = "#202124"

# p = 0 → pale blue, 0.5 → white, 1 → pale orange.
_MAP_POSITIONS = np.array([0.0, 0.5, 1.0])
_MAP_COLORS = np.array([[120, 170, 225, 255], [255, 255, 255, 255], [250, 180, 115, 255]], dtype=np.ubyte)


def probability_colormap() -> pg.ColorMap:
    """The diverging blue–white–orange map of P(class 1)."""
    return pg.ColorMap(_MAP_POSITIONS, _MAP_COLORS, name="blue-white-orange")


def signed_color(value: float, scale: float) -> QColor:
    """Blue for negative, orange for positive; paler as |value| shrinks relative to ``scale``."""
    base = POSITIVE if value >= 0 else NEGATIVE
    strength = 0.0 if scale <= 0 or not np.isfinite(value) else min(1.0, abs(value) / scale)
    colour = QColor(base)
    colour.setAlphaF(0.25 + 0.75 * strength)
    return colour
