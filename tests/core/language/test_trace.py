"""The backward trace: backward()'s order, hand-derived steps, exact replay on random expressions."""

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from autograd_core import Tensor, topological_order
from autograd_core.language.expression import compile_expression
from autograd_core.language.trace import backward_steps, fmt, grads_after, node_name
from autograd_core.learn.nn import MLP


def build(text, **values):
    return compile_expression(text).evaluate(values)


def same(a, b):
    return a == b or (math.isnan(a) and math.isnan(b))


def test_the_issue_example_step_by_step():
    ev = build("h = a*b", a=2.0, b=-3.0)
    steps = backward_steps(ev.output)
    assert [s.node for s in steps] == [ev.output, ev.inputs["b"], ev.inputs["a"]]  # reversed post-order
    root = steps[0]
    assert root.is_root and root.grad == 1.0 and root.seed == 1.0
    a, b = root.contributions
    assert (a.parent, a.index, a.local, a.formula, a.contribution, a.before, a.after) == (
        ev.inputs["a"],
        0,
        -3.0,
        "b",
        -3.0,
        0.0,
        -3.0,
    )
    assert (b.local, b.formula, b.contribution, b.after) == (2.0, "a", 2.0, 2.0)
    assert root.sentences() == [
        "grad(h) = 1.0: the output's gradient with respect to itself",
        "grad(a) += ∂h/∂a · grad(h) = b · 1.0 = −3.0 → a.grad = −3.0",
        "grad(b) += ∂h/∂b · grad(h) = a · 1.0 = 2.0 → b.grad = 2.0",
    ]
    assert steps[2].sentences() == ["a is a leaf (input): nothing to pass on; a.grad = −3.0"]


def test_order_is_backwards_order_and_nothing_is_mutated():
    ev = build("h = a*b + c\nout = h.tanh() * h", a=2.0, b=-3.0, c=10.0)
    nodes = topological_order(ev.output)
    before = [n.grad for n in nodes]
    steps = backward_steps(ev.output)
    assert [s.node for s in steps] == list(reversed(nodes))
    assert [s.number for s in steps] == list(range(len(nodes)))
    assert [n.grad for n in nodes] == before
    assert sum(s.is_root for s in steps) == 1


def test_a_node_used_twice_gets_two_contributions():
    ev = build("x*x", x=3.0)
    (step, leaf) = backward_steps(ev.output)
    first, second = step.contributions
    assert (first.before, first.contribution, first.after) == (0.0, 3.0, 3.0)
    assert (second.before, second.contribution, second.after) == (3.0, 3.0, 6.0)
    assert leaf.grad == 6.0
    assert step.sentences()[2] == "grad(x) += ∂(x*x)/∂x · grad(x*x) = x · 1.0 = 3.0 → x.grad = 6.0"


def test_hand_derived_chain_through_tanh():
    ev = build("out = tanh(w*x)", w=0.5, x=2.0)
    steps = backward_steps(ev.output)
    t = math.tanh(1.0)
    (edge,) = steps[0].contributions
    assert edge.local == pytest.approx(1 - t * t) and edge.after == edge.contribution
    product = steps[1]
    assert product.node.op == "*" and product.grad == edge.after
    w_edge, x_edge = product.contributions
    assert w_edge.after == pytest.approx(2.0 * (1 - t * t))
    assert x_edge.after == pytest.approx(0.5 * (1 - t * t))


def test_leaves_accumulate_like_backward():
    ev = build("a*b", a=2.0, b=5.0)
    ev.output.backward()
    steps = backward_steps(ev.output)  # simulates a second backward(): leaves start from their grads
    a_edge = steps[0].contributions[0]
    assert (a_edge.before, a_edge.after) == (5.0, 10.0)
    ev.output.backward()
    assert ev.inputs["a"].grad == a_edge.after


def test_a_leaf_root():
    x = Tensor(4.0, label="x")
    (step,) = backward_steps(x)
    assert step.grad == 1.0 and step.contributions == [] and step.seed == 1.0
    assert step.sentences()[0] == "grad(x) += 1.0: the output is x itself → x.grad = 1.0"
    assert grads_after(x, [step], 0) == {x: 1.0}


