"""Run history: names of changes, the 50-run bound, thinning, editing, pictures, sessions and hostile files."""

import copy
import json
import math
import tracemalloc
from pathlib import Path

import numpy as np
import pytest

from autograd_core.cli import main as cli_main
from autograd_core.learn.regions import RegionGrid, class_regions, map_extent
from autograd_core.learn.regression import RegressionConfig, RegressionRun, regression_config_dict
from autograd_core.learn.run_cost import RunLimits, estimate_run_cost
from autograd_core.learn.runs import (
    CURVE_POINTS,
    CURVES,
    MAX_RUNS,
    REGRESSION_CURVES,
    Run,
    RunHistory,
    describe_change,
    picture_from_fit,
    picture_from_grid,
    record_trainer_run,
)
from autograd_core.learn.training import Trainer, TrainingConfig
from autograd_core.session import (
    SessionError,
    load_session,
    parse_session,
    save_session,
    session_dict,
    thin_history,
)

BASE = TrainingConfig().to_dict()
SMALL = TrainingConfig(layers=[4, 3], samples=40, batch_size=8, steps=6, schedule="constant")


def changed(**fields) -> dict:
    return {**BASE, **fields}


@pytest.mark.parametrize(
    ("previous", "config", "name"),
    [
        (None, BASE, "first run"),
        (BASE, dict(BASE), "same settings"),
        (BASE, changed(lr=0.1), "lr 0.1"),
        (BASE, changed(activation="tanh"), "activation tanh"),
        (BASE, changed(layers=[8]), "layers 16-16 → 8"),
        (BASE, changed(layers=[]), "layers 16-16 → none"),
        (BASE, changed(lr=0.1, activation="tanh"), "lr 0.1, tanh"),
        (BASE, changed(batch_size=0), "full batch"),
        (BASE, changed(batch_size=64), "batch 64"),
        (BASE, changed(optimizer="sgd", schedule="constant"), "sgd, constant"),
        (BASE, changed(seed=3), "seed 3"),
        (BASE, changed(dataset="circles", noise=0.2), "circles, noise 0.2"),
        (BASE, changed(l2=0.01), "L2 0.01"),
        (BASE, changed(steps=500), "500 steps"),
        (BASE, changed(data_seed=2), "data seed 2"),
        (BASE, changed(test_fraction=0.5), "test share 50%"),
        (BASE, regression_config_dict(RegressionConfig()), "regression"),
        (regression_config_dict(RegressionConfig()), BASE, "classification"),
        (
            regression_config_dict(RegressionConfig()),
            regression_config_dict(RegressionConfig(target="x**2")),
            "target x**2",
        ),
    ],
)
def test_a_run_is_named_by_what_changed(previous, config, name):
    assert describe_change(previous, config) == name


def test_many_changes_make_a_short_name_with_an_ellipsis():
    name = describe_change(BASE, changed(lr=0.2, activation="tanh", layers=[32, 32, 32], seed=9, l2=0.0, steps=900))
    assert len(name) == 40
    assert name.endswith("…")
    assert name.startswith("lr 0.2, layers 32-32-32, tanh, L2 0, ")


def test_painted_points_are_kept_as_a_count_and_a_digest_and_a_new_painting_is_a_change():
    history = RunHistory()
    a = [[0.0, 0.0, 0], [1.0, 1.0, 1]]
    history.start(changed(points=a), "classification")
    history.record({"step": [0, 1]}, 1, 0.1)
    run = history.start(changed(points=[*a, [2.0, 0.0, 1]]), "classification")
    assert history.runs[0].config["points"].startswith("2 points #")
    assert run.config["points"].startswith("3 points #")
    assert run.name == "new data, 3 points"
    assert describe_change(changed(points=a), changed(points=[*a, a[0]])) == "new data, 3 points"  # raw configs too
    assert describe_change(changed(points=a), BASE) == "no points"
    assert Run.from_dict(run.to_dict()) == run


@pytest.mark.parametrize(
    "config",
    [
        TrainingConfig(points=[[0, 0, 0], [1, 1, 1], [2, 0, 2], [0, 2, 2]], classes=3),
        TrainingConfig(dataset="iris"),
        TrainingConfig(dataset="blobs", classes=5),
        TrainingConfig(features=["x1*x2"]),
    ],
    ids=["painted 3 classes", "iris", "blobs 5", "features"],
)
def test_every_kind_of_config_reads_back(config):
    history = RunHistory()
    history.start(config.to_dict(), "classification")
    history.record({"step": [0, 1]}, 1, 1.0)
    assert RunHistory.from_list(json.loads(json.dumps(history.to_list()))).runs == history.runs


