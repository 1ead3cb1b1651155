"""First-order methods with torch.optim's update rules: SGD (momentum, Nesterov), RMSprop, Adagrad, Adam, AdamW."""

from __future__ import annotations

import math
from collections.abc import Sequence

from autograd_core.engine.tensor import Tensor
from autograd_core.learn.optim.base import Optimizer
from autograd_core.learn.optim.torch_float import divide, finite_number, flag, fma, ieee_sqrt, lerp


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
        self.momentum = finite_number("momentum", self.momentum)
        self.dampening = finite_number("dampening", self.dampening, -math.inf)
        self.weight_decay = finite_number("weight_decay", self.weight_decay)
        if flag("nesterov", self.nesterov) and (self.momentum <= 0.0 or self.dampening != 0.0):
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
        self.alpha = finite_number("alpha", self.alpha)
        self.eps = finite_number("eps", self.eps)
        self.weight_decay = finite_number("weight_decay", self.weight_decay)
        self.momentum = finite_number("momentum", self.momentum)
        flag("centered", self.centered)

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
                a = lerp(ga[i], g, keep)
                ga[i] = a
                avg = ieee_sqrt(fma(-a, a, v)) + eps
            else:
                avg = ieee_sqrt(v) + eps
            if buf is not None:
                b = buf[i] * mu + divide(g, avg)
                buf[i] = b
                p.data = fma(-lr, b, p.data)
            else:
                p.data = p.data + divide(-lr * g, avg)


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
        self.lr_decay = finite_number("lr_decay", self.lr_decay)
        self.weight_decay = finite_number("weight_decay", self.weight_decay)
        self.initial_accumulator_value = finite_number("initial_accumulator_value", self.initial_accumulator_value)
        self.eps = finite_number("eps", self.eps)

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
            p.data = p.data + divide(-clr * g, ieee_sqrt(si) + eps)


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
            finite_number("betas[0]", betas[0], 0.0, 1.0, hi_open=True),
            finite_number("betas[1]", betas[1], 0.0, 1.0, hi_open=True),
        )
        self.eps = finite_number("eps", self.eps)
        self.weight_decay = finite_number("weight_decay", self.weight_decay)
        flag("amsgrad", self.amsgrad)

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
            p.data = p.data + (update / denom if denom else divide(update, denom))


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
