"""The GUI monkey in the suite: 200 seeded random user actions on the real window, a share starting on each tab.

The run fails on any Python exception, Qt critical message or Qt warning (see ``gui_monkey``), any death of
the training process, or a child process left after the window closes; the failure prints the seed and the
action log.  ``MONKEY_SEED`` and ``MONKEY_ACTIONS`` replay or lengthen it; the long runs, with the
event-loop stalls per action kind, are ``benchmarks/bench_gui_monkey.py``.  The other tests show that the
monkey does catch each kind of failure, and that a seed replays the same actions.
"""

import os
import signal
import subprocess
import sys

import pytest
from gui_monkey import Monkey, MonkeyFailure, click_button, edit_spin, press_key, wait
from PySide6.QtCore import QSettings, QTimer
from PySide6.QtGui import QTextCursor, QTextDocument
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractSpinBox,
    QApplication,
    QMainWindow,
    QMenu,
    QPushButton,
    QSpinBox,
    QToolButton,
    QVBoxLayout,
    QWidget,
)
from training_gui_helpers import PROCESS_WAIT_MS

from gui.shell.main_window import MainWindow
from gui.shell.settings import AppSettings

SEED = int(os.environ.get("MONKEY_SEED", "20240611"))
ACTIONS = int(os.environ.get("MONKEY_ACTIONS", "200"))
BUTTONS_ONLY = [("button", 1, (QAbstractButton,), click_button)]


