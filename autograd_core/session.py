"""Save and load a training session (config, weights, history, optimizer state, data, run history) as versioned JSON.

Writes are atomic (``files.write_atomically``): the JSON goes to a temporary
file in the same folder, is flushed to disk, then renamed over the target,
so a crash or a full disk never leaves a half-written file and never loses
the old one; saving onto a symlink rewrites its target, and a file keeps its
permissions.

Loading trusts nothing, and its memory is bounded before anything is built:
only a regular file of at most ``MAX_BYTES`` is read (never a device or a
pipe); a document of more than ``MAX_JSON_VALUES`` values is refused before
it is parsed (parsing costs ~30–100 bytes of Python objects per value, so the
count, not the file size, bounds memory); the data and painted points are
counted against ``MAX_SAMPLES`` before they become arrays, and the run
history (format 2) against ``MAX_RUNS`` runs of at most ``CURVE_POINTS``
points and 64×64-cell pictures (``learn.runs``).  Then every
field's type and range is checked, and every problem (unreadable, truncated,
malformed, wrong type, newer version, weights that do not fit the model)
raises one error type, ``SessionError``, with a sentence that says what is
wrong.  Saving refuses a session that loading would refuse.
"""

from __future__ import annotations

import json
import math
import os
from dataclasses import dataclass, field

from autograd_core.engine.tensor import Tensor
from autograd_core.files import FileError, count_json_values, format_size, read_regular_file, write_atomically
from autograd_core.language.workshop import load_definitions, save_definitions
from autograd_core.learn.data import MAX_SAMPLES, Dataset
from autograd_core.learn.runs import MAX_RUNS, Run, RunHistory, even_picks
from autograd_core.learn.training import MAX_STEPS, StepMetrics, Trainer, TrainingConfig
from autograd_core.numbers import plural

FORMAT = "autograd-playground-session"
# 2 adds "runs" (the run history); format 1 files (without it) are read with an empty history.
# 3 adds "custom_ops": the learner's ops of the workshop (a network may take one as its activation).
VERSION = 3
# The largest session the app writes (8 hidden layers of 256 with Adam state, 100,000 points both as
# data and as painted points) is ~47 MiB and ~2.2 M values; the rest leaves room for a long history.
# A full run history (50 runs of five 2,000-point curves, 64² pictures) adds at most ~11 MiB and ~1 M values.
# Parsing a document at both limits peaks at ~300 MB (see files.count_json_values).
MAX_BYTES = 64 * 1024 * 1024
# A history longer than this is saved thinned (evenly spaced steps, first and last kept): the curves look the
# same, and a session of a very long run still fits the limits above (50,000 steps are ~15 MiB).
SAVED_HISTORY_STEPS = 50_000
MAX_JSON_VALUES = 4_000_000
FIELDS = {
    "format",
    "version",
    "config",
    "weights",
    "step",
    "sample_position",
    "history",
    "optimizer_state",
    "data",
    "stopped_reason",
    "extra",
}
FIELDS_BY_VERSION = {1: FIELDS, 2: FIELDS | {"runs"}, 3: FIELDS | {"runs", "custom_ops"}}


class SessionError(Exception):
    """A session file could not be saved or loaded; ``str()`` says why."""


@dataclass
class SessionData:
    """A loaded session.  ``config`` is None for a session saved without a trainer."""

    config: TrainingConfig | None
    weights: list[float] | None
    history: list[StepMetrics] = field(default_factory=list)
    optimizer_state: dict | None = None
    extra: dict = field(default_factory=dict)
    data: Dataset | None = None
    step: int = 0
    sample_position: int = 0
    stopped_reason: str | None = None
    runs: list[Run] = field(default_factory=list)  # the run history, oldest first (RunHistory(runs) to go on)
    custom_ops: list[dict] = field(default_factory=list)  # the learner's ops (workshop.save_definitions())


