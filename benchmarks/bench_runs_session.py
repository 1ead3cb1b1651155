"""Saving and loading a session that keeps a full run history (goal: under a second each).

The session holds a realistic trainer (the default 2-16-16-1 network trained for its 300 steps, with its
history) and 50 runs, each with five 2,000-point curves and a 40×40 picture of the trained model's regions
(``record_trainer_run`` with the training service's RegionGrid). Prints the best of ``--repeat`` times of
``save_session`` and ``load_session``, the file size, and the history's own share: ``to_list`` / ``from_list``
and its memory estimate (``RunHistory.nbytes``).

    python benchmarks/bench_runs_session.py [--repeat 5]
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from autograd_core.files import format_size
from autograd_core.learn.regions import class_regions, map_extent
from autograd_core.learn.runs import CURVE_POINTS, MAX_RUNS, RunHistory, record_trainer_run
from autograd_core.learn.training import Trainer, TrainingConfig
from autograd_core.session import load_session, save_session


def best_of(repeat: int, action) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        action()
        times.append(time.perf_counter() - t0)
    return min(times)


def full_history(trainer: Trainer) -> RunHistory:
    """50 runs of 2,000 points: the trained run's curves stretched over 2,000 steps, a little different each."""
    grid = class_regions(trainer.model, map_extent(trainer.data))  # what a snapshot carries
    history = RunHistory()
    for i in range(MAX_RUNS):
        trainer.config.lr = 0.05 * (1 + i % 5)
        record_trainer_run(history, trainer, 3.0, grid)
        run = history.current
        n = CURVE_POINTS
        run.curves = {
            "step": [k * 5 for k in range(n)],
            "train_loss": [0.7 * math.exp(-k / (300 + i)) + 0.05 for k in range(n)],
            "test_loss": [0.7 * math.exp(-k / (320 + i)) + 0.08 for k in range(n)],
            "train_acc": [1 - 0.5 * math.exp(-k / (200 + i)) for k in range(n)],
            "test_acc": [1 - 0.5 * math.exp(-k / (210 + i)) - 0.01 for k in range(n)],
        }
        run.steps = 5 * (n - 1)
    return history


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()

    trainer = Trainer(TrainingConfig())
    trainer.run()
    history = full_history(trainer)
    values = sum(len(v) for r in history.runs for v in r.curves.values())
    print(
        f"{len(history.runs)} runs, {values:,} curve values, pictures {history.runs[0].picture.size}² cells; "
        f"trainer {trainer.model.num_parameters()} parameters, {len(trainer.history)} history steps"
    )
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "session.json")
        save = best_of(args.repeat, lambda: save_session(path, trainer, runs=history))
        load = best_of(args.repeat, lambda: load_session(path))
        size = os.path.getsize(path)
        loaded = load_session(path)
    assert loaded.runs == history.runs
    items = history.to_list()
    to_list = best_of(args.repeat, history.to_list)
    from_list = best_of(args.repeat, lambda: RunHistory.from_list(items))
    print(f"save_session  {save:.3f} s   (goal < 1 s)")
    print(f"load_session  {load:.3f} s   (goal < 1 s)")
    print(f"file          {format_size(size)}")
    print(f"to_list       {to_list:.3f} s;  from_list (validation included) {from_list:.3f} s")
    print(f"nbytes        {format_size(history.nbytes())} (the memory guard's estimate of the history)")


if __name__ == "__main__":
    main()
