"""The training area's "Landscape" view: the loss around the current weights, with the path that led there.

The numbers (``autograd_core.lab.landscape.Landscape``) are computed in the training
process on request; this widget only draws them and says, with ``requested``,
when it wants a new one (the Refresh button, the plane chosen, or — with
*Follow training* — again after each one while training runs, at most every
``FOLLOW_INTERVAL_S`` and never more than a quarter of the time).
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import QCheckBox, QComboBox, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from autograd_core.numbers import format_fixed, format_number, format_percent

from ..look.theme import current_theme, lab_colors, palette, presentation_on, theme_notifier
from ..training.training_style import map_plot, style_plot
from .surface_image import BandKey, beside, show_bands

PLANES = {
    "random": "Random directions",  # (filter-normalized: the tooltip says how)
    "pca": "Path's main directions",
}
FOLLOW_INTERVAL_S = 2.0
FOLLOW_SHARE = 0.25


class LandscapePlot(QWidget):
    requested = Signal(str)  # the plane ("random" or "pca"): please compute a landscape

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("landscapePlot")
        self.theme = current_theme()
        self.presentation = presentation_on()
        self.current = None
        self._caption = ("", "")  # (full, short): the short one when the full one would squeeze the map
        self.plane_combo = QComboBox()
        self.plane_combo.setObjectName("landscapePlane")
        for key, text in PLANES.items():
            self.plane_combo.addItem(text, key)
        self.plane_combo.setToolTip(
            "Random directions: two Gaussian directions, filter-normalized (each neuron's part scaled to that "
            "neuron's weights, Li et al. 2018).  Path's main directions: the two principal directions along which "
            "the training path moved most."
        )
        self.plane_combo.currentIndexChanged.connect(lambda _i: self.request())
        self.refresh_button = QPushButton("Refresh")
        self.refresh_button.setObjectName("landscapeRefresh")
        self.refresh_button.setToolTip("Compute the landscape around the current weights (in the training process)")
        self.refresh_button.clicked.connect(self.request)
        self.follow_box = QCheckBox("Follow training")
        self.follow_box.setObjectName("landscapeFollow")
        self.follow_box.setToolTip(
            f"Recompute while training runs (at most every {format_number(FOLLOW_INTERVAL_S)} s, "
            "and at most a quarter of the time)"
        )
        self.follow_timer = QTimer(self)
        self.follow_timer.setSingleShot(True)
        self.follow_timer.timeout.connect(self.request)
        bar = QHBoxLayout()
        bar.setContentsMargins(0, 0, 0, 0)
        bar.addWidget(self.plane_combo, 1)
        bar.addWidget(self.follow_box)
        bar.addWidget(self.refresh_button)
        self.plot, self.image = map_plot("landscapeMap", "α (along d₁)", "β (along d₂)")
        self.path = pg.PlotDataItem(symbol="o", symbolSize=4)
        self.path.setZValue(10)
        self.plot.addItem(self.path)
        self.now = pg.ScatterPlotItem(symbol="o", size=13)
        self.now.setZValue(11)
        self.plot.addItem(self.now)
        self.caption = QLabel("Show this tab (or press Refresh) to compute the loss around the current weights.")
        self.caption.setObjectName("landscapeCaption")
        self.caption.setWordWrap(True)
        self.caption.setTextFormat(Qt.TextFormat.RichText)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(bar)
        self.band_key = BandKey("loss")  # the map's color scale: which band is which loss
        layout.addWidget(beside(self.plot, self.band_key), 1)
        layout.addWidget(self.caption)
        self.set_theme(self.theme)
        theme_notifier().changed.connect(self._theme_changed)  # a runtime theme or mode switch restyles the map

    @property
    def plane(self) -> str:
        return self.plane_combo.currentData()

    def request(self) -> None:
        self.follow_timer.stop()
        self._set_caption("Computing the landscape in the training process…")
        self.requested.emit(self.plane)

    def follow_next(self, running: bool) -> None:
        """After a landscape arrived: ask for the next one later, if following and training runs."""
        if self.follow_box.isChecked() and running and self.current is not None:
            wait = max(FOLLOW_INTERVAL_S, self.current.seconds / FOLLOW_SHARE)
            self.follow_timer.start(int(1000 * wait))

    def show_landscape(self, landscape) -> None:
        self.current = landscape
        L = landscape
        show_bands(self.image, L.losses, L.levels, L.alphas, L.betas, self.theme)
        self.band_key.set_bands(L.levels, self.theme)
        x0, x1, y0, y1 = L.extent
        self.plot.getPlotItem().getViewBox().setRange(xRange=(x0, x1), yRange=(y0, y1), padding=0)
        path = np.asarray(L.path)
        if len(path):
            self.path.setData(path[:, 0], path[:, 1])
            self.now.setData([path[-1, 0]], [path[-1, 1]])
        else:
            self.path.setData([], [])
            self.now.setData([0.0], [0.0])
        f = format_number
        if L.mode == "random":
            plane = f"two random directions d₁, d₂ (seed {L.seed}), each neuron's part scaled to its weights' norm"
        else:
            share = sum(L.variance or (0.0, 0.0))
            plane = f"the path's two principal directions ({format_percent(share, 0)} of its movement)"
        finite = L.losses[np.isfinite(L.losses)]
        low = f(float(finite.min())) if finite.size else "nan"
        self._set_caption(
            f"Training loss over θ + α·d₁ + β·d₂ at step {L.step}: {plane}. Here (●) {f(L.center_loss)}, lowest "
            f"on the map {low}. The line is the training path ({len(path)} points) projected onto this plane. "
            f"{len(L.alphas)}×{len(L.betas)} grid in {format_fixed(L.seconds, 2)} s, in the training process.",
            f"Training loss over θ + α·d₁ + β·d₂ at step {L.step}. Here (●) {f(L.center_loss)}, "
            f"lowest {low}. (Hover for more.)",
        )

    def _set_caption(self, full: str, short: str | None = None) -> None:
        self._caption = (full, short or full)
        self.caption.setToolTip(full if short else "")
        self._fit_caption()

    def _fit_caption(self) -> None:
        """The whole caption when it takes at most a fifth of the height, else its short form."""
        full, short = self._caption
        width = max(self.width(), 1)
        probe = QLabel(full)
        probe.setWordWrap(True)
        probe.setFont(self.caption.font())
        fits = probe.heightForWidth(width) <= 0.2 * self.height()
        text = full if fits or not self.isVisible() else short
        if self.caption.text() != text:
            self.caption.setText(text)

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._fit_caption()

    def _theme_changed(self, theme: str, presentation: bool) -> None:
        self.presentation = presentation
        self.set_theme(theme)

    def clear(self) -> None:
        self.current = None
        self.follow_timer.stop()
        self.image.clear()
        self.path.setData([], [])
        self.now.setData([], [])

    def set_theme(self, theme: str) -> None:
        self.theme = theme
        lab = lab_colors(theme)
        style_plot(self.plot, palette(theme), self.presentation)  # the palette's colors, the mode's text sizes
        racer = lab.racers[0]
        self.path.setPen(pg.mkPen(racer, width=2))
        self.path.setSymbolBrush(pg.mkBrush(racer))
        self.path.setSymbolPen(None)
        self.now.setBrush(pg.mkBrush(racer))
        self.now.setPen(pg.mkPen(lab.text, width=1.5))
        if self.current is not None:
            self.show_landscape(self.current)
