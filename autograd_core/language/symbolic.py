"""Symbolic derivatives from the op table: the same rules the engine differentiates with, kept as formulas.

A ``Sym`` is one node of a formula: a number, a variable, or an op of the
table applied to other ``Sym`` nodes.  ``Sym`` behaves like a ``Tensor``
(operators, ``x.tanh()``…), so each op's ``derivative`` rule in
``autograd_core.engine.ops`` — written with the engine's own ops for higher-order
gradients — builds the symbolic local derivative when it is called with
``Sym`` operands.  The chain rule then adds up local derivative × the
operand's derivative, exactly as backward does, and ``diff`` can be applied
again for second derivatives.

Formulas are lightly simplified as they are built: constants folded, ×1,
+0, ×0 and double negation removed, ``a·a`` written ``a²``; identical
sub-formulas are shared (hash-consed), so a formula is a DAG whose size grows
with the expression's, and only its text can grow faster (``to_text`` and
``to_html`` stop at a length limit).

Piecewise ops (relu, abs, max, hardtanh…) have no formula for their
derivative in the table; their local derivative is the constant of the
branch taken at the current point (1, 0, ½, the slope…).  Likewise the
branch-dependent rules (elu, pow at 0) read the current values: a symbolic
derivative describes the expression around the point it was built at.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence

from autograd_core.engine.ops import OPS, Op
from autograd_core.engine.tensor import Tensor, topological_order
from autograd_core.engine.user_ops import UnknownDerivative
from autograd_core.numbers import LEDGER, MINUS, format_number

TEXT_LIMIT = 4000  # characters of a rendered formula before it is cut with "…"


class SymbolicError(ValueError):
    """A graph that cannot be written as a formula."""


class Sym:
    """One node of a formula (immutable, shared: build them with a ``Builder``)."""

    __slots__ = ("op", "args", "name", "data", "builder", "size")

    def __init__(self, builder: Builder, op: Op | None, args: tuple, name: str | None, data: float, size: int):
        self.builder = builder
        self.op = op  # None for a number or a variable
        self.args = args
        self.name = name  # a variable's (or a named constant's) name
        self.data = data  # its value at the point the formula was built
        self.size = size  # nodes in the formula written out as a tree (capped)

    @property
    def is_number(self) -> bool:
        return self.op is None and self.name is None

    @property
    def is_variable(self) -> bool:
        return self.op is None and self.name is not None

    def is_value(self, value: float) -> bool:
        return self.is_number and self.data == value

    def __repr__(self) -> str:
        return f"Sym({to_text(self)})"

    def __str__(self) -> str:
        return to_text(self)

    # ---- the operators, like Tensor's (the op methods are added from the table below)

    def _lift(self, other) -> Sym:
        return other if isinstance(other, Sym) else self.builder.number(float(other))

    def __add__(self, other):
        return self.builder.apply(OPS["add"], (self, self._lift(other)))

    def __radd__(self, other):
        return self.builder.apply(OPS["add"], (self._lift(other), self))

    def __sub__(self, other):
        return self.builder.apply(OPS["sub"], (self, self._lift(other)))

    def __rsub__(self, other):
        return self.builder.apply(OPS["sub"], (self._lift(other), self))

    def __mul__(self, other):
        return self.builder.apply(OPS["mul"], (self, self._lift(other)))

    def __rmul__(self, other):
        return self.builder.apply(OPS["mul"], (self._lift(other), self))

    def __truediv__(self, other):
        return self.builder.apply(OPS["div"], (self, self._lift(other)))

    def __rtruediv__(self, other):
        return self.builder.apply(OPS["div"], (self._lift(other), self))

    def __neg__(self):
        return self.builder.apply(OPS["neg"], (self,))

    def __pos__(self):
        return self

    def __pow__(self, other):
        if isinstance(other, Sym):
            return self.builder.apply(OPS["pow"], (self, other))
        return self.builder.apply(OPS["pow_const"].bind((float(other),)), (self,))

    def __rpow__(self, other):
        return self.builder.apply(OPS["rpow_const"].bind((float(other),)), (self,))


def _unary_method(op: Op) -> Callable:
    def method(self, *params):
        return self.builder.apply(op.bind(op.resolve(params)), (self,))

    return method


def _binary_method(op: Op) -> Callable:
    def method(self, other):
        return self.builder.apply(op, (self, self._lift(other)))

    return method


for _op in OPS.values():
    if _op.method and _op.arity == 1:
        setattr(Sym, _op.name, _unary_method(_op))
    elif _op.method and _op.arity == 2:
        setattr(Sym, _op.name, _binary_method(_op))
del _op


class Builder:
    """Makes ``Sym`` nodes, simplifying and sharing them (the same formula is the same object)."""

    def __init__(self):
        self._table: dict[tuple, Sym] = {}

    def number(self, value: float) -> Sym:
        value = float(value)
        key = ("n", value if value == value else "nan", math.copysign(1.0, value) if value == 0 else 0.0)
        sym = self._table.get(key)
        if sym is None:
            sym = self._table[key] = Sym(self, None, (), None, value, 1)
        return sym

    def variable(self, name: str, value: float, key: object = None) -> Sym:
        """A variable; two with the same name are the same one, unless told apart by ``key``."""
        key = ("v", name) if key is None else ("v", name, key)
        sym = self._table.get(key)
        if sym is None:
            sym = self._table[key] = Sym(self, None, (), name, float(value), 1)
        return sym

    def apply(self, op: Op, args: tuple[Sym, ...]) -> Sym:
        """``op`` applied to ``args``, lightly simplified."""
        simpler = self._simplify(op, args)
        if simpler is not None:
            return simpler
        key = (id(op), *(id(a) for a in args))
        sym = self._table.get(key)
        if sym is None:
            value = op.rule(*(a.data for a in args), *op.args)[0]
            size = min(1 + sum(a.size for a in args), 10**9)
            sym = self._table[key] = Sym(self, op, tuple(args), None, value, size)
        return sym

    def _simplify(self, op: Op, args: tuple[Sym, ...]) -> Sym | None:
        name = op.base.name
        if all(a.is_number for a in args):  # constants folded
            return self.number(op.rule(*(a.data for a in args), *op.args)[0])
        if name == "add":
            a, b = args
            if a.is_value(0.0):
                return b
            if b.is_value(0.0):
                return a
            if b.op is not None and b.op.base.name == "neg":
                return self.apply(OPS["sub"], (a, b.args[0]))
            if a is b:
                return self.apply(OPS["mul"], (self.number(2.0), a))
        elif name == "sub":
            a, b = args
            if b.is_value(0.0):
                return a
            if a.is_value(0.0):
                return self.apply(OPS["neg"], (b,))
            if a is b:
                return self.number(0.0)
            if b.op is not None and b.op.base.name == "neg":
                return self.apply(OPS["add"], (a, b.args[0]))
        elif name == "mul":
            a, b = args
            if b.is_number and not a.is_number:
                a, b = b, a  # the number in front: 2·x
            if a.is_value(0.0):
                return a
            if a.is_value(1.0):
                return b
            if a.is_value(-1.0):
                return self.apply(OPS["neg"], (b,))
            if a.is_number and b.op is not None and b.op.base.name == "mul" and b.args[0].is_number:
                return self.apply(OPS["mul"], (self.number(a.data * b.args[0].data), b.args[1]))
            if a is b:
                return self.apply(OPS["pow_const"].bind((2.0,)), (a,))
            for x, y in ((a, b), (b, a)):
                if x.op is not None and x.op.base.name == "neg":  # a·(−b) = −(a·b)
                    return self.apply(
                        OPS["neg"], (self.apply(OPS["mul"], (x.args[0], y) if x is a else (y, x.args[0])),)
                    )
            if (a, b) != args:
                return self.apply(OPS["mul"], (a, b))
        elif name == "div":
            a, b = args
            if b.is_value(1.0):
                return a
            if a.is_value(0.0):
                return a
            if a is b:
                return self.number(1.0)
        elif name == "neg":
            (a,) = args
            if a.op is not None and a.op.base.name == "neg":
                return a.args[0]
        elif name == "pow_const":
            (a,) = args
            n = op.args[0]
            if n == 1.0:
                return a
            if n == 0.0:
                return self.number(1.0)
        return None


# ------------------------------------------------------------ from a recorded graph


CONSTANT_NAMES = {"pi": "π", "e": "e"}


def from_graph(root: Tensor, builder: Builder | None = None) -> tuple[Sym, dict[Tensor, Sym]]:
    """``root``'s graph as a formula in its inputs: (the formula, Tensor -> Sym for every node).

    Inputs and parameters become variables named by their labels (an
    unlabeled one is x1, x2…); constants become numbers (pi and e keep
    their names).  n-ary nodes (sum, Σwx+b) are written out as + and ·.
    """
    builder = builder or Builder()
    syms: dict[Tensor, Sym] = {}
    unnamed = 0
    for node in topological_order(root):
        if node.is_leaf:
            if node.kind == "constant":
                if node.label in CONSTANT_NAMES:
                    syms[node] = builder.variable(CONSTANT_NAMES[node.label], node.data)
                    syms[node].builder._table[("const", node.label)] = syms[node]
                else:
                    syms[node] = builder.number(node.data)
            else:
                name = node.label
                if not name:
                    unnamed += 1
                    name = f"x{unnamed}"
                syms[node] = builder.variable(name, node.data)
            continue
        op = node.op_entry
        if op is None:
            raise UnknownDerivative(node, "its rule, which a symbolic derivative is written from,")
        parents = [syms[p] for p in node.parents]
        if op.arity == 0:
            if op.base.name == "sum":
                total = parents[0]
                for p in parents[1:]:
                    total = total + p
                syms[node] = total
            elif op.base.name == "Σwx+b":
                n = (len(parents) - 1) // 2
                total = parents[-1]
                for w, x in zip(parents[:n], parents[n : 2 * n]):
                    total = total + w * x
                syms[node] = total
            else:
                raise SymbolicError(f"no formula for the n-ary op {op.name}")
            continue
        syms[node] = builder.apply(op, tuple(parents))
    return syms[root], syms


def constant_names(builder: Builder) -> set[str]:
    """Names that stand for constants (π, e), not variables: their derivative is 0."""
    return {CONSTANT_NAMES[key[1]] for key in builder._table if key[0] == "const"}


# ------------------------------------------------------------ differentiation


def _order(expr: Sym) -> list[Sym]:
    """Every node of ``expr`` after its operands (iterative: deep formulas do not hit the recursion limit)."""
    order: list[Sym] = []
    seen: set[int] = set()
    stack: list[tuple[Sym, bool]] = [(expr, False)]
    while stack:
        node, done = stack.pop()
        if done:
            order.append(node)
            continue
        if id(node) in seen:
            continue
        seen.add(id(node))
        stack.append((node, True))
        for a in reversed(node.args):
            if id(a) not in seen:
                stack.append((a, False))
    return order


def local_derivatives(node: Sym) -> Sequence[Sym]:
    """∂node/∂operand for each operand, from the op table's ``derivative`` rule called with ``Sym``s."""
    op = node.op
    b = node.builder
    if op.derivative is None:  # piecewise linear: the branch's constant at this point
        value = op.rule(*(a.data for a in node.args), *op.args)
        return [b.number(v) for v in value[1:]]
    locals_ = op.derivative(node, *node.args, *op.args)
    return [v if isinstance(v, Sym) else b.number(v) for v in locals_]


