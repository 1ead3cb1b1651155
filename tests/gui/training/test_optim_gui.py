"""The training panel offers every optimizer, in the order and with the labels of the core's table, and trains
with the one chosen from the keyboard."""

import math

from PySide6.QtCore import Qt

from autograd_core.learn.optim import OPTIMIZER_LABELS, OPTIMIZERS


def test_the_training_panel_offers_every_optimizer_and_trains_with_the_chosen_one(qtbot, ws):
    box = ws.training_panel.optimizer
    assert [box.itemData(i) for i in range(box.count())] == list(OPTIMIZERS)
    assert [box.itemText(i) for i in range(box.count())] == [OPTIMIZER_LABELS[k] for k in OPTIMIZERS]
    moves = list(OPTIMIZERS).index("rmsprop") - box.currentIndex()  # as a user: arrow keys on the combo
    for _ in range(abs(moves)):
        qtbot.keyClick(box, Qt.Key.Key_Down if moves > 0 else Qt.Key.Key_Up)
    assert box.currentData() == "rmsprop"
    assert ws.controller.config.optimizer == "rmsprop"
    qtbot.mouseClick(ws.training_panel.step_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: ws.controller.last_metrics is not None and ws.controller.last_metrics.step >= 1,
                    timeout=30_000)  # fmt: skip
    assert math.isfinite(ws.controller.last_metrics.train_loss) and not ws.training_panel.banner.isVisible()
