"""Application start-up: one QApplication, logging, the exception hook, one main window."""

from __future__ import annotations

import gc
import sys

from PySide6.QtWidgets import QApplication

from .errors import log, setup_logging
from .settings import APPLICATION, ORGANIZATION


def create_app(argv: list[str] | None = None) -> QApplication:
    app = QApplication.instance() or QApplication([sys.argv[0], *(argv or [])])
    app.setApplicationName(APPLICATION)
    app.setOrganizationName(ORGANIZATION)
    app.setApplicationDisplayName(APPLICATION)
    return app


def run(argv: list[str] | None = None) -> int:
    app = create_app(argv)
    log_path = setup_logging()
    from .main_window import MainWindow

    window = MainWindow()
    window.reporter.install()  # exceptions in slots: log + dialog, the app keeps running
    log.info("Autograd Playground started (log: %s)", log_path)
    window.show()
    # Start-up objects (Qt wrappers, modules, examples) never die: keep the collector from rescanning them
    # on every expression rebuild (benchmarks/bench_engine.py, "after gc.freeze()").
    gc.collect()
    gc.freeze()
    try:
        return app.exec()
    finally:
        window.reporter.uninstall()
