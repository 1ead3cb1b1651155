"""The other functions of the language (exp, log, sin, cos, abs, sqrt, erf): each op's float rule, its derivative
in the engine's own ops, and its entry, together."""

from __future__ import annotations

import math

import numpy as np

from autograd_core.engine.ops.floats import INF, NAN, TWO_OVER_SQRT_PI, ieee_div, ieee_exp, ieee_log, np_erf
from autograd_core.engine.ops.record import Op, Spellings

# ------------------------------------------------------------------ rules
# Each rule returns the value and the local derivative(s), computed together.


def _exp(x):
    e = ieee_exp(x)
    return e, e


def _log(x):
    return ieee_log(x), ieee_div(1.0, x)


def _sin(x):
    if math.isinf(x):
        return NAN, NAN
    return math.sin(x), math.cos(x)


def _cos(x):
    if math.isinf(x):
        return NAN, NAN
    return math.cos(x), -math.sin(x)


def _abs(x):
    return abs(x), (1.0 if x > 0.0 else -1.0 if x < 0.0 else 0.0 if x == 0.0 else NAN)


def _sqrt(x):
    if x < 0.0:
        return NAN, NAN
    r = math.sqrt(x)
    return r, ieee_div(0.5, r)


def _erf(x):
    return math.erf(x), TWO_OVER_SQRT_PI * math.exp(-x * x)


# ------------------------------------------------------------ derivatives
# The local derivatives again, written with the engine's ops (so they can be differentiated in turn).
# Arguments: the node itself, its operands, its parameters; they mirror the float rules above.


def _d_erf(out, x):
    return ((-(x * x)).exp() * TWO_OVER_SQRT_PI,)


# ------------------------------------------------------------ the entries

FUNCTIONS: tuple[Op, ...] = (
    Op(
        name="exp",
        arity=1,
        rule=_exp,
        derivative=lambda out, x: (out,),
        numpy=np.exp,
        text="exp({0})",
        formula=("exp({0})",),
        help="e^x",
        output_range=(0.0, INF),
        spell=Spellings(
            numpy="np.exp({0})",
            torch="torch.exp({0})",
            python="math.exp({0})",
        ),
    ),
    Op(
        name="log",
        arity=1,
        rule=_log,
        derivative=lambda out, x: (1.0 / x,),
        numpy=np.log,
        text="log({0})",
        formula=("1 / {0}",),
        help="natural logarithm: −inf at 0, nan below",
        spell=Spellings(
            numpy="np.log({0})",
            torch="torch.log({0})",
            python="math.log({0})",
        ),
    ),
    Op(
        name="sin",
        arity=1,
        rule=_sin,
        derivative=lambda out, x: (x.cos(),),
        numpy=np.sin,
        text="sin({0})",
        formula=("cos({0})",),
        help="sine (radians)",
        output_range=(-1.0, 1.0),
        spell=Spellings(
            numpy="np.sin({0})",
            torch="torch.sin({0})",
            python="math.sin({0})",
        ),
    ),
    Op(
        name="cos",
        arity=1,
        rule=_cos,
        derivative=lambda out, x: (-x.sin(),),
        numpy=np.cos,
        text="cos({0})",
        formula=("−sin({0})",),
        help="cosine (radians)",
        output_range=(-1.0, 1.0),
        spell=Spellings(
            numpy="np.cos({0})",
            torch="torch.cos({0})",
            python="math.cos({0})",
        ),
    ),
    Op(
        name="abs",
        arity=1,
        rule=_abs,
        derivative=None,
        numpy=np.abs,
        text="abs({0})",
        formula=("sign({0})",),
        help="|x|; its derivative at 0 is taken as 0",
        output_range=(0.0, INF),
        spell=Spellings(
            numpy="np.abs({0})",
            torch="torch.abs({0})",
            python="abs({0})",
        ),
    ),
    Op(
        name="sqrt",
        arity=1,
        rule=_sqrt,
        derivative=lambda out, x: (0.5 / out,),
        numpy=np.sqrt,
        text="sqrt({0})",
        formula=("1 / (2·√{0})",),
        help="√x: nan below 0",
        output_range=(0.0, INF),
        spell=Spellings(
            numpy="np.sqrt({0})",
            torch="torch.sqrt({0})",
            python="math.sqrt({0})",
        ),
    ),
    Op(
        name="erf",
        arity=1,
        rule=_erf,
        derivative=_d_erf,
        numpy=np_erf,
        text="erf({0})",
        formula=("(2/√π)·exp(−{0}²)",),
        help="error function: 2/√π ∫₀ˣ e^(−t²) dt, between −1 and 1",
        output_range=(-1.0, 1.0),
        spell=Spellings(
            numpy="erf({0})",
            numpy_helper="erf = np.vectorize(math.erf, otypes=[float])\n",
            torch="torch.erf({0})",
            python="math.erf({0})",
        ),
    ),
)
