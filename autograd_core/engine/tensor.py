"""The scalar autograd engine: a number that remembers its parents.

Every op computes, at forward time, its value *and* its local derivative with
respect to each parent, with the rule of its entry in the op table
(``autograd_core.engine.ops``).  ``backward()`` is then a single loop over the graph
in reverse topological order: ``parent.grad += local * node.grad``.  There are
no closures, so the graph has no reference cycles, and every local derivative
is stored on the node, ready to be shown to a learner ("∂out/∂a = b = -3.0").

Speed comes from allocating as little as possible per node: one slotted object
with up to two parents held in plain slots (``_a``, ``_b``) and their local
derivatives as floats (``_da``, ``_db``), and one reference to its op-table
entry (``_op``, which a leaf uses for its kind).  An n-ary op (a sum, a
neuron's weighted sum) keeps its parents in a list in ``_a`` and their locals
in a float array in ``_da``, marked by ``_b is MANY``: one node that replaces
many small ones.  The methods (``x.tanh()``, ``a * b``…) are made from the op
table below the class, each calling its op's rule directly.

A reader's own op, written the article's way (``out = Tensor(value, label, _children=(a, b))``, then
``out._backward = closure``), is an n-ary node whose closure sits in ``_db``, the slot an n-ary node of the
library leaves empty (None).  ``backward()`` calls it where the library's node would take its loop, so the
library's own ops pay nothing for it; see ``Tensor._backward``.

Numbers follow IEEE like numpy and PyTorch: ``log(0) = -inf``, ``log(-1) = nan``,
``exp(1000) = inf``; no Python arithmetic exception ever escapes an op.
"""

from __future__ import annotations

import math
import operator
from array import array
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager

from autograd_core.engine.node_info import LEAF_KINDS, MANY, NodeInfo, node_info  # noqa: F401  (part of the API)
from autograd_core.engine.ops import (  # noqa: F401  (the IEEE helpers are part of this module's API)
    OPS,
    Op,
    ieee_div,
    ieee_exp,
    ieee_log,
    ieee_pow,
    softplus,
    stable_sigmoid,
)
from autograd_core.engine.user_ops import (  # noqa: F401  (the errors are part of this module's API)
    UnknownDerivative,
    UserOpError,
    backward_with_user_steps,
    closures,
    quoted,
)
from autograd_core.engine.walks import interior_order, topological_order

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


@contextmanager
def enable_grad() -> Iterator[None]:
    """Build the graph inside the block even within ``no_grad`` (like torch.enable_grad)."""
    global _grad_enabled
    previous = _grad_enabled
    _grad_enabled = True
    try:
        yield
    finally:
        _grad_enabled = previous


def is_grad_enabled() -> bool:
    return _grad_enabled


# --------------------------------------------------------------- the node

_LEAVES = {kind: node_info(None, kind, "", None) for kind in LEAF_KINDS}
_ADD, _SUB, _MUL = OPS["add"], OPS["sub"], OPS["mul"]
_CONSTANT = _LEAVES["constant"]
_new = object.__new__


