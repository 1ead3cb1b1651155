"""What the expression tab's maths costs: derivative graphs, forward stepping, the symbolic derivative.

For the 33-node example (micrograd's "more ops" test) and a ~300-node
expression, in the real Expression panel (graph view, ledger, maths panel):

* derivative graph (1st and 2nd order): building it with create_graph and
  its snapshot (the state), then until the graph view has laid it out and
  drawn every box (layout runs in a worker thread);
* forward mode: one Step (state, graph view, ledger, mode panel), median over
  the steps; a reverse-mode Step beside it for comparison;
* the symbolic derivative of the whole expression (built from the op table's
  rules and written as rich text) and one refresh of the maths panel.

Run:  QT_QPA_PLATFORM=offscreen python benchmarks/bench_expression_maths.py
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from benchmarks.bench_graph_view import big_expression, wait


def ms(seconds: float) -> str:
    return f"{seconds * 1000:8.2f} ms"


def measure(app, panel, name: str, text: str, values: dict | None, x: str) -> None:
    from autograd_core.language.symbolic import derivative_of, node_count, to_html

    state = panel.state
    state.set_derivative(None)
    state.set_direction("reverse")
    state.load(text, values)
    wait(app, lambda: not panel.view.busy and panel.view.nodes)
    print(f"{name}: {len(state.tensors)} nodes, {len(state.inputs)} inputs; derivative with respect to {x}")
    print(f"  cost counter: {state.cost_text()}")
    for order in (1, 2):
        t = time.perf_counter()
        state.set_derivative(x, order)
        built = time.perf_counter() - t
        wait(app, lambda: not panel.view.busy and panel.view.nodes)
        shown = time.perf_counter() - t
        print(
            f"  derivative graph, order {order}: {len(state.tensors):5d} nodes; built + snapshot + panels {ms(built)}, "
            f"drawn {ms(shown)}"
        )
    state.set_derivative(None)
    wait(app, lambda: not panel.view.busy and panel.view.nodes)
    # forward stepping, then reverse stepping, through at most 300 steps each
    for direction in ("forward", "reverse"):
        state.set_direction(direction)
        state.zero_grad()
        app.processEvents()
        times = []
        for _ in range(min(300, len(state.tensors))):
            t = time.perf_counter()
            if not state.step():
                break
            app.processEvents()
            times.append(time.perf_counter() - t)
        print(
            f"  {direction:7s} Step (state, graph view, ledger, panels): median {ms(statistics.median(times))}, "
            f"max {ms(max(times))} over {len(times)} steps"
        )
    state.set_direction("reverse")
    evaluation = state.evaluation
    t = time.perf_counter()
    _, d = derivative_of(evaluation.output, evaluation.inputs[x])
    built = time.perf_counter() - t
    t = time.perf_counter()
    html = to_html(d)
    written = time.perf_counter() - t
    print(
        f"  symbolic derivative: {node_count(d)} formula nodes, built {ms(built)}, rich text ({len(html)} chars) "
        f"{ms(written)}"
    )
    state.select(0)
    panel.maths._cache.clear()  # measure a refresh that writes everything again (a new value does that)
    panel.maths._html = ""
    t = time.perf_counter()
    panel.maths.refresh()
    print(f"  maths panel refresh (selected node's path + symbolic derivative): {ms(time.perf_counter() - t)}")


def main() -> int:
    app = QApplication.instance() or QApplication([])
    from gui.expression.expression_panel import ExpressionPanel, load_examples

    panel = ExpressionPanel()
    panel.resize(1400, 850)
    # At some sizes the graph view's scroll bars appear and vanish in turn after a Step (fit → scroll bar →
    # resize → fit …, on main too): without scroll bars the measurement cannot get stuck in that loop.
    panel.view.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    panel.view.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    panel.show()
    example = next(e for e in load_examples() if e["name"] == "micrograd test: more ops")
    measure(app, panel, "33-node example", example["text"], example.get("values"), "a")
    measure(app, panel, "~300-node expression", big_expression(300), None, "x0")
    panel.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
