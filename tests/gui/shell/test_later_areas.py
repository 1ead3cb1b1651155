"""The app's window shows before the areas it does not show: their tabs are there at once, the areas come after.

``MainWindow(build_later=True)`` is how ``python main.py`` makes its window (``gui/shell/app.py``); these tests
check that the learner cannot tell, whatever they do first: open a tab, use a menu, start a lesson.
"""

import pytest
from PySide6.QtCore import QSettings, Qt

from gui.shell.main_window import AREA_TABS, LATER_AREAS, MainWindow
from gui.shell.settings import AppSettings

pytestmark = [pytest.mark.qt_log_level_fail("WARNING"), pytest.mark.qt_log_ignore("propagateSizeHints")]


@pytest.fixture
def settings(tmp_path):
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(tmp_path / "qsettings"))
    return AppSettings(QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat))


def _window(qtbot, settings, in_process_training, **kwargs) -> MainWindow:
    w = MainWindow(settings, **kwargs)
    qtbot.addWidget(w)
    w.resize(1280, 720)
    w.show()
    qtbot.waitUntil(lambda: not w.expression.view.busy)
    return w


def _tabs(w: MainWindow) -> list[tuple[str, str]]:
    return [(w.tabs.tabText(i), w.tabs.tabToolTip(i)) for i in range(w.tabs.count())]


def _click_tab(qtbot, w: MainWindow, index: int) -> None:
    bar = w.tabs.tabBar()
    qtbot.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(index).center())


def test_the_tabs_are_there_before_their_areas_and_a_click_on_one_builds_them(qtbot, settings, in_process_training):
    w = _window(qtbot, settings, in_process_training, build_later=True)
    assert _tabs(w) == list(AREA_TABS.values())  # every tab, titled and explained, from the first frame
    assert not hasattr(w, "training") and not hasattr(w, "lab")  # (not built: nothing of theirs was imported)
    assert w.current_area() is w.expression

    _click_tab(qtbot, w, 1)  # the learner opens Network training before the app got to build it

    assert w.current_area() is w.training and w.training.isVisible()
    assert [w.tabs.widget(i) for i in range(w.tabs.count())] == [
        w.expression,
        w.training,
        w.sample,
        w.lab,
        w.workshop,
    ]
    assert _tabs(w) == list(AREA_TABS.values())
    assert list(w.areas) == ["expression", *LATER_AREAS]
    qtbot.waitUntil(lambda: w.training.controller.last_snapshot is not None)  # and it trains as ever


def test_built_after_the_first_frame_the_window_is_the_one_built_at_once(qtbot, settings, in_process_training):
    later = _window(qtbot, settings, in_process_training, build_later=True)
    done = []
    later.training_controller().start()  # as the app does after the first frame: its process first
    later.build_later_areas(then=lambda: done.append(True))
    assert not done and hasattr(later, "training") and not hasattr(later, "workshop")  # Network training first
    qtbot.waitUntil(lambda: later.training.controller.last_snapshot is not None)
    assert not hasattr(later, "workshop")  # the others after its first picture
    qtbot.waitUntil(lambda: bool(done))
    assert hasattr(later, "workshop") and done == [True]
    at_once = _window(qtbot, settings, in_process_training)
    assert _tabs(later) == _tabs(at_once)
    assert [type(later.tabs.widget(i)) for i in range(5)] == [type(at_once.tabs.widget(i)) for i in range(5)]
    assert later.tabs.currentIndex() == 0
    # The training area took over the controller made ahead of it (its process started first): it ends with it.
    assert later.training.controller is later.training_controller()
    assert later.training.controller.parent() is later.training


def test_a_menu_action_in_the_first_instant_finds_every_area(qtbot, settings, in_process_training):
    w = _window(qtbot, settings, in_process_training, build_later=True)
    shortcuts = next(a for a in w.actions() if a.text() == "&Keyboard shortcuts")
    shortcuts.trigger()  # Help → Keyboard shortcuts (F1) before the areas were built: it lists theirs too
    assert not w._reserved
    assert any(keys == "Space" and where == "Network training tab" for keys, _what, where in w.shortcut_table())


@pytest.mark.first_start
def test_a_lesson_started_at_once_follows_the_areas_built_for_it(qtbot, settings, in_process_training):
    w = _window(qtbot, settings, in_process_training, build_later=True)
    assert w.lessons.isVisible()  # Start here, beside the Expression, on the first frame
    lessons = w.lessons.list
    item = next(lessons.item(i) for i in range(lessons.count()) if "two moons" in lessons.item(i).text())
    qtbot.mouseClick(lessons.viewport(), Qt.MouseButton.LeftButton, pos=lessons.visualItemRect(item).center())
    assert not w._reserved and w.lessons.lesson is not None  # the areas first, then the lesson's setup
    assert w.lessons.tracker._following_areas  # its ticks see the training and the workshop
    assert w.current_area() is w.training


def test_a_window_that_opens_on_a_later_area_builds_it_before_its_first_frame(qtbot, settings, in_process_training):
    settings.set("window/tab", "3")  # the learner left the app on the Optimizer lab
    w = _window(qtbot, settings, in_process_training, build_later=True)
    assert w.current_area() is w.lab and not w._reserved


def test_saved_workshop_ops_come_back_before_the_saved_expression(qtbot, settings, in_process_training):
    """The expression saved may use the learner's own op: the workshop (which defines it) is built up front."""
    settings.set("workshop/ops", "[]")
    w = _window(qtbot, settings, in_process_training, build_later=True)
    assert hasattr(w, "workshop") and not w._reserved
