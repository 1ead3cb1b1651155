"""Exports: the library script reproduces the command line's train loss, the NumPy model its outputs, bad paths
and unsupported settings are one-line errors.  (PyTorch exports: test_export_torch.py.)"""

from __future__ import annotations

import ast
import dataclasses
import io
import json
import tokenize

import numpy as np
import pytest
from export_helpers import FEATURE_GROUPS, MATRIX, cli_run, cli_train_loss, load_module, script_train_loss

from autograd_core.engine.ops import OPS
from autograd_core.export import ExportUnsupported, numpy_model_script, python_export, python_script, torch_script
from autograd_core.learn.nn import ACTIVATIONS, MLP
from autograd_core.learn.regression import RegressionConfig, RegressionTrainer
from autograd_core.learn.training import Trainer, TrainingConfig
from autograd_core.session import load_session, trainer_from_session

GRID = np.stack(np.meshgrid(np.linspace(-3, 3, 41), np.linspace(-2.5, 2.5, 37)), axis=-1).reshape(-1, 2)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(MATRIX))
def test_the_python_export_and_the_numpy_model_reproduce_the_command_line(name, tmp_path):
    argv = MATRIX[name]
    script, model_file, session = tmp_path / "run.py", tmp_path / "model.py", tmp_path / "run.json"
    extra = ["--export-python", str(script), "--export-numpy", str(model_file)]
    regression = "regression" in argv
    cli_loss = cli_train_loss([*argv, *extra] + ([] if regression else ["--save", str(session)]))
    assert script_train_loss(script) == pytest.approx(cli_loss, rel=0, abs=1e-9)

    predict = load_module(model_file).predict
    if regression:
        trainer = RegressionTrainer(RegressionConfig(target="sin(3*x)", steps=60))
        trainer.run()
        assert trainer.evaluate().train_loss == cli_loss  # the replay is the command line's run
        xs = np.linspace(-2.5, 2.5, 301)
        expected = trainer.predict(xs)
        got = predict(xs)
    else:
        model = trainer_from_session(load_session(session)).model
        expected, got = model.forward_array(GRID), predict(GRID)
    assert got.shape == expected.shape
    assert np.max(np.abs(got - expected)) <= 1e-12


def test_the_script_is_plain_readable_python_in_the_projects_words():
    text = python_script(TrainingConfig(steps=5))
    tree = ast.parse(text)
    assert text.strip().splitlines()[-1] == 'print(f"train loss {final!r}")'
    for words in ("make_dataset(", "MLP(2, [16, 16, 1]", "model.zero_grad()", "loss.backward()", "optimizer.step("):
        assert words in text
    assert not [n for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id in ("eval", "exec", "compile")]
    assert len(text.splitlines()) < 120


def test_features_and_painted_points_are_reproduced(tmp_path):
    rng = np.random.default_rng(3)
    points = [[float(x), float(y), int(x * y > 0)] for x, y in rng.uniform(-1, 1, size=(60, 2))]
    config = TrainingConfig(
        points=points, features=["x1*x2", "sin(x2) + x1**2"], layers=[6], steps=12, batch_size=16, l1=1e-3
    )
    trainer = Trainer(config)
    trainer.run()
    path = tmp_path / "painted.py"
    path.write_text(python_script(config))
    assert script_train_loss(path) == trainer.evaluate().train_loss
    # the model with its features, as NumPy
    model_path = tmp_path / "model.py"
    model_path.write_text(numpy_model_script(trainer.model))
    got = load_module(model_path).predict(GRID)
    assert np.max(np.abs(got - trainer.model.forward_array(GRID))) <= 1e-12


