"""Floating-point primitives that follow IEEE like numpy and PyTorch: no rule ever raises a Python arithmetic
exception (inf and nan instead), and the numpy twins the vectorised forward shares."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

INF = math.inf
NAN = math.nan
SQRT1_2 = math.sqrt(0.5)
INV_SQRT_2PI = 1.0 / math.sqrt(2.0 * math.pi)
TWO_OVER_SQRT_PI = 2.0 / math.sqrt(math.pi)
GELU_TANH_C = math.sqrt(2.0 / math.pi)  # GELU's tanh approximation, as in PyTorch
GELU_TANH_K = 0.044715
SELU_ALPHA = 1.6732632423543772848170429916717
SELU_SCALE = 1.0507009873554804934193349852946

# ----------------------------------------------------- IEEE-safe primitives


def _is_odd_integer(y: float) -> bool:
    return math.isfinite(y) and y == math.floor(y) and math.fmod(y, 2.0) != 0.0


def ieee_pow(x: float, y: float) -> float:
    """``x ** y`` as C's pow(): inf/nan instead of Python exceptions or complex."""
    try:
        return math.pow(x, y)
    except OverflowError:
        return -INF if (x < 0 and _is_odd_integer(y)) else INF
    except ValueError:
        if x == 0.0:  # 0 ** negative
            return math.copysign(INF, x) if _is_odd_integer(y) else INF
        return NAN  # negative base, non-integer exponent


def ieee_exp(x: float) -> float:
    try:
        return math.exp(x)
    except OverflowError:
        return INF


def ieee_log(x: float) -> float:
    if x > 0.0:
        return math.log(x)  # also log(inf) = inf
    if x == 0.0:
        return -INF
    return NAN  # negative or nan


def ieee_div(x: float, y: float) -> float:
    try:
        return x / y
    except ZeroDivisionError:
        if x == 0.0 or x != x:
            return NAN
        return math.copysign(INF, x) * math.copysign(1.0, y)


def stable_sigmoid(x: float) -> float:
    """1 / (1 + e^-x) without overflow for any x (split on the sign of x)."""
    if x >= 0.0:
        return 1.0 / (1.0 + math.exp(-x))
    if x != x:
        return NAN
    z = ieee_exp(x)
    return z / (1.0 + z)


def softplus(x: float) -> float:
    """log(1 + e^x), stable for any x: the building block of cross-entropy."""
    if x != x:
        return NAN
    return max(x, 0.0) + math.log1p(math.exp(-abs(x)))


def stable_softmax(values: Sequence[float]) -> list[float]:
    """e^v / Σ e^v for a few scores, shifted by the largest so no exp overflows (the scalar twin of softmax_array)."""
    top = max(values)
    exps = [math.exp(v - top) for v in values]
    total = math.fsum(exps)
    return [e / total for e in exps]


def sigmoid_array(x):
    """stable_sigmoid over an array: the same two forms, split on the sign of x, so no exp overflows."""
    x = np.asarray(x, dtype=float)
    e = np.exp(-np.abs(x))
    return np.where(x >= 0, 1.0 / (1.0 + e), e / (1.0 + e))


def softmax_array(z, axis: int = -1) -> np.ndarray:
    """e^z / Σ e^z along ``axis``, shifted by the largest score there (no overflow; a row with inf or nan gives
    nan, quietly)."""
    z = np.asarray(z, dtype=float)
    with np.errstate(all="ignore"):
        e = np.exp(z - np.max(z, axis=axis, keepdims=True))
        return e / np.sum(e, axis=axis, keepdims=True)


def np_softplus(x):
    return np.maximum(x, 0.0) + np.log1p(np.exp(-np.abs(x)))


def np_erf(x):
    from scipy.special import erf  # scipy comes with scikit-learn; loaded only when used

    return erf(x)


def np_erfc(x):
    from scipy.special import erfc

    return erfc(x)
