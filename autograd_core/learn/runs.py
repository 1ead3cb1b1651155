"""Run history: every training run from a fresh start (Reset, or a change that restarts training) to the next.

The app keeps the last ``MAX_RUNS`` runs so a learner can compare them (a
table, ghost curves, a small picture of each final decision boundary) and a
session file keeps them too.  A run is small on purpose: its curves are
thinned to ``CURVE_POINTS`` points by the rule sessions use for long
histories (``even_picks``), its picture is at most 64×64 cells and 300
points, and painted points in its config are kept as a count and a digest,
not the points themselves (the session holds the data once).

Everything read from a file is checked before it is built (``Run.from_dict``,
``RunHistory.from_list``): counts first, then types and ranges; anything
wrong is a ``ValueError`` with a sentence.  No Qt here.
"""

from __future__ import annotations

import dataclasses
import hashlib
import itertools
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from types import SimpleNamespace

import numpy as np

from autograd_core.learn.data import MAX_CLASSES
from autograd_core.learn.regions import RegionGrid
from autograd_core.learn.regression import regression_config_from_dict
from autograd_core.learn.training import TrainingConfig

MAX_RUNS = 50
CURVE_POINTS = 2_000
CURVES = ("step", "train_loss", "test_loss", "train_acc", "test_acc")
REGRESSION_CURVES = ("step", "train_loss", "test_loss", "train_r2", "test_r2")
TASKS = ("classification", "regression")
MAX_NAME = 80
MAX_NOTE = 2_000
MAX_PICTURE_SIZE = 64  # cells per side of a "classes" picture
MAX_PICTURE_POINTS = 300
MAX_FIT_POINTS = 200
MAX_STEPS = 10**12
MAX_ID = 10**9
# A run's config is a flat object of settings; these bound a hostile one.
MAX_CONFIG_KEYS = 64
MAX_CONFIG_TEXT = 400
MAX_CONFIG_LIST = 64
RUN_KEYS = ("id", "name", "task", "config", "curves", "steps", "seconds", "picture", "note", "pinned")


def even_picks(length: int, keep: int) -> list[int]:
    """Indices of at most ``keep`` evenly spaced items of ``length``, first and last kept (the one thinning rule)."""
    if length <= keep:
        return list(range(length))
    if keep <= 1:
        return [length - 1] if keep == 1 else []
    last = length - 1
    return sorted({round(i * last / (keep - 1)) for i in range(keep)})


def curve_names(task: str) -> tuple[str, ...]:
    """The curves a run of ``task`` keeps: accuracy for classification, R² for regression."""
    return REGRESSION_CURVES if task == "regression" else CURVES


# ------------------------------------------------------------------ pictures


