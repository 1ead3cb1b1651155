"""The scalar autograd engine: a number that remembers its parents.

Every op computes, at forward time, its value *and* its local derivative with
respect to each parent.  ``backward()`` is then a single loop over the graph in
reverse topological order: ``parent.grad += local * node.grad``.  There are no
closures, so the graph has no reference cycles, and every local derivative is
stored on the node, ready to be shown to a learner ("∂out/∂a = b = -3.0").

Speed comes from allocating as little as possible per node: one slotted object
with up to two parents held in plain slots (``_a``, ``_b``) and their local
derivatives as floats (``_da``, ``_db``).  Only n-ary ops (a sum, a neuron's
weighted sum) keep lists, one pair per node that replaces many small nodes.

Numbers follow IEEE like numpy and PyTorch: ``log(0) = -inf``, ``log(-1) = nan``,
``exp(1000) = inf``; no Python arithmetic exception ever escapes an op.
"""

from __future__ import annotations

import math
import operator
from array import array
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager

from autograd_core.numbers import LEDGER, format_number

INF = math.inf
NAN = math.nan

# ---------------------------------------------------------------- grad mode

_grad_enabled = True


@contextmanager
def no_grad() -> Iterator[None]:
    """Build no graph inside the block: results are leaves (like torch.no_grad)."""
    global _grad_enabled
    previous = _grad_enabled
    _grad_enabled = False
    try:
        yield
    finally:
        _grad_enabled = previous


def is_grad_enabled() -> bool:
    return _grad_enabled


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


# --------------------------------------------------------------- the node