class Tensor:
    """One float in a computation graph.

    ``data`` is the value, ``grad`` d(root)/d(self) after ``root.backward()``,
    ``op`` the name of the op that made it ('' for a leaf), ``kind`` one of
    ``input``, ``constant``, ``parameter`` or ``op``, ``label`` its name and
    ``group`` an optional tag (e.g. the neuron that built the node) so views
    can collapse groups.  A node is seven slots: ``label``, ``group`` and
    ``kind`` live in the shared description in ``_op`` (see ``NodeInfo``).
    """

    __slots__ = ("data", "grad", "_op", "_a", "_b", "_da", "_db")

    def __init__(
        self, data: float = 0.0, label: str = "", _children=(), *, kind: str = "input", group: str | None = None
    ):
        """``Tensor(data, label, _children)`` as in the article; ``kind`` and ``group`` are keyword-only.

        A node given ``_children`` has them as parents but no local derivatives (0): like the article's
        ``Value`` made by hand, it passes no gradient back until an op makes it."""
        if kind not in _LEAVES:
            raise ValueError(f"unknown kind {kind!r}; a leaf is one of {', '.join(LEAF_KINDS)}")
        if data is None or isinstance(data, str | bytes):
            shown = "None" if data is None else f"the text {data!r}"
            raise TypeError(f"a Tensor holds one number, got {shown}: write Tensor(2.0), or Tensor(float(text))")
        try:
            self.data = float(data)
        except (TypeError, ValueError):
            raise TypeError(f"a Tensor holds one number, got {type(data).__name__} {data!r}") from None
        self.grad = 0.0
        self._op = _LEAVES[kind] if not label and group is None else node_info(None, kind, label, group)
        self._a = None
        if _children:
            children = list(_children)
            strangers = [c for c in children if not isinstance(c, Tensor)]
            if strangers:
                raise TypeError(
                    f"node {quoted(label)}: its _children must be Tensors (the nodes it was computed from), got "
                    f"{type(strangers[0]).__name__} {strangers[0]!r:.40}: wrap a number as Tensor(number) first"
                )
            self._a, self._b, self._da, self._db = children, MANY, array("d", bytes(8 * len(children))), None

    @property
    def label(self) -> str:
        return self._op.label

    @label.setter
    def label(self, value: str) -> None:
        info = self._op
        self._op = node_info(info.entry, info.kind, value, info.group)

    @property
    def group(self) -> str | None:
        return self._op.group

    @group.setter
    def group(self, value: str | None) -> None:
        info = self._op
        self._op = node_info(info.entry, info.kind, info.label, value)

    # ---- what the node is, read-only views for explanation and graph export

    @property
    def op(self) -> str:
        """The op that made this node, as the ledger writes it ('*', 'tanh', '**2'); '' for a leaf; for a node
        written by hand, its label (the article names an op's output by its op: ``label='+'``)."""
        info = self._op
        return info.label if info.entry is None and self._a is not None else info.tag

    @property
    def op_entry(self) -> Op | None:
        """The op-table entry (with its parameters) that made this node; None for a leaf."""
        return self._op.entry

    @property
    def kind(self) -> str:
        return "op" if self._a is not None else self._op.kind

    @property
    def parents(self) -> tuple[Tensor, ...]:
        """The nodes this one was computed from, in argument order."""
        a = self._a
        if a is None:
            return ()
        b = self._b
        if b is None:
            return (a,)
        if b is MANY:
            return tuple(a)
        return (a, b)

    @property
    def local_grads(self) -> tuple[float, ...]:
        """∂self/∂parent for each parent, in the same order as ``parents``.

        Raises ``UnknownDerivative`` for a node written by hand (``is_user_op``): its derivative lives in its
        ``_backward`` closure, and no number is better than a wrong one."""
        a = self._a
        if a is None:
            return ()
        b = self._b
        if b is None:
            return (self._da,)
        if b is MANY:
            if self._op.entry is None:
                raise UnknownDerivative(self)
            return tuple(self._da)
        return (self._da, self._db)

    @property
    def is_user_op(self) -> bool:
        """True for a node written by hand, the article's way (``Tensor(value, label, _children)``), whose
        chain-rule step is a closure in ``_backward`` rather than an op of the table."""
        return self._a is not None and self._op.entry is None

    @property
    def is_leaf(self) -> bool:
        return self._a is None

    def __repr__(self) -> str:
        name = f"label={self.label!r}, " if self.label else ""
        return f"Tensor({name}data={self.data:.6g}, grad={self.grad:.6g})"

    def __pos__(self):
        return self

    # The ops (``/ **``, unary minus, ``x.tanh()``, ``a.max(b)``…) are made
    # from the op table below the class.  The three every graph is made of are
    # written out here: they compute exactly what their table rules (``ops.arithmetic._add``,
    # ``_sub``, ``_mul``) do, which a test checks, and skipping the rule's call
    # saves a fifth of the forward pass on micrograd's graph.

    def __add__(self, other):
        if other.__class__ is not Tensor:
            other = _constant(other)
        out = _new(Tensor)
        out.data = self.data + other.data
        out.grad = 0.0
        out._op = _ADD
        if _grad_enabled:
            out._a = self
            out._da = 1.0
            out._b = other
            out._db = 1.0
        else:
            out._a = None
        return out

    def __sub__(self, other):
        if other.__class__ is not Tensor:
            other = _constant(other)
        out = _new(Tensor)
        out.data = self.data - other.data
        out.grad = 0.0
        out._op = _SUB
        if _grad_enabled:
            out._a = self
            out._da = 1.0
            out._b = other
            out._db = -1.0
        else:
            out._a = None
        return out

    def __mul__(self, other):
        if other.__class__ is not Tensor:
            other = _constant(other)
        a = self.data
        b = other.data
        out = _new(Tensor)
        out.data = a * b
        out.grad = 0.0
        out._op = _MUL
        if _grad_enabled:
            out._a = self
            out._da = b
            out._b = other
            out._db = a
        else:
            out._a = None
        return out

    # number ∘ Tensor: the number becomes a constant leaf and stays the first operand.

    def __radd__(self, other):
        return Tensor.__add__(_constant(other), self)

    def __rsub__(self, other):
        return Tensor.__sub__(_constant(other), self)

    def __rmul__(self, other):
        return Tensor.__mul__(_constant(other), self)

    @staticmethod
    def sum(values: Iterable[Tensor | float]) -> Tensor:
        """Σ values as one node; every local derivative is 1."""
        parents = [v if v.__class__ is Tensor else _constant(v) for v in values]
        if not parents:
            return Tensor(0.0, kind="constant")
        value, locals_ = _SUM.rule([p.data for p in parents])
        return _many(value, _SUM, parents, locals_)

    @staticmethod
    def weighted_sum(weights: Sequence[Tensor], inputs: Sequence[Tensor | float], bias: Tensor) -> Tensor:
        """Σ wᵢ·xᵢ + b as one node: a neuron's pre-activation.

        Parents are w₀..wₙ, x₀..xₙ, b; ∂/∂wᵢ = xᵢ, ∂/∂xᵢ = wᵢ, ∂/∂b = 1.
        """
        xs = [x if x.__class__ is Tensor else _constant(x) for x in inputs]
        value, locals_ = _WEIGHTED_SUM.rule([w.data for w in weights], [x.data for x in xs], bias.data)
        return _many(value, _WEIGHTED_SUM, [*weights, *xs, bias], locals_)

    @staticmethod
    def layer(
        rows: Sequence[Sequence[Tensor]], batch: Sequence[Sequence[Tensor]], biases: Sequence[Tensor], infos, act
    ) -> list[list[Tensor]]:
        """A layer of neurons on a batch of inputs: act(Σ wᵢ·xᵢ + b) for every row of weights and its bias, for
        every list of inputs (Tensors) in ``batch``; one list of outputs per input list.

        Exactly the nodes of ``weighted_sum`` then the one-input op ``act`` (an op-table entry with its default
        parameters, or None for no activation), with the weights read once for the batch and each input list
        once for the layer instead of once per neuron: the training step's forward pass.  The weighted sum's
        rule (``ops.arithmetic._weighted_sum``) is written out, as ``__add__`` is, and a test holds the two
        to the same nodes.  ``infos`` holds each neuron's (weighted-sum description, activation description)
        from ``grouped``, so every node carries its group.
        """
        neurons = [
            ([w.data for w in weights], array("d", [*(w.data for w in weights), 1.0]), [*weights], bias, z_info, info)
            for weights, bias, (z_info, info) in zip(rows, biases, infos)
        ]
        if not _grad_enabled:  # no graph: every result a leaf, made as ``_many`` and ``_unary`` make it
            return [Tensor._layer_without_graph(neurons, xs, act) for xs in batch]
        mul = operator.mul
        act_rule = act.rule if act is not None else None
        args = act.args if act is not None else ()
        result = []
        for xs in batch:
            xdata = [x.data for x in xs]
            xlocals = array("d", xdata)  # ∂/∂wᵢ = xᵢ, then ∂/∂xᵢ = wᵢ and ∂/∂b = 1
            outs = []
            append = outs.append
            for wdata, wlocals, weights, bias, z_info, info in neurons:
                value = sum(map(mul, wdata, xdata), bias.data)
                # (``_many`` and ``_unary`` written out: a call each per node was a tenth of the forward pass)
                z = _new(Tensor)
                z.data = value
                z.grad = 0.0
                z._op = z_info
                z._a = [*weights, *xs, bias]
                z._da = xlocals + wlocals
                z._b = MANY
                z._db = None
                if act_rule is None:
                    append(z)
                    continue
                value, local = act_rule(value, *args)
                out = _new(Tensor)
                out.data = value
                out.grad = 0.0
                out._op = info
                out._a = z
                out._da = local
                out._b = None
                append(out)
            result.append(outs)
        return result

    @staticmethod
    def _layer_without_graph(neurons, xs, act) -> list[Tensor]:
        xdata = [x.data for x in xs]
        outs = []
        for wdata, _, _, bias, z_info, info in neurons:
            value = sum(map(operator.mul, wdata, xdata), bias.data)
            z = _many(value, z_info, [], array("d"))
            outs.append(z if act is None else _unary(act.rule(value, *act.args)[0], info, z, 0.0))
        return outs

    # ---- backward

    @property
    def _prev(self) -> set[Tensor]:
        """The article's name: the set of this node's parents (``parents`` keeps their order)."""
        return set(self.parents)

    @property
    def _backward(self) -> Callable[[], None]:
        """The article's field: this node's own chain-rule step, a function of no arguments.

        For a node of the library's ops, its step from the stored local derivatives; for a node written by
        hand, the closure assigned to it (``out._backward = _backward``), or a step that passes nothing on
        until one is.  The article's hand-written loop (``for node in reversed(topo): node._backward()``)
        calls it itself."""
        if self._a is not None and self._b is MANY and self._db is not None:
            return self._db
        return self._chain_step

    @_backward.setter
    def _backward(self, step: Callable[[], None]) -> None:
        """Make this node a user op: ``backward()`` calls ``step`` where it would take the node's own step."""
        if not callable(step):
            raise TypeError(
                f"node {quoted(self.label)}: _backward must be a function to call with no arguments "
                f"(def _backward(): ...; out._backward = _backward), got {type(step).__name__} {step!r:.40}"
            )
        if self._a is None:
            raise ValueError(
                f"node {quoted(self.label)} has no _children, so backward() never calls its _backward: "
                "make the op's output with Tensor(value, label, _children=(a, b)) and set _backward on that"
            )
        if self._b is not MANY:  # an op of the library's, rewritten by hand: its closure replaces its step
            parents = list(self.parents)
            self._a, self._b, self._da = parents, MANY, array("d", bytes(8 * len(parents)))
        if self._op.entry is not None:
            self._op = node_info(None, "input", self.label or self._op.tag, self.group)
        self._db = step
        closures.assigned += 1

    def _chain_step(self) -> None:
        """This node's own chain-rule step: add each local derivative × this node's grad into its parent.

        ``backward()`` takes exactly this step for every node in reverse topological order, written inline
        there because a method call per node cost about 40 % of a backward pass (2-16-16-1 on 100 points);
        ``tests/core/test_article.py`` holds the two to the same gradients."""
        a = self._a
        if a is None or self._op.entry is None:  # a leaf, or a node written by hand with no closure yet
            return
        g = self.grad
        b = self._b
        if b is None:
            a.grad += self._da * g
        elif b is MANY:
            for parent, local in zip(a, self._da):
                parent.grad += local * g
        else:
            a.grad += self._da * g
            b.grad += self._db * g

    def backward(self) -> None:
        """Fill ``grad`` of every node reachable from this one.

        Like PyTorch: the root is seeded with 1.0, interior nodes are recomputed
        from zero on each call, and leaves accumulate (call ``zero_grad``).
        The nodes are processed in the reverse of ``topological_order``.
        """
        if self._a is None:
            self.grad += 1.0
            return
        order = interior_order(self)  # zeroes their gradients on the way
        self.grad = 1.0
        if closures.assigned:  # a closure was assigned somewhere: the walk that checks each one
            backward_with_user_steps(order)
            return
        many = MANY
        for node in reversed(order):
            a = node._a
            g = node.grad
            b = node._b
            if b is None:
                a.grad += node._da * g
            elif b is many:
                for parent, local in zip(a, node._da):
                    parent.grad += local * g
            else:
                a.grad += node._da * g
                b.grad += node._db * g

    def zero_grad(self) -> None:
        """Set ``grad`` to 0 on every node of the graph that ends here."""
        for node in topological_order(self):
            node.grad = 0.0

    def detach(self) -> Tensor:
        """A new leaf with the same value, cut from the graph."""
        return Tensor(self.data, label=self.label, kind="constant")


