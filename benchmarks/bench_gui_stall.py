"""GUI responsiveness while training, and time to 97 % test accuracy on the default settings.

Opens the training area (offscreen unless a display is asked for), presses Play on
the defaults (two moons, MLP 2-16-16-1, Adam) and, while it trains, a 5 ms QTimer
probe records every gap of the event loop: the longest gap is the longest stall a
user could feel.  Also prints how often each view was redrawn and when test
accuracy first reached 97 %.

The linked views are on unless ``--plain``: per-neuron maps and dead units in
the diagram, and a picked weight whose loss slice the training process
recomputes (≤ 2 per second) and the GUI draws.  It also prints what a
per-neuron map redraw costs in the GUI thread and what one loss slice costs.

With ``--ghosts N`` the Runs tab holds N kept runs of 2,000-point curves, all overlaid (dashed) on the live
loss and accuracy plots while training: the stall they add (the goal: the longest stays under 50 ms with 10).

    .venv/bin/python benchmarks/bench_gui_stall.py [--seconds 20] [--show] [--plain] [--ghosts 10]

Figures are noisy on a shared 2-core machine; the load average is printed with them.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import numpy as np

from autograd_core.live.training_policy import TrainingPart

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def add_ghosts(ws, count: int) -> None:
    """``count`` kept runs of 2,000-point curves (shaped like training curves), each ticked to overlay."""
    from autograd_core.learn.runs import CURVE_POINTS

    keeper = ws.runs
    steps = np.linspace(0, 20_000, CURVE_POINTS).round().astype(int)
    rng = np.random.default_rng(0)
    for k in range(count):
        keeper.history.start({**ws.controller.config.to_dict(), "lr": 0.01 * (k + 1)}, "classification")
        loss = 0.7 * np.exp(-steps / (2_000 + 500 * k)) + 0.05 + 0.01 * rng.standard_normal(len(steps))
        acc = 1 - 0.5 * np.exp(-steps / (1_000 + 300 * k))
        columns = {"step": steps, "train_loss": loss, "test_loss": loss * 1.1, "train_acc": acc, "test_acc": acc}
        keeper.history.record(columns, int(steps[-1]), 60.0)
    for run in keeper.history.runs[-count:]:
        keeper.show_ghost(run.id, True)
    keeper._generation = None  # the live run after them: the next snapshot starts it


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20.0, help="how long to train and probe (default 20)")
    parser.add_argument("--show", action="store_true", help="use the real display instead of offscreen")
    parser.add_argument(
        "--steps",
        type=int,
        default=100_000,
        help="step limit, so training lasts the whole probe (a constant schedule ignores it otherwise)",
    )
    parser.add_argument("--plain", action="store_true", help="without the linked views (no loss slice picked)")
    parser.add_argument("--ghosts", type=int, default=0, help="kept runs overlaid on the live curves (default 0)")
    args = parser.parse_args()
    if not args.show:
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

    from PySide6.QtCore import QTimer

    from gui.shell.app import create_app

    app = create_app()  # as the app: its switch interval (gui/shell/app.py)
    from gui.look.app_style import apply_theme
    from gui.training.training_workspace import TrainingWorkspace

    apply_theme(app, "light")
    ws = TrainingWorkspace()
    ws.resize(1600, 950)
    ws.show()
    controller = ws.controller
    controller.update_settings(steps=args.steps)

    gaps: list[float] = []
    last = [time.perf_counter()]
    probing = [False]
    draws = {"boundary": 0, "diagram": 0, "maps": 0, "loss": 0, "accuracy": 0, "loss slice": 0}
    map_times: list[float] = []
    last_drawn = ["none"]
    long_gaps: dict[str, int] = {}

    def counted(view: str, seconds: float) -> None:  # every real draw (skipped and throttled views are not)
        last_drawn[0] = view
        draws[view] = draws.get(view, 0) + 1
        if view == "maps":
            map_times.append(seconds)

    ws.frames.drawn.connect(counted)

    def probe():
        now = time.perf_counter()
        if probing[0]:
            gaps.append(now - last[0])
            if now - last[0] > 0.030:  # which view was drawn just before a long gap
                long_gaps[last_drawn[0]] = long_gaps.get(last_drawn[0], 0) + 1
        last[0] = now
        last_drawn[0] = "none"

    timer = QTimer()
    timer.setInterval(5)
    timer.timeout.connect(probe)
    timer.start()

    result = {"play": None, "hit97": None, "hit90": None}

    def on_snapshot(_snap):
        m = controller.last_metrics
        if result["play"] is None or m is None or m.test_acc is None:
            return
        t = time.perf_counter() - result["play"]
        if result["hit90"] is None and m.test_acc >= 0.90:
            result["hit90"] = (t, m.step)
        if result["hit97"] is None and m.test_acc >= 0.97:
            result["hit97"] = (t, m.step)

    def start():
        for key in draws:
            draws[key] = 0
        last[0] = time.perf_counter()
        probing[0] = True
        result["play"] = time.perf_counter()
        controller.play()

    def stop_probe():
        if probing[0]:
            probing[0] = False
            result["trained"] = time.perf_counter() - result["play"]
            result["steps"] = controller.last_metrics.step

    def finish():
        stop_probe()
        ws.shutdown()
        app.quit()

    def on_change(change):  # (in the controller's order: the running state, then the snapshot)
        if TrainingPart.RUNNING in change and not change.running:
            stop_probe()
        if TrainingPart.SNAPSHOT in change:
            on_snapshot(change.snapshot)

    controller.changed.connect(on_change)

    # Wait for the training process to be up (first snapshot), then press Play.
    def wait_ready():
        if controller.last_snapshot is None:
            QTimer.singleShot(50, wait_ready)
            return
        if args.ghosts:
            add_ghosts(ws, args.ghosts)
        if not args.plain:  # pick a weight: its loss slice is recomputed while training and drawn
            edge = ws.diagram.edges[len(ws.diagram.edges) // 2] if ws.diagram.edges else None
            if edge is not None:
                ws.diagram.pick(edge.layer, edge.row, edge.col)
        QTimer.singleShot(500, start)
        QTimer.singleShot(int(500 + 1000 * args.seconds), finish)

    wait_ready()
    app.exec()

    g = np.array(gaps) * 1000.0
    m = controller.last_metrics
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} cores")
    c = controller.config
    print(f"config: {c.dataset}, {c.samples} samples, layers {c.layers}, {c.optimizer} lr {c.lr}, {c.loss}")
    seconds = result["trained"]
    print(
        f"trained {seconds:.1f} s: {result['steps']} steps ({result['steps'] / seconds:.1f} steps/s), "
        f"test accuracy {100 * (m.test_acc or 0):.1f} %"
    )
    for label, key in (("90 %", "hit90"), ("97 %", "hit97")):
        hit = result[key]
        print(f"test accuracy ≥ {label}: " + (f"{hit[0]:.1f} s after Play (step {hit[1]})" if hit else "not reached"))
    print(
        f"event-loop gaps (5 ms probe, {len(g)} samples): max {g.max():.1f} ms, p99 {np.percentile(g, 99):.1f} ms, "
        f"p95 {np.percentile(g, 95):.1f} ms, median {np.median(g):.1f} ms"
    )
    repaints = []
    for _ in range(10):  # one frame's paint of the two curve plots, the ghosts included (GUI thread)
        t = time.perf_counter()
        ws.metrics.loss_plot.grab()
        ws.metrics.acc_plot.grab()
        repaints.append(time.perf_counter() - t)
    print(f"one repaint of the loss and accuracy plots: median {1000 * np.median(repaints):.1f} ms")
    if args.ghosts:
        print(
            f"ghost curves overlaid: {len(ws.metrics.ghosts)} runs of "
            f"{len(ws.metrics.ghosts[0].curves['step']):,} points"
        )
    print("redraws per second while training: " + ", ".join(f"{k} {v / seconds:.1f}" for k, v in draws.items()))
    print("gaps over 30 ms, by the view drawn just before: " + (str(long_gaps) if long_gaps else "none"))
    if map_times:
        mt = np.array(map_times) * 1000.0
        print(f"per-neuron maps + dead units, GUI thread: median {np.median(mt):.1f} ms, max {mt.max():.1f} ms")
    from autograd_core.learn.inspection import loss_slice, parameter_index
    from autograd_core.learn.training import Trainer

    trainer = Trainer(c)
    model, data = trainer.model, trainer.data
    index = parameter_index(model, 1, 0, 0) if len(model.layers) > 1 else 0
    times = []
    for _ in range(5):
        t = time.perf_counter()
        loss_slice(model, data.X_train, data.y_train, index, c.loss, c.lr, c.l1, c.l2)
        times.append(time.perf_counter() - t)
    print(
        f"one loss slice ({len(data.y_train)} training points, full-batch scalar backward; runs in the training "
        f"process): median {1000 * np.median(times):.0f} ms"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
