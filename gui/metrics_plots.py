"""Loss and accuracy curves, train and test, against the step.

Reads the controller's ``MetricHistory`` (numpy columns) and hands them to
pyqtgraph as they are; down-sampling and clipping keep long runs cheap.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QCheckBox, QHBoxLayout, QLabel, QVBoxLayout, QWidget

from gui.training_controller import MetricHistory

TRAIN_COLOR = "#37474f"
TEST_COLOR = "#c2185b"
TRAIN_PEN = {"color": TRAIN_COLOR, "width": 2.5}
TEST_PEN = {"color": TEST_COLOR, "width": 2.5}


def step_plot(title: str, y_label: str) -> pg.PlotWidget:
    """A plot against the training step, in the training area's style (cheap to repaint: no grid)."""
    widget = pg.PlotWidget(background="w")
    widget.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
    item = widget.getPlotItem()
    item.setTitle(title, color="#202124", size="11pt")
    item.setLabel("bottom", "step")
    item.setLabel("left", y_label)
    item.setMenuEnabled(False)
    item.hideButtons()
    item.setClipToView(True)
    item.setDownsampling(auto=True, mode="peak")
    for axis in ("bottom", "left"):
        item.getAxis(axis).setPen("#5f6368")
        item.getAxis(axis).setTextPen("#202124")
        item.getAxis(axis).enableAutoSIPrefix(False)
    item.getAxis("left").setWidth(48)  # a fixed width: new tick labels never re-layout the plot
    return widget


def nice_ceiling(x: float) -> float:
    """The smallest of 1, 1.5, 2, 3, 5, 7.5 × 10^k that is ≥ x."""
    power = 10.0 ** float(np.floor(np.log10(x)))
    for m in (1.0, 1.5, 2.0, 3.0, 5.0, 7.5, 10.0):
        if m * power >= x:
            return m * power
    return 10.0 * power


class MetricsPlots(QWidget):
    """Two plots: loss (optionally on a log axis) and accuracy."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.loss_plot = step_plot("Loss", "loss")
        self.acc_plot = step_plot("Accuracy", "accuracy (%)")
        self.acc_plot.getPlotItem().setYRange(0, 100, padding=0.02)
        self.acc_plot.getPlotItem().enableAutoRange(axis="y", enable=False)
        # The step axis grows in 1-1.5-2-3-5-7.5 jumps instead of following every step: an axis whose range is
        # unchanged is not redrawn, which halves the cost of a frame.
        self._x_max = 0.0
        for plot in (self.loss_plot, self.acc_plot):
            plot.getPlotItem().enableAutoRange(axis="x", enable=False)
        self._set_x_max(10.0)
        self.train_loss = self.loss_plot.plot(name="train", pen=pg.mkPen(**TRAIN_PEN), connect="finite")
        self.test_loss = self.loss_plot.plot(name="test", pen=pg.mkPen(**TEST_PEN), connect="finite")
        self.train_acc = self.acc_plot.plot(name="train", pen=pg.mkPen(**TRAIN_PEN), connect="finite")
        self.test_acc = self.acc_plot.plot(name="test", pen=pg.mkPen(**TEST_PEN), connect="finite")
        self.log_loss = QCheckBox("Log scale")
        self.log_loss.setToolTip("Show the loss on a logarithmic axis: late, small improvements stay visible")
        self.log_loss.toggled.connect(self._set_log)
        self._y_max = 0.0
        self.loss_plot.getPlotItem().enableAutoRange(axis="y", enable=False)
        self._set_y_max(1.0)

        top = QHBoxLayout()
        top.addWidget(self.loss_plot, 1)
        top.addWidget(self.acc_plot, 1)
        # The key is a plain label, not a pyqtgraph legend: it never needs repainting while curves move.
        key = QLabel(
            f"<span style='color:{TRAIN_COLOR}'>━━</span> train &nbsp;&nbsp; "
            f"<span style='color:{TEST_COLOR}'>━━</span> test"
        )
        # On the plots' white, like the curves it names: the dark train swatch vanished on the dark theme.
        key.setObjectName("curveKey")
        key.setStyleSheet(
            "QLabel#curveKey { background: white; color: #202124; padding: 1px 6px; border-radius: 3px; }"
        )
        self.key = key
        options = QHBoxLayout()
        options.addWidget(key)
        options.addSpacing(16)
        options.addWidget(self.log_loss)
        options.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(top, 1)
        layout.addLayout(options)

    def update_history(self, history: MetricHistory, which: tuple[str, ...] = ("loss", "accuracy")) -> None:
        """Hand the columns to the curves; ``which`` lets a caller redraw one plot per frame."""
        step = history.column("step")
        last = float(step[-1]) if len(step) else 0.0
        if last > self._x_max or (self._x_max > 10 and last < self._x_max / 5):
            self._set_x_max(nice_ceiling(max(10.0, 1.25 * last)))
        with np.errstate(invalid="ignore"):
            if "loss" in which:
                train, test = history.column("train_loss"), history.column("test_loss")
                self.train_loss.setData(step, train)
                self.test_loss.setData(step, test)
                if not self.log_loss.isChecked():
                    both = np.concatenate([train, test])
                    top = float(np.max(both[np.isfinite(both)], initial=0.0))
                    if top > self._y_max or (self._y_max > 0.1 and top < self._y_max / 4):
                        self._set_y_max(nice_ceiling(max(top, 0.01)))
            if "accuracy" in which:
                self.train_acc.setData(step, 100.0 * history.column("train_acc"))
                self.test_acc.setData(step, 100.0 * history.column("test_acc"))

    def _set_y_max(self, y_max: float) -> None:
        self._y_max = y_max
        self.loss_plot.getPlotItem().setYRange(0, y_max, padding=0.02)

    def _set_log(self, on: bool) -> None:
        """A log axis follows the data (its range spans decades); the linear one jumps in 1-1.5-2-3-5-7.5 steps."""
        item = self.loss_plot.getPlotItem()
        item.setLogMode(y=on)
        item.enableAutoRange(axis="y", enable=on)
        if not on:
            self._set_y_max(self._y_max)

    def _set_x_max(self, x_max: float) -> None:
        self._x_max = x_max
        for plot in (self.loss_plot, self.acc_plot):
            plot.getPlotItem().setXRange(0, x_max, padding=0.01)

    def view_state(self) -> dict:
        return {"log_loss": self.log_loss.isChecked()}

    def restore_view_state(self, state: dict) -> None:
        self.log_loss.setChecked(bool(state.get("log_loss", False)))
