"""Test set-up: Qt draws offscreen (no display needed), the repo root is importable, and the shared `ws` fixture."""

import os
import sys
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


@pytest.fixture
def ws(qtbot):
    """A training workspace on the default config, shown, with its training process ready."""
    from gui.training_workspace import TrainingWorkspace  # Qt only for the tests that ask for it

    w = TrainingWorkspace()
    qtbot.addWidget(w)
    w.resize(1300, 800)
    w.show()
    # The training process's first snapshot (its start imports scikit-learn).
    qtbot.waitUntil(lambda: w.controller.last_snapshot is not None, timeout=30_000)
    yield w
    w.shutdown()
