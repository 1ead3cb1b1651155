"""Optimizers with PyTorch's update rules, a damped Newton step, and learning-rate schedules.

``SGD``, ``RMSprop``, ``Adagrad``, ``Adam`` and ``AdamW`` take the arguments of
their ``torch.optim`` namesakes and follow the algorithms in torch.optim's
documentation.  Each step does the floating-point operations of torch's CPU
code in its order, fused multiply–adds included (torch's ``add(alpha=)``,
``addcmul`` and ``lerp`` round once), so the same gradients give the same
numbers to the last bit, but for torch's float64 square root (MKL's, off by
one unit in the last place in about 1 % of cases, where ``math.sqrt`` is
exact).  Over 500 steps on Rosenbrock, Beale, Himmelblau and Booth, torch
2.13's trajectories and these differ by at most 2e-18 relative, most not at
all (``benchmarks/torch_crosscheck.py``).  Without the fused multiply–adds,
centered RMSprop on Rosenbrock drifted 5e-3 away: its ``v − ḡ²`` cancels and
magnifies the last bit.  State buffers carry torch's names (``momentum_buffer``,
``exp_avg``, ...).

``Newton`` is second order: ``θ ← θ − lr·(H + λI)⁻¹ ∇f`` with the Hessian ``H``
from a pluggable source (``hessian=``); by default central finite differences
of the engine's gradient.  It re-evaluates the function, so its ``step`` needs
a closure, as torch's LBFGS does.

Every optimizer reads each parameter's ``grad`` and changes its ``data``, and
keeps its per-parameter state in plain lists of floats (``state``), so it can
be shown, saved to JSON (``state_dict``), restored, reset and deep-copied.
The learning rate may change between any two steps (``step(lr=...)``).
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable, Sequence
from fractions import Fraction

import numpy as np

from autograd_core.engine.tensor import Tensor, ieee_div

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
SCHEDULES = ("constant", "linear", "cosine")
FINAL_LR_FRACTION = 0.1  # linear and cosine decay to 10 % of the base rate, as micrograd's 1.0 → 0.1
# Buffers of squared gradients: never negative.
SQUARE_BUFFERS = ("exp_avg_sq", "max_exp_avg_sq", "square_avg", "sum")
# State keys written by earlier versions (sessions saved before the torch names).
LEGACY_BUFFER_NAMES = {"velocity": "momentum_buffer", "m": "exp_avg", "v": "exp_avg_sq"}


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


# ------------------------------------------------------------------ helpers


def _finite_number(name: str, value, lo: float = 0.0, hi: float = math.inf, hi_open: bool = False) -> float:
    """``value`` as a float if it is a finite number in [lo, hi] (or [lo, hi)); ValueError otherwise."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not math.isfinite(value):
        raise ValueError(f"{name} must be a finite number, got {value!r}")
    if value < lo or value > hi or (hi_open and value == hi):
        upper = "" if hi == math.inf else (f" and below {hi:g}" if hi_open else f" and at most {hi:g}")
        raise ValueError(f"{name} must be at least {lo:g}{upper}, got {value!r}")
    return float(value)


def _flag(name: str, value) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"{name} must be true or false, got {value!r}")
    return value


def _sqrt(x: float) -> float:
    """IEEE square root, as torch: nan for a negative number instead of Python's ValueError."""
    return math.sqrt(x) if x >= 0.0 else math.nan


def _exact_fma(a: float, b: float, c: float) -> float:
    """``a·b + c`` rounded once, with exact rational arithmetic (slow; where no libm fma is at hand)."""
    if not (math.isfinite(a) and math.isfinite(b) and math.isfinite(c)):
        return a * b + c
    exact = Fraction(a) * Fraction(b) + Fraction(c)
    if exact == 0:
        return a * b + c  # the sign of a zero, as IEEE
    try:
        return float(exact)  # int / int: correctly rounded
    except OverflowError:
        return math.copysign(math.inf, exact)


