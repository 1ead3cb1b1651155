"""Regression in the training area with real clicks and keys: choose the task, type a target, train, and check the
plot against the model's own forward pass; a bad target gets a message and changes nothing."""

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QGraphicsSimpleTextItem
from training_gui_helpers import choose_regression, type_target

from autograd_core.learn.inspection import mlp_from_arrays
from autograd_core.learn.regression import target_values

TIMEOUT = 30_000
LEFT = Qt.MouseButton.LeftButton


def settle(qtbot, ws):
    qtbot.waitUntil(lambda: ws.controller.settled and not ws.controller.last_snapshot.running, timeout=TIMEOUT)


def test_regression_task_target_training_and_the_plot(qtbot, ws, tmp_path):
    choose_regression(qtbot, ws)
    assert ws.controller.task == "regression"
    assert ws.regression_plot.isVisible() and not ws.boundary.isVisible()
    assert ws.metrics.r2 and ws.metrics.acc_plot.getPlotItem().getAxis("left").labelText == "R²"
    assert "(1 → 16 → 16 → 1)" in ws.network_panel.param_count.text()  # 321 parameters
    assert "<b>321</b>" in ws.network_panel.param_count.text()
    assert not ws.training_panel.settings_box.layout().isRowVisible(ws.training_panel.loss)
    type_target(qtbot, ws, "x**2 - 1")
    settle(qtbot, ws)
    view = ws.controller.last_snapshot.regression
    assert view.target == "x**2 - 1"
    # the points follow the typed target within the noise (0.1 by default in the panel)
    residual = view.y_train - target_values("x**2 - 1", view.x_train)
    assert abs(residual.mean()) < 0.05 and residual.std() < 0.2
    for n in range(1, 4):  # (a click pauses first, so each waits for its step)
        qtbot.mouseClick(ws.training_panel.step_button, LEFT)
        qtbot.waitUntil(lambda n=n: ws.controller.last_metrics.step == n, timeout=TIMEOUT)
    settle(qtbot, ws)
    ws.flush()
    snap = ws.controller.last_snapshot
    view = snap.regression
    # the drawn curve is the model's forward pass with the snapshot's weights
    model = mlp_from_arrays(snap.weights, list(snap.activations) or snap.activation)
    forward = np.array([model([float(x)]).data for x in view.xs[::20]])
    np.testing.assert_allclose(view.curve[::20], forward, atol=1e-9)
    xs, ys = ws.regression_plot.curve.getData()
    np.testing.assert_allclose(xs, view.xs)
    np.testing.assert_allclose(ys, view.curve)
    # the thin curves plus the output bias add up to the model's curve
    W, b = snap.weights[-1]
    units = ws.regression_plot.unit_curves()
    assert len(units) == W.shape[1] == 16
    drawn = sum(units)
    np.testing.assert_allclose(drawn + b[0], view.curve, atol=1e-9)
    assert "R²" in ws.training_panel.status.text() and "acc" not in ws.training_panel.status.text()
    assert ws.current_model() is None  # the sample graph (points of the plane) has nothing to show
    texts = {item.text() for item in ws.diagram.scene.items() if isinstance(item, QGraphicsSimpleTextItem)}
    assert "x" in texts and "x1" not in texts  # the diagram's one input is x
    # File → Export data with predictions: the points and the model's value at each
    path = tmp_path / "fit.csv"
    with qtbot.waitSignal(ws.status, timeout=TIMEOUT, check_params_cb=lambda text: text.startswith("Wrote")):
        ws.export_predictions(str(path))
    rows = path.read_text().splitlines()
    assert rows[0] == "x,y,set,prediction" and len(rows) == 1 + len(view.x_train) + len(view.x_test)
    x, y, part, p = rows[1].split(",")
    assert part == "train" and float(x) == view.x_train[0] and float(y) == view.y_train[0]
    assert float(p) == pytest.approx(model([float(x)]).data, abs=1e-12)
    # the checkbox hides and shows the contributions
    qtbot.mouseClick(ws.regression_plot.show_units, LEFT)
    assert not ws.regression_plot.units.isVisible()
    qtbot.mouseClick(ws.regression_plot.show_units, LEFT)
    assert ws.regression_plot.units.isVisible() and len(ws.regression_plot.unit_curves()) == 16


def test_bad_target_gets_a_message_and_changes_nothing(qtbot, ws):
    choose_regression(qtbot, ws)
    settle(qtbot, ws)
    before = ws.controller.regression
    generation = ws.controller.last_snapshot.generation
    for bad, words in (("sin(3*x", "not a valid expression"), ("x + y", "only x"), ("__import__('os')", "")):
        type_target(qtbot, ws, bad)
        error = ws.training_panel.task_settings.error
        assert error.isVisible() and "Not applied" in error.text() and words in error.text()
        assert ws.controller.regression == before
    qtbot.wait(200)
    assert ws.controller.last_snapshot.generation == generation
    type_target(qtbot, ws, "cos(x)")  # a good one clears the message and applies
    assert not ws.training_panel.task_settings.error.isVisible()
    assert ws.controller.regression.target == "cos(x)"


