"""Saying when learning is too slow: the measures, the sentence, the trainer and the training service."""

from __future__ import annotations

import dataclasses

import pytest

from autograd_core.learn.presets import named_preset_config
from autograd_core.learn.progress import MIN_STEPS, loss_fall, relative_move, slow_learning
from autograd_core.learn.training import Trainer, TrainingConfig
from autograd_core.live.protocol import Snapshot, Start
from autograd_core.live.service import Engine

# A small run that learns far too slowly: SGD at 1e-4, full batch.
CRAWL = {"samples": 40, "layers": [4], "optimizer": "sgd", "lr": 1e-4, "batch_size": 0, "l2": 0.0, "steps": 60}


def test_the_measures():
    assert relative_move([3.0, 4.0], [3.0, 4.5]) == pytest.approx(0.1)
    assert relative_move([0.0], [0.0]) == 0.0 and relative_move([0.0], [1.0]) == float("inf")
    assert loss_fall(0.8, 0.6) == pytest.approx(0.25) and loss_fall(0.5, 0.6) == pytest.approx(-0.2)
    with pytest.raises(ValueError):
        relative_move([1.0], [1.0, 2.0])


def test_the_sentence_has_the_figures_and_waits_for_enough_steps():
    losses = [0.70] + [0.69] * 99 + [0.61]
    said = slow_learning(losses, [1.0] * 100, [1.01] * 100, 0.001, "epoch")
    assert said == (
        "learning is slow: in 100 epochs the weights moved 1.0 % of their size and the loss fell 13 % "
        "— learning rate 0.001 too small?"
    )
    assert slow_learning(losses[: MIN_STEPS - 1], [1.0], [1.01], 0.001) is None  # too early to judge
    assert slow_learning([0.7, 0.3], [1.0], [1.01], 0.001, steps=100) is None  # the loss halved: not slow
    assert slow_learning([0.7, 0.69], [1.0], [1.5], 0.001, steps=100) is None  # the weights moved: not slow
    assert "rose 10 %" in slow_learning([0.5, 0.55], [1.0], [1.0], 0.001, steps=60)


def test_the_trainer_judges_from_the_last_change_of_settings():
    trainer = Trainer(TrainingConfig(**CRAWL))
    trainer.run(MIN_STEPS - 1)
    assert trainer.slow_learning() is None
    trainer.run(1)
    assert trainer.slow_learning().startswith(f"learning is slow: in {MIN_STEPS} epochs ")
    trainer.update_settings(lr=0.5, steps=200)  # a new learning rate is judged on its own
    trainer.run(5)
    assert trainer.slow_learning() is None


@pytest.mark.slow
@pytest.mark.parametrize("task, seed", [("moons", 0), ("circles", 1)])
def test_never_said_for_the_tuned_presets(task, seed):
    trainer = Trainer(dataclasses.replace(named_preset_config(task), seed=seed, data_seed=seed))
    while not trainer.finished:
        trainer.step()
        assert trainer.slow_learning() is None, trainer.step_count


class ListPipe:
    """The service's reply pipe, kept in a list (no Qt, no process)."""

    def __init__(self):
        self.sent = []

    def send(self, message) -> None:
        self.sent.append(message)


def _snapshot(engine: Engine, pipe: ListPipe) -> Snapshot:
    engine.publish()
    return [m for m in pipe.sent if isinstance(m, Snapshot)][-1]


def test_the_services_snapshot_carries_the_sentence():
    pipe = ListPipe()
    engine = Engine(Start(config=TrainingConfig(**CRAWL).to_dict()), pipe)
    assert _snapshot(engine, pipe).slow is None
    for _ in range(MIN_STEPS):
        engine.step_once()
    snap = _snapshot(engine, pipe)
    assert snap.slow is not None and snap.slow == engine.trainer.slow_learning()
    assert f"in {MIN_STEPS} epochs" in snap.slow and "learning rate 0.0001 too small?" in snap.slow

    fast = ListPipe()
    engine = Engine(Start(config=TrainingConfig(**{**CRAWL, "optimizer": "adam", "lr": 0.05}).to_dict()), fast)
    for _ in range(MIN_STEPS + 5):
        engine.step_once()
    assert _snapshot(engine, fast).slow is None
