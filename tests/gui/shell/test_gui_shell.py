"""The main window: areas, menus, shortcuts, tooltips, settings, sessions, errors, themes."""

import html
import json

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QAction, QImage, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractSlider,
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QFileDialog,
    QPlainTextEdit,
    QPushButton,
    QScrollBar,
    QSplitter,
    QTabBar,
    QWidget,
)

from autograd_core import Tensor
from autograd_core.learn.nn import MLP
from gui.look.theme import PRESENTATION_SCALE
from gui.shell.errors import ErrorReporter, setup_logging
from gui.shell.help_dialogs import POINTER_AND_FIELD_KEYS, ShortcutsDialog
from gui.shell.main_window import MainWindow
from gui.shell.settings import AppSettings

# Any Qt warning fails these tests (the offscreen platform's own notice aside).
pytestmark = [pytest.mark.qt_log_level_fail("WARNING"), pytest.mark.qt_log_ignore("propagateSizeHints")]


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
        "Optimizer lab",
        "Op workshop",
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


def press(qtbot, widget, sequence: QKeySequence) -> None:
    combo = sequence[0]
    qtbot.keyClick(widget, combo.key(), combo.keyboardModifiers())


def test_shortcuts_dialog_lists_exactly_the_keys_that_exist(qtbot, window, monkeypatch):
    table = window.shortcut_table()
    # Every action with a key is in the table (and held by the window, so it works with the menu bar hidden)…
    keyed = [a for a in window.findChildren(QAction) if a.shortcuts()]
    assert keyed and all(a in window.actions() for a in keyed)
    native = QKeySequence.SequenceFormat.NativeText
    rows = {(", ".join(k.toString(native) for k in a.shortcuts()), a.text().replace("&", "")) for a in keyed}
    # …and so is every QShortcut of an area: Space plays and pauses training, in its tab.
    shortcuts = [s for s in window.findChildren(QShortcut) if not s.key().isEmpty()]
    assert [s.key().toString() for s in shortcuts] == ["Space", "Ctrl+Z", "Ctrl+Shift+Z"]
    rows.add(("Space", "Play / pause training"))
    rows.add(("Ctrl+Z", "Undo the last data edit (paint, erase, drag, clear all, import)"))
    rows.add(("Ctrl+Shift+Z", "Redo the data edit last undone"))
    assert {(keys, what) for keys, what, _ in table} == rows and len(table) == len(rows)
    assert ("Space", "Play / pause training", "Network training tab") in table
    assert ("F5", "Backward", "Backward, on the graph shown") in table
    for needed in ("Ctrl+Return", "F5", "F6", "Shift+F6", "F7", "Ctrl+0", "Ctrl+S", "Space"):
        assert any(needed in keys.split(", ") for keys, _, _ in table), needed
    # No key is bound twice: Qt calls such a key ambiguous and runs neither action.
    bound = [k.toString() for a in keyed for k in a.shortcuts()] + ["Space", "Ctrl+Z", "Ctrl+Shift+Z"]
    assert len(bound) == len(set(bound))
    box = window.show_shortcuts()
    for keys, what, where in table:
        assert f"<b>{html.escape(keys)}</b>" in box.text() and html.escape(what) in box.text()
        assert html.escape(where) in box.text()
    for keys, what in POINTER_AND_FIELD_KEYS:
        assert html.escape(keys) in box.text() and html.escape(what) in box.text()
    box.close()
    # Every listed action answers its key (file dialogs answer "cancelled"; Quit last).
    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(lambda *a, **k: ("", "")))
    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(lambda *a, **k: ("", "")))
    keyed.sort(key=lambda a: a.shortcut().toString() == "Ctrl+Q")
    for action in keyed:
        for sequence in action.shortcuts():
            with qtbot.waitSignal(action.triggered, timeout=2000):
                press(qtbot, window, sequence)
            for dialog in window.findChildren(ShortcutsDialog):
                dialog.close()  # F1 opened the list
    window.set_presentation(False)


