"""A one-weight slice of the loss surface: the curve, its tangent and the optimizer's next step.

The numbers come from ``autograd_core.learn.inspection.loss_slice``; this widget only
draws them.  The tangent's slope is the weight's gradient, so a learner sees
which way is downhill; the green triangle is where the optimizer in use
(SGD, momentum or Adam, on its next batch) really moves the weight, and the
caption says why that may differ from "slope × learning rate".
"""

from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import QFrame, QLabel, QScrollArea, QVBoxLayout, QWidget

from autograd_core.learn.inspection import LossSlice
from autograd_core.numbers import format_number

from ..look.theme import Palette, palette
from ..training.training_style import style_plot

CAPTION_LINES = 3
PLOT_LEAST_PX = 172  # the plot's least height (axes, the half line above): below it, plot and caption scroll together


OPTIMIZER_NAMES = {"sgd": "SGD", "momentum": "Momentum", "adam": "Adam"}


def caption(sl: LossSlice) -> str:
    """Two short sentences: the slope here, then what the optimizer in use really does next."""
    name, f = sl.name, format_number
    downhill = "to the left" if sl.gradient > 0 else "to the right" if sl.gradient < 0 else "nowhere"
    if sl.penalty or sl.l1 or sl.l2:  # the curve is the objective trained; the header's train loss is its data part
        penalties = sl.objective.removeprefix("data loss + ")
        reading = f"{f(sl.loss)} = train loss {f(sl.data_loss)} + {penalties} {f(sl.penalty)}"
    else:
        reading = f(sl.loss)
    full = sl.batch >= sl.train_size
    # whose weights: while training runs a slice comes about once a second, the header's figures every step
    when = "" if sl.step is None else f" ({'epoch' if full else 'step'} {sl.step})"
    slope = (
        f"<b>{sl.objective[0].upper()}{sl.objective[1:]} along {name}</b>: {reading} at {name} = {f(sl.weight)}"
        f"{when}. Slope of the tangent = ∂loss/∂{name} = {f(sl.gradient)}: downhill is {downhill}."
    )
    if not math.isfinite(sl.next_weight):
        return f"{slope}<br>No next step: {sl.problem or 'the step is not finite'}."
    lands = f"{f(sl.weight)} → <b>{f(sl.next_weight)}</b> (loss {f(sl.next_loss)})"
    if sl.optimizer == "sgd" and full:
        rule = f"{f(sl.weight)} − {f(sl.lr)} × {f(sl.gradient)} = <b>{f(sl.next_weight)}</b>"
        return f"{slope}<br>SGD's next step is w − lr × slope: {rule} (loss {f(sl.next_loss)})."
    data = f"all {sl.train_size} points" if full else f"next batch of {sl.batch} of {sl.train_size} points"
    how = {
        "sgd": "follows that batch's slope, not this one",
        "momentum": "adds a share of its last step to −lr × slope",
        "adam": "is about lr long, whatever the slope",
    }.get(sl.optimizer, "is its own")
    optimizer = OPTIMIZER_NAMES.get(sl.optimizer, sl.optimizer)
    return f"{slope}<br>{optimizer}'s next step (lr {f(sl.lr)}, {data}) {how}: {lands}."


class _PageLayout(QVBoxLayout):
    """The scrolled page's layout: no height-for-width (the caption's height is set by ``_fit_caption``), so the
    scroll area sizes the page from the least heights, never from the plot's 480 px size hint."""

    def hasHeightForWidth(self) -> bool:
        return False


