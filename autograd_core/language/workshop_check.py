"""The op workshop's check: is the typed derivative the slope of the typed value, everywhere on a grid?

``check_definition`` compiles a definition (``workshop_definition``) and compares,
on a grid over [lo, hi] (one axis per input; a small square grid for two inputs),
the learner's derivative with the central finite difference of the learner's value
and with the symbolic derivative of the value (``symbolic``) where one exists.  The
verdict is a ``CheckResult``: every array a plot needs, a mask of disagreements, the
worst point with both numbers in one sentence, and apart from them the points where
the value itself is undefined (nan or inf) or has a kink (its left and right slopes
differ, so no derivative is wrong there).  It is accepted only when it agrees
everywhere else.  All of it is numpy over the grid, so it answers in milliseconds.
"""

from __future__ import annotations

import time

import numpy as np

from autograd_core.engine.tensor import Tensor
from autograd_core.language import symbolic
from autograd_core.language.workshop_definition import (
    CompiledDefinition,
    OpDefinition,
    WorkshopError,
    compile_definition,
)
from autograd_core.numbers import LEDGER, format_number

RTOL = 1e-3  # relative tolerance between the typed derivative and the slope
ATOL = 1e-4  # absolute tolerance, for slopes near 0
TOLERANCE_TEXT = f"|typed − slope| ≤ {ATOL:g} + {RTOL:g}·|slope|"
POINTS_1D = 201
POINTS_2D = 21  # per axis: 441 points
MAX_POINTS = 2001
TIME_LIMIT = 0.15  # seconds for the symbolic comparison; past it, it is left out with a note (the GUI thread waits)
_STEP = 1e-5  # finite-difference step, relative to max(1, |x|)
_KINK = 1e-2  # left and right slopes further apart than this (relative) make a kink


class CheckResult:
    """The check of one definition, for a plot and a verdict.

    ``error`` is set (and the arrays are None) when the definition was refused before any number was
    computed; ``field`` then says which field is at fault.  Otherwise ``grid`` holds one array per input
    (each of ``shape``), ``typed``, ``numeric`` and ``symbolic`` one array per input (``symbolic`` None
    where the value has no symbolic derivative), ``disagree`` the points where the typed derivative is
    wrong, ``undefined`` where the value is nan/inf and ``kinks`` where it has no derivative to compare.
    """

    def __init__(self, definition: OpDefinition):
        self.definition = definition
        self.compiled: CompiledDefinition | None = None
        self.error: str | None = None
        self.field: str | None = None
        self.lo = self.hi = 0.0
        self.grid: list[np.ndarray] | None = None
        self.shape: tuple[int, ...] = ()
        self.value: np.ndarray | None = None
        self.typed: list[np.ndarray] | None = None
        self.numeric: list[np.ndarray] | None = None
        self.symbolic: list[np.ndarray | None] | None = None
        self.disagree: list[np.ndarray] | None = None
        self.undefined: np.ndarray | None = None
        self.kinks: list[np.ndarray] | None = None
        self.worst: dict | None = None  # {"input", "point", "typed", "slope"} of the worst disagreement
        self.notes: list[str] = []
        self.seconds = 0.0
        self.tolerance = TOLERANCE_TEXT

    @property
    def accepted(self) -> bool:
        return self.error is None and self.worst is None

    @property
    def message(self) -> str:
        """The verdict in one sentence, then what was left apart."""
        if self.error:
            return self.error
        if self.worst:
            w = self.worst
            along = f" for {w['input']}" if len(self.definition.inputs) > 1 else ""
            slope = f"the slope along {w['input']} is" if along else "the slope is"
            text = (
                f"at {_point_text(self.definition.inputs, w['point'])} your derivative{along} gives "
                f"{_num(w['typed'])}, {slope} {_num(w['slope'])}"
            )
            count = int(np.logical_or.reduce(self.disagree).sum())
            if count > 1:
                text += f" (it disagrees at {count} of {self.grid[0].size} points)"
        else:
            defined = int(self.grid[0].size - self.undefined.sum())
            text = f"your derivative agrees with the slope at all {defined} points where the value is defined"
        return " ".join([text + ".", *self.notes])

    def undefined_points(self) -> list[tuple[float, ...]]:
        """The grid points where the value itself is nan or inf (said apart, never counted as wrong)."""
        if self.undefined is None:
            return []
        return [tuple(float(g[i]) for g in self.grid) for i in zip(*np.nonzero(self.undefined))]


