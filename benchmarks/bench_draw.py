"""Time and size of a graph's SVG picture (``autograd_core.draw``, a notebook cell's ``_repr_svg_``).

Run: .venv/bin/python benchmarks/bench_draw.py
Graphs of 10 nodes, 300 (the most drawn box by box), 2,000 (the wide and the deep expression of bench_graph.py) and
the article's whole training loss (its MLP 2-16-16-1 on 100 moons points: 65,740 nodes; on its 200: 131,140).
A notebook shows a cell's result within 5 s and under 300 kB; the big ones are folded into an overview
(``autograd_core.drawing.folding``).
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from autograd_core import Tensor, draw

TARGET_SECONDS, TARGET_BYTES = 5.0, 300_000


def ten_nodes() -> Tensor:
    """L = (a*b + c) * f with the article's names, after backward: 10 nodes (with the constant and relu)."""
    a, b, c, f = Tensor(2.0, label="a"), Tensor(-3.0, label="b"), Tensor(10.0, label="c"), Tensor(-2.0, label="f")
    e = a * b
    e.label = "e"
    d = e + c
    d.label = "d"
    g = d * f
    g.label = "g"
    out = (g * -0.5).relu()
    out.label = "L"
    out.backward()
    return out


class Neuron:
    """The article's neuron (its repository's notebook), on the library's Tensor."""

    def __init__(self, nin, nonlin=True, activation=None):
        self.w = [Tensor(random.uniform(-1, 1), label=f"w{i}") for i in range(nin)]
        self.b = Tensor(0)
        self.nonlin, self.activation = nonlin, activation

    def __call__(self, x):
        n = sum((wi * xi for wi, xi in zip(self.w, x)), self.b)
        if self.activation == "sigmoid":
            return n.sigmoid()
        return n.relu() if self.nonlin else n


def article_loss(points: int = 100) -> Tensor:
    """The article's training loss (binary cross-entropy of its MLP 2-16-16-1, seed 0) on ``points`` moons
    points, after backward: the graph its training loop builds every epoch."""
    from sklearn.datasets import make_moons

    random.seed(0)
    layers = [[Neuron(2) for _ in range(16)], [Neuron(16) for _ in range(16)], [Neuron(16, False, "sigmoid")]]
    X, y = make_moons(n_samples=points, noise=0.2, random_state=42)
    predictions = []
    for x in X:
        h = [Tensor(x[0]), Tensor(x[1])]
        for layer in layers:
            h = [neuron(h) for neuron in layer]
        predictions.append(h[0])
    loss = sum(-(Tensor(float(t)) * p.log() + Tensor(1.0 - float(t)) * (1.0 - p).log()) for p, t in zip(predictions, y))
    loss = loss * (1.0 / len(y))
    loss.backward()
    return loss


def expression(shape: str, nodes: int = 2000) -> Tensor:
    """bench_graph.py's 2,000-node expressions: one wide neuron of 500 inputs, or 400 small neurons in a chain
    (``nodes`` scales them)."""
    from autograd_core.language.expression import compile_expression

    if shape == "wide":
        text = "tanh(" + " + ".join(f"w{i}*x{i}" for i in range(nodes // 4)) + ")"
    else:
        text = "\n".join(["h0 = x", *(f"h{i} = tanh(w{i}*h{i - 1} + b{i})" for i in range(1, nodes // 5 + 1))])
    program = compile_expression(text)
    out = program.evaluate({name: 0.5 for name in program.inputs}).output
    out.backward()
    return out


def measure(name: str, root: Tensor, repeats: int) -> None:
    for how in ("draw", "_repr_svg_"):
        times, size, picture = [], 0, None
        for _ in range(repeats):
            t0 = time.perf_counter()
            if how == "draw":
                picture = draw(root)
                size = len(picture.svg.encode())
            else:
                size = len(root._repr_svg_().encode())
            times.append(time.perf_counter() - t0)
        best = min(times)
        ok = "OK" if best < TARGET_SECONDS and size < TARGET_BYTES else "TOO SLOW OR TOO BIG"
        boxes = f", {picture.boxes} boxes{' (folded)' if picture.folded else ''}" if picture is not None else ""
        print(
            f"  {name}: {how} {best * 1000:,.0f} ms (median {statistics.median(times) * 1000:,.0f} ms of {repeats}), "
            f"{size / 1000:,.1f} kB{boxes} [{ok}]"
        )


def main() -> None:
    print(f"bench_draw: time and SVG size of a graph's picture (target < {TARGET_SECONDS:g} s, < 300 kB)")
    for name, build, repeats in (
        ("10 nodes", ten_nodes, 5),
        ("300 nodes (wide expression: the most drawn whole)", lambda: expression("wide", 300), 3),
        ("2,000 nodes (wide expression)", lambda: expression("wide"), 3),
        ("2,001 nodes (deep expression)", lambda: expression("deep"), 3),
        ("article's training loss, 100 points", lambda: article_loss(100), 3),
        ("article's training loss, 200 points (the notebook's last cell)", lambda: article_loss(200), 1),
    ):
        root = build()
        from autograd_core.engine.tensor import topological_order

        print(f"{name}: {len(topological_order(root)):,} nodes")
        measure(name, root, repeats)


if __name__ == "__main__":
    main()