def _load_fma() -> Callable[[float, float, float], float]:
    """The fused multiply–add (``a·b + c`` with one rounding) that torch's CPU kernels use.

    ``math.fma`` from Python 3.13, else the C library's ``fma`` through ctypes
    (checked on a case where fusing shows), else ``_exact_fma``.
    """
    fused = getattr(math, "fma", None)
    if fused is not None:
        return fused
    try:
        import ctypes
        import ctypes.util

        for name in (ctypes.util.find_library("m"), "ucrtbase", "msvcrt"):
            if not name:
                continue
            try:
                c_fma = ctypes.PyDLL(name).fma
            except (OSError, AttributeError):
                continue
            c_fma.restype = ctypes.c_double
            c_fma.argtypes = (ctypes.c_double, ctypes.c_double, ctypes.c_double)
            if c_fma(0.1, 10.0, -1.0) == _exact_fma(0.1, 10.0, -1.0) != 0.0:
                return c_fma
    except ImportError:  # pragma: no cover - Python without ctypes
        pass
    return _exact_fma  # pragma: no cover - every supported platform has a C fma


fma = _load_fma()


def _lerp(start: float, end: float, weight: float) -> float:
    """torch.lerp: its formula depends on the size of the weight, fused as on torch's CPU."""
    if abs(weight) < 0.5:
        return fma(weight, end - start, start)
    return fma(weight - 1.0, end - start, end)


def _div(a: float, b: float) -> float:
    try:
        return a / b
    except ZeroDivisionError:  # eps = 0 and a zero second moment: 0/0 = nan as in torch
        return ieee_div(a, b)


# ---------------------------------------------------------------- the base


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
        self.lr = _finite_number("lr", lr)
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
            self.lr = _finite_number("lr", self.lr)
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
            self.lr = _finite_number("lr", lr)
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


# -------------------------------------------------------- first-order methods


class SGD(Optimizer):
    """Stochastic gradient descent with momentum, dampening, Nesterov and weight decay (torch.optim.SGD).

    ``g ← ∇f + λθ;  b ← μ·b + (1 − τ)·g  (b₁ = g);  g ← g + μ·b if nesterov else b;  θ ← θ − lr·g``.
    The momentum buffer is made at the first step with a momentum, equal to the gradient (as torch).
    """

    name = "sgd"
    formula = "b ← μ·b + (1−τ)·g (b₁ = g);  θ ← θ − lr·(g + μ·b if Nesterov else b)"
    hyperparameter_names = ("momentum", "dampening", "nesterov", "weight_decay")

    def __init__(
        self,
        params: Sequence[Tensor],
        lr: float = 1e-3,
        momentum: float = 0.0,
        dampening: float = 0.0,
        weight_decay: float = 0.0,
        nesterov: bool = False,
    ):
        super().__init__(params, lr)
        self.momentum, self.dampening, self.weight_decay, self.nesterov = momentum, dampening, weight_decay, nesterov
        self._check()
        self.reset()

    def _check(self) -> None:
        self.momentum = _finite_number("momentum", self.momentum)
        self.dampening = _finite_number("dampening", self.dampening, -math.inf)
        self.weight_decay = _finite_number("weight_decay", self.weight_decay)
        if _flag("nesterov", self.nesterov) and (self.momentum <= 0.0 or self.dampening != 0.0):
            raise ValueError("Nesterov momentum needs a momentum above 0 and zero dampening")

    def _optional_buffers(self) -> tuple[str, ...]:
        return ("momentum_buffer",)

    def _upgrade(self, buffers: dict, t: int) -> dict:
        # Earlier versions kept a "velocity" of zeros from the start, where torch has no buffer until the
        # first step with a momentum; after that step the two are equal (v₁ = g₁).
        if "velocity" in buffers and (t == 0 or self.momentum == 0.0):
            del buffers["velocity"]
        return super()._upgrade(buffers, t)

    def _update(self) -> None:
        lr, mu, wd, nesterov = self.lr, self.momentum, self.weight_decay, self.nesterov
        keep = 1.0 - self.dampening
        buf, first = None, False
        if mu != 0.0:
            buf = self.state.get("momentum_buffer")
            first = buf is None
            if first:
                buf = self.state["momentum_buffer"] = [0.0] * len(self.params)
        for i, p in enumerate(self.params):
            g = p.grad
            if wd != 0.0:
                g = fma(wd, p.data, g)
            if mu != 0.0:
                b = g if first else fma(keep, g, buf[i] * mu)
                buf[i] = b
                g = fma(mu, b, g) if nesterov else b
            p.data = fma(-lr, g, p.data)


