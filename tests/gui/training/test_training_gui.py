"""The training area with real clicks and keys: play to 90 %, pause, step, reset, live settings,
sessions through the main window, divergence, bad input, and closing during training."""

import json
import os
import time

import numpy as np
import pytest
from conftest import new_main_window
from PySide6.QtCore import Qt
from training_gui_helpers import child_pids, set_spin

from autograd_core.learn.regions import probability_ramp
from autograd_core.learn.training import Trainer
from autograd_core.live.training_policy import TrainingPart
from autograd_core.numbers import format_number
from autograd_core.session import load_session
from gui.training.training_style import region_colors
from gui.training.training_worker import TRAINING_NICENESS

TIMEOUT = 30_000


def click(qtbot, button):
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def step_of(ws):
    m = ws.controller.last_metrics
    return -1 if m is None else m.step


def settle(qtbot, ws):
    """Wait until the picture shows the training process after every command sent so far."""
    qtbot.waitUntil(lambda: ws.controller.settled and not ws.controller.last_snapshot.running, timeout=TIMEOUT)


def small_network(qtbot, ws):
    """One hidden layer of 8 neurons on 100 points, built with the widgets: trains in a few seconds."""
    panel = ws.network_panel
    while len(panel.remove_buttons) > 1:
        click(qtbot, panel.remove_buttons[-1])
    set_spin(qtbot, panel.layer_spins[0], 8)
    set_spin(qtbot, ws.training_panel.samples, 100)
    set_spin(qtbot, ws.training_panel.steps, 5000)
    assert ws.controller.config.layers == [8] and ws.controller.config.samples == 100
    qtbot.waitUntil(lambda: ws.controller.last_snapshot.sizes == (2, 8, 1), timeout=TIMEOUT)
    expected = Trainer(ws.controller.config).data
    qtbot.waitUntil(
        lambda: np.array_equal(ws.controller.last_snapshot.dataset.X_train, expected.X_train), timeout=TIMEOUT
    )


def test_play_to_90_percent_pause_step_reset(qtbot, process_ws):
    # End to end with the real training process.
    ws = process_ws
    small_network(qtbot, ws)
    panel = ws.training_panel
    click(qtbot, panel.play_button)
    assert panel.play_button.text() == "Pause"
    qtbot.waitUntil(lambda: (ws.controller.last_metrics.test_acc or 0) >= 0.9, timeout=TIMEOUT)
    assert "test loss" in panel.status.text() and "steps/s" in panel.status.text()
    # the boundary map and the curves follow
    ws.flush()
    grid = ws.controller.last_snapshot.grid
    assert grid.probability.min() < 0.5 < grid.probability.max() and len(grid.boundary_x) > 0
    assert len(ws.metrics.test_acc.getData()[0]) == len(ws.controller.history) > 0

    click(qtbot, panel.play_button)  # pause
    assert panel.play_button.text() == "Play" and not ws.controller.running
    settle(qtbot, ws)
    paused_at = step_of(ws)
    qtbot.wait(600)
    assert step_of(ws) == paused_at

    click(qtbot, panel.step_button)
    qtbot.waitUntil(lambda: step_of(ws) == paused_at + 1, timeout=TIMEOUT)
    qtbot.wait(300)
    assert step_of(ws) == paused_at + 1 and not ws.controller.running

    click(qtbot, panel.reset_button)
    # the curves start again from the new weights' step 0
    qtbot.waitUntil(lambda: step_of(ws) == 0 and ws.controller.history.column("step").tolist() == [0], timeout=TIMEOUT)
    # new initial weights by the same seed rules: those a fresh Trainer of this config starts from
    expected = Trainer(ws.controller.config).model.weight_arrays()
    for (w, b), (we, be) in zip(ws.controller.last_snapshot.weights, expected):
        np.testing.assert_allclose(w, we)
        np.testing.assert_allclose(b, be)


def test_space_plays_and_pauses_inside_the_training_area(qtbot, ws):
    ws.activateWindow()
    ws.boundary.plot.setFocus()
    qtbot.keyClick(ws.boundary.plot, Qt.Key.Key_Space)
    assert ws.controller.running
    qtbot.waitUntil(lambda: step_of(ws) >= 1, timeout=TIMEOUT)
    qtbot.keyClick(ws.boundary.plot, Qt.Key.Key_Space)
    assert not ws.controller.running


