"""Sessions: exact round trip, atomic writes, and every kind of bad file raising SessionError."""

import json
import os

import pytest

from autograd_core.session import (
    VERSION,
    SessionError,
    load_session,
    save_session,
    session_dict,
    trainer_from_session,
)
from autograd_core.training import Trainer, TrainingConfig

SMALL = TrainingConfig(layers=[4, 3], samples=40, batch_size=8, steps=12, l2=1e-3)


@pytest.fixture
def trained():
    trainer = Trainer(SMALL)
    trainer.run(steps=6)
    return trainer


def test_round_trip_restores_everything_and_training_continues_identically(tmp_path, trained):
    path = tmp_path / "run.json"
    save_session(path, trained, extra={"expression": "a*b + c", "zoom": 1.5})
    data = load_session(path)
    assert data.config == trained.config
    assert data.extra == {"expression": "a*b + c", "zoom": 1.5}
    restored = trainer_from_session(data)
    assert restored.model.state_dict() == trained.model.state_dict()
    assert restored.history == trained.history
    assert restored.step_count == 6
    assert restored.optimizer.state_dict() == trained.optimizer.state_dict()
    assert (restored.data.X_train == trained.data.X_train).all()
    trained.run()
    restored.run()
    assert restored.model.state_dict() == trained.model.state_dict()
    assert restored.history == trained.history


def test_painted_points_round_trip(tmp_path):
    points = [[0.0, 0.0, 0], [1.0, 1.0, 1], [0.5, -0.25, 1], [-1.0, 2.0, 0]]
    trainer = Trainer(TrainingConfig(points=points, layers=[3], steps=4))
    trainer.run()
    save_session(tmp_path / "p.json", trainer)
    restored = trainer_from_session(load_session(tmp_path / "p.json"))
    assert restored.config.points == points
    assert sorted(restored.data.X_train.tolist()) == sorted(p[:2] for p in points)
    assert restored.data.name == "points"


def test_session_without_a_trainer_keeps_extra_only(tmp_path):
    save_session(tmp_path / "e.json", extra={"expression": "x**2"})
    data = load_session(tmp_path / "e.json")
    assert data.config is None and data.extra == {"expression": "x**2"}
    with pytest.raises(SessionError, match="no trained model"):
        trainer_from_session(data)


def test_failed_save_keeps_the_old_file_and_leaves_no_temporary(tmp_path, trained, monkeypatch):
    path = tmp_path / "run.json"
    save_session(path, trained)
    before = path.read_bytes()

    def broken_replace(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken_replace)
    with pytest.raises(SessionError, match="No space left on device"):
        save_session(path, trained, extra={"new": True})
    monkeypatch.undo()
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["run.json"]
    with pytest.raises(SessionError, match="cannot save"):
        save_session(path, trained, extra={"bad": object()})  # not JSON-able: refused before writing
    assert path.read_bytes() == before


def test_save_into_a_missing_directory_is_a_session_error(tmp_path, trained):
    with pytest.raises(SessionError, match="cannot save"):
        save_session(tmp_path / "nope" / "run.json", trained)


def _doc(trainer):
    return session_dict(trainer, {"k": 1})


def _mutations():
    """(name, function doc → doc or raw text, expected message)."""

    def setter(key, value):
        def f(doc):
            doc[key] = value
            return doc

        return f

    def deleter(key):
        def f(doc):
            del doc[key]
            return doc

        return f

    def config_field(key, value):
        def f(doc):
            doc["config"][key] = value
            return doc

        return f

    return [
        ("truncated", lambda doc: json.dumps(doc)[: len(json.dumps(doc)) // 2], "not valid JSON"),
        ("empty", lambda doc: "", "is empty"),
        ("not json", lambda doc: "hello, world", "not valid JSON"),
        ("nan literal", lambda doc: json.dumps(doc).replace('"weights": [', '"weights": [NaN, ', 1), "NaN"),
        ("deeply nested", lambda doc: "[" * 100_000 + "]" * 100_000, "not a valid session file"),
        ("top-level list", lambda doc: [doc], "top level is not an object"),
        ("wrong format", setter("format", "something-else"), "wrong 'format'"),
        ("future version", setter("version", VERSION + 1), "newer version"),
        ("version as text", setter("version", "1"), "version must be a whole number"),
        ("missing field", deleter("history"), "lacks the field"),
        ("unknown field", setter("mystery", 1), "unknown field"),
        ("config wrong type", config_field("lr", "fast"), "bad config: lr"),
        ("config unknown field", config_field("colour", "red"), "unknown config field"),
        ("config not an object", setter("config", [1, 2]), "bad config"),
        ("weights too few", lambda doc: {**doc, "weights": doc["weights"][:-1]}, "has 30 numbers but"),
        ("weights wrong type", lambda doc: {**doc, "weights": ["0.1"] * 31}, "finite numbers"),
        ("history wrong type", setter("history", {"step": 1}), "'history' must be a list"),
        ("history entry", lambda doc: {**doc, "history": [{"step": "one"}]}, "bad history"),
        ("optimizer state", lambda doc: {**doc, "optimizer_state": {"name": "adam"}}, "bad optimizer state"),
        ("data labels", lambda doc: _bad_label(doc), "bad data"),
        ("extra not object", setter("extra", "x"), "'extra' must be an object"),
        ("step negative", setter("step", -1), "'step' must be"),
    ]


def _bad_label(doc):
    doc["data"]["y_train"][0] = 7
    return doc


@pytest.mark.parametrize(("name", "mutate", "message"), _mutations(), ids=[m[0] for m in _mutations()])
def test_every_bad_file_raises_session_error_and_changes_nothing(tmp_path, trained, name, mutate, message):
    assert trained.model.num_parameters() == 31
    result = mutate(_doc(trained))
    text = result if isinstance(result, str) else json.dumps(result)
    path = tmp_path / "bad.json"
    path.write_text(text, encoding="utf-8")
    weights = trained.model.state_dict()
    with pytest.raises(SessionError, match=message):
        load_session(path)
    assert path.read_text(encoding="utf-8") == text
    assert trained.model.state_dict() == weights


def test_binary_and_missing_files(tmp_path):
    path = tmp_path / "bin.json"
    path.write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(SessionError, match="not UTF-8"):
        load_session(path)
    with pytest.raises(SessionError, match="cannot read"):
        load_session(tmp_path / "missing.json")
    with pytest.raises(SessionError, match="cannot read"):
        load_session(tmp_path)  # a directory
