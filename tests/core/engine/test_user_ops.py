"""Ops written the article's way against this library: ``out = Tensor(value, label, _children)``, then
``out._backward = closure``; alone, mixed with the library's ops, used twice, inside a trained MLP, and broken."""

from __future__ import annotations

import math
import random

import pytest

from autograd_core import Tensor, gradcheck, topological_order
from autograd_core.drawing.graph import numbers_of, to_networkx
from autograd_core.engine.forward import forward_steps
from autograd_core.engine.functional import grad
from autograd_core.engine.tensor import UnknownDerivative, UserOpError
from autograd_core.language.symbolic import from_graph
from autograd_core.language.trace import backward_steps

# ---- the article's ops, written as the article writes them (its code, not this library's methods)


def add(self, other):
    if not isinstance(other, Tensor):
        other = Tensor(other)
    out = Tensor(self.data + other.data, _children=(self, other), label="+")

    def _backward():
        self.grad += out.grad
        other.grad += out.grad

    out._backward = _backward
    return out


def mul(self, other):
    if not isinstance(other, Tensor):
        other = Tensor(other)
    out = Tensor(self.data * other.data, _children=(self, other), label="*")

    def _backward():
        self.grad += other.data * out.grad
        other.grad += self.data * out.grad

    out._backward = _backward
    return out


def relu(self):
    out = Tensor(max(0, self.data), _children=(self,), label="relu")

    def _backward():
        self.grad += (out.data > 0) * out.grad

    out._backward = _backward
    return out


def sigmoid(self):
    x = self.data
    if x >= 0:
        s = 1 / (1 + math.exp(-x))
    else:
        exp_x = math.exp(x)
        s = exp_x / (1 + exp_x)
    out = Tensor(s, _children=(self,), label="sigmoid")

    def _backward():
        self.grad += s * (1 - s) * out.grad

    out._backward = _backward
    return out


def softsign(self):
    """A reader's own activation, added to the class: x / (1 + |x|), derivative 1 / (1 + |x|)²."""
    out = Tensor(self.data / (1 + abs(self.data)), _children=(self,), label="softsign")

    def _backward():
        self.grad += out.grad / (1 + abs(self.data)) ** 2

    out._backward = _backward
    return out


def numeric(f, values, i, h=1e-6):
    up = [v + h if j == i else v for j, v in enumerate(values)]
    down = [v - h if j == i else v for j, v in enumerate(values)]
    return (f(*up) - f(*down)) / (2 * h)


@pytest.mark.parametrize(
    "op, values, expected",
    [
        (add, (2.0, -3.0), (1.0, 1.0)),
        (mul, (2.0, -3.0), (-3.0, 2.0)),  # ∂(ab)/∂a = b, ∂(ab)/∂b = a
        (lambda a: relu(a), (1.5,), (1.0,)),
        (lambda a: relu(a), (-1.5,), (0.0,)),
        (lambda a: sigmoid(a), (0.5,), (math.exp(-0.5) / (1 + math.exp(-0.5)) ** 2,)),  # σ' = e^-x / (1+e^-x)²
        (lambda a: sigmoid(a), (-2.0,), (math.exp(2.0) / (1 + math.exp(2.0)) ** 2,)),
    ],
)
def test_the_articles_ops_give_hand_derived_and_finite_difference_grads(op, values, expected):
    leaves = [Tensor(v, label=f"x{i}") for i, v in enumerate(values)]
    out = op(*leaves)
    out.backward()
    assert out.is_user_op and out.op == out.label
    for i, leaf in enumerate(leaves):
        assert leaf.grad == pytest.approx(expected[i], abs=1e-12)
        assert leaf.grad == pytest.approx(numeric(lambda *v: op(*map(Tensor, v)).data, values, i), abs=1e-9)


def test_x_plus_x_adds_both_contributions():
    x = Tensor(3.0, label="x")
    y = add(x, x)
    y.backward()
    assert x.grad == 2.0  # the += rule: both uses count


def test_user_ops_mix_with_library_ops_in_any_order():
    """A user op fed by a library op and a library op fed by a user op: f = tanh(a*b + c) ⊙ (a *ᵤ b) +ᵤ c."""
    values = (0.7, -1.3, 0.4)

    def f(a, b, c):
        n = (a * b + c).tanh()  # library ops
        m = mul(n, a)  # a user op fed by a library op
        return add(m, c).relu() * b  # library ops fed by a user op

    leaves = [Tensor(v, label=name) for v, name in zip(values, "abc")]
    f(*leaves).backward()
    for i, leaf in enumerate(leaves):
        assert leaf.grad == pytest.approx(numeric(lambda *v: f(*map(Tensor, v)).data, values, i), abs=1e-8)
    # and gradcheck works on graphs that hold user ops
    assert all(r.rel_error < 1e-7 for r in gradcheck(f, values))


