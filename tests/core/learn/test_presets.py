"""Tuned presets: which task a data set belongs to, explicit options win, the CLI's --preset (the app's button:
tests/gui/training/test_presets_gui.py)."""

import pytest

from autograd_core.cli import main as cli_main
from autograd_core.learn.presets import (
    GOALS,
    NAMED_PRESETS,
    PRESETS,
    apply_preset,
    describe_preset,
    preset_fields,
    preset_name,
)
from autograd_core.learn.training import Trainer, TrainingConfig


def test_every_preset_is_a_valid_config_and_every_goal_has_a_preset():
    for name, fields in PRESETS.items():
        config = TrainingConfig(**fields).validate()
        assert preset_name(config.dataset, config.classes) == name or name in NAMED_PRESETS
    assert preset_fields("moons") == PRESETS["moons"]  # a named preset (article, on moons) is never the task's
    assert set(GOALS) <= set(PRESETS)


def test_task_names_and_multiclass_fallback():
    assert preset_name("spiral", 3) == "spiral3" and preset_name("spiral", 2) == "spiral"
    assert preset_name("iris") == "iris" and preset_name("blobs", 5) == "blobs"
    assert preset_fields("blobs", 5)["classes"] == 5  # blobs' preset keeps the chosen classes
    assert preset_fields("nothing") is None
    assert "900 points" in describe_preset("spiral", 3)


def test_explicit_options_override_the_preset():
    config = apply_preset(TrainingConfig(dataset="spiral", classes=3), {"lr": 0.01, "layers": [4]})
    assert config.lr == 0.01 and config.layers == [4]
    assert config.samples == PRESETS["spiral3"]["samples"] and config.activation == "tanh"
    assert config.points is None


def test_cli_preset_prints_the_test_accuracy(capsys):
    code = cli_main(["--dataset", "iris", "--preset", "--steps", "20", "--progress", "none"])
    out = capsys.readouterr().out
    assert code == 0
    assert "MLP 2-8-3 tanh" in out and "cross-entropy loss" in out
    assert "test accuracy" in out


def test_cli_preset_refused_with_load(tmp_path, capsys):
    path = tmp_path / "run.json"
    assert cli_main(["--steps", "1", "--save", str(path), "--progress", "none"]) == 0
    with pytest.raises(SystemExit) as exc:
        cli_main(["--load", str(path), "--preset"])
    assert exc.value.code == 2
    assert "--preset cannot be combined with --load" in capsys.readouterr().err


def test_iris_preset_reaches_its_goal_on_one_seed():
    trainer = Trainer(apply_preset(TrainingConfig(dataset="iris")))
    trainer.run()
    assert trainer.evaluate().test_acc >= GOALS["iris"][1]
