"""Every tuned preset reaches its goal on seeds it was not tuned on (data 0–2 × weights 0–4 were the tuning seeds).

One unseen seed pair per preset, trained until the goal is first reached (a few seconds each): the full sweep of
5 × 5 unseen pairs, each to its last step, is ``benchmarks/bench_presets.py``.  Data seed 5 with weight seed 7
is the pair where the two-class spiral once ended at 94.7 %.
"""

import dataclasses

import pytest

from autograd_core.learn.presets import GOALS, named_preset_config
from autograd_core.learn.training import Trainer


@pytest.mark.slow
@pytest.mark.parametrize("task", sorted(GOALS))
def test_the_preset_reaches_its_goal_on_an_unseen_seed_pair(task):
    metric, goal = GOALS[task]
    trainer = Trainer(dataclasses.replace(named_preset_config(task), data_seed=5, seed=7))
    best = 0.0
    while not trainer.finished and best < goal:
        best = max(best, getattr(trainer.step(), metric))
    assert best >= goal, f"{task}: best {metric} {best:.1%} in {trainer.step_count} steps, goal {goal:.0%}"


# The pair where each preset of the last round ended below its goal (xor 96.0 %, spiral 94.0 %), trained to its
# last step: what the learner is left with.  The three-arm spiral's (8, 7), 94.7 % then, is the benchmark's: its
# 800 steps take too long for the suite.
@pytest.mark.slow
@pytest.mark.parametrize("task, data_seed, seed", [("xor", 6, 6), ("spiral", 5, 8)])
def test_the_preset_ends_at_its_goal_where_the_last_one_missed_it(task, data_seed, seed):
    metric, goal = GOALS[task]
    trainer = Trainer(dataclasses.replace(named_preset_config(task), data_seed=data_seed, seed=seed))
    trainer.run()
    final = getattr(trainer.evaluate(), metric)
    assert trainer.step_count == trainer.config.steps and final >= goal, f"{task}: {final:.1%} at the end"