def test_saving_refuses_a_history_that_loading_would_refuse(tmp_path):
    history = RunHistory()
    _recorded(history, BASE).name = "n" * 1000  # set behind rename's back
    with pytest.raises(SessionError, match="name must be text"):
        save_session(tmp_path / "s.json", None, runs=history)
    assert not (tmp_path / "s.json").exists()


def _recorded(history: RunHistory, config: dict, steps: int = 3) -> Run:
    run = history.start(config, "classification")
    history.record(
        {"step": list(range(steps + 1)), "train_loss": [1.0 / (i + 1) for i in range(steps + 1)]}, steps, 1.0
    )
    return run


def test_the_history_keeps_50_runs_dropping_the_oldest_unpinned():
    history = RunHistory()
    for i in range(60):
        _recorded(history, changed(seed=i))
        if i == 2:
            history.pin(history.current.id)
    assert len(history.runs) == MAX_RUNS
    assert [r.id for r in history.runs] == [3, *range(12, 61)]
    assert history.current.id == 60
    assert history.get(3).pinned


def test_at_most_49_runs_are_pinned_so_a_new_run_always_fits():
    history = RunHistory()
    for i in range(50):
        _recorded(history, changed(seed=i))
    for run in history.runs[:49]:
        history.pin(run.id)
    with pytest.raises(ValueError, match="at most 49 runs can be pinned"):
        history.pin(history.runs[49].id)
    _recorded(history, changed(seed=99))
    assert len(history.runs) == 50
    assert [r.id for r in history.runs[-2:]] == [49, 51]  # run 50, the only unpinned old one, made room


def test_an_empty_run_is_replaced_so_reset_twice_keeps_one_run():
    history = RunHistory()
    _recorded(history, BASE)
    history.start(BASE, "classification")
    second = history.start(changed(lr=0.1), "classification")
    assert [r.id for r in history.runs] == [1, 3]
    assert second.name == "lr 0.1"  # named against the last run that trained
    history.pin(second.id)
    history.start(changed(lr=0.2), "classification")
    assert [r.id for r in history.runs] == [1, 3, 4]  # a pinned empty run stays


def test_a_100000_step_curve_is_thinned_to_2000_points_evenly_first_and_last_kept():
    n = 100_000
    steps = list(range(n))
    loss = [math.exp(-i / n) for i in range(n)]
    loss[7] = math.nan
    loss[50] = math.inf
    history = RunHistory()
    history.start(BASE, "classification")
    history.record({"step": steps, "train_loss": loss, "test_loss": [None] * n}, n - 1, 12.5)
    run = history.current
    assert all(len(run.curves[name]) == CURVE_POINTS for name in CURVES)
    assert run.curves["step"][0] == 0
    assert run.curves["step"][-1] == n - 1
    assert set(np.diff(run.curves["step"]).tolist()) == {50, 51}  # 99,999 / 1,999 = 50.02
    assert run.curves["step"] == thin_history(steps, CURVE_POINTS)  # the sessions' rule, one place
    assert run.curves["train_loss"][1] is None  # step 50 was inf
    assert run.curves["train_loss"][2] == math.exp(-run.curves["step"][2] / n)
    assert run.curves["test_loss"] == [None] * CURVE_POINTS
    assert run.curves["train_acc"] == [None] * CURVE_POINTS
    assert run.final("train_loss") == pytest.approx(math.exp(-(n - 1) / n))
    assert run.best("train_loss") == run.final("train_loss")
    assert run.final("test_loss") is None
    assert run.best("test_acc") is None
    assert (run.steps, run.seconds) == (n - 1, 12.5)


def test_non_finite_values_become_none_and_best_is_min_for_losses_max_for_accuracy():
    history = RunHistory()
    history.start(BASE, "classification")
    history.record(
        {
            "step": [0, 1, 2, 3],
            "train_loss": [0.7, 0.3, 0.5, math.inf],
            "train_acc": [0.5, 0.9, 0.8, math.nan],
        },
        3,
        1.0,
    )
    run = history.current
    assert run.curves["train_loss"] == [0.7, 0.3, 0.5, None]
    assert run.best("train_loss") == 0.3
    assert run.best("train_acc") == 0.9
    assert run.final("train_acc") is None


