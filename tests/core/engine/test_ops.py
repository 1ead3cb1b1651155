"""The op table: every op's rule against finite differences and hand values, its numpy twin, and
everything derived from the table (methods, language, activations, vectorised forward, maps, help)."""

import math

import numpy as np
import pytest

from autograd_core import Tensor, compile_expression
from autograd_core.engine.explain import derivative_formula, describe_node
from autograd_core.engine.ops import (
    OPS,
    SELU_ALPHA,
    SELU_SCALE,
    sigmoid_array,
    softmax_array,
    stable_sigmoid,
    stable_softmax,
)
from autograd_core.language.expression import FUNCTION_NAMES, METHOD_NAMES
from autograd_core.language.trace import node_name
from autograd_core.learn.nn import ACTIVATION_HELP, ACTIVATIONS, MLP, activate_array, activation_range

UNARY = [op for op in OPS.values() if op.arity == 1]
BINARY = [op for op in OPS.values() if op.arity == 2]
POINTS = [-2.3, -1.1, -0.4, 0.3, 0.9, 1.7, 2.6]
PAIRS = [(0.7, -1.3), (1.9, 0.4), (-0.8, -2.1), (2.5, 1.5)]


def _domain(op, x):
    """Points where the op is smooth and defined (log, sqrt need x > 0; kinks avoided)."""
    if op.name in ("log", "sqrt", "pow_const") or (op.name == "rpow_const"):
        return abs(x) + 0.2
    return x


@pytest.mark.parametrize("op", UNARY, ids=lambda op: op.name)
def test_unary_rule_matches_finite_differences(op):
    h = 1e-6
    for x0 in POINTS:
        x = _domain(op, x0)
        _value, local = op.rule(x, *op.args)
        numeric = (op.rule(x + h, *op.args)[0] - op.rule(x - h, *op.args)[0]) / (2 * h)
        assert local == pytest.approx(numeric, rel=1e-6, abs=1e-7), (op.name, x)


@pytest.mark.parametrize("op", BINARY, ids=lambda op: op.name)
def test_binary_rule_matches_finite_differences(op):
    h = 1e-6
    for a, b in PAIRS:
        if op.name == "pow":
            a = abs(a) + 0.2
        _value, da, db = op.rule(a, b)
        assert da == pytest.approx((op.rule(a + h, b)[0] - op.rule(a - h, b)[0]) / (2 * h), rel=1e-6, abs=1e-7)
        assert db == pytest.approx((op.rule(a, b + h)[0] - op.rule(a, b - h)[0]) / (2 * h), rel=1e-6, abs=1e-7)


SPECIAL = [-math.inf, -800.0, -30.0, -1.0, -0.0, 0.0, 1e-300, 0.5, 1.0, 30.0, 800.0, math.inf, math.nan]


@pytest.mark.parametrize("op", UNARY, ids=lambda op: op.name)
def test_numpy_twin_gives_the_rules_numbers(op):
    xs = np.array(SPECIAL + POINTS)
    with np.errstate(all="ignore"):
        fast = np.asarray(op.numpy(xs, *op.args), dtype=float)
    slow = np.array([op.rule(float(x), *op.args)[0] for x in xs])
    np.testing.assert_allclose(fast, slow, rtol=1e-12, atol=1e-300, equal_nan=True, err_msg=op.name)


@pytest.mark.parametrize("op", BINARY, ids=lambda op: op.name)
def test_binary_numpy_twin_gives_the_rules_numbers(op):
    a, b = np.meshgrid(np.array([*SPECIAL[1:-1:2], 2.0, -3.0]), np.array([*SPECIAL[2::2], 0.5, 3.0]))
    with np.errstate(all="ignore"):
        fast = np.asarray(op.numpy(a, b), dtype=float)
    slow = np.array([[op.rule(float(x), float(y))[0] for x, y in zip(ra, rb)] for ra, rb in zip(a, b)])
    np.testing.assert_allclose(fast, slow, rtol=1e-12, atol=1e-300, equal_nan=True, err_msg=op.name)


