"""Training: one config object in, one step at a time out.

``Trainer`` owns the model, data, optimizer and history and advances one
update per ``step()``, so a GUI can play, pause, single-step and reset, and a
CLI can loop.  The scalar engine computes the gradient of each (mini)batch;
the metrics of the whole train and test sets come from the vectorised numpy
forward pass (same weights, ~100× cheaper), so every step reports smooth,
comparable train and test curves.

Divergence never passes silently: if the loss, a gradient or a parameter
stops being finite, or the training loss explodes (past ``DIVERGENCE_FACTOR``
times its starting value, as with Adam at a learning rate of 100, which keeps
every number finite but useless), the step is rolled back to the last good
weights, ``stopped_reason`` says what happened and when, and ``step()``
raises ``TrainingStopped`` until the settings change or ``reset()``.
"""

from __future__ import annotations

import copy
import dataclasses
import math
import random
from dataclasses import dataclass, field

import numpy as np

from autograd_core.engine.tensor import Tensor
from autograd_core.language.naming import input_name
from autograd_core.learn.data import (
    DATASETS,
    MAX_CLASSES,
    MAX_SAMPLES,
    TABLE_DATASETS,
    TWO_CLASS_DATASETS,
    Dataset,
    dataset_classes,
    dataset_from_points,
    make_dataset,
)
from autograd_core.learn.features import FeatureMLP, check_features, check_finite, feature_values
from autograd_core.learn.inspection import layer_gradient_norms
from autograd_core.learn.losses import LOSSES, accuracy, data_loss, loss_array, penalty_array, regularization
from autograd_core.learn.nn import INITIALIZATIONS, MLP, activation_names
from autograd_core.learn.optim import (
    OPTIMIZER_SETTINGS,
    OPTIMIZERS,
    SCHEDULES,
    Optimizer,
    learning_rate,
    make_optimizer,
)
from autograd_core.learn.progress import slow_learning

MAX_LAYERS = 8
MAX_WIDTH = 256
MAX_STEPS = 1_000_000
# The training loss counts as diverged past this many times its starting value (itself at least 1):
# far beyond any spike of a healthy run, reached within a few steps by a learning rate that is far too large.
DIVERGENCE_FACTOR = 100.0


class TrainingStopped(RuntimeError):
    """``step()`` was called after training finished or stopped; ``str()`` says why."""


