"""The optimizer lab's numerics: surfaces against the scalar engine, races against the optim classes."""

from __future__ import annotations

import math

import numpy as np
import pytest

from autograd_core.engine import functional
from autograd_core.engine.tensor import Tensor
from autograd_core.lab.race import RACER_KINDS, EngineHessian, Race, Racer, RacerSpec
from autograd_core.lab.surfaces import (
    PRESETS,
    arrow_segments,
    compile_surface,
    contour_bands,
    evaluate_grid,
    evaluate_point,
    gradient_field,
    log_levels,
)
from autograd_core.language.expression import ExpressionError
from autograd_core.learn.optim import SGD, Adam, Newton, RMSprop

RNG = np.random.default_rng(7)


@pytest.mark.parametrize("name", list(PRESETS))
def test_grid_agrees_with_the_scalar_engine(name):
    surface = PRESETS[name]
    program = surface.program()
    grid = evaluate_grid(program, surface.box, resolution=37)
    for _ in range(25):
        i, j = RNG.integers(0, 37, size=2)
        scalar = evaluate_point(program, grid.xs[j], grid.ys[i])
        assert grid.values[i, j] == pytest.approx(scalar, rel=1e-12, abs=1e-12)


@pytest.mark.parametrize("name", list(PRESETS))
def test_known_minima_are_stationary_and_lowest_nearby(name):
    surface = PRESETS[name]
    program = surface.program()
    for mx, my in surface.minima:
        x, y = Tensor(mx), Tensor(my)
        out = program.evaluate({"x": x, "y": y}).output
        out.backward()
        assert math.hypot(x.grad, y.grad) < 1e-6
        h = functional.hessian(lambda a, b: program.evaluate({"x": a, "y": b}).output, [mx, my])
        assert np.all(np.linalg.eigvalsh(h) > 0)  # a minimum, not a saddle
        box = surface.box
        assert box[0] < mx < box[1] and box[2] < my < box[3]


def test_hand_values_of_presets():
    assert evaluate_point(PRESETS["Rosenbrock"].program(), -1.0, 2.0) == 4 + 100 * 1
    assert evaluate_point(PRESETS["Booth"].program(), 0.0, 0.0) == 49 + 25
    assert evaluate_point(PRESETS["Rastrigin"].program(), 0.0, 0.0) == pytest.approx(0.0, abs=1e-12)
    assert evaluate_point(PRESETS["Himmelblau"].program(), 3.0, 2.0) == 0.0


def test_a_function_with_other_inputs_is_refused_with_its_position():
    with pytest.raises(ExpressionError, match="only use the inputs x and y, not 'z'") as info:
        compile_surface("x**2 + z")
    assert (info.value.line, info.value.column) == (1, 8)
    assert compile_surface("a = x*y\na**2").inputs == ["x", "y"]
    with pytest.raises(ExpressionError):
        compile_surface("x +* y")


def test_log_levels_are_geometric_above_the_minimum():
    values = np.array([[-3.0, -1.0], [10.0, 1e6]])
    levels = log_levels(values, count=5)
    gaps = levels - values.min()
    assert np.allclose(gaps[1:] / gaps[:-1], gaps[1] / gaps[0])
    assert levels[0] > -3.0 and levels[-1] <= np.percentile(values, 98)
    assert log_levels(np.full((3, 3), 2.0)).tolist() == [2.0]
    assert log_levels(np.full((2, 2), np.nan)).size == 1


def test_overflow_gives_non_finite_bands_not_errors():
    program = compile_surface("exp(x*y)")
    grid = evaluate_grid(program, (-40.0, 40.0, -40.0, 40.0), resolution=50)
    assert grid.non_finite > 0
    bands = grid.bands()
    assert np.all(bands[~np.isfinite(grid.values)] == -1)
    assert np.all(bands[np.isfinite(grid.values)] >= 0)
    assert np.all(np.isfinite(grid.levels))
    assert contour_bands(np.array([0.5, 5.0, np.nan]), np.array([1.0, 2.0])).tolist() == [0, 2, -1]


def test_gradient_field_points_downhill_and_arrows_have_heads():
    program = PRESETS["Booth"].program()
    X, Y, U, V = gradient_field(program, (-10, 10, -10, 10), count=5)
    # −∇ of Booth by hand
    gx = 2 * (X + 2 * Y - 7) + 4 * (2 * X + Y - 5)
    gy = 4 * (X + 2 * Y - 7) + 2 * (2 * X + Y - 5)
    assert np.allclose(U, -gx, rtol=1e-6, atol=1e-5) and np.allclose(V, -gy, rtol=1e-6, atol=1e-5)
    xs, ys = arrow_segments(X, Y, U, V, length=1.0)
    assert len(ys) == len(xs)
    assert len(xs) == 25 * 6  # shaft and two barbs per arrow
    U[0, 0] = np.nan
    assert len(arrow_segments(X, Y, U, V, 1.0)[0]) == 24 * 6


# ------------------------------------------------------------------ the race


def rosenbrock_grad(x, y):
    return -2 * (1 - x) - 400 * x * (y - x * x), 200 * (y - x * x)


def manual_run(optimizer_class, steps, start, **kwargs):
    """The optim class driven by the hand-derived gradient of Rosenbrock: the reference path."""
    x, y = Tensor(start[0]), Tensor(start[1])
    opt = optimizer_class([x, y], **kwargs)
    path = [(x.data, y.data)]
    for _ in range(steps):
        x.grad, y.grad = rosenbrock_grad(x.data, y.data)
        opt.step()
        path.append((x.data, y.data))
    return np.array(path)


