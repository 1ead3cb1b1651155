"""The main window: one tab per purpose (its menus are `menus.py`), shortcuts, status bar, settings.

Areas (tabs) plug in through small protocols (``gui/shell/areas.py``), all of them optional:

* ``session_state() -> dict`` and ``restore_session(section: dict, session)`` –
  their part of a saved session (stored under ``extra[<area key>]``; ``session``
  is the whole ``SessionData`` so the training area can read config/weights);
* ``session_trainer()`` – the Trainer to save with the session, if any;
* ``set_theme(name)``, ``set_presentation(on)``, ``export_image(path)``,
  ``view`` (a GraphView, for the zoom actions);
* a ``status`` signal with one-line messages for the status bar, and a
  ``status_withdrawn`` signal naming a message that is no longer true (it is
  cleared if still shown), and ``status_superseded`` giving one its new wording;
* ``state`` (a GraphState) and ``backward`` (its BackwardPanel): the Backward
  menu's keys (F5, F6, Shift+F6, F7) then drive this area's graph, and the
  non-finite warning in the status bar describes it.
"""

from __future__ import annotations

import json
import os
import time

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import (
    QApplication,
    QFileDialog,
    QLabel,
    QMainWindow,
    QMessageBox,
    QTabWidget,
    QWidget,
)

from autograd_core.files import FileError, check_writable

from ..expression.expression_panel import ExpressionPanel
from ..graph_view import GraphView
from ..graph_view.graph_state import GraphState
from ..look.app_style import apply_theme, repainted_once, set_text_role
from ..look.theme import THEMES
from ..runs.exports import show_export
from ..workshop.ops_signal import SAVED_OPS_KEY
from .areas import (
    BackwardArea,
    ExportableArea,
    PresentationArea,
    StateArea,
    ThemedArea,
    ViewArea,
    connect_status,
)
from .errors import ErrorReporter
from .help_dialogs import ShortcutsDialog, shortcut_rows, shortcuts_html, show_about
from .menus import AppMenus
from .session_files import SessionFiles
from .settings import AppSettings
from .window_settings import WindowSettings

IMAGE_FILTER = "PNG image (*.png);;SVG drawing (*.svg)"
# The areas, in tab order: key -> (title, tip).  All but the Expression are built after the window's first frame
# when the app starts (``MainWindow(build_later=True)``).
AREA_TABS = {
    "expression": ("Expression", "Type an expression, see its graph, step through backward"),
    "training": (
        "Network training",
        "Build a small network and watch it learn: play, pause, step, reset (Space plays and pauses)",
    ),
    "sample": (
        "Sample graph",
        "One data point's whole computation graph through the network, grouped by neuron, with backward stepping",
    ),
    "lab": ("Optimizer lab", "Type f(x, y) or pick a preset, click a start point, and race SGD, Adam, Newton… on it"),
    "workshop": (
        "Op workshop",
        "Write your own op: its value and derivative, checked against the slope before you can use it",
    ),
}
LATER_AREAS = ("training", "sample", "lab", "workshop")
# The areas after Network training are built once the training process's first snapshot is in (at most this
# long after Network training was built), this far apart: a learner who opened Network training at once waits
# for its picture, never for another area (a snapshot comes in a second or less, 20 s on a very busy machine).
LATER_AREA_SPACING_MS = 100
FIRST_PICTURE_WAIT_MS = 3000
DEFAULT_EXAMPLE = "Neuron: tanh(w1*x1 + w2*x2 + b)"


