"""A tab widget's page frame, as Fusion draws it, painted once per size and palette and then copied.

Fusion's own frame cost 5 ms a paint for the training area's curves (1242 × 274 pixels), and a mode or theme
switch repaints it 4–6 times: 20–30 ms of the switch's repaint.  The picture depends only on the frame's size,
its palette and its state.
"""

from __future__ import annotations

from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtGui import QPainter, QPixmap
from PySide6.QtWidgets import QProxyStyle, QStyle, QStyleOptionTabWidgetFrame

TAB_PAGE_FRAME = QStyle.PrimitiveElement.PE_FrameTabWidget
MAX_PICTURES = 16
_pictures: dict = {}  # (width, height, pixel ratio, palette, state) -> the frame's picture


def draw_tab_page_frame(style: QProxyStyle, option, painter: QPainter, widget) -> None:
    """Draw ``option``'s frame with ``style``'s base (Fusion), from a copy made the first time."""
    ratio = painter.device().devicePixelRatio() if painter.device() is not None else 1.0
    size = option.rect.size()
    key = (size.width(), size.height(), ratio, option.palette.cacheKey(), int(option.state.value))
    picture = _pictures.get(key)
    if picture is None:
        picture = QPixmap(size * ratio)
        picture.setDevicePixelRatio(ratio)
        picture.fill(Qt.GlobalColor.transparent)
        inner = QPainter(picture)
        frame = QStyleOptionTabWidgetFrame(option)
        frame.rect = QRect(QPoint(0, 0), size)
        QProxyStyle.drawPrimitive(style, TAB_PAGE_FRAME, frame, inner, widget)
        inner.end()
        if len(_pictures) >= MAX_PICTURES:
            _pictures.pop(next(iter(_pictures)))
        _pictures[key] = picture
    painter.drawPixmap(option.rect.topLeft(), picture)


def pictures_made() -> dict:
    """The pictures kept (for tests)."""
    return _pictures
