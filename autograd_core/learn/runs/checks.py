"""A run's limits and the small checks every part of a run read from a file goes through (a hostile session
file is refused with a sentence, never built)."""

from __future__ import annotations

import math

import numpy as np

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


# ------------------------------------------------------------------ small checks


def is_whole(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def is_finite(v) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v)


def finite_value(v) -> float | None:
    if v is None or isinstance(v, bool):
        return None
    try:
        v = float(v)
    except (TypeError, ValueError):
        return None
    return v if math.isfinite(v) else None


def is_point(p, n: int) -> bool:
    return isinstance(p, list) and len(p) == n and is_finite(p[0]) and is_finite(p[1])


def clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def short_repr(v) -> str:
    return clip(repr(v), 60)


def whole_numbers(values: list, lo: int, hi: int) -> bool:
    """Every item an int (not a bool) in [lo, hi]; by types and min/max, so 100,000 values cost ~2 ms."""
    return not values or (set(map(type, values)) == {int} and lo <= min(values) and max(values) <= hi)


def finite_or_none(values: list) -> list | None:
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
