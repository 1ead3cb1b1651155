"""Linked views of the training area, with real clicks: painted data the trainer really trains on, sample
selection for the graph view, per-neuron maps, dead units, gradient edges and flow, and the loss slice."""

import math

import numpy as np
import pytest
from PySide6.QtCore import QObject, QPoint, Qt
from training_gui_helpers import lonely_point, settle, small_workspace

from autograd_core import Tensor
from autograd_core.learn.data import add_point, dataset_points, empty_dataset, make_dataset, move_point, remove_point
from autograd_core.learn.inspection import dead_units, mlp_from_arrays, parameter_index, unit_maps
from autograd_core.learn.nn import MLP
from autograd_core.learn.training import Trainer, TrainingConfig
from autograd_core.session import load_session, save_session

TIMEOUT = 30_000
LEFT = Qt.MouseButton.LeftButton


@pytest.fixture
def ws(qtbot):
    w = small_workspace(qtbot, samples=80, layers=[6, 5], steps=5000)
    yield w
    w.shutdown()


def click_plane(qtbot, ws, x, y, offset=(0, 0)):
    pos = ws.boundary.to_view(x, y) + QPoint(*offset)
    qtbot.mouseClick(ws.boundary.plot.viewport(), LEFT, pos=pos)


def empty_spot(ws):
    """A point of the visible plane far from every data point."""
    (x0, x1), (y0, y1) = ws.boundary.plot.getPlotItem().getViewBox().viewRange()
    X = ws.controller.dataset.X
    candidates = [(x0 + fx * (x1 - x0), y0 + fy * (y1 - y0)) for fx in (0.1, 0.5, 0.9) for fy in (0.1, 0.5, 0.9)]
    return max(candidates, key=lambda p: np.min(np.hypot(X[:, 0] - p[0], X[:, 1] - p[1])))


def rows(X):
    return {tuple(np.round(r, 9)) for r in np.asarray(X).tolist()}


# ------------------------------------------------------------------ library


def test_point_edits_keep_the_split_and_unit_maps_match_the_forward_pass():
    data = make_dataset("moons", 20, 0.1, 0, 0.25)
    added = add_point(data, 0.5, -0.25, 1)
    assert len(added.y_train) == len(data.y_train) + 1 and added.y_train[-1] == 1
    np.testing.assert_array_equal(added.X_test, data.X_test)  # the held-out points stay held out
    removed = remove_point(added, "test", 0)
    np.testing.assert_array_equal(removed.X_test, data.X_test[1:])
    moved = move_point(removed, "train", 2, 9.0, -9.0)
    assert moved.X_train[2].tolist() == [9.0, -9.0] and moved.y_train[2] == data.y_train[2]
    assert dataset_points(moved)[2] == [9.0, -9.0, int(data.y_train[2])]
    assert len(empty_dataset().y) == 0
    with pytest.raises(IndexError):
        remove_point(data, "train", 999)
    with pytest.raises(ValueError, match="labels"):
        add_point(data, 0.0, 0.0, 2)
    with pytest.raises(ValueError, match="finite"):
        add_point(data, math.nan, 0.0, 1)

    model = MLP(2, [4, 3, 1], "tanh", seed=3)
    twin = mlp_from_arrays(model.weight_arrays(), "tanh")
    assert twin.state_dict() == model.state_dict()
    maps = unit_maps(model, (-1.0, 2.0, -3.0, 0.0), resolution=7)
    xs, ys = np.linspace(-1, 2, 7), np.linspace(-3, 0, 7)
    _, hidden = model.forward_array(np.array([[xs[5], ys[1]]]), return_hidden=True)
    for layer in (0, 1):
        np.testing.assert_allclose(maps[layer][:, 1, 5], hidden[layer][0], atol=1e-12)


# ------------------------------------------------------------------ painted data


