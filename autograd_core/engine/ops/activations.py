"""The activations the network builder offers, in its order: each op's float rule, its derivative in the engine's
own ops, and its entry, together."""

from __future__ import annotations

import math

import numpy as np

from autograd_core.engine.ops.floats import (
    GELU_TANH_C,
    GELU_TANH_K,
    INF,
    INV_SQRT_2PI,
    NAN,
    SELU_ALPHA,
    SELU_SCALE,
    SQRT1_2,
    ieee_div,
    np_erfc,
    np_softplus,
    sigmoid_array,
    softplus,
    stable_sigmoid,
)
from autograd_core.engine.ops.record import Op, Spellings

# ------------------------------------------------------------------ rules
# Each rule returns the value and the local derivative(s), computed together.


def _relu(x):
    return (x, 1.0) if x > 0.0 else (0.0 if x == x else NAN, 0.0)


def _leaky_relu(x, slope):
    return (x, 1.0) if x > 0.0 else (slope * x, slope)


def _sigmoid(x):
    s = stable_sigmoid(x)
    return s, s * (1.0 - s)


def _tanh(x):
    t = math.tanh(x)
    return t, 1.0 - t * t


def _softplus(x):
    return softplus(x), stable_sigmoid(x)


def _elu(x, alpha):
    if x > 0.0:
        return x, 1.0
    return alpha * math.expm1(x), alpha * math.exp(x)  # x <= 0 (or nan): no overflow; at 0, PyTorch's side


def _selu(x):
    if x > 0.0:
        return SELU_SCALE * x, SELU_SCALE
    return SELU_SCALE * SELU_ALPHA * math.expm1(x), SELU_SCALE * SELU_ALPHA * math.exp(x)


def _silu(x):
    s = stable_sigmoid(x)
    out = x * s
    return out, s + out * (1.0 - s)


def _gelu(x):
    cdf = 0.5 * math.erfc(-x * SQRT1_2)  # Φ(x), accurate in the far left tail too
    return x * cdf, cdf + x * INV_SQRT_2PI * math.exp(-0.5 * x * x)


def _gelu_tanh(x):
    t = math.tanh(GELU_TANH_C * (x + GELU_TANH_K * x * x * x))
    du = GELU_TANH_C * (1.0 + 3.0 * GELU_TANH_K * x * x)
    return 0.5 * x * (1.0 + t), 0.5 * (1.0 + t) + 0.5 * x * (1.0 - t * t) * du


def _softsign(x):
    d = 1.0 + abs(x)
    return ieee_div(x, d), ieee_div(1.0, d * d)


def _hardtanh(x, low, high):
    # PyTorch's rule: gradient 1 strictly inside, 0 at and beyond the edges (nan passes through).
    if x <= low:
        return low, 0.0
    if x >= high:
        return high, 0.0
    return x, 1.0


def _mish(x):
    t = math.tanh(softplus(x))
    return x * t, t + x * stable_sigmoid(x) * (1.0 - t * t)


# ------------------------------------------------------------ derivatives
# The local derivatives again, written with the engine's ops (so they can be differentiated in turn).
# Arguments: the node itself, its operands, its parameters; they mirror the float rules above.


def _d_elu(out, x, alpha):
    return (1.0 if x.data > 0.0 else x.exp() * alpha,)


def _d_selu(out, x):
    return (SELU_SCALE if x.data > 0.0 else x.exp() * (SELU_SCALE * SELU_ALPHA),)


def _d_silu(out, x):
    s = x.sigmoid()
    return (s + out * (1.0 - s),)


def _d_gelu(out, x):
    cdf = ((x * SQRT1_2).erf() + 1.0) * 0.5
    return (cdf + x * ((x * x) * -0.5).exp() * INV_SQRT_2PI,)


def _d_gelu_tanh(out, x):
    t = ((x + x**3 * GELU_TANH_K) * GELU_TANH_C).tanh()
    du = (x * x * (3.0 * GELU_TANH_K) + 1.0) * GELU_TANH_C
    return ((t + 1.0) * 0.5 + x * 0.5 * (1.0 - t * t) * du,)


def _d_softsign(out, x):
    return (1.0 / (x.abs() + 1.0) ** 2,)


def _d_mish(out, x):
    t = x.softplus().tanh()
    return (t + x * x.sigmoid() * (1.0 - t * t),)


# ------------------------------------------------------------ the entries

