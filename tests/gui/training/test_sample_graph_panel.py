"""The Sample graph area: one point's graph through a network, checked against the engine and numpy."""

import math

import numpy as np
import pytest
from PySide6.QtCore import QObject, QPoint, QSettings, Qt, Signal
from PySide6.QtGui import QImage
from PySide6.QtTest import QTest

from autograd_core import Tensor
from autograd_core.learn.losses import data_loss
from autograd_core.learn.nn import MLP
from autograd_core.numbers import format_number
from gui.training.sample_graph_panel import FOLLOW_INTERVAL_MS, SampleGraphPanel

# Any Qt warning fails these tests (the offscreen platform's own notice aside).
pytestmark = [pytest.mark.qt_log_level_fail("WARNING"), pytest.mark.qt_log_ignore("propagateSizeHints")]


class FakeTraining(QObject):
    """The training area's side of the contract: the latest network, its loss, a signal for new weights."""

    model_changed = Signal()
    sample_selected = Signal(float, float, int)

    def __init__(self, model, loss="bce"):
        super().__init__()
        self.model, self.loss = model, loss

    def current_model(self):
        return self.model

    def current_loss(self):
        return self.loss


@pytest.fixture
def training(qapp):
    return FakeTraining(MLP(2, [16, 16, 1], seed=5))


@pytest.fixture
def panel(qtbot, training):
    widget = SampleGraphPanel()
    widget.bind_training(training)
    widget.resize(1400, 850)
    qtbot.addWidget(widget)
    widget.show()
    return widget


def settle(qtbot, panel):
    qtbot.waitUntil(lambda: panel.view.graph is not None and not panel.view.busy, timeout=10000)


def enter(qtbot, panel, x: str, y: str, label: int | None = None):
    """Type a point by hand and press Show."""
    for edit, text in ((panel.x_edit, x), (panel.y_edit, y)):
        edit.clear()
        if text.isascii():
            qtbot.keyClicks(edit, text)
        else:
            edit.insert(text)  # QTest cannot type characters beyond Latin-1, such as the minus sign
    if label is not None:
        panel.label_combo.setCurrentIndex(label)
    qtbot.mouseClick(panel.show_button, Qt.MouseButton.LeftButton)


def engine_grads(model, x, y, label, loss):
    """An independent scalar backward on this one sample's loss, on the model itself."""
    model.zero_grad()
    score = model([Tensor(x), Tensor(y)])
    data_loss(loss, [score], [label]).backward()
    return score.data, dict(model.named_parameters())


def shown_parameter_grads(view):
    """Parameter name -> the gradient drawn in its box (every group expanded)."""
    out = {}
    for node, attrs in view.graph.nodes(data=True):
        if attrs["kind"] == "parameter":
            out[f"{attrs['group']}.{attrs['label']}"] = view.nodes[node].grad
    return out


def node_count_collapsed(graph, collapsed):
    return sum(1 for _, g in graph.nodes(data="group") if g not in collapsed) + len(collapsed)


@pytest.mark.parametrize("loss,fused,label", [("bce", True, 1), ("hinge", False, 1), ("mse", True, 0)])
def test_point_graph_matches_prediction_and_scalar_backward(qtbot, panel, training, loss, fused, label):
    training.loss = loss
    panel.fused_check.setChecked(fused)
    enter(qtbot, panel, "0.41", "−0.7", label)  # a true minus sign, as the header prints it
    settle(qtbot, panel)
    model = training.model
    expected_score = float(model.forward_array(np.array([[0.41, -0.7]]))[0])
    state = panel.state
    assert state.point == (0.41, -0.7) and state.label == label and state.loss_name == loss
    score_node = next(n for n, a in state.graph.nodes(data=True) if a["label"] == "score")
    assert state.graph.nodes[score_node]["data"] == pytest.approx(expected_score, rel=1e-12, abs=1e-12)
    assert panel.header.text().startswith(f"Point (0.41, −0.7), class {label}: score ")
    probability = f"P(class 1) = {format_number(1 / (1 + math.exp(-expected_score)))}"
    assert (probability in panel.header.text()) == (loss == "bce")  # σ(score) is a probability for bce only
    # the collapsed neuron boxes show each neuron's output, as numpy computes it
    _, hidden = model.forward_array(np.array([[0.41, -0.7]]), return_hidden=True)
    for j in (0, 7, 15):
        assert panel.view.nodes[f"group:L1.n{j + 1}"].value == pytest.approx(hidden[0][0, j], abs=1e-12)
        assert panel.view.nodes[f"group:L2.n{j + 1}"].value == pytest.approx(hidden[1][0, j], abs=1e-12)
    # every parameter's drawn gradient equals a scalar backward on this sample's loss
    qtbot.mouseClick(panel.expand_button, Qt.MouseButton.LeftButton)
    settle(qtbot, panel)
    score, params = engine_grads(model, 0.41, -0.7, label, loss)
    assert score == pytest.approx(expected_score, abs=1e-12)
    shown = shown_parameter_grads(panel.view)
    assert set(shown) == set(params) and len(shown) == model.num_parameters() == 337
    for name, p in params.items():
        assert shown[name] == pytest.approx(p.grad, rel=1e-9, abs=1e-12), name
    assert any(abs(g) > 1e-6 for g in shown.values())  # not a graph of zeros
    # the graph is built on a copy: the training model's weights are untouched
    assert state.sample.model is not model