def test_paint_erase_drag_clear_and_the_trainer_trains_on_the_edits(qtbot, ws, tmp_path):
    boundary, controller = ws.boundary, ws.controller
    before = controller.dataset
    # Paint class 1 then class 0 with real clicks: the points show at once, before the trainer has them.
    qtbot.mouseClick(boundary.mode_buttons["paint1"], LEFT)
    x, y = empty_spot(ws)
    click_plane(qtbot, ws, x, y)
    new = controller.dataset.X_train[-1]
    assert controller.dataset.y_train[-1] == 1 and np.hypot(new[0] - x, new[1] - y) < 0.05
    assert len(boundary.train_points.data) == len(before.y_train) + 1
    qtbot.mouseClick(boundary.mode_buttons["paint0"], LEFT)
    click_plane(qtbot, ws, x, y, offset=(30, 0))
    assert controller.dataset.y_train[-1] == 0 and len(controller.dataset.y_train) == len(before.y_train) + 2
    np.testing.assert_array_equal(controller.dataset.X_test, before.X_test)  # painted points all train

    # The training process trains on the edited data: a step, then a copy of its trainer shows the points.
    qtbot.mouseClick(ws.training_panel.step_button, LEFT)
    settle(qtbot, ws)
    trainer = controller.export_trainer()
    assert rows(trainer.data.X_train) == rows(controller.dataset.X_train)
    assert trainer.step_count >= 1 and trainer.config.points == dataset_points(controller.dataset)
    assert ws.training_panel.data_box.title() == "Data (painted points)"

    # Erase: a click a few pixels off a point removes that point (the nearest), nothing else.
    qtbot.mouseClick(boundary.mode_buttons["erase"], LEFT)
    target = controller.dataset.X_train[3].copy()
    n = len(controller.dataset.y_train)
    click_plane(qtbot, ws, *target, offset=(3, -2))
    assert len(controller.dataset.y_train) == n - 1
    assert tuple(np.round(target, 9)) not in rows(controller.dataset.X_train)

    # Drag (Inspect mode): press on a point, move, release: the point moves, its label and set stay.
    qtbot.mouseClick(boundary.mode_buttons["inspect"], LEFT)
    label = controller.dataset.y_train[0]
    start = boundary.to_view(*controller.dataset.X_train[0])
    viewport = boundary.plot.viewport()
    qtbot.mousePress(viewport, LEFT, pos=start)
    qtbot.mouseMove(viewport, start + QPoint(20, 10))
    qtbot.mouseMove(viewport, start + QPoint(40, 20))
    qtbot.mouseRelease(viewport, LEFT, pos=start + QPoint(40, 20))
    moved = controller.dataset.X_train[0]
    expected = boundary.from_view(start + QPoint(40, 20))
    np.testing.assert_allclose(moved, expected, atol=1e-9)
    assert controller.dataset.y_train[0] == label

    # Sessions keep the edited data; reopening shows it.
    settle(qtbot, ws)
    path = tmp_path / "painted.json"
    ws.save_session(path)
    saved = load_session(path)
    assert rows(saved.data.X_train) == rows(controller.dataset.X_train)
    assert saved.config.points == dataset_points(controller.dataset)
    edited = controller.dataset

    # Clear all: an empty plane, a clear message, no crash; painting one point trains again.
    messages = []
    controller.message.connect(messages.append)
    qtbot.mouseClick(boundary.clear_button, LEFT)
    assert len(controller.dataset.y) == 0 and len(boundary.train_points.data) == 0
    assert any("paint at least one point" in m for m in messages)
    qtbot.mouseClick(ws.training_panel.play_button, LEFT)
    qtbot.mouseClick(boundary.mode_buttons["paint1"], LEFT)
    click_plane(qtbot, ws, x, y)
    qtbot.waitUntil(lambda: controller.settled, timeout=TIMEOUT)
    controller.pause()
    settle(qtbot, ws)
    assert len(controller.export_trainer().data.y_train) == 1

    ws.open_session(path)
    shown = lambda: controller.settled and rows(controller.dataset.X_train) == rows(edited.X_train)  # noqa: E731
    qtbot.waitUntil(shown, timeout=TIMEOUT)
    ws.flush()
    assert len(boundary.train_points.data) == len(edited.y_train)


# ------------------------------------------------------------------ sample selection


def test_clicking_a_point_selects_it_for_the_sample_graph(qtbot, ws):
    data = ws.controller.dataset
    i = int(np.argmax(data.X_train[:, 0]))  # the rightmost point: no neighbor under the pointer
    x, y, label = float(data.X_train[i, 0]), float(data.X_train[i, 1]), int(data.y_train[i])
    with qtbot.waitSignal(ws.sample_selected, timeout=5000) as blocker:
        click_plane(qtbot, ws, x, y, offset=(2, 1))
    assert blocker.args == [x, y, label]
    assert ws.boundary.selected == (x, y, label)
    assert ws.sample_entry.x.value() == pytest.approx(x, abs=1e-3)

    entry = ws.sample_entry
    entry.x.setValue(0.25)
    entry.y.setValue(-0.5)
    entry.label.setCurrentIndex(1)
    with qtbot.waitSignal(ws.sample_selected, timeout=5000) as blocker:
        qtbot.mouseClick(entry.show_button, LEFT)
    assert blocker.args == [0.25, -0.5, 1]

    # The model handed to the graph view is the snapshot's: its forward pass gives the boundary map.
    model, snap = ws.current_model(), ws.controller.last_snapshot
    assert ws.current_loss() == "bce" and model is not ws.current_model()  # a fresh copy each time
    x0, x1, y0, y1 = snap.grid.extent
    n = snap.grid.probability.shape[0]
    gx, gy = np.meshgrid(np.linspace(x0, x1, n), np.linspace(y0, y1, n))
    scores = model.forward_array(np.column_stack([gx.ravel(), gy.ravel()]))
    np.testing.assert_allclose(1 / (1 + np.exp(-scores)).reshape(n, n), snap.grid.probability, atol=1e-6)
    with qtbot.waitSignal(ws.model_changed, timeout=TIMEOUT):
        qtbot.mouseClick(ws.training_panel.step_button, LEFT)


