"""The training loop, run in its own process, and the snapshots it sends to the GUI.

Why a process and not a thread: the scalar engine is pure Python, so a
training thread holds the GIL almost all the time, and every time Qt calls
back into Python while painting (pyqtgraph paints in Python, item by item)
the GUI thread waits up to a switch interval for it.  Measured here with a
thread: event-loop stalls of several *seconds* per frame.  In a child
process training runs truly in parallel and the GUI keeps its GIL.

This module imports no Qt, so the child starts quickly.  The child owns the
Trainer; the GUI sends small command tuples and receives ``Snapshot``
objects (weights, gradients, metrics since the last one, the decision
boundary grid and its 0.5 contour) at a bounded rate, so the GUI thread
only hands arrays to the plots.
"""

from __future__ import annotations

import dataclasses
import time
from collections import deque
from dataclasses import dataclass, field

import numpy as np

from autograd_core.data import Dataset
from autograd_core.inspection import loss_slice, parameter_index
from autograd_core.losses import probability
from autograd_core.optim import learning_rate
from autograd_core.session import session_dict, trainer_from_session
from autograd_core.training import Trainer, TrainingConfig

GRID_RESOLUTION = 90  # cells per side of the decision-boundary heat map
GRID_MARGIN = 0.15  # fraction of the data range added on each side
SLICE_INTERVAL = 0.5  # seconds between loss slices while training (each is a full-batch scalar backward)


@dataclass
class BoundaryGrid:
    """The model's predicted probability of class 1 on a regular grid.

    ``probability[i, j]`` is at x = xs[j], y = ys[i] (row-major, y up);
    ``contour_x/contour_y`` hold the 0.5 level as segments, point pairs
    (draw with connect="pairs").
    """

    probability: np.ndarray
    extent: tuple[float, float, float, float]  # x0, x1, y0, y1
    contour_x: np.ndarray
    contour_y: np.ndarray


@dataclass
class Snapshot:
    """Everything the GUI draws, copied out of the trainer in the training process."""

    generation: int  # increases whenever the trainer is rebuilt (new network, new data, reset, session)
    seq: int = 0  # commands the training process had handled when it made this snapshot
    metrics: list = field(default_factory=list)  # StepMetrics since the previous snapshot
    history: list | None = None  # the whole history, sent once per generation (later metrics add to it)
    last: object | None = None  # the most recent StepMetrics (or the initial evaluation)
    weights: list = field(default_factory=list)  # [(W (nout×nin), b)] per layer
    grads: list = field(default_factory=list)  # same shapes: gradients of the last backward pass
    grid: BoundaryGrid | None = None
    dataset: object | None = None  # sent when it changed, else None
    sizes: tuple[int, ...] = ()  # (inputs, hidden..., outputs)
    activation: str = ""
    running: bool = False
    finished: bool = False
    stopped_reason: str | None = None
    error: str | None = None
    steps_per_second: float = 0.0
    loss_slice: object | None = None  # autograd_core.inspection.LossSlice of the picked weight, when recomputed
    slice_spec: tuple | None = None  # (layer, neuron, source) that slice is for (source None: the bias)


def parameter_grads(model) -> list[tuple[np.ndarray, np.ndarray]]:
    """The gradients of every weight and bias, shaped like ``model.weight_arrays()``."""
    return [
        (
            np.array([[w.grad for w in n.w] for n in layer.neurons], dtype=float),
            np.array([n.b.grad for n in layer.neurons], dtype=float),
        )
        for layer in model.layers
    ]


