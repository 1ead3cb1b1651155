"""The states of the screenshot tour, in one place (``tools/screenshot_tour.py`` and the layout tests use them).

A ``Tour`` owns one main window whose training runs in this process (``InProcessWorker``: the same engine,
commands and snapshots, driven by a timer), so every training state is reached by a fixed number of steps and
looks the same on every run.  Each ``State`` has a name, the tab it shows, and a ``setup(tour)`` that brings the
window there from whatever state came before.  ``MODES`` are the theme × presentation × window-size combinations.
"""

from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import QCoreApplication, QEvent, QSettings, Qt
from PySide6.QtWidgets import QApplication

SIZES = ((1600, 1000), (1280, 720), (1024, 700))
THEMES = ("light", "dark")
PRESENTATION = (False, True)
TIMEOUT = 60.0
NEURON = "Neuron: tanh(w1*x1 + w2*x2 + b)"


@dataclass(frozen=True)
class Mode:
    theme: str
    presentation: bool
    size: tuple[int, int]

    @property
    def name(self) -> str:
        return f"{self.theme}-{'presentation' if self.presentation else 'normal'}-{self.size[0]}x{self.size[1]}"


MODES = tuple(Mode(t, p, s) for t in THEMES for p in PRESENTATION for s in SIZES)


def default_size_modes() -> tuple[Mode, ...]:
    """The app's own window size on a fresh configuration (gui/shell/window_settings.py), in every theme and
    mode: what a new user sees first (the tour's ``--default-size``)."""
    from gui.shell.window_settings import DEFAULT_SIZE

    return tuple(Mode(t, p, DEFAULT_SIZE) for t in THEMES for p in PRESENTATION)


@dataclass(frozen=True)
class State:
    name: str
    tab: str  # the area key: "expression", "training" or "sample"
    setup: Callable[[Tour], None]
    representative: bool = False  # in the subset the layout tests check in every mode
    description: str = ""