class Tensor:
    """One float in a computation graph.

    ``data`` is the value, ``grad`` d(root)/d(self) after ``root.backward()``,
    ``op`` the name of the op that made it ('' for a leaf), ``kind`` one of
    ``input``, ``constant``, ``parameter`` or ``op``, and ``group`` an optional
    tag (e.g. the neuron that built the node) so views can collapse groups.
    """

    __slots__ = ("data", "grad", "label", "op", "kind", "group", "_a", "_b", "_da", "_db", "_many", "_dmany")

    def __init__(self, data: float = 0.0, label: str = "", kind: str = "input", group: str | None = None):
        self.data = float(data)
        self.grad = 0.0
        self.label = label
        self.op = ""
        self.kind = kind
        self.group = group
        self._a = self._b = None
        self._da = self._db = 0.0
        self._many = self._dmany = None

    # ---- graph structure, read-only views for explanation and graph export

    @property
    def parents(self) -> tuple[Tensor, ...]:
        """The nodes this one was computed from, in argument order."""
        if self._many is not None:
            return tuple(self._many)
        if self._a is None:
            return ()
        if self._b is None:
            return (self._a,)
        return (self._a, self._b)

    @property
    def local_grads(self) -> tuple[float, ...]:
        """∂self/∂parent for each parent, in the same order as ``parents``."""
        if self._many is not None:
            return tuple(self._dmany)
        if self._a is None:
            return ()
        if self._b is None:
            return (self._da,)
        return (self._da, self._db)

    @property
    def is_leaf(self) -> bool:
        return self._a is None and self._many is None

    def __repr__(self) -> str:
        name = f"label={self.label!r}, " if self.label else ""
        return f"Tensor({name}data={self.data:.6g}, grad={self.grad:.6g})"

    # ---- node construction (the only place results are made)

    @staticmethod
    def _result(value: float, op: str, a: Tensor, da: float, b: Tensor | None = None, db: float = 0.0) -> Tensor:
        out = Tensor.__new__(Tensor)
        out.data = value
        out.grad = 0.0
        out.label = ""
        out.op = op
        out.group = None
        out._many = out._dmany = None
        if _grad_enabled:
            out.kind = "op"
            out._a, out._da, out._b, out._db = a, da, b, db
        else:
            out.kind = "constant"
            out._a = out._b = None
            out._da = out._db = 0.0
        return out

    @staticmethod
    def _result_many(value: float, op: str, parents: list[Tensor], locals_: array) -> Tensor:
        out = Tensor.__new__(Tensor)
        out.data = value
        out.grad = 0.0
        out.label = ""
        out.op = op
        out.group = None
        out._a = out._b = None
        out._da = out._db = 0.0
        if _grad_enabled:
            out.kind = "op"
            out._many, out._dmany = parents, locals_
        else:
            out.kind = "constant"
            out._many = out._dmany = None
        return out

    # ---- binary ops: value and local derivatives side by side
    # Each returns (value, d/da, d/db).  A plain number becomes a constant leaf.

    def _binary(self, other: Tensor | float, rule: Callable, op: str, swap: bool = False) -> Tensor:
        if not isinstance(other, Tensor):
            other = Tensor(other, kind="constant")
        a, b = (other, self) if swap else (self, other)
        value, da, db = rule(a.data, b.data)
        return Tensor._result(value, op, a, da, b, db)

    def __add__(self, other):
        return self._binary(other, _add, "+")

    def __radd__(self, other):
        return self._binary(other, _add, "+", swap=True)

    def __sub__(self, other):
        return self._binary(other, _sub, "-")

    def __rsub__(self, other):
        return self._binary(other, _sub, "-", swap=True)

    def __mul__(self, other):
        return self._binary(other, _mul, "*")

    def __rmul__(self, other):
        return self._binary(other, _mul, "*", swap=True)

    def __truediv__(self, other):
        return self._binary(other, _div, "/")

    def __rtruediv__(self, other):
        return self._binary(other, _div, "/", swap=True)

    def __pow__(self, other):
        if isinstance(other, Tensor):
            return self._binary(other, _pow, "**")
        exponent = float(other)  # Tensor ** number: the exponent is part of the op
        value, local = _pow_const_exponent(self.data, exponent)
        return Tensor._result(value, f"**{format_number(exponent, LEDGER, ascii=True)}", self, local)

    def __rpow__(self, other):
        base = float(other)  # number ** Tensor: the base is part of the op
        value, local = _pow_const_base(base, self.data)
        return Tensor._result(value, f"{format_number(base, LEDGER, ascii=True)}**", self, local)

    def __neg__(self):
        return Tensor._result(-self.data, "neg", self, -1.0)

    def __pos__(self):
        return self

    # ---- unary ops: see UNARY_OPS below; each is one (value, local) function

    def _unary(self, name: str, *args: float) -> Tensor:
        value, local = UNARY_OPS[name].rule(self.data, *args)
        return Tensor._result(value, name, self, local)

    def relu(self):
        return self._unary("relu")

    def leaky_relu(self, slope: float = 0.01):
        value, local = _leaky_relu(self.data, float(slope))
        return Tensor._result(value, "leaky_relu", self, local)

    def sigmoid(self):
        return self._unary("sigmoid")

    def tanh(self):
        return self._unary("tanh")

    def exp(self):
        return self._unary("exp")

    def log(self):
        return self._unary("log")

    def sin(self):
        return self._unary("sin")

    def cos(self):
        return self._unary("cos")

    def abs(self):
        return self._unary("abs")

    def sqrt(self):
        return self._unary("sqrt")

    def softplus(self):
        return self._unary("softplus")

    # ---- n-ary ops: one node instead of many (fewer nodes, faster training)

    @staticmethod
    def sum(values: Iterable[Tensor | float]) -> Tensor:
        """Σ values as one node; every local derivative is 1."""
        parents = [v if isinstance(v, Tensor) else Tensor(v, kind="constant") for v in values]
        total = math.fsum(p.data for p in parents) if parents else 0.0
        if not parents:
            return Tensor(0.0, kind="constant")
        return Tensor._result_many(total, "sum", parents, array("d", [1.0]) * len(parents))

    @staticmethod
    def weighted_sum(weights: Sequence[Tensor], inputs: Sequence[Tensor | float], bias: Tensor) -> Tensor:
        """Σ wᵢ·xᵢ + b as one node: a neuron's pre-activation.

        Parents are w₀..wₙ, x₀..xₙ, b; ∂/∂wᵢ = xᵢ, ∂/∂xᵢ = wᵢ, ∂/∂b = 1.
        """
        xs = [x if isinstance(x, Tensor) else Tensor(x, kind="constant") for x in inputs]
        wdata = [w.data for w in weights]
        xdata = [x.data for x in xs]
        value = sum(map(operator.mul, wdata, xdata), bias.data)
        locals_ = array("d", xdata)  # a float array is not tracked by the garbage collector
        locals_.extend(wdata)
        locals_.append(1.0)
        return Tensor._result_many(value, "Σwx+b", [*weights, *xs, bias], locals_)

    # ---- backward

    def backward(self) -> None:
        """Fill ``grad`` of every node reachable from this one.

        Like PyTorch: the root is seeded with 1.0, interior nodes are recomputed
        from zero on each call, and leaves accumulate (call ``zero_grad``).
        """
        order = topological_order(self)
        for node in order:
            if node._a is not None or node._many is not None:
                node.grad = 0.0
        if self.is_leaf:
            self.grad += 1.0
        else:
            self.grad = 1.0
        for node in reversed(order):
            g = node.grad
            a = node._a
            if a is not None:
                a.grad += node._da * g
                b = node._b
                if b is not None:
                    b.grad += node._db * g
            elif node._many is not None:
                for parent, local in zip(node._many, node._dmany):
                    parent.grad += local * g

    def zero_grad(self) -> None:
        """Set ``grad`` to 0 on every node of the graph that ends here."""
        for node in topological_order(self):
            node.grad = 0.0

    def detach(self) -> Tensor:
        """A new leaf with the same value, cut from the graph."""
        return Tensor(self.data, label=self.label, kind="constant")


