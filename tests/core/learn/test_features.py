"""Input features: extra inputs typed as expressions of x1, x2, through the expression language (never eval); the
editor, diagram and maps: tests/gui/training/test_features_gui.py."""

import math

import numpy as np
import pytest

from autograd_core.learn.features import FeatureMLP, feature_values
from autograd_core.learn.training import Trainer, TrainingConfig


def test_feature_values_by_hand_and_bad_features_are_named():
    X = np.array([[2.0, 3.0], [-1.0, 0.5]])
    np.testing.assert_allclose(
        feature_values(["x1*x2", "x1**2", "sin(x2)"], X),
        [[6.0, 4.0, math.sin(3.0)], [-0.5, 1.0, math.sin(0.5)]],
    )
    for bad, words in (("x1*", "not a valid expression"), ("x1 + y", "only x1 and x2"), ("", "expression of x1")):
        with pytest.raises(ValueError, match=words):
            TrainingConfig(features=[bad]).validate()
    with pytest.raises(ValueError, match="twice"):
        TrainingConfig(features=["x1*x2", "x1*x2"]).validate()
    with pytest.raises(ValueError, match=r"'log\(x1\)' is not finite"):
        Trainer(TrainingConfig(dataset="xor", features=["log(x1)"]))


def test_feature_network_scalar_and_vectorised_forward_agree_and_take_points_of_the_plane():
    model = FeatureMLP(["x1*x2", "x2**2"], [4, 1], activation="tanh", seed=3)
    assert model.nin == 4 and model.weight_arrays()[0][0].shape == (4, 4)
    points = np.array([[0.3, -1.2], [1.5, 0.7], [-0.4, 0.1]])
    scalar = [model([float(a), float(b)]).data for a, b in points]
    np.testing.assert_allclose(model.forward_array(points), scalar, atol=1e-12)
    # …which is the plain network on (x1, x2, x1*x2, x2**2)
    W, b = model.weight_arrays()[0]
    x = np.array([0.3, -1.2, 0.3 * -1.2, 1.44])
    h = np.tanh(W @ x + b)
    W2, b2 = model.weight_arrays()[1]
    assert float((W2 @ h + b2)[0]) == pytest.approx(scalar[0], abs=1e-12)


def test_x1_times_x2_makes_xor_linearly_separable():
    # No hidden layer: a linear model of (x1, x2) cannot separate XOR; with x1*x2 the sign of x1*x2 is the class.
    def linear(features):
        trainer = Trainer(TrainingConfig(dataset="xor", layers=[], features=features, steps=300, lr=0.1))
        for _ in range(300):
            trainer.step()
        return trainer.history[-1].test_acc

    plain, with_product = linear(None), linear(["x1*x2"])
    assert plain < 0.75 and with_product >= 0.9


def test_a_session_keeps_the_features(tmp_path):
    from autograd_core.session import load_session, save_session, trainer_from_session

    trainer = Trainer(TrainingConfig(dataset="xor", layers=[4], features=["x1*x2", "sin(x2)"], steps=20))
    for _ in range(5):
        trainer.step()
    save_session(tmp_path / "f.json", trainer)
    again = trainer_from_session(load_session(tmp_path / "f.json"))
    assert again.config.features == ["x1*x2", "sin(x2)"] and again.model.nin == 4
    X = trainer.data.X_test
    np.testing.assert_array_equal(again.model.forward_array(X), trainer.model.forward_array(X))