def test_over_ten_thousand_points_go_into_an_npz_beside_the_script(tmp_path):
    rng = np.random.default_rng(0)
    xy = rng.normal(size=(10_050, 2))
    points_file = tmp_path / "points.csv"
    points_file.write_text("".join(f"{x!r},{y!r},{int(x > y)}\n" for x, y in xy.tolist()))
    script = tmp_path / "big.py"
    argv = ["--points", str(points_file), "--layers", "4", "--steps", "3", "--test-fraction", "0"]
    loss = cli_train_loss([*argv, "--export-python", str(script)])
    assert (tmp_path / "big.npz").exists()
    assert script.stat().st_size < 10_000  # the points are not in the text
    assert script_train_loss(script) == loss
    points = [[x, y, int(x > y)] for x, y in xy.tolist()]
    export = python_export(TrainingConfig(points=points, steps=1, test_fraction=0.0))
    assert export.arrays is not None and export.arrays["X_train"].shape[0] > 10_000


@pytest.mark.parametrize("activation", ACTIVATIONS)
def test_the_numpy_model_matches_forward_array_for_every_activation(activation, tmp_path):
    for nouts, task in (([5, 3, 1], "classification"), ([4, 3], "classification")):
        model = MLP(2, nouts, activation=activation, init="he", seed=7)
        path = tmp_path / f"m{len(nouts)}.py"
        path.write_text(numpy_model_script(model, task=task, classes=max(2, nouts[-1])))
        module = load_module(path)
        expected = model.forward_array(GRID * 3.0)
        assert np.max(np.abs(module.predict(GRID * 3.0) - expected)) <= 1e-12
        if nouts[-1] > 1:
            assert np.array_equal(module.predict_class(GRID), np.argmax(model.forward_array(GRID), axis=1))
            assert np.allclose(module.probabilities(GRID).sum(axis=1), 1.0)


def test_the_numpy_model_takes_a_list_of_weights_and_regression(tmp_path):
    model = MLP(1, [8, 1], activation="tanh", seed=1)
    path = tmp_path / "model.py"
    path.write_text(numpy_model_script(model.weight_arrays(), ["tanh"], task="regression"))
    module = load_module(path)
    xs = np.linspace(-3, 3, 101)
    assert np.max(np.abs(module.predict(xs) - model.forward_array(xs.reshape(-1, 1)))) <= 1e-12
    assert not hasattr(module, "probabilities")
    with pytest.raises(ValueError, match="activations for"):
        numpy_model_script(model.weight_arrays(), ["tanh", "tanh", "tanh"], task="regression")