class Tour:
    """One main window, trained in-process, that the states drive."""

    def __init__(self, settings_dir: str):
        from gui.shell.main_window import MainWindow
        from gui.shell.settings import AppSettings
        from gui.training.training_controller import TrainingController
        from gui.training.training_worker import InProcessWorker

        self._worker_factory = TrainingController.__dict__.get("worker_factory")
        TrainingController.worker_factory = InProcessWorker  # deterministic: no child process, no timing
        QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, settings_dir)
        settings = AppSettings(QSettings(f"{settings_dir}/settings.ini", QSettings.Format.IniFormat))
        self.window = MainWindow(settings)
        self.window.resize(*SIZES[0])
        self.window.show()
        self.leave_lesson()  # (first start opened Start here; only the lesson states show it)
        self.wait_until(lambda: not self.window.expression.view.busy)
        self.training = self.window.training
        self.controller = self.training.controller
        self.controller.start()  # (the area starts it when first shown)
        self.wait_until(lambda: self.controller.last_snapshot is not None)
        self.config_key = None  # the data set/settings the training was last reset to
        self.dialog = None  # a dialog the state opened: the tour pictures and checks it instead of the window
        self.files = tempfile.mkdtemp(prefix="tour-files-")  # files a state imports

    def close(self) -> None:
        """Close the window and give the training area back its real training process."""
        from gui.training.training_controller import TrainingController

        self.close_dialog()
        self.controller.shutdown()
        self.window.expression.state.stop()
        self.window.close()
        self.window.deleteLater()
        if self._worker_factory is not None:
            TrainingController.worker_factory = self._worker_factory

    # ---------------------------------------------------------------- helpers

    @staticmethod
    def process(ms: int = 30) -> None:
        end = time.monotonic() + ms / 1000
        app = QApplication.instance()
        while True:
            app.processEvents()
            # deleteLater() runs only in a running event loop (app.exec()); without one, widgets replaced by a
            # rebuild (the hidden-layer rows) would linger on screen at their old place, as they never do in the app
            QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
            QCoreApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
            if time.monotonic() >= end:
                break
            time.sleep(0.005)

    def wait_until(self, predicate, timeout: float = TIMEOUT) -> None:
        end = time.monotonic() + timeout
        while not predicate():
            if time.monotonic() > end:
                raise TimeoutError("the tour waited too long for a state")
            self.process(10)

    def apply_mode(self, mode: Mode) -> None:
        w = self.window
        w.set_theme(mode.theme)
        w.set_presentation(mode.presentation)
        w.resize(*mode.size)
        self.process(60)
        self.settle()

    def show_tab(self, key: str) -> None:
        self.close_dialog()
        self.leave_lesson()
        self.window.statusBar().clearMessage()  # a message of the state before is not this state's
        self.window.tabs.setCurrentWidget(self.window.areas[key])
        self.process(30)

    def leave_lesson(self) -> None:
        """States other than a lesson's show the app without the lesson dock (Start here opens on first start)."""
        lessons = self.window.lessons
        if lessons is not None and not lessons.isHidden():
            lessons.close()
            self.process(20)

    def close_dialog(self) -> None:
        if self.dialog is not None:
            self.dialog.reject()
            self.dialog = None
            self.process(20)

    def settle(self) -> None:
        """Wait for graph layouts and training snapshots, then draw every pending view."""
        w = self.window
        views = (w.expression.view, w.sample.view, w.lab.view)
        self.wait_until(lambda: all(view.settled for view in views))  # a resize re-lays out 200 ms later
        self.wait_until(lambda: self.controller.settled)
        self.training.flush()
        self.process(40)

    # ---------------------------------------------------------------- expression

    def example(self, name: str) -> None:
        panel = self.window.expression
        example = next(e for e in panel.examples if e["name"] == name)
        # back to the plain graph: reverse mode, f itself (not a derivative), no node selected
        panel.mode.reverse_button.setChecked(True)
        if panel.state.derivative is not None:
            panel.state.set_derivative(None)
        panel.state.select(None)
        panel.side_tabs.setCurrentIndex(0)  # (narrow: Backward's tab)
        panel.break_it.set_bug(None)  # (a Break-it state before: backward correct again)
        panel.load_example(example)
        if panel.layout_combo.currentData() != "layered":
            panel.layout_combo.setCurrentIndex(panel.layout_combo.findData("layered"))
        if panel.state.gradcheck_enabled:
            panel.state.set_gradcheck(False)
        self.wait_until(lambda: not panel.view.busy)

    # ---------------------------------------------------------------- training

    def train_to(self, steps: int, **config) -> None:
        """Reset the training to ``config`` (if it changed) and take ``steps`` steps from the start."""
        c = self.controller
        key = tuple(sorted(config.items()))
        base = {
            "dataset": "moons",
            "points": None,
            "optimizer": "adam",
            "lr": 0.05,
            "layers": [16, 16],
            "classes": 2,
            "features": None,
        }
        wanted = {**base, **config}
        if c.task != "classification":  # a regression state came before
            c.set_task("classification")
            self.config_key = None
        if key != self.config_key or c.last_metrics is None or c.last_metrics.step > steps:
            c.pause()
            if not c.update_settings(**wanted):
                raise ValueError(f"refused settings {wanted}")
            c.announce_config()  # the settings panel shows what trains (as after a session load)
            c.reset()
            self.wait_until(lambda: c.settled and c.last_metrics is not None and c.last_metrics.step == 0)
            self.config_key = key
        while c.last_metrics.step < steps:
            before = c.last_metrics.step
            c.step()
            self.wait_until(lambda: (c.settled and c.last_metrics.step > before) or self._stopped())
            if self._stopped():
                break
        self.settle()
        self.training.frames.mark("maps", at_once=True)
        self.training.flush()
        self.process(30)

    def _stopped(self) -> bool:
        return self.controller.diverged is not None

    def curves(self, index: int) -> None:
        self.training.curves.setCurrentIndex(index)
        self.training.flush()


# -------------------------------------------------------------------- the states


def _expression_example(name: str) -> Callable[[Tour], None]:
    def setup(t: Tour) -> None:
        t.show_tab("expression")
        t.example(name)

    return setup


def _stepping(t: Tour) -> None:
    t.show_tab("expression")
    t.example(NEURON)
    state = t.window.expression.state
    state.zero_grad()
    for _ in range(4):
        state.step()
    t.settle()


def _gradcheck(t: Tour) -> None:
    t.show_tab("expression")
    t.example(NEURON)
    state = t.window.expression.state
    state.backward()
    state.set_gradcheck(True)
    t.settle()


def _break_it(bug: str) -> Callable[[Tour], None]:
    """The Break-it ledger: the bug switched on, Backward clicked on the example it breaks."""

    def setup(t: Tour) -> None:
        t.show_tab("expression")
        t.example("x + x (why gradients add up)" if bug == "assign" else "Reused intermediate node")
        panel = t.window.expression
        panel.break_it.set_bug(bug)
        panel.backward.backward_button.click()
        t.settle()

    return setup