@pytest.mark.qt_log_ignore("propagateSizeHints")
def test_collapse_expand_one_group_by_double_click_and_all(qtbot, panel):
    enter(qtbot, panel, "0.3", "0.2", 1)
    settle(qtbot, panel)
    view, graph = panel.view, panel.state.graph
    neurons = {f"L{k}.n{j}" for k in (1, 2) for j in range(1, 17)} | {"L3.n1"}
    # a 2-16-16-1 network starts with every neuron as one box; the loss stays open
    assert view.collapsed == neurons
    collapsed_count = node_count_collapsed(graph, neurons)
    assert len(view.nodes) == collapsed_count < 50
    box = view.nodes["group:L2.n3"]
    assert box.title == "▣ L2.n3 · relu"
    members = sum(1 for _, g in graph.nodes(data="group") if g == "L2.n3")
    assert members == 16 + 1 + 2  # weights, bias, Σwx+b, relu
    QTest.mouseDClick(view.viewport(), Qt.MouseButton.LeftButton, pos=view.mapFromScene(box.pos()))
    qtbot.waitUntil(lambda: "L2.n3" not in view.collapsed)  # opened once the click is over
    settle(qtbot, panel)
    assert "L2.n3" not in view.collapsed
    assert len(view.nodes) == collapsed_count - 1 + members
    relu = next(n for n, a in view.graph.nodes(data=True) if a.get("group") == "L2.n3" and a["op"] == "relu")
    # double-click a node inside the open group: it closes again
    QTest.mouseDClick(view.viewport(), Qt.MouseButton.LeftButton, pos=view.mapFromScene(view.nodes[relu].pos()))
    qtbot.waitUntil(lambda: "L2.n3" in view.collapsed)
    settle(qtbot, panel)
    assert len(view.nodes) == collapsed_count
    qtbot.mouseClick(panel.expand_button, Qt.MouseButton.LeftButton)
    settle(qtbot, panel)
    assert len(view.nodes) == graph.number_of_nodes() == 409 and not view.collapsed
    qtbot.mouseClick(panel.collapse_button, Qt.MouseButton.LeftButton)
    settle(qtbot, panel)
    assert len(view.nodes) == collapsed_count
    # the long form (one × and + per input) has more nodes, and opens collapsed too
    panel.fused_check.setChecked(False)
    settle(qtbot, panel)
    assert panel.state.graph.number_of_nodes() > 900 and view.collapsed == neurons
    assert len(view.nodes) == node_count_collapsed(panel.state.graph, neurons)


