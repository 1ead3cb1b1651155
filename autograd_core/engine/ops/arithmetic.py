"""The arithmetic ops (the Python operators on Tensors, pow, max, min) and the n-ary sum and weighted sum:
each op's float rule, its derivative in the engine's own ops, and its entry, together."""

from __future__ import annotations

import math
import operator
from array import array

import numpy as np

from autograd_core.engine.ops.floats import NAN, ieee_div, ieee_log, ieee_pow
from autograd_core.engine.ops.record import Op, Spellings, number_text, wrap
from autograd_core.numbers import LEDGER, format_number

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


# ------------------------------------------------------------ derivatives
# The local derivatives again, written with the engine's ops (so they can be differentiated in turn).
# Arguments: the node itself, its operands, its parameters; they mirror the float rules above.


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


def _d_weighted_sum(out, parents):
    n = (len(parents) - 1) // 2
    return [*parents[n : 2 * n], *parents[:n], 1.0]


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


# ------------------------------------------------------------ the entries

ARITHMETIC: tuple[Op, ...] = (
    Op(
        name="add",
        arity=2,
        rule=_add,
        derivative=lambda out, a, b: (1.0, 1.0),
        numpy=np.add,
        text="{0} + {1}",
        formula=("1", "1"),
        help="a + b",
        symbol="+",
        function=False,
        method=False,
    ),
    Op(
        name="sub",
        arity=2,
        rule=_sub,
        derivative=lambda out, a, b: (1.0, -1.0),
        numpy=np.subtract,
        text="{0} - {1}",
        formula=("1", "−1"),
        help="a − b",
        symbol="-",
        wrap=(False, True),
        function=False,
        method=False,
    ),
    Op(
        name="mul",
        arity=2,
        rule=_mul,
        derivative=lambda out, a, b: (b, a),
        numpy=np.multiply,
        text="{0}*{1}",
        formula=("{1}", "{0}"),
        help="a · b",
        symbol="*",
        wrap=(True, True),
        function=False,
        method=False,
    ),
    Op(
        name="div",
        arity=2,
        rule=_div,
        derivative=_d_div,
        numpy=np.divide,
        text="{0}/{1}",
        formula=("1 / {1}", "−{0} / {1}²"),
        help="a / b",
        symbol="/",
        wrap=(True, True),
        function=False,
        method=False,
    ),
    Op(
        name="pow",
        arity=2,
        rule=_pow,
        derivative=_d_pow,
        numpy=np.power,
        text="{0}**{1}",
        formula=("{1}·{0}^({1} − 1)", "{0}^{1}·ln({0})"),
        help="pow(a, b) = a ** b: both base and exponent vary",
        symbol="**",
        wrap=(True, True),
        method=False,
        spell=Spellings(
            numpy="np.power({0}, {1})",
            torch="torch.pow({0}, {1})",
            python="{0} ** {1}",
        ),
    ),
    Op(
        name="neg",
        arity=1,
        rule=_neg,
        derivative=lambda out, x: (-1.0,),
        numpy=np.negative,
        text="-{0}",
        formula=("−1",),
        help="−x",
        wrap=(True,),
        function=False,
        method=False,
    ),
    Op(
        name="pow_const",
        arity=1,
        rule=_pow_const,
        derivative=_d_pow_const,
        numpy=np.power,
        text="{0}**{n}",
        formula=_pow_const_formula,
        help="x ** n with a fixed number n",
        params=(("n", 2.0),),
        wrap=(True,),
        function=False,
        method=False,
        tag=lambda n: f"**{format_number(n, LEDGER, ascii=True)}",
        spell=Spellings(
            numpy="np.power({0}, {n})",
            torch="torch.pow({0}, {n})",
            python="{0} ** {n}",
        ),
    ),
    Op(
        name="rpow_const",
        arity=1,
        rule=_rpow_const,
        derivative=_d_rpow_const,
        numpy=lambda x, c: np.power(c, x),
        text="{c}**{0}",
        formula=("{c}^{0}·ln({c})",),
        help="c ** x with a fixed number c",
        params=(("c", 2.0),),
        wrap=(True,),
        function=False,
        method=False,
        tag=lambda c: f"{format_number(c, LEDGER, ascii=True)}**",
        spell=Spellings(
            numpy="np.power({c}, {0})",
            torch="torch.pow({c}, {0})",
            python="{c} ** {0}",
        ),
    ),
    Op(
        name="max",
        arity=2,
        rule=_maximum,
        derivative=None,
        numpy=np.maximum,
        text="max({0}, {1})",
        formula=("(1 if {0} > {1}, ½ if equal, else 0)", "(1 if {1} > {0}, ½ if equal, else 0)"),
        help="max(a, b): the larger; a tie splits the gradient in halves (as PyTorch)",
        spell=Spellings(
            numpy="np.maximum({0}, {1})",
            torch="torch.maximum({0}, {1})",
            python="max({0}, {1})",
        ),
    ),
    Op(
        name="min",
        arity=2,
        rule=_minimum,
        derivative=None,
        numpy=np.minimum,
        text="min({0}, {1})",
        formula=("(1 if {0} < {1}, ½ if equal, else 0)", "(1 if {1} < {0}, ½ if equal, else 0)"),
        help="min(a, b): the smaller; a tie splits the gradient in halves (as PyTorch)",
        spell=Spellings(
            numpy="np.minimum({0}, {1})",
            torch="torch.minimum({0}, {1})",
            python="min({0}, {1})",
        ),
    ),
)

# one node instead of many; built by Tensor.sum and Tensor.weighted_sum
NARY: tuple[Op, ...] = (
    Op(
        name="sum",
        arity=0,
        rule=_sum,
        derivative=lambda out, parents: [1.0] * len(parents),
        numpy=lambda *xs: sum(xs),
        text=lambda operands, node: f"sum({len(operands)} terms)",
        formula=lambda index, names: "1",
        help="Σ of its operands as one node",
        function=False,
        method=False,
    ),
    Op(
        name="Σwx+b",
        arity=0,
        rule=_weighted_sum,
        derivative=_d_weighted_sum,
        numpy=None,
        text=_weighted_sum_text,
        formula=_weighted_sum_formula,
        help="a neuron's weighted sum Σ wᵢ·xᵢ + b as one node",
        function=False,
        method=False,
    ),
)
