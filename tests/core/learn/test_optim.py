"""Optimizers against hand computations, torch's documented pseudo-code and recorded torch trajectories;
Newton against exact Hessians; schedules at known points; state round trips, resets and copies (the training
panel's optimizer choice: tests/gui/training/test_optim_gui.py)."""

import copy
import itertools
import json
import math
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from autograd_core import Tensor
from autograd_core.learn.optim import (
    ALL_OPTIMIZERS,
    OPTIMIZER_LABELS,
    OPTIMIZER_SETTINGS,
    OPTIMIZERS,
    SGD,
    Adagrad,
    Adam,
    AdamW,
    FiniteDifferenceHessian,
    Newton,
    RMSprop,
    fma,
    learning_rate,
    make_optimizer,
)
from autograd_core.learn.optim.torch_float import exact_fma, lerp


def _params(values, grads):
    ps = [Tensor(v, kind="parameter") for v in values]
    for p, g in zip(ps, grads):
        p.grad = g
    return ps


# ------------------------------------------------------------- hand-computed steps


def test_sgd_step_by_hand():
    ps = _params([1.0, -2.0], [0.5, -4.0])
    SGD(ps, lr=0.1).step()
    assert [p.data for p in ps] == pytest.approx([1.0 - 0.05, -2.0 + 0.4])


def test_sgd_momentum_two_steps_by_hand():
    (p,) = _params([1.0], [2.0])
    opt = SGD([p], lr=0.1, momentum=0.9)
    opt.step()  # b = g = 2; p = 1 − 0.2 = 0.8
    assert p.data == pytest.approx(0.8)
    p.grad = 1.0
    opt.step()  # b = 0.9·2 + 1 = 2.8; p = 0.8 − 0.28 = 0.52
    assert opt.state["momentum_buffer"] == pytest.approx([2.8])
    assert p.data == pytest.approx(0.52)


def test_sgd_dampening_leaves_the_first_buffer_whole_and_nesterov_looks_ahead():
    (p,) = _params([1.0], [2.0])
    opt = SGD([p], lr=0.1, momentum=0.5, dampening=0.5)
    opt.step()  # torch: b₁ = g (no dampening on the first step) = 2; p = 0.8
    assert opt.state["momentum_buffer"] == [2.0] and p.data == pytest.approx(0.8)
    opt.step()  # b = 0.5·2 + 0.5·2 = 2; p = 0.6
    assert opt.state["momentum_buffer"] == [2.0] and p.data == pytest.approx(0.6)

    (q,) = _params([1.0], [2.0])
    nesterov = SGD([q], lr=0.1, momentum=0.5, nesterov=True)
    nesterov.step()  # b = 2; step along g + μ·b = 3
    assert q.data == pytest.approx(0.7)
    q.grad = 1.0
    nesterov.step()  # b = 0.5·2 + 1 = 2; step along 1 + 0.5·2 = 2
    assert q.data == pytest.approx(0.5)


def test_sgd_weight_decay_adds_lambda_theta_to_the_gradient():
    (p,) = _params([2.0], [1.0])
    SGD([p], lr=0.1, weight_decay=0.5).step()  # g = 1 + 0.5·2 = 2
    assert p.data == pytest.approx(1.8)


def test_rmsprop_two_steps_by_hand():
    (p,) = _params([1.0], [2.0])
    opt = RMSprop([p], lr=0.01, alpha=0.9, eps=0.0)
    opt.step()  # v = 0.1·4 = 0.4; p = 1 − 0.01·2/√0.4
    assert p.data == pytest.approx(1.0 - 0.02 / math.sqrt(0.4), rel=1e-15)
    first = p.data
    p.grad = -1.0
    opt.step()  # v = 0.9·0.4 + 0.1·1 = 0.46
    assert opt.state["square_avg"] == pytest.approx([0.46], rel=1e-15)
    assert p.data == pytest.approx(first + 0.01 / math.sqrt(0.46), rel=1e-15)


def test_rmsprop_centered_with_momentum_by_hand():
    (p,) = _params([1.0], [2.0])
    opt = RMSprop([p], lr=0.01, alpha=0.5, eps=0.0, momentum=0.5, centered=True)
    opt.step()  # v = 2, ḡ = 1, ṽ = v − ḡ² = 1; b = 2/1 = 2; p = 1 − 0.02
    assert (opt.state["square_avg"], opt.state["grad_avg"], opt.state["momentum_buffer"]) == ([2.0], [1.0], [2.0])
    assert p.data == pytest.approx(0.98)
    p.grad = 0.0
    opt.step()  # v = 1, ḡ = 0.5, ṽ = 0.75; b = 0.5·2 + 0 = 1; p = 0.98 − 0.01
    assert opt.state["grad_avg"] == [0.5] and opt.state["momentum_buffer"] == pytest.approx([1.0])
    assert p.data == pytest.approx(0.97)


