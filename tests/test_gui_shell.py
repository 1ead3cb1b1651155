"""The main window: areas, menus, shortcuts, tooltips, settings, sessions, errors, themes."""

import json

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QImage
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractSlider,
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QPlainTextEdit,
    QPushButton,
    QScrollBar,
    QSplitter,
    QTabBar,
)

from autograd_core import Tensor
from gui.errors import ErrorReporter, setup_logging
from gui.main_window import MainWindow
from gui.settings import AppSettings
from gui.theme import PRESENTATION_SCALE


@pytest.fixture
def settings(tmp_path):
    # Never the user's real configuration: an INI file in the test's folder.
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(tmp_path / "qsettings"))
    return AppSettings(QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat))


@pytest.fixture
def window(qtbot, settings):
    w = MainWindow(settings)
    qtbot.addWidget(w)
    w.show()
    qtbot.waitUntil(lambda: not w.expression.view.busy)
    yield w
    w.expression.state.stop()
    w.set_theme("light")
    w.set_presentation(False)


def test_areas_and_menus(window):
    assert [window.tabs.tabText(i) for i in range(window.tabs.count())] == [
        "Expression",
        "Network training",
        "Sample graph",
    ]
    menus = {a.text().replace("&", ""): a.menu() for a in window.menuBar().actions()}
    assert {"File", "View", "Help"} <= set(menus)
    texts = {name: [a.text().replace("&", "") for a in m.actions()] for name, m in menus.items()}
    for needed in ("Open session…", "Save session", "Recent files", "Export image…", "Quit"):
        assert needed in texts["File"]
    for needed in ("Zoom in", "Zoom out", "Fit to window", "Light theme", "Dark theme", "Presentation mode"):
        assert needed in texts["View"]
    assert {"Keyboard shortcuts", "About"} <= set(texts["Help"])
    # the app starts with an example, drawn
    assert window.expression.state.program is not None and window.expression.view.nodes


def test_shortcuts_are_listed_and_work(qtbot, window):
    table = dict(window.shortcut_table())
    for keys in ("Ctrl+Return", "F5", "F6", "Ctrl+0", "Ctrl+S"):
        assert any(keys in k for k in table), keys
    box = window.show_shortcuts()
    assert "F5" in box.text() and "Backward" in box.text()
    box.close()
    state = window.expression.state
    window.tabs.setCurrentIndex(2)
    qtbot.keyClick(window, Qt.Key.Key_F5)
    assert state.mode == "done" and window.tabs.currentIndex() == 0
    qtbot.keyClick(window, Qt.Key.Key_F6)
    assert state.mode == "stepping" and state.position == 1
    window.expression.view.zoom_in()
    qtbot.keyClick(window, Qt.Key.Key_0, Qt.KeyboardModifier.ControlModifier)
    visible = window.expression.view.mapToScene(window.expression.view.viewport().rect()).boundingRect()
    assert visible.contains(window.expression.view.scene().itemsBoundingRect())
    # Ctrl+Enter evaluates at once, without waiting for the debounce
    edit = window.expression.editor.edit
    edit.setFocus()
    edit.selectAll()
    qtbot.keyClicks(edit, "q = 3*z")
    qtbot.keyClick(edit, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    assert state.text == "q = 3*z" and state.inputs == ["z"]


def test_every_control_has_a_tooltip(window):
    missing = []
    for kind in (QAbstractButton, QAbstractSlider, QAbstractSpinBox, QComboBox, QPlainTextEdit):
        for widget in window.findChildren(kind):
            if isinstance(widget, QScrollBar) or isinstance(widget.parent(), QTabBar):
                continue  # Qt's own scroll bars and tab-scroll arrows
            if isinstance(widget.parent(), QAbstractSpinBox) or widget.objectName().startswith("qt_"):
                continue  # parts Qt builds itself (spin box arrows, the menu bar's overflow button)
            if not widget.toolTip():
                missing.append(f"{type(widget).__name__} {widget.objectName()} {getattr(widget, 'text', str)()}")
    assert missing == []
    for action in window.findChildren(type(window.save_action)):
        if action.text() and not action.isSeparator():
            assert action.toolTip(), action.text()


def test_settings_persist_between_runs(qtbot, settings, tmp_path):
    first = MainWindow(settings)
    qtbot.addWidget(first)
    first.show()
    first.resize(1111, 777)
    first.set_theme("dark")
    splitter = first.expression.splitter
    splitter.setSizes([420, 400, 280])
    sizes = splitter.sizes()
    first.settings.add_recent_file(str(tmp_path / "a.json"))
    first.expression.state.load("y = k*k", {"k": 1.25})
    first.close()
    second = MainWindow(AppSettings(QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)))
    qtbot.addWidget(second)
    second.show()
    try:
        # (the offscreen platform's window frame shifts restored sizes by a few pixels)
        assert abs(second.width() - 1111) <= 12 and abs(second.height() - 777) <= 12
        assert second.theme == "dark" and second.theme_actions["dark"].isChecked()
        assert abs(second.expression.splitter.sizes()[0] - sizes[0]) <= 12, (second.expression.splitter.sizes(), sizes)
        assert second.expression.splitter.sizes()[0] > 380  # not the default 330
        assert second.settings.recent_files() == [str(tmp_path / "a.json")]
        assert second.recent_menu.actions()[0].text() == "a.json"
        assert second.expression.state.text == "y = k*k" and second.expression.state.values["k"] == 1.25
    finally:
        second.set_theme("light")