class RMSprop(Optimizer):
    """RMSprop (torch.optim.RMSprop): divide the gradient by a running root mean square.

    ``v ← α·v + (1 − α)·g²;  ṽ ← v − ḡ² if centered (ḡ ← α·ḡ + (1 − α)·g);
    b ← μ·b + g/(√ṽ + ε), θ ← θ − lr·b  (or θ ← θ − lr·g/(√ṽ + ε) without momentum)``.
    """

    name = "rmsprop"
    formula = "v ← α·v + (1−α)·g²;  θ ← θ − lr·g/(√v + ε)  (centered: v − ḡ²; momentum: via b)"
    hyperparameter_names = ("alpha", "eps", "weight_decay", "momentum", "centered")

    def __init__(
        self,
        params: Sequence[Tensor],
        lr: float = 1e-2,
        alpha: float = 0.99,
        eps: float = 1e-8,
        weight_decay: float = 0.0,
        momentum: float = 0.0,
        centered: bool = False,
    ):
        super().__init__(params, lr)
        self.alpha, self.eps, self.weight_decay, self.momentum, self.centered = (
            alpha,
            eps,
            weight_decay,
            momentum,
            centered,
        )
        self._check()
        self.reset()

    def _check(self) -> None:
        self.alpha = _finite_number("alpha", self.alpha)
        self.eps = _finite_number("eps", self.eps)
        self.weight_decay = _finite_number("weight_decay", self.weight_decay)
        self.momentum = _finite_number("momentum", self.momentum)
        _flag("centered", self.centered)

    def _buffers_in_use(self) -> tuple[tuple[str, float], ...]:
        used = [("square_avg", 0.0)]
        if self.momentum > 0.0:
            used.append(("momentum_buffer", 0.0))
        if self.centered:
            used.append(("grad_avg", 0.0))
        return tuple(used)

    def _optional_buffers(self) -> tuple[str, ...]:
        return ("momentum_buffer", "grad_avg")

    def _update(self) -> None:
        lr, alpha, eps, wd, mu = self.lr, self.alpha, self.eps, self.weight_decay, self.momentum
        centered = self.centered
        keep = 1.0 - alpha
        sq = self.state["square_avg"]
        ga = self.state["grad_avg"] if centered else None
        buf = self.state["momentum_buffer"] if mu > 0.0 else None
        for i, p in enumerate(self.params):
            g = p.grad
            if wd != 0.0:
                g = fma(wd, p.data, g)
            v = fma(keep * g, g, sq[i] * alpha)
            sq[i] = v
            if centered:
                a = _lerp(ga[i], g, keep)
                ga[i] = a
                avg = _sqrt(fma(-a, a, v)) + eps
            else:
                avg = _sqrt(v) + eps
            if buf is not None:
                b = buf[i] * mu + _div(g, avg)
                buf[i] = b
                p.data = fma(-lr, b, p.data)
            else:
                p.data = p.data + _div(-lr * g, avg)


class Adagrad(Optimizer):
    """Adagrad (torch.optim.Adagrad): each parameter's step shrinks with the sum of its squared gradients.

    ``lr_t = lr / (1 + (t − 1)·η);  s ← s + g²;  θ ← θ − lr_t·g/(√s + ε)``.
    """

    name = "adagrad"
    formula = "s ← s + g²;  θ ← θ − lr·g/(√s + ε)"
    hyperparameter_names = ("lr_decay", "weight_decay", "initial_accumulator_value", "eps")

    def __init__(
        self,
        params: Sequence[Tensor],
        lr: float = 1e-2,
        lr_decay: float = 0.0,
        weight_decay: float = 0.0,
        initial_accumulator_value: float = 0.0,
        eps: float = 1e-10,
    ):
        super().__init__(params, lr)
        self.lr_decay, self.weight_decay, self.initial_accumulator_value, self.eps = (
            lr_decay,
            weight_decay,
            initial_accumulator_value,
            eps,
        )
        self._check()
        self.reset()

    def _check(self) -> None:
        self.lr_decay = _finite_number("lr_decay", self.lr_decay)
        self.weight_decay = _finite_number("weight_decay", self.weight_decay)
        self.initial_accumulator_value = _finite_number("initial_accumulator_value", self.initial_accumulator_value)
        self.eps = _finite_number("eps", self.eps)

    def _buffers_in_use(self) -> tuple[tuple[str, float], ...]:
        return (("sum", self.initial_accumulator_value),)

    def _update(self) -> None:
        eps, wd = self.eps, self.weight_decay
        clr = self.lr / (1 + (self.t - 1) * self.lr_decay)
        s = self.state["sum"]
        for i, p in enumerate(self.params):
            g = p.grad
            if wd != 0.0:
                g = fma(wd, p.data, g)
            si = fma(g, g, s[i])
            s[i] = si
            p.data = p.data + _div(-clr * g, _sqrt(si) + eps)