def test_learning_rate_changes_while_running_without_reset(qtbot, ws):
    small_network(qtbot, ws)
    panel = ws.training_panel  # the default schedule is cosine: a constant one shows the rate itself
    panel.schedule.setCurrentIndex(panel.schedule.findData("constant"))
    assert ws.controller.config.schedule == "constant"
    click(qtbot, ws.training_panel.play_button)
    qtbot.waitUntil(lambda: step_of(ws) >= 3, timeout=TIMEOUT)
    old_lr = ws.controller.config.lr
    set_spin(qtbot, ws.training_panel.lr, 0.01)
    assert ws.controller.config.lr == 0.01 and ws.controller.running
    qtbot.waitUntil(lambda: 0.01 in ws.controller.history.column("lr"), timeout=TIMEOUT)
    lrs = ws.controller.history.column("lr")
    steps = ws.controller.history.column("step")
    # one run from step 0: the steps go on counting (no reset) and the rate changes from old to new
    assert lrs[0] == old_lr and lrs[-1] == 0.01
    np.testing.assert_array_equal(steps, np.arange(len(steps)))
    assert ws.controller.running


def test_speed_setting_slows_training(qtbot, ws):
    small_network(qtbot, ws)
    ws.training_panel.speed.setCurrentText("5 steps/s")
    click(qtbot, ws.training_panel.play_button)
    qtbot.waitUntil(lambda: step_of(ws) >= 1, timeout=TIMEOUT)
    start, t0 = step_of(ws), time.monotonic()
    qtbot.wait(1000)
    done, elapsed = step_of(ws) - start, time.monotonic() - t0
    # about five a second (the 8-neuron network alone would do hundreds)
    assert 2 <= done <= 5 * elapsed + 3, (done, elapsed)


def test_divergence_stops_with_a_clear_message_and_keeps_the_last_good_state(qtbot, ws):
    small_network(qtbot, ws)
    ws.training_panel.optimizer.setCurrentIndex(ws.training_panel.optimizer.findData("sgd"))
    ws.training_panel.loss.setCurrentIndex(ws.training_panel.loss.findData("mse"))
    set_spin(qtbot, ws.training_panel.lr, 100)
    assert ws.controller.config.lr == 100
    click(qtbot, ws.training_panel.play_button)
    qtbot.waitUntil(lambda: ws.training_panel.banner.isVisible(), timeout=TIMEOUT)
    text = ws.training_panel.banner_text.text()
    assert "Training stopped" in text and "learning rate" in text
    qtbot.waitUntil(lambda: not ws.controller.running, timeout=5000)
    assert ws.training_panel.play_button.text() == "Play"
    snap = ws.controller.last_snapshot
    assert all(np.all(np.isfinite(w)) and np.all(np.isfinite(b)) for w, b in snap.weights)
    assert np.all(np.isfinite(snap.grid.probability))
    assert np.all(np.isfinite(ws.controller.history.column("train_loss")))
    # it names the cause: what went non-finite (the loss, or which gradient/parameter) or the exploding loss
    assert "became" in text or "exploded" in text
    # with a sane rate and a reset, training works again
    set_spin(qtbot, ws.training_panel.lr, 0.01)
    click(qtbot, ws.training_panel.reset_button)
    qtbot.waitUntil(lambda: step_of(ws) == 0, timeout=TIMEOUT)
    click(qtbot, ws.training_panel.step_button)
    qtbot.waitUntil(lambda: step_of(ws) == 1, timeout=TIMEOUT)
    assert not ws.training_panel.banner.isVisible()


def test_bad_input_gets_a_message_not_a_crash(qtbot, ws):
    assert ws.controller.update_settings(lr=-1.0) is False
    assert ws.training_panel.banner.isVisible()
    assert "lr must be positive" in ws.training_panel.banner_text.text()
    assert ws.controller.config.lr > 0
    # the step limit: Play at the limit explains what to do
    set_spin(qtbot, ws.training_panel.steps, 2)
    click(qtbot, ws.training_panel.play_button)
    qtbot.waitUntil(lambda: "Raise the step limit" in ws.training_panel.banner_text.text(), timeout=TIMEOUT)
    assert step_of(ws) == 2 and not ws.controller.running


