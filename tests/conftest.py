"""Test set-up: Qt draws offscreen (no display needed), the repo root is importable, and the training-area fixtures.

The tests are in three folders: ``core/`` (the library; runs without Qt installed, as CI proves in a venv
without PySide6), ``gui/`` (pytest-qt) and ``e2e/`` (real subprocesses: the training process, the command
line, ``pip install``). Every Qt import below is inside a fixture, so the core tests never load Qt.
A test of several seconds of CPU carries pyproject's ``slow`` marker: the README's command leaves it out
(``-m "not slow"``) and CI runs it too (``-m slow``), so a newcomer's run stays short and nothing goes untested.

``ws`` runs the training engine in this process (``InProcessWorker``: the same
engine, commands and snapshots, driven by a timer), so a test does not pay a
child interpreter's start-up; ``process_ws`` uses the real training process,
for the tests where the process is the point.
"""

import os
import sys
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))  # the shared helpers beside this file (graph_cases, ...)


def pytest_configure(config):
    config.addinivalue_line("markers", "first_start: the window opens Start here on first start, as for a new user")


@pytest.fixture(autouse=True)
def _no_start_here_dock(request, monkeypatch):
    """A window a test makes has fresh settings, so it would open the Start here dock on its first start and
    every layout figure would be taken beside it.  Only the tests marked ``first_start`` (the lessons') see it."""
    if "qtbot" not in request.fixturenames or request.node.get_closest_marker("first_start"):
        return
    from gui.shell.main_window import MainWindow

    monkeypatch.setattr(MainWindow, "_first_start", lambda self: self.lessons and self.lessons.hide())


@pytest.fixture(autouse=True)
def _flush_deleted_widgets(request):
    """After each Qt test, really delete its windows, so none leaks into the next test.

    pytest-qt closes the widgets a test registered and calls ``deleteLater``, but Qt runs those deferred
    deletions only when an event loop returns to the level they were posted from, which between tests never
    happens: without this, one file's windows piled up (700 → 8,600 live widgets) and every later restyle
    (theme, presentation) visited them all.  Windows a test made without registering them go too.  Tests
    without ``qtbot`` are left alone (nothing to flush, and no event processing to pay for).
    """
    yield
    if "qtbot" not in request.fixturenames:
        return
    from PySide6.QtCore import QCoreApplication, QEvent
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance()
    for widget in app.topLevelWidgets():
        if widget.parent() is None:  # a window the test made (menus and popups have their window as parent)
            widget.close()
            widget.deleteLater()
    for _ in range(2):  # a deletion can post further deletions
        QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
        app.processEvents()


def _shown_workspace(qtbot, controller):
    from gui.training.training_workspace import TrainingWorkspace  # Qt only for the tests that ask for it

    w = TrainingWorkspace(controller)
    qtbot.addWidget(w)
    w.resize(1300, 800)
    w.show()
    from training_gui_helpers import PROCESS_WAIT_MS

    qtbot.waitUntil(lambda: w.controller.last_snapshot is not None, timeout=PROCESS_WAIT_MS)
    return w


@pytest.fixture
def ws(qtbot):
    """A training workspace on the default config, shown, its engine in this process and ready."""
    from gui.training.training_controller import TrainingController
    from gui.training.training_worker import InProcessWorker

    w = _shown_workspace(qtbot, TrainingController(worker_factory=InProcessWorker))
    yield w
    w.shutdown()


@pytest.fixture
def process_ws(qtbot):
    """A training workspace on the default config, shown, with its training process ready."""
    from gui.training.training_controller import TrainingController

    w = _shown_workspace(qtbot, TrainingController())
    yield w
    w.shutdown()


@pytest.fixture
def in_process_training(monkeypatch):
    """Every training area built during the test (e.g. by a MainWindow) runs its engine in this process."""
    from gui.training.training_controller import TrainingController
    from gui.training.training_worker import InProcessWorker

    monkeypatch.setattr(TrainingController, "worker_factory", InProcessWorker)


def new_main_window(qtbot, tmp_path, size: tuple[int, int] | None = (1400, 900)):
    """A shown main window with settings of its own (the user's real settings are never touched); ``size`` None
    leaves the window its own size."""
    from PySide6.QtCore import QSettings

    from gui.shell.main_window import MainWindow
    from gui.shell.settings import AppSettings

    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(tmp_path / "qsettings"))
    w = MainWindow(AppSettings(QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)))
    qtbot.addWidget(w)
    if size is not None:
        w.resize(*size)
    w.show()
    return w


@pytest.fixture
def training_window(qtbot, tmp_path, in_process_training):
    """The main window on its training tab, the engine in this process and ready."""
    w = new_main_window(qtbot, tmp_path)
    w.tabs.setCurrentWidget(w.training)
    qtbot.waitUntil(lambda: w.training.controller.last_snapshot is not None, timeout=30_000)
    yield w
    w.training.shutdown()


def shown(qtbot, widget, width: int, height: int):
    """``widget`` at this size on screen, closed by qtbot after the test."""
    widget.resize(width, height)
    qtbot.addWidget(widget)
    widget.show()
    return widget


@pytest.fixture
def expression_panel(qtbot):
    """The Expression area alone (no main window), shown at 1400×850; its stepping stops after the test."""
    from gui.expression.expression_panel import ExpressionPanel

    widget = shown(qtbot, ExpressionPanel(), 1400, 850)
    yield widget
    widget.state.stop()


@pytest.fixture
def graph_view(qtbot):
    """A bare graph view, shown at 900×600."""
    from gui.graph_view import GraphView

    return shown(qtbot, GraphView(), 900, 600)


@pytest.fixture
def lab_panel(qtbot):
    """The Optimizer lab alone, shown at 1400×800; its race is paused after the test."""
    from gui.lab.optimizer_lab import OptimizerLabPanel

    widget = shown(qtbot, OptimizerLabPanel(), 1400, 800)
    qtbot.waitExposed(widget)
    yield widget
    widget.lab.pause()


@pytest.fixture(scope="module")
def tour(tmp_path_factory):
    """One screenshot-tour window (tools/tour_states.py) shared by a test module's tests, light and normal after."""
    from PySide6.QtWidgets import QApplication

    from tools.tour_states import Tour

    QApplication.instance() or QApplication([])
    t = Tour(str(tmp_path_factory.mktemp("settings")))
    yield t
    t.window.set_theme("light")
    t.window.set_presentation(False)
    t.close()  # also gives later tests the real training process back
