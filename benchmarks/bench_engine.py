"""Engine speed against micrograd (PyPI), on micrograd's own demo recipe.

Recipe (karpathy/micrograd demo.ipynb): make_moons(100, noise=0.1), labels ±1,
MLP(2, [16, 16, 1]), loss = mean relu(1 − y·score) + 1e-4·Σp², full batch,
SGD with lr = 1 − 0.9·k/100.  One step = build the loss graph, zero_grad,
backward, update.  Two workloads for this engine:

- per-op: micrograd's own unfused graph (65,818 nodes a step), built op by op
  with ``Tensor`` exactly as micrograd's ``nn.py`` builds it with ``Value``
  (one ``*`` and one ``+`` per weight, Python's ``sum``): the path of the
  expression tab and the long-form sample graph;
- fused: the app's training path (``autograd_core.learn.nn.MLP`` with one
  Σwx+b node per neuron, ``Tensor.sum`` for the loss).

Each engine runs in its own fresh process (so one engine's garbage is never
collected on the other's clock) that makes the data with scikit-learn as the
demo notebook does, with the garbage collector as shipped; this
engine also after ``gc.freeze()`` at start-up (what the app's training
process and GUI do once started: autograd_core/live/service.py, gui/shell/app.py), and
micrograd also with the collector off (its best case).
Times are CPU seconds per step (the best of ``--steps``, after one warm-up),
so other load on a busy machine does not count.  Also printed: bytes per node
(tracemalloc) and forward/backward nodes per second.

    python benchmarks/bench_engine.py [--steps 5]
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import statistics
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

# ------------------------------------------------------------------ the workloads


def moons():
    from sklearn.datasets import make_moons

    X, y = make_moons(n_samples=100, noise=0.1, random_state=1337)
    return X.tolist(), (y * 2 - 1).tolist()


class MicrogradShapedNeuron:
    """micrograd's ``nn.Neuron``, line for line, over any scalar class (``Value`` or ``Tensor``)."""

    def __init__(self, scalar, nin, nonlin=True):
        self.w = [scalar(random.uniform(-1, 1)) for _ in range(nin)]
        self.b = scalar(0)
        self.nonlin = nonlin

    def __call__(self, x):
        act = sum((wi * xi for wi, xi in zip(self.w, x)), self.b)
        return act.relu() if self.nonlin else act

    def parameters(self):
        return [*self.w, self.b]


class MicrogradShapedMLP:
    """micrograd's ``nn.MLP`` (and ``Layer``) over any scalar class."""

    def __init__(self, scalar, nin, nouts):
        sz = [nin, *nouts]
        self.layers = [
            [MicrogradShapedNeuron(scalar, sz[i], nonlin=i != len(nouts) - 1) for _ in range(sz[i + 1])]
            for i in range(len(nouts))
        ]

    def __call__(self, x):
        for layer in self.layers:
            out = [n(x) for n in layer]
            x = out[0] if len(out) == 1 else out
        return x

    def parameters(self):
        return [p for layer in self.layers for n in layer for p in n.parameters()]

    def zero_grad(self):
        for p in self.parameters():
            p.grad = 0


def micrograd_loss(scalar, model, X, y):
    """The demo's loss exactly as micrograd's notebook writes it (``scalar`` is Value or Tensor)."""
    inputs = [list(map(scalar, xrow)) for xrow in X]
    scores = list(map(model, inputs))
    losses = [(1 + -yi * si).relu() for yi, si in zip(y, scores)]
    data_loss = sum(losses) * (1.0 / len(losses))
    reg_loss = 1e-4 * sum(p * p for p in model.parameters())
    return data_loss + reg_loss


def fused_loss(model, X, y):
    """The demo's loss on this engine's training path (fused neurons, n-ary sums)."""
    from autograd_core import Tensor

    scores = [model([Tensor(a), Tensor(b)]) for a, b in X]
    hinge = Tensor.sum((1.0 - yi * s).relu() for yi, s in zip(y, scores)) * (1.0 / len(X))
    reg = Tensor.sum(p * p for p in model.parameters()) * 1e-4
    return hinge + reg


def workload(name: str):
    """(model, loss_fn, count_nodes) of one engine's workload."""
    random.seed(1337)
    if name == "micrograd":
        from micrograd.engine import Value
        from micrograd.nn import MLP as MgMLP

        model = MgMLP(2, [16, 16, 1])
        return model, lambda X, y: micrograd_loss(Value, model, X, y), count_micrograd_nodes
    from autograd_core import Tensor, topological_order
    from autograd_core.learn.nn import MLP

    def count(root):
        return len(topological_order(root))

    if name == "per-op":
        model = MicrogradShapedMLP(Tensor, 2, [16, 16, 1])
        return model, lambda X, y: micrograd_loss(Tensor, model, X, y), count
    model = MLP(2, [16, 16, 1], seed=1337)
    return model, lambda X, y: fused_loss(model, X, y), count


