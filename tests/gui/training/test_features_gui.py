"""Input features in the app: typed in the network panel's editor, shown in the diagram and the maps."""

import math

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QGraphicsSimpleTextItem

TIMEOUT = 30_000
LEFT = Qt.MouseButton.LeftButton


def type_feature(qtbot, line, text):
    line.selectAll()
    qtbot.keyClick(line, Qt.Key.Key_Delete)
    qtbot.keyClicks(line, text)
    qtbot.keyClick(line, Qt.Key.Key_Return)


def test_features_editor_diagram_and_maps(qtbot, ws):
    editor = ws.network_panel.features
    qtbot.mouseClick(editor.add_button, LEFT)
    assert len(editor.lines) == 1
    # a bad feature: a message, nothing changes
    generation = ws.controller.last_snapshot.generation
    type_feature(qtbot, editor.lines[0], "x1*z")
    assert editor.error.isVisible() and "only x1 and x2" in editor.error.text()
    type_feature(qtbot, editor.lines[0], "log(x1)")
    assert "not finite" in editor.error.text()
    qtbot.wait(100)
    assert ws.controller.config.features is None and ws.controller.last_snapshot.generation == generation
    # x1*x2: three inputs in the diagram, labeled with the expression
    type_feature(qtbot, editor.lines[0], "x1*x2")
    assert not editor.error.isVisible()
    qtbot.waitUntil(lambda: ws.controller.last_snapshot.sizes[0] == 3 and ws.controller.settled, timeout=TIMEOUT)
    ws.flush()
    assert ws.controller.config.features == ["x1*x2"] and ws.controller.last_snapshot.features == ("x1*x2",)
    assert len(ws.diagram.neurons[0]) == 3
    texts = {item.text() for item in ws.diagram.scene.items() if isinstance(item, QGraphicsSimpleTextItem)}
    assert {"x1", "x2", "x1*x2"} <= texts
    assert "(3 → 16 → 16 → 1)" in ws.network_panel.param_count.text()
    # the decision regions apply the same feature: the grid is the model's forward pass with x1*x2 added
    snap = ws.controller.last_snapshot
    model = ws.controller.current_model()
    x0, x1, y0, y1 = snap.grid.extent
    n = snap.grid.probability.shape[0]
    i, j = 17, 60
    x, y = np.linspace(x0, x1, n)[j], np.linspace(y0, y1, n)[i]
    score = model([float(x), float(y)]).data
    assert snap.grid.probability[i, j] == pytest.approx(1 / (1 + math.exp(-score)), abs=1e-5)
    # remove it: two inputs again
    qtbot.mouseClick(editor.remove_buttons[0], LEFT)
    qtbot.waitUntil(lambda: ws.controller.last_snapshot.sizes[0] == 2, timeout=TIMEOUT)
    assert ws.controller.config.features is None and not editor.lines
