"""Engine speed against micrograd (PyPI), on micrograd's own demo recipe.

Recipe (karpathy/micrograd demo.ipynb): make_moons(100, noise=0.1), labels ±1,
MLP(2, [16, 16, 1]), loss = mean relu(1 − y·score) + 1e-4·Σp², full batch,
SGD with lr = 1 − 0.9·k/100.  Steps of the two engines alternate in one
process, with the garbage collector on (as shipped) and off (micrograd's best
case).  Also prints forward/backward nodes per second and bytes per node.

    python benchmarks/bench_engine.py [--steps 3]
"""

from __future__ import annotations

import argparse
import gc
import random
import sys
import time
import tracemalloc
from pathlib import Path

import numpy as np
from sklearn.datasets import make_moons

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from autograd_core import Tensor, topological_order
from autograd_core.nn import MLP

try:
    from micrograd.engine import Value as MgValue
    from micrograd.nn import MLP as MgMLP
except ImportError:  # pragma: no cover - benchmark dependency
    sys.exit("micrograd is not installed: pip install -r requirements-dev.txt")


def moons():
    X, y = make_moons(n_samples=100, noise=0.1, random_state=1337)
    return X.tolist(), (y * 2 - 1).tolist()


def ours_loss(model, X, y):
    """The demo's loss on this engine (n-ary sums, fused neurons)."""
    scores = [model([Tensor(a), Tensor(b)]) for a, b in X]
    hinge = Tensor.sum((1.0 - yi * s).relu() for yi, s in zip(y, scores)) * (1.0 / len(X))
    reg = Tensor.sum(p * p for p in model.parameters()) * 1e-4
    return hinge + reg


def micrograd_loss(model, X, y):
    """The demo's loss exactly as micrograd's notebook writes it."""
    inputs = [list(map(MgValue, xrow)) for xrow in X]
    scores = list(map(model, inputs))
    losses = [(1 + -yi * si).relu() for yi, si in zip(y, scores)]
    data_loss = sum(losses) * (1.0 / len(losses))
    reg_loss = 1e-4 * sum(p * p for p in model.parameters())
    return data_loss + reg_loss


def sgd_step(model, loss_fn, X, y, k, total=100):
    loss = loss_fn(model, X, y)
    model.zero_grad()
    loss.backward()
    lr = 1.0 - 0.9 * k / total
    for p in model.parameters():
        p.data -= lr * p.grad
    return loss


def count_micrograd_nodes(root) -> int:
    seen, stack = {root}, [root]
    while stack:
        for child in stack.pop()._prev:
            if child not in seen:
                seen.add(child)
                stack.append(child)
    return len(seen)


def timed(fn):
    t0 = time.perf_counter()
    out = fn()
    return time.perf_counter() - t0, out


def bytes_per_node(build, count) -> float:
    gc.collect()
    tracemalloc.start()
    root = build()
    current, _ = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return current / count(root)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=3, help="timed steps per engine and GC mode")
    args = parser.parse_args()
    X, y = moons()
    random.seed(1337)
    np.random.seed(1337)
    ours = MLP(2, [16, 16, 1], seed=1337)
    theirs = MgMLP(2, [16, 16, 1])

    results = {}
    for gc_on in (True, False):
        ours_t, theirs_t = [], []
        for k in range(args.steps):
            if not gc_on:
                gc.disable()
            t, _ = timed(lambda: sgd_step(theirs, micrograd_loss, X, y, k))
            theirs_t.append(t)
            t, _ = timed(lambda: sgd_step(ours, ours_loss, X, y, k))
            ours_t.append(t)
            gc.enable()
            gc.collect()
        results[gc_on] = (min(ours_t), min(theirs_t))

    # Forward and backward throughput of this engine.
    gc.collect()
    t_fwd, loss = timed(lambda: ours_loss(ours, X, y))
    nodes = len(topological_order(loss))
    t_bwd, _ = timed(loss.backward)
    mg_loss = micrograd_loss(theirs, X, y)
    mg_nodes = count_micrograd_nodes(mg_loss)
    del loss, mg_loss

    ours_bytes = bytes_per_node(lambda: ours_loss(ours, X, y), lambda r: len(topological_order(r)))
    theirs_bytes = bytes_per_node(lambda: micrograd_loss(theirs, X, y), count_micrograd_nodes)

    print("micrograd demo recipe: make_moons(100, noise=0.1), MLP(2,[16,16,1]), hinge + 1e-4 L2, SGD")
    print(f"{'':24}{'this engine':>14}{'micrograd':>14}{'ratio':>10}")
    for gc_on, name in ((True, "s/step (gc on)"), (False, "s/step (gc off)")):
        o, t = results[gc_on]
        print(f"{name:24}{o:14.4f}{t:14.4f}{t / o:9.1f}x")
    print(f"{'nodes per step':24}{nodes:14d}{mg_nodes:14d}")
    print(f"{'bytes per node':24}{ours_bytes:14.0f}{theirs_bytes:14.0f}")
    print(f"forward: {nodes / t_fwd:,.0f} nodes/s   backward: {nodes / t_bwd:,.0f} nodes/s")


if __name__ == "__main__":
    main()