def test_adagrad_two_steps_by_hand_with_lr_decay():
    (p,) = _params([1.0], [3.0])
    opt = Adagrad([p], lr=0.1, lr_decay=0.5, initial_accumulator_value=16.0, eps=0.0)
    opt.step()  # s = 16 + 9 = 25; lr₁ = 0.1; p = 1 − 0.1·3/5
    assert p.data == pytest.approx(0.94)
    p.grad = 0.0
    opt.step()  # s = 25, g = 0: no move
    assert p.data == pytest.approx(0.94) and opt.state["sum"] == [25.0]
    p.grad = 4.0
    opt.step()  # s = 41; lr₃ = 0.1/(1 + 2·0.5) = 0.05; p = 0.94 − 0.05·4/√41
    assert p.data == pytest.approx(0.94 - 0.2 / math.sqrt(41.0), rel=1e-15)


def test_adam_two_steps_by_hand():
    (p,) = _params([1.0], [2.0])
    opt = Adam([p], lr=0.1)
    opt.step()
    # t=1: m = 0.2, v = 0.004; m̂ = 2, v̂ = 4; step = 0.1·2/(2 + 1e-8)
    assert p.data == pytest.approx(1.0 - 0.1 * 2 / (2 + 1e-8), abs=1e-15)
    first = p.data
    p.grad = -1.0
    opt.step()
    m = 0.9 * 0.2 + 0.1 * -1.0
    v = 0.999 * 0.004 + 0.001 * 1.0
    m_hat, v_hat = m / (1 - 0.9**2), v / (1 - 0.999**2)
    assert p.data == pytest.approx(first - 0.1 * m_hat / (math.sqrt(v_hat) + 1e-8), abs=1e-15)


def test_amsgrad_normalizes_by_the_largest_second_moment():
    (p,) = _params([0.0], [10.0])
    opt = Adam([p], lr=0.1, betas=(0.0, 0.5), eps=0.0, amsgrad=True)
    opt.step()  # v = 50 = vmax
    p.grad = 1.0
    before = p.data
    opt.step()  # v = 25.5 but vmax stays 50: v̂ = 50/(1 − 0.25)
    assert opt.state["exp_avg_sq"] == [25.5] and opt.state["max_exp_avg_sq"] == [50.0]
    assert p.data == pytest.approx(before - 0.1 * 1.0 / math.sqrt(50.0 / 0.75), rel=1e-15)


def test_adamw_decays_the_weight_itself_not_the_gradient():
    (p,) = _params([2.0], [0.0])
    opt = AdamW([p], lr=0.1, weight_decay=0.5)
    opt.step()  # θ·(1 − 0.05) first; a zero gradient then moves nothing
    assert p.data == pytest.approx(1.9)
    assert opt.state["exp_avg"] == [0.0]  # the decay never entered the moments
    (q,) = _params([2.0], [0.0])
    Adam([q], lr=0.1, weight_decay=0.5).step()  # Adam's L2: g = 1, so a full normalized step
    assert q.data == pytest.approx(1.9, abs=1e-6) and Adam([q]).weight_decay == 0.0


def test_learning_rate_can_change_between_steps():
    (p,) = _params([0.0], [1.0])
    opt = SGD([p], lr=1.0)
    opt.step(lr=0.5)
    opt.step(lr=0.25)
    assert p.data == pytest.approx(-0.75)
    assert opt.lr == 0.25
    opt.lr = 2.0
    opt.step()
    assert p.data == pytest.approx(-2.75)


def test_a_closure_re_evaluates_the_gradient_and_its_loss_is_returned():
    x = Tensor(3.0, kind="parameter")
    x.grad = 100.0  # stale: the closure's fresh gradient must replace it
    opt = SGD([x], lr=0.25)
    loss = opt.step(lambda: _backward(x * x))  # f = x², ∇f = 6
    assert loss.data == 9.0 and x.data == pytest.approx(1.5)
    with pytest.raises(TypeError, match=r"step\(lr=...\)"):
        opt.step(0.1)


def _backward(loss):
    loss.backward()
    return loss


# ------------------------------------------------- torch's documented pseudo-code


