"""File → Save session, Open session and the Recent files menu, composed into the main window.

A session file holds each area's part (an area opts in through ``SessionArea`` and ``TrainerArea``, see
``areas.py``); a file that cannot be read is reported in one message and nothing on screen changes.
"""

from __future__ import annotations

import os
from collections.abc import Callable

from PySide6.QtWidgets import QFileDialog, QMenu, QWidget

from .areas import SessionArea, TrainerArea
from .settings import AppSettings

SESSION_FILTER = "Autograd Playground session (*.agp.json *.json);;All files (*)"


class SessionFiles:
    """Saves and opens sessions of ``areas`` and keeps the Recent files menu; ``path`` is the session open now."""

    def __init__(
        self,
        parent: QWidget,
        areas: dict[str, QWidget],
        settings: AppSettings,
        recent_menu: QMenu,
        warn: Callable[[str, str], object],
        show_status: Callable[[str], None],
    ):
        self.parent = parent
        self.areas = areas
        self.settings = settings
        self.recent_menu = recent_menu
        self.warn = warn
        self.show_status = show_status
        self.path: str | None = None

    def _session_module(self):
        try:
            from autograd_core import session
        except ImportError:
            self.warn("Sessions unavailable", "Saving sessions needs autograd_core.session.")
            return None
        return session

    def save(self) -> bool:
        if self.path:
            return self.save_to(self.path)
        return self.save_as()

    def save_as(self) -> bool:
        path, _ = QFileDialog.getSaveFileName(self.parent, "Save session", self.dialog_dir(), SESSION_FILTER)
        if not path:
            return False
        if not os.path.splitext(path)[1]:
            path += ".agp.json"
        return self.save_to(path)

    def save_to(self, path: str) -> bool:
        session = self._session_module()
        if session is None:
            return False
        extra, trainer, runs = {}, None, None
        for key, area in self.areas.items():
            if isinstance(area, SessionArea):
                extra[key] = area.session_state()
            if trainer is None and isinstance(area, TrainerArea):
                trainer, runs = area.session_trainer(), area.session_runs()
        try:
            session.save_session(path, trainer=trainer, extra=extra, runs=runs)
        except session.SessionError as err:
            self.warn("Could not save the session", str(err))
            return False
        self.path = path
        self._remember(path)
        thinned = ""
        if trainer is not None and len(trainer.history) > session.SAVED_HISTORY_STEPS:
            thinned = f" (its {len(trainer.history):,}-step history thinned to {session.SAVED_HISTORY_STEPS:,} steps)"
        self.show_status(f"Session saved to {path}{thinned}")
        return True

    def open_dialog(self) -> bool:
        path, _ = QFileDialog.getOpenFileName(self.parent, "Open session", self.dialog_dir(), SESSION_FILTER)
        return self.open(path) if path else False

    def open(self, path: str) -> bool:
        """Load a session; a bad file is reported and nothing on screen changes."""
        session = self._session_module()
        if session is None:
            return False
        try:
            data = session.load_session(path)
        except session.SessionError as err:
            self.warn("Could not open the session", str(err))
            if not os.path.exists(path):
                self.settings.remove_recent_file(path)
                self.rebuild_recent_menu()
            return False
        try:
            for key, area in self.areas.items():
                if isinstance(area, SessionArea) and (key in data.extra or key != "expression"):
                    section = data.extra.get(key) or {}
                    if key == "expression":
                        area.restore_session(section)
                    else:
                        area.restore_session(section, data)
        except (ValueError, TypeError, KeyError) as err:
            self.warn("Could not open the session", f"{path}: {err}")
            return False
        self.path = path
        self._remember(path)
        self.show_status(f"Session opened: {path}")
        return True

    def dialog_dir(self) -> str:
        recent = self.settings.recent_files()
        return os.path.dirname(recent[0]) if recent else os.path.expanduser("~")

    def _remember(self, path: str) -> None:
        self.settings.add_recent_file(os.path.abspath(path))
        self.rebuild_recent_menu()

    def rebuild_recent_menu(self) -> None:
        self.recent_menu.clear()
        files = self.settings.recent_files()
        for path in files:
            action = self.recent_menu.addAction(os.path.basename(path))
            action.setToolTip(path)
            action.setStatusTip(path)
            action.setData(path)
            action.triggered.connect(lambda _c=False, p=path: self.open(p))
        if files:
            self.recent_menu.addSeparator()
            clear = self.recent_menu.addAction("Clear list")
            clear.setToolTip("Forget the recent files")
            clear.triggered.connect(self._clear_recent)
        self.recent_menu.setEnabled(bool(files))

    def _clear_recent(self) -> None:
        self.settings.clear_recent_files()
        self.rebuild_recent_menu()
