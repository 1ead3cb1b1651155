"""Symbolic derivatives built from the op table: evaluated, they are the engine's gradients."""

import math
import random

import pytest

from autograd_core import Tensor
from autograd_core.engine.functional import hessian
from autograd_core.engine.ops import LANGUAGE_OPS
from autograd_core.language.expression import compile_expression
from autograd_core.language.symbolic import (
    Builder,
    SymbolicError,
    derivative_of,
    diff,
    evaluate,
    from_graph,
    to_html,
    to_text,
)


def close(a, b, tol=1e-12):
    return abs(a - b) <= tol * max(1.0, abs(b))


def expression_for(op):
    """An expression using ``op`` on compound operands (so the chain rule has work to do)."""
    if op.arity == 2:
        return f"{op.name}(x*y + 0.3, y + 0.5*x)"
    return f"{op.name}(x*y + 0.3) * y"


def engine_grads(program, values):
    evaluation = program.evaluate(values)
    evaluation.output.backward()
    return evaluation, {n: t.grad for n, t in evaluation.inputs.items()}


@pytest.mark.parametrize("op", sorted(LANGUAGE_OPS.values(), key=lambda o: o.name), ids=lambda o: o.name)
def test_the_symbolic_derivative_of_every_op_is_the_engines_gradient(op):
    rng = random.Random(hash(op.name) % 1000)
    program = compile_expression(expression_for(op))
    for _ in range(5):
        values = {"x": rng.uniform(0.2, 1.5), "y": rng.uniform(0.2, 1.5)}
        evaluation, grads = engine_grads(program, values)
        for name in ("x", "y"):
            _, d = derivative_of(evaluation.output, evaluation.inputs[name])
            assert close(d.data, grads[name]), (op.name, name, to_text(d))
            assert close(evaluate(d, values), grads[name])
            if op.derivative is not None:  # smooth: the same formula holds at another point
                other = {"x": rng.uniform(0.2, 1.5), "y": rng.uniform(0.2, 1.5)}
                _, other_grads = engine_grads(program, other)
                assert close(evaluate(d, other), other_grads[name]), (op.name, name)


@pytest.mark.parametrize(
    "text", ["x**3 * y", "2**x + y", "pow(x, y)", "-x / y", "x - y*x", "(x + y)**2.5", "exp(-x*y)", "1/(1 + exp(-x*y))"]
)
def test_operators_too(text):
    program = compile_expression(text)
    values = {"x": 0.7, "y": 1.3}
    evaluation, grads = engine_grads(program, values)
    for name in ("x", "y"):
        _, d = derivative_of(evaluation.output, evaluation.inputs[name])
        assert close(evaluate(d, values), grads[name])


def test_second_derivatives_match_the_hessian():
    program = compile_expression("tanh(x*y) + x**3 * sin(y)")

    def fn(x, y):
        return program.evaluate({"x": x, "y": y}).output

    h = hessian(fn, [0.4, -1.1])
    evaluation = program.evaluate({"x": 0.4, "y": -1.1})
    _, dxx = derivative_of(evaluation.output, evaluation.inputs["x"], order=2)
    expr, _ = from_graph(evaluation.output)
    dxy = diff(diff(expr, "x"), "y")
    assert close(dxx.data, h[0, 0])
    assert close(dxy.data, h[0, 1])
    # hand-derived: d²/dx² = −2y²·tanh(xy)(1 − tanh²(xy)) + 6x·sin(y)
    t = math.tanh(0.4 * -1.1)
    assert close(dxx.data, -2 * 1.21 * t * (1 - t * t) + 6 * 0.4 * math.sin(-1.1))


def test_light_simplification():
    program = compile_expression("a*b + c")
    ev = program.evaluate({"a": 2.0, "b": -3.0, "c": 10.0})
    assert to_text(derivative_of(ev.output, ev.inputs["a"])[1]) == "b"
    assert to_text(derivative_of(ev.output, ev.inputs["c"])[1]) == "1"
    b = Builder()
    x = b.variable("x", 2.0)
    assert (x * 1.0 + 0.0) is x  # ×1 and +0 removed
    assert to_text(0.0 * x + 2.0 * 3.0) == "6"  # ×0 removed, constants folded
    assert to_text(-x.__neg__()) == "x"  # double negation
    assert to_text(x * x) == "x^2"
    assert to_text(2.0 * (3.0 * x)) == "6·x"
    assert to_text(x * (-x.tanh())) == "−x·tanh(x)"
    assert to_text(diff(x**3, "x")) == "3·x^2"
    assert to_html(diff(x**3, "x")) == "3·<i>x</i><sup>2</sup>"


def test_constants_and_piecewise_ops():
    program = compile_expression("pi*x + relu(x - 1) + e")
    ev = program.evaluate({"x": 3.0})
    _, d = derivative_of(ev.output, ev.inputs["x"])
    assert to_text(d) == "π + 1"  # relu's branch at x = 3 is the slope 1
    assert close(d.data, math.pi + 1)


def test_an_input_the_output_does_not_use_has_a_clear_error():
    ev = compile_expression("x * 2").evaluate({"x": 1.0})
    with pytest.raises(SymbolicError, match="does not depend"):
        derivative_of(ev.output, Tensor(1.0, label="z"))


def test_a_deep_expression_has_a_bounded_text():
    x = Tensor(0.3, label="x")
    y = x
    for _ in range(300):
        y = (y * 0.9 + x).tanh()
    _, d = derivative_of(y, x)
    text = to_text(d)
    assert len(text) < 5000
    y.backward()
    assert close(d.data, x.grad)


def test_chain_path_multiplies_the_local_derivatives_and_counts_the_paths():
    from autograd_core.language.chain_path import chain_path

    ev = compile_expression("h = a*b\nout = tanh(h + c) + h").evaluate({"a": 0.5, "b": -1.0, "c": 0.3})
    out, a = ev.output, ev.inputs["a"]
    path = chain_path(out, a)
    # shortest path a → h → out (h feeds out directly): ∂out/∂h · ∂h/∂a = 1 · b
    assert [n.label for n in path.nodes] == ["a", "h", "out"]
    assert path.product == -1.0 and path.formulas == ["b", "1"]
    # two paths from a (through tanh and directly): their products add up to the gradient
    t = math.tanh(0.5 * -1.0 + 0.3)
    assert path.count == 2
    assert close(path.total, ((1 - t * t) + 1) * -1.0)
    out.backward()
    assert close(path.total, a.grad)
    assert chain_path(out, out).product == 1.0
    assert chain_path(out, Tensor(1.0)) is None
