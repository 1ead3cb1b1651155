"""Test set-up: Qt draws offscreen (no display needed), the repo root is importable, and the training-area fixtures.

``ws`` runs the training engine in this process (``InProcessWorker``: the same
engine, commands and snapshots, driven by a timer), so a test does not pay a
child interpreter's start-up; ``process_ws`` uses the real training process,
for the tests where the process is the point.
"""

import os
import sys
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def _shown_workspace(qtbot, controller):
    from gui.training_workspace import TrainingWorkspace  # Qt only for the tests that ask for it

    w = TrainingWorkspace(controller)
    qtbot.addWidget(w)
    w.resize(1300, 800)
    w.show()
    qtbot.waitUntil(lambda: w.controller.last_snapshot is not None, timeout=30_000)
    return w


@pytest.fixture
def ws(qtbot):
    """A training workspace on the default config, shown, its engine in this process and ready."""
    from gui.training_controller import TrainingController
    from gui.training_worker import InProcessWorker

    w = _shown_workspace(qtbot, TrainingController(worker_factory=InProcessWorker))
    yield w
    w.shutdown()


@pytest.fixture
def process_ws(qtbot):
    """A training workspace on the default config, shown, with its training process ready."""
    from gui.training_controller import TrainingController

    w = _shown_workspace(qtbot, TrainingController())
    yield w
    w.shutdown()


@pytest.fixture
def in_process_training(monkeypatch):
    """Every training area built during the test (e.g. by a MainWindow) runs its engine in this process."""
    from gui.training_controller import TrainingController
    from gui.training_worker import InProcessWorker

    monkeypatch.setattr(TrainingController, "worker_factory", InProcessWorker)