@dataclass
class RunPicture:
    """A small picture of a run's final decision regions ("classes") or of its fitted curve ("fit")."""

    kind: str
    extent: tuple[float, float, float, float]
    size: int = 0
    labels: list[int] = field(default_factory=list)
    confidence: list[int] = field(default_factory=list)
    points: list[list[float]] = field(default_factory=list)
    curve: list[list[float]] = field(default_factory=list)

    def to_dict(self) -> dict:
        return {  # not dataclasses.asdict: it deep-copies every cell and point, 10× slower
            "kind": self.kind,
            "extent": list(self.extent),
            "size": self.size,
            "labels": list(self.labels),
            "confidence": list(self.confidence),
            "points": [list(p) for p in self.points],
            "curve": [list(p) for p in self.curve],
        }

    @classmethod
    def from_dict(cls, d) -> RunPicture:
        """Checked like a file: counts before contents; ValueError with a sentence."""
        if not isinstance(d, dict):
            raise ValueError("a run's picture must be an object")
        unknown = sorted(set(d) - {f.name for f in dataclasses.fields(cls)})
        if unknown:
            raise ValueError(f"a run's picture has unknown field(s) {', '.join(map(str, unknown))[:200]}")
        kind = d.get("kind")
        if kind not in ("classes", "fit"):
            raise ValueError(f"a run's picture kind must be classes or fit, got {_short(kind)}")
        extent = d.get("extent")
        if not isinstance(extent, list) or len(extent) != 4 or not all(_finite(v) for v in extent):
            raise ValueError("a run's picture extent must be four finite numbers x0, x1, y0, y1")
        x0, x1, y0, y1 = (float(v) for v in extent)
        if not (x0 < x1 and y0 < y1):
            raise ValueError("a run's picture extent must have x0 < x1 and y0 < y1")
        size = d.get("size", 0)
        if not _whole(size) or not 0 <= size <= MAX_PICTURE_SIZE:
            raise ValueError(f"a run's picture size must be a whole number from 0 to {MAX_PICTURE_SIZE}")
        labels, confidence = d.get("labels", []), d.get("confidence", [])
        points, curve = d.get("points", []), d.get("curve", [])
        for name, value, most in (
            ("labels", labels, size * size),
            ("confidence", confidence, size * size),
            ("points", points, MAX_PICTURE_POINTS),
            ("curve", curve, MAX_FIT_POINTS),
        ):
            if not isinstance(value, list) or len(value) > most:
                raise ValueError(f"a run's picture {name} must be a list of at most {most:,} items")
        if kind == "classes":
            cells = size * size
            if len(labels) != cells or len(confidence) != cells:
                raise ValueError(f"a run's picture of {size}×{size} cells needs {cells:,} labels and confidences")
            if not _whole_numbers(labels, 0, MAX_CLASSES - 1):
                raise ValueError(f"a run's picture labels must be classes from 0 to {MAX_CLASSES - 1}")
            if not _whole_numbers(confidence, 0, 100):
                raise ValueError("a run's picture confidences must be whole percentages from 0 to 100")
            if curve:
                raise ValueError("a run's picture of classes has no curve")
            if not all(_is_point(p, 3) and _whole(p[2]) and 0 <= p[2] < MAX_CLASSES for p in points):
                raise ValueError("a run's picture points must be [x, y, class] with finite x, y")
        else:
            if size or labels or confidence:
                raise ValueError("a run's picture of a fit has no cells")
            if not all(_is_point(p, 2) for p in points) or not all(_is_point(p, 2) for p in curve):
                raise ValueError("a run's picture of a fit holds [x, y] points with finite x, y")
        return cls(
            kind,
            (x0, x1, y0, y1),
            size,
            list(labels),
            list(confidence),
            [[float(p[0]), float(p[1]), *([int(p[2])] if kind == "classes" else [])] for p in points],
            [[float(x), float(y)] for x, y in curve],
        )

    def nbytes(self) -> int:
        # small ints are shared by Python: a list slot each; a point is a list of two or three floats
        return 400 + 8 * (len(self.labels) + len(self.confidence)) + 140 * (len(self.points) + len(self.curve))


def _sample_points(points_xy, labels=None) -> list[list[float]]:
    xy = np.asarray(points_xy, dtype=float).reshape(-1, 2)
    keep = [i for i in even_picks(len(xy), MAX_PICTURE_POINTS) if np.isfinite(xy[i]).all()]
    if labels is None:
        return [[float(xy[i, 0]), float(xy[i, 1])] for i in keep]
    labels = np.asarray(labels).reshape(-1)
    return [[float(xy[i, 0]), float(xy[i, 1]), int(labels[i])] for i in keep]


