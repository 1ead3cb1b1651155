"""Enter one sample by hand: x1, x2 and its label, then "Show graph".

The same request a click on a data point makes (``requested``), for a point
that is not in the data, or to type exact numbers on a projector.  A click on
the boundary plot fills the boxes, so the two ways agree.
"""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QPushButton, QWidget

from autograd_core.language.naming import class_name
from autograd_core.numbers import COMPACT

from ..shell.flow_layout import FlowLayout
from ..shell.number_box import NumberBox


def _coordinate(tooltip: str) -> NumberBox:
    spin = NumberBox(-100.0, 100.0, digits=COMPACT)
    spin.setSingleStep(0.1)
    spin.setToolTip(tooltip)
    return spin


class SampleEntry(QWidget):
    """x1, x2, label and a button; emits ``requested(x, y, label)``."""

    requested = Signal(float, float, int)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.x = _coordinate("First coordinate x1 of the sample")
        self.y = _coordinate("Second coordinate x2 of the sample")
        self.label = QComboBox()
        self.label.addItem("class 0", 0)
        self.label.addItem("class 1", 1)
        self.label.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)  # follows the font size
        self.label.setToolTip("The sample's true class: its loss (and so every gradient) depends on it")
        self.show_button = QPushButton("Show graph")
        self.show_button.setToolTip(
            "Forward this sample through the current network and its loss, and show the whole scalar graph "
            "(values and gradients) in the Sample graph tab"
        )
        self.show_button.clicked.connect(self._request)
        # Each label stays with its box; the groups wrap onto a second line when the row is too narrow.
        layout = FlowLayout(self)
        for parts in ((QLabel("Sample: x1"), self.x), (QLabel("x2"), self.y), (self.label, self.show_button)):
            group = QWidget()
            row = QHBoxLayout(group)
            row.setContentsMargins(0, 0, 0, 0)
            for part in parts:
                row.addWidget(part)
            layout.addWidget(group)

    class_names: list[str] | None = None  # the data's names for its classes (iris: setosa …)

    def set_classes(self, classes: int) -> None:
        """Offer classes 0 … classes−1, by the data's names for them when it has some."""
        texts = [class_name(k, self.class_names) for k in range(classes)]
        if texts == [self.label.itemText(k) for k in range(self.label.count())]:
            return
        current = self.label.currentIndex()
        self.label.clear()
        for k, text in enumerate(texts):
            self.label.addItem(text, k)
        self.label.setCurrentIndex(min(max(current, 0), classes - 1))

    def set_class_names(self, names: list[str] | None) -> None:
        """The data's names for its classes (None: class 0, class 1 …)."""
        self.class_names = list(names) if names else None
        self.set_classes(max(2, self.label.count()))

    def set_point(self, x: float, y: float, label: int) -> None:
        """Show a selected point's numbers (no signal)."""
        self.x.setValue(x)
        self.y.setValue(y)
        if label >= self.label.count():
            self.set_classes(label + 1)
        self.label.setCurrentIndex(int(label))

    def _request(self) -> None:
        self.requested.emit(self.x.value(), self.y.value(), int(self.label.currentData()))