def test_stepping_reaches_backward_gradients_and_lights_up_collapsed_boxes(qtbot, panel, training):
    enter(qtbot, panel, "-0.5", "1.25", 0)
    settle(qtbot, panel)
    state, buttons = panel.state, panel.backward
    after_backward = state.parameter_grads()
    qtbot.mouseClick(buttons.zero_button, Qt.MouseButton.LeftButton)
    assert all(g == 0.0 for g in state.parameter_grads().values())
    # step until the backward pass enters the output neuron: its collapsed box is the one lit up
    while state.current_step is None or state.current_step.node.group != "L3.n1":
        qtbot.mouseClick(buttons.step_button, Qt.MouseButton.LeftButton)
    box = panel.view.nodes["group:L3.n1"]
    assert box.highlighted and box.current
    assert buttons.ledger.count() > 0 and "grad(" in buttons.sentences()[0]
    reached = {name for name, g in state.parameter_grads().items() if g is not None}
    assert reached == {f"L3.n1.w{i}" for i in range(1, 17)} | {"L3.n1.b"}  # the output neuron's, no deeper yet
    # the rest of the pass, on a small network (one Step click per node)
    training.model = MLP(2, [3, 1], seed=2)
    panel.fused_check.setChecked(False)
    enter(qtbot, panel, "0.7", "-0.2", 1)
    settle(qtbot, panel)
    assert state.mode == "stepping"  # the new graph keeps the stepping mode
    qtbot.mouseClick(buttons.zero_button, Qt.MouseButton.LeftButton)
    clicks = 0
    while buttons.step_button.isEnabled():
        qtbot.mouseClick(buttons.step_button, Qt.MouseButton.LeftButton)
        clicks += 1
    assert clicks == len(state.steps) == state.graph.number_of_nodes()
    stepped = state.parameter_grads()
    _, params = engine_grads(training.model, 0.7, -0.2, 1, "bce")
    assert stepped == pytest.approx({name: p.grad for name, p in params.items()}, rel=1e-12, abs=1e-15)
    assert "done" in buttons.progress.text()
    qtbot.mouseClick(buttons.backward_button, Qt.MouseButton.LeftButton)  # fresh pass after stepping
    assert state.parameter_grads() == pytest.approx(stepped, rel=1e-12, abs=1e-15)
    assert after_backward and len(after_backward) == 337


def test_follow_training_or_freeze(qtbot, panel, training):
    enter(qtbot, panel, "0.2", "-0.4", 1)
    settle(qtbot, panel)
    point = np.array([[0.2, -0.4]])
    # user choices survive new weights: an opened neuron and the stepping position
    panel.view.set_collapsed(panel.view.collapsed - {"L2.n5"})
    settle(qtbot, panel)
    for _ in range(3):
        qtbot.mouseClick(panel.backward.step_button, Qt.MouseButton.LeftButton)
    collapsed, drawn = set(panel.view.collapsed), len(panel.view.nodes)

    new = MLP(2, [16, 16, 1], seed=9)
    training.model = new
    updates = panel.updates
    for _ in range(10):  # a burst of snapshots is coalesced into one rebuild
        training.model_changed.emit()
    qtbot.waitUntil(lambda: panel.updates > updates, timeout=3000)
    qtbot.wait(FOLLOW_INTERVAL_MS + 100)
    assert panel.updates == updates + 1
    assert panel.state.score == pytest.approx(float(new.forward_array(point)[0]), abs=1e-12)
    assert panel.view.collapsed == collapsed and len(panel.view.nodes) == drawn
    assert panel.state.mode == "stepping" and panel.state.position == 3

    # frozen: new weights are noted, not shown
    qtbot.mouseClick(panel.follow_button, Qt.MouseButton.LeftButton)
    assert not panel.following and "Frozen" in panel.follow_button.text()
    frozen_score = panel.state.score
    newer = MLP(2, [16, 16, 1], seed=11)
    training.model = newer
    training.model_changed.emit()
    qtbot.wait(FOLLOW_INTERVAL_MS + 150)
    assert panel.state.score == frozen_score and "newer weights" in panel.follow_button.text()
    qtbot.mouseClick(panel.follow_button, Qt.MouseButton.LeftButton)  # follow again: catches up at once
    assert panel.following and panel.state.score == pytest.approx(float(newer.forward_array(point)[0]), abs=1e-12)

    # hidden (another tab in front): nothing is rebuilt until it is shown again
    panel.hide()
    training.model = MLP(2, [16, 16, 1], seed=12)
    updates = panel.updates
    training.model_changed.emit()
    qtbot.wait(FOLLOW_INTERVAL_MS + 150)
    assert panel.updates == updates and panel.pending_update
    panel.show()
    qtbot.waitUntil(lambda: panel.updates == updates + 1, timeout=3000)
    assert panel.state.score == pytest.approx(float(training.model.forward_array(point)[0]), abs=1e-12)


