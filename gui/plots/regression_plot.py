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

from ..shell.theme import Palette, palette, plot_text_size
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
        self.contribution_items: list[pg.PlotDataItem] = []
        self.train_points = pg.ScatterPlotItem(size=7, name="train")
        self.test_points = pg.ScatterPlotItem(size=8, name="test", brush=None)
        self.curve = pg.PlotDataItem(name="model")
        self.target_curve = None
        item.addItem(self.train_points)
        item.addItem(self.test_points)
        item.addItem(self.curve)
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
        self._unit_pen = pg.mkPen(unit, width=1.2)
        for item in self.contribution_items:
            item.setPen(self._unit_pen)

    def set_point_size(self, size: float) -> None:
        self.train_points.setSize(size * 0.8)
        self.test_points.setSize(size * 0.9)

    def _units_toggled(self, on: bool) -> None:
        for item in self.contribution_items:
            item.setVisible(on)

    def update_view(self, view) -> None:
        """Draw a ``RegressionView`` (None: nothing to draw yet)."""
        self.view = view
        if view is None:
            return
        self.train_points.setData(view.x_train, view.y_train)
        self.test_points.setData(view.x_test, view.y_test)
        self.curve.setData(view.xs, view.curve)
        units = np.asarray(view.contributions)
        while len(self.contribution_items) < len(units):
            item = pg.PlotDataItem(pen=self._unit_pen)
            item.setZValue(-1)
            item.setVisible(self.show_units.isChecked())
            self.plot.getPlotItem().addItem(item)
            self.contribution_items.append(item)
        while len(self.contribution_items) > len(units):
            self.plot.getPlotItem().removeItem(self.contribution_items.pop())
        for item, ys in zip(self.contribution_items, units):
            item.setData(view.xs, ys)
        r2 = f"train R² {format_number(view.train_r2)}"
        if view.test_r2 is not None:
            r2 += f", test R² {format_number(view.test_r2)}"
        self.caption.setText(
            f"Target y = {view.target} · {r2} · thin curves: {len(units)} unit contributions "
            f"+ bias {format_number(view.bias)} = the model"
        )
