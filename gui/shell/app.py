"""Application start-up: one QApplication, logging, the exception hook, one main window."""

from __future__ import annotations

import gc
import sys

from PySide6.QtCore import QEvent, QObject, QTimer
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
# segmentation faults in libshiboken, BindingManager::releaseWrapper).  ``GuiThreadCollector`` turns the
# automatic collector off and collects on a timer in the GUI thread, with Python's own thresholds.
GC_INTERVAL_S = 1.0


class GuiThreadCollector:
    """pyqtgraph's ``GarbageCollector``, without importing pyqtgraph before the window shows (a third of a second
    here): the automatic collector off, each generation collected on a GUI-thread timer once past its threshold."""

    def __init__(self, interval: float = GC_INTERVAL_S):
        self.threshold = gc.get_threshold()
        gc.disable()
        self.timer = QTimer()
        self.timer.timeout.connect(self.check)
        self.timer.start(int(interval * 1000))

    def check(self) -> None:
        counts = gc.get_count()
        for generation in range(3):
            if counts[generation] <= self.threshold[generation]:
                return
            gc.collect(generation)


def create_app(argv: list[str] | None = None) -> QApplication:
    sys.setswitchinterval(GUI_SWITCH_INTERVAL)
    app = QApplication.instance() or QApplication([sys.argv[0], *(argv or [])])
    if not hasattr(app, "gui_thread_collector"):
        app.gui_thread_collector = GuiThreadCollector(GC_INTERVAL_S)
    app.setApplicationName(APPLICATION)
    app.setOrganizationName(ORGANIZATION)
    app.setApplicationDisplayName(APPLICATION)
    return app


def _freeze_start_up() -> None:
    gc.collect()
    gc.freeze()


class AfterFirstFrame(QObject):
    """Calls ``callbacks`` once, right after ``window`` has painted its first frame: start-up work the window need
    not wait for."""

    def __init__(self, window, *callbacks):
        super().__init__(window)
        self._callbacks = callbacks
        window.installEventFilter(self)

    def eventFilter(self, watched, event) -> bool:
        if event.type() == QEvent.Type.Paint:
            watched.removeEventFilter(self)
            QTimer.singleShot(0, self._run)  # (after this frame)
        return False

    def _run(self) -> None:
        for callback in self._callbacks:
            callback()


def run(argv: list[str] | None = None) -> int:
    app = create_app(argv)
    log_path = setup_logging()
    from .main_window import MainWindow

    window = MainWindow(build_later=True)  # the hidden areas are built after the first frame
    window.reporter.install()  # exceptions in slots: log + dialog, the app keeps running
    log.info("Autograd Playground started (log: %s)", log_path)
    window.show()
    # Once the window's first frame is painted (started earlier, they competed with it and the display server for
    # the CPU): the training process starts in the background, so its first picture (data and boundary) is ready
    # when Network training is first opened (benchmarks/bench_startup.py); then, while the process starts on the
    # other core, the areas the first frame did not show are built, one a turn of the event loop; and then
    # start-up objects (Qt wrappers, modules, examples), which never die, are kept from the collector's rescans on
    # every expression rebuild (benchmarks/bench_engine.py, "after gc.freeze()").
    AfterFirstFrame(
        window, lambda: window.training_controller().start(), lambda: window.build_later_areas(_freeze_start_up)
    )
    try:
        return app.exec()
    finally:
        window.reporter.uninstall()