def test_a_user_op_reused_in_the_graph_gets_every_contribution():
    a = Tensor(1.5, label="a")
    s = sigmoid(a)
    out = mul(s, s) + s  # s is used three times
    out.backward()
    sv = 1 / (1 + math.exp(-1.5))
    assert a.grad == pytest.approx((2 * sv + 1) * sv * (1 - sv), abs=1e-12)


def test_a_method_added_to_the_class_works(monkeypatch):
    monkeypatch.setattr(Tensor, "softsign", softsign, raising=False)
    x = Tensor(-2.0, label="x")
    y = x.softsign() * 3
    y.backward()
    assert y.data == pytest.approx(3 * -2 / 3)
    assert x.grad == pytest.approx(3 / 9, abs=1e-12)


def test_a_user_node_keeps_the_articles_fields():
    a, b = Tensor(2.0, label="a"), Tensor(-3.0, label="b")
    out = mul(a, b)
    assert (out.data, out.grad, out.label) == (-6.0, 0.0, "*")
    assert out._prev == {a, b} and isinstance(out._prev, set)
    assert callable(out._backward)
    out.grad = 1.0
    out._backward()  # called by hand, as the article's loop does
    assert (a.grad, b.grad) == (-3.0, 2.0)


def test_the_articles_own_backward_loop_gives_backwards_grads():
    """The article's backward (build_topo over _prev, then every node's _backward) on a graph of both kinds."""
    a, b, c = Tensor(0.3, label="a"), Tensor(-0.8, label="b"), Tensor(1.1, label="c")
    out = add(mul(a, b).tanh(), c * a).sigmoid()
    out.backward()
    expected = [a.grad, b.grad, c.grad]
    for node in (a, b, c):
        node.grad = 0.0
    topo, visited = [], set()

    def build_topo(v):
        if v not in visited:
            visited.add(v)
            for child in v._prev:
                build_topo(child)
            topo.append(v)

    build_topo(out)
    for v in topo:
        v.grad = 0.0
    out.grad = 1.0
    for v in reversed(topo):
        v._backward()
    assert [a.grad, b.grad, c.grad] == pytest.approx(expected, abs=1e-15)


# ---- the article's Neuron / Layer / MLP with its own ops, trained by its loop


class Neuron:
    def __init__(self, nin, ops, nonlin=True):
        self.w = [Tensor(random.uniform(-1, 1)) for _ in range(nin)]
        self.b = Tensor(0.0)
        self.ops, self.nonlin = ops, nonlin

    def __call__(self, x):
        add_, mul_, relu_ = self.ops
        act = self.b
        for wi, xi in zip(self.w, x):
            act = add_(act, mul_(wi, xi))
        return relu_(act) if self.nonlin else act

    def parameters(self):
        return [*self.w, self.b]


class MLP:
    def __init__(self, sizes, ops):
        last = len(sizes) - 2
        self.layers = [[Neuron(sizes[i], ops, i != last) for _ in range(sizes[i + 1])] for i in range(last + 1)]

    def __call__(self, x):
        for layer in self.layers:
            x = [n(x) for n in layer]
        return x[0]

    def parameters(self):
        return [p for layer in self.layers for n in layer for p in n.parameters()]


def _train(ops, steps=8):
    random.seed(0)
    model = MLP([2, 4, 4, 1], ops)
    data = [((0.5, -1.0), 1.0), ((-0.3, 0.8), -1.0), ((1.2, 0.1), 1.0), ((-1.0, -0.4), -1.0)]
    losses = []
    for _ in range(steps):
        loss = Tensor(0.0)
        for x, y in data:
            score = model([Tensor(v) for v in x])
            loss = loss + (1 + -y * score).relu()
        loss.backward()
        for p in model.parameters():
            p.data -= 0.05 * p.grad
            p.grad = 0.0
        losses.append(loss.data)
    return losses


def test_an_mlp_built_from_user_ops_trains_exactly_as_one_of_library_ops():
    mine = _train((add, mul, relu))
    library = _train((Tensor.__add__, Tensor.__mul__, Tensor.relu))
    assert mine == pytest.approx(library, abs=1e-12)
    assert mine[-1] < mine[0]


# ---- bad user ops: one clear message naming the node, and nothing else broken


