"""Does a backward step cost the same at step 1 and at step 1,500?

Builds a ~2,000-node expression in the real Expression panel (graph view and
ledger included), steps backward through it and prints the time of one Step
(state + graph view + ledger) at several positions, and one Back, in wall time
and in CPU time of the GUI thread (``time.thread_time``: what the code costs,
whatever the load of a shared machine).

Run:  QT_QPA_PLATFORM=offscreen python benchmarks/bench_graph_stepping.py
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PySide6.QtWidgets import QApplication

from benchmarks.bench_graph_view import big_expression, wait


def main() -> int:
    app = QApplication.instance() or QApplication([])
    from gui.expression.expression_panel import ExpressionPanel

    panel = ExpressionPanel()
    panel.resize(1400, 850)
    panel.show()
    panel.state.load(big_expression(2000))
    wait(app, lambda: not panel.view.busy and panel.view.nodes)
    wait(app, lambda: panel.inputs.complete)  # the input rows beyond the first few come after the graph
    state = panel.state
    state.step()
    app.processEvents()
    total = len(state.steps)
    marks = [1, 10, 100, 500, 1000, 1500, min(1900, total - 2)]
    times: dict[int, list[tuple[float, float]]] = {m: [] for m in marks}
    while state.position < marks[-1] + 1:
        k = state.position
        t, c = time.perf_counter(), time.thread_time()
        state.step()
        app.processEvents()
        elapsed = (time.perf_counter() - t, time.thread_time() - c)
        for m in marks:
            if m <= k < m + 5:
                times[m].append(elapsed)
    t, c = time.perf_counter(), time.thread_time()
    state.back()
    app.processEvents()
    back = (time.perf_counter() - t, time.thread_time() - c)
    print(
        f"{len(panel.view.nodes)} boxes ({state.graph.number_of_nodes()} nodes), {total} steps; one Step "
        f"(state, graph view, ledger), median of 5; load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}:"
    )
    for m in marks:
        wall = statistics.median(w for w, _ in times[m]) * 1000
        cpu = statistics.median(c for _, c in times[m]) * 1000
        print(f"  at step {m:5d}: wall {wall:6.2f} ms   GUI-thread CPU {cpu:6.2f} ms")
    print(
        f"  one Back at step {state.position + 1}: wall {back[0] * 1000:.2f} ms, CPU {back[1] * 1000:.2f} ms; "
        f"ledger lines {panel.backward.ledger.count()}"
    )
    panel.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
