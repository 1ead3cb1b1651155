"""A tab widget's page frame, as Fusion draws it, painted once per size and palette and then copied.

Fusion's own frame cost 5 ms a paint for the training area's curves (1242 × 274 pixels), and a mode or theme
switch repaints it 4–6 times: 20–30 ms of the switch's repaint.  The picture depends only on the frame's size,
its palette and its state; it is kept in Qt's pixmap cache (bounded in memory, least recently used first out).
"""

from __future__ import annotations

from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtGui import QPainter, QPixmap, QPixmapCache
from PySide6.QtWidgets import QProxyStyle, QStyle, QStyleOptionTabWidgetFrame

TAB_PAGE_FRAME = QStyle.PrimitiveElement.PE_FrameTabWidget
pictures_drawn = 0  # how many frames Fusion itself has drawn (the rest were copies)


def draw_tab_page_frame(style: QProxyStyle, option, painter: QPainter, widget) -> None:
    """Draw ``option``'s frame with ``style``'s base (Fusion), from a copy made the first time."""
    global pictures_drawn
    ratio = painter.device().devicePixelRatio() if painter.device() is not None else 1.0
    size = option.rect.size()
    key = f"agp-tab-frame-{size.width()}x{size.height()}@{ratio}-{option.palette.cacheKey()}-{option.state.value}"
    picture = QPixmapCache.find(key)
    if picture is None:
        picture = QPixmap(size * ratio)
        picture.setDevicePixelRatio(ratio)
        picture.fill(Qt.GlobalColor.transparent)
        inner = QPainter(picture)
        frame = QStyleOptionTabWidgetFrame(option)
        frame.rect = QRect(QPoint(0, 0), size)
        QProxyStyle.drawPrimitive(style, TAB_PAGE_FRAME, frame, inner, widget)
        inner.end()
        QPixmapCache.insert(key, picture)
        pictures_drawn += 1
    painter.drawPixmap(option.rect.topLeft(), picture)
