"""Saying when learning is too slow: the twin of the divergence message (``training.DIVERGENCE_FACTOR``).

A learning rate far too large makes the loss explode, and training stops
saying so.  One far too small fails quietly: the loss creeps down, the curves
look healthy, and a learner waits.  The article this project grew from is the
example: full-batch SGD at lr 0.001 for 100 epochs moves the weights about
1 % of their size and the loss from 0.700 to 0.606.

``slow_learning`` judges a run from two relative measures, taken from where
the run (or its current settings) started:

- how far the weights moved: ‖w_now − w_start‖ / ‖w_start‖;
- how much the training loss fell: (loss_start − loss_now) / loss_start.

It speaks only after ``MIN_STEPS`` updates, and only when both are small
(below ``SLOW_WEIGHT_MOVE`` and ``SLOW_LOSS_FALL``), with the figures.
The thresholds, measured with ``benchmarks/bench_slow_learning.py``: in 100
epochs the article's run at lr 0.001 moves its weights 0.5–2.0 % of their
size and its loss falls 6–24 % (weight seeds 0–2); at lr 0.1, from epoch 50
on, the weights have moved at least 7.5 % and the loss fallen at least 40 %;
every tuned preset's weights have moved at least 36 % by step 50 (its loss
may fall as little as 12 % by then: the spiral, so the weights decide).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from autograd_core.numbers import format_number, format_percent

MIN_STEPS = 50  # judge only after this many updates: the first steps of a healthy run can be slow
SLOW_WEIGHT_MOVE = 0.04  # the weights moved less than 4 % of their size...
SLOW_LOSS_FALL = 0.5  # ...and the loss fell by less than half


def relative_move(start: Sequence[float], now: Sequence[float]) -> float:
    """‖now − start‖ / ‖start‖ (the weights' movement as a share of their size); inf when start is all zero
    and now is not, 0 when both are."""
    if len(start) != len(now):
        raise ValueError(f"{len(start)} starting weights but {len(now)} current weights")
    size = math.sqrt(math.fsum(a * a for a in start))
    moved = math.sqrt(math.fsum((b - a) ** 2 for a, b in zip(start, now)))
    if size == 0.0:
        return 0.0 if moved == 0.0 else math.inf
    return moved / size


def loss_fall(start: float, now: float) -> float:
    """The share of the starting loss that is gone: (start − now) / start (negative when it rose)."""
    if not (math.isfinite(start) and math.isfinite(now)) or start <= 0.0:
        return math.nan
    return (start - now) / start


def slow_learning(
    losses: Sequence[float],
    weights_start: Sequence[float],
    weights_now: Sequence[float],
    lr: float,
    unit: str = "step",
    min_steps: int = MIN_STEPS,
    steps: int | None = None,
) -> str | None:
    """One sentence with figures when learning is too slow, else None.

    ``losses`` are the training losses from the start of the stretch judged (``losses[0]``, the weights
    ``weights_start``) to now (``losses[-1]``, the weights ``weights_now``): one more than the updates made.
    ``unit`` names an update in the sentence: "epoch" when each one is a pass over all the data.  ``steps``,
    when given, is the number of updates (then ``losses`` may hold only the first and the last).
    """
    if steps is None:
        steps = len(losses) - 1
    if steps < min_steps or not weights_start:
        return None
    moved = relative_move(weights_start, weights_now)
    fell = loss_fall(losses[0], losses[-1])
    if not (math.isfinite(moved) and math.isfinite(fell)):
        return None
    if moved >= SLOW_WEIGHT_MOVE or fell >= SLOW_LOSS_FALL:
        return None
    fell_text = f"fell {format_percent(fell, 0)}" if fell >= 0 else f"rose {format_percent(-fell, 0)}"
    return (
        f"learning is slow: in {steps} {unit}{'s' * (steps != 1)} the weights moved {format_percent(moved, 1)} "
        f"of their size and the loss {fell_text} — learning rate {format_number(lr)} too small?"
    )