# ------------------------------------------------------------ node construction


def _constant(x: float) -> Tensor:
    """A plain number met by an op becomes a constant leaf."""
    out = _new(Tensor)
    out.data = float(x)
    out.grad = 0.0
    out._op = _CONSTANT
    out._a = None
    return out


def _unary(value: float, op: Op, a: Tensor, da: float) -> Tensor:
    out = _new(Tensor)
    out.data = value
    out.grad = 0.0
    out._op = op
    if _grad_enabled:
        out._a = a
        out._da = da
        out._b = None
    else:
        out._a = None
    return out


def _many(value: float, op: Op, parents: list[Tensor], locals_: array) -> Tensor:
    out = _new(Tensor)
    out.data = value
    out.grad = 0.0
    out._op = op
    if _grad_enabled:
        out._a = parents
        out._da = locals_  # a float array is not tracked by the garbage collector
        out._b = MANY
        out._db = None  # no closure: the library's own n-ary step
    else:
        out._a = None
    return out


def result(op: Op, operands: Sequence[Tensor], value: float, locals_: Sequence[float]) -> Tensor:
    """A node made by ``op`` (bound to its parameters) from ``operands``: for code outside the fast methods."""
    if len(operands) == 1:
        return _unary(value, op, operands[0], locals_[0])
    if len(operands) == 2:
        out = _unary(value, op, operands[0], locals_[0])
        if out._a is not None:
            out._b = operands[1]
            out._db = locals_[1]
        return out
    return _many(value, op, list(operands), array("d", locals_))