def test_user_text_never_becomes_code():
    """A feature's comment and assigned names stay in comments and string literals; its ops become calls."""
    config = TrainingConfig(features=["h = x1*x2  # os.system('rm -rf /')\nh + sin(x2)"], layers=[3], steps=1)
    for text in (python_script(config), torch_script(config).text, numpy_model_script(config.make_model())):
        tree = ast.parse(text)
        names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
        attributes = {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
        assert "system" not in attributes and "h" not in names and "eval" not in names
        tokens = tokenize.generate_tokens(io.StringIO(text).readline)
        code_tokens = [t.string for t in tokens if t.type == tokenize.NAME]
        assert "system" not in code_tokens and "rm" not in code_tokens


def test_bad_export_paths_are_one_line_errors_before_training(tmp_path):
    missing = tmp_path / "no-such-folder" / "run.py"
    for option in ("--export-python", "--export-torch", "--export-numpy"):
        code, out, err = cli_run(["--steps", "1", option, str(missing)])
        assert code == 2 and out == ""
        assert len(err.strip().splitlines()) == 1 and f"cannot write {option}" in err and "Traceback" not in err
    code, _, err = cli_run(["--steps", "1", "--export-python", str(tmp_path / "a.py"), "--export-numpy",
                            str(tmp_path / "a.py")])  # fmt: skip
    assert code == 2 and "name the same file" in err
    code, _, err = cli_run(["--task", "regression", "--steps", "1", "--export-torch", str(missing)])
    assert code == 2 and "cannot write --export-torch" in err


def test_an_unsupported_setting_is_one_sentence_and_nothing_is_written(tmp_path, monkeypatch):
    monkeypatch.setattr(OPS["tanh"], "spell", dataclasses.replace(OPS["tanh"].spell, torch_module=None))
    config = TrainingConfig(activation="tanh", steps=1)
    with pytest.raises(ExportUnsupported) as caught:
        torch_script(config)
    assert str(caught.value) == "the activation tanh has no PyTorch counterpart"
    target = tmp_path / "t.py"
    code, out, err = cli_run(["--activation", "tanh", "--steps", "1", "--export-torch", str(target), "--json"])
    assert code == 1 and out == "" and not target.exists()
    assert err == "error: cannot write --export-torch: the activation tanh has no PyTorch counterpart\n"


def test_exports_say_wrote_and_load_is_refused_for_recipes(tmp_path):
    script, session = tmp_path / "s.py", tmp_path / "s.json"
    code, out, _ = cli_run(["--steps", "2", "--export-python", str(script), "--save", str(session)])
    assert code == 0 and f"wrote {script}" in out.splitlines()
    code, _, err = cli_run(["--load", str(session), "--steps", "3", "--export-python", str(tmp_path / "x.py")])
    assert code == 2 and "cannot follow --load" in err
    code, out, _ = cli_run(["--load", str(session), "--steps", "3", "--export-numpy", str(tmp_path / "m.py")])
    assert code == 0 and (tmp_path / "m.py").exists()


def test_regression_json_summary_has_the_full_precision_loss():
    code, out, _ = cli_run(["--task", "regression", "--steps", "5", "--json"])
    summary = json.loads(out)
    trainer = RegressionTrainer(RegressionConfig(steps=5))
    trainer.run()
    assert code == 0 and summary["train_loss"] == trainer.evaluate().train_loss and summary["step"] == 5


def test_imported_tables_are_written_into_the_scripts(tmp_path):
    rng = np.random.default_rng(5)
    table = tmp_path / "table.csv"
    rows = rng.normal(size=(70, 2)).tolist()
    table.write_text("a,b,kind\n" + "".join(f"{a!r},{b!r},{'yes' if a + b > 0 else 'no'}\n" for a, b in rows))
    script, model_file = tmp_path / "imported.py", tmp_path / "imported_model.py"
    argv = ["--data", str(table), "--layers", "5", "--steps", "8", "--export-python", str(script)]
    loss = cli_train_loss([*argv, "--export-numpy", str(model_file)])
    assert "make_dataset" not in script.read_text()
    assert script_train_loss(script) == loss
    # regression from a file's columns
    curve = tmp_path / "curve.csv"
    xs = rng.uniform(-1, 1, size=50).tolist()
    curve.write_text("x,y\n" + "".join(f"{x!r},{x * x!r}\n" for x in xs))
    script = tmp_path / "fit.py"
    argv = ["--task", "regression", "--data", str(curve), "--layers", "4", "--steps", "10"]
    loss = cli_train_loss([*argv, "--export-python", str(script)])
    assert script_train_loss(script) == loss


@pytest.mark.parametrize("group", range(len(FEATURE_GROUPS)))
def test_every_op_of_a_feature_becomes_numpy_code(group, tmp_path):
    from autograd_core.learn.features import FeatureMLP

    model = FeatureMLP(FEATURE_GROUPS[group], [4, 3], activation="tanh", seed=group)
    path = tmp_path / "features.py"
    path.write_text(numpy_model_script(model))
    got = load_module(path).predict(GRID)
    assert np.max(np.abs(got - model.forward_array(GRID))) <= 1e-12


def test_a_diverging_run_stops_in_the_script_where_the_app_stops(tmp_path):
    script = tmp_path / "diverges.py"
    argv = ["--optimizer", "sgd", "--lr", "300", "--loss", "mse", "--schedule", "constant", "--layers", "8",
            "--steps", "30", "--samples", "60", "--json", "--export-python", str(script)]  # fmt: skip
    code, out, err = cli_run(argv)
    assert code == 1 and "Training stopped at step" in err
    summary = json.loads(out)
    assert summary["step"] < 30
    assert script_train_loss(script) == summary["train_loss"]
