"""Every view shows the data's own names (iris's species, PC1/PC2, a file's header); the graph keeps the one
naming scheme (x1, x2) with the human name beside it where there is room."""

import numpy as np
import pytest
from PySide6.QtCore import QPointF, Qt
from training_gui_helpers import settle, small_workspace

from autograd_core.learn.data import make_dataset
from autograd_core.learn.tabular import parse_table, table_dataset

TIMEOUT = 30_000


def test_the_command_line_picture_names_the_species(qapp):
    """The CLI's PNG draws its legend and axes from the same names (read back: the picture differs from one
    whose data has no names only where the text is)."""
    from autograd_core.learn.training import Trainer, TrainingConfig
    from gui.plots.boundary_png import render_boundary

    trainer = Trainer(TrainingConfig(dataset="iris", layers=[4], steps=1))
    named = render_boundary(trainer, 700, 560)
    trainer.data.class_names, trainer.data.feature_names = None, None
    plain = render_boundary(trainer, 700, 560)
    assert named != plain


# ------------------------------------------------------------------ the views


@pytest.fixture
def ws(qtbot):
    w = small_workspace(qtbot, samples=90, layers=[6], steps=5000)
    yield w
    w.shutdown()


def test_choosing_iris_names_species_and_components_in_every_view(qtbot, ws):
    panel, boundary = ws.training_panel, ws.boundary
    assert boundary.plot.getPlotItem().getAxis("bottom").labelText == "x1"  # moons: no names to add
    panel.dataset.setFocus()
    qtbot.keyClicks(panel.dataset, "iris")  # a real key press selects it, as a user would
    assert panel.dataset.currentData() == "iris"
    qtbot.waitUntil(lambda: ws.controller.last_snapshot.classes == 3, timeout=TIMEOUT)
    settle(qtbot, ws)
    item = boundary.plot.getPlotItem()
    assert item.getAxis("bottom").labelText == "x1 · PC1" and item.getAxis("left").labelText == "x2 · PC2"
    key = boundary.key.text()
    assert all(name in key for name in ("setosa", "versicolor", "virginica")) and "class 0" not in key
    assert boundary.mode_buttons["paint2"].text() == "Paint virginica"
    entry = ws.sample_entry.label
    assert [entry.itemText(k) for k in range(entry.count())] == ["setosa", "versicolor", "virginica"]
    ws.curves.setCurrentWidget(ws.confusion)
    settle(qtbot, ws)
    table = ws.confusion.table
    assert table.verticalHeaderItem(0).text() == "setosa" and table.horizontalHeaderItem(2).text() == "→ virginica"
    # the diagram's nodes keep x1, x2; hovering an input names its component, an output its species
    diagram = ws.diagram
    assert "input x1 (PC1)" in diagram.describe(diagram.neurons[0][0])
    assert "score of versicolor" in diagram.describe(diagram.neurons[-1][1])
    # the picture on screen shows the axis text (the label item is what pyqtgraph draws)
    assert "PC1" in item.getAxis("bottom").label.toPlainText()
    # the class-region map fades into the theme's own background: pale on light, dark on dark
    from PySide6.QtWidgets import QApplication

    from gui.look.app_style import apply_theme

    assert boundary.image.image[..., :3].mean() > 150
    try:
        apply_theme(QApplication.instance(), "dark")
        ws.set_theme("dark")
        assert boundary.image.image[..., :3].mean() < 100
    finally:
        apply_theme(QApplication.instance(), "light")
        ws.set_theme("light")
    # back to moons: the names go with iris
    panel.dataset.setFocus()
    qtbot.keyClick(panel.dataset, Qt.Key.Key_Home)  # the first data set: two moons
    assert panel.dataset.currentData() == "moons", panel.dataset.currentText()
    qtbot.waitUntil(lambda: ws.controller.last_snapshot.classes == 2, timeout=TIMEOUT)
    settle(qtbot, ws)
    assert item.getAxis("bottom").labelText == "x1" and "class 1" in boundary.key.text()
    assert boundary.plot.plain_title == "Decision boundary: P(class 1)"


def test_a_virginica_point_opens_in_the_sample_graph(qtbot, in_process_training, tmp_path):
    """Clicking a point of iris's third class shows its graph, named (it was refused: "must be 0 or 1")."""
    from PySide6.QtCore import QSettings

    from gui.shell.main_window import MainWindow
    from gui.shell.settings import AppSettings

    settings = AppSettings(QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat))
    window = MainWindow(settings)
    qtbot.addWidget(window)
    window.resize(1400, 900)
    window.show()
    training = window.training
    window.tabs.setCurrentWidget(training)
    qtbot.waitUntil(lambda: training.controller.last_snapshot is not None, timeout=TIMEOUT)
    training.training_panel.dataset.setCurrentIndex(training.training_panel.dataset.findData("iris"))
    qtbot.waitUntil(lambda: training.controller.last_snapshot.classes == 3, timeout=TIMEOUT)
    settle(qtbot, training)
    boundary = training.boundary
    X, y = boundary._X["train"], boundary._y["train"]
    i = int(np.flatnonzero(y == 2)[0])
    qtbot.mouseClick(boundary.plot.viewport(), Qt.MouseButton.LeftButton, pos=boundary.to_view(*X[i]))
    sample = window.sample
    qtbot.waitUntil(lambda: sample.state.sample is not None, timeout=TIMEOUT)
    assert sample.error_label.text() == ""
    assert sample.label_combo.currentText() == "virginica" and sample.label_combo.count() == 3
    assert "virginica" in sample.header.text()
    assert QPointF(*X[i]) == QPointF(*sample.state.point)