def _layout(key: str) -> Callable[[Tour], None]:
    def setup(t: Tour) -> None:
        t.show_tab("expression")
        t.example(NEURON)
        panel = t.window.expression
        panel.layout_combo.setCurrentIndex(panel.layout_combo.findData(key))
        t.settle()

    return setup


def _training(dataset: str, steps: int, curves: int = 0, **extra) -> Callable[[Tour], None]:
    def setup(t: Tour) -> None:
        t.show_tab("training")
        t.train_to(steps, dataset=dataset, **extra)
        t.curves(curves)

    return setup


def _divergence(t: Tour) -> None:
    t.show_tab("training")
    t.train_to(30, dataset="moons", optimizer="sgd", lr=80.0)
    t.curves(0)


def _neuron_maps(t: Tour) -> None:
    t.show_tab("training")
    t.train_to(20, dataset="circles")
    t.training.diagram.mode.setCurrentIndex(1)  # edges by gradient
    t.curves(0)
    t.process(30)


def _gradient_flow(t: Tour) -> None:
    t.show_tab("training")
    t.train_to(20, dataset="moons")
    t.training.diagram.mode.setCurrentIndex(0)
    t.curves(1)


PAINTED = [
    [-1.0, -1.0, 0],
    [-0.5, -1.2, 0],
    [-1.2, 0.2, 0],
    [-0.4, -0.3, 0],
    [1.0, 1.0, 1],
    [0.6, 1.3, 1],
    [1.2, -0.1, 1],
    [0.3, 0.5, 1],
]


def _painted(t: Tour) -> None:
    t.show_tab("training")
    t.train_to(15, dataset="moons", points=PAINTED)
    t.curves(0)


def _loss_slice(t: Tour) -> None:
    t.show_tab("training")
    t.train_to(5, dataset="moons")
    t.training.diagram.pick(1, 0, 0)
    t.wait_until(lambda: t.controller.last_slice is not None)
    t.settle()
    t.curves(2)


def _sample_graph(t: Tour) -> None:
    t.show_tab("training")
    t.train_to(5, dataset="moons", layers=[4])
    x, y = t.controller.dataset.X_train[0]
    t.window.show_sample(float(x), float(y), int(t.controller.dataset.y_train[0]))
    t.settle()


def _sample_stepping(t: Tour) -> None:
    _sample_graph(t)
    state = t.window.sample.state
    for _ in range(3):
        state.step()
    t.settle()


# ---- the optimizer lab


def _lab(diverged: bool = False, arrows: bool = False, step_graph: bool = False) -> Callable[[Tour], None]:
    """Rosenbrock, a race from (−1.5, 2.5) stepped (not played) a fixed number of steps."""

    def setup(t: Tour) -> None:
        t.show_tab("lab")
        panel = t.window.lab
        lab = panel.lab
        lab.pause()
        if lab.preset != "Rosenbrock" or panel.editor.text() != lab.text:
            panel.preset_combo.setCurrentText("Rosenbrock")
        panel.selected = None
        for row in range(len(lab.rows)):
            panel.table.item(row, 0).setCheckState(Qt.CheckState.Checked)
        panel.table.item(0, 1).setText("0.1" if diverged else "0.001")  # SGD's rate: 0.1 diverges here
        panel.arrows_box.setChecked(arrows)
        lab.start_race(-1.5, 2.5, play=False)
        for _ in range(60):
            lab.step()
        t.process(40)
        panel.side_tabs.setCurrentIndex(0)  # (narrow: the controls' tab; a picked step shows the other)
        if step_graph:
            adam = next(i for i, r in enumerate(lab.rows) if r.kind == "adam")
            panel.show_step(adam, 12)
            t.wait_until(lambda: not panel.view.busy and bool(panel.view.nodes))
        t.process(40)

    return setup


# ---- training tabs, more than two classes, import


def _confusion(t: Tour) -> None:
    t.show_tab("training")
    t.train_to(40, dataset="spiral", classes=3)
    panel = t.training.confusion
    t.training.curves.setCurrentWidget(panel)
    t.training.flush()
    t.process(30)
    if panel.picked is None:
        panel.table.cellClicked.emit(1, 2)  # the cell «true class 1, predicted class 2», as a click picks it
    t.training.flush()
    t.process(30)


def _landscape(t: Tour) -> None:
    t.show_tab("training")
    t.train_to(30, dataset="moons")
    panel = t.training.landscape
    t.training.curves.setCurrentWidget(panel)
    t.wait_until(lambda: panel.current is not None and "Computing" not in panel.caption.text())
    t.training.flush()
    t.process(30)