def main_window(qtbot, tmp_path):
    return new_main_window(qtbot, tmp_path, size=None)


def training_tab(qtbot, w):
    w.tabs.setCurrentWidget(w.training)
    qtbot.waitUntil(lambda: w.training.controller.last_snapshot is not None, timeout=TIMEOUT)
    return w


@pytest.fixture
def window(training_window):
    """The main window on its training tab, the engine in this process (conftest's ``training_window``)."""
    return training_window


@pytest.fixture
def process_window(qtbot, tmp_path):
    """The main window with the real training process (started when the training tab is first shown)."""
    w = main_window(qtbot, tmp_path)
    yield w
    w.training.shutdown()


def test_save_and_reopen_a_session_through_the_main_window(qtbot, window, tmp_path):
    ws = window.training
    small_network(qtbot, ws)
    click(qtbot, ws.boundary.discretize)
    click(qtbot, ws.training_panel.play_button)
    qtbot.waitUntil(lambda: step_of(ws) >= 15, timeout=TIMEOUT)
    click(qtbot, ws.training_panel.play_button)
    settle(qtbot, ws)
    saved_weights = [(w.copy(), b.copy()) for w, b in ws.controller.last_snapshot.weights]
    saved_steps = step_of(ws)
    path = tmp_path / "run.agp.json"
    assert window.save_session_to(str(path))

    # the file holds what is on screen: network, data settings, weights, optimizer and history
    data = load_session(path)
    assert data.config.layers == [8] and data.config.samples == 100 and data.config.optimizer == "adam"
    assert len(data.history) == saved_steps + 1 and data.optimizer_state is not None  # step 0 first, then each step
    assert [m.step for m in data.history[:2]] == [0, 1]
    flat = np.concatenate([np.column_stack([w, b]).ravel() for w, b in saved_weights])
    np.testing.assert_allclose(sorted(data.weights), sorted(flat))
    assert json.loads(path.read_text())["extra"]["training"]["discretize"] is True

    # change everything, then open the file again
    click(qtbot, ws.network_panel.add_button)
    click(qtbot, ws.boundary.discretize)
    qtbot.waitUntil(lambda: step_of(ws) == 0, timeout=TIMEOUT)
    assert window.open_session(str(path))
    qtbot.waitUntil(lambda: step_of(ws) == saved_steps, timeout=TIMEOUT)
    for (w, b), (ws_, bs) in zip(ws.controller.last_snapshot.weights, saved_weights):
        np.testing.assert_array_equal(w, ws_)
        np.testing.assert_array_equal(b, bs)
    assert ws.network_panel.layers() == [8] and ws.training_panel.samples.value() == 100
    assert ws.boundary.discretize.isChecked()
    ws.flush()
    assert len(ws.metrics.train_loss.getData()[0]) == saved_steps + 1  # the curves come back, from step 0
    # and training goes on from there
    click(qtbot, ws.training_panel.step_button)
    qtbot.waitUntil(lambda: step_of(ws) == saved_steps + 1, timeout=TIMEOUT)


def test_a_broken_session_is_refused_and_nothing_changes(qtbot, window, tmp_path):
    ws = window.training
    path = tmp_path / "broken.agp.json"
    path.write_text('{"format": "autograd-playground-session", "version": 1, "config": {"layers": "many"}}')
    before = ws.controller.config
    assert not window.open_session(str(path))
    assert window.last_warning is not None
    window.last_warning.close()
    assert ws.controller.config == before


def test_closing_during_training_ends_thread_and_process(qtbot, process_window):
    ws = training_tab(qtbot, process_window).training
    click(qtbot, ws.training_panel.play_button)
    qtbot.waitUntil(lambda: step_of(ws) >= 1, timeout=TIMEOUT)
    worker = ws.controller.worker
    assert ws.controller.running and worker._reader.is_alive()
    process_window.close()
    assert not worker._reader.is_alive()
    assert worker._process.poll() is not None  # the training process has exited
    assert worker.pid not in child_pids()
    # commands after closing are ignored, not errors
    ws.controller.play()
    ws.controller.step()


