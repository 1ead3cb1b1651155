"""A tab widget's page frame: Fusion's picture, drawn once per size and palette (a mode switch repaints it often)."""

import numpy as np
import pytest
from PySide6.QtCore import QRect
from PySide6.QtGui import QImage, QPainter, QPixmapCache
from PySide6.QtWidgets import QApplication, QStyle, QStyleFactory, QStyleOptionTabWidgetFrame, QTabWidget

from gui.look import app_style, tab_frame

pytestmark = pytest.mark.qt_log_ignore("propagateSizeHints")
FRAME = QStyle.PrimitiveElement.PE_FrameTabWidget


def picture(style, option, widget) -> np.ndarray:
    image = QImage(option.rect.width() + 20, option.rect.height() + 20, QImage.Format.Format_ARGB32)
    image.fill(0)
    painter = QPainter(image)
    style.drawPrimitive(FRAME, option, painter, widget)
    painter.end()
    return np.frombuffer(image.constBits(), np.uint8).reshape(image.height(), -1).copy()


@pytest.mark.parametrize("name", ["light", "dark"])
def test_the_tab_page_frame_is_fusions_and_drawn_once_per_size(qtbot, name):
    app = QApplication.instance()
    app_style.apply_theme(app, name)
    style = app.style()
    assert isinstance(style, app_style.NamedWidgetStyle)
    tabs = QTabWidget()
    qtbot.addWidget(tabs)
    option = QStyleOptionTabWidgetFrame()
    option.initFrom(tabs)
    option.rect = QRect(10, 7, 640, 300)
    fusion = QStyleFactory.create("Fusion")
    QPixmapCache.clear()
    before = tab_frame.pictures_drawn
    ours = picture(style, option, tabs)
    assert np.array_equal(ours, picture(fusion, option, tabs))  # the same pixels, where Fusion puts them
    assert ours.any()
    assert tab_frame.pictures_drawn == before + 1
    assert np.array_equal(picture(style, option, tabs), ours)
    assert tab_frame.pictures_drawn == before + 1  # copied, not drawn again
    option.rect = QRect(0, 0, 320, 200)  # another size: another picture
    assert np.array_equal(picture(style, option, tabs), picture(fusion, option, tabs))
    assert tab_frame.pictures_drawn == before + 2
    app_style.apply_theme(app, "light")
