"""The op table: everything the engine and the app know about an op, in one entry.

Each ``Op`` holds, side by side:

- ``rule``: the float value and the local derivative(s), computed together
  (``rule(a, b) -> (value, ∂/∂a, ∂/∂b)``); the engine's fast path calls it
  directly, and forward mode's tangent rule is the same locals times the
  operands' tangents (ẏ = Σ ∂y/∂xᵢ · ẋᵢ), so it cannot drift from them;
- ``derivative``: the same local derivatives written with the engine's own
  ops, so a gradient can itself be differentiated (``grad(create_graph=True)``,
  Hessians); ``None`` means the op is piecewise linear: its float locals are
  constants and every higher derivative is 0 (PyTorch agrees);
- ``numpy``: its twin on numpy arrays (vectorised forward, ``evaluate_array``);
- ``name``: its name in the expression language and as a ``Tensor`` method;
- ``text`` and ``formula``: how a node and its local derivatives read in the
  backward ledger, graph hover and error messages;
- ``help``: one line for the app; ``activation`` and ``output_range`` for the
  network builder and the neuron maps.

Everything else is derived from ``OPS``: the ``Tensor`` methods, the
language's whitelist, the MLP activations, the vectorised forward, the
neuron maps' color ranges and the help text.  Adding an op is one entry here
plus its tests.  Numbers follow IEEE like numpy and PyTorch: no rule ever
raises a Python arithmetic exception.
"""

from __future__ import annotations

import math
import operator
from array import array
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from autograd_core.numbers import LEDGER, format_number

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


def _np_softplus(x):
    return np.maximum(x, 0.0) + np.log1p(np.exp(-np.abs(x)))


def _np_erf(x):
    from scipy.special import erf  # scipy comes with scikit-learn; loaded only when used

    return erf(x)


def _np_erfc(x):
    from scipy.special import erfc

    return erfc(x)


# ------------------------------------------------------------------ rules
# Each rule returns the value and the local derivative(s), computed together.


def _add(a, b):
    return a + b, 1.0, 1.0


def _sub(a, b):
    return a - b, 1.0, -1.0


def _mul(a, b):
    return a * b, b, a


def _div(a, b):
    value = ieee_div(a, b)
    return value, ieee_div(1.0, b), -ieee_div(value, b)


def _pow(a, b):
    value = ieee_pow(a, b)
    da = b * ieee_pow(a, b - 1.0) if b != 0.0 else 0.0
    # Like PyTorch: d/db of 0**b is taken as 0 for b >= 0 (log 0 would give nan).
    db = 0.0 if (a == 0.0 and b >= 0.0) else value * ieee_log(a)
    return value, da, db


def _maximum(a, b):
    # PyTorch's rule: the larger operand takes the gradient, a tie splits it in halves, nan passes it to both.
    if a > b:
        return a, 1.0, 0.0
    if a < b:
        return b, 0.0, 1.0
    if a == b:
        return a, 0.5, 0.5
    return NAN, 1.0, 1.0


def _minimum(a, b):
    if a < b:
        return a, 1.0, 0.0
    if a > b:
        return b, 0.0, 1.0
    if a == b:
        return a, 0.5, 0.5
    return NAN, 1.0, 1.0


def _sum(values):
    return math.fsum(values), array("d", [1.0]) * len(values)


def _weighted_sum(weights, inputs, bias):
    value = sum(map(operator.mul, weights, inputs), bias)
    locals_ = array("d", inputs)  # ∂/∂wᵢ = xᵢ, ∂/∂xᵢ = wᵢ, ∂/∂b = 1
    locals_.extend(weights)
    locals_.append(1.0)
    return value, locals_


def _neg(x):
    return -x, -1.0


def _pow_const(x, n):
    value = ieee_pow(x, n)
    return value, (n * ieee_pow(x, n - 1.0) if n != 0.0 else 0.0)


def _rpow_const(x, c):
    value = ieee_pow(c, x)
    return value, (0.0 if c == 0.0 and x >= 0.0 else value * ieee_log(c))


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


def _erf(x):
    return math.erf(x), TWO_OVER_SQRT_PI * math.exp(-x * x)