def test_rename_note_pin_delete_and_unknown_ids():
    history = RunHistory()
    a = _recorded(history, BASE)
    b = _recorded(history, changed(lr=0.2))
    history.rename(a.id, "  the  baseline\n")
    assert a.name == "the baseline"
    history.rename(a.id, "x" * 500)
    assert len(a.name) == 80 and a.name.endswith("…")
    with pytest.raises(ValueError):
        history.rename(a.id, "   ")
    history.set_note(b.id, "faster\nbut noisy")
    assert b.note == "faster\nbut noisy"
    history.set_note(b.id, "n" * 5000)
    assert len(b.note) == 2000
    history.pin(b.id, True)
    assert b.pinned
    history.pin(b.id, False)
    assert not b.pinned
    history.delete(a.id)
    assert [r.id for r in history.runs] == [b.id]
    for action in (
        lambda: history.get(99),
        lambda: history.rename(99, "x"),
        lambda: history.set_note(99, "x"),
        lambda: history.pin(99, True),
        lambda: history.delete(a.id),
    ):
        with pytest.raises(KeyError):
            action()


def test_deleting_the_current_run_makes_record_do_nothing():
    history = RunHistory()
    run = _recorded(history, BASE)
    history.delete(run.id)
    assert history.current is None
    history.record({"step": [0, 1]}, 1, 1.0)
    assert history.runs == []


def _grid(prob, winner=None, classes=2):
    prob = np.asarray(prob, dtype=np.float32)
    return RegionGrid((0.0, 2.0, 0.0, 2.0), classes, prob, np.empty(0), np.empty(0), predicted=winner)


def test_a_picture_of_two_classes_takes_the_label_and_confidence_of_the_nearest_grid_point():
    prob = [[0.1, 0.4, 0.9], [0.2, 0.5, 0.97], [0.0, 0.6, 1.0]]  # 3×3 grid, row 0 at y = 0
    picture = picture_from_grid(_grid(prob), [[0.5, 0.5], [1.5, 1.5]], [0, 1], size=3)
    assert picture.kind == "classes" and picture.size == 3
    assert picture.extent == (0.0, 2.0, 0.0, 2.0)
    assert picture.labels == [0, 0, 1, 0, 0, 1, 0, 1, 1]
    assert picture.confidence == [90, 60, 90, 80, 50, 97, 100, 60, 100]
    assert picture.points == [[0.5, 0.5, 0], [1.5, 1.5, 1]]
    assert picture.curve == []
    bigger = picture_from_grid(_grid(prob), [], [], size=5)  # cells 0, 0.5→1 (rint: 0), 1, 1.5→2, 2
    assert bigger.labels[:5] == [0, 0, 0, 1, 1]


def test_a_picture_of_three_classes_uses_the_winner_and_its_probability():
    winner = np.array([[0, 1], [2, 2]], dtype=np.uint8)
    picture = picture_from_grid(_grid([[0.5, 0.9], [0.34, 1.0]], winner, classes=3), [], [], size=2)
    assert picture.labels == [0, 1, 2, 2]
    assert picture.confidence == [50, 90, 34, 100]


def test_a_picture_keeps_at_most_300_points_and_a_fit_at_most_200_curve_points():
    xy = np.column_stack([np.arange(1000.0), np.zeros(1000)])
    picture = picture_from_grid(_grid([[0.2, 0.8], [0.2, 0.8]]), xy, np.arange(1000) % 2, size=2)
    assert len(picture.points) == 300
    assert picture.points[0] == [0.0, 0.0, 0] and picture.points[-1] == [999.0, 0.0, 1]
    xs = np.linspace(-1, 1, 1000)
    fit = picture_from_fit(xs, xs**2, np.column_stack([xs, xs**2 + 0.1]))
    assert fit.kind == "fit" and fit.size == 0 and fit.labels == []
    assert len(fit.curve) == 200 and len(fit.points) == 300
    assert fit.curve[0] == [-1.0, 1.0] and fit.curve[-1] == [1.0, 1.0]
    x0, x1, y0, y1 = fit.extent
    assert x0 == pytest.approx(-1.1) and x1 == pytest.approx(1.1)  # 5 % of the span each side
    assert y0 == pytest.approx(-0.055, abs=1e-3) and y1 == pytest.approx(1.1 + 0.055, abs=1e-3)