def _pseudo_code_trajectory(name, hp, grad, start, steps):
    """torch.optim's documented algorithms, written from the docs with plain arithmetic."""
    theta = list(start)
    n = len(theta)
    b, v, gave, s = [None] * n, [0.0] * n, [0.0] * n, [hp.get("initial_accumulator_value", 0.0)] * n
    m, vmax = [0.0] * n, [0.0] * n
    lr, wd = hp["lr"], hp.get("weight_decay", 0.01 if name == "AdamW" else 0.0)
    path = []
    for t in range(1, steps + 1):
        gs = grad(*theta)
        for i in range(n):
            g = gs[i]
            if name == "AdamW":
                theta[i] -= lr * wd * theta[i]
            elif wd:
                g += wd * theta[i]
            if name == "SGD":
                mu, tau = hp.get("momentum", 0.0), hp.get("dampening", 0.0)
                if mu:
                    b[i] = g if t == 1 else mu * b[i] + (1 - tau) * g
                    g = g + mu * b[i] if hp.get("nesterov") else b[i]
                theta[i] -= lr * g
            elif name == "RMSprop":
                alpha, eps, mu = hp.get("alpha", 0.99), hp.get("eps", 1e-8), hp.get("momentum", 0.0)
                v[i] = alpha * v[i] + (1 - alpha) * g * g
                vt = v[i]
                if hp.get("centered"):
                    gave[i] = gave[i] * alpha + (1 - alpha) * g
                    vt = vt - gave[i] ** 2
                if mu > 0:
                    b[i] = mu * (b[i] or 0.0) + g / (math.sqrt(vt) + eps)
                    theta[i] -= lr * b[i]
                else:
                    theta[i] -= lr * g / (math.sqrt(vt) + eps)
            elif name == "Adagrad":
                clr = lr / (1 + (t - 1) * hp.get("lr_decay", 0.0))
                s[i] += g * g
                theta[i] -= clr * g / (math.sqrt(s[i]) + hp.get("eps", 1e-10))
            else:  # Adam, AdamW
                b1, b2 = hp.get("betas", (0.9, 0.999))
                m[i] = b1 * m[i] + (1 - b1) * g
                v[i] = b2 * v[i] + (1 - b2) * g * g
                m_hat = m[i] / (1 - b1**t)
                if hp.get("amsgrad"):
                    vmax[i] = max(vmax[i], v[i])
                    v_hat = vmax[i] / (1 - b2**t)
                else:
                    v_hat = v[i] / (1 - b2**t)
                theta[i] -= lr * m_hat / (math.sqrt(v_hat) + hp.get("eps", 1e-8))
        path.append(tuple(theta))
    return path


def _bowl_grad(x, y):
    """∇ of a tilted convex bowl f = (x − 1)² + 5(y + 2)² + x·y (well conditioned: rounding does not grow)."""
    return 2 * (x - 1) + y, 10 * (y + 2) + x


PSEUDO_CODE_CASES = [
    (SGD, {"lr": 0.05}),
    (SGD, {"lr": 0.02, "momentum": 0.9, "dampening": 0.3, "weight_decay": 0.1}),
    (SGD, {"lr": 0.02, "momentum": 0.8, "nesterov": True}),
    (RMSprop, {"lr": 0.01}),
    (RMSprop, {"lr": 0.01, "alpha": 0.9, "momentum": 0.5, "weight_decay": 0.1}),
    (RMSprop, {"lr": 0.01, "centered": True}),
    (RMSprop, {"lr": 0.01, "alpha": 0.9, "momentum": 0.5, "centered": True}),
    (Adagrad, {"lr": 0.5}),
    (Adagrad, {"lr": 0.5, "lr_decay": 0.05, "initial_accumulator_value": 0.3, "weight_decay": 0.1}),
    (Adam, {"lr": 0.05}),
    (Adam, {"lr": 0.05, "betas": (0.3, 0.9), "weight_decay": 0.1, "amsgrad": True}),
    (AdamW, {"lr": 0.05}),
    (AdamW, {"lr": 0.05, "weight_decay": 0.3, "amsgrad": True}),
]


@pytest.mark.parametrize(("cls", "hp"), PSEUDO_CODE_CASES, ids=lambda v: getattr(v, "__name__", None) or str(v))
def test_two_hundred_steps_follow_the_documented_pseudo_code(cls, hp):
    start = (-1.5, 2.0)
    expected = _pseudo_code_trajectory(cls.__name__, hp, _bowl_grad, start, 200)
    x, y = Tensor(start[0]), Tensor(start[1])
    opt = cls([x, y], **hp)
    for k in range(200):
        opt.zero_grad()
        x.grad, y.grad = _bowl_grad(x.data, y.data)
        opt.step()
        assert (x.data, y.data) == pytest.approx(expected[k], rel=1e-12, abs=1e-12), k
    assert opt.t == 200


def _rosenbrock_grad(x, y):
    return -2 * (1 - x) - 400 * x * (y - x * x), 200 * (y - x * x)