@pytest.mark.skipif(not hasattr(os, "getpriority"), reason="no process priorities on this system")
def test_the_training_process_gives_the_window_the_cpu_first(qtbot, process_window):
    """A busy machine: the training process runs niced below the window, so a click is answered first."""
    ws = training_tab(qtbot, process_window).training
    click(qtbot, ws.training_panel.step_button)
    qtbot.waitUntil(lambda: step_of(ws) >= 1, timeout=TIMEOUT)
    own = os.getpriority(os.PRIO_PROCESS, os.getpid())
    assert os.getpriority(os.PRIO_PROCESS, ws.controller.worker.pid) == min(own + TRAINING_NICENESS, 19)


def test_data_controls_and_boundary_toggles(qtbot, ws):
    panel = ws.training_panel
    panel.dataset.setCurrentIndex(panel.dataset.findData("xor"))
    set_spin(qtbot, panel.noise, 0.05)
    assert ws.controller.config.dataset == "xor" and ws.controller.config.noise == 0.05
    expected = Trainer(ws.controller.config).data
    qtbot.waitUntil(
        lambda: np.array_equal(ws.controller.last_snapshot.dataset.X_train, expected.X_train), timeout=TIMEOUT
    )
    ws.flush()
    # the scatter shows exactly those points: train filled, test hollow
    np.testing.assert_allclose(np.column_stack(ws.boundary.train_points.getData()), expected.X_train)
    np.testing.assert_allclose(np.column_stack(ws.boundary.test_points.getData()), expected.X_test)
    # Regenerate draws a new sample (next data seed)
    seed = panel.data_seed.value()
    click(qtbot, panel.regenerate)
    assert ws.controller.config.data_seed == seed + 1
    qtbot.waitUntil(
        lambda: not np.array_equal(ws.controller.last_snapshot.dataset.X_train, expected.X_train), timeout=TIMEOUT
    )
    ws.flush()
    # the map: continuous probabilities, or two colors when discretized; test points can be hidden
    grid = ws.controller.last_snapshot.grid
    ramp = region_colors(ws.boundary.colors)["ramp"]
    np.testing.assert_array_equal(ws.boundary.image.image, probability_ramp(grid.probability, ramp).transpose(1, 0, 2))
    click(qtbot, ws.boundary.discretize)
    image = ws.boundary.image.image.transpose(1, 0, 2)
    assert {tuple(c) for c in image.reshape(-1, 4)[:, :3].tolist()} == {tuple(ramp[0]), tuple(ramp[2])}
    np.testing.assert_array_equal(image[:, :, 0] == ramp[2][0], grid.probability > 0.5)
    click(qtbot, ws.boundary.show_test)
    assert not ws.boundary.test_points.isVisible() and ws.boundary.train_points.isVisible()


