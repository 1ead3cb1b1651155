"""Optimizer speed: steps per second on a 2-D function and on the default training config.

1. Rosenbrock f(x, y) = (1 − x)² + 100(y − x²)² from (−1.5, 2), as the optimizer lab races it:
   each step builds f with the engine's Tensors, calls backward() and the optimizer's step
   (Newton: the closure, 1 + 2n gradient evaluations for its finite-difference Hessian).
   Steps per second, µs inside step(), and where each optimizer is after the run.
2. The default TrainingConfig (MLP 2-16-16-1 on moons, batch 32) with each optimizer the
   training panel offers, at the config's learning rate: trainer steps per second, ms per
   step inside the optimizer, test accuracy at the end.
3. The price of torch's fused multiply–adds: Adam's step on the 337 weights with the
   ``fma`` of ``optim/torch_float.py`` against plain ``a*b + c`` (same process, alternating).

    python benchmarks/bench_optim.py [--steps 500] [--train-steps 100]
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from autograd_core.engine.tensor import Tensor
from autograd_core.learn import optim
from autograd_core.learn.optim.torch_float import exact_fma
from autograd_core.learn.training import Trainer, TrainingConfig

LAB = {  # name → (optimizer over [x, y], a learning rate that moves on Rosenbrock)
    "sgd": lambda ps: optim.SGD(ps, lr=2e-4),
    "momentum": lambda ps: optim.SGD(ps, lr=2e-4, momentum=0.9),
    "nesterov": lambda ps: optim.SGD(ps, lr=2e-4, momentum=0.9, nesterov=True),
    "rmsprop": lambda ps: optim.RMSprop(ps, lr=1e-2),
    "adagrad": lambda ps: optim.Adagrad(ps, lr=0.5),
    "adam": lambda ps: optim.Adam(ps, lr=0.05),
    "adamw": lambda ps: optim.AdamW(ps, lr=0.05),
    "newton": lambda ps: optim.Newton(ps, lr=1.0),
}


def rosenbrock(x, y):
    return (1 - x) ** 2 + 100 * (y - x * x) ** 2


def lab_race(steps: int) -> None:
    print(f"Rosenbrock from (-1.5, 2), {steps} steps: f + backward() + step(), as the lab runs them")
    print(f"{'optimizer':10}{'steps/s':>10}{'µs in step':>12}   {'end point':24}{'f':>12}")
    for name, make in LAB.items():
        x, y = Tensor(-1.5), Tensor(2.0)
        opt = make([x, y])

        def closure(x=x, y=y):
            loss = rosenbrock(x, y)
            loss.backward()
            return loss

        inside = 0.0
        t0 = time.perf_counter()
        for _ in range(steps):
            if name == "newton":
                s = time.perf_counter()
                opt.step(closure)
                inside += time.perf_counter() - s
            else:
                opt.zero_grad()
                closure()
                s = time.perf_counter()
                opt.step()
                inside += time.perf_counter() - s
        total = time.perf_counter() - t0
        end = f"({x.data:.6g}, {y.data:.6g})"
        f = rosenbrock(x.data, y.data)
        print(f"{name:10}{steps / total:10.0f}{inside / steps * 1e6:12.1f}   {end:24}{f:12.3g}")
    print("(Newton's step() includes its 5 gradient evaluations; the others' only the update)")


def training(steps: int) -> None:
    base = TrainingConfig()
    print(
        f"\ndefault training config (MLP 2-16-16-1 {base.activation}, {base.loss}, {base.dataset}, "
        f"batch {base.batch_size}, lr {base.lr:g}), {steps} steps each"
    )
    print(f"{'optimizer':10}{'steps/s':>10}{'ms/step':>10}{'ms in step':>12}{'test acc':>10}")
    for name in optim.OPTIMIZERS:
        trainer = Trainer(TrainingConfig(optimizer=name, steps=steps))
        inside = [0.0]
        step = trainer.optimizer.step

        def timed(*args, step=step, inside=inside, **kwargs):
            s = time.perf_counter()
            result = step(*args, **kwargs)
            inside[0] += time.perf_counter() - s
            return result

        trainer.optimizer.step = timed
        t0 = time.perf_counter()
        trainer.run()
        total = time.perf_counter() - t0
        done = trainer.step_count
        acc = trainer.evaluate().test_acc
        note = f"  stopped: {trainer.stopped_reason}" if trainer.stopped_reason else ""
        print(f"{name:10}{done / total:10.1f}{total / done * 1e3:10.2f}{inside[0] / done * 1e3:12.3f}{acc:10.1%}{note}")


def fma_price(rounds: int = 300) -> None:
    trainer = Trainer(TrainingConfig(optimizer="adam"))
    trainer.run(steps=2)
    opt = trainer.optimizer
    fused = optim.fma
    times = {"fused (torch's way)": 0.0, "plain a*b + c": 0.0}
    try:
        for _ in range(rounds):
            for label, f in (("fused (torch's way)", fused), ("plain a*b + c", lambda a, b, c: a * b + c)):
                optim.fma = f
                s = time.perf_counter()
                opt.step(lr=0.0)
                times[label] += time.perf_counter() - s
    finally:
        optim.fma = fused
    print(f"\nAdam step() on {len(opt.params)} weights, {rounds} alternating rounds (fma: {_fma_kind(fused)})")
    for label, t in times.items():
        print(f"  {label:22}{t / rounds * 1e3:8.3f} ms")
    ratio = times["fused (torch's way)"] / times["plain a*b + c"]
    print(f"  ratio fused/plain: {ratio:.2f}")


def _fma_kind(f) -> str:
    if f is getattr(math, "fma", None):
        return "math.fma"
    if f is exact_fma:
        return "exact rational fallback"
    return "C library via ctypes"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--steps", type=int, default=500, help="steps on Rosenbrock (default 500)")
    parser.add_argument("--train-steps", type=int, default=100, help="training steps per optimizer (default 100)")
    args = parser.parse_args()
    lab_race(args.steps)
    training(args.train_steps)
    fma_price()


if __name__ == "__main__":
    main()
