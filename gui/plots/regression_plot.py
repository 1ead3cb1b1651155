"""The live regression plot: the data (train filled, test hollow), the model's curve and each last-hidden unit's
contribution (its output times its outgoing weight) as thin curves, which add up (with the output bias) to the
model's curve.  It draws ``autograd_core.learn.regression.RegressionView`` objects from the training process's
snapshots; no numerics here.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtWidgets import QCheckBox, QHBoxLayout, QLabel, QVBoxLayout, QWidget

from autograd_core.numbers import format_number

from ..look.theme import Palette, palette, plot_text_size
from ..training.training_style import style_plot


class RegressionPlot(QWidget):
    """Points, the model's curve and the unit contributions; a checkbox hides the contributions."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.plot = pg.PlotWidget()
        item = self.plot.getPlotItem()
        item.setLabel("bottom", "x")
        item.setLabel("left", "y")
        item.showGrid(x=True, y=True, alpha=0.15)
        self.legend = item.addLegend(offset=(-8, 8))  # top right; named items join it as they are added
        # Every unit's contribution in one item, a gap (NaN) between units: one data update and one paint for a
        # 32-unit layer, where 32 items took 18 ms of each snapshot.
        self.units = pg.PlotCurveItem(connect="finite")
        self.units.setZValue(-1)
        self._unit_count = 0
        self.train_points = pg.ScatterPlotItem(size=7, name="train")
        self.test_points = pg.ScatterPlotItem(size=8, name="test", brush=None)
        self.curve = pg.PlotDataItem(name="model")
        self.target_curve = None
        item.addItem(self.train_points)
        item.addItem(self.test_points)
        item.addItem(self.curve)
        item.addItem(self.units)
        self.show_units = QCheckBox("Show each unit's contribution")
        self.show_units.setChecked(True)
        self.show_units.setToolTip(
            "Thin curves: each last-hidden unit's output times its weight into the output; "
            "with the output bias they add up to the model's curve"
        )
        self.show_units.toggled.connect(self._units_toggled)
        self.caption = QLabel()
        self.caption.setObjectName("hintLabel")
        self.caption.setWordWrap(True)
        bar = QHBoxLayout()
        bar.addWidget(self.show_units)
        bar.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.plot, 1)
        layout.addLayout(bar)
        layout.addWidget(self.caption)
        self.view = None
        self.apply_palette(palette())

    def apply_palette(self, pal: Palette, presentation: bool | None = None) -> None:
        """The theme's colors (curve in the first class color, units in the second, points muted) and the
        mode's text sizes, as every training view (gui.training.training_workspace calls it on a switch)."""
        self.colors = pal
        style_plot(self.plot, pal, presentation)
        first, second = pal.class_colors[:2]
        self.legend.setLabelTextColor(pal.plot_text)
        self.legend.setLabelTextSize(f"{plot_text_size(presentation, 0.9):.1f}pt")  # grows with the mode
        for _sample, label in self.legend.items:
            label.setText(label.text)  # the items already there take the new size too
        backdrop = pg.mkColor(pal.plot_background)
        backdrop.setAlpha(220)
        self.legend.setBrush(pg.mkBrush(backdrop))  # readable over the points and curves behind it
        self.legend.setPen(pg.mkPen(pal.axis))
        self._point_color = pal.plot_text
        self.train_points.setPen(pg.mkPen(pal.plot_background, width=0.8))
        self.train_points.setBrush(pg.mkBrush(pal.muted))
        self.test_points.setPen(pg.mkPen(pal.plot_text, width=1.4))
        self.curve.setPen(pg.mkPen(first, width=3))
        unit = pg.mkColor(second)
        unit.setAlpha(170)
        self.units.setPen(pg.mkPen(unit, width=1.2))

    def set_point_size(self, size: float) -> None:
        self.train_points.setSize(size * 0.8)
        self.test_points.setSize(size * 0.9)

    def _units_toggled(self, on: bool) -> None:
        self.units.setVisible(on)
        if on:
            self._draw_units()  # (not updated while hidden)

    def _draw_units(self) -> None:
        units = np.asarray(self.view.contributions if self.view is not None else [], dtype=float)
        self._unit_count = count = len(units)
        if not count or not units.size:
            self.units.setData([], [])
            return
        xs = np.tile(np.append(np.asarray(self.view.xs, dtype=float), np.nan), count)
        ys = np.hstack([units, np.full((count, 1), np.nan)]).ravel()
        self.units.setData(xs, ys, connect="finite")

    def unit_curves(self) -> list[np.ndarray]:
        """The drawn contribution of each unit (its y over the curve's xs)."""
        _xs, ys = self.units.getData()
        if not self._unit_count or ys is None or not len(ys):
            return []
        return list(np.asarray(ys).reshape(self._unit_count, -1)[:, :-1])

    def update_view(self, view) -> None:
        """Draw a ``RegressionView`` (None: nothing to draw yet)."""
        self.view = view
        if view is None:
            return
        self.train_points.setData(view.x_train, view.y_train)
        self.test_points.setData(view.x_test, view.y_test)
        self.curve.setData(view.xs, view.curve)
        if self.units.isVisible():
            self._draw_units()
        r2 = f"train R² {format_number(view.train_r2)}"
        if view.test_r2 is not None:
            r2 += f", test R² {format_number(view.test_r2)}"
        self.caption.setText(
            f"Target y = {view.target} · {r2} · thin curves: {len(view.contributions)} unit contributions "
            f"+ bias {format_number(view.bias)} = the model"
        )
