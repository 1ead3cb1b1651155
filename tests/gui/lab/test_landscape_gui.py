"""The training process answers ComputeLandscape with the path (in-process engine), and the workspace's Landscape
tab requests, draws and follows it."""

from __future__ import annotations

import pytest

from autograd_core.live.protocol import ComputeLandscape, Step
from tests.gui.training.test_training_engine import Harness


def test_the_training_process_answers_compute_landscape_with_the_path():
    h = Harness()
    h.run()
    h.send(Step(count=6))
    h.until(lambda s: s.state.step == 6)
    assert h.engine.weight_history.steps == list(range(7))
    h.send(ComputeLandscape(resolution=11, seed=2))
    snap = h.run()
    L = snap.landscape
    assert L is not None and L.losses.shape == (11, 11) and L.step == 6 and len(L.path) == 7
    assert L.center_loss == pytest.approx(h.trainer.evaluate().train_loss, rel=1e-12)
    assert h.run(advance=1.0) is snap or h.snapshots[-1].landscape is None  # answered once
    h.send(ComputeLandscape(resolution=2))  # refused: the engine says why and goes on
    snap = h.run()
    assert snap.landscape is None and "landscape" in snap.error


def test_the_landscape_tab_requests_draws_and_follows(qtbot, ws):
    from PySide6.QtCore import Qt

    index = ws.curves.indexOf(ws.landscape)
    assert ws.curves.tabText(index) == "Landscape"
    ws.curves.setCurrentIndex(index)
    qtbot.waitUntil(lambda: ws.landscape.current is not None, timeout=20_000)
    L = ws.landscape.current
    assert L.losses.shape == (41, 41) and L.mode == "random"
    assert ws.landscape.image.image.shape[:2] == (41, 41)
    assert "Training loss over θ + α·d₁ + β·d₂" in ws.landscape.caption.text()
    ws.landscape.plane_combo.setCurrentIndex(1)
    qtbot.waitUntil(lambda: ws.landscape.current is not L and ws.landscape.current.mode == "pca", timeout=20_000)
    qtbot.mouseClick(ws.landscape.refresh_button, Qt.MouseButton.LeftButton)
    assert "Computing" in ws.landscape.caption.text()
    qtbot.waitUntil(lambda: "Computing" not in ws.landscape.caption.text(), timeout=20_000)