def test_the_backward_keys_drive_the_graph_on_screen(qtbot, window):
    """F5, F6, Shift+F6, F7 act on the Sample graph in its tab (as its tooltips say), else on the Expression."""
    expression, sample = window.expression.state, window.sample.state
    window.sample.set_source(lambda: MLP(2, [3, 1], seed=1), lambda: "bce")
    window.tabs.setCurrentWidget(window.sample)
    assert window.sample.show_sample(0.5, -0.25, 1)
    first = {node: item.grad for node, item in window.sample.view.nodes.items()}
    qtbot.keyClick(window, Qt.Key.Key_F5)
    assert window.current_area() is window.sample and expression.mode == "none"
    assert sample.mode == "done" and {node: item.grad for node, item in window.sample.view.nodes.items()} == first
    qtbot.keyClick(window, Qt.Key.Key_F6)
    assert sample.mode == "stepping" and sample.position == 1 and expression.mode == "none"
    qtbot.keyClick(window, Qt.Key.Key_F6, Qt.KeyboardModifier.ShiftModifier)
    assert sample.position == 0
    qtbot.keyClick(window, Qt.Key.Key_F7)
    assert sample.playing and not expression.playing
    qtbot.keyClick(window, Qt.Key.Key_F7)
    assert not sample.playing
    # From an area without a graph the keys go to the Expression, which is brought to the front.
    other = QWidget()
    window.add_area("other", other, "Other")
    window.tabs.setCurrentWidget(other)
    qtbot.keyClick(window, Qt.Key.Key_F5)
    assert window.current_area() is window.expression and expression.mode == "done"
    window.tabs.setCurrentWidget(other)
    qtbot.keyClick(window, Qt.Key.Key_F6)
    assert window.current_area() is window.expression and expression.mode == "stepping" and expression.position == 1
    # Ctrl+Enter evaluates at once, without waiting for the debounce
    edit = window.expression.editor.edit
    edit.setFocus()
    edit.selectAll()
    qtbot.keyClicks(edit, "q = 3*z")
    qtbot.keyClick(edit, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    assert expression.text == "q = 3*z" and expression.inputs == ["z"]
    window.tabs.removeTab(window.tabs.indexOf(other))
    del window.areas["other"]


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
    for action in window.findChildren(type(window.menus.save_action)):
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
        assert second.theme == "dark" and second.menus.theme_actions["dark"].isChecked()
        assert abs(second.expression.splitter.sizes()[0] - sizes[0]) <= 12, (second.expression.splitter.sizes(), sizes)
        assert second.expression.splitter.sizes()[0] > 380  # not the default 330
        assert second.settings.recent_files() == [str(tmp_path / "a.json")]
        assert second.menus.recent_menu.actions()[0].text() == "a.json"
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
    assert window.menus.recent_menu.actions()[0].data() == str(path)


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
    assert window.expression.view.font_scale > 1 and window.menus.presentation_action.isChecked()
    window.set_theme("dark")
    assert app.palette().window().color().lightness() < 80
    assert window.expression.view.backgroundBrush().color().lightness() < 80
    window.set_presentation(False)
    window.set_theme("light")
    assert app.font().pointSizeF() == pytest.approx(base)
    assert app.palette().window().color().lightness() > 180


def test_every_widget_takes_the_new_theme_and_size_even_those_made_later(qtbot, window):
    """No application-wide style sheet: the named widgets, the ones with style sheets of their own and the ones
    built after a switch all follow it."""
    from PySide6.QtGui import QPalette
    from PySide6.QtWidgets import QLabel

    from gui.look.app_style import NAMED_COLORS

    def color(widget):
        return widget.palette().color(QPalette.ColorRole.WindowText).name()

    app = QApplication.instance()
    editor = window.expression.editor
    type_into_editor(qtbot, window, "tanh(a +")
    assert editor.error_label.isVisible() and editor.error_label.font().bold()
    assert color(editor.error_label) == NAMED_COLORS["light"]["error"]
    window.set_theme("dark")
    window.set_presentation(True)
    assert color(editor.error_label) == NAMED_COLORS["dark"]["error"]
    later = QLabel("made after the switch")
    later.setObjectName("hintLabel")
    window.statusBar().addWidget(later)
    later.show()
    assert color(later) == NAMED_COLORS["dark"]["muted"]  # styled when Qt polished it
    plain = window.expression.evaluate_button  # follows the palette and font like any widget
    assert plain.palette().color(QPalette.ColorRole.Button) == app.palette().color(QPalette.ColorRole.Button)
    assert plain.font().pointSizeF() == pytest.approx(app.font().pointSizeF())
    # a label with a style sheet of its own gets the projector's size too
    assert window.non_finite_label.font().pointSizeF() == pytest.approx(app.font().pointSizeF())
    assert "padding: 4px" in window.expression.backward.ledger.styleSheet()
    window.set_presentation(False)
    window.set_theme("light")
    assert window.non_finite_label.font().pointSizeF() == pytest.approx(app.font().pointSizeF())
    assert color(later) == NAMED_COLORS["light"]["muted"] and "padding: 2px" in (
        window.expression.backward.ledger.styleSheet()
    )


def test_export_image_and_non_finite_status(qtbot, window, tmp_path):
    png = tmp_path / "graph.png"
    said = []
    window.expression.view.message.connect(said.append)
    assert window.export_image(str(png))
    assert said == [f"Saving the graph to {png}…"]  # the window goes on while the PNG is compressed
    qtbot.waitUntil(lambda: len(said) == 2, timeout=10_000)
    assert said[1] == f"Graph saved to {png}" and not QImage(str(png)).isNull()
    assert not (tmp_path / "graph.png.part").exists()
    # A write that fails on the worker thread (the window checks the folder first, so ask the view itself):
    # one clear message, no file, no leftover part.
    missing = tmp_path / "missing" / "graph.png"
    window.expression.view.export(str(missing), background=True)
    qtbot.waitUntil(lambda: len(said) == 4, timeout=10_000)
    assert said[3] == f"Could not save the graph: could not write {missing}"
    assert not (tmp_path / "missing").exists()
    example = next(e for e in window.expression.examples if "division by zero" in e["name"])
    window.expression.load_example(example)
    window.expression.state.backward()
    label = window.non_finite_label
    assert label.isVisible() and "1 / 0" in label.text()
    window.expression.state.load("y = a + 1", {"a": 1.0})
    assert not label.isVisible()


@pytest.mark.parametrize("where", ["missing folder", "a folder"])
def test_exporting_to_a_bad_path_says_why_before_drawing_anything(window, tmp_path, monkeypatch, where):
    drawn = []
    monkeypatch.setattr(window.expression, "export_image", drawn.append)
    path = tmp_path / "no such folder" / "graph.png"
    if where == "a folder":
        path = tmp_path / "graph.png"
        path.mkdir()
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(path), "PNG image (*.png)"))
    assert not window.export_image()
    assert drawn == []  # refused before the (possibly long) rendering
    box = window.last_warning
    assert box.isVisible() and box.text().startswith(str(path))
    assert ("does not exist" if where == "missing folder" else "folder") in box.text()
    box.close()


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


