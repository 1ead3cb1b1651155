"""Your own data in the app: the import dialog (preview, column pickers, errors), drag and drop, undo/redo of every
data edit, export with predictions."""

import csv

import numpy as np
import pytest
from PySide6.QtCore import QMimeData, QPoint, QPointF, Qt, QUrl
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QApplication
from training_gui_helpers import settle, small_workspace

TIMEOUT = 30_000
LEFT = Qt.MouseButton.LeftButton


@pytest.fixture
def ws(qtbot):
    w = small_workspace(qtbot, samples=60, layers=[5], steps=5000)
    yield w
    w.shutdown()


def flower_file(tmp_path, rows=90):
    rng = np.random.default_rng(3)
    kinds = ["setosa", "versicolor", "virginica"]
    lines = ["id,length,width,kind"]
    for i in range(rows):
        k = i % 3
        lines.append(f"{i},{k * 3 + rng.normal(0, 0.3):.4f},{k * 2 + rng.normal(0, 0.3):.4f},{kinds[k]}")
    path = tmp_path / "flowers.csv"
    path.write_text("\n".join(lines) + "\n")
    return str(path)


def test_import_preview_columns_train_and_undo_redo(qtbot, ws, tmp_path):
    before = ws.controller.dataset
    dialog = ws.import_data(flower_file(tmp_path))
    dialog.wait_until_read()
    assert dialog.table is not None and "90 rows × 4 columns, comma-separated, a header row" in dialog.status.text()
    assert dialog.preview.rowCount() == 8 and dialog.preview.item(0, 3).text() == "setosa"
    dialog.choose("length", "width", "kind")
    assert dialog.ok_button.isEnabled()
    # A bad choice: the label as a feature is refused with a sentence, OK goes off.
    dialog.choose("length", "kind", "id")
    assert not dialog.ok_button.isEnabled() and "is not a number" in dialog.problem.text()
    dialog.choose("length", "width", "kind")
    qtbot.mouseClick(dialog.ok_button, LEFT)
    assert ws.controller.dataset.class_names == ["setosa", "versicolor", "virginica"]
    qtbot.waitUntil(lambda: ws.controller.last_snapshot.sizes == (2, 5, 3), timeout=TIMEOUT)
    settle(qtbot, ws)
    assert ws.boundary.classes == 3 and len(ws.controller.dataset.y) == 90
    # Step on it, then undo the import (Ctrl+Z): the generated moons come back, with two classes.
    qtbot.mouseClick(ws.training_panel.step_button, LEFT)
    settle(qtbot, ws)
    ws.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is ws, timeout=TIMEOUT)
    ws.boundary.plot.setFocus()
    qtbot.keyClick(ws.boundary.plot, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: ws.controller.last_snapshot.sizes == (2, 5, 1), timeout=TIMEOUT)
    settle(qtbot, ws)
    np.testing.assert_array_equal(ws.controller.dataset.X_train, before.X_train)
    assert ws.controller.config.points is None
    # Redo (Ctrl+Shift+Z) brings the imported flowers back.
    qtbot.keyClick(
        ws.boundary.plot, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier
    )
    qtbot.waitUntil(lambda: ws.controller.last_snapshot.sizes == (2, 5, 3), timeout=TIMEOUT)
    assert ws.controller.dataset.class_names == ["setosa", "versicolor", "virginica"]


