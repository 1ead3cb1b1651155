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
    Dataset,
)
from autograd_core.learn.features import check_finite, feature_values
from autograd_core.learn.inspection import layer_gradient_norms
from autograd_core.learn.losses import accuracy, data_loss, loss_array, penalty_array, regularization
from autograd_core.learn.optim import (
    OPTIMIZER_SETTINGS,
    learning_rate,
)
from autograd_core.learn.progress import slow_learning
from autograd_core.learn.training_config import (  # noqa: F401  (part of this module's API)
    MAX_LAYERS,
    MAX_STEPS,
    MAX_WIDTH,
    SETTINGS_WITHOUT_RESET,
    TrainingConfig,
    check_integer,
    is_number,
    micrograd_recipe,
)

# The training loss counts as diverged past this many times its starting value (itself at least 1):
# far beyond any spike of a healthy run, reached within a few steps by a learning rate that is far too large.
DIVERGENCE_FACTOR = 100.0


class TrainingStopped(RuntimeError):
    """``step()`` was called after training finished or stopped; ``str()`` says why."""


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
        if not isinstance(norms, list) or not all(v is None or is_number(v) for v in norms):
            raise ValueError(f"history grad_norms must be a list of numbers, got {norms!r}")
        check_integer("history step", d["step"], 0, 10**12)
        for key in names[1:]:
            v = d[key]
            if v is None and key in ("test_loss", "test_acc", "batch_loss"):
                continue
            if not is_number(v):
                raise ValueError(f"history {key} must be a number, got {v!r}")
        values = dict(d)
        values["grad_norms"] = [math.nan if v is None else float(v) for v in norms]
        if values["batch_loss"] is None:
            values["batch_loss"] = math.nan
        for key in names[1:]:
            if values[key] is not None:
                values[key] = float(values[key])
        return cls(**values)


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

        scores = self.model.forward_batch(inputs)
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
