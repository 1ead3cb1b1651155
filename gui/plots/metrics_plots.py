"""Loss and accuracy curves, train and test, against the step.

Reads the controller's ``MetricHistory`` (numpy columns) and hands them to
pyqtgraph as they are; down-sampling and clipping keep long runs cheap.  A
run that diverged keeps its curves up to the last good step, and a red mark
shows where the loss went on the step that was rolled back (pinned to the
top edge when it is off the scale).
"""

from __future__ import annotations

import math
from html import escape

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtGui import QFont, QFontMetricsF
from PySide6.QtWidgets import QCheckBox, QGraphicsItem, QHBoxLayout, QLabel, QVBoxLayout, QWidget

from autograd_core.live.metric_history import MetricHistory
from autograd_core.numbers import format_number

from ..look.theme import Palette, palette
from ..training.training_style import set_plot_title, style_plot

CURVE_WIDTH = 2.5
GHOST_WIDTH = 1.8
GHOST_DASHES = (Qt.PenStyle.DashLine, Qt.PenStyle.DotLine, Qt.PenStyle.DashDotLine, Qt.PenStyle.DashDotDotLine)


def step_plot(title: str, y_label: str) -> pg.PlotWidget:
    """A plot against the training step, in the training area's style (cheap to repaint: no grid)."""
    widget = pg.PlotWidget(background=palette().plot_background)
    widget.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
    item = widget.getPlotItem()
    widget.plain_title = title  # restyled with the theme and presentation mode
    set_plot_title(widget, title)
    item.setLabel("bottom", "step")
    item.setLabel("left", y_label)
    item.setMenuEnabled(False)
    item.hideButtons()
    item.setClipToView(True)
    item.setDownsampling(auto=True, mode="peak")
    for axis in ("bottom", "left"):
        item.getAxis(axis).enableAutoSIPrefix(False)
    style_plot(widget)
    fit_axis_width(widget)
    return widget


def fit_axis_width(widget: pg.PlotWidget) -> None:
    """A fixed left-axis width for the text size in use: new tick labels never re-layout the plot."""
    axis = widget.getPlotItem().getAxis("left")
    axis.setWidth(round(QFontMetricsF(axis.style["tickFont"] or QFont()).horizontalAdvance("0.000") + 26))


def restyle_step_plot(widget: pg.PlotWidget, pal: Palette, presentation: bool | None = None) -> None:
    style_plot(widget, pal, presentation)
    set_plot_title(widget, getattr(widget, "plain_title", ""), pal, presentation)
    fit_axis_width(widget)


def nice_ceiling(x: float) -> float:
    """The smallest of 1, 1.5, 2, 3, 5, 7.5 × 10^k that is ≥ x."""
    power = 10.0 ** float(np.floor(np.log10(x)))
    for m in (1.0, 1.5, 2.0, 3.0, 5.0, 7.5, 10.0):
        if m * power >= x:
            return m * power
    return 10.0 * power


def _feed(curve, x: np.ndarray, y: np.ndarray) -> bool:
    """Hand a column to its curve; a column of NaN only (no test set, a run with no points) gives it no data:
    its dots (a lone step) would make pyqtgraph warn "All-NaN slice encountered" on every redraw.  True: it drew."""
    if len(y) and not np.isnan(y).all():
        curve.setData(x, y)
        return True
    curve.setData([], [])
    return False


