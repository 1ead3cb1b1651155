"""The state a lesson's task conditions read, built from the app's real state objects, and which tasks are done.

A task is ticked the moment the state meets its condition (and stays ticked: progress is remembered in the
app's settings, with who did it: ✓ the learner, ◌ Show me), never at the lesson's start: a condition already
true when the lesson (re)starts counts only once it has been false and is met again, so nothing the learner did
not do (a tab switch after Restart) ticks it.
"""

from __future__ import annotations

import itertools
import math

from PySide6.QtCore import QObject, QTimer, Signal

from autograd_core.engine.custom_ops import CUSTOM_OPS
from autograd_core.lessons import LEARNER, SHOWN, LessonError, LessonProgress, check
from autograd_core.lessons.conditions import evaluate
from autograd_core.live.training_policy import TrainingPart
from autograd_core.numbers import format_number

SETTINGS_KEY = "lessons/done/"  # + slug -> LessonProgress.to_stored(): "2" (the learner), "3:shown" (Show me)
ARTICLE_EPOCHS = 100  # the article's run: its preset's settings, this many epochs


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
    parameters = model_parameters(controller)
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
        "article_loss": article_loss(training.runs.history.runs),
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


def model_parameters(controller) -> int:
    """The network's weights and biases as the model has them (the last snapshot's layers), so the count is
    the one trained, whatever the data's classes; the settings' count until the first snapshot."""
    snap = controller.last_snapshot
    weights = getattr(snap, "weights", None) if snap is not None else None
    if weights:
        return int(sum(_size(w) + _size(b) for w, b in weights))
    config = controller.config
    sizes = [2, *config.layers, max(1, getattr(config, "outputs", 1))]
    return sum((a + 1) * b for a, b in itertools.pairwise(sizes))


def _size(array) -> int:
    shape = getattr(array, "shape", None)
    if shape is not None:
        return int(math.prod(shape))
    return sum(_size(a) for a in array) if isinstance(array, list | tuple) else 1


def is_article_run(run) -> bool:
    """A run of the article's settings (its preset; any number of epochs after the first 100)."""
    from autograd_core.learn.presets import named_preset_config

    article = named_preset_config("article").to_dict()
    config = run.config
    return run.task == "classification" and all(
        config.get(key) == article[key] for key in article if key not in ("steps", "points")
    )


def article_loss(runs) -> float:
    """The training loss the latest article's run had after its 100 epochs (nan before one got there): what
    lesson 8 compares a better learning rate with, whatever ran in between."""
    for run in reversed(runs):
        if not is_article_run(run):
            continue
        steps, losses = run.curves.get("step") or [], run.curves.get("train_loss") or []
        for step, loss in zip(steps, losses, strict=False):
            if step == ARTICLE_EPOCHS and loss is not None:
                return _float(loss)
    return math.nan


def compare_runs(runs, unit: str = "epochs") -> str:
    """The run being trained beside the one it is compared with, as the run history recorded both (each with the
    learning rate its steps used): the latest article's run when there is one, else the run before."""
    trained = [run for run in runs if run.steps > 0]
    if len(trained) < 2 or trained[-1] is not runs[-1]:
        return ""
    now = trained[-1]
    article = [run for run in trained[:-1] if is_article_run(run) and run.steps >= ARTICLE_EPOCHS]
    if article and not is_article_run(now):
        before, name = article[-1], "The article's run"
    else:
        before, name = trained[-2], "Last run"
    return f"{name}: {_run_words(before, unit)}.  This run: {_run_words(now, unit)}."


def _run_words(run, unit: str) -> str:
    return (
        f"loss {format_number(_float(run.final('train_loss')))} after {run.steps} {unit} at lr "
        f"{format_number(_float(run.config.get('lr')))}"
    )


