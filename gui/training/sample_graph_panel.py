"""The Sample graph area: one data point's whole scalar graph through the current network.

Click a point on the decision-boundary plot (Inspect mode) or type x and y:
the point is forwarded through a copy of the network and its loss, and the
graph view shows every scalar node, grouped by neuron (each neuron one box
until opened), with the expression playground's backward stepping.

This file only wires widgets to ``SampleState``; the numbers come from
``autograd_core.learn.inspection.sample_graph`` and ``GraphState``.  The network
comes from a *source* (the training area's ``current_model``/``current_loss``),
so the panel works, and is tested, with any model.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import Any, Protocol, runtime_checkable

from PySide6.QtCore import QSize, Qt, QTimer, Signal, SignalInstance
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QApplication,
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from autograd_core.language.naming import class_name, input_name
from autograd_core.live.training_policy import TrainingPart
from autograd_core.numbers import LEDGER, format_number, parse_number

from ..expression.backward_panel import backward_column
from ..graph_view import GraphView, view_tool_buttons
from ..look.app_style import set_text_role
from ..shell.areas import ExportingWindow
from ..shell.status_messages import StatusMessages
from .sample_state import NO_NETWORK, SampleState

FOLLOW_INTERVAL_MS = 250  # while training runs, the graph is rebuilt at most 4 times a second
FOLLOW_SHARE = 0.25  # ... and a big graph, slower to rebuild, at most a quarter of the GUI thread's time
COLLAPSE_ABOVE_NODES = 120  # bigger graphs open with every neuron drawn as one box
LOSS_GROUP = "loss"
HINT = (
    "Each box is one neuron; double-click to open it (double-click a node inside to close it again). "
    "Hover a box for its weights and their gradients. The loss is this one point's data loss (no L2 term)."
)


class TrainingSource(Protocol):
    """The training area's side of the contract: the latest network, its loss, a signal for new weights."""

    model_changed: SignalInstance

    def current_model(self) -> Any: ...

    def current_loss(self) -> str: ...


@runtime_checkable
class ControlledTraining(TrainingSource, Protocol):
    """A training area with its controller (the workspace; a stand-in in a test may have none)."""

    controller: Any  # a TrainingController: its "dataset" announcements bring the class names


class _NumberEdit(QLineEdit):
    """As wide as a clicked point's coordinate ("-1.23457e-05") in the current font, no wider."""

    def sizeHint(self) -> QSize:
        hint = super().sizeHint()
        return QSize(self.fontMetrics().horizontalAdvance("−1.23457e-05") + 16, hint.height())

    def minimumSizeHint(self) -> QSize:
        return QSize(self.sizeHint().width(), super().minimumSizeHint().height())