# ---------------------------------------------------------------- graph walk


def topological_order(root: Tensor) -> list[Tensor]:
    """Every node reachable from ``root``, each after all of its parents.

    Iterative depth-first post-order (an explicit stack), so a chain of a
    million ops is fine; parents are visited in argument order.
    """
    order: list[Tensor] = []
    visited: set[Tensor] = set()
    stack: list[Tensor] = [root]
    expanded: list[bool] = [False]
    while stack:
        node = stack.pop()
        if expanded.pop():
            order.append(node)
            continue
        if node in visited:
            continue
        visited.add(node)
        stack.append(node)
        expanded.append(True)
        if node._many is not None:
            for parent in reversed(node._many):
                if parent not in visited:
                    stack.append(parent)
                    expanded.append(False)
        elif node._a is not None:
            if node._b is not None and node._b not in visited:
                stack.append(node._b)
                expanded.append(False)
            if node._a not in visited:
                stack.append(node._a)
                expanded.append(False)
    return order


# ------------------------------------------------------------ op rules
# Each rule returns the value and the local derivative(s), computed together.
# To add an op: write its rule, register it in UNARY_OPS, add a method above.


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


def _pow_const_exponent(a, n):
    value = ieee_pow(a, n)
    return value, (n * ieee_pow(a, n - 1.0) if n != 0.0 else 0.0)


def _pow_const_base(c, x):
    value = ieee_pow(c, x)
    return value, (0.0 if c == 0.0 and x >= 0.0 else value * ieee_log(c))


def _relu(x):
    return (x, 1.0) if x > 0.0 else (0.0 if x == x else NAN, 0.0)


def _leaky_relu(x, slope=0.01):
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


class UnaryOp:
    """A unary op's rule plus how to explain its local derivative to a learner."""

    __slots__ = ("name", "rule", "derivative")

    def __init__(self, name: str, rule: Callable, derivative: str):
        self.name, self.rule, self.derivative = name, rule, derivative


UNARY_OPS: dict[str, UnaryOp] = {
    op.name: op
    for op in (
        UnaryOp("relu", _relu, "(1 if {x} > 0 else 0)"),
        UnaryOp("leaky_relu", _leaky_relu, "(1 if {x} > 0 else slope)"),
        UnaryOp("sigmoid", _sigmoid, "σ({x})·(1 − σ({x}))"),
        UnaryOp("tanh", _tanh, "(1 − tanh²({x}))"),
        UnaryOp("exp", _exp, "exp({x})"),
        UnaryOp("log", _log, "1 / {x}"),
        UnaryOp("sin", _sin, "cos({x})"),
        UnaryOp("cos", _cos, "−sin({x})"),
        UnaryOp("abs", _abs, "sign({x})"),
        UnaryOp("sqrt", _sqrt, "1 / (2·√{x})"),
        UnaryOp("softplus", _softplus, "σ({x})"),
    )
}

# How each binary op's local derivatives read, for the backward ledger.
BINARY_DERIVATIVES: dict[str, tuple[str, str]] = {
    "+": ("1", "1"),
    "-": ("1", "−1"),
    "*": ("{b}", "{a}"),
    "/": ("1 / {b}", "−{a} / {b}²"),
    "**": ("{b}·{a}^({b} − 1)", "{a}^{b}·ln({a})"),
}


def derivative_formula(node: Tensor, index: int) -> str:
    """A short text for ∂node/∂parent[index], in terms of the parents' names."""
    op = node.op
    parents = node.parents
    names = [p.label or _fmt_number(p.data) for p in parents]
    if op in BINARY_DERIVATIVES and len(parents) == 2:
        return BINARY_DERIVATIVES[op][index].format(a=names[0], b=names[1])
    if op == "neg":
        return "−1"
    if op.startswith("**"):
        n = op[2:]
        return f"{n}·{names[0]}^({n} − 1)" if n not in ("2", "2.0") else f"2·{names[0]}"
    if op.endswith("**"):
        return f"{op[:-2]}^{names[0]}·ln({op[:-2]})"
    if op == "sum":
        return "1"
    if op == "Σwx+b":
        n = (len(parents) - 1) // 2
        if index == len(parents) - 1:
            return "1"
        return names[index + n] if index < n else names[index - n]
    if op in UNARY_OPS:
        return UNARY_OPS[op].derivative.format(x=names[0])
    return "local"


