"""Where the "learning is slow" message sets its thresholds: how far the weights move and the loss falls.

For the article's run (lr 0.001 and lr 0.1, weight seeds 0–2) and every tuned preset (2 data seeds × 2
weight seeds), from step ``MIN_STEPS`` on, the smallest weight movement and loss fall seen, and whether
``Trainer.slow_learning`` spoke at any step.  The message must speak for the article at lr 0.001 only.

    python benchmarks/bench_slow_learning.py
"""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from autograd_core.learn.presets import PRESETS, named_preset_config
from autograd_core.learn.progress import MIN_STEPS, loss_fall, relative_move
from autograd_core.learn.training import Trainer


def measure(config) -> tuple[float, float, str | None]:
    """(smallest weight movement, smallest loss fall, first sentence) over the steps from MIN_STEPS on."""
    trainer = Trainer(config)
    start_loss, start_weights = trainer.evaluate().train_loss, trainer.model.state_dict()
    least_move = least_fall = float("inf")
    said = None
    while not trainer.finished:
        m = trainer.step()
        if trainer.step_count >= MIN_STEPS:
            least_move = min(least_move, relative_move(start_weights, trainer.model.state_dict()))
            least_fall = min(least_fall, loss_fall(start_loss, m.train_loss))
            said = said or trainer.slow_learning()
    return least_move, least_fall, said


def main() -> int:
    wrong = 0
    for lr in (0.001, 0.1):
        for seed in range(3):
            move, fall, said = measure(named_preset_config("article", {"lr": lr, "seed": seed}))
            wrong += (said is None) == (lr == 0.001)
            print(f"article lr {lr:g} seed {seed}: weights moved ≥ {move:.2%}, loss fell ≥ {fall:.1%}; {said}")
    for name in PRESETS:
        if name == "article":
            continue
        for data_seed in range(2):
            for seed in range(2):
                config = dataclasses.replace(named_preset_config(name), data_seed=data_seed, seed=seed)
                move, fall, said = measure(config)
                wrong += said is not None
                print(
                    f"{name:8s} data {data_seed} seed {seed}: weights moved ≥ {move:.1%}, loss fell ≥ {fall:.1%}"
                    + (f"; SAID: {said}" if said else "")
                )
    print("all as expected" if not wrong else f"{wrong} run(s) not as expected")
    return 1 if wrong else 0


if __name__ == "__main__":
    raise SystemExit(main())
