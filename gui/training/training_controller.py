"""The training model the widgets observe: one config, one Trainer in the training process, one signal out.

Widgets never touch the Trainer.  They send commands (play, step, a new
learning rate, a new network) and redraw from ``changed(TrainingChange)``,
which names the parts that changed.  What a setting or a data edit means (what
it restarts, what the memory guard refuses, the undo history) is decided in
the core (``autograd_core.live.training_policy``); this Qt layer runs the
training process, takes its snapshots and keeps the GUI-side copy of the metric
history (so plots never read the trainer from another thread).
"""

from __future__ import annotations

import dataclasses
import functools
import operator

import numpy as np
from PySide6.QtCore import QCoreApplication, QObject, Signal

from autograd_core.learn.training import Trainer, TrainingConfig
from autograd_core.live.metric_history import MetricHistory
from autograd_core.live.neuron_maps import snapshot_model
from autograd_core.live.protocol import (
    Command,
    ComputeLandscape,
    ImportData,
    Load,
    Pause,
    PickSlice,
    Play,
    Reset,
    SetData,
    SetDelay,
    Snapshot,
    Start,
    Step,
)
from autograd_core.live.service import Engine
from autograd_core.live.training_policy import (  # noqa: F401  (the vocabulary the panels and tests import from here)
    NO_POINTS,
    UNDO_LIMIT,
    TrainingChange,
    TrainingPart,
    TrainingPolicy,
    parameter_count,
)

from .training_worker import LocalPipe, ProcessWorker, TrainingWorker

# Speed presets: label → pause between steps in seconds (0 = as fast as the engine goes).
SPEEDS = {"Max": 0.0, "20 steps/s": 0.05, "5 steps/s": 0.2, "1 step/s": 1.0}


