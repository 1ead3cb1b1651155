"""The Expression area: editor, inputs, graph and backward ledger around one state.

This file only wires widgets to ``ExpressionState``; each widget lives in its
own module and none of them computes a gradient.
"""

from __future__ import annotations

import json
from pathlib import Path

from PySide6.QtCore import QEvent, Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QApplication,
    QComboBox,
    QFrame,
    QHBoxLayout,
    QLabel,
    QMenu,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QSplitter,
    QStyle,
    QTabWidget,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from autograd_core.language.expression import EmptyExpressionError

from ..graph_view import LAYOUTS, GraphView, tool_button, view_tool_buttons
from ..graph_view.graph_state import Change
from ..look.app_style import monospace_font, set_text_role
from ..shell.areas import ExportingWindow
from ..shell.flow_layout import FlowLayout
from ..shell.status_messages import StatusMessages
from .backward_panel import backward_column
from .break_it_panel import BreakItPanel
from .broken_export import export_broken
from .expression_editor import EMPTY_HINT, ExpressionEditor
from .expression_state import ExpressionState
from .inputs_panel import InputsPanel
from .maths_panel import MathsPanel
from .mode_panel import ModePanel

EXAMPLES_PATH = Path(__file__).resolve().parents[2] / "resources" / "examples.json"  # beside gui/, installed too


def load_examples(path: Path = EXAMPLES_PATH) -> list[dict]:
    """The examples menu's entries: name, description, text, values."""
    with open(path, encoding="utf-8") as f:
        return json.load(f)


NARROW_CHARS = 110  # below this many average characters of width, two columns instead of three
# While a lesson runs the graph is its subject: it keeps at least this share of the area's width (more when its
# boxes need more to be shown whole at a readable size), and the side columns are as wide as what they hold.
GRAPH_LEAST = 0.4
GRAPH_AREA_LEAST = 0.27  # ... and at least this share of the window's area (tools/layout_checks.py asks a quarter)
SIDE_MOST_CHARS = 55  # a side column never takes more than this many average characters (330 px at 6 px)


class MathsControl:
    """The Maths panel as one control a lesson hides and shows: beside the inputs it is a pane, in a narrow
    area a tab (a hidden tab page is hidden by its tab widget too, so the panel's own flag cannot tell)."""

    def __init__(self, panel: ExpressionPanel):
        self.panel = panel
        self.stepped_back = False

    def isHidden(self) -> bool:
        return self.stepped_back

    def hide(self) -> None:
        self.stepped_back = True
        self.apply()

    def show(self) -> None:
        self.stepped_back = False
        self.apply()

    def apply(self) -> None:
        box, tabs = self.panel.maths_box, self.panel.side_tabs
        index = tabs.indexOf(box)
        if index >= 0:
            tabs.setTabVisible(index, not self.stepped_back)
        else:
            box.setVisible(not self.stepped_back)


