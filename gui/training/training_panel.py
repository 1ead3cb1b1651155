"""Data, training settings, play/pause/step/reset and the live status.

Three parts the workspace places where they fit: ``data_box`` and
``settings_box`` (forms) and ``controls`` (buttons, speed, status line and
the banner that explains why training stopped).  Every edit becomes a call
on the controller; every label is refreshed from the controller's signals.
"""

from __future__ import annotations

import html

import numpy as np
from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractSpinBox,
    QComboBox,
    QFormLayout,
    QFrame,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QStyle,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from autograd_core.language.naming import class_name
from autograd_core.learn.data import DATASETS, MAX_CLASSES, MULTICLASS_DATASETS, TABLE_DATASETS, table_feature_names
from autograd_core.learn.optim import OPTIMIZER_LABELS as _OPTIMIZER_NAMES
from autograd_core.learn.optim import OPTIMIZERS
from autograd_core.learn.presets import describe_preset
from autograd_core.live.training_policy import TrainingPart
from autograd_core.numbers import COMPACT, MISSING, format_fixed, format_number, format_percent

from ..look.theme import Palette, palette
from ..shell.number_box import NumberBox, WholeNumberBox
from .regression_settings import TaskSettings
from .training_controller import SPEEDS, TrainingController

DATASET_LABELS = {
    "moons": "Two moons",
    "circles": "Circles",
    "xor": "XOR",
    "blobs": "Blobs",
    "spiral": "Spiral",
    "iris": "Iris (3 species)",
    "wine": "Wine (3 cultivars)",
}
PCA = "pca"  # the columns box's entry for the first two principal components
LOSS_LABELS = {"bce": "Cross-entropy", "hinge": "Hinge", "mse": "MSE"}
OPTIMIZER_LABELS = {k: _OPTIMIZER_NAMES[k] for k in OPTIMIZERS}
SCHEDULE_LABELS = {"constant": "constant", "linear": "linear decay", "cosine": "cosine decay"}
PLAY_TEXT, PAUSE_TEXT = "Play", "Pause"
PAINTED, PAINTED_LABEL = "points", "Painted points"  # the data set entry shown while training on painted data


def banner_style(pal: Palette | None = None) -> str:
    pal = pal or palette()
    return (
        f"QFrame#trainingBanner {{ background: {pal.banner}; border: 1px solid {pal.banner_border}; "
        "border-radius: 4px; }"
        f"QFrame#trainingBanner QLabel {{ color: {pal.banner_text}; font-weight: bold; }}"
    )


def _combo(labels: dict, tooltip: str) -> QComboBox:
    box = QComboBox()
    for key, label in labels.items():
        box.addItem(label, key)
    box.setToolTip(tooltip)
    return box


def _spin(lo: int, hi: int, tooltip: str, suffix: str = "") -> WholeNumberBox:
    spin = WholeNumberBox(lo, hi)  # one change when the user is done typing, not one per digit
    spin.setToolTip(tooltip)
    if suffix:
        spin.setSuffix(suffix)
    return spin


def _double(lo: float, hi: float, tooltip: str, step: float = 0.0) -> NumberBox:
    spin = NumberBox(lo, hi, digits=COMPACT)
    spin.setToolTip(tooltip)
    if step:
        spin.setSingleStep(step)
    else:
        spin.setStepType(QAbstractSpinBox.StepType.AdaptiveDecimalStepType)
    return spin


def _select(box: QComboBox, key) -> None:
    box.setCurrentIndex(max(0, box.findData(key)))


