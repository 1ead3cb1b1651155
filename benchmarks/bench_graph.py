"""Time text → graph → layout for a 2,000-node expression (target: under 0.5 s in total).

Run: /work/venv/bin/python benchmarks/bench_graph.py
Two shapes: one long line (a neuron with 500 inputs, wide and shallow) and
many short assignment lines (a deep chain of small neurons).
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from autograd_core.drawing.graph import layout, to_networkx
from autograd_core.language.expression import compile_expression
from autograd_core.language.trace import backward_steps


def wide_text(terms: int = 500) -> str:
    """tanh(w0*x0 + … + w499*x499): 1,000 leaves + 500 products + 499 sums + tanh = 2,000 nodes."""
    return "tanh(" + " + ".join(f"w{i}*x{i}" for i in range(terms)) + ")"


def deep_text(lines: int = 400) -> str:
    """h1 = tanh(w1*h0 + b1) … : each line adds 5 nodes (w, b, *, +, tanh): 2,001 nodes."""
    out = ["h0 = x"]
    out += [f"h{i} = tanh(w{i}*h{i - 1} + b{i})" for i in range(1, lines + 1)]
    return "\n".join(out)


def run(text: str, repeats: int = 5) -> None:
    phases = {"compile": [], "evaluate": [], "to_networkx": [], "layout": [], "total": [], "backward_steps": []}
    nodes = 0
    for _ in range(repeats):
        t0 = time.perf_counter()
        program = compile_expression(text)
        t1 = time.perf_counter()
        ev = program.evaluate({name: 0.5 for name in program.inputs})
        t2 = time.perf_counter()
        graph = to_networkx(ev.output)
        t3 = time.perf_counter()
        layout(graph)
        t4 = time.perf_counter()
        backward_steps(ev.output)
        t5 = time.perf_counter()
        nodes = graph.number_of_nodes()
        for key, value in zip(phases, (t1 - t0, t2 - t1, t3 - t2, t4 - t3, t4 - t0, t5 - t4)):
            phases[key].append(value)
    parts = ", ".join(f"{k} {statistics.median(v) * 1000:.0f} ms" for k, v in phases.items() if k != "total")
    total = statistics.median(phases["total"])
    verdict = "OK" if total < 0.5 else "SLOW"
    print(f"  {nodes:,} nodes, {len(text):,} chars: compile+evaluate+graph+layout {total * 1000:.0f} ms [{verdict}]")
    print(f"    ({parts}; median of {repeats})")


if __name__ == "__main__":
    print("bench_graph: text → Tensor graph → networkx → layered layout (target < 500 ms)")
    print("wide (one line):")
    run(wide_text())
    print("deep (assignments):")
    run(deep_text())
