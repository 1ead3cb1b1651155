"""Regression: a typed target of x, MSE and Huber with exact gradients, R², unit contributions, the CLI."""

import math
import warnings

import numpy as np
import pytest

from autograd_core.cli import main as cli_main
from autograd_core.engine.tensor import Tensor
from autograd_core.learn.nn import MLP
from autograd_core.learn.regression import (
    RegressionConfig,
    RegressionTrainer,
    huber,
    loss_array,
    make_regression_data,
    r2_score,
    target_values,
    unit_contributions,
)


def test_target_is_the_expression_language_never_eval():
    x = np.linspace(-1, 1, 5)
    np.testing.assert_allclose(target_values("sin(3*x) + 0.1*x**2", x), np.sin(3 * x) + 0.1 * x**2, rtol=1e-12)
    np.testing.assert_allclose(target_values("2", x), 2.0)
    with pytest.raises(ValueError, match="only x, not y"):
        target_values("x + y", x)
    with pytest.raises(ValueError, match="not a valid expression"):
        target_values("__import__('os')", x)
    with pytest.raises(ValueError, match="not finite at x"):
        target_values("log(x)", np.array([1.0, -1.0]))


def test_huber_and_mse_values_and_gradients_by_hand():
    r = [Tensor(0.5), Tensor(-3.0)]
    loss = huber(r, 1.0)
    assert loss.data == pytest.approx((0.5 * 0.25 + 1.0 * (3.0 - 0.5)) / 2)
    loss.backward()
    assert r[0].grad == pytest.approx(0.5 / 2) and r[1].grad == pytest.approx(-1.0 / 2)
    assert loss_array("huber", np.array([0.5, -3.0]), np.zeros(2)) == pytest.approx(loss.data)
    assert loss_array("mse", np.array([1.0, 3.0]), np.array([0.0, 1.0])) == pytest.approx(2.5)


def test_r2_and_unit_contributions_add_up():
    y = np.array([1.0, 2.0, 3.0, 4.0])
    assert r2_score(y, y) == 1.0 and r2_score(np.full(4, 2.5), y) == pytest.approx(0.0)
    model = MLP(1, [5, 4, 1], activation="relu", seed=3)
    x = np.linspace(-2, 2, 9)
    parts, bias = unit_contributions(model, x)
    assert parts.shape == (4, 9)
    np.testing.assert_allclose(parts.sum(axis=0) + bias, model.forward_array(x.reshape(-1, 1)), rtol=1e-12)


def test_a_diverged_fit_scores_inf_without_a_warning():
    huge, y = np.array([1e200, -1e200, 3.0]), np.array([0.0, 1.0, 2.0])
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # numpy's overflow warning would fail here
        assert loss_array("mse", huge, y) == math.inf and loss_array("huber", huge, y) == pytest.approx(2e200 / 3)
        assert loss_array("huber", np.array([1e308, -1e308]), np.array([-1e308, 1e308])) == math.inf
        assert r2_score(huge, y) == -math.inf


def test_trainer_fits_and_data_are_seeded():
    config = RegressionConfig(target="2*x + 1", noise=0.0, layers=[4], activation="tanh", steps=150, lr=0.05)
    a, b = make_regression_data(config), make_regression_data(config)
    np.testing.assert_array_equal(a.x_train, b.x_train)
    np.testing.assert_allclose(a.y_train, 2 * a.x_train + 1)
    trainer = RegressionTrainer(config)
    first = trainer.evaluate().train_loss
    trainer.run()
    m = trainer.evaluate()
    assert m.train_loss < first / 10 and m.test_r2 > 0.95
    with pytest.raises(ValueError, match="mse, huber"):
        RegressionConfig(loss="bce").validate()


def test_cli_regression_prints_the_test_r2(capsys, tmp_path):
    assert cli_main(["--task", "regression", "--target", "x**2", "--steps", "5", "--samples", "40"]) == 0
    out = capsys.readouterr().out
    assert "MLP 1-16-16-1" in out and "test R²" in out
    table = tmp_path / "t.csv"
    table.write_text("u,v\n" + "".join(f"{i / 10},{(i / 10) ** 2}\n" for i in range(30)))
    args = ["--task", "regression", "--data", str(table), "--x-columns", "u", "--target-column", "v", "--steps", "3"]
    assert cli_main(args) == 0
    assert "regression of t:" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        cli_main(["--task", "regression", "--loss", "hinge"])
    assert "regression takes mse or huber" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        cli_main(["--loss", "huber"])
    assert "--loss huber is a regression loss" in capsys.readouterr().err
