"""Dev check: autograd_core.learn.optim against real torch.optim, 500 steps on 2-D test functions, float64.

torch is not a dependency of the project: this script skips (exit 0) without it.
Run it with a Python that has torch and numpy, from the repository root:

    /path/to/venv-with-torch/bin/python benchmarks/torch_crosscheck.py

Two comparisons per optimizer and function:
- "same gradient": both optimizers get the same hand-written gradient, so any
  difference is the optimizers' own arithmetic;
- "own autograd": the engine's Tensor/backward against torch's autograd, the
  whole path a learner's race takes.
It prints the largest relative difference of the parameters over the trajectory,
max |ours − torch| / max(|torch|, 1), and exits 1 if any passes 1e-12.
"""

from __future__ import annotations

import sys
from pathlib import Path

try:
    import torch
except ImportError:
    print("torch is not installed: skipping the cross-check (it is a dev check, not a test)")
    sys.exit(0)

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from autograd_core.engine.tensor import Tensor
from autograd_core.learn import optim

STEPS = 500
TOLERANCE = 1e-12


def rosenbrock(x, y):
    return (1 - x) ** 2 + 100 * (y - x * x) ** 2


def rosenbrock_grad(x, y):
    return -2 * (1 - x) - 400 * x * (y - x * x), 200 * (y - x * x)


def beale(x, y):
    return (1.5 - x + x * y) ** 2 + (2.25 - x + x * y * y) ** 2 + (2.625 - x + x * y * y * y) ** 2


def beale_grad(x, y):
    a, b, c = 1.5 - x + x * y, 2.25 - x + x * y * y, 2.625 - x + x * y * y * y
    gx = 2 * a * (y - 1) + 2 * b * (y * y - 1) + 2 * c * (y * y * y - 1)
    gy = 2 * a * x + 2 * b * 2 * x * y + 2 * c * 3 * x * y * y
    return gx, gy


def himmelblau(x, y):
    return (x * x + y - 11) ** 2 + (x + y * y - 7) ** 2


def himmelblau_grad(x, y):
    a, b = x * x + y - 11, x + y * y - 7
    return 4 * x * a + 2 * b, 2 * a + 4 * y * b


def booth(x, y):
    return (x + 2 * y - 7) ** 2 + (2 * x + y - 5) ** 2


def booth_grad(x, y):
    a, b = x + 2 * y - 7, 2 * x + y - 5
    return 2 * a + 4 * b, 4 * a + 2 * b


FUNCTIONS = {
    "rosenbrock": (rosenbrock, rosenbrock_grad, (-1.5, 2.0)),
    "beale": (beale, beale_grad, (1.0, 1.5)),
    "himmelblau": (himmelblau, himmelblau_grad, (-0.5, 0.5)),
    "booth": (booth, booth_grad, (-4.0, 6.0)),
}

# (label, our class, torch class, keyword arguments shared by both)
CASES = [
    ("SGD", optim.SGD, torch.optim.SGD, {"lr": 2e-4}),
    ("SGD momentum+dampening+wd", optim.SGD, torch.optim.SGD, {"lr": 1e-4, "momentum": 0.9, "dampening": 0.1,
                                                               "weight_decay": 0.01}),
    ("SGD nesterov", optim.SGD, torch.optim.SGD, {"lr": 1e-4, "momentum": 0.9, "nesterov": True}),
    ("RMSprop", optim.RMSprop, torch.optim.RMSprop, {"lr": 1e-3}),
    ("RMSprop lr 0.01", optim.RMSprop, torch.optim.RMSprop, {"lr": 1e-2}),
    ("RMSprop centered+momentum+wd", optim.RMSprop, torch.optim.RMSprop, {"lr": 1e-3, "alpha": 0.9, "momentum": 0.5,
                                                                          "centered": True, "weight_decay": 0.01}),
    ("Adagrad", optim.Adagrad, torch.optim.Adagrad, {"lr": 0.1}),
    ("Adagrad decay+init+wd", optim.Adagrad, torch.optim.Adagrad, {"lr": 0.1, "lr_decay": 0.01,
                                                                   "initial_accumulator_value": 0.1,
                                                                   "weight_decay": 0.01}),
    ("Adam", optim.Adam, torch.optim.Adam, {"lr": 0.01}),
    ("Adam lr 0.05", optim.Adam, torch.optim.Adam, {"lr": 0.05}),
    ("Adam amsgrad+wd", optim.Adam, torch.optim.Adam, {"lr": 0.01, "betas": (0.8, 0.99), "amsgrad": True,
                                                       "weight_decay": 0.01}),
    ("Adam beta1 0.3", optim.Adam, torch.optim.Adam, {"lr": 0.01, "betas": (0.3, 0.999)}),
    ("AdamW", optim.AdamW, torch.optim.AdamW, {"lr": 0.01}),
]  # fmt: skip


def ours(cls, kwargs, f, grad, start, own_autograd):
    x, y = Tensor(start[0]), Tensor(start[1])
    opt = cls([x, y], **kwargs)
    path = []
    for _ in range(STEPS):
        opt.zero_grad()
        if own_autograd:
            f(x, y).backward()
        else:
            x.grad, y.grad = grad(x.data, y.data)
        opt.step()
        path.append((x.data, y.data))
    return path


def theirs(cls, kwargs, f, grad, start, own_autograd):
    x = torch.tensor(start[0], dtype=torch.float64, requires_grad=True)
    y = torch.tensor(start[1], dtype=torch.float64, requires_grad=True)
    opt = cls([x, y], **kwargs)
    path = []
    for _ in range(STEPS):
        opt.zero_grad()
        if own_autograd:
            f(x, y).backward()
        else:
            gx, gy = grad(x.item(), y.item())
            x.grad = torch.tensor(gx, dtype=torch.float64)
            y.grad = torch.tensor(gy, dtype=torch.float64)
        opt.step()
        path.append((x.item(), y.item()))
    return path


def max_relative_difference(a, b) -> float:
    worst = 0.0
    for pa, pb in zip(a, b):
        for u, v in zip(pa, pb):
            if u != v:
                worst = max(worst, abs(u - v) / max(abs(v), 1.0)) if v == v else float("inf")
    return worst


def main() -> int:
    print(f"torch {torch.__version__}, {STEPS} steps, float64; max relative difference of (x, y) over the path")
    print(f"{'optimizer':32} {'function':11} {'same gradient':>14} {'own autograd':>13}  end point (ours)")
    worst = 0.0
    for label, our_cls, torch_cls, kwargs in CASES:
        for fname, (f, grad, start) in FUNCTIONS.items():
            row = []
            for own in (False, True):
                a = ours(our_cls, kwargs, f, grad, start, own)
                b = theirs(torch_cls, kwargs, f, grad, start, own)
                row.append(max_relative_difference(a, b))
            worst = max(worst, *row)
            end = f"({a[-1][0]:.6g}, {a[-1][1]:.6g})"
            print(f"{label:32} {fname:11} {row[0]:14.3g} {row[1]:13.3g}  {end}")
    print(f"largest difference: {worst:.3g} (tolerance {TOLERANCE:g})")
    return 0 if worst <= TOLERANCE else 1


if __name__ == "__main__":
    sys.exit(main())