class LessonState(QObject):
    """Follows the app's state while a lesson runs and says which of its tasks are done."""

    changed = Signal()

    def __init__(self, window, parent: QObject | None = None):
        super().__init__(parent)
        self.window = window
        self.settings = window.settings
        self.lesson = None
        self.progress = LessonProgress(0)
        self.shown: set[int] = set()  # tasks Show me was asked for: their tick is Show me's
        self.showing = False  # Show me's actions are running: what they tick is Show me's
        self.revealed: set[int] = set()  # predict tasks whose answer is on screen: a guess now earns no ✓
        self.truths: dict[int, float] = {}  # predict task -> the answer its reveal showed
        self.armed = False  # conditions count only after the state changed since the lesson's start
        self.state: dict = {}
        self._baseline: set[int] = set()  # tasks whose condition already held at the lesson's start
        self.errors: dict[int, str] = {}  # task index -> why its condition could not be checked
        self._timer = QTimer(self)  # many changes at once (a training snapshot burst) make one check
        self._timer.setSingleShot(True)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self.refresh)
        expr = window.expression.state
        expr.changed.connect(self._poke)
        window.tabs.currentChanged.connect(self._poke)
        self._following_areas = False
        if getattr(window, "training", None) is not None:
            self.follow_areas()

    def follow_areas(self) -> None:
        """Follow the training and workshop areas too (once; the window calls it when it builds them later)."""
        if self._following_areas:
            return
        self._following_areas = True
        window = self.window
        window.training.controller.changed.connect(self._training_changed)
        if getattr(window, "workshop", None) is not None:
            window.workshop.checked.connect(self._poke)
        window.training.curves.currentChanged.connect(self._poke)

    # ---------------------------------------------------------------- lesson

    def start(self, lesson) -> None:
        """Follow ``lesson``: its remembered progress, nothing ticked by the state it starts in."""
        self.lesson = lesson
        self.progress = self.remembered(lesson)
        self.shown = set()
        self.revealed = {i for i in range(len(lesson.tasks)) if self.progress.by(i) == SHOWN}
        self.truths = {}
        self.errors = {}
        self.armed = False
        self.state = build_state(self.window)
        self.changed.emit()

    def arm(self) -> None:
        """The lesson's setup is done: from now on a state that meets a condition ticks its task."""
        self.armed = True
        self.state = build_state(self.window)
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
        self.progress.clear()
        self.shown, self.revealed, self.truths = set(), set(), {}
        self._save()
        self.armed = False
        self.changed.emit()

    # ---------------------------------------------------------------- checking

    def _training_changed(self, change) -> None:
        if change.what & (
            TrainingPart.HISTORY | TrainingPart.CONFIG | TrainingPart.RUNNING | TrainingPart.SNAPSHOT
        ):  # what the tasks' conditions read
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
        lesson's start ticks only once its condition was unmet since: the learner made it true)."""
        if self.lesson is None or not self.armed:
            return
        self.state = build_state(self.window)
        grown = False
        for i, task in enumerate(self.lesson.tasks):
            if self.progress.is_done(i) or task.kind == "predict":  # (a prediction ticks by its guess)
                continue
            if not self._meets(i, task):
                self._baseline.discard(i)
            elif i not in self._baseline:
                grown |= self.progress.mark(i, SHOWN if self.showing or i in self.shown else LEARNER)
        if grown:
            self._save()
        self.changed.emit()

    # ---------------------------------------------------------------- Show me and predictions

    def begin_show_me(self, index: int) -> None:
        """Show me runs for task ``index``: its tick, and anything its actions tick, is Show me's."""
        self.shown.add(index)
        self.showing = True

    def end_show_me(self, index: int) -> None:
        self.refresh()
        self.showing = False
        task = self.lesson.tasks[index] if self.lesson is not None else None
        if task is not None and task.kind == "predict":
            self.reveal(index, right=False)

    def reveal(self, index: int, right: bool, truth: float | None = None) -> bool:
        """A prediction's answer is on screen: ✓ for a right guess made before it was, else ◌.  True when the
        learner earned the ✓."""
        earned = right and index not in self.revealed
        self.revealed.add(index)
        if truth is not None:
            self.truths.setdefault(index, truth)
        if self.progress.mark(index, LEARNER if earned else SHOWN):
            self._save()
        self.changed.emit()
        return earned

    def truth(self, index: int) -> float | None:
        """The answer of predict task ``index`` as the state shows it now (None when it cannot be read)."""
        try:
            value = evaluate(self.lesson.tasks[index].predict, self.state)
        except (LessonError, ValueError, TypeError, KeyError, ZeroDivisionError):
            return None
        return float(value) if isinstance(value, int | float) else None

    # ---------------------------------------------------------------- progress

    def is_done(self, index: int) -> bool:
        return self.progress.is_done(index)

    def mark(self, index: int) -> str:
        """'✓' (the learner), '◌' (Show me) or '' (not done)."""
        return self.progress.mark_text(index)

    def remembered(self, lesson) -> LessonProgress:
        """``lesson``'s progress as the settings keep it (an older file's plain task numbers: the learner's)."""
        value = self.settings.q.value(SETTINGS_KEY + lesson.slug, [])
        return LessonProgress.from_stored([] if value in ("", None) else value, len(lesson.tasks))

    def _save(self) -> None:
        if self.lesson is not None:
            self.settings.set(SETTINGS_KEY + self.lesson.slug, self.progress.to_stored())
            self.settings.sync()

    def completed(self, lesson) -> int:
        """How many of ``lesson``'s tasks the learner did (Show me's do not count)."""
        return self.remembered(lesson).learner_count