class LossSlicePlot(QWidget):
    """Shows one ``LossSlice``; empty with a hint until a weight is picked."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.current: LossSlice | None = None
        self.colors = palette()
        self.plot = pg.PlotWidget(background=self.colors.plot_background)
        self.plot.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
        item = self.plot.getPlotItem()
        item.setLabel("left", "loss")  # then what the slice shown plots (its objective's terms)
        item.setMenuEnabled(False)
        item.hideButtons()
        for axis in ("bottom", "left"):
            item.getAxis(axis).enableAutoSIPrefix(False)  # "×0.001" on the axis reads badly on a projector
        self.curve = self.plot.plot(name="loss")
        self.tangent = self.plot.plot(name="tangent")
        self.now_point = pg.ScatterPlotItem(size=12)
        self.next_point = pg.ScatterPlotItem(size=12, symbol="t1")
        self.step_arrow = pg.PlotDataItem()
        for extra in (self.step_arrow, self.now_point, self.next_point):
            self.plot.addItem(extra)
        self.caption = QLabel("Click a weight (an edge) in the network diagram to see the loss along it.")
        self.caption.setWordWrap(True)
        self._fit_caption()
        self.caption.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        self._axis_label = ""
        self._loss_label = "loss"
        self.caption.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.setToolTip(
            "The training objective (the data loss over every training point, plus the weight penalty when one "
            "is set: what the optimizer minimizes) as one weight varies, all others fixed. The dashed tangent's "
            "slope is the weight's gradient; the green triangle is where the optimizer's next step really lands "
            "(taken on a copy of the trainer: its next batch, its momentum or Adam's running averages)."
        )
        # The plot keeps a readable height: where the room is short (presentation mode in a short window) the
        # plot and its caption scroll up and down together, instead of the plot shrinking to a strip.
        self.plot.setMinimumHeight(PLOT_LEAST_PX)
        inner = QWidget()
        inner_layout = _PageLayout(inner)
        inner_layout.setContentsMargins(0, 0, 0, 0)
        inner_layout.addWidget(self.plot, 1)
        inner_layout.addWidget(self.caption)
        self.scroll_area = QScrollArea()
        self.scroll_area.setWidget(inner)
        self.scroll_area.setWidgetResizable(True)
        self.scroll_area.setFrameShape(QFrame.Shape.NoFrame)
        self.scroll_area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.scroll_area)
        self.caption.installEventFilter(self)
        self.apply_palette(self.colors)

    def apply_palette(self, pal: Palette, presentation: bool | None = None) -> None:
        self.colors = pal
        style_plot(self.plot, pal, presentation)
        self.curve.setPen(pg.mkPen(pal.train, width=2.5))
        self.tangent.setPen(pg.mkPen(pal.selection, width=2, style=Qt.PenStyle.DashLine))
        outline = pg.mkPen(pal.plot_background, width=1.5)
        self.now_point.setBrush(pg.mkBrush(pal.selection))
        self.now_point.setPen(outline)
        self.next_point.setBrush(pg.mkBrush(pal.next_step))
        self.next_point.setPen(outline)
        self.step_arrow.setPen(pg.mkPen(pal.next_step, width=2))

    def _fit_caption(self) -> None:
        # A fixed height, changed only when the text needs more or fewer lines at this width: new text every
        # half second must not re-layout (and repaint) the whole area.
        # (Measured on a document of its own: QLabel.heightForWidth never answers less than the fixed height
        # set before, so a caption once laid out narrow, in a hidden tab, stayed tall for good.)
        lines = CAPTION_LINES * self.caption.fontMetrics().lineSpacing() + 6
        width = self.caption.contentsRect().width()
        need = 0
        if width > 50:
            doc = QTextDocument()
            doc.setDefaultFont(self.caption.font())
            doc.setDocumentMargin(0)
            doc.setHtml(self.caption.text())
            doc.setTextWidth(width)
            need = math.ceil(doc.size().height()) + 6
        height = max(lines, need)
        if self.caption.height() != height or self.caption.minimumHeight() != height:
            self.caption.setFixedHeight(height)

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._fit_caption()

    def eventFilter(self, watched, event) -> bool:
        if watched is self.caption and event.type() == QEvent.Type.Resize:
            self._fit_caption()  # (its width follows the scroll area's, after this widget's own resize)
        return super().eventFilter(watched, event)

    def changeEvent(self, event) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange:  # presentation mode: three lines of the new font
            self._fit_caption()

    def show_slice(self, sl: LossSlice) -> None:
        self.current = sl
        finite = np.isfinite(sl.losses)
        self.curve.setData(sl.values[finite], sl.losses[finite])
        # Draw the tangent over the middle half of the slice so it reads as a local line.
        half = (sl.values[-1] - sl.values[0]) / 4
        xs = np.array([sl.weight - half, sl.weight + half])
        self.tangent.setData(xs, sl.tangent(xs))
        self.now_point.setData([sl.weight], [sl.loss])
        if math.isfinite(sl.next_weight) and math.isfinite(sl.next_loss):
            self.next_point.setData([sl.next_weight], [sl.next_loss])
            self.step_arrow.setData([sl.weight, sl.next_weight], [sl.loss, sl.loss])
        else:
            self.next_point.setData([], [])
            self.step_arrow.setData([], [])
        if sl.objective != self._loss_label:
            self._loss_label = sl.objective
            self.plot.getPlotItem().setLabel("left", sl.objective)
        label = f"value of {sl.name} (all other weights fixed)"
        if label != self._axis_label:  # an unchanged label is not set again: no re-layout
            self._axis_label = label
            self.plot.getPlotItem().setLabel("bottom", label)
        self.caption.setText(caption(sl))
        self._fit_caption()

    def clear(self, waiting: bool = False) -> None:
        """Nothing drawn; ``waiting``: a weight is picked and its slice for the current weights is on its way."""
        self.current = None
        for item in (self.curve, self.tangent, self.now_point, self.next_point, self.step_arrow):
            item.setData([], [])
        self.caption.setText(
            "Computing the loss along the picked weight for the current weights…"
            if waiting
            else "Click a weight (an edge) in the network diagram to see the loss along it."
        )