class TrainingPanel(QWidget):
    """The data, settings and control widgets of the training area."""

    def __init__(self, controller: TrainingController, parent=None):
        super().__init__(parent)
        self.controller = controller
        self._updating = False
        self._build_data()
        self._build_settings()
        self._build_controls()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.data_box)
        layout.addWidget(self.settings_box)

        controller.changed.connect(self._training_changed)
        controller.message.connect(self.show_message)
        self.show_config(controller.config)

    # ---------------------------------------------------------------- data

    def _build_data(self) -> None:
        self.dataset = _combo(
            {k: DATASET_LABELS.get(k, k) for k in DATASETS},
            "Which data set to learn: moons, circles and XOR have two classes, blobs and spiral 2–6, "
            "iris and wine three (or painted points)",
        )
        self.classes = _spin(2, MAX_CLASSES, "Number of classes: blob centers or spiral arms")
        self.columns = QComboBox()
        self.columns.setToolTip("Which two measurements of the table to plot (or its first two principal components)")
        self.samples = _spin(10, 2000, "Number of points (train + test)")
        self.noise = _double(0.0, 2.0, "How much the points scatter around the clean shape", step=0.05)
        self.test_percent = _spin(0, 90, "Share of the points held out as a test set (hollow circles)", " %")
        self.test_percent.setSingleStep(5)
        self.data_seed = _spin(0, 2**31 - 1, "Seed of the random points: the same seed gives the same data")
        self.preset_button = QPushButton("Use tuned preset")
        self.preset_button.setToolTip(
            "Set the network, optimizer, learning rate and steps tuned for this data set (it trains reliably)"
        )
        self.preset_button.clicked.connect(self.controller.use_preset)
        self.article_button = QPushButton("The article's run")
        self.article_button.setObjectName("articlePresetButton")
        self.article_button.setToolTip(
            "Two moons (200 points, noise 0.2, all for training), 2-16-16-1 relu, sigmoid output and "
            "cross-entropy, SGD lr 0.001 on the full batch for 100 epochs: the run of the article this app grew from"
        )
        self.article_button.clicked.connect(lambda: self.controller.use_named_preset("article"))
        self.preset_text = QLabel()
        self.preset_text.setObjectName("hintLabel")
        self.preset_text.setWordWrap(True)
        self.regenerate = QPushButton("Regenerate")
        self.regenerate.setToolTip("Draw a fresh sample of points (next data seed); the network starts again")
        self.regenerate.clicked.connect(self._regenerate)
        # Painted data: what training really uses, instead of the generator's settings (which no longer apply).
        self.data_summary = QLabel()
        self.data_summary.setObjectName("paintedDataSummary")
        self.data_summary.setWordWrap(True)
        self.data_summary.setToolTip(
            "Training uses exactly these points. Pick a data set or press Regenerate to go back to generated data."
        )
        form = QFormLayout()
        form.addRow("Data set", self.dataset)
        form.addRow("", self.data_summary)
        form.addRow("Classes", self.classes)
        form.addRow("Features", self.columns)
        form.addRow("Samples", self.samples)
        form.addRow("Noise", self.noise)
        form.addRow("Test set", self.test_percent)
        form.addRow("Data seed", self.data_seed)
        form.addRow("", self.regenerate)
        self.preset_row = QWidget()
        presets = QHBoxLayout(self.preset_row)
        presets.setContentsMargins(0, 0, 0, 0)
        presets.addWidget(self.preset_button)
        presets.addWidget(self.article_button)
        form.addRow("Preset", self.preset_row)
        form.addRow("", self.preset_text)
        self.task_settings = TaskSettings(self.controller)
        form.insertRow(0, self.task_settings)
        self.data_form = form
        self.data_box = QGroupBox("Data")
        self.data_box.setLayout(form)
        self._painted = False
        self.dataset.currentIndexChanged.connect(self._send_data)
        self.columns.currentIndexChanged.connect(self._send_data)
        for spin in (self.samples, self.noise, self.test_percent, self.data_seed, self.classes):
            spin.valueChanged.connect(self._send_data)
        self._columns_for = None

    def _fill_columns(self, name: str, columns) -> None:
        """The Features box of a table (iris, wine): principal components, then every pair of columns."""
        if name != self._columns_for:
            self.columns.clear()
            self.columns.addItem("first two principal components", PCA)
            if name in TABLE_DATASETS:
                names = table_feature_names(name)
                for i in range(len(names)):
                    for j in range(i + 1, len(names)):
                        self.columns.addItem(f"{names[i]} × {names[j]}", f"{i},{j}")
            self._columns_for = name
        _select(self.columns, PCA if columns is None else f"{columns[0]},{columns[1]}")

    def _show_data_rows(self, name: str) -> None:
        """Classes for blobs and spiral, features for the tables; samples only where they apply."""
        painted = self._painted
        text = "" if painted else describe_preset(name, self.classes.value())
        self.preset_text.setText(text)
        self.preset_button.setVisible(bool(text))  # the article's run applies to any data: its row stays
        self.data_form.setRowVisible(self.preset_text, bool(text))
        self.data_form.setRowVisible(self.classes, not painted and name in MULTICLASS_DATASETS)
        self.data_form.setRowVisible(self.columns, not painted and name in TABLE_DATASETS)
        self.data_form.setRowVisible(self.samples, not painted and name not in TABLE_DATASETS)
        self._show_task(self.controller.task)

    def _training_changed(self, change) -> None:
        """The parts this panel shows, in ``TrainingPart`` order."""
        if TrainingPart.TASK in change:
            self._show_task(change.task)
        if TrainingPart.CONFIG in change:
            self.show_config(change.config)
        if TrainingPart.DATASET in change:
            self._show_data_summary(change.dataset)
        if TrainingPart.RUNNING in change:
            self._show_running(change.running)
        if TrainingPart.SNAPSHOT in change:
            self._show_status(change.snapshot)

    def _show_task(self, task: str) -> None:
        """Regression shares samples, noise, test set and seed; the plane's data set rows hide."""
        if task == "regression":
            for widget in (self.dataset, self.classes, self.columns, self.regenerate, self.preset_row):
                self.data_form.setRowVisible(widget, False)
            self.data_form.setRowVisible(self.preset_text, False)
            self.data_form.setRowVisible(self.samples, True)
            self.settings_box.layout().setRowVisible(self.loss, False)  # the regression loss is in the Data box
        elif not self.data_form.isRowVisible(self.dataset):
            for widget in (self.dataset, self.regenerate, self.preset_row):
                self.data_form.setRowVisible(widget, True)
            self._show_data_rows(self.controller.config.dataset)
            self.settings_box.layout().setRowVisible(self.loss, True)

    def _send_data(self) -> None:
        if self._updating or self.dataset.currentData() == PAINTED:
            return
        name = self.dataset.currentData()
        if name != self._columns_for:  # another table (or none): its own columns, principal components first
            self._updating = True
            self._fill_columns(name, None)
            self._updating = False
        columns = self.columns.currentData() if name in TABLE_DATASETS else None
        self.controller.update_settings(
            dataset=name,
            samples=self.samples.value(),
            noise=round(self.noise.value(), 4),
            test_fraction=self.test_percent.value() / 100.0,
            data_seed=self.data_seed.value(),
            points=None,
            classes=self.classes.value() if name in MULTICLASS_DATASETS else 2,
            columns=None if columns in (None, PCA) else [int(c) for c in columns.split(",")],
        )
        self._show_data_rows(name)
        if self._painted and self.controller.config.points is None:
            self._show_painted(False)  # generated data again: its settings come back

    def _regenerate(self) -> None:
        if self._painted:  # back to the generated data set the painting started from, with a fresh sample
            self._updating = True
            _select(self.dataset, self.controller.config.dataset)
            self._updating = False
        self.data_seed.setValue((self.data_seed.value() + 1) % self.data_seed.maximum())

    def _show_painted(self, painted: bool) -> None:
        """Painted data replaces the generator: its settings rows hide and the summary says what trains."""
        self._painted = painted
        index = self.dataset.findData(PAINTED)
        if painted and index < 0:
            self.dataset.addItem(PAINTED_LABEL, PAINTED)
        elif not painted and index >= 0:
            self.dataset.removeItem(index)
        if painted:
            _select(self.dataset, PAINTED)
        for widget in (self.noise, self.test_percent, self.data_seed):
            self.data_form.setRowVisible(widget, not painted)
        self._show_data_rows(self.controller.config.dataset)
        self.data_form.setRowVisible(self.data_summary, painted)
        self.data_box.setTitle("Data (painted points)" if painted else "Data")
        self.regenerate.setToolTip(
            "Replace the painted points with a fresh sample of the data set they started from"
            if painted
            else "Draw a fresh sample of points (next data seed); the network starts again"
        )
        self._show_data_summary(self.controller.dataset)

    def _show_data_summary(self, dataset) -> None:
        if not self._painted or dataset is None:
            return
        train, test = len(dataset.y_train), len(dataset.y_test)
        if train == 0:
            self.data_summary.setText("No training points: paint at least one.")
            return
        counts = np.bincount(np.asarray(dataset.y_train, int), minlength=self.controller.config.num_classes)
        plural = "s" if train != 1 else ""
        names = getattr(dataset, "class_names", None)
        per_class = ", ".join(f"{n} of {html.escape(class_name(k, names))}" for k, n in enumerate(counts.tolist()))
        text = f"Training uses <b>{train}</b> point{plural} ({per_class})"
        if test:
            text += f" and tests on <b>{test}</b> (hollow), kept from the generated data."
        else:
            text += "; no test set, so no test loss or accuracy."
        self.data_summary.setText(text)

    # ------------------------------------------------------------ settings

    def _build_settings(self) -> None:
        self.loss = _combo(
            LOSS_LABELS, "What the network minimizes: cross-entropy on the logit, hinge (as micrograd) or MSE"
        )
        self.optimizer = _combo(OPTIMIZER_LABELS, "How each step moves the weights along the gradient")
        self.lr = _double(0.0001, 1000.0, "Learning rate: the size of each step (changes apply at once)")
        self.schedule = _combo(
            SCHEDULE_LABELS, "Learning rate over the run: constant, or decaying to 10 % by the limit"
        )
        self.batch_size = _spin(0, 2000, "Points per step; full batch uses every training point")
        self.batch_size.setSpecialValueText("full batch")
        self.l2 = _double(0.0, 10.0, "L2 penalty: adds λ·Σw² to the loss, keeping weights small")
        self.steps = _spin(1, 1_000_000, "Training stops after this many steps (raise it to go on)")
        form = QFormLayout()
        form.addRow("Loss", self.loss)
        form.addRow("Optimizer", self.optimizer)
        form.addRow("Learning rate", self.lr)
        form.addRow("Schedule", self.schedule)
        form.addRow("Batch size", self.batch_size)
        form.addRow("L2", self.l2)
        form.addRow("Step limit", self.steps)
        self.settings_box = QGroupBox("Training")
        self.settings_box.setLayout(form)
        for box in (self.loss, self.optimizer, self.schedule):
            box.currentIndexChanged.connect(self._send_settings)
        for spin in (self.lr, self.batch_size, self.l2, self.steps):
            spin.valueChanged.connect(self._send_settings)

    def _send_settings(self) -> None:
        if self._updating:
            return
        self.controller.update_settings(
            loss=self.loss.currentData(),
            optimizer=self.optimizer.currentData(),
            lr=self.lr.value(),
            schedule=self.schedule.currentData(),
            batch_size=self.batch_size.value(),
            l2=self.l2.value(),
            steps=self.steps.value(),
        )

    # ------------------------------------------------------------ controls

    def _build_controls(self) -> None:
        # Text plus the style's media icons: a "⏸" glyph is missing from many fonts and shows as a box.
        self.play_button = QPushButton(PLAY_TEXT)
        self.play_button.setIcon(self.style().standardIcon(QStyle.StandardPixmap.SP_MediaPlay))
        self.play_button.setToolTip("Start or pause training (Space)")
        self.play_button.clicked.connect(self.controller.toggle)
        self.step_button = QPushButton("Step")
        self.step_button.setToolTip("Do exactly one update, then stop")
        self.step_button.clicked.connect(self.controller.step)
        self.reset_button = QPushButton("Reset")
        self.reset_button.setToolTip("Start again: initial weights from the seed, same data, history cleared")
        self.reset_button.clicked.connect(self.controller.reset)
        self.speed = QComboBox()
        self.speed.addItems(list(SPEEDS))
        self.speed.setToolTip("Steps per second: slow it down to follow each update")
        self.speed.currentTextChanged.connect(self.controller.set_speed)
        for button in (self.play_button, self.step_button, self.reset_button):
            button.setMinimumWidth(button.fontMetrics().horizontalAdvance(PAUSE_TEXT) + 44)

        self.status = QLabel()
        self.status.setTextFormat(Qt.TextFormat.RichText)
        self.status.setWordWrap(True)
        self.status.setMinimumWidth(120)
        self.status.setToolTip("Step, epoch (passes over the training set), loss and accuracy on train and test")
        self.banner = QFrame()
        self.banner.setObjectName("trainingBanner")
        self.banner.setStyleSheet(banner_style())
        self.banner_text = QLabel()
        self.banner_text.setWordWrap(True)
        self.banner_text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        close = QToolButton()
        close.setText("×")
        close.setToolTip("Hide this message")
        close.clicked.connect(lambda: self.show_message(""))
        banner_layout = QHBoxLayout(self.banner)
        banner_layout.setContentsMargins(8, 4, 4, 4)
        banner_layout.addWidget(self.banner_text, 1)
        banner_layout.addWidget(close)
        self.banner.hide()

        buttons = QHBoxLayout()
        for w in (self.play_button, self.step_button, self.reset_button):
            buttons.addWidget(w)
        self.speed_label = QLabel("Speed")
        buttons.addWidget(self.speed_label)
        buttons.addWidget(self.speed)
        buttons.addSpacing(12)
        buttons.addWidget(self.status, 1)
        self.controls = QWidget()
        v = QVBoxLayout(self.controls)
        v.setContentsMargins(0, 0, 0, 0)
        v.addLayout(buttons)
        v.addWidget(self.banner)

    def _show_running(self, running: bool) -> None:
        self.play_button.setText(PAUSE_TEXT if running else PLAY_TEXT)
        icon = QStyle.StandardPixmap.SP_MediaPause if running else QStyle.StandardPixmap.SP_MediaPlay
        self.play_button.setIcon(self.style().standardIcon(icon))
        self._show_status(self.controller.last_snapshot)

    def apply_palette(self, pal: Palette) -> None:
        self.banner.setStyleSheet(banner_style(pal))

    def show_message(self, text: str) -> None:
        """The banner (the training area shows it under its views): why training stopped, or a refused setting."""
        self.banner_text.setText(text)
        self.banner.setVisible(bool(text))

    def _show_status(self, snap) -> None:
        """Step and metrics, then the state, read from the controller like the Play button (never disagree)."""
        m = self.controller.last_metrics
        if m is None:  # nothing measured (no training point yet): blank figures, and no test set to speak of
            score = "R²" if self.controller.task == "regression" else "acc"
            parts = [f"<b>step {MISSING}</b>", f"train loss {MISSING} · {score} {MISSING}"]
        elif self.controller.config.batch_size == 0:  # one step is one pass over all the data: say "epoch"
            parts = [f"<b>epoch {m.step}</b> · full batch"]
        else:
            parts = [f"<b>step {m.step}</b> · epoch {format_fixed(m.epoch)}"]
        if m is None:
            pass
        elif self.controller.task == "regression":  # the accuracy columns hold R²
            parts.append(f"train loss {format_number(m.train_loss)} · R² {format_number(m.train_acc)}")
            if m.test_acc is not None:
                parts.append(f"<b>test loss {format_number(m.test_loss)} · R² {format_number(m.test_acc)}</b>")
        else:
            parts.append(f"train loss {format_number(m.train_loss)} · acc {format_percent(m.train_acc)}")
            if m.test_acc is not None:
                parts.append(f"<b>test loss {format_number(m.test_loss)} · acc {format_percent(m.test_acc)}</b>")
        if self.controller.running:
            parts.append(f"{format_fixed(snap.steps_per_second)} steps/s" if snap is not None else "running")
        elif snap is not None and (snap.stopped_reason or snap.error):
            parts.append("stopped")
        elif snap is not None and snap.finished:
            parts.append("finished")
        else:
            parts.append("paused")
        self.status.setText(" &nbsp;|&nbsp; ".join(parts))

    # -------------------------------------------------------------- config

    def show_config(self, config) -> None:
        """Show ``config`` in the widgets without sending it back."""
        self._updating = True
        try:
            if config.points is None:
                _select(self.dataset, config.dataset)
            self.classes.setValue(int(config.num_classes))
            self._fill_columns(config.dataset, config.columns)
            self.samples.setValue(int(config.samples))
            self.noise.setValue(float(config.noise))
            self.test_percent.setValue(round(100 * float(config.test_fraction)))
            self.data_seed.setValue(int(config.data_seed))
            _select(self.loss, config.loss)
            _select(self.optimizer, config.optimizer)
            self.lr.setValue(float(config.lr))
            _select(self.schedule, config.schedule)
            self.batch_size.setValue(int(config.batch_size))
            self.l2.setValue(float(config.l2))
            self.steps.setValue(int(config.steps))
            self._show_painted(config.points is not None)
        finally:
            self._updating = False