def picture_from_grid(grid: RegionGrid, points_xy, labels, size: int = 40) -> RunPicture:
    """A ``size``×``size`` picture of a snapshot's regions: each cell is the grid point nearest to it.

    Two classes: the label is P(class 1) > 0.5 and the confidence max(p, 1 − p);
    K classes: the grid's winner and its probability.
    """
    if not 1 <= size <= MAX_PICTURE_SIZE:
        raise ValueError(f"a run's picture is 1 to {MAX_PICTURE_SIZE} cells a side, got {size}")
    prob = np.nan_to_num(np.asarray(grid.probability, dtype=float), nan=0.5)
    ny, nx = prob.shape
    iy = np.rint(np.linspace(0, ny - 1, size)).astype(int)
    ix = np.rint(np.linspace(0, nx - 1, size)).astype(int)
    p = prob[np.ix_(iy, ix)]
    if grid.classes > 2:
        cells = np.asarray(grid.winner)[np.ix_(iy, ix)].astype(int)
        confidence = p
    else:
        cells = (p > 0.5).astype(int)
        confidence = np.maximum(p, 1.0 - p)
    percent = np.clip(np.rint(100 * confidence), 0, 100).astype(int)
    return RunPicture(
        "classes",
        tuple(float(v) for v in grid.extent),
        size,
        cells.ravel().tolist(),
        percent.ravel().tolist(),
        _sample_points(points_xy, labels),
        [],
    )


def picture_from_fit(xs, ys, points_xy) -> RunPicture:
    """A regression's picture: the model's curve (≤ 200 points) over up to 300 data points."""
    xs, ys = np.asarray(xs, dtype=float).reshape(-1), np.asarray(ys, dtype=float).reshape(-1)
    curve = [
        [float(xs[i]), float(ys[i])] for i in even_picks(len(xs), MAX_FIT_POINTS) if np.isfinite([xs[i], ys[i]]).all()
    ]
    points = _sample_points(points_xy)
    every = np.array(curve + points, dtype=float).reshape(-1, 2)
    if len(every):
        (x0, y0), (x1, y1) = every.min(axis=0), every.max(axis=0)
    else:
        x0 = y0 = -1.0
        x1 = y1 = 1.0
    pad_x, pad_y = max(x1 - x0, 1e-3) * 0.05, max(y1 - y0, 1e-3) * 0.05
    extent = (float(x0 - pad_x), float(x1 + pad_x), float(y0 - pad_y), float(y1 + pad_y))
    return RunPicture("fit", extent, 0, [], [], points, curve)


# ------------------------------------------------------------------ runs


@dataclass
class Run:
    """One training run: what it was (config, name, note) and how it went (curves, final picture)."""

    id: int
    name: str
    task: str
    config: dict
    curves: dict[str, list]
    steps: int = 0
    seconds: float = 0.0
    picture: RunPicture | None = None
    note: str = ""
    pinned: bool = False

    def final(self, metric: str) -> float | None:
        """The metric at the run's last recorded step (None: no test set, not finite, or no steps)."""
        values = self.curves.get(metric) or [None]
        return values[-1]

    def best(self, metric: str) -> float | None:
        """The lowest loss, or the highest accuracy / R², over the run; None when it has none."""
        values = [v for v in self.curves.get(metric, []) if v is not None]
        if not values:
            return None
        return min(values) if metric.endswith("loss") else max(values)

    def to_dict(self) -> dict:
        return {
            "id": self.id,
            "name": self.name,
            "task": self.task,
            "config": json.loads(json.dumps(self.config)),
            "curves": {k: list(v) for k, v in self.curves.items()},
            "steps": self.steps,
            "seconds": self.seconds,
            "picture": None if self.picture is None else self.picture.to_dict(),
            "note": self.note,
            "pinned": self.pinned,
        }

    @classmethod
    def from_dict(cls, d) -> Run:
        """A run read from a file, every field checked (counts before contents); ValueError with a sentence."""
        if not isinstance(d, dict):
            raise ValueError("a run must be an object")
        unknown = sorted(str(k) for k in set(d) - set(RUN_KEYS))
        if unknown:
            raise ValueError(f"a run has unknown field(s) {_clip(', '.join(unknown), 200)}")
        missing = [k for k in ("id", "name", "task", "config", "curves") if k not in d]
        if missing:
            raise ValueError(f"a run lacks the field(s) {', '.join(missing)}")
        run_id = d["id"]
        if not _whole(run_id) or not 1 <= run_id <= MAX_ID:
            raise ValueError(f"a run's id must be a whole number from 1 to {MAX_ID:,}, got {_short(run_id)}")
        where = f"run {run_id}"
        name, note = d["name"], d.get("note", "")
        if not isinstance(name, str) or not name.strip() or len(name) > MAX_NAME:
            raise ValueError(f"{where}'s name must be text of 1 to {MAX_NAME} characters")
        if not isinstance(note, str) or len(note) > MAX_NOTE:
            raise ValueError(f"{where}'s note must be text of at most {MAX_NOTE:,} characters")
        task = d["task"]
        if task not in TASKS:
            raise ValueError(f"{where}'s task must be classification or regression, got {_short(task)}")
        steps, seconds, pinned = d.get("steps", 0), d.get("seconds", 0.0), d.get("pinned", False)
        if not _whole(steps) or not 0 <= steps <= MAX_STEPS:
            raise ValueError(f"{where}'s steps must be a whole number ≥ 0, got {_short(steps)}")
        if not _finite(seconds) or seconds < 0:
            raise ValueError(f"{where}'s seconds must be a finite number ≥ 0, got {_short(seconds)}")
        if not isinstance(pinned, bool):
            raise ValueError(f"{where}'s pinned must be true or false")
        try:
            config = _checked_config(d["config"], task)
            curves = _checked_curves(d["curves"], task)
            picture = None if d.get("picture") is None else RunPicture.from_dict(d["picture"])
        except ValueError as exc:
            raise ValueError(f"{where}: {exc}") from None
        return cls(run_id, name, task, config, curves, steps, float(seconds), picture, note, pinned)

    def nbytes(self) -> int:
        """About the memory this run holds (a float in a list is ~32 bytes; a config ~3 KB)."""
        values = sum(len(v) for v in self.curves.values())
        picture = self.picture.nbytes() if self.picture is not None else 0
        return 1_500 + 3_000 + 32 * values + picture + len(self.name) + len(self.note)


