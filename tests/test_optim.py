"""Optimisers against hand computations, schedules at known points, state round trips."""

import itertools
import math

import pytest

from autograd_core import Tensor
from autograd_core.optim import SGD, Adam, learning_rate, make_optimizer


def _params(values, grads):
    ps = [Tensor(v, kind="parameter") for v in values]
    for p, g in zip(ps, grads):
        p.grad = g
    return ps


def test_sgd_step_by_hand():
    ps = _params([1.0, -2.0], [0.5, -4.0])
    SGD(ps, lr=0.1).step()
    assert [p.data for p in ps] == pytest.approx([1.0 - 0.05, -2.0 + 0.4])


def test_sgd_momentum_two_steps_by_hand():
    (p,) = _params([1.0], [2.0])
    opt = SGD([p], lr=0.1, momentum=0.9)
    opt.step()  # v = 2; p = 1 − 0.2 = 0.8
    assert p.data == pytest.approx(0.8)
    p.grad = 1.0
    opt.step()  # v = 0.9·2 + 1 = 2.8; p = 0.8 − 0.28 = 0.52
    assert opt.velocity == pytest.approx([2.8])
    assert p.data == pytest.approx(0.52)


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


@pytest.mark.parametrize("name", ["sgd", "momentum", "adam"])
def test_state_round_trip_continues_identically(name):
    a = _params([1.0, 2.0], [0.3, -0.6])
    b = _params([1.0, 2.0], [0.3, -0.6])
    opt_a = make_optimizer(name, a, 0.1)
    opt_a.step()
    opt_b = make_optimizer(name, b, 0.1)
    opt_b.step()
    opt_c = make_optimizer(name, b, 0.1)
    opt_c.load_state_dict(opt_b.state_dict())  # a fresh optimiser picks up where b was
    opt_a.step()
    opt_c.step()
    assert [p.data for p in a] == [p.data for p in b]


def test_bad_state_and_names_are_refused():
    opt = Adam(_params([1.0], [0.0]), lr=0.1)
    with pytest.raises(ValueError, match="not for adam"):
        opt.load_state_dict(SGD(opt.params).state_dict())
    with pytest.raises(ValueError, match="must hold 1 numbers"):
        opt.load_state_dict({"name": "adam", "t": 1, "buffers": {"m": [0.0, 0.0], "v": [0.0]}})
    with pytest.raises(ValueError, match="finite"):
        opt.load_state_dict({"name": "adam", "t": 1, "buffers": {"m": [math.nan], "v": [0.0]}})
    with pytest.raises(ValueError, match="unknown optimizer"):
        make_optimizer("rmsprop", [], 0.1)