@dataclass
class TrainingConfig:
    """Everything that defines a training run; JSON-able with ``to_dict``/``from_dict``.

    ``layers`` are the hidden layer widths (the model is ``MLP(2, layers + [1])``
    with a linear output: a logit; with ``classes`` K > 2, ``MLP(2, layers + [K])``
    and softmax cross-entropy).  ``activations``, when given, is one activation
    per hidden layer (else every hidden layer uses ``activation``).  ``columns``
    picks two columns of iris or wine (None: their first two principal
    components).  ``batch_size`` 0 means full batch.
    ``points`` (a list of ``[x, y, label]``), when given, replaces the named
    data set (painted data).  ``momentum`` (the "momentum" and "nesterov"
    optimizers), ``betas`` (adam, adamw), ``alpha`` (rmsprop) and
    ``weight_decay`` (adamw's decoupled decay) are used only by the optimizers
    named in ``optim.OPTIMIZER_SETTINGS``; the others keep torch's defaults.

    Defaults: the moons preset (``presets.PRESETS["moons"]``, equal by test),
    so the app's first Play trains: micrograd's network and initialization,
    cross-entropy, Adam at 0.05 with a cosine schedule on minibatches of 32
    and a little weight decay, 300 steps.  ``benchmarks/bench_first_play.py``:
    on moons and circles, over 3 data seeds × 3 weight seeds, every run ends
    at ≥ 98 % test accuracy (a constant rate for 200 steps ended as low as
    94 % on circles and 96 % on moons); full batch costs ~5× more per step.
    """

    dataset: str = "moons"
    samples: int = 200
    noise: float = 0.1
    test_fraction: float = 0.25
    data_seed: int = 0
    sklearn_seed: int | None = None  # moons, circles, blobs: scikit-learn's random_state itself (see make_dataset)
    standardize: bool = False
    points: list[list[float]] | None = None
    layers: list[int] = field(default_factory=lambda: [16, 16])
    activation: str = "relu"
    init: str = "uniform"
    loss: str = "bce"
    optimizer: str = "adam"
    lr: float = 0.05
    schedule: str = "cosine"
    batch_size: int = 32
    l1: float = 0.0
    l2: float = 3e-3
    steps: int = 300
    seed: int = 0
    momentum: float = 0.9
    betas: list[float] = field(default_factory=lambda: [0.9, 0.999])
    alpha: float = 0.99
    weight_decay: float = 0.01
    classes: int = 2
    activations: list[str] | None = None
    columns: list[int] | None = None
    features: list[str] | None = None  # extra inputs: expressions of x1, x2 (autograd_core.learn.features)

    @property
    def num_classes(self) -> int:
        """The classes the model tells apart: the data set's own (iris, wine: 3), else ``classes``."""
        if self.points is not None:
            return self.classes
        return dataset_classes(self.dataset, self.classes)

    @property
    def hidden_activations(self) -> list[str]:
        """One activation per hidden layer."""
        return list(self.activations) if self.activations is not None else [self.activation] * len(self.layers)

    def to_dict(self) -> dict:
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, d: dict) -> TrainingConfig:
        """Build and validate; missing fields take defaults, unknown fields or wrong types raise ValueError."""
        if not isinstance(d, dict):
            raise ValueError("the config must be an object")
        names = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(d) - names)
        if unknown:
            raise ValueError(f"unknown config field(s): {', '.join(unknown)}")
        config = cls(**copy.deepcopy(d))
        config.validate()
        return config

    def validate(self) -> TrainingConfig:
        """Check every field's type and range; raise ValueError naming the first bad one."""
        _choice("dataset", self.dataset, DATASETS)
        _integer("samples", self.samples, 4, MAX_SAMPLES)
        _number("noise", self.noise, 0.0, 10.0)
        _number("test_fraction", self.test_fraction, 0.0, 0.95)
        if self.test_fraction >= 0.95:
            raise ValueError("test_fraction must be below 0.95")
        _integer("data_seed", self.data_seed, 0, 2**32 - 1)
        if self.sklearn_seed is not None:  # ignored by the data sets scikit-learn does not make (xor, spiral, tables)
            _integer("sklearn_seed", self.sklearn_seed, 0, 2**32 - 1)
        if not isinstance(self.standardize, bool):
            raise ValueError(f"standardize must be true or false, got {self.standardize!r}")
        if self.points is not None:
            if not isinstance(self.points, list) or not self.points:
                raise ValueError("points must be a non-empty list of [x, y, label]")
            if len(self.points) > MAX_SAMPLES:
                raise ValueError(f"points must be at most {MAX_SAMPLES:,}, got {len(self.points):,}")
            _integer("classes", self.classes, 2, MAX_CLASSES)
            for p in self.points:
                if not (
                    isinstance(p, list | tuple)
                    and len(p) == 3
                    and all(_is_number(v) and math.isfinite(v) for v in p[:2])
                    and isinstance(p[2], int)
                    and not isinstance(p[2], bool)
                    and 0 <= p[2] < self.classes
                ):
                    raise ValueError(
                        f"every point must be [x, y, label] with finite x, y and a label from 0 to "
                        f"{self.classes - 1}, got {p!r}"
                    )
        if not isinstance(self.layers, list) or len(self.layers) > MAX_LAYERS:
            raise ValueError(f"layers must be a list of at most {MAX_LAYERS} hidden layer widths")
        for width in self.layers:
            _integer("every layer width", width, 1, MAX_WIDTH)
        _choice("activation", self.activation, activation_names())
        check_features(self.features)
        if self.activations is not None:
            if not isinstance(self.activations, list) or len(self.activations) != len(self.layers):
                raise ValueError(
                    f"activations must list one activation per hidden layer ({len(self.layers)}), "
                    f"got {self.activations!r}"
                )
            for name in self.activations:
                _choice("every activation", name, activation_names())
        _integer("classes", self.classes, 2, MAX_CLASSES)
        if self.points is None and self.dataset in TWO_CLASS_DATASETS and self.classes != 2:
            raise ValueError(f"{self.dataset} has two classes; blobs and spiral take 2 to {MAX_CLASSES}")
        if self.columns is not None:
            if self.dataset not in TABLE_DATASETS:
                raise ValueError("columns apply to iris and wine only")
            if not isinstance(self.columns, list) or len(self.columns) != 2:
                raise ValueError(f"columns must be two column numbers, got {self.columns!r}")
            for c in self.columns:
                _integer("every column", c, 0, 12)
        _choice("init", self.init, INITIALIZATIONS)
        _choice("loss", self.loss, LOSSES)
        if self.num_classes > 2 and self.loss != "bce":
            raise ValueError(f"more than two classes train with cross-entropy (bce), not {self.loss}")
        _choice("optimizer", self.optimizer, OPTIMIZERS)
        if _is_number(self.lr) and self.lr <= 0.0:
            raise ValueError(f"lr must be positive, got {self.lr!r}")
        _number("lr", self.lr, 0.0, 1e6)
        _choice("schedule", self.schedule, SCHEDULES)
        _integer("batch_size", self.batch_size, 0, MAX_SAMPLES)
        _number("l1", self.l1, 0.0, 1e3)
        _number("l2", self.l2, 0.0, 1e3)
        _integer("steps", self.steps, 1, MAX_STEPS)
        _integer("seed", self.seed, 0, 2**32 - 1)
        _number("momentum", self.momentum, 0.0, 0.999999)
        if self.optimizer == "nesterov" and self.momentum == 0.0:
            raise ValueError("the nesterov optimizer needs a momentum above 0")
        if not isinstance(self.betas, list | tuple) or len(self.betas) != 2:
            raise ValueError(f"betas must be two numbers (β₁, β₂), got {self.betas!r}")
        for beta in self.betas:
            _number("every beta", beta, 0.0, 0.999999)
        self.betas = [float(beta) for beta in self.betas]  # JSON's list, whatever came in
        _number("alpha", self.alpha, 0.0, 0.999999)
        _number("weight_decay", self.weight_decay, 0.0, 1e3)
        return self

    def make_optimizer(self, params: list[Tensor]) -> Optimizer:
        """The configured optimizer over ``params``, with the settings its kind uses."""
        return make_optimizer(
            self.optimizer,
            params,
            self.lr,
            self.momentum,
            betas=tuple(self.betas),
            alpha=self.alpha,
            weight_decay=self.weight_decay,
        )

    def make_data(self) -> Dataset:
        if self.points is not None:
            return dataset_from_points(
                self.points, None, self.test_fraction, self.data_seed, self.standardize, classes=self.classes
            )
        return make_dataset(
            self.dataset,
            self.samples,
            self.noise,
            self.data_seed,
            self.test_fraction,
            self.standardize,
            classes=dataset_classes(self.dataset, self.classes),
            features=self.columns,
            sklearn_seed=self.sklearn_seed,
        )

    @property
    def inputs(self) -> int:
        """The model's inputs: x1, x2 and one per input feature."""
        return 2 + len(self.features or [])

    @property
    def outputs(self) -> int:
        """The model's output units: one logit for two classes, K scores for K > 2."""
        return 1 if self.num_classes == 2 else self.num_classes

    def make_model(self) -> MLP:
        activation = self.activations if self.activations is not None else self.activation
        if self.features:  # the network's inputs are x1, x2 and the features; it takes points of the plane
            return FeatureMLP(
                self.features, [*self.layers, self.outputs], activation=activation, init=self.init, seed=self.seed
            )
        return MLP(2, [*self.layers, self.outputs], activation=activation, init=self.init, seed=self.seed)