def contour_segments(values: np.ndarray, level: float, xs: np.ndarray, ys: np.ndarray):
    """Marching squares, vectorised: the ``level`` line of ``values[i, j]`` (at xs[j], ys[i]) as point pairs.

    Returns (x, y) arrays of even length; points 2k and 2k+1 are one segment.
    A saddle cell is split the way its centre value says.
    """
    v = np.asarray(values, dtype=float)
    above = v >= level
    v00, v01, v10, v11 = v[:-1, :-1], v[:-1, 1:], v[1:, :-1], v[1:, 1:]
    a00, a01, a10, a11 = above[:-1, :-1], above[:-1, 1:], above[1:, :-1], above[1:, 1:]
    x0, x1 = xs[:-1][None, :], xs[1:][None, :]
    y0, y1 = ys[:-1][:, None], ys[1:][:, None]

    def cross(va, vb):
        with np.errstate(divide="ignore", invalid="ignore"):
            t = (level - va) / (vb - va)
        return np.clip(np.nan_to_num(t, nan=0.5), 0.0, 1.0)

    shape = v00.shape
    # Crossing points on the four edges: bottom (00–01), right (01–11), top (10–11), left (00–10).
    t = cross(v00, v01)
    bottom = (x0 + t * (x1 - x0), np.broadcast_to(y0, shape))
    t = cross(v01, v11)
    right = (np.broadcast_to(x1, shape), y0 + t * (y1 - y0))
    t = cross(v10, v11)
    top = (x0 + t * (x1 - x0), np.broadcast_to(y1, shape))
    t = cross(v00, v10)
    left = (np.broadcast_to(x0, shape), y0 + t * (y1 - y0))
    edges = [bottom, right, top, left]
    hits = np.stack([a00 != a01, a01 != a11, a10 != a11, a00 != a10])  # (4, ny-1, nx-1)
    count = hits.sum(axis=0)

    xs_out, ys_out = [], []
    two = count == 2
    if two.any():
        idx = np.argsort(~hits[:, two], axis=0, kind="stable")[:2]  # the two crossed edges, in edge order
        ex = np.stack([np.broadcast_to(e[0], shape)[two] for e in edges])
        ey = np.stack([np.broadcast_to(e[1], shape)[two] for e in edges])
        cols = np.arange(two.sum())
        xs_out.append(np.column_stack([ex[idx[0], cols], ex[idx[1], cols]]).ravel())
        ys_out.append(np.column_stack([ey[idx[0], cols], ey[idx[1], cols]]).ravel())
    four = count == 4
    if four.any():
        centre_above = ((v00 + v01 + v10 + v11) / 4 >= level)[four]
        joined = centre_above == a00[four]  # corners 00 and 11 connected: cut off corners 01 and 10
        b, r, tp, lf = ([np.broadcast_to(c, shape)[four] for c in e] for e in edges)
        first_a = np.where(joined[:, None], np.column_stack(b), np.column_stack(b))
        first_b = np.where(joined[:, None], np.column_stack(r), np.column_stack(lf))
        second_a = np.where(joined[:, None], np.column_stack(tp), np.column_stack(r))
        second_b = np.where(joined[:, None], np.column_stack(lf), np.column_stack(tp))
        for pa, pb in ((first_a, first_b), (second_a, second_b)):
            xs_out.append(np.column_stack([pa[:, 0], pb[:, 0]]).ravel())
            ys_out.append(np.column_stack([pa[:, 1], pb[:, 1]]).ravel())
    if not xs_out:
        return np.empty(0), np.empty(0)
    return np.concatenate(xs_out), np.concatenate(ys_out)


def square_extent(extent: tuple[float, float, float, float]) -> tuple[float, float, float, float]:
    """Widen the shorter side so the map is square: with equal axis scales it then fills its plot."""
    x0, x1, y0, y1 = extent
    half = max(x1 - x0, y1 - y0) / 2
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    return (cx - half, cx + half, cy - half, cy + half)


def boundary_grid(
    model, weights, extent: tuple[float, float, float, float], resolution: int = GRID_RESOLUTION
) -> BoundaryGrid:
    """Evaluate the model on a grid with the vectorised forward pass and trace the 0.5 contour."""
    x0, x1, y0, y1 = extent
    xs = np.linspace(x0, x1, resolution)
    ys = np.linspace(y0, y1, resolution)
    gx, gy = np.meshgrid(xs, ys)
    scores = model.forward_array(np.column_stack([gx.ravel(), gy.ravel()]), weights=weights)
    prob = np.nan_to_num(probability(scores), nan=0.5).reshape(resolution, resolution)
    cx, cy = contour_segments(prob, 0.5, xs, ys)
    return BoundaryGrid(prob.astype(np.float32), extent, cx, cy)