def _checked_config(config, task: str) -> dict:
    """A run's config: a bounded flat object that the task's config class accepts."""
    if not isinstance(config, dict) or len(config) > MAX_CONFIG_KEYS:
        raise ValueError(f"its config must be an object of at most {MAX_CONFIG_KEYS} settings")
    for key, value in config.items():
        if not isinstance(key, str) or len(key) > 40:
            raise ValueError("its config's setting names must be short text")
        items = value if isinstance(value, list) else [value]
        if len(items) > MAX_CONFIG_LIST or not all(_config_scalar(v) for v in items):
            raise ValueError(f"its config setting {key!r} must be a number, text, true/false, null or a short list")
    try:
        if task == "regression":
            regression_config_from_dict(config)
        else:
            stand_in = None if config.get("points") is None else [[0.0, 0.0, 0]]  # the summary stands for points
            TrainingConfig.from_dict({**config, "points": stand_in})
    except (ValueError, TypeError, SyntaxError) as exc:
        raise ValueError(f"bad config: {_clip(str(exc), 200)}") from None
    if config.get("points") is not None and not isinstance(config["points"], str):
        raise ValueError("its config keeps painted points as a summary text")
    return json.loads(json.dumps(config))


def _config_scalar(v) -> bool:
    if isinstance(v, str):
        return len(v) <= MAX_CONFIG_TEXT
    return v is None or isinstance(v, bool) or (isinstance(v, int) and abs(v) < 2**63) or _finite(v)


def _checked_curves(curves, task: str) -> dict[str, list]:
    names = curve_names(task)
    if not isinstance(curves, dict) or set(curves) != set(names):
        raise ValueError(f"its curves must be exactly {', '.join(names)}")
    for name in names:
        if not isinstance(curves[name], list) or len(curves[name]) > CURVE_POINTS:
            raise ValueError(f"its curve {name} must be a list of at most {CURVE_POINTS:,} values")
    lengths = {len(curves[n]) for n in names}
    if len(lengths) != 1:
        raise ValueError("its curves must all have the same length")
    steps = curves["step"]
    if not _whole_numbers(steps, 0, MAX_STEPS):
        raise ValueError("its curve step must hold whole numbers ≥ 0")
    if any(b < a for a, b in itertools.pairwise(steps)):
        raise ValueError("its curve step must not go down")
    checked = {"step": list(steps)}
    for name in names[1:]:
        checked[name] = _finite_or_none(curves[name])
        if checked[name] is None:
            raise ValueError(f"its curve {name} must hold finite numbers or null")
    return checked


