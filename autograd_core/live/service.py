"""The training loop, run in its own process, and the snapshots it sends to the GUI.

Why a process and not a thread: the scalar engine is pure Python, so a
training thread holds the GIL almost all the time, and every time Qt calls
back into Python while painting (pyqtgraph paints in Python, item by item)
the GUI thread waits up to a switch interval for it.  Measured here with a
thread: event-loop stalls of several *seconds* per frame.  In a child
process training runs truly in parallel and the GUI keeps its GIL.

This module imports no Qt, so the child starts quickly.  The child owns the
Trainer inside an ``Engine``; the GUI sends typed commands
(``autograd_core.live.protocol``) and receives ``Snapshot`` objects (weights,
gradients, metrics since the last one, the decision regions as the core's
``RegionGrid`` with their boundaries, and the state a restart needs) at a bounded rate, so the GUI
thread only hands arrays to the plots.

The engine never sees a pipe directly: anything with ``poll/recv`` brings
commands and anything with ``send`` takes replies, and its clock can be
replaced, so tests drive it in-process, one ``run_once`` at a time.
"""

from __future__ import annotations

import dataclasses
import math
import time
from collections import deque

import numpy as np

from autograd_core.lab.landscape import WeightHistory, loss_landscape
from autograd_core.language.workshop import load_definitions
from autograd_core.learn.data import Dataset, dataset_points
from autograd_core.learn.inspection import loss_slice, next_step, parameter_index
from autograd_core.learn.losses import predict
from autograd_core.learn.regions import GRID_RESOLUTION, RegionGrid, class_regions, map_extent, square_extent
from autograd_core.learn.regression import RegressionRun, regression_config_from_dict
from autograd_core.learn.training import Trainer, TrainingConfig
from autograd_core.live.protocol import (
    Command,
    ComputeLandscape,
    DefineOps,
    Export,
    Exported,
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
    Stop,
    TrainerState,
    UpdateSettings,
)
from autograd_core.session import session_dict, trainer_from_session

__all__ = ["GRID_RESOLUTION", "Engine", "RegionGrid", "Snapshot", "map_extent", "square_extent"]

SLICE_INTERVAL = 0.5  # seconds between loss slices while training (each is a full-batch scalar backward)
SLICE_SHARE = 0.25  # …and never more than this share of the time: a slow slice comes less often
# While training runs, snapshots (the map above all: a forward pass over the whole grid) take at most this share
# of the process's time, so a wide network's map does not slow its training to the frame rate; a cheap snapshot
# still comes every ``min_interval``, and none waits longer than PUBLISH_WAIT_MAX.
PUBLISH_SHARE = 0.1
PUBLISH_WAIT_MAX = 0.5
IDLE_WAIT = 0.5  # seconds the paused process sleeps between looks at its pipe (a command wakes it at once)


def parameter_grads(model) -> list[tuple[np.ndarray, np.ndarray]]:
    """The gradients of every weight and bias, shaped like ``model.weight_arrays()``."""
    return [
        (
            np.array([[w.grad for w in n.w] for n in layer.neurons], dtype=float),
            np.array([n.b.grad for n in layer.neurons], dtype=float),
        )
        for layer in model.layers
    ]


def predicted_classes(model, X: np.ndarray, weights) -> np.ndarray:
    """The predicted class of each row of X (uint8), by the vectorised forward pass."""
    if len(X) == 0:
        return np.empty(0, dtype=np.uint8)
    with np.errstate(all="ignore"):
        return predict(model.forward_array(X, weights=weights)).astype(np.uint8)


