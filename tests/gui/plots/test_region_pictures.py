"""The live boundary map and the PNG export paint a RegionGrid with one function (autograd_core.learn.regions)."""

import numpy as np
import pytest
from PySide6.QtGui import QImage

from autograd_core.learn.nn import MLP
from autograd_core.learn.regions import class_regions, region_rgba
from autograd_core.live.service import Snapshot
from gui.look.theme import PALETTES
from gui.plots.boundary_plot import BoundaryPlot
from gui.plots.boundary_png import map_pixels
from gui.training.training_style import region_colors

EXTENT = (-2.0, 2.0, -1.5, 2.5)


def _rendered(plot: BoundaryPlot) -> np.ndarray:
    """The map's pixels as pyqtgraph renders them (row i = the grid's row i)."""
    plot.image.render()
    img = plot.image.qimage.convertToFormat(QImage.Format.Format_RGBA8888)
    w, h = img.width(), img.height()
    buf = np.frombuffer(img.constBits(), dtype=np.uint8, count=img.sizeInBytes()).reshape(h, img.bytesPerLine())
    return buf[:, : 4 * w].reshape(h, w, 4).copy()  # (the QImage owns the bytes)


@pytest.mark.parametrize("classes", [2, 3])
def test_the_live_map_and_the_png_paint_the_same_rgba_of_one_grid(qtbot, classes):
    grid = class_regions(MLP(2, [6, 1 if classes == 2 else classes], seed=classes), EXTENT, resolution=30)
    light = PALETTES["light"]
    expected = region_rgba(grid, **region_colors(light))
    assert len({tuple(c) for c in expected.reshape(-1, 4).tolist()}) > 20  # a real picture, not one color
    plot = BoundaryPlot()
    qtbot.addWidget(plot)
    plot.apply_palette(light)
    plot.update_snapshot(Snapshot(generation=1, grid=grid))
    # the live map: the array handed to pyqtgraph, and what pyqtgraph makes of it (bytes as they are)
    np.testing.assert_array_equal(plot.image.image.transpose(1, 0, 2), expected)
    np.testing.assert_array_equal(_rendered(plot), expected)
    # the PNG: the same pixels, its rows from the top down
    np.testing.assert_array_equal(map_pixels(grid, light)[::-1], expected)
    # the boundary drawn is the grid's own
    x, y = plot.contour.getData()
    np.testing.assert_array_equal(x, grid.boundary_x)
    np.testing.assert_array_equal(y, grid.boundary_y)
    # discretized: the winner's color everywhere
    plot.discretize.setChecked(True)
    np.testing.assert_array_equal(_rendered(plot), region_rgba(grid, discrete=True, **region_colors(light)))


def test_the_first_map_of_three_classes_shows_its_colors(qtbot):
    """The color bar is not tied to the image: it pushed its 0…1 levels onto the first RGBA map (saturated, white)."""
    for theme in ("dark", "light"):
        plot = BoundaryPlot()
        qtbot.addWidget(plot)
        plot.apply_palette(PALETTES[theme])  # (as the workspace does before the first snapshot)
        three = class_regions(MLP(2, [6, 3], seed=2), EXTENT, resolution=20)
        plot.update_snapshot(Snapshot(generation=1, grid=three))
        np.testing.assert_array_equal(_rendered(plot), region_rgba(three, **region_colors(PALETTES[theme])))
        assert plot.colorbar.values == (0.0, 1.0)  # the bar keeps its probability scale