class Adam(Optimizer):
    """Adam (Kingma & Ba; torch.optim.Adam), with L2 weight decay and AMSGrad.

    ``g ← ∇f + λθ;  m ← β₁m + (1 − β₁)g;  v ← β₂v + (1 − β₂)g²;  v̂max ← max(v̂max, v) if amsgrad;
    θ ← θ − lr/(1 − β₁ᵗ) · m / (√v/√(1 − β₂ᵗ) + ε)``.
    """

    name = "adam"
    formula = "m ← β₁m + (1−β₁)g;  v ← β₂v + (1−β₂)g²;  θ ← θ − lr·m̂/(√v̂ + ε)"
    hyperparameter_names = ("betas", "eps", "weight_decay", "amsgrad")
    decoupled_weight_decay = False

    def __init__(
        self,
        params: Sequence[Tensor],
        lr: float = 1e-3,
        betas: tuple[float, float] = (0.9, 0.999),
        eps: float = 1e-8,
        weight_decay: float = 0.0,
        amsgrad: bool = False,
    ):
        super().__init__(params, lr)
        self.betas, self.eps, self.weight_decay, self.amsgrad = betas, eps, weight_decay, amsgrad
        self._check()
        self.reset()

    def _check(self) -> None:
        betas = self.betas
        if not isinstance(betas, tuple | list) or len(betas) != 2:
            raise ValueError(f"betas must be a pair of numbers, got {betas!r}")
        self.betas = (
            _finite_number("betas[0]", betas[0], 0.0, 1.0, hi_open=True),
            _finite_number("betas[1]", betas[1], 0.0, 1.0, hi_open=True),
        )
        self.eps = _finite_number("eps", self.eps)
        self.weight_decay = _finite_number("weight_decay", self.weight_decay)
        _flag("amsgrad", self.amsgrad)

    def _buffers_in_use(self) -> tuple[tuple[str, float], ...]:
        used = (("exp_avg", 0.0), ("exp_avg_sq", 0.0))
        return (*used, ("max_exp_avg_sq", 0.0)) if self.amsgrad else used

    def _optional_buffers(self) -> tuple[str, ...]:
        return ("max_exp_avg_sq",)

    def _update(self) -> None:
        lr, eps, wd = self.lr, self.eps, self.weight_decay
        beta1, beta2 = self.betas
        keep1, keep2 = 1.0 - beta1, 1.0 - beta2
        decoupled = self.decoupled_weight_decay
        shrink = 1.0 - lr * wd
        step = float(self.t)
        bias_correction1 = 1.0 - beta1**step
        bias_correction2 = 1.0 - beta2**step
        step_size = lr / bias_correction1
        bias_correction2_sqrt = bias_correction2**0.5
        m, v = self.state["exp_avg"], self.state["exp_avg_sq"]
        vmax = self.state["max_exp_avg_sq"] if self.amsgrad else None
        # The default optimizer's loop, kept lean: torch.lerp inlined (its branch fixed by β₁), and plain
        # sqrt and division (second moments are never negative; a denominator is 0 only with eps = 0).
        small = abs(keep1) < 0.5
        lerp_weight = keep1 if small else keep1 - 1.0
        for i, p in enumerate(self.params):
            g = p.grad
            if wd != 0.0:
                if decoupled:
                    p.data = p.data * shrink
                else:
                    g = fma(wd, p.data, g)
            mi = m[i]
            mi = m[i] = fma(lerp_weight, g - mi, mi if small else g)
            vi = v[i] = fma(keep2 * g, g, v[i] * beta2)
            if vmax is not None:
                vi = vmax[i] = max(vmax[i], vi) if vi == vi else vi  # torch.maximum propagates nan
            denom = math.sqrt(vi) / bias_correction2_sqrt + eps
            update = -step_size * mi
            p.data = p.data + (update / denom if denom else _div(update, denom))


