"""The scalar engine: values, gradients, semantics, limits and non-finite numbers."""

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from autograd_core import Tensor, gradcheck, no_grad, non_finite_nodes, topological_order
from autograd_core.engine.explain import derivative_formula
from autograd_core.engine.tensor import stable_sigmoid

finite = st.floats(min_value=-3.0, max_value=3.0, allow_nan=False)
positive = st.floats(min_value=0.1, max_value=5.0)
away_from_zero = st.one_of(st.floats(min_value=0.2, max_value=3.0), st.floats(min_value=-3.0, max_value=-0.2))
FD = settings(max_examples=60, deadline=None)


def grad_of(fn, *values):
    leaves = [Tensor(v) for v in values]
    out = fn(*leaves)
    out.backward()
    return out.data, [leaf.grad for leaf in leaves]


def assert_gradcheck(fn, values, tol=1e-5):
    for result in gradcheck(fn, values):
        assert result.rel_error < tol, result


# ------------------------------------------------------------ hand-derived


def test_add_mul_sub_div_hand_derived():
    a, b = Tensor(2.0, "a"), Tensor(-3.0, "b")
    out = (a * b + a - b) / b  # (ab + a - b)/b = a + a/b - 1
    out.backward()
    assert out.data == pytest.approx((2 * -3 + 2 + 3) / -3)
    assert a.grad == pytest.approx(1 + 1 / -3)  # 1 + 1/b
    assert b.grad == pytest.approx(-2 / 9)  # -a/b²


def test_article_neuron_tanh_hand_derived():
    a, b, c = Tensor(2.0, "a"), Tensor(-3.0, "b"), Tensor(10.0, "c")
    h = a * b + c
    out = h.tanh()
    out.backward()
    t = math.tanh(4.0)
    assert out.data == pytest.approx(t)
    assert h.grad == pytest.approx(1 - t * t)
    assert a.grad == pytest.approx((1 - t * t) * -3.0)
    assert b.grad == pytest.approx((1 - t * t) * 2.0)
    assert c.grad == pytest.approx(1 - t * t)


@pytest.mark.parametrize(
    ("method", "x", "value", "local"),
    [
        ("relu", 2.0, 2.0, 1.0),
        ("relu", -2.0, 0.0, 0.0),
        ("sigmoid", 0.0, 0.5, 0.25),
        ("tanh", 0.5, math.tanh(0.5), 1 - math.tanh(0.5) ** 2),
        ("exp", 1.5, math.exp(1.5), math.exp(1.5)),
        ("log", 2.0, math.log(2.0), 0.5),
        ("sin", 1.0, math.sin(1.0), math.cos(1.0)),
        ("cos", 1.0, math.cos(1.0), -math.sin(1.0)),
        ("abs", -2.5, 2.5, -1.0),
        ("abs", 2.5, 2.5, 1.0),
        ("sqrt", 4.0, 2.0, 0.25),
        ("softplus", 0.0, math.log(2.0), 0.5),
    ],
)
def test_unary_ops_hand_derived(method, x, value, local):
    leaf = Tensor(x)
    out = getattr(leaf, method)()
    out.backward()
    assert out.data == pytest.approx(value)
    assert leaf.grad == pytest.approx(local)
    assert out.op == method
    assert out.local_grads == pytest.approx((local,))


def test_leaky_relu_slope():
    x = Tensor(-2.0)
    out = x.leaky_relu(0.1)
    out.backward()
    assert out.data == pytest.approx(-0.2)
    assert x.grad == pytest.approx(0.1)
    y = Tensor(3.0)
    y.leaky_relu().backward()
    assert y.grad == 1.0
    z = Tensor(-1.0)
    z.leaky_relu().backward()
    assert z.grad == pytest.approx(0.01)


