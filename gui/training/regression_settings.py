"""The task choice of the Data box: classification (the plane's data sets) or regression, whose target is typed as
an expression of x in the app's own language (parsed by ``autograd_core.language.expression``, never eval), with MSE or
Huber loss and the tuned regression preset.  A target that does not parse, or uses another variable, gets a
clear message under the box and nothing changes.
"""

from __future__ import annotations

from PySide6.QtWidgets import QComboBox, QFormLayout, QLabel, QLineEdit, QPushButton, QWidget

from autograd_core.learn.regression import REGRESSION_LOSSES, target_program
from autograd_core.live.training_policy import TrainingPart

TASK_LABELS = {"classification": "Classification (two inputs)", "regression": "Regression (a curve of x)"}
REGRESSION_LOSS_LABELS = {"mse": "Mean squared error", "huber": "Huber"}


class TaskSettings(QWidget):
    """Task, target expression, regression loss and preset; commands go to the controller."""

    def __init__(self, controller, parent=None):
        super().__init__(parent)
        self.controller = controller
        self.task = QComboBox()
        for key, label in TASK_LABELS.items():
            self.task.addItem(label, key)
        self.task.setToolTip("Classify points of the plane, or fit a curve y = f(x) typed as an expression")
        self.target = QLineEdit("sin(3*x)")
        self.target.setPlaceholderText("an expression of x, e.g. sin(3*x) + 0.1*x**2")
        self.target.setToolTip("The curve to learn, in the expression language (press Enter to apply); noise is added")
        self.loss = QComboBox()
        for key in REGRESSION_LOSSES:
            self.loss.addItem(REGRESSION_LOSS_LABELS.get(key, key), key)
        self.loss.setToolTip("MSE, or Huber (quadratic near the curve, linear far from it: robust to outliers)")
        self.preset = QPushButton("Use regression preset")
        self.preset.setToolTip("2 × 16 tanh units, Adam 0.03 with a cosine schedule, 1,500 steps (R² ≈ 0.99)")
        self.error = QLabel()
        self.error.setObjectName("errorLabel")
        self.error.setWordWrap(True)
        self.error.hide()
        form = QFormLayout(self)
        form.setContentsMargins(0, 0, 0, 0)
        form.addRow("Task", self.task)
        form.addRow("Target y =", self.target)
        form.addRow("", self.error)
        form.addRow("Loss", self.loss)
        form.addRow("", self.preset)
        self.form = form
        self.task.currentIndexChanged.connect(self._task_chosen)
        self.target.returnPressed.connect(self._target_typed)
        self.target.textEdited.connect(lambda _text: self.error.hide())
        self.loss.currentIndexChanged.connect(self._loss_chosen)
        self.preset.clicked.connect(controller.use_regression_preset)
        controller.changed.connect(self._training_changed)
        self.show_task(controller.task)

    def _training_changed(self, change) -> None:
        if TrainingPart.REGRESSION in change:
            self.show_regression(change.regression)
        if TrainingPart.TASK in change:
            self.show_task(change.task)

    def show_task(self, task: str) -> None:
        index = self.task.findData(task)
        if index != self.task.currentIndex():
            self.task.blockSignals(True)
            self.task.setCurrentIndex(index)
            self.task.blockSignals(False)
        regression = task == "regression"
        for widget in (self.target, self.loss, self.preset):
            self.form.setRowVisible(widget, regression)
        self.form.setRowVisible(self.error, regression and bool(self.error.text()))

    def show_regression(self, config) -> None:
        """Show the target and loss now training (e.g. after the preset), without sending them back."""
        if self.target.text().strip() != config.target:
            self.target.setText(config.target)
        index = self.loss.findData(config.loss)
        if index != self.loss.currentIndex():
            self.loss.blockSignals(True)
            self.loss.setCurrentIndex(index)
            self.loss.blockSignals(False)

    def _task_chosen(self) -> None:
        task = self.task.currentData()
        if task == "regression" and not self._check_target():
            self.show_task("regression")  # the rows show, with the message; the old task trains on
            return
        if task == "regression":
            self.controller.set_regression(target=self.target.text().strip(), loss=self.loss.currentData())
        else:
            self.controller.set_task(task)

    def _check_target(self) -> bool:
        text = self.target.text().strip()
        try:
            target_program(text)
        except ValueError as exc:
            self.error.setText(f"Not applied: {exc}.")
            self.error.show()
            self.form.setRowVisible(self.error, True)
            return False
        self.error.hide()
        self.error.setText("")
        self.form.setRowVisible(self.error, False)
        return True

    def _target_typed(self) -> None:
        if self._check_target() and self.controller.task == "regression":
            self.controller.set_regression(target=self.target.text().strip())

    def _loss_chosen(self) -> None:
        if self.controller.task == "regression":
            self.controller.set_regression(loss=self.loss.currentData())