def test_a_backward_that_raises_is_named_and_leaves_the_grads_as_they_were():
    a = Tensor(2.0, label="a")
    a.grad = 0.5
    out = Tensor(a.data * 2, label="double", _children=(a,))

    def broken():
        raise KeyError("oops")

    out._backward = broken
    y = out * a  # a library op above: a gets a contribution before the broken closure runs
    with pytest.raises(UserOpError, match=r"node 'double' raised KeyError"):
        y.backward()
    assert a.grad == 0.5  # put back: a failed backward leaves the leaves as they were
    out._backward = lambda: setattr(a, "grad", a.grad + 2 * out.grad)  # mended, the same graph works
    y.backward()
    assert a.grad == pytest.approx(0.5 + 4.0 + 4.0)  # ∂(2a·a)/∂a = 4a = 8


def test_a_backward_that_writes_a_non_finite_grad_is_named():
    x = Tensor(0.0, label="x")
    out = Tensor(math.sqrt(abs(x.data)), label="sqrt", _children=(x,))

    def step():
        x.grad += 0.5 / math.sqrt(x.data) * out.grad if x.data else math.inf

    out._backward = step
    with pytest.raises(UserOpError, match=r"node 'sqrt' wrote grad = inf into its input 'x'"):
        out.backward()
    assert x.grad == 0.0


def test_backward_set_to_something_not_callable_is_named():
    out = mul(Tensor(1.0), Tensor(2.0))
    out.label = "product"
    with pytest.raises(TypeError, match=r"node 'product': _backward must be a function.*got int 3"):
        out._backward = 3


def test_children_that_are_not_tensors_are_named():
    with pytest.raises(TypeError, match=r"node 'half': its _children must be Tensors.*got float 2.0"):
        Tensor(1.0, label="half", _children=(2.0,))


def test_a_leaf_refuses_a_closure_it_would_never_run():
    with pytest.raises(ValueError, match=r"node 'w' has no _children"):
        Tensor(1.0, label="w")._backward = lambda: None


# ---- a first-class node: drawn by its label, its derivative said to be unknown, never guessed


def _graph_with_a_user_op():
    a, b = Tensor(2.0, label="a"), Tensor(-3.0, label="b")
    h = softsign(a * b + 1.0)
    h.label = "softsign"
    out = h.tanh()
    out.backward()
    return a, b, h, out


def test_the_graph_export_shows_a_user_op_as_an_op_box_named_by_its_label():
    _, _, h, out = _graph_with_a_user_op()
    graph = to_networkx(out)
    ids = graph.graph["ids"]
    node = graph.nodes[ids[h]]
    assert (node["op"], node["kind"], node["user_op"]) == ("softsign", "op", True)
    (edge,) = [d for _, _, d in graph.in_edges(ids[h], data=True)]
    assert edge["local"] is None and edge["formula"] == "?"
    _, _, locals_ = numbers_of(topological_order(out))
    assert locals_[ids[h]] == (None,)
    assert locals_[ids[out]] == pytest.approx((1 - math.tanh(h.data) ** 2,))


def test_the_ledger_replays_a_user_op_without_changing_any_grad():
    _, _, h, out = _graph_with_a_user_op()
    before = {n: n.grad for n in topological_order(out)}
    steps = backward_steps(out)
    assert {n: n.grad for n in topological_order(out)} == before
    (step,) = [s for s in steps if s.node is h]
    (c,) = step.contributions
    assert c.local is None and c.after == pytest.approx(before[c.parent], abs=1e-15)
    text = " ".join(step.sentences())
    assert "softsign is an op written in Python: its local derivative lives in its _backward closure" in text


def test_forward_mode_higher_order_and_symbolic_say_why_they_cannot():
    a, _, h, out = _graph_with_a_user_op()
    with pytest.raises(UnknownDerivative, match=r"node 'softsign' is an op written in Python: .*forward mode"):
        forward_steps(out, {a: 1.0})
    with pytest.raises(UnknownDerivative, match=r"node 'softsign'.*derivative of a derivative"):
        grad(out, a, create_graph=True)
    with pytest.raises(UnknownDerivative, match=r"node 'softsign'.*symbolic"):
        from_graph(out)
    with pytest.raises(UnknownDerivative, match="lives in its _backward closure"):
        h.local_grads  # noqa: B018  (the property raises)


def test_a_network_refuses_a_python_function_as_its_activation_in_one_sentence():
    """Sessions and exports write a network's activations by name; a closure could not be written back."""
    from autograd_core import MLP

    with pytest.raises(ValueError, match=r"^the activation softsign is a Python function[^.]*$"):
        MLP(2, [4, 1], activation=softsign)