def diff(expr: Sym, variable: str) -> Sym:
    """d(expr)/d(variable) as a formula: the chain rule over the formula, forward (one sum per node)."""
    b = expr.builder
    zero = b.number(0.0)
    constants = constant_names(b)
    d: dict[int, Sym] = {}
    for node in _order(expr):
        if node.op is None:
            d[id(node)] = b.number(1.0 if node.name == variable and variable not in constants else 0.0)
            continue
        operand_ds = [d[id(a)] for a in node.args]
        if all(x is zero for x in operand_ds):
            d[id(node)] = zero
            continue
        total = zero
        for local, da in zip(local_derivatives(node), operand_ds):
            if da is zero:
                continue
            total = total + local * da
        d[id(node)] = total
    return d[id(expr)]


def derivative_of(root: Tensor, leaf: Tensor, order: int = 1) -> tuple[Sym, Sym]:
    """(root's formula, its ``order``-th derivative with respect to ``leaf``) for a recorded graph."""
    if order < 1:
        raise ValueError("the order of a derivative is 1 or more")
    expr, syms = from_graph(root)
    if leaf not in syms:
        name = leaf.label or "this input"
        raise SymbolicError(f"the output does not depend on {name}: its derivative is 0")
    var = syms[leaf]
    if not var.is_variable:
        raise SymbolicError("a constant has no derivative to take")
    result = expr
    for _ in range(order):
        result = diff(result, var.name)
    return expr, result


