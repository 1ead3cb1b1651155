"""Forward mode: dual numbers and tangents stepped through a graph, from the same op table.

A ``Dual`` carries a value and a tangent (value + ε·tangent, with ε² = 0).
Each op's rule in the table already returns its value and its local
derivatives, so the tangent rule is the chain rule on them:
ẏ = ∂y/∂a · ȧ + ∂y/∂b · ḃ.  ``jvp(fn, values, tangents)`` runs ``fn`` on dual
numbers: one forward pass gives the derivative along one direction, so a
full gradient needs one pass per input, where reverse mode needs one pass per
output (``pass_counts`` says which is cheaper for a graph).

``forward_steps(root, tangents)`` replays forward mode on a recorded Tensor
graph, node by node, with a sentence per step ("ẏ = …") like the backward
ledger of ``autograd_core.language.trace``; it uses the local derivatives stored on the
nodes, so its tangents agree with ``backward()``'s gradients.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence

from autograd_core.engine.ops import OPS, Op
from autograd_core.engine.tensor import Tensor, topological_order
from autograd_core.engine.user_ops import UnknownDerivative
from autograd_core.numbers import LEDGER, format_number


class Dual:
    """A value and its tangent (the derivative along the chosen direction)."""

    __slots__ = ("value", "tangent")

    def __init__(self, value: float, tangent: float = 0.0):
        self.value = float(value)
        self.tangent = float(tangent)

    def __repr__(self) -> str:
        return f"Dual({self.value:.6g}, tangent={self.tangent:.6g})"

    def __pos__(self):
        return self

    # The ops are made from the op table below the class, with the same names as Tensor's.

    @staticmethod
    def sum(values: Iterable[Dual | float]) -> Dual:
        duals = [_dual(v) for v in values]
        value, locals_ = OPS["sum"].rule([d.value for d in duals])
        return Dual(value, sum(local * d.tangent for local, d in zip(locals_, duals)))

    @staticmethod
    def weighted_sum(weights: Sequence[Dual | float], inputs: Sequence[Dual | float], bias: Dual | float) -> Dual:
        ws, xs, b = [_dual(w) for w in weights], [_dual(x) for x in inputs], _dual(bias)
        value, locals_ = OPS["Σwx+b"].rule([w.value for w in ws], [x.value for x in xs], b.value)
        parents = [*ws, *xs, b]
        return Dual(value, sum(local * d.tangent for local, d in zip(locals_, parents)))


def _dual(x) -> Dual:
    return x if isinstance(x, Dual) else Dual(float(x))


def _unary(op: Op) -> Callable:
    rule = op.rule

    def method(self, *params):
        value, local = rule(self.value, *op.resolve(params))
        return Dual(value, local * self.tangent)

    return method


def _binary(op: Op) -> tuple[Callable, Callable]:
    rule = op.rule

    def method(self, other):
        other = _dual(other)
        value, da, db = rule(self.value, other.value)
        return Dual(value, da * self.tangent + db * other.tangent)

    def reflected(self, other):
        return method(_dual(other), self)

    return method, reflected


def _pow(self, other):
    if isinstance(other, Dual):
        return _tensor_pow(self, other)
    value, local = OPS["pow_const"].rule(self.value, float(other))
    return Dual(value, local * self.tangent)


def _rpow(self, other):
    value, local = OPS["rpow_const"].rule(self.value, float(other))
    return Dual(value, local * self.tangent)


_OPERATORS = {"add": "add", "sub": "sub", "mul": "mul", "div": "truediv", "neg": "neg"}

for _op in OPS.values():
    if _op.arity == 2:
        _method, _reflected = _binary(_op)
        if _op.name in _OPERATORS:
            setattr(Dual, f"__{_OPERATORS[_op.name]}__", _method)
            setattr(Dual, f"__r{_OPERATORS[_op.name]}__", _reflected)
        elif _op.method:
            setattr(Dual, _op.name, _method)
    elif _op.arity == 1 and (_op.method or _op.name in _OPERATORS):
        _method = _unary(_op)
        setattr(Dual, f"__{_OPERATORS[_op.name]}__" if _op.name in _OPERATORS else _op.name, _method)
_tensor_pow = _binary(OPS["pow"])[0]
Dual.__pow__ = _pow
Dual.__rpow__ = _rpow
del _op, _method


def jvp(
    fn: Callable[..., Dual | Sequence[Dual]], values: Sequence[float], tangents: Sequence[float]
) -> tuple[float | list[float], float | list[float]]:
    """(fn(values), the derivative of fn along ``tangents``), in one forward pass of dual numbers.

    ``fn`` is called with one ``Dual`` per value and may use the operators and
    the op methods (``x.tanh()``, ``a.max(b)``…, ``Dual.sum``); it returns a
    Dual or a sequence of them (then both results are lists).
    """
    if len(values) != len(tangents):
        raise ValueError(f"{len(values)} values but {len(tangents)} tangents")
    result = fn(*[Dual(v, t) for v, t in zip(values, tangents)])
    if isinstance(result, Dual):
        return result.value, result.tangent
    outs = [_dual(r) for r in result]
    return [d.value for d in outs], [d.tangent for d in outs]


# ------------------------------------------------------------ forward mode on a recorded graph


class ForwardStep:
    """One node in forward mode: its tangent, built from its parents' tangents and its local derivatives."""

    __slots__ = ("node", "tangent", "terms", "number")

    def __init__(self, node: Tensor, tangent: float, terms: list[tuple[Tensor, float, str, float]], number: int):
        self.node = node
        self.tangent = tangent  # d(node)/d(direction)
        self.terms = terms  # (parent, local derivative, its formula, parent's tangent) per edge
        self.number = number  # 0-based position in forward order

    def __repr__(self) -> str:
        return f"ForwardStep({self.number}: tangent={self.tangent:g})"

    def sentence(self, numbers: bool = False) -> str:
        """The step in words: 'ẏ = ∂y/∂a · ȧ + ∂y/∂b · ḃ = b · 1.0 + a · 0.0 = −3.0'.

        With ``numbers`` the local derivatives' values are written out too
        ('… = b · 1.0 + a · 0.0 = −3.0 · 1.0 + 2.0 · 0.0 = −3.0').
        """
        from autograd_core.engine.explain import node_name

        name = node_name(self.node)
        dot = tangent_symbol(name)
        if self.node.is_leaf:
            return f"{dot} = {_fmt(self.tangent)}: {name} is a leaf ({self.node.kind}), its tangent is chosen"
        symbols = " + ".join(
            f"∂{_w(name)}/∂{_w(node_name(p))} · {tangent_symbol(node_name(p))}" for p, _, _, _ in self.terms
        )
        formulas = " + ".join(f"{formula} · {_fmt(t)}" for _, _, formula, t in self.terms)
        if numbers:
            values = " + ".join(f"{_fmt(local)} · {_fmt(t)}" for _, local, _, t in self.terms)
            if values != formulas:
                formulas = f"{formulas} = {values}"
        return f"{dot} = {symbols} = {formulas} = {_fmt(self.tangent)}"


