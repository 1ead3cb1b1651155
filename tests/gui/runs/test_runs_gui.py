"""The run history with real clicks: runs kept across Reset and new settings, overlaid as ghost curves,
restored, renamed, pinned, deleted, shown side by side, and kept by a saved session."""

import numpy as np
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QStyle, QStyleOptionViewItem
from training_gui_helpers import set_spin

from autograd_core.learn.runs import MAX_RUNS
from gui.runs.table import BEST, NAME, NOTE, PIN, SHOW

TIMEOUT = 30_000


def click(qtbot, button):
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def train_steps(qtbot, ws, steps):
    """Press Step ``steps`` times and wait for the trainer to have done them."""
    start = ws.controller.last_metrics.step
    for k in range(1, steps + 1):
        click(qtbot, ws.training_panel.step_button)
        qtbot.waitUntil(
            lambda k=k: ws.controller.last_metrics.step == start + k and ws.controller.settled, timeout=TIMEOUT
        )


def new_run(qtbot, ws, lr):
    """A new learning rate, then Reset: a fresh start, so a new run (a setting alone goes on training)."""
    before = ws.runs.history.current
    set_spin(qtbot, ws.training_panel.lr, lr)
    click(qtbot, ws.training_panel.reset_button)
    qtbot.waitUntil(lambda: ws.runs.history.current is not before, timeout=TIMEOUT)


def two_runs(qtbot, ws, first_steps, lr, second_steps):
    """``first_steps`` steps, then a new learning rate and Reset, then ``second_steps`` steps: the two runs."""
    train_steps(qtbot, ws, first_steps)
    first = ws.runs.history.current
    new_run(qtbot, ws, lr)
    train_steps(qtbot, ws, second_steps)
    return first, ws.runs.history.current


def runs_tab(qtbot, ws):
    ws.curves.setCurrentWidget(ws.runs_panel)
    return ws.runs_panel


def row_of(panel, run_id):
    proxy = panel.proxy
    for row in range(proxy.rowCount()):
        if panel.model.run_at(proxy.mapToSource(proxy.index(row, 0)).row()).id == run_id:
            return row
    raise AssertionError(f"no row for run {run_id}")


def click_cell(qtbot, panel, row, column, double=False):
    table = panel.table
    rect = table.visualRect(panel.proxy.index(row, column))
    qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    if double:  # a view opens its editor on a double click on the index it was pressed on
        qtbot.mouseDClick(table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())


def tick(qtbot, panel, row, column):
    """Click a check box cell on its box (the style says where the box is drawn)."""
    table = panel.table
    index = panel.proxy.index(row, column)
    option = QStyleOptionViewItem()
    option.initFrom(table)
    option.rect = table.visualRect(index)
    option.features |= QStyleOptionViewItem.ViewItemFeature.HasCheckIndicator
    box = table.style().subElementRect(QStyle.SubElement.SE_ItemViewItemCheckIndicator, option, table)
    qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=box.center())


def test_reset_keeps_the_run_and_a_new_lr_names_the_next(qtbot, ws):
    keeper = ws.runs
    train_steps(qtbot, ws, 5)
    first = keeper.history.current
    assert first.name == "first run"
    click(qtbot, ws.training_panel.reset_button)
    qtbot.waitUntil(lambda: keeper.history.current is not first, timeout=TIMEOUT)
    assert [r.id for r in keeper.history.runs] == [first.id, keeper.history.current.id]
    # the run that ended kept its last figures: 5 steps, 6 points (step 0 and five steps), a picture
    assert first.steps == 5 and first.curves["step"] == [0, 1, 2, 3, 4, 5]
    assert first.picture is not None and first.picture.kind == "classes"
    assert first.final("train_loss") == ws.controller.previous_run.train_loss

    # a new learning rate typed in the settings: the next run says what differs
    set_spin(qtbot, ws.training_panel.lr, 0.01)
    train_steps(qtbot, ws, 3)
    second = keeper.history.current
    assert second.config["lr"] == 0.01 and second.name == "lr 0.01"

    panel = runs_tab(qtbot, ws)
    names = [panel.proxy.index(r, NAME).data() for r in range(panel.proxy.rowCount())]
    assert names == ["▶ lr 0.01", "first run"]  # ▶ marks the run being trained


