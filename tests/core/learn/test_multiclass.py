"""More than two classes: data sets, softmax cross-entropy (stable, exact gradients), per-layer activations,
the trainer, sessions and one sample's graph (a restart of the training process that keeps them:
tests/gui/training/test_multiclass_gui.py)."""

import math

import numpy as np
import pytest

from autograd_core.engine.tensor import Tensor
from autograd_core.learn.data import MAX_CLASSES, make_dataset, table_points
from autograd_core.learn.inspection import sample_graph
from autograd_core.learn.losses import (
    class_probabilities,
    confusion_matrix,
    data_loss,
    loss_array,
    per_class_accuracy,
    predict,
    softmax_cross_entropy,
)
from autograd_core.learn.nn import MLP
from autograd_core.learn.training import Trainer, TrainingConfig
from autograd_core.session import parse_session, session_dict, trainer_from_session


@pytest.mark.parametrize("name", ["blobs", "spiral"])
@pytest.mark.parametrize("k", range(2, MAX_CLASSES + 1))
def test_blobs_and_spiral_take_k_classes_balanced_and_stratified(name, k):
    d = make_dataset(name, samples=60 * k, noise=0.05, seed=3, test_fraction=0.25, classes=k)
    assert sorted(np.unique(d.y_train).tolist()) == list(range(k))
    assert np.bincount(d.y_train).tolist() == [45] * k
    assert np.bincount(d.y_test).tolist() == [15] * k


def test_spiral_arms_are_turned_evenly():
    d = make_dataset("spiral", samples=600, noise=0.0, seed=0, test_fraction=0.0, classes=3)
    # Without noise, a point at radius t on arm c sits at angle 3πt + 2πc/3.
    t = np.hypot(d.X_train[:, 0], d.X_train[:, 1])
    angle = np.arctan2(d.X_train[:, 1], d.X_train[:, 0])
    expected = 3.0 * math.pi * t + d.y_train * 2.0 * math.pi / 3
    np.testing.assert_allclose(np.cos(angle - expected), 1.0, atol=1e-9)


def test_two_class_sets_refuse_more_classes():
    with pytest.raises(ValueError, match="moons has two classes"):
        make_dataset("moons", classes=3)
    with pytest.raises(ValueError, match="moons has two classes"):
        TrainingConfig(dataset="moons", classes=3).validate()
    with pytest.raises(ValueError, match="classes must be a whole number from 2 to 6"):
        TrainingConfig(dataset="blobs", classes=7).validate()


@pytest.mark.parametrize("name,rows", [("iris", 150), ("wine", 178)])
def test_tables_two_columns_or_principal_components(name, rows):
    X, y = table_points(name, [0, 1])
    assert X.shape == (rows, 2) and sorted(set(y.tolist())) == [0, 1, 2]
    Z, _ = table_points(name, None)
    # The first two principal components of the standardized table are uncorrelated, the first the wider.
    assert abs(np.corrcoef(Z.T)[0, 1]) < 1e-9
    assert Z[:, 0].var() > Z[:, 1].var()
    d = make_dataset(name, noise=0.0, seed=0, test_fraction=0.2)
    assert len(d.y) == rows and len(d.y_test) == sum(round(c * 0.2) for c in np.bincount(d.y))
    assert TrainingConfig(dataset=name).num_classes == 3
    with pytest.raises(ValueError, match="column numbers"):
        table_points(name, [0, 99])


def _scalar_ce(z, y):
    return math.log(sum(math.exp(v) for v in z)) - z[y]


def test_softmax_cross_entropy_value_and_gradients_match_hand_derivation():
    z = [Tensor(v) for v in (1.0, -2.0, 0.5)]
    loss = softmax_cross_entropy([z], [2])
    assert loss.data == pytest.approx(_scalar_ce([1.0, -2.0, 0.5], 2), rel=1e-15)
    loss.backward()
    p = np.exp([1.0, -2.0, 0.5]) / np.exp([1.0, -2.0, 0.5]).sum()
    # ∂L/∂z_k = softmax_k − [k = y]
    np.testing.assert_allclose([t.grad for t in z], p - np.eye(3)[2], rtol=1e-12, atol=1e-15)


def test_softmax_cross_entropy_is_stable_for_huge_scores():
    z = [Tensor(1000.0), Tensor(-1000.0), Tensor(990.0)]
    loss = softmax_cross_entropy([z], [2])
    assert loss.data == pytest.approx(10.0 + math.log1p(math.exp(-10.0)), rel=1e-12)
    loss.backward()
    assert all(math.isfinite(t.grad) for t in z)
    assert loss_array("bce", np.array([[1000.0, -1000.0, 990.0]]), np.array([2])) == pytest.approx(loss.data, rel=1e-12)