def test_undo_redo_paint_erase_and_clear_all(qtbot, ws):
    controller, boundary = ws.controller, ws.boundary
    original = controller.dataset
    qtbot.mouseClick(boundary.mode_buttons["paint1"], LEFT)
    qtbot.mouseClick(boundary.plot.viewport(), LEFT, pos=boundary.to_view(0.0, 0.0))
    painted = controller.dataset
    assert len(painted.y_train) == len(original.y_train) + 1
    qtbot.mouseClick(boundary.clear_button, LEFT)
    assert len(controller.dataset.y) == 0
    ws.activateWindow()
    boundary.plot.setFocus()
    qtbot.keyClick(boundary.plot, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)  # undo Clear all
    np.testing.assert_array_equal(controller.dataset.X_train, painted.X_train)
    qtbot.keyClick(boundary.plot, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)  # undo the paint
    np.testing.assert_array_equal(controller.dataset.X_train, original.X_train)
    assert not controller.can_undo() and controller.can_redo()
    qtbot.keyClick(boundary.plot, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    np.testing.assert_array_equal(controller.dataset.X_train, painted.X_train)
    settle(qtbot, ws)
    trainer = controller.export_trainer()
    np.testing.assert_array_equal(trainer.data.X_train, painted.X_train)


def test_import_errors_are_shown_and_nothing_changes(qtbot, ws, tmp_path):
    before = ws.controller.dataset
    bad = tmp_path / "bad.csv"
    bad.write_text("a,b,c\n1,2,x\n3,4\n")
    dialog = ws.import_data(str(bad))
    dialog.wait_until_read()
    assert "line 3 has 2 fields; the header has 3" in dialog.problem.text()
    assert not dialog.ok_button.isEnabled()
    dialog.reject()
    fifo = tmp_path / "pipe.csv"
    import os

    os.mkfifo(fifo)
    dialog = ws.import_data(str(fifo))
    dialog.wait_until_read(5)
    assert "pipe" in dialog.problem.text()
    dialog.reject()
    assert ws.controller.dataset is before


def test_drop_a_file_opens_the_import_and_export_writes_predictions(qtbot, ws, tmp_path):
    path = flower_file(tmp_path, rows=30)
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(path)])
    enter = QDragEnterEvent(QPoint(50, 50), Qt.DropAction.CopyAction, mime, LEFT, Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(ws, enter)
    assert enter.isAccepted()
    event = QDropEvent(QPointF(50, 50), Qt.DropAction.CopyAction, mime, LEFT, Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(ws, event)
    assert ws.import_dialog is not None and ws.import_dialog.path == path
    ws.import_dialog.wait_until_read()
    ws.import_dialog.choose("length", "width", "kind")
    qtbot.mouseClick(ws.import_dialog.ok_button, LEFT)
    qtbot.waitUntil(lambda: ws.controller.last_snapshot.sizes == (2, 5, 3), timeout=TIMEOUT)
    settle(qtbot, ws)
    out = tmp_path / "pred.csv"
    with qtbot.waitSignal(ws.status, timeout=TIMEOUT, check_params_cb=lambda text: text.startswith("Wrote")):
        ws.export_predictions(str(out))
    rows = list(csv.reader(out.open()))
    assert rows[0][:5] == ["length", "width", "set", "label", "predicted"]
    assert len(rows) == 31 and {r[3] for r in rows[1:]} == {"setosa", "versicolor", "virginica"}


def test_export_writes_on_a_worker_thread_and_says_when_it_is_done(qtbot, ws, tmp_path, monkeypatch):
    """The CSV of 20,000 points is built and written off the GUI thread (the window keeps turning): the area says
    "Writing…" at once and "Wrote…" when the whole file is there; a file that cannot be written says why."""
    import threading

    from autograd_core.learn import tabular
    from gui.training import workspace_files

    assert ws.controller.update_settings(samples=20_000)
    qtbot.waitUntil(lambda: len(ws.controller.dataset.y) == 20_000 and ws.controller.settled, timeout=TIMEOUT)
    settle(qtbot, ws)
    threads = []
    real = tabular.predictions_csv

    def recorded(*args, **kwargs):  # the real function; it notes the thread it runs on
        threads.append(threading.current_thread())
        return real(*args, **kwargs)

    monkeypatch.setattr(workspace_files, "predictions_csv", recorded)
    messages = []
    ws.status.connect(messages.append)
    out = tmp_path / "big.csv"
    with qtbot.waitSignal(ws.status, timeout=TIMEOUT, check_params_cb=lambda text: text.startswith("Wrote")):
        ws.export_predictions(str(out))
        assert messages == [f"Writing 20,000 rows with predictions to {out}…"]
    assert threads and threads[0] is not threading.main_thread()
    assert messages[-1] == f"Wrote 20,000 rows with predictions to {out}."
    rows = list(csv.reader(out.open()))
    assert len(rows) == 20_001 and rows[0][:5] == ["x1", "x2", "set", "label", "predicted"]
    data = ws.controller.dataset
    assert float(rows[1][0]) == data.X_train[0, 0] and sum(r[2] == "test" for r in rows[1:]) == len(data.y_test)
    assert not list(tmp_path.glob(".big.csv.*"))  # no temporary file left beside it
    # a folder that does not exist: one line saying why, and nothing written
    bad = tmp_path / "missing" / "out.csv"
    with qtbot.waitSignal(ws.status, timeout=TIMEOUT, check_params_cb=lambda text: text.startswith("Cannot")):
        ws.export_predictions(str(bad))
    assert messages[-1].startswith(f"Cannot write {bad}: ") and not bad.exists()