class ExpressionPanel(QWidget):
    """Type an expression, see its graph, run and step through backward."""

    status = Signal(str)
    status_withdrawn = Signal(str)  # a message said earlier is no longer true
    status_superseded = Signal(str, str)  # (said, now): a message said earlier, reworded for what is true now
    title = "Expression"

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("expressionPanel")
        self.state = ExpressionState(self)
        self.examples = load_examples()

        # left: editor + inputs
        self.editor = ExpressionEditor()
        self.examples_button = QToolButton()
        self.examples_button.setText("Examples")
        self.examples_button.setObjectName("examplesButton")
        self.examples_button.setToolTip("Load an example: x + x, a neuron, sigmoid, micrograd's tests…")
        self.examples_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.examples_menu = QMenu(self.examples_button)
        for example in self.examples:
            action = self.examples_menu.addAction(example["name"])
            action.setToolTip(example.get("description", ""))
            action.setStatusTip(example.get("description", ""))
            action.triggered.connect(lambda _=False, e=example: self.load_example(e))
        self.examples_menu.setToolTipsVisible(True)
        self.examples_button.setMenu(self.examples_menu)
        self.evaluate_button = QPushButton("Evaluate")
        self.evaluate_button.setObjectName("evaluateButton")
        self.evaluate_button.setToolTip("Compile and evaluate now (Ctrl+Enter); it also happens as you type")
        self.evaluate_button.clicked.connect(lambda: self.evaluate(self.editor.text()))
        head = FlowLayout()  # the buttons wrap under the title in a narrow column (the graph keeps the width)
        head.addWidget(QLabel("<b>Expression</b>"))
        head.addStretch()
        head.addWidget(self.examples_button)
        head.addWidget(self.evaluate_button)
        editor_box = self.editor_box = QWidget()
        editor_layout = QVBoxLayout(editor_box)
        editor_layout.setContentsMargins(4, 4, 4, 4)
        editor_layout.addLayout(head)
        editor_layout.addWidget(self.editor, 1)
        self.inputs = InputsPanel(self.state)
        inputs_box = self.inputs_box = QWidget()
        inputs_layout = QVBoxLayout(inputs_box)
        inputs_layout.setContentsMargins(4, 4, 4, 4)
        inputs_layout.addWidget(QLabel("<b>Inputs</b>"))
        inputs_layout.addWidget(self.inputs, 1)
        self.maths = MathsPanel(self.state)
        maths_box = self.maths_box = QWidget()
        self.maths_control = MathsControl(self)  # what a lesson steps back: the panel, or its tab when narrow
        maths_layout = QVBoxLayout(maths_box)
        maths_layout.setContentsMargins(4, 4, 4, 4)
        maths_layout.addWidget(QLabel("<b>Maths</b>"))
        maths_layout.addWidget(self.maths, 1)
        self.left = QSplitter(Qt.Orientation.Vertical)
        self.left.setObjectName("expressionLeftSplitter")
        self.left.addWidget(editor_box)
        self.left.addWidget(inputs_box)
        self.left.addWidget(maths_box)
        self.left.setSizes([150, 270, 380])
        # narrow: Backward and Maths share the column's last pane as two tabs (four panes would each be too short)
        self.side_tabs = QTabWidget()
        self.side_tabs.setObjectName("expressionSideTabs")
        self.side_tabs.hide()
        self.backward_scroll = QScrollArea()  # in its tab, Backward scrolls rather than squash its buttons
        self.backward_scroll.setObjectName("backwardScroll")
        self.backward_scroll.setWidgetResizable(True)
        self.backward_scroll.setFrameShape(QFrame.Shape.NoFrame)
        self.backward_scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)

        # center: graph + its toolbar
        self.view = GraphView()
        self.layout_combo = QComboBox()
        self.layout_combo.setObjectName("layoutCombo")
        for key, name in LAYOUTS.items():
            self.layout_combo.addItem(name, key)
        self.layout_combo.setToolTip("How nodes are placed: layered (inputs left, output right), spring, Kamada–Kawai")
        self.layout_combo.currentIndexChanged.connect(
            lambda _i: self.view.set_layout_method(self.layout_combo.currentData())
        )
        self.zoom_out_button, self.zoom_in_button, self.fit_button, self.export_button = view_tool_buttons(
            self.view, self._export_clicked
        )
        self.collapse_button = tool_button(
            "Expand all groups",
            "Open every group (a big graph opens as groups: double-click a box to open one)",
            self._toggle_groups,
        )
        self.collapse_button.setVisible(False)
        # right-click on the graph: the same two actions
        self.view.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.view.customContextMenuRequested.connect(lambda pos: self.group_menu().exec(self.view.mapToGlobal(pos)))
        bar = QHBoxLayout()
        bar.setContentsMargins(4, 4, 4, 0)
        label = self.layout_label = QLabel("Layout")
        label.setToolTip(self.layout_combo.toolTip())
        self.layout_combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)  # follows the font
        bar.addWidget(label)
        bar.addWidget(self.layout_combo)
        bar.addStretch(1)
        self.broken_badge = QLabel("⚠ BROKEN")  # beside the graph whose grads are broken on purpose
        self.broken_badge.setObjectName("brokenBadge")
        self.broken_badge.setToolTip(
            "BROKEN backward: the grads in the boxes come from a backward broken on purpose (Break it)"
        )
        set_text_role(self.broken_badge, "error")
        self.broken_badge.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)  # never cut
        self.broken_badge.hide()
        bar.addWidget(self.broken_badge)
        for b in (self.collapse_button, self.zoom_out_button, self.zoom_in_button, self.fit_button, self.export_button):
            bar.addWidget(b)
        center = QWidget()
        center_layout = QVBoxLayout(center)
        center_layout.setContentsMargins(0, 0, 0, 0)
        center_layout.addLayout(bar)
        center_layout.addWidget(self.view, 1)

        # right: mode (reverse / forward, cost) over backward
        right, self.backward = backward_column(self.state)
        self.mode = ModePanel(self.state)
        right.layout().insertWidget(0, self.mode)
        self.break_it = BreakItPanel(self.state)
        self.backward.layout().insertWidget(1, self.break_it)  # the switch, under the Backward buttons
        right.layout().addWidget(self.break_it.details, 1)  # what a broken run says, under the ledger (bug on only)
        self.backward_column = right
        self._narrow = False  # the Backward column sits under the inputs (see _reflow)
        self.columns_fitted = False  # a lesson runs: widths follow what each column holds (column_widths)
        self._sizes_before: tuple | None = None  # the splitters' sizes before the lesson, given back after it
        self._refit = QTimer(self)  # a column's content changed: fit once, after the change settles
        self._refit.setSingleShot(True)
        self._refit.setInterval(0)
        self._refit.timeout.connect(self._reflow)

        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.setObjectName("expressionSplitter")
        self.splitter.addWidget(self.left)
        self.splitter.addWidget(center)
        self.splitter.addWidget(right)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setSizes([330, 700, 330])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.splitter)

        # wiring: editor -> state -> widgets
        self.editor.text_ready.connect(self.state.compile_text)  # compiled in one turn, drawn from the next
        self.inputs.wait_while = lambda: self.view.busy  # off-screen input rows come after the graph
        self.editor.text_edited.connect(self.state.request_text)  # a long text: compiled and built off this thread
        self.editor.evaluate_requested.connect(self.evaluate)
        self.state.text_changed.connect(self.editor.set_text)
        self.state.changed.connect(self._state_changed)
        self.messages = StatusMessages(self._status_key, self)
        self.messages.said.connect(self.status)
        self.messages.withdrawn.connect(self.status_withdrawn)
        self.messages.superseded.connect(self.status_superseded)
        self.messages.watch(self.state.changed, self.view.layout_started, self.view.groups_changed)
        self.state.message.connect(self._state_message)
        self.view.message.connect(self.messages.say)
        self.view.message_superseded.connect(self.messages.supersede)
        self.view.groups_changed.connect(self._groups_changed)
        self.view.drawn.connect(self._groups_changed)
        self._press = None  # where a left click on the graph began (a click selects, a drag pans)
        self.view.viewport().installEventFilter(self)
        for column in (self.editor_box, self.inputs_box, self.backward_column, self.backward, self.break_it):
            column.installEventFilter(self)  # (what a column holds changed: its size hint with it)
        self.view.drawn.connect(self._graph_drawn)

    # ---- reflow

    def set_columns_fitted(self, on: bool) -> None:
        """A lesson starts (on) or ends: while it runs, each side column is as wide as what it holds and the
        graph takes the rest; after it, the columns the user had come back."""
        if on == self.columns_fitted:
            self._reflow()
            return
        self.columns_fitted = on
        if on:
            self._sizes_before = (self.splitter.sizes(), self.left.sizes(), self._narrow)
        self._reflow()
        if not on and self._sizes_before is not None:
            sizes, left, narrow = self._sizes_before
            self._sizes_before = None
            if narrow == self._narrow:
                self.splitter.setSizes(sizes)
                self.left.setSizes(left)

    def _want(self, widget: QWidget) -> tuple[int, int]:
        """(least, wanted) width of a column's piece: its minimum and its size hint, at most SIDE_MOST_CHARS."""
        most = SIDE_MOST_CHARS * max(1, self.fontMetrics().averageCharWidth())
        least = widget.minimumSizeHint().width()
        return least, max(least, min(widget.sizeHint().width(), most))

    def graph_need(self) -> int:
        """The width the drawn graph needs to be shown whole at Fit's zoom (0 before the first one)."""
        view = self.view
        if not view.nodes or view.busy:
            return 0
        rect = view.graph_rect()
        frame = view.width() - view.viewport().width()
        return int(rect.width() * view.fit_zoom() + 2 * view.fit_margin + frame + 2)

    def column_widths(self) -> tuple[bool, list[int]]:
        """While a lesson runs: (narrow, the splitter's sizes).  Each side column gets its size hint; where the
        graph would get less than it needs (GRAPH_LEAST of the width, GRAPH_AREA_LEAST of the window's area, or
        what its boxes need at a readable zoom), the Backward column moves under the inputs, and that one column
        shrinks toward its minimum as far as the graph needs."""
        total = self.splitter.width() - 2 * self.splitter.handleWidth()
        maths = [] if self.maths_control.isHidden() else [self.maths_box]
        pieces = [w for w in (self.editor_box, self.inputs_box, *maths) if not w.isHidden()]
        left = [self._want(w) for w in pieces] or [(0, 0)]
        # the column wants an input row's width (its rows scroll sideways only where the graph needs the room)
        bar = self.style().pixelMetric(QStyle.PixelMetric.PM_ScrollBarExtent)
        rows = self.inputs.body.minimumSizeHint().width() + bar + 12
        left.append((left[0][0], rows))
        left_least, left_want = max(a for a, _ in left), max(b for _, b in left)
        right_least, right_want = self._want(self.backward_column)
        window = self.window()
        area = GRAPH_AREA_LEAST * window.width() * window.height() / max(1, self.view.height())
        tabs = 12  # the tab widget's frame around the Backward column under the inputs
        least, want = max(left_least, right_least + tabs), max(left_want, right_want + tabs)
        graph = max(GRAPH_LEAST * total, min(max(self.graph_need(), area), total - least))

        def shrink(columns: list[tuple[int, int]], room: float) -> list[int]:
            wanted = sum(b for _, b in columns)
            give = min(max(0.0, wanted - room), sum(b - a for a, b in columns))
            spare = sum(b - a for a, b in columns) or 1
            return [int(b - give * (b - a) / spare) for a, b in columns]

        if total - left_want - right_want >= graph:  # three columns, each as wide as it wants
            return False, [left_want, total - left_want - right_want, right_want]
        (side,) = shrink([(least, want)], total - graph)  # else two: the graph gets the most
        return True, [side, total - side]

    def _reflow(self) -> None:
        """Three columns need about 110 characters of width: narrower (1024 px in presentation mode), the
        Backward column moves under the inputs, and the graph keeps the rest of the width.  While a lesson
        runs, the widths follow what each column holds (``column_widths``)."""
        chars = self.width() / max(1, self.fontMetrics().averageCharWidth())
        narrow = self.isVisible() and chars < NARROW_CHARS
        sizes = None
        if self.columns_fitted and self.isVisible():
            narrow, sizes = self.column_widths()
        if narrow == self._narrow:
            if sizes is not None:
                self.splitter.setSizes(sizes)
                self._fit_editor_pane(sizes[0])
            return
        self._narrow = narrow
        column = self.backward_column
        if narrow:
            self.backward_scroll.setWidget(column)
            self.side_tabs.addTab(self.backward_scroll, "Backward")
            self.side_tabs.addTab(self.maths_box, "Maths")
            self.left.addWidget(self.side_tabs)
            self.side_tabs.show()
            h = max(self.left.height(), 400)
            self.left.setSizes([int(h * 0.18), int(h * 0.3), int(h * 0.52)])  # editor, inputs, the tabs
            self.splitter.setSizes([int(self.width() * 0.36), int(self.width() * 0.64)])
        else:
            self.left.insertWidget(2, self.maths_box)
            if self.backward_scroll.widget() is column:
                self.backward_scroll.takeWidget()
            self.splitter.insertWidget(2, column)
            self.side_tabs.hide()
            h = max(self.left.height(), 400)
            self.left.setSizes([int(h * 0.2), int(h * 0.36), int(h * 0.44)])  # editor, inputs, maths
            side = min(330, int(self.width() * 0.26))
            self.splitter.setSizes([side, self.width() - 2 * side, side])
        column.show()
        self.maths_control.apply()
        if sizes is not None:
            self.splitter.setSizes(sizes)
            self._fit_editor_pane(sizes[0])

    def _fit_editor_pane(self, width: int) -> None:
        """While a lesson runs: the editor's pane is tall enough for its title and buttons (wrapped onto two lines in
        a narrow column) and every line of the expression; the pane below gives up the room."""
        layout = self.editor_box.layout()
        edit = self.editor.edit
        lines = max(2, edit.document().blockCount() + 1)
        head = layout.itemAt(0).layout().heightForWidth(max(1, width - 8))
        need = head + lines * edit.fontMetrics().lineSpacing() + 2 * edit.frameWidth() + 24
        sizes = self.left.sizes()
        if len(sizes) < 2 or sizes[0] >= need:
            return
        donor = max(range(1, len(sizes)), key=lambda i: sizes[i])
        give = min(need - sizes[0], max(0, sizes[donor] - 120))
        sizes[0] += give
        sizes[donor] -= give
        self.left.setSizes(sizes)

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._reflow()

    def _graph_drawn(self) -> None:
        """A lesson's new graph: the columns make the room it needs (they settle: the same graph, the same sizes)."""
        if self.columns_fitted:
            self._refit.start()

    def changeEvent(self, event) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange:
            self._reflow()

    def showEvent(self, event) -> None:
        super().showEvent(event)
        self._reflow()

    # ---- actions

    def evaluate(self, text: str | None = None) -> bool:
        text = self.editor.text() if text is None else text
        return self.state.set_text(text, force=True)

    def load_example(self, example: dict) -> None:
        self.state.load(example["text"], example.get("values"))
        self.messages.say(f"Example: {example['name']}. {example.get('description', '')}")

    def export_image(self, path: str) -> None:
        state = self.state
        if state.broken:  # a broken backward's picture says so, in the picture and in the file
            export_broken(self.view, path, state.replay.label, state.replay.reason)
            self.messages.say(f"Graph saved to {path}, marked BROKEN: its grads are wrong on purpose")
            return
        self.view.export(path, background=True)  # the view says when the file is written (or why not)

    # ---- clicking a node selects it (its formula and chain-rule path in the maths panel)

    def eventFilter(self, watched, event) -> bool:
        kind = event.type()
        if self.columns_fitted and kind == QEvent.Type.LayoutRequest and watched is not self.view.viewport():
            self._refit.start()  # what a column holds changed (a lesson stepped a control back, or showed it)
        elif watched is self.view.viewport():
            if kind == QEvent.Type.MouseButtonPress and event.button() == Qt.MouseButton.LeftButton:
                self._press = event.position().toPoint()
            elif kind == QEvent.Type.MouseButtonRelease and event.button() == Qt.MouseButton.LeftButton:
                start, self._press = self._press, None
                pos = event.position().toPoint()
                if start is not None and (pos - start).manhattanLength() <= QApplication.startDragDistance():
                    self.select_node_at(pos)
        return super().eventFilter(watched, event)

    def node_at(self, pos):
        """The graph node id drawn at viewport position ``pos`` (None: empty space or a group's box)."""
        item = self.view.itemAt(pos)
        while item is not None and not isinstance(getattr(item, "node", None), int):
            item = item.parentItem()
        return item.node if item is not None and item in self.view.nodes.values() else None

    def select_node_at(self, pos) -> None:
        node = self.node_at(pos)
        self.state.select(node)
        if node is not None and self._narrow:
            self.side_tabs.setCurrentWidget(self.maths_box)  # what the click shows: its formula and chain rule

    # ---- status line

    def _status_key(self) -> tuple:
        """What this area's messages speak about: a message stands while these stay the same."""
        state = self.state
        view = self.view
        return (
            state.text,
            state.error,
            state.root,
            state.mode,
            state.position,
            frozenset(view.collapsed),
            view.method,
            state.direction,
            state.forward_position,
            state.derivative,
            state.bug,
        )

    def _state_message(self, text: str) -> None:
        if isinstance(self.state.error, EmptyExpressionError) and text.endswith(self.state.error.message):
            text = EMPTY_HINT  # an empty editor is a prompt, not a mistake
        self.messages.say(text)

    def _export_clicked(self) -> None:
        window = self.window()
        if isinstance(window, ExportingWindow):
            window.export_image()

    def _toggle_groups(self, _checked: bool = False) -> None:
        """The toolbar button: with a group closed it opens them all, else it closes them all."""
        if self.view.collapsed:
            self.view.expand_all()
        else:
            self.view.collapse_all()

    def _groups_changed(self) -> None:
        groups = self.view.groups()
        self.collapse_button.setVisible(bool(groups))
        if self.view.collapsed:
            self.collapse_button.setText("Expand all groups")
            self.collapse_button.setToolTip("Open every group (double-click a box to open only that one)")
        else:
            self.collapse_button.setText("Collapse groups")
            self.collapse_button.setToolTip("Draw each group as one box (double-click a box to open it)")

    def group_menu(self) -> QMenu:
        """The graph's right-click menu: open or close every group (disabled when there is nothing to do),
        fit with readable text or show the whole graph."""
        menu = QMenu(self.view)
        groups = set(self.view.groups())
        expand = menu.addAction("Expand all groups", self.view.expand_all)
        expand.setEnabled(bool(self.view.collapsed))
        collapse = menu.addAction("Collapse groups", self.view.collapse_all)
        collapse.setEnabled(bool(groups - self.view.collapsed))
        if not groups:
            expand.setToolTip("This graph has no groups (a graph of more than 60 nodes has)")
        menu.addSeparator()
        menu.addAction("Fit, text readable", lambda: self.view.fit(whole=False))
        menu.addAction("Whole graph", self.view.show_whole)
        return menu

    # ---- state -> view

    def _state_changed(self, change: Change) -> None:
        """One signal per change of the state: redraw what it says changed."""
        if change & Change.ERROR:
            self._error_changed(self.state.error)
        if change & Change.everything_drawn():
            self._redraw()
        self.broken_badge.setVisible(self.state.broken)

    def _error_changed(self, err) -> None:
        self.editor.show_error(err)
        if err is None:
            self.view.set_dimmed(False)
        elif isinstance(err, EmptyExpressionError):
            self.view.set_dimmed(True)  # the last graph, faded; the hint under the editor says what to do
        else:
            self.view.set_dimmed(
                True,
                f"Line {err.line}, column {err.column}: {err.message}\n"
                "The last good graph is shown, dimmed, until the text is fixed.",
            )

    def _redraw(self) -> None:
        self.view.show_state(self.state)
        if self.state.error is None:
            self.view.set_dimmed(False)

    # ---- look

    def set_theme(self, theme: str) -> None:
        self.view.set_theme(theme)
        self.mode.set_theme(theme)
        self.backward.recolor()
        self.editor.set_dark(theme == "dark")

    def set_presentation(self, on: bool) -> None:
        self.view.set_presentation(on)
        self.break_it.set_presentation(on)
        self.editor.edit.setFont(monospace_font(QApplication.font().pointSizeF() * 1.15))

    # ---- session

    def session_state(self) -> dict:
        data = self.state.session_state()
        data["layout"] = self.layout_combo.currentData()
        return data

    def restore_session(self, data: dict) -> None:
        if not data:
            return
        layout = data.get("layout")
        if layout in LAYOUTS:
            self.layout_combo.setCurrentIndex(list(LAYOUTS).index(layout))
        self.state.restore_session(data)