ACTIVATIONS: tuple[Op, ...] = (
    Op(
        name="relu",
        arity=1,
        rule=_relu,
        derivative=None,
        numpy=lambda x: np.maximum(x, 0.0),
        text="relu({0})",
        formula=("(1 if {0} > 0 else 0)",),
        help="ReLU: max(0, z) — fast to train, bends the boundary in straight pieces",
        activation=True,
        output_range=(0.0, INF),
        spell=Spellings(
            numpy="relu({0})",
            numpy_helper="def relu(z):\n    return np.maximum(z, 0.0)\n",
            torch="torch.relu({0})",
            torch_module="nn.ReLU()",
            python="max({0}, 0.0)",
        ),
    ),
    Op(
        name="leaky_relu",
        arity=1,
        rule=_leaky_relu,
        derivative=None,
        numpy=lambda x, slope: np.where(x > 0.0, x, slope * x),
        text="leaky_relu({0})",
        formula=("(1 if {0} > 0 else {slope})",),
        help="Leaky ReLU: z if z > 0 else 0.01·z — like ReLU but never completely flat",
        params=(("slope", 0.01),),
        activation=True,
        spell=Spellings(
            numpy="leaky_relu({0}, {slope})",
            numpy_helper="def leaky_relu(z, slope=0.01):\n    return np.where(z > 0.0, z, slope * z)\n",
            torch="F.leaky_relu({0}, {slope})",
            torch_module="nn.LeakyReLU(0.01)",
            python="({0} if {0} > 0 else {slope} * {0})",
        ),
    ),
    Op(
        name="tanh",
        arity=1,
        rule=_tanh,
        derivative=lambda out, x: (1.0 - out * out,),
        numpy=np.tanh,
        text="tanh({0})",
        formula=("(1 − tanh²({0}))",),
        help="tanh(z) — smooth, between −1 and 1",
        activation=True,
        output_range=(-1.0, 1.0),
        spell=Spellings(
            numpy="np.tanh({0})",
            numpy_helper="def tanh(z):\n    return np.tanh(z)\n",
            torch="torch.tanh({0})",
            torch_module="nn.Tanh()",
            python="math.tanh({0})",
        ),
    ),
    Op(
        name="sigmoid",
        arity=1,
        rule=_sigmoid,
        derivative=lambda out, x: (out * (1.0 - out),),
        numpy=sigmoid_array,
        text="sigmoid({0})",
        formula=("σ({0})·(1 − σ({0}))",),
        help="σ(z) = 1/(1+e^−z) — smooth, between 0 and 1; trains slowly in deep networks",
        activation=True,
        output_range=(0.0, 1.0),
        spell=Spellings(
            numpy="sigmoid({0})",
            numpy_helper=(
                "def sigmoid(z):\n"
                "    # 1 / (1 + e^-z), in the form that cannot overflow on either side of 0\n"
                "    e = np.exp(-np.abs(z))\n"
                "    return np.where(z >= 0, 1.0 / (1.0 + e), e / (1.0 + e))\n"
            ),
            torch="torch.sigmoid({0})",
            torch_module="nn.Sigmoid()",
            python="1.0 / (1.0 + math.exp(-{0}))",
        ),
    ),
    Op(
        name="elu",
        arity=1,
        rule=_elu,
        derivative=_d_elu,
        numpy=lambda x, alpha: np.where(x > 0.0, x, alpha * np.expm1(np.minimum(x, 0.0))),
        text="elu({0})",
        formula=("(1 if {0} > 0 else {alpha}·exp({0}))",),
        help="ELU: z if z > 0 else α·(e^z − 1), α = 1 — smooth below 0, outputs centered nearer 0 than ReLU",
        params=(("alpha", 1.0),),
        activation=True,
        output_range=lambda alpha: (-abs(alpha), INF),
        spell=Spellings(
            numpy="elu({0}, {alpha})",
            numpy_helper=(
                "def elu(z, alpha=1.0):\n    return np.where(z > 0.0, z, alpha * np.expm1(np.minimum(z, 0.0)))\n"
            ),
            torch="F.elu({0}, {alpha})",
            torch_module="nn.ELU(alpha=1.0)",
        ),
    ),
    Op(
        name="selu",
        arity=1,
        rule=_selu,
        derivative=_d_selu,
        numpy=lambda x: SELU_SCALE * np.where(x > 0.0, x, SELU_ALPHA * np.expm1(np.minimum(x, 0.0))),
        text="selu({0})",
        formula=("(1.0507 if {0} > 0 else 1.7581·exp({0}))",),
        help="SELU: 1.0507·ELU with α = 1.6733 — keeps activations normalized in deep networks",
        activation=True,
        output_range=(-SELU_SCALE * SELU_ALPHA, INF),
        spell=Spellings(
            numpy="selu({0})",
            numpy_helper=(
                "def selu(z):\n"
                f"    scale, alpha = {SELU_SCALE!r}, {SELU_ALPHA!r}\n"
                "    return scale * np.where(z > 0.0, z, alpha * np.expm1(np.minimum(z, 0.0)))\n"
            ),
            torch="F.selu({0})",
            torch_module="nn.SELU()",
        ),
    ),
    Op(
        name="silu",
        arity=1,
        rule=_silu,
        derivative=_d_silu,
        numpy=lambda x: x * sigmoid_array(x),
        text="silu({0})",
        formula=("σ({0})·(1 + {0}·(1 − σ({0})))",),
        help="SiLU (swish): z·σ(z) — smooth ReLU that dips slightly below 0",
        activation=True,
        output_range=(-0.2785, INF),
        spell=Spellings(
            numpy="silu({0})",
            numpy_helper="def silu(z):\n    return z * sigmoid(z)\n",
            numpy_needs=("sigmoid",),
            torch="F.silu({0})",
            torch_module="nn.SiLU()",
        ),
    ),
    Op(
        name="gelu",
        arity=1,
        rule=_gelu,
        derivative=_d_gelu,
        numpy=lambda x: x * (0.5 * np_erfc(-x * SQRT1_2)),
        text="gelu({0})",
        formula=("Φ({0}) + {0}·φ({0})",),
        help="GELU: z·Φ(z), Φ the normal CDF (exact erf form) — the transformer activation",
        activation=True,
        output_range=(-0.17, INF),
        spell=Spellings(
            numpy="gelu({0})",
            numpy_helper=f"def gelu(z):\n    return z * (0.5 * erfc(-z * {SQRT1_2!r}))\n",
            numpy_needs=("erfc",),
            torch="F.gelu({0})",
            torch_module="nn.GELU()",
        ),
    ),
    Op(
        name="gelu_tanh",
        arity=1,
        rule=_gelu_tanh,
        derivative=_d_gelu_tanh,
        numpy=lambda x: 0.5 * x * (1.0 + np.tanh(GELU_TANH_C * (x + GELU_TANH_K * x * x * x))),
        text="gelu_tanh({0})",
        formula=("½(1 + tanh u) + ½{0}·(1 − tanh² u)·u′, u = √(2/π)·({0} + 0.044715·{0}³)",),
        help="GELU, tanh approximation: ½z(1 + tanh(√(2/π)(z + 0.044715z³)))",
        activation=True,
        output_range=(-0.17, INF),
        spell=Spellings(
            numpy="gelu_tanh({0})",
            numpy_helper=(
                "def gelu_tanh(z):\n"
                f"    return 0.5 * z * (1.0 + np.tanh({GELU_TANH_C!r} * (z + {GELU_TANH_K!r} * z * z * z)))\n"
            ),
            torch='F.gelu({0}, approximate="tanh")',
            torch_module='nn.GELU(approximate="tanh")',
        ),
    ),
    Op(
        name="softsign",
        arity=1,
        rule=_softsign,
        derivative=_d_softsign,
        numpy=lambda x: x / (1.0 + np.abs(x)),
        text="softsign({0})",
        formula=("1 / (1 + |{0}|)²",),
        help="softsign: z / (1 + |z|) — like tanh, between −1 and 1, with gentler tails",
        activation=True,
        output_range=(-1.0, 1.0),
        spell=Spellings(
            numpy="softsign({0})",
            numpy_helper="def softsign(z):\n    return z / (1.0 + np.abs(z))\n",
            torch="F.softsign({0})",
            torch_module="nn.Softsign()",
            python="{0} / (1.0 + abs({0}))",
        ),
    ),
    Op(
        name="hardtanh",
        arity=1,
        rule=_hardtanh,
        derivative=None,
        numpy=lambda x, low, high: np.where(x <= low, low, np.where(x >= high, high, x)),
        text="hardtanh({0})",
        formula=("(1 if {low} < {0} < {high} else 0)",),
        help="hardtanh: z clipped to [−1, 1] — tanh made of straight pieces",
        params=(("low", -1.0), ("high", 1.0)),
        activation=True,
        output_range=lambda low, high: (low, high),
        spell=Spellings(
            numpy="hardtanh({0}, {low}, {high})",
            numpy_helper=(
                "def hardtanh(z, low=-1.0, high=1.0):\n"
                "    return np.where(z <= low, low, np.where(z >= high, high, z))\n"
            ),
            torch="F.hardtanh({0}, {low}, {high})",
            torch_module="nn.Hardtanh(-1.0, 1.0)",
        ),
    ),
    Op(
        name="mish",
        arity=1,
        rule=_mish,
        derivative=_d_mish,
        numpy=lambda x: x * np.tanh(np_softplus(x)),
        text="mish({0})",
        formula=("tanh(s) + {0}·σ({0})·(1 − tanh²(s)), s = softplus({0})",),
        help="Mish: z·tanh(softplus(z)) — smooth, dips slightly below 0",
        activation=True,
        output_range=(-0.3089, INF),
        spell=Spellings(
            numpy="mish({0})",
            numpy_helper="def mish(z):\n    return z * np.tanh(softplus(z))\n",
            numpy_needs=("softplus",),
            torch="F.mish({0})",
            torch_module="nn.Mish()",
        ),
    ),
    Op(
        name="softplus",
        arity=1,
        rule=_softplus,
        derivative=lambda out, x: (x.sigmoid(),),
        numpy=np_softplus,
        text="softplus({0})",
        formula=("σ({0})",),
        help="softplus: log(1 + e^z) — a smooth ReLU, always positive",
        activation=True,
        output_range=(0.0, INF),
        spell=Spellings(
            numpy="softplus({0})",
            numpy_helper="def softplus(z):\n    return np.maximum(z, 0.0) + np.log1p(np.exp(-np.abs(z)))\n",
            torch="F.softplus({0})",
            torch_module="nn.Softplus()",
            python="math.log1p(math.exp({0}))",
        ),
    ),
)
