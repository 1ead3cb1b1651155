"""The training model the widgets observe: one config, one Trainer in the training process, one signal out.

Widgets never touch the Trainer.  They send commands (play, step, a new
learning rate, a new network) and redraw from ``changed(TrainingChange)``,
which names the parts that changed.  The controller keeps the GUI-side copy of
the config (so panels can show it at once) and of the metric history (so plots
never read the trainer from another thread).
"""

from __future__ import annotations

import copy
import dataclasses
from dataclasses import dataclass

import numpy as np
from PySide6.QtCore import QCoreApplication, QObject, Signal

from autograd_core.learn import data as data_edits
from autograd_core.learn.features import FeatureMLP
from autograd_core.learn.inspection import mlp_from_arrays
from autograd_core.learn.regression import (
    REGRESSION_PRESET,
    SHARED_SETTINGS,
    RegressionConfig,
    RegressionRun,
    regression_config_dict,
)
from autograd_core.learn.run_cost import RunLimits, estimate_run_cost
from autograd_core.learn.training import SETTINGS_WITHOUT_RESET, Trainer, TrainingConfig
from autograd_core.live.metric_history import MetricHistory
from autograd_core.live.protocol import (
    Command,
    ComputeLandscape,
    ImportData,
    Load,
    LoadRegression,
    Pause,
    PickSlice,
    Play,
    Reset,
    SetData,
    SetDelay,
    Snapshot,
    Start,
    Step,
    UpdateSettings,
)
from autograd_core.live.service import Engine
from autograd_core.session import SessionError, trainer_from_session

from .training_worker import LocalPipe, ProcessWorker, TrainingWorker

# Speed presets: label → pause between steps in seconds (0 = as fast as the engine goes).
SPEEDS = {"Max": 0.0, "20 steps/s": 0.05, "5 steps/s": 0.2, "1 step/s": 1.0}

# What the training panels call each TrainingConfig field, for the memory guard's messages.
SETTING_NAMES = {
    "batch_size": "Batch size",
    "samples": "Samples",
    "points": "the painted points",
    "layers": "the hidden layers",
    "steps": "Steps",
}
NO_POINTS = "No training points"  # how the banner begins while there is nothing to train on
GUARD_STEPS = 10_000  # the history the guard counts: a live run is paused long before a million steps

# The parts a TrainingChange names, in the order a receiver handles them when one announcement names several.
PARTS = ("run_ending", "regression", "task", "config", "undo", "dataset", "slice", "landscape", "slice_dropped")
PARTS += ("running", "snapshot", "weights", "history")


@dataclass(frozen=True)
class TrainingChange:
    """What one announcement says changed (``what``: names from ``PARTS``), with the new values of those parts.

    "run_ending": a new trainer generation arrived, the history still holds the run that ends; "undo": the undo
    or redo stack of data edits changed; "slice_dropped": the training process gave the picked weight up (no
    slice will come for it); "weights": the snapshot brought other weights; "history": the metric history grew
    or was replaced.  A receiver reading the controller meanwhile sees its state as of the announcement.
    """

    what: frozenset[str]
    snapshot: Snapshot | None = None  # at most ~20 per second; also with what arrived in it (its data, slice…)
    config: TrainingConfig | None = None  # panels refresh their widgets (e.g. after opening a session)
    dataset: object = None  # the points to draw (an edit shows at once, before the trainer has it)
    slice: object = None  # LossSlice of the picked weight (None: the last was of weights before a Reset)
    landscape: object = None  # autograd_core.lab.landscape.Landscape, answering request_landscape
    task: str = ""  # "classification" or "regression"
    regression: RegressionConfig | None = None  # the one now training
    running: bool = False

    def __contains__(self, part: str) -> bool:
        return part in self.what