# ------------------------------------------------------------------ diagram


def test_neuron_maps_hover_and_gradient_edges(qtbot, ws):
    qtbot.mouseClick(ws.training_panel.step_button, LEFT)
    qtbot.waitUntil(lambda: ws.controller.last_metrics.step == 1, timeout=TIMEOUT)
    settle(qtbot, ws)
    ws.frames.mark("maps", at_once=True)
    ws.flush()
    snap, diagram = ws.controller.last_snapshot, ws.diagram
    # Every hidden unit shows its own output over the boundary's extent, as the vectorised forward computes it.
    model = MLP(2, [6, 5, 1], "relu", seed=0)
    model.load_state_dict([v for W, b in snap.weights for row, bias in zip(W, b) for v in [*row, bias]])
    x0, x1, y0, y1 = snap.grid.extent
    xs, ys = np.linspace(x0, x1, 24), np.linspace(y0, y1, 24)
    gx, gy = np.meshgrid(xs, ys)
    _, hidden = model.forward_array(np.column_stack([gx.ravel(), gy.ravel()]), return_hidden=True)
    for layer, width in ((1, 6), (2, 5)):
        for j in range(width):
            assert diagram.neurons[layer][j].image_item is not None
            np.testing.assert_allclose(diagram.maps[(layer, j)].ravel(), hidden[layer - 1][:, j], atol=1e-12)

    # Hovering a unit enlarges its map with a title.
    view = diagram.view
    neuron = diagram.neurons[1][2]
    qtbot.mouseMove(view.viewport(), view.mapFromScene(neuron.rect().center()))
    qtbot.waitUntil(lambda: diagram.magnifier.isVisible(), timeout=5000)
    assert diagram.magnifier.title.text().startswith("L1.n3 (relu) output")
    qtbot.mouseMove(view.viewport(), QPoint(1, 1))
    qtbot.waitUntil(lambda: not diagram.magnifier.isVisible(), timeout=5000)

    # Gradient mode: every edge is colored by the sign of the last step's gradient, the caption says so.
    diagram.mode.setCurrentIndex(1)
    assert "gradient" in diagram.title.text()
    grads = np.concatenate([g.ravel() for g, _b in snap.grads])
    for edge, g in zip(diagram.edges, grads):
        color = edge.pen().color()
        if abs(g) > 1e-9 * np.abs(grads).max():
            if g > 0:  # the sign colors: a gray (r = g = b) for +, gold (red > blue) for −
                assert color.red() == color.green() == color.blue(), (g, color.name())
            else:
                assert color.red() > color.blue() + 8, (g, color.name())

    # Gradient flow: the tab plots each layer's gradient norm of every step (the history's grad_norms).
    ws.curves.setCurrentWidget(ws.gradient_flow)
    ws.flush()
    norms = ws.controller.history.grad_norms()
    assert norms.shape == (2, 3) and ws.controller.history.column("step").tolist() == [0.0, 1.0]
    assert np.isnan(norms[0]).all()  # step 0, before any backward pass, has no gradient
    for curve, column in zip(ws.gradient_flow.curves, norms.T):
        np.testing.assert_allclose(curve.yData, column)  # getData() is log10 on the log axis


