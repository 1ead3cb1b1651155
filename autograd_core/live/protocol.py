"""The typed protocol between the GUI and the training process: one ``Start``, then commands in, replies out.

Every message is a small dataclass pickled across the pipe, so both sides
name what they mean (``Step(count=1)``, not ``("step", 1)``) and a typo is an
error, not a silently ignored tuple.  The GUI numbers its commands (``seq``);
each snapshot says the last number the training process had handled, so the
GUI knows when a picture shows everything it asked for, and which commands a
restarted process must be sent again.

No Qt here: the training process imports this module.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from autograd_core.learn.regions import RegionGrid
from autograd_core.learn.training import StepMetrics
from autograd_core.session import SessionData

# ------------------------------------------------------------------ the first message


@dataclass
class Start:
    """How a training process begins: a fresh trainer from ``config``, or one in the saved state ``session``.

    After a crash the GUI sends the last good state it received (weights,
    optimizer state, data, history) with the engine's own state (generation,
    last command handled, playing or not, speed, picked weight), so the new
    process goes on where the old one stopped.
    """

    config: dict | None = None
    data: dict | None = None  # with ``config``: train on this Dataset (``to_dict``), e.g. painted points
    session: SessionData | None = None
    min_interval: float = 0.05  # seconds between snapshots while training runs
    generation: int = 0
    seq: int = 0
    running: bool = False
    delay: float = 0.0
    slice_spec: tuple | None = None
    start_metrics: StepMetrics | None = None
    # With a regression ``config`` ({"task": "regression", ...}): (flat weights, step, history, optimizer state)
    # of the last good snapshot, so a restarted process goes on from there.
    regression_state: tuple | None = None
    # The learner's own ops (``workshop.save_definitions()``), defined in the process before its trainer is made,
    # so a network can take one as its activation.
    custom_ops: list | None = None


# ------------------------------------------------------------------ commands


@dataclass(frozen=True, kw_only=True)
class Command:
    """A request to the training process; ``seq`` is set by the sender (1, 2, 3, …)."""

    seq: int = 0


@dataclass(frozen=True)
class Play(Command):
    """Train continuously (at the speed ``SetDelay`` allows) until paused, finished or stopped."""


@dataclass(frozen=True)
class Pause(Command):
    """Stop training after the current step; forget requested single steps."""


@dataclass(frozen=True)
class Step(Command):
    """Pause, then do exactly ``count`` updates."""

    count: int = 1


@dataclass(frozen=True)
class SetDelay(Command):
    """Wait ``seconds`` between steps while playing (0: as fast as the engine goes)."""

    seconds: float = 0.0


@dataclass(frozen=True)
class UpdateSettings(Command):
    """Change settings that keep the weights (``autograd_core.learn.training.SETTINGS_WITHOUT_RESET``)."""

    fields: dict


@dataclass(frozen=True)
class Reset(Command):
    """Fresh weights from the seed; with ``config`` (a ``TrainingConfig.to_dict()``) a new network and data too."""

    config: dict | None = None


@dataclass(frozen=True)
class DefineOps(Command):
    """The learner's ops (``workshop.save_definitions()``) as they are now: the process defines the new ones, so a
    network can take an op defined after the process started as its activation."""

    definitions: list


@dataclass(frozen=True)
class SetData(Command):
    """Go on training the same weights on edited (painted) data: ``Dataset.to_dict()`` and its [x, y, label] rows."""

    dataset: dict
    points: list


@dataclass(frozen=True)
class ImportData(Command):
    """A new network (``config``, a ``TrainingConfig.to_dict()``) trained on exactly this data (``Dataset.to_dict()``,
    its split kept): imported files, and undoing or redoing an edit that changed the number of classes."""

    config: dict
    dataset: dict


@dataclass(frozen=True)
class PickSlice(Command):
    """Compute the loss slice of weight (layer, neuron, source) while it changes; None stops it."""

    spec: tuple | None = None


@dataclass(frozen=True)
class ComputeLandscape(Command):
    """Reply (in the next snapshot's ``landscape``) with the loss landscape around the current weights.

    ``mode`` "random" (two filter-normalized directions from ``seed``) or "pca"
    (the training path's principal directions); see ``autograd_core.lab.landscape``.
    """

    resolution: int = 41
    span: float = 1.0
    seed: int = 0
    mode: str = "random"


@dataclass(frozen=True)
class Load(Command):
    """Continue from a loaded session (paused)."""

    session: SessionData


@dataclass(frozen=True)
class LoadRegression(Command):
    """Continue a regression from ``RegressionRun.state_dict()`` (a session), paused."""

    state: dict


@dataclass(frozen=True)
class Export(Command):
    """Reply with ``Exported(request, session document)`` of the trainer as it is now."""

    request: int


@dataclass(frozen=True)
class Stop(Command):
    """End the training process."""


# ------------------------------------------------------------------ replies


@dataclass(frozen=True)
class TrainerState:
    """What a restarted process needs besides the snapshot's weights, the data and the history."""

    config: dict | None  # None: unchanged since the previous snapshot (painted points make it large)
    optimizer_state: dict | None
    step: int
    sample_position: int
    stopped_reason: str | None


@dataclass(frozen=True)
class Snapshot:
    """Everything the GUI draws, copied out of the trainer in the training process; frozen, so no view or
    controller changes one another reads (a merge or an edit makes a new one with ``dataclasses.replace``)."""

    generation: int  # increases whenever the trainer is rebuilt (new network, new data, reset, session)
    seq: int = 0  # the last command the training process had handled when it made this snapshot
    metrics: list = field(default_factory=list)  # StepMetrics since the previous snapshot
    history: list | None = None  # the whole history, sent once per generation (later metrics add to it)
    start: StepMetrics | None = None  # sent with the history: the metrics before the first step, when known
    last: StepMetrics | None = None  # the most recent StepMetrics (or the initial evaluation)
    diverged: StepMetrics | None = None  # the step that diverged and was rolled back (training stopped on it)
    slow: str | None = None  # "learning is slow: …" (Trainer.slow_learning) while it holds, else None
    weights: list = field(default_factory=list)  # [(W (nout×nin), b)] per layer
    grads: list = field(default_factory=list)  # same shapes: gradients of the last backward pass
    grid: RegionGrid | None = None  # the decision regions on the service's grid, its extent the map's
    dataset: object | None = None  # sent when it changed, else None
    sizes: tuple[int, ...] = ()  # (inputs, hidden..., outputs)
    activation: str = ""
    activations: tuple[str, ...] = ()  # one per hidden layer (``activation`` is the first's)
    running: bool = False
    finished: bool = False
    stopped_reason: str | None = None
    error: str | None = None
    steps_per_second: float = 0.0
    delay: float = 0.0
    loss_slice: object | None = None  # autograd_core.learn.inspection.LossSlice of the picked weight, when recomputed
    slice_spec: tuple | None = None  # (layer, neuron, source) picked (source None: the bias)
    state: TrainerState | None = None
    classes: int = 2  # the classes the model tells apart
    # The predicted class of every train and test point (uint8, the dataset's order): the confusion matrix
    # and the points behind each of its cells.
    predicted_train: np.ndarray | None = None
    predicted_test: np.ndarray | None = None
    # The regression task (``autograd_core.learn.regression.RegressionView``): points, the model's curve and each
    # last-hidden unit's contribution.  Regression snapshots carry no grid, dataset or predicted classes.
    regression: object | None = None
    features: tuple[str, ...] = ()  # the extra inputs after x1, x2 (expressions; autograd_core.learn.features)
    landscape: object | None = None  # autograd_core.lab.landscape.Landscape, in answer to ComputeLandscape


@dataclass
class Exported:
    """The answer to ``Export``: a session document (``autograd_core.session.session_dict``)."""

    request: int
    document: dict