def _num(x: float) -> str:
    return format_number(float(x), LEDGER)


def _point_text(inputs, point) -> str:
    return ", ".join(f"{name} = {_num(v)}" for name, v in zip(inputs, point))


def _grid(lo: float, hi: float, points: int, arity: int) -> list[np.ndarray]:
    axis = np.linspace(lo, hi, points)
    if arity == 1:
        return [axis]
    return list(np.meshgrid(axis, axis, indexing="ij"))


def _symbolic_values(compiled: CompiledDefinition, grid: list[np.ndarray], deadline: float) -> list[np.ndarray | None]:
    """The symbolic derivative of the value at every grid point (None for an input where it cannot be written).

    Piecewise ops (abs, relu, max…) write the constant of the branch taken where the formula is built, so a
    derivative formula holds wherever the same branches are taken: one is built per pattern of branches
    (its ``signature``), and only evaluated at the other points."""
    inputs = compiled.definition.inputs
    flat = [g.ravel() for g in grid]
    first = {n: float(f[0]) for n, f in zip(inputs, flat)}
    try:
        leaves = {n: Tensor(v, label=n) for n, v in first.items()}
        value_formula, _ = symbolic.from_graph(compiled.value.evaluate(leaves).output)
    except (ValueError, ArithmeticError):
        return [None] * len(inputs)
    order = symbolic._order(value_formula)
    branchy = [node for node in order if node.op is not None and _reads_branch(node.op)]
    out: list[np.ndarray | None] = []
    for name in inputs:
        values = np.full(flat[0].size, np.nan)
        formulas: dict[tuple, object] = {}
        for k in range(flat[0].size):
            if time.perf_counter() > deadline:
                return [None] * len(inputs)
            point = {n: float(f[k]) for n, f in zip(inputs, flat)}
            key = _signature(order, branchy, point)
            formula = formulas.get(key)
            if formula is None:
                leaves = {n: Tensor(v, label=n) for n, v in point.items()}
                try:
                    _, formula = symbolic.derivative_of(compiled.value.evaluate(leaves).output, leaves[name])
                except symbolic.SymbolicError:  # the value does not depend on this input
                    formula = 0.0
                formulas[key] = formula
            values[k] = formula if isinstance(formula, float) else symbolic.evaluate(formula, point)
        out.append(values.reshape(grid[0].shape))
    return out


def _reads_branch(op) -> bool:
    return op.derivative is None or op.base.name in ("elu", "selu", "pow", "rpow_const")


def _signature(order, branchy, point: dict[str, float]) -> tuple:
    """Which branch each piecewise op of the value formula takes at ``point``."""
    if not branchy:
        return ()
    results: dict[int, float] = {}
    for node in order:
        if node.op is None:
            results[id(node)] = float(point.get(node.name, node.data)) if node.name is not None else node.data
        else:
            results[id(node)] = node.op.rule(*(results[id(a)] for a in node.args), *node.op.args)[0]
    key = []
    for node in branchy:
        args = [results[id(a)] for a in node.args]
        if node.op.derivative is None:
            key.append(tuple(node.op.rule(*args, *node.op.args)[1:]))
        else:
            key.append(tuple((a > 0.0, a == 0.0) for a in args))
    return tuple(key)


def check_definition(
    definition: OpDefinition, lo: float = -3.0, hi: float = 3.0, points: int | None = None
) -> CheckResult:
    """Compile ``definition`` and compare its derivative with the slope of its value on a grid over [lo, hi]."""
    start = time.perf_counter()
    result = CheckResult(definition)
    try:
        compiled = result.compiled = compile_definition(definition)
        try:
            lo, hi = float(lo), float(hi)
        except (TypeError, ValueError):
            raise WorkshopError(f"the range must be two numbers, got {lo!r:.20} and {hi!r:.20}", "range") from None
        if not (np.isfinite(lo) and np.isfinite(hi) and lo < hi):
            raise WorkshopError(f"the range must be two finite numbers, lo below hi, got [{lo}, {hi}]", "range")
        arity = len(definition.inputs)
        points = points or (POINTS_1D if arity == 1 else POINTS_2D)
        if (
            isinstance(points, bool)
            or not isinstance(points, int)
            or not 3 <= points <= (MAX_POINTS if arity == 1 else 101)
        ):
            raise WorkshopError(f"the grid takes 3 to {MAX_POINTS if arity == 1 else 101} points per axis", "range")
    except WorkshopError as error:
        result.error, result.field = error.message, error.field
        result.seconds = time.perf_counter() - start
        return result
    result.lo, result.hi = float(lo), float(hi)
    _compare(result, compiled, _grid(float(lo), float(hi), points, arity), start)
    result.seconds = time.perf_counter() - start
    return result


