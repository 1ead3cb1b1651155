"""How different two colors look: CIELAB and the CIEDE2000 color difference, without Qt.

The palette's promise that the sign of a weight never looks like a class color is a number here, so a test can
hold it: ΔE00 of about 1 is the smallest difference people notice side by side, above about 10 two colors read
as different colors, not shades of one.  Formulas: CIE 15:2004 (sRGB to XYZ to CIELAB under D65) and Sharma, Wu
and Dalal, "The CIEDE2000 color-difference formula" (2005), whose test pairs
tests/core/drawing/test_color_difference.py checks.
"""

from __future__ import annotations

import math

_WHITE_D65 = (0.95047, 1.0, 1.08883)
_MACHADO = {  # Machado, Oliveira and Fernandes (2009), severity 1.0, applied to linear RGB
    "protan": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216), (-0.003882, -0.048116, 1.051998)),
    "deutan": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413), (-0.011820, 0.042940, 0.968881)),
    "tritan": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602), (0.004733, 0.691367, 0.303900)),
}
CVD_KINDS = tuple(_MACHADO)


def _rgb(color: str) -> tuple[float, float, float]:
    text = color.lstrip("#")
    if len(text) != 6:
        raise ValueError(f"not a #rrggbb color: {color!r}")
    return tuple(int(text[i : i + 2], 16) / 255 for i in (0, 2, 4))


def _linear(v: float) -> float:
    return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4


def _encode(v: float) -> float:
    v = min(1.0, max(0.0, v))
    return 12.92 * v if v <= 0.0031308 else 1.055 * v ** (1 / 2.4) - 0.055


def _lab_of_linear(r: float, g: float, b: float) -> tuple[float, float, float]:
    x = 0.4124564 * r + 0.3575761 * g + 0.1804375 * b
    y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b
    z = 0.0193339 * r + 0.1191920 * g + 0.9503041 * b

    def f(t: float) -> float:
        return t ** (1 / 3) if t > (6 / 29) ** 3 else t / (3 * (6 / 29) ** 2) + 4 / 29

    fx, fy, fz = (f(v / w) for v, w in zip((x, y, z), _WHITE_D65, strict=True))
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def lab(color: str) -> tuple[float, float, float]:
    """CIELAB (L*, a*, b*) of a "#rrggbb" sRGB color, D65 white: L* is 0 for black, 100 for white."""
    return _lab_of_linear(*(_linear(v) for v in _rgb(color)))


def simulate(color: str, kind: str) -> str:
    """The color as a person with full protanopia, deuteranopia or tritanopia ("protan", …) sees it."""
    r, g, b = (_linear(v) for v in _rgb(color))
    rows = _MACHADO[kind]
    out = (_encode(m[0] * r + m[1] * g + m[2] * b) for m in rows)
    return "#" + "".join(f"{round(v * 255):02x}" for v in out)


def delta_e76(a: str, b: str) -> float:
    """CIE76 ΔE*ab: the straight distance in CIELAB (overstates differences between saturated colors)."""
    return math.dist(lab(a), lab(b))


def ciede2000(lab1: tuple[float, float, float], lab2: tuple[float, float, float]) -> float:
    """CIEDE2000 ΔE00 of two CIELAB colors (kL = kC = kH = 1)."""
    l1, a1, b1 = lab1
    l2, a2, b2 = lab2
    c_bar = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(c_bar**7 / (c_bar**7 + 25**7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360 if c1p else 0.0
    h2p = math.degrees(math.atan2(b2, a2p)) % 360 if c2p else 0.0
    dl = l2 - l1
    dc = c2p - c1p
    if c1p * c2p == 0:
        dh = 0.0
    elif abs(h2p - h1p) <= 180:
        dh = h2p - h1p
    elif h2p - h1p > 180:
        dh = h2p - h1p - 360
    else:
        dh = h2p - h1p + 360
    dh_big = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dh / 2))
    l_bar = (l1 + l2) / 2
    cp_bar = (c1p + c2p) / 2
    if c1p * c2p == 0:
        hp_bar = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        hp_bar = (h1p + h2p) / 2
    elif h1p + h2p < 360:
        hp_bar = (h1p + h2p + 360) / 2
    else:
        hp_bar = (h1p + h2p - 360) / 2
    t = (
        1
        - 0.17 * math.cos(math.radians(hp_bar - 30))
        + 0.24 * math.cos(math.radians(2 * hp_bar))
        + 0.32 * math.cos(math.radians(3 * hp_bar + 6))
        - 0.20 * math.cos(math.radians(4 * hp_bar - 63))
    )
    d_theta = 30 * math.exp(-(((hp_bar - 275) / 25) ** 2))
    r_c = 2 * math.sqrt(cp_bar**7 / (cp_bar**7 + 25**7))
    s_l = 1 + 0.015 * (l_bar - 50) ** 2 / math.sqrt(20 + (l_bar - 50) ** 2)
    s_c = 1 + 0.045 * cp_bar
    s_h = 1 + 0.015 * cp_bar * t
    r_t = -math.sin(math.radians(2 * d_theta)) * r_c
    return math.sqrt((dl / s_l) ** 2 + (dc / s_c) ** 2 + (dh_big / s_h) ** 2 + r_t * (dc / s_c) * (dh_big / s_h))


def delta_e(a: str, b: str) -> float:
    """CIEDE2000 ΔE00 of two "#rrggbb" colors: 0 for the same color, about 100 for black against white."""
    return ciede2000(lab(a), lab(b))


def nearest(color: str, others: tuple[str, ...] | list[str]) -> tuple[float, str]:
    """(ΔE00, which) of the color in ``others`` that looks most like ``color``."""
    return min((delta_e(color, other), other) for other in others)
