"""What a training run will cost in memory and time, estimated from its config before anything is built.

Every step the scalar engine builds the graph of each sample in the batch:
per neuron one fused Σwx+b node whose parent list and local derivatives grow
with its fan-in, plus its activation node.  So one step's graph grows with
(samples per step) × (weights and neurons of the network): full batch over
100,000 samples with 16,16 builds 75,000 such graphs, ~2.5 GB, and with
256,256 it would need ~200 GB.  Each step also evaluates the whole train and
test sets with numpy and adds an entry to the history.

``estimate_run_cost(config)`` gives a ``RunCost``; its ``problems(limits)``
says what is beyond sensible limits: ``refuse`` (would exhaust the machine)
or ask first (big or slow).  Each ``CostProblem.message(name_of)`` names the
settings to change through ``name_of`` (CLI: ``--batch-size``; GUI: its own
labels), so the command line and the app share one guard.

The constants were fitted on a busy 2-core machine; ``benchmarks/bench_run_cost.py``
prints estimates beside measurements (memory within ±25 %).  Times are
"about": a faster machine is faster.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Callable
from dataclasses import dataclass

from autograd_core.files import format_size
from autograd_core.learn.training import TrainingConfig

# Memory of one step's graph, per sample: bytes per weight (a parent pointer and a local derivative,
# plus the sort's stack), per neuron (two nodes and their lists), per sample (inputs and loss nodes).
GRAPH_BYTES_PER_WEIGHT = 36
GRAPH_BYTES_PER_NEURON = 680
GRAPH_BYTES_PER_SAMPLE = 1_100
STEP_BYTES_PER_PARAMETER = 150  # penalty nodes and the rollback copies of weights and optimizer state
MODEL_BYTES_PER_PARAMETER = 1_200  # the Tensor, its names, optimizer buffers
DATA_BYTES_PER_POINT = 1_000  # input leaves and arrays
HISTORY_BYTES_PER_STEP = 600  # one StepMetrics (plus 24 per layer for its gradient norms)
PROCESS_BYTES = 120 * 2**20  # Python, numpy and scikit-learn before any training

# Time of one step, per sample of the batch, and per step.
SECONDS_PER_WEIGHT = 0.5e-6
SECONDS_PER_NEURON = 10.3e-6
SECONDS_PER_PARAMETER = 8e-6  # optimizer update, penalty, rollback copies, finiteness checks (4–11 µs measured)
EVAL_SECONDS_PER_POINT_NEURON = 13e-9  # the numpy forward over every train and test point
EVAL_SECONDS_PER_POINT_WEIGHT = 0.15e-9
SECONDS_PER_STEP = 1e-3

ASK_BYTES = 2**30  # beyond 1 GiB, ask: a teaching run never needs that much
ASK_SECONDS = 600.0  # beyond 10 minutes, ask


def machine_memory() -> int | None:
    """Physical memory in bytes, or None where the OS does not say."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):
        return None


@dataclass(frozen=True)
class RunLimits:
    """Beyond ``refuse_bytes`` a run is refused; beyond ``ask_bytes`` or ``ask_seconds`` the user is asked."""

    ask_bytes: int = ASK_BYTES
    refuse_bytes: int = 8 * 2**30
    ask_seconds: float = ASK_SECONDS
    refuse_note: str = ""  # what refuse_bytes is, for the message

    @classmethod
    def for_this_machine(cls) -> RunLimits:
        """Refuse what would take over half of this machine's memory (8 GiB if unknown)."""
        memory = machine_memory()
        if not memory:
            return cls()
        refuse = memory // 2
        return cls(ask_bytes=min(ASK_BYTES, refuse), refuse_bytes=refuse, refuse_note="half of this machine's memory")


def option_name(field: str) -> str:
    """A TrainingConfig field as the command line spells it: batch_size → --batch-size."""
    return "--" + field.replace("_", "-")


@dataclass(frozen=True)
class CostProblem:
    """One way a run exceeds a limit.

    ``kind`` is "memory" or "time"; ``refuse`` is True when the run must not
    start, False when the user should be asked.  ``fields`` are the
    TrainingConfig fields that would fix it, the most effective first.
    """

    kind: str
    refuse: bool
    fields: tuple[str, ...]
    template: str  # {field} placeholders, filled by message()

    def message(self, name_of: Callable[[str], str] = option_name) -> str:
        """One sentence naming the settings with ``name_of`` (default: command-line options)."""
        return self.template.format_map(_Names(name_of))


