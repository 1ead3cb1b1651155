"""What the Optimizer lab shows: the function, its grid, the racers' settings and the race, with one signal.

The numbers come from ``autograd_core.lab.surfaces`` and ``autograd_core.lab.race``;
this object only keeps which function, which view, which racers, and drives the
race with a QTimer in the GUI thread (each tick steps every racer a few times;
a tick costs about a millisecond per racer-step, and the tick measures itself:
``last_tick_ms`` / ``max_tick_ms``).  After every change it emits one
``changed(LabChange)`` saying what changed, and views redraw from its fields.
"""

from __future__ import annotations

import enum
import math
import time
from dataclasses import dataclass, field

from PySide6.QtCore import QObject, QTimer, Signal

from autograd_core.engine.tensor import Tensor
from autograd_core.lab.race import DEFAULT_LR, DEFAULT_SETTINGS, RACER_KINDS, Race, RacerSpec, make_racer_optimizer
from autograd_core.lab.surfaces import (
    DEFAULT_RESOLUTION,
    PRESETS,
    Surface,
    SurfaceGrid,
    arrow_segments,
    compile_surface,
    evaluate_grid,
    gradient_field,
)
from autograd_core.language.expression import ExpressionError, Program
from autograd_core.numbers import LEDGER, format_number

FRAME_MS = 30  # ~33 frames a second
TICK_BUDGET_S = 0.010  # a frame stops stepping after this long (the rest waits for the next frame): with
# drawing, a frame stays within its 30 ms
SPEEDS = (1, 2, 5, 10, 20, 50)  # steps per frame
DEFAULT_RACERS = RACER_KINDS
CUSTOM = "Custom"


class LabChange(enum.Flag):
    NONE = 0
    SURFACE = enum.auto()  # a new function or view: the grid, levels, arrows, minima
    ERROR = enum.auto()  # the typed text's error appeared, changed or went away
    RACE = enum.auto()  # a new race (or none): paths start again
    PATHS = enum.auto()  # the racers moved
    PLAYING = enum.auto()  # playing or paused
    SPECS = enum.auto()  # which racers, their learning rates and settings


def settings_text(settings: dict) -> str:
    """``momentum=0.9, betas=0.9/0.999`` for a table cell."""
    parts = []
    for key, value in settings.items():
        if isinstance(value, (tuple, list)):
            parts.append(f"{key}={'/'.join(format_number(v, LEDGER) for v in value)}")
        else:
            parts.append(f"{key}={format_number(value, LEDGER)}")
    return ", ".join(parts)


def parse_settings(kind: str, text: str) -> dict:
    """The inverse of ``settings_text`` for one racer kind; ValueError with a clear message on bad text."""
    known = DEFAULT_SETTINGS[kind]
    result: dict = {}
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        if "=" not in part:
            raise ValueError(f"write settings as name=value, like {settings_text(known) or 'nothing'}")
        key, value = (s.strip() for s in part.split("=", 1))
        if key not in known:
            names = ", ".join(known) or "no settings besides lr"
            raise ValueError(f"{kind} has no setting '{key}' (it has {names})")
        try:
            if isinstance(known[key], tuple):
                numbers = tuple(float(v) for v in value.replace(" ", "").split("/"))
                if len(numbers) != len(known[key]):
                    raise ValueError
                result[key] = numbers
            else:
                result[key] = float(value)
        except ValueError:
            example = settings_text({key: known[key]})
            raise ValueError(f"'{part}' is not a number for {key}: write it like {example}") from None
    return result


@dataclass
class RacerRow:
    """One row of the racers table: whether it runs, and its optimizer's settings."""

    kind: str
    enabled: bool = True
    lr: float = 0.0
    settings: dict = field(default_factory=dict)

    def spec(self) -> RacerSpec:
        return RacerSpec(self.kind, self.lr, dict(self.settings))