def _whole_numbers(values: list, lo: int, hi: int) -> bool:
    """Every item an int (not a bool) in [lo, hi]; by types and min/max, so 100,000 values cost ~2 ms."""
    return not values or (set(map(type, values)) == {int} and lo <= min(values) and max(values) <= hi)


def _finite_or_none(values: list) -> list | None:
    """A copy of ``values`` as floats and None, or None if any is something else or not finite."""
    kinds = set(map(type, values))
    if not kinds <= {float, int, type(None)}:
        return None
    numbers = [v for v in values if v is not None] if type(None) in kinds else values
    try:
        if numbers and not np.isfinite(np.array(numbers, dtype=float)).all():
            return None
    except OverflowError:  # an int beyond any float
        return None
    return [float(v) if type(v) is int else v for v in values] if int in kinds else list(values)


# ------------------------------------------------------------------ naming


def _num(v) -> str:
    return f"{v:g}" if isinstance(v, int | float) and not isinstance(v, bool) else str(v)


def _widths(v) -> str:
    return "-".join(map(str, v)) if v else "none"


def _joined(v) -> str:
    return ",".join(map(_num, v)) if isinstance(v, list) else str(v)


def _point_count(points) -> str:
    """Painted points as a run keeps them ("150 points #1a2b3c4d") or as a config holds them (a list)."""
    return f"{len(points)} points" if isinstance(points, list) else str(points).split(" #")[0]


def _percent(v) -> str:
    return f"{100 * v:g}%" if isinstance(v, int | float) else str(v)


