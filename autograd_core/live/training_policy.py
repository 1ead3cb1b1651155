"""What the training area's settings and data edits mean: the policy behind the GUI's training controller.

The controller (``gui.training.training_controller``) owns the training
process and the signals; this module decides, without Qt, what a change does:
which settings a run follows as it goes and which start a new network, what the
memory guard refuses, what a preset or a task switch sets, and the undo history
of data edits.  It acts through a ``TrainingSink`` (commands to the training
process, announcements to the views, a sentence for the banner), so a test can
drive it with a list for a sink.
"""

from __future__ import annotations

import copy
import dataclasses
from dataclasses import dataclass
from enum import Flag, auto
from typing import Protocol

from autograd_core.learn import data as data_edits
from autograd_core.learn.regression import (
    REGRESSION_PRESET,
    SHARED_SETTINGS,
    RegressionConfig,
    RegressionRun,
    regression_config_dict,
)
from autograd_core.learn.run_cost import RunLimits, estimate_run_cost
from autograd_core.learn.training import SETTINGS_WITHOUT_RESET, TrainingConfig
from autograd_core.live.protocol import (
    Command,
    ImportData,
    Load,
    LoadRegression,
    Reset,
    SetData,
    Snapshot,
    UpdateSettings,
)
from autograd_core.session import SessionError, trainer_from_session

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
UNDO_LIMIT = 100  # data edits kept for undo


class TrainingPart(Flag):
    """What a ``TrainingChange`` says changed, as flags (one announcement may name several); the members are in
    the order a receiver handles them when it names several."""

    RUN_ENDING = auto()  # a new trainer generation arrived; the history still holds the run that ends
    REGRESSION = auto()
    TASK = auto()
    CONFIG = auto()
    UNDO = auto()  # the undo or redo stack of data edits changed
    DATASET = auto()
    SLICE = auto()
    LANDSCAPE = auto()
    SLICE_DROPPED = auto()  # the training process gave the picked weight up (no slice will come for it)
    RUNNING = auto()
    SNAPSHOT = auto()
    WEIGHTS = auto()  # the snapshot brought other weights
    HISTORY = auto()  # the metric history grew or was replaced


@dataclass(frozen=True)
class TrainingChange:
    """What one announcement says changed (``what``: ``TrainingPart`` flags), with the new values of those parts.
    A receiver reading the controller meanwhile sees its state as of the announcement.
    """

    what: TrainingPart
    snapshot: Snapshot | None = None  # at most ~20 per second; also with what arrived in it (its data, slice…)
    config: TrainingConfig | None = None  # panels refresh their widgets (e.g. after opening a session)
    dataset: object = None  # the points to draw (an edit shows at once, before the trainer has it)
    slice: object = None  # LossSlice of the picked weight (None: the last was of weights before a Reset)
    landscape: object = None  # autograd_core.lab.landscape.Landscape, answering request_landscape
    task: str = ""  # "classification" or "regression"
    regression: RegressionConfig | None = None  # the one now training
    running: bool = False

    def __contains__(self, part: TrainingPart) -> bool:
        return bool(part & self.what)


def parameter_count(layers: list[int], inputs: int = 2, outputs: int = 1) -> int:
    """Weights and biases of MLP(inputs, layers + [outputs]): Σ (fan_in + 1) · width."""
    sizes = [inputs, *layers, outputs]
    return sum((sizes[i] + 1) * sizes[i + 1] for i in range(len(sizes) - 1))


class TrainingSink(Protocol):
    """How the policy acts: the training controller, or a test's recorder."""

    closed: bool  # the area is gone: every change is refused

    def send(self, command: Command) -> None:
        """Hand a command to the training process."""

    def announce(self, *parts: TrainingPart, **values) -> None:
        """Tell the views that ``parts`` changed (a ``TrainingChange``)."""

    def say(self, text: str) -> None:
        """A sentence for the banner ("" clears it)."""

    def pause(self) -> None:
        """Stop training (before a change that starts another run)."""

    def reset(self) -> None:
        """New initial weights from the seed, the same data."""

    def trained(self) -> bool:
        """True when the run on screen has taken a step."""