class AdamW(Adam):
    """AdamW (Loshchilov & Hutter; torch.optim.AdamW): Adam with decoupled weight decay.

    Before the Adam step, ``θ ← θ·(1 − lr·λ)``, instead of adding ``λθ`` to the gradient.
    """

    name = "adamw"
    formula = "θ ← θ·(1 − lr·λ);  then Adam: θ ← θ − lr·m̂/(√v̂ + ε)"
    decoupled_weight_decay = True

    def __init__(
        self,
        params: Sequence[Tensor],
        lr: float = 1e-3,
        betas: tuple[float, float] = (0.9, 0.999),
        eps: float = 1e-8,
        weight_decay: float = 1e-2,
        amsgrad: bool = False,
    ):
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad)


# ------------------------------------------------------------ second order

HessianSource = Callable[[list[Tensor], Callable[[], object]], object]


class FiniteDifferenceHessian:
    """The Hessian from central differences of the engine's gradient.

    Column j is ``(∇f(θ + h·eⱼ) − ∇f(θ − h·eⱼ)) / 2h`` with ``h = step·max(1, |θⱼ|)``
    (error ~h²: about 1e-10 relative for smooth functions), then symmetrised.
    Costs 2n gradient evaluations; leaves the parameters as they were.
    """

    def __init__(self, step: float = 1e-5):
        self.step = _finite_number("step", step)
        if self.step == 0.0:
            raise ValueError("the finite-difference step must be above 0")

    @property
    def description(self) -> str:
        return f"finite differences of the gradient (central, h = {self.step:g}·max(1, |θ|))"

    def __call__(self, params: list[Tensor], closure: Callable[[], object]) -> np.ndarray:
        n = len(params)
        hessian = np.empty((n, n))
        saved = [p.data for p in params]
        try:
            # Far out, inf − inf makes nan entries (Newton refuses them) rather than warnings.
            with np.errstate(invalid="ignore", over="ignore"):
                for j, p in enumerate(params):
                    h = self.step * max(1.0, abs(saved[j]))
                    up, down = saved[j] + h, saved[j] - h
                    p.data = up
                    grad_up = _gradient(params, closure)
                    p.data = down
                    grad_down = _gradient(params, closure)
                    p.data = saved[j]
                    hessian[:, j] = (np.array(grad_up) - np.array(grad_down)) / (up - down)
                return 0.5 * (hessian + hessian.T)
        finally:
            for p, value in zip(params, saved):
                p.data = value


def _gradient(params: list[Tensor], closure: Callable[[], object]) -> list[float]:
    for p in params:
        p.grad = 0.0
    closure()
    return [p.grad for p in params]


def default_hessian() -> HessianSource:
    """The Hessian source Newton uses unless told otherwise (the one place to switch to exact second derivatives)."""
    return FiniteDifferenceHessian()


def hessian_description(source: HessianSource) -> str:
    """What a Hessian source is, in words (its ``description``, else its name)."""
    text = getattr(source, "description", None)
    return text if isinstance(text, str) else getattr(source, "__name__", type(source).__name__)