def test_session_save_and_open_round_trip(qtbot, window, tmp_path):
    state = window.expression.state
    state.load("h = a*b\nout = h.tanh()", {"a": 0.5, "b": -2.0})
    path = tmp_path / "lesson.agp.json"
    assert window.save_session_to(str(path))
    doc = json.loads(path.read_text())
    assert doc["extra"]["expression"]["text"] == "h = a*b\nout = h.tanh()"
    assert doc["extra"]["expression"]["values"]["b"] == -2.0
    state.load("y = z + 1", {"z": 4.0})
    assert window.open_session(str(path))
    assert state.text == "h = a*b\nout = h.tanh()" and state.values["a"] == 0.5
    assert window.expression.editor.text() == state.text
    assert state.root.data == Tensor(0.5 * -2.0).tanh().data
    assert window.settings.recent_files()[0] == str(path)
    assert window.recent_menu.actions()[0].data() == str(path)


def test_bad_session_files_are_reported_and_change_nothing(window, tmp_path):
    state = window.expression.state
    before = state.text
    damaged = tmp_path / "damaged.json"
    damaged.write_text('{"format": "autograd-playground-session", "version": 1, "extra": ')
    assert not window.open_session(str(damaged))
    assert window.last_warning is not None and "not valid JSON" in window.last_warning.text()
    window.last_warning.close()
    assert not window.open_session(str(tmp_path / "missing.json"))
    assert "cannot read" in window.last_warning.text()
    window.last_warning.close()
    assert state.text == before


def test_exception_in_a_slot_is_shown_and_logged_and_the_app_keeps_running(qtbot, window, tmp_path):
    log_path = setup_logging(tmp_path / "app.log")
    reporter = ErrorReporter(window)
    reporter.install()
    button = QPushButton("boom", window)
    button.setToolTip("raises")

    def broken():
        raise ZeroDivisionError("a slot that divides by zero")

    button.clicked.connect(broken)
    try:
        qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    finally:
        reporter.uninstall()
        button.deleteLater()
    assert len(reporter.dialogs) == 1
    box = reporter.dialogs[0]
    assert box.isVisible() and "ZeroDivisionError: a slot that divides by zero" in box.informativeText()
    assert "Traceback" in box.detailedText()
    text = log_path.read_text()
    assert "ZeroDivisionError" in text and "broken" in text
    box.close()
    # still alive: the next action works
    window.expression.state.backward()
    assert window.expression.state.mode == "done"


def test_presentation_mode_and_dark_theme(window):
    app = QApplication.instance()
    base = app.font().pointSizeF()
    window.set_presentation(True)
    assert app.font().pointSizeF() == pytest.approx(base * PRESENTATION_SCALE)
    assert window.expression.view.font_scale > 1 and window.presentation_action.isChecked()
    window.set_theme("dark")
    assert app.palette().window().color().lightness() < 80
    assert window.expression.view.backgroundBrush().color().lightness() < 80
    window.set_presentation(False)
    window.set_theme("light")
    assert app.font().pointSizeF() == pytest.approx(base)
    assert app.palette().window().color().lightness() > 180


def test_export_image_and_non_finite_status(qtbot, window, tmp_path):
    png = tmp_path / "graph.png"
    assert window.export_image(str(png))
    assert not QImage(str(png)).isNull()
    example = next(e for e in window.expression.examples if "division by zero" in e["name"])
    window.expression.load_example(example)
    window.expression.state.backward()
    label = window.non_finite_label
    assert label.isVisible() and "1 / 0" in label.text()
    window.expression.state.load("y = a + 1", {"a": 1.0})
    assert not label.isVisible()


def test_splitters_are_named_for_persistence(window):
    for splitter in window.expression.findChildren(QSplitter):
        assert splitter.objectName()


def test_switching_areas_clears_the_previous_areas_status_message(qtbot, window):
    window.statusBar().showMessage("Backward done: every node holds d(output)/d(node).", 10000)
    bar = window.tabs.tabBar()
    target = window.tabs.indexOf(window.areas["sample"])
    qtbot.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(target).center())
    assert window.tabs.currentIndex() == target
    assert window.statusBar().currentMessage() == ""