def evaluate(expr: Sym, values: Mapping[str, float]) -> float:
    """The formula's value for ``values`` (name -> number), computed afresh with the op table's rules.

    Names not given (π, e…) keep the value they were built with.
    """
    results: dict[int, float] = {}
    for node in _order(expr):
        if node.op is None:
            results[id(node)] = float(values.get(node.name, node.data)) if node.name is not None else node.data
        else:
            results[id(node)] = node.op.rule(*(results[id(a)] for a in node.args), *node.op.args)[0]
    return results[id(expr)]


def node_count(expr: Sym) -> int:
    """Distinct nodes of the formula (shared sub-formulas counted once)."""
    return len(_order(expr))


# ------------------------------------------------------------ writing it down

_ADD, _MUL, _NEG, _POW, _ATOM = 1, 2, 3, 4, 5
_INFIX = {"add": (" + ", _ADD), "sub": (" − ", _ADD), "mul": ("·", _MUL), "div": (" / ", _MUL)}


def _number(x: float) -> str:
    return format_number(x, LEDGER)


def _precedence(node: Sym) -> int:
    if node.op is None:
        return _NEG if node.is_number and node.data < 0 else _ATOM
    name = node.op.base.name
    if name in _INFIX:
        return _INFIX[name][1]
    if name == "neg":
        return _NEG
    if name in ("pow", "pow_const", "rpow_const"):
        return _POW
    return _ATOM