def type_into_editor(qtbot, window, text):
    edit = window.expression.editor.edit
    edit.setFocus()
    edit.selectAll()
    qtbot.keyClicks(edit, text)
    qtbot.waitUntil(lambda: window.expression.state.text == text and not window.expression.editor.pending)


def test_a_status_message_stands_only_while_it_is_true(qtbot, window):
    bar, panel = window.statusBar(), window.expression
    click = lambda button: qtbot.mouseClick(button, Qt.MouseButton.LeftButton)  # noqa: E731
    # An example's description (its numbers hold for its text and values) goes when the text changes.
    menu_action = next(a for a in panel.examples_menu.actions() if a.text() == "micrograd test: sanity check")
    menu_action.trigger()
    assert bar.currentMessage().startswith("Example: micrograd test: sanity check. micrograd's test_sanity_check")
    type_into_editor(qtbot, window, "y = a*b + c")
    assert bar.currentMessage() == ""
    # "Gradients set to zero." goes at the first Step.
    click(panel.backward.backward_button)
    assert bar.currentMessage().startswith("Backward done")
    click(panel.backward.zero_button)
    assert bar.currentMessage() == "Gradients set to zero."
    click(panel.backward.step_button)
    assert bar.currentMessage() == ""
    # "accumulated" goes when a value changes (the new graph holds one pass).
    click(panel.backward.backward_button)
    click(panel.backward.backward_button)
    assert bar.currentMessage().startswith("Backward again: leaf gradients accumulated")
    panel.inputs.rows["a"].spin.setValue(1.25)
    assert bar.currentMessage() == ""
    # A parse error stands while the text is wrong, and goes when it is fixed.
    type_into_editor(qtbot, window, "y = a +")
    assert bar.currentMessage().startswith("Line 1, column")
    type_into_editor(qtbot, window, "y = a + 1")
    assert bar.currentMessage() == ""
    # A message that is no longer true is never put back, and a newer one is never cleared by an older one.
    bar.showMessage("Session opened: x.agp.json", 10000)
    type_into_editor(qtbot, window, "y = a + 2")
    assert bar.currentMessage() == "Session opened: x.agp.json"