# setting → (short text of the new value, long text of the change from old to new); the order is the order shown
_NAMING = {
    "task": (lambda v: v, lambda a, b: b),
    "dataset": (lambda v: v, lambda a, b: f"data set {b}"),
    "target": (lambda v: f"target {v}", lambda a, b: f"target {b}"),
    "points": (
        lambda v: "new data" if v else "no points",
        lambda a, b: f"new data, {_point_count(b)}" if b else "no points",
    ),
    "classes": (lambda v: f"{v} classes", lambda a, b: f"{b} classes"),
    "columns": (
        lambda v: f"columns {_joined(v)}" if v else "PCA",
        lambda a, b: f"columns {_joined(b)}" if b else "PCA",
    ),
    "features": (
        lambda v: f"+{_joined(v)}" if v else "no features",
        lambda a, b: f"features {_joined(b)}" if b else "no features",
    ),
    "samples": (lambda v: f"{v} samples", lambda a, b: f"{b} samples"),
    "noise": (lambda v: f"noise {_num(v)}", lambda a, b: f"noise {_num(b)}"),
    "x_min": (lambda v: f"x from {_num(v)}", lambda a, b: f"x from {_num(b)}"),
    "x_max": (lambda v: f"x to {_num(v)}", lambda a, b: f"x to {_num(b)}"),
    "test_fraction": (lambda v: f"test {_percent(v)}", lambda a, b: f"test share {_percent(b)}"),
    "data_seed": (lambda v: f"data seed {v}", lambda a, b: f"data seed {b}"),
    "sklearn_seed": (lambda v: f"sklearn seed {v}", lambda a, b: f"sklearn seed {b}"),
    "standardize": (
        lambda v: "standardized" if v else "raw inputs",
        lambda a, b: "standardized" if b else "raw inputs",
    ),
    "layers": (lambda v: f"layers {_widths(v)}", lambda a, b: f"layers {_widths(a)} → {_widths(b)}"),
    "activation": (lambda v: v, lambda a, b: f"activation {b}"),
    "activations": (lambda v: _widths(v) if v else "one activation", lambda a, b: f"activations {_widths(b)}"),
    "init": (lambda v: f"{v} init", lambda a, b: f"init {b}"),
    "seed": (lambda v: f"seed {v}", lambda a, b: f"seed {b}"),
    "loss": (lambda v: f"{v} loss", lambda a, b: f"loss {b}"),
    "huber_delta": (lambda v: f"δ {_num(v)}", lambda a, b: f"huber δ {_num(b)}"),
    "optimizer": (lambda v: v, lambda a, b: f"optimizer {b}"),
    "lr": (lambda v: f"lr {_num(v)}", lambda a, b: f"lr {_num(b)}"),
    "schedule": (lambda v: v, lambda a, b: f"schedule {b}"),
    "momentum": (lambda v: f"momentum {_num(v)}", lambda a, b: f"momentum {_num(b)}"),
    "betas": (lambda v: f"betas {_joined(v)}", lambda a, b: f"betas {_joined(b)}"),
    "alpha": (lambda v: f"α {_num(v)}", lambda a, b: f"alpha {_num(b)}"),
    "weight_decay": (lambda v: f"decay {_num(v)}", lambda a, b: f"weight decay {_num(b)}"),
    "batch_size": (
        lambda v: "full batch" if v == 0 else f"batch {v}",
        lambda a, b: "full batch" if b == 0 else f"batch {b}",
    ),
    "l1": (lambda v: f"L1 {_num(v)}", lambda a, b: f"L1 {_num(b)}"),
    "l2": (lambda v: f"L2 {_num(v)}", lambda a, b: f"L2 {_num(b)}"),
    "steps": (lambda v: f"{v} steps", lambda a, b: f"{b} steps"),
}
# the order a name lists changes in: what a learner changes most first
_ORDER = (
    "task", "dataset", "target", "points", "lr", "batch_size", "layers", "activation", "activations", "optimizer",
    "schedule", "momentum", "betas", "alpha", "weight_decay", "l1", "l2", "loss", "huber_delta", "init", "seed",
    "steps", "classes", "columns", "features", "samples", "noise", "x_min", "x_max", "test_fraction", "data_seed",
    "sklearn_seed", "standardize",
)  # fmt: skip
_NAMING = {key: _NAMING[key] for key in _ORDER}
MAX_RUN_NAME = 40  # what describe_change writes; a name typed by the user may be up to MAX_NAME


def describe_change(previous: dict | None, config: dict) -> str:
    """A run's name: what differs from the run before ("lr 0.1", "layers 16-16 → 8", "lr 0.1, tanh").

    One change is said in full, several in short; at most 40 characters.
    """
    if previous is None:
        return "first run"
    if _task(previous) != _task(config):
        changed = ["task"]
        previous, config = {"task": _task(previous)}, {"task": _task(config)}
    else:
        changed = [k for k in _NAMING if k != "task" and previous.get(k) != config.get(k)]
        changed += sorted(
            k for k in set(previous) | set(config) if k not in _NAMING and previous.get(k) != config.get(k)
        )
    if not changed:
        return "same settings"
    if len(changed) == 1:
        key = changed[0]
        text = _NAMING[key][1](previous.get(key), config.get(key)) if key in _NAMING else f"{key} {config.get(key)}"
    else:
        text = ", ".join(_NAMING[k][0](config.get(k)) if k in _NAMING else f"{k} {config.get(k)}" for k in changed)
    return _clip(" ".join(text.split()), MAX_RUN_NAME)


def _task(config: dict) -> str:
    return "regression" if config.get("task") == "regression" else "classification"


def run_config(config: dict) -> dict:
    """A copy of ``config`` fit to keep with a run: painted points become their count and a digest."""
    config = json.loads(json.dumps(config))
    points = config.get("points")
    if isinstance(points, list):
        digest = hashlib.sha1(json.dumps(points).encode()).hexdigest()[:8]
        config["points"] = f"{len(points)} points #{digest}"
    return config