def test_back_to_classification_and_the_preset(qtbot, ws):
    choose_regression(qtbot, ws)
    qtbot.mouseClick(ws.training_panel.task_settings.preset, LEFT)
    qtbot.waitUntil(lambda: ws.controller.last_snapshot.regression is not None, timeout=TIMEOUT)
    assert ws.controller.regression.lr == 0.03 and ws.controller.regression.steps == 1500
    assert ws.controller.regression.l2 == 0.0 and ws.training_panel.l2.value() == 0.0
    assert ws.training_panel.steps.value() == 1500
    qtbot.waitUntil(lambda: ws.controller.settled, timeout=TIMEOUT)
    task = ws.training_panel.task_settings.task
    task.setFocus()
    qtbot.keyClick(task, Qt.Key.Key_Up)
    qtbot.waitUntil(
        lambda: ws.controller.last_snapshot.regression is None and ws.controller.last_snapshot.grid is not None,
        timeout=TIMEOUT,
    )
    assert ws.controller.task == "classification" and ws.boundary.isVisible() and not ws.regression_plot.isVisible()
    assert ws.controller.last_snapshot.sizes[0] == 2 and not ws.metrics.r2


def test_a_restarted_regression_goes_on_from_the_last_good_state(qapp):
    """The restart a dead training process gets: the regression's weights, optimizer state, step and history."""
    from autograd_core.learn.regression import RegressionConfig, regression_config_dict
    from autograd_core.live.protocol import Start, Step
    from autograd_core.live.service import Engine
    from gui.training.training_worker import LocalPipe, TrainingWorker

    config = RegressionConfig(samples=40, layers=[6], lr=0.02, batch_size=0, steps=100)
    start = Start(config=regression_config_dict(config))
    worker = TrainingWorker(start)
    commands, replies = LocalPipe(), LocalPipe()
    engine = Engine(start, replies)
    worker.sent += 1
    commands.send(Step(5, seq=worker.sent))
    for _ in range(7):
        engine.run_once(commands)
        while replies.poll():
            worker._receive(replies.recv())
    restart = worker.restart_state(replay=True)
    assert restart.session is None and restart.config["task"] == "regression"
    twin = Engine(restart, LocalPipe())
    assert twin.trainer.step_count == 5 and len(twin.trainer.history) == 5
    assert twin.trainer.model.state_dict() == engine.trainer.model.state_dict()
    engine.trainer.step()
    twin.trainer.step()  # the same next step: Adam's moments came back too
    assert twin.trainer.model.state_dict() == engine.trainer.model.state_dict()
    row = lambda m: (m.step, m.train_loss, m.test_loss, m.train_acc, m.test_acc)  # noqa: E731 (batch_loss is NaN)
    assert [row(m) for m in twin.trainer.history] == [row(m) for m in engine.trainer.history]


def test_a_session_keeps_the_regression(qtbot, ws, tmp_path):
    import json

    import pytest

    from autograd_core.session import SessionError

    choose_regression(qtbot, ws)
    type_target(qtbot, ws, "0.5*x")
    settle(qtbot, ws)
    for n in range(1, 3):
        qtbot.mouseClick(ws.training_panel.step_button, LEFT)
        qtbot.waitUntil(lambda n=n: ws.controller.last_metrics.step == n, timeout=TIMEOUT)
    settle(qtbot, ws)
    weights = [W.copy() for W, _b in ws.controller.last_snapshot.weights]
    path = tmp_path / "fit.json"
    ws.save_session(path)
    doc = json.loads(path.read_text())
    assert doc["config"] is None and doc["extra"]["training"]["regression"]["config"]["target"] == "0.5*x"
    # back to classification, then open the session: the regression comes back where it was, paused
    task = ws.training_panel.task_settings.task
    task.setFocus()
    qtbot.keyClick(task, Qt.Key.Key_Up)
    qtbot.waitUntil(lambda: ws.controller.last_snapshot.regression is None, timeout=TIMEOUT)
    ws.open_session(path)
    qtbot.waitUntil(
        lambda: ws.controller.last_snapshot.regression is not None and ws.controller.settled, timeout=TIMEOUT
    )
    assert ws.controller.task == "regression" and ws.training_panel.task_settings.target.text() == "0.5*x"
    assert task.currentData() == "regression" and ws.regression_plot.isVisible()
    assert ws.controller.last_metrics.step == 2 and len(ws.controller.history) == 2
    for W, (V, _b) in zip(weights, ws.controller.last_snapshot.weights):
        np.testing.assert_array_equal(W, V)
    # a session whose weights do not fit its network: a clear error, nothing changes
    doc["extra"]["training"]["regression"]["weights"] = [0.0, 1.0]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc))
    generation = ws.controller.last_snapshot.generation
    with pytest.raises(SessionError, match="weights do not fit"):
        ws.open_session(bad)
    qtbot.wait(100)
    assert ws.controller.last_snapshot.generation == generation and ws.controller.last_metrics.step == 2