# 500 steps of torch 2.13.0 (CPU, float64) from (−1.5, 2) on Rosenbrock with these gradients: the end points,
# printed with repr by torch itself.  Our steps do torch's floating-point operations in its order, fused
# multiply-adds included, and land on the very same bits (torch's float64 sqrt is off by one ulp now and
# then, which these runs absorb; plain a·b + c instead of the fused multiply-adds misses 3 of the 11).
TORCH_ROSENBROCK = [
    (SGD, {"lr": 0.0002}, (-1.3664187311266047, 1.874736437885664)),
    (SGD, {"lr": 0.0001, "momentum": 0.9, "dampening": 0.1, "weight_decay": 0.01},
     (-1.1477705876875037, 1.3252446389065273)),
    (SGD, {"lr": 0.0001, "momentum": 0.9, "nesterov": True}, (-1.1201467750908394, 1.2626125520869171)),
    (RMSprop, {"lr": 0.01}, (0.010020955620266649, 2.1503285665194584e-05)),
    (RMSprop, {"lr": 0.001, "alpha": 0.9, "momentum": 0.5, "centered": True, "weight_decay": 0.01},
     (0.8705710051168025, 0.7577210112809473)),
    (Adagrad, {"lr": 0.5}, (-0.9753632039991125, 0.9579159334809169)),
    (Adagrad, {"lr": 0.1, "lr_decay": 0.01, "initial_accumulator_value": 0.1, "weight_decay": 0.01},
     (-1.296301948326276, 1.6866864302064617)),
    (Adam, {"lr": 0.05}, (0.6652439080154956, 0.4415636096775461)),
    (Adam, {"lr": 0.01, "betas": (0.8, 0.99), "amsgrad": True, "weight_decay": 0.01},
     (-1.1798928989750161, 1.3980819526726387)),
    (Adam, {"lr": 0.01, "betas": (0.3, 0.999)}, (-0.9802996468514823, 0.9666794097635858)),
    (AdamW, {"lr": 0.05}, (0.6720968784736976, 0.45080443571253914)),
]  # fmt: skip


@pytest.mark.parametrize(("cls", "hp", "end"), TORCH_ROSENBROCK, ids=lambda v: getattr(v, "__name__", None))
def test_five_hundred_rosenbrock_steps_land_on_torchs_bits(cls, hp, end):
    x, y = Tensor(-1.5), Tensor(2.0)
    opt = cls([x, y], **hp)
    for _ in range(500):
        x.grad, y.grad = _rosenbrock_grad(x.data, y.data)
        opt.step()
    assert (x.data, y.data) == end


def test_fused_multiply_add_rounds_once():
    assert 0.1 * 10.0 - 1.0 == 0.0
    assert fma(0.1, 10.0, -1.0) == 5.551115123125783e-17 == float(Fraction(0.1) * 10 - 1)
    assert math.isnan(fma(math.inf, 0.0, 1.0)) and fma(1e308, 10.0, 0.0) == math.inf
    # torch.lerp changes formula at weight 0.5; both ends exact at weights 0 and 1
    assert lerp(2.0, 6.0, 0.25) == 3.0 and lerp(2.0, 6.0, 0.75) == 5.0
    assert lerp(2.0, 6.0, 0.0) == 2.0 and lerp(2.0, 6.0, 1.0) == 6.0


@settings(max_examples=300, deadline=None)
@given(st.floats(-1e6, 1e6), st.floats(-1e6, 1e6), st.floats(-1e12, 1e12))
def test_the_loaded_fma_agrees_with_exact_rational_arithmetic(a, b, c):
    assert fma(a, b, c) == exact_fma(a, b, c)


# --------------------------------------------------------------------- Newton


def _quadratic(x, y):
    """f = 2x² + xy + y² − 3x + y: Hessian [[4, 1], [1, 2]], minimum at (1, −1)."""
    return 2 * x * x + x * y + y * y - 3 * x + y


def test_newton_lands_on_a_quadratics_minimum_in_one_step():
    x, y = Tensor(5.0), Tensor(-7.0)
    opt = Newton([x, y], damping=0.0)
    loss = opt.step(lambda: _backward(_quadratic(x, y)))
    assert loss.data == _quadratic(5.0, -7.0)
    assert (x.data, y.data) == pytest.approx((1.0, -1.0), abs=1e-9)
    assert opt.last_hessian.ravel().tolist() == pytest.approx([4.0, 1.0, 1.0, 2.0], rel=1e-9)
    assert (x.grad, y.grad) == (20.0 - 7.0 - 3.0, 5.0 - 14.0 + 1.0)  # the gradient at the point it left
    assert opt.t == 1


def test_newton_damping_and_learning_rate_shorten_the_step():
    # f = x²: H = 2, g = 2x.  One step: x ← x − lr·2x/(2 + λ)
    x = Tensor(1.0)
    opt = Newton([x], lr=0.5, damping=2.0)
    opt.step(lambda: _backward(x * x))
    assert x.data == pytest.approx(1.0 - 0.5 * 2.0 / 4.0, rel=1e-9)


