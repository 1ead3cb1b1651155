"""Learning-rate schedules: constant, linear (micrograd's demo) and cosine."""

from __future__ import annotations

import math

SCHEDULES = ("constant", "linear", "cosine")
FINAL_LR_FRACTION = 0.1  # linear and cosine decay to 10 % of the base rate, as micrograd's 1.0 → 0.1


def learning_rate(schedule: str, base_lr: float, step: int, total_steps: int) -> float:
    """The learning rate for 0-based ``step`` of ``total_steps``.

    - constant: ``base_lr``;
    - linear (micrograd's demo): ``base_lr · (1 − 0.9·step/total)``;
    - cosine: from ``base_lr`` down to ``0.1·base_lr`` along half a cosine.
    Past ``total_steps`` the rate stays at its final value, so training can go on.
    """
    if schedule not in SCHEDULES:
        raise ValueError(f"unknown schedule {schedule!r}; choose one of {', '.join(SCHEDULES)}")
    if schedule == "constant" or total_steps <= 0:
        return base_lr
    progress = min(max(step, 0) / total_steps, 1.0)
    if schedule == "linear":
        return base_lr * (1.0 - (1.0 - FINAL_LR_FRACTION) * progress)
    final = base_lr * FINAL_LR_FRACTION
    return final + (base_lr - final) * 0.5 * (1.0 + math.cos(math.pi * progress))
