"""The network-and-training area: builder and settings on the left, the live views on the right.

This is the one widget the main window embeds.  It wires the panels to one
``TrainingController`` and does nothing else: the views redraw from the
controller's snapshots, and the panels send it commands.  Space plays and
pauses while the focus is inside this area (never in the expression editor).
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QFont, QKeySequence, QShortcut
from PySide6.QtWidgets import QHBoxLayout, QScrollArea, QSplitter, QVBoxLayout, QWidget

from autograd_core.session import load_session, save_session
from gui.boundary_plot import BoundaryPlot
from gui.metrics_plots import MetricsPlots
from gui.network_diagram import EDGE_MODES, NetworkDiagram
from gui.network_panel import NetworkPanel
from gui.training_controller import SPEEDS, TrainingController
from gui.training_panel import TrainingPanel

FRAME_TICK_MS = 15
EXTRA_KEY = "training"  # our part of a session's free-form "extra" object (the main window uses the area key)


class TrainingWorkspace(QWidget):
    """Network builder, data, settings, controls, boundary, diagram and curves, wired to one controller.

    Implements the main window's area protocol: ``session_state``,
    ``restore_session``, ``session_trainer``, ``set_presentation``,
    ``export_image`` and a ``status`` signal.
    """

    status = Signal(str)

    def __init__(self, controller: TrainingController | None = None, parent=None):
        super().__init__(parent)
        self.controller = controller or TrainingController()
        self.controller.message.connect(lambda text: text and self.status.emit(text))
        self._watched_window = None
        self.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
        self.network_panel = NetworkPanel(self.controller)
        self.training_panel = TrainingPanel(self.controller)
        self.boundary = BoundaryPlot()
        self.diagram = NetworkDiagram()
        self.metrics = MetricsPlots()

        side = QWidget()
        side_layout = QVBoxLayout(side)
        side_layout.setContentsMargins(0, 0, 4, 0)
        side_layout.addWidget(self.network_panel)
        side_layout.addWidget(self.training_panel)
        side_layout.addStretch(1)
        scroll = QScrollArea()
        scroll.setWidget(side)
        scroll.setWidgetResizable(True)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        scroll.setMinimumWidth(side.sizeHint().width() + 24)

        views = QSplitter(Qt.Orientation.Horizontal)
        views.addWidget(self.boundary)
        views.addWidget(self.diagram)
        views.setSizes([500, 500])
        body = QSplitter(Qt.Orientation.Vertical)
        body.addWidget(views)
        body.addWidget(self.metrics)
        body.setStretchFactor(0, 3)
        body.setStretchFactor(1, 2)
        right = QWidget()
        right_layout = QVBoxLayout(right)
        right_layout.setContentsMargins(4, 0, 0, 0)
        right_layout.addWidget(self.training_panel.controls)
        right_layout.addWidget(body, 1)

        layout = QHBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(scroll)
        layout.addWidget(right, 1)

        self.play_shortcut = QShortcut(QKeySequence(Qt.Key.Key_Space), self)
        self.play_shortcut.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        self.play_shortcut.activated.connect(self.controller.toggle)

        # One view per frame tick: each repaint is then one plot's worth of painting (a few ms), never all
        # three at once, so the event loop keeps turning while training draws at ~15 frames per second each.
        self._dirty: list[str] = []
        self._frame_timer = QTimer(self)
        self._frame_timer.setInterval(FRAME_TICK_MS)
        self._frame_timer.timeout.connect(self._draw_next)
        self.controller.snapshotReady.connect(lambda _snap: self._mark_dirty("boundary", "diagram"))
        self.controller.historyChanged.connect(lambda: self._mark_dirty("loss", "accuracy"))
        if self.controller.last_snapshot is not None:
            self._mark_dirty("boundary", "diagram", "loss", "accuracy")

    def _mark_dirty(self, *views: str) -> None:
        for view in views:
            if view not in self._dirty:
                self._dirty.append(view)
        if not self._frame_timer.isActive():
            self._draw_next()  # the first view at once, the others on the next ticks
            self._frame_timer.start()

    def _draw_next(self) -> None:
        if not self._dirty:
            self._frame_timer.stop()
            return
        view = self._dirty.pop(0)
        snap = self.controller.last_snapshot
        if view in ("loss", "accuracy"):
            self.metrics.update_history(self.controller.history, which=(view,))
        elif snap is None:
            return
        elif view == "boundary":
            self.boundary.update_snapshot(snap)
        else:
            self.diagram.set_architecture(snap.sizes, snap.activation)
            self.diagram.set_weights(snap.weights, snap.grads)

    def flush(self) -> None:
        """Draw every pending view now (tests and screenshots)."""
        while self._dirty:
            self._draw_next()

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

    # The main window's area protocol.
    def session_state(self) -> dict:
        return self.view_state()

    def session_trainer(self):
        """A copy of the live trainer (network, data, weights, optimiser state, history) for File → Save."""
        return self.controller.export_trainer()

    def set_presentation(self, on: bool) -> None:
        """Bigger axis text and points for a projector."""
        for plot in (self.boundary.plot, self.metrics.loss_plot, self.metrics.acc_plot):
            font = QFont()
            font.setPointSizeF(13 if on else 9)
            for axis in ("bottom", "left"):
                plot.getPlotItem().getAxis(axis).setStyle(tickFont=font)
                plot.getPlotItem().getAxis(axis).label.setFont(font)
        self.boundary.set_point_size(12 if on else 9)

    def export_image(self, path) -> None:
        """Save the whole training area as a PNG."""
        if not str(path).lower().endswith(".png"):
            raise OSError("the training area exports PNG images only; choose a .png file name")
        self.flush()
        if not self.grab().save(str(path)):
            raise OSError(f"could not write {path}")

    def save_session(self, path, extra: dict | None = None) -> None:
        """Save trainer (network, data, weights, optimiser, history) and view state; raises SessionError."""
        extra = {**(extra or {}), EXTRA_KEY: self.view_state()}
        save_session(path, trainer=self.controller.export_trainer(), extra=extra)

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
        if data.config is not None:
            self.controller.load_session_data(data)
        self.restore_view_state(section or {})

    def shutdown(self) -> bool:
        """Stop training and its process (also done when the window closes or the app quits)."""
        self._frame_timer.stop()
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
