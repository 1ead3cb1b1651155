"""PyTorch exports train like the app: every optimizer, loss, activation, schedule, a feature, regression, and the
five named runs of the command line, to 1e-6.  Skipped without torch (it is not a dependency of the project:
``tools/check_torch_exports.py`` makes a venv with it and runs these)."""

from __future__ import annotations

import contextlib
import io
import re
import runpy

import numpy as np
import pytest
from export_helpers import FEATURE_GROUPS, MATRIX, cli_train_loss, script_train_loss

from autograd_core.export import torch_script
from autograd_core.export.options import write_export
from autograd_core.learn.nn import ACTIVATIONS
from autograd_core.learn.optim import OPTIMIZERS, SCHEDULES
from autograd_core.learn.regression import RegressionConfig, RegressionTrainer
from autograd_core.learn.training import Trainer, TrainingConfig

torch = pytest.importorskip("torch")

FAST = {"samples": 48, "layers": [5], "steps": 6, "batch_size": 8}
TOLERANCE = 1e-6


def torch_loss(config, tmp_path, data=None) -> float:
    """Write the export and run it here (runpy: no second interpreter start); its last line's number."""
    path = tmp_path / "run_torch.py"
    write_export(path, torch_script(config, data))
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        runpy.run_path(str(path), run_name="__main__")
    match = re.fullmatch(r"train loss (\S+)", out.getvalue().strip().splitlines()[-1])
    assert match
    return float(match.group(1))


def app_loss(config) -> float:
    trainer = RegressionTrainer(config) if isinstance(config, RegressionConfig) else Trainer(config)
    trainer.run()
    return trainer.evaluate().train_loss


CASES = {
    **{f"optimizer-{name}": {"optimizer": name, "lr": 0.05} for name in OPTIMIZERS},
    **{f"loss-{name}": {"loss": name} for name in ("bce", "hinge", "mse")},
    **{f"activation-{name}": {"activation": name, "init": "he"} for name in ACTIVATIONS},
    **{f"schedule-{name}": {"schedule": name} for name in SCHEDULES},
    "softmax-3-classes": {"dataset": "spiral", "classes": 3, "optimizer": "rmsprop", "lr": 0.01},
    "features": {"features": ["x1*x2", "sin(2*x1) + x2**2", "leaky_relu(x1, 0.2)"], "dataset": "xor"},
    "l1-and-l2": {"l1": 1e-3, "l2": 1e-2, "optimizer": "momentum", "lr": 0.1},
    "two-layers-mixed": {"layers": [4, 3], "activations": ["tanh", "gelu"], "optimizer": "adamw"},
    "full-batch-linear-model": {"layers": [], "batch_size": 0, "optimizer": "nesterov", "lr": 0.1},
    "iris-columns": {"dataset": "iris", "columns": [2, 3], "standardize": True},
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_torch_export_trains_like_the_app(name, tmp_path):
    config = TrainingConfig(**{**FAST, **CASES[name]})
    assert torch_loss(config, tmp_path) == pytest.approx(app_loss(config), rel=0, abs=TOLERANCE)


@pytest.mark.parametrize(
    "fields",
    [
        {"loss": "mse"},
        {"loss": "huber", "huber_delta": 0.3, "optimizer": "adagrad", "lr": 0.1},
        {"schedule": "cosine", "l2": 1e-3, "optimizer": "rmsprop", "batch_size": 0},
        {"activation": "relu", "optimizer": "momentum", "schedule": "linear", "target": "x**2 - abs(x)"},
    ],
)
def test_torch_export_of_a_regression(fields, tmp_path):
    config = RegressionConfig(**{"samples": 60, "layers": [6], "steps": 8, "batch_size": 16, **fields})
    assert torch_loss(config, tmp_path) == pytest.approx(app_loss(config), rel=0, abs=TOLERANCE)


def test_painted_points_over_ten_thousand_go_into_an_npz(tmp_path):
    rng = np.random.default_rng(1)
    points = [[x, y, int(x * y > 0)] for x, y in rng.normal(size=(10_020, 2)).tolist()]
    config = TrainingConfig(points=points, test_fraction=0.0, layers=[3], steps=2, batch_size=64)
    export = torch_script(config)
    assert export.arrays is not None and export.arrays["X_train"].shape == (10_020, 2)
    assert torch_loss(config, tmp_path) == pytest.approx(app_loss(config), rel=0, abs=TOLERANCE)
    assert (tmp_path / "run_torch.npz").exists()


@pytest.mark.parametrize("name", sorted(MATRIX))
def test_the_five_runs_of_the_command_line_in_torch(name, tmp_path):
    script = tmp_path / "torch_run.py"
    cli_loss = cli_train_loss([*MATRIX[name], "--export-torch", str(script)])
    assert script_train_loss(script) == pytest.approx(cli_loss, rel=0, abs=TOLERANCE)


def test_given_regression_data_is_written_into_the_torch_script(tmp_path):
    from autograd_core.learn.regression import RegressionData

    rng = np.random.default_rng(2)
    x = rng.uniform(-2, 2, size=40)
    data = RegressionData(x[:30], np.cos(x[:30]), x[30:], np.cos(x[30:]), "file")
    config = RegressionConfig(layers=[5], steps=7, batch_size=8, loss="huber")
    trainer = RegressionTrainer(config, data=data)
    trainer.run()
    assert torch_loss(config, tmp_path, data) == pytest.approx(trainer.evaluate().train_loss, rel=0, abs=TOLERANCE)


@pytest.mark.parametrize("group", range(len(FEATURE_GROUPS)))
def test_every_op_of_a_feature_becomes_torch_code(group, tmp_path):
    config = TrainingConfig(**{**FAST, "features": FEATURE_GROUPS[group], "dataset": "circles"})
    assert torch_loss(config, tmp_path) == pytest.approx(app_loss(config), rel=0, abs=TOLERANCE)


def test_a_diverging_run_stops_in_torch_where_the_app_stops(tmp_path):
    config = TrainingConfig(**{**FAST, "optimizer": "sgd", "lr": 300.0, "loss": "mse", "steps": 30})
    trainer = Trainer(config)
    trainer.run()
    assert trainer.stopped_reason is not None
    assert torch_loss(config, tmp_path) == pytest.approx(trainer.evaluate().train_loss, rel=0, abs=TOLERANCE)
