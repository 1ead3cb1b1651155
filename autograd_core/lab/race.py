"""A race of optimizers on a surface f(x, y), each step on the app's own Tensors and ``backward()``.

Every racer holds two leaf Tensors ``x`` and ``y`` and one optimizer of
``autograd_core.learn.optim`` (torch's update rules).  A step is exactly a training
step: zero the gradients, build f's graph at (x, y) with the expression
language, ``backward()``, and let the optimizer move the leaves.  The path keeps
each point with its loss and the gradient that moved it, so any step's graph
can be rebuilt later (``step_graph``) and shown with that gradient.

A racer whose point or loss stops being finite, or that runs far outside the
view (``escape`` × the box's size), stops with a note; the others go on.

Newton takes its Hessian from the engine's second derivatives
(``autograd_core.engine.functional.hessian``: reverse mode over reverse mode).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from autograd_core.engine import functional
from autograd_core.engine.tensor import Tensor
from autograd_core.lab.surfaces import nearest_minimum
from autograd_core.language.expression import Evaluation, Program
from autograd_core.learn.optim import (
    OPTIMIZER_LABELS,
    SGD,
    Adagrad,
    Adam,
    AdamW,
    Newton,
    Optimizer,
    RMSprop,
)

ESCAPE = 1e3  # a racer this many box sizes away from the box's center has diverged
MAX_PATH = 20_000  # steps per racer (it stops there: its path is redrawn whole on every frame)

RACER_KINDS = ("sgd", "momentum", "nesterov", "rmsprop", "adagrad", "adam", "adamw", "newton")
# Each kind's settings besides lr, with the lab's defaults (torch's names).
DEFAULT_SETTINGS: dict[str, dict] = {
    "sgd": {},
    "momentum": {"momentum": 0.9},
    "nesterov": {"momentum": 0.9},
    "rmsprop": {"alpha": 0.99},
    "adagrad": {},
    "adam": {"betas": (0.9, 0.999)},
    "adamw": {"betas": (0.9, 0.999), "weight_decay": 0.01},
    "newton": {"damping": 1e-3},
}
DEFAULT_LR = {
    "sgd": 1e-3,
    "momentum": 1e-3,
    "nesterov": 1e-3,
    "rmsprop": 1e-2,
    "adagrad": 0.5,
    "adam": 5e-2,
    "adamw": 5e-2,
    "newton": 0.5,
}


class EngineHessian:
    """Newton's Hessian from the engine's second derivatives of f (``functional.hessian``), exact to rounding."""

    description = "the engine's second derivatives (reverse mode over reverse mode)"

    def __init__(self, program: Program):
        self.program = program

    def __call__(self, params: list[Tensor], closure) -> np.ndarray:
        return functional.hessian(lambda x, y: self.program.evaluate({"x": x, "y": y}).output, [p.data for p in params])


def make_racer_optimizer(kind: str, params: Sequence[Tensor], lr: float, settings: dict, program: Program) -> Optimizer:
    """The optimizer of a racer kind (``RACER_KINDS``) with its settings (``DEFAULT_SETTINGS``' keys)."""
    s = {**DEFAULT_SETTINGS.get(kind, {}), **settings}
    if kind == "sgd":
        return SGD(params, lr)
    if kind == "momentum":
        return SGD(params, lr, momentum=s["momentum"])
    if kind == "nesterov":
        return SGD(params, lr, momentum=s["momentum"], nesterov=True)
    if kind == "rmsprop":
        return RMSprop(params, lr, alpha=s["alpha"])
    if kind == "adagrad":
        return Adagrad(params, lr)
    if kind == "adam":
        return Adam(params, lr, betas=tuple(s["betas"]))
    if kind == "adamw":
        return AdamW(params, lr, betas=tuple(s["betas"]), weight_decay=s["weight_decay"])
    if kind == "newton":
        return Newton(params, lr, damping=s["damping"], hessian=EngineHessian(program))
    raise ValueError(f"unknown optimizer {kind!r}; choose one of {', '.join(RACER_KINDS)}")


@dataclass
class RacerSpec:
    """One entry of the race: which optimizer, its learning rate and its other settings."""

    kind: str
    lr: float | None = None
    settings: dict = field(default_factory=dict)
    label: str = ""

    def __post_init__(self):
        if self.kind not in RACER_KINDS:
            raise ValueError(f"unknown optimizer {self.kind!r}; choose one of {', '.join(RACER_KINDS)}")
        if self.lr is None:
            self.lr = DEFAULT_LR[self.kind]
        if not self.label:
            self.label = OPTIMIZER_LABELS[self.kind]


class Racer:
    """One optimizer's run: its leaves, its optimizer and its path.

    ``path_x[k], path_y[k]`` is the point after k steps, ``losses[k]`` f there,
    ``grads[k]`` ∇f there (the gradient of step k+1, the one that moved it on).
    """

    def __init__(self, spec: RacerSpec, program: Program, start: tuple[float, float], minima=(), box=None):
        self.spec = spec
        self.program = program
        self.minima = tuple(minima)
        self.box = box
        self.x = Tensor(float(start[0]), label="x")
        self.y = Tensor(float(start[1]), label="y")
        self.optimizer = make_racer_optimizer(spec.kind, [self.x, self.y], spec.lr, spec.settings, program)
        self.path_x: list[float] = [self.x.data]
        self.path_y: list[float] = [self.y.data]
        self.losses: list[float] = []
        self.grads: list[tuple[float, float]] = []
        self.note: str | None = None  # why this racer stopped
        self.diverged = False
        self._measure_start()

    def _measure_start(self) -> None:
        loss = self._forward_backward()
        self.losses.append(loss.data)
        self.grads.append((self.x.grad, self.y.grad))
        if not math.isfinite(loss.data):
            self.note = f"f is {loss.data} at the start point"

    def _forward_backward(self) -> Tensor:
        self.x.grad = self.y.grad = 0.0
        loss = self.program.evaluate({"x": self.x, "y": self.y}).output
        loss.backward()
        return loss

    # ---- what a table shows

    @property
    def steps(self) -> int:
        return len(self.path_x) - 1

    @property
    def stopped(self) -> bool:
        return self.note is not None

    @property
    def loss(self) -> float:
        return self.losses[-1]

    @property
    def position(self) -> tuple[float, float]:
        return self.path_x[-1], self.path_y[-1]

    @property
    def distance(self) -> float:
        """Distance from the current point to the nearest known minimum (nan when none is known)."""
        return nearest_minimum(self.minima, *self.position)[1]

    # ---- stepping

    def step(self) -> bool:
        """One optimizer step; False (and a ``note``) if this racer has stopped."""
        if self.note is not None:
            return False
        if self.steps >= MAX_PATH:
            self.note = f"stopped after {MAX_PATH:,} steps"
            return False
        try:
            if isinstance(self.optimizer, Newton):  # it re-evaluates f around the point: needs the closure
                self.optimizer.step(self._forward_backward)
            else:  # x.grad and y.grad already hold ∇f here (from the last forward and backward)
                self.optimizer.step()
        except (ValueError, ArithmeticError) as exc:  # Newton: a singular or non-finite Hessian
            self.note = f"step {self.steps + 1}: {exc}"
            return False
        x, y = self.x.data, self.y.data
        loss = self._forward_backward()  # f and ∇f at the new point: the next step's gradient, shown on the path
        self.path_x.append(x)
        self.path_y.append(y)
        self.losses.append(loss.data)
        self.grads.append((self.x.grad, self.y.grad))
        if not (math.isfinite(x) and math.isfinite(y)):
            self.note = f"diverged at step {self.steps}: the point is ({x:g}, {y:g})"
        elif not math.isfinite(loss.data):
            self.note = f"diverged at step {self.steps}: f = {loss.data}"
        elif self.box is not None and self._escaped(x, y):
            self.note = f"diverged at step {self.steps}: ran off to ({x:.3g}, {y:.3g})"
        elif x == self.path_x[-2] and y == self.path_y[-2]:
            self.note = f"converged at step {self.steps}: the step no longer moves the point"
            return False
        self.diverged = self.note is not None
        return self.note is None

    def _escaped(self, x: float, y: float) -> bool:
        x0, x1, y0, y1 = self.box
        size = max(x1 - x0, y1 - y0)
        return math.hypot(x - 0.5 * (x0 + x1), y - 0.5 * (y0 + y1)) > ESCAPE * size

    def step_graph(self, k: int) -> Evaluation:
        """The graph of f at the point after k steps, with ``backward()`` done: its gradient moved step k+1."""
        if not 0 <= k <= self.steps:
            raise IndexError(f"step {k} is not on this path (0 … {self.steps})")
        evaluation = self.program.evaluate({"x": self.path_x[k], "y": self.path_y[k]})
        evaluation.output.backward()
        return evaluation


class Race:
    """Several racers from one start point on one surface, stepped together."""

    def __init__(self, program: Program, specs: Sequence[RacerSpec], start: tuple[float, float], minima=(), box=None):
        self.program = program
        self.start = (float(start[0]), float(start[1]))
        self.racers = [Racer(spec, program, self.start, minima, box) for spec in specs]

    @property
    def running(self) -> bool:
        return any(not r.stopped for r in self.racers)

    @property
    def steps(self) -> int:
        return max((r.steps for r in self.racers), default=0)

    def step(self, count: int = 1) -> int:
        """Step every racer still going, ``count`` times; returns how many racer-steps were taken."""
        taken = 0
        for _ in range(max(0, int(count))):
            any_going = False
            for racer in self.racers:
                if racer.stopped:
                    continue
                racer.step()
                taken += 1
                any_going = True
            if not any_going:
                break
        return taken
