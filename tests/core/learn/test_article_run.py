"""The article's run (``--preset article``) against an independent reference in plain Python floats.

The reference is written as the article's reader would: ``random.seed(S)`` then ``random.uniform(-1, 1)`` for
each weight (neuron by neuron, layer by layer), biases 0, ReLU hidden layers, a sigmoid output and binary
cross-entropy, full-batch SGD at lr 0.001 on ``make_moons(200, noise=0.2, random_state=42)``.  Its own forward
and backward, no Tensor.  DESIGN.md's figures (seed 0: 0.700 → 0.606, seed 1: 0.539 → 0.507, lr 0.1 seed 0:
0.268) are the loss of the 100th epoch's forward pass, i.e. before the 100th update; the Trainer's final loss
is after it.
"""

from __future__ import annotations

import json
import math
import random

import pytest
from sklearn.datasets import make_moons

from autograd_core.cli import main as cli_main
from autograd_core.engine.tensor import Tensor
from autograd_core.learn.losses import bce_with_logits
from autograd_core.learn.presets import NOTES, PRESETS, named_preset_config
from autograd_core.learn.training import Trainer

SIZES = [2, 16, 16, 1]


def _sigmoid(z: float) -> float:
    if z >= 0:
        return 1 / (1 + math.exp(-z))
    e = math.exp(z)
    return e / (1 + e)


def reference_losses(seed: int, lr: float = 0.001, epochs: int = 100) -> list[float]:
    """The loss of every epoch's forward pass and, last, the loss after the final update (epochs + 1 values)."""
    X, y = make_moons(n_samples=200, noise=0.2, random_state=42)
    X, y = X.tolist(), [int(v) for v in y]
    random.seed(seed)
    W = [[[random.uniform(-1, 1) for _ in range(SIZES[i])] for _ in range(SIZES[i + 1])] for i in range(3)]
    B = [[0.0] * SIZES[i + 1] for i in range(3)]
    losses = []
    for epoch in range(epochs + 1):
        gW = [[[0.0] * len(row) for row in layer] for layer in W]
        gB = [[0.0] * len(b) for b in B]
        total = 0.0
        for x, t in zip(X, y):
            acts, zs, a = [x], [], x
            for i in range(3):
                z = [sum(w * v for w, v in zip(row, a)) + b for row, b in zip(W[i], B[i])]
                zs.append(z)
                a = [max(0.0, v) for v in z] if i < 2 else z
                acts.append(a)
            s = _sigmoid(zs[2][0])
            total += -(t * math.log(s) + (1 - t) * math.log(1 - s))
            delta = [(s - t) / len(X)]  # d(mean BCE)/d(logit) through the sigmoid
            for i in (2, 1, 0):
                for j, d in enumerate(delta):
                    gB[i][j] += d
                    for k, v in enumerate(acts[i]):
                        gW[i][j][k] += d * v
                if i:
                    back = [sum(delta[j] * W[i][j][k] for j in range(len(delta))) for k in range(len(acts[i]))]
                    delta = [b if zs[i - 1][k] > 0 else 0.0 for k, b in enumerate(back)]
        losses.append(total / len(X))
        if epoch == epochs:
            break
        for i in range(3):
            for j in range(len(W[i])):
                B[i][j] -= lr * gB[i][j]
                for k in range(len(W[i][j])):
                    W[i][j][k] -= lr * gW[i][j][k]
    return losses


@pytest.fixture(scope="module")
def runs():
    """Trainer runs of the preset, shared by the tests: (seed, lr) → trainer after 100 epochs."""
    done = {}
    for seed in (0, 1):
        trainer = Trainer(named_preset_config("article", {"seed": seed}))
        trainer.run()
        done[seed, 0.001] = trainer
    return done


