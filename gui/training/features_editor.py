"""The network panel's input features: extra inputs typed as expressions of x1 and x2, one line each.

Enter applies the list (a new network: its first layer gets one input per
feature), the − button removes a line, "+ Add feature" adds one.  A feature
that does not parse, uses another variable, or is not finite on the data
(``log(x1)`` with x1 < 0) gets a clear message under the lines and nothing
changes.  The expressions are parsed by ``autograd_core.language.expression``, never eval.
"""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QLineEdit, QPushButton, QVBoxLayout, QWidget

from autograd_core.learn.features import MAX_FEATURES, check_features, check_finite
from autograd_core.live.training_policy import TrainingPart


class FeaturesEditor(QWidget):
    applied = Signal()  # the features were sent (the network's inputs changed)

    def __init__(self, controller, parent=None):
        super().__init__(parent)
        self.controller = controller
        self.title = QLabel("Input features <span style='font-weight:normal'>(extra inputs from x1, x2)</span>")
        self.rows_box = QVBoxLayout()
        self.rows_box.setContentsMargins(0, 0, 0, 0)
        self.lines: list[QLineEdit] = []
        self.remove_buttons: list[QPushButton] = []
        self.add_button = QPushButton("+ Add feature")
        self.add_button.setToolTip(
            f"Another input computed from x1 and x2, e.g. x1*x2 or sin(x2) (up to {MAX_FEATURES})"
        )
        self.add_button.clicked.connect(self.add_line)
        self.error = QLabel()
        self.error.setObjectName("errorLabel")
        self.error.setWordWrap(True)
        self.error.hide()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 4, 0, 0)
        layout.addWidget(self.title)
        layout.addLayout(self.rows_box)
        layout.addWidget(self.add_button)
        layout.addWidget(self.error)
        controller.changed.connect(self._training_changed)
        self.show_config(controller.config)

    def features(self) -> list[str]:
        return [line.text().strip() for line in self.lines if line.text().strip()]

    def show_config(self, config) -> None:
        if self.features() != list(config.features or []):
            self._rebuild(list(config.features or []))

    def _training_changed(self, change) -> None:
        if TrainingPart.TASK in change:
            self._task_changed(change.task)
        if TrainingPart.CONFIG in change:
            self.show_config(change.config)

    def _task_changed(self, task: str) -> None:
        self.setVisible(task != "regression")  # features are of the plane's x1, x2

    def _rebuild(self, texts: list[str]) -> None:
        while self.lines:
            self._drop_row(len(self.lines) - 1)
        for text in texts:
            self._add_row(text)
        self.add_button.setEnabled(len(self.lines) < MAX_FEATURES)

    def _add_row(self, text: str = "") -> QLineEdit:
        line = QLineEdit(text)
        line.setPlaceholderText("e.g. x1*x2, x1**2, sin(x2)")
        line.setToolTip("An expression of x1 and x2; press Enter to apply")
        line.returnPressed.connect(self.apply)
        line.textEdited.connect(self._edited)
        remove = QPushButton("−")
        remove.setFixedWidth(28)
        remove.setToolTip("Remove this feature")
        remove.clicked.connect(self._remove_clicked)
        row = QHBoxLayout()
        row.addWidget(line, 1)
        row.addWidget(remove)
        self.rows_box.addLayout(row)
        self.lines.append(line)
        self.remove_buttons.append(remove)
        return line

    def _drop_row(self, index: int) -> None:
        row = self.rows_box.takeAt(index)
        for widget in (self.lines.pop(index), self.remove_buttons.pop(index)):
            widget.hide()
            widget.deleteLater()
        row.layout().deleteLater()

    def add_line(self) -> None:
        """A new empty line with the focus (Enter applies it)."""
        if len(self.lines) >= MAX_FEATURES:
            return
        self._add_row().setFocus()
        self.add_button.setEnabled(len(self.lines) < MAX_FEATURES)

    def _remove_clicked(self) -> None:
        if self.sender() not in self.remove_buttons:  # a click queued on a line already removed
            return
        index = self.remove_buttons.index(self.sender())
        self._drop_row(index)
        self.add_button.setEnabled(True)
        self.apply()

    def _edited(self, _text: str) -> None:
        self.error.hide()

    def apply(self) -> bool:
        """Send the typed features (checked first: a bad one is named and nothing changes)."""
        features = self.features()
        try:
            check_features(features)
            dataset = self.controller.dataset
            if features and dataset is not None:
                for X in (dataset.X_train, dataset.X_test):
                    if len(X):
                        check_finite(features, X)
        except ValueError as exc:
            self.error.setText(f"Not applied: {exc}.")
            self.error.show()
            return False
        self.error.hide()
        done = self.controller.update_settings(features=features or None)
        if done:
            self.applied.emit()
        return done
