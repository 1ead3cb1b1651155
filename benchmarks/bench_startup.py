"""The first picture: how long a learner waits for the window, then for Network training's first picture.

    QT_QPA_PLATFORM=xcb xvfb-run -a -s "-screen 0 1600x1000x24" python benchmarks/bench_startup.py
    python benchmarks/bench_startup.py --runs 5 --open-after 1.0     # the tab opened 1 s after the window shows
    python benchmarks/bench_startup.py --repo /tmp/older-checkout    # the same measure of another checkout
    python benchmarks/bench_startup.py --vs /tmp/older-checkout      # both in turn, with the ratios pair by pair

Each run is a fresh ``python main.py`` (a fresh config directory, so it is a
first start, with Start here open), timed from just before the process is
started.  Printed per run and as the median of the runs:

- *window shown*: the main window's first frame is painted;
- *first picture*: the Network training tab is opened (``--open-after``
  seconds after the window shows: 0, at once, is the worst case) and its
  boundary plot shows the data and the decision regions, painted; the figure
  is the time from the learner's click on the tab (what the window was busy
  with then, the click waited for);
- *training process ready*: its first snapshot reached the window, from the
  start of ``python main.py``; and the training process's own start, from its
  spawn to that snapshot read from its pipe;
- the CPU seconds the app's process used until its window showed: on a
  shared, busy machine the wall-clock figures stretch with the load, this one
  hardly does (it is what an idle machine would wait, give or take the disk).

Bytecode: a user's Python caches compiled modules (``__pycache__``); a
sandbox with ``PYTHONDONTWRITEBYTECODE=1`` compiles every module at every
start (about 0.3 s more here).  The runs use a cache of their own
(``PYTHONPYCACHEPREFIX``), warmed by one run that is not counted;
``--no-bytecode-cache`` measures without one.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

# Runs in the fresh process: main.py itself, with a window that notes when it is first painted, then opens the
# training tab and notes when its boundary is painted with data and regions.
DRIVER = r"""
import importlib.abc, importlib.util, json, os, runpy, sys, time
sys.argv = ["main.py"]
sys.path.insert(0, os.getcwd())
OPEN_AFTER = float(os.environ["BENCH_OPEN_AFTER"])
marks = {}


def mark(name):
    marks.setdefault(name, time.time())


def instrument_window(main_window):
    # Qt is imported here, when main.py imports the window, never earlier: the order of imports is the app's own.
    from PySide6.QtCore import QEvent, QTimer
    from PySide6.QtWidgets import QApplication

    class Timed(main_window.MainWindow):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self._painted = False
            self.installEventFilter(self)
            # (a window that builds its training area after the first frame makes the controller first)
            made_first = hasattr(self, "training_controller")
            controller = self.training_controller() if made_first else self.training.controller
            controller.changed.connect(lambda change: change.snapshot is not None and mark("process_ready"))

        def eventFilter(self, watched, event):
            if watched is self and event.type() == QEvent.Type.Paint and not self._painted:
                self._painted = True
                QTimer.singleShot(0, self._shown)  # after this frame is painted
            return super().eventFilter(watched, event)

        def _shown(self):
            shown()
            due = marks["window_shown"] + OPEN_AFTER - time.time()  # (the learner's click, from the first frame)
            QTimer.singleShot(max(0, int(due * 1000)), self._open_training)

        def _open_training(self):
            mark("tab_opened")
            self.tabs.setCurrentWidget(self.training)
            self._poll = QTimer(self)
            self._poll.setInterval(5)
            self._poll.timeout.connect(self._check)
            self._poll.start()

        def _check(self):
            boundary = self.training.boundary
            if boundary.placeholder.isVisible() or boundary._dataset is None or boundary._grid is None:
                return
            self._poll.stop()
            boundary.plot.viewport().repaint()  # (painted now: the frame the learner sees)
            mark("first_picture")
            marks["cpu_at_picture"] = time.process_time()
            if os.environ.get("BENCH_GRAB"):
                self.grab().save(os.environ["BENCH_GRAB"])
            print("BENCH " + json.dumps(marks), flush=True)
            QTimer.singleShot(0, QApplication.instance().quit)

    main_window.MainWindow = Timed


def shown():
    # The first frame is painted: noted before the app's own work after it (starting the training process,
    # building the areas not shown), which runs in the same turn of the event loop.
    if "window_shown" not in marks:
        mark("window_shown")
        marks["cpu_at_show"] = time.process_time()  # this process's CPU seconds so far (all its threads)


def instrument_app(app):
    after = getattr(app, "AfterFirstFrame", None)
    if after is not None:
        run = after._run

        def timed_run(self):
            shown()
            run(self)

        after._run = timed_run


def instrument_worker(worker):
    spawn = worker.ProcessWorker._spawn

    def timed_spawn(self, start):
        mark("spawned")  # the training process is started (the first time)
        spawn(self, start)

    worker.ProcessWorker._spawn = timed_spawn
    store = worker.TrainingWorker._store

    def timed_store(self, snap):
        mark("snapshot_read")  # its first snapshot is read (in the reader thread, whatever the window is doing)
        store(self, snap)

    worker.TrainingWorker._store = timed_store


