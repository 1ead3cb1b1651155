"""The training controller on its own (no widgets): commands in, one announcement per change out, with its
engine in this process.  A learning rate goes on with the same weights; a new network starts a new run; data
edits are undone and redone; a plane without points refuses to train and says why."""

from __future__ import annotations

import numpy as np
import pytest
from training_gui_helpers import PROCESS_WAIT_MS

from autograd_core.learn.training import TrainingConfig
from autograd_core.live.training_policy import TrainingPart
from gui.training.training_controller import NO_POINTS, TrainingController
from gui.training.training_worker import InProcessWorker


@pytest.fixture
def controller(qtbot):
    c = TrainingController(TrainingConfig(samples=40, layers=[4], steps=50), worker_factory=InProcessWorker)
    changes, messages = [], []
    c.changed.connect(changes.append)
    c.message.connect(messages.append)
    c.changes, c.messages = changes, messages
    c.start()
    qtbot.waitUntil(lambda: c.settled, timeout=PROCESS_WAIT_MS)
    yield c
    c.shutdown()


def step_and_settle(qtbot, c, steps: int = 1) -> None:
    for _ in range(steps):
        before = c.last_metrics.step
        c.step()
        qtbot.waitUntil(lambda before=before: c.settled and c.last_metrics.step > before, timeout=PROCESS_WAIT_MS)


def weights(c) -> list[np.ndarray]:
    return [W.copy() for W, _b in c.last_snapshot.weights]


def test_a_learning_rate_goes_on_with_the_trained_weights(qtbot, controller):
    c = controller
    step_and_settle(qtbot, c, 3)
    trained = weights(c)
    del c.changes[:]
    assert c.update_settings(lr=0.5)
    qtbot.waitUntil(lambda: c.settled, timeout=PROCESS_WAIT_MS)
    assert c.last_metrics.step == 3 and all(np.array_equal(a, b) for a, b in zip(trained, weights(c), strict=True))
    assert not any(TrainingPart.RUN_ENDING in change for change in c.changes)  # the same run goes on
    step_and_settle(qtbot, c)
    assert c.last_metrics.step == 4 and c.export_trainer().config.lr == 0.5  # the trainer follows it


def test_a_new_network_starts_a_new_run(qtbot, controller):
    c = controller
    step_and_settle(qtbot, c, 3)
    del c.changes[:]
    assert c.update_settings(layers=[3, 2])
    qtbot.waitUntil(lambda: c.settled, timeout=PROCESS_WAIT_MS)
    assert c.last_snapshot.sizes == (2, 3, 2, 1) and c.last_metrics.step == 0
    assert any(TrainingPart.RUN_ENDING in change for change in c.changes)  # the curves of the old run end here
    assert c.previous_run is not None and c.previous_run.step == 3  # kept for "last run: …"
    assert c.history.column("step").tolist() == [0.0]


def test_undo_and_redo_of_a_painted_point(qtbot, controller):
    c = controller
    before = c.dataset
    assert not c.can_undo()
    c.add_point(0.25, -0.5, 1)
    assert len(c.dataset.y_train) == len(before.y_train) + 1
    assert any(TrainingPart.UNDO in change for change in c.changes) and c.can_undo()
    qtbot.waitUntil(lambda: c.settled and len(c.last_snapshot.dataset.y_train) == 31, timeout=PROCESS_WAIT_MS)
    c.undo()
    assert c.dataset is before and c.can_redo()
    qtbot.waitUntil(lambda: c.settled, timeout=PROCESS_WAIT_MS)
    assert len(c.last_snapshot.dataset.y_train) == 30  # the training process trains on the data as before
    c.redo()
    assert c.dataset.X_train[-1].tolist() == [0.25, -0.5] and not c.can_redo()


def test_a_refused_setting_says_why_and_the_panels_show_what_is_in_force(qtbot, controller):
    c = controller
    del c.changes[:]
    assert not c.update_settings(lr=-1.0)
    assert c.messages[-1].startswith("Setting refused:") and c.config.lr == TrainingConfig().lr


def test_play_on_an_empty_plane_refuses_and_a_painted_point_clears_the_banner(qtbot, controller):
    c = controller
    c.clear_points()
    c.play()
    assert not c.running and c.messages[-1].startswith(NO_POINTS)
    c.add_point(0.0, 0.0, 0)
    assert c.messages[-1] == ""  # points again: the banner goes
    c.play()
    assert c.running
    c.pause()
    assert not c.running


def test_nothing_is_sent_after_shutdown(qtbot, controller):
    c = controller
    assert c.shutdown() and c.closed
    assert not c.update_settings(lr=0.2)
    c.add_point(0.0, 0.0, 0)
    assert not c.can_undo()