def test_powers_all_three_forms():
    x = Tensor(3.0)
    out = x**2
    out.backward()
    assert (out.data, x.grad) == (9.0, 6.0)
    assert out.op == "**2"

    x = Tensor(3.0)
    out = 2**x
    out.backward()
    assert out.data == pytest.approx(8.0)
    assert x.grad == pytest.approx(8.0 * math.log(2.0))

    a, b = Tensor(2.0), Tensor(3.0)
    out = a**b
    out.backward()
    assert out.data == pytest.approx(8.0)
    assert a.grad == pytest.approx(3 * 4.0)
    assert b.grad == pytest.approx(8.0 * math.log(2.0))


def test_constants_on_either_side_become_constant_leaves():
    x = Tensor(4.0, "x")
    for out, expected_value, expected_grad in [
        (x + 1, 5.0, 1.0),
        (1 + x, 5.0, 1.0),
        (x - 1, 3.0, 1.0),
        (1 - x, -3.0, -1.0),
        (x * 3, 12.0, 3.0),
        (3 * x, 12.0, 3.0),
        (x / 2, 2.0, 0.5),
        (2 / x, 0.5, -2 / 16),
        (-x, -4.0, -1.0),
    ]:
        x.grad = 0.0
        out.backward()
        assert out.data == pytest.approx(expected_value)
        assert x.grad == pytest.approx(expected_grad)
        constants = [p for p in out.parents if p is not x]
        assert all(c.kind == "constant" for c in constants)
    assert (2 - x).parents[0].kind == "constant"  # order kept: 2 is the first operand
    assert (2 - x).parents[1] is x


# ------------------------------------------------------------ finite differences


@FD
@given(finite, finite)
def test_binary_ops_match_finite_differences(a, b):
    assert_gradcheck(lambda x, y: x * y + x - y, [a, b])
    assert_gradcheck(lambda x, y: (x * y).tanh() * y.sigmoid(), [a, b])


@FD
@given(finite, away_from_zero)
def test_division_matches_finite_differences(a, b):
    assert_gradcheck(lambda x, y: x / y, [a, b])
    assert_gradcheck(lambda x, y: 1.5 / y + x / 2.0, [a, b])


@FD
@given(positive, st.floats(min_value=-2.0, max_value=2.0))
def test_power_forms_match_finite_differences(base, exponent):
    assert_gradcheck(lambda x, y: x**y, [base, exponent])
    assert_gradcheck(lambda x: x**exponent, [base])
    assert_gradcheck(lambda y: base**y, [exponent])


@FD
@given(finite)
def test_smooth_unary_ops_match_finite_differences(x):
    for method in ("sigmoid", "tanh", "exp", "sin", "cos", "softplus"):
        assert_gradcheck(lambda t, m=method: getattr(t, m)(), [x])


@FD
@given(positive)
def test_log_and_sqrt_match_finite_differences(x):
    assert_gradcheck(lambda t: t.log(), [x])
    assert_gradcheck(lambda t: t.sqrt(), [x])


@FD
@given(away_from_zero)
def test_kinked_ops_match_away_from_the_kink(x):
    assert_gradcheck(lambda t: t.relu(), [x])
    assert_gradcheck(lambda t: t.abs(), [x])
    assert_gradcheck(lambda t: t.leaky_relu(0.2), [x])


@FD
@given(finite, finite, finite)
def test_nary_ops_match_finite_differences(a, b, c):
    assert_gradcheck(lambda x, y, z: Tensor.sum([x, y * z, z, 2.0]), [a, b, c])
    assert_gradcheck(lambda w0, w1, bias: Tensor.weighted_sum([w0, w1], [0.3, -1.2], bias).tanh(), [a, b, c])
    assert_gradcheck(lambda x0, x1, bias: Tensor.weighted_sum([Tensor(0.7), Tensor(-0.4)], [x0, x1], bias), [a, b, c])


def test_weighted_sum_equals_long_form():
    ws, xs, bias = [0.5, -1.5, 2.0], [1.0, 2.0, -0.5], 0.25
    w1, x1, b1 = [Tensor(v) for v in ws], [Tensor(v) for v in xs], Tensor(bias)
    fused = Tensor.weighted_sum(w1, x1, b1)
    fused.backward()
    w2, x2, b2 = [Tensor(v) for v in ws], [Tensor(v) for v in xs], Tensor(bias)
    long = b2
    for w, x in zip(w2, x2):
        long = long + w * x
    long.backward()
    assert fused.data == pytest.approx(long.data)
    assert [w.grad for w in w1] == pytest.approx([w.grad for w in w2])
    assert [x.grad for x in x1] == pytest.approx([x.grad for x in x2])
    assert b1.grad == b2.grad == 1.0


