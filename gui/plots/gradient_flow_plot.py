"""Gradient flow over time: the gradient norm that reaches each layer, step by step.

Vanishing gradients show up as a layer's curve sinking towards zero, exploding
ones as a curve shooting up; a log axis keeps both visible.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtWidgets import QVBoxLayout, QWidget

from ..look.theme import Palette, palette, plot_text_size
from .metrics_plots import restyle_step_plot, step_plot


class GradientFlowPlot(QWidget):
    """One curve per layer: ‖∂loss/∂θ‖ of that layer's weights and biases against the step."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.plot = step_plot("Gradient norm per layer", "‖gradient‖")
        item = self.plot.getPlotItem()
        item.setLogMode(y=True)
        self.colors = palette()
        self.legend = item.addLegend(offset=(-10, 10))
        self.curves: list[pg.PlotDataItem] = []
        self.setToolTip(
            "How much gradient reaches each layer at every step (log scale). A layer whose curve sinks towards "
            "zero learns slowly (vanishing gradients)."
        )
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.plot)
        self.apply_palette(self.colors)

    def apply_palette(self, pal: Palette, presentation: bool | None = None) -> None:
        self.colors = pal
        restyle_step_plot(self.plot, pal, presentation)
        self.legend.setBrush(pg.mkBrush(pal.plot_background))
        self.legend.setLabelTextColor(pal.plot_text)
        self.legend.setLabelTextSize(f"{plot_text_size(presentation, 0.9):.1f}pt")
        for i, curve in enumerate(self.curves):
            curve.setPen(self._pen(i))
        for _sample, label in self.legend.items:  # the labels keep the style they were made with
            label.setText(label.text, color=pal.plot_text, size=f"{plot_text_size(presentation, 0.9):.1f}pt")

    def _pen(self, i: int):
        colors = self.colors.layer_colors
        return pg.mkPen(colors[i % len(colors)], width=2)

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
                    pen=self._pen(i),
                    connect="finite",
                )
                for i in range(layers)
            ]
        with np.errstate(divide="ignore", invalid="ignore"):
            for i, curve in enumerate(self.curves):
                column = norms[:, i]
                # A zero norm cannot be drawn on a log axis; leave a gap instead.
                curve.setData(steps, np.where(column > 0, column, np.nan))