def _column(values) -> np.ndarray:
    """A run's stored curve (numbers, None where a value was not finite or absent) as floats, NaN for None."""
    return np.array([math.nan if v is None else float(v) for v in values], dtype=float)


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
        self.train_loss = self.loss_plot.plot(name="train", connect="finite")
        self.test_loss = self.loss_plot.plot(name="test", connect="finite")
        self.train_acc = self.acc_plot.plot(name="train", connect="finite")
        self.test_acc = self.acc_plot.plot(name="test", connect="finite")
        self.diverged_line = self.loss_plot.plot(name="diverged")
        self.diverged_mark = self.loss_plot.plot(pen=None, symbol="x", symbolSize=14, symbolBrush=None)
        self.ghosts: list = []  # runs kept in the history, overlaid (their train curves) for comparison
        self._ghost_curves: list = []  # (loss curve, accuracy curve) per ghost
        self.ghost_extent = (0.0, 0.0)  # the ghosts' last step and largest loss: the axes make room for them
        self.colors = palette()
        self._loss_title = ""
        self._set_loss_title("")
        self.log_loss = QCheckBox("Log scale")
        self.log_loss.setToolTip("Show the loss on a logarithmic axis: late, small improvements stay visible")
        self.log_loss.toggled.connect(self._set_log)
        self._y_max = 0.0
        self.diverged = None
        self.loss_plot.getPlotItem().enableAutoRange(axis="y", enable=False)
        self._set_y_max(1.0)

        top = QHBoxLayout()
        top.addWidget(self.loss_plot, 1)
        top.addWidget(self.acc_plot, 1)
        # The key is a plain label, not a pyqtgraph legend: it never needs repainting while curves move.
        key = QLabel()
        # On the plots' background, like the curves it names (a swatch on the window color may vanish).
        key.setObjectName("curveKey")
        self.key = key
        self.has_test = False  # whether a test curve is drawn (no test set: none, and the key says only "train")
        self._key_text = None
        options = QHBoxLayout()
        options.addWidget(key)
        options.addSpacing(16)
        options.addWidget(self.log_loss)
        options.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(top, 1)
        layout.addLayout(options)
        self.apply_palette(self.colors)

    def apply_palette(self, pal: Palette, presentation: bool | None = None) -> None:
        """Colors of the theme (and text sizes of the mode) for the plots, the curves and the key."""
        self.colors = pal
        for plot in (self.loss_plot, self.acc_plot):
            restyle_step_plot(plot, pal, presentation)
        for curve, color in (
            (self.train_loss, pal.train),
            (self.test_loss, pal.test),
            (self.train_acc, pal.train),
            (self.test_acc, pal.test),
        ):
            curve.setPen(pg.mkPen(color, width=CURVE_WIDTH))
        self.diverged_line.setPen(pg.mkPen(pal.diverged, width=2, style=Qt.PenStyle.DashLine))
        self.diverged_mark.setSymbolPen(pg.mkPen(pal.diverged, width=2.5))
        self._key_text = None
        self._style_ghosts()
        self.key.setStyleSheet(
            f"QLabel#curveKey {{ background: {pal.plot_background}; color: {pal.plot_text}; "
            "padding: 1px 6px; border-radius: 3px; }"
        )
        title, self._loss_title = self._loss_title, None
        self._set_loss_title(title)

    def set_ghosts(self, runs: list) -> None:
        """Overlay kept runs (``autograd_core.learn.runs.Run``): each one's train loss and train accuracy (or R²),
        thin and dashed in a color of its own, named in the key by what differs.  Set once per change of the
        choice: the curves never change while the live run trains."""
        for loss_curve, acc_curve in self._ghost_curves:
            self.loss_plot.removeItem(loss_curve)
            self.acc_plot.removeItem(acc_curve)
        self._ghost_curves = []
        self.ghosts = list(runs)
        scale = 1.0 if self.r2 else 100.0
        for run in self.ghosts:
            score = run.curves.get("train_r2" if run.task == "regression" else "train_acc", [])
            steps = _column(run.curves.get("step", []))
            pair = []
            for plot, values, factor in (
                (self.loss_plot, run.curves.get("train_loss", []), 1.0),
                (self.acc_plot, score, scale),
            ):
                curve = plot.plot(connect="finite")
                curve.setZValue(-1)  # under the live curves
                # Painted once into a pixmap and reused: a frame of the live curves then costs what it cost without
                # ghosts (10 dashed 2,000-point ghosts repainted every frame took ~30 ms of the GUI thread).
                curve.curve.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
                _feed(curve, steps, factor * _column(values))
                pair.append(curve)
            self._ghost_curves.append(tuple(pair))
        self.ghost_extent = self._ghost_extent()  # computed once: every frame reads it
        self._style_ghosts()
        self._fit_ranges()

    def _style_ghosts(self) -> None:
        """Each ghost's pen (a color and a dash of its own), then the key that names them."""
        for i, curves in enumerate(self._ghost_curves):
            color = self.colors.layer_colors[i % len(self.colors.layer_colors)]
            pen = pg.mkPen(color, width=GHOST_WIDTH, style=GHOST_DASHES[i % len(GHOST_DASHES)])
            for curve in curves:
                curve.setPen(pen)
        self._write_key()
        self.key.setToolTip(
            "Dashed: the train curves of runs kept in the Runs tab, to compare with this one" if self.ghosts else ""
        )

    def _ghost_extent(self) -> tuple[float, float]:
        """The last step and the largest finite loss of the ghosts (the axes make room for them)."""
        last = top = 0.0
        for run in self.ghosts:
            steps = _column(run.curves.get("step", []))
            losses = _column(run.curves.get("train_loss", []))
            if len(steps):
                last = max(last, float(np.nanmax(steps, initial=0.0)))
            finite = losses[np.isfinite(losses)]
            if len(finite):
                top = max(top, float(finite.max()))
        return last, top

    def _fit_ranges(self) -> None:
        last, top = self.ghost_extent
        if last > self._x_max:
            self._set_x_max(nice_ceiling(max(10.0, 1.05 * last)))
        if top > self._y_max and not self.log_loss.isChecked():
            self._set_y_max(nice_ceiling(max(top, 0.01)))

    def _write_key(self) -> None:
        """The key names the curves drawn: "test" only when there is a test curve (test fraction 0: none), then the
        kept runs overlaid."""
        pal = self.colors
        text = f"<span style='color:{pal.train}'>━━</span> train"
        if self.has_test:
            text += f" &nbsp;&nbsp; <span style='color:{pal.test}'>━━</span> test"
        for i, run in enumerate(self.ghosts):  # the kept runs overlaid, by what differs
            mark = ("╍╍", "┈┈", "╍┈", "╍┈┈")[i % len(GHOST_DASHES)]
            color = pal.layer_colors[i % len(pal.layer_colors)]
            text += f" &nbsp;&nbsp; <span style='color:{color}'>{mark}</span> {escape(run.name)}"
        if text != self._key_text:  # (unchanged: not set again, no re-layout)
            self._key_text = text
            self.key.setText(text)

    compact = False  # a short area: the step axes keep their numbers but not their "step" label

    def set_compact(self, on: bool) -> None:
        """In a short area the curves keep the height of the "step" labels (the ticks still count steps)."""
        changed = self.compact != bool(on)
        self.compact = bool(on)
        for plot in (self.loss_plot, self.acc_plot):
            plot.getPlotItem().getAxis("bottom").showLabel(not self.compact)
        if changed and self._loss_title:
            self._set_loss_title(self._loss_title, force=True)

    r2 = False  # True for regression: the accuracy plot shows R² (its columns hold R²)

    def set_r2(self, on: bool) -> None:
        """Regression: the second plot shows R² (1 is a perfect fit) instead of accuracy in percent."""
        if on == self.r2:
            return
        self.r2 = on
        item = self.acc_plot.getPlotItem()
        self.acc_plot.plain_title = "R²" if on else "Accuracy"
        item.setLabel("left", "R²" if on else "accuracy (%)")
        restyle_step_plot(self.acc_plot, palette())  # the title and label in the theme and mode in use
        item.setYRange(*((-0.1, 1.0) if on else (0, 100)), padding=0.02)

    def update_history(
        self, history: MetricHistory, which: tuple[str, ...] = ("loss", "accuracy"), diverged=None
    ) -> None:
        """Hand the columns to the curves; ``which`` lets a caller redraw one plot per frame.

        ``diverged`` (StepMetrics of a rolled-back step) marks where the loss went when training stopped.
        """
        step = history.column("step")
        last = float(step[-1]) if len(step) else 0.0
        if diverged is not None:
            last = max(last, float(diverged.step))
        ghost_last, ghost_top = self.ghost_extent
        last = max(last, ghost_last)
        if last > self._x_max or (self._x_max > 10 and last < self._x_max / 5):
            self._set_x_max(nice_ceiling(max(10.0, 1.25 * last)))
        # A lone point (step 0 before the first step, or a run that diverged on its first step) has no line to
        # draw: it shows as a dot.
        symbol = "o" if len(step) == 1 else None
        with np.errstate(invalid="ignore"):
            for curve in (self.train_loss, self.test_loss, self.train_acc, self.test_acc):
                if curve.opts["symbol"] != symbol:
                    curve.setSymbol(symbol)
                    curve.setSymbolSize(7)
                    curve.setSymbolBrush(curve.opts["pen"].color())
                    curve.setSymbolPen(None)
            if "loss" in which:
                train, test = history.column("train_loss"), history.column("test_loss")
                _feed(self.train_loss, step, train)
                self.has_test = _feed(self.test_loss, step, test)
                self._write_key()
                if not self.log_loss.isChecked():
                    both = np.concatenate([train, test])
                    top = max(ghost_top, float(np.max(both[np.isfinite(both)], initial=0.0)))
                    if top > self._y_max or (self._y_max > 0.1 and top < self._y_max / 4):
                        self._set_y_max(nice_ceiling(max(top, 0.01)))
                self._show_divergence(history, diverged)
            if "accuracy" in which:
                scale = 1.0 if self.r2 else 100.0
                _feed(self.train_acc, step, scale * history.column("train_acc"))
                self.has_test = _feed(self.test_acc, step, scale * history.column("test_acc"))
                self._write_key()

    def _show_divergence(self, history: MetricHistory, diverged) -> None:
        """A dashed red line from the last good loss to a × at the diverged step's loss (▲ at the top edge
        when that loss is off the scale or not finite); the title gives the value."""
        self.diverged = diverged
        if diverged is None:
            self.diverged_line.setData([], [])
            self.diverged_mark.setData([], [])
            self._set_loss_title("")
            return
        log = self.log_loss.isChecked()
        top = self._y_max
        if log:  # a log axis follows its data: any positive loss fits on it
            top = 10.0 ** self.loss_plot.getPlotItem().getViewBox().viewRange()[1][1]
        loss = diverged.train_loss
        on_scale = loss is not None and math.isfinite(loss) and 0 < loss and (log or loss <= top)
        shown = loss if on_scale else top * (1.0 if log else 0.97)  # just inside the top edge
        x = float(diverged.step)
        losses = history.column("train_loss")
        if len(losses) and math.isfinite(losses[-1]):
            self.diverged_line.setData([float(history.column("step")[-1]), x], [float(losses[-1]), shown])
        else:
            self.diverged_line.setData([], [])
        self.diverged_mark.setData([x], [shown])
        self.diverged_mark.setSymbol("x" if on_scale else "t1")
        value = "not a number" if loss is None or math.isnan(loss) else format_number(loss)
        self._set_loss_title(f"diverged at step {diverged.step}: {value}")

    def _set_loss_title(self, divergence: str, force: bool = False) -> None:
        """The loss plot's title, with the divergence in red after it (a title is always in view).  In a short,
        narrow area (compact) the title says only "diverged"; the whole text is in the plot's tooltip."""
        if divergence == self._loss_title and not force:
            return  # an unchanged title is not set again: no re-layout
        self._loss_title = divergence
        shown = "diverged" if self.compact and divergence else divergence
        title = "Loss" if not shown else f"Loss · <span style='color:{self.colors.diverged}'>{shown}</span>"
        set_plot_title(self.loss_plot, title, self.colors)
        self.loss_plot.setToolTip(f"Loss: {divergence}" if divergence else "")

    @property
    def divergence_text(self) -> str:
        """The divergence written in the loss plot's title ("" when none)."""
        return self._loss_title

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