def test_the_preset_is_the_articles_run():
    config = named_preset_config("article")
    assert (config.samples, config.noise, config.sklearn_seed, config.test_fraction) == (200, 0.2, 42, 0.0)
    assert (config.layers, config.activation, config.loss, config.init) == ([16, 16], "relu", "bce", "uniform")
    assert (config.optimizer, config.lr, config.batch_size, config.l2, config.l1) == ("sgd", 0.001, 0, 0.0, 0.0)
    assert (config.schedule, config.steps) == ("constant", 100)
    data = config.make_data()
    X, y = make_moons(n_samples=200, noise=0.2, random_state=42)
    assert data.X_train.tolist() == X.tolist() and data.y_train.tolist() == y.tolist() and len(data.y_test) == 0
    assert "before its update" in NOTES["article"] and "article" in PRESETS


def test_uniform_init_draws_the_weights_as_the_article_does():
    model = named_preset_config("article", {"seed": 3}).make_model()
    random.seed(3)
    expected = [[random.uniform(-1, 1) for _ in range(SIZES[i])] for i in range(3) for _ in range(SIZES[i + 1])]
    got = [[w.data for w in n.w] for layer in model.layers for n in layer.neurons]
    assert got == expected
    assert all(n.b.data == 0.0 for layer in model.layers for n in layer.neurons)


def test_bce_from_the_logit_is_sigmoid_then_cross_entropy():
    rng = random.Random(5)
    scores = [rng.uniform(-8, 8) for _ in range(50)]
    labels = [rng.randrange(2) for _ in scores]
    article = sum(-(t * math.log(_sigmoid(z)) + (1 - t) * math.log(1 - _sigmoid(z))) for z, t in zip(scores, labels))
    ours = bce_with_logits([Tensor(z) for z in scores], labels).data
    assert ours == pytest.approx(article / len(scores), abs=1e-9)


@pytest.mark.slow
@pytest.mark.parametrize("seed, start, in_100th, after", [(0, 0.700, 0.606, 0.605), (1, 0.539, 0.507, 0.507)])
def test_the_trainer_matches_the_reference_and_designs_figures(runs, seed, start, in_100th, after):
    reference = reference_losses(seed)
    trainer = runs[seed, 0.001]
    assert trainer.step_count == 100 and trainer.update_unit == "epoch"
    assert trainer.evaluate().train_loss == pytest.approx(reference[100], abs=1e-6)  # after the 100th update
    assert trainer.history[98].train_loss == pytest.approx(reference[99], abs=1e-6)  # what the 100th epoch saw
    assert round(reference[0], 3) == start and round(reference[99], 3) == in_100th
    assert round(reference[100], 3) == after


@pytest.mark.slow
@pytest.mark.parametrize("seed", [0, 1])
def test_learning_is_slow_at_the_articles_learning_rate(runs, seed):
    said = runs[seed, 0.001].slow_learning()
    assert said is not None and said.startswith("learning is slow: in 100 epochs the weights moved ")
    assert said.endswith("— learning rate 0.001 too small?")


@pytest.mark.slow
def test_the_cli_runs_the_preset_and_options_override_it(capsys):
    assert cli_main(["--preset", "article", "--lr", "0.1", "--steps", "100", "--json", "--progress", "none"]) == 0
    summary = json.loads(capsys.readouterr().out)
    reference = reference_losses(0, lr=0.1)
    assert summary["train_loss"] == pytest.approx(reference[100], abs=1e-6)
    assert round(reference[99], 3) == 0.268 and summary["test_acc"] is None and summary["slow"] is None


@pytest.mark.slow
def test_the_cli_says_epoch_no_test_set_and_that_learning_is_slow(capsys):
    assert cli_main(["--preset", "article", "--steps", "60", "--progress", "none"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("moons: 200 train / 0 test points; MLP 2-16-16-1 relu (337 parameters)")
    assert lines[1].startswith("learning is slow: in 60 epochs the weights moved ")
    assert lines[1].endswith("learning rate 0.001 too small?")
    assert lines[2].startswith("epoch 60: train loss ") and "no test set" in lines[2] and "(60 epochs)" in lines[2]
    assert "nan" not in " ".join(lines)


def test_minibatches_still_say_step(capsys):
    assert (
        cli_main(["--samples", "40", "--layers", "3", "--steps", "4", "--batch-size", "8", "--progress", "none"]) == 0
    )
    assert capsys.readouterr().out.splitlines()[-1].startswith("step 4: train loss ")