class _Names(dict):
    def __init__(self, name_of: Callable[[str], str]):
        super().__init__()
        self.name_of = name_of

    def __missing__(self, key: str) -> str:
        return self.name_of(key)


@dataclass(frozen=True)
class RunCost:
    """The estimated peak memory (bytes, whole process) and time (seconds) of a run's remaining steps."""

    config: TrainingConfig
    train_size: int
    test_size: int
    batch: int  # samples per step
    steps: int  # steps still to run
    parameters: int
    weights: int  # connections of the network (weights only)
    neurons: int
    graph_bytes: int  # one step's graph
    history_bytes: int  # the history at the end
    model_bytes: int
    data_bytes: int
    peak_bytes: int
    seconds_per_step: float
    seconds: float
    runs_bytes: int = 0  # the run history kept beside the run (RunHistory.nbytes())

    def problems(self, limits: RunLimits | None = None) -> list[CostProblem]:
        """What is beyond ``limits`` (default: ``RunLimits.for_this_machine()``), memory first."""
        limits = limits or RunLimits.for_this_machine()
        found = []
        if self.peak_bytes > limits.ask_bytes:
            refuse = self.peak_bytes > limits.refuse_bytes
            limit = limits.refuse_bytes if refuse else limits.ask_bytes
            cause, fields = self._memory_cause()
            found.append(
                CostProblem(
                    "memory",
                    refuse,
                    fields,
                    f"this run needs about {format_size(self.peak_bytes)} of memory (over {format_size(limit)}"
                    f"{', ' + limits.refuse_note if refuse and limits.refuse_note else ''}): {cause}",
                )
            )
        if self.seconds > limits.ask_seconds:
            cause, fields = self._time_cause()
            found.append(
                CostProblem(
                    "time",
                    False,
                    fields,
                    f"this run takes about {format_duration(self.seconds)} "
                    f"(over {format_duration(limits.ask_seconds)}): {cause}",
                )
            )
        return found

    # ---- which setting drives the cost, in words

    def _data_field(self) -> str:
        return "points" if self.config.points is not None else "samples"

    def _batch_words(self) -> tuple[str, tuple[str, ...]]:
        data = self._data_field()
        if self.batch >= self.train_size:
            what = "{batch_size} 0 = full batch" if self.config.batch_size == 0 else "{batch_size} ≥ the training set"
            return (
                f"all {self.train_size:,} training samples ({what}, {{{data}}} {self._data_value()})",
                ("batch_size", data, "layers"),
            )
        return f"{self.batch:,} samples ({{batch_size}} {self.config.batch_size})", ("batch_size", "layers")

    def _data_value(self) -> str:
        return "file" if self.config.points is not None else str(self.config.samples)

    def _network(self) -> str:
        sizes = "-".join(map(str, [self.config.inputs, *self.config.layers, self.config.outputs]))
        return f"a {sizes} network ({{layers}} {','.join(map(str, self.config.layers)) or 'none'})"

    def _memory_cause(self) -> tuple[str, tuple[str, ...]]:
        parts = {
            "graph": self.graph_bytes,
            "history": self.history_bytes,
            "model": self.model_bytes,
            "data": self.data_bytes,
            "runs": self.runs_bytes,
        }
        biggest = max(parts, key=parts.get)
        if biggest == "graph":
            batch, fields = self._batch_words()
            return (
                f"each step builds the graph of {batch} through {self._network()}; lower {_listing(fields)}",
                fields,
            )
        if biggest == "history":
            return (
                f"the history of {self.steps:,} steps ({{steps}} {self.config.steps}) takes "
                f"{format_size(self.history_bytes)}; use fewer {{steps}}",
                ("steps",),
            )
        if biggest == "model":
            return f"{self._network()} has {self.parameters:,} parameters; use smaller {{layers}}", ("layers",)
        if biggest == "runs":
            return f"the run history takes {format_size(self.runs_bytes)}; delete some runs", ()
        data = self._data_field()
        return f"the data set holds {self.train_size + self.test_size:,} points; use fewer {{{data}}}", (data,)

    def _time_cause(self) -> tuple[str, tuple[str, ...]]:
        per_step = f"{self.steps:,} steps ({{steps}} {self.config.steps}) of ~{format_duration(self.seconds_per_step)}"
        graph_seconds = self.batch * (self.weights * SECONDS_PER_WEIGHT + self.neurons * SECONDS_PER_NEURON)
        if graph_seconds >= 0.5 * self.seconds_per_step:
            batch, fields = self._batch_words()
            fields = ("steps", *fields)
            return f"{per_step}, each on {batch} through {self._network()}; lower {_listing(fields)}", fields
        fields = ("steps", self._data_field())
        return (
            f"{per_step}, mostly evaluating all {self.train_size + self.test_size:,} points after each step; "
            f"lower {_listing(fields)}",
            fields,
        )