class Newton(Optimizer):
    """Damped Newton: ``θ ← θ − lr·(H + λI)⁻¹ ∇f``.

    ``hessian(params, closure)`` returns the n×n Hessian at the current
    parameters (any callable; ``description`` says where it comes from);
    the default is ``default_hessian()``.  ``damping`` λ keeps the solve
    defined where H is singular; ``lr`` < 1 shortens the step.  Pure Newton
    heads for the nearest stationary point: a saddle or a maximum too, where
    H is not positive definite.  ``step(closure)`` needs the closure (it
    re-evaluates the gradient); ``last_hessian`` keeps the H of the last step.
    """

    name = "newton"
    formula = "θ ← θ − lr·(H + λI)⁻¹∇f"
    hyperparameter_names = ("damping",)

    def __init__(
        self, params: Sequence[Tensor], lr: float = 1.0, damping: float = 1e-3, hessian: HessianSource | None = None
    ):
        super().__init__(params, lr)
        self.damping = damping
        self.hessian = hessian if hessian is not None else default_hessian()
        if not callable(self.hessian):
            raise TypeError("hessian must be a callable (params, closure) → n×n matrix")
        self.last_hessian: np.ndarray | None = None
        self._check()
        self.reset()

    def _check(self) -> None:
        self.damping = _finite_number("damping", self.damping)

    def reset(self) -> None:
        super().reset()
        self.last_hessian = None

    @property
    def hessian_source(self) -> str:
        """Where H comes from, in words, for the screen."""
        return hessian_description(self.hessian)

    @property
    def description(self) -> str:
        return f"{super().description}, H from {self.hessian_source}"

    def step(self, closure: Callable[[], object] | None = None, *, lr: float | None = None):
        """One Newton step; ``closure`` re-evaluates the loss and its gradient (required).

        Raises ValueError, changing nothing, if the damped Hessian is singular
        or not finite at this point.
        """
        if closure is None or not callable(closure):
            raise TypeError("Newton.step needs a closure that re-evaluates the loss and its gradient")
        if lr is not None:
            self.lr = _finite_number("lr", lr)
        self.zero_grad()
        loss = closure()
        gradient = np.array([p.grad for p in self.params])
        hessian = np.asarray(self.hessian(self.params, closure), dtype=float)
        for p, g in zip(self.params, gradient):  # the source evaluated other points: keep this one's gradient
            p.grad = float(g)
        n = len(self.params)
        if hessian.shape != (n, n):
            raise ValueError(f"the Hessian source gave a {hessian.shape} array for {n} parameters")
        if not (np.all(np.isfinite(hessian)) and np.all(np.isfinite(gradient))):
            raise ValueError("Newton: the gradient or the Hessian is not finite here")
        try:
            direction = np.linalg.solve(hessian + self.damping * np.eye(n), gradient)
        except np.linalg.LinAlgError:
            raise ValueError("Newton: H + λI is singular here; raise the damping λ") from None
        self.last_hessian = hessian
        self.t += 1
        for p, d in zip(self.params, direction):
            p.data = p.data - self.lr * float(d)
        return loss

    def _update(self) -> None:  # pragma: no cover - step() is overridden
        raise TypeError("Newton.step needs a closure")


# ---------------------------------------------------------------- by name


def make_optimizer(
    name: str,
    params: Sequence[Tensor],
    lr: float,
    momentum: float = 0.9,
    *,
    betas: Sequence[float] = (0.9, 0.999),
    alpha: float = 0.99,
    weight_decay: float = 0.01,
) -> Optimizer:
    """An optimizer by the trainer's name (``ALL_OPTIMIZERS``); each uses the settings in ``OPTIMIZER_SETTINGS``.

    ``sgd`` plain; ``momentum`` and ``nesterov`` SGD with ``momentum``; ``rmsprop``
    with ``alpha``; ``adagrad``; ``adam`` with ``betas``; ``adamw`` with ``betas``
    and decoupled ``weight_decay``; ``newton`` (finite-difference Hessian).
    Other settings keep torch's defaults.
    """
    if name == "sgd":
        return SGD(params, lr)
    if name == "momentum":
        return SGD(params, lr, momentum=momentum)
    if name == "nesterov":
        return SGD(params, lr, momentum=momentum, nesterov=True)
    if name == "rmsprop":
        return RMSprop(params, lr, alpha=alpha)
    if name == "adagrad":
        return Adagrad(params, lr)
    if name == "adam":
        return Adam(params, lr, betas=tuple(betas))
    if name == "adamw":
        return AdamW(params, lr, betas=tuple(betas), weight_decay=weight_decay)
    if name == "newton":
        return Newton(params, lr)
    raise ValueError(f"unknown optimizer {name!r}; choose one of {', '.join(ALL_OPTIMIZERS)}")
