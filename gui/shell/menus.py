"""The window's menu bar: File, Expression, Backward, View and Help.  Each action has its tip and shortcut (the
shortcuts work with the menu bar hidden, as the actions are the window's too), and calls the window's public
methods; what the window's state means for a checkable action (forward mode, the gradient check) is followed here."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import QMainWindow

from ..look.theme import THEMES
from ..runs.exports import add_export_actions


class AppMenus:
    """The menus of one window, and the actions tests and the window reach (``theme_actions``,
    ``presentation_action``, ``forward_action``, ``recent_menu``, …)."""

    def __init__(self, window: QMainWindow):
        # (the MainWindow: its public methods only; typed by its Qt base, as main_window imports this module)
        self.window = window
        self._build()

    def action(self, menu, text: str, slot, shortcut=None, tip: str = "", checkable: bool = False) -> QAction:
        action = QAction(text, self.window)
        if shortcut:
            keys = shortcut if isinstance(shortcut, list) else [shortcut]
            action.setShortcuts([QKeySequence(k) for k in keys])
            action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        action.setToolTip(tip or text)
        action.setStatusTip(tip or text)
        action.setCheckable(checkable)
        if checkable:
            action.toggled.connect(slot)
        else:
            action.triggered.connect(lambda _checked=False: self._act(slot))
        menu.addAction(action)
        self.window.addAction(action)  # shortcuts work even when the menu bar is hidden
        return action

    def _act(self, slot) -> None:
        self.window.build_later_areas()  # (an action in the first instant after the window showed: the areas first)
        slot()

    def _build(self) -> None:
        w = self.window
        bar = w.menuBar()
        state = w.expression.state
        file_menu = bar.addMenu("&File")
        self.open_action = self.action(
            file_menu, "&Open session…", w.open_session_dialog, "Ctrl+O", "Open a saved session"
        )
        self.save_action = self.action(
            file_menu, "&Save session", w.save_session, "Ctrl+S", "Save the session (expression, values, training)"
        )
        self.save_as_action = self.action(
            file_menu, "Save session &as…", w.save_session_as, "Ctrl+Shift+S", "Save the session to a new file"
        )
        self.recent_menu = file_menu.addMenu("&Recent files")
        self.recent_menu.setToolTipsVisible(True)
        file_menu.addSeparator()
        self.import_data_action = self.action(
            file_menu,
            "&Import data…",
            w.import_data,
            None,
            "Train on your own CSV/TSV file: pick two feature columns and a label column (or drop the file on the "
            "Network training tab)",
        )
        self.export_data_action = self.action(
            file_menu,
            "Export data with &predictions…",
            w.export_predictions,
            None,
            "Save the training data with the network's predicted class and probabilities as CSV",
        )
        self.export_code_actions = add_export_actions(self, file_menu)
        file_menu.addSeparator()
        self.open_lesson_action = self.action(
            file_menu, "Open &lesson…", w.open_lesson_dialog, None, "Open a lesson file (a teacher's own lesson)"
        )
        file_menu.addSeparator()
        self.export_action = self.action(
            file_menu, "&Export image…", w.export_image, "Ctrl+E", "Save the graph as a PNG or SVG image"
        )
        file_menu.addSeparator()
        self.action(file_menu, "&Quit", w.close, "Ctrl+Q", "Quit Autograd Playground")

        expr = bar.addMenu("&Expression")
        self.evaluate_action = self.action(
            expr, "&Evaluate", self._evaluate, ["Ctrl+Return", "Ctrl+Enter"], "Compile and evaluate the expression now"
        )
        self.gradcheck_action = self.action(
            expr,
            "&Gradient check",
            state.set_gradcheck,
            "Ctrl+G",
            "Compare the gradients shown with finite differences for each input",
            checkable=True,
        )
        state.changed.connect(self._sync_gradcheck_action)

        # The graph on screen (Expression or Sample graph); from another area, the Expression's.
        graph = bar.addMenu("&Backward")
        self.backward_action = self.action(
            graph, "&Backward", lambda: w.graph_area().state.backward(), "F5", "Run backward() on the graph shown"
        )
        self.action(graph, "&Zero grad", lambda: w.graph_area().state.zero_grad(), None, "Set every gradient to zero")
        self.step_action = self.action(
            graph, "&Step", lambda: w.graph_area().state.step(), "F6", "One node of the backward pass"
        )
        self.action(graph, "Step &back", lambda: w.graph_area().state.back(), "Shift+F6", "Undo the last step")
        self.action(
            graph,
            "&Play / pause",
            lambda: w.graph_area().backward.toggle_play(),
            "F7",
            "Animate the remaining backward steps",
        )
        graph.addSeparator()
        self.forward_action = self.action(
            graph,
            "&Forward mode",
            self._set_forward_mode,
            "F8",
            "Expression: step tangents forward from one input (ẋ = 1) instead of the backward pass",
            checkable=True,
        )
        state.changed.connect(self._sync_forward_action)

        view = bar.addMenu("&View")
        self.action(view, "Zoom &in", lambda: w.graph_view().zoom_in(), ["Ctrl++", "Ctrl+="], "Zoom in")
        self.action(view, "Zoom &out", lambda: w.graph_view().zoom_out(), "Ctrl+-", "Zoom out")
        self.action(
            view,
            "&Fit to window",
            lambda: w.graph_view().fit(whole=False),
            "Ctrl+0",
            "Fit the graph in the window, its text kept readable (a bigger graph: around its output, with a map)",
        )
        self.action(
            view,
            "&Whole graph",
            lambda: w.graph_view().show_whole(),
            "Ctrl+9",
            "Show the whole graph in the window, even if its text gets too small to read",
        )
        view.addSeparator()
        self.theme_group = QActionGroup(w)
        self.theme_actions = {}
        for name in THEMES:
            action = QAction(f"{name.capitalize()} theme", w, checkable=True)
            action.setToolTip(f"Use the {name} theme")
            action.setStatusTip(f"Use the {name} theme")
            action.triggered.connect(lambda _c=False, n=name: w.set_theme(n))
            self.theme_group.addAction(action)
            view.addAction(action)
            self.theme_actions[name] = action
        self.presentation_action = self.action(
            view,
            "&Presentation mode",
            w.set_presentation,
            "Ctrl+Shift+P",
            "Large fonts and thick lines, for a projector",
            checkable=True,
        )

        help_menu = bar.addMenu("&Help")
        self.lessons_action = self.action(
            help_menu, "&Lessons", w.show_lessons, None, "Start here: guided lessons beside the live app"
        )
        self.action(help_menu, "&Keyboard shortcuts", w.show_shortcuts, "F1", "List every keyboard shortcut")
        self.action(help_menu, "&About", w.show_about, None, "About Autograd Playground")

    def _set_forward_mode(self, on: bool) -> None:
        w = self.window
        if w.current_area() is not w.expression:
            w.to_expression()
        w.expression.state.set_direction("forward" if on else "reverse")

    def _sync_forward_action(self, _change=None) -> None:
        on = self.window.expression.state.direction == "forward"
        if self.forward_action.isChecked() != on:
            self.forward_action.blockSignals(True)
            self.forward_action.setChecked(on)
            self.forward_action.blockSignals(False)

    def _sync_gradcheck_action(self, _change=None) -> None:
        on = self.window.expression.state.gradcheck_enabled
        if self.gradcheck_action.isChecked() != on:
            self.gradcheck_action.blockSignals(True)
            self.gradcheck_action.setChecked(on)
            self.gradcheck_action.blockSignals(False)

    def _evaluate(self) -> None:
        self.window.to_expression()
        self.window.expression.editor.evaluate_now()