def test_default_optimizer_at_learning_rate_100_stops_with_a_message(qtbot, ws):
    # Adam keeps every number finite at lr = 100, but the loss explodes: training must still stop and say why.
    small_network(qtbot, ws)
    set_spin(qtbot, ws.training_panel.lr, 100)
    click(qtbot, ws.training_panel.play_button)
    qtbot.waitUntil(lambda: ws.training_panel.banner.isVisible(), timeout=TIMEOUT)
    text = ws.training_panel.banner_text.text()
    assert "Training stopped" in text and "exploded" in text and "learning rate 100 too large" in text
    qtbot.waitUntil(lambda: not ws.controller.running, timeout=5000)
    assert np.all(np.isfinite(ws.controller.history.column("train_loss")))
    # Not empty curves and a bare "step 0": the start of the run is drawn, and a mark shows where step 1 went.
    ws.curves.setCurrentIndex(0)
    ws.flush()
    metrics = ws.metrics
    assert metrics.train_loss.getData()[0].tolist() == [0.0] and metrics.train_loss.opts["symbol"] == "o"
    diverged = ws.controller.diverged
    assert diverged.step == 1 and diverged.train_loss > 100 * ws.controller.history.column("train_loss")[0]
    assert metrics.diverged_mark.getData()[0].tolist() == [1.0]
    text = f"diverged at step 1: {format_number(diverged.train_loss)}"
    assert metrics.divergence_text == text and text in metrics.loss_plot.getPlotItem().titleLabel.text
    # a short, narrow area (the columns layout) says only "diverged"; the whole text stays in the tooltip
    compact = metrics.compact
    metrics.set_compact(True)
    title = metrics.loss_plot.getPlotItem().titleLabel.text
    assert "diverged" in title and "step 1" not in title and text in metrics.loss_plot.toolTip()
    metrics.set_compact(False)
    assert text in metrics.loss_plot.getPlotItem().titleLabel.text
    metrics.set_compact(compact)
    assert "stopped" in ws.training_panel.status.text() and ws.training_panel.play_button.text() == "Play"

    # After a good run, a divergence keeps every good step on the curves, and the mark follows them.
    set_spin(qtbot, ws.training_panel.lr, 0.05)
    click(qtbot, ws.training_panel.reset_button)
    click(qtbot, ws.training_panel.play_button)
    qtbot.waitUntil(lambda: step_of(ws) >= 20, timeout=TIMEOUT)
    set_spin(qtbot, ws.training_panel.lr, 100)
    qtbot.waitUntil(lambda: "exploded" in ws.training_panel.banner_text.text(), timeout=TIMEOUT)
    qtbot.waitUntil(lambda: ws.controller.settled and not ws.controller.running, timeout=TIMEOUT)
    ws.flush()
    steps = metrics.train_loss.getData()[0]
    good = ws.controller.last_metrics.step
    assert steps.tolist() == list(range(good + 1)) and metrics.train_loss.opts["symbol"] is None
    assert metrics.diverged_mark.getData()[0].tolist() == [good + 1.0] == [ws.controller.diverged.step]
    # the mark is pinned inside the plot when the loss is off the scale
    (_x0, _x1), (_y0, top) = metrics.loss_plot.getPlotItem().getViewBox().viewRange()
    assert metrics.diverged_mark.getData()[1][0] <= top
    # and goes when training goes on
    set_spin(qtbot, ws.training_panel.lr, 0.01)
    click(qtbot, ws.training_panel.step_button)
    qtbot.waitUntil(lambda: step_of(ws) == good + 1, timeout=TIMEOUT)
    ws.flush()
    assert ws.controller.diverged is None and metrics.diverged_mark.getData()[0] is None
    assert metrics.divergence_text == "" and "diverged" not in metrics.loss_plot.getPlotItem().titleLabel.text


def test_hidden_curve_tabs_and_throttled_maps_take_no_frame_tick(qtbot, ws):
    # Each frame tick draws one view; a view that would draw nothing must not cost the visible ones a tick.
    ws.curves.setCurrentWidget(ws.gradient_flow)
    ws.flush()
    ws.frames.timer.stop()
    ws.frames.mark("maps", at_once=True)  # maps drawn now: throttled for the next MAPS_INTERVAL
    assert not ws.frames.pending
    drawn = []
    original = ws.boundary.update_snapshot
    ws.boundary.update_snapshot = lambda snap: (drawn.append("boundary"), original(snap))
    ws.frames.timer.stop()
    ws.frames.mark("loss", "accuracy", "maps", "boundary", "diagram")  # draws the first worth a tick at once
    ws.frames.timer.stop()
    assert drawn == ["boundary"]  # loss and accuracy (hidden tab) and the throttled maps were skipped
    assert ws.frames.pending == ("diagram",)
    assert ws.frames.waiting("maps")  # the maps come back by their own timer
    ws.frames.release("maps")


def test_curves_of_nan_only_are_not_fed_to_the_plots(qtbot):
    """No test set (test 0 %): at step 0 the test loss and accuracy are NaN, and the lone step is drawn as
    dots; a dot at NaN made pyqtgraph warn "All-NaN slice encountered" on every redraw (seen in the GUI
    monkey).  The test curves get no data, the train dots do, and nothing warns, in linear and log scale."""
    import warnings

    from training_gui_helpers import small_workspace

    ws = small_workspace(qtbot, test_fraction=0.0, samples=40, layers=[4])
    history = ws.controller.history
    assert len(history) == 1 and np.isnan(history.column("test_loss")).all()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for log in (False, True):
            ws.metrics.log_loss.setChecked(log)
            ws.frames.mark("loss", "accuracy")
            ws.flush()
            for plot in (ws.metrics.loss_plot, ws.metrics.acc_plot):
                plot.getPlotItem().getViewBox().autoRange()
                plot.grab()
            qtbot.wait(30)
    nan_warnings = [str(w.message) for w in caught if "All-NaN" in str(w.message)]
    assert nan_warnings == []
    for curve in (ws.metrics.test_loss, ws.metrics.test_acc):
        xs = curve.getData()[0]
        assert xs is None or len(xs) == 0
    assert len(ws.metrics.train_loss.getData()[0]) == 1 and ws.metrics.train_loss.opts["symbol"] == "o"
    ws.metrics.log_loss.setChecked(False)


