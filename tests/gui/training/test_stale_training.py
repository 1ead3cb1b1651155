"""Every figure, curve and message of the training area equals the state it claims to show, after real clicks:
Clear all then painting, a reopened session's curve from step 0, and the GUI monkey's oracle."""

import numpy as np
from PySide6.QtCore import Qt
from training_gui_helpers import settle

from autograd_core.learn.losses import accuracy, loss_array
from autograd_core.numbers import MISSING, format_number, format_percent

TIMEOUT = 30_000
LEFT = Qt.MouseButton.LeftButton


def click_plane(qtbot, ws, x, y):
    qtbot.mouseClick(ws.boundary.plot.viewport(), LEFT, pos=ws.boundary.to_view(x, y))


def paint_thirteen(qtbot, ws):
    """13 points with real clicks: 7 of class 1 on the right, 6 of class 0 on the left (one line apart)."""
    boundary = ws.boundary
    qtbot.mouseClick(boundary.mode_buttons["paint1"], LEFT)
    for i in range(7):
        click_plane(qtbot, ws, 0.8, -0.6 + 0.2 * i)
    qtbot.mouseClick(boundary.mode_buttons["paint0"], LEFT)
    for i in range(6):
        click_plane(qtbot, ws, -0.8, -0.5 + 0.2 * i)


def test_clear_all_blanks_the_figures_and_painting_shows_the_painted_datas_own(qtbot, training_window):
    window = training_window
    ws = window.training
    panel, controller, metrics = ws.training_panel, ws.controller, ws.metrics
    for step in (1, 2, 3):
        qtbot.mouseClick(panel.step_button, LEFT)
        qtbot.waitUntil(lambda: controller.last_metrics.step == step, timeout=TIMEOUT)
    settle(qtbot, ws)
    assert "test loss" in panel.status.text() and len(metrics.train_loss.getData()[0]) == 4  # steps 0 … 3
    assert controller.dataset.y_test.size > 0

    weights = [(W.copy(), b.copy()) for W, b in controller.last_snapshot.weights]
    qtbot.mouseClick(ws.boundary.clear_button, LEFT)
    settle(qtbot, ws)
    for (W0, b0), (W1, b1) in zip(weights, controller.last_snapshot.weights, strict=True):  # the weights stay
        np.testing.assert_array_equal(W1, W0)
        np.testing.assert_array_equal(b1, b0)
    assert len(ws.runs.history.runs) == 2 and ws.runs.history.runs[0].steps == 3  # the run before is kept
    status = panel.status.text()
    # Blank figures: no data, nothing measured.  No test set: no test figures at all.
    assert f"train loss {MISSING} · acc {MISSING}" in status and "test" not in status, status
    assert "%" not in status
    # The curves start again (the data they measured is gone); the key names no test curve.
    assert metrics.train_loss.getData()[0] is None or len(metrics.train_loss.getData()[0]) == 0
    assert "test" not in metrics.key.text()
    assert "No training points" in panel.banner_text.text() and panel.banner.isVisible()
    assert "No training points" in window.statusBar().currentMessage()

    paint_thirteen(qtbot, ws)
    settle(qtbot, ws)
    data = controller.dataset
    assert len(data.y_train) == 13 and len(data.y_test) == 0
    # The header shows the figures of the 13 painted points, by the current weights (a hand-made forward pass).
    model = controller.current_model()
    scores = model.forward_array(data.X_train)
    loss = loss_array(controller.config.loss, scores, data.y_train)
    acc = accuracy(scores, data.y_train)
    status = panel.status.text()
    assert f"train loss {format_number(loss)} · acc {format_percent(acc)}" in status, status
    assert "test" not in status
    # Nothing painted yet is a training step: the curve restarts at step 0 with that same loss.
    steps, losses = metrics.train_loss.getData()
    assert list(steps) == [0] and np.isclose(losses[0], loss)
    # The message went as soon as a point was painted: from the banner and from the main window's status bar.
    assert not panel.banner.isVisible() and "No training points" not in panel.banner_text.text()
    assert "No training points" not in window.statusBar().currentMessage()


