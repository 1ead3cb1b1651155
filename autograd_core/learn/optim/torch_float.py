"""Floating-point steps done as torch's CPU kernels do them, so the same gradients give the same numbers to the
last bit: a fused multiply–add (one rounding), torch.lerp's two formulas, IEEE square root and division, and the
checks every optimizer setting goes through."""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable
from fractions import Fraction

from autograd_core.engine.tensor import ieee_div


def finite_number(name: str, value, lo: float = 0.0, hi: float = math.inf, hi_open: bool = False) -> float:
    """``value`` as a float if it is a finite number in [lo, hi] (or [lo, hi)); ValueError otherwise."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not math.isfinite(value):
        raise ValueError(f"{name} must be a finite number, got {value!r}")
    if value < lo or value > hi or (hi_open and value == hi):
        upper = "" if hi == math.inf else (f" and below {hi:g}" if hi_open else f" and at most {hi:g}")
        raise ValueError(f"{name} must be at least {lo:g}{upper}, got {value!r}")
    return float(value)


def flag(name: str, value) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"{name} must be true or false, got {value!r}")
    return value


def ieee_sqrt(x: float) -> float:
    """IEEE square root, as torch: nan for a negative number instead of Python's ValueError."""
    return math.sqrt(x) if x >= 0.0 else math.nan


def exact_fma(a: float, b: float, c: float) -> float:
    """``a·b + c`` rounded once, with exact rational arithmetic (slow; where no libm fma is at hand)."""
    if not (math.isfinite(a) and math.isfinite(b) and math.isfinite(c)):
        return a * b + c
    exact = Fraction(a) * Fraction(b) + Fraction(c)
    if exact == 0:
        return a * b + c  # the sign of a zero, as IEEE
    try:
        return float(exact)  # int / int: correctly rounded
    except OverflowError:
        return math.copysign(math.inf, exact)


def _load_fma() -> Callable[[float, float, float], float]:
    """The fused multiply–add (``a·b + c`` with one rounding) that torch's CPU kernels use.

    ``math.fma`` from Python 3.13, else the C library's ``fma`` through ctypes
    (checked on a case where fusing shows), else ``exact_fma``.  The maths library is tried by its usual names
    first: ``ctypes.util.find_library`` runs ``ldconfig`` (or a compiler) in a subprocess, 0.1–0.3 s of every
    start of the app and of its training process on a busy machine.
    """
    fused = getattr(math, "fma", None)
    if fused is not None:
        return fused
    try:
        import ctypes

        def names():
            yield from ("libm.so.6", "libm.dylib", "ucrtbase", "msvcrt")
            import ctypes.util

            yield ctypes.util.find_library("m")

        for name in names():
            if not name:
                continue
            try:
                c_fma = ctypes.PyDLL(name).fma
            except (OSError, AttributeError):
                continue
            c_fma.restype = ctypes.c_double
            c_fma.argtypes = (ctypes.c_double, ctypes.c_double, ctypes.c_double)
            if c_fma(0.1, 10.0, -1.0) == exact_fma(0.1, 10.0, -1.0) != 0.0:
                return c_fma
    except ImportError:  # pragma: no cover - Python without ctypes
        pass
    return exact_fma  # pragma: no cover - every supported platform has a C fma


fma = _load_fma()


def lerp(start: float, end: float, weight: float) -> float:
    """torch.lerp: its formula depends on the size of the weight, fused as on torch's CPU."""
    if abs(weight) < 0.5:
        return fma(weight, end - start, start)
    return fma(weight - 1.0, end - start, end)


def divide(a: float, b: float) -> float:
    try:
        return a / b
    except ZeroDivisionError:  # eps = 0 and a zero second moment: 0/0 = nan as in torch
        return ieee_div(a, b)