class SampleGraphPanel(QWidget):
    """Header, point entry, follow/fused/collapse controls, the graph view and the backward panel."""

    status = Signal(str)
    status_withdrawn = Signal(str)  # a message said earlier is no longer true
    status_superseded = Signal(str, str)  # (said, now): a message said earlier, reworded for what is true now
    title = "Sample graph"

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("sampleGraphPanel")
        self.state = SampleState(self)
        self._model_source: Callable[[], object] | None = None
        self._loss_source: Callable[[], str] | None = None
        self._drawn_groups: tuple[str, ...] | None = None
        self.pending_update = False  # new weights arrived while the tab was hidden
        self.stale = False  # new weights arrived while frozen
        self.updates = 0  # graphs rebuilt for new weights (the benchmark and tests read it)

        self.header = QLabel("Click a data point on the decision-boundary plot (Inspect mode), or enter one below.")
        self.header.setObjectName("sampleHeader")
        self.header.setWordWrap(True)
        self.header.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self._header_font()
        self.error_label = QLabel()
        self.error_label.setObjectName("sampleError")
        set_text_role(self.error_label, "error")
        self.error_label.setWordWrap(True)
        self.error_label.hide()

        # point entry
        self.x_edit = self._number_edit("xEdit", "x1, the point's first coordinate (the first input)", "0.5")
        self.y_edit = self._number_edit("yEdit", "x2, the point's second coordinate (the second input)", "0.25")
        self.label_combo = QComboBox()
        self.label_combo.setObjectName("labelCombo")
        self.label_combo.addItem("class 0", 0)
        self.label_combo.addItem("class 1", 1)
        self.label_combo.setCurrentIndex(1)
        self.label_combo.setToolTip("The point's true class: the loss measures how far the network is from it")
        self.show_button = QPushButton("Show")
        self.show_button.setObjectName("showSampleButton")
        self.show_button.setToolTip("Forward this point through the current network and show its graph (Enter)")
        self.show_button.clicked.connect(self.show_entered)

        # view controls
        self.follow_button = QPushButton()
        self.follow_button.setObjectName("followButton")
        self.follow_button.setCheckable(True)
        self.follow_button.setChecked(True)
        self.follow_button.toggled.connect(self.set_following)
        self.fused_check = QCheckBox("Fused neurons")
        self.fused_check.setObjectName("fusedCheck")
        self.fused_check.setToolTip(
            "On: each neuron's Σwx+b is one node, as in training (fewer nodes). Off: one × and one + per input"
        )
        self.fused_check.setChecked(self.state.fused)
        self.fused_check.toggled.connect(self.state.set_fused)
        self.collapse_button = QPushButton("Collapse all")
        self.collapse_button.setObjectName("collapseAllButton")
        self.collapse_button.setToolTip("Draw every neuron as one box (its output and gradient)")
        self.collapse_button.clicked.connect(self.collapse_neurons)
        self.expand_button = QPushButton("Expand all")
        self.expand_button.setObjectName("expandAllButton")
        self.expand_button.setToolTip("Draw every scalar node")

        self.view = GraphView()
        # Expanded, a 2-16-16-1 network is 409 boxes: fitted whole, none of their text could be read.  The numbers
        # are what a learner opens it for, so Fit shows them at a readable size around the loss (or the current
        # backward step) and the map beside the legend shows the whole shape and where the view is; the hint
        # says how to move (View ▸ Whole graph still shows all of it, small).
        self.view.readable_fit_boxes = math.inf
        self.expand_button.clicked.connect(self.view.expand_all)
        zoom_out, zoom_in, fit, export = view_tool_buttons(self.view, self._export_clicked)

        # Two rows, so that with projector-sized text nothing is clipped at 1280 px:
        # the point and what the graph follows, then the tools for the view.
        entry = QHBoxLayout()
        entry.setContentsMargins(4, 0, 4, 0)
        for text, widget in ((input_name(0), self.x_edit), (input_name(1), self.y_edit)):
            label = QLabel(text)  # x1, x2: the names the graph's input boxes carry
            label.setBuddy(widget)
            entry.addWidget(label)
            entry.addWidget(widget)
        entry.addWidget(self.label_combo)
        entry.addWidget(self.show_button)
        entry.addSpacing(16)
        entry.addWidget(self.follow_button)
        entry.addWidget(self.fused_check)
        entry.addStretch(1)
        tools = QHBoxLayout()
        tools.setContentsMargins(4, 0, 4, 0)
        tools.addWidget(self.collapse_button)
        tools.addWidget(self.expand_button)
        tools.addStretch(1)
        for widget in (zoom_out, zoom_in, fit, export):
            tools.addWidget(widget)
        self.hint = QLabel(HINT)
        self.hint.setObjectName("sampleHint")
        self.hint.setWordWrap(True)

        center = QWidget()
        center_layout = QVBoxLayout(center)
        center_layout.setContentsMargins(0, 0, 0, 0)
        center_layout.addWidget(self.view, 1)
        right, self.backward = backward_column(self.state)
        self.backward.backward_button.setToolTip(
            "Run backward() on this point's loss: every node gets d(loss)/d(node). "
            "Here it always starts from zero, so pressing it again never adds up gradients (F5)"
        )
        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.setObjectName("sampleSplitter")
        self.splitter.addWidget(center)
        self.splitter.addWidget(right)
        self.splitter.setStretchFactor(0, 1)
        self.splitter.setSizes([1000, 340])

        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.header)
        layout.addWidget(self.error_label)
        layout.addLayout(entry)
        layout.addLayout(tools)
        layout.addWidget(self.hint)
        layout.addWidget(self.splitter, 1)

        self._follow_timer = QTimer(self)
        self._follow_timer.setSingleShot(True)
        self._follow_timer.setInterval(FOLLOW_INTERVAL_MS)
        self._follow_timer.timeout.connect(self.refresh_model)

        self.messages = StatusMessages(self._status_key, self)
        self.messages.said.connect(self.status)
        self.messages.withdrawn.connect(self.status_withdrawn)
        self.messages.superseded.connect(self.status_superseded)
        self.messages.watch(self.state.changed, self.state.sample_changed)
        self.messages.watch(self.view.layout_started, self.view.groups_changed)
        self.state.changed.connect(self._redraw)  # one signal per change; the view draws the snapshot
        self.state.sample_changed.connect(self._sample_changed)
        self.state.message.connect(self.messages.say)
        self.view.message.connect(self.messages.say)
        self.view.message_superseded.connect(self.messages.supersede)
        self.view.drawn.connect(self._update_hint)
        self._sync_follow_button()

    def _number_edit(self, name: str, tip: str, text: str) -> QLineEdit:
        edit = _NumberEdit(text)
        edit.setObjectName(name)
        edit.setToolTip(tip)
        edit.returnPressed.connect(self.show_entered)
        return edit

    # ---- where the network comes from

    def set_source(self, model: Callable[[], object] | None, loss: Callable[[], str] | None = None) -> None:
        """``model()`` returns the network to inspect (or None); ``loss()`` its loss name."""
        self._model_source, self._loss_source = model, loss

    def bind_training(self, training: TrainingSource) -> None:
        """Read the network from the training area and follow its new weights (and, with a controller, the
        names of its data's classes)."""
        self.set_source(training.current_model, training.current_loss)
        training.model_changed.connect(self.model_changed)
        if isinstance(training, ControlledTraining):
            training.controller.changed.connect(self._training_changed)

    def _training_changed(self, change) -> None:
        if TrainingPart.DATASET in change:
            self.set_class_names(getattr(change.dataset, "class_names", None))

    def set_class_names(self, names) -> None:
        """The data's names for its classes (iris: setosa …): the class box and the header use them."""
        names = list(names) if names else None
        if names == self.state.class_names:
            return
        self.state.class_names = names
        self._offer_classes(max(self.label_combo.count(), len(names or ())))
        if self.state.sample is not None:
            self._sample_changed()

    def _offer_classes(self, classes: int) -> None:
        """The class box offers classes 0 … classes−1, by name."""
        texts = [class_name(k, self.state.class_names) for k in range(max(2, classes))]
        if texts == [self.label_combo.itemText(k) for k in range(self.label_combo.count())]:
            return
        current = self.label_combo.currentIndex()
        self.label_combo.clear()
        for k, text in enumerate(texts):
            self.label_combo.addItem(text, k)
        self.label_combo.setCurrentIndex(min(max(current, 0), len(texts) - 1))

    def _model(self):
        return self._model_source() if self._model_source is not None else None

    def _loss(self) -> str:
        return (self._loss_source() if self._loss_source is not None else None) or self.state.loss_name

    # ---- showing a point

    def show_sample(self, x: float, y: float, label: int) -> bool:
        """Show the graph of point (x, y) with true class ``label`` through the current network."""
        self.x_edit.setText(format_number(x, LEDGER))
        self.y_edit.setText(format_number(y, LEDGER))
        model = self._model()
        classes = max(2, int(getattr(model, "nouts", [1])[-1])) if model is not None else 2
        self._offer_classes(classes)  # K outputs: K classes to choose from
        if isinstance(label, int) and 0 <= label < self.label_combo.count():
            self.label_combo.setCurrentIndex(int(label))
        self.stale = False
        shown = self.state.show_sample(self._model(), (x, y), label, self._loss())
        self._show_error("" if shown else self.state.last_error)
        self._sync_follow_button()
        return shown

    def show_entered(self) -> bool:
        """Show the point typed into the x1 and x2 fields."""
        values = []
        for name, edit in ((input_name(0), self.x_edit), (input_name(1), self.y_edit)):
            value = parse_number(edit.text())
            if value is None or not math.isfinite(value):
                text = f"{name} must be a finite number, such as 0.5 or −1.2 (got {edit.text().strip()!r})."
                self._show_error(text)
                self.messages.say(text)
                edit.setFocus()
                edit.selectAll()
                return False
            values.append(value)
        return self.show_sample(values[0], values[1], self.label_combo.currentData())

    def _show_error(self, text: str) -> None:
        self.error_label.setText(text)
        self.error_label.setVisible(bool(text))

    # ---- following training

    @property
    def following(self) -> bool:
        return self.follow_button.isChecked()

    def set_following(self, on: bool) -> None:
        if self.follow_button.isChecked() != bool(on):
            self.follow_button.setChecked(bool(on))  # calls back here
            return
        if on and (self.stale or self.pending_update):
            self.refresh_model()
        self._sync_follow_button()

    def model_changed(self) -> None:
        """New weights arrived: rebuild soon (coalesced) if following and visible, else remember."""
        if self.error_label.text() == NO_NETWORK:
            self._show_error("")  # there is a network now: the refusal no longer holds
            self.messages.withdraw(NO_NETWORK)
        if self.state.point is None:
            return
        if not self.following:
            self.stale = True
            self._sync_follow_button()
        elif not self.isVisible():
            self.pending_update = True
        elif not self._follow_timer.isActive():
            self._follow_timer.start()

    def refresh_model(self) -> bool:
        """Re-show the current point with the network's latest weights."""
        self.pending_update = self.stale = False
        self._sync_follow_button()
        if self.state.point is None:
            return False
        model = self._model()
        if model is None:
            return False
        started = time.perf_counter()
        shown = self.state.update_model(model, self._loss())
        self.updates += shown
        cost_ms = 1000.0 * (time.perf_counter() - started)
        self._follow_timer.setInterval(max(FOLLOW_INTERVAL_MS, round(cost_ms / FOLLOW_SHARE)))
        return shown

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if self.pending_update and self.following:
            self._follow_timer.start()

    def _sync_follow_button(self) -> None:
        if self.following:
            self.follow_button.setText("● Follow training")
            self.follow_button.setToolTip(
                "Following: while training runs, the graph shows the newest weights. Click to freeze it."
            )
        else:
            self.follow_button.setText("❚❚ Frozen" + (" (newer weights)" if self.stale else ""))
            self.follow_button.setToolTip("Frozen: the graph keeps these weights. Click to follow training again.")

    # ---- groups

    def neuron_groups(self) -> set[str]:
        return set(self.view.groups()) - {LOSS_GROUP}

    def collapse_neurons(self) -> None:
        self.view.set_collapsed(self.neuron_groups())

    # ---- state -> view

    def _update_hint(self) -> None:
        """The hint under the tools: how to read a graph too big to show whole at a readable size."""
        view = self.view
        text = HINT
        if view.fit_is_partial and view.boxes_off_screen():
            shown = view.overview.isVisible()
            opened = set(view.groups()) - view.collapsed - {LOSS_GROUP}  # neurons drawn node by node
            where = "the map beside the legend shows where you are (click it to jump)" if shown else ""
            text = (
                f"{len(view.nodes)} boxes: shown at a size you can read, around "
                f"{'the current step' if view.current_node in view.nodes else 'the loss'}. Drag to move"
                f"{'; ' + where if where else ''}; scroll or − to zoom out, View ▸ Whole graph (Ctrl+9) for all "
                "of it" + (", Collapse all for one box per neuron." if opened else ".")
            )
        if self.hint.text() != text:
            self.hint.setText(text)

    def _redraw(self, _change=None) -> None:
        graph = self.state.graph
        collapsed = None
        if graph is not None:
            groups = tuple(sorted({g for _, g in graph.nodes(data="group") if g}))
            if groups != self._drawn_groups:  # a new network: start readable; the same one keeps the user's choice
                self._drawn_groups = groups
                big = graph.number_of_nodes() > COLLAPSE_ABOVE_NODES
                collapsed = set(groups) - {LOSS_GROUP} if big else set()
        self.view.show_state(self.state, collapsed=collapsed)

    def _sample_changed(self) -> None:
        self.header.setText(self.state.summary())

    # ---- area protocol

    def export_image(self, path: str) -> None:
        self.view.export(path, background=True)  # the view says when the file is written (or why not)

    def _status_key(self) -> tuple:
        """What this area's messages speak about: a message stands while these stay the same."""
        state = self.state
        view = self.view
        return (state.root, state.mode, state.position, frozenset(view.collapsed), view.method)

    def _export_clicked(self) -> None:
        window = self.window()
        if isinstance(window, ExportingWindow):
            window.export_image()

    def set_theme(self, theme: str) -> None:
        self.view.set_theme(theme)

    def set_presentation(self, on: bool) -> None:
        self.view.set_presentation(on)
        self._header_font()
        # On a projector the graph needs the height more than the two lines of how-to (the header's tooltip
        # keeps them).
        self.hint.setVisible(not on)
        self.header.setToolTip(HINT if on else "")

    def _header_font(self) -> None:
        # From the application's font: a widget's own font follows a new size only once the change reaches it.
        # 1.2× the text in normal mode; presentation's text is 1.6× already (1.2× more wrapped it onto two lines,
        # taking the graph's height)
        font = QFont(QApplication.font())
        presentation = getattr(getattr(self, "view", None), "presentation", False)
        font.setPointSizeF(font.pointSizeF() * (1.0 if presentation else 1.2))
        font.setBold(True)
        self.header.setFont(font)
