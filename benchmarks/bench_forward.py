"""The vectorised numpy forward pass: a 200×200 decision-boundary grid, and its agreement with the scalar forward.

Target: under 20 ms per grid for MLP(2, [16, 16, 1]); agreement to 1e-12.

    python benchmarks/bench_forward.py [--repeats 50]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from autograd_core.learn.nn import MLP


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=50)
    parser.add_argument("--grid", type=int, default=200)
    args = parser.parse_args()

    xs = np.linspace(-2.0, 3.0, args.grid)
    gx, gy = np.meshgrid(xs, xs)
    grid = np.column_stack([gx.ravel(), gy.ravel()])
    print(f"grid {args.grid}×{args.grid} = {len(grid):,} points, median of {args.repeats} runs")
    print(f"{'model':28}{'grid ms':>10}{'+hidden ms':>12}{'max |numpy − scalar|':>24}")
    for layers, activation in (([16, 16, 1], "relu"), ([16, 16, 1], "tanh"), ([32, 32, 32, 1], "relu")):
        model = MLP(2, layers, activation=activation, seed=0)
        times, hidden_times = [], []
        for _ in range(args.repeats):
            t0 = time.perf_counter()
            model.forward_array(grid)  # weights read from the Tensors each call, as the app does
            times.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            model.forward_array(grid, return_hidden=True)
            hidden_times.append(time.perf_counter() - t0)
        sample = grid[:: len(grid) // 400]
        fast = model.forward_array(sample)
        slow = np.array([model(list(row)).data for row in sample])
        error = float(np.max(np.abs(fast - slow)))
        name = f"MLP(2, {layers}) {activation}"
        print(
            f"{name:28}{statistics.median(times) * 1e3:10.2f}{statistics.median(hidden_times) * 1e3:12.2f}{error:24.1e}"
        )


if __name__ == "__main__":
    main()
