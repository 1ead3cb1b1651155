"""A training run's settings as one checked object: the data, the network, the loss, the optimizer and its
schedule, and how long to train; ``TrainingConfig.validate`` refuses a bad one with one sentence, so a session file
or the command line cannot build a trainer from it. ``SETTINGS_WITHOUT_RESET`` names the settings a running
trainer takes without starting again.
"""

from __future__ import annotations

import copy
import dataclasses
import math
from dataclasses import dataclass, field

from autograd_core.engine.tensor import Tensor
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
from autograd_core.learn.features import FeatureMLP, check_features
from autograd_core.learn.losses import LOSSES
from autograd_core.learn.nn import INITIALIZATIONS, MLP, activation_names
from autograd_core.learn.optim import (
    OPTIMIZERS,
    SCHEDULES,
    Optimizer,
    make_optimizer,
)
from autograd_core.numbers import plural

MAX_LAYERS = 8

MAX_WIDTH = 256

MAX_STEPS = 1_000_000


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
            raise ValueError(f"unknown config {plural(len(unknown), 'field')}: {', '.join(unknown)}")
        config = cls(**copy.deepcopy(d))
        config.validate()
        return config

    def validate(self) -> TrainingConfig:
        """Check every field's type and range; raise ValueError naming the first bad one."""
        check_choice("dataset", self.dataset, DATASETS)
        check_integer("samples", self.samples, 4, MAX_SAMPLES)
        check_number("noise", self.noise, 0.0, 10.0)
        check_number("test_fraction", self.test_fraction, 0.0, 0.95)
        if self.test_fraction >= 0.95:
            raise ValueError("test_fraction must be below 0.95")
        check_integer("data_seed", self.data_seed, 0, 2**32 - 1)
        if self.sklearn_seed is not None:  # ignored by the data sets scikit-learn does not make (xor, spiral, tables)
            check_integer("sklearn_seed", self.sklearn_seed, 0, 2**32 - 1)
        if not isinstance(self.standardize, bool):
            raise ValueError(f"standardize must be true or false, got {self.standardize!r}")
        if self.points is not None:
            if not isinstance(self.points, list) or not self.points:
                raise ValueError("points must be a non-empty list of [x, y, label]")
            if len(self.points) > MAX_SAMPLES:
                raise ValueError(f"points must be at most {MAX_SAMPLES:,}, got {len(self.points):,}")
            check_integer("classes", self.classes, 2, MAX_CLASSES)
            for p in self.points:
                if not (
                    isinstance(p, list | tuple)
                    and len(p) == 3
                    and all(is_number(v) and math.isfinite(v) for v in p[:2])
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
            check_integer("every layer width", width, 1, MAX_WIDTH)
        check_choice("activation", self.activation, activation_names())
        check_features(self.features)
        if self.activations is not None:
            if not isinstance(self.activations, list) or len(self.activations) != len(self.layers):
                raise ValueError(
                    f"activations must list one activation per hidden layer ({len(self.layers)}), "
                    f"got {self.activations!r}"
                )
            for name in self.activations:
                check_choice("every activation", name, activation_names())
        check_integer("classes", self.classes, 2, MAX_CLASSES)
        if self.points is None and self.dataset in TWO_CLASS_DATASETS and self.classes != 2:
            raise ValueError(f"{self.dataset} has two classes; blobs and spiral take 2 to {MAX_CLASSES}")
        if self.columns is not None:
            if self.dataset not in TABLE_DATASETS:
                raise ValueError("columns apply to iris and wine only")
            if not isinstance(self.columns, list) or len(self.columns) != 2:
                raise ValueError(f"columns must be two column numbers, got {self.columns!r}")
            for c in self.columns:
                check_integer("every column", c, 0, 12)
        check_choice("init", self.init, INITIALIZATIONS)
        check_choice("loss", self.loss, LOSSES)
        if self.num_classes > 2 and self.loss != "bce":
            raise ValueError(f"more than two classes train with cross-entropy (bce), not {self.loss}")
        check_choice("optimizer", self.optimizer, OPTIMIZERS)
        if is_number(self.lr) and self.lr <= 0.0:
            raise ValueError(f"lr must be positive, got {self.lr!r}")
        check_number("lr", self.lr, 0.0, 1e6)
        check_choice("schedule", self.schedule, SCHEDULES)
        check_integer("batch_size", self.batch_size, 0, MAX_SAMPLES)
        check_number("l1", self.l1, 0.0, 1e3)
        check_number("l2", self.l2, 0.0, 1e3)
        check_integer("steps", self.steps, 1, MAX_STEPS)
        check_integer("seed", self.seed, 0, 2**32 - 1)
        check_number("momentum", self.momentum, 0.0, 0.999999)
        if self.optimizer == "nesterov" and self.momentum == 0.0:
            raise ValueError("the nesterov optimizer needs a momentum above 0")
        if not isinstance(self.betas, list | tuple) or len(self.betas) != 2:
            raise ValueError(f"betas must be two numbers (β₁, β₂), got {self.betas!r}")
        for beta in self.betas:
            check_number("every beta", beta, 0.0, 0.999999)
        self.betas = [float(beta) for beta in self.betas]  # JSON's list, whatever came in
        check_number("alpha", self.alpha, 0.0, 0.999999)
        check_number("weight_decay", self.weight_decay, 0.0, 1e3)
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


def is_number(v) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool)


def check_choice(name: str, value, choices) -> None:
    if value not in choices or not isinstance(value, str):
        raise ValueError(f"{name} must be one of {', '.join(choices)}, got {value!r}")


def check_integer(name: str, value, lo: int, hi: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise ValueError(f"{name} must be a whole number from {lo} to {hi}, got {value!r}")


def check_number(name: str, value, lo: float, hi: float) -> None:
    if not is_number(value) or not math.isfinite(value) or not lo <= value <= hi:
        raise ValueError(f"{name} must be a number from {lo:g} to {hi:g}, got {value!r}")


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