def test_bad_entries_are_explained_without_a_crash(qtbot, panel, training):
    training.model = None  # no network built yet
    enter(qtbot, panel, "0.5", "0.5")
    assert panel.error_label.isVisible() and "No network yet" in panel.error_label.text()
    assert panel.state.graph is None and panel.view.graph is None
    training.model = MLP(2, [4, 1], seed=0)
    enter(qtbot, panel, "abc", "0.5")
    assert "x1 must be a finite number" in panel.error_label.text() and panel.state.graph is None
    for word in ("nan", "inf", "1e400"):  # float() reads these; the entry does not
        enter(qtbot, panel, "0.5", word)
        assert "x2 must be a finite number" in panel.error_label.text() and panel.state.graph is None
    enter(qtbot, panel, "1,5", "-2")  # a decimal comma is accepted
    settle(qtbot, panel)
    assert not panel.error_label.isVisible() and panel.state.point == (1.5, -2.0)
    # a network with the wrong number of inputs cannot take a 2-D point
    training.model = MLP(3, [2, 1], seed=0)
    panel.y_edit.clear()
    qtbot.keyClicks(panel.y_edit, "1")
    QTest.keyClick(panel.y_edit, Qt.Key.Key_Return)  # Enter shows, like the button
    assert "3 inputs" in panel.error_label.text() and panel.state.point == (1.5, -2.0)
    training.model = MLP(2, [4, 1], seed=0)
    training.loss = "cross-entropy?"
    enter(qtbot, panel, "0", "0")
    assert "Unknown loss" in panel.error_label.text()


def test_through_the_main_window(qtbot, tmp_path, in_process_training):
    from gui.shell.main_window import MainWindow
    from gui.shell.settings import AppSettings

    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(tmp_path / "qsettings"))
    settings = AppSettings(QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat))
    window = MainWindow(settings)
    qtbot.addWidget(window)
    window.show()
    sample = window.areas["sample"]
    assert window.tabs.tabText(window.tabs.indexOf(sample)) == "Sample graph"
    training = window.training
    if not hasattr(training, "sample_selected"):
        pytest.skip("the training area's sample_selected/current_model contract has not landed yet")
    window.tabs.setCurrentWidget(training)  # the training engine starts when its area is first seen
    qtbot.waitUntil(lambda: training.current_model() is not None, timeout=15000)
    training.sample_selected.emit(0.25, -0.5, 1)  # as a click on the boundary plot in Inspect mode does
    assert window.current_area() is sample
    settle(qtbot, sample)
    model = training.current_model()
    expected = float(model.forward_array(np.array([[0.25, -0.5]]))[0])
    assert sample.state.score == pytest.approx(expected, abs=1e-12)
    assert sample.state.loss_name == training.current_loss()
    assert sample.header.text().startswith("Point (0.25, −0.5), class 1")
    # one training step: new weights reach the shown graph (following, tab visible)
    training.controller.step()

    def shows_latest_weights():
        latest = float(training.current_model().forward_array(np.array([[0.25, -0.5]]))[0])
        return latest != expected and sample.state.score == pytest.approx(latest, abs=1e-12)

    qtbot.waitUntil(shows_latest_weights, timeout=15000)
    # the window's protocol reaches the new area: zoom, theme, presentation, export
    before = sample.view.transform().m11()
    window.graph_view().zoom_in()
    assert sample.view.transform().m11() > before
    window.set_presentation(True)
    settle(qtbot, sample)
    assert sample.view.font_scale > 1
    window.set_presentation(False)
    window.set_theme("dark")
    assert sample.view.theme == "dark"
    window.set_theme("light")
    path = tmp_path / "sample.png"
    with qtbot.waitSignal(sample.view.message, check_params_cb=lambda text: text.startswith("Graph saved")):
        assert window.export_image(str(path))  # compressed on a worker thread; the view says when it is written
    assert not QImage(str(path)).isNull()


def drawn_grads(view):
    """Every drawn box's gradient (neuron boxes, inputs, the loss nodes), by node id."""
    return {node: item.grad for node, item in view.nodes.items()}


def test_backward_shows_one_pass_and_never_accumulates(qtbot, panel, training):
    """The graph opens with this point's gradients; Backward keeps them (inputs never double); Zero grad clears."""
    messages = []
    panel.status.connect(messages.append)
    enter(qtbot, panel, "0.5", "0.25", 1)
    settle(qtbot, panel)
    state, buttons = panel.state, panel.backward
    assert buttons.progress.text().startswith("Backward done")
    opened, parameters = drawn_grads(panel.view), state.parameter_grads()
    inputs = {node: item.grad for node, item in panel.view.nodes.items() if item.title in ("x1", "x2")}
    assert len(inputs) == 2 and all(g != 0.0 for g in inputs.values())
    _, params = engine_grads(training.model, 0.5, 0.25, 1, "bce")
    assert parameters == pytest.approx({name: p.grad for name, p in params.items()}, rel=1e-12, abs=1e-15)
    for _ in range(2):
        qtbot.mouseClick(buttons.backward_button, Qt.MouseButton.LeftButton)
        assert drawn_grads(panel.view) == opened and state.parameter_grads() == parameters
        assert buttons.progress.text().startswith("Backward done")
        assert messages[-1].startswith("Backward again: the same gradients")
    qtbot.mouseClick(buttons.zero_button, Qt.MouseButton.LeftButton)
    assert all(g == 0.0 for g in drawn_grads(panel.view).values())
    assert buttons.progress.text().startswith("Press Step")
    qtbot.mouseClick(buttons.backward_button, Qt.MouseButton.LeftButton)
    assert drawn_grads(panel.view) == opened and messages[-1].startswith("Backward done")
    assert "never adds up" in buttons.backward_button.toolTip()