# ------------------------------------------------------------ derivatives
# The local derivatives again, written with the engine's ops (so they can be
# differentiated in turn).  Arguments: the node itself, its operands, its
# parameters.  They mirror the float rules above operation for operation.


def _d_div(out, a, b):
    return 1.0 / b, -(out / b)


def _d_pow(out, a, b):
    da = b * a ** (b - 1.0) if b.data != 0.0 else 0.0
    db = 0.0 if (a.data == 0.0 and b.data >= 0.0) else out * a.log()
    return da, db


def _d_pow_const(out, x, n):
    return (x ** (n - 1.0) * n if n != 0.0 else 0.0,)


def _d_rpow_const(out, x, c):
    return (0.0 if c == 0.0 and x.data >= 0.0 else out * ieee_log(c),)


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


def _d_erf(out, x):
    return ((-(x * x)).exp() * TWO_OVER_SQRT_PI,)


def _d_weighted_sum(out, parents):
    n = (len(parents) - 1) // 2
    return [*parents[n : 2 * n], *parents[:n], 1.0]


# ------------------------------------------------------------ the entry


def wrap(text: str) -> str:
    """Brackets around a compound operand: 'a' stays, 'a + b' becomes '(a + b)'."""
    return text if text.replace("_", "").replace(".", "").isalnum() or text == "…" else f"({text})"


def number_text(x: float) -> str:
    return format_number(x, LEDGER)


class Op:
    """One op of the engine, with everything about it (see the module docstring).

    ``arity`` is the number of Tensor operands (1 or 2; 0 for n-ary ops).
    ``params`` are the op's numeric parameters as ``(name, default)``: the
    language passes them as optional number arguments (``leaky_relu(x, 0.1)``)
    and a node keeps them in its bound op (``op.bind(0.1)``), so formulas and
    higher derivatives see the value used.
    """

    __slots__ = (
        "name",
        "arity",
        "rule",
        "derivative",
        "numpy",
        "text",
        "formula",
        "help",
        "params",
        "activation",
        "output_range",
        "function",
        "method",
        "symbol",
        "wrap",
        "tag",
        "args",
        "base",
        "apply",
        "kind",
        "entry",
        "_bound",
    )
    label = ""  # an op node without a label keeps its Op as its description (see tensor.NodeInfo)
    group = None

    def __init__(
        self,
        name: str,
        arity: int,
        rule: Callable,
        derivative: Callable | None,
        numpy: Callable,
        text: str | Callable,
        formula: Sequence[str] | Callable,
        help: str,
        *,
        params: Sequence[tuple[str, float]] = (),
        activation: bool = False,
        output_range: tuple[float, float] | Callable = (-INF, INF),
        function: bool = True,
        method: bool = True,
        symbol: str | None = None,
        wrap: Sequence[bool] = (),
        tag: Callable | None = None,
    ):
        self.name = name
        self.arity = arity
        self.rule = rule
        self.derivative = derivative
        self.numpy = numpy
        self.text = text
        self.formula = formula
        self.help = help
        self.params = tuple(params)
        self.activation = activation
        self.output_range = output_range
        self.function = function
        self.method = method
        self.symbol = symbol
        self.wrap = tuple(wrap) or (False,) * max(arity, 1)
        self.args: tuple[float, ...] = tuple(default for _, default in self.params)
        self.tag = tag(*self.args) if tag else (symbol or name)  # what ``node.op`` reads
        self.base = self  # the table entry a bound copy came from
        self.apply: Callable | None = None  # the Tensor-level function, set when Tensor derives its methods
        self.kind = "constant"  # a result built under no_grad is a constant leaf
        self.entry = self
        self._bound: dict[tuple[float, ...], Op] = {}

    def __repr__(self) -> str:
        args = f"{self.args}" if self.params else ""
        return f"Op({self.tag!r}{args})"

    def bind(self, args: tuple[float, ...]) -> Op:
        """This op with its parameters set (shared between nodes; the defaults give the entry itself)."""
        if args == self.args:
            return self.base
        bound = self.base._bound.get(args)
        if bound is None:
            if len(self.base._bound) > 4096:  # x ** many different exponents: don't grow without bound
                self.base._bound.clear()
            bound = object.__new__(Op)
            for slot in Op.__slots__:
                setattr(bound, slot, getattr(self.base, slot))
            bound.args = args
            bound.entry = bound
            tag = _TAGS.get(self.base.name)
            bound.tag = tag(*args) if tag else self.base.tag
            bound._bound = {}
            self.base._bound[args] = bound
        return bound

    def resolve(self, given: Sequence[Any]) -> tuple[float, ...]:
        """The parameters from optional positional arguments (defaults for the rest)."""
        if len(given) > len(self.params):
            raise TypeError(f"{self.name}() takes at most {len(self.params)} parameter(s), got {len(given)}")
        return tuple(float(v) for v in given) + self.args[len(given) :]

    def range(self) -> tuple[float, float]:
        """The values the op can take (for color scales): (lo, hi), ±inf when unbounded."""
        r = self.output_range
        return r(*self.args) if callable(r) else r

    # ---- words

    def show(self, operands: Sequence[str], node: Any = None) -> str:
        """The node as a formula of its operands' texts: 'a*b', 'tanh(h)', 'x**2'."""
        if callable(self.text):
            return self.text(operands, node)
        ops = [wrap(t) if w else t for t, w in zip(operands, self.wrap)]
        return self.text.format(*ops, **self._param_texts())

    def derivative_text(self, index: int, operands: Sequence[str]) -> str:
        """∂node/∂operand[index] as text in terms of the operands: 'b', '(1 − tanh²(h))'."""
        if callable(self.formula):
            return self.formula(index, operands, *self.args)
        return (
            self.formula[index].format(*operands, **self._param_texts())
            if self.params
            else self.formula[index].format(*operands)
        )

    def _param_texts(self) -> dict[str, str]:
        return {name: number_text(value) for (name, _), value in zip(self.params, self.args)}