def test_switching_theme_changes_no_number_and_says_nothing(qtbot, window):
    state, bar = window.expression.state, window.statusBar()
    type_into_editor(qtbot, window, "y = a*b")
    state.backward()
    state.backward()  # accumulated: a fresh evaluation would silently halve what is shown
    root, grads = state.root, {n: state.input_grad(n) for n in state.inputs}
    bar.showMessage("Backward again: leaf gradients accumulated (+=). Press Zero grad to reset them.")
    window.tabs.setCurrentWidget(window.sample)
    bar.showMessage("a message of the Sample graph")
    for theme in ("dark", "light"):
        window.set_theme(theme)
        qtbot.wait(400)  # longer than the editor's debounce
        assert not window.expression.editor.pending
        assert state.root is root and {n: state.input_grad(n) for n in state.inputs} == grads
        assert bar.currentMessage() == "a message of the Sample graph"


def test_the_non_finite_warning_describes_the_graph_on_screen(qtbot, window):
    example = next(e for e in window.expression.examples if "division by zero" in e["name"])
    window.expression.load_example(example)
    label = window.non_finite_label
    assert label.isVisible() and "1 / 0" in label.text()
    window.tabs.setCurrentWidget(window.sample)  # no point shown there: nothing is infinite
    assert not label.isVisible()
    window.sample.set_source(lambda: MLP(2, [4, 4, 1], seed=2), lambda: "bce")
    assert window.sample.show_sample(1e308, 1e308, 1)  # a finite point whose weighted sum overflows
    assert window.sample.state.non_finite and label.isVisible()
    assert label.text().startswith("⚠ " + window.sample.state.non_finite[0].message)
    window.tabs.setCurrentWidget(window.expression)
    assert label.isVisible() and "1 / 0" in label.text()


def test_a_switch_restyles_the_shown_tab_at_once_and_a_hidden_one_as_it_is_shown(qtbot, window):
    """Restyling every tab's plots and graphs on each theme or mode switch kept the window busy for a tenth of
    a second or more; a hidden tab takes the new look when it is shown, before it is painted."""
    from PySide6.QtGui import QColor

    from gui.look.theme import graph_colors, palette

    lab, sample = window.lab, window.sample
    boundary = window.training.boundary.plot
    window.tabs.setCurrentWidget(window.expression)
    qtbot.wait(30)
    light, dark = graph_colors("light").background, graph_colors("dark").background
    window.set_theme("dark")
    assert window.expression.view.backgroundBrush().color() == dark  # the tab on screen: at once
    assert lab.theme == "light" and lab.plot.backgroundBrush().color() == light  # hidden: not yet
    assert boundary.backgroundBrush().color() == QColor(palette("light").plot_background)
    window.tabs.setCurrentWidget(window.training)
    assert boundary.backgroundBrush().color() == QColor(palette("dark").plot_background)
    window.tabs.setCurrentWidget(lab)
    assert lab.theme == "dark"
    qtbot.wait(30)
    assert lab.plot.grab().toImage().pixelColor(3, 3) == dark  # what the user sees of it
    window.set_presentation(True)
    assert lab.presentation and not sample.view.presentation
    window.tabs.setCurrentWidget(sample)
    assert sample.view.presentation and sample.view.theme == "dark"
    window.set_presentation(False)
    window.set_theme("light")
    for area in (window.expression, window.training, lab, sample):
        window.tabs.setCurrentWidget(area)
    qtbot.wait(30)
    assert not lab.presentation and lab.theme == "light" and not sample.view.presentation
    assert lab.plot.grab().toImage().pixelColor(3, 3) == light
    # the training tab too: dark while it was hidden, light again once shown
    assert window.training.boundary.plot.backgroundBrush().color() == QColor(palette("light").plot_background)


