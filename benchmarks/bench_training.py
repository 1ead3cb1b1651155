"""Training speed: the default config's steps per second, and micrograd's demo recipe end to end against micrograd.

1. Default ``TrainingConfig`` on moons and circles (200 samples, noise 0.1, 25 % test):
   ms per step, steps per second, the first step (and seconds) at ≥ 97 % test accuracy, final accuracy.
2. micrograd's demo (karpathy/micrograd demo.ipynb): make_moons(100, noise=0.1), labels ±1,
   MLP(2, [16, 16, 1]), hinge + 1e-4·Σp², full batch, SGD lr = 1 − 0.9·k/100, 100 steps.
   This library's ``Trainer`` (the app's training path, which also evaluates the whole set
   every step) against the ``micrograd`` package running the notebook's loop; same data.
   Each runs in its own fresh process (so neither pays for the other's garbage), this library
   both as shipped and after ``gc.freeze()`` at start-up; CPU seconds, ratio, accuracy.

    python benchmarks/bench_training.py [--steps 100] [--seeds 3] [--skip-micrograd]
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
from sklearn.datasets import make_moons

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from autograd_core.learn.data import dataset_from_points
from autograd_core.learn.training import Trainer, TrainingConfig, micrograd_recipe

RECIPE = micrograd_recipe()


def default_runs(seeds: int) -> None:
    config = TrainingConfig()
    print(
        f"default config: MLP 2-{'-'.join(map(str, config.layers))}-1 {config.activation}, {config.loss}, "
        f"{config.optimizer} lr {config.lr:g} ({config.schedule}), batch {config.batch_size or 'full'}, "
        f"{config.steps} steps"
    )
    print(
        f"{'data set':10}{'seed':>5}{'ms/step':>10}{'steps/s':>9}{'≥97% at step':>14}{'after s':>9}{'final test':>12}"
    )
    for dataset in ("moons", "circles"):
        for seed in range(seeds):
            trainer = Trainer(TrainingConfig(dataset=dataset, seed=seed, data_seed=seed))
            first = first_t = None
            t0 = time.perf_counter()
            while not trainer.finished:
                m = trainer.step()
                if first is None and m.test_acc >= 0.97:
                    first, first_t = m.step, time.perf_counter() - t0
            total = time.perf_counter() - t0
            ms = total / trainer.step_count * 1e3
            reach = f"{first}" if first else "never"
            after = f"{first_t:.2f}" if first else "-"
            print(f"{dataset:10}{seed:5d}{ms:10.1f}{1e3 / ms:9.0f}{reach:>14}{after:>9}{m.test_acc:12.1%}")


def recipe_data():
    X, y = make_moons(n_samples=100, noise=0.1, random_state=1337)
    return X, y


def ours(steps: int, freeze: bool = False):
    X, y = recipe_data()
    config = TrainingConfig(**{**RECIPE.to_dict(), "steps": steps, "seed": 1337})
    trainer = Trainer(config, data=dataset_from_points(X.tolist(), y.tolist()))
    if freeze:  # what a long-lived training process can do once it has started
        gc.collect()
        gc.freeze()
    t0 = time.process_time()
    trainer.run()
    last = trainer.history[-1]  # loss: the objective of the last step (hinge + L2), as micrograd prints it
    return time.process_time() - t0, last.train_acc, last.batch_loss


def theirs(steps: int):
    from micrograd.engine import Value
    from micrograd.nn import MLP

    X, y = recipe_data()
    y = y * 2 - 1
    random.seed(1337)
    np.random.seed(1337)
    model = MLP(2, [16, 16, 1])
    t0 = time.process_time()
    for k in range(steps):  # the notebook's loop, verbatim in substance
        inputs = [list(map(Value, xrow)) for xrow in X]
        scores = list(map(model, inputs))
        losses = [(1 + -yi * scorei).relu() for yi, scorei in zip(y, scores)]
        data_loss = sum(losses) * (1.0 / len(losses))
        reg_loss = 1e-4 * sum(p * p for p in model.parameters())
        total_loss = data_loss + reg_loss
        _accuracy = [(yi > 0) == (scorei.data > 0) for yi, scorei in zip(y, scores)]  # the notebook does this
        model.zero_grad()
        total_loss.backward()
        learning_rate = 1.0 - 0.9 * k / 100
        for p in model.parameters():
            p.data -= learning_rate * p.grad
    # Accuracy after the last update, as this library reports it.
    scores = [model(list(map(Value, xrow))).data for xrow in X]
    acc = float(np.mean([(yi > 0) == (s > 0) for yi, s in zip(y, scores)]))
    return time.process_time() - t0, acc, total_loss.data


def row(name: str, seconds: float, steps: int, acc: float, loss: float) -> str:
    return (
        f"  {name:13}: {seconds:7.2f} s  ({seconds / steps * 1e3:6.1f} ms/step)  train acc {acc:.0%}, loss {loss:.4f}"
    )


def fresh(which: str, steps: int) -> tuple[float, float, float]:
    """Run ``ours``/``ours-freeze``/``micrograd`` in a fresh Python process."""
    out = subprocess.run(
        [sys.executable, __file__, "--child", which, "--steps", str(steps)], check=True, capture_output=True, text=True
    )
    return tuple(json.loads(out.stdout.strip().splitlines()[-1]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=100, help="steps of micrograd's recipe (its demo: 100)")
    parser.add_argument("--seeds", type=int, default=3, help="seeds of the default config per data set")
    parser.add_argument("--skip-micrograd", action="store_true", help="only this library")
    parser.add_argument("--child", choices=("ours", "ours-freeze", "micrograd"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        run = {"ours": ours, "ours-freeze": lambda n: ours(n, freeze=True), "micrograd": theirs}[args.child]
        print(json.dumps(run(args.steps)))
        return

    default_runs(args.seeds)
    print()
    print(f"micrograd's demo recipe, {args.steps} steps end to end (same data; each in a fresh process; CPU s):")
    t_ours, acc_ours, loss_ours = fresh("ours", args.steps)
    print(row("this library", t_ours, args.steps, acc_ours, loss_ours))
    t_frozen, acc_frozen, loss_frozen = fresh("ours-freeze", args.steps)
    print(row("+ gc.freeze()", t_frozen, args.steps, acc_frozen, loss_frozen))
    if args.skip_micrograd:
        return
    try:
        import micrograd  # noqa: F401
    except ImportError:
        print("  micrograd is not installed: pip install -r requirements-dev.txt")
        return
    t_mg, acc_mg, loss_mg = fresh("micrograd", args.steps)
    print(row("micrograd", t_mg, args.steps, acc_mg, loss_mg))
    print(f"  speed-up     : {t_mg / t_ours:.1f}x as shipped, {t_mg / t_frozen:.1f}x after gc.freeze()")


if __name__ == "__main__":
    main()