def test_dead_units_are_marked_on_a_constructed_case(qtbot, ws, tmp_path):
    trainer = Trainer(TrainingConfig(samples=60, layers=[4], steps=100))
    weights = trainer.model.state_dict()
    # L1.n3 (weights 0, bias −1): relu(−1) = 0 for every point.  L1.n1 gets bias +5: alive everywhere.
    base = 2 * 3
    weights[base : base + 3] = [0.0, 0.0, -1.0]
    weights[2] = 5.0
    trainer.model.load_state_dict(weights)
    path = tmp_path / "dead.json"
    save_session(path, trainer)
    ws.open_session(path)
    qtbot.waitUntil(lambda: ws.controller.settled and ws.controller.last_snapshot.sizes == (2, 4, 1), timeout=TIMEOUT)
    ws.frames.mark("maps", at_once=True)
    ws.flush()
    expected = dead_units(trainer.model, trainer.data.X_train)
    assert (0, 2) in expected
    assert ws.diagram.dead == {(1, j) for _layer, j in expected}
    assert ws.diagram.neurons[1][2].dead and not ws.diagram.neurons[1][0].dead
    assert "cannot recover" in ws.diagram.describe(ws.diagram.neurons[1][2])
    assert "dead" in ws.diagram.key.text()


# ------------------------------------------------------------------ loss slice


def test_clicking_an_edge_shows_its_loss_slice_with_the_gradient_as_slope(qtbot, ws):
    qtbot.mouseClick(ws.training_panel.step_button, LEFT)
    qtbot.waitUntil(lambda: ws.controller.last_metrics.step == 1, timeout=TIMEOUT)
    settle(qtbot, ws)
    diagram = ws.diagram
    edge = next(e for e in diagram.edges if e.layer == 2 and e.row == 3 and e.col == 1)
    qtbot.mouseClick(diagram.view.viewport(), LEFT, pos=diagram.view.mapFromScene(lonely_point(edge, diagram.edges)))
    assert diagram.picked == (2, 3, 1) and ws.curves.currentWidget() is ws.loss_slice
    qtbot.waitUntil(lambda: ws.controller.last_slice is not None, timeout=TIMEOUT)
    ws.flush()
    sl = ws.loss_slice.current
    assert sl is not None and sl.name == "L2.n4.w2"

    # Independently: the full-batch training loss of these weights, built from Tensors, and one backward.
    model, config, data = ws.current_model(), ws.controller.config, ws.controller.dataset
    params = model.parameters()
    index = parameter_index(model, 1, 3, 1)
    assert sl.weight == params[index].data == ws.controller.last_snapshot.weights[1][0][3, 1]
    terms = []
    for (a, b), y in zip(data.X_train.tolist(), data.y_train.tolist()):
        z = model([Tensor(a), Tensor(b)])
        terms.append(z.softplus() - z if y else z.softplus())
    loss = Tensor.sum(terms) * (1.0 / len(terms)) + Tensor.sum(p * p for p in params) * config.l2
    loss.backward()
    assert sl.gradient == pytest.approx(params[index].grad, rel=1e-9, abs=1e-12)
    assert sl.loss == pytest.approx(loss.data, rel=1e-9)
    xs, ys = ws.loss_slice.tangent.getData()
    assert (ys[1] - ys[0]) / (xs[1] - xs[0]) == pytest.approx(params[index].grad, rel=1e-6, abs=1e-12)
    assert "Slope of the tangent" in ws.loss_slice.caption.text()

    # The green triangle is the optimizer's real next step (Adam, the default, on its next batch of 32), not the
    # SGD rule w − lr·slope: one click on Step lands the weight exactly there.
    caption = ws.loss_slice.caption.text()
    assert sl.optimizer == "adam" and "Adam's next step (lr 0.05, next batch of 32 of 60 points)" in caption
    assert sl.next_weight != pytest.approx(sl.weight - config.lr * params[index].grad, rel=1e-3)
    xs, ys = ws.loss_slice.next_point.getData()
    assert xs.tolist() == [sl.next_weight] and ys[0] == pytest.approx(sl.next_loss)
    qtbot.mouseClick(ws.training_panel.step_button, LEFT)
    qtbot.waitUntil(lambda: ws.controller.last_metrics.step == 2, timeout=TIMEOUT)
    assert ws.controller.last_snapshot.weights[1][0][3, 1] == sl.next_weight
    # The slice of the new weights follows: its dot stands where the triangle was, with a triangle of its own.
    qtbot.waitUntil(lambda: getattr(ws.controller.last_slice, "weight", None) == sl.next_weight, timeout=TIMEOUT)
    ws.flush()
    after = ws.loss_slice.current
    assert after is not None and after.weight == sl.next_weight and after.name == sl.name
    xs, _ = ws.loss_slice.now_point.getData()
    assert xs.tolist() == [sl.next_weight]
    xs, _ = ws.loss_slice.next_point.getData()
    assert xs.tolist() == [after.next_weight] and after.next_weight != sl.next_weight

    # A click on a neuron picks its bias.
    neuron = diagram.neurons[1][0]
    qtbot.mouseClick(diagram.view.viewport(), LEFT, pos=diagram.view.mapFromScene(neuron.rect().center()))
    qtbot.waitUntil(lambda: getattr(ws.controller.last_slice, "name", "") == "L1.n1.b", timeout=TIMEOUT)


