"""Higher-order gradients (grad with create_graph, Hessians, Jacobians, Hessian-vector products),
forward mode (dual numbers, forward steps) and the vectorised evaluation of a typed expression."""

import math
import unicodedata

import numpy as np
import pytest

from autograd_core import Tensor, compile_expression
from autograd_core.engine.forward import Dual, forward_steps, jvp, pass_counts
from autograd_core.engine.functional import grad, hessian, hvp, jacobian
from autograd_core.engine.ops import OPS
from autograd_core.language.expression import FUNCTION_NAMES, ExpressionError

UNARY = [op for op in OPS.values() if op.arity == 1]
SMOOTH = [op for op in UNARY if op.derivative is not None]
POINTS = [-1.7, -0.6, 0.45, 1.3]


def _x(op, x):
    return abs(x) + 0.3 if op.name in ("log", "sqrt", "pow_const") else x


def derivatives(op, x, order=3):
    """d¹..dⁿ of op at x by nested grad(create_graph=True)."""
    leaf = Tensor(x, "x")
    out = op.apply(leaf, *op.args)
    result = []
    for _ in range(order):
        (out,) = grad(out, [leaf], create_graph=True, allow_unused=True)
        out = out if out is not None else Tensor(0.0)
        result.append(out.data)
    return result


def nth(op, x, n):
    return derivatives(op, x, n)[-1] if n else op.apply(Tensor(x), *op.args).data


@pytest.mark.parametrize("op", UNARY, ids=lambda op: op.name)
def test_first_second_third_derivatives_match_finite_differences_of_the_lower_one(op):
    h = 1e-5
    for x0 in POINTS:
        x = _x(op, x0)
        d = derivatives(op, x)
        for n in (1, 2, 3):
            numeric = (nth(op, x + h, n - 1) - nth(op, x - h, n - 1)) / (2 * h)
            assert d[n - 1] == pytest.approx(numeric, rel=1e-5, abs=1e-6), (op.name, x, n)


@pytest.mark.parametrize("op", [op for op in OPS.values() if op.arity == 2], ids=lambda op: op.name)
def test_binary_second_derivatives_and_mixed_partials(op):
    h = 1e-5

    def f(a, b):
        return op.apply(a, b)

    for a0, b0 in [(1.3, 0.7), (0.6, -1.2), (2.1, 1.9)]:
        H = hessian(f, [a0, b0])
        for j, (da, db) in enumerate(((h, 0), (0, h))):
            leaves_up = [Tensor(a0 + da), Tensor(b0 + db)]
            leaves_dn = [Tensor(a0 - da), Tensor(b0 - db)]
            g_up = [g.data for g in grad(f(*leaves_up), leaves_up)]
            g_dn = [g.data for g in grad(f(*leaves_dn), leaves_dn)]
            for i in range(2):
                assert H[i, j] == pytest.approx((g_up[i] - g_dn[i]) / (2 * h), rel=1e-5, abs=1e-6), (op.name, i, j)
        assert H[0, 1] == pytest.approx(H[1, 0], rel=1e-9, abs=1e-12)


def test_hand_derived_higher_derivatives():
    t = math.tanh(0.5)
    assert derivatives(OPS["tanh"], 0.5) == pytest.approx(
        [1 - t * t, -2 * t * (1 - t * t), -2 * (1 - t * t) * (1 - 3 * t * t)]
    )
    s = 1 / (1 + math.exp(-0.3))
    assert derivatives(OPS["sigmoid"], 0.3, 2) == pytest.approx([s * (1 - s), s * (1 - s) * (1 - 2 * s)])
    assert derivatives(OPS["exp"], 1.1) == pytest.approx([math.exp(1.1)] * 3)
    assert derivatives(OPS["sin"], 0.4) == pytest.approx([math.cos(0.4), -math.sin(0.4), -math.cos(0.4)])
    assert derivatives(OPS["log"], 2.0) == pytest.approx([0.5, -0.25, 0.25])
    phi = math.exp(-0.5 * 0.7**2) / math.sqrt(2 * math.pi)
    assert derivatives(OPS["gelu"], 0.7, 2)[1] == pytest.approx((2 - 0.7**2) * phi)
    # Piecewise-linear ops: every higher derivative is 0, as PyTorch gives.
    for name in ("relu", "leaky_relu", "abs", "hardtanh"):
        assert derivatives(OPS[name], 0.4)[1:] == [0.0, 0.0]


