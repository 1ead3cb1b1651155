"""Tables redrawn in place: the confusion matrix keeps each cell's item across snapshots, theme switches and a
change of K, and every cell still says (and shows) what is true; the cells a shrink drops are gone."""

from types import SimpleNamespace

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QTableWidget

from autograd_core.numbers import format_percent
from gui.look.app_style import apply_theme
from gui.look.theme import palette
from gui.shell.table_cells import resize_table, table_cell
from gui.training.confusion_panel import ConfusionPanel

LEFT = Qt.MouseButton.LeftButton


def data(y_train, y_test, names=None):
    return SimpleNamespace(y_train=np.array(y_train), y_test=np.array(y_test), class_names=names)


def snapshot(pred_train, pred_test, classes):
    return SimpleNamespace(predicted_train=np.array(pred_train), predicted_test=np.array(pred_test), classes=classes)


@pytest.fixture
def light_theme():
    app = QApplication.instance()
    apply_theme(app, "light")
    yield app
    apply_theme(app, "light")


def test_resize_table_drops_the_cells_beyond_it_and_table_cell_makes_one_once(qtbot):
    table = QTableWidget()
    qtbot.addWidget(table)
    resize_table(table, 3, 3)
    first = table_cell(table, 2, 2)
    first.setText("corner")
    assert table_cell(table, 2, 2) is first and table.item(2, 2).text() == "corner"
    table.setHorizontalHeaderLabels(["a", "b", "c"])
    resize_table(table, 2, 2)
    assert (table.rowCount(), table.columnCount()) == (2, 2)
    resize_table(table, 3, 3)
    # grown back, the dropped cells and header are empty: nothing of the old corner survives
    assert table.item(2, 2) is None and table.item(0, 2) is None and table.horizontalHeaderItem(2) is None
    assert table.horizontalHeaderItem(1).text() == "b"


def test_confusion_cells_are_reused_and_true_across_theme_and_k_changes(qtbot, light_theme):
    panel = ConfusionPanel()
    qtbot.addWidget(panel)
    panel.resize(500, 300)
    panel.show()
    panel.set_labels(data([0, 1, 2, 2], [0, 1, 2, 2]))
    panel.update_snapshot(snapshot([0, 1, 2, 2], [0, 2, 2, 1], 3))
    table = panel.table
    assert (table.rowCount(), table.columnCount()) == (3, 4)
    # test points: class 2 twice, once right and once called 1
    assert [table.item(2, j).text() for j in range(4)] == ["0", "1", "1", format_percent(0.5)]
    cells = {(i, j): table.item(i, j) for i in range(3) for j in range(4)}
    assert table.item(0, 0).background().color().name() == palette("light").class_colors[0].lower()

    apply_theme(light_theme, "dark")
    # the same items, in the dark theme's colors
    assert all(table.item(i, j) is item for (i, j), item in cells.items())
    dark = palette("dark")
    shade = table.item(0, 0).background().color()
    assert shade.name() == dark.class_colors[0].lower() and shade.alphaF() == pytest.approx(0.7, abs=0.01)
    assert table.verticalHeaderItem(1).foreground().color().name() == dark.class_text[1].lower()

    # a new snapshot changes the numbers in place
    panel.update_snapshot(snapshot([0, 1, 2, 2], [0, 1, 2, 2], 3))
    assert table.item(2, 1) is cells[(2, 1)] and table.item(2, 1).text() == "0" and table.item(2, 2).text() == "2"
    assert table.item(2, 3).text() == format_percent(1.0) and table.item(2, 1).background().color().alpha() == 0

    # two classes: column 2 becomes the accuracy column (not selectable, unshaded), row 2 goes
    panel.set_labels(data([0, 1, 1], [0, 1, 1], ["cat", "dog"]))
    panel.update_snapshot(snapshot([0, 1, 0], [0, 1, 0], 2))
    assert (table.rowCount(), table.columnCount()) == (2, 3)
    assert (
        table.item(1, 2).text() == format_percent(0.5)
        and table.item(1, 2).background().style() == Qt.BrushStyle.NoBrush
    )
    assert not table.item(1, 2).flags() & Qt.ItemFlag.ItemIsSelectable
    assert table.horizontalHeaderItem(1).text() == "→ dog" and table.verticalHeaderItem(0).text() == "cat"
    assert table.item(1, 0).toolTip().startswith("1 point of dog predicted as cat")

    # three again, unnamed: column 2 is a count once more and a click on it picks its points
    panel.set_labels(data([0, 1, 2], [0, 1, 2]))
    panel.update_snapshot(snapshot([0, 1, 2], [0, 1, 2], 3))
    assert table.item(2, 2).text() == "1" and table.item(2, 2).flags() & Qt.ItemFlag.ItemIsSelectable
    assert table.item(2, 0).text() == "0" and table.horizontalHeaderItem(2).text() == "→ 2"
    assert table.item(2, 3).text() == format_percent(1.0)
    with qtbot.waitSignal(panel.cell_picked) as picked:
        qtbot.mouseClick(table.viewport(), LEFT, pos=table.visualItemRect(table.item(2, 2)).center())
    assert picked.args == ["test", 2, 2]