class TrainingController(QObject):
    """Commands in, snapshots out.  All training goes through ``autograd_core.learn.training.Trainer``.

    The training process starts on ``start()``: the app calls it as it opens
    (so the tab's first picture is ready when it is first opened), a bare
    training area when it is first shown.  Commands before that wait and go
    first.  The controller belongs to its widget (pass it as ``parent``):
    when the widget goes, the training process goes with it.
    """

    changed = Signal(object)  # TrainingChange: every view redraws from it
    message = Signal(str)  # a clear sentence for the status banner ("" clears it)

    UNDO_LIMIT = UNDO_LIMIT  # data edits kept for undo
    worker_factory = ProcessWorker  # InProcessWorker runs the same engine in this process (tests)

    def __init__(
        self, config: TrainingConfig | None = None, parent=None, min_interval: float = 0.05, worker_factory=None
    ):
        super().__init__(parent)
        self._closed = False
        self.policy = TrainingPolicy(self, config)  # what each setting and data edit means
        self._start_config = self.policy.config
        self._worker_factory = worker_factory
        self.history = MetricHistory()
        self.last_snapshot: Snapshot | None = None
        self.last_landscape = None
        self.last_metrics = None
        self.previous_run = None  # the last StepMetrics of the run before this one (Reset or new settings)
        self.diverged = None  # StepMetrics of the step that diverged (rolled back), while training is stopped on it
        self.slow_learning: str | None = None  # "learning is slow: …" while the training service says so
        self._generation = -1
        self._running = False
        self._speed = "Max"
        self._min_interval = min_interval
        self._worker: TrainingWorker | None = None  # started by start(): an unseen tab costs nothing
        self._queued: list[Command] = []  # commands before start(), sent first when it starts
        self._local_data_until = 0  # snapshots older than this command count show stale data: keep ours
        self.slice_spec: tuple | None = None
        self.last_slice = None
        self._message = ""  # the banner's text, as last said
        self.message.connect(self._said)
        self.changed.connect(self._data_shown)  # (first: the banner clears before views draw the points)
        app = QCoreApplication.instance()
        if app is not None:
            app.aboutToQuit.connect(self.shutdown)

    def start(self) -> None:
        """Start the training process (idempotent); commands sent before go to it first."""
        if self._worker is not None or self._closed:
            return
        self._launch(Start(config=self._start_config.to_dict(), min_interval=self._min_interval))
        queued, self._queued = self._queued, []
        for command in queued:
            self._send(command)

    def _launch(self, start: Start) -> None:
        if self._speed != "Max":
            start = dataclasses.replace(start, delay=SPEEDS[self._speed])
        factory = self._worker_factory or type(self).worker_factory
        worker = factory(start)
        worker.snapshot_ready.connect(self._take_snapshot)
        worker.restarted.connect(self._worker_restarted)
        worker.failed.connect(self._worker_failed)
        self.destroyed.connect(worker.release)  # the widget that owns us is gone: so is the training process
        self._worker = worker

    def _send(self, command: Command) -> None:
        if self._closed:
            return
        if self._worker is None:
            self._queued.append(command)
            return
        self._worker.send(command)
        if isinstance(command, Load | ImportData) and self.policy.regression is not None:
            self.policy.regression = None  # a session or imported data: classification again
            self._announce(TrainingPart.TASK, task="classification")
        if isinstance(command, SetData | Load | ImportData) or (
            isinstance(command, Reset) and command.config is not None
        ):
            self._local_data_until = self._worker.sent

    # ------------------------------------------------------------- state

    @property
    def closed(self) -> bool:
        """True once shut down: every command and change is refused."""
        return self._closed

    @property
    def config(self) -> TrainingConfig:
        """A copy of the current settings (the trainer's, as the GUI last set them)."""
        return self.policy.config

    def live_settings(self) -> dict:
        """The settings a run may change without a restart (no copy of the data): what a kept run follows."""
        return self.policy.live_settings()

    # The policy's state, read and set through the controller as the panels, lessons and tests always have.
    preset = property(lambda self: self.policy.preset, lambda self, v: setattr(self.policy, "preset", v))
    dataset = property(lambda self: self.policy.dataset, lambda self, v: setattr(self.policy, "dataset", v))
    regression = property(lambda self: self.policy.regression)
    limits = property(lambda self: self.policy.limits, lambda self, v: setattr(self.policy, "limits", v))
    confirm = property(lambda self: self.policy.confirm, lambda self, v: setattr(self.policy, "confirm", v))
    runs_bytes = property(lambda self: self.policy.runs_bytes, lambda self, v: setattr(self.policy, "runs_bytes", v))

    @property
    def running(self) -> bool:
        return self._running

    @property
    def settled(self) -> bool:
        """True when the last snapshot shows the training process after every command sent to it."""
        snap = self.last_snapshot
        return self._worker is not None and snap is not None and snap.seq >= self._worker.sent

    @property
    def speed(self) -> str:
        return self._speed

    @property
    def worker(self) -> TrainingWorker | None:
        """The engine's GUI side (None before ``start()``)."""
        return self._worker

    # ---------------------------------------------------------- commands

    def play(self) -> None:
        if self._closed or self._refuse_without_points():
            return
        self.message.emit("")
        self._send(Play())
        self._set_running(True)

    def pause(self) -> None:
        if self._closed:
            return
        self._send(Pause())
        self._set_running(False)

    def toggle(self) -> None:
        self.pause() if self._running else self.play()

    def step(self) -> None:
        """One update (pauses a running training first, as a learner expects)."""
        if self._closed or self._refuse_without_points():
            return
        self._set_running(False)  # (Step pauses the engine itself: a Pause would cancel the steps still due)
        self.message.emit("")
        self._send(Step(1))

    def reset(self) -> None:
        """New initial weights from the seed, same data; history cleared; paused.

        Always works: if the training process could not be restarted after a
        crash, a new one starts from the current settings and data.
        """
        if self._closed:
            return
        self.pause()
        self.message.emit("")
        if self._worker is not None and self._worker.gave_up:
            old = self._worker
            self.destroyed.disconnect(old.release)
            old.stop(1000)
            config, data = self.policy.restart_start()
            self._launch(Start(config=config, data=data, min_interval=self._min_interval))
            self._local_data_until = 0
            self._generation = -1  # the new process counts from 0: its first snapshot replaces everything
            self.last_snapshot = None  # (and only a snapshot of the new process may say it is settled)
        else:
            self._send(Reset())

    def set_speed(self, label: str) -> None:
        if label not in SPEEDS:
            raise ValueError(f"unknown speed {label!r}; choose one of {', '.join(SPEEDS)}")
        self._speed = label
        self._send(SetDelay(SPEEDS[label]))

    def update_settings(self, **fields) -> bool:
        """Change settings: a run follows the optimizer's between two steps; a new network or new data starts a
        new run (new weights from the seed).  Returns False (and says why) if a value is refused."""
        return self.policy.update_settings(**fields)

    # ---------------------------------------------------------- presets, sessions, regression

    def use_preset(self) -> bool:
        """Apply the tuned preset of the current data set: a new network and data."""
        return self.policy.use_preset()

    def use_named_preset(self, name: str) -> bool:
        """A preset by its name, whatever the data set now: "article" is the article's own run."""
        return self.policy.use_named_preset(name)

    def load_session_data(self, data) -> None:
        """Continue from a loaded session, paused; SessionError (nothing changes) if it does not fit."""
        self.policy.load_session_data(data)

    @property
    def task(self) -> str:
        return self.policy.task

    def set_task(self, task: str) -> bool:
        """Classification (the plane's data sets) or regression (a target typed as an expression of x)."""
        return self.policy.set_task(task)

    def set_regression(self, **fields) -> bool:
        """Change regression-only settings (``target``, ``loss``, ``huber_delta``): a new network on new data."""
        return self.policy.set_regression(**fields)

    def use_regression_preset(self) -> bool:
        """The tuned regression preset with the current target."""
        return self.policy.use_regression_preset()

    def load_regression(self, state: dict) -> None:
        """Continue a saved regression, paused; SessionError (nothing changes) if it does not fit."""
        self.policy.load_regression(state)

    def regression_state(self) -> dict | None:
        """The regression as of the newest snapshot (``RegressionRun.state_dict()``) for a session; None when
        the task is classification."""
        if self.regression is None:
            return None
        start = self._worker.restart_state(replay=True) if self._worker is not None else None
        return self.policy.regression_state(None if start is None else start.regression_state)

    def export_trainer(self, timeout: float = 10.0) -> Trainer:
        """A copy of the live trainer (same weights, optimizer state, history and data), e.g. to save it."""
        if self._worker is None:
            # Not started: the trainer it would start with, after the commands waiting for it.
            queued = LocalPipe()
            for command in self._queued:
                queued.send(command)
            engine = Engine(Start(config=self._start_config.to_dict()), LocalPipe())
            while queued.poll():
                engine.handle(queued.recv())
            return engine.trainer
        return self._worker.export_trainer(timeout)

    # ------------------------------------------------------- painted data, import, undo, redo

    def add_point(self, x: float, y: float, label: int) -> None:
        """Paint a point of class ``label``: it joins the training set; training goes on with it."""
        self.policy.add_point(x, y, label)

    def remove_point(self, part: str, index: int) -> None:
        """Erase point ``index`` of the "train" or "test" set."""
        self.policy.remove_point(part, index)

    def move_point(self, part: str, index: int, x: float, y: float) -> None:
        self.policy.move_point(part, index, x, y)

    def clear_points(self) -> None:
        """Remove every point; training waits until at least one point is painted (Undo brings them back)."""
        self.policy.clear_points()

    def import_dataset(self, dataset) -> bool:
        """Train a new network on imported data (its split kept; classes from its labels).  Undoable."""
        return self.policy.import_dataset(dataset)

    def can_undo(self) -> bool:
        return self.policy.can_undo()

    def can_redo(self) -> bool:
        return self.policy.can_redo()

    def undo(self) -> None:
        """Take back the last data edit (paint, erase, drag, clear all, import)."""
        self.policy.undo()

    def redo(self) -> None:
        self.policy.redo()

    def _said(self, text: str) -> None:
        self._message = text

    def _data_shown(self, change: TrainingChange) -> None:
        """Points again, by whatever way (painted, a data set, a preset, Undo, a session, regression's own curve):
        "No training points" goes."""
        dataset = change.dataset
        points = TrainingPart.DATASET in change and dataset is not None and len(dataset.y_train)
        if self._message.startswith(NO_POINTS) and (
            points or (TrainingPart.REGRESSION in change and self.regression is not None)
        ):
            self.message.emit("")

    def _refuse_without_points(self) -> bool:
        """True (and says how to go on) when the plane has no training point: nothing to train on."""
        refusal = self.policy.no_points_refusal()
        if refusal:
            self.message.emit(refusal)
        return refusal is not None

    # -------------------------------------------------------- inspection

    def request_slice(self, spec: tuple | None) -> None:
        """Ask the training process for the loss slice of weight (layer, neuron, source); None stops it."""
        spec = None if spec is None else tuple(spec)
        if spec != self.slice_spec:
            self.slice_spec = spec
            self.last_slice = None
            self._send(PickSlice(spec))

    def request_landscape(self, resolution: int = 41, span: float = 1.0, seed: int = 0, mode: str = "random") -> None:
        """Ask the training process for the loss landscape around the current weights (announced as "landscape")."""
        self._send(ComputeLandscape(resolution=resolution, span=span, seed=seed, mode=mode))

    def current_model(self):
        """A fresh MLP with the latest snapshot's weights (a copy; the trainer lives in another process)."""
        snap = self.last_snapshot
        if snap is None or not snap.weights:
            return None
        return snapshot_model(snap)

    def shutdown(self, timeout_ms: int = 5000) -> bool:
        """Stop the training process and wait for it: the window calls it when it closes."""
        if self._closed:
            return True
        self._closed = True
        self._running = False
        self._queued = []
        return self._worker.stop(timeout_ms) if self._worker is not None else True

    # ---------------------------------------------------------- snapshots

    def _worker_restarted(self, text: str) -> None:
        self.message.emit(text)

    def _worker_failed(self, text: str) -> None:
        self._set_running(False)
        self.message.emit(text)

    def announce_config(self) -> None:
        """Every panel shows the settings in force (after a refused value, a preset, a session, a lesson's setup)."""
        self.policy.announce_config()

    # The policy's sink (``autograd_core.live.training_policy.TrainingSink``).

    def send(self, command: Command) -> None:
        self._send(command)

    def announce(self, *parts: TrainingPart, **values) -> None:
        self._announce(*parts, **values)

    def say(self, text: str) -> None:
        self.message.emit(text)

    def trained(self) -> bool:
        return self.last_metrics is not None and self.last_metrics.step > 0

    def _announce(self, *parts: TrainingPart, **values) -> None:
        """Tell the views that ``parts`` changed, with their new ``values``."""
        assert parts and all(isinstance(part, TrainingPart) for part in parts), parts
        self.changed.emit(TrainingChange(what=functools.reduce(operator.or_, parts), **values))

    def _set_running(self, running: bool) -> None:
        if running != self._running:
            self._running = running
            self._announce(TrainingPart.RUNNING, running=running)

    def _take_snapshot(self) -> None:
        """Take the newest snapshot and announce it in the order views relied on as separate signals: the run
        ending (before its history goes), then what arrived (data, slice, landscape, a dropped pick), then the
        running state with the snapshot, its weights and history; its sentence for the banner last."""
        snap = self._worker.take_snapshot() if self._worker is not None else None
        if snap is None or self._closed:
            return
        arrived: dict = {}
        if snap.generation != self._generation:
            gone = self.last_slice is not None and snap.loss_slice is None  # (of the weights before: not shown)
            self.last_slice = None if gone else self.last_slice
            self._announce(TrainingPart.RUN_ENDING, *((TrainingPart.SLICE,) if gone else ()))
            if self.last_metrics is not None and self.last_metrics.step > 0:
                self.previous_run = self.last_metrics  # kept for comparison: "last run: loss … at lr …"
            self._generation = snap.generation
            self.history.clear()
        if snap.history is not None:
            self.history.clear()
            if snap.start is not None:  # the curves begin where training began: step 0
                self.history.extend([snap.start])
            self.history.extend(snap.history)
        self.history.extend(snap.metrics)
        if snap.last is not None or snap.history is not None:  # (a whole history without figures: no data)
            self.last_metrics = snap.last
        if snap.seq < self._local_data_until:
            snap = dataclasses.replace(snap, dataset=self.dataset)  # the trainer has not seen the latest edit yet
        previous = self.last_snapshot
        self.last_snapshot = snap
        if snap.dataset is not self.dataset:
            self.dataset = arrived["dataset"] = snap.dataset
        if snap.loss_slice is not None and snap.slice_spec == self.slice_spec:
            self.last_slice = arrived["slice"] = snap.loss_slice
        if snap.landscape is not None:
            self.last_landscape = arrived["landscape"] = snap.landscape
        diverged_changed = (snap.diverged is None) != (self.diverged is None)
        self.diverged = snap.diverged
        slow = snap.slow
        slow_changed = slow != self.slow_learning  # its figures change as training goes on: the banner follows
        self.slow_learning = slow
        settled = snap.seq >= self._worker.sent
        if settled and self.slice_spec is not None and snap.slice_spec is None:  # the process dropped the pick
            self.slice_spec, self.last_slice = None, None  # (no such weight, no points): highlight and slice go
            arrived["slice_dropped"] = None
        if arrived:
            values = {name: value for name, value in arrived.items() if name != "slice_dropped"}
            self._announce(*(TrainingPart[name.upper()] for name in arrived), snapshot=snap, **values)
        was_running = self._running
        parts = [TrainingPart.SNAPSHOT]
        if settled and snap.running != self._running:
            # Only a snapshot that has seen every command says whether training runs (Play and status agree).
            self._running = snap.running
            parts.insert(0, TrainingPart.RUNNING)
        if previous is None or not _same_arrays(previous.weights, snap.weights):
            parts.append(TrainingPart.WEIGHTS)
        if snap.history is not None or snap.metrics or diverged_changed:
            parts.append(TrainingPart.HISTORY)
        self._announce(*parts, snapshot=snap, running=self._running)
        if snap.error:
            self.message.emit(snap.error)
        elif snap.stopped_reason:
            self.message.emit(snap.stopped_reason)
        elif settled and was_running and snap.finished and not snap.running:
            config = self.policy.config
            unit = "epochs" if config.batch_size == 0 else "steps"
            text = f"Training finished: all {config.steps} {unit} are done. Raise the step limit to go on."
            self.message.emit(f"{_sentence(slow)} {text}" if slow else text)
        elif slow_changed:
            self.message.emit(_sentence(slow) if slow else "")


def _sentence(text: str) -> str:
    """ "learning is slow: …" as a sentence of its own: "Learning is slow: … ." """
    text = text.strip()
    return text[:1].upper() + text[1:] + ("" if text.endswith((".", "?", "!")) else ".")


def _same_arrays(a: list, b: list) -> bool:
    """Equal [(W, b)] lists (a few hundred numbers: cheap)."""
    return len(a) == len(b) and all(
        np.array_equal(W1, W2) and np.array_equal(b1, b2) for (W1, b1), (W2, b2) in zip(a, b)
    )