class Engine:
    """The child process's loop: commands in, steps, snapshots out."""

    def __init__(self, trainer: Trainer, out, min_interval: float):
        self.trainer = trainer
        self.out = out
        self.min_interval = min_interval
        self.running = False
        self.steps_requested = 0
        self.delay = 0.0
        self.generation = 0
        self.seq = 0
        self.error: str | None = None
        self.metrics: list = []
        self.history_due = True
        self.sent_dataset = None
        self.extent_dataset = None
        self.extent = None
        self.step_times: deque[float] = deque(maxlen=30)
        self.stop = False
        self.slice_spec: tuple | None = None  # the weight whose loss slice the GUI shows
        self.slice_state = None  # (generation, step, data) the last slice was computed for
        self.slice_time = 0.0

    # ----------------------------------------------------------------- loop

    def loop(self, commands) -> None:
        last_publish = 0.0
        next_step = 0.0
        force = True
        while not self.stop:
            if force or (self.metrics and time.monotonic() - last_publish >= self.min_interval):
                self.publish()
                last_publish = time.monotonic()
                force = False
            stepping = self.running or self.steps_requested > 0
            if not stepping:
                wait = 0.5
            elif self.running and self.delay > 0 and not self.steps_requested:
                wait = max(0.0, next_step - time.monotonic())
            else:
                wait = 0.0
            slice_due = self.slice_pending()
            if slice_due is not None:  # a paused picture still gets the slice of its latest weights
                wait = min(wait, max(0.0, slice_due))
                if slice_due <= 0.0 and not stepping:
                    force = True
                    continue
            try:
                if commands.poll(wait):
                    while True:
                        self.handle(commands.recv())
                        if self.stop or not commands.poll(0):
                            break
                    force = True
                    continue
            except (EOFError, OSError):  # the GUI went away
                return
            if not stepping or (self.running and self.delay > 0 and time.monotonic() < next_step):
                continue
            single = self.steps_requested > 0
            if single:
                self.steps_requested -= 1
            stopped = self.step_once()
            next_step = time.monotonic() + self.delay
            if single or stopped or self.delay > 0 or time.monotonic() - last_publish >= self.min_interval:
                force = True

    def handle(self, message) -> None:
        kind, *args = message
        self.seq += 1
        try:
            if kind == "play":
                self.running, self.error = True, None
            elif kind == "pause":
                self.running, self.steps_requested = False, 0
            elif kind == "step":
                self.running, self.error = False, None
                self.steps_requested += int(args[0])
            elif kind == "delay":
                self.delay = max(0.0, float(args[0]))
            elif kind == "update":
                self.trainer.update_settings(**args[0])
            elif kind == "reset":
                config = None if args[0] is None else TrainingConfig.from_dict(args[0])
                if config is not None and config.points is not None and config.points == self.trainer.config.points:
                    # A new network on painted data keeps those points and their train/test split.
                    self.trainer = Trainer(config, data=self.trainer.data)
                else:
                    self.trainer.reset(config)
                self.new_generation()
            elif kind == "data":
                # Edited (painted) data: the same model goes on training on it, no reset.
                dataset = Dataset.from_dict(args[0])
                self.trainer.set_data(dataset)
                self.trainer.config = dataclasses.replace(self.trainer.config, points=args[1], standardize=False)
                x0, x1, y0, y1 = self.extent or (0.0, 0.0, 0.0, 0.0)
                X = dataset.X
                inside = ((X[:, 0] >= x0) & (X[:, 0] <= x1) & (X[:, 1] >= y0) & (X[:, 1] <= y1)).all()
                if inside:  # keep the map where it is while the user paints inside it
                    self.extent_dataset = dataset
            elif kind == "slice":
                self.slice_spec = None if args[0] is None else tuple(args[0])
                self.slice_state = None
            elif kind == "load":
                self.trainer = trainer_from_session(args[0])
                self.running = False
                self.new_generation()
            elif kind == "export":
                self.out.send(("export", args[0], session_dict(self.trainer)))
            elif kind == "stop":
                self.stop = True
        except Exception as exc:  # a refused setting must not end the process
            self.error = f"{type(exc).__name__}: {exc}"
            self.running = False

    def new_generation(self) -> None:
        self.generation += 1
        self.metrics = []
        self.history_due = True
        self.step_times.clear()

    def step_once(self) -> bool:
        """One update; True when training stopped (step limit, divergence, error) and the GUI must know now."""
        trainer = self.trainer
        if trainer.finished:
            self.running, self.steps_requested = False, 0
            return True
        try:
            metrics = trainer.step()
        except Exception as exc:
            self.error = f"Training stopped: {type(exc).__name__}: {exc}"
            self.running, self.steps_requested = False, 0
            return True
        self.step_times.append(time.monotonic())
        if trainer.stopped_reason is None:
            self.metrics.append(metrics)
        if trainer.finished:
            self.running, self.steps_requested = False, 0
            return True
        return False

    def publish(self) -> None:
        trainer = self.trainer
        model, dataset = trainer.model, trainer.data
        history = initial = None
        if self.history_due:
            history = list(trainer.history)
            initial = None if history else trainer.evaluate()  # so step 0 shows its loss and accuracy
            self.metrics = []
            self.history_due = False
        if self.extent_dataset is not dataset:
            self.extent = square_extent(dataset.bounds(margin=GRID_MARGIN))
            self.extent_dataset = dataset
        weights = model.weight_arrays()
        try:
            grid = boundary_grid(model, weights, self.extent)
        except (ValueError, FloatingPointError):  # never lose a frame to a numeric corner case
            grid = None
        times = self.step_times
        sps = 0.0
        if len(times) > 1 and time.monotonic() - times[-1] < 1.0:
            sps = (len(times) - 1) / max(times[-1] - times[0], 1e-9)
        snap = Snapshot(
            generation=self.generation,
            seq=self.seq,
            metrics=self.metrics,
            history=history,
            last=self.metrics[-1] if self.metrics else (history[-1] if history else initial),
            weights=weights,
            grads=parameter_grads(model),
            grid=grid,
            dataset=None if dataset is self.sent_dataset else dataset,
            sizes=(model.nin, *model.nouts),
            activation=model.activation,
            running=self.running,
            finished=trainer.finished,
            stopped_reason=trainer.stopped_reason,
            error=self.error,
            steps_per_second=sps,
        )
        if self.slice_spec is not None:
            snap.slice_spec, snap.loss_slice = self.slice_spec, self.compute_slice()
        self.sent_dataset = dataset
        self.metrics = []
        self.out.send(("snapshot", snap))

    def _slice_state(self) -> tuple:
        trainer, config = self.trainer, self.trainer.config
        return (self.generation, trainer.step_count, trainer.data, config.lr, config.schedule, config.l1, config.l2)

    def slice_pending(self) -> float | None:
        """Seconds until the picked weight's slice is due again (≤ 0: now), or None when it is up to date."""
        if self.slice_spec is None or self._slice_state() == self.slice_state:
            return None
        if self.slice_state is None:
            return 0.0
        return self.slice_time + SLICE_INTERVAL - time.monotonic()

    def compute_slice(self):
        """The loss slice of the picked weight, when the weights or data changed (at most every SLICE_INTERVAL).

        Computed here, not in the GUI: it is a full-batch scalar backward
        (~100 ms for 150 points), which would freeze the GUI thread.
        """
        due = self.slice_pending()
        if due is None or due > 0.0:
            return None  # up to date, or too soon: a later publish sends it
        trainer, config, state = self.trainer, self.trainer.config, self._slice_state()
        layer, neuron, source = self.slice_spec
        try:
            index = parameter_index(trainer.model, layer, neuron, source)
            lr = learning_rate(config.schedule, config.lr, trainer.step_count, config.steps)  # the next step's
            result = loss_slice(
                trainer.model, trainer.data.X_train, trainer.data.y_train, index, config.loss, lr, config.l1, config.l2
            )
        except (IndexError, ValueError, OverflowError):  # the network changed under the request
            self.slice_spec = None
            return None
        self.slice_state, self.slice_time = state, time.monotonic()
        return result


def engine_main(commands, out) -> None:
    """The training process: the first message is (config dict, min_interval), then commands."""
    config, min_interval = commands.recv()
    try:
        trainer = Trainer(TrainingConfig.from_dict(config))
    except Exception as exc:
        trainer = Trainer(TrainingConfig())
        engine = Engine(trainer, out, min_interval)
        engine.error = f"The settings were refused ({exc}); using the defaults."
    else:
        engine = Engine(trainer, out, min_interval)
    try:
        engine.loop(commands)
    except (BrokenPipeError, EOFError, KeyboardInterrupt):
        pass
    finally:
        out.close()


def child_main() -> None:
    """``python -c "import gui.training_process as p; p.child_main()" CMD_FD OUT_FD`` (see gui.training_worker)."""
    import sys
    from multiprocessing.connection import Connection

    engine_main(Connection(int(sys.argv[1]), writable=False), Connection(int(sys.argv[2]), readable=False))