def grouped(op: Op, group: str | None):
    """The shared description of a node made by ``op`` (with its parameters) that carries ``group``: what setting
    ``node.group`` gives such a node."""
    return node_info(op.entry, op.kind, op.label, group)


# ---- methods made from the op table


def _unary_method(op: Op) -> Callable:
    rule = op.rule
    if op.params:

        def method(self, *params):
            args = op.resolve(params) if params else op.args
            value, local = rule(self.data, *args)
            return _unary(value, op.bind(args), self, local)

    else:

        def method(self):
            value, local = rule(self.data)
            out = _new(Tensor)
            out.data = value
            out.grad = 0.0
            out._op = op
            if _grad_enabled:
                out._a = self
                out._da = local
                out._b = None
            else:
                out._a = None
            return out

    return method


def _binary_methods(op: Op) -> tuple[Callable, Callable]:
    rule = op.rule

    def method(self, other):
        if other.__class__ is not Tensor:
            other = _constant(other)
        value, da, db = rule(self.data, other.data)
        out = _new(Tensor)
        out.data = value
        out.grad = 0.0
        out._op = op
        if _grad_enabled:
            out._a = self
            out._da = da
            out._b = other
            out._db = db
        else:
            out._a = None
        return out

    def reflected(self, other):  # number ∘ Tensor: the number is the first operand
        return method(other if other.__class__ is Tensor else _constant(other), self)

    return method, reflected