# ------------------------------------------------------------------ the history


class RunHistory:
    """The runs of a session, oldest first; the last started is ``current`` (the one being trained)."""

    def __init__(self, runs: list[Run] | None = None):
        self.runs: list[Run] = list(runs or [])
        self._next_id = max((r.id for r in self.runs), default=0) + 1
        self._current: int | None = None

    @property
    def current(self) -> Run | None:
        """The run being trained: the last started, unless it was deleted (None after loading)."""
        if self._current is None:
            return None
        return next((r for r in self.runs if r.id == self._current), None)

    def start(self, config: dict, task: str) -> Run:
        """Begin a run named by what changed since the last; an empty unpinned last run is replaced."""
        if task not in TASKS:
            raise ValueError(f"a run's task is classification or regression, got {_short(task)}")
        kept = run_config(config)
        if self.runs and self.runs[-1].steps == 0 and not self.runs[-1].pinned:
            self.runs.pop()
        previous = self.runs[-1].config if self.runs else None
        run = Run(self._next_id, describe_change(previous, kept), task, kept, {n: [] for n in curve_names(task)})
        self._next_id += 1
        self.runs.append(run)
        self._current = run.id
        while len(self.runs) > MAX_RUNS:
            oldest = next((r for r in self.runs if not r.pinned and r is not run), None)
            if oldest is None:
                break
            self.runs.remove(oldest)
        return run

    def record(
        self,
        columns: dict[str, Sequence[float]],
        steps: int,
        seconds: float,
        picture: RunPicture | None = None,
    ) -> None:
        """Replace the current run's curves (thinned to CURVE_POINTS), steps, time and picture.

        ``columns`` are lists per metric (``Trainer.history_columns()``, or ``history_columns``
        with step 0); a regression's R² may come as train_acc/test_acc.  Does nothing without a
        current run (none started, or it was deleted while training).
        """
        run = self.current
        if run is None:
            return
        names = curve_names(run.task)
        if "step" not in columns:
            raise ValueError("the columns need a step column")
        length = len(columns["step"])
        picks = even_picks(length, CURVE_POINTS)
        curves = {}
        for name in names:
            column = columns.get(name)
            if column is None and name.endswith("_r2"):
                column = columns.get(name.replace("_r2", "_acc"))
            if column is None:
                curves[name] = [None] * len(picks)
                continue
            if len(column) != length:
                raise ValueError(f"the column {name} has {len(column):,} values, the step column {length:,}")
            curves[name] = [int(column[i]) for i in picks] if name == "step" else [_value(column[i]) for i in picks]
        run.curves = curves
        run.steps = max(0, int(steps))
        run.seconds = max(0.0, float(seconds)) if math.isfinite(seconds) else 0.0
        run.picture = picture

    def resume(self, run_id: int) -> Run:
        """Record into a kept run again (a session opened where that run left off: training goes on)."""
        run = self.get(run_id)
        self._current = run.id
        return run

    def get(self, run_id: int) -> Run:
        for run in self.runs:
            if run.id == run_id:
                return run
        raise KeyError(f"no run {run_id}")

    def rename(self, run_id: int, name: str) -> None:
        """A name typed by the user: one line, clipped to MAX_NAME characters (ValueError if blank)."""
        name = " ".join(str(name).split())
        if not name:
            raise ValueError("a run's name cannot be blank")
        self.get(run_id).name = _clip(name, MAX_NAME)

    def set_note(self, run_id: int, note: str) -> None:
        """A note typed by the user, clipped to MAX_NOTE characters."""
        self.get(run_id).note = _clip(str(note), MAX_NOTE)

    def pin(self, run_id: int, pinned: bool = True) -> None:
        """A pinned run is never dropped to make room; at most MAX_RUNS − 1 are pinned, so a new run fits."""
        run = self.get(run_id)
        if pinned and not run.pinned and sum(r.pinned for r in self.runs) >= MAX_RUNS - 1:
            raise ValueError(f"at most {MAX_RUNS - 1} runs can be pinned; unpin one first")
        run.pinned = bool(pinned)

    def delete(self, run_id: int) -> None:
        self.runs.remove(self.get(run_id))

    def to_list(self) -> list[dict]:
        return [run.to_dict() for run in self.runs]

    @classmethod
    def from_list(cls, items) -> RunHistory:
        """A history read from a file: at most MAX_RUNS runs, unique ids; ValueError with a sentence."""
        if not isinstance(items, list):
            raise ValueError("the runs must be a list")
        if len(items) > MAX_RUNS:
            raise ValueError(f"the history holds {len(items):,} runs; at most {MAX_RUNS} are kept")
        runs = [Run.from_dict(item) for item in items]
        ids = [r.id for r in runs]
        if len(set(ids)) != len(ids):
            raise ValueError("two runs have the same id")
        if sum(r.pinned for r in runs) >= MAX_RUNS:
            raise ValueError(f"at most {MAX_RUNS - 1} runs can be pinned")
        return cls(runs)

    def nbytes(self) -> int:
        """An estimate of the memory the history holds, for the memory guard (``run_cost``)."""
        return 200 + sum(run.nbytes() for run in self.runs)