def test_ghost_curves_overlay_and_leave_with_a_click(qtbot, ws):
    keeper = ws.runs
    first, _ = two_runs(qtbot, ws, 4, 0.2, 2)
    panel = runs_tab(qtbot, ws)
    tick(qtbot, panel, row_of(panel, first.id), SHOW)
    assert keeper.ghosts == [first.id]
    assert [run.id for run in ws.metrics.ghosts] == [first.id]
    loss_curve, acc_curve = ws.metrics._ghost_curves[0]
    xs, ys = loss_curve.getData()
    assert xs.tolist() == first.curves["step"]
    np.testing.assert_allclose(ys, first.curves["train_loss"])
    np.testing.assert_allclose(acc_curve.getData()[1], 100 * np.array(first.curves["train_acc"]))
    assert "first run" in ws.metrics.key.text()  # the key names it
    tick(qtbot, panel, row_of(panel, first.id), SHOW)
    assert keeper.ghosts == [] and ws.metrics.ghosts == [] and ws.metrics._ghost_curves == []
    assert "first run" not in ws.metrics.key.text()


def test_restore_settings_brings_the_old_learning_rate_back(qtbot, ws):
    old_lr = ws.controller.config.lr
    first, _ = two_runs(qtbot, ws, 2, 0.3, 2)
    assert ws.controller.config.lr == 0.3
    panel = runs_tab(qtbot, ws)
    click_cell(qtbot, panel, row_of(panel, first.id), NAME)
    assert panel.restore_button.isEnabled()
    messages = []
    ws.controller.message.connect(messages.append)
    click(qtbot, panel.restore_button)
    assert ws.controller.config.lr == old_lr
    assert ws.training_panel.lr.value() == old_lr  # the panel shows it
    assert any("restored" in m for m in messages)


def test_rename_note_pin_and_delete(qtbot, ws):
    keeper = ws.runs
    train_steps(qtbot, ws, 2)
    first = keeper.history.current
    click(qtbot, ws.training_panel.reset_button)
    qtbot.waitUntil(lambda: keeper.history.current is not first, timeout=TIMEOUT)
    train_steps(qtbot, ws, 1)
    panel = runs_tab(qtbot, ws)

    click_cell(qtbot, panel, row_of(panel, first.id), NAME, double=True)
    editor = panel.table.focusWidget()
    editor.selectAll()
    qtbot.keyClicks(editor, "baseline")
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: first.name == "baseline")  # the view commits an edit just after the key
    click_cell(qtbot, panel, row_of(panel, first.id), NOTE, double=True)
    editor = panel.table.focusWidget()
    qtbot.keyClicks(editor, "the default settings")
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: first.note == "the default settings")
    # a renamed run keeps its name when the next one starts, and the table shows the name and note
    row = row_of(panel, first.id)
    assert panel.proxy.index(row, NAME).data() == "baseline"
    assert panel.proxy.index(row, NOTE).data() == "the default settings"
    # pinning: a click on the box
    tick(qtbot, panel, row, PIN)
    assert first.pinned

    click_cell(qtbot, panel, row_of(panel, first.id), NAME)
    click(qtbot, panel.delete_button)
    assert first.id not in [r.id for r in keeper.history.runs]
    # the run being trained cannot be deleted: it is on screen
    current = keeper.history.current
    click_cell(qtbot, panel, row_of(panel, current.id), NAME)
    assert not panel.delete_button.isEnabled()


