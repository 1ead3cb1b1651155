"""Gradient flow over time: the gradient norm that reaches each layer, step by step.

Vanishing gradients show up as a layer's curve sinking towards zero, exploding
ones as a curve shooting up; a log axis keeps both visible.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtWidgets import QVBoxLayout, QWidget

from gui.metrics_plots import step_plot

LAYER_COLORS = ("#1565c0", "#ef6c00", "#2e7d32", "#6a1b9a", "#c62828", "#00838f", "#5d4037", "#455a64")


class GradientFlowPlot(QWidget):
    """One curve per layer: ‖∂loss/∂θ‖ of that layer's weights and biases against the step."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.plot = step_plot("Gradient norm per layer", "‖gradient‖")
        item = self.plot.getPlotItem()
        item.setLogMode(y=True)
        self.legend = item.addLegend(offset=(-10, 10), labelTextColor="#202124", brush=pg.mkBrush("w"))
        self.curves: list[pg.PlotDataItem] = []
        self.setToolTip(
            "How much gradient reaches each layer at every step (log scale). A layer whose curve sinks towards "
            "zero learns slowly (vanishing gradients)."
        )
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.plot)

    def update_norms(self, steps: np.ndarray, norms: np.ndarray) -> None:
        """``norms`` has one row per step and one column per layer."""
        norms = np.asarray(norms, dtype=float).reshape(len(steps), -1) if len(steps) else np.zeros((0, 0))
        layers = norms.shape[1] if norms.size else 0
        if layers != len(self.curves):
            for curve in self.curves:
                self.plot.removeItem(curve)
            self.legend.clear()
            self.curves = [
                self.plot.plot(
                    name=f"layer {i + 1}" if i < layers - 1 else "output layer",
                    pen=pg.mkPen(LAYER_COLORS[i % len(LAYER_COLORS)], width=2),
                    connect="finite",
                )
                for i in range(layers)
            ]
        with np.errstate(divide="ignore", invalid="ignore"):
            for i, curve in enumerate(self.curves):
                column = norms[:, i]
                # A zero norm cannot be drawn on a log axis; leave a gap instead.
                curve.setData(steps, np.where(column > 0, column, np.nan))