# ------------------------------------------------------------ PyTorch-like semantics


def test_reused_node_accumulates():
    x = Tensor(3.0)
    (x + x).backward()
    assert x.grad == 2.0
    a = Tensor(1.0)
    b = a + a
    c = b + b
    c.backward()
    assert a.grad == 4.0
    assert b.grad == 2.0


def test_same_parent_twice_in_one_op():
    x = Tensor(3.0)
    out = x * x
    assert out.parents == (x, x)
    out.backward()
    assert x.grad == 6.0


def test_backward_twice_recomputes_interior_and_accumulates_leaves():
    a = Tensor(2.0)
    b = a * 3.0
    c = b * b  # 9a², dc/da = 18a = 36
    c.backward()
    assert (a.grad, b.grad) == (36.0, 12.0)
    c.backward()
    assert b.grad == 12.0  # interior: recomputed from zero
    assert a.grad == 72.0  # leaf: accumulated, like PyTorch


def test_zero_grad_on_graph_and_leaf_root():
    a, b = Tensor(2.0), Tensor(5.0)
    c = a * b
    c.backward()
    c.zero_grad()
    assert (a.grad, b.grad, c.grad) == (0.0, 0.0, 0.0)
    leaf = Tensor(1.0)
    leaf.backward()
    leaf.backward()
    assert leaf.grad == 2.0


def test_no_grad_builds_no_graph_and_restores():
    x = Tensor(2.0)
    with no_grad():
        y = (x * 3).tanh()
        with no_grad():
            pass
        z = x + 1  # still inside: no graph
    assert y.is_leaf and z.is_leaf and y.parents == ()
    assert y.data == pytest.approx(math.tanh(6.0))
    w = x * 3  # outside: a graph again
    assert w.parents[0] is x


def test_no_grad_restores_after_exception():
    with pytest.raises(RuntimeError), no_grad():
        raise RuntimeError("boom")
    assert not (Tensor(1.0) * 2).is_leaf


def test_detach_cuts_the_graph():
    x = Tensor(2.0)
    y = x * 3
    d = y.detach()
    out = d * x
    out.backward()
    assert d.data == 6.0 and d.is_leaf
    assert x.grad == 6.0  # only through the direct edge, not through y


def test_parents_in_order_and_topological_order():
    a, b = Tensor(1.0, "a"), Tensor(2.0, "b")
    h = a - b
    out = h * a
    assert h.parents == (a, b)
    order = topological_order(out)
    assert order.index(a) < order.index(h) < order.index(out)
    assert order.index(b) < order.index(h)
    assert len(order) == len(set(order)) == 4


def test_million_op_chain_has_no_recursion_limit():
    x = Tensor(0.5)
    step = Tensor(1.0)
    y = x
    for _ in range(1_000_000):
        y = y + step
    assert len(topological_order(y)) == 1_000_002
    y.backward()
    assert y.data == pytest.approx(1_000_000.5)
    assert x.grad == 1.0
    assert step.grad == 1_000_000.0


# ------------------------------------------------------------ non-finite numbers


def test_ieee_results_never_raise():
    assert Tensor(0.0).log().data == -math.inf
    assert math.isnan(Tensor(-1.0).log().data)
    assert Tensor(1000.0).exp().data == math.inf
    assert (Tensor(0.0) ** -1).data == math.inf
    assert (Tensor(0.0) ** Tensor(-1.0)).data == math.inf
    assert (Tensor(10.0) ** 1000).data == math.inf
    assert (Tensor(-10.0) ** 1001).data == -math.inf
    assert (2 ** Tensor(10000.0)).data == math.inf
    assert math.isnan((Tensor(-8.0) ** (1 / 3)).data)
    assert (1 / Tensor(0.0)).data == math.inf
    assert (-1 / Tensor(0.0)).data == -math.inf
    assert math.isnan((Tensor(0.0) / Tensor(0.0)).data)
    assert math.isnan(Tensor(-4.0).sqrt().data)
    assert math.isnan(Tensor(math.inf).sin().data)
    assert Tensor(math.inf).tanh().data == 1.0