def _pow_const_formula(index, names, n):
    if n == 2.0:
        return f"2·{names[0]}"
    return f"{number_text(n)}·{wrap(names[0])}^{wrap(number_text(n - 1.0))}"


def _weighted_sum_text(operands, node):
    group = getattr(node, "group", None)
    return f"Σwx+b[{group}]" if group else "Σwx+b"


def _weighted_sum_formula(index, names):
    n = (len(names) - 1) // 2
    if index == len(names) - 1:
        return "1"
    return names[index + n] if index < n else names[index - n]


_TAGS: dict[str, Callable] = {
    "pow_const": lambda n: f"**{format_number(n, LEDGER, ascii=True)}",
    "rpow_const": lambda c: f"{format_number(c, LEDGER, ascii=True)}**",
}


def _table(*ops: Op) -> dict[str, Op]:
    return {op.name: op for op in ops}


OPS: dict[str, Op] = _table(
    # ---- arithmetic (Python operators on Tensors)
    Op("add", 2, _add, lambda out, a, b: (1.0, 1.0), np.add, "{0} + {1}", ("1", "1"),
       "a + b", symbol="+", function=False, method=False),
    Op("sub", 2, _sub, lambda out, a, b: (1.0, -1.0), np.subtract, "{0} - {1}", ("1", "−1"),
       "a − b", symbol="-", wrap=(False, True), function=False, method=False),
    Op("mul", 2, _mul, lambda out, a, b: (b, a), np.multiply, "{0}*{1}", ("{1}", "{0}"),
       "a · b", symbol="*", wrap=(True, True), function=False, method=False),
    Op("div", 2, _div, _d_div, np.divide, "{0}/{1}", ("1 / {1}", "−{0} / {1}²"),
       "a / b", symbol="/", wrap=(True, True), function=False, method=False),
    Op("pow", 2, _pow, _d_pow, np.power, "{0}**{1}", ("{1}·{0}^({1} − 1)", "{0}^{1}·ln({0})"),
       "pow(a, b) = a ** b: both base and exponent vary", symbol="**", wrap=(True, True), method=False),
    Op("neg", 1, _neg, lambda out, x: (-1.0,), np.negative, "-{0}", ("−1",),
       "−x", wrap=(True,), function=False, method=False),
    Op("pow_const", 1, _pow_const, _d_pow_const, np.power, "{0}**{n}", _pow_const_formula,
       "x ** n with a fixed number n", params=(("n", 2.0),), wrap=(True,), function=False, method=False,
       tag=_TAGS["pow_const"]),
    Op("rpow_const", 1, _rpow_const, _d_rpow_const, lambda x, c: np.power(c, x), "{c}**{0}", ("{c}^{0}·ln({c})",),
       "c ** x with a fixed number c", params=(("c", 2.0),), wrap=(True,), function=False, method=False,
       tag=_TAGS["rpow_const"]),
    Op("max", 2, _maximum, None, np.maximum, "max({0}, {1})",
       ("(1 if {0} > {1}, ½ if equal, else 0)", "(1 if {1} > {0}, ½ if equal, else 0)"),
       "max(a, b): the larger; a tie splits the gradient in halves (as PyTorch)"),
    Op("min", 2, _minimum, None, np.minimum, "min({0}, {1})",
       ("(1 if {0} < {1}, ½ if equal, else 0)", "(1 if {1} < {0}, ½ if equal, else 0)"),
       "min(a, b): the smaller; a tie splits the gradient in halves (as PyTorch)"),
    # ---- activations (offered by the network builder, in this order)
    Op("relu", 1, _relu, None, lambda x: np.maximum(x, 0.0), "relu({0})", ("(1 if {0} > 0 else 0)",),
       "ReLU: max(0, z) — fast to train, bends the boundary in straight pieces",
       activation=True, output_range=(0.0, INF)),
    Op("leaky_relu", 1, _leaky_relu, None, lambda x, slope: np.where(x > 0.0, x, slope * x), "leaky_relu({0})",
       ("(1 if {0} > 0 else {slope})",),
       "Leaky ReLU: z if z > 0 else 0.01·z — like ReLU but never completely flat",
       params=(("slope", 0.01),), activation=True),
    Op("tanh", 1, _tanh, lambda out, x: (1.0 - out * out,), np.tanh, "tanh({0})", ("(1 − tanh²({0}))",),
       "tanh(z) — smooth, between −1 and 1", activation=True, output_range=(-1.0, 1.0)),
    Op("sigmoid", 1, _sigmoid, lambda out, x: (out * (1.0 - out),), sigmoid_array, "sigmoid({0})",
       ("σ({0})·(1 − σ({0}))",),
       "σ(z) = 1/(1+e^−z) — smooth, between 0 and 1; trains slowly in deep networks",
       activation=True, output_range=(0.0, 1.0)),
    Op("elu", 1, _elu, _d_elu, lambda x, alpha: np.where(x > 0.0, x, alpha * np.expm1(np.minimum(x, 0.0))),
       "elu({0})", ("(1 if {0} > 0 else {alpha}·exp({0}))",),
       "ELU: z if z > 0 else α·(e^z − 1), α = 1 — smooth below 0, outputs centered nearer 0 than ReLU",
       params=(("alpha", 1.0),), activation=True, output_range=lambda alpha: (-abs(alpha), INF)),
    Op("selu", 1, _selu, _d_selu,
       lambda x: SELU_SCALE * np.where(x > 0.0, x, SELU_ALPHA * np.expm1(np.minimum(x, 0.0))),
       "selu({0})", ("(1.0507 if {0} > 0 else 1.7581·exp({0}))",),
       "SELU: 1.0507·ELU with α = 1.6733 — keeps activations normalized in deep networks",
       activation=True, output_range=(-SELU_SCALE * SELU_ALPHA, INF)),
    Op("silu", 1, _silu, _d_silu, lambda x: x * sigmoid_array(x), "silu({0})",
       ("σ({0})·(1 + {0}·(1 − σ({0})))",),
       "SiLU (swish): z·σ(z) — smooth ReLU that dips slightly below 0",
       activation=True, output_range=(-0.2785, INF)),
    Op("gelu", 1, _gelu, _d_gelu, lambda x: x * (0.5 * _np_erfc(-x * SQRT1_2)), "gelu({0})",
       ("Φ({0}) + {0}·φ({0})",),
       "GELU: z·Φ(z), Φ the normal CDF (exact erf form) — the transformer activation",
       activation=True, output_range=(-0.17, INF)),
    Op("gelu_tanh", 1, _gelu_tanh, _d_gelu_tanh,
       lambda x: 0.5 * x * (1.0 + np.tanh(GELU_TANH_C * (x + GELU_TANH_K * x * x * x))), "gelu_tanh({0})",
       ("½(1 + tanh u) + ½{0}·(1 − tanh² u)·u′, u = √(2/π)·({0} + 0.044715·{0}³)",),
       "GELU, tanh approximation: ½z(1 + tanh(√(2/π)(z + 0.044715z³)))",
       activation=True, output_range=(-0.17, INF)),
    Op("softsign", 1, _softsign, _d_softsign, lambda x: x / (1.0 + np.abs(x)), "softsign({0})",
       ("1 / (1 + |{0}|)²",),
       "softsign: z / (1 + |z|) — like tanh, between −1 and 1, with gentler tails",
       activation=True, output_range=(-1.0, 1.0)),
    Op("hardtanh", 1, _hardtanh, None, lambda x, low, high: np.where(x <= low, low, np.where(x >= high, high, x)),
       "hardtanh({0})", ("(1 if {low} < {0} < {high} else 0)",),
       "hardtanh: z clipped to [−1, 1] — tanh made of straight pieces",
       params=(("low", -1.0), ("high", 1.0)), activation=True, output_range=lambda low, high: (low, high)),
    Op("mish", 1, _mish, _d_mish, lambda x: x * np.tanh(_np_softplus(x)), "mish({0})",
       ("tanh(s) + {0}·σ({0})·(1 − tanh²(s)), s = softplus({0})",),
       "Mish: z·tanh(softplus(z)) — smooth, dips slightly below 0",
       activation=True, output_range=(-0.3089, INF)),
    Op("softplus", 1, _softplus, lambda out, x: (x.sigmoid(),), _np_softplus, "softplus({0})", ("σ({0})",),
       "softplus: log(1 + e^z) — a smooth ReLU, always positive",
       activation=True, output_range=(0.0, INF)),
    # ---- other functions
    Op("exp", 1, _exp, lambda out, x: (out,), np.exp, "exp({0})", ("exp({0})",), "e^x",
       output_range=(0.0, INF)),
    Op("log", 1, _log, lambda out, x: (1.0 / x,), np.log, "log({0})", ("1 / {0}",),
       "natural logarithm: −inf at 0, nan below"),
    Op("sin", 1, _sin, lambda out, x: (x.cos(),), np.sin, "sin({0})", ("cos({0})",), "sine (radians)",
       output_range=(-1.0, 1.0)),
    Op("cos", 1, _cos, lambda out, x: (-x.sin(),), np.cos, "cos({0})", ("−sin({0})",), "cosine (radians)",
       output_range=(-1.0, 1.0)),
    Op("abs", 1, _abs, None, np.abs, "abs({0})", ("sign({0})",), "|x|; its derivative at 0 is taken as 0",
       output_range=(0.0, INF)),
    Op("sqrt", 1, _sqrt, lambda out, x: (0.5 / out,), np.sqrt, "sqrt({0})", ("1 / (2·√{0})",),
       "√x: nan below 0", output_range=(0.0, INF)),
    Op("erf", 1, _erf, _d_erf, _np_erf, "erf({0})", ("(2/√π)·exp(−{0}²)",),
       "error function: 2/√π ∫₀ˣ e^(−t²) dt, between −1 and 1", output_range=(-1.0, 1.0)),
    # ---- n-ary (one node instead of many; built by Tensor.sum and Tensor.weighted_sum)
    Op("sum", 0, _sum, lambda out, parents: [1.0] * len(parents), lambda *xs: sum(xs),
       lambda operands, node: f"sum({len(operands)} terms)", lambda index, names: "1",
       "Σ of its operands as one node", function=False, method=False),
    Op("Σwx+b", 0, _weighted_sum, _d_weighted_sum, None, _weighted_sum_text, _weighted_sum_formula,
       "a neuron's weighted sum Σ wᵢ·xᵢ + b as one node", function=False, method=False),
)  # fmt: skip

ACTIVATION_OPS: tuple[Op, ...] = tuple(op for op in OPS.values() if op.activation)
LANGUAGE_OPS: dict[str, Op] = {op.name: op for op in OPS.values() if op.function or op.method}
