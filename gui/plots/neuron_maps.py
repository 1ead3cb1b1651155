"""Per-neuron maps as pictures: each hidden unit's output over the input plane, colored for a projector.

The numbers come from ``autograd_core.live.neuron_maps`` (a vectorised forward
on a small grid); this module only turns them into ``QImage``s.
Units that can be negative (tanh, linear, leaky ReLU…) get a diverging map
around 0 in the sign colors of the diagram (gold −, white 0, black + on the light theme; gold, dark, white on
the dark one); units that cannot (ReLU, sigmoid, softplus) get a sequential map in grays from white (0) to dark
(dark to light on the dark theme), so "off" is white and "on" is dark, as a large positive output is in the
signed map, and no hue is taken from the class colors.  Which is which, and the fixed scale of a bounded unit
(sigmoid 0…1, tanh −1…1), come from the activation's output range in the op table.
"""

from __future__ import annotations

import math

import numpy as np
from PySide6.QtGui import QImage

from autograd_core.learn.nn import ACTIVATIONS, activation_range
from autograd_core.live.neuron_maps import MAP_RESOLUTION  # noqa: F401  (the cells per side the maps come in)
from autograd_core.numbers import format_number

from ..look.theme import Palette, palette


def is_sequential(activation: str) -> bool:
    """True when the unit's output is never negative (white = 0 … dark), so no diverging map is needed."""
    return activation_range(activation)[0] >= 0.0


def fixed_range(activation: str) -> tuple[float, float] | None:
    """The whole output range of a bounded unit (sigmoid 0…1), drawn on the same scale every time; None otherwise."""
    lo, hi = activation_range(activation)
    return (lo, hi) if math.isfinite(lo) and math.isfinite(hi) else None


SEQUENTIAL = tuple(name for name in ACTIVATIONS if is_sequential(name))


def _stops(pal: Palette, sequential: bool) -> tuple:
    if sequential:
        return tuple(zip((0.0, 0.45, 1.0), pal.sequential_stops))
    return ((0.0, pal.sign_colors[0]), (0.5, pal.sequential_stops[0]), (1.0, pal.sign_colors[1]))


def _table(stops) -> np.ndarray:
    """A 256 × 4 RGBA lookup table through the color stops."""
    pos = np.array([p for p, _ in stops])
    rgb = np.array([[int(c[i : i + 2], 16) for i in (1, 3, 5)] for _, c in stops], dtype=float)
    t = np.linspace(0.0, 1.0, 256)
    table = np.empty((256, 4), dtype=np.uint8)
    for k in range(3):
        table[:, k] = np.round(np.interp(t, pos, rgb[:, k]))
    table[:, 3] = 255
    return table


_TABLES: dict[tuple[str, bool], np.ndarray] = {}


def color_table(sequential: bool, pal: Palette | None = None) -> np.ndarray:
    """The 256-entry lookup table of a sequential or diverging map in the palette's colors (cached)."""
    pal = pal or palette()
    key = (pal.name, sequential)
    if key not in _TABLES:
        _TABLES[key] = _table(_stops(pal, sequential))
    return _TABLES[key]


def map_range(values: np.ndarray, activation: str) -> tuple[float, float]:
    """The value range the colors span: fixed for bounded units, the map's own extreme otherwise."""
    finite = np.abs(values[np.isfinite(values)])
    peak = float(finite.max()) if finite.size else 0.0
    fixed = fixed_range(activation)
    if fixed is not None:
        return fixed
    if is_sequential(activation):
        return 0.0, max(peak, 1e-9)
    return -max(peak, 1e-9), max(peak, 1e-9)


def _disc(n: int) -> np.ndarray:
    """True inside the circle inscribed in an n × n image: the map is shown as a round neuron."""
    c = (np.arange(n) + 0.5 - n / 2) / (n / 2)
    return np.hypot(c[None, :], c[:, None]) <= 1.0


def map_images(maps: np.ndarray, activation: str, round_mask: bool = False, pal: Palette | None = None) -> list[QImage]:
    """One image per unit of a layer's maps (units, n, n), colored in one vectorised pass.

    ``round_mask`` makes the corners transparent, so the picture is a disc
    without asking Qt to clip to a circle on every repaint (which costs more
    than all the rest of the diagram).
    """
    maps = np.asarray(maps, dtype=float)
    sequential = is_sequential(activation)
    fixed = fixed_range(activation)
    table = color_table(sequential, pal)
    finite = np.where(np.isfinite(maps), maps, 0.0)
    peak = np.abs(finite).reshape(len(maps), -1).max(axis=1) if maps.size else np.zeros(0)
    if fixed is not None:
        lo, hi = np.full_like(peak, fixed[0]), np.full_like(peak, fixed[1])
    elif sequential:
        lo, hi = np.zeros_like(peak), np.maximum(peak, 1e-9)
    else:
        hi = np.maximum(peak, 1e-9)
        lo = -hi
    t = np.clip((finite - lo[:, None, None]) / (hi - lo)[:, None, None], 0.0, 1.0)
    rgba = table[np.round(t * 255).astype(np.uint8)][:, ::-1]  # y up → rows top-down
    if round_mask:
        rgba[:, ~_disc(maps.shape[-1]), 3] = 0
    images = []
    for unit in rgba:
        unit = np.ascontiguousarray(unit)
        h, w = unit.shape[:2]
        images.append(QImage(unit.data, w, h, 4 * w, QImage.Format.Format_RGBA8888).copy())  # copy: own the pixels
    return images


def map_image(values: np.ndarray, activation: str, pal: Palette | None = None) -> QImage:
    """``values[i, j]`` (y up, as ``unit_maps`` returns) as an RGBA image (y down, as screens are)."""
    return map_images(np.asarray(values)[None], activation, pal=pal)[0]


def describe_range(values: np.ndarray, activation: str) -> str:
    """The color key of one map, for its enlarged view."""
    lo, hi = map_range(values, activation)
    zero, peak = ("dark", "light") if palette().name == "dark" else ("white", "dark")
    if is_sequential(activation):
        return f"{zero} = 0 … {peak} = {format_number(hi)}"
    negative, positive = palette().sign_names
    return f"{negative} = {format_number(lo)} · {zero} = 0 · {positive} = {format_number(hi)}"
