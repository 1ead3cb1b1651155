"""More than two classes in the app: real clicks choose K classes, per-layer activations and iris's columns; the
map, legend, diagram, paint tools and the confusion matrix (a clicked cell rings its points) follow."""

import numpy as np
import pytest
from PySide6.QtCore import Qt
from training_gui_helpers import engine_and_worker, set_spin, settle, small_workspace

from autograd_core.learn.losses import confusion_matrix
from autograd_core.learn.training import TrainingConfig

TIMEOUT = 30_000
LEFT = Qt.MouseButton.LeftButton


@pytest.fixture
def ws(qtbot):
    w = small_workspace(qtbot, samples=90, layers=[6, 5], steps=5000)
    yield w
    w.shutdown()


def choose(combo, key):
    combo.setCurrentIndex(combo.findData(key))


def test_three_blobs_regions_legend_diagram_and_paint_tools(qtbot, ws):
    panel, boundary = ws.training_panel, ws.boundary
    choose(panel.dataset, "blobs")
    assert not panel.classes.isHidden()
    set_spin(qtbot, panel.classes, 3)
    assert ws.controller.config.classes == 3
    qtbot.waitUntil(lambda: ws.controller.last_snapshot.sizes == (2, 6, 5, 3), timeout=TIMEOUT)
    settle(qtbot, ws)
    snap = ws.controller.last_snapshot
    assert snap.classes == 3 and snap.grid.classes == 3 and snap.grid.winner is not None
    assert "(2 → 6 → 5 → 3)" in ws.network_panel.param_count.text()
    # The map paints classes (no color bar), the legend lists three, three paint tools show.
    assert boundary.classes == 3 and not boundary.colorbar.isVisible()
    assert "class 2" in boundary.key.text() and "class 3" not in boundary.key.text()
    assert [boundary.mode_buttons[f"paint{k}"].isVisible() for k in range(4)] == [True, True, True, False]
    image = boundary.image.image
    assert image.ndim == 3 and image.shape[2] == 4
    assert [len(col) for col in ws.diagram.neurons][-1] == 3
    # Paint a point of class 2: it trains, with three classes.
    qtbot.mouseClick(boundary.mode_buttons["paint2"], LEFT)
    pos = boundary.to_view(0.0, 0.0)
    qtbot.mouseClick(boundary.plot.viewport(), LEFT, pos=pos)
    assert ws.controller.dataset.y_train[-1] == 2
    qtbot.mouseClick(panel.step_button, LEFT)
    settle(qtbot, ws)
    trainer = ws.controller.export_trainer()
    assert trainer.config.points is not None and trainer.config.classes == 3 and trainer.step_count >= 1
    assert "of class 2" in panel.data_summary.text()


def test_confusion_matrix_counts_and_a_clicked_cell_rings_its_points(qtbot, ws):
    choose(ws.training_panel.dataset, "spiral")
    set_spin(qtbot, ws.training_panel.classes, 3)
    qtbot.waitUntil(lambda: ws.controller.last_snapshot.classes == 3, timeout=TIMEOUT)
    for _ in range(3):
        qtbot.mouseClick(ws.training_panel.step_button, LEFT)
    settle(qtbot, ws)
    ws.curves.setCurrentWidget(ws.confusion)
    ws.flush()
    panel = ws.confusion
    trainer = ws.controller.export_trainer()
    expected = confusion_matrix(trainer.scores(trainer.data.X_test), trainer.data.y_test, 3)
    np.testing.assert_array_equal(panel.matrix, expected)
    assert panel.table.rowCount() == 3 and panel.table.columnCount() == 4
    # Per-class accuracy column: each row's diagonal over its total.
    for k in range(3):
        assert panel.table.item(k, 3).text().rstrip("%").strip() != ""
    i, j = np.unravel_index(np.argmax(expected), expected.shape)
    rect = panel.table.visualItemRect(panel.table.item(int(i), int(j)))
    qtbot.mouseClick(panel.table.viewport(), LEFT, pos=rect.center())
    assert panel.picked == ("test", int(i), int(j))
    ringed = ws.boundary.highlight_ring.data
    assert len(ringed) == expected[i, j]
    X = trainer.data.X_test
    pred = trainer.scores(X).argmax(axis=1)
    mask = (trainer.data.y_test == i) & (pred == j)
    np.testing.assert_allclose(sorted(ringed["x"]), sorted(X[mask, 0]))
    # A second click on the same cell clears the rings.
    qtbot.mouseClick(panel.table.viewport(), LEFT, pos=rect.center())
    assert panel.picked is None and len(ws.boundary.highlight_ring.data) == 0