def test_three_quick_step_clicks_make_three_steps(qtbot, ws):
    """Each Step click is one update, however fast the clicks come (a Pause sent with each cancelled the steps
    still due: three clicks made one or two steps while the header said "step 1")."""
    panel, controller = ws.training_panel, ws.controller
    for _ in range(3):
        qtbot.mouseClick(panel.step_button, LEFT)
    qtbot.waitUntil(lambda: controller.settled and controller.export_trainer().step_count == 3, timeout=TIMEOUT)
    settle(qtbot, ws)
    assert controller.last_metrics.step == 3 and "<b>step 3</b>" in panel.status.text()
    assert list(ws.metrics.train_loss.getData()[0]) == [0, 1, 2, 3]


def test_a_reopened_session_draws_the_curve_it_saved_from_step_0(qtbot, training_window, tmp_path):
    """Save with the main window, reopen: the loss curve is the same arrays, step 0 (before the first step)
    included (it was not saved: the reopened curve began at step 1, 0.57 instead of 0.92)."""
    window = training_window
    ws = window.training
    panel, controller = ws.training_panel, ws.controller
    for step in (1, 2, 3, 4):
        qtbot.mouseClick(panel.step_button, LEFT)
        qtbot.waitUntil(lambda: controller.last_metrics.step == step, timeout=TIMEOUT)
    settle(qtbot, ws)
    curves = (ws.metrics.train_loss, ws.metrics.test_loss, ws.metrics.train_acc, ws.metrics.test_acc)
    before = [tuple(np.array(a, copy=True) for a in curve.getData()) for curve in curves]
    assert list(before[0][0]) == [0, 1, 2, 3, 4]
    start = controller.history.column("train_loss")[0]
    path = tmp_path / "four steps.json"
    window.save_session_to(str(path))
    assert path.exists()

    qtbot.mouseClick(ws.training_panel.reset_button, LEFT)  # something else on screen first
    qtbot.mouseClick(panel.step_button, LEFT)
    qtbot.waitUntil(lambda: controller.settled and controller.last_metrics.step == 1, timeout=TIMEOUT)
    window.open_session(str(path))
    qtbot.waitUntil(lambda: controller.settled and controller.last_metrics.step == 4, timeout=TIMEOUT)
    ws.flush()
    after = [curve.getData() for curve in curves]
    for (x0, y0), (x1, y1) in zip(before, after):
        np.testing.assert_array_equal(x1, x0)
        np.testing.assert_array_equal(y1, y0)
    assert after[0][1][0] == start and "<b>step 4</b>" in panel.status.text()


def test_old_session_files_without_step_0_still_open(tmp_path):
    """A session saved before step 0 was kept (its history begins at step 1) loads as it always did."""
    import json

    from autograd_core.learn.training import Trainer, TrainingConfig
    from autograd_core.session import load_session, save_session, trainer_from_session

    trainer = Trainer(TrainingConfig(samples=40, layers=[4], steps=10))
    trainer.run(3)
    path = tmp_path / "old.json"
    save_session(path, trainer)  # no start metrics known: the history is steps 1 … 3 as before
    doc = json.loads(path.read_text())
    assert [m["step"] for m in doc["history"]] == [1, 2, 3]
    loaded = trainer_from_session(load_session(path))
    assert [m.step for m in loaded.history] == [1, 2, 3] and loaded.start_metrics is None
    # With step 0 known it is written first and read back apart from the steps.
    trainer.start_metrics = Trainer(TrainingConfig(samples=40, layers=[4], steps=10)).evaluate()
    save_session(path, trainer)
    assert [m["step"] for m in json.loads(path.read_text())["history"]] == [0, 1, 2, 3]
    loaded = trainer_from_session(load_session(path))
    assert [m.step for m in loaded.history] == [1, 2, 3]
    assert loaded.start_metrics.train_loss == trainer.start_metrics.train_loss