def session_dict(
    trainer: Trainer | None = None, extra: dict | None = None, runs: RunHistory | list[Run] | None = None
) -> dict:
    """The JSON document for a trainer (or none), free-form GUI state in ``extra`` and the run history."""
    doc = {
        "format": FORMAT,
        "version": VERSION,
        "config": None,
        "weights": None,
        "step": 0,
        "sample_position": 0,
        "history": [],
        "optimizer_state": None,
        "data": None,
        "stopped_reason": None,
        "extra": dict(extra or {}),
        "runs": _runs_list(runs),
        "custom_ops": save_definitions(),
    }
    if trainer is not None:
        doc.update(
            config=trainer.config.to_dict(),
            weights=trainer.model.state_dict(),
            step=trainer.step_count,
            sample_position=trainer.sample_position,
            history=[m.to_dict() for m in thin_history(_with_start(trainer))],
            optimizer_state=trainer.optimizer.state_dict(),
            data=trainer.data.to_dict(),
            stopped_reason=trainer.stopped_reason,
        )
    return doc


def _with_start(trainer: Trainer) -> list[StepMetrics]:
    """The history with its step 0 first (the metrics before the first step), when the trainer knows them."""
    start, history = getattr(trainer, "start_metrics", None), trainer.history
    if start is None or start.step != 0 or (history and history[0].step == 0):
        return list(history)
    return [start, *history]


def _runs_list(runs: RunHistory | list[Run] | None) -> list[dict]:
    if runs is None:
        return []
    return runs.to_list() if isinstance(runs, RunHistory) else [run.to_dict() for run in runs]


def thin_history(history: list[StepMetrics], keep: int | None = None) -> list[StepMetrics]:
    """At most ``keep`` (default SAVED_HISTORY_STEPS) evenly spaced entries of ``history``, first and last kept."""
    keep = SAVED_HISTORY_STEPS if keep is None else keep
    return [history[i] for i in even_picks(len(history), keep)]


def save_session(
    path: str | os.PathLike,
    trainer: Trainer | None = None,
    extra: dict | None = None,
    runs: RunHistory | list[Run] | None = None,
) -> None:
    """Write the session atomically; raises SessionError (and leaves any old file intact) on failure."""
    path = os.fspath(path)
    try:
        doc = session_dict(trainer, extra, runs)
        RunHistory.from_list(doc["runs"])  # what loading would refuse is not saved
        text = _session_text(doc)
    except (TypeError, ValueError) as exc:
        raise SessionError(f"cannot save the session: {exc}") from exc
    raw = (text + "\n").encode("utf-8")
    too_large = _too_large(raw)
    if too_large:
        steps = f" (its history holds {len(trainer.history):,} steps)" if trainer is not None else ""
        raise SessionError(f"cannot save the session to {path}: {too_large}{steps}, so it could not be opened again")
    try:
        write_atomically(path, raw)
    except FileError as exc:
        raise SessionError(f"cannot save the session to {path}: {exc}") from exc


def _session_text(doc: dict) -> str:
    """The document as JSON, indented, with each run on one compact line.

    Indenting makes ``json`` use its pure-Python encoder and a line per number: for 50 runs of
    2,000-point curves that is ~0.5 s and half the file; one line per run keeps the C encoder.
    """
    runs = doc.pop("runs")
    text = json.dumps(doc, allow_nan=False, indent=1, ensure_ascii=False)
    lines = [json.dumps(run, allow_nan=False, ensure_ascii=False, separators=(",", ":")) for run in runs]
    listing = "[\n  " + ",\n  ".join(lines) + "\n ]" if lines else "[]"
    return text[: -len("\n}")] + ',\n "runs": ' + listing + "\n}"


def _too_large(raw: bytes) -> str | None:
    """Why a session document is too large to load within bounded memory, or None (checked before parsing)."""
    if len(raw) > MAX_BYTES:
        return f"it is {format_size(len(raw))}, over the {format_size(MAX_BYTES)} a session file may hold"
    values = count_json_values(raw)
    if values > MAX_JSON_VALUES:
        return f"it holds about {values:,} JSON values, over the {MAX_JSON_VALUES:,} a session file may hold"
    return None


