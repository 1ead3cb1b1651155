"""The loss slice reads the header's train loss for the same weights: a run that ends (or Pause, or Step)
brings the slice of the weights the header shows in the same snapshot, and every slice shown while training
runs names the epoch whose weights it is of, and reads that epoch's train loss."""

import pytest
from PySide6.QtCore import Qt
from training_gui_helpers import small_workspace

from autograd_core.live.training_policy import TrainingPart
from autograd_core.numbers import format_number
from tests.gui.test_true_numbers import header_train_loss, pick_edge

EPOCHS = 200  # long enough (a few seconds) for slices to arrive while the run goes on, on a fast machine too


@pytest.fixture
def ws(qtbot):
    w = small_workspace(qtbot, samples=120, layers=[8, 8], steps=EPOCHS, lr=0.1, l2=0.0, batch_size=0)  # as lesson 8
    yield w
    w.shutdown()


@pytest.mark.slow
def test_the_slice_at_the_end_of_a_run_reads_the_headers_loss_and_every_slice_its_own_epochs(qtbot, ws):
    controller = ws.controller
    pick_edge(qtbot, ws)
    shown = []  # every slice that arrived, with the train loss of each epoch known then
    controller.changed.connect(
        lambda change: (
            TrainingPart.SLICE in change.what
            and shown.append(
                (
                    controller.last_slice,
                    dict(zip(controller.history.column("step"), controller.history.column("train_loss"))),
                )
            )
        )
    )
    qtbot.mouseClick(ws.training_panel.play_button, Qt.MouseButton.LeftButton)
    # the moment the header shows the run's last epoch, the slice is of those weights and reads its number
    qtbot.waitUntil(lambda: controller.last_metrics.step == EPOCHS and not controller.running, timeout=60_000)
    ws.flush()
    sl, header = ws.loss_slice.current, header_train_loss(ws)
    assert sl is controller.last_slice
    assert sl.loss == controller.last_metrics.train_loss  # (no penalty in force: the slice's curve is the loss)
    assert sl.step == EPOCHS
    assert f"<b>Loss along L2.n4.w2</b>: {header} at L2.n4.w2 = {format_number(sl.weight)} (epoch {EPOCHS})." in (
        ws.loss_slice.caption.text()
    )
    # on the way, each slice named its epoch and read that epoch's train loss
    assert len(shown) >= 2
    for each, losses in shown:
        assert each.loss == pytest.approx(losses[each.step], rel=1e-12), each.step


def test_pause_and_step_bring_the_slice_of_the_weights_the_header_shows(qtbot, ws):
    controller = ws.controller
    pick_edge(qtbot, ws)
    for _ in range(3):
        step = controller.last_metrics.step
        qtbot.mouseClick(ws.training_panel.step_button, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda step=step: controller.last_metrics.step == step + 1, timeout=30_000)
        ws.flush()
        assert controller.last_slice.step == step + 1
        assert f"<b>Loss along L2.n4.w2</b>: {header_train_loss(ws)} at " in ws.loss_slice.caption.text()