def test_a_broken_import_in_the_lesson_modules_is_seen_not_a_window_without_lessons(window, monkeypatch):
    """The lessons are part of the app: a mistake in one of their modules stops the window where it installs
    them (it used to be swallowed, and the app started without lessons, saying nothing)."""
    import sys

    assert window.lessons is not None
    monkeypatch.delitem(sys.modules, "gui.lessons.lesson_panel", raising=False)  # imported afresh
    monkeypatch.setitem(sys.modules, "gui.lessons.predict_box", None)  # as if its import failed
    with pytest.raises(ImportError, match=r"gui\.lessons\.predict_box"):
        window._install_lessons()


@pytest.fixture
def started_app(qapp):
    """``create_app`` on the tests' QApplication, its process-wide settings put back afterwards."""
    import gc
    import sys

    from gui.shell.app import create_app

    interval, collecting = sys.getswitchinterval(), gc.isenabled()
    sys.setswitchinterval(0.005)
    try:
        assert create_app() is qapp
        yield qapp
    finally:
        sys.setswitchinterval(interval)
        qapp.gui_thread_collector.timer.stop()
        del qapp.gui_thread_collector
        if collecting:
            gc.enable()


def test_the_app_takes_python_s_lock_back_quickly_from_a_worker(started_app):
    """create_app shortens the switch interval: the GUI thread waits at most 0.1 ms, not Python's 5 ms, for
    a layout thread to hand back the lock, at each of the hundreds of Python calls in one theme switch
    (benchmarks/bench_gui_actions.py --worker-busy: 3.4 s → 0.2 s)."""
    import sys

    from gui.shell.app import GUI_SWITCH_INTERVAL

    assert sys.getswitchinterval() == pytest.approx(GUI_SWITCH_INTERVAL)
    assert GUI_SWITCH_INTERVAL <= 0.0002


def test_garbage_cycles_are_freed_in_the_gui_thread_not_in_a_worker(started_app, qtbot):
    """create_app hands Python's cycle collector to a GUI-thread timer (pyqtgraph's GarbageCollector): a cycle
    holding a Qt object is never freed on the training reader's or a layout's thread, where destroying a Qt
    object races the GUI thread (segmentation faults in libshiboken)."""
    import gc
    import threading

    from PySide6.QtCore import QObject

    freed_in: list[str] = []

    class Cyclic(QObject):
        def __del__(self):
            freed_in.append(threading.current_thread().name)

    assert not gc.isenabled()
    cyclic = Cyclic()
    cyclic.me = cyclic  # only the cycle collector can free it
    del cyclic

    def allocate():  # enough container objects to set off automatic collections on this thread
        kept = []
        for _ in range(50):
            kept.append([[] for _ in range(2000)])

    worker = threading.Thread(target=allocate, name="worker")
    worker.start()
    worker.join()
    assert freed_in == []
    survivors = [[] for _ in range(5000)]  # (the timer collects once Python's own threshold is passed)
    qtbot.waitUntil(lambda: bool(freed_in), timeout=5000)
    assert freed_in == [threading.main_thread().name] and len(survivors) == 5000