def test_numpy_and_tensor_cross_entropy_agree_and_metrics():
    rng = np.random.default_rng(0)
    scores = rng.normal(size=(20, 4)) * 3
    labels = rng.integers(0, 4, size=20)
    tensors = [[Tensor(v) for v in row] for row in scores.tolist()]
    assert data_loss("bce", tensors, labels.tolist()).data == pytest.approx(loss_array("bce", scores, labels), 1e-12)
    np.testing.assert_array_equal(predict(scores), scores.argmax(axis=1))
    np.testing.assert_allclose(class_probabilities(scores).sum(axis=1), 1.0)
    m = confusion_matrix(scores, labels, 4)
    assert m.sum() == 20 and np.trace(m) == int((scores.argmax(axis=1) == labels).sum())
    per = per_class_accuracy(m)
    for k in range(4):
        mask = labels == k
        assert per[k] == (pytest.approx(float((scores.argmax(axis=1)[mask] == k).mean())) if mask.any() else None)
    with pytest.raises(ValueError, match="cross-entropy"):
        data_loss("hinge", tensors, labels.tolist())


def test_cross_entropy_graph_shows_its_local_derivatives():
    model = MLP(2, [3, 3], seed=1)
    g = sample_graph(model, (0.3, -0.7), 1, "bce")
    ops = set()
    stack, seen = [g.loss], set()
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        ops.add(node.op)
        stack.extend(node.parents)
    assert {"exp", "log"} <= ops
    assert [t.label for t in g.scores] == ["score1", "score2", "score3"]
    z = [t.data for t in g.scores]
    assert g.loss.data == pytest.approx(_scalar_ce(z, 1), rel=1e-12)
    assert g.probability == pytest.approx(math.exp(-g.loss.data), rel=1e-12)
    # Finite differences on one first-layer weight agree with the graph's gradient.
    w = model.layers[0].neurons[0].w[0]
    h, base = 1e-6, w.data
    values = []
    for delta in (h, -h):
        w.data = base + delta
        values.append(sample_graph(model, (0.3, -0.7), 1, "bce").loss.data)
    w.data = base
    assert g.model.layers[0].neurons[0].w[0].grad == pytest.approx((values[0] - values[1]) / (2 * h), rel=1e-6)


def test_per_layer_activations_scalar_and_vectorised_agree():
    model = MLP(2, [4, 3, 5], activation=["tanh", "relu"], seed=2)
    assert model.activations == ["tanh", "relu", "linear"]
    X = np.random.default_rng(1).normal(size=(7, 2))
    fast = model.forward_array(X)
    for row, expected in zip(X.tolist(), fast):
        scalar = [t.data for t in model(row)]
        np.testing.assert_allclose(scalar, expected, rtol=1e-12, atol=1e-12)
    with pytest.raises(ValueError, match="2 activations for 1 hidden layers"):
        MLP(2, [4, 1], activation=["tanh", "relu"])


def test_trainer_three_class_spiral_learns_and_session_round_trips():
    config = TrainingConfig(
        dataset="blobs", classes=3, samples=90, layers=[8], activations=["tanh"], steps=30, batch_size=0, lr=0.05
    )
    trainer = Trainer(config)
    assert trainer.model.nouts == [8, 3]
    first = trainer.evaluate().train_loss
    trainer.run()
    assert trainer.history[-1].train_loss < first
    assert trainer.history[-1].train_acc > 0.9
    loaded = trainer_from_session(parse_session(session_dict(trainer)))
    assert loaded.config.classes == 3 and loaded.config.activations == ["tanh"]
    np.testing.assert_array_equal(loaded.scores(trainer.data.X_test), trainer.scores(trainer.data.X_test))


def test_old_configs_without_the_new_fields_still_load():
    old = {k: v for k, v in TrainingConfig().to_dict().items() if k not in ("classes", "activations", "columns")}
    config = TrainingConfig.from_dict(old)
    assert config.classes == 2 and config.activations is None and config.num_classes == 2


def test_points_with_more_classes_and_refused_labels():
    config = TrainingConfig(points=[[0.0, 0.0, 0], [1.0, 0.0, 1], [0.0, 1.0, 2]], classes=3, layers=[4])
    assert Trainer(config).model.nouts == [4, 3]
    with pytest.raises(ValueError, match="label from 0 to 1"):
        TrainingConfig(points=[[0.0, 0.0, 2]]).validate()