def test_the_monkeys_oracle_sees_a_lie_and_passes_the_truth(qtbot, training_window):
    """The oracle (tests/gui_oracle.py) after real clicks: Clear all, then 13 painted points, agree with the state
    (no old figures, no test figure without a test set, no stale banner); a slider or a
    header put out of step with the state by hand is reported, naming what differs; so is a window that stopped
    repainting."""
    from gui_oracle import check_window

    from gui.expression.inputs_panel import InputsPanel
    from gui.look.app_style import release_repaints

    window = training_window
    ws = window.training
    assert check_window(window) == []
    qtbot.mouseClick(ws.boundary.clear_button, LEFT)
    settle(qtbot, ws)
    assert check_window(window) == []
    paint_thirteen(qtbot, ws)
    settle(qtbot, ws)
    assert check_window(window) == []
    qtbot.mouseClick(ws.training_panel.step_button, LEFT)
    settle(qtbot, ws)
    assert check_window(window) == []

    panel = window.findChildren(InputsPanel)[0]
    name, row = next(iter(panel.rows.items()))
    row.slider.blockSignals(True)
    row.slider.setValue((row.slider.value() + 500) % row.slider.maximum())
    row.slider.blockSignals(False)
    text = ws.training_panel.status.text()
    ws.training_panel.status.setText(text.replace("<b>step 1</b>", "<b>step 7</b>"))
    found = check_window(window)
    assert any(f"input {name}: slider at" in p for p in found), found
    assert any("the last metrics are of step 1" in p for p in found), found

    window.statusBar().update()  # a repaint request waiting in the queue, as a training frame's
    window.setUpdatesEnabled(False)  # the picture frozen, as a lost repaint request left it
    try:
        assert any("stopped repainting" in p for p in check_window(window))
    finally:
        # Released as the app releases its own holds: with a bare setUpdatesEnabled(True) the window stays frozen,
        # since Qt dropped the waiting request during the hold (CI's load once made that happen by chance).
        release_repaints(window)
    assert not any("stopped repainting" in p for p in check_window(window))


def test_escape_in_an_input_box_gives_the_value_in_force_back(qtbot, training_window):
    """Found by the monkey's oracle (seed 2, 1024×700): typed 1e-320 into x1's box, Escape: the box kept showing
    1e-320 while the program used 2, and leaving the box then applied it.  Escape cancels the typing."""
    from gui.expression.inputs_panel import InputsPanel

    window = training_window
    panel = window.findChildren(InputsPanel)[0]
    tabs = window.tabs
    tabs.setCurrentWidget(next(tabs.widget(i) for i in range(tabs.count()) if tabs.widget(i).isAncestorOf(panel)))
    (name, row), (_other, other) = list(panel.rows.items())[:2]
    value = panel.state.values[name]
    row.spin.setFocus()
    row.spin.lineEdit().selectAll()
    qtbot.keyClicks(row.spin.lineEdit(), "1e-320")
    assert row.spin.text() == "1e-320"
    qtbot.keyClick(row.spin.lineEdit(), Qt.Key.Key_Escape)
    assert row.spin.text() == format_number(value, row.spin.digits) and row.spin.value() == value
    other.spin.setFocus()  # leaving the box applies nothing
    qtbot.wait(20)
    assert panel.state.values[name] == value and row.spin.text() == format_number(value, row.spin.digits)
    # Escape with nothing typed is left to the window (a dialog closes): the box does not eat it.
    row.spin.setFocus()
    qtbot.keyClick(row.spin.lineEdit(), Qt.Key.Key_Escape)
    assert row.spin.text() == format_number(value, row.spin.digits)


