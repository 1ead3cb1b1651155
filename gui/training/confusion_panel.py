"""The confusion matrix of the test (or training) points, with each class's accuracy.

Rows are the true classes, columns the predicted ones; a cell's shade is its
share of its row.  Click a cell and its points are ringed on the decision
map (``cell_picked(part, true, predicted)``; click it again to clear).  The
numbers come from the snapshot's predicted classes
(``autograd_core.learn.losses.confusion_from_predictions``): nothing is computed
here but a count.
"""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QTableWidget,
    QVBoxLayout,
    QWidget,
)

from autograd_core.language.naming import class_name
from autograd_core.learn.losses import confusion_from_predictions, per_class_accuracy
from autograd_core.numbers import counted, format_percent

from ..look.theme import palette, readable_text, theme_notifier
from ..shell.table_cells import resize_table, table_cell

COUNT_FLAGS = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable  # a count: click it to ring its points
ACCURACY_FLAGS = Qt.ItemFlag.ItemIsEnabled


def _over(color: str, alpha: float, background: str) -> QColor:
    """``color`` at opacity ``alpha`` painted over ``background`` (what a shaded cell looks like)."""
    top, under = QColor(color), QColor(background)
    return QColor(*(round(a * alpha + b * (1 - alpha)) for a, b in zip(top.getRgb()[:3], under.getRgb()[:3])))


class ConfusionPanel(QWidget):
    """A K × K table of counts plus a per-class accuracy column; a click on a cell selects its points."""

    cell_picked = Signal(str, int, int)  # part ("train" | "test"), true class, predicted class
    cleared = Signal()

    def __init__(self, parent=None):
        super().__init__(parent)
        self.part = QComboBox()
        self.part.addItem("test points", "test")
        self.part.addItem("training points", "train")
        self.part.setToolTip("Which points the matrix counts")
        self.part.currentIndexChanged.connect(self._part_changed)
        self.caption = QLabel()
        self.caption.setObjectName("hintLabel")
        self.caption.setWordWrap(True)
        self.table = QTableWidget()
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.table.cellClicked.connect(self._clicked)
        top = QHBoxLayout()
        top.addWidget(QLabel("Count"))
        top.addWidget(self.part)
        top.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(top)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.caption)
        self.classes = 0
        self.matrix = np.zeros((0, 0), dtype=int)
        self.picked: tuple[str, int, int] | None = None
        self._labels: dict[str, np.ndarray] = {}
        self._predicted: dict[str, np.ndarray | None] = {}
        self.class_names: list[str] | None = None  # the data's names for its classes (iris: setosa …)
        self.caption.setText("Rows: true class · columns: predicted class. Click a cell to ring its points.")
        theme_notifier().changed.connect(self._theme_changed)

    def _theme_changed(self, _theme: str, _presentation: bool) -> None:
        if self.classes:
            self._draw()  # the cells take the new theme's class colors

    @property
    def current_part(self) -> str:
        part = self.part.currentData()
        if not len(self._labels.get(part, ())) and len(self._labels.get("train", ())):
            return "train"  # no test set: count the training points
        return part

    def set_labels(self, dataset) -> None:
        """The true classes of the data now trained on."""
        self._labels = {"train": np.asarray(dataset.y_train, int), "test": np.asarray(dataset.y_test, int)}
        names = getattr(dataset, "class_names", None)
        if names != self.class_names:
            self.class_names = names
            if self.classes:
                self._draw()  # the headers name the new data's classes
        self._clear_pick()

    def update_snapshot(self, snap) -> None:
        self._predicted = {"train": snap.predicted_train, "test": snap.predicted_test}
        self._refresh(snap.classes)

    def _part_changed(self) -> None:
        self._clear_pick()
        self._refresh(self.classes)

    def _refresh(self, classes: int) -> None:
        part = self.current_part
        labels, predicted = self._labels.get(part), self._predicted.get(part)
        if labels is None or predicted is None or len(labels) != len(predicted) or classes < 2:
            return
        if labels.size and labels.max() >= classes:
            return  # a picture of older data
        matrix = confusion_from_predictions(predicted, labels, classes)
        if classes == self.classes and np.array_equal(matrix, self.matrix):
            return
        self.matrix, self.classes = matrix, classes
        self._draw()

    def _draw(self) -> None:
        k = self.classes
        matrix = self.matrix
        table = self.table
        resize_table(table, k, k + 1)
        pal = palette()
        colors = pal.class_colors
        names = [class_name(c, self.class_names) for c in range(k)]
        short = names if self.class_names else [str(c) for c in range(k)]  # "→ 0" when the classes have no names
        table.setHorizontalHeaderLabels([f"→ {n}" for n in short] + ["accuracy"])
        table.setVerticalHeaderLabels(names)
        for c in range(k):
            header = table.verticalHeaderItem(c)
            header.setForeground(QColor(pal.class_text[c]))  # the class's hue, dark (light) enough to read
        totals = matrix.sum(axis=1)
        accuracy = per_class_accuracy(matrix)
        for i in range(k):
            for j in range(k):
                share = matrix[i, j] / totals[i] if totals[i] else 0.0
                item = table_cell(table, i, j)
                item.setText(str(int(matrix[i, j])))
                item.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
                item.setFlags(COUNT_FLAGS)
                alpha = 0.1 + 0.6 * share if matrix[i, j] else 0.0
                shade = QColor(colors[i] if i == j else pal.muted)
                shade.setAlphaF(alpha)
                item.setBackground(shade)
                item.setForeground(readable_text(_over(colors[i] if i == j else pal.muted, alpha, pal.base)))
                item.setToolTip(
                    f"{counted(int(matrix[i, j]), 'point')} of {names[i]} predicted as {names[j]}"
                    + ("" if not totals[i] else f" ({format_percent(share)} of {names[i]})")
                )
            acc = accuracy[i]
            cell = table_cell(table, i, k)
            cell.setText("–" if acc is None else format_percent(acc))
            cell.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
            cell.setFlags(ACCURACY_FLAGS)
            cell.setBackground(QBrush())  # (the cell may have been a shaded count before K changed)
            cell.setForeground(QBrush())
            cell.setToolTip(f"{names[i]}: the share of its points predicted right")

    def per_class(self) -> list[float | None]:
        return per_class_accuracy(self.matrix)

    def _clicked(self, row: int, column: int) -> None:
        if column >= self.classes:
            return
        pick = (self.current_part, row, column)
        if pick == self.picked:
            self._clear_pick()
            return
        self.picked = pick
        self.cell_picked.emit(*pick)

    def _clear_pick(self) -> None:
        if self.picked is not None:
            self.picked = None
            self.table.clearSelection()
            self.cleared.emit()

    def points_of(self, part: str, true: int, predicted: int) -> np.ndarray:
        """A boolean mask over ``part``'s points: class ``true`` predicted as ``predicted``."""
        labels, pred = self._labels.get(part), self._predicted.get(part)
        if labels is None or pred is None or len(labels) != len(pred):
            return np.zeros(0, dtype=bool)
        return (labels == true) & (np.asarray(pred, int) == predicted)
