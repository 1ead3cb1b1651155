"""Sessions: exact round trip, atomic writes, and every kind of bad file raising SessionError."""

import dataclasses
import json
import os
import stat
import tracemalloc

import pytest

from autograd_core import session as session_module
from autograd_core.learn.data import MAX_SAMPLES, add_point, make_dataset
from autograd_core.learn.training import Trainer, TrainingConfig
from autograd_core.session import (
    VERSION,
    SessionError,
    load_session,
    save_session,
    session_dict,
    trainer_from_session,
)

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
        ("config unknown field", config_field("color", "red"), "unknown config field"),
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


# ------------------------------------------------------------------ hostile files: refused fast, memory bounded


def test_special_files_are_refused_without_reading_them(tmp_path):
    with pytest.raises(SessionError, match=r"cannot read /dev/zero: it is a device, not a regular file"):
        load_session("/dev/zero")  # today's bug: read ~3 GiB, then MemoryError
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    # Nobody writes to the pipe: opening it for reading would block forever.
    with pytest.raises(SessionError, match="it is a pipe"):
        load_session(fifo)
    with pytest.raises(SessionError, match="it is a folder"):
        load_session(tmp_path)


def test_a_session_of_millions_of_points_is_refused_before_parsing(tmp_path):
    """The issue's file: 42 MiB, 5.5 M points in the data section.  Refused from a cheap count, not by numpy."""
    doc = session_dict(Trainer(SMALL))
    doc["data"]["X_train"] = "@POINTS@"
    head, tail = json.dumps(doc).encode().split(b'"@POINTS@"')
    path = tmp_path / "huge.json"
    with open(path, "wb") as f:
        f.write(head + b"[" + b"[0.1,0.2]," * 5_499_999 + b"[0.1,0.2]]" + tail)
    size = path.stat().st_size
    assert size > 40 * 2**20
    tracemalloc.start()
    try:
        with pytest.raises(SessionError, match=r"not a session file this app can open: it holds about 16,5\d\d,\d\d\d"):
            load_session(path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < size + 8 * 2**20  # the bytes once; no JSON objects, no arrays (it was 3 GiB)


def test_too_many_points_in_a_parsable_session_are_refused_before_arrays_are_built(tmp_path):
    doc = session_dict(Trainer(SMALL))
    doc["data"]["X_train"] = [[0.5, 0.5]] * (MAX_SAMPLES + 1)
    doc["data"]["y_train"] = [0] * (MAX_SAMPLES + 1)
    path = tmp_path / "many.json"
    path.write_text(json.dumps(doc))
    with pytest.raises(SessionError, match=r"'data' holds 100,\d{3} points; at most 100,000 are allowed"):
        load_session(path)
    doc = session_dict(Trainer(SMALL))
    doc["config"]["points"] = [[0.5, 0.5, 1]] * (MAX_SAMPLES + 1)
    path.write_text(json.dumps(doc))
    with pytest.raises(SessionError, match=r"the config holds 100,001 points; at most 100,000"):
        load_session(path)


def test_a_file_over_the_byte_limit_is_refused_from_its_size(tmp_path, monkeypatch):
    monkeypatch.setattr(session_module, "MAX_BYTES", 1000)
    path = tmp_path / "big.json"
    path.write_bytes(b" " * 1001)
    with pytest.raises(SessionError, match=r"cannot read .*big.json: it is too large \(1001 bytes; the limit is 1000"):
        load_session(path)


def test_saving_refuses_what_loading_would_refuse_and_keeps_the_old_file(tmp_path, trained, monkeypatch):
    path = tmp_path / "run.json"
    save_session(path, trained)
    before = path.read_bytes()
    monkeypatch.setattr(session_module, "MAX_JSON_VALUES", 100)
    with pytest.raises(SessionError, match=r"JSON values, over the 100 .* \(its history holds 6 steps\), so it could"):
        save_session(path, trained)
    assert path.read_bytes() == before


def test_painting_stops_at_the_sample_limit_so_every_session_can_be_opened_again():
    big = make_dataset("moons", MAX_SAMPLES, 0.1, 0, 0.25)
    with pytest.raises(ValueError, match="at most 100,000 points"):
        add_point(big, 0.0, 0.0, 1)
    with pytest.raises(ValueError, match="points must be at most 100,000"):
        TrainingConfig(points=[[0.0, 0.0, 1]] * (MAX_SAMPLES + 1)).validate()


# ------------------------------------------------------------------ saving keeps links, modes and the old bytes


def test_saving_onto_a_symlink_writes_its_target_and_keeps_the_link(tmp_path, trained):
    real = tmp_path / "real" / "run.json"
    real.parent.mkdir()
    save_session(real, trained)
    link = tmp_path / "link.json"
    link.symlink_to(real)
    save_session(link, trained, extra={"again": True})
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert load_session(real).extra == {"again": True}
    assert sorted(p.name for p in real.parent.iterdir()) == ["run.json"]  # no temporary left
    dangling = tmp_path / "dangling.json"
    dangling.symlink_to(tmp_path / "real" / "new.json")
    save_session(dangling, trained)
    assert dangling.is_symlink() and load_session(tmp_path / "real" / "new.json").step == 6


def test_resaving_keeps_the_file_mode_and_a_new_file_follows_the_umask(tmp_path, trained):
    path = tmp_path / "run.json"
    save_session(path, trained)
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(path.stat().st_mode) == 0o666 & ~umask
    os.chmod(path, 0o600)
    save_session(path, trained, extra={"v": 2})
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    os.chmod(path, 0o664)
    save_session(path, trained, extra={"v": 3})
    assert stat.S_IMODE(path.stat().st_mode) == 0o664 and load_session(path).extra == {"v": 3}


def test_a_failed_save_through_a_symlink_keeps_the_target_byte_identical(tmp_path, trained, monkeypatch):
    real = tmp_path / "run.json"
    save_session(real, trained)
    before = real.read_bytes()
    link = tmp_path / "link.json"
    link.symlink_to(real)

    def broken_fsync(fd):
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(os, "fsync", broken_fsync)
    with pytest.raises(SessionError, match=r"^cannot save the session to .*link.json: Input/output error$"):
        save_session(link, trained, extra={"new": True})
    monkeypatch.undo()
    assert real.read_bytes() == before and link.is_symlink()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.json", "run.json"]


def test_saving_onto_a_device_a_folder_or_a_read_only_file_is_refused(tmp_path, trained, monkeypatch):
    with pytest.raises(SessionError, match="it is a device"):
        save_session("/dev/null", trained)  # as root, a rename would have replaced /dev/null
    with pytest.raises(SessionError, match="it is a folder"):
        save_session(tmp_path, trained)
    locked = tmp_path / "locked.json"
    save_session(locked, trained)
    os.chmod(locked, 0o444)
    before = locked.read_bytes()
    real_access = os.access
    # Root may write anything (and os.access says so); ask as a user would.
    monkeypatch.setattr(os, "access", lambda p, mode: False if os.fspath(p) == str(locked) else real_access(p, mode))
    with pytest.raises(SessionError, match=r"^cannot save the session to .*locked.json: the file is read-only$"):
        save_session(locked, trained, extra={"x": 1})
    assert locked.read_bytes() == before


def test_a_long_history_is_saved_thinned_and_loads_with_its_ends(tmp_path, monkeypatch):
    """A very long run still saves (and opens again): its history is thinned evenly, first and last kept."""
    monkeypatch.setattr(session_module, "SAVED_HISTORY_STEPS", 5)
    trained = Trainer(dataclasses.replace(SMALL, steps=40))
    trained.run(steps=26)
    full = list(trained.history)
    path = tmp_path / "long.json"
    save_session(path, trained)
    kept = load_session(path).history
    assert [m.step for m in kept] == [1, 7, 13, 20, 26]  # indices 0, 6.25, 12.5, 18.75, 25 rounded
    assert kept[0] == full[0] and kept[-1] == full[-1]
    assert trained.history == full  # the live trainer keeps every step
    restored = trainer_from_session(load_session(path))
    assert restored.step_count == 26
    restored.run(steps=1)
    assert restored.history[-1].step == 27


def test_thin_history_is_a_no_op_up_to_the_limit(trained):
    assert session_module.thin_history(trained.history, keep=6) == trained.history
    assert session_module.thin_history(trained.history, keep=2) == [trained.history[0], trained.history[-1]]
