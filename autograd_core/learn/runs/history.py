"""One run (its config, curves, final picture and note) and the history of a session's runs, oldest first,
recorded from a trainer."""

from __future__ import annotations

import itertools
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from types import SimpleNamespace

import numpy as np

from autograd_core.learn.regression import regression_config_from_dict
from autograd_core.learn.runs.checks import (
    CURVE_POINTS,
    CURVES,
    MAX_CONFIG_KEYS,
    MAX_CONFIG_LIST,
    MAX_CONFIG_TEXT,
    MAX_ID,
    MAX_NAME,
    MAX_NOTE,
    MAX_RUNS,
    MAX_STEPS,
    RUN_KEYS,
    TASKS,
    clip,
    curve_names,
    even_picks,
    finite_or_none,
    finite_value,
    is_finite,
    is_whole,
    short_repr,
    whole_numbers,
)
from autograd_core.learn.runs.naming import describe_change, run_config
from autograd_core.learn.runs.pictures import RunPicture, picture_from_fit, picture_from_grid
from autograd_core.learn.training import TrainingConfig
from autograd_core.numbers import plural

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
            raise ValueError(f"a run has unknown {plural(len(unknown), 'field')} {clip(', '.join(unknown), 200)}")
        missing = [k for k in ("id", "name", "task", "config", "curves") if k not in d]
        if missing:
            raise ValueError(f"a run lacks the {plural(len(missing), 'field')} {', '.join(missing)}")
        run_id = d["id"]
        if not is_whole(run_id) or not 1 <= run_id <= MAX_ID:
            raise ValueError(f"a run's id must be a whole number from 1 to {MAX_ID:,}, got {short_repr(run_id)}")
        where = f"run {run_id}"
        name, note = d["name"], d.get("note", "")
        if not isinstance(name, str) or not name.strip() or len(name) > MAX_NAME:
            raise ValueError(f"{where}'s name must be text of 1 to {MAX_NAME} characters")
        if not isinstance(note, str) or len(note) > MAX_NOTE:
            raise ValueError(f"{where}'s note must be text of at most {MAX_NOTE:,} characters")
        task = d["task"]
        if task not in TASKS:
            raise ValueError(f"{where}'s task must be classification or regression, got {short_repr(task)}")
        steps, seconds, pinned = d.get("steps", 0), d.get("seconds", 0.0), d.get("pinned", False)
        if not is_whole(steps) or not 0 <= steps <= MAX_STEPS:
            raise ValueError(f"{where}'s steps must be a whole number ≥ 0, got {short_repr(steps)}")
        if not is_finite(seconds) or seconds < 0:
            raise ValueError(f"{where}'s seconds must be a finite number ≥ 0, got {short_repr(seconds)}")
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
        raise ValueError(f"bad config: {clip(str(exc), 200)}") from None
    if config.get("points") is not None and not isinstance(config["points"], str):
        raise ValueError("its config keeps painted points as a summary text")
    return json.loads(json.dumps(config))


def _config_scalar(v) -> bool:
    if isinstance(v, str):
        return len(v) <= MAX_CONFIG_TEXT
    return v is None or isinstance(v, bool) or (isinstance(v, int) and abs(v) < 2**63) or is_finite(v)


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
    if not whole_numbers(steps, 0, MAX_STEPS):
        raise ValueError("its curve step must hold whole numbers ≥ 0")
    if any(b < a for a, b in itertools.pairwise(steps)):
        raise ValueError("its curve step must not go down")
    checked = {"step": list(steps)}
    for name in names[1:]:
        checked[name] = finite_or_none(curves[name])
        if checked[name] is None:
            raise ValueError(f"its curve {name} must hold finite numbers or null")
    return checked


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
            raise ValueError(f"a run's task is classification or regression, got {short_repr(task)}")
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
            curves[name] = (
                [int(column[i]) for i in picks] if name == "step" else [finite_value(column[i]) for i in picks]
            )
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
        self.get(run_id).name = clip(name, MAX_NAME)

    def set_note(self, run_id: int, note: str) -> None:
        """A note typed by the user, clipped to MAX_NOTE characters."""
        self.get(run_id).note = clip(str(note), MAX_NOTE)

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