def count_micrograd_nodes(root) -> int:
    seen, stack = {root}, [root]
    while stack:
        for child in stack.pop()._prev:
            if child not in seen:
                seen.add(child)
                stack.append(child)
    return len(seen)


def sgd_step(model, loss_fn, X, y, k, total=100):
    loss = loss_fn(X, y)
    model.zero_grad()
    loss.backward()
    lr = 1.0 - 0.9 * k / total
    for p in model.parameters():
        p.data -= lr * p.grad
    return loss


# ------------------------------------------------------------------ one engine, one process


def child(name: str, gc_mode: str, steps: int) -> dict:
    """Time ``steps`` SGD steps of one workload in this (fresh) process."""
    X, y = moons()
    model, loss_fn, count = workload(name)
    if gc_mode == "freeze":
        gc.collect()
        gc.freeze()
    elif gc_mode == "off":
        gc.disable()
    sgd_step(model, loss_fn, X, y, 0)  # warm-up
    times = []
    for k in range(1, steps + 1):
        t0 = time.process_time()
        sgd_step(model, loss_fn, X, y, k)
        times.append(time.process_time() - t0)
    gc.enable()
    gc.collect()
    result = {"times": times}
    loss = loss_fn(X, y)
    result["nodes"] = count(loss)
    if name != "micrograd":
        t0 = time.process_time()
        loss.backward()
        result["backward"] = time.process_time() - t0
        del loss
        gc.collect()
        t0 = time.process_time()
        loss = loss_fn(X, y)
        result["forward"] = time.process_time() - t0
    del loss
    gc.collect()
    tracemalloc.start()
    graph = loss_fn(X, y)  # kept alive while its memory is read
    current, _ = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    result["bytes_per_node"] = current / count(graph)
    return result


def run_child(name: str, gc_mode: str, steps: int) -> dict:
    out = subprocess.run(
        [sys.executable, __file__, "--child", name, gc_mode, str(steps)],
        check=True,
        capture_output=True,
        text=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


# ------------------------------------------------------------------ report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=5, help="timed steps per engine and mode (best is reported)")
    parser.add_argument("--child", nargs=3, metavar=("WORKLOAD", "GC", "STEPS"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        name, gc_mode, steps = args.child
        print(json.dumps(child(name, gc_mode, int(steps))))
        return
    try:
        import micrograd  # noqa: F401
    except ImportError:  # pragma: no cover - benchmark dependency
        sys.exit("micrograd is not installed: pip install -r requirements-dev.txt")

    runs = [
        ("micrograd", "on"),
        ("micrograd", "off"),
        ("per-op", "on"),
        ("per-op", "freeze"),
        ("fused", "on"),
        ("fused", "freeze"),
    ]
    results = {run: run_child(*run, args.steps) for run in runs}
    mg = min(results["micrograd", "on"]["times"])
    mg_off = min(results["micrograd", "off"]["times"])

    print("micrograd demo recipe: make_moons(100, noise=0.1), MLP(2,[16,16,1]), hinge + 1e-4 L2, SGD")
    print(f"each engine in a fresh process; CPU seconds per step, best of {args.steps} (median in brackets)")
    print(f"{'':34}{'s/step':>16}{'nodes':>9}{'B/node':>8}{'vs micrograd':>14}{'(gc off)':>10}")
    labels = {
        ("micrograd", "on"): "micrograd (gc as shipped)",
        ("micrograd", "off"): "micrograd (gc off)",
        ("per-op", "on"): "per-op, unfused graph",
        ("per-op", "freeze"): "per-op, after gc.freeze()",
        ("fused", "on"): "fused model step",
        ("fused", "freeze"): "fused model step, gc.freeze()",
    }
    for run in runs:
        r = results[run]
        best, median = min(r["times"]), statistics.median(r["times"])
        ratio = f"{mg / best:13.1f}x" if run[0] != "micrograd" else f"{'':14}"
        ratio_off = f"{mg_off / best:9.1f}x" if run[0] != "micrograd" else ""
        print(f"{labels[run]:34}{best:8.4f} ({median:.4f}){r['nodes']:9d}{r['bytes_per_node']:8.0f}{ratio}{ratio_off}")
    for name in ("per-op", "fused"):
        r = results[name, "on"]
        print(
            f"{name}: forward {r['nodes'] / r['forward']:,.0f} nodes/s, "
            f"backward {r['nodes'] / r['backward']:,.0f} nodes/s"
        )


if __name__ == "__main__":
    main()