def test_pow_at_zero_follows_pytorch():
    a, b = Tensor(0.0), Tensor(2.0)
    ga, gb = grad(a**b, [a, b], create_graph=True)
    assert (ga.data, gb.data) == (0.0, 0.0)  # d/db of 0**b is taken as 0 for b >= 0
    (g,) = grad(Tensor(3.0) ** 0, [Tensor(3.0)], allow_unused=True)
    assert g is None


def test_grad_equals_backward_and_changes_no_grad():
    a, b, c = Tensor(2.0, "a"), Tensor(-3.0, "b"), Tensor(10.0, "c")
    out = ((a * b + c).tanh() * a).sigmoid() + a.max(b) / c
    floats = [g.data for g in grad(out, [a, b, c])]
    graphs = [g.data for g in grad(out, [a, b, c], create_graph=True)]
    assert (a.grad, b.grad, c.grad) == (0.0, 0.0, 0.0)
    out.backward()
    assert floats == [a.grad, b.grad, c.grad]  # bit for bit: backward's own arithmetic
    assert graphs == pytest.approx(floats, rel=1e-12)


def test_unused_inputs_raise_or_give_none():
    x, y = Tensor(1.0, "x"), Tensor(2.0, "y")
    with pytest.raises(ValueError, match="'y' is not used"):
        grad(x * 3, [x, y])
    gx, gy = grad(x * 3, [x, y], allow_unused=True)
    assert gx.data == 3.0 and gy is None
    (gx,) = grad(x.relu() * 0 + (x - 5).relu(), [x])  # used, but the gradient is 0 here
    assert gx.data == 0.0


def test_hessian_jacobian_and_hvp_by_hand():
    def f(x, y):
        return x * x * y + y.sin() + (x * y).exp()

    x, y = 0.3, -0.8
    e = math.exp(x * y)
    H = np.array([[2 * y + y * y * e, 2 * x + e + x * y * e], [2 * x + e + x * y * e, -math.sin(y) + x * x * e]])
    np.testing.assert_allclose(hessian(f, [x, y]), H, rtol=1e-12)
    value, hv = hvp(f, [x, y], [0.5, -2.0])
    assert value == pytest.approx(x * x * y + math.sin(y) + e)
    np.testing.assert_allclose(hv, H @ np.array([0.5, -2.0]), rtol=1e-12)

    def g(x, y):
        return [x * y, x.tanh() + y, (x / y).exp()]

    reverse = jacobian(g, [x, y])
    forward = jacobian(g, [x, y], mode="forward")
    assert reverse.shape == (3, 2)
    np.testing.assert_allclose(forward, reverse, rtol=1e-12, atol=1e-15)
    assert reverse[0].tolist() == pytest.approx([y, x])


# ------------------------------------------------------------ forward mode


@pytest.mark.parametrize("op", [op for op in OPS.values() if op.arity in (1, 2)], ids=lambda op: op.name)
def test_jvp_agrees_with_reverse_mode(op):
    for x0 in POINTS:
        x = _x(op, x0)
        if op.arity == 1:
            fn = lambda t: (op.apply(t, *op.args) * t).tanh() + t  # noqa: E731
            dual_fn = (
                (lambda d: (_dual_apply(op, d) * d).tanh() + d)
                if not op.method
                else (lambda d: (getattr(d, op.name)() * d).tanh() + d)
            )
            leaf = Tensor(x)
            fn(leaf).backward()
            _, tangent = jvp(dual_fn, [x], [1.0])
            assert tangent == pytest.approx(leaf.grad, rel=1e-12, abs=1e-12), (op.name, x)
        else:
            a, b = Tensor(abs(x) + 0.2), Tensor(0.7)
            (op.apply(a, b) * a).backward()
            for direction, expected in (((1.0, 0.0), a.grad), ((0.0, 1.0), b.grad)):
                _, tangent = jvp(lambda p, q: _dual_apply(op, p, q) * p, [a.data, b.data], direction)
                assert tangent == pytest.approx(expected, rel=1e-12, abs=1e-12), (op.name, direction)


