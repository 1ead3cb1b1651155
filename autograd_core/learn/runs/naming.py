"""A run's name, said from what changed since the run before ("lr 0.1 → 0.01"), and the config a run keeps."""

from __future__ import annotations

import hashlib
import json

from autograd_core.learn.runs.checks import clip

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
    return clip(" ".join(text.split()), MAX_RUN_NAME)


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