def _listing(fields: tuple[str, ...]) -> str:
    names = [f"{{{f}}}" for f in fields]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]


def format_duration(seconds: float) -> str:
    """Seconds for a person: 0.4 s, 45 s, 12 min, 2.5 h."""
    if seconds < 10:
        return f"{seconds:.2g} s"
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 90 * 60:
        return f"{seconds / 60:.0f} min"
    if seconds < 48 * 3600:
        return f"{seconds / 3600:.1f} h"
    return f"{seconds / 86400:.0f} days"


def estimate_run_cost(
    config: TrainingConfig,
    *,
    train_size: int | None = None,
    test_size: int | None = None,
    steps_done: int = 0,
    runs_bytes: int = 0,
) -> RunCost:
    """Estimate the peak memory and the time of training ``config`` from ``steps_done`` up to ``config.steps``.

    ``train_size``/``test_size`` default to what ``config`` would generate
    (give them for a loaded or painted data set); ``runs_bytes`` is the run
    history kept in memory beside it (``RunHistory.nbytes()``, at most a few
    MB for 50 runs).  Nothing is built, so this is instant even for a config
    that could never run.
    """
    if train_size is None or test_size is None:
        n = len(config.points) if config.points is not None else config.samples
        test = round(n * config.test_fraction)
        train_size, test_size = max(1, n - test), test
    sizes = [config.inputs, *config.layers, config.outputs]
    weights = sum(a * b for a, b in itertools.pairwise(sizes))
    neurons = sum(sizes[1:])
    parameters = weights + neurons
    batch = train_size if config.batch_size <= 0 or config.batch_size >= train_size else config.batch_size
    steps = max(0, config.steps - steps_done)
    points = train_size + test_size

    per_sample = GRAPH_BYTES_PER_WEIGHT * weights + GRAPH_BYTES_PER_NEURON * neurons + GRAPH_BYTES_PER_SAMPLE
    graph_bytes = batch * per_sample + STEP_BYTES_PER_PARAMETER * parameters
    history_bytes = config.steps * (HISTORY_BYTES_PER_STEP + 24 * len(sizes))
    model_bytes = MODEL_BYTES_PER_PARAMETER * parameters
    data_bytes = DATA_BYTES_PER_POINT * points
    runs_bytes = max(0, int(runs_bytes))
    peak = PROCESS_BYTES + graph_bytes + history_bytes + model_bytes + data_bytes + runs_bytes

    per_step = (
        batch * (SECONDS_PER_WEIGHT * weights + SECONDS_PER_NEURON * neurons)
        + SECONDS_PER_PARAMETER * parameters
        + points * (EVAL_SECONDS_PER_POINT_NEURON * neurons + EVAL_SECONDS_PER_POINT_WEIGHT * weights)
        + SECONDS_PER_STEP
    )
    return RunCost(
        config=config,
        train_size=train_size,
        test_size=test_size,
        batch=batch,
        steps=steps,
        parameters=parameters,
        weights=weights,
        neurons=neurons,
        graph_bytes=graph_bytes,
        history_bytes=history_bytes,
        model_bytes=model_bytes,
        data_bytes=data_bytes,
        peak_bytes=peak,
        seconds_per_step=per_step,
        seconds=steps * per_step,
        runs_bytes=runs_bytes,
    )
