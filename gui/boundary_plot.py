"""The decision boundary: P(class 1) as a heat map, its 0.5 contour, and the data on top.

Everything heavy (the grid forward pass, the contour) is computed by the
worker; this widget only hands arrays to pyqtgraph, so a frame costs well
under a millisecond of Python.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QRectF, Qt, Signal
from PySide6.QtWidgets import QCheckBox, QHBoxLayout, QLabel, QVBoxLayout, QWidget

from gui.training_process import Snapshot
from gui.training_style import CLASS_COLORS, CONTOUR_COLOR, POINT_OUTLINE, probability_colormap


class BoundaryPlot(QWidget):
    """Heat map + 0.5 contour + train (filled) and test (hollow) points + colour bar."""

    togglesChanged = Signal()

    def __init__(self, parent=None):
        super().__init__(parent)
        self.plot = pg.PlotWidget(background="w")
        self.plot.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
        item = self.plot.getPlotItem()
        item.setTitle("Decision boundary: P(class 1)", color="#202124", size="11pt")
        item.setLabel("bottom", "x₁")
        item.setLabel("left", "x₂")
        item.setMenuEnabled(False)
        item.hideButtons()
        self.plot.setAspectLocked(True)
        for axis in ("bottom", "left"):
            item.getAxis(axis).setPen("#5f6368")
            item.getAxis(axis).setTextPen("#202124")

        self.image = pg.ImageItem(axisOrder="col-major")
        self.image.setZValue(-10)
        item.addItem(self.image)
        self.colorbar = pg.ColorBarItem(
            values=(0.0, 1.0), colorMap=probability_colormap(), interactive=False, width=16, label="P(class 1)"
        )
        self.colorbar.setImageItem(self.image, insert_in=item)
        self.contour = pg.PlotCurveItem(pen=pg.mkPen(CONTOUR_COLOR, width=2.5), connect="pairs")
        self.contour.setZValue(5)
        item.addItem(self.contour)

        self._brushes = [pg.mkBrush(c) for c in CLASS_COLORS]
        self._ring_pens = [pg.mkPen(c, width=2.5) for c in CLASS_COLORS]
        self.train_points = pg.ScatterPlotItem(size=9, pen=pg.mkPen(POINT_OUTLINE, width=1), name="train")
        self.test_points = pg.ScatterPlotItem(size=10, brush=pg.mkBrush(0, 0, 0, 0), name="test")
        self.train_points.setZValue(10)
        self.test_points.setZValue(11)
        item.addItem(self.train_points)
        item.addItem(self.test_points)

        self.discretise = QCheckBox("Discretise")
        self.discretise.setToolTip("Colour each point of the plane by the predicted class only (P > 0.5 or not)")
        self.show_test = QCheckBox("Show test data")
        self.show_test.setChecked(True)
        self.show_test.setToolTip("Draw the held-out test points (hollow circles) on the map")
        self.discretise.toggled.connect(self._redraw_image)
        self.discretise.toggled.connect(self.togglesChanged)
        self.show_test.toggled.connect(self.test_points.setVisible)
        self.show_test.toggled.connect(self.togglesChanged)
        key = QLabel(
            f"<span style='color:{CLASS_COLORS[0]}'>●</span> class 0 &nbsp; "
            f"<span style='color:{CLASS_COLORS[1]}'>●</span> class 1 &nbsp; filled = train, hollow = test, "
            "black line = boundary (P = 0.5)"
        )
        key.setObjectName("hintLabel")
        key.setWordWrap(True)

        toggles = QHBoxLayout()
        toggles.addWidget(self.discretise)
        toggles.addWidget(self.show_test)
        toggles.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.plot, 1)
        layout.addLayout(toggles)
        layout.addWidget(key)

        self._dataset = None
        self._grid = None
        self._extent = None

    # --------------------------------------------------------------- updates

    def update_snapshot(self, snap: Snapshot) -> None:
        if snap.dataset is not self._dataset and snap.dataset is not None:
            self._set_points(snap.dataset)
        if snap.grid is not None:
            self._grid = snap.grid
            self._redraw_image()
            self.contour.setData(snap.grid.contour_x, snap.grid.contour_y)

    def _set_points(self, dataset) -> None:
        self._dataset = dataset
        X, y = np.asarray(dataset.X_train, float), np.asarray(dataset.y_train, int)
        self.train_points.setData(pos=X, brush=[self._brushes[c] for c in y])
        Xt, yt = np.asarray(dataset.X_test, float), np.asarray(dataset.y_test, int)
        self.test_points.setData(pos=Xt, pen=[self._ring_pens[c] for c in yt], brush=pg.mkBrush(0, 0, 0, 0))

    def _redraw_image(self) -> None:
        grid = self._grid
        if grid is None:
            return
        prob = grid.probability
        if self.discretise.isChecked():
            prob = (prob > 0.5).astype(float)
        # The worker's array is row-major (prob[i, j] at y_i, x_j); the image item wants [x, y].
        self.image.setImage(prob.T, autoLevels=False, levels=(0.0, 1.0))
        if grid.extent != self._extent:
            self._extent = grid.extent
            x0, x1, y0, y1 = grid.extent
            n_y, n_x = prob.shape
            dx, dy = (x1 - x0) / (n_x - 1), (y1 - y0) / (n_y - 1)
            # Pixel centres sit on the grid points, so the contour and the colours line up.
            self.image.setRect(QRectF(x0 - dx / 2, y0 - dy / 2, x1 - x0 + dx, y1 - y0 + dy))
            self.plot.getPlotItem().setRange(xRange=(x0, x1), yRange=(y0, y1), padding=0)

    def set_point_size(self, size: float) -> None:
        self.train_points.setSize(size)
        self.test_points.setSize(size + 1)

    # ---------------------------------------------------------------- state

    def view_state(self) -> dict:
        return {"discretise": self.discretise.isChecked(), "show_test": self.show_test.isChecked()}

    def restore_view_state(self, state: dict) -> None:
        self.discretise.setChecked(bool(state.get("discretise", False)))
        self.show_test.setChecked(bool(state.get("show_test", True)))