class Engine:
    """The training process's state machine: commands in, steps, snapshots out.

    ``run_once`` handles the commands waiting, does at most one step and
    publishes a snapshot when one is due; it returns how long the caller may
    sleep (a command wakes it earlier).  ``loop`` is that, in the child
    process, until ``Stop`` or the GUI's end of the pipe closes.
    """

    def __init__(self, start: Start, out, clock=time.monotonic):
        self.out = out
        self.clock = clock
        self.min_interval = start.min_interval
        self.error: str | None = None
        self.points_data: Dataset | None = None  # painted or imported data kept while a regression trains
        # The plane with no training point (Clear all): shown and measured instead of the trainer's data, which
        # a Trainer cannot be without; nothing trains until a point is painted.
        self.no_points: Dataset | None = None
        self.evaluate_due = False  # the data or settings changed since the last figures: measure them again
        if start.custom_ops:
            load_definitions(start.custom_ops)
        try:
            if start.session is not None:
                self.trainer = trainer_from_session(start.session)
            elif is_regression(start.config):
                self.trainer = RegressionRun(regression_config_from_dict(start.config))
                if start.data is not None:  # the classification's data, for the way back
                    self.points_data = Dataset.from_dict(start.data)
                if start.regression_state is not None:
                    self.trainer.restore(*start.regression_state)
            else:
                data = None if start.data is None else Dataset.from_dict(start.data)
                self.trainer = Trainer(TrainingConfig.from_dict(start.config or {}), data=data)
        except Exception as exc:
            self.trainer = Trainer(TrainingConfig())
            self.error = f"The settings were refused ({exc}); using the defaults."
        self.generation = start.generation
        self.seq = start.seq
        self.running = start.running
        self.delay = start.delay
        self.slice_spec = None if start.slice_spec is None else tuple(start.slice_spec)
        self.steps_requested = 0
        self.stop = False
        self.revision = 0  # counts every change to the trainer other than a step (new settings, data, weights)
        self.metrics: list = []
        self.history_due = True
        self.start_metrics = start.start_metrics or getattr(self.trainer, "start_metrics", None)
        if self.start_metrics is None and self.trainer.step_count == 0:
            self.start_metrics = self.trainer.evaluate()
        self._keep_start()
        self.diverged = None  # the metrics of the step that was rolled back, while training stays stopped on it
        self.sent_dataset = None
        self.sent_config_key: tuple | None = None
        self.extent_dataset = None
        self.extent = None
        self.step_times: deque[float] = deque(maxlen=30)
        self.next_step_at = 0.0
        self.last_publish = -math.inf
        self.publish_due = True
        self.publish_cost = 0.0  # seconds the last snapshot took to make and send
        self.slice_key: tuple | None = None  # (generation, revision, step) the last slice was computed for
        self.slice_time = -math.inf
        self.slice_cost = 0.0  # seconds the last slice took
        self.landscape_request: ComputeLandscape | None = None  # answered by the next snapshot
        self.weight_history = WeightHistory()  # the training path, for the landscape
        self.weight_history.record(self.trainer.step_count, self.trainer.model.state_dict())

    # ----------------------------------------------------------------- loop

    def loop(self, commands) -> None:
        """Run until ``Stop`` or until the GUI goes away (its end of the pipe closes)."""
        while not self.stop:
            wait = self.run_once(commands)
            try:
                if wait > 0 and not self.stop:
                    commands.poll(wait)  # returns early when a command arrives
            except (EOFError, OSError):
                return

    @property
    def stepping(self) -> bool:
        return self.running or self.steps_requested > 0

    def run_once(self, commands) -> float:
        """Handle waiting commands, take at most one step, publish if due; return seconds to sleep."""
        try:
            while not self.stop and commands.poll(0):
                self.handle(commands.recv())
                self.publish_due = True
        except (EOFError, OSError):  # the GUI went away
            self.stop = True
        if self.stop:
            return 0.0
        now = self.clock()
        if self.stepping and (self.steps_requested > 0 or now >= self.next_step_at):
            single = self.steps_requested > 0
            if single:
                self.steps_requested -= 1
            stopped = self.step_once()
            self.next_step_at = self.clock() + self.delay
            if single or stopped or self.delay > 0:
                self.publish_due = True
        slice_due = self.slice_pending()
        if slice_due is not None and slice_due <= 0.0 and not self.stepping:
            self.publish_due = True  # a paused picture still gets the slice of its latest weights
        now = self.clock()
        if self.publish_due or (self.metrics and now - self.last_publish >= self.publish_interval()):
            self.publish()
            self.publish_cost = self.clock() - now
            self.last_publish, self.publish_due = now, False
        return self.wait_time()

    def publish_interval(self) -> float:
        """Seconds between snapshots while steps go on: ``min_interval``, longer when a snapshot costs more than
        PUBLISH_SHARE of that time (never over PUBLISH_WAIT_MAX).  Pause, a single step or the end of a run
        still publish at once."""
        return max(self.min_interval, min(self.publish_cost / PUBLISH_SHARE, PUBLISH_WAIT_MAX))

    def wait_time(self) -> float:
        """Seconds until there is work: a step, a due slice; a paused engine only waits for commands."""
        if self.stepping:
            if self.running and self.delay > 0 and not self.steps_requested:
                return max(0.0, self.next_step_at - self.clock())
            return 0.0
        wait = IDLE_WAIT
        slice_due = self.slice_pending()
        if slice_due is not None:
            wait = min(wait, max(0.0, slice_due))
        return wait

    def handle(self, command: Command) -> None:
        """Apply one command.  A refused one (a bad setting, a session that does not fit) sets ``error``
        and pauses; it never ends the process."""
        try:
            match command:
                case Play():
                    self.running, self.error = True, None
                case Pause():
                    self.running, self.steps_requested = False, 0
                case Step(count=count):
                    self.running, self.error = False, None
                    self.steps_requested += max(0, int(count))
                case SetDelay(seconds=seconds):
                    self.delay = max(0.0, float(seconds))
                case DefineOps(definitions=definitions):
                    problems = load_definitions(definitions)
                    if problems:
                        self.error = "; ".join(problems)
                case UpdateSettings(fields=fields):
                    self.trainer.update_settings(**fields)
                    self.revision += 1
                    self.evaluate_due = True
                case Reset(config=None):
                    self.trainer.reset()
                    self.new_generation()
                case Reset(config=config_dict) if is_regression(config_dict):
                    self.no_points = None
                    if isinstance(self.trainer, Trainer) and self.trainer.config.points is not None:
                        self.points_data = self.trainer.data  # its names, standardization and split
                    self.trainer = RegressionRun(regression_config_from_dict(config_dict))
                    self.new_generation()
                case Reset(config=config_dict):
                    config = TrainingConfig.from_dict(config_dict)
                    if isinstance(self.trainer, RegressionRun):  # back to classification
                        self.trainer = Trainer(config, data=self._kept_points(config))
                    elif config.points is not None and config.points == self.trainer.config.points:
                        # A new network on painted data keeps those points and their train/test split.
                        self.trainer = Trainer(config, data=self.trainer.data)
                    else:
                        self.trainer.reset(config)
                        self.no_points = None  # generated data: points again
                    self.new_generation()
                case ImportData(config=config_dict, dataset=dataset_dict):
                    self.trainer = Trainer(TrainingConfig.from_dict(config_dict), data=Dataset.from_dict(dataset_dict))
                    self.extent_dataset = self.no_points = None
                    self.new_generation()
                case SetData(dataset=dataset_dict, points=points):
                    self.set_data(Dataset.from_dict(dataset_dict, allow_empty=True), points)
                case PickSlice(spec=spec):
                    self.slice_spec = None if spec is None else tuple(spec)
                    self.slice_key = None
                case ComputeLandscape():
                    self.landscape_request = command
                case Load(session=session):
                    self.trainer = trainer_from_session(session)
                    self.running, self.no_points = False, None
                    self.new_generation()
                case LoadRegression(state=state):
                    self.trainer = RegressionRun.from_state(state)
                    self.running, self.no_points = False, None
                    self.new_generation()
                case Export() if isinstance(self.trainer, RegressionRun):
                    raise ValueError("a regression cannot be saved as a session yet")
                case Export(request=request):
                    self.out.send(Exported(request, session_dict(self.trainer)))
                case Stop():
                    self.stop = True
                case _:
                    raise ValueError(f"unknown command {command!r}")
        except (BrokenPipeError, EOFError):
            raise
        except Exception as exc:
            self.error = f"{type(exc).__name__}: {exc}"
            self.running = False
        finally:
            self.seq = max(self.seq, getattr(command, "seq", 0))

    def _kept_points(self, config: TrainingConfig) -> Dataset | None:
        """The painted data kept from before a regression, if ``config`` trains on exactly those points: rebuilt
        from the points alone it would lose its names (iris's axes and species), standardization and split."""
        kept = self.points_data
        if kept is None or config.points is None or dataset_points(kept) != config.points:
            return None
        return kept

    def set_data(self, dataset: Dataset, points: list) -> None:
        """Edited (painted) data: the same model goes on training on it, no reset.

        No training point left (Clear all, the last one erased): the run ends there (its curves measured data
        that is gone) and a new one waits, on the same weights, for a painted point.  The first snapshot after
        an edit brings the figures of the edited data (at step 0 as the curve's first point)."""
        if not len(dataset.y_train):
            self.running, self.steps_requested = False, 0
            was, self.no_points = self.no_points, dataset
            if was is None:
                self.trainer.restart_history()
                self.new_generation()
            self.revision += 1
            return
        self.no_points = self.error = None  # (an error of the data before, e.g. no point for the landscape, is past)
        self.trainer.set_data(dataset)
        config = self.trainer.config
        self.trainer.config = dataclasses.replace(
            config, points=points, standardize=False, classes=config.num_classes, columns=None
        )
        self.revision += 1
        self.evaluate_due = True
        if self.trainer.step_count == 0 and not self.trainer.history:  # the curve's step 0 is of this data
            self.start_metrics, self.history_due = self.trainer.evaluate(), True
            self._keep_start()
        x0, x1, y0, y1 = self.extent or (0.0, 0.0, 0.0, 0.0)
        X = dataset.X
        inside = ((X[:, 0] >= x0) & (X[:, 0] <= x1) & (X[:, 1] >= y0) & (X[:, 1] <= y1)).all()
        if inside:  # keep the map where it is while the user paints inside it
            self.extent_dataset = dataset

    def new_generation(self) -> None:
        self.generation += 1
        self.revision += 1
        self.error = None  # (it was of the trainer before: every snapshot would say it again)
        self.metrics = []
        self.history_due = True
        self.step_times.clear()
        self.diverged = None
        fresh = self.trainer.step_count == 0 and self.no_points is None
        kept = getattr(self.trainer, "start_metrics", None)  # a session's step 0
        self.start_metrics = kept or (self.trainer.evaluate() if fresh else None)
        self._keep_start()
        self.evaluate_due = False
        self.weight_history.clear()
        self.weight_history.record(self.trainer.step_count, self.trainer.model.state_dict())

    def _keep_start(self) -> None:
        """The trainer keeps step 0 too, so a session saved from it starts its curve there."""
        if isinstance(self.trainer, Trainer):
            self.trainer.start_metrics = self.start_metrics

    def step_once(self) -> bool:
        """One update; True when training stopped (step limit, divergence, error) and the GUI must know now."""
        trainer = self.trainer
        if trainer.finished or self.no_points is not None:  # (no training point: nothing to train on)
            self.running, self.steps_requested = False, 0
            return True
        try:
            metrics = trainer.step()
        except Exception as exc:
            self.error = f"Training stopped: {type(exc).__name__}: {exc}"
            self.running, self.steps_requested = False, 0
            return True
        self.step_times.append(self.clock())
        if trainer.stopped_reason is None:
            self.metrics.append(metrics)
            self.weight_history.record(trainer.step_count, trainer.model.state_dict())
        else:
            self.diverged = metrics  # rolled back: the curves show where it went, the weights stay good
        if trainer.finished:
            self.running, self.steps_requested = False, 0
            return True
        return False

    # -------------------------------------------------------------- snapshots

    def publish(self) -> None:
        trainer = self.trainer
        if isinstance(trainer, RegressionRun):
            self.publish_regression()
            return
        model, dataset = trainer.model, trainer.data if self.no_points is None else self.no_points
        history = start = None
        last = self.metrics[-1] if self.metrics else None
        if self.history_due:
            history, start = list(trainer.history), self.start_metrics
            self.metrics = []
            self.history_due = False
            if self.no_points is None:
                last = history[-1] if history else (start or trainer.evaluate())  # so step 0 shows its loss
        elif last is None and self.evaluate_due and self.no_points is None:
            last = trainer.evaluate()  # new data or settings, no step yet: the figures of what is there now
        self.evaluate_due = False  # (no training point: no figures; a history snapshot then blanks them)
        if trainer.stopped_reason is None:
            self.diverged = None
        if self.no_points is not None:
            self.extent_dataset = dataset  # the map stays where it was (an empty plane has no bounds)
            if self.extent is None:
                self.extent = map_extent(trainer.data)
        elif self.extent_dataset is not dataset:
            self.extent = map_extent(dataset)
            self.extent_dataset = dataset
        # before the snapshot is made, so a refused request's error is in it
        landscape = self.compute_landscape() if self.landscape_request is not None else None
        weights = model.weight_arrays()
        try:
            grid = class_regions(model, self.extent, GRID_RESOLUTION, weights=weights)
        except (ValueError, FloatingPointError):  # never lose a frame to a numeric corner case
            grid = None
        predicted_train = predicted_test = None
        try:
            predicted_train = predicted_classes(model, dataset.X_train, weights)
            predicted_test = predicted_classes(model, dataset.X_test, weights)
        except (ValueError, FloatingPointError):
            pass
        loss_slice = self.compute_slice() if self.slice_spec is not None else None
        snap = Snapshot(
            generation=self.generation,
            seq=self.seq,
            metrics=self.metrics,
            history=history,
            start=start,
            last=last,
            diverged=self.diverged,
            slow=trainer.slow_learning(),
            weights=weights,
            grads=parameter_grads(model),
            grid=grid,
            dataset=None if dataset is self.sent_dataset else dataset,
            sizes=(model.nin, *model.nouts),
            activation=model.activation,
            activations=tuple(model.activations[:-1]),
            running=self.running,
            finished=trainer.finished,
            stopped_reason=trainer.stopped_reason,
            error=self.error,
            steps_per_second=self.steps_per_second(),
            delay=self.delay,
            slice_spec=self.slice_spec,  # (None when the weight could not be sliced: the GUI drops the pick)
            loss_slice=loss_slice,
            landscape=landscape,
            predicted_train=predicted_train,
            predicted_test=predicted_test,
            state=self.trainer_state(),
            classes=trainer.config.num_classes,
            features=tuple(trainer.config.features or ()),
        )
        self.sent_dataset = dataset
        self.metrics = []
        self.out.send(snap)

    def publish_regression(self) -> None:
        """A regression snapshot: metrics, weights and the curve view; no grid, dataset or predicted classes."""
        trainer, model = self.trainer, self.trainer.model
        history = start = None
        last = self.metrics[-1] if self.metrics else None
        if self.history_due:
            history, start = list(trainer.history), self.start_metrics
            self.history_due = False
            last = history[-1] if history else (start or trainer.evaluate())
        try:
            view = trainer.view()
        except (ValueError, FloatingPointError):
            view = None
        if self.landscape_request is not None:  # its grid is of a classifier's loss over the plane's data
            self.landscape_request = None
            self.error = "The loss landscape is not available for regression yet."
        snap = Snapshot(
            generation=self.generation,
            seq=self.seq,
            metrics=[] if history is not None else self.metrics,
            history=history,
            start=start,
            last=last,
            weights=model.weight_arrays(),
            grads=parameter_grads(model),
            sizes=(model.nin, *model.nouts),
            activation=model.activation,
            activations=tuple(model.activations[:-1]),
            running=self.running,
            finished=trainer.finished,
            error=self.error,
            steps_per_second=self.steps_per_second(),
            delay=self.delay,
            state=self.trainer_state(),
            classes=1,
            regression=view,
        )
        self.sent_dataset = None
        self.metrics = []
        self.out.send(snap)

    def steps_per_second(self) -> float:
        times = self.step_times
        if len(times) > 1 and self.clock() - times[-1] < 1.0:
            return (len(times) - 1) / max(times[-1] - times[0], 1e-9)
        return 0.0

    def trainer_state(self) -> TrainerState:
        trainer = self.trainer
        try:
            optimizer_state = trainer.optimizer.state_dict()
        except Exception:  # a restart without the optimizer's state still keeps weights, data and history
            optimizer_state = None
        key = (self.generation, self.revision)  # every command that can change the config changes this
        if key == self.sent_config_key:
            config = None
        else:
            config = trainer.config_dict() if isinstance(trainer, RegressionRun) else trainer.config.to_dict()
        self.sent_config_key = key
        return TrainerState(
            config=config,
            optimizer_state=optimizer_state,
            step=trainer.step_count,
            sample_position=trainer.sample_position,
            stopped_reason=trainer.stopped_reason,
        )

    # -------------------------------------------------------------- loss slice

    def _slice_key(self) -> tuple:
        """What the slice depends on: a revision number for settings, data and rebuilt weights, and the step.

        (Numbers, never the Dataset itself: its generated ``__eq__`` compares
        numpy arrays and raised "operands could not be broadcast together" when
        a painted point changed the number of rows.)
        """
        return (self.generation, self.revision, self.trainer.step_count)

    def slice_pending(self) -> float | None:
        """Seconds until the picked weight's slice is due again (≤ 0: now), or None when it is up to date."""
        if self.slice_spec is None or self._slice_key() == self.slice_key:
            return None
        if self.slice_key is None or not self.stepping:
            # Nothing to keep training fast for: the slice of the weights the header shows comes with them (in the
            # very snapshot that ends a run, or answers Pause or Step), never one interval later.
            return 0.0
        interval = max(SLICE_INTERVAL, self.slice_cost / SLICE_SHARE)
        return self.slice_time + interval - self.clock()

    def compute_slice(self):
        """The loss slice of the picked weight, when the weights or data changed (while training runs, at most
        every SLICE_INTERVAL and at most SLICE_SHARE of the time; at rest, at once).

        Computed here, not in the GUI: it is a full-batch scalar backward
        (~100 ms for 150 points) plus the optimizer's next step on a copy of
        the trainer, which would freeze the GUI thread.
        """
        due = self.slice_pending()
        if due is None or due > 0.0:
            return None  # up to date, or too soon: a later publish sends it
        if self.no_points is not None:  # no training point: there is no loss to slice
            self.slice_spec = None
            return None
        trainer, config, key = self.trainer, self.trainer.config, self._slice_key()
        layer, neuron, source = self.slice_spec
        began = self.clock()
        try:
            index = parameter_index(trainer.model, layer, neuron, source)
            data = trainer.data
            result = loss_slice(
                trainer.model,
                data.X_train,
                data.y_train,
                index,
                config.loss,
                config.lr,
                config.l1,
                config.l2,
                step=next_step(trainer),
            )
        except (IndexError, ValueError, OverflowError):  # the network changed under the request
            self.slice_spec = None
            return None
        except Exception as exc:  # a side view must never end the training process
            self.slice_spec = None
            self.error = f"The loss slice could not be computed: {type(exc).__name__}: {exc}"
            return None
        self.slice_key, self.slice_time = key, self.clock()
        self.slice_cost = self.slice_time - began
        result.step = trainer.step_count  # while training runs the slice lags the header: it says whose weights
        return result

    # -------------------------------------------------------------- landscape

    def compute_landscape(self):
        """The requested loss landscape around the current weights, with the path so far (once per request).

        Here, not in the GUI: a 41 × 41 grid is 1,681 forward passes over the
        training set (a few tenths of a second, vectorised).
        """
        request, self.landscape_request = self.landscape_request, None
        trainer = self.trainer
        if self.no_points is not None:
            self.error = "No training points: the loss landscape needs at least one painted point."
            return None
        try:
            return loss_landscape(
                trainer.model,
                trainer.data.X_train,
                trainer.data.y_train,
                trainer.config.loss,
                history=self.weight_history.array(),
                history_steps=self.weight_history.steps,
                mode=request.mode,
                resolution=request.resolution,
                span=request.span,
                seed=request.seed,
                step=trainer.step_count,
            )
        except Exception as exc:  # a side view must never end the training process
            self.error = f"The loss landscape could not be computed: {type(exc).__name__}: {exc}"
            return None


def is_regression(config: dict | None) -> bool:
    """A config dict for the regression task (``{"task": "regression", ...}``)."""
    return isinstance(config, dict) and config.get("task") == "regression"
