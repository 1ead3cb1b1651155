"""Test functions f(x, y) for the optimizer lab: presets, typed functions, grids, contour levels, gradient arrows.

A surface is a typed expression in the app's language (``autograd_core.language.expression``)
with the inputs ``x`` and ``y``, a view box and the minima known for it.  The grid
is evaluated in one vectorised pass by ``Program.evaluate_array`` (each op's numpy
twin: the scalar engine's numbers to 1e-12), so the map and the race agree.

No Qt here: the GUI turns ``SurfaceGrid`` into pixels.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from autograd_core.language.expression import ExpressionError, Program, compile_expression

VARIABLES = ("x", "y")
DEFAULT_RESOLUTION = 200
DEFAULT_LEVELS = 14
# A race builds f's graph twice per racer and step (Newton differentiates it twice more), ~30 times a second:
# a function is refused above this many nodes, with the compiler's message.
MAX_NODES = 2_000


@dataclass(frozen=True)
class Surface:
    """One function to race on: its text, where to look, and where its minima are."""

    name: str
    text: str
    box: tuple[float, float, float, float]  # x0, x1, y0, y1
    minima: tuple[tuple[float, float], ...] = ()
    note: str = ""
    start: tuple[float, float] | None = None  # a start that shows the function's character

    def program(self) -> Program:
        return compile_surface(self.text)


PRESETS: dict[str, Surface] = {
    s.name: s
    for s in (
        Surface(
            "Rosenbrock",
            "(1 - x)**2 + 100*(y - x**2)**2",
            (-2.0, 2.0, -1.0, 3.0),
            ((1.0, 1.0),),
            "a curved, flat-bottomed valley: easy to find, slow to follow",
            (-1.5, 2.5),
        ),
        Surface(
            "Beale",
            "(1.5 - x + x*y)**2 + (2.25 - x + x*y**2)**2 + (2.625 - x + x*y**3)**2",
            (-4.5, 4.5, -4.5, 4.5),
            ((3.0, 0.5),),
            "flat plateaus and steep walls: values span ten orders of magnitude",
            (1.0, 1.5),
        ),
        Surface(
            "Himmelblau",
            "(x**2 + y - 11)**2 + (x + y**2 - 7)**2",
            (-5.0, 5.0, -5.0, 5.0),
            (
                (3.0, 2.0),
                (-2.805118086952745, 3.131312518250573),
                (-3.779310253377747, -3.283185991286170),
                (3.584428340330492, -1.848126526964404),
            ),
            "four equal minima: where you start decides which one you reach",
            (-0.5, 0.5),
        ),
        Surface(
            "Booth",
            "(x + 2*y - 7)**2 + (2*x + y - 5)**2",
            (-10.0, 10.0, -10.0, 10.0),
            ((1.0, 3.0),),
            "a plain quadratic bowl: every method should get there",
            (-8.0, -8.0),
        ),
        Surface(
            "Saddle",
            "x**2 - y**2 + 0.1*y**4",
            (-3.0, 3.0, -3.5, 3.5),
            ((0.0, math.sqrt(5.0)), (0.0, -math.sqrt(5.0))),
            "a saddle at the origin between two minima: a start on y = 0 never leaves the ridge",
            (-2.5, 0.05),
        ),
        Surface(
            "Narrow valley",
            "0.05*(x + y)**2 + 5*(x - y)**2",
            (-4.0, 4.0, -4.0, 4.0),
            ((0.0, 0.0),),
            "an ill-conditioned quadratic (curvatures 0.2 and 20): plain SGD zig-zags",
            (-3.5, -2.5),
        ),
        Surface(
            "Rastrigin",
            "20 + x**2 - 10*cos(2*pi*x) + y**2 - 10*cos(2*pi*y)",
            (-5.12, 5.12, -5.12, 5.12),
            ((0.0, 0.0),),
            "a bowl covered in local minima: first-order methods get stuck in the nearest one",
            (2.2, 3.3),
        ),
        Surface(
            "Bowl with local minima",
            "0.1*(x**2 + y**2) - 2*exp(-((x - 2)**2 + (y - 1)**2))"
            " - 1.5*exp(-((x + 2)**2 + (y + 1.5)**2)) - exp(-((x + 1)**2 + (y - 2.5)**2)/0.5)",
            (-5.0, 5.0, -5.0, 5.0),
            (
                (1.9037050277097154, 0.9518525248942129),
                (-1.8719644816168541, -1.4039733660766718),
                (-0.9506873276111536, 2.3768646950550147),
            ),
            "a non-convex bowl with three wells of different depth",
            (0.2, -3.5),
        ),
    )
}


def compile_surface(text: str) -> Program:
    """A typed f(x, y): the language's program, refused (ExpressionError) if it uses any other input."""
    program = compile_expression(text, max_nodes=MAX_NODES)
    for name in program.inputs:
        if name not in VARIABLES:
            line, column, end_line, end_column = program._first_use[name]
            raise ExpressionError(
                f"f(x, y) may only use the inputs x and y, not '{name}' (assign it first: {name} = …)",
                line,
                column,
                end_line,
                end_column,
            )
    return program