def test_finite_difference_hessian_matches_rosenbrocks_exact_hessian():
    x, y = Tensor(-1.2), Tensor(1.7)

    def closure():
        return _backward((1 - x) ** 2 + 100 * (y - x * x) ** 2)

    h = FiniteDifferenceHessian()([x, y], closure)
    exact = [2 - 400 * (1.7 - 3 * 1.44), 480.0, 480.0, 200.0]  # f_xx = 2 − 400(y − 3x²), f_xy = −400x, f_yy = 200
    assert h.ravel().tolist() == pytest.approx(exact, rel=1e-8)
    assert (x.data, y.data) == (-1.2, 1.7)  # left where they were


def test_newton_takes_any_hessian_source_and_says_which():
    calls = []

    def exact_hessian(params, closure):
        calls.append(len(params))
        return [[4.0, 1.0], [1.0, 2.0]]

    exact_hessian.description = "exact second derivatives"
    x, y = Tensor(0.0), Tensor(0.0)
    opt = Newton([x, y], damping=0.0, hessian=exact_hessian)
    opt.step(lambda: _backward(_quadratic(x, y)))
    assert calls == [2] and (x.data, y.data) == pytest.approx((1.0, -1.0), abs=1e-15)
    assert opt.hessian_source == "exact second derivatives" and "exact second derivatives" in opt.description
    assert "finite differences of the gradient" in Newton([x]).description


def test_newton_refuses_without_a_closure_and_at_a_singular_point_without_moving():
    x, y = Tensor(0.5), Tensor(1.0)
    opt = Newton([x, y], damping=0.0)
    with pytest.raises(TypeError, match="closure"):
        opt.step()
    with pytest.raises(ValueError, match="singular"):
        opt.step(lambda: _backward(3 * x + y * y))  # H = [[0, 0], [0, 2]]
    assert (x.data, y.data) == (0.5, 1.0) and opt.t == 0
    opt.damping = 1.0  # damped, the same point is fine: x moves by lr·3/(0 + 1)
    opt.step(lambda: _backward(3 * x + y * y))
    assert (x.data, y.data) == pytest.approx((-2.5, 1.0 - 2.0 / 3.0))
    far = Tensor(800.0)
    with pytest.raises(ValueError, match="not finite"):
        Newton([far]).step(lambda: _backward((far * far).exp()))
    assert far.data == 800.0


def test_newton_heads_for_a_saddle_as_pure_newton_does():
    x, y = Tensor(0.5), Tensor(0.3)
    Newton([x, y], damping=0.0).step(lambda: _backward(x * x - y * y))
    assert (x.data, y.data) == pytest.approx((0.0, 0.0), abs=1e-9)


# -------------------------------------------------------- settings and names


def test_schedules():
    assert learning_rate("constant", 0.3, 77, 100) == 0.3
    # micrograd's demo: lr = 1.0 − 0.9·k/100
    assert [learning_rate("linear", 1.0, k, 100) for k in (0, 50, 99)] == pytest.approx([1.0, 0.55, 0.109])
    assert learning_rate("linear", 1.0, 500, 100) == pytest.approx(0.1)  # stays at its end value
    assert learning_rate("cosine", 1.0, 0, 100) == pytest.approx(1.0)
    assert learning_rate("cosine", 1.0, 50, 100) == pytest.approx(0.55)
    assert learning_rate("cosine", 1.0, 100, 100) == pytest.approx(0.1)
    cos = [learning_rate("cosine", 1.0, k, 100) for k in range(101)]
    assert all(a >= b for a, b in itertools.pairwise(cos))
    with pytest.raises(ValueError, match="unknown schedule"):
        learning_rate("step", 1.0, 0, 10)


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda ps: SGD(ps, lr=-0.1), "lr must be at least 0"),
        (lambda ps: SGD(ps, lr=math.nan), "lr must be a finite number"),
        (lambda ps: SGD(ps, lr=True), "lr must be a finite number"),
        (lambda ps: SGD(ps, momentum=-0.5), "momentum must be at least 0"),
        (lambda ps: SGD(ps, nesterov=True), "Nesterov momentum needs a momentum"),
        (lambda ps: SGD(ps, momentum=0.9, dampening=0.1, nesterov=True), "zero dampening"),
        (lambda ps: RMSprop(ps, alpha=-0.1), "alpha must be at least 0"),
        (lambda ps: RMSprop(ps, centered="yes"), "centered must be true or false"),
        (lambda ps: Adagrad(ps, initial_accumulator_value=-1.0), "initial_accumulator_value"),
        (lambda ps: Adam(ps, betas=(0.9, 1.0)), r"betas\[1\] must be at least 0 and below 1"),
        (lambda ps: Adam(ps, betas=(0.9,)), "betas must be a pair"),
        (lambda ps: AdamW(ps, eps=-1e-8), "eps must be at least 0"),
        (lambda ps: Newton(ps, damping=-1.0), "damping must be at least 0"),
        (lambda ps: FiniteDifferenceHessian(0.0), "above 0"),
    ],
)
def test_bad_settings_are_refused_with_their_name(make, message):
    with pytest.raises(ValueError, match=message):
        make(_params([1.0], [0.0]))