def _fmt_number(x: float) -> str:
    return format_number(x, LEDGER)


# ------------------------------------------------------- non-finite report


class NonFinite:
    """A node whose value or gradient is inf/nan, and the op that first made it so."""

    __slots__ = ("node", "what", "source", "message")

    def __init__(self, node: Tensor, what: str, source: Tensor, message: str):
        self.node, self.what, self.source, self.message = node, what, source, message

    def __repr__(self) -> str:
        return f"NonFinite({self.what}: {self.message})"


def describe_node(node: Tensor) -> str:
    """`log(-1)` style text: the op applied to its parents' values."""
    if node.is_leaf:
        return node.label or _fmt_number(node.data)
    args = ", ".join(_fmt_number(p.data) for p in node.parents)
    op = node.op
    if op in BINARY_DERIVATIVES:
        a, b = (_fmt_number(p.data) for p in node.parents)
        return f"{a} {op} {b}"
    if op.startswith("**"):
        return f"{args}{op}"
    if op.endswith("**"):
        return f"{op}{args}"
    return f"{op}({args})"


def non_finite_nodes(root: Tensor) -> list[NonFinite]:
    """List nodes whose value or gradient is not finite, each with its origin.

    A value's origin is the first node (in forward order) that turned finite
    parents into a non-finite value; a gradient's origin is the first node (in
    backward order) whose non-finite local derivative or gradient passed it on.
    """
    order = topological_order(root)
    report: list[NonFinite] = []
    value_origin: dict[Tensor, Tensor] = {}
    for node in order:
        if math.isfinite(node.data):
            continue
        origin = next((value_origin[p] for p in node.parents if p in value_origin), node)
        value_origin[node] = origin
        label = f" at node '{origin.label}'" if origin.label else ""
        report.append(NonFinite(node, "value", origin, f"{describe_node(origin)} = {_fmt_number(origin.data)}{label}"))
    grad_origin: dict[Tensor, Tensor] = {}
    for node in reversed(order):
        for parent in node.parents:
            if not math.isfinite(parent.grad) and parent not in grad_origin:
                # Passed on by a non-finite gradient, or made here by a non-finite local derivative.
                grad_origin[parent] = grad_origin.get(node, node)
    if not math.isfinite(root.grad):
        grad_origin.setdefault(root, root)
    for node in order:
        if node in grad_origin:
            origin = grad_origin[node]
            name = node.label or describe_node(node)
            report.append(
                NonFinite(
                    node,
                    "grad",
                    origin,
                    f"grad({name}) = {_fmt_number(node.grad)}, first made non-finite at {describe_node(origin)}",
                )
            )
    return report


# --------------------------------------------------------------- gradcheck


class GradcheckResult:
    """Analytic vs numeric gradient of one input."""

    __slots__ = ("name", "analytic", "numeric", "rel_error")

    def __init__(self, name: str, analytic: float, numeric: float, rel_error: float):
        self.name, self.analytic, self.numeric, self.rel_error = name, analytic, numeric, rel_error

    def __repr__(self) -> str:
        return (
            f"GradcheckResult({self.name}: autograd={self.analytic:.6g}, "
            f"numeric={self.numeric:.6g}, rel={self.rel_error:.2g})"
        )


def relative_error(a: float, b: float) -> float:
    """|a − b| / max(|a|, |b|, 1): relative for large gradients, absolute below 1 (where
    finite-difference round-off would swamp a pure relative error); 0 for equal infinities."""
    if a == b:
        return 0.0
    if not (math.isfinite(a) and math.isfinite(b)):
        return INF
    return abs(a - b) / max(abs(a), abs(b), 1.0)


def gradcheck(
    fn: Callable[..., Tensor], values: Sequence[float], eps: float = 1e-6, names: Sequence[str] | None = None
) -> list[GradcheckResult]:
    """Compare autograd with central finite differences for ``fn(*tensors)``.

    ``fn`` is called with fresh leaf Tensors built from ``values`` and must
    return a Tensor.  The step is scaled with the size of each value.
    """
    names = list(names) if names is not None else [f"x{i + 1}" for i in range(len(values))]
    leaves = [Tensor(v, label=n) for v, n in zip(values, names)]
    fn(*leaves).backward()
    results = []
    for i, v in enumerate(values):
        h = eps * max(1.0, abs(v))
        with no_grad():
            up = fn(*[Tensor(v + h if j == i else w) for j, w in enumerate(values)]).data
            down = fn(*[Tensor(v - h if j == i else w) for j, w in enumerate(values)]).data
        numeric = (up - down) / (2.0 * h)
        results.append(GradcheckResult(names[i], leaves[i].grad, numeric, relative_error(leaves[i].grad, numeric)))
    return results