def test_one_click_announces_exactly_the_parts_that_changed(qtbot, ws):
    """The controller's one ``changed`` signal names what changed: Play and Pause the running state alone;
    Reset first the run ending (its history still there, for the Runs keeper), then the new run's first
    snapshot with new weights and a one-point history; the data, slice and landscape did not change."""
    from gui.training.training_controller import TrainingChange

    small_network(qtbot, ws)
    controller, panel = ws.controller, ws.training_panel
    click(qtbot, panel.step_button)
    click(qtbot, panel.step_button)
    qtbot.waitUntil(lambda: step_of(ws) == 2, timeout=TIMEOUT)
    settle(qtbot, ws)
    heard = []
    controller.changed.connect(lambda change: heard.append((change, len(controller.history))))

    click(qtbot, panel.play_button)
    click(qtbot, panel.play_button)
    assert [(c.what, c.running) for c, _ in heard[:1]] == [(TrainingPart.RUNNING, True)]
    running = [c.running for c, _ in heard if TrainingPart.RUNNING in c]
    assert running[:1] == [True] and running[-1] is False  # (a snapshot may come between the two clicks)
    settle(qtbot, ws)
    steps = step_of(ws)
    assert steps >= 2 and len(controller.history) == steps + 1  # steps 0 … n

    heard.clear()
    click(qtbot, panel.reset_button)
    qtbot.waitUntil(lambda: step_of(ws) == 0, timeout=TIMEOUT)
    settle(qtbot, ws)
    whats = [c.what for c, _ in heard]
    assert whats == [TrainingPart.RUN_ENDING, TrainingPart.SNAPSHOT | TrainingPart.WEIGHTS | TrainingPart.HISTORY], (
        whats
    )
    (ending, kept), (snapshot, after) = heard
    assert kept == steps + 1 and after == 1  # the ending run's history was whole as it ended; the new one: step 0
    assert snapshot.snapshot is controller.last_snapshot and snapshot.running is False
    assert snapshot.dataset is None and snapshot.config is None  # only the parts named carry values
    assert ws.runs.history.runs[0].steps == steps and ws.runs.history.current.steps == 0
    with pytest.raises(AttributeError):  # a change is a snapshot of what happened: frozen
        ending.what = TrainingPart.HISTORY
    assert (
        isinstance(ending, TrainingChange) and TrainingPart.RUN_ENDING in ending and TrainingPart.HISTORY not in ending
    )


def test_a_painted_point_is_announced_as_undo_then_data_then_settings(qtbot, ws):
    """A data edit: the undo stack, the new points (at once, before the trainer has them) and the settings
    that now name them, in that order; the trainer's snapshot then brings its copy of the same points."""
    small_network(qtbot, ws)
    settle(qtbot, ws)
    controller = ws.controller
    heard = []
    controller.changed.connect(lambda change: heard.append(change))
    before = len(controller.dataset.y_train)
    controller.add_point(0.25, -0.5, 1)
    assert [c.what for c in heard] == [TrainingPart.UNDO, TrainingPart.DATASET, TrainingPart.CONFIG]
    assert len(heard[1].dataset.y_train) == before + 1 and heard[1].dataset is controller.dataset
    total = len(controller.dataset.y)
    assert len(heard[2].config.points) == total and [0.25, -0.5, 1] in heard[2].config.points
    edited = heard[1].dataset
    heard.clear()
    settle(qtbot, ws)
    echoes = [c.dataset for c in heard if TrainingPart.DATASET in c]
    assert echoes and TrainingPart.SNAPSHOT in heard[-1] and controller.dataset is echoes[-1] is not edited
    np.testing.assert_array_equal(echoes[-1].X_train, edited.X_train)
    assert controller.can_undo()