def evaluate_point(program: Program, x: float, y: float) -> float:
    """f(x, y) with the scalar engine (the graph the race differentiates)."""
    return program.evaluate({"x": float(x), "y": float(y)}).output.data


@dataclass(frozen=True)
class SurfaceGrid:
    """f on a regular grid: ``values[i, j]`` is f(xs[j], ys[i]) (rows are y, as an image with y up)."""

    xs: np.ndarray
    ys: np.ndarray
    values: np.ndarray
    levels: np.ndarray = field(default_factory=lambda: np.zeros(0))

    @property
    def box(self) -> tuple[float, float, float, float]:
        return float(self.xs[0]), float(self.xs[-1]), float(self.ys[0]), float(self.ys[-1])

    @property
    def non_finite(self) -> int:
        """How many grid points are inf or nan."""
        return int(np.count_nonzero(~np.isfinite(self.values)))

    def bands(self) -> np.ndarray:
        """Each point's band between contour levels (0 … len(levels)), −1 where f is inf or nan."""
        return contour_bands(self.values, self.levels)


def evaluate_grid(
    program: Program, box: tuple[float, float, float, float], resolution: int = DEFAULT_RESOLUTION
) -> SurfaceGrid:
    """f on ``resolution`` × ``resolution`` points spanning ``box``, in one vectorised pass."""
    x0, x1, y0, y1 = box
    if not (x1 > x0 and y1 > y0) or not all(map(math.isfinite, box)):
        raise ValueError(f"the view box must have x0 < x1 and y0 < y1, got {box}")
    resolution = int(resolution)
    if resolution < 2:
        raise ValueError("a grid needs at least 2 points per side")
    xs = np.linspace(x0, x1, resolution)
    ys = np.linspace(y0, y1, resolution)
    values = program.evaluate_array({"x": xs[None, :], "y": ys[:, None]})
    values = np.broadcast_to(values, (resolution, resolution)).copy()
    return SurfaceGrid(xs, ys, values, log_levels(values))


def log_levels(values: np.ndarray, count: int = DEFAULT_LEVELS) -> np.ndarray:
    """Contour levels spaced evenly in log(f − min f): dense near the minimum, sparse on the walls.

    Functions below zero work too (the levels are shifted by the grid's
    minimum).  The top level is the 98th percentile, so a few huge values far
    out (Beale reaches 1e5) do not flatten the rest.  Non-finite points are
    ignored; an all-constant or all-non-finite grid gets one level.
    """
    finite = np.asarray(values, dtype=float)
    finite = finite[np.isfinite(finite)]
    if finite.size == 0:
        return np.zeros(1)
    low = float(finite.min())
    high = float(np.percentile(finite, 98.0))
    span = high - low
    if not span > 0.0 or not math.isfinite(span):
        return np.array([low])
    offsets = np.geomspace(span * 1e-4, span, count)
    return low + offsets


