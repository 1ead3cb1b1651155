"""The state a lesson's task conditions read, built from the app's real state objects, and which tasks are done.

A task is ticked the moment the state meets its condition (and stays ticked: progress is remembered in the
app's settings), never at the lesson's start: conditions already true when the lesson (re)starts do not count
until the state changes after it.
"""

from __future__ import annotations

import itertools
import math

from PySide6.QtCore import QObject, QTimer, Signal

from autograd_core.engine.custom_ops import CUSTOM_OPS
from autograd_core.lessons import LessonError, check

SETTINGS_KEY = "lessons/done/"  # + slug -> list of task numbers done


def _float(value) -> float:
    try:
        number = float(value)
    except (TypeError, ValueError):
        return math.nan
    return number


def build_state(window) -> dict:
    """The documented state names' values, read from ``window`` (a MainWindow) as they are now."""
    expr = window.expression.state
    training = window.training
    controller = training.controller
    config = controller.config
    snap = controller.last_snapshot
    last = controller.last_metrics  # (a snapshot that only carries a loss slice has no metrics of its own)
    root = expr.root
    grad, value = {}, {}
    for tensor in expr.tensors or []:
        label = getattr(tensor, "label", "") or ""
        if not label:
            continue
        value[label] = _float(tensor.data)
        shown = expr.displayed_grad(tensor)
        grad[label] = _float(shown) if shown is not None else 0.0
    for name in expr.inputs:
        shown = expr.input_grad(name)
        grad[name] = _float(shown) if shown is not None else 0.0
        value[name] = _float(expr.values.get(name))
    sizes = [2, *config.layers, max(1, getattr(config, "outputs", 1))]
    parameters = sum((a + 1) * b for a, b in itertools.pairwise(sizes))
    steps = last.step if last is not None else 0
    backward_done = not expr.broken and (
        expr.mode == "done" or (expr.mode == "stepping" and bool(expr.steps) and expr.position >= len(expr.steps))
    )  # a backward broken on purpose (Break it) is never a done backward: broken_done says it ran
    page = training.curves.currentWidget()
    plots = {
        training.metrics: "curves",
        training.gradient_flow: "gradient_flow",
        training.loss_slice: "loss_slice",
        training.confusion: "confusion",
        training.landscape: "landscape",
    }
    tab = next((key for key, area in window.areas.items() if area is window.tabs.currentWidget()), "")
    preset = controller.preset
    slow = controller.slow_learning
    return {
        "expression": expr.text,
        "output": _float(root.data) if root is not None else math.nan,
        "nodes": len(expr.tensors or []),
        "backward_done": backward_done,
        "broken": expr.bug or "",
        "broken_done": expr.broken_done,
        "ledger_steps": expr.position if expr.mode == "stepping" else 0,
        "mode": expr.direction,
        "layers": ",".join(str(n) for n in config.layers),
        "parameters": parameters,
        "activation": config.activation,
        "steps": steps,
        "epochs": _float(last.epoch) if last is not None else 0.0,
        "train_loss": _float(last.train_loss) if last is not None else math.nan,
        "test_loss": _float(last.test_loss) if last is not None else math.nan,
        "train_acc": _float(last.train_acc) if last is not None else math.nan,
        "test_acc": _float(last.test_acc) if last is not None else math.nan,
        "lr": _float(config.lr),
        "dataset": config.dataset,
        "preset": str(preset),
        "slow": bool(slow),
        "previous_loss": _float(controller.previous_run.train_loss) if controller.previous_run else math.nan,
        "plot": plots.get(page, "settings"),
        "diverged": bool(snap is not None and snap.diverged is not None),
        "tab": tab,
        **workshop_state(window),
        "grad": grad,
        "value": value,
    }


def workshop_state(window) -> dict:
    """The Op workshop's part: the learner's ops defined now, and the wrong derivatives refused."""
    workshop = getattr(window, "workshop", None)
    return {
        "ops": CUSTOM_OPS.names(),
        "workshop_refused": workshop.refused_derivatives if workshop is not None else 0,
    }