class MainWindow(QMainWindow):
    """Autograd Playground's window."""

    def __init__(self, settings: AppSettings | None = None, parent: QWidget | None = None, build_later: bool = False):
        """``build_later``: the areas after the Expression get their tabs now and are built after the window's first
        frame (``build_later_areas``, which the app calls then), unless the window opens on one of them or the
        saved expression may use the workshop's ops.  The window then shows in about half the time (no plots,
        no pyqtgraph before it: ``benchmarks/bench_startup.py``)."""
        super().__init__(parent)
        self.setObjectName("mainWindow")
        self.setWindowTitle("Autograd Playground")
        self.settings = settings if settings is not None else AppSettings()
        self.last_warning: QMessageBox | None = None
        app = QApplication.instance()
        self._base_font_size = app.property("basePointSize") or app.font().pointSizeF()
        app.setProperty("basePointSize", self._base_font_size)
        self.theme = "light"
        self.presentation = False
        self._applied_look: tuple = (None, None)  # (theme, presentation) the areas were last given
        self._area_looks: dict[int, tuple] = {}  # id(area) -> the (theme, presentation) it was last given
        self.reporter = ErrorReporter(self)
        self.reporter.reported.connect(lambda text: self.statusBar().showMessage(f"Error: {text}", 15000))

        self.tabs = QTabWidget()
        self.tabs.setObjectName("areaTabs")
        self.tabs.setDocumentMode(True)
        # The window never resizes itself: without an explicit minimum the tabs would ask for the largest
        # minimum of every page (hidden ones too), which grows with presentation mode's fonts.  Each page
        # fits the room it gets (its panels reflow or scroll).
        self.tabs.setMinimumSize(640, 400)
        self.setCentralWidget(self.tabs)
        self.non_finite_label = QLabel()
        self.non_finite_label.setObjectName("nonFiniteLabel")
        set_text_role(self.non_finite_label, "error")
        self.non_finite_label.setToolTip("A node's value or gradient is inf or nan; this names the op that made it")
        self.statusBar().addPermanentWidget(self.non_finite_label)
        self.areas: dict[str, QWidget] = {}
        self._reserved: dict[str, QWidget] = {}  # key -> the empty tab an area built later takes over
        self._controller = None  # the training area's controller, when made before the area
        self.expression = ExpressionPanel()
        self.add_area("expression", self.expression)
        if build_later and self._may_build_later():
            for key in LATER_AREAS:
                self._reserve_area(key)
        else:
            self._install_later_areas()

        # A status message belongs to the area that sent it: switching areas clears it.
        self.tabs.currentChanged.connect(lambda _index: self._build_if_reserved())
        self.tabs.currentChanged.connect(lambda _index: self.statusBar().clearMessage())
        self.tabs.currentChanged.connect(lambda _index: self._update_non_finite())
        self.tabs.currentChanged.connect(lambda _index: self._catch_up_look(self.tabs.currentWidget()))

        self.lessons = self._install_lessons()
        self.menus = AppMenus(self)
        self.sessions = SessionFiles(
            self,
            self.areas,
            self.settings,
            self.menus.recent_menu,
            self.warn,
            lambda text: self.statusBar().showMessage(text, 8000),
        )
        self._restore_settings()
        self._first_start()
        self.statusBar().showMessage("Ready. Type an expression, or pick one from Examples.", 8000)

    # ------------------------------------------------------------ areas

    def add_area(self, key: str, widget: QWidget, title: str | None = None, tip: str | None = None) -> None:
        """A tab for ``widget`` (its title and tip from ``AREA_TABS`` unless given); an area built later takes
        over the tab reserved for it, in its place."""
        default_title, default_tip = AREA_TABS.get(key, (key, ""))
        title, tip = title or default_title, default_tip if tip is None else tip
        self.areas[key] = widget
        reserved = self._reserved.pop(key, None)
        if reserved is None:
            index = self.tabs.addTab(widget, title)
        else:
            index = self.tabs.indexOf(reserved)
            was_current = self.tabs.currentIndex() == index
            self.tabs.blockSignals(True)  # (the swap is no switch of area)
            self.tabs.removeTab(index)
            self.tabs.insertTab(index, widget, title)
            self.tabs.blockSignals(False)
            reserved.deleteLater()
            if was_current:  # (a switch to the reserved tab: it is a switch to the area)
                if self.tabs.currentIndex() == index:
                    self.tabs.currentChanged.emit(index)
                else:
                    self.tabs.setCurrentIndex(index)
        if tip:
            self.tabs.setTabToolTip(index, tip)
        connect_status(widget, self.statusBar())  # (and take back, or reword, what is no longer true)
        state = self._graph_state_of(widget)
        if state is not None:
            state.changed.connect(self._update_non_finite)

    def _reserve_area(self, key: str) -> None:
        placeholder = QWidget()
        placeholder.setObjectName(f"{key}Reserved")
        title, tip = AREA_TABS[key]
        index = self.tabs.addTab(placeholder, title)
        self.tabs.setTabToolTip(index, tip)
        self._reserved[key] = placeholder

    def _may_build_later(self) -> bool:
        """The first frame needs none of the later areas: it shows the Expression (the tab saved is the first) and
        the saved expression uses no op of the workshop's (its panel brings them back from the settings)."""
        saved_tab = self.settings.get_str("window/tab", "0") or "0"
        return saved_tab.strip() in ("0", "-1") and not self.settings.get_str(SAVED_OPS_KEY, "")

    def _install_later_areas(self) -> None:
        for key in LATER_AREAS:
            self._install_area(key)

    def _install_area(self, key: str) -> None:
        if key == "training":
            self._install_training_panels()
        elif key == "sample":
            self._install_sample_panel()  # (after the training area: it is fed by it)
        elif key == "lab":
            self._install_lab_panel()
        else:
            from ..workshop.workshop_panel import install_workshop  # (pyqtgraph: its plot)

            self.workshop = install_workshop(self)  # (its ops come back from the settings before the expression)

    def build_later_areas(self, then=None) -> None:
        """Build the areas whose tabs were reserved, in tab order, then call ``then``.

        At once, or, given ``then``, one area a turn of the event loop, Network training first (the tab most opened
        next), the others after its first picture (``_after_first_picture``): a click is answered between two.
        Any menu action, switch to a reserved tab or lesson builds the rest at once, first."""
        while self._reserved:
            key = next(iter(self._reserved))
            self._install_area(key)
            if self._reserved and then is not None:
                self._after_first_picture(lambda: self.build_later_areas(then))
                return
            if not self._reserved:
                self.lessons.tracker.follow_areas()
                self._update_non_finite()
        if then is not None:
            then()

    def _after_first_picture(self, go) -> None:
        """``go`` once the training process's first snapshot has had time to be drawn (the picture a learner who
        opened Network training at once waits for), or ``FIRST_PICTURE_WAIT_MS`` after the training area was
        built, whichever comes first; then ``LATER_AREA_SPACING_MS`` apart."""
        started = time.monotonic()
        poll = QTimer(self)
        poll.setInterval(LATER_AREA_SPACING_MS)
        seen = []  # the snapshot was in at an earlier look: it has had a spacing's time to be drawn

        def check() -> None:
            waited = (time.monotonic() - started) * 1000
            if not seen and waited < FIRST_PICTURE_WAIT_MS:
                if self.training.controller.last_snapshot is not None:
                    seen.append(True)
                return
            poll.stop()
            poll.deleteLater()
            go()

        poll.timeout.connect(check)
        poll.start()

    def training_controller(self):
        """The training area's controller; made ahead of the area when it is built later, so its process can start
        first (the area takes it over: it then ends with the area)."""
        if hasattr(self, "training"):
            return self.training.controller
        if self._controller is None:
            from ..training.training_controller import TrainingController

            self._controller = TrainingController()
        return self._controller

    def _build_if_reserved(self) -> None:
        if self.tabs.currentWidget() in self._reserved.values():
            self.build_later_areas()

    def _install_training_panels(self) -> None:
        # One area, not two: the network diagram, the boundary and the curves must be seen together while
        # training runs.  The workspace stops its training process itself when this window closes.
        from ..training.training_workspace import TrainingWorkspace

        self.training = TrainingWorkspace(self._controller)
        self.add_area("training", self.training)

    def _install_sample_panel(self) -> None:
        """One data point's graph through the current network: fed by the training area."""
        from ..training.sample_graph_panel import SampleGraphPanel

        self.sample = SampleGraphPanel()
        self.add_area("sample", self.sample)
        self.sample.bind_training(self.training)
        self.training.sample_selected.connect(self.show_sample)

    def import_data(self, path: str | None = None):
        """File → Import data…: on the Network training tab."""
        self.tabs.setCurrentWidget(self.training)
        return self.training.import_data(path)

    def export_predictions(self, path: str | None = None) -> None:
        self.tabs.setCurrentWidget(self.training)
        self.training.export_predictions(path)

    def _install_lab_panel(self) -> None:
        """The optimizer lab: race optimizers on a typed f(x, y)."""
        from ..lab.optimizer_lab import OptimizerLabPanel

        self.lab = OptimizerLabPanel()
        self.add_area("lab", self.lab)

    def _install_lessons(self):
        """The lesson panel, docked beside the live view; hidden until asked for or on first start.  The lessons
        are part of the app (packaged with it, needing nothing more): a module of theirs that fails to import is a
        bug to see, never a reason to start without them."""
        from ..lessons.lesson_panel import LessonPanel

        panel = LessonPanel(self)
        self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, panel)
        panel.hide()
        return panel

    def _first_start(self) -> None:
        """On the very first start, Start here opens with the lesson list (once; Help → Lessons brings it back)."""
        if not self.settings.get_bool("lessons/welcomed", False):
            self.settings.set("lessons/welcomed", True)
            self.show_lessons()
        else:
            self.lessons.hide()

    def show_lessons(self) -> None:
        """Help → Lessons: Start here, beside the live view."""
        self.lessons.show_list()

    def open_lesson_dialog(self) -> bool:
        folder = self.sessions.dialog_dir()
        path, _ = QFileDialog.getOpenFileName(self, "Open lesson", folder, "Lessons (*.md);;All files (*)")
        return self.open_lesson(path) if path else False

    def open_lesson(self, path: str) -> bool:
        """File → Open lesson…: a teacher's own lesson file; a bad one gets one message naming file, line, problem."""
        return self.lessons.open_file(path)

    def show_sample(self, x: float, y: float, label: int) -> None:
        """Switch to the Sample graph tab and show point (x, y) of class ``label``."""
        self.tabs.setCurrentWidget(self.sample)
        self.sample.show_sample(x, y, label)

    def current_area(self) -> QWidget:
        return self.tabs.currentWidget()

    def graph_view(self):
        """The graph view the View menu's keys drive: the one on screen, else the Expression's."""
        area = self.current_area()
        return area.view if isinstance(area, ViewArea) and isinstance(area.view, GraphView) else self.expression.view

    @staticmethod
    def _graph_state_of(area):
        """The GraphState an area shows (Expression, Sample graph), or None."""
        return area.state if isinstance(area, StateArea) and isinstance(area.state, GraphState) else None

    def graph_area(self):
        """The area the backward keys drive: the graph area on screen, else the Expression (switched to)."""
        area = self.current_area()
        if isinstance(area, BackwardArea) and self._graph_state_of(area) is not None:
            return area
        self.to_expression()
        return self.expression

    # ------------------------------------------------------------ help

    def to_expression(self) -> None:
        """Expression keys go to the Expression area (switching to it, so the result is visible)."""
        self.tabs.setCurrentWidget(self.expression)

    def shortcut_table(self) -> list[tuple[str, str, str]]:
        """(keys, what they do, where) for every shortcut the window really has (``help_dialogs.shortcut_rows``)."""
        return shortcut_rows(self, self.areas, self.tabs)

    def show_shortcuts(self) -> ShortcutsDialog:
        """Help → Keyboard shortcuts: the table, grouped by where the keys act."""
        dialog = ShortcutsDialog(shortcuts_html(self.shortcut_table()), self)
        dialog.open()
        return dialog

    def show_about(self) -> QMessageBox:
        return show_about(self)

    # ------------------------------------------------------------ theme

    def set_theme(self, theme: str) -> None:
        self.theme = theme if theme in THEMES else "light"
        self.menus.theme_actions[self.theme].setChecked(True)
        self._apply_look()

    def set_presentation(self, on: bool) -> None:
        self.presentation = bool(on)
        if self.menus.presentation_action.isChecked() != self.presentation:
            self.menus.presentation_action.setChecked(self.presentation)
            return  # the toggled signal calls back here
        self._apply_look()

    def _apply_look(self) -> None:
        """Palette and fonts for the app, then the shown area's own look: only what changed (each redraws).

        A hidden area takes the new look when its tab is shown (``_catch_up_look``): restyling every plot of
        every tab at once kept the window busy for a tenth of a second or more on each switch."""
        with repainted_once(self):
            apply_theme(QApplication.instance(), self.theme, self.presentation, self._base_font_size)
            self._applied_look = (self.theme, self.presentation)
            current = self.tabs.currentWidget()
            for area in self.areas.values():
                if area is current or not self.isVisible():
                    self._catch_up_look(area)

    def _catch_up_look(self, area: QWidget | None) -> None:
        """Give ``area`` the window's theme and mode if it has not had them yet."""
        if area is None or area not in self.areas.values():
            return
        applied = self._area_looks.get(id(area), (None, None))
        if applied == (self.theme, self.presentation):
            return  # (shown before in this look: a plain tab switch, painted at once)
        with repainted_once(self):  # (a tab shown after a switch elsewhere; within a switch, the switch's)
            if isinstance(area, ThemedArea) and applied[0] != self.theme:
                area.set_theme(self.theme)
            if isinstance(area, PresentationArea) and applied[1] != self.presentation:
                area.set_presentation(self.presentation)
        self._area_looks[id(area)] = (self.theme, self.presentation)

    def warn(self, title: str, text: str) -> QMessageBox:
        """A non-blocking warning (the event loop, and any animation, keeps running)."""
        box = QMessageBox(QMessageBox.Icon.Warning, title, text, QMessageBox.StandardButton.Ok, self)
        box.setObjectName("warningDialog")
        self.last_warning = box
        self.statusBar().showMessage(text, 10000)
        box.open()
        return box

    # ------------------------------------------------------------ sessions (gui/shell/session_files.py)

    def save_session(self) -> bool:
        return self.sessions.save()

    def save_session_as(self) -> bool:
        return self.sessions.save_as()

    def save_session_to(self, path: str) -> bool:
        return self.sessions.save_to(path)

    def open_session_dialog(self) -> bool:
        return self.sessions.open_dialog()

    def open_session(self, path: str) -> bool:
        """Load a session; a bad file is reported and nothing on screen changes."""
        return self.sessions.open(path)

    def show_export(self, kind: str):
        """File → Export run as Python / PyTorch, trained model as NumPy: the script shown, then saved."""
        self.export_dialog = show_export(self, kind, self.training.controller)
        return self.export_dialog

    # ------------------------------------------------------------ export

    def export_image(self, path: str | None = None) -> bool:
        area = self.current_area()
        target = area if isinstance(area, ExportableArea) else self.expression
        if path is None:
            path, chosen = QFileDialog.getSaveFileName(self, "Export image", self.sessions.dialog_dir(), IMAGE_FILTER)
            if not path:
                return False
            if not os.path.splitext(path)[1]:
                path += ".svg" if "svg" in chosen.lower() else ".png"
        try:
            check_writable(path)  # before drawing: a big graph takes seconds to render, a bad path an instant
        except FileError as err:
            self.warn("Could not export the image", f"{path}: {err}")
            return False
        try:
            target.export_image(path)
        except OSError as err:
            self.warn("Could not export the image", str(err))
            return False
        return True

    # ------------------------------------------------------------ status

    def _update_non_finite(self, _change=None) -> None:
        """The warning describes the graph on screen (none on an area without one)."""
        state = self._graph_state_of(self.current_area())
        items = state.non_finite if state is not None else []
        if not items:
            self.non_finite_label.clear()
            self.non_finite_label.hide()
            return
        first = items[0]
        more = f" (+{len(items) - 1} more)" if len(items) > 1 else ""
        self.non_finite_label.setText(f"⚠ {first.message}{more}")
        self.non_finite_label.setToolTip("<br>".join(i.message for i in items[:20]))
        self.non_finite_label.show()

    # ------------------------------------------------------------ settings

    def _restore_settings(self) -> None:
        s = self.settings
        self.window_settings = WindowSettings(self, s)
        self.window_settings.restore()
        self.theme = s.get_str("view/theme", "light")
        self.presentation = s.get_bool("view/presentation", False)
        self.menus.theme_actions.get(self.theme, self.menus.theme_actions["light"]).setChecked(True)
        self.menus.presentation_action.blockSignals(True)
        self.menus.presentation_action.setChecked(self.presentation)
        self.menus.presentation_action.blockSignals(False)
        self._apply_look()
        self.sessions.rebuild_recent_menu()
        self.tabs.setCurrentIndex(min(max(int(s.get_str("window/tab", "0") or 0), 0), self.tabs.count() - 1))
        last = s.get_str("expression/last", "")
        restored = False
        if last:
            try:
                self.expression.restore_session(json.loads(last))
                restored = self.expression.state.program is not None
            except (ValueError, TypeError, KeyError):
                restored = False
        if not restored:
            example = next((e for e in self.expression.examples if e["name"] == DEFAULT_EXAMPLE), None)
            if example is not None:
                self.expression.load_example(example)

    def save_settings(self) -> None:
        s = self.settings
        self.window_settings.save()
        s.set("view/theme", self.theme)
        s.set("view/presentation", self.presentation)
        s.set("window/tab", str(self.tabs.currentIndex()))
        s.set("expression/last", json.dumps(self.expression.session_state()))
        s.sync()

    def showEvent(self, event) -> None:
        super().showEvent(event)
        self.window_settings.shown()

    def grab(self, *args):
        self.setUpdatesEnabled(True)  # (right after a theme or mode switch its repaint is not due yet; else no-op)
        return super().grab(*args)

    def closeEvent(self, event) -> None:
        self.expression.state.stop()
        self.save_settings()
        super().closeEvent(event)