def contour_bands(values: np.ndarray, levels: np.ndarray) -> np.ndarray:
    """Band index of each value (0 below the first level, len(levels) above the last), −1 for inf/nan."""
    values = np.asarray(values, dtype=float)
    bands = np.searchsorted(np.asarray(levels, dtype=float), np.where(np.isfinite(values), values, 0.0))
    bands = bands.astype(np.int32)
    bands[~np.isfinite(values)] = -1
    return bands


def gradient_field(
    program: Program, box: tuple[float, float, float, float], count: int = 21
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(X, Y, U, V): −∇f on a ``count`` × ``count`` grid, by central differences of the vectorised f.

    The step is 1e-6 of the box: the arrows are accurate to far better than a
    pixel.  Non-finite components come back as nan (no arrow there).
    """
    x0, x1, y0, y1 = box
    xs = np.linspace(x0, x1, count + 2)[1:-1]
    ys = np.linspace(y0, y1, count + 2)[1:-1]
    X, Y = np.meshgrid(xs, ys)
    hx, hy = 1e-6 * (x1 - x0), 1e-6 * (y1 - y0)
    with np.errstate(all="ignore"):
        fx = (program.evaluate_array({"x": X + hx, "y": Y}) - program.evaluate_array({"x": X - hx, "y": Y})) / (2 * hx)
        fy = (program.evaluate_array({"x": X, "y": Y + hy}) - program.evaluate_array({"x": X, "y": Y - hy})) / (2 * hy)
    U = np.broadcast_to(-fx, X.shape).astype(float)
    V = np.broadcast_to(-fy, X.shape).astype(float)
    bad = ~(np.isfinite(U) & np.isfinite(V))
    U, V = U.copy(), V.copy()
    U[bad] = np.nan
    V[bad] = np.nan
    return X, Y, U, V


def arrow_segments(
    X: np.ndarray, Y: np.ndarray, U: np.ndarray, V: np.ndarray, length: float
) -> tuple[np.ndarray, np.ndarray]:
    """Line segments (point pairs, for connect="pairs") drawing each vector as an arrow.

    Arrows point along (U, V); their length grows with log(1 + |v|/median) up
    to ``length`` (gradients span orders of magnitude), and a zero or nan vector
    draws nothing.
    """
    U, V = np.ravel(U), np.ravel(V)
    X, Y = np.ravel(X), np.ravel(Y)
    norm = np.hypot(U, V)
    keep = np.isfinite(norm) & (norm > 0)
    if not keep.any():
        return np.zeros(0), np.zeros(0)
    X, Y, U, V, norm = X[keep], Y[keep], U[keep], V[keep], norm[keep]
    scale = np.log1p(norm / max(float(np.median(norm)), 1e-300))
    scale = length * scale / max(float(scale.max()), 1e-300)
    scale = np.maximum(scale, 0.25 * length)
    ux, uy = U / norm, V / norm
    tx, ty = X + ux * scale, Y + uy * scale
    head = 0.35 * scale
    # the two barbs: the direction turned by ±150°
    c, s = math.cos(math.radians(150)), math.sin(math.radians(150))
    b1x, b1y = tx + head * (c * ux - s * uy), ty + head * (s * ux + c * uy)
    b2x, b2y = tx + head * (c * ux + s * uy), ty + head * (-s * ux + c * uy)
    xs = np.stack([X, tx, tx, b1x, tx, b2x], axis=1).ravel()
    ys = np.stack([Y, ty, ty, b1y, ty, b2y], axis=1).ravel()
    return xs, ys


def nearest_minimum(minima, x: float, y: float) -> tuple[tuple[float, float] | None, float]:
    """The known minimum nearest to (x, y) and the distance to it; (None, nan) when none is known."""
    best, distance = None, math.nan
    for mx, my in minima:
        d = math.hypot(x - mx, y - my)
        if best is None or d < distance:
            best, distance = (mx, my), d
    return best, distance