def test_side_by_side_shows_both_final_pictures(qtbot, ws):
    first, second = two_runs(qtbot, ws, 3, 0.2, 3)
    panel = runs_tab(qtbot, ws)
    panel.select_runs({first.id, second.id})
    assert panel.compare_button.isEnabled()
    click(qtbot, panel.compare_button)
    dialog = ws.side_by_side
    assert dialog is not None and dialog.isVisible()
    shown = {view.picture is not None for view in dialog.views}
    assert shown == {True}
    texts = [c.text() for c in dialog.captions]
    assert any("lr 0.2" in t for t in texts) and any("first run" in t for t in texts)
    dialog.close()


def test_a_setting_during_a_run_goes_on_training_and_the_run_follows_it(qtbot, ws):
    train_steps(qtbot, ws, 2)
    run = ws.runs.history.current
    set_spin(qtbot, ws.training_panel.lr, 0.2)
    train_steps(qtbot, ws, 1)
    assert ws.runs.history.current is run and run.steps == 3  # the same run: no fresh start
    assert run.config["lr"] == 0.2 and run.name == "first run"  # its settings are the ones in force
    # a setting after the last step (then Reset) is not the run's: it never trained with it
    set_spin(qtbot, ws.training_panel.lr, 0.01)
    click(qtbot, ws.training_panel.reset_button)
    qtbot.waitUntil(lambda: ws.runs.history.current is not run, timeout=TIMEOUT)
    assert run.config["lr"] == 0.2 and ws.runs.history.current.name == "lr 0.01"


def test_a_change_that_restarts_training_belongs_to_the_next_run_not_the_one_it_ends(qtbot, ws, monkeypatch):
    """Like a preset: a new learning rate and a new network in one command while training plays.  The run that
    ends trained at the old rate; the new one is the next run's, even with steps not yet recorded."""
    import gui.runs.keeper as keeper_module

    monkeypatch.setattr(keeper_module, "RECORD_INTERVAL", 1e9)  # no recording while playing: steps unrecorded
    run = ws.runs.history.current
    old = ws.controller.config
    click(qtbot, ws.training_panel.play_button)
    qtbot.waitUntil(lambda: ws.controller.last_metrics.step >= 3, timeout=TIMEOUT)
    assert ws.controller.update_settings(lr=0.3, layers=[8])
    qtbot.waitUntil(lambda: ws.runs.history.current is not run, timeout=TIMEOUT)
    ws.controller.pause()
    assert run.steps >= 3 and run.config["lr"] == old.lr and run.config["layers"] == old.layers
    assert ws.runs.history.current.config["lr"] == 0.3 and ws.runs.history.current.config["layers"] == [8]


def test_history_is_bounded(qtbot, ws):
    keeper = ws.runs
    for _ in range(MAX_RUNS + 3):
        keeper.history.start(ws.controller.config.to_dict(), "classification")
        keeper.history.record({"step": [0, 1], "train_loss": [1.0, 0.5]}, 1, 0.1)
    assert len(keeper.history.runs) == MAX_RUNS


