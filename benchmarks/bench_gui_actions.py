"""GUI-thread time of single user actions: theme switch, presentation mode, image export, session save, the
first view of the Sample graph tab, the Lessons dock shown and hidden, the Runs tab, export of the data with
predictions, a splitter drag.

Opens the main window (offscreen unless ``--show``) with its real training process, trains a few steps so
the session has a history, then does each action ``--repeat`` times and prints, per action, the longest stall
of the event loop from the action until ``--settle`` ms later (a 5 ms probe timer: the action's handlers,
posted events, the timers it started and the repaint) and the GUI thread's CPU time over the same span (less
inflated by other processes on a shared machine; work moved to another thread does not count).

    python benchmarks/bench_gui_actions.py [--repeat 3] [--show] [--profile ACTION] [--only ACTION …]
                                           [--presentation] [--wide-regression] [--worker-busy]
                                           [--switch-interval SECONDS]

``--profile theme`` (or any action name's prefix) runs that action under cProfile and prints the top entries.
``--gc-freeze`` freezes the objects made at start-up out of the garbage collector's scans once the window is up,
as the app does (gui/shell/app.py): without it a full collection rescans them all (~100 ms on this machine) and
lands in whichever action happens to trigger it.
``--worker-busy`` times each action while a graph layout runs on another thread of the app (what a Spring
layout, or a big expression's, does for a second or more): the GUI thread then needs Python's lock back for
each of its slots, paints and style calls.  ``--switch-interval 0.005`` (Python's default) shows the same
without the app's shorter one (gui/shell/app.py).
Figures are noisy on a shared 2-core machine; the load average is printed with them.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import os
import pstats
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def idle(app) -> None:
    """Until nothing is posted any more (deferred slots, layout requests, paints)."""
    for _ in range(5):
        app.sendPostedEvents()
        app.processEvents()


def probe_stall(app, action, settle_ms: int) -> float:
    """The action, then ``settle_ms`` of event loop with a 5 ms probe timer: the longest time the loop was
    blocked (the action's own call, deferred slots, timers it started, repaints)."""
    from PySide6.QtCore import QEventLoop, QTimer

    gaps = []
    last = [time.perf_counter()]

    def probe():
        now = time.perf_counter()
        gaps.append(now - last[0])
        last[0] = now

    timer = QTimer()
    timer.setInterval(5)
    timer.timeout.connect(probe)
    start = time.perf_counter()
    action()
    last[0] = start  # the action's own call counts as a gap from its start
    timer.start()
    loop = QEventLoop()
    QTimer.singleShot(settle_ms, loop.quit)
    loop.exec()
    timer.stop()
    probe()
    return max(gaps)


class BusyWorker:
    """A layered layout of a 400-term sum's overview (the job a new big expression gives the layout thread),
    run over and over on a thread of its own between ``start`` and ``stop``."""

    def __init__(self):
        from autograd_core.drawing.fit import compute_drawing
        from autograd_core.drawing.grouping import OVERVIEW_NODES, overview_graph
        from autograd_core.language.expression import compile_expression

        text = " + ".join(f"tanh(a*{k % 7 + 1}.5 + b*c{k % 5})" for k in range(400))
        program = compile_expression(text)
        graph = overview_graph(
            program.evaluate({"a": 0.5, "b": -1.0, **{f"c{j}": 0.1 * j for j in range(5)}}).output, OVERVIEW_NODES
        )
        self.nodes = graph.number_of_nodes()
        sizes = {n: (90.0, 44.0) for n in graph}
        self._job = lambda: compute_drawing(graph, "layered", sizes)
        self._running = False
        self._thread = None

    def start(self) -> None:
        import threading

        self._running = True

        def loop():
            while self._running:
                self._job()

        self._thread = threading.Thread(target=loop, daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._running = False
        self._thread.join()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="times each action is timed (default 3)")
    parser.add_argument("--show", action="store_true", help="use the real display instead of offscreen")
    parser.add_argument("--profile", default="", help="run the action(s) whose name starts with this under cProfile")
    parser.add_argument("--only", nargs="*", default=[], help="only the actions whose name starts with one of these")
    parser.add_argument("--settle", type=int, default=800, help="ms of event loop probed after each action")
    parser.add_argument("--top", type=int, default=25, help="profile entries to print (default 25)")
    parser.add_argument("--gc-freeze", action="store_true", help="gc.freeze() once the window is up, as the app does")
    parser.add_argument("--presentation", action="store_true", help="the actions timed in presentation mode")
    parser.add_argument(
        "--wide-regression",
        action="store_true",
        help="the training area on a regression with three hidden layers of 32 (the heaviest views the monkey found)",
    )
    parser.add_argument(
        "--worker-busy", action="store_true", help="a graph layout runs on another thread during each action"
    )
    parser.add_argument(
        "--switch-interval", type=float, default=0.0, help="sys.setswitchinterval after the app's own (e.g. 0.005)"
    )
    args = parser.parse_args()
    if not args.show:
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

    from PySide6.QtCore import QEvent, QPoint, QPointF, QSettings, Qt, QTimer
    from PySide6.QtGui import QMouseEvent
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication

    from gui.shell.app import create_app
    from gui.shell.main_window import MainWindow
    from gui.shell.settings import AppSettings

    app = create_app()
    if args.switch_interval:
        sys.setswitchinterval(args.switch_interval)
    tmp = tempfile.TemporaryDirectory(prefix="bench-gui-actions-")
    folder = Path(tmp.name)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(folder / "qsettings"))
    settings = AppSettings(QSettings(str(folder / "settings.ini"), QSettings.Format.IniFormat))
    window = MainWindow(settings)
    window.resize(1280, 800)
    window.show()
    window.tabs.setCurrentWidget(window.training)
    controller = window.training.controller
    deadline = time.monotonic() + 60
    while controller.last_snapshot is None and time.monotonic() < deadline:
        QTest.qWait(20)
    if args.wide_regression:
        controller.set_task("regression")
        controller.update_settings(layers=[32, 32, 32])
        deadline = time.monotonic() + 60
        while (controller.last_snapshot is None or not controller.settled) and time.monotonic() < deadline:
            QTest.qWait(20)
    if args.presentation:
        window.set_presentation(True)
    QTest.qWait(300)
    if args.gc_freeze:
        gc.collect()
        gc.freeze()
    idle(app)

    def tab(area):
        return lambda: window.tabs.setCurrentWidget(area)

    def theme_on(area, theme):
        def go():
            window.tabs.setCurrentWidget(area)
            idle(app)
            return lambda: window.menus.theme_actions[theme].trigger()

        return go

    def export_on(area, ext):
        def go():
            window.tabs.setCurrentWidget(area)
            idle(app)
            go.n = getattr(go, "n", 0) + 1
            return lambda: window.export_image(str(folder / f"export{go.n}.{ext}"))

        return go

    def tab_after_theme(area, theme):
        """From the Expression tab (after a theme switch there, unless ``theme`` is None; "presentation": the mode
        toggled there) to this tab."""

        def go():
            window.tabs.setCurrentWidget(window.expression)
            idle(app)
            if theme == "presentation":
                window.menus.presentation_action.toggle()
                idle(app)
            elif theme is not None:
                window.menus.theme_actions[theme].trigger()
                idle(app)
            return lambda: window.tabs.setCurrentWidget(area)

        return go

    def export_data(samples):
        """File > Export data with predictions, on ``samples`` points (the GUI monkey reaches tens of thousands
        with the Samples spin box); the action's span lasts until the file is written."""

        def go():
            window.tabs.setCurrentWidget(window.training)
            if controller.config.samples != samples or controller.config.points is not None:
                controller.update_settings(samples=samples)
                end = time.monotonic() + 60
                while time.monotonic() < end and (
                    controller.dataset is None or len(controller.dataset.y) != samples or not controller.settled
                ):
                    QTest.qWait(50)
                QTest.qWait(300)
            idle(app)
            go.n = getattr(go, "n", 0) + 1
            return lambda: window.export_predictions(str(folder / f"data{samples}-{go.n}.csv"))

        return go

    def training_splitter(name: str):
        """The training area's splitter ``name`` ("views" or "body"), as it is when the drag starts."""
        return lambda: getattr(window.training.arrangement, name)

    def drag_splitter(area, splitter, by):
        """A drag of the splitter's first handle by ``by`` px and back on the next run, in eight moves 25 ms
        apart, the mouse events sent as a window system delivers them."""

        def go():
            window.tabs.setCurrentWidget(area)
            idle(app)
            go.n = getattr(go, "n", 0) + 1
            handle = splitter().handle(1)
            offset = by if go.n % 2 else -by
            vertical = handle.orientation() == Qt.Orientation.Vertical
            start = handle.rect().center()
            end = start + (QPoint(0, offset) if vertical else QPoint(offset, 0))

            def act():
                left = Qt.MouseButton.LeftButton
                send(handle, QEvent.Type.MouseButtonPress, start, left, left)
                for k in range(1, 9):  # a move every 25 ms, the event loop turning between them as a hand drags
                    pos = start + (end - start) * (k / 8)
                    QTimer.singleShot(25 * k, lambda pos=pos: send(handle, QEvent.Type.MouseMove, pos, no, left))
                QTimer.singleShot(25 * 9, lambda: send(handle, QEvent.Type.MouseButtonRelease, end, left, no))

            return act

        return go

    no = Qt.MouseButton.NoButton

    def send(widget, kind, pos, button, held):
        event = QMouseEvent(
            kind, QPointF(pos), QPointF(widget.mapToGlobal(pos)), button, held, Qt.KeyboardModifier.NoModifier
        )
        QApplication.sendEvent(widget, event)

    def lessons_dock(show, size):
        """Help → Lessons (the dock shown beside the training area, which shrinks) or the dock closed again, at
        ``size``, training running (as the GUI monkey found it)."""

        def go():
            window.tabs.setCurrentWidget(window.training)
            if tuple(window.size().toTuple()) != size:
                window.resize(*size)
                QTest.qWait(300)
            play_first()
            if window.lessons.isVisible() == show:
                (window.lessons.hide if show else window.show_lessons)()
                QTest.qWait(300)
            idle(app)
            return window.show_lessons if show else window.lessons.hide

        return go

    def curves_tab(index):
        """A tab of the training area's curves (5: Runs), from the first one, training running."""

        def go():
            window.tabs.setCurrentWidget(window.training)
            play_first()
            window.training.curves.setCurrentIndex(0)
            QTest.qWait(300)
            idle(app)
            return lambda: window.training.curves.setCurrentIndex(index)

        return go

    def full_runs_tab():
        """The Runs tab with a full history (50 runs of 2,000-point curves), training running."""
        import random

        from autograd_core.learn.runs import CURVE_POINTS, MAX_RUNS

        def go():
            history = window.training.runs.history
            rng = random.Random(1)
            base = window.training.controller.config.to_dict()
            while len(history.runs) < MAX_RUNS - 1:
                run = history.start(dict(base, seed=len(history.runs) + 100), "classification")
                run.steps, run.seconds = 2000, 3.0
                run.curves = {name: [rng.random() for _ in range(CURVE_POINTS)] for name in run.curves}
            window.training.runs.changed.emit()
            return curves_tab(5)()

        return go

    def presentation(on):
        def go():
            return lambda: window.menus.presentation_action.setChecked(on)

        return go

    def trained_session():
        def go():
            window.tabs.setCurrentWidget(window.training)
            if controller.last_metrics is None or controller.last_metrics.step < 200:
                controller.update_settings(steps=300)
                controller.play()
                end = time.monotonic() + 30
                while (controller.last_metrics is None or controller.last_metrics.step < 200) and (
                    time.monotonic() < end
                ):
                    QTest.qWait(50)
                controller.pause()
                QTest.qWait(300)
            idle(app)
            return lambda: window.save_session_to(str(folder / "session.agp.json"))

        return go

    def sample_point(opened):
        def go():
            window.tabs.setCurrentWidget(window.sample)
            idle(app)

            def act():
                window.sample.show_sample(0.3, -0.2, 1)
                if opened:  # every neuron opened: the whole scalar graph (Whole graph, as a user may)
                    window.sample.view.set_collapsed(set())

            return act

        return go

    def sample_repaint():
        def go():
            window.tabs.setCurrentWidget(window.sample)
            window.sample.show_sample(0.3, -0.2, 1)  # each neuron one box (its default for 2-16-16-1)
            QTest.qWait(300)
            idle(app)
            return lambda: window.sample.view.viewport().repaint()

        return go

    def sample_after_training():
        def go():
            window.tabs.setCurrentWidget(window.training)
            controller.update_settings(steps=(controller.last_metrics.step if controller.last_metrics else 0) + 30)
            controller.play()
            end = time.monotonic() + 20
            while controller.running and time.monotonic() < end:
                QTest.qWait(50)
            QTest.qWait(300)
            idle(app)
            return lambda: window.tabs.setCurrentWidget(window.sample)

        return go

    def resize_to(area, size):
        """The window resized (as a window manager does: one resize, then the repaint)."""

        def go():
            window.tabs.setCurrentWidget(area)
            idle(app)
            return lambda: window.resize(*size)

        return go

    def training_button(name, before=None):
        """A click on one of the training area's buttons (Step, Play, Reset…), ``before()`` setting the stage."""

        def go():
            window.tabs.setCurrentWidget(window.training)
            if before is not None:
                before()
            end = time.monotonic() + 20
            while not controller.settled and time.monotonic() < end:
                QTest.qWait(20)
            idle(app)
            panel = window.training.training_panel
            button = getattr(panel, name, None) or getattr(window.training.boundary, name)
            return button.click

        return go

    def undo_clear():
        if controller.dataset is not None and len(controller.dataset.y) == 0:
            controller.undo()

    def pause_first():
        if controller.running:
            controller.pause()

    def play_first():
        if not controller.running:
            controller.update_settings(steps=100_000)
            controller.play()
            QTest.qWait(400)

    def sample_button(name):
        def go():
            window.tabs.setCurrentWidget(window.sample)
            idle(app)
            end = time.monotonic() + 20
            while window.sample.view.busy and time.monotonic() < end:
                QTest.qWait(20)
            return getattr(window.sample, name).click

        return go

    def dataset_pick(name):
        def go():
            window.tabs.setCurrentWidget(window.training)
            pause_first()
            idle(app)
            combo = window.training.training_panel.dataset
            return lambda: combo.setCurrentIndex(combo.findData(name))

        return go

    typed = [0]

    def typed_expression(terms):
        """An expression of ``terms`` terms typed in one go (``terms`` 400: about 2,000 nodes); each repeat
        pastes another text of the same shape (the first, then with 1.5k for its first 1.5): the same text
        again would be no edit at all."""

        def go():
            window.tabs.setCurrentWidget(window.expression)
            idle(app)
            text = " + ".join(f"tanh(a*{k % 7 + 1}.5 + b*c{k % 5})" for k in range(terms))
            text = text.replace("a*1.5", f"a*1.5{typed[0]}", 1) if typed[0] else text
            typed[0] += 1
            return lambda: window.expression.editor.edit.setPlainText(text)  # as a paste

        return go

    # (name, prepare → the timed action, once only)
    actions = [
        ("data set wine, first pick", dataset_pick("wine"), True),
        ("data set moons", dataset_pick("moons"), False),
        ("resize training 1920×1080", resize_to(window.training, (1920, 1080)), False),
        ("resize training 1600×1000", resize_to(window.training, (1600, 1000)), False),
        ("resize training 1024×700", resize_to(window.training, (1024, 700)), False),
        ("resize training 1280×800", resize_to(window.training, (1280, 800)), False),
        ("training step", training_button("step_button", pause_first), False),
        ("training play", training_button("play_button", pause_first), False),
        ("training pause", training_button("play_button", play_first), False),
        ("training reset", training_button("reset_button", pause_first), False),
        ("training clear all", training_button("clear_button", pause_first), False),
        ("training undo clear", lambda: lambda: undo_clear(), False),
        ("sample graph collapse all", sample_button("collapse_button"), False),
        ("sample graph expand all", sample_button("expand_button"), False),
        ("expression, 2,000 nodes typed", typed_expression(400), False),
        ("sample tab, first view", lambda: tab(window.sample), True),
        ("sample graph, a point", sample_point(False), False),
        ("sample graph, all opened", sample_point(True), False),
        ("sample graph, repaint", sample_repaint(), False),
        ("sample tab after training", sample_after_training(), False),
        ("theme dark, training tab", theme_on(window.training, "dark"), False),
        ("theme light, training tab", theme_on(window.training, "light"), False),
        ("theme dark, expression tab", theme_on(window.expression, "dark"), False),
        ("theme light, expression tab", theme_on(window.expression, "light"), False),
        ("theme dark, sample tab", theme_on(window.sample, "dark"), False),
        ("theme light, sample tab", theme_on(window.sample, "light"), False),
        ("training tab shown", tab_after_theme(window.training, None), False),
        ("training tab shown, new theme", tab_after_theme(window.training, "dark"), False),
        ("training tab shown, new theme", tab_after_theme(window.training, "light"), False),
        ("training tab shown, mode toggled", tab_after_theme(window.training, "presentation"), False),
        ("lab tab shown, new theme", tab_after_theme(window.lab, "dark"), False),
        ("lab tab shown, new theme", tab_after_theme(window.lab, "light"), False),
        ("lab tab shown, mode toggled", tab_after_theme(window.lab, "presentation"), False),
        ("lessons dock show 1024×700", lessons_dock(True, (1024, 700)), False),
        ("lessons dock hide 1024×700", lessons_dock(False, (1024, 700)), False),
        ("lessons dock show 1600×1000", lessons_dock(True, (1600, 1000)), False),
        ("lessons dock hide 1600×1000", lessons_dock(False, (1600, 1000)), False),
        ("tab runs", curves_tab(5), False),
        ("tab runs, 50 runs", full_runs_tab(), False),
        ("presentation on", presentation(True), False),
        ("presentation off", presentation(False), False),
        ("export png, expression", export_on(window.expression, "png"), False),
        ("export svg, expression", export_on(window.expression, "svg"), False),
        ("export png, training", export_on(window.training, "png"), False),
        ("export svg, training", export_on(window.training, "svg"), False),
        ("export png, sample", export_on(window.sample, "png"), False),
        ("export svg, sample", export_on(window.sample, "svg"), False),
        ("session save", trained_session(), False),
        ("export data, 200 points", export_data(200), False),
        ("export data, 50,000 points", export_data(50_000), False),
        ("splitter drag, training views", drag_splitter(window.training, training_splitter("views"), 150), False),
        ("splitter drag, training curves", drag_splitter(window.training, training_splitter("body"), 100), False),
        ("splitter drag, expression", drag_splitter(window.expression, lambda: window.expression.splitter, 150), False),
        ("splitter drag, lab", drag_splitter(window.lab, lambda: window.lab.splitter, 100), False),
    ]
    if args.only:
        actions = [a for a in actions if any(a[0].startswith(o) for o in args.only)]
    results: dict[str, list[tuple[float, float]]] = {}
    profile = cProfile.Profile() if args.profile else None
    busy = BusyWorker() if args.worker_busy else None
    for _round in range(args.repeat):
        for name, prepare, once in actions:
            if once and name in results:
                continue
            action = prepare()
            idle(app)
            profiling = profile is not None and name.startswith(args.profile)
            cpu = time.thread_time()
            if profiling:
                profile.enable()
            if busy is not None:
                busy.start()
            stall = probe_stall(app, action, args.settle)
            if busy is not None:
                busy.stop()
            if profiling:
                profile.disable()
            results.setdefault(name, []).append((stall, time.thread_time() - cpu))
    window.close()
    if busy is not None:
        print(f"while a layered layout of {busy.nodes} nodes ran on another thread, over and over")
    print(f"Python's switch interval: {sys.getswitchinterval() * 1000:g} ms")
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} cores")
    print(
        f"{'action':<30} {'runs':>4} {'longest stall ms (min–max)':>27} {'GUI-thread CPU ms (min–max)':>28}"
        f"   (stall: the event loop's longest gap in the {args.settle} ms after the action, the action included)"
    )
    for name, runs in results.items():
        walls = [1000 * w for w, _ in runs]
        cpus = [1000 * c for _, c in runs]
        print(
            f"{name:<30} {len(runs):>4} {min(walls):>14.0f} – {max(walls):<10.0f} "
            f"{min(cpus):>14.0f} – {max(cpus):<8.0f}"
        )
    if profile is not None:
        print(f"\ncProfile of the actions starting with {args.profile!r} (cumulative):")
        pstats.Stats(profile).sort_stats("cumulative").print_stats(args.top)
    tmp.cleanup()
    return 0


if __name__ == "__main__":
    sys.exit(main())
