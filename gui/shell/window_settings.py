"""Where the window and its splitters were: restored at start, saved at close (a part of ``MainWindow``).

A fresh configuration opens at ``DEFAULT_SIZE``; the screenshot tour's ``--default-size`` mode uses the same
figure, so its pictures are what a new user sees first.
"""

from __future__ import annotations

from PySide6.QtCore import QByteArray, QSize
from PySide6.QtWidgets import QMainWindow, QSplitter

# The window's size on a fresh configuration (a 1600×1000 screen leaves room around it; on a smaller screen the
# window manager shrinks it to the screen).
DEFAULT_SIZE = (1360, 820)


class WindowSettings:
    """Saves and restores ``window``'s geometry, dock state and named splitters in ``settings`` (AppSettings)."""

    def __init__(self, window: QMainWindow, settings):
        self.window = window
        self.settings = settings
        self._splitter_states: dict = {}  # applied at the first show, once the splitters have their real size

    def restore(self) -> None:
        s, window = self.settings, self.window
        geometry = s.get_bytes("window/geometry")
        if isinstance(geometry, QByteArray | bytes) and geometry:
            window.restoreGeometry(geometry)
        size = s.get_bytes("window/size")
        if isinstance(size, QSize) and size.isValid() and not window.isMaximized():
            window.resize(size)  # restoreGeometry shrinks to the current screen; a projector may be bigger
        elif not geometry:
            window.resize(*DEFAULT_SIZE)
        state = s.get_bytes("window/state")
        if isinstance(state, QByteArray | bytes) and state:
            window.restoreState(state)
        self._splitter_states = {}
        for splitter in window.findChildren(QSplitter):
            value = s.get_bytes(f"splitters/{splitter.objectName()}")
            if splitter.objectName() and isinstance(value, QByteArray | bytes) and value:
                splitter.restoreState(value)
                self._splitter_states[splitter] = value

    def save(self) -> None:
        s, window = self.settings, self.window
        s.set("window/geometry", window.saveGeometry())
        s.set("window/state", window.saveState())
        s.set("window/size", window.size())
        for splitter in window.findChildren(QSplitter):
            if splitter.objectName():
                s.set(f"splitters/{splitter.objectName()}", splitter.saveState())

    def shown(self) -> None:
        """The first show: the splitters take their saved sizes again, now that they have their real width."""
        for splitter, value in self._splitter_states.items():
            splitter.restoreState(value)
        self._splitter_states = {}