def test_an_activation_per_hidden_layer(qtbot, ws):
    net = ws.network_panel
    assert len(net.layer_activations) == 2
    choose(net.layer_activations[1], "tanh")
    assert ws.controller.config.activations == ["relu", "tanh"]
    qtbot.waitUntil(lambda: tuple(ws.controller.last_snapshot.activations) == ("relu", "tanh"), timeout=TIMEOUT)
    ws.flush()
    assert ws.diagram.activations == ("relu", "tanh")
    labels = [item.data(1) for item in ws.diagram.layer_labels]
    assert labels == ["6 relu", "5 tanh"]
    # Adding a layer copies the last layer's activation; the top box sets them all.
    qtbot.mouseClick(net.add_button, LEFT)
    assert ws.controller.config.activations == ["relu", "tanh", "tanh"]
    choose(net.activation, "sigmoid")
    assert ws.controller.config.activation == "sigmoid" and ws.controller.config.activations is None
    assert net.activations() == ["sigmoid"] * 3


def test_iris_offers_its_columns(qtbot, ws):
    panel = ws.training_panel
    choose(panel.dataset, "iris")
    assert panel.classes.isHidden() and not panel.columns.isHidden() and panel.samples.isHidden()
    assert ws.controller.config.num_classes == 3 and ws.controller.config.columns is None
    index = panel.columns.findText("petal length (cm) × petal width (cm)")
    assert index > 0
    panel.columns.setCurrentIndex(index)
    assert ws.controller.config.columns == [2, 3]
    qtbot.waitUntil(lambda: ws.controller.last_snapshot.classes == 3, timeout=TIMEOUT)
    settle(qtbot, ws)
    assert len(ws.controller.dataset.y) == 150
    axis = ws.boundary.plot.getPlotItem().getAxis("bottom")  # standardized columns: the title says so
    assert "petal length (standardized)" in (axis.labelText + axis.toolTip())
    ws.sample_entry.set_classes(3)
    assert ws.sample_entry.label.count() == 3


@pytest.mark.parametrize("imported", [False, True])
def test_a_restart_keeps_classes_activations_and_imported_data(imported):
    """The child's last good state (3 classes, per-layer activations, imported data with class names) restarts
    into an engine that takes the very step the old one would have taken."""
    from autograd_core.learn.data import dataset_points
    from autograd_core.learn.tabular import parse_table, table_dataset
    from autograd_core.live.protocol import ImportData, Start, Step
    from autograd_core.live.service import Engine
    from gui.training.training_worker import LocalPipe

    config = TrainingConfig(dataset="spiral", classes=3, samples=60, layers=[5, 4], activations=["tanh", "relu"])
    start = Start(config=config.to_dict())
    engine, worker, run = engine_and_worker(start)

    if imported:
        rows = "".join(f"{i % 11},{(i * 5) % 13},{['ant', 'bee', 'cow', 'dog'][i % 4]}\n" for i in range(80))
        data = table_dataset(parse_table("a,b,who\n" + rows, name="zoo"), ["a", "b"], "who")
        cfg = TrainingConfig(points=dataset_points(data), classes=4, layers=[5], activations=["tanh"])
        run(ImportData(config=cfg.to_dict(), dataset=data.to_dict()))
    run(Step(5))
    for _ in range(5):
        run()
    restart = worker.restart_state(replay=True)
    twin = Engine(restart, LocalPipe())
    assert twin.trainer.config.num_classes == (4 if imported else 3)
    assert twin.trainer.model.activations == engine.trainer.model.activations
    if imported:
        assert twin.trainer.data.class_names == ["ant", "bee", "cow", "dog"]
    engine.trainer.step()
    twin.trainer.step()
    assert twin.trainer.model.state_dict() == engine.trainer.model.state_dict()