def load_session(path: str | os.PathLike) -> SessionData:
    """Read and fully validate a session file; raises SessionError for anything wrong."""
    path = os.fspath(path)
    try:
        raw = read_regular_file(path, MAX_BYTES)
    except FileError as exc:
        raise SessionError(f"cannot read {path}: {exc}") from exc
    too_large = _too_large(raw)
    if too_large:
        raise SessionError(f"{path} is not a session file this app can open: {too_large}")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise SessionError(f"{path} is not a session file (not UTF-8 text)") from exc
    del raw
    if not text.strip():
        raise SessionError(f"{path} is empty")
    try:
        doc = json.loads(text, parse_constant=_reject_constant)
    except json.JSONDecodeError as exc:
        raise SessionError(
            f"{path} is not valid JSON (truncated or damaged?): {exc.msg} at line {exc.lineno}, column {exc.colno}"
        ) from exc
    except ValueError as exc:  # NaN/Infinity literals
        raise SessionError(f"{path} is not a valid session file: {exc}") from exc
    except RecursionError as exc:
        raise SessionError(f"{path} is not a valid session file: its JSON is nested too deeply") from exc
    try:
        return parse_session(doc)
    except SessionError as exc:
        raise SessionError(f"{path}: {exc}") from exc


def _reject_constant(name: str):
    raise ValueError(f"{name} is not allowed in a session file")


def parse_session(doc) -> SessionData:
    """Validate a decoded JSON document and turn it into SessionData (SessionError if bad)."""
    if not isinstance(doc, dict):
        raise SessionError("not a session file (the top level is not an object)")
    if doc.get("format") != FORMAT:
        raise SessionError("not an Autograd Playground session file (missing or wrong 'format')")
    version = doc.get("version")
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise SessionError(f"the session version must be a whole number ≥ 1, got {version!r}")
    if version > VERSION:
        raise SessionError(
            f"the session was saved by a newer version of the app (format {version}); this one reads format {VERSION}"
        )
    fields = FIELDS_BY_VERSION[version]
    missing = sorted(fields - set(doc))
    if missing:
        raise SessionError(f"the session lacks the {plural(len(missing), 'field')} {', '.join(missing)}")
    unknown = sorted(set(doc) - fields)
    if unknown:
        raise SessionError(f"the session has unknown {plural(len(unknown), 'field')} {', '.join(unknown)}")

    extra = doc["extra"]
    if not isinstance(extra, dict):
        raise SessionError("'extra' must be an object")
    stopped = doc["stopped_reason"]
    if stopped is not None and not isinstance(stopped, str):
        raise SessionError("'stopped_reason' must be text or null")
    step = doc["step"]
    if isinstance(step, bool) or not isinstance(step, int) or step < 0:
        raise SessionError(f"'step' must be a whole number ≥ 0, got {step!r}")

    position = doc["sample_position"]
    if isinstance(position, bool) or not isinstance(position, int) or position < 0:
        raise SessionError(f"'sample_position' must be a whole number ≥ 0, got {position!r}")

    _check_counts(doc)
    runs = _parse_runs(doc.get("runs", []))
    custom_ops = doc.get("custom_ops", [])
    problems = load_definitions(custom_ops)  # before the config, whose activation may be one of them
    if problems:
        raise SessionError(f"an op of the session is refused: {problems[0]}")
    if doc["config"] is None:
        if any(doc[k] not in (None, []) for k in ("weights", "history", "optimizer_state", "data")):
            raise SessionError("a session without a config cannot hold weights, history, optimizer state or data")
        return SessionData(None, None, [], None, extra, runs=runs, custom_ops=custom_ops)

    try:
        config = TrainingConfig.from_dict(doc["config"])
    except (ValueError, TypeError) as exc:
        raise SessionError(f"bad config: {exc}") from exc

    weights = doc["weights"]
    sizes = [config.inputs, *config.layers, config.outputs]
    count = sum((sizes[i] + 1) * sizes[i + 1] for i in range(len(sizes) - 1))
    if not isinstance(weights, list) or not all(_finite(v) for v in weights):
        raise SessionError("'weights' must be a list of finite numbers")
    if len(weights) != count:
        raise SessionError(f"'weights' has {len(weights)} numbers but the model {sizes} has {count} parameters")

    history = doc["history"]
    if not isinstance(history, list):
        raise SessionError("'history' must be a list")
    try:
        metrics = [StepMetrics.from_dict(m) for m in history]
    except (ValueError, TypeError) as exc:
        raise SessionError(f"bad history: {exc}") from exc

    state = doc["optimizer_state"]
    if state is not None:
        try:
            config.make_optimizer([Tensor(0.0) for _ in range(count)]).load_state_dict(state)
        except (ValueError, TypeError, AttributeError) as exc:
            raise SessionError(f"bad optimizer state: {exc}") from exc

    data = None
    if doc["data"] is not None:
        try:
            data = Dataset.from_dict(doc["data"])
        except (ValueError, TypeError) as exc:
            raise SessionError(f"bad data: {exc}") from exc

    return SessionData(
        config, [float(v) for v in weights], metrics, state, extra, data, step, position, stopped, runs, custom_ops
    )