def test_a_saved_session_keeps_the_history_and_goes_on_with_its_last_run(qtbot, training_window, tmp_path):
    import json

    from autograd_core.session import load_session

    window = training_window
    ws = window.training
    keeper = ws.runs
    first, _ = two_runs(qtbot, ws, 3, 0.01, 2)
    panel = runs_tab(qtbot, ws)
    keeper.rename(first.id, "baseline")
    keeper.pin(first.id, True)
    path = tmp_path / "runs.agp.json"
    assert window.save_session_to(str(path))
    saved = load_session(path).runs
    assert [(r.name, r.steps, r.pinned) for r in saved] == [("baseline", 3, True), ("lr 0.01", 2, False)]
    assert saved[0].curves["step"] == [0, 1, 2, 3]

    # another run on screen, then the file again: the two runs are back, and training goes on in the last one
    new_run(qtbot, ws, 0.2)
    train_steps(qtbot, ws, 1)
    assert len(keeper.history.runs) == 3
    assert window.open_session(str(path))
    qtbot.waitUntil(lambda: ws.controller.settled and ws.controller.last_metrics.step == 2, timeout=TIMEOUT)
    assert [r.name for r in keeper.history.runs] == ["baseline", "lr 0.01"]
    assert keeper.history.current.name == "lr 0.01"
    train_steps(qtbot, ws, 1)
    assert [r.steps for r in keeper.history.runs] == [3, 3]  # the continued run grew; no new run
    names = [panel.proxy.index(r, NAME).data() for r in range(panel.proxy.rowCount())]
    assert names == ["▶ lr 0.01", "baseline"]

    # a session whose history was tampered with is refused whole: nothing on screen changes
    doc = json.loads(path.read_text())
    doc["runs"][0]["curves"]["train_loss"] = ["lots"] * 4
    bad = tmp_path / "bad.agp.json"
    bad.write_text(json.dumps(doc))
    assert not window.open_session(str(bad))
    assert window.last_warning is not None and "run" in window.last_warning.text().lower()
    window.last_warning.close()
    assert [r.name for r in keeper.history.runs] == ["baseline", "lr 0.01"]


def test_regression_runs_keep_r2_and_a_fit_and_restore_across_tasks(qtbot, ws):
    from training_gui_helpers import choose_regression, type_target

    keeper = ws.runs
    train_steps(qtbot, ws, 2)
    classification = keeper.history.current
    choose_regression(qtbot, ws)
    qtbot.waitUntil(lambda: keeper.history.current.task == "regression", timeout=TIMEOUT)
    train_steps(qtbot, ws, 3)
    fit = keeper.history.current
    assert fit.name == "regression" and fit.steps == 3 and "train_r2" in fit.curves
    assert fit.picture is not None and fit.picture.kind == "fit" and fit.picture.curve
    type_target(qtbot, ws, "x**2")
    qtbot.waitUntil(lambda: keeper.history.current is not fit, timeout=TIMEOUT)
    assert "x**2" in keeper.history.current.name
    # ghosts follow the task on screen: a classification run is not drawn on the R² plot
    panel = runs_tab(qtbot, ws)
    for run in (classification, fit):
        tick(qtbot, panel, row_of(panel, run.id), SHOW)
    assert [r.id for r in ws.metrics.ghosts] == [fit.id]
    assert panel.proxy.index(row_of(panel, fit.id), BEST).data().startswith("R²")
    # restoring the classification run brings the task back with its settings
    click_cell(qtbot, panel, row_of(panel, classification.id), NAME)
    click(qtbot, panel.restore_button)
    qtbot.waitUntil(lambda: ws.controller.task == "classification" and ws.controller.settled, timeout=TIMEOUT)
    assert [r.id for r in ws.metrics.ghosts] == [classification.id]
    # and the regression run's settings come back with its target
    click_cell(qtbot, panel, row_of(panel, fit.id), NAME)
    click(qtbot, panel.restore_button)
    qtbot.waitUntil(lambda: ws.controller.task == "regression" and ws.controller.settled, timeout=TIMEOUT)
    assert ws.controller.regression.target == "sin(3*x)"
    assert ws.training_panel.task_settings.target.text() == "sin(3*x)"


def test_the_columns_follow_the_live_runs_growing_figures(qtbot, ws):
    """Steps grow while training: the Steps column widens to the new text (once per turn, not per cell)."""
    from gui.runs.table import STEPS

    train_steps(qtbot, ws, 1)
    panel = runs_tab(qtbot, ws)
    qtbot.waitUntil(lambda: panel.table.isVisible())
    table = panel.table
    run = ws.runs.history.current
    narrow = table.columnWidth(STEPS)
    run.steps = 123_456_789
    ws.runs.changed.emit()
    text = panel.model.data(panel.model.index(0, STEPS))
    assert text == "123,456,789"
    wide = table.fontMetrics().horizontalAdvance(text)
    qtbot.waitUntil(lambda: table.columnWidth(STEPS) >= wide > narrow)