@pytest.mark.slow
@pytest.mark.no_qt_log  # the monkey installs its own Qt message handler and judges every message itself
def test_a_seeded_monkey_breaks_nothing(qtbot, tmp_path):
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(tmp_path / "qsettings"))
    settings = AppSettings(QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat))
    window = MainWindow(settings)
    qtbot.addWidget(window)
    window.resize(1280, 800)
    window.show()
    window.tabs.setCurrentWidget(window.training)  # its training process runs for the whole test
    shown = {window.tabs.currentIndex()}
    window.tabs.currentChanged.connect(shown.add)
    with Monkey(window, SEED, tmp_path / "files") as monkey:
        qtbot.waitUntil(lambda: window.training.controller.last_snapshot is not None, timeout=PROCESS_WAIT_MS)
        tabs = window.tabs.count()
        for tab in range(tabs):  # a share of the actions starts on each tab, so every area is tried on every run
            window.tabs.setCurrentIndex(tab)
            report = monkey.run(ACTIONS // tabs)
        monkey.finish()
    assert shown == set(range(window.tabs.count()))  # it went everywhere
    assert len(report.stalls) >= 10  # and did many kinds of things
    known = "".join(f"\nknown issue {line}" for line in report.known)
    print(f"\nGUI monkey, seed {SEED}: {report.actions} actions, no failure.\n{report.stall_table()}{known}")


def _window(qtbot, *slots) -> QMainWindow:
    """A small window with one button per slot (and a spin box), shown."""
    window = QMainWindow()
    body = QWidget()
    layout = QVBoxLayout(body)
    for i, slot in enumerate(slots):
        button = QPushButton(f"button {i}")
        button.clicked.connect(slot)
        layout.addWidget(button)
    layout.addWidget(QSpinBox())
    window.setCentralWidget(body)
    qtbot.addWidget(window)
    window.show()
    return window


@pytest.mark.no_qt_log
def test_the_monkey_fails_on_an_exception_in_a_slot_with_the_seed_and_the_log(qtbot, tmp_path):
    window = _window(qtbot, lambda: 1 / 0)
    with Monkey(window, 7, tmp_path, widget_actions=BUTTONS_ONLY, window_actions=[]) as monkey:
        with pytest.raises(MonkeyFailure) as failure:
            monkey.run(5)
    text = str(failure.value)
    assert "seed 7" in text and "ZeroDivisionError" in text and "MONKEY_SEED=7" in text
    assert "#1 button: " in text and "'button 0': click" in text


@pytest.mark.no_qt_log
def test_the_monkey_fails_on_a_qt_warning(qtbot, tmp_path):
    document = QTextDocument("short")

    def out_of_range():
        QTextCursor(document).setPosition(99)  # Qt warns: "Position '99' out of range"

    window = _window(qtbot, out_of_range)
    with Monkey(window, 1, tmp_path, widget_actions=BUTTONS_ONLY, window_actions=[]) as monkey:
        with pytest.raises(MonkeyFailure, match=r"QtWarningMsg.*out of range"):
            monkey.run(3)


@pytest.mark.no_qt_log
def test_the_monkey_fails_when_the_training_process_dies(qtbot, tmp_path):
    from gui.training.training_controller import TrainingController
    from gui.training.training_workspace import TrainingWorkspace

    window = QMainWindow()
    workspace = TrainingWorkspace(TrainingController())
    window.setCentralWidget(workspace)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitUntil(lambda: workspace.controller.last_snapshot is not None, timeout=PROCESS_WAIT_MS)
    waiting = [("wait", 1, None, wait)]
    with Monkey(window, 3, tmp_path, widget_actions=[], window_actions=waiting) as monkey:
        monkey.run(1)
        os.kill(workspace.controller.worker.pid, signal.SIGKILL)
        with pytest.raises(MonkeyFailure, match=r"training process (died|exited)"):
            monkey.run(20)
    workspace.shutdown()


@pytest.mark.no_qt_log
def test_the_monkey_fails_on_a_child_process_left_after_the_window_closed(qtbot, tmp_path):
    window = _window(qtbot, lambda: None)
    with Monkey(window, 1, tmp_path, widget_actions=BUTTONS_ONLY, window_actions=[]) as monkey:
        monkey.run(2)
        orphan = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
        try:
            with pytest.raises(MonkeyFailure, match=f"child process.*{orphan.pid}.*still alive"):
                monkey.finish(timeout=0.5)
        finally:
            orphan.kill()
            orphan.wait()


@pytest.mark.no_qt_log
def test_a_seed_replays_the_same_actions(qtbot, tmp_path):
    actions = [*BUTTONS_ONLY, ("spin", 1, (QAbstractSpinBox,), edit_spin)]
    logs = []
    for run in range(2):
        clicks = []
        window = _window(qtbot, *(lambda i=i: clicks.append(i) for i in range(4)))
        with Monkey(window, 11, tmp_path / str(run), widget_actions=actions, window_actions=[]) as monkey:
            report = monkey.run(30)
        logs.append(([line.rsplit("  [", 1)[0] for line in report.log], clicks))
        window.close()
    assert logs[0] == logs[1] and len(logs[0][0]) == 30 and logs[0][1]


@pytest.mark.no_qt_log
def test_the_trace_names_the_action_in_progress_before_it_runs(qtbot, tmp_path):
    """A segfault kills the process mid-action: the trace must already say which action it was."""
    seen_in_trace = []
    trace_path = tmp_path / "trace.txt"

    def look_at_the_trace():
        seen_in_trace.append(trace_path.read_text(encoding="utf-8").splitlines()[-1])

    window = _window(qtbot, look_at_the_trace)
    with open(trace_path, "w", encoding="utf-8") as trace:
        with Monkey(window, 5, tmp_path, widget_actions=BUTTONS_ONLY, window_actions=[]) as monkey:
            monkey.trace = trace
            monkey.run(3)
    lines = trace_path.read_text(encoding="utf-8").splitlines()
    clicked = [line for line in lines if "'button 0'" in line]
    assert seen_in_trace and all(line.endswith(" button ...") for line in seen_in_trace)
    assert len(lines) == 6 and lines[0] == "#1 button ..." and lines[1].startswith("#1 button: ") and clicked


@pytest.mark.no_qt_log
def test_a_key_that_opens_a_menu_does_not_hold_the_monkey(qtbot):
    """Space on a tool button with an instant menu (Examples) opens it in Qt's own loop (QMenu.exec from C++, out
    of reach of the monkey's patch): the monkey closes it, as a user would."""
    button = QToolButton()
    button.setText("Examples")
    button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
    menu = QMenu(button)
    menu.addAction("one")
    button.setMenu(menu)
    qtbot.addWidget(button)
    button.show()
    button.setFocus()
    shown, rescued = [], []
    menu.aboutToShow.connect(lambda: shown.append(True))

    def rescue():  # only if the monkey left the menu open
        if QApplication.activePopupWidget() is not None:
            rescued.append(True)
            QApplication.activePopupWidget().close()

    QTimer.singleShot(3000, rescue)

    class OnlySpace:
        rng = type("Rng", (), {"choice": staticmethod(lambda keys: keys[0])})()
        focused = staticmethod(lambda: button)

    text = press_key(OnlySpace())
    qtbot.waitUntil(lambda: QApplication.activePopupWidget() is None, timeout=5000)
    assert text.startswith("Key_Space on ") and shown and not rescued