def test_every_name_builds_its_optimizer_with_the_trainers_settings():
    assert set(OPTIMIZERS) < set(ALL_OPTIMIZERS) == set(OPTIMIZER_LABELS) == set(OPTIMIZER_SETTINGS)
    assert "newton" not in OPTIMIZERS  # needs a Hessian: the lab's, not the trainer's
    ps = _params([1.0], [0.0])
    kinds = {name: make_optimizer(name, ps, 0.1, momentum=0.7, betas=(0.8, 0.9), alpha=0.5, weight_decay=0.2)
             for name in ALL_OPTIMIZERS}  # fmt: skip
    assert kinds["sgd"].hyperparameters() == {"momentum": 0.0, "dampening": 0.0, "nesterov": False, "weight_decay": 0.0}
    assert kinds["momentum"].momentum == 0.7 and not kinds["momentum"].nesterov
    assert kinds["nesterov"].momentum == 0.7 and kinds["nesterov"].nesterov
    assert kinds["rmsprop"].alpha == 0.5 and kinds["rmsprop"].momentum == 0.0
    assert kinds["adam"].betas == (0.8, 0.9) and kinds["adam"].weight_decay == 0.0
    assert (kinds["adamw"].betas, kinds["adamw"].weight_decay) == ((0.8, 0.9), 0.2)
    assert isinstance(kinds["adagrad"], Adagrad) and isinstance(kinds["newton"], Newton)
    for name, opt in kinds.items():
        assert set(OPTIMIZER_SETTINGS[name]) <= {"momentum", "betas", "alpha", "weight_decay"}
        assert opt.lr == 0.1 and opt.formula and opt.description.startswith(f"{type(opt).__name__}(lr=0.1")
    with pytest.raises(ValueError, match="unknown optimizer"):
        make_optimizer("lbfgs", [], 0.1)


def test_torch_defaults():
    ps = _params([1.0], [0.0])
    assert (SGD(ps).lr, RMSprop(ps).lr, Adagrad(ps).lr, Adam(ps).lr, AdamW(ps).lr) == (1e-3, 1e-2, 1e-2, 1e-3, 1e-3)
    assert RMSprop(ps).hyperparameters() == {
        "alpha": 0.99, "eps": 1e-8, "weight_decay": 0.0, "momentum": 0.0, "centered": False
    }  # fmt: skip
    assert Adagrad(ps).hyperparameters() == {
        "lr_decay": 0.0, "weight_decay": 0.0, "initial_accumulator_value": 0.0, "eps": 1e-10
    }  # fmt: skip
    assert Adam(ps).hyperparameters() == {"betas": (0.9, 0.999), "eps": 1e-8, "weight_decay": 0.0, "amsgrad": False}
    assert AdamW(ps).weight_decay == 0.01


def test_zero_eps_and_a_zero_gradient_give_nan_as_torch_not_an_exception():
    (p,) = _params([1.0], [0.0])
    Adam([p], lr=0.1, eps=0.0).step()
    assert math.isnan(p.data)
    (q,) = _params([1.0], [math.inf])
    RMSprop([q], lr=0.1).step()
    assert math.isnan(q.data)


# ------------------------------------------------------ state: read, reset, copy, save


@pytest.mark.parametrize("name", OPTIMIZERS)
def test_state_round_trip_continues_identically(name):
    a = _params([1.0, 2.0], [0.3, -0.6])
    b = _params([1.0, 2.0], [0.3, -0.6])
    opt_a = make_optimizer(name, a, 0.1)
    opt_a.step()
    opt_b = make_optimizer(name, b, 0.1)
    opt_b.step()
    opt_c = make_optimizer(name, b, 0.1)
    saved = json.loads(json.dumps(opt_b.state_dict()))  # through JSON, as a session file
    opt_c.load_state_dict(saved)  # a fresh optimizer picks up where b was
    opt_a.step()
    opt_c.step()
    assert [p.data for p in a] == [p.data for p in b]
    assert opt_a.state == opt_c.state and opt_a.t == opt_c.t == 2


