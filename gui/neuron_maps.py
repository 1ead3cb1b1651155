"""Per-neuron maps as pictures: each hidden unit's output over the input plane, coloured for a projector.

The numbers come from ``autograd_core.inspection.unit_maps`` (vectorised
forward on a small grid); this module only turns them into ``QImage``s.
Units that can be negative (tanh, linear, leaky ReLU) get a diverging map
around 0 in the sign colours of the diagram (blue −, white 0, orange +);
units that cannot (ReLU, sigmoid) get a sequential map from white (0) to deep
purple, so "off" is white and "on" is dark whatever the class colours mean.
"""

from __future__ import annotations

import numpy as np
from PySide6.QtGui import QImage

from gui.training_style import CLASS_COLORS

MAP_RESOLUTION = 24  # cells per side of a neuron's map (drawn smoothly scaled)
SEQUENTIAL = ("relu", "sigmoid")
_SEQ_STOPS = ((0.0, "#ffffff"), (0.45, "#b39ddb"), (1.0, "#311b92"))
_DIV_STOPS = ((0.0, CLASS_COLORS[0]), (0.5, "#ffffff"), (1.0, CLASS_COLORS[1]))


def _table(stops) -> np.ndarray:
    """A 256 × 4 RGBA lookup table through the colour stops."""
    pos = np.array([p for p, _ in stops])
    rgb = np.array([[int(c[i : i + 2], 16) for i in (1, 3, 5)] for _, c in stops], dtype=float)
    t = np.linspace(0.0, 1.0, 256)
    table = np.empty((256, 4), dtype=np.uint8)
    for k in range(3):
        table[:, k] = np.round(np.interp(t, pos, rgb[:, k]))
    table[:, 3] = 255
    return table


SEQ_TABLE = _table(_SEQ_STOPS)
DIV_TABLE = _table(_DIV_STOPS)


def map_range(values: np.ndarray, activation: str) -> tuple[float, float]:
    """The value range the colours span: fixed for bounded units, the map's own extreme otherwise."""
    finite = np.abs(values[np.isfinite(values)])
    peak = float(finite.max()) if finite.size else 0.0
    if activation == "sigmoid":
        return 0.0, 1.0
    if activation == "tanh":
        return -1.0, 1.0
    if activation in SEQUENTIAL:
        return 0.0, max(peak, 1e-9)
    return -max(peak, 1e-9), max(peak, 1e-9)


def map_image(values: np.ndarray, activation: str) -> QImage:
    """``values[i, j]`` (y up, as ``unit_maps`` returns) as an RGBA image (y down, as screens are)."""
    lo, hi = map_range(values, activation)
    table = SEQ_TABLE if activation in SEQUENTIAL else DIV_TABLE
    with np.errstate(invalid="ignore"):
        t = np.clip((np.nan_to_num(values, nan=lo) - lo) / (hi - lo), 0.0, 1.0)
    rgba = np.ascontiguousarray(table[np.round(t * 255).astype(np.uint8)][::-1])
    h, w = rgba.shape[:2]
    return QImage(rgba.data, w, h, 4 * w, QImage.Format.Format_RGBA8888).copy()  # copy: own the pixels


def describe_range(values: np.ndarray, activation: str) -> str:
    """The colour key of one map, for its enlarged view."""
    lo, hi = map_range(values, activation)
    if activation in SEQUENTIAL:
        return f"white = 0 … purple = {hi:.3g}"
    return f"blue = {lo:.3g} · white = 0 · orange = {hi:.3g}"