@pytest.mark.parametrize(
    "spec, cls, kwargs",
    [
        (RacerSpec("sgd", 1e-3), SGD, {"lr": 1e-3}),
        (RacerSpec("momentum", 1e-3, {"momentum": 0.8}), SGD, {"lr": 1e-3, "momentum": 0.8}),
        (RacerSpec("nesterov", 1e-3), SGD, {"lr": 1e-3, "momentum": 0.9, "nesterov": True}),
        (RacerSpec("rmsprop", 1e-2, {"alpha": 0.9}), RMSprop, {"lr": 1e-2, "alpha": 0.9}),
        (RacerSpec("adam", 0.05, {"betas": (0.8, 0.99)}), Adam, {"lr": 0.05, "betas": (0.8, 0.99)}),
    ],
)
def test_race_steps_are_the_optimizer_classes_steps(spec, cls, kwargs):
    surface = PRESETS["Rosenbrock"]
    racer = Racer(spec, surface.program(), (-1.2, 1.0), surface.minima, surface.box)
    for _ in range(300):
        racer.step()
    expected = manual_run(cls, 300, (-1.2, 1.0), **kwargs)
    got = np.column_stack([racer.path_x, racer.path_y])
    assert racer.note is None and racer.steps == 300
    np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-14)
    # the recorded losses and gradients belong to the recorded points
    k = 123
    assert racer.losses[k] == (1 - got[k, 0]) ** 2 + 100 * (got[k, 1] - got[k, 0] ** 2) ** 2
    np.testing.assert_allclose(racer.grads[k], rosenbrock_grad(*got[k]), rtol=1e-12)


def test_newton_uses_the_engines_second_derivatives():
    surface = PRESETS["Rosenbrock"]
    racer = Racer(RacerSpec("newton", 1.0, {"damping": 0.0}), surface.program(), (-1.2, 1.0), surface.minima)
    assert isinstance(racer.optimizer, Newton) and "second derivatives" in racer.optimizer.hessian_source
    x, y = -1.2, 1.0
    hessian = np.array([[2 - 400 * (y - 3 * x * x), -400 * x], [-400 * x, 200]])
    step = np.linalg.solve(hessian, rosenbrock_grad(x, y))
    racer.step()
    np.testing.assert_allclose(racer.position, (x - step[0], y - step[1]), rtol=1e-12)
    np.testing.assert_allclose(EngineHessian(surface.program())([Tensor(x), Tensor(y)], None), hessian, rtol=1e-12)
    for _ in range(20):
        racer.step()
    assert racer.distance < 1e-10  # quadratic convergence to (1, 1)


def test_a_diverging_racer_stops_with_a_note_and_the_others_go_on():
    surface = PRESETS["Rosenbrock"]
    race = Race(
        surface.program(),
        [RacerSpec("sgd", 0.1, label="too fast"), RacerSpec("adam", 0.01)],
        (-1.5, 2.5),
        surface.minima,
        surface.box,
    )
    race.step(50)
    fast, adam = race.racers
    assert fast.stopped and "diverged" in fast.note
    assert fast.steps < 50
    assert adam.steps == 50 and not adam.stopped
    steps = fast.steps
    assert fast.step() is False and fast.steps == steps  # a stopped racer stays stopped
    assert race.running


def test_overflowing_function_and_singular_newton_stop_cleanly():
    program = compile_surface("exp(x*y)")
    race = Race(program, [RacerSpec("sgd", 1.0), RacerSpec("newton", 1.0, {"damping": 0.0})], (30.0, 30.0))
    race.step(5)
    assert all(r.stopped for r in race.racers)
    assert not race.running
    assert race.step(3) == 0
    flat = compile_surface("0*x + 0*y")
    newton = Racer(RacerSpec("newton", 1.0, {"damping": 0.0}), flat, (1.0, 1.0))
    assert newton.step() is False and "singular" in newton.note


def test_step_graph_rebuilds_the_step_with_its_gradient():
    surface = PRESETS["Himmelblau"]
    racer = Racer(RacerSpec("adam", 0.1), surface.program(), (0.0, 0.0), surface.minima)
    for _ in range(10):
        racer.step()
    evaluation = racer.step_graph(4)
    assert evaluation.inputs["x"].data == racer.path_x[4]
    assert (evaluation.inputs["x"].grad, evaluation.inputs["y"].grad) == racer.grads[4]
    assert evaluation.output.data == racer.losses[4]
    with pytest.raises(IndexError):
        racer.step_graph(11)


def test_every_kind_runs_and_distance_is_to_the_nearest_minimum():
    surface = PRESETS["Himmelblau"]
    race = Race(surface.program(), [RacerSpec(k) for k in RACER_KINDS], (3.5, 2.5), surface.minima, surface.box)
    race.step(5)
    for racer in race.racers:
        x, y = racer.position
        assert racer.distance == pytest.approx(min(math.hypot(x - a, y - b) for a, b in surface.minima))
    custom = Racer(RacerSpec("sgd"), compile_surface("x*x + y*y"), (1.0, 1.0))
    assert math.isnan(custom.distance)


def test_a_racer_that_stops_moving_stops_as_converged():
    surface = PRESETS["Booth"]
    racer = Racer(RacerSpec("newton", 1.0, {"damping": 0.0}), surface.program(), (-8.0, -8.0), surface.minima)
    for _ in range(10):
        racer.step()
    assert racer.stopped and not racer.diverged and racer.note.startswith("converged at step")
    assert racer.distance < 1e-12 and racer.steps < 10


def test_a_function_too_big_to_race_is_refused_with_the_compilers_message():
    with pytest.raises(ExpressionError, match="more than 2,000 nodes"):
        compile_surface(" + ".join(["x*y"] * 1500))