def test_state_names_are_torchs():
    ps = _params([1.0], [0.5])
    expected = {
        "momentum": {"momentum_buffer"},
        "rmsprop": {"square_avg"},
        "adagrad": {"sum"},
        "adam": {"exp_avg", "exp_avg_sq"},
        "adamw": {"exp_avg", "exp_avg_sq"},
    }
    for name, keys in expected.items():
        opt = make_optimizer(name, ps, 0.01)
        opt.step()
        assert set(opt.state) == keys, name
    assert set(RMSprop(ps, momentum=0.5, centered=True).state) == {"square_avg", "momentum_buffer", "grad_avg"}
    assert set(Adam(ps, amsgrad=True).state) == {"exp_avg", "exp_avg_sq", "max_exp_avg_sq"}


@pytest.mark.parametrize("name", ALL_OPTIMIZERS)
def test_reset_starts_again_and_a_deep_copy_runs_on_its_own(name):
    x, y = Tensor(-1.0), Tensor(1.5)

    def closure():
        return _backward(_quadratic(x, y))

    opt = make_optimizer(name, [x, y], 0.05)
    for _ in range(3):
        opt.step(closure)
    twin = copy.deepcopy(opt)  # its own parameters and state
    tx, ty = twin.params
    assert (tx.data, ty.data) == (x.data, y.data) and tx is not x and twin.state == opt.state

    def twin_closure():
        return _backward(_quadratic(tx, ty))

    opt.step(closure)
    twin.step(twin_closure)
    assert (tx.data, ty.data) == (x.data, y.data)  # the same step from the same state
    opt.step(closure)
    assert (tx.data, ty.data) != (x.data, y.data) and twin.t == 4 and opt.t == 5

    opt.reset()
    fresh = make_optimizer(name, [Tensor(x.data), Tensor(y.data)], 0.05)
    assert opt.t == 0 and opt.state == fresh.state
    opt.step(closure)
    fx, fy = fresh.params
    fresh.step(lambda: _backward(_quadratic(fx, fy)))
    assert (x.data, y.data) == (fx.data, fy.data)


def test_changing_settings_keeps_the_state_and_refuses_bad_values_whole():
    (p,) = _params([1.0], [1.0])
    opt = Adam([p], lr=0.1)
    opt.step()
    state = copy.deepcopy(opt.state)
    opt.set_hyperparameters(betas=(0.5, 0.9), lr=0.2)
    assert opt.betas == (0.5, 0.9) and opt.lr == 0.2 and opt.state == state
    with pytest.raises(ValueError, match="eps must be at least 0"):
        opt.set_hyperparameters(betas=(0.1, 0.1), eps=-1.0)
    assert opt.betas == (0.5, 0.9) and opt.eps == 1e-8  # nothing changed
    with pytest.raises(ValueError, match="adam has no setting momentum"):
        opt.set_hyperparameters(momentum=0.9)
    opt.set_hyperparameters(amsgrad=True)  # a new buffer starts at zero
    assert opt.state["max_exp_avg_sq"] == [0.0]
    opt.step()


def test_states_saved_by_earlier_versions_still_load():
    (p,) = _params([1.0], [0.0])
    adam = Adam([p])
    adam.load_state_dict({"name": "adam", "t": 3, "buffers": {"m": [0.25], "v": [0.5]}})
    assert adam.t == 3 and adam.state == {"exp_avg": [0.25], "exp_avg_sq": [0.5]}
    momentum = SGD([p], momentum=0.9)
    momentum.load_state_dict({"name": "sgd", "t": 2, "buffers": {"velocity": [1.5]}})
    assert momentum.state == {"momentum_buffer": [1.5]}
    momentum.load_state_dict({"name": "sgd", "t": 0, "buffers": {"velocity": [0.0]}})
    assert momentum.state == {}  # torch's first step makes the buffer: b₁ = g
    plain = SGD([p])
    plain.load_state_dict({"name": "sgd", "t": 4, "buffers": {"velocity": [0.0]}})
    assert plain.state == {} and plain.t == 4


def test_bad_state_and_names_are_refused():
    opt = Adam(_params([1.0], [0.0]), lr=0.1)
    with pytest.raises(ValueError, match="not for adam"):
        opt.load_state_dict(SGD(opt.params).state_dict())
    with pytest.raises(ValueError, match="must hold 1 numbers"):
        opt.load_state_dict({"name": "adam", "t": 1, "buffers": {"m": [0.0, 0.0], "v": [0.0]}})
    with pytest.raises(ValueError, match="finite"):
        opt.load_state_dict({"name": "adam", "t": 1, "buffers": {"m": [math.nan], "v": [0.0]}})
    with pytest.raises(ValueError, match="buffers must be"):
        opt.load_state_dict({"name": "adam", "t": 1, "buffers": {"exp_avg": [0.0]}})
    with pytest.raises(ValueError, match="cannot be negative"):
        opt.load_state_dict({"name": "adam", "t": 1, "buffers": {"exp_avg": [0.0], "exp_avg_sq": [-1e-3]}})
    with pytest.raises(ValueError, match="'t' must be a whole number"):
        opt.load_state_dict({"name": "adam", "t": -1, "buffers": {}})
    assert opt.t == 0 and opt.state == {"exp_avg": [0.0], "exp_avg_sq": [0.0]}
    with pytest.raises(TypeError, match="must be Tensors"):
        SGD([1.0])