def test_two_named_classes_title_the_map_by_the_second(qtbot, ws):
    text = "length,width,flower\n" + "\n".join(
        f"{(i % 2) * 2 + (i * 37 % 11) / 10},{(i * 53 % 7) / 5},{'tulip' if i % 2 else 'rose'}" for i in range(40)
    )
    data = table_dataset(parse_table(text), ["length", "width"], "flower")
    assert ws.controller.import_dataset(data)
    qtbot.waitUntil(lambda: ws.controller.last_snapshot.dataset is not None, timeout=TIMEOUT)
    settle(qtbot, ws)
    boundary = ws.boundary
    assert boundary.plot.plain_title == "Decision boundary: P(tulip)"
    assert boundary.colorbar.getAxis("left").labelText == "P(tulip)"
    assert boundary.plot.getPlotItem().getAxis("left").labelText == "x2 · width (standardized)"
    assert "rose" in boundary.key.text() and boundary.mode_buttons["paint0"].text() == "Paint rose"


def test_an_axis_too_short_for_its_name_keeps_the_input_name(qtbot):
    """x2 · PC2 where the data area has room; on a short plot plain x2, the whole name in the tooltip."""
    from gui.plots.boundary_plot import BoundaryPlot

    plot = BoundaryPlot()
    qtbot.addWidget(plot)
    plot.set_dataset(make_dataset("iris"))
    plot.resize(700, 600)
    plot.show()
    left = plot.plot.getPlotItem().getAxis("left")
    qtbot.waitUntil(lambda: left.labelText == "x2 · PC2")
    assert left.toolTip() == ""
    plot.resize(700, 150)
    qtbot.waitUntil(lambda: left.labelText == "x2")
    assert left.toolTip() == "x2 · PC2" and plot.plot.getPlotItem().getAxis("bottom").labelText == "x1 · PC1"
    plot.resize(700, 600)
    qtbot.waitUntil(lambda: left.labelText == "x2 · PC2")


def test_painted_data_keeps_its_names_through_reset_clear_and_a_regression(qtbot, ws):
    """Points painted on iris's plane stay on that plane: after Reset, after a visit to the regression task (the
    classification comes back from its points) and after Clear all, the axes still read x1 · PC1 and x2 · PC2, the
    paint tools name the species, and the data keep the same points and split."""
    from PySide6.QtCore import QPoint

    panel, boundary, controller = ws.training_panel, ws.boundary, ws.controller
    panel.dataset.setCurrentIndex(panel.dataset.findData("iris"))
    qtbot.waitUntil(lambda: controller.last_snapshot.classes == 3, timeout=TIMEOUT)
    settle(qtbot, ws)
    item = boundary.plot.getPlotItem()

    def names_shown():
        return (
            item.getAxis("bottom").labelText == "x1 · PC1"
            and item.getAxis("left").labelText == "x2 · PC2"
            and boundary.mode_buttons["paint2"].text() == "Paint virginica"
            and controller.dataset.feature_names == ["PC1", "PC2"]
            and controller.dataset.class_label(0) == "setosa"
        )

    def paint(key, offset):
        qtbot.mouseClick(boundary.mode_buttons[key], Qt.MouseButton.LeftButton)
        pos = boundary.to_view(0.0, 0.0) + QPoint(*offset)
        qtbot.mouseClick(boundary.plot.viewport(), Qt.MouseButton.LeftButton, pos=pos)

    assert names_shown()
    paint("paint2", (0, 0))
    paint("paint0", (25, 10))
    settle(qtbot, ws)
    painted = controller.dataset
    assert controller.config.points is not None and names_shown()

    qtbot.mouseClick(panel.reset_button, Qt.MouseButton.LeftButton)
    settle(qtbot, ws)
    assert names_shown()

    # To regression and back: a new network on the painted points, which stay on iris's plane
    task = panel.task_settings.task
    task.setFocus()
    qtbot.keyClick(task, Qt.Key.Key_Down)  # classification → regression
    qtbot.waitUntil(lambda: controller.last_snapshot.regression is not None, timeout=TIMEOUT)
    qtbot.keyClick(task, Qt.Key.Key_Up)  # → classification
    qtbot.waitUntil(lambda: controller.last_snapshot.regression is None and controller.settled, timeout=TIMEOUT)
    settle(qtbot, ws)
    assert controller.task == "classification" and boundary.isVisible()
    assert names_shown(), (item.getAxis("bottom").labelText, controller.dataset.feature_names)
    np.testing.assert_array_equal(controller.dataset.X_train, painted.X_train)  # the same points, the same split
    np.testing.assert_array_equal(controller.dataset.X_test, painted.X_test)
    np.testing.assert_array_equal(controller.dataset.scale, painted.scale)

    # Clear all empties the plane, not its axes; the next painted point is a species on it
    messages = []
    controller.message.connect(messages.append)
    qtbot.mouseClick(boundary.clear_button, Qt.MouseButton.LeftButton)
    assert len(controller.dataset.y) == 0 and names_shown()
    assert "(Paint setosa or Paint versicolor or Paint virginica)" in messages[-1]  # the buttons it shows
    paint("paint2", (0, 0))
    settle(qtbot, ws)
    assert names_shown() and controller.dataset.class_label(controller.dataset.y_train[-1]) == "virginica"
