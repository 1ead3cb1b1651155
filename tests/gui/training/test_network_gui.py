"""The network builder and diagram: real clicks build the network the trainer trains; the diagram draws its weights."""

import numpy as np
import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QColor
from training_gui_helpers import lonely_point, set_spin

from autograd_core.learn.training import Trainer
from autograd_core.numbers import format_number
from gui.plots.network_diagram import EdgeItem, NeuronItem
from gui.training.training_controller import parameter_count
from gui.training.training_style import NEGATIVE, POSITIVE

TIMEOUT = 20_000


def wait_for_sizes(qtbot, ws, sizes):
    qtbot.waitUntil(lambda: ws.controller.last_snapshot.sizes == sizes, timeout=TIMEOUT)
    ws.flush()


def test_parameter_count_formula_by_hand():
    # 2→4→3→1: (2+1)·4 + (4+1)·3 + (3+1)·1 = 12 + 15 + 4
    assert parameter_count([4, 3]) == 31
    # micrograd's MLP(2, [16, 16, 1]) has 337 parameters
    assert parameter_count([16, 16]) == 337
    assert parameter_count([]) == 3


def test_build_a_network_with_clicks(qtbot, ws):
    panel = ws.network_panel
    assert panel.layers() == list(ws.controller.config.layers)
    # remove every hidden layer, then add two and size them
    while panel.remove_buttons:
        qtbot.mouseClick(panel.remove_buttons[0], Qt.MouseButton.LeftButton)
    assert ws.controller.config.layers == []
    assert "3</b> parameters" in panel.param_count.text()
    qtbot.mouseClick(panel.add_button, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(panel.add_button, Qt.MouseButton.LeftButton)
    set_spin(qtbot, panel.layer_spins[0], 4)
    set_spin(qtbot, panel.layer_spins[1], 3)
    assert ws.controller.config.layers == [4, 3]
    assert "31</b> parameters" in panel.param_count.text()
    panel.activation.setCurrentIndex(panel.activation.findData("tanh"))
    assert ws.controller.config.activation == "tanh"

    # the trainer (in its own process) now trains exactly that network, and the diagram shows it
    wait_for_sizes(qtbot, ws, (2, 4, 3, 1))
    snap = ws.controller.last_snapshot
    assert snap.activation == "tanh"
    assert [w.shape for w, _b in snap.weights] == [(4, 2), (3, 4), (1, 3)]
    diagram = ws.diagram
    assert [len(col) for col in diagram.neurons] == [2, 4, 3, 1]
    assert len(diagram.edges) == 2 * 4 + 4 * 3 + 3 * 1
    # its initial weights are those of the same config built here (same seed rules)
    expected = Trainer(ws.controller.config).model.weight_arrays()
    for (w, b), (we, be) in zip(snap.weights, expected):
        np.testing.assert_allclose(w, we)
        np.testing.assert_allclose(b, be)


def test_edges_show_sign_and_size(qtbot, ws):
    ws.flush()
    diagram = ws.diagram
    weights = np.concatenate([w.ravel() for w, _b in ws.controller.last_snapshot.weights])
    assert len(weights) == len(diagram.edges) and (weights > 0).any() and (weights < 0).any()
    for edge, w in zip(diagram.edges, weights):
        color = edge.pen().color()
        # black (a gray: r = g = b) for positive, gold (red > blue) for negative: the sign colors, not the classes'
        if w > 0:
            assert color.red() == color.green() == color.blue(), (w, color.name())
        elif w < 0:
            assert color.red() > color.blue() + 8, (w, color.name())
    widths = np.array([e.pen().widthF() for e in diagram.edges])
    assert widths[np.argmax(np.abs(weights))] == widths.max()
    assert widths[np.argmin(np.abs(weights))] == widths.min() < widths.max()
    assert QColor(POSITIVE).red() > QColor(NEGATIVE).red()


def test_hover_shows_weight_gradient_and_bias(qtbot, ws):
    qtbot.mouseClick(ws.training_panel.step_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: ws.controller.last_metrics.step == 1, timeout=TIMEOUT)
    ws.flush()
    diagram = ws.diagram
    snap = ws.controller.last_snapshot
    view = diagram.view
    # a real mouse move over the edge from input x2 to hidden neuron 3, where no other edge is near
    edge = next(e for e in diagram.edges if e.layer == 1 and e.row == 3 and e.col == 1)
    point = view.mapFromScene(lonely_point(edge, diagram.edges))
    qtbot.mouseMove(view.viewport(), point)
    qtbot.waitUntil(lambda: diagram.info.text().startswith("weight"), timeout=5000)
    w = snap.weights[0][0][3, 1]
    g = snap.grads[0][0][3, 1]
    assert g != 0.0  # one step was taken: the gradient is there
    text = diagram.info.text()
    assert "L1.n4.w2 (x2 → L1.n4)" in text
    assert format_number(w, signed=True) in text and format_number(g, signed=True) in text
    # a neuron shows its bias and the bias gradient
    neuron = diagram.neurons[2][0]
    assert isinstance(neuron, NeuronItem)
    qtbot.mouseMove(view.viewport(), view.mapFromScene(neuron.rect().center()))
    qtbot.waitUntil(lambda: diagram.info.text().startswith("neuron"), timeout=5000)
    b = snap.weights[1][1][0]
    assert "L2.n1" in diagram.info.text() and f"b = {b:+.4g}" in diagram.info.text()
    assert isinstance(edge, EdgeItem) and edge.toolTip().startswith("weight")
    qtbot.mouseMove(view.viewport(), QPoint(1, 1))


def test_gradient_mode_and_seed(qtbot, ws):
    qtbot.mouseClick(ws.training_panel.step_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: ws.controller.last_metrics.step == 1, timeout=TIMEOUT)
    ws.flush()
    diagram = ws.diagram
    diagram.mode.setCurrentIndex(1)  # color edges by gradient
    grads = np.concatenate([g.ravel() for g, _b in ws.controller.last_snapshot.grads])
    widths = np.array([e.pen().widthF() for e in diagram.edges])
    assert widths[np.argmax(np.abs(grads))] == widths.max()
    # a new weight seed gives other initial weights (and starts again at step 0)
    before = ws.controller.last_snapshot.weights[0][0].copy()
    set_spin(qtbot, ws.network_panel.seed, 7)
    qtbot.waitUntil(
        lambda: (
            not np.allclose(ws.controller.last_snapshot.weights[0][0], before) and ws.controller.last_metrics.step == 0
        ),
        timeout=TIMEOUT,
    )
    assert ws.controller.config.seed == 7


def test_presentation_mode_and_image_export(qtbot, ws, tmp_path):
    from gui.look.theme import PLOT_TEXT_PT

    ws.set_presentation(True)
    axis = ws.boundary.plot.getPlotItem().getAxis("bottom")
    assert axis.style["tickFont"].pointSizeF() >= 1.5 * PLOT_TEXT_PT  # plot text ≥ 1.5× on a projector
    assert ws.boundary.train_points.opts["size"] == 12
    ws.set_presentation(False)
    assert axis.style["tickFont"].pointSizeF() == PLOT_TEXT_PT
    path = tmp_path / "training.png"
    ws.export_image(path)
    from PySide6.QtGui import QImage

    image = QImage(str(path))
    assert not image.isNull() and image.width() == ws.width()
    with pytest.raises(OSError, match="PNG"):
        ws.export_image(tmp_path / "training.svg")
