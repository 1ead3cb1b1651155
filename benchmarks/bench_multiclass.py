"""Multi-class figures: the K-class region map per frame, training steps/s per K, a 100,000-row CSV import.

    python benchmarks/bench_multiclass.py            # all three (~30–60 s)
    QT_QPA_PLATFORM=offscreen python benchmarks/bench_multiclass.py --gui   # also the window's longest stall
                                                                            # while the import dialog reads

- Region map: ``autograd_core.learn.regions.class_regions`` (vectorised forward of a
  2-16-16-K network on a 200×200 grid, softmax, arg-max, confidence, every
  class boundary by marching squares) plus ``region_image`` (the RGBA picture);
  median of 15 frames.  Target ≤ 20 ms.
- Steps/s: the default config (16-16 ReLU, Adam, batches of 32) on blobs with
  K classes, 60 steps after 5 warm-up steps.
- Import: write a 100,000-row CSV (two numbers and a text label), then
  ``read_table`` + ``table_dataset``.  Target ≤ 2 s.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from autograd_core.learn.nn import MLP
from autograd_core.learn.regions import class_regions, grid_points, region_image
from autograd_core.learn.tabular import read_table, table_dataset
from autograd_core.learn.training import Trainer, TrainingConfig

PALETTE = [(21, 101, 192), (239, 108, 0), (46, 125, 50), (194, 24, 91), (106, 27, 154), (0, 131, 143)]


def region_frames(resolution: int = 200, frames: int = 15) -> None:
    print(f"region map, 2-16-16-K network, {resolution}×{resolution} grid (median of {frames} frames):")
    for k in range(2, 7):
        model = MLP(2, [16, 16, 1 if k == 2 else k], seed=k)
        times, forward = [], []
        points = grid_points((-2.0, 2.0, -2.0, 2.0), resolution)
        for _ in range(frames):
            t0 = time.perf_counter()
            grid = class_regions(model, (-2.0, 2.0, -2.0, 2.0), resolution)
            region_image(grid, PALETTE)
            t1 = time.perf_counter()
            model.forward_array(points)
            times.append(t1 - t0)
            forward.append(time.perf_counter() - t1)
        print(
            f"  K = {k}: {1000 * statistics.median(times):6.1f} ms  (best {1000 * min(times):.1f} ms), "
            f"of which the forward pass {1000 * statistics.median(forward):.1f} ms"
        )


def steps_per_second(steps: int = 60) -> None:
    print("training steps/s, blobs, 2-16-16-K ReLU, Adam, batch 32:")
    for k in range(2, 7):
        trainer = Trainer(TrainingConfig(dataset="blobs", classes=k, samples=300, steps=steps + 10))
        trainer.run(5)
        t0 = time.perf_counter()
        trainer.run(steps)
        print(f"  K = {k}: {steps / (time.perf_counter() - t0):6.1f} steps/s")


def import_table(rows: int = 100_000) -> str:
    rng = np.random.default_rng(0)
    X = rng.normal(size=(rows, 2))
    labels = np.array(["setosa", "versicolor", "virginica"])[rng.integers(0, 3, rows)]
    path = Path(tempfile.mkdtemp()) / "big.csv"
    with open(path, "w") as f:
        f.write("length,width,species\n")
        f.writelines(f"{a},{b},{c}\n" for (a, b), c in zip(X.tolist(), labels.tolist()))
    t0 = time.perf_counter()
    table = read_table(path)
    t1 = time.perf_counter()
    data = table_dataset(table, ["length", "width"], "species")
    t2 = time.perf_counter()
    size = path.stat().st_size / 2**20
    print(
        f"import {rows:,} rows ({size:.1f} MiB): read + split {t1 - t0:.2f} s, columns → data set {t2 - t1:.2f} s, "
        f"total {t2 - t0:.2f} s ({len(data.y_train):,} train / {len(data.y_test):,} test, "
        f"{len(data.class_names)} classes)"
    )
    return str(path)


def gui_stall(path: str) -> None:
    """The import dialog reads in a thread: the longest gap between 5 ms timer ticks while it does."""
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    from gui.training.import_dialog import ImportDialog

    app = QApplication.instance() or QApplication([])
    ticks = []
    timer = QTimer()
    timer.setInterval(5)
    timer.timeout.connect(lambda: ticks.append(time.perf_counter()))
    timer.start()
    t0 = time.perf_counter()
    dialog = ImportDialog(path)
    dialog.show()
    while dialog.reading:
        app.processEvents()
    read = time.perf_counter() - t0
    timer.stop()
    gaps = np.diff(ticks) if len(ticks) > 1 else np.array([0.0])
    print(
        f"import dialog: {read:.2f} s until the preview shows; longest event-loop stall {1000 * gaps.max():.0f} ms, "
        f"median tick gap {1000 * np.median(gaps):.1f} ms ({len(ticks)} ticks)"
    )
    dialog.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--gui", action="store_true", help="also measure the window's stalls while importing")
    args = parser.parse_args()
    region_frames()
    steps_per_second()
    path = import_table()
    if args.gui:
        gui_stall(path)


if __name__ == "__main__":
    main()