def forward_steps(root: Tensor, tangents: Mapping[Tensor, float]) -> list[ForwardStep]:
    """Tangents of every node of ``root``'s graph in forward order, for the given leaf tangents.

    Leaves not in ``tangents`` have tangent 0.  Nothing is mutated.  With
    tangent 1 on one input, the root's tangent is the gradient ``backward()``
    gives that input.
    """
    from autograd_core.engine.explain import derivative_formula

    values: dict[Tensor, float] = {}
    steps = []
    for number, node in enumerate(topological_order(root)):
        if node.is_leaf:
            t = float(tangents.get(node, 0.0))
            steps.append(ForwardStep(node, t, [], number))
        else:
            terms = []
            t = 0.0
            if node.is_user_op:
                raise UnknownDerivative(node, "its local derivative, which forward mode multiplies by,")
            for index, (parent, local) in enumerate(zip(node.parents, node.local_grads)):
                tp = values[parent]
                terms.append((parent, local, derivative_formula(node, index), tp))
                t += local * tp
            steps.append(ForwardStep(node, t, terms, number))
        values[node] = t
    return steps


def pass_counts(n_inputs: int, n_outputs: int = 1) -> dict[str, int]:
    """Passes over the graph for a full Jacobian: forward mode one per input, reverse mode one per output."""
    return {"forward": n_inputs, "reverse": n_outputs}


def _fmt(x: float) -> str:
    return format_number(x, LEDGER, point=True)


def tangent_symbol(name: str) -> str:
    """The tangent's symbol: ẋ for a one-letter name (a combining dot), (h1)˙ otherwise (a spacing dot:
    a combining one after ``)`` or a digit was not drawn at all, and ``w1 = 1`` read as a value)."""
    if len(name) == 1 and name.isalpha():
        return f"{name}\u0307"
    wrapped = _w(name)
    return f"{wrapped if wrapped.startswith('(') else f'({name})'}\u02d9"


def _w(name: str) -> str:
    from autograd_core.engine.ops import wrap

    return wrap(name)