def _multiclass(dataset: str, steps: int, **extra) -> Callable[[Tour], None]:
    def setup(t: Tour) -> None:
        t.show_tab("training")
        t.train_to(steps, dataset=dataset, **extra)
        t.curves(0)
        boundary = t.training.boundary
        key = "paint2" if boundary.classes > 2 else "paint1"
        if key in boundary.mode_buttons:
            boundary.mode_buttons[key].setChecked(True)  # a class's paint tool chosen
        t.process(20)

    return setup


FLOWERS = "id,length,width,kind\n" + "\n".join(
    f"{i},{(i % 3) * 3 + ((i * 7919) % 13) / 20:.3f},{(i % 3) * 2 + ((i * 104729) % 11) / 20:.3f},"
    f"{('setosa', 'versicolor', 'virginica')[i % 3]}"
    for i in range(90)
)


# ---- runs kept and compared, code taken away


def _runs(view: str) -> Callable[[Tour], None]:
    """Three runs from a fresh history (relu at lr 0.05, then lr 0.005, then tanh at 0.05), each 60 steps;
    ``view`` is "table" (the Runs tab, two runs ticked), "ghosts" (the loss and accuracy tab with them) or "side"
    (two runs side by side)."""

    def setup(t: Tour) -> None:
        from autograd_core.learn.runs import RunHistory

        t.show_tab("training")
        runs = t.training.runs
        runs.replace(RunHistory())
        t.config_key = None
        for config in ({"lr": 0.05, "activation": "relu"}, {"lr": 0.005, "activation": "relu"}, {"activation": "tanh"}):
            t.train_to(60, **config)
        runs.record()  # the third run, on screen, with its 60 steps
        kept = runs.history.runs[:3]
        for run in kept[:2]:
            runs.show_ghost(run.id, True)
        panel = t.training.runs_panel
        t.training.curves.setCurrentWidget(t.training.metrics if view == "ghosts" else panel)
        if view == "side":
            panel.select_runs({kept[0].id, kept[2].id})
            panel.compare_button.click()
            t.dialog = t.training.side_by_side
        t.settle()

    return setup


def _export(kind: str) -> Callable[[Tour], None]:
    def setup(t: Tour) -> None:
        t.show_tab("training")
        t.train_to(10, dataset="moons")
        t.dialog = t.window.show_export(kind)
        t.process(60)

    return setup


def _import(bad: bool) -> Callable[[Tour], None]:
    def setup(t: Tour) -> None:
        t.show_tab("training")
        path = os.path.join(t.files, "bad.csv" if bad else "flowers.csv")
        with open(path, "w", encoding="utf-8") as f:
            f.write("a,b,c\n1,2,x\n3,4\n" if bad else FLOWERS + "\n")
        dialog = t.training.import_data(path)
        dialog.wait_until_read()
        if not bad:
            dialog.choose("length", "width", "kind")
        t.dialog = dialog
        t.process(60)

    return setup


# ---- expression: forward mode, a derivative graph, the maths panel


def _forward_mode(t: Tour) -> None:
    t.show_tab("expression")
    t.example(NEURON)
    panel = t.window.expression
    panel.mode.forward_button.setChecked(True)
    state = panel.state
    for _ in range(3):
        state.step()
    t.settle()


def _derivative(t: Tour) -> None:
    t.show_tab("expression")
    t.example(NEURON)
    state = t.window.expression.state
    state.set_derivative("x1")
    t.settle()


def _maths(t: Tour) -> None:
    t.show_tab("expression")
    t.example(NEURON)
    state = t.window.expression.state
    state.backward()
    t.settle()
    node = next(i for i, tensor in enumerate(state.tensors) if tensor.label == "w1")
    state.select(node)
    t.window.expression.side_tabs.setCurrentWidget(t.window.expression.maths_box)  # as a click on it shows
    t.settle()


def _regression(t: Tour) -> None:
    """Regression on sin(3*x) chosen in the Data box as a user would, 120 steps: points, curve, unit curves, R²."""
    t.show_tab("training")
    c = t.controller
    c.pause()
    settings = t.training.training_panel.task_settings
    settings.target.setText("sin(3*x)")
    settings.task.setCurrentIndex(settings.task.findData("regression"))
    t.wait_until(lambda: c.task == "regression" and c.settled and c.last_metrics is not None)
    t.config_key = None
    while c.last_metrics.step < 120 and not t._stopped():
        before = c.last_metrics.step
        c.step()
        t.wait_until(lambda: (c.settled and c.last_metrics.step > before) or t._stopped())
    t.settle()
    t.training.flush()
    t.process(30)