def _compare(result: CheckResult, compiled: CompiledDefinition, grid: list[np.ndarray], start: float) -> None:
    inputs = compiled.definition.inputs
    at = dict(zip(inputs, grid))
    value = compiled.value.evaluate_array(at)
    result.grid, result.shape, result.value = grid, grid[0].shape, value
    undefined = ~np.isfinite(value)
    typed, numeric, disagree, kinks = [], [], [], []
    with np.errstate(all="ignore"):
        for index, name in enumerate(inputs):
            x = grid[index]
            h = _STEP * np.maximum(1.0, np.abs(x))
            plus = compiled.value.evaluate_array({**at, name: x + h})
            minus = compiled.value.evaluate_array({**at, name: x - h})
            undefined |= ~np.isfinite(plus) | ~np.isfinite(minus)
            slope = (plus - minus) / (2.0 * h)
            right, left = (plus - value) / h, (value - minus) / h
            kink = np.abs(right - left) > _KINK * (1.0 + np.abs(right) + np.abs(left))
            d = np.broadcast_to(compiled.derivatives[index].evaluate_array(at), x.shape).astype(float)
            ok = np.abs(d - slope) <= ATOL + RTOL * np.abs(slope)
            # at a kink any number between the one-sided slopes is a fair choice (relu'(0) = 0 as PyTorch),
            # and so is nan: there is no derivative there
            between = (d >= np.minimum(left, right) - ATOL) & (d <= np.maximum(left, right) + ATOL) | np.isnan(d)
            typed.append(d)
            numeric.append(slope)
            kinks.append(kink & ~undefined)
            disagree.append(~undefined & ~np.where(kink, between, ok))
    result.typed, result.numeric, result.undefined, result.kinks = typed, numeric, undefined, kinks
    result.disagree = [m & ~undefined for m in disagree]
    defined = ~undefined
    if not defined.any():
        result.error, result.field = (
            "the value is undefined (nan or inf) at every point of the range: try another",
            "value",
        )
        return
    for index, name in enumerate(inputs):
        if not np.isfinite(typed[index][defined]).any():
            result.error = (
                f"the derivative for {name} overflows (inf or nan) at every point where the value is defined: "
                "it cannot be a slope"
            )
            result.field = f"derivative {name}"
            return
    worst, worst_score = None, 0.0
    for index, name in enumerate(inputs):
        mask = result.disagree[index]
        if not mask.any():
            continue
        gap = np.where(mask, np.abs(typed[index] - numeric[index]) / (ATOL + RTOL * np.abs(numeric[index])), -1.0)
        gap = np.where(np.isnan(gap), np.inf, gap)
        k = np.unravel_index(int(np.argmax(gap)), gap.shape)
        if worst is None or gap[k] > worst_score:
            worst_score = gap[k]
            point = tuple(float(g[k]) for g in result.grid)
            worst = {"input": name, "point": point, "typed": float(typed[index][k]), "slope": float(numeric[index][k])}
    result.worst = worst
    result.symbolic = _symbolic_values(compiled, result.grid, time.perf_counter() + TIME_LIMIT)
    if all(s is None for s in result.symbolic):
        result.notes.append("The symbolic derivative of the value is left out here (none, or too slow to write).")
    n_undefined, n_kinks = int(undefined.sum()), int(sum(k.sum() for k in kinks))
    if n_undefined:
        where = _point_text(inputs, result.undefined_points()[0])
        result.notes.append(
            f"The value itself is undefined (nan or inf) at {n_undefined} point{'s' if n_undefined > 1 else ''}"
            f" (first at {where}); they are left out."
        )
    if n_kinks:
        result.notes.append(
            f"The value has a kink at {n_kinks} point{'s' if n_kinks > 1 else ''}, where any number between the "
            "left and right slopes (or nan) is accepted."
        )
