"""Losses: hand-computed values, gradients against finite differences, stability, numpy twins."""

import math

import numpy as np
import pytest

from autograd_core import Tensor, gradcheck, topological_order
from autograd_core.learn.losses import (
    LOSSES,
    accuracy,
    bce_with_logits,
    data_loss,
    hinge,
    l1_penalty,
    l2_penalty,
    loss_array,
    mse,
    penalty_array,
    predict,
    probability,
    regularization,
)

LABELS = [1, 0, 1, 0]
SCORES = [0.7, -1.3, -0.4, 2.2]


def _sigmoid(z):
    return 1 / (1 + math.exp(-z))


def test_bce_equals_the_textbook_formula():
    expected = -sum(
        y * math.log(_sigmoid(z)) + (1 - y) * math.log(1 - _sigmoid(z)) for z, y in zip(SCORES, LABELS)
    ) / len(SCORES)
    assert bce_with_logits([Tensor(z) for z in SCORES], LABELS).data == pytest.approx(expected, rel=1e-12)


def test_hinge_and_mse_by_hand():
    # relu(1 - t z) with t = +1, -1, +1, -1: 0.3, 0 (1 - 1.3 < 0), 1.4, 3.2
    assert hinge([Tensor(z) for z in SCORES], LABELS).data == pytest.approx((0.3 + 0.0 + 1.4 + 3.2) / 4)
    # (z - t)²: 0.09, 0.09, 1.96, 10.24
    assert mse([Tensor(z) for z in SCORES], LABELS).data == pytest.approx((0.09 + 0.09 + 1.96 + 10.24) / 4)


@pytest.mark.parametrize("name", LOSSES)
def test_loss_gradients_match_finite_differences(name):
    # Scores away from the hinge's kink at t·z = 1, where the derivative jumps.
    results = gradcheck(lambda *z: data_loss(name, list(z), LABELS), SCORES)
    for r in results:
        assert r.rel_error < 1e-6, r


@pytest.mark.parametrize("penalty", [l1_penalty, l2_penalty])
def test_penalty_gradients_match_finite_differences(penalty):
    values = [0.5, -1.5, 2.0]
    for r in gradcheck(lambda *p: penalty(list(p), 0.3), values):
        assert r.rel_error < 1e-6, r


def test_penalties_by_hand():
    ps = [Tensor(0.5), Tensor(-1.5), Tensor(2.0)]
    assert l1_penalty(ps, 0.1).data == pytest.approx(0.4)
    assert l2_penalty(ps, 0.1).data == pytest.approx(0.1 * 6.5)
    both = regularization(ps, l1=0.1, l2=0.1)
    assert both.data == pytest.approx(0.4 + 0.65)
    assert regularization(ps) is None
    assert penalty_array([0.5, -1.5, 2.0], 0.1, 0.1) == pytest.approx(1.05)


def test_bce_is_stable_for_confident_answers():
    z_wrong, z_right = Tensor(-1000.0), Tensor(1000.0)
    loss = bce_with_logits([z_wrong, z_right], [1, 1])
    loss.backward()
    assert loss.data == pytest.approx(500.0)  # (1000 + 0) / 2, not inf
    assert z_wrong.grad == pytest.approx(-0.5)  # (σ(z) − y) / n
    assert z_right.grad == pytest.approx(0.0, abs=1e-300)
    assert "log" not in {n.op for n in topological_order(loss)}
    assert loss_array("bce", np.array([-1000.0, 1000.0]), np.array([1, 1])) == pytest.approx(500.0)


@pytest.mark.parametrize("name", LOSSES)
def test_numpy_losses_equal_tensor_losses(name):
    rng = np.random.default_rng(1)
    z, y = rng.normal(size=30) * 3, rng.integers(0, 2, size=30)
    tensor = data_loss(name, [Tensor(v) for v in z], y.tolist()).data
    assert loss_array(name, z, y) == pytest.approx(tensor, rel=1e-12)


def test_accuracy_predict_and_probability():
    assert predict(np.array([-0.1, 0.0, 0.1])).tolist() == [0, 0, 1]  # score 0 is class 0, as micrograd
    assert accuracy(np.array([2.0, -1.0, 0.5, -3.0]), np.array([1, 0, 0, 0])) == 0.75
    np.testing.assert_allclose(probability(np.array([0.0, 2.0, -800.0])), [0.5, _sigmoid(2.0), 0.0], atol=1e-15)


def test_bad_inputs_raise_clear_errors():
    with pytest.raises(ValueError, match="unknown loss 'l3'"):
        data_loss("l3", [Tensor(1.0)], [1])
    with pytest.raises(ValueError, match="2 scores but 1 labels"):
        hinge([Tensor(1.0), Tensor(2.0)], [1])
    with pytest.raises(ValueError, match="at least one sample"):
        mse([], [])
    with pytest.raises(ValueError):
        loss_array("bce", np.array([1.0]), np.array([1, 0]))
    with pytest.raises(ValueError):
        accuracy(np.array([]), np.array([]))
