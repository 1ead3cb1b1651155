"""Optimisers (SGD, SGD with momentum, Adam) and learning-rate schedules.

An optimiser reads each parameter's ``grad`` and changes its ``data``; it
keeps per-parameter state in plain lists of floats so the state can be saved
to JSON and restored.  The learning rate is an argument of ``step`` (or the
``lr`` attribute), so it can change between any two steps.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from autograd_core.tensor import Tensor

OPTIMIZERS = ("sgd", "momentum", "adam")
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


class Optimizer:
    """Base class: holds the parameters and the current learning rate."""

    name = "optimizer"

    def __init__(self, params: Sequence[Tensor], lr: float):
        self.params = list(params)
        self.lr = float(lr)
        self.t = 0  # number of updates done

    def zero_grad(self) -> None:
        for p in self.params:
            p.grad = 0.0

    def step(self, lr: float | None = None) -> None:
        """One update from the current gradients; ``lr`` overrides ``self.lr`` for this and later steps."""
        if lr is not None:
            self.lr = float(lr)
        self.t += 1
        self._update()

    def _update(self) -> None:
        raise NotImplementedError

    def state_dict(self) -> dict:
        """JSON-ready state: the kind, step count and per-parameter buffers."""
        return {"name": self.name, "t": self.t, "buffers": {k: list(v) for k, v in self._buffers().items()}}

    def load_state_dict(self, state: dict) -> None:
        """Restore ``state_dict()`` output; raises ValueError if it does not fit these parameters."""
        if not isinstance(state, dict) or state.get("name") != self.name:
            raise ValueError(f"optimizer state is not for {self.name}")
        t = state.get("t")
        if isinstance(t, bool) or not isinstance(t, int) or t < 0:
            raise ValueError("optimizer state 't' must be a whole number ≥ 0")
        buffers = state.get("buffers")
        own = self._buffers()
        if not isinstance(buffers, dict) or set(buffers) != set(own):
            raise ValueError(f"optimizer state buffers must be {sorted(own)}")
        for key, values in buffers.items():
            if not isinstance(values, list) or len(values) != len(self.params):
                raise ValueError(f"optimizer buffer {key!r} must hold {len(self.params)} numbers")
            if not all(isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v) for v in values):
                raise ValueError(f"optimizer buffer {key!r} must hold finite numbers")
        self.t = t
        for key, values in buffers.items():
            own[key][:] = [float(v) for v in values]

    def _buffers(self) -> dict[str, list[float]]:
        return {}


class SGD(Optimizer):
    """``v ← μ·v + g;  p ← p − lr·v`` (PyTorch's form); plain SGD when μ = 0."""

    name = "sgd"

    def __init__(self, params: Sequence[Tensor], lr: float = 0.1, momentum: float = 0.0):
        super().__init__(params, lr)
        self.momentum = float(momentum)
        self.velocity = [0.0] * len(self.params)

    def _update(self) -> None:
        lr, mu, vel = self.lr, self.momentum, self.velocity
        if mu == 0.0:
            for p in self.params:
                p.data -= lr * p.grad
            return
        for i, p in enumerate(self.params):
            v = mu * vel[i] + p.grad
            vel[i] = v
            p.data -= lr * v

    def _buffers(self) -> dict[str, list[float]]:
        return {"velocity": self.velocity}


class Adam(Optimizer):
    """Adam (Kingma & Ba): ``m, v`` running means of g and g², bias-corrected.

    ``p ← p − lr · m̂ / (√v̂ + ε)``  with  ``m̂ = m / (1 − β₁ᵗ)``, ``v̂ = v / (1 − β₂ᵗ)``.
    """

    name = "adam"

    def __init__(
        self, params: Sequence[Tensor], lr: float = 0.01, beta1: float = 0.9, beta2: float = 0.999, eps: float = 1e-8
    ):
        super().__init__(params, lr)
        self.beta1, self.beta2, self.eps = float(beta1), float(beta2), float(eps)
        self.m = [0.0] * len(self.params)
        self.v = [0.0] * len(self.params)

    def _update(self) -> None:
        b1, b2, eps, m, v = self.beta1, self.beta2, self.eps, self.m, self.v
        c1 = 1.0 - b1**self.t
        c2 = 1.0 - b2**self.t
        step = self.lr / c1
        for i, p in enumerate(self.params):
            g = p.grad
            mi = b1 * m[i] + (1.0 - b1) * g
            vi = b2 * v[i] + (1.0 - b2) * g * g
            m[i], v[i] = mi, vi
            p.data -= step * mi / (math.sqrt(vi / c2) + eps)

    def _buffers(self) -> dict[str, list[float]]:
        return {"m": self.m, "v": self.v}


def make_optimizer(name: str, params: Sequence[Tensor], lr: float, momentum: float = 0.9) -> Optimizer:
    """``sgd`` (plain), ``momentum`` (SGD with ``momentum``), ``adam``."""
    if name == "sgd":
        return SGD(params, lr)
    if name == "momentum":
        return SGD(params, lr, momentum=momentum)
    if name == "adam":
        return Adam(params, lr)
    raise ValueError(f"unknown optimizer {name!r}; choose one of {', '.join(OPTIMIZERS)}")