def _dual_apply(op, *operands):
    names = {
        "add": "__add__",
        "sub": "__sub__",
        "mul": "__mul__",
        "div": "__truediv__",
        "pow": "__pow__",
        "neg": "__neg__",
    }
    if op.name == "pow_const":
        return operands[0] ** op.args[0]
    if op.name == "rpow_const":
        return op.args[0] ** operands[0]
    return getattr(operands[0], names.get(op.name, op.name))(*operands[1:])


def test_dual_numbers_with_plain_numbers_on_either_side():
    value, tangent = jvp(lambda x: 3 - 2 / x + x**2 + 2**x - x, [1.5], [1.0])
    assert value == pytest.approx(3 - 2 / 1.5 + 2.25 + 2**1.5 - 1.5)
    assert tangent == pytest.approx(2 / 1.5**2 + 3.0 + 2**1.5 * math.log(2) - 1)
    assert Dual.sum([Dual(1.0, 2.0), 3.0]).tangent == 2.0
    with pytest.raises(ValueError):
        jvp(lambda x: x, [1.0], [1.0, 0.0])


def test_forward_steps_agree_with_backward_and_read_as_sentences():
    ev = compile_expression("h = a*b + c\nout = h.tanh() * a").evaluate({"a": 2.0, "b": -3.0, "c": 6.5})
    ev.output.backward()
    a = ev.inputs["a"]
    steps = forward_steps(ev.output, {a: 1.0})
    assert steps[-1].node is ev.output
    assert steps[-1].tangent == pytest.approx(a.grad, rel=1e-12)
    sentences = [unicodedata.normalize("NFC", s.sentence()) for s in steps]
    assert sentences[0] == "\u0227 = 1.0: a is a leaf (input), its tangent is chosen"
    expected = "(a*b)\u02d9 = ∂(a*b)/∂a · ȧ + ∂(a*b)/∂b · ḃ = b · 1.0 + a · 0.0 = −3.0"
    assert unicodedata.normalize("NFC", expected) in sentences
    assert sentences[-1].startswith("(out)\u02d9 = ∂out/∂(tanh(h))")
    assert pass_counts(len(ev.inputs)) == {"forward": 3, "reverse": 1}


# ------------------------------------------------------------ evaluate_array


def test_evaluate_array_gives_the_scalar_numbers_for_every_function():
    rng = np.random.default_rng(0)
    xs, ys = rng.uniform(-3, 3, 200), rng.uniform(0.1, 3, 200)
    parts = [
        f"{name}(x, y)" if OPS[name].arity == 2 else f"{name}(y)" if name in ("log", "sqrt") else f"{name}(x)"
        for name in FUNCTION_NAMES
    ]
    program = compile_expression("h = x*y - 2/y\n" + " + ".join(parts) + " + h**2 + 2**x - leaky_relu(x, 0.2) + pi")
    fast = program.evaluate_array({"x": xs, "y": ys})
    slow = np.array([program.evaluate({"x": x, "y": y}).output.data for x, y in zip(xs, ys)])
    np.testing.assert_allclose(fast, slow, rtol=1e-12, atol=1e-12)


def test_evaluate_array_broadcasts_keeps_ieee_and_refuses_bad_input():
    program = compile_expression("log(x) + y")
    grid = program.evaluate_array({"x": np.array([[0.0], [1.0]]), "y": np.array([1.0, 2.0, 3.0])})
    assert grid.shape == (2, 3) and np.all(np.isneginf(grid[0])) and grid[1].tolist() == [1.0, 2.0, 3.0]
    assert compile_expression("2 + 3").evaluate_array({}).shape == ()
    with pytest.raises(ExpressionError, match="no value given for input 'y'"):
        program.evaluate_array({"x": 1.0})
    with pytest.raises(ExpressionError, match="must be numbers"):
        program.evaluate_array({"x": "abc", "y": 1.0})
    with pytest.raises(ExpressionError, match="do not fit together"):
        program.evaluate_array({"x": np.zeros(3), "y": np.zeros(4)})
