"""Application start-up: one QApplication, logging, the exception hook, one main window."""

from __future__ import annotations

import gc
import sys

from pyqtgraph.util.garbage_collector import GarbageCollector
from PySide6.QtWidgets import QApplication

from .errors import log, setup_logging
from .settings import APPLICATION, ORGANIZATION

# How long a thread holding Python's lock may keep it while another waits (Python's default: 5 ms).  A layout on
# a worker thread holds it while it runs; the GUI thread needs it back for every Python slot, paint and style
# call inside one switch of theme or tab (hundreds), and waited up to 5 ms each time: a 60 ms tab switch took
# 3.3 s while a layout ran.  At 0.1 ms the same switch takes 0.16 s (benchmarks/bench_gui_actions.py
# --worker-busy); a worker alone, with the GUI thread idle, is not slowed.
GUI_SWITCH_INTERVAL = 0.0001
# Python's cyclic garbage collector, left automatic, runs in whichever thread happens to allocate: the training
# reader, a graph's build or layout.  A cycle it frees there may hold a Qt object (a plot item, a table cell)
# that is then destroyed off the GUI thread while the GUI thread is inside Qt (most likely the monkey's rare
# segmentation faults in libshiboken, BindingManager::releaseWrapper).  pyqtgraph's GarbageCollector turns the
# automatic collector off and collects on a timer in the GUI thread, with Python's own thresholds.
GC_INTERVAL_S = 1.0


def create_app(argv: list[str] | None = None) -> QApplication:
    sys.setswitchinterval(GUI_SWITCH_INTERVAL)
    app = QApplication.instance() or QApplication([sys.argv[0], *(argv or [])])
    if not hasattr(app, "gui_thread_collector"):
        app.gui_thread_collector = GarbageCollector(interval=GC_INTERVAL_S)
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
    # The training process starts now, in the background, while the window shows: its first picture (data and
    # boundary) is ready when Network training is first opened (benchmarks/bench_startup.py).
    window.training.controller.start()
    window.show()
    # Start-up objects (Qt wrappers, modules, examples) never die: keep the collector from rescanning them
    # on every expression rebuild (benchmarks/bench_engine.py, "after gc.freeze()").
    gc.collect()
    gc.freeze()
    try:
        return app.exec()
    finally:
        window.reporter.uninstall()