def test_the_data_form_says_what_training_really_uses(qtbot, ws):
    panel, boundary, controller = ws.training_panel, ws.boundary, ws.controller
    form_rows = (panel.samples, panel.noise, panel.test_percent, panel.data_seed)
    assert all(panel.data_form.isRowVisible(w) for w in form_rows) and not panel.data_form.isRowVisible(
        panel.data_summary
    )
    # Clear the plane and paint three points: the form drops the generator's settings and says what trains.
    qtbot.mouseClick(boundary.clear_button, LEFT)
    qtbot.mouseClick(boundary.mode_buttons["paint1"], LEFT)
    for x, y in ((0.0, 0.5), (0.5, 0.0)):
        click_plane(qtbot, ws, x, y)
    qtbot.mouseClick(boundary.mode_buttons["paint0"], LEFT)
    click_plane(qtbot, ws, -0.5, 0.0)
    assert panel.dataset.currentText() == "Painted points" and panel.data_box.title() == "Data (painted points)"
    assert not any(panel.data_form.isRowVisible(w) for w in form_rows)
    summary = panel.data_summary.text()
    assert "<b>3</b> points (1 of class 0, 2 of class 1)" in summary and "no test set" in summary
    qtbot.mouseClick(panel.step_button, LEFT)
    settle(qtbot, ws)
    assert controller.last_metrics.test_acc is None and "test loss" not in panel.status.text()
    assert len(controller.export_trainer().data.y_train) == 3  # what the form says is what trains

    # Regenerate goes back to the generated data set, and the form shows its settings again.
    qtbot.mouseClick(panel.regenerate, LEFT)
    assert controller.config.points is None and controller.config.dataset == "moons"
    assert panel.dataset.currentText() == "Two moons" and panel.dataset.findData("points") < 0
    assert all(panel.data_form.isRowVisible(w) for w in form_rows) and panel.data_box.title() == "Data"
    qtbot.waitUntil(lambda: controller.settled and len(controller.dataset.y_train) == 60, timeout=TIMEOUT)


# ------------------------------------------------------------------ splitters


def test_a_splitter_drag_resizes_the_views_once_on_release(qtbot, ws):
    """Dragging a handle of the training area (boundary | diagram, views over curves) moves a marker while the
    button is held and resizes the plots and the diagram once, when it is released: each move re-laid out and
    repainted every view (a 0.1-0.5 s stall per drag)."""
    from PySide6.QtCore import QEvent, QPointF
    from PySide6.QtGui import QMouseEvent
    from PySide6.QtWidgets import QApplication

    def send(widget, kind, pos, button, held):
        event = QMouseEvent(
            kind, QPointF(pos), QPointF(widget.mapToGlobal(pos)), button, held, Qt.KeyboardModifier.NoModifier
        )
        QApplication.sendEvent(widget, event)

    # the boundary (left of the handle) narrows as the handle goes left; the curves (under it) grow as it goes up
    layout = ws.arrangement
    cases = ((layout.views, ws.boundary, QPoint(-120, 0), -120), (layout.body, ws.curves, QPoint(0, -80), 80))
    for splitter, view, step, growth in cases:
        settle(qtbot, ws)
        handle = splitter.handle(1)
        start = handle.rect().center()
        size = view.size()
        resizes = []
        view.installEventFilter(watcher := _ResizeWatcher(resizes))
        send(handle, QEvent.Type.MouseButtonPress, start, LEFT, LEFT)
        for k in range(1, 5):
            send(handle, QEvent.Type.MouseMove, start + step * (k / 4), Qt.MouseButton.NoButton, LEFT)
            qtbot.wait(10)
        assert view.size() == size and not resizes  # nothing re-laid out while the handle moves
        send(handle, QEvent.Type.MouseButtonRelease, start + step, LEFT, Qt.MouseButton.NoButton)
        qtbot.waitUntil(lambda view=view, size=size: view.size() != size, timeout=TIMEOUT)
        qtbot.wait(50)
        view.removeEventFilter(watcher)
        grown = view.height() - size.height() if step.x() == 0 else view.width() - size.width()
        assert abs(grown - growth) <= 12, (grown, growth)  # it follows the handle
        assert len(resizes) == 1, resizes


class _ResizeWatcher(QObject):
    def __init__(self, seen):
        super().__init__()
        self.seen = seen

    def eventFilter(self, watched, event):
        if event.type() == event.Type.Resize:
            self.seen.append(event.size())
        return False
