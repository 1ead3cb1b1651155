"""Second order: a damped Newton step, with the Hessian from a pluggable source (by default central finite
differences of the engine's gradient)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from autograd_core.engine.tensor import Tensor
from autograd_core.learn.optim.base import Optimizer
from autograd_core.learn.optim.torch_float import finite_number

HessianSource = Callable[[list[Tensor], Callable[[], object]], object]


class FiniteDifferenceHessian:
    """The Hessian from central differences of the engine's gradient.

    Column j is ``(∇f(θ + h·eⱼ) − ∇f(θ − h·eⱼ)) / 2h`` with ``h = step·max(1, |θⱼ|)``
    (error ~h²: about 1e-10 relative for smooth functions), then symmetrised.
    Costs 2n gradient evaluations; leaves the parameters as they were.
    """

    def __init__(self, step: float = 1e-5):
        self.step = finite_number("step", step)
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
        self.damping = finite_number("damping", self.damping)

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
            self.lr = finite_number("lr", lr)
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