# ------------------------------------------------------------------ from a trainer


def history_columns(history: Sequence, start=None) -> dict[str, list]:
    """Curves from a trainer's ``history`` (StepMetrics), with ``start`` (step 0's metrics) first when given."""
    entries = ([start] if start is not None and (not history or history[0].step > start.step) else []) + list(history)
    return {name: [getattr(m, name) for m in entries] for name in CURVES}


def first_point(run: Run | None, steps: int):
    """Step 0 of ``run`` as metrics (``step``, ``train_loss``, …), if ``run`` is the one a loaded trainer at ``steps``
    goes on from: a continued run's curves then begin at step 0 too."""
    if run is None or run.steps != steps or not run.curves["step"] or run.curves["step"][0] != 0:
        return None
    names = curve_names(run.task)
    return SimpleNamespace(**{c: run.curves[n][0] for c, n in zip(CURVES, names, strict=True)})


def record_trainer_run(runs: RunHistory, trainer, seconds: float, grid=None, start=None) -> Run:
    """Start a run for ``trainer`` (named against the last) and record its history and final picture.

    ``grid`` is the trained model's ``RegionGrid`` (``class_regions`` on ``map_extent``, both in ``learn.regions``),
    as a snapshot carries it; ``start`` the metrics before the first step, when known.
    """
    is_regression = getattr(trainer, "task", "classification") == "regression"
    config = trainer.config_dict() if is_regression else trainer.config.to_dict()
    run = runs.start(config, "regression" if is_regression else "classification")
    picture = None
    if grid is not None:
        data = trainer.data
        picture = picture_from_grid(grid, data.X_train[:, :2], data.y_train)
    elif is_regression:
        view = trainer.view()
        picture = picture_from_fit(view.xs, view.curve, np.column_stack([view.x_train, view.y_train]))
    runs.record(history_columns(trainer.history, start), trainer.step_count, seconds, picture)
    return run


# ------------------------------------------------------------------ small checks


def _whole(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _finite(v) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v)


def _value(v) -> float | None:
    if v is None or isinstance(v, bool):
        return None
    try:
        v = float(v)
    except (TypeError, ValueError):
        return None
    return v if math.isfinite(v) else None


def _is_point(p, n: int) -> bool:
    return isinstance(p, list) and len(p) == n and _finite(p[0]) and _finite(p[1])


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _short(v) -> str:
    return _clip(repr(v), 60)


__all__ = [
    "CURVES",
    "CURVE_POINTS",
    "MAX_RUNS",
    "REGRESSION_CURVES",
    "Run",
    "RunHistory",
    "RunPicture",
    "describe_change",
    "even_picks",
    "first_point",
    "history_columns",
    "picture_from_fit",
    "picture_from_grid",
    "record_trainer_run",
    "run_config",
]
