"""Optimizer lab and loss landscape speed.

1. Grid: each preset (and a typed function) evaluated on a 200 × 200 grid by
   ``Program.evaluate_array`` — ms per grid, median of several runs.
2. Race: the lab's tab offscreen with all 8 optimizers racing on Rosenbrock, driven by its own QTimer
   for a few seconds at each speed: frames per second, ms per tick (median, longest), the longest
   event-loop stall measured by a 5 ms probe timer, the CPU time of the longest pass of the event loop
   (tick + paint; on a busy machine the stall is mostly waiting for a core) and the longest CPU time.
3. Landscape: a 41 × 41 grid for MLP 2-16-16-1 on 200 points (the default config, 100 training steps),
   in this process (ms), then through the real training process from the training tab, with the
   longest event-loop stall of the GUI while the child computes it.

    QT_QPA_PLATFORM=offscreen python benchmarks/bench_lab.py [--seconds 3]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from autograd_core.lab.landscape import WeightHistory, loss_landscape
from autograd_core.lab.surfaces import PRESETS, compile_surface, evaluate_grid
from autograd_core.learn.training import Trainer, TrainingConfig


def grids(repeats: int = 7) -> None:
    print("1. f(x, y) on a 200 × 200 grid (Program.evaluate_array), median of", repeats)
    cases = {name: (s.program(), s.box) for name, s in PRESETS.items()}
    cases["typed: sin(x)*cos(y) + 0.1*x**2"] = (compile_surface("sin(x)*cos(y) + 0.1*x**2"), (-5, 5, -5, 5))
    for name, (program, box) in cases.items():
        times = []
        for _ in range(repeats):
            t0 = time.perf_counter()
            evaluate_grid(program, box, 200)
            times.append(1e3 * (time.perf_counter() - t0))
        print(f"   {name:34} {statistics.median(times):7.2f} ms   (longest {max(times):.2f})")


class StallProbe:
    """A 5 ms timer: the longest gap between its ticks is the longest time the event loop was blocked."""

    def __init__(self):
        from PySide6.QtCore import QTimer

        self.timer = QTimer()
        self.timer.setInterval(5)
        self.timer.timeout.connect(self._tick)
        self.last = None
        self.longest = 0.0

    def _tick(self):
        now = time.perf_counter()
        if self.last is not None:
            self.longest = max(self.longest, now - self.last)
        self.last = now

    def start(self):
        self.last, self.longest = None, 0.0
        self.timer.start()

    def stop(self) -> float:
        self.timer.stop()
        return 1e3 * self.longest


def race(seconds: float) -> None:
    from PySide6.QtWidgets import QApplication

    from gui.lab.optimizer_lab import OptimizerLabPanel
    from gui.lab.optimizer_lab_state import SPEEDS

    app = QApplication.instance() or QApplication(sys.argv)
    panel = OptimizerLabPanel()
    panel.resize(1400, 850)
    panel.show()
    app.processEvents()
    print(f"2. The lab tab, 8 optimizers on Rosenbrock from (-1.5, 2.5), {seconds:g} s per speed (QTimer every 30 ms)")
    print(
        f"   {'steps/frame':>11}{'frames/s':>10}{'tick ms':>9}{'longest':>9}"
        f"{'stall ms':>10}{'its CPU ms':>12}{'max CPU ms':>12}{'steps':>7}"
    )
    probe = StallProbe()
    for speed in SPEEDS:
        panel.lab.set_speed(speed)
        panel.lab.start_race(-1.5, 2.5, play=False)
        frames: list[float] = []
        original = panel.lab.tick

        def tick(original=original, frames=frames):
            original()
            frames.append(panel.lab.last_tick_ms)

        panel.lab.timer.timeout.disconnect()
        panel.lab.timer.timeout.connect(tick)
        probe.start()
        panel.lab.play()
        t0 = time.perf_counter()
        calls = []  # (wall, CPU) seconds of each pass of the event loop: a tick, the paint it causes…
        while time.perf_counter() - t0 < seconds and panel.lab.playing:
            wall, cpu = time.perf_counter(), time.thread_time()
            app.processEvents()
            calls.append((time.perf_counter() - wall, time.thread_time() - cpu))
            time.sleep(0.001)
        elapsed = time.perf_counter() - t0
        panel.lab.pause()
        stall = probe.stop()
        panel.lab.timer.timeout.disconnect()
        panel.lab.timer.timeout.connect(panel.lab.tick)
        steps = panel.lab.race.steps
        worst = max(calls)
        print(
            f"   {speed:>11}{len(frames) / elapsed:>10.1f}{statistics.median(frames):>9.2f}{max(frames):>9.2f}"
            f"{stall:>10.1f}{1e3 * worst[1]:>12.1f}{1e3 * max(c for _, c in calls):>12.1f}{steps:>7}"
        )
    panel.close()


def landscape(seconds_budget: float) -> None:
    config = TrainingConfig()  # 2-16-16-1 on 200 moons, 150 of them for training
    config.samples = 267  # so that 200 points are training points (test fraction 25 %)
    trainer = Trainer(config)
    history = WeightHistory()
    history.record(0, trainer.model.state_dict())
    for _ in range(100):
        trainer.step()
        history.record(trainer.step_count, trainer.model.state_dict())
    X, y = trainer.data.X_train, trainer.data.y_train
    print(f"3. Loss landscape, 41 × 41, MLP 2-16-16-1 on {len(X)} training points, 100-step path")
    for mode in ("random", "pca"):
        times = []
        for _ in range(3):
            L = loss_landscape(trainer.model, X, y, config.loss, history=history.array(), mode=mode)
            times.append(L.seconds)
        print(f"   {mode:7} in this process: {1e3 * statistics.median(times):7.1f} ms (median of 3)")

    from PySide6.QtWidgets import QApplication

    from gui.training.training_controller import TrainingController
    from gui.training.training_workspace import TrainingWorkspace

    app = QApplication.instance() or QApplication(sys.argv)
    ws = TrainingWorkspace(TrainingController(config))
    ws.resize(1300, 800)
    ws.show()
    t0 = time.perf_counter()
    while ws.controller.last_snapshot is None and time.perf_counter() - t0 < 30:
        app.processEvents()
        time.sleep(0.005)
    probe = StallProbe()
    for attempt in range(3):
        ws.landscape.current = None
        probe.start()
        t0 = time.perf_counter()
        if attempt == 0:
            ws.curves.setCurrentWidget(ws.landscape)  # showing the tab asks for one
        else:
            ws.landscape.request()
        while ws.landscape.current is None and time.perf_counter() - t0 < seconds_budget:
            app.processEvents()
            time.sleep(0.001)
        wall = time.perf_counter() - t0
        stall = probe.stop()
        L = ws.landscape.current
        inside = f"{1e3 * L.seconds:.0f} ms in the child" if L is not None else "no answer"
        print(f"   via the training process: {1e3 * wall:6.0f} ms request → drawn ({inside}); GUI stall {stall:.1f} ms")
    ws.shutdown()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="seconds of racing per speed")
    args = parser.parse_args()
    grids()
    race(args.seconds)
    landscape(20.0)


if __name__ == "__main__":
    main()
