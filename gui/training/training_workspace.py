"""The network-and-training area: builder and settings on the left, the live views on the right.

This is the one widget the main window embeds.  It wires the panels to one
``TrainingController`` and does nothing else: the views redraw from the
controller's snapshots, and the panels send it commands.  Space plays and
pauses while the focus is inside this area (never in the expression editor).

It is composed of parts with a job each: ``arrangement`` (``workspace_layout``:
where the views go at this size and font), ``frames`` (``plots.frame_scheduler``:
one view redrawn per frame tick), ``neuron_maps`` (the maps' numbers, computed in
the core) and ``files`` (``workspace_files``: import, export, undo and redo).

Linked views: the boundary plot's tools paint, erase, drag and
select points; the diagram shows per-neuron maps, dead units and gradient
edges, and a click on an edge opens that weight's loss slice; the curves area
has tabs for loss/accuracy, gradient flow and the loss slice.

For the sample-graph view (another tab of the window) this area offers:
``sample_selected(x, y, label)`` (a clicked or typed point), ``model_changed``
(new weights arrived), ``current_model()`` (a fresh MLP with the latest
weights) and ``current_loss()`` (the loss name).
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QSize, Qt, Signal
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import QMessageBox, QTabWidget, QWidget

from autograd_core.learn.runs import RunHistory
from autograd_core.live.neuron_maps import MAP_RESOLUTION, NeuronMaps
from autograd_core.live.training_policy import TrainingPart
from autograd_core.numbers import counted
from autograd_core.session import load_session, save_session

from ..look.theme import current_theme, palette, presentation_on
from ..plots.boundary_plot import BoundaryPlot
from ..plots.frame_scheduler import FrameScheduler
from ..plots.gradient_flow_plot import GradientFlowPlot
from ..plots.landscape_plot import LandscapePlot
from ..plots.loss_slice_plot import LossSlicePlot
from ..plots.metrics_plots import MetricsPlots
from ..plots.network_diagram import EDGE_MODES, NetworkDiagram
from ..plots.regression_plot import RegressionPlot
from ..runs.keeper import RunKeeper
from ..runs.picture import SideBySideDialog
from ..runs.table import RunsPanel
from .confusion_panel import ConfusionPanel
from .network_panel import NetworkPanel
from .sample_entry import SampleEntry
from .training_controller import SPEEDS, TrainingController
from .training_panel import TrainingPanel
from .workspace_files import DataFileActions
from .workspace_layout import TAB_NAMES, TrainingViews, WorkspaceLayout

MAPS_INTERVAL = 0.2  # seconds between per-neuron map redraws while training (≤ 5 per second)
CURVE_TABS = ("curves", "gradient flow", "loss slice", "confusion", "landscape", "runs")
EXTRA_KEY = "training"  # our part of a session's free-form "extra" object (the main window uses the area key)


class TrainingWorkspace(QWidget):
    """Network builder, data, settings, controls, boundary, diagram and curves, wired to one controller.

    Implements the main window's area protocol: ``session_state``,
    ``restore_session``, ``session_trainer``, ``set_presentation``,
    ``export_image`` and a ``status`` signal.
    """

    status = Signal(str)
    status_withdrawn = Signal(str)  # a message said earlier is no longer true (the main window clears it)
    sample_selected = Signal(float, float, int)  # a data point clicked (Inspect) or typed in: x, y, label
    model_changed = Signal()  # a snapshot brought new weights (at most at the snapshot rate)

    def __init__(self, controller: TrainingController | None = None, parent=None):
        super().__init__(parent)
        # The controller is ours: it (and its training process) ends when this widget does.  Every signal below
        # goes to a method of a widget, never a lambda, so Qt drops the connection when the widget is deleted.
        self.controller = controller or TrainingController(parent=self)
        if self.controller.parent() is None:
            self.controller.setParent(self)
        self.controller.message.connect(self._message)
        self._said = ""  # the last message sent to the status bar
        self.controller.confirm = self._confirm_memory
        self._watched_window = None
        self.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
        self.network_panel = NetworkPanel(self.controller)
        self.training_panel = TrainingPanel(self.controller)
        self.boundary = BoundaryPlot()
        self.regression_plot = RegressionPlot()  # replaces the boundary while the task is regression
        self.regression_plot.hide()
        self.sample_entry = SampleEntry()
        self.diagram = NetworkDiagram()
        self.metrics = MetricsPlots()
        self.gradient_flow = GradientFlowPlot()
        self.loss_slice = LossSlicePlot()
        self.confusion = ConfusionPanel()
        self.curves = QTabWidget()
        self.landscape = LandscapePlot()
        self.runs = RunKeeper(self.controller, self)
        self.controller.runs_bytes = self.runs.nbytes
        self.runs_panel = RunsPanel(self.runs)
        self.side_by_side = None  # the open SideBySideDialog, if any
        pages = (self.metrics, self.gradient_flow, self.loss_slice, self.confusion, self.landscape, self.runs_panel)
        for view, name in zip(pages, TAB_NAMES, strict=True):
            self.curves.addTab(view, name)
        tips = (
            "Loss and accuracy on the training and test sets at every step",
            "Gradient flow: the gradient norm of each layer at every step (log scale)",
            "Loss slice: the loss along one weight; click an edge (or a neuron, for its bias) in the diagram",
            "Confusion matrix: per-class accuracy and the confusion matrix; click a cell to ring its points",
            "Landscape: the training loss around the current weights on a 2-D slice of weight space, with the "
            "training path",
            "Runs: every run kept (from Reset or new settings to the next), to compare, overlay and restore",
        )
        for index, tip in enumerate(tips):  # each begins with the tab's whole name (short tabs are elided)
            self.curves.setTabToolTip(index, tip)

        self.arrangement = WorkspaceLayout(
            self,
            TrainingViews(
                boundary=self.boundary,
                boundary_plot=self.boundary.plot,
                regression_plot=self.regression_plot,
                sample_entry=self.sample_entry,
                diagram=self.diagram,
                curves=self.curves,
                controls=self.training_panel.controls,
                banner=self.training_panel.banner,
                settings=(self.network_panel, self.training_panel),
                tall_pages=(self.confusion, self.landscape),
                slice_page=self.loss_slice,
                set_compact=self.metrics.set_compact,
            ),
        )
        self.side_scroll = self.arrangement.side_scroll

        self.play_shortcut = QShortcut(QKeySequence(Qt.Key.Key_Space), self)
        self.play_shortcut.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        self.play_shortcut.setWhatsThis("Play / pause training")  # the window's shortcut list reads it
        self.play_shortcut.activated.connect(self.controller.toggle)
        # Undo and redo every data edit (paint, erase, drag, clear all, import) while this area has the focus.
        self.undo_shortcut = QShortcut(QKeySequence("Ctrl+Z"), self)
        self.undo_shortcut.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        self.undo_shortcut.setWhatsThis("Undo the last data edit (paint, erase, drag, clear all, import)")
        self.undo_shortcut.activated.connect(self.undo)
        self.redo_shortcut = QShortcut(QKeySequence("Ctrl+Shift+Z"), self)
        self.redo_shortcut.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        self.redo_shortcut.setWhatsThis("Redo the data edit last undone")
        self.redo_shortcut.activated.connect(self.redo)
        self.setAcceptDrops(True)  # a CSV/TSV file dropped here is imported
        self.files = DataFileActions(self, self.controller, self.status)

        # One view per frame tick: each repaint is then one plot's worth of painting (a few ms), never all
        # three at once, so the event loop keeps turning while training draws at ~15 frames per second each.
        self.frames = FrameScheduler(self._draw, self._shows, {"maps": MAPS_INTERVAL}, parent=self)
        self.neuron_maps = NeuronMaps(MAP_RESOLUTION)
        self._sizes: tuple[int, ...] = ()
        controller = self.controller
        controller.changed.connect(self._training_changed)
        self.landscape.requested.connect(self._landscape_requested)
        self.boundary.point_picked.connect(self._point_picked)
        self.sample_entry.requested.connect(self._point_typed)
        self.boundary.point_painted.connect(controller.add_point)
        self.boundary.point_erased.connect(controller.remove_point)
        self.boundary.point_moved.connect(controller.move_point)
        self.boundary.clear_requested.connect(controller.clear_points)
        self.boundary.message.connect(self.status)
        self.diagram.parameter_picked.connect(self._parameter_picked)
        self.confusion.cell_picked.connect(self._confusion_picked)
        self.confusion.cleared.connect(self._confusion_cleared)
        self.curves.currentChanged.connect(self._curves_tab_changed)
        self.runs.changed.connect(self._runs_changed)
        self.runs_panel.side_by_side.connect(self._show_side_by_side)
        self._snapshot = controller.last_snapshot  # the snapshot the views draw: as announced, never pulled
        if self._snapshot is not None:  # (a controller that trained before this area was built)
            self.frames.mark("boundary", "diagram", "maps", "loss", "accuracy")

    # ------------------------------------------------------- the contract for the sample-graph view

    def current_model(self):
        """A fresh ``autograd_core.learn.nn.MLP`` with the latest snapshot's weights, or None before the first one (and
        while the task is regression: the sample graph shows points of the plane through a classifier)."""
        if self.controller.task == "regression":
            return None
        return self.controller.current_model()

    def current_loss(self) -> str:
        """The loss the trainer uses ("bce", "hinge" or "mse")."""
        return self.controller.config.loss

    # ------------------------------------------------------------ data files (``workspace_files``)

    @property
    def import_dialog(self):
        """The import dialog last opened (tests and the tour drive it)."""
        return self.files.import_dialog

    def undo(self) -> None:
        self.files.undo()

    def redo(self) -> None:
        self.files.redo()

    def import_data(self, path: str | None = None):
        """Open the import dialog on ``path`` (asked for when None); on OK the data train a new network."""
        return self.files.import_data(path)

    def export_predictions(self, path: str | None = None) -> None:
        """Write the data with the model's predictions as CSV, on a worker thread (``status`` says when)."""
        self.files.export_predictions(path)

    def dragEnterEvent(self, event) -> None:
        if self.files.dropped_file(event) is not None:
            event.acceptProposedAction()
        else:
            super().dragEnterEvent(event)

    def dropEvent(self, event) -> None:
        path = self.files.dropped_file(event)
        if path is None:
            super().dropEvent(event)
            return
        event.acceptProposedAction()
        self.import_data(path)

    # ------------------------------------------------------------ linked views

    def _point_picked(self, x: float, y: float, label: int) -> None:
        self.sample_entry.set_point(x, y, label)
        self.sample_selected.emit(x, y, label)

    def _point_typed(self, x: float, y: float, label: int) -> None:
        self.boundary.select(x, y, label)
        self.sample_selected.emit(x, y, label)

    def _confirm_memory(self, sentence: str) -> bool:
        """Ask before a setting that needs a lot of memory (the controller's guard calls this)."""
        answer = QMessageBox.question(
            self,
            "A large run",
            f"{sentence}\n\nApply it anyway?",
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            QMessageBox.StandardButton.No,
        )
        return answer == QMessageBox.StandardButton.Yes

    def _message(self, text: str) -> None:
        """The controller's banner text goes to the status bar too; when the banner clears, so does it."""
        if text:
            self._said = text
            self.status.emit(text)
        elif self._said:
            said, self._said = self._said, ""
            self.status_withdrawn.emit(said)

    def _training_changed(self, change) -> None:
        """The controller's announcement: each part marks what shows it, in ``TrainingPart`` order."""
        self._snapshot = change.snapshot or self._snapshot  # what arrived with a snapshot is drawn with it
        if TrainingPart.TASK in change:
            self._task_changed(change.task)
        if TrainingPart.DATASET in change:
            self._dataset_changed(change.dataset)
        if TrainingPart.SLICE in change:
            self.frames.mark("loss slice")
        if TrainingPart.LANDSCAPE in change:
            self._landscape_arrived(change.landscape)
        if TrainingPart.SLICE_DROPPED in change:  # no slice will come for the picked weight: its highlight goes with it
            self.diagram.clear_pick()
            self.loss_slice.clear()
        if TrainingPart.SNAPSHOT in change:
            self.frames.mark("boundary", "diagram", "confusion")
        if TrainingPart.WEIGHTS in change:
            self.model_changed.emit()
            self._maps_due()
        if TrainingPart.HISTORY in change:
            self.frames.mark("loss", "accuracy", "gradient flow")

    def _task_changed(self, task: str) -> None:
        """Regression: its plot replaces the boundary and the point entry; R² replaces accuracy."""
        regression = task == "regression"
        self.boundary.setVisible(not regression)
        self.sample_entry.setVisible(not regression)
        self.regression_plot.setVisible(regression)
        self.metrics.set_r2(regression)
        self._runs_changed(force=True)
        self.frames.mark("loss", "accuracy")

    def _runs_changed(self, force: bool = False) -> None:
        """The ghost curves follow the runs ticked in the Runs tab (of the task on screen: R² is not accuracy)."""
        ghosts = [run for run in self.runs.ghost_runs() if run.task == self.controller.task]
        if force or [(r.id, r.name) for r in ghosts] != [(r.id, r.name) for r in self.metrics.ghosts]:
            self.metrics.set_ghosts(ghosts)

    def _show_side_by_side(self, first, second) -> None:
        if self.side_by_side is not None:
            self.side_by_side.close()
        self.side_by_side = SideBySideDialog(first, second, self)
        self.side_by_side.open()

    def _confusion_picked(self, part: str, true: int, predicted: int) -> None:
        mask = self.confusion.points_of(part, true, predicted)
        self.boundary.highlight({part: mask})
        self.status.emit(
            f"{counted(int(mask.sum()), part + ' point')} of {self.boundary.class_label(true)} predicted as "
            f"{self.boundary.class_label(predicted)}: ringed on the map."
        )

    def _confusion_cleared(self) -> None:
        self.boundary.highlight(None)

    def _maps_due(self) -> None:
        self.frames.mark("maps")

    def _landscape_requested(self, plane: str) -> None:
        self.controller.request_landscape(mode=plane)

    def _landscape_arrived(self, landscape) -> None:
        self.landscape.show_landscape(landscape)
        self.landscape.follow_next(self.controller.running and self.curves.currentWidget() is self.landscape)

    def _dataset_changed(self, dataset) -> None:
        self.boundary.set_dataset(dataset)  # at once: an edit shows before the trainer has it
        self.confusion.set_labels(dataset)
        # the data's own names (iris: setosa …, PC1): the sample entry's classes, the diagram's hover
        features = None
        if getattr(dataset, "feature_names", None):  # as the boundary's axes say them ("… (standardized)")
            features = [dataset.feature_label(i) for i in range(len(dataset.feature_names))]
        names = getattr(dataset, "class_names", None), features
        self.sample_entry.set_class_names(names[0])
        self.diagram.set_data_names(*names)
        self.frames.mark("maps")  # dead units depend on the training points

    def _parameter_picked(self, layer: int, neuron: int, source) -> None:
        if self.curves.currentWidget() is not self.loss_slice:
            self.curves.setCurrentWidget(self.loss_slice)  # also requests the slice
        else:
            self.controller.request_slice((layer, neuron, source))

    def _curves_tab_changed(self, index: int) -> None:
        picked = self.diagram.picked
        if self.curves.widget(index) is self.loss_slice and picked is not None:
            layer, neuron, source = picked
            self.controller.request_slice((layer - 1, neuron, source))
        else:
            self.controller.request_slice(None)  # a hidden slice costs the trainer nothing
        if index >= len(CURVE_TABS):
            return  # the Settings tab of the narrow layout
        if self.curves.widget(index) is self.landscape:
            self.landscape.request()  # computed in the training process, shown when it arrives
        else:
            self.landscape.follow_timer.stop()
        self.frames.mark(*((CURVE_TABS[index],) if index else ("loss", "accuracy")))

    def _shows(self, view: str) -> bool:
        """False for a curve view whose tab is hidden: it is redrawn when its tab is shown."""
        widget = {
            "loss": self.metrics,
            "accuracy": self.metrics,
            "gradient flow": self.gradient_flow,
            "loss slice": self.loss_slice,
            "confusion": self.confusion,
        }.get(view)
        return widget is None or self.curves.currentWidget() is widget

    def _draw(self, view: str) -> bool:
        """Draw one view from the controller's state and the announced snapshot; False when nothing was drawn."""
        snap = self._snapshot
        if view in ("loss", "accuracy"):
            self.metrics.update_history(self.controller.history, which=(view,), diverged=self.controller.diverged)
        elif view == "gradient flow":
            history = self.controller.history
            self.gradient_flow.update_norms(history.column("step"), history.grad_norms())
        elif view == "loss slice":
            if self.controller.last_slice is not None:
                self.loss_slice.show_slice(self.controller.last_slice)
            elif self.loss_slice.current is not None:  # it was of other weights (before a Reset), or another pick
                self.loss_slice.clear(waiting=self.controller.slice_spec is not None)
        elif view in ("landscape", "runs"):
            return False  # the landscape is drawn when the training process sends it; the runs table follows the keeper
        elif snap is None:
            return False
        elif view == "boundary" and snap.regression is not None:
            self.regression_plot.update_view(snap.regression)
        elif view == "boundary":
            self.boundary.update_snapshot(snap)
            self.sample_entry.set_classes(snap.classes)
        elif view == "confusion":
            if snap.regression is None:
                self.confusion.update_snapshot(snap)
        elif view == "maps":
            return self._draw_maps(snap)
        else:
            self._ensure_architecture(snap)
            self.diagram.set_weights(snap.weights, snap.grads)
        return True

    def _ensure_architecture(self, snap) -> None:
        activations = tuple(snap.activations) or (snap.activation,) * max(0, len(snap.sizes) - 2)
        labels = ("x",) if snap.regression is not None else (("x1", "x2", *snap.features) if snap.features else ())
        self.diagram.set_input_labels(labels)
        if snap.sizes != self._sizes or activations != self.diagram.activations:
            self._sizes = snap.sizes
            self.diagram.set_architecture(snap.sizes, activations)
            self.loss_slice.clear()  # the picked weight belonged to the old network
            self.controller.request_slice(None)
            self.frames.mark("maps", at_once=True)

    def _draw_maps(self, snap) -> bool:
        """Per-neuron maps and dead units from the snapshot's weights (≤ 5 per second; ~2 ms for 2-16-16-1)."""
        if not snap.weights:
            return False
        self._ensure_architecture(snap)
        frame = self.neuron_maps.frame(snap, self.controller.dataset)
        if frame.maps is not None:
            self.diagram.set_neuron_maps(frame.maps, frame.extent, frame.points)
        self.diagram.set_dead(frame.dead)
        return snap.regression is None  # (a regression has no maps: the next snapshot's weights are not held back)

    def flush(self) -> None:
        """Draw every pending view now (tests and screenshots), the diagram fitted to its last size."""
        self.diagram.view.fit_pending()
        self.frames.flush()

    def sizeHint(self) -> QSize:
        # Modest, so a hidden tab never makes the main window ask for more room than the other areas.
        return QSize(1000, 700)

    # -------------------------------------------------------------- sessions

    def view_state(self) -> dict:
        """What the session stores besides the trainer: toggles and speed, so the views come back as they were."""
        return {
            **self.boundary.view_state(),
            **self.metrics.view_state(),
            "speed": self.controller.speed,
            "edge_mode": self.diagram.edge_mode,
            "curves_tab": CURVE_TABS[min(self.curves.currentIndex(), len(CURVE_TABS) - 1)]
            if self.curves.currentIndex() < len(CURVE_TABS)
            else CURVE_TABS[0],
        }

    def restore_view_state(self, state: dict) -> None:
        if not isinstance(state, dict):
            return
        self.boundary.restore_view_state(state)
        self.metrics.restore_view_state(state)
        if state.get("speed") in SPEEDS:
            self.training_panel.speed.setCurrentText(state["speed"])
        if state.get("edge_mode") in EDGE_MODES:
            self.diagram.mode.setCurrentIndex(EDGE_MODES.index(state["edge_mode"]))
        if state.get("curves_tab") in CURVE_TABS:
            self.curves.setCurrentIndex(CURVE_TABS.index(state["curves_tab"]))

    # The main window's area protocol.
    def session_state(self) -> dict:
        state = self.view_state()
        regression = self.controller.regression_state()
        if regression is not None:  # the regression task: its run lives here, no classification trainer
            state["regression"] = regression
        return state

    def session_trainer(self):
        """A copy of the live trainer for File → Save; None for a regression or a cleared plane (it has old points)."""
        data = self.controller.dataset
        if self.controller.task == "regression" or (data is not None and not len(data.y_train)):
            return None
        return self.controller.export_trainer()

    def set_theme(self, theme: str) -> None:
        """Every view in the theme's palette (plots, boundary color map, diagram, maps, banner)."""
        with self.diagram.fitting_once():
            self._restyle(theme, presentation_on())

    def set_presentation(self, on: bool) -> None:
        """Plot and diagram text 1.6× (and bigger points) for a projector."""
        with self.diagram.fitting_once():
            self._restyle(current_theme(), on)
            self.boundary.set_point_size(12 if on else 9)
            self.regression_plot.set_point_size(12 if on else 9)
            self.arrangement.reflow()

    def _restyle(self, theme: str, presentation: bool) -> None:
        pal = palette(theme)
        for view in (
            self.boundary,
            self.metrics,
            self.gradient_flow,
            self.loss_slice,
            self.diagram,
            self.regression_plot,
        ):
            view.apply_palette(pal, presentation)
        self.training_panel.apply_palette(pal)

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        with self.diagram.fitting_once():
            self.arrangement.reflow()

    def changeEvent(self, event) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange:
            with self.diagram.fitting_once():
                self.arrangement.reflow()

    def export_image(self, path) -> None:
        """Save the whole training area as a PNG."""
        if not str(path).lower().endswith(".png"):
            raise OSError("the training area exports PNG images only; choose a .png file name")
        self.flush()
        if not self.grab().save(str(path)):
            raise OSError(f"could not write {path}")

    def save_session(self, path, extra: dict | None = None) -> None:
        """Save trainer (network, data, weights, optimizer, history) and view state; raises SessionError."""
        extra = {**(extra or {}), EXTRA_KEY: self.session_state()}
        save_session(path, trainer=self.session_trainer(), extra=extra, runs=self.session_runs())

    def session_runs(self):
        """The run history to save with the session (the run on screen recorded up to now)."""
        self.runs.record()
        return self.runs.history

    def open_session(self, path) -> dict:
        """Load a session (paused); returns its ``extra`` for the rest of the window.  Raises SessionError."""
        data = load_session(path)
        self.restore_session(data)
        return data.extra

    def restore_session(self, section, data=None) -> None:
        """Continue from loaded ``SessionData``; ``section`` is our part of its ``extra`` (the view state).

        Also accepts ``restore_session(data)`` alone (then the view state is read from ``extra``).
        """
        if data is None:
            data, section = section, section.extra.get(EXTRA_KEY, {})
        self.runs.replace(RunHistory(data.runs))
        regression = section.get("regression") if isinstance(section, dict) else None
        if regression is not None:
            self.controller.load_regression(regression)
        elif data.config is not None:
            self.controller.load_session_data(data)
        self.restore_view_state(section or {})

    def shutdown(self) -> bool:
        """Stop training and its process (also done when the window closes or the app quits); a data export
        being written gets a few seconds to finish (its file is whole or not there at all)."""
        self.files.finish()
        self.frames.stop()
        return self.controller.shutdown()

    def showEvent(self, event) -> None:
        super().showEvent(event)
        self.controller.start()  # the training process starts when the area is first seen
        window = self.window()
        if window is not self._watched_window:
            if self._watched_window is not None:
                self._watched_window.removeEventFilter(self)
            window.installEventFilter(self)
            self._watched_window = window

    def eventFilter(self, watched, event) -> bool:
        # Closing the window during training ends the worker thread and the training process cleanly.
        if watched is self._watched_window and event.type() == QEvent.Type.Close:
            self.shutdown()
        return super().eventFilter(watched, event)
