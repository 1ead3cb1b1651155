"""First Play trains: the app's defaults (``TrainingConfig()``, with moons or circles chosen) and the tuned
moons and circles presets reach ≥ 97 % test accuracy on every one of 3 data seeds × 3 weight seeds.

Prints, per data set and per setting, the 3 × 3 table of final test accuracies (rows: data seeds, columns:
weight seeds), its minimum and the median time of a run; exits with 1 if any run is below the goal.

    python benchmarks/bench_first_play.py
"""

from __future__ import annotations

import dataclasses
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from autograd_core.learn.presets import named_preset_config
from autograd_core.learn.training import Trainer, TrainingConfig

GOAL = 0.97
SEEDS = range(3)


def table(base: TrainingConfig) -> tuple[list[list[float]], float]:
    """Test accuracies [data seed][weight seed] and the median seconds of a run."""
    rows, seconds = [], []
    for data_seed in SEEDS:
        row = []
        for seed in SEEDS:
            trainer = Trainer(dataclasses.replace(base, data_seed=data_seed, seed=seed))
            t0 = time.perf_counter()
            trainer.run()
            seconds.append(time.perf_counter() - t0)
            row.append(trainer.evaluate().test_acc)
        rows.append(row)
    return rows, statistics.median(seconds)


def main() -> int:
    failed = 0
    for dataset in ("moons", "circles"):
        for label, config in (
            ("defaults", TrainingConfig(dataset=dataset)),
            ("preset", named_preset_config(dataset)),
        ):
            rows, seconds = table(config)
            low = min(min(r) for r in rows)
            failed += low < GOAL
            print(f"{dataset} {label} ({config.steps} steps, {seconds:.1f} s per run): minimum {low:.1%}")
            print("  data seed \\ weight seed " + " ".join(f"{s:>7d}" for s in SEEDS))
            for data_seed, row in zip(SEEDS, rows):
                print(f"  {data_seed:>24d} " + " ".join(f"{v:7.1%}" for v in row))
    print("every run reached the goal" if not failed else f"{failed} table(s) below {GOAL:.0%}")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
