"""Input features: extra inputs typed as expressions of x1, x2, through the expression language (never eval)."""

import math

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QGraphicsSimpleTextItem

from autograd_core.learn.features import FeatureMLP, feature_values
from autograd_core.learn.training import Trainer, TrainingConfig

TIMEOUT = 30_000
LEFT = Qt.MouseButton.LeftButton


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


def type_feature(qtbot, line, text):
    line.selectAll()
    qtbot.keyClick(line, Qt.Key.Key_Delete)
    qtbot.keyClicks(line, text)
    qtbot.keyClick(line, Qt.Key.Key_Return)


def test_features_editor_diagram_and_maps(qtbot, ws):
    editor = ws.network_panel.features
    qtbot.mouseClick(editor.add_button, LEFT)
    assert len(editor.lines) == 1
    # a bad feature: a message, nothing changes
    generation = ws.controller.last_snapshot.generation
    type_feature(qtbot, editor.lines[0], "x1*z")
    assert editor.error.isVisible() and "only x1 and x2" in editor.error.text()
    type_feature(qtbot, editor.lines[0], "log(x1)")
    assert "not finite" in editor.error.text()
    qtbot.wait(100)
    assert ws.controller.config.features is None and ws.controller.last_snapshot.generation == generation
    # x1*x2: three inputs in the diagram, labeled with the expression
    type_feature(qtbot, editor.lines[0], "x1*x2")
    assert not editor.error.isVisible()
    qtbot.waitUntil(lambda: ws.controller.last_snapshot.sizes[0] == 3 and ws.controller.settled, timeout=TIMEOUT)
    ws.flush()
    assert ws.controller.config.features == ["x1*x2"] and ws.controller.last_snapshot.features == ("x1*x2",)
    assert len(ws.diagram.neurons[0]) == 3
    texts = {item.text() for item in ws.diagram.scene.items() if isinstance(item, QGraphicsSimpleTextItem)}
    assert {"x1", "x2", "x1*x2"} <= texts
    assert "(3 → 16 → 16 → 1)" in ws.network_panel.param_count.text()
    # the decision regions apply the same feature: the grid is the model's forward pass with x1*x2 added
    snap = ws.controller.last_snapshot
    model = ws.controller.current_model()
    x0, x1, y0, y1 = snap.grid.extent
    n = snap.grid.probability.shape[0]
    i, j = 17, 60
    x, y = np.linspace(x0, x1, n)[j], np.linspace(y0, y1, n)[i]
    score = model([float(x), float(y)]).data
    assert snap.grid.probability[i, j] == pytest.approx(1 / (1 + math.exp(-score)), abs=1e-5)
    # remove it: two inputs again
    qtbot.mouseClick(editor.remove_buttons[0], LEFT)
    qtbot.waitUntil(lambda: ws.controller.last_snapshot.sizes[0] == 2, timeout=TIMEOUT)
    assert ws.controller.config.features is None and not editor.lines


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
