"""File → Export run as Python / PyTorch and trained model as NumPy, with real menu clicks: the dialog shows
the script before it is saved, Save writes exactly that text, the saved script trains to the app's own figure,
and a run with no PyTorch counterpart gets one sentence instead of a script."""

import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
from export_helpers import load_module
from PySide6.QtWidgets import QMessageBox
from training_gui_helpers import set_spin

from autograd_core.export import numpy_model_script, python_export, torch_script
from autograd_core.learn.training import Trainer

ROOT = Path(__file__).resolve().parents[3]
TIMEOUT = 30_000


def test_python_export_shows_saves_and_trains_to_the_apps_figure(qtbot, training_window, tmp_path):
    ws = training_window.training
    set_spin(qtbot, ws.training_panel.steps, 4)
    set_spin(qtbot, ws.training_panel.samples, 40)
    qtbot.waitUntil(lambda: ws.controller.settled, timeout=TIMEOUT)
    training_window.menus.export_code_actions["python"].trigger()
    dialog = training_window.export_dialog
    assert dialog.isVisible() and dialog.code.isReadOnly()
    config = ws.controller.config
    assert dialog.code.toPlainText() == python_export(config).text  # what is shown is what is saved
    path = tmp_path / "run.py"
    assert dialog.save(str(path))
    assert path.read_text() == dialog.code.toPlainText()
    assert "Saved" in dialog.summary.text()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}  # the project importable, as the script's docstring says
    out = subprocess.run([sys.executable, str(path)], env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    last = out.stdout.strip().splitlines()[-1]
    assert re.fullmatch(r"train loss \S+", last)
    trainer = Trainer(config)
    trainer.run()
    assert abs(float(last.split()[-1]) - trainer.evaluate().train_loss) <= 1e-9


def test_torch_export_is_the_same_text_as_the_library_gives(qtbot, training_window):
    ws = training_window.training
    training_window.menus.export_code_actions["torch"].trigger()
    dialog = training_window.export_dialog
    assert dialog.code.toPlainText() == torch_script(ws.controller.config).text
    assert "torch" in dialog.code.toPlainText() and "autograd_core" not in dialog.code.toPlainText()


def test_numpy_model_export_predicts_like_the_network_on_screen(qtbot, training_window, tmp_path):
    ws = training_window.training
    training_window.menus.export_code_actions["numpy"].trigger()
    dialog = training_window.export_dialog
    model = ws.controller.current_model()
    assert dialog.code.toPlainText() == numpy_model_script(model, task="classification", classes=2)
    path = tmp_path / "model.py"
    assert dialog.save(str(path))
    exported = load_module(path)  # the saved file, imported as a user would
    grid = np.stack(np.meshgrid(np.linspace(-2, 3, 9), np.linspace(-2, 2, 9)), -1).reshape(-1, 2)
    np.testing.assert_allclose(
        np.ravel(exported.predict(grid)), np.ravel(model.forward_array(grid)), rtol=0, atol=1e-12
    )


def test_an_unwritable_path_is_said_and_nothing_crashes(qtbot, training_window, tmp_path):
    training_window.menus.export_code_actions["python"].trigger()
    dialog = training_window.export_dialog
    assert not dialog.save(str(tmp_path / "no such folder" / "run.py"))
    assert "Cannot write" in dialog.summary.text()


def test_the_pytorch_export_takes_the_data_on_screen_and_a_cleared_plane_gets_a_sentence(
    qtbot, training_window, monkeypatch
):
    """The first export made the data set again on the GUI thread (importing scikit-learn: 1.2 s); it takes the
    data on screen.  With every point cleared there is nothing to train on: one sentence, no script."""
    from autograd_core.learn.training import TrainingConfig

    ws = training_window.training

    def made_again(self):
        raise AssertionError("the export made the data set again")

    with monkeypatch.context() as patch:
        patch.setattr(TrainingConfig, "make_data", made_again)
        training_window.menus.export_code_actions["torch"].trigger()
    dialog = training_window.export_dialog
    assert dialog.isVisible() and "moons" in dialog.code.toPlainText()
    training_window.export_dialog.close()
    ws.boundary.clear_button.click()
    qtbot.waitUntil(lambda: ws.controller.dataset is not None and not len(ws.controller.dataset.y), timeout=10_000)
    for kind in ("python", "torch"):
        assert training_window.show_export(kind) is None
        box = training_window.findChild(QMessageBox, "exportRefusal")
        assert box is not None and "no training points" in box.text()
        box.close()
        box.deleteLater()
        qtbot.wait(10)