def test_a_session_saved_after_clear_all_holds_no_cleared_points(qtbot, training_window, tmp_path):
    """After Clear all the trainer still holds the old points (a Trainer needs one): saving must not write them
    as the session's data and model, which reopening would bring back as if they were on screen."""
    from autograd_core.session import load_session

    window = training_window
    ws = window.training
    qtbot.mouseClick(ws.boundary.clear_button, LEFT)
    settle(qtbot, ws)
    path = tmp_path / "cleared.json"
    assert window.save_session_to(str(path))
    saved = load_session(path)
    assert saved.config is None and saved.data is None and saved.history == []


def _cleared_with_its_banner(qtbot, window):
    """Clear all by its button: the banner says there is nothing to train on."""
    ws = window.training
    panel = ws.training_panel
    qtbot.mouseClick(ws.boundary.clear_button, LEFT)
    settle(qtbot, ws)
    assert "No training points" in panel.banner_text.text() and panel.banner.isVisible()
    return ws, panel


def test_no_training_points_goes_when_a_preset_brings_points(qtbot, training_window):
    """Found by the oracle (the training area's monkey, seed 1): after Clear all, "The article's run" brought 200
    points, and the banner went on saying "No training points" through every later action."""
    window = training_window
    ws, panel = _cleared_with_its_banner(qtbot, window)
    qtbot.mouseClick(panel.article_button, LEFT)
    qtbot.waitUntil(lambda: ws.controller.settled and len(ws.controller.dataset.y_train) == 200, timeout=TIMEOUT)
    settle(qtbot, ws)
    assert not panel.banner.isVisible() and "No training points" not in panel.banner_text.text()
    assert "No training points" not in window.statusBar().currentMessage()
    assert "<b>epoch 0</b>" in panel.status.text() and MISSING not in panel.status.text()


def test_the_articles_run_after_a_run_at_another_lr_starts_again_and_names_the_runs_truly(qtbot, training_window):
    """Found in the tour (lesson 8, its second pass): "The article's run" picked after a run at lr 0.1 on the
    article's network changed only the learning rate, so the run went on from its trained weights; its loss
    was then shown as the last run "at lr 0.001"."""
    ws = training_window.training
    panel, controller = ws.training_panel, ws.controller
    qtbot.mouseClick(panel.article_button, LEFT)
    qtbot.waitUntil(lambda: controller.settled and len(controller.dataset.y_train) == 200, timeout=TIMEOUT)
    panel.lr.setValue(0.1)  # as typed: a live setting
    qtbot.waitUntil(lambda: controller.config.lr == 0.1, timeout=TIMEOUT)
    for step in (1, 2, 3):
        qtbot.mouseClick(panel.step_button, LEFT)
        qtbot.waitUntil(lambda step=step: controller.last_metrics.step == step, timeout=TIMEOUT)
    trained = controller.last_metrics
    assert trained.lr == 0.1
    qtbot.mouseClick(panel.article_button, LEFT)
    qtbot.waitUntil(lambda: controller.settled and controller.last_metrics.step == 0, timeout=TIMEOUT)
    settle(qtbot, ws)
    assert controller.config.lr == 0.001 and controller.last_metrics.lr == 0.001
    assert controller.previous_run.train_loss == trained.train_loss and controller.previous_run.lr == 0.1
    assert "<b>epoch 0</b>" in panel.status.text()


def test_no_training_points_goes_when_the_task_becomes_regression(qtbot, training_window):
    """Found by the oracle (the monkey, seed 3 at 1024×700 in presentation): after Clear all, choosing Regression
    (its own points on a curve) left the banner and the status bar saying "No training points"."""
    window = training_window
    ws, panel = _cleared_with_its_banner(qtbot, window)
    combo = panel.task_settings.task
    combo.setCurrentIndex(combo.findText("Regression (a curve of x)"))  # as a pick from its popup does
    qtbot.waitUntil(lambda: ws.controller.settled and ws.controller.regression is not None, timeout=TIMEOUT)
    settle(qtbot, ws)
    assert not panel.banner.isVisible() and "No training points" not in panel.banner_text.text()
    assert "No training points" not in window.statusBar().currentMessage()