def test_what_the_header_and_error_line_claim_stays_true(qtbot, panel, training):
    # "No network yet" goes away as soon as a network exists
    model = training.model
    training.model = None
    enter(qtbot, panel, "0.5", "0.5")
    assert panel.error_label.isVisible() and panel.error_label.text().startswith("No network yet")
    training.model = model
    training.model_changed.emit()
    assert not panel.error_label.isVisible()
    # P(class 1) = σ(score) is a probability only for cross-entropy; hinge and MSE scores are not calibrated
    enter(qtbot, panel, "0.5", "0.5", 0)
    settle(qtbot, panel)
    assert "P(class 1) = " in panel.header.text() and "bce loss" in panel.header.text()
    for loss in ("hinge", "mse"):
        training.loss = loss
        enter(qtbot, panel, "0.5", "0.5", 0)
        settle(qtbot, panel)
        header = panel.header.text()
        assert "P(class 1)" not in header and f"{loss} loss" in header
        score = panel.state.score
        assert f"score {format_number(score)}" in header and f"predicted class {1 if score > 0 else 0}" in header


def test_the_large_graph_message_goes_when_the_groups_are_collapsed(qtbot, panel, training):
    messages, withdrawn = [], []
    panel.status.connect(messages.append)
    panel.status_withdrawn.connect(withdrawn.append)
    training.model = MLP(2, [32, 32, 1], seed=3)
    panel.fused_check.setChecked(False)  # one × and + per input: well over a thousand nodes
    enter(qtbot, panel, "0.1", "0.2", 1)
    settle(qtbot, panel)
    qtbot.mouseClick(panel.expand_button, Qt.MouseButton.LeftButton)
    settle(qtbot, panel)
    assert messages[-1].startswith("Large graph:") and panel.messages.text == messages[-1]
    qtbot.mouseClick(panel.collapse_button, Qt.MouseButton.LeftButton)
    settle(qtbot, panel)
    assert withdrawn[-1] == messages[-1] and panel.messages.text == ""


def test_an_empty_sample_graph_claims_no_backward(qtbot, panel):
    assert panel.state.root is None and panel.backward.progress.text() == "No graph yet: nothing to differentiate."
    assert not panel.backward.backward_button.isEnabled() and not panel.backward.step_button.isEnabled()
    enter(qtbot, panel, "0.5", "0.25", 1)
    settle(qtbot, panel)
    assert panel.backward.progress.text().startswith("Backward done")


def test_following_training_leaves_a_view_the_user_moved_where_it_is(qtbot):
    """A small network's graph, cropped by Fit in presentation mode, stepped, then moved by a click in the
    overview map: new weights redraw the same step without pulling the view back to it."""
    training = FakeTraining(MLP(2, [3, 1], seed=5))
    panel = SampleGraphPanel()
    panel.bind_training(training)
    panel.resize(1280, 720)
    qtbot.addWidget(panel)
    panel.show()
    panel.view.set_presentation(True)
    enter(qtbot, panel, "0.2", "-0.4", 1)
    settle(qtbot, panel)
    view = panel.view
    assert view.fit_is_partial and view.overview.isVisible()
    for _ in range(3):
        qtbot.mouseClick(panel.backward.step_button, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(view.overview, Qt.MouseButton.LeftButton, pos=view.overview.rect().topLeft() + QPoint(6, 6))

    def where_the_view_is():
        # the scene point at the view's top left and the zoom: the header above may wrap to another line with
        # new numbers (how many depends on the machine's fonts), which changes the view's height, not its place
        return view.mapToScene(view.viewport().rect().topLeft()), view.transform().m11()

    moved = where_the_view_is()
    for seed in (9, 10):
        training.model = MLP(2, [3, 1], seed=seed)
        updates = panel.updates
        training.model_changed.emit()
        qtbot.waitUntil(lambda: panel.updates > updates, timeout=3000)
        settle(qtbot, panel)
        assert panel.state.position == 3
        assert where_the_view_is() == moved