INSTRUMENT = {
    "gui.shell.main_window": instrument_window,
    "gui.shell.app": instrument_app,
    "gui.training.training_worker": instrument_worker,
}


class Hook(importlib.abc.MetaPathFinder):
    # Instruments the modules above as main.py's own imports load them.
    def find_spec(self, name, path, target=None):
        if name not in INSTRUMENT or getattr(self, "_busy", False):
            return None
        self._busy = True
        try:
            spec = importlib.util.find_spec(name)
        finally:
            self._busy = False
        run_module = spec.loader.exec_module
        instrument = INSTRUMENT[name]

        def exec_module(module):
            run_module(module)
            instrument(module)

        spec.loader.exec_module = exec_module
        return spec


sys.meta_path.insert(0, Hook())
runpy.run_path("main.py", run_name="__main__")
"""


def one_run(repo: Path, open_after: float, env: dict, grab: str = "") -> dict:
    with tempfile.TemporaryDirectory() as config:
        run_env = {
            **env,
            "XDG_CONFIG_HOME": config,
            "HOME": config,
            "BENCH_OPEN_AFTER": str(open_after),
            "BENCH_GRAB": grab,
        }
        t0 = time.time()
        done = subprocess.run(
            [sys.executable, "-c", DRIVER], cwd=repo, env=run_env, capture_output=True, text=True, timeout=120
        )
    line = next((ln for ln in done.stdout.splitlines() if ln.startswith("BENCH ")), None)
    if line is None:
        raise RuntimeError(f"no measurement (exit {done.returncode}):\n{done.stdout}\n{done.stderr[-3000:]}")
    marks = json.loads(line[6:])
    return {
        "window": marks["window_shown"] - t0,
        # from the moment the learner opens the tab (what the window does first, the click waits for)
        "picture": marks["first_picture"] - marks["window_shown"] - open_after,
        "ready": marks.get("process_ready", float("nan")) - t0,
        "process": marks.get("snapshot_read", float("nan")) - marks.get("spawned", float("nan")),
        "cpu": marks["cpu_at_show"],
        "cpu_picture": marks["cpu_at_picture"] - marks["cpu_at_show"],
    }


KEYS = ("window", "cpu", "picture", "process")


def describe(r: dict) -> str:
    return (
        f"window shown {r['window']:.2f} s ({r['cpu']:.2f} s of CPU); first picture {r['picture']:.2f} s after "
        f"the click on the tab ({r['cpu_picture']:.2f} s of the window's CPU after its first frame); "
        f"training process ready {r['ready']:.2f} s ({r['process']:.2f} s from its start to "
        f"its first snapshot); load {r['load']:.2f}"
    )


def summary(runs: list[dict]) -> str:
    window, cpu, picture, process = (statistics.median(r[key] for r in runs) for key in KEYS)
    return (
        f"median of {len(runs)}: window shown {window:.2f} s after python main.py ({cpu:.2f} s of CPU); "
        f"first training picture {picture:.2f} s after the click on the tab; training process {process:.2f} s "
        f"from its start to its first snapshot"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--open-after", type=float, default=0.0, help="seconds after the window shows (default 0)")
    parser.add_argument("--repo", type=Path, default=REPO, help="the checkout to start (default: this one)")
    parser.add_argument(
        "--vs", type=Path, default=None, help="another checkout, started in turn with --repo: the ratios pair by pair"
    )
    parser.add_argument("--grab", default="", help="save the window at its first training picture (last run)")
    parser.add_argument("--no-bytecode-cache", action="store_true", help="compile every module at every start")
    args = parser.parse_args()
    env = dict(os.environ)
    repos = [args.repo] + ([args.vs] if args.vs else [])
    if not args.no_bytecode_cache:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = os.path.join(tempfile.gettempdir(), "agp-bench-pycache")
        for repo in repos:
            one_run(repo, args.open_after, env)  # warms the cache; not counted
    print(
        f"{' vs '.join(map(str, repos))}: {args.runs} fresh starts each, tab opened {args.open_after:g} s after the "
        f"window shows, platform {env.get('QT_QPA_PLATFORM', 'default')}, load {os.getloadavg()[0]:.2f}"
    )
    runs: dict[Path, list[dict]] = {repo: [] for repo in repos}
    for i in range(args.runs):
        for repo in repos:  # (in turn: a drift of the machine's speed touches both alike)
            r = one_run(repo, args.open_after, env, args.grab if i == args.runs - 1 and repo == args.repo else "")
            r["load"] = os.getloadavg()[0]
            runs[repo].append(r)
            print(f"  run {i + 1}{f' {repo}' if args.vs else ''}: {describe(r)}")
    for repo in repos:
        print(f"{repo}: {summary(runs[repo])}" if args.vs else summary(runs[repo]))
    if args.vs:
        for key in KEYS:
            ratios = [a[key] / b[key] for a, b in zip(runs[args.repo], runs[args.vs], strict=True)]
            print(
                f"{key} {args.repo.name}/{args.vs.name}, pair by pair: {' '.join(f'{x:.2f}' for x in ratios)}; "
                f"median {statistics.median(ratios):.2f}"
            )
    print(f"load after {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