def test_backward_through_non_finite_values_does_not_raise():
    for build in (
        lambda x: (x - 2.0).log() * x,
        lambda x: (x * 1000).exp() + x,
        lambda x: (x - 2.0) ** -1,
        lambda x: (x * 0.0).sqrt(),
        lambda x: 1 / (x - 2.0),
        lambda x: x ** Tensor(-1.0) * (x - 2.0) ** Tensor(0.5),
    ):
        x = Tensor(2.0)
        out = build(x)
        out.backward()  # must not raise
        assert isinstance(x.grad, float)


def test_sigmoid_is_stable_for_any_input():
    for x in (-1e308, -1000.0, -745.0, -40.0, 0.0, 40.0, 1000.0, 1e308):
        t = Tensor(x)
        s = t.sigmoid()
        s.backward()
        assert 0.0 <= s.data <= 1.0
        assert math.isfinite(t.grad)
    assert stable_sigmoid(-1000.0) == 0.0
    assert stable_sigmoid(1000.0) == 1.0
    assert stable_sigmoid(-30.0) == pytest.approx(1 / (1 + math.exp(30.0)), rel=1e-12)


def test_non_finite_report_names_the_origin_op():
    x = Tensor(-1.0, "x")
    h = x.log()
    h.label = "h"
    out = h * 2.0 + 1.0
    out.backward()
    report = non_finite_nodes(out)
    values = [r for r in report if r.what == "value"]
    assert {r.node for r in values} == {h, out.parents[0], out}
    assert all(r.source is h for r in values)
    assert "log(−1) = nan" in values[0].message and "'h'" in values[0].message
    grads = [r for r in report if r.what == "grad"]
    assert grads, "the constant 2.0 gets grad nan = ∂(h·2)/∂2 · 1 with h = nan"
    assert all(r.source is out.parents[0] for r in grads)


def test_non_finite_report_is_empty_for_finite_graph():
    a = Tensor(1.0)
    out = (a * 2).tanh()
    out.backward()
    assert non_finite_nodes(out) == []


def test_gradient_origin_from_local_derivative():
    x = Tensor(0.0, "x")
    out = x.sqrt()  # value 0 is finite, but ∂√x/∂x at 0 is inf
    out.backward()
    report = non_finite_nodes(out)
    assert [(r.what, r.node, r.source) for r in report] == [("grad", x, out)]


# ------------------------------------------------------------ gradcheck and formulas


def test_gradcheck_reports_analytic_numeric_and_error_per_input():
    results = gradcheck(lambda a, b: a * b + b.exp(), [2.0, 0.5], names=["a", "b"])
    assert [r.name for r in results] == ["a", "b"]
    assert results[0].analytic == pytest.approx(0.5)
    assert results[1].analytic == pytest.approx(2.0 + math.exp(0.5))
    for r in results:
        assert r.numeric == pytest.approx(r.analytic, rel=1e-7)
        assert r.rel_error < 1e-7


def test_gradcheck_flags_a_kink():
    (result,) = gradcheck(lambda x: x.relu(), [0.0])
    assert result.analytic == 0.0
    assert result.numeric == pytest.approx(0.5)
    assert result.rel_error == pytest.approx(0.5)  # far above any tolerance: flagged


def test_derivative_formulas_read_like_the_chain_rule():
    a, b = Tensor(2.0, "a"), Tensor(-3.0, "b")
    h = a * b
    h.label = "h"
    assert derivative_formula(h, 0) == "b"
    assert derivative_formula(h, 1) == "a"
    assert derivative_formula(a + b, 1) == "1"
    assert derivative_formula(h.tanh(), 0) == "(1 − tanh²(h))"
    assert derivative_formula(a**2, 0) == "2·a"