def _features(t: Tour) -> None:
    """XOR with the typed feature x1*x2: three input nodes in the diagram, the regions it makes possible."""
    t.show_tab("training")
    t.train_to(40, dataset="xor", features=["x1*x2"])
    t.curves(0)


def _lesson(slug: str, shown: int = 1) -> Callable[[Tour], None]:
    """A lesson started from the list, as a learner would, with its first ``shown`` tasks done by Show me."""

    def setup(t: Tour) -> None:
        from autograd_core.lessons import load_lessons

        t.close_dialog()
        t.window.statusBar().clearMessage()
        panel = t.window.lessons
        lesson = next(lesson for lesson in load_lessons()[0] if lesson.slug == slug)
        panel.leave()
        t.window.settings.set("lessons/done/" + slug, [])  # (no progress from an earlier state)
        panel.start(lesson)
        t.controller.pause()
        for i in range(min(shown, len(lesson.tasks))):
            panel.tasks.setCurrentRow(i)
            panel.show_me_button.click()
            t.wait_until(lambda i=i: panel.task_signs()[i] == "◌" or t.controller.diverged is not None, timeout=120)
            t.wait_until(lambda: not t.controller.running and not panel.revealing, timeout=120)
        t.process(60)

    return setup


def _lesson_predict(slug: str, index: int, typed: str | None, shown: int = 0) -> Callable[[Tour], None]:
    """A lesson's predict task: ``typed`` guessed and checked (None: before the guess), its first ``shown``
    tasks done by Show me (◌) first."""

    def setup(t: Tour) -> None:
        _lesson(slug, shown)(t)
        panel = t.window.lessons
        panel.tasks.setCurrentRow(index)
        if typed is not None:
            panel.predict.guess.setText(typed)
            panel.predict.reveal_button.click()
        panel.predict.focus()
        t.process(60)

    return setup


def _workshop(derivative: str) -> Callable[[Tour], None]:
    """The Op workshop with soft typed in and checked: accepted, or refused with its disagreements marked."""

    def setup(t: Tour) -> None:
        from autograd_core.lessons.commands import read_command
        from gui.lessons.actions import perform_op

        t.show_tab("workshop")
        panel = t.window.workshop
        for step in ("clear", "name soft", "inputs x", "value x / (1 + abs(x))", f"derivative x {derivative}", "check"):
            perform_op(panel, read_command("op", step))
        t.window.statusBar().clearMessage()
        t.process(40)

    return setup


def _start_here(t: Tour) -> None:
    t.show_tab("expression")  # (what a first start shows beside the list)
    t.window.lessons.leave()
    t.window.show_lessons()
    t.process(40)