# ------------------------------------------------------------ in the trainer


KINDS = {"sgd": SGD, "momentum": SGD, "nesterov": SGD, "rmsprop": RMSprop, "adagrad": Adagrad, "adam": Adam,
         "adamw": AdamW}  # fmt: skip


def test_the_trainer_trains_with_every_optimizer_it_offers():
    from autograd_core.learn.training import Trainer, TrainingConfig

    rates = {"sgd": 0.5, "momentum": 0.1, "nesterov": 0.1, "rmsprop": 0.01, "adagrad": 0.1, "adam": 0.05,
             "adamw": 0.05}  # fmt: skip
    assert set(rates) == set(OPTIMIZERS)
    for name, lr in rates.items():
        trainer = Trainer(TrainingConfig(optimizer=name, lr=lr, layers=[8], samples=60, batch_size=0, steps=40))
        start = trainer.evaluate().train_loss
        trainer.run()
        assert trainer.stopped_reason is None, name
        assert trainer.history[-1].train_loss < 0.7 * start, name
        assert type(trainer.optimizer) is KINDS[name]


def test_trainer_settings_reach_the_optimizer_and_keep_its_state():
    from autograd_core.learn.training import Trainer, TrainingConfig

    trainer = Trainer(TrainingConfig(optimizer="adamw", layers=[3], samples=20, steps=10, betas=[0.8, 0.99]))
    assert (trainer.optimizer.betas, trainer.optimizer.weight_decay) == ((0.8, 0.99), 0.01)
    trainer.run(steps=2)
    state = copy.deepcopy(trainer.optimizer.state)
    trainer.update_settings(betas=[0.5, 0.9], weight_decay=0.2, alpha=0.5)  # alpha is rmsprop's: no effect here
    assert (trainer.optimizer.betas, trainer.optimizer.weight_decay, trainer.optimizer.t) == ((0.5, 0.9), 0.2, 2)
    assert trainer.optimizer.state == state
    trainer.update_settings(optimizer="rmsprop")  # another optimizer starts afresh with the config's alpha
    assert isinstance(trainer.optimizer, RMSprop) and trainer.optimizer.alpha == 0.5 and trainer.optimizer.t == 0
    trainer.update_settings(optimizer="nesterov", momentum=0.5)
    assert trainer.optimizer.nesterov and trainer.optimizer.momentum == 0.5
    with pytest.raises(ValueError, match="needs a momentum above 0"):
        trainer.update_settings(momentum=0.0)
    assert trainer.optimizer.momentum == 0.5 and trainer.config.momentum == 0.5
    trainer.step()


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"betas": [0.9]}, r"betas must be two numbers"),
        ({"betas": [0.9, 1.0]}, "every beta must be a number from 0"),
        ({"alpha": -0.1}, "alpha must be a number from 0"),
        ({"weight_decay": math.nan}, "weight_decay must be a number"),
        ({"optimizer": "nesterov", "momentum": 0.0}, "nesterov optimizer needs a momentum"),
    ],
)
def test_bad_optimizer_settings_in_a_config_are_named(fields, message):
    from autograd_core.learn.training import TrainingConfig

    with pytest.raises(ValueError, match=message):
        TrainingConfig.from_dict(fields)


@pytest.mark.parametrize("name", ["momentum", "adam", "sgd"])
def test_sessions_saved_before_the_torch_names_load_and_go_on_as_if_never_stopped(name):
    """tests/data/session_v1_*.json were saved by the previous version (buffers 'velocity', 'm', 'v') after 3 of
    10 steps; loaded here and run 3 steps on, they agree with an uninterrupted 6-step run of this version."""
    from pathlib import Path

    from autograd_core.learn.training import Trainer
    from autograd_core.session import load_session, trainer_from_session

    data = load_session(Path(__file__).resolve().parents[2] / "data" / f"session_v1_{name}.json")
    assert data.config.optimizer == name and data.step == 3
    resumed = trainer_from_session(data)
    assert resumed.optimizer.t == 3
    resumed.run(steps=3)
    straight = Trainer(data.config)
    straight.run(steps=6)
    assert resumed.model.state_dict() == pytest.approx(straight.model.state_dict(), rel=1e-9, abs=1e-12)
    assert resumed.optimizer.state.keys() == straight.optimizer.state.keys()