def _render(expr: Sym, html: bool, limit: int) -> str:
    texts: dict[int, str] = {}

    def esc(s: str) -> str:
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;") if html else s

    def sup(s: str, raw: str) -> str:
        return f"<sup>{s}</sup>" if html else f"^{raw}"

    def wrapped(child: Sym, need: int) -> str:
        t = texts[id(child)]
        return f"({t})" if _precedence(child) < need else t

    for node in _order(expr):
        if node.op is None:
            text = esc(node.name) if node.name is not None else _number(node.data)
            if html and node.name is not None and not node.name.isnumeric():
                text = f"<i>{text}</i>" if len(node.name) == 1 else text
        else:
            name = node.op.base.name
            args = node.args
            if name in _INFIX:
                symbol, prec = _INFIX[name]
                right_need = prec + 1 if name in ("sub", "div", "mul") else prec
                if name == "mul" and args[0].is_number:
                    right_need = _POW  # 2·(a·b) reads better than 2·a·b when built that way
                text = f"{wrapped(args[0], prec)}{esc(symbol)}{wrapped(args[1], right_need)}"
            elif name == "neg":
                text = f"{MINUS}{wrapped(args[0], _MUL)}"
            elif name == "pow_const":
                n = _number(node.op.args[0])
                text = f"{wrapped(args[0], _ATOM)}{sup(n, wrap_raw(n))}"
            elif name == "rpow_const":
                c = _number(node.op.args[0])
                t = texts[id(args[0])]
                text = f"{c if node.op.args[0] >= 0 else f'({c})'}{sup(t, f'({t})' if args[0].op else t)}"
            elif name == "pow":
                t = texts[id(args[1])]
                text = f"{wrapped(args[0], _ATOM)}{sup(t, f'({t})' if args[1].op else t)}"
            else:
                inner = [texts[id(a)] for a in args]
                params = [_number(v) for (_, default), v in zip(node.op.params, node.op.args) if v != default]
                text = f"{esc(name)}({', '.join(inner + params)})"
        if len(text) > limit:
            text = "…"
        texts[id(node)] = text
    return texts[id(expr)]


def wrap_raw(text: str) -> str:
    return text if text.replace(".", "").isdigit() else f"({text})"


def to_text(expr: Sym, limit: int = TEXT_LIMIT) -> str:
    """The formula in plain text: 'tanh(a·b)', '1 − tanh(a·b)^2'."""
    return _render(expr, False, limit)


def to_html(expr: Sym, limit: int = TEXT_LIMIT) -> str:
    """The formula as Qt rich text: powers as superscripts, one-letter names in italics."""
    return _render(expr, True, limit)