def test_an_engine_message_of_the_cleared_plane_goes_with_it(qtbot, training_window):
    """Found by the oracle (training-area monkey, seed 2): the Landscape tab on a cleared plane gets "No training
    points: the loss landscape needs …"; the training process kept that error and every later snapshot said it
    again, with 300 points on the plane.  A new run or new data ends it."""
    window = training_window
    ws = window.training
    panel, bar = ws.training_panel, ws.curves.tabBar()
    qtbot.mouseClick(ws.boundary.clear_button, LEFT)
    landscape = ws.curves.indexOf(ws.landscape)
    qtbot.mouseClick(bar, LEFT, pos=bar.tabRect(landscape).center())
    qtbot.waitUntil(lambda: "loss landscape needs" in panel.banner_text.text(), timeout=TIMEOUT)
    qtbot.mouseClick(bar, LEFT, pos=bar.tabRect(0).center())
    qtbot.mouseClick(panel.article_button, LEFT)
    qtbot.waitUntil(lambda: ws.controller.settled and len(ws.controller.dataset.y_train) == 200, timeout=TIMEOUT)
    settle(qtbot, ws)
    assert ws.controller.last_snapshot.error is None
    assert not panel.banner.isVisible(), panel.banner_text.text()


class _Scripted:
    """The monkey's random choices, scripted: each call takes the next answer (which must be among the options)."""

    def __init__(self, *answers):
        self.answers = list(answers)

    def choice(self, options):
        answer = self.answers.pop(0)
        assert answer in options, (answer, options)
        return answer

    def randrange(self, n):
        answer = self.answers.pop(0)
        assert 0 <= answer < n
        return answer


def test_the_monkey_types_into_an_active_window_after_a_combo_popup(qtbot, training_window, tmp_path):
    """Found by the oracle (seed 3, 1600×1000): "-1e308" typed into x2's box, then Tab, left the box reading
    −1e308 while the program used 0.  Not the app: offscreen, the combo popup the monkey had clicked an item in
    stayed the active window, hidden, so the box never got focus and Tab never committed it (by hand the same
    keys clamp to −1e15 and box, slider and program agree).  The monkey now gives activation back first."""
    from gui_monkey import Monkey, choose_in_combo, edit_spin
    from gui_oracle import check_window
    from PySide6.QtWidgets import QApplication, QComboBox

    from gui.expression.inputs_panel import BOX_LIMIT, InputsPanel, slider_position

    window = training_window
    monkey = Monkey(window, 3, tmp_path)
    combo = next(c for c in window.training.findChildren(QComboBox) if c.isVisible() and c.count() > 1)
    monkey.rng = _Scripted("popup", 1)
    choose_in_combo(monkey, combo)
    qtbot.wait(100)  # the monkey settles after each action
    panel = window.findChildren(InputsPanel)[0]
    window.tabs.setCurrentWidget(window.expression)
    qtbot.waitUntil(lambda: panel.complete and not panel.updating, timeout=5000)
    name, row = list(panel.rows.items())[1]
    monkey.return_activation()  # what step() does before every action
    active = QApplication.activeWindow()
    assert active is not None and active.isVisible()
    monkey.rng = _Scripted("type", "-1e308", Qt.Key.Key_Tab)
    edit_spin(monkey, row.spin)
    qtbot.wait(50)
    assert panel.state.values[name] == -BOX_LIMIT == row.spin.value()  # clamped to the box's range, both agree
    lo, hi = panel.state.ranges[name]
    assert row.slider.value() == slider_position(-BOX_LIMIT, lo, hi)
    assert row.spin.text() == format_number(-BOX_LIMIT, row.spin.digits)
    assert check_window(window) == []
