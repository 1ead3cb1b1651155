"""Train every tuned preset over the issue's sweep (3 data seeds × 5 weight seeds) and check its goal.

    python benchmarks/bench_presets.py                 # every task with a goal (several minutes on one core)
    python benchmarks/bench_presets.py --task spiral   # one task (~1–4 min)
    python benchmarks/bench_presets.py --task moons --runs 3 --default-data   # the preset's network on default data

Prints, per task, each run's test accuracy, how many runs reach the goal, the
median, the steps and seconds each run took and the first step at which the
goal was reached (the app trains at this engine speed, so "seconds to goal" is
what a learner waits after Play, plus ~1 s to start the training process).
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from autograd_core.learn.presets import GOALS, PRESETS, preset_fields
from autograd_core.learn.training import Trainer, TrainingConfig


def run_task(task: str, runs: int, default_data: bool) -> bool:
    fields = dict(PRESETS[task])
    if default_data:
        fields.pop("samples", None)
        fields.pop("noise", None)
    fields = {**(preset_fields(fields["dataset"], fields.get("classes", 2)) or {}), **fields}
    if default_data:
        defaults = TrainingConfig()
        fields["samples"], fields["noise"] = defaults.samples, defaults.noise
    metric, goal = GOALS.get(task, ("test_acc", 0.0))
    seeds = [(d, w) for d in range(3) for w in range(5)][:runs]
    results, seconds, to_goal = [], [], []
    for data_seed, seed in seeds:
        config = dataclasses.replace(TrainingConfig(), **fields, data_seed=data_seed, seed=seed).validate()
        trainer = Trainer(config)
        t0 = time.perf_counter()
        reached = None
        while not trainer.finished:
            m = trainer.step()
            value = getattr(m, metric)
            if reached is None and value is not None and value >= goal:
                reached = (m.step, time.perf_counter() - t0)
        seconds.append(time.perf_counter() - t0)
        results.append(getattr(trainer.evaluate(), metric))
        to_goal.append(reached)
    hits = sum(v >= goal for v in results)
    print(
        f"{task:8s} goal {metric} ≥ {goal:.0%}: {hits}/{len(results)} runs, median {statistics.median(results):.1%}, "
        f"min {min(results):.1%}; {fields['steps']} steps in {statistics.median(seconds):.1f} s (median)"
        + (" [default data: samples 200, noise 0.1]" if default_data else "")
    )
    print("          each run: " + " ".join(f"{v:.1%}" for v in results))
    reached = [r for r in to_goal if r is not None]
    if reached:
        print(
            f"          goal first reached at step {max(r[0] for r in reached)} at worst, "
            f"after {max(r[1] for r in reached):.1f} s at worst"
        )
    return hits == len(results)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--task", choices=sorted(PRESETS), action="append", help="task(s) to run (default: all goals)")
    parser.add_argument("--runs", type=int, default=15, help="runs of the sweep to do (default all 15)")
    parser.add_argument("--default-data", action="store_true", help="the default 200 points at noise 0.1")
    args = parser.parse_args()
    ok = True
    for task in args.task or list(GOALS):
        ok &= run_task(task, args.runs, args.default_data)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