def _is_number(v) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool)


def _choice(name: str, value, choices) -> None:
    if value not in choices or not isinstance(value, str):
        raise ValueError(f"{name} must be one of {', '.join(choices)}, got {value!r}")


def _integer(name: str, value, lo: int, hi: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise ValueError(f"{name} must be a whole number from {lo} to {hi}, got {value!r}")


def _number(name: str, value, lo: float, hi: float) -> None:
    if not _is_number(value) or not math.isfinite(value) or not lo <= value <= hi:
        raise ValueError(f"{name} must be a number from {lo:g} to {hi:g}, got {value!r}")


@dataclass
class StepMetrics:
    """What one step did.  ``step`` counts updates done (1 after the first).

    Train and test loss/accuracy are over the whole sets after the update
    (data loss only, so train and test are comparable); ``batch_loss`` is the
    objective the step minimized (batch data loss + L1/L2 penalty) before it.
    Test values are None when there is no test set.  ``grad_norms`` is the
    gradient norm of each layer's weights and biases for this step's
    objective (the gradient-flow plot), before the update.
    """

    step: int
    epoch: float
    train_loss: float
    train_acc: float
    test_loss: float | None
    test_acc: float | None
    lr: float
    batch_loss: float = math.nan
    grad_norms: list[float] = field(default_factory=list)

    def to_dict(self) -> dict:
        d = dataclasses.asdict(self)
        # JSON has no nan/inf: store them as None.
        d["grad_norms"] = [v if math.isfinite(v) else None for v in self.grad_norms]
        return {k: (None if isinstance(v, float) and not math.isfinite(v) else v) for k, v in d.items()}

    @classmethod
    def from_dict(cls, d: dict) -> StepMetrics:
        if not isinstance(d, dict):
            raise ValueError("a history entry must be an object")
        names = [f.name for f in dataclasses.fields(cls) if f.name != "grad_norms"]
        if set(d) - {"grad_norms"} != set(names):
            raise ValueError(f"a history entry must have exactly the keys {', '.join(names)} (and grad_norms)")
        norms = d.get("grad_norms", [])
        if not isinstance(norms, list) or not all(v is None or _is_number(v) for v in norms):
            raise ValueError(f"history grad_norms must be a list of numbers, got {norms!r}")
        _integer("history step", d["step"], 0, 10**12)
        for key in names[1:]:
            v = d[key]
            if v is None and key in ("test_loss", "test_acc", "batch_loss"):
                continue
            if not _is_number(v):
                raise ValueError(f"history {key} must be a number, got {v!r}")
        values = dict(d)
        values["grad_norms"] = [math.nan if v is None else float(v) for v in norms]
        if values["batch_loss"] is None:
            values["batch_loss"] = math.nan
        for key in names[1:]:
            if values[key] is not None:
                values[key] = float(values[key])
        return cls(**values)


def micrograd_recipe() -> TrainingConfig:
    """micrograd's demo (karpathy/micrograd demo.ipynb) as a config: 100 moons, MLP(2, [16, 16, 1]),
    uniform init, hinge loss + 1e-4·Σp², full batch, SGD with lr = 1 − 0.9·k/100, 100 steps."""
    return TrainingConfig(
        dataset="moons",
        samples=100,
        noise=0.1,
        test_fraction=0.0,
        layers=[16, 16],
        activation="relu",
        init="uniform",
        loss="hinge",
        optimizer="sgd",
        lr=1.0,
        schedule="linear",
        batch_size=0,
        l2=1e-4,
        steps=100,
    )


SETTINGS_WITHOUT_RESET = (
    "lr",
    "schedule",
    "l1",
    "l2",
    "batch_size",
    "optimizer",
    "momentum",
    "betas",
    "alpha",
    "weight_decay",
    "steps",
    "loss",
)


class Trainer:
    """Trains ``config.make_model()`` on ``config.make_data()`` one step at a time.

    Deterministic: the same config (and data) gives the same weights and
    history on every run.  Set ``data`` to train on a given Dataset instead
    of the config's.
    """

    def __init__(self, config: TrainingConfig | None = None, data: Dataset | None = None):
        self.config = copy.deepcopy(config or TrainingConfig()).validate()
        self.data = data if data is not None else self.config.make_data()
        self._check_data(self.data)
        self.reset()

    # ---- life cycle

    def reset(self, config: TrainingConfig | None = None) -> None:
        """Fresh weights, optimizer and history from the seed; keeps the current data.

        With a new ``config`` it rebuilds everything, data included.
        """
        if config is not None:
            config = copy.deepcopy(config).validate()
            data = config.make_data()
            if config.features:  # refused before anything changes
                for X in (data.X_train, data.X_test):
                    if len(X):
                        check_finite(config.features, X)
            self.data = data
            self.config = config
        self.model = self.config.make_model()
        self.params = self.model.parameters()
        self.param_names = [name for name, _ in self.model.named_parameters()]
        self.optimizer = self.config.make_optimizer(self.params)
        self.history: list[StepMetrics] = []
        # The metrics before the first step, once measured (the training service does): a session keeps them
        # as its history's step 0, so a reopened curve starts where the saved one did.
        self.start_metrics: StepMetrics | None = None
        self.step_count = 0
        self.stopped_reason: str | None = None
        self._loss_reference: float | None = None  # starting loss for the divergence check
        self._judged_from: tuple[int, float, list[float]] | None = None  # (step, loss, weights): slow_learning
        self._restart_batches()

    def restart_history(self) -> None:
        """A new run from the current weights (the plane was cleared): step 0, no history, a fresh optimizer."""
        self.optimizer = self.config.make_optimizer(self.params)
        self.history, self.start_metrics = [], None
        self.step_count = 0
        self.stopped_reason = None
        self._loss_reference = None
        self._judged_from = None
        self._restart_batches()

    def set_data(self, dataset: Dataset) -> None:
        """Go on training the same model on other data (e.g. points the user painted)."""
        self._check_data(dataset)
        self.data = dataset
        self._loss_reference = None
        self._judged_from = None
        self._restart_batches()

    def update_settings(self, **fields) -> None:
        """Change settings between steps without losing the weights.

        Allowed: ``SETTINGS_WITHOUT_RESET``.  A new optimizer starts with empty
        state; new settings of the same optimizer (momentum, betas...) keep it.
        After a non-finite stop, changing a setting (say a smaller lr)
        lets training go on from the last good weights.
        """
        bad = sorted(set(fields) - set(SETTINGS_WITHOUT_RESET))
        if bad:
            raise ValueError(
                f"{', '.join(bad)} cannot change during training (it changes the model or data); "
                "use reset(config) instead"
            )
        new = dataclasses.replace(self.config, **fields).validate()
        old = self.config
        self.config = new
        if new.optimizer != old.optimizer:
            self.optimizer = new.make_optimizer(self.params)
        else:
            settings = OPTIMIZER_SETTINGS[new.optimizer]
            changed = {k: getattr(new, k) for k in settings if getattr(new, k) != getattr(old, k)}
            if "betas" in changed:
                changed["betas"] = tuple(changed["betas"])
            if changed:
                self.optimizer.set_hyperparameters(**changed)
        if new.batch_size != old.batch_size:
            self._restart_batches()
        if fields:
            self.stopped_reason = None
            self._loss_reference = None
            self._judged_from = None

    @property
    def finished(self) -> bool:
        """True when all ``config.steps`` are done or training stopped on a non-finite value."""
        return self.stopped_reason is not None or self.step_count >= self.config.steps

    # ---- one step

    def step(self) -> StepMetrics:
        """One optimizer update on the next (mini)batch; returns its metrics and appends them to ``history``.

        Raises TrainingStopped if training is finished.  If this step makes
        anything non-finite, the weights stay as they were, ``stopped_reason``
        is set, and the returned metrics (not added to history) show the bad loss.
        """
        if self.stopped_reason is not None:
            raise TrainingStopped(self.stopped_reason)
        config = self.config
        if self.step_count >= config.steps:
            raise TrainingStopped(f"Training finished: all {config.steps} steps are done (raise steps to go on).")
        k = self.step_count
        if self._loss_reference is None:
            start = self.evaluate().train_loss
            self._loss_reference = max(1.0, start) if math.isfinite(start) else math.inf
            self._judged_from = (self.step_count, start, self.model.state_dict())
        lr = learning_rate(config.schedule, config.lr, k, config.steps)
        position = self.sample_position
        inputs, labels = self._next_batch()

        scores = [self.model(x) for x in inputs]
        loss = data_loss(config.loss, scores, labels)
        penalty = regularization(self.params, config.l1, config.l2)
        if penalty is not None:
            loss = loss + penalty

        saved_weights = [p.data for p in self.params]
        saved_state = self.optimizer.state_dict()  # copies of the buffers
        problem = None
        grad_norms: list[float] = []
        if not math.isfinite(loss.data):
            problem = f"the loss became {loss.data}"
        else:
            self.model.zero_grad()
            loss.backward()
            grad_norms = layer_gradient_norms(self.model)
            problem = self._non_finite("gradient", [p.grad for p in self.params])
            if problem is None:
                self.optimizer.step(lr=lr)
                problem = self._non_finite("parameter", [p.data for p in self.params])
        self.step_count += 1
        metrics = self._metrics(lr, loss.data)
        metrics.grad_norms = grad_norms
        if problem is None and not math.isfinite(metrics.train_loss):
            problem = f"the training loss became {metrics.train_loss}"
        elif problem is None and metrics.train_loss > DIVERGENCE_FACTOR * self._loss_reference:
            problem = (
                f"the training loss exploded to {metrics.train_loss:.4g}, "
                f"over {DIVERGENCE_FACTOR:g} times its starting value"
            )
        if problem is not None:
            # Roll back to the last good weights, so views keep showing a sensible state.
            for p, v in zip(self.params, saved_weights):
                p.data = v
            self.optimizer.load_state_dict(saved_state)
            self.sample_position = position
            self.step_count -= 1
            self.stopped_reason = (
                f"Training stopped at step {self.step_count + 1}: {problem} "
                f"(learning rate {lr:g} too large?); the weights are those of step {self.step_count}."
            )
            return metrics
        self.history.append(metrics)
        return metrics

    def run(self, steps: int | None = None, callback=None) -> list[StepMetrics]:
        """Step until finished (or ``steps`` more steps); ``callback(metrics)`` after each."""
        done = []
        while not self.finished and (steps is None or len(done) < steps):
            m = self.step()
            done.append(m)
            if callback is not None:
                callback(m)
        return done

    @property
    def update_unit(self) -> str:
        """What one update is called: "epoch" when it is a pass over all the training data (full batch), else
        "step"."""
        return "epoch" if self._batch_size() == len(self.data.y_train) else "step"

    def slow_learning(self) -> str | None:
        """A sentence when learning is too slow (``progress.slow_learning``), judged since the settings or the
        data last changed (or the trainer started); None while it is not, or before enough updates."""
        if self._judged_from is None or self.stopped_reason is not None:
            return None
        step, loss, weights = self._judged_from
        if not self.history or self.history[-1].step <= step:
            return None
        losses = [loss, self.history[-1].train_loss]
        return slow_learning(
            losses, weights, self.model.state_dict(), self.config.lr, self.update_unit, steps=self.step_count - step
        )

    # ---- evaluation (vectorised numpy forward, the model's current weights)

    def scores(self, X: np.ndarray) -> np.ndarray:
        """Raw scores (logits) of the rows of X."""
        return self.model.forward_array(np.asarray(X, dtype=float).reshape(-1, 2))

    def evaluate(self) -> StepMetrics:
        """Metrics of the current weights without training (e.g. before the first step)."""
        lr = learning_rate(self.config.schedule, self.config.lr, self.step_count, self.config.steps)
        return self._metrics(lr, math.nan)

    def history_columns(self) -> dict[str, list]:
        """The history as one list per metric (handy for plotting)."""
        names = [f.name for f in dataclasses.fields(StepMetrics)]
        return {name: [getattr(m, name) for m in self.history] for name in names}

    # ---- internals

    def _metrics(self, lr: float, batch_loss: float) -> StepMetrics:
        with np.errstate(all="ignore"):  # overflow shows as inf in the metrics (and stops training), not as warnings
            return self._metrics_unchecked(lr, batch_loss)

    def _metrics_unchecked(self, lr: float, batch_loss: float) -> StepMetrics:
        data, loss = self.data, self.config.loss
        weights = self.model.weight_arrays()
        s_train = self.model.forward_array(data.X_train, weights)
        test_loss = test_acc = None
        if len(data.y_test):
            s_test = self.model.forward_array(data.X_test, weights)
            test_loss, test_acc = loss_array(loss, s_test, data.y_test), accuracy(s_test, data.y_test)
        batch = self._batch_size()
        return StepMetrics(
            step=self.step_count,
            epoch=self.step_count * batch / len(data.y_train),
            train_loss=loss_array(loss, s_train, data.y_train),
            train_acc=accuracy(s_train, data.y_train),
            test_loss=test_loss,
            test_acc=test_acc,
            lr=lr,
            batch_loss=batch_loss,
        )

    def penalty(self) -> float:
        """The current L1 + L2 penalty of the weights."""
        return penalty_array(self.model.state_dict(), self.config.l1, self.config.l2)

    def _non_finite(self, what: str, values: list[float]) -> str | None:
        if all(map(math.isfinite, values)):
            return None
        for name, v in zip(self.param_names, values):
            if not math.isfinite(v):
                return f"the {what} of {name} became {v}"
        return None

    def _check_data(self, data: Dataset) -> None:
        if not isinstance(data, Dataset):
            raise ValueError("data must be a Dataset")
        if data.X_train.ndim != 2 or data.X_train.shape[1] != 2 or len(data.y_train) < 1:
            raise ValueError("data needs at least one training point with two features")
        if self.config.features:
            for X in (data.X_train, data.X_test):
                if len(X):
                    check_finite(self.config.features, X)
        k = self.config.num_classes
        for y in (data.y_train, data.y_test):
            if len(y) and (int(np.min(y)) < 0 or int(np.max(y)) >= k):
                raise ValueError(f"data has a label outside the model's {k} classes (0 to {k - 1})")
        if len(data.X_train) != len(data.y_train) or len(data.X_test) != len(data.y_test):
            raise ValueError("data has a different number of points and labels")

    def _batch_size(self) -> int:
        n = len(self.data.y_train)
        b = self.config.batch_size
        return n if b <= 0 or b >= n else b

    def _restart_batches(self) -> None:
        """Input leaves for every training point (made once) and the batch stream back at its start."""
        self._inputs = [
            [Tensor(a, label=input_name(0), kind="input"), Tensor(b, label=input_name(1), kind="input")]
            for a, b in self.data.X_train.tolist()
        ]
        features = self.config.features
        if features:  # computed once per data set: each point's features are input leaves too
            extra = feature_values(features, self.data.X_train).tolist()
            for leaves, row in zip(self._inputs, extra):
                leaves.extend(Tensor(v, label=f, kind="input") for f, v in zip(features, row))
        self._labels = [int(v) for v in self.data.y_train]
        self.sample_position = 0
        self._order_epoch, self._order = -1, []

    def _epoch_order(self, epoch: int) -> list[int]:
        """Epoch ``epoch``'s shuffle of the training points: a pure function of (seed, epoch).

        So the batch stream is fixed by the seed and one number, ``sample_position``
        (samples drawn so far), which sessions save to resume exactly.
        """
        if epoch != self._order_epoch:
            order = list(range(len(self._labels)))
            random.Random(f"batches:{self.config.seed}:{epoch}").shuffle(order)
            self._order_epoch, self._order = epoch, order
        return self._order

    def _next_batch(self) -> tuple[list[list[Tensor]], list[int]]:
        n, b = len(self._labels), self._batch_size()
        if b == n:
            return self._inputs, self._labels
        idx: list[int] = []
        while len(idx) < b:  # a batch may run over the end of an epoch into the next one
            epoch, j = divmod(self.sample_position, n)
            take = min(b - len(idx), n - j)
            idx.extend(self._epoch_order(epoch)[j : j + take])
            self.sample_position += take
        return [self._inputs[i] for i in idx], [self._labels[i] for i in idx]