def test_written_out_arithmetic_equals_its_table_rule_bit_for_bit():
    values = [-3.5, -1.0, -0.0, 0.0, 0.1, 2.0, 1e308, math.inf, math.nan]
    for name, method in (("add", Tensor.__add__), ("sub", Tensor.__sub__), ("mul", Tensor.__mul__)):
        for a in values:
            for b in values:
                out = method(Tensor(a), Tensor(b))
                expected = OPS[name].rule(a, b)
                got = (out.data, *out.local_grads)
                assert all(g == e or (g != g and e != e) for g, e in zip(got, expected)), (name, a, b)
                assert out.op_entry is OPS[name]


# ------------------------------------------------------------ hand-derived values of the new ops


def sig(x):
    return 1 / (1 + math.exp(-x))


PHI_1 = 0.5 * (1 + math.erf(1 / math.sqrt(2)))  # Φ(1)


@pytest.mark.parametrize(
    ("name", "x", "value", "local"),
    [
        ("elu", 1.5, 1.5, 1.0),
        ("elu", -1.0, math.exp(-1) - 1, math.exp(-1)),
        ("elu", 0.0, 0.0, 1.0),  # PyTorch takes the x <= 0 side: α·e⁰ = 1
        ("selu", 2.0, SELU_SCALE * 2.0, SELU_SCALE),
        ("selu", -0.5, SELU_SCALE * SELU_ALPHA * (math.exp(-0.5) - 1), SELU_SCALE * SELU_ALPHA * math.exp(-0.5)),
        ("selu", 0.0, 0.0, SELU_SCALE * SELU_ALPHA),
        ("silu", 1.2, 1.2 * sig(1.2), sig(1.2) * (1 + 1.2 * (1 - sig(1.2)))),
        ("gelu", 0.0, 0.0, 0.5),
        ("gelu", 1.0, PHI_1, PHI_1 + math.exp(-0.5) / math.sqrt(2 * math.pi)),
        ("gelu_tanh", 0.0, 0.0, 0.5),
        ("gelu_tanh", 1.0, 0.5 * (1 + math.tanh(math.sqrt(2 / math.pi) * 1.044715)), None),
        ("softsign", -3.0, -0.75, 1 / 16),
        ("hardtanh", 0.4, 0.4, 1.0),
        ("hardtanh", 1.0, 1.0, 0.0),  # the edge counts as outside (PyTorch)
        ("hardtanh", -7.0, -1.0, 0.0),
        ("mish", 0.8, 0.8 * math.tanh(math.log1p(math.exp(0.8))), None),
        ("erf", 0.5, math.erf(0.5), 2 / math.sqrt(math.pi) * math.exp(-0.25)),
        ("softplus", 0.0, math.log(2.0), 0.5),
    ],
)  # fmt: skip
def test_new_ops_hand_derived(name, x, value, local):
    leaf = Tensor(x)
    out = getattr(leaf, name)()
    out.backward()
    assert out.data == pytest.approx(value, rel=1e-12, abs=1e-15)
    if local is not None:
        assert leaf.grad == pytest.approx(local, rel=1e-12)
    assert out.op == name


def test_parameters_reach_value_derivative_and_formula():
    x = Tensor(-2.0, "x")
    out = x.elu(0.5)
    assert out.data == pytest.approx(0.5 * (math.exp(-2.0) - 1))
    assert out.local_grads[0] == pytest.approx(0.5 * math.exp(-2.0))
    assert out.op_entry.args == (0.5,)
    assert "0.5" in derivative_formula(out, 0)
    clipped = Tensor(3.0).hardtanh(-2.0, 2.5)
    assert clipped.data == 2.5 and clipped.local_grads == (0.0,)
    assert "leaky_relu" in node_name(x.leaky_relu(0.2)) and "0.2" in derivative_formula(x.leaky_relu(0.2), 0)


@pytest.mark.parametrize("name", ["max", "min"])
def test_max_min_follow_pytorchs_tie_and_nan_rules(name):
    bigger = name == "max"
    a, b = Tensor(2.0), Tensor(-1.0)
    out = getattr(a, name)(b)
    out.backward()
    assert out.data == (2.0 if bigger else -1.0)
    assert (a.grad, b.grad) == ((1.0, 0.0) if bigger else (0.0, 1.0))
    a, b = Tensor(1.5), Tensor(1.5)
    getattr(a, name)(b).backward()
    assert (a.grad, b.grad) == (0.5, 0.5)  # a tie splits the gradient
    a, b = Tensor(math.nan), Tensor(1.0)
    out = getattr(a, name)(b)
    out.backward()
    assert math.isnan(out.data) and (a.grad, b.grad) == (1.0, 1.0)
    assert getattr(Tensor(3.0), name)(4.0).parents[1].kind == "constant"