class LabState(QObject):
    changed = Signal(object)  # LabChange
    message = Signal(str)

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self.preset = "Rosenbrock"
        surface = PRESETS[self.preset]
        self.text = surface.text
        self.program: Program = surface.program()
        self.error: ExpressionError | None = None
        self.box = surface.box
        self.minima = surface.minima
        self.grid: SurfaceGrid | None = None
        self.resolution = DEFAULT_RESOLUTION
        self.show_arrows = False
        self.arrows: tuple | None = None
        self.rows = [RacerRow(kind, True, DEFAULT_LR[kind], dict(DEFAULT_SETTINGS[kind])) for kind in DEFAULT_RACERS]
        self.race: Race | None = None
        self.race_rows: list[int] = []  # row index of each racer in the race
        self.start: tuple[float, float] | None = None
        self.speed = 5
        self.timer = QTimer(self)
        self.timer.setInterval(FRAME_MS)
        self.timer.timeout.connect(self.tick)
        self.last_tick_ms = 0.0
        self.max_tick_ms = 0.0
        self.ticks = 0
        self.grid_ms = 0.0
        self._evaluate_surface()

    # ------------------------------------------------------------ the function

    def set_preset(self, name: str) -> None:
        if name not in PRESETS:
            raise ValueError(f"unknown preset {name!r}")
        surface: Surface = PRESETS[name]
        self.preset = name
        self.text = surface.text
        self.program, self.error = surface.program(), None
        self.box, self.minima = surface.box, surface.minima
        self._new_function(f"{name}: {surface.note}.")

    def set_text(self, text: str) -> bool:
        """A typed f(x, y): compiled and drawn, or refused with the editor's message (the last good one stays)."""
        if text == self.text and self.error is None:
            return True
        self.text = text
        try:
            program = compile_surface(text)
        except ExpressionError as err:
            self.error = err
            self.changed.emit(LabChange.ERROR)
            return False
        preset = next((name for name, s in PRESETS.items() if s.text == text), None)
        self.program, self.error = program, None
        if preset is not None:
            self.preset, self.minima = preset, PRESETS[preset].minima
        else:
            self.preset, self.minima = CUSTOM, ()
        self._new_function("f(x, y) = " + text.strip().replace("\n", "; ") + ". Click the map to start a race.")
        return True

    def _new_function(self, message: str) -> None:
        self.pause()
        self.race, self.start = None, None
        self._evaluate_surface()
        self.changed.emit(LabChange.SURFACE | LabChange.ERROR | LabChange.RACE | LabChange.PLAYING)
        if self.grid is not None and self.grid.non_finite:
            message += f" f is inf or nan on {self.grid.non_finite:,} grid points (drawn gray)."
        self.message.emit(message)

    def set_box(self, box: tuple[float, float, float, float]) -> None:
        """Evaluate the grid over another view (after a zoom or pan)."""
        box = tuple(float(v) for v in box)
        if box == self.box or not (box[1] > box[0] and box[3] > box[2]) or not all(map(math.isfinite, box)):
            return
        self.box = box
        self._evaluate_surface()
        self.changed.emit(LabChange.SURFACE)

    def set_show_arrows(self, on: bool) -> None:
        self.show_arrows = bool(on)
        self._evaluate_arrows()
        self.changed.emit(LabChange.SURFACE)

    def _evaluate_surface(self) -> None:
        began = time.perf_counter()
        self.grid = evaluate_grid(self.program, self.box, self.resolution)
        self.grid_ms = 1e3 * (time.perf_counter() - began)
        self._evaluate_arrows()

    def _evaluate_arrows(self) -> None:
        if not self.show_arrows:
            self.arrows = None
            return
        x0, x1, y0, y1 = self.box
        count = 21
        X, Y, U, V = gradient_field(self.program, self.box, count)
        length = 0.8 * min(x1 - x0, y1 - y0) / (count + 1)
        # arrows are drawn in data units: squash them to the box's aspect so they look alike in x and y
        self.arrows = arrow_segments(X, Y, U, V, length)

    # ------------------------------------------------------------ racers

    def set_enabled(self, row: int, on: bool) -> None:
        self.rows[row].enabled = bool(on)
        self.changed.emit(LabChange.SPECS)

    def set_lr(self, row: int, lr: float) -> str | None:
        """Change a racer's learning rate (for the next race); an error message if refused."""
        if not (isinstance(lr, (int, float)) and math.isfinite(lr) and lr >= 0):
            return "the learning rate must be a number ≥ 0"
        self.rows[row].lr = float(lr)
        self.changed.emit(LabChange.SPECS)
        return None

    def set_settings(self, row: int, text: str) -> str | None:
        """Change a racer's other settings from text like ``momentum=0.9``; an error message if refused."""
        kind = self.rows[row].kind
        try:
            settings = {**DEFAULT_SETTINGS[kind], **parse_settings(kind, text)}
            RacerSpec(kind, self.rows[row].lr, settings)
            make_racer_optimizer(kind, [Tensor(0.0)], self.rows[row].lr, settings, self.program)
        except (ValueError, TypeError) as exc:
            return str(exc)
        self.rows[row].settings = settings
        self.changed.emit(LabChange.SPECS)
        return None

    # ------------------------------------------------------------ the race

    def start_race(self, x: float, y: float, play: bool = True) -> None:
        """A new race from (x, y) with every enabled racer."""
        self.pause()
        self.start = (float(x), float(y))
        chosen = [i for i, row in enumerate(self.rows) if row.enabled]
        self.race_rows = chosen
        self.race = Race(self.program, [self.rows[i].spec() for i in chosen], self.start, self.minima, self.box)
        self.changed.emit(LabChange.RACE | LabChange.PATHS)
        if not chosen:
            self.message.emit("No optimizer is ticked: tick at least one in the table.")
            return
        self.message.emit(
            f"Race from ({format_number(x)}, {format_number(y)}). Click a point of a path to see that step's graph."
        )
        if play:
            self.play()

    def play(self) -> None:
        if self.race is None or not self.race.running or self.timer.isActive():
            return
        self.timer.start()
        self.changed.emit(LabChange.PLAYING)

    def pause(self) -> None:
        if self.timer.isActive():
            self.timer.stop()
            self.changed.emit(LabChange.PLAYING)

    @property
    def playing(self) -> bool:
        return self.timer.isActive()

    def step(self) -> None:
        """Pause, then one step of every racer still going."""
        self.pause()
        if self.race is not None:
            self._advance(1)

    def reset(self) -> None:
        """Back to the start point, paused: the same racers with fresh state."""
        if self.start is None:
            return
        self.start_race(*self.start, play=False)
        self.message.emit("Reset: every racer is back at the start. Play or Step to go again.")

    def set_speed(self, steps_per_frame: int) -> None:
        self.speed = max(1, int(steps_per_frame))

    def tick(self) -> None:
        began = time.perf_counter()
        self._advance(self.speed, began + TICK_BUDGET_S)
        self.last_tick_ms = 1e3 * (time.perf_counter() - began)
        self.max_tick_ms = max(self.max_tick_ms, self.last_tick_ms)
        self.ticks += 1

    def _advance(self, count: int, deadline: float = math.inf) -> None:
        race = self.race
        stopped_before = {id(r) for r in race.racers if r.stopped}
        for _ in range(count):
            if not race.step(1) or time.perf_counter() > deadline:
                break
        self.changed.emit(LabChange.PATHS)
        for racer in race.racers:
            if racer.stopped and id(racer) not in stopped_before:
                self.message.emit(f"{racer.spec.label} stopped: {racer.note}")
        if not race.running:
            self.pause()