def _trained_history(runs: int = 3) -> RunHistory:
    history = RunHistory()
    for i in range(runs):
        trainer = Trainer(TrainingConfig(**{**SMALL.to_dict(), "lr": 0.05 * (i + 1)}))
        start = trainer.evaluate()
        trainer.run()
        record_trainer_run(history, trainer, 0.5, class_regions(trainer.model, map_extent(trainer.data)), start)
    regression = RegressionRun(RegressionConfig(steps=4, samples=30))
    start = regression.evaluate()
    for _ in range(4):
        regression.step()
    record_trainer_run(history, regression, 0.25, None, start)
    return history


def test_record_trainer_run_keeps_step_0_the_history_and_a_picture():
    trainer = Trainer(SMALL)
    start = trainer.evaluate()
    trainer.run()
    history = RunHistory()
    extent = map_extent(trainer.data)
    run = record_trainer_run(history, trainer, 0.5, class_regions(trainer.model, extent), start)
    assert run.curves["step"] == [0, 1, 2, 3, 4, 5, 6]
    assert run.curves["train_loss"] == [start.train_loss] + [m.train_loss for m in trainer.history]
    assert run.curves["test_acc"][-1] == trainer.history[-1].test_acc
    assert run.picture.size == 40 and len(run.picture.labels) == 1600
    predicted = (trainer.scores(np.array([[extent[0], extent[2]]])) > 0).astype(int)[0]  # the first cell's corner
    assert run.picture.labels[0] == int(predicted)
    assert run.config == SMALL.to_dict() and run.steps == 6


def test_a_regression_run_keeps_r2_curves_and_a_fit_picture():
    history = _trained_history(0)
    run = history.runs[0]
    assert run.task == "regression" and set(run.curves) == set(REGRESSION_CURVES)
    assert run.curves["step"] == [0, 1, 2, 3, 4]
    assert run.picture.kind == "fit" and len(run.picture.curve) == 200
    assert run.final("test_r2") == pytest.approx(history.runs[0].curves["test_r2"][-1])


def test_to_list_from_list_round_trip_is_equal_through_json():
    history = _trained_history()
    history.rename(2, "my run")
    history.set_note(1, "note ✓")
    history.pin(3)
    items = json.loads(json.dumps(history.to_list(), allow_nan=False))
    loaded = RunHistory.from_list(items)
    assert loaded.runs == history.runs
    assert loaded.to_list() == history.to_list()
    assert loaded.current is None  # a loaded history trains nothing until a run starts
    assert loaded.start(BASE, "classification").id == 5


def test_nbytes_estimates_the_memory_of_50_realistic_runs_within_a_third():
    template = _trained_history(1).runs[0].to_dict()
    steps = list(range(CURVE_POINTS))
    template["curves"] = {n: steps if n == "step" else [0.5 + i * 1e-4 for i in steps] for n in CURVES}
    items = [{**copy.deepcopy(template), "id": i + 1} for i in range(50)]
    text = json.dumps(items)
    tracemalloc.start()
    history = RunHistory.from_list(json.loads(text))
    used = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    assert 0.67 * used <= history.nbytes() <= 1.5 * used  # the parsed document is gone; what stays is the history


def test_the_memory_guard_counts_the_history():
    history = _trained_history(2)
    plain = estimate_run_cost(SMALL)
    with_runs = estimate_run_cost(SMALL, runs_bytes=history.nbytes())
    assert with_runs.peak_bytes - plain.peak_bytes == history.nbytes() > 10_000
    assert with_runs.runs_bytes == history.nbytes()


def test_a_history_that_dominates_memory_is_named_in_the_guards_sentence():
    cost = estimate_run_cost(SMALL, runs_bytes=3 * 2**30)
    (problem,) = cost.problems(RunLimits(ask_bytes=2**30, refuse_bytes=8 * 2**30))
    assert problem.kind == "memory" and not problem.refuse
    assert problem.message().endswith("the run history takes 3.0 GiB; delete some runs")


# ------------------------------------------------------------------ sessions


