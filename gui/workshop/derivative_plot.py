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

from ..shell.theme import palette, presentation_on
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
    """The plot and one line under it saying what is drawn."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("workshopPlot")
        self.result: CheckResult | None = None
        self.drawn: dict | None = None  # the slice on screen (tests read it)
        self.worst_x: float | None = None  # where the dashed line marks the worst disagreement
        self.plot = pg.PlotWidget()
        self.plot.setMenuEnabled(False)
        self.plot.setMinimumHeight(180)
        self.plot.showGrid(x=True, y=True, alpha=0.25)
        self.plot.setMouseEnabled(x=False, y=False)
        self.legend = self.plot.addLegend(offset=(8, 8))
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
        self.legend.setLabelTextColor(pal.plot_text)
        self.legend.setLabelTextSize(f"{plot_font(presentation_on()).pointSizeF():g}pt")
        self.show_result(self.result)

    def show_result(self, result: CheckResult | None) -> None:
        self.result = result
        self.plot.clear()
        self.legend.clear()
        drawn = self.drawn = slice_of(result) if result is not None else None
        if drawn is None:
            return
        pal = palette()
        name, x = result.definition.name, drawn["x"]
        ok = ~drawn["undefined"]
        with np.errstate(all="ignore"):
            typed = np.where(ok & np.isfinite(drawn["typed"]), drawn["typed"], np.nan)
            slope = np.where(ok, drawn["slope"], np.nan)
        width = 3 if presentation_on() else 2
        line = pg.mkPen(pal.layer_colors[0], width=width)
        self.plot.plot(x, typed, pen=line, name="your derivative", connect="finite")
        step = max(1, len(x) // 40)
        self.plot.plot(
            x[::step],
            slope[::step],
            pen=None,
            symbol="o",
            symbolSize=5,
            symbolBrush=pal.plot_text,
            symbolPen=pal.plot_text,
            name="slope (central differences)",
        )
        bad = drawn["disagree"]
        finite = np.concatenate([v[np.isfinite(v)] for v in (typed, slope)]) if ok.any() else np.zeros(1)
        low = float(finite.min()) if finite.size else 0.0
        if bad.any():
            thinned = np.zeros_like(bad)
            thinned[::step] = True
            ringed = bad & thinned if (bad & thinned).any() else bad
            self.plot.plot(
                x[ringed],
                np.where(np.isfinite(slope[ringed]), slope[ringed], low),
                pen=None,
                symbol="o",
                symbolSize=12,
                symbolBrush=None,
                symbolPen=pg.mkPen(pal.error, width=2),
                name="they disagree",
            )
        worst = result.worst
        if worst is not None and drawn["input"] == worst["input"]:
            at = worst["point"][result.definition.inputs.index(worst["input"])]
            for y in (worst["typed"], worst["slope"]):
                if np.isfinite(y):
                    self.plot.plot(
                        [at], [y], pen=None, symbol="x", symbolSize=16, symbolPen=pg.mkPen(pal.error, width=3)
                    )
            mark = pg.InfiniteLine(at, angle=90, pen=pg.mkPen(pal.error, width=1, style=Qt.PenStyle.DashLine))
            self.plot.addItem(mark)
            self.worst_x = at
        else:
            self.worst_x = None
        if drawn["undefined"].any():
            self.plot.plot(
                x[drawn["undefined"]],
                np.full(int(drawn["undefined"].sum()), low),
                pen=None,
                symbol="s",
                symbolSize=6,
                symbolBrush=pal.muted,
                symbolPen=pal.muted,
                name="value undefined",
            )
        self.plot.setLabel("bottom", f"{drawn['input']}{drawn['where']}")
        self.plot.setLabel("left", f"∂{name}/∂{drawn['input']}" if len(name) <= 24 else "derivative")
        n_bad, n_undefined = int(bad.sum()), int(drawn["undefined"].sum())
        parts = [f"Line: your ∂{name}/∂{drawn['input']}; dots: the slope of the value ({result.tolerance})."]
        if n_bad:
            parts.append(f"Red rings: {n_bad} point{'s' if n_bad > 1 else ''} where they disagree; ✕ the worst one.")
        if n_undefined:
            parts.append(f"Gray squares: {n_undefined} where the value is undefined, left out.")
        self.caption.setText(" ".join(parts))
