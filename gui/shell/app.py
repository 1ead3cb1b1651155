"""Application start-up: one QApplication (the wheel scrolls, never edits), logging, the exception hook, one main
window."""

from __future__ import annotations

import gc
import sys

from pyqtgraph.util.garbage_collector import GarbageCollector
from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import QAbstractSlider, QAbstractSpinBox, QApplication, QComboBox, QScrollBar, QWidget

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


def wheel_edited(widget: QWidget) -> QWidget | None:
    """The spin box, combo box or slider (not a scroll bar) that a wheel over ``widget`` would edit, if any."""
    while widget is not None:
        if isinstance(widget, (QAbstractSpinBox, QComboBox)) or (
            isinstance(widget, QAbstractSlider) and not isinstance(widget, QScrollBar)
        ):
            return widget
        if widget.isWindow():
            return None
        widget = widget.parentWidget()
    return None


class WheelScrolls(QObject):
    """The wheel scrolls; it edits a spin box, combo box or slider only once that has keyboard focus (a click
    or Tab).  Scrolling a form with the wheel used to change whatever passed under the pointer (Samples 200 →
    195, and the data set was made again).  One filter on the application, so every control, present and
    future, behaves alike; the wheel no longer gives them focus either (StrongFocus, not WheelFocus)."""

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        if kind == QEvent.Type.Polish:
            if watched.isWidgetType() and watched.focusPolicy() == Qt.FocusPolicy.WheelFocus and wheel_edited(watched):
                watched.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
            return False
        if kind != QEvent.Type.Wheel or not watched.isWidgetType():
            return False
        control = wheel_edited(watched)
        if control is None:
            return False
        focused = QApplication.focusWidget()
        if focused is not None and (focused is control or control.isAncestorOf(focused)):
            return False  # chosen by a click or Tab: the wheel edits it, as before
        event.accept()  # (taken: Qt passes it no further up)
        spot, widget = event.globalPosition(), control
        while not widget.isWindow():  # up from the control's parent, as Qt passes on a wheel nobody took
            widget = widget.parentWidget()
            forwarded = QWheelEvent(
                widget.mapFromGlobal(spot),
                spot,
                event.pixelDelta(),
                event.angleDelta(),
                event.buttons(),
                event.modifiers(),
                event.phase(),
                event.inverted(),
                event.source(),
            )
            QApplication.sendEvent(widget, forwarded)  # (one Qt sends itself passes up no further)
            if forwarded.isAccepted():  # its scroll area scrolled (or a view zoomed)
                break
        return True


def install_wheel_guard(app: QApplication) -> None:
    """Once per application (tests build windows on pytest-qt's application, and install it there too)."""
    if getattr(app, "wheel_guard", None) is None:
        app.wheel_guard = WheelScrolls(app)
        app.installEventFilter(app.wheel_guard)


def create_app(argv: list[str] | None = None) -> QApplication:
    sys.setswitchinterval(GUI_SWITCH_INTERVAL)
    app = QApplication.instance() or QApplication([sys.argv[0], *(argv or [])])
    if not hasattr(app, "gui_thread_collector"):
        app.gui_thread_collector = GarbageCollector(interval=GC_INTERVAL_S)
    install_wheel_guard(app)
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