def test_a_session_keeps_its_three_runs(tmp_path):
    history = _trained_history(2)
    trainer = Trainer(SMALL)
    trainer.run()
    save_session(tmp_path / "s.json", trainer, runs=history)
    data = load_session(tmp_path / "s.json")
    assert len(data.runs) == 3
    assert data.runs == history.runs
    assert [r.task for r in data.runs] == ["classification", "classification", "regression"]
    assert json.loads((tmp_path / "s.json").read_text())["version"] >= 2


def test_an_old_session_without_runs_loads_with_an_empty_history(tmp_path):
    trainer = Trainer(SMALL)
    trainer.run()
    doc = session_dict(trainer)
    doc["version"] = 1
    del doc["runs"], doc["custom_ops"]
    (tmp_path / "old.json").write_text(json.dumps(doc))
    data = load_session(tmp_path / "old.json")
    assert data.runs == []
    assert data.history == trainer.history


def test_a_session_saved_by_the_previous_version_loads_with_an_empty_history():
    data = load_session(Path(__file__).resolve().parents[2] / "data" / "session_v1_adam.json")
    assert data.runs == []
    assert data.config is not None and data.step == 3


def test_a_version_1_session_with_runs_or_a_version_2_without_is_refused():
    doc = session_dict()
    with pytest.raises(SessionError, match="unknown field"):
        parse_session({**doc, "version": 1})
    del doc["runs"]
    with pytest.raises(SessionError, match="lacks the field"):
        parse_session(doc)


def _set(path, value):
    def change(doc):
        target = doc
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value(target[path[-1]]) if callable(value) else value

    return change


def _sixty_runs(runs):
    return [{**copy.deepcopy(runs[0]), "id": i + 1} for i in range(60)]


HOSTILE = [
    ("60 runs", _set(["runs"], _sixty_runs), "at most 50"),
    ("runs not a list", _set(["runs"], {"a": 1}), "'runs' must be a list"),
    ("a run not an object", _set(["runs", 0], "run"), "a run must be an object"),
    ("a curve of a million points", _set(["runs", 0, "curves", "train_loss"], [0.5] * 10**6), "at most 2,000"),
    ("curves of unequal length", _set(["runs", 0, "curves", "train_loss"], [0.5]), "same length"),
    ("a missing curve", _set(["runs", 0, "curves"], lambda c: {k: c[k] for k in list(c)[:-1]}), "exactly"),
    ("a label out of range", _set(["runs", 0, "picture", "labels", 0], 7), "labels must be classes"),
    ("a negative label", _set(["runs", 0, "picture", "labels", 0], -1), "labels must be classes"),
    ("a confidence over 100", _set(["runs", 0, "picture", "confidence", 3], 101), "percentages"),
    ("picture size 10**6", _set(["runs", 0, "picture", "size"], 10**6), "size must be"),
    ("too few cells", _set(["runs", 0, "picture", "labels"], [0] * 10), "needs 1,600 labels"),
    ("cells beyond the size", _set(["runs", 0, "picture", "labels"], [0] * 10**6), "at most 1,600"),
    ("too many points", _set(["runs", 0, "picture", "points"], [[0.0, 0.0, 0]] * 301), "at most 300"),
    ("an inverted extent", _set(["runs", 0, "picture", "extent"], [1.0, 0.0, 0.0, 1.0]), "x0 < x1"),
    ("a name of 10 MB", _set(["runs", 0, "name"], "n" * 10_000_000), "name must be text"),
    ("an empty name", _set(["runs", 0, "name"], ""), "name must be text"),
    ("a note of 1 MB", _set(["runs", 0, "note"], "n" * 1_000_000), "note must be text"),
    ("nan in a curve", _set(["runs", 0, "curves", "train_loss", 1], math.nan), "finite numbers or null"),
    ("an int beyond any float", _set(["runs", 0, "curves", "train_loss", 1], 10**400), "finite numbers or null"),
    ("true in a curve", _set(["runs", 0, "curves", "train_acc", 1], True), "finite numbers or null"),
    ("a label true", _set(["runs", 0, "picture", "labels", 5], True), "labels must be classes"),
    ("inf seconds", _set(["runs", 0, "seconds"], math.inf), "seconds must be"),
    ("a curve value as text", _set(["runs", 0, "curves", "test_acc", 0], "0.5"), "finite numbers or null"),
    ("steps as text", _set(["runs", 0, "steps"], "6"), "steps must be a whole number"),
    ("negative steps", _set(["runs", 0, "steps"], -1), "steps must be a whole number"),
    ("a negative step in the curve", _set(["runs", 0, "curves", "step", 0], -5), "whole numbers ≥ 0"),
    ("a fractional step", _set(["runs", 0, "curves", "step", 1], 0.5), "whole numbers"),
    ("steps going down", _set(["runs", 0, "curves", "step", 2], 0), "must not go down"),
    ("pinned as text", _set(["runs", 0, "pinned"], "yes"), "pinned must be true or false"),
    ("id true", _set(["runs", 0, "id"], True), "id must be"),
    ("duplicate ids", _set(["runs", 1, "id"], 1), "same id"),
    ("an unknown task", _set(["runs", 0, "task"], "clustering"), "task must be"),
    ("an unknown field", _set(["runs", 0, "shade"], 1), "unknown field"),
    ("a bad config", _set(["runs", 0, "config", "lr"], -1.0), "bad config"),
    ("a config of huge lists", _set(["runs", 0, "config", "layers"], [16] * 10**5), "short list"),
    ("a config that is a list", _set(["runs", 0, "config"], [1, 2]), "config must be an object"),
    ("a picture of an unknown kind", _set(["runs", 0, "picture", "kind"], "photo"), "classes or fit"),
    ("curves of a regression in a classification run", _set(["runs", 0, "task"], "regression"), "bad config"),
]