def _parse_runs(items) -> list[Run]:
    """The run history, bounded (at most MAX_RUNS runs, each checked count-first by Run.from_dict)."""
    if not isinstance(items, list):
        raise SessionError("'runs' must be a list")
    if len(items) > MAX_RUNS:
        raise SessionError(f"'runs' holds {len(items):,} runs; at most {MAX_RUNS} are kept")
    try:
        return RunHistory.from_list(items).runs
    except (ValueError, TypeError) as exc:
        raise SessionError(f"bad run history: {exc}") from exc


def _check_counts(doc: dict) -> None:
    """The same limits as a config's, on the lists that could hold millions of items, before anything is built."""
    config, data, history = doc["config"], doc["data"], doc["history"]
    if isinstance(config, dict) and isinstance(config.get("points"), list) and len(config["points"]) > MAX_SAMPLES:
        raise SessionError(f"the config holds {len(config['points']):,} points; at most {MAX_SAMPLES:,} are allowed")
    if isinstance(data, dict):
        parts = [data.get(key) for key in ("X_train", "X_test")]
        count = sum(len(part) for part in parts if isinstance(part, list))
        if count > MAX_SAMPLES:
            raise SessionError(f"'data' holds {count:,} points; at most {MAX_SAMPLES:,} are allowed")
    if isinstance(history, list) and len(history) > MAX_STEPS:
        raise SessionError(f"'history' holds {len(history):,} steps; at most {MAX_STEPS:,} are allowed")


def _finite(v) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v)


def trainer_from_session(data: SessionData) -> Trainer:
    """A Trainer in the saved state: same config, data, weights, optimizer state, history and step."""
    if data.config is None:
        raise SessionError("this session holds no trained model")
    problems = load_definitions(data.custom_ops)  # the training process defines the session's ops too
    if problems:
        raise SessionError(f"an op of the session is refused: {problems[0]}")
    try:
        trainer = Trainer(data.config, data=data.data)
        trainer.model.load_state_dict(data.weights)
        if data.optimizer_state is not None:
            trainer.optimizer.load_state_dict(data.optimizer_state)
    except ValueError as exc:
        raise SessionError(f"the session does not fit together: {exc}") from exc
    history = list(data.history)
    if history and history[0].step == 0:  # the metrics before the first step (files saved before this begin at 1)
        trainer.start_metrics = history.pop(0)
    trainer.history = history
    trainer.step_count = data.step
    trainer.sample_position = data.sample_position
    trainer.stopped_reason = data.stopped_reason
    return trainer