class LessonState(QObject):
    """Follows the app's state while a lesson runs and says which of its tasks are done."""

    changed = Signal()

    def __init__(self, window, parent: QObject | None = None):
        super().__init__(parent)
        self.window = window
        self.settings = window.settings
        self.lesson = None
        self.done: set[int] = set()
        self.armed = False  # conditions count only after the state changed since the lesson's start
        self.state: dict = {}
        self._start_state: dict = {}
        self._baseline: set[int] = set()  # tasks whose condition already held at the lesson's start
        self.errors: dict[int, str] = {}  # task index -> why its condition could not be checked
        self._timer = QTimer(self)  # many changes at once (a training snapshot burst) make one check
        self._timer.setSingleShot(True)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self.refresh)
        expr = window.expression.state
        expr.changed.connect(self._poke)
        controller = window.training.controller
        controller.changed.connect(self._training_changed)
        window.tabs.currentChanged.connect(self._poke)
        if getattr(window, "workshop", None) is not None:
            window.workshop.checked.connect(self._poke)
        window.training.curves.currentChanged.connect(self._poke)

    # ---------------------------------------------------------------- lesson

    def start(self, lesson) -> None:
        """Follow ``lesson``: its remembered progress, nothing ticked by the state it starts in."""
        self.lesson = lesson
        self.done = self._remembered(lesson)
        self.errors = {}
        self.armed = False
        self.state = build_state(self.window)
        self.changed.emit()

    def arm(self) -> None:
        """The lesson's setup is done: from now on a state that meets a condition ticks its task."""
        self.armed = True
        self.state = self._start_state = build_state(self.window)
        self._baseline = (
            {i for i, task in enumerate(self.lesson.tasks) if self._meets(i, task)} if self.lesson else set()
        )
        self.changed.emit()

    def stop(self) -> None:
        self.lesson = None
        self.armed = False
        self.changed.emit()

    def restart(self) -> None:
        """Forget this lesson's progress (the caller runs its setup again, then arms)."""
        if self.lesson is None:
            return
        self.done = set()
        self._save()
        self.armed = False
        self.changed.emit()

    # ---------------------------------------------------------------- checking

    def _training_changed(self, change) -> None:
        if change.what & {"history", "config", "running", "snapshot"}:  # what the tasks' conditions read
            self._poke()

    def _poke(self, *_args) -> None:
        if self.lesson is not None and self.armed:
            self._timer.start()

    def _meets(self, index: int, task) -> bool:
        try:
            return bool(check(task.condition, self.state))
        except (LessonError, ValueError, TypeError, KeyError, ZeroDivisionError) as exc:
            self.errors[index] = str(exc)
            return False

    def refresh(self) -> None:
        """Read the state now and tick every task whose condition it meets (a task that was met at the
        lesson's start ticks only once the state changed after it)."""
        if self.lesson is None or not self.armed:
            return
        self.state = build_state(self.window)
        grown = False
        for i, task in enumerate(self.lesson.tasks):
            if i in self.done:
                continue
            if not self._meets(i, task):
                self._baseline.discard(i)
            elif i not in self._baseline or self.state != self._start_state:
                self.done.add(i)
                grown = True
        if grown:
            self._save()
        self.changed.emit()

    # ---------------------------------------------------------------- progress

    def is_done(self, index: int) -> bool:
        return index in self.done

    def _remembered(self, lesson) -> set[int]:
        value = self.settings.q.value(SETTINGS_KEY + lesson.slug, [])
        if isinstance(value, str):
            value = [value] if value else []
        out = set()
        for item in value or []:
            try:
                index = int(item)
            except (TypeError, ValueError):
                continue
            if 0 <= index < len(lesson.tasks):
                out.add(index)
        return out

    def _save(self) -> None:
        if self.lesson is not None:
            self.settings.set(SETTINGS_KEY + self.lesson.slug, [str(i) for i in sorted(self.done)])
            self.settings.sync()

    def completed(self, lesson) -> int:
        """How many of ``lesson``'s tasks are remembered as done."""
        return len(self._remembered(lesson))