# ------------------------------------------------------------ everything derived from the table


def test_every_op_is_a_method_a_word_of_the_language_and_has_text():
    for op in OPS.values():
        assert op.help, op.name
        if op.method:
            assert callable(getattr(Tensor, op.name)) and op.name in METHOD_NAMES
        if op.function:
            assert op.name in FUNCTION_NAMES
        if op.arity in (1, 2):
            names = ["a", "b"][: op.arity]
            assert op.show(names), op.name
            for index in range(op.arity):
                assert op.derivative_text(index, names), op.name


@pytest.mark.parametrize("op", [op for op in OPS.values() if op.activation], ids=lambda op: op.name)
def test_every_activation_reaches_the_network_the_maps_and_the_help(op):
    name = op.name
    assert name in ACTIVATIONS and ACTIVATION_HELP[name] == op.help
    model = MLP(2, [5, 1], activation=name, seed=3)
    X = np.random.default_rng(1).normal(size=(30, 2)) * 2
    fast = model.forward_array(X)
    slow = np.array([model(list(row)).data for row in X])
    np.testing.assert_allclose(fast, slow, rtol=0, atol=1e-12)
    lo, hi = activation_range(name)
    z = np.linspace(-6, 6, 601)
    out = activate_array(z, name)
    assert out.min() >= lo - 1e-4 and out.max() <= hi + 1e-12
    program = compile_expression(f"{name}(x)")
    assert program.evaluate({"x": 0.3}).output.data == getattr(Tensor(0.3), name)().data
    model([0.5, -0.5]).backward()  # trains: gradients flow through it
    assert any(p.grad != 0.0 for p in model.parameters())


def test_texts_of_nodes_read_like_formulas():
    a, b = Tensor(2.0, "a"), Tensor(-3.0, "b")
    assert node_name(a * b) == "a*b"
    assert node_name(a - (a + b)) == "a - (a + b)"
    assert node_name(a**2) == "a**2"
    assert node_name(2**a) == "2**a"
    assert node_name(a.max(b)) == "max(a, b)"
    assert node_name(-a) == "-a"
    assert describe_node(Tensor(-1.0).log()) == "log(−1)"
    assert describe_node(Tensor(0.0) / Tensor(0.0)) == "0 / 0"
    assert derivative_formula(a.max(b), 0).startswith("(1 if a > b")


def test_the_one_sigmoid_and_softmax_match_the_naive_formulas_and_stay_finite_far_out():
    # where the naive formulas are stable, every form agrees with them
    xs = np.linspace(-30.0, 30.0, 61)
    naive = 1.0 / (1.0 + np.exp(-xs))
    np.testing.assert_allclose(sigmoid_array(xs), naive, rtol=1e-12)
    np.testing.assert_allclose([stable_sigmoid(float(x)) for x in xs], naive, rtol=1e-12)
    scores = np.array([[0.3, -1.2, 2.5], [10.0, 0.0, -10.0], [1.0, 1.0, 1.0]])
    naive_soft = np.exp(scores) / np.exp(scores).sum(axis=1, keepdims=True)
    np.testing.assert_allclose(softmax_array(scores, axis=1), naive_soft, rtol=1e-12)
    np.testing.assert_allclose(softmax_array(scores.T, axis=0), naive_soft.T, rtol=1e-12)
    for row, expected in zip(scores, naive_soft):
        np.testing.assert_allclose(stable_softmax(row.tolist()), expected, rtol=1e-12)
    # at ±1000 the naive forms overflow; these saturate to exact 0 and 1
    far = np.array([-1000.0, 1000.0])
    assert sigmoid_array(far).tolist() == [0.0, 1.0]
    assert [stable_sigmoid(-1000.0), stable_sigmoid(1000.0)] == [0.0, 1.0]
    assert softmax_array(np.array([[1000.0, -1000.0, 0.0]])).tolist() == [[1.0, 0.0, 0.0]]
    assert stable_softmax([-1000.0, 1000.0]) == [0.0, 1.0]
    assert np.isfinite(softmax_array(np.array([[1000.0, 1000.0]]))).all()
