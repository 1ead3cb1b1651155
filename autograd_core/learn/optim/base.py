"""The optimizers' names and settings, and the base every optimizer shares: its learning rate, step count and
per-parameter state buffers (shown, saved, restored and reset)."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from autograd_core.engine.tensor import Tensor
from autograd_core.learn.optim.torch_float import finite_number

# The trainer's choices: first-order methods that work on minibatches of a network.
OPTIMIZERS = ("sgd", "momentum", "nesterov", "rmsprop", "adagrad", "adam", "adamw")
# Newton needs the Hessian (2n gradients per step by finite differences): for the
# 2-D optimizer lab, far too slow for a network's hundreds of weights.
SECOND_ORDER = ("newton",)
ALL_OPTIMIZERS = OPTIMIZERS + SECOND_ORDER
OPTIMIZER_LABELS = {
    "sgd": "SGD",
    "momentum": "Momentum",
    "nesterov": "Nesterov",
    "rmsprop": "RMSprop",
    "adagrad": "Adagrad",
    "adam": "Adam",
    "adamw": "AdamW",
    "newton": "Newton",
}
# Which of the trainer's optimizer settings (TrainingConfig fields) each name uses.
OPTIMIZER_SETTINGS = {
    "sgd": (),
    "momentum": ("momentum",),
    "nesterov": ("momentum",),
    "rmsprop": ("alpha",),
    "adagrad": (),
    "adam": ("betas",),
    "adamw": ("betas", "weight_decay"),
    "newton": (),
}
# Buffers of squared gradients: never negative.
SQUARE_BUFFERS = ("exp_avg_sq", "max_exp_avg_sq", "square_avg", "sum")
# State keys written by earlier versions (sessions saved before the torch names).
LEGACY_BUFFER_NAMES = {"velocity": "momentum_buffer", "m": "exp_avg", "v": "exp_avg_sq"}


class Optimizer:
    """Parameters, learning rate, step count ``t`` and per-parameter state buffers.

    Subclasses list their hyperparameters in ``hyperparameter_names`` (validated
    by ``_check``) and their buffers by ``_buffers_in_use``.  ``state`` maps a
    buffer name to one float per parameter; ``formula`` says the update in one line.
    """

    name = "optimizer"
    formula = ""
    hyperparameter_names: tuple[str, ...] = ()

    def __init__(self, params: Sequence[Tensor], lr: float):
        self.params = list(params)
        if not all(isinstance(p, Tensor) for p in self.params):
            raise TypeError("an optimizer's params must be Tensors")
        self.lr = finite_number("lr", lr)
        self.t = 0  # number of updates done
        self.state: dict[str, list[float]] = {}

    # ---- settings

    def hyperparameters(self) -> dict:
        """The settings besides the learning rate, by their torch names."""
        return {name: getattr(self, name) for name in self.hyperparameter_names}

    def set_hyperparameters(self, **values) -> None:
        """Change settings between steps, keeping the state (like editing a torch param group).

        All or nothing: a bad value raises ValueError and changes nothing.
        """
        unknown = sorted(set(values) - {"lr", *self.hyperparameter_names})
        if unknown:
            raise ValueError(f"{self.name} has no setting {', '.join(unknown)}")
        old = {name: getattr(self, name) for name in values}
        try:
            for name, value in values.items():
                setattr(self, name, value)
            self.lr = finite_number("lr", self.lr)
            self._check()
        except (ValueError, TypeError):
            for name, value in old.items():
                setattr(self, name, value)
            raise
        self._add_missing_buffers()

    def _check(self) -> None:
        """Validate (and normalize) the hyperparameters; raise ValueError naming the bad one."""

    @property
    def description(self) -> str:
        """The name, the settings and the update rule, for a legend or a tooltip."""
        settings = ", ".join(f"{k}={v!r}" for k, v in {"lr": self.lr, **self.hyperparameters()}.items())
        return f"{type(self).__name__}({settings}): {self.formula}"

    def __repr__(self) -> str:
        settings = ", ".join(f"{k}={v!r}" for k, v in {"lr": self.lr, **self.hyperparameters()}.items())
        return f"{type(self).__name__}({len(self.params)} params, {settings}, t={self.t})"

    # ---- stepping

    def zero_grad(self) -> None:
        for p in self.params:
            p.grad = 0.0

    def step(self, closure: Callable[[], object] | None = None, *, lr: float | None = None):
        """One update from the current gradients; returns ``closure()``'s loss, if a closure is given.

        ``closure`` (as in torch) re-evaluates the loss and its gradient
        (zero the grads, forward, ``backward()``, return the loss); it is
        called once before the update.  ``lr`` replaces ``self.lr`` for this
        and later steps.
        """
        if closure is not None and not callable(closure):
            raise TypeError("step(closure): closure must be callable; pass a learning rate as step(lr=...)")
        if lr is not None:
            self.lr = finite_number("lr", lr)
        loss = None
        if closure is not None:
            self.zero_grad()
            loss = closure()
        self.t += 1
        self._update()
        return loss

    def _update(self) -> None:
        raise NotImplementedError

    # ---- state

    def _buffers_in_use(self) -> tuple[tuple[str, float], ...]:
        """(name, initial value) of each buffer the current settings need from the start."""
        return ()

    def _optional_buffers(self) -> tuple[str, ...]:
        """Buffers a state may hold besides those in use (made lazily, or left by other settings)."""
        return ()

    def _add_missing_buffers(self) -> None:
        for name, initial in self._buffers_in_use():
            if name not in self.state:
                self.state[name] = [initial] * len(self.params)

    def reset(self) -> None:
        """Forget the state: the next step is step 1 again (the parameters stay where they are)."""
        self.t = 0
        self.state = {}
        self._add_missing_buffers()

    def state_dict(self) -> dict:
        """JSON-ready copy of the state: the kind, step count and per-parameter buffers."""
        return {"name": self.name, "t": self.t, "buffers": {k: list(v) for k, v in self.state.items()}}

    def load_state_dict(self, state: dict) -> None:
        """Restore ``state_dict()`` output; raises ValueError (changing nothing) if it does not fit.

        Accepts the buffer names of earlier versions (``velocity``, ``m``, ``v``).
        """
        if not isinstance(state, dict) or state.get("name") != self.name:
            raise ValueError(f"optimizer state is not for {self.name}")
        t = state.get("t")
        if isinstance(t, bool) or not isinstance(t, int) or t < 0:
            raise ValueError("optimizer state 't' must be a whole number ≥ 0")
        buffers = state.get("buffers")
        if not isinstance(buffers, dict):
            raise ValueError("optimizer state 'buffers' must be an object")
        buffers = self._upgrade(dict(buffers), t)
        required = {name for name, _ in self._buffers_in_use()}
        allowed = required | set(self._optional_buffers())
        if not required <= set(buffers) <= allowed:
            raise ValueError(
                f"optimizer state buffers must be {sorted(required)}"
                + (f" (optionally also {sorted(allowed - required)})" if allowed - required else "")
                + f", got {sorted(buffers)}"
            )
        for key, values in buffers.items():
            if not isinstance(values, list) or len(values) != len(self.params):
                raise ValueError(f"optimizer buffer {key!r} must hold {len(self.params)} numbers")
            if not all(isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v) for v in values):
                raise ValueError(f"optimizer buffer {key!r} must hold finite numbers")
            if key in SQUARE_BUFFERS and min(values, default=0.0) < 0.0:
                raise ValueError(f"optimizer buffer {key!r} holds sums of squares: it cannot be negative")
        self.t = t
        self.state = {key: [float(v) for v in values] for key, values in buffers.items()}

    def _upgrade(self, buffers: dict, t: int) -> dict:
        """Rename buffers saved under an earlier version's names."""
        return {LEGACY_BUFFER_NAMES.get(k, k): v for k, v in buffers.items()}