def build_states() -> list[State]:
    from autograd_core.learn.data import DATASETS

    states = [
        State("expr-neuron", "expression", _expression_example(NEURON), True, "the default example"),
        State("expr-stepping", "expression", _stepping, True, "backward, four steps in, ledger"),
        State("expr-gradcheck", "expression", _gradcheck, False, "after Backward, gradient check on"),
        State("expr-break-assign", "expression", _break_it("assign"), True, "Break it: '=' for '+=' on x + x"),
        State("expr-break-creation", "expression", _break_it("creation_order"), False, "Break it: creation order"),
        State("expr-break-eager", "expression", _break_it("eager"), False, "Break it: eager order, reused node"),
        State("expr-layout-spring", "expression", _layout("spring"), False, "spring layout"),
        State("expr-layout-kamada", "expression", _layout("kamada_kawai"), False, "Kamada–Kawai layout"),
    ]
    from gui.expression.expression_panel import load_examples

    for example in load_examples():
        if example["name"] == NEURON:
            continue
        slug = "".join(ch if ch.isalnum() else "-" for ch in example["name"].lower()).strip("-")
        while "--" in slug:
            slug = slug.replace("--", "-")
        states.append(State(f"expr-ex-{slug}", "expression", _expression_example(example["name"]), False))
    for dataset in DATASETS:
        for phase, steps in (("before", 0), ("during", 8), ("after", 60)):
            representative = dataset == "moons" and phase in ("before", "after")
            states.append(
                State(
                    f"train-{dataset}-{phase}", "training", _training(dataset, steps), representative, f"{steps} steps"
                )
            )
    states += [
        State("train-divergence", "training", _divergence, False, "SGD at lr 80: diverges"),
        State("train-neuron-maps", "training", _neuron_maps, False, "per-neuron maps, edges by gradient"),
        State("train-gradient-flow", "training", _gradient_flow, False, "gradient flow tab"),
        State("train-painted", "training", _painted, False, "painted points"),
        State("train-loss-slice", "training", _loss_slice, True, "loss slice of L1.n1.w1"),
        State("sample-graph", "sample", _sample_graph, True, "one sample through a 2-4-1 network"),
        State("sample-stepping", "sample", _sample_stepping, False, "backward stepping on the sample graph"),
        State("lab-race", "lab", _lab(), True, "Rosenbrock, eight racers, 60 steps"),
        State("lab-arrows-diverged", "lab", _lab(diverged=True, arrows=True), False, "arrows on, SGD diverged"),
        State("lab-step-graph", "lab", _lab(step_graph=True), False, "the graph of Adam's step 13"),
        State("train-confusion", "training", _confusion, False, "3-class spiral, confusion matrix, a cell picked"),
        State("train-landscape", "training", _landscape, False, "the loss landscape tab"),
        State("train-spiral3", "training", _multiclass("spiral", 40, classes=3), True, "3-class spiral"),
        State("train-blobs3", "training", _multiclass("blobs", 30, classes=3), False, "3-class blobs"),
        State("train-iris", "training", _multiclass("iris", 30), False, "iris, three classes"),
        State("import-preview", "training", _import(False), False, "the import dialog with a preview"),
        State("import-bad-file", "training", _import(True), False, "the import dialog on a bad file"),
        State("expr-forward-mode", "expression", _forward_mode, False, "forward mode, three steps"),
        State("expr-derivative", "expression", _derivative, False, "the graph of ∂o/∂x1"),
        State("expr-maths", "expression", _maths, False, "after Backward, w1 selected in the maths panel"),
        State("train-regression", "training", _regression, True, "regression on sin(3*x), unit contributions"),
        State("train-features", "training", _features, False, "XOR with the feature x1*x2"),
        State("lesson-start-here", "expression", _start_here, False, "first start: the lesson list"),
        State(
            "lesson-predict-before",
            "expression",
            _lesson_predict("02-plus-and-times-build-the-family-tree", 0, None),
            False,
            "lesson 2's prediction, before the guess",
        ),
        State(
            "lesson-predict-right",
            "expression",
            _lesson_predict("02-plus-and-times-build-the-family-tree", 0, "-3"),
            False,
            "lesson 2's prediction, guessed right: ✓ and the truth beside the guess",
        ),
        State(
            "lesson-predict-wrong",
            "expression",
            _lesson_predict("02-plus-and-times-build-the-family-tree", 0, "3"),
            False,
            "lesson 2's prediction, guessed wrong: the truth beside the guess, no ✓",
        ),
        State(
            "lesson-shown-marks",
            "expression",
            _lesson_predict("01-a-number-with-memory", 1, "2", shown=1),
            False,
            "lesson 1: task 1 by Show me (◌), task 2 predicted right (✓)",
        ),
        State("runs-table", "training", _runs("table"), False, "three runs kept, two ticked to overlay"),
        State("runs-ghosts", "training", _runs("ghosts"), False, "two kept runs dashed under the live curves"),
        State("runs-side-by-side", "training", _runs("side"), False, "two runs' final boundaries side by side"),
        State("export-python", "training", _export("python"), False, "File → Export run as Python"),
        State("export-torch", "training", _export("torch"), False, "File → Export run as PyTorch"),
        State("export-numpy", "training", _export("numpy"), False, "File → Export trained model as NumPy"),
        State("workshop-accepted", "workshop", _workshop("1 / (1 + abs(x))**2"), False, "soft checked and defined"),
        State("workshop-refused", "workshop", _workshop("1 / (1 + abs(x))"), True, "a wrong derivative refused"),
    ]
    from autograd_core.lessons import load_lessons

    for lesson in load_lessons()[0]:
        number = lesson.slug.split("-")[0]
        states.append(
            State(
                f"lesson-{number}",
                lesson.tab or "expression",
                _lesson(lesson.slug, len(lesson.tasks) if lesson.tab == "training" and len(lesson.tasks) > 3 else 1),
                False,
                f"{lesson.title}: its first task(s) done by Show me (lesson 8: all of them, two runs compared)",
            )
        )
    return states


def representative_states() -> list[State]:
    return [s for s in build_states() if s.representative]