def _pow(self, other):
    """Tensor ** Tensor, Tensor ** number (the exponent is part of the op: '**2')."""
    if other.__class__ is Tensor:
        return _tensor_pow(self, other)
    exponent = float(other)
    value, local = _POW_CONST.rule(self.data, exponent)
    return _unary(value, _POW_CONST.bind((exponent,)), self, local)


def _rpow(self, other):
    """number ** Tensor: the base is part of the op ('2**')."""
    base = float(other)
    value, local = _RPOW_CONST.rule(self.data, base)
    return _unary(value, _RPOW_CONST.bind((base,)), self, local)


_POW_CONST, _RPOW_CONST = OPS["pow_const"], OPS["rpow_const"]
_SUM, _WEIGHTED_SUM = OPS["sum"], OPS["Σwx+b"]
# Python's operators; every other op with ``method`` set becomes a method of its own name.
_OPERATORS = {"div": "truediv", "neg": "neg"}
_WRITTEN_OUT = {"add": Tensor.__add__, "sub": Tensor.__sub__, "mul": Tensor.__mul__}


def _derive_methods() -> None:
    """Give Tensor one method per op of the table, and each op its Tensor-level ``apply``."""
    for op in OPS.values():
        if op.name in _WRITTEN_OUT:
            op.apply = _WRITTEN_OUT[op.name]
            continue
        if op.arity == 2:
            method, reflected = _binary_methods(op)
            if op.name in _OPERATORS:
                setattr(Tensor, f"__{_OPERATORS[op.name]}__", method)
                setattr(Tensor, f"__r{_OPERATORS[op.name]}__", reflected)
        elif op.arity == 1 and (op.method or op.name in _OPERATORS):
            method = _unary_method(op)
            if op.name in _OPERATORS:
                setattr(Tensor, f"__{_OPERATORS[op.name]}__", method)
        else:
            continue
        method.__name__ = method.__qualname__ = op.name
        method.__doc__ = op.help
        if op.method:
            setattr(Tensor, op.name, method)
        op.apply = method
    # ``**`` picks one of three ops: Tensor ** Tensor, Tensor ** number ('**2'), number ** Tensor ('2**').
    Tensor.__pow__ = _POW_CONST.apply = _pow
    Tensor.__rpow__ = _rpow
    _RPOW_CONST.apply = lambda x, base: _rpow(x, base)
    _SUM.apply = lambda *xs: Tensor.sum(xs)
    _WEIGHTED_SUM.apply = lambda weights, inputs, bias: Tensor.weighted_sum(weights, inputs, bias)


_derive_methods()
_tensor_pow = OPS["pow"].apply
