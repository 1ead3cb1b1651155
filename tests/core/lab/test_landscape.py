"""The network's loss landscape: filter normalization, the grid against the model's own forward, the path (the
training process and the workspace's tab answering ComputeLandscape: tests/gui/lab/test_landscape_gui.py)."""

from __future__ import annotations

import numpy as np
import pytest

from autograd_core.lab.landscape import (
    WeightHistory,
    filter_normalize,
    flatten_weights,
    loss_landscape,
    pca_directions,
    project_path,
    random_direction,
    unflatten_weights,
)
from autograd_core.learn.losses import loss_array
from autograd_core.learn.training import Trainer, TrainingConfig

SMALL = {"samples": 60, "layers": [6, 5], "batch_size": 16}


@pytest.fixture(scope="module")
def trained():
    trainer = Trainer(TrainingConfig(**SMALL))
    history = WeightHistory()
    history.record(0, trainer.model.state_dict())
    for _ in range(25):
        trainer.step()
        history.record(trainer.step_count, trainer.model.state_dict())
    return trainer, history


def test_weights_flatten_in_parameter_order_and_back(trained):
    trainer, _ = trained
    weights = trainer.model.weight_arrays()
    vector = flatten_weights(weights)
    assert vector.tolist() == trainer.model.state_dict()
    for (W, b), (W2, b2) in zip(weights, unflatten_weights(vector, weights)):
        assert np.array_equal(W, W2) and np.array_equal(b, b2)
    with pytest.raises(ValueError):
        unflatten_weights(vector[:-1], weights)


def test_filter_normalization_gives_each_neuron_its_weights_norm_and_leaves_biases_alone(trained):
    trainer, _ = trained
    weights = trainer.model.weight_arrays()
    direction = random_direction(weights, np.random.default_rng(3))
    for (dW, db), (W, _b) in zip(direction, weights):
        np.testing.assert_allclose(np.linalg.norm(dW, axis=1), np.linalg.norm(W, axis=1), rtol=1e-12)
        assert not np.any(db)
    # the direction of each row is the random row's (only its length changes)
    rng = np.random.default_rng(3)
    raw = [(rng.standard_normal(W.shape), np.zeros(b.shape)) for W, b in weights]
    for (dW, _), (rW, _) in zip(direction, raw):
        cos = np.sum(dW * rW, axis=1) / (np.linalg.norm(dW, axis=1) * np.linalg.norm(rW, axis=1))
        np.testing.assert_allclose(cos, 1.0, rtol=1e-12)
    # a zero row stays zero; a zero weight row makes a zero direction row
    W = np.array([[3.0, 4.0], [0.0, 0.0]])
    d = filter_normalize([(np.array([[0.0, 0.0], [1.0, 1.0]]), np.ones(2))], [(W, np.ones(2))])
    assert d[0][0].tolist() == [[0.0, 0.0], [0.0, 0.0]] and d[0][1].tolist() == [0.0, 0.0]
    d = filter_normalize([(np.array([[1.0, 0.0], [1.0, 1.0]]), np.ones(2))], [(W, np.ones(2))])
    assert d[0][0].tolist() == [[5.0, 0.0], [0.0, 0.0]]


def test_grid_values_are_the_models_forward_at_the_moved_weights(trained):
    trainer, history = trained
    data, model = trainer.data, trainer.model
    L = loss_landscape(model, data.X_train, data.y_train, "bce", history=history.array(), resolution=9, seed=5)
    assert L.losses.shape == (9, 9)
    assert L.center_loss == pytest.approx(trainer.evaluate().train_loss, rel=1e-12)
    assert L.losses[4, 4] == pytest.approx(L.center_loss, rel=1e-12)  # α = β = 0 is the current weights
    weights = model.weight_arrays()
    rng = np.random.default_rng(5)
    d1 = flatten_weights(random_direction(weights, rng))
    d2 = flatten_weights(random_direction(weights, rng))
    for i, j in ((0, 0), (2, 7), (8, 3)):
        moved = flatten_weights(weights) + L.alphas[j] * d1 + L.betas[i] * d2
        scores = model.forward_array(data.X_train, unflatten_weights(moved, weights))
        assert L.losses[i, j] == pytest.approx(loss_array("bce", scores, data.y_train), rel=1e-12)
    # the path ends at the current weights: (0, 0); the start is off the center
    np.testing.assert_allclose(L.path[-1], (0.0, 0.0), atol=1e-12)
    assert np.hypot(*L.path[0]) > 0.01
    assert L.levels.size > 1 and np.all(np.diff(L.levels) > 0)


def test_projection_recovers_coordinates_in_the_plane_and_pca_spans_a_planar_path():
    rng = np.random.default_rng(0)
    center = rng.standard_normal(30)
    d1, d2 = rng.standard_normal(30), rng.standard_normal(30)
    coords = rng.standard_normal((12, 2))
    history = center + coords[:, :1] * d1 + coords[:, 1:] * d2
    np.testing.assert_allclose(project_path(history, center, d1, d2), coords, rtol=1e-10, atol=1e-12)
    p1, p2, shares = pca_directions(history, center)
    assert abs(p1 @ p2) < 1e-12 and shares.sum() == pytest.approx(1.0)
    back = project_path(history, center, p1, p2)
    np.testing.assert_allclose(center + back[:, :1] * p1 + back[:, 1:] * p2, history, atol=1e-10)


def test_pca_mode_frames_the_whole_path(trained):
    trainer, history = trained
    data = trainer.data
    L = loss_landscape(trainer.model, data.X_train, data.y_train, "bce", history=history.array(), mode="pca")
    assert L.variance[0] >= L.variance[1] > 0
    x0, x1, y0, y1 = L.extent
    assert np.all((L.path[:, 0] >= x0) & (L.path[:, 0] <= x1) & (L.path[:, 1] >= y0) & (L.path[:, 1] <= y1))
    with pytest.raises(ValueError, match="unknown landscape mode"):
        loss_landscape(trainer.model, data.X_train, data.y_train, "bce", mode="tsne")


def test_weight_history_stays_bounded_and_keeps_the_newest():
    history = WeightHistory(limit=10)
    for step in range(101):
        history.record(step, [float(step)])
    assert len(history.vectors) <= 11
    assert history.steps[0] == 0 and history.steps[-1] == 100
    assert all(s % history.stride == 0 for s in history.steps[:-1])
    assert history.array()[:, 0].tolist() == [float(s) for s in history.steps]
