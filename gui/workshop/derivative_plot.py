"""The workshop's plot: the typed derivative against the slope of the typed value, disagreements marked.

It draws a ``CheckResult`` (``autograd_core.language.workshop_check``) and nothing else: the learner's
derivative as a line, the central finite difference as dots on it, a red ring where the two disagree and a
gray bar at the bottom where the value itself is undefined (said apart, never counted as wrong).  With two
inputs it draws one slice of the square grid: along the input at fault, through its worst point (or along the
first input through the middle of the range).
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from autograd_core.language.workshop import CheckResult
from autograd_core.numbers import format_number

from ..look.theme import palette, presentation_on
from ..training.training_style import plot_font, style_plot


def slice_of(result: CheckResult) -> dict | None:
    """What to draw of ``result`` as one curve: x, typed, slope, disagree, undefined, and the axis's words."""
    if result.grid is None:
        return None
    inputs = result.definition.inputs
    if len(inputs) == 1:
        index, rows = 0, slice(None)
        where = ""
    else:
        worst = result.worst
        index = inputs.index(worst["input"]) if worst else 0
        other = 1 - index
        axis = result.grid[other][0, :] if other == 1 else result.grid[other][:, 0]
        at = worst["point"][other] if worst else float(axis[len(axis) // 2])
        k = int(np.argmin(np.abs(axis - at)))
        rows = (slice(None), k) if other == 1 else (k, slice(None))
        where = f" at {inputs[other]} = {format_number(float(axis[k]))}"
    return {
        "x": np.asarray(result.grid[index][rows], float),
        "typed": np.asarray(result.typed[index][rows], float),
        "slope": np.asarray(result.numeric[index][rows], float),
        "disagree": np.asarray(result.disagree[index][rows], bool),
        "undefined": np.asarray(result.undefined[rows], bool),
        "input": inputs[index],
        "where": where,
    }


class DerivativePlot(QWidget):
    """The plot and one line under it saying what is drawn.

    Its curves and marks are made once and given new data on each check (making and adding items anew cost
    more than the check itself)."""

    NAMES = ("your derivative", "measured slope", "they disagree", "value undefined")  # short: the key sits on the plot

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("workshopPlot")
        self.result: CheckResult | None = None
        self.drawn: dict | None = None  # the slice on screen (tests read it)
        self.worst_x: float | None = None  # where the dashed line marks the worst disagreement
        self.plot = pg.PlotWidget()
        self.plot.setMenuEnabled(False)
        self.plot.setMinimumHeight(180)
        self.plot.setMouseEnabled(x=False, y=False)
        self.plot.hideButtons()
        self.legend = self.plot.addLegend(offset=(8, 8))
        self.line = pg.PlotDataItem(connect="finite")
        self.dots = pg.PlotDataItem(pen=None, symbol="o", symbolSize=5)
        self.rings = pg.PlotDataItem(pen=None, symbol="o", symbolSize=12, symbolBrush=None)
        self.undefined = pg.PlotDataItem(pen=None, symbol="s", symbolSize=6)
        self.worst = pg.PlotDataItem(pen=None, symbol="x", symbolSize=16)
        self.worst_line = pg.InfiniteLine(0.0, angle=90)
        self.items = (self.line, self.dots, self.rings, self.undefined)
        for item in (*self.items, self.worst, self.worst_line):
            self.plot.addItem(item)
        self._in_legend: list = []
        self.caption = QLabel("Type an op and press Check and define: its derivative is drawn here.")
        self.caption.setObjectName("hintLabel")
        self.caption.setWordWrap(True)
        self.caption.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.plot, 1)
        layout.addWidget(self.caption)
        self.restyle()

    def restyle(self) -> None:
        pal = palette()
        style_plot(self.plot, pal)
        width = 3 if presentation_on() else 2
        self.line.setPen(pg.mkPen(pal.layer_colors[0], width=width))
        self.dots.setSymbolBrush(pal.plot_text)
        self.dots.setSymbolPen(pal.plot_text)
        self.rings.setSymbolPen(pg.mkPen(pal.error, width=2))
        self.undefined.setSymbolBrush(pal.muted)
        self.undefined.setSymbolPen(pal.muted)
        self.worst.setSymbolPen(pg.mkPen(pal.error, width=3))
        self.worst.setSymbolBrush(pal.error)
        self.worst_line.setPen(pg.mkPen(pal.error, width=1, style=Qt.PenStyle.DashLine))
        self.legend.setLabelTextColor(pal.plot_text)
        self.legend.setLabelTextSize(f"{plot_font(presentation_on()).pointSizeF():g}pt")
        self._in_legend = []  # the labels take the new color and size when added again
        self.show_result(self.result)

    def _legend(self, shown: list) -> None:
        if shown == self._in_legend:
            return
        self.legend.clear()
        for item in shown:
            self.legend.addItem(item, self.NAMES[self.items.index(item)])
        self._in_legend = shown

    def show_result(self, result: CheckResult | None) -> None:
        self.result = result
        drawn = self.drawn = slice_of(result) if result is not None else None
        self.worst_x = None
        if drawn is None:
            for item in (*self.items, self.worst):
                item.setData([], [])
            self.worst_line.hide()
            self._legend([])
            self.plot.setLabel("bottom", "")
            self.plot.setLabel("left", "")
            return
        name, x = result.definition.name, drawn["x"]
        ok = ~drawn["undefined"]
        with np.errstate(all="ignore"):
            typed = np.where(ok & np.isfinite(drawn["typed"]), drawn["typed"], np.nan)
            slope = np.where(ok, drawn["slope"], np.nan)
        finite = np.concatenate([v[np.isfinite(v)] for v in (typed, slope)])
        low = float(finite.min()) if finite.size else 0.0
        step = max(1, len(x) // 40)
        self.line.setData(x, typed)
        self.dots.setData(x[::step], slope[::step])
        bad = drawn["disagree"]
        thinned = np.zeros_like(bad)
        thinned[::step] = True
        ringed = bad & thinned if (bad & thinned).any() else bad
        self.rings.setData(x[ringed], np.where(np.isfinite(slope[ringed]), slope[ringed], low))
        gaps = drawn["undefined"]
        self.undefined.setData(x[gaps], np.full(int(gaps.sum()), low))
        shown = [self.line, self.dots] + [self.rings] * bool(bad.any()) + [self.undefined] * bool(gaps.any())
        self._legend(shown)
        worst = result.worst
        if worst is not None and drawn["input"] == worst["input"]:
            at = worst["point"][result.definition.inputs.index(worst["input"])]
            ys = [y for y in (worst["typed"], worst["slope"]) if np.isfinite(y)]
            self.worst.setData([at] * len(ys), ys)
            self.worst_line.setValue(at)
            self.worst_line.show()
            self.worst_x = at
        else:
            self.worst.setData([], [])
            self.worst_line.hide()
        self.plot.setLabel("bottom", f"{drawn['input']}{drawn['where']}")
        self.plot.setLabel("left", f"∂{name}/∂{drawn['input']}" if len(name) <= 24 else "derivative")
        n_bad, n_undefined = int(bad.sum()), int(gaps.sum())
        slope = f"dots: the value's slope, measured by central differences ({result.tolerance})"
        parts = [f"Line: your ∂{name}/∂{drawn['input']}; {slope}."]
        if n_bad:
            parts.append(f"Red rings: {n_bad} point{'s' if n_bad > 1 else ''} where they disagree; ✕ the worst one.")
        if n_undefined:
            parts.append(f"Gray squares: {n_undefined} where the value is undefined, left out.")
        self.caption.setText(" ".join(parts))