@pytest.fixture(scope="module")
def session_doc():
    history = _trained_history(2)
    return json.loads(json.dumps(session_dict(None, runs=history)))


@pytest.mark.parametrize(("what", "change", "message"), HOSTILE, ids=[h[0] for h in HOSTILE])
def test_a_hostile_run_history_is_refused_with_a_sentence(session_doc, what, change, message):
    doc = copy.deepcopy(session_doc)
    change(doc)
    with pytest.raises(SessionError, match=message) as caught:
        parse_session(doc)
    assert len(str(caught.value)) < 300


def test_a_hostile_history_file_is_refused_and_the_good_one_loads(tmp_path, session_doc):
    good = tmp_path / "good.json"
    good.write_text(json.dumps(session_doc))
    assert len(load_session(good).runs) == 3
    bad = copy.deepcopy(session_doc)
    bad["runs"][0]["name"] = "n" * 10_000_000
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad))
    with pytest.raises(SessionError, match=r"bad\.json: bad run history: run 1's name must be text"):
        load_session(path)


# ------------------------------------------------------------------ the command line


def test_train_save_then_load_save_keeps_two_runs(tmp_path, capsys):
    first, second = tmp_path / "a.json", tmp_path / "b.json"
    base = ["--samples", "40", "--layers", "4", "--batch-size", "8", "--schedule", "constant"]
    assert cli_main([*base, "--steps", "5", "--save", str(first)]) == 0
    one = load_session(first)
    assert [r.name for r in one.runs] == ["first run"]
    run = one.runs[0]
    assert run.curves["step"] == [0, 1, 2, 3, 4, 5]
    assert run.curves["train_loss"][1:] == [m.train_loss for m in one.history]
    assert run.steps == 5 and run.seconds > 0 and run.picture.size == 40

    assert cli_main(["--load", str(first), "--steps", "9", "--lr", "0.1", "--save", str(second)]) == 0
    two = load_session(second)
    assert [r.name for r in two.runs] == ["first run", "lr 0.1, 9 steps"]
    assert two.runs[0] == run
    continued = two.runs[1]
    assert continued.curves["step"] == list(range(10))  # step 0 from the first run, then the whole history
    assert continued.curves["train_loss"][:6] == run.curves["train_loss"]
    assert continued.curves["train_loss"][1:] == [m.train_loss for m in two.history]
    assert continued.steps == 9 and continued.config["lr"] == 0.1
    capsys.readouterr()


def test_continuing_a_session_without_runs_starts_its_history(tmp_path, capsys):
    old = Path(__file__).resolve().parents[2] / "data" / "session_v1_adam.json"
    assert cli_main(["--load", str(old), "--steps", "5", "--save", str(tmp_path / "new.json")]) == 0
    (run,) = load_session(tmp_path / "new.json").runs
    assert run.name == "first run"
    assert run.curves["step"] == [1, 2, 3, 4, 5]  # step 0 was never kept by that session
    assert run.steps == 5
    capsys.readouterr()