def parameter_count(layers: list[int], inputs: int = 2, outputs: int = 1) -> int:
    """Weights and biases of MLP(inputs, layers + [outputs]): Σ (fan_in + 1) · width."""
    sizes = [inputs, *layers, outputs]
    return sum((sizes[i] + 1) * sizes[i + 1] for i in range(len(sizes) - 1))


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

    UNDO_LIMIT = 100  # data edits kept for undo
    worker_factory = ProcessWorker  # InProcessWorker runs the same engine in this process (tests)

    def __init__(
        self, config: TrainingConfig | None = None, parent=None, min_interval: float = 0.05, worker_factory=None
    ):
        super().__init__(parent)
        self._config = copy.deepcopy(config or TrainingConfig()).validate()
        self.preset = ""  # the preset the settings came from ("moons", "article"; "" for none), for the lessons
        self._start_config = copy.deepcopy(self._config)
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
        self._closed = False
        self._min_interval = min_interval
        self._worker: TrainingWorker | None = None  # started by start(): an unseen tab costs nothing
        self._queued: list[Command] = []  # commands before start(), sent first when it starts
        self.dataset = None  # the data as the user sees it (edits land here first)
        self._undo: list[tuple] = []  # (dataset, config) before each data edit
        self._redo: list[tuple] = []
        self._local_data_until = 0  # snapshots older than this command count show stale data: keep ours
        self.slice_spec: tuple | None = None
        self.last_slice = None
        self.regression = None  # the RegressionConfig while the task is regression (None: classification)
        # The command line's memory guard: over its limit a setting is refused; over "ask", confirm(sentence) decides
        self.limits = RunLimits.for_this_machine()
        self.confirm = None
        self.runs_bytes = lambda: 0  # the memory of the run history the area keeps (the guard counts it)
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
        worker.snapshotReady.connect(self._take_snapshot)
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
        if isinstance(command, Load | ImportData) and self.regression is not None:
            self.regression = None  # a session or imported data: classification again
            self._announce("task", task="classification")
        if isinstance(command, SetData | Load | ImportData) or (
            isinstance(command, Reset) and command.config is not None
        ):
            self._local_data_until = self._worker.sent

    # ------------------------------------------------------------- state

    @property
    def config(self) -> TrainingConfig:
        """A copy of the current settings (the trainer's, as the GUI last set them)."""
        return copy.deepcopy(self._config)

    def live_settings(self) -> dict:
        """The settings a run may change without a restart (no copy of the data): what a kept run follows."""
        return {name: copy.deepcopy(getattr(self._config, name)) for name in SETTINGS_WITHOUT_RESET}

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
            data = None if self.dataset is None or self._config.points is None else self.dataset.to_dict()
            config = self._config.to_dict()
            if self.regression is not None:
                config, data = regression_config_dict(self.regression), None
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
        """Change settings.  Optimizer settings apply between steps without a reset;
        a new network or new data rebuilds the trainer (new weights from the seed).
        Returns False (and says why) if a value is refused."""
        if self._closed:
            return False
        if "sklearn_seed" not in fields and any(
            k in fields and fields[k] != getattr(self._config, k) for k in ("dataset", "data_seed")
        ):
            fields["sklearn_seed"] = None  # the article's fixed points end when the learner picks other data
        try:
            new = dataclasses.replace(self._config, **fields).validate()
        except (TypeError, ValueError) as exc:
            self.message.emit(f"Setting refused: {exc}")
            return False
        changed = {k: v for k, v in fields.items() if getattr(self._config, k) != getattr(new, k)}
        if not changed:
            return True
        refusal = self._memory_refusal(new)
        if refusal:
            self.message.emit(f"Setting not applied: {refusal}")
            self.announce_config()  # the panels show the settings still in force
            return False
        if self.regression is not None:
            return self._update_regression(new, changed)
        old_outputs = self._config.outputs
        self._config = new
        if all(k in SETTINGS_WITHOUT_RESET for k in changed):
            self._send(UpdateSettings({k: getattr(new, k) for k in changed}))
        else:
            self._send(Reset(new.to_dict()))
        if new.outputs != old_outputs:
            self.announce_config()  # the output layer changed: panels show the new network
        return True

    # ---------------------------------------------------------- regression

    def regression_state(self) -> dict | None:
        """The regression as of the newest snapshot (``RegressionRun.state_dict()``) for a session; None when
        the task is classification."""
        if self.regression is None:
            return None
        start = self._worker.restart_state(replay=True) if self._worker is not None else None
        if start is None or start.regression_state is None:
            return RegressionRun(self.regression).state_dict()  # not trained yet: its fresh start
        weights, step, history, optimizer_state = start.regression_state
        return {
            "config": regression_config_dict(self.regression),
            "weights": list(weights),
            "step": step,
            "history": [m.to_dict() for m in history],
            "optimizer_state": optimizer_state,
        }

    def load_regression(self, state: dict) -> None:
        """Continue a saved regression, paused; SessionError (nothing changes) if it does not fit."""
        try:
            run = RegressionRun.from_state(state)
        except ValueError as exc:
            raise SessionError(f"The regression in this session cannot be used: {exc}") from None
        was = self.task
        self.pause()
        self.regression = run.config
        self._send(LoadRegression(state))
        self._announce("regression", *(("task",) if was != "regression" else ()), regression=run.config, task=self.task)

    @property
    def task(self) -> str:
        return "classification" if self.regression is None else "regression"

    def _regression_from(self, config: TrainingConfig, **fields):
        """The regression settings: the shared ones (data size, noise, network, optimizer) from ``config``."""
        base = self.regression or RegressionConfig()
        shared = {name: getattr(config, name) for name in SHARED_SETTINGS}
        shared["activation"] = (config.activations or [config.activation])[0] if config.layers else config.activation
        return dataclasses.replace(base, **{**shared, **fields}).validate()

    def _update_regression(self, new: TrainingConfig, changed: dict) -> bool:
        try:
            regression = self._regression_from(new)
        except (TypeError, ValueError) as exc:
            self.message.emit(f"Setting refused: {exc}")
            self.announce_config()
            return False
        self._config = new
        if any(name in SHARED_SETTINGS or name in ("activations",) for name in changed):
            self._send_regression(regression)
        return True

    def _send_regression(self, regression, *parts: str) -> None:
        """Train ``regression``; one announcement names it and ``parts`` (the task, the config) that changed with it."""
        self.regression = regression
        self._send(Reset(regression_config_dict(regression)))
        config = self.config if "config" in parts else None
        self._announce("regression", *parts, regression=regression, task=self.task, config=config)

    def set_task(self, task: str) -> bool:
        """Classification (the plane's data sets) or regression (a target typed as an expression of x)."""
        if task not in ("classification", "regression"):
            raise ValueError(f"unknown task {task!r}")
        if task == self.task:
            return True
        self.pause()
        self.message.emit("")
        if task == "regression":
            self._send_regression(self._regression_from(self._config), "task")
        else:
            self.regression = None
            self._send(Reset(self._config.to_dict()))
            self._announce("task", task=task)
        return True

    def set_regression(self, **fields) -> bool:
        """Change regression-only settings (``target``, ``loss``, ``huber_delta``): a new network on new data.
        Returns False (and says why) if a value is refused, e.g. a target that is not an expression of x."""
        try:
            regression = self._regression_from(self._config, **fields)
        except (TypeError, ValueError) as exc:
            self.message.emit(f"Setting refused: {exc}")
            return False
        if self.regression is not None and regression == self.regression:
            return True
        was = self.task
        self.pause()
        self._send_regression(regression, *(("task",) if was != "regression" else ()))
        return True

    def use_regression_preset(self) -> bool:
        """The tuned regression preset (``regression.REGRESSION_PRESET``) with the current target."""
        preset = {"l2": RegressionConfig().l2, **REGRESSION_PRESET}  # as the command line's preset: no L2
        activation = preset.pop("activation")
        try:
            new = dataclasses.replace(self._config, activation=activation, activations=None, **preset).validate()
        except (TypeError, ValueError) as exc:
            self.message.emit(f"Preset refused: {exc}")
            return False
        self._config = new
        regression = self._regression_from(new)
        self.pause()
        self._send_regression(regression, "config")
        return True

    def use_preset(self) -> bool:
        """Apply the tuned preset of the current data set (``autograd_core.learn.presets``): a new network and data."""
        from autograd_core.learn.presets import apply_preset, preset_name

        try:
            config = apply_preset(self._config)
        except ValueError as exc:
            self.message.emit(f"Preset refused: {exc}")
            return False
        return self._take_preset(config, preset_name(config.dataset, config.classes))

    def use_named_preset(self, name: str) -> bool:
        """A preset by its name, whatever the data set now: "article" is the article's own run."""
        from autograd_core.learn.presets import PRESETS

        if name not in PRESETS:
            self.message.emit(f"Preset refused: there is no preset {name!r}")
            return False
        try:
            config = dataclasses.replace(self._config, points=None, **copy.deepcopy(PRESETS[name])).validate()
        except ValueError as exc:
            self.message.emit(f"Preset refused: {exc}")
            return False
        return self._take_preset(config, name)

    def _take_preset(self, config, name: str) -> bool:
        """A preset is a run from its start: one that differs in live settings only (the learning rate…), which
        would go on from the trained weights, starts the run again too."""
        fields = {f.name: getattr(config, f.name) for f in dataclasses.fields(config)}
        live_only = all(k in SETTINGS_WITHOUT_RESET for k, v in fields.items() if getattr(self._config, k) != v)
        trained = self.last_metrics is not None and self.last_metrics.step > 0
        done = self.update_settings(**fields)
        if done:
            self.preset = name
            if live_only and trained:
                self.reset()
        self.announce_config()  # every panel shows the preset's settings
        return done

    def load_session_data(self, data) -> None:
        """Continue from a loaded session (``autograd_core.session.SessionData``); paused.

        The trainer is built here first, so a session that does not fit
        together (or would need more memory than allowed) raises SessionError
        before anything changes.
        """
        trainer = trainer_from_session(data)
        sizes = {"train_size": len(trainer.data.y_train), "test_size": len(trainer.data.y_test)}
        refusal = self._memory_refusal(trainer.config, **sizes)
        if refusal:
            raise SessionError(refusal)
        self.pause()
        self._config = copy.deepcopy(trainer.config)
        self._send(Load(dataclasses.replace(data, runs=[])))  # the run history stays here (up to ~18 MB)
        self.announce_config()

    def _memory_refusal(self, config: TrainingConfig, **sizes) -> str | None:
        """Why ``config`` must not run here (one sentence naming the settings), or None.

        The command line's guard (autograd_core.learn.run_cost) on the memory one step needs: beyond
        ``limits.refuse_bytes`` refused, beyond ``limits.ask_bytes`` ``confirm(sentence)`` decides.
        """
        guarded = dataclasses.replace(config, steps=min(config.steps, GUARD_STEPS))
        cost = estimate_run_cost(guarded, runs_bytes=self.runs_bytes(), **sizes)
        for problem in cost.problems(self.limits):
            if problem.kind != "memory":
                continue
            sentence = problem.message(lambda field: SETTING_NAMES.get(field, field)) + "."
            if problem.refuse:
                return sentence
            if self.confirm is not None and not self.confirm(sentence[0].upper() + sentence[1:]):
                return "you chose not to run it (" + sentence.rstrip(".") + ")."
        return None

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

    # ------------------------------------------------------- painted data

    def add_point(self, x: float, y: float, label: int) -> None:
        """Paint a point of class ``label``: it joins the training set; training goes on with it."""
        self._edit(data_edits.add_point, x, y, label, self._config.num_classes)

    def remove_point(self, part: str, index: int) -> None:
        """Erase point ``index`` of the "train" or "test" set."""
        self._edit(data_edits.remove_point, part, index)

    def move_point(self, part: str, index: int, x: float, y: float) -> None:
        self._edit(data_edits.move_point, part, index, x, y)

    def clear_points(self) -> None:
        """Remove every point; training waits until at least one point is painted (Undo brings them back)."""
        if self.dataset is not None:
            self._remember()
            self._apply_data(data_edits.empty_dataset(like=self.dataset))  # the plane keeps its axes

    def _edit(self, edit, *args) -> None:
        if self.dataset is None or self._closed:
            return
        try:
            new = edit(self.dataset, *args)
        except (ValueError, IndexError) as exc:
            self.message.emit(f"Edit refused: {exc}")
            return
        self._remember()
        self._apply_data(new)

    # ------------------------------------------------------- import, undo, redo

    def import_dataset(self, dataset) -> bool:
        """Train a new network on imported data (its split kept; classes from its labels).  Undoable."""
        if self._closed:
            return False
        classes = max(2, int(max(dataset.y.max(initial=0), 1)) + 1)
        if dataset.class_names:
            classes = len(dataset.class_names)
        points = data_edits.dataset_points(dataset)
        try:
            config = dataclasses.replace(
                self._config, points=points, standardize=False, classes=classes, columns=None
            ).validate()
            if config.num_classes > 2 and config.loss != "bce":
                config = dataclasses.replace(config, loss="bce").validate()
        except ValueError as exc:
            self.message.emit(f"Import refused: {exc}")
            return False
        refusal = self._memory_refusal(config, train_size=len(dataset.y_train), test_size=len(dataset.y_test))
        if refusal:
            self.message.emit(f"Import refused: {refusal}")
            return False
        self._remember()
        self._restore((dataset, config))
        return True

    def _state(self) -> tuple:
        return (self.dataset, copy.deepcopy(self._config))

    def _remember(self) -> None:
        """Push the data as it is now on the undo stack (every data edit calls this first)."""
        if self.dataset is None:
            return
        self._undo.append(self._state())
        del self._undo[: -self.UNDO_LIMIT]
        self._redo.clear()
        self._announce("undo")

    def can_undo(self) -> bool:
        return bool(self._undo)

    def can_redo(self) -> bool:
        return bool(self._redo)

    def undo(self) -> None:
        """Take back the last data edit (paint, erase, drag, clear all, import)."""
        if self._undo and not self._closed:
            self._redo.append(self._state())
            self._restore(self._undo.pop())
            self._announce("undo")

    def redo(self) -> None:
        if self._redo and not self._closed:
            self._undo.append(self._state())
            self._restore(self._redo.pop())
            self._announce("undo")

    def _restore(self, state) -> None:
        """Bring back (dataset, config): generated data from its settings, edited data with the same classes on
        the same weights, anything else as a new network on exactly that data."""
        dataset, config = state
        if config.points is None:
            self.pause()
            self._config = copy.deepcopy(config)
            self.dataset = dataset
            self._announce("dataset", dataset=dataset)
            self._send(Reset(config.to_dict()))
            self.announce_config()
        elif len(dataset.y_train) == 0 or (
            self._config.points is not None and config.outputs == self._config.outputs
        ):  # edited points, same classes: the same weights go on training on them
            self._apply_data(dataset)
        else:
            self.pause()
            self._config = copy.deepcopy(config)
            self.dataset = dataset
            self._announce("dataset", dataset=dataset)
            self.message.emit("")
            self._send(ImportData(config.to_dict(), dataset.to_dict()))
            self.announce_config()

    def _apply_data(self, dataset) -> None:
        """Show the edited data now; hand it to the trainer (no reset) when it has a training point."""
        self.dataset = dataset
        self._announce("dataset", dataset=dataset)
        if len(dataset.y_train) == 0:  # the run ends here; the next painted point starts a new one
            self.pause()
            self._send(SetData(dataset.to_dict(), []))
            self._refuse_without_points()
            return
        points = data_edits.dataset_points(dataset)
        self._config = dataclasses.replace(
            self._config, points=points, standardize=False, classes=self._config.num_classes, columns=None
        )
        self.message.emit("")
        self._send(SetData(dataset.to_dict(), points))
        self.announce_config()

    def _said(self, text: str) -> None:
        self._message = text

    def _data_shown(self, change: TrainingChange) -> None:
        """Points again, by whatever way (painted, a data set, a preset, Undo, a session, regression's own curve):
        "No training points" goes."""
        dataset = change.dataset
        points = "dataset" in change and dataset is not None and len(dataset.y_train)
        if self._message.startswith(NO_POINTS) and (points or ("regression" in change and self.regression is not None)):
            self.message.emit("")

    def _refuse_without_points(self) -> bool:
        """True (and says how to go on) when the plane has no training point: nothing to train on."""
        dataset = self.dataset
        if self.regression is not None or dataset is None or len(dataset.y_train):
            return False
        names = dataset.class_labels(self._config.num_classes)
        buttons = " or ".join(f"Paint {name}" for name in names) if len(names) <= 3 else "a Paint button"
        self.message.emit(
            f"{NO_POINTS}: paint at least one point ({buttons}); training then starts again from the "
            "current weights, with new curves (the run before is kept in the Runs tab)."
        )
        return True

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
        self._announce("config", config=self.config)

    def _announce(self, *parts: str, **values) -> None:
        """Tell the views that ``parts`` (names in ``PARTS``) changed, with their new ``values``."""
        assert parts and set(parts) <= set(PARTS), parts
        self.changed.emit(TrainingChange(what=frozenset(parts), **values))

    def _set_running(self, running: bool) -> None:
        if running != self._running:
            self._running = running
            self._announce("running", running=running)

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
            self._announce("run_ending", *(("slice",) if gone else ()))
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
            snap.dataset = self.dataset  # the trainer has not seen the latest edit yet: show the edit
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
            self._announce(*arrived, snapshot=snap, **{k: v for k, v in arrived.items() if k != "slice_dropped"})
        was_running = self._running
        parts = ["snapshot"]
        if settled and snap.running != self._running:
            # Only a snapshot that has seen every command says whether training runs (Play and status agree).
            self._running = snap.running
            parts.insert(0, "running")
        if previous is None or not _same_arrays(previous.weights, snap.weights):
            parts.append("weights")
        if snap.history is not None or snap.metrics or diverged_changed:
            parts.append("history")
        self._announce(*parts, snapshot=snap, running=self._running)
        if snap.error:
            self.message.emit(snap.error)
        elif snap.stopped_reason:
            self.message.emit(snap.stopped_reason)
        elif settled and was_running and snap.finished and not snap.running:
            unit = "epochs" if self._config.batch_size == 0 else "steps"
            text = f"Training finished: all {self._config.steps} {unit} are done. Raise the step limit to go on."
            self.message.emit(f"{_sentence(slow)} {text}" if slow else text)
        elif slow_changed:
            self.message.emit(_sentence(slow) if slow else "")


def _sentence(text: str) -> str:
    """ "learning is slow: …" as a sentence of its own: "Learning is slow: … ." """
    text = text.strip()
    return text[:1].upper() + text[1:] + ("" if text.endswith((".", "?", "!")) else ".")


def snapshot_model(snap):
    """A fresh MLP with a snapshot's weights; with input features, one that takes points of the plane."""
    model = mlp_from_arrays(snap.weights, list(snap.activations) or snap.activation)
    return FeatureMLP.from_mlp(model, snap.features) if snap.features else model


def _same_arrays(a: list, b: list) -> bool:
    """Equal [(W, b)] lists (a few hundred numbers: cheap)."""
    return len(a) == len(b) and all(
        np.array_equal(W1, W2) and np.array_equal(b1, b2) for (W1, b1), (W2, b2) in zip(a, b)
    )