def test_grads_after_partial_replay():
    ev = build("h = a*b\nout = h + c", a=2.0, b=-3.0, c=1.0)
    root = ev.output
    steps = backward_steps(root)
    assert grads_after(root, steps, 0) == {root: 1.0}
    one = grads_after(root, steps, 1)
    assert one == {root: 1.0, ev.named["h"]: 1.0, ev.inputs["c"]: 1.0}
    assert [s.node for s in steps[:3]] == [root, ev.inputs["c"], ev.named["h"]]
    assert ev.inputs["a"] not in grads_after(root, steps, 2)
    three = grads_after(root, steps, 3)
    assert three[ev.inputs["a"]] == -3.0 and three[ev.inputs["b"]] == 2.0
    everything = grads_after(root, steps, len(steps))
    root.backward()
    assert everything == {n: n.grad for n in topological_order(root)}
    for k in (-1, len(steps) + 1):
        with pytest.raises(ValueError, match="between 0 and"):
            grads_after(root, steps, k)


def test_fused_neurons_explain_themselves():
    model = MLP(2, [2, 1], seed=1)
    out = model([Tensor(0.5, label="x0"), Tensor(-1.0, label="x1")])
    steps = backward_steps(out)
    sentences = [line for s in steps for line in s.sentences()]
    assert any("Σwx+b[" in line for line in sentences)
    out.backward()
    replay = grads_after(out, steps, len(steps))
    assert all(replay[p] == p.grad for p in model.parameters())


def test_names_and_numbers_for_sentences():
    assert fmt(1.0) == "1.0" and fmt(-3.0) == "−3.0" and fmt(0.5) == "0.5" and fmt(math.inf) == "inf"
    ev = build("tanh(a*b + 2)", a=1.0, b=1.0)
    assert node_name(ev.output) == "tanh(… + 2)"
    assert node_name(ev.output.parents[0]) == "a*b + 2"


# ------------------------------------------------------------ random replay

NAMES = st.sampled_from(["a", "b", "c", "x"])
NUMBERS = st.sampled_from(["2", "0.5", "3", "1e-3", "pi", "e"])
FUNCTIONS = ["tanh", "sigmoid", "relu", "exp", "sin", "cos", "abs", "softplus", "log", "sqrt"]


def _combine(children):
    return st.one_of(
        st.tuples(children, st.sampled_from(["+", "-", "*", "/", "**"]), children).map(
            lambda t: f"({t[0]}{t[1]}{t[2]})"
        ),
        st.tuples(st.sampled_from(FUNCTIONS), children).map(lambda t: f"{t[0]}({t[1]})"),
        st.tuples(children, st.sampled_from(FUNCTIONS)).map(lambda t: f"({t[0]}).{t[1]}()"),
        children.map(lambda c: f"-{c}"),
        children.map(lambda c: f"leaky_relu({c}, 0.1)"),
        children.map(lambda c: f"({c})**2"),
    )


EXPRESSIONS = st.recursive(st.one_of(NAMES, NAMES, NUMBERS), _combine, max_leaves=12)


@settings(max_examples=120, deadline=None)
@given(
    st.lists(EXPRESSIONS, min_size=1, max_size=3),
    st.fixed_dictionaries({n: st.floats(-3, 3, allow_nan=False) for n in "abcx"}),
    st.booleans(),
)
def test_replaying_every_step_gives_exactly_backwards_gradients(parts, values, twice):
    lines = [f"h{i} = {p}" for i, p in enumerate(parts[:-1])]
    lines.append(" + ".join([parts[-1], *[f"h{i}" for i in range(len(parts) - 1)]]))
    program = compile_expression("\n".join(lines))
    root = program.evaluate({n: values[n] for n in program.inputs}).output
    if twice:  # leaves accumulate across calls: the trace must start from their current grads
        root.backward()
    nodes = topological_order(root)
    before = [n.grad for n in nodes]
    steps = backward_steps(root)
    assert [n.grad for n in nodes] == before or all(map(same, [n.grad for n in nodes], before))
    replay = grads_after(root, steps, len(steps))
    root.backward()
    assert set(replay) == set(nodes)
    for node in nodes:
        assert same(replay[node], node.grad)
