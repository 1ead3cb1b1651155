"""A layout that wraps its widgets onto more lines when the row is too narrow (Qt's "flow layout" example).

Tool rows above the views (the boundary's paint tools, the sample entry, the graph's toolbar) use it, so a
narrow window or presentation mode's larger fonts reflow them instead of clipping their text.  A stretch item
(``addStretch``) pushes the rest of its line to the right when everything fits on one line.
"""

from __future__ import annotations

from PySide6.QtCore import QPoint, QRect, QSize, Qt
from PySide6.QtWidgets import QLayout, QLayoutItem, QSizePolicy, QSpacerItem, QWidget, QWidgetItem


class FlowLayout(QLayout):
    def __init__(self, parent: QWidget | None = None, spacing: int = 6):
        super().__init__(parent)
        self._items: list[QLayoutItem] = []
        self._spacing = spacing
        self._heights: dict[int, int] = {}  # heightForWidth's answers since the last invalidate()
        self.setContentsMargins(0, 0, 0, 0)

    # QLayout's interface
    def addItem(self, item: QLayoutItem) -> None:
        self._items.append(item)
        self._heights.clear()

    def addWidget(self, widget: QWidget) -> None:
        self.addChildWidget(widget)
        self.addItem(QWidgetItem(widget))

    def addStretch(self) -> None:
        self.addItem(QSpacerItem(0, 0, QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Minimum))

    def addSpacing(self, size: int) -> None:
        self.addItem(QSpacerItem(size, 0, QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Minimum))

    def count(self) -> int:
        return len(self._items)

    def itemAt(self, index: int):
        return self._items[index] if 0 <= index < len(self._items) else None

    def takeAt(self, index: int):
        self._heights.clear()
        return self._items.pop(index) if 0 <= index < len(self._items) else None

    def expandingDirections(self) -> Qt.Orientation:
        return Qt.Orientation(0)

    def hasHeightForWidth(self) -> bool:
        return True

    def heightForWidth(self, width: int) -> int:
        # Asked tens of times per relayout (each splitter and box layout above asks again): cached until a child
        # changes, which invalidates the layout.
        if width not in self._heights:
            self._heights[width] = self._do_layout(QRect(0, 0, width, 0), apply=False)
        return self._heights[width]

    def invalidate(self) -> None:
        self._heights.clear()
        super().invalidate()

    def setGeometry(self, rect: QRect) -> None:
        super().setGeometry(rect)
        self._do_layout(rect, apply=True)

    def sizeHint(self) -> QSize:
        width = sum(i.sizeHint().width() for i in self._visible()) + self._spacing * max(0, len(self._visible()) - 1)
        height = max((i.sizeHint().height() for i in self._visible()), default=0)
        m = self.contentsMargins()
        return QSize(width + m.left() + m.right(), height + m.top() + m.bottom())

    def minimumSize(self) -> QSize:
        size = QSize()
        for item in self._visible():
            size = size.expandedTo(item.minimumSize())
        m = self.contentsMargins()
        return size + QSize(m.left() + m.right(), m.top() + m.bottom())

    # the work
    def _visible(self) -> list[QLayoutItem]:
        return [i for i in self._items if not (i.widget() is not None and i.widget().isHidden())]

    def _do_layout(self, rect: QRect, apply: bool) -> int:
        m = self.contentsMargins()
        area = rect.adjusted(m.left(), m.top(), -m.right(), -m.bottom())
        lines: list[list[tuple[QLayoutItem, QSize]]] = [[]]
        x = 0
        for item in self._visible():
            hint = item.sizeHint()
            if item.hasHeightForWidth() and hint.width() > area.width() > 0:
                # a word-wrapped widget wider than the row: it wraps at the row's width, on a line of its own
                hint = QSize(area.width(), item.heightForWidth(area.width()))
            if item.widget() is None and item.expandingDirections() & Qt.Orientation.Horizontal:
                hint = QSize(0, 0)  # a stretch: room is shared out below
            if lines[-1] and x + hint.width() > area.width():
                lines.append([])
                x = 0
            lines[-1].append((item, hint))
            x += hint.width() + self._spacing
        y = area.y()
        for line in lines:
            height = max((h.height() for _i, h in line), default=0)
            if apply:
                used = sum(h.width() for _i, h in line) + self._spacing * max(0, len(line) - 1)
                stretches = [i for i, _h in line if i.widget() is None and i.expandingDirections()]
                extra = max(0, area.width() - used) // len(stretches) if stretches else 0
                x = area.x()
                for item, hint in line:
                    width = min(hint.width(), area.width()) + (extra if item in stretches else 0)
                    item.setGeometry(QRect(QPoint(x, y + (height - hint.height()) // 2), QSize(width, hint.height())))
                    x += width + self._spacing
            y += height + self._spacing
        return y - self._spacing - area.y() + m.top() + m.bottom() if lines[0] else 0