class TrainingPolicy:
    """The settings in force, the data as the user sees it, the undo history; every change decided here."""

    def __init__(self, sink: TrainingSink, config: TrainingConfig | None = None):
        self.sink = sink
        self._config = copy.deepcopy(config or TrainingConfig()).validate()
        self.preset = ""  # the preset the settings came from ("moons", "article"; "" for none), for the lessons
        self.dataset = None  # the data as the user sees it (edits land here first)
        self.regression: RegressionConfig | None = None  # while the task is regression (None: classification)
        self._undo: list[tuple] = []  # (dataset, config) before each data edit
        self._redo: list[tuple] = []
        # The command line's memory guard: over its limit a setting is refused; over "ask", confirm(sentence) decides
        self.limits = RunLimits.for_this_machine()
        self.confirm = None
        self.runs_bytes = lambda: 0  # the memory of the run history the area keeps (the guard counts it)

    # ------------------------------------------------------------- settings

    @property
    def config(self) -> TrainingConfig:
        """A copy of the current settings (the trainer's, as the GUI last set them)."""
        return copy.deepcopy(self._config)

    def live_settings(self) -> dict:
        """The settings a run may change without a restart (no copy of the data): what a kept run follows."""
        return {name: copy.deepcopy(getattr(self._config, name)) for name in SETTINGS_WITHOUT_RESET}

    @staticmethod
    def restarts(changed) -> bool:
        """True when changing these settings starts a new network (new data or architecture); False when a run
        follows them between two steps (the optimizer's settings)."""
        return not all(name in SETTINGS_WITHOUT_RESET for name in changed)

    def announce_config(self) -> None:
        """Every panel shows the settings in force (after a refused value, a preset, a session, a lesson's setup)."""
        self.sink.announce(TrainingPart.CONFIG, config=self.config)

    def update_settings(self, **fields) -> bool:
        """Change settings.  Optimizer settings apply between steps without a reset;
        a new network or new data rebuilds the trainer (new weights from the seed).
        Returns False (and says why) if a value is refused."""
        if self.sink.closed:
            return False
        if "sklearn_seed" not in fields and any(
            k in fields and fields[k] != getattr(self._config, k) for k in ("dataset", "data_seed")
        ):
            fields["sklearn_seed"] = None  # the article's fixed points end when the learner picks other data
        try:
            new = dataclasses.replace(self._config, **fields).validate()
        except (TypeError, ValueError) as exc:
            self.sink.say(f"Setting refused: {exc}")
            return False
        changed = {k: v for k, v in fields.items() if getattr(self._config, k) != getattr(new, k)}
        if not changed:
            return True
        refusal = self.memory_refusal(new)
        if refusal:
            self.sink.say(f"Setting not applied: {refusal}")
            self.announce_config()  # the panels show the settings still in force
            return False
        if self.regression is not None:
            return self._update_regression(new, changed)
        old_outputs = self._config.outputs
        self._config = new
        if self.restarts(changed):
            self.sink.send(Reset(new.to_dict()))
        else:
            self.sink.send(UpdateSettings({k: getattr(new, k) for k in changed}))
        if new.outputs != old_outputs:
            self.announce_config()  # the output layer changed: panels show the new network
        return True

    def memory_refusal(self, config: TrainingConfig, **sizes) -> str | None:
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

    # ------------------------------------------------------------- presets and sessions

    def use_preset(self) -> bool:
        """Apply the tuned preset of the current data set (``autograd_core.learn.presets``): a new network and data."""
        from autograd_core.learn.presets import apply_preset, preset_name

        try:
            config = apply_preset(self._config)
        except ValueError as exc:
            self.sink.say(f"Preset refused: {exc}")
            return False
        return self._take_preset(config, preset_name(config.dataset, config.classes))

    def use_named_preset(self, name: str) -> bool:
        """A preset by its name, whatever the data set now: "article" is the article's own run."""
        from autograd_core.learn.presets import PRESETS

        if name not in PRESETS:
            self.sink.say(f"Preset refused: there is no preset {name!r}")
            return False
        try:
            config = dataclasses.replace(self._config, points=None, **copy.deepcopy(PRESETS[name])).validate()
        except ValueError as exc:
            self.sink.say(f"Preset refused: {exc}")
            return False
        return self._take_preset(config, name)

    def _take_preset(self, config, name: str) -> bool:
        """A preset is a run from its start: one that differs in live settings only (the learning rate…), which
        would go on from the trained weights, starts the run again too."""
        fields = {f.name: getattr(config, f.name) for f in dataclasses.fields(config)}
        live_only = not self.restarts(k for k, v in fields.items() if getattr(self._config, k) != v)
        trained = self.sink.trained()
        done = self.update_settings(**fields)
        if done:
            self.preset = name
            if live_only and trained:
                self.sink.reset()
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
        refusal = self.memory_refusal(trainer.config, **sizes)
        if refusal:
            raise SessionError(refusal)
        self.sink.pause()
        self._config = copy.deepcopy(trainer.config)
        self.sink.send(Load(dataclasses.replace(data, runs=[])))  # the run history stays here (up to ~18 MB)
        self.announce_config()

    # ------------------------------------------------------------- regression

    @property
    def task(self) -> str:
        return "classification" if self.regression is None else "regression"

    def load_regression(self, state: dict) -> None:
        """Continue a saved regression, paused; SessionError (nothing changes) if it does not fit."""
        try:
            run = RegressionRun.from_state(state)
        except ValueError as exc:
            raise SessionError(f"The regression in this session cannot be used: {exc}") from None
        was = self.task
        self.sink.pause()
        self.regression = run.config
        self.sink.send(LoadRegression(state))
        task = (TrainingPart.TASK,) if was != "regression" else ()
        self.sink.announce(TrainingPart.REGRESSION, *task, regression=run.config, task=self.task)

    def regression_state(self, trained: tuple | None) -> dict:
        """The regression as a session stores it (``RegressionRun.state_dict()``), from the training process's
        ``trained`` state (weights, step, history, optimizer state), or its fresh start when not trained yet."""
        if trained is None:
            return RegressionRun(self.regression).state_dict()
        weights, step, history, optimizer_state = trained
        return {
            "config": regression_config_dict(self.regression),
            "weights": list(weights),
            "step": step,
            "history": [m.to_dict() for m in history],
            "optimizer_state": optimizer_state,
        }

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
            self.sink.say(f"Setting refused: {exc}")
            self.announce_config()
            return False
        self._config = new
        if any(name in SHARED_SETTINGS or name in ("activations",) for name in changed):
            self._send_regression(regression)
        return True

    def _send_regression(self, regression, *parts: TrainingPart) -> None:
        """Train ``regression``; one announcement names it and ``parts`` (the task, the config) that changed with it."""
        self.regression = regression
        self.sink.send(Reset(regression_config_dict(regression)))
        config = self.config if TrainingPart.CONFIG in parts else None
        self.sink.announce(TrainingPart.REGRESSION, *parts, regression=regression, task=self.task, config=config)

    def set_task(self, task: str) -> bool:
        """Classification (the plane's data sets) or regression (a target typed as an expression of x)."""
        if task not in ("classification", "regression"):
            raise ValueError(f"unknown task {task!r}")
        if task == self.task:
            return True
        self.sink.pause()
        self.sink.say("")
        if task == "regression":
            self._send_regression(self._regression_from(self._config), TrainingPart.TASK)
        else:
            self.regression = None
            self.sink.send(Reset(self._config.to_dict()))
            self.sink.announce(TrainingPart.TASK, task=task)
        return True

    def set_regression(self, **fields) -> bool:
        """Change regression-only settings (``target``, ``loss``, ``huber_delta``): a new network on new data.
        Returns False (and says why) if a value is refused, e.g. a target that is not an expression of x."""
        try:
            regression = self._regression_from(self._config, **fields)
        except (TypeError, ValueError) as exc:
            self.sink.say(f"Setting refused: {exc}")
            return False
        if self.regression is not None and regression == self.regression:
            return True
        was = self.task
        self.sink.pause()
        self._send_regression(regression, *((TrainingPart.TASK,) if was != "regression" else ()))
        return True

    def use_regression_preset(self) -> bool:
        """The tuned regression preset (``regression.REGRESSION_PRESET``) with the current target."""
        preset = {"l2": RegressionConfig().l2, **REGRESSION_PRESET}  # as the command line's preset: no L2
        activation = preset.pop("activation")
        try:
            new = dataclasses.replace(self._config, activation=activation, activations=None, **preset).validate()
        except (TypeError, ValueError) as exc:
            self.sink.say(f"Preset refused: {exc}")
            return False
        self._config = new
        regression = self._regression_from(new)
        self.sink.pause()
        self._send_regression(regression, TrainingPart.CONFIG)
        return True

    def restart_start(self) -> tuple[dict, dict | None]:
        """(config, data) a new training process starts from: the settings in force and, for painted or
        imported points, exactly those points."""
        if self.regression is not None:
            return regression_config_dict(self.regression), None
        data = None if self.dataset is None or self._config.points is None else self.dataset.to_dict()
        return self._config.to_dict(), data

    # ------------------------------------------------------------- painted data

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
        if self.dataset is None or self.sink.closed:
            return
        try:
            new = edit(self.dataset, *args)
        except (ValueError, IndexError) as exc:
            self.sink.say(f"Edit refused: {exc}")
            return
        self._remember()
        self._apply_data(new)

    def import_dataset(self, dataset) -> bool:
        """Train a new network on imported data (its split kept; classes from its labels).  Undoable."""
        if self.sink.closed:
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
            self.sink.say(f"Import refused: {exc}")
            return False
        refusal = self.memory_refusal(config, train_size=len(dataset.y_train), test_size=len(dataset.y_test))
        if refusal:
            self.sink.say(f"Import refused: {refusal}")
            return False
        self._remember()
        self._restore((dataset, config))
        return True

    def no_points_refusal(self) -> str | None:
        """The banner's sentence when the plane has no training point (nothing to train on), else None."""
        dataset = self.dataset
        if self.regression is not None or dataset is None or len(dataset.y_train):
            return None
        names = dataset.class_labels(self._config.num_classes)
        buttons = " or ".join(f"Paint {name}" for name in names) if len(names) <= 3 else "a Paint button"
        return (
            f"{NO_POINTS}: paint at least one point ({buttons}); training then starts again from the "
            "current weights, with new curves (the run before is kept in the Runs tab)."
        )

    # ------------------------------------------------------------- undo, redo

    def _state(self) -> tuple:
        return (self.dataset, copy.deepcopy(self._config))

    def _remember(self) -> None:
        """Push the data as it is now on the undo stack (every data edit calls this first)."""
        if self.dataset is None:
            return
        self._undo.append(self._state())
        del self._undo[:-UNDO_LIMIT]
        self._redo.clear()
        self.sink.announce(TrainingPart.UNDO)

    def can_undo(self) -> bool:
        return bool(self._undo)

    def can_redo(self) -> bool:
        return bool(self._redo)

    def undo(self) -> None:
        """Take back the last data edit (paint, erase, drag, clear all, import)."""
        if self._undo and not self.sink.closed:
            self._redo.append(self._state())
            self._restore(self._undo.pop())
            self.sink.announce(TrainingPart.UNDO)

    def redo(self) -> None:
        if self._redo and not self.sink.closed:
            self._undo.append(self._state())
            self._restore(self._redo.pop())
            self.sink.announce(TrainingPart.UNDO)

    def _restore(self, state) -> None:
        """Bring back (dataset, config): generated data from its settings, edited data with the same classes on
        the same weights, anything else as a new network on exactly that data."""
        dataset, config = state
        if config.points is None:
            self.sink.pause()
            self._config = copy.deepcopy(config)
            self.dataset = dataset
            self.sink.announce(TrainingPart.DATASET, dataset=dataset)
            self.sink.send(Reset(config.to_dict()))
            self.announce_config()
        elif len(dataset.y_train) == 0 or (
            self._config.points is not None and config.outputs == self._config.outputs
        ):  # edited points, same classes: the same weights go on training on them
            self._apply_data(dataset)
        else:
            self.sink.pause()
            self._config = copy.deepcopy(config)
            self.dataset = dataset
            self.sink.announce(TrainingPart.DATASET, dataset=dataset)
            self.sink.say("")
            self.sink.send(ImportData(config.to_dict(), dataset.to_dict()))
            self.announce_config()

    def _apply_data(self, dataset) -> None:
        """Show the edited data now; hand it to the trainer (no reset) when it has a training point."""
        self.dataset = dataset
        self.sink.announce(TrainingPart.DATASET, dataset=dataset)
        if len(dataset.y_train) == 0:  # the run ends here; the next painted point starts a new one
            self.sink.pause()
            self.sink.send(SetData(dataset.to_dict(), []))
            refusal = self.no_points_refusal()
            if refusal:
                self.sink.say(refusal)
            return
        points = data_edits.dataset_points(dataset)
        self._config = dataclasses.replace(
            self._config, points=points, standardize=False, classes=self._config.num_classes, columns=None
        )
        self.sink.say("")
        self.sink.send(SetData(dataset.to_dict(), points))
        self.announce_config()
