"""Unexpected exceptions: log them, show them, keep the app running.

PySide6 reports an exception raised in a slot through ``sys.excepthook``; the
default hook only prints it, and an unhandled one in some Qt builds aborts.  The
hook installed here writes the traceback to the log and shows a non-blocking
dialog, so a learner sees what went wrong and can carry on.
"""

from __future__ import annotations

import logging
import sys
import traceback
from pathlib import Path

from PySide6.QtCore import QObject, QStandardPaths, Signal
from PySide6.QtWidgets import QApplication, QMessageBox, QWidget

log = logging.getLogger("autograd_playground")


def default_log_path() -> Path:
    folder = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppDataLocation)
    return Path(folder or Path.home() / ".autograd-playground") / "autograd-playground.log"


def setup_logging(path: Path | None = None) -> Path | None:
    """Log to a file (and stderr); returns the file path, or None if it cannot be written."""
    path = path or default_log_path()
    for handler in [h for h in log.handlers if getattr(h, "_playground", False)]:
        if getattr(handler, "baseFilename", None) == str(path.resolve()):
            return path
        log.removeHandler(handler)
        handler.close()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handler = logging.FileHandler(path, encoding="utf-8")
    except OSError:
        return None
    handler._playground = True
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    log.addHandler(handler)
    log.setLevel(logging.INFO)
    return path


class ErrorReporter(QObject):
    """Turns exceptions into a log entry plus a dialog; ``reported`` is emitted for each."""

    reported = Signal(str)

    def __init__(self, parent_widget: QWidget | None = None):
        super().__init__()
        self.parent_widget = parent_widget
        self.dialogs: list[QMessageBox] = []
        self._previous_hook = None

    def install(self) -> None:
        self._previous_hook = sys.excepthook
        sys.excepthook = self.handle

    def uninstall(self) -> None:
        if self._previous_hook is not None and sys.excepthook == self.handle:
            sys.excepthook = self._previous_hook
        self._previous_hook = None

    def handle(self, exc_type, exc, tb) -> None:
        if issubclass(exc_type, KeyboardInterrupt):
            QApplication.quit()
            return
        text = "".join(traceback.format_exception(exc_type, exc, tb))
        log.error("Unhandled exception:\n%s", text)
        summary = f"{exc_type.__name__}: {exc}"
        self.reported.emit(summary)
        if QApplication.instance() is None:
            sys.__excepthook__(exc_type, exc, tb)
            return
        box = QMessageBox(self.parent_widget)
        box.setIcon(QMessageBox.Icon.Warning)
        box.setWindowTitle("Something went wrong")
        box.setText("An unexpected error occurred. The app keeps running; what you were doing may be incomplete.")
        box.setInformativeText(summary)
        box.setDetailedText(text)
        box.setObjectName("errorDialog")
        box.finished.connect(lambda _r, b=box: self.dialogs.remove(b) if b in self.dialogs else None)
        self.dialogs.append(box)
        box.open()  # non-blocking: the event loop keeps running
