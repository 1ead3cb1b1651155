"""How long does a big expression keep the window busy?

Types a ~2,000-node expression into the real Expression panel and measures, with
a 5 ms heartbeat timer, the longest stretch the GUI thread could not answer
(the target: under 100 ms), the total time until every item is drawn (a graph
that big opens as its overview groups), a full repaint at "fit" zoom and
zoomed in, and a values-only update (a slider drag); then the same with every
group opened.

Run:  QT_QPA_PLATFORM=offscreen python benchmarks/bench_graph_view.py [--nodes 2000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PySide6.QtCore import QElapsedTimer, QTimer
from PySide6.QtWidgets import QApplication


def big_expression(nodes: int) -> str:
    """A neuron-like text: h_i = tanh(w_i*x_i + b_i), summed; about ``nodes`` graph nodes."""
    terms = max(1, nodes // 6)
    lines = [f"h{i} = tanh(w{i}*x{i % 7} + b{i})" for i in range(terms)]
    lines.append("y = " + " + ".join(f"h{i}" for i in range(terms)))
    return "\n".join(lines)


class Heartbeat:
    """Records the largest gap between 5 ms ticks: how long the event loop was blocked."""

    def __init__(self):
        self.timer = QTimer()
        self.timer.setInterval(5)
        self.timer.timeout.connect(self.tick)
        self.clock = QElapsedTimer()
        self.last = 0
        self.worst = 0

    def start(self):
        self.clock.start()
        self.last = 0
        self.worst = 0
        self.timer.start()

    def tick(self):
        now = self.clock.elapsed()
        self.worst = max(self.worst, now - self.last)
        self.last = now

    def stop(self) -> int:
        self.tick()
        self.timer.stop()
        return self.worst


def wait(app, condition, timeout_s=60.0):
    end = time.perf_counter() + timeout_s
    while not condition() and time.perf_counter() < end:
        app.processEvents()
        time.sleep(0.001)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    app = QApplication.instance() or QApplication([])
    from gui.expression_panel import ExpressionPanel

    panel = ExpressionPanel()
    panel.resize(1400, 850)
    panel.show()
    app.processEvents()
    text = big_expression(args.nodes)
    blocked, totals, repaint_fit, repaint_zoom, update = [], [], [], [], []
    beat = Heartbeat()
    for r in range(args.repeat):
        panel.state.load("y = a", {"a": 1.0})
        wait(app, lambda: not panel.view.busy)
        beat.start()
        start = time.perf_counter()

        # pasting the text and evaluating it are two events, as in the app (Ctrl+Enter, or the typing pause)
        def paste():
            panel.editor.set_text(text)
            QTimer.singleShot(0, lambda: panel.evaluate(text))

        QTimer.singleShot(0, paste)
        wait(app, lambda: panel.state.text == text and not panel.view.busy and panel.view.nodes)
        totals.append(time.perf_counter() - start)
        blocked.append(beat.stop())
        n = len(panel.view.nodes)
        t = time.perf_counter()
        panel.view.viewport().grab()
        repaint_fit.append(time.perf_counter() - t)
        panel.view.resetTransform()
        t = time.perf_counter()
        panel.view.viewport().grab()
        repaint_zoom.append(time.perf_counter() - t)
        panel.view.fit()
        t = time.perf_counter()
        panel.state.set_value("x0", 0.25 + r)  # a slider move: numbers change, layout stays
        app.processEvents()
        update.append(time.perf_counter() - t)

    def ms(xs):
        return f"median {statistics.median(xs) * 1000:7.1f} ms   max {max(xs) * 1000:7.1f} ms"

    print(f"graph: {n} nodes, {len(panel.view.edges)} edges; {args.repeat} runs; offscreen, {os.cpu_count()} cores")
    print(
        f"longest GUI-thread block while typing it in : median {statistics.median(blocked):5.0f} ms   "
        f"max {max(blocked):5.0f} ms   (target < 100 ms)"
    )
    print(f"typed -> every node drawn                   : {ms(totals)}")
    print(f"full repaint, fitted (text skipped)         : {ms(repaint_fit)}")
    print(f"full repaint, 1:1 zoom (visible part)       : {ms(repaint_zoom)}")
    print(f"value change (recompute + redraw numbers)   : {ms(update)}")
    # the same with every group opened: all ~2,000 boxes drawn
    beat.start()
    start = time.perf_counter()
    panel.view.expand_all()
    wait(app, lambda: not panel.view.busy)
    app.processEvents()
    opened, opened_block = time.perf_counter() - start, beat.stop()
    expanded_update = []
    for r in range(args.repeat):
        t = time.perf_counter()
        panel.state.set_value("x0", 0.5 + r)
        app.processEvents()
        expanded_update.append(time.perf_counter() - t)
    t = time.perf_counter()
    panel.view.viewport().grab()
    expanded_paint = time.perf_counter() - t
    print(
        f"all groups opened ({len(panel.view.nodes)} boxes): {opened * 1000:.0f} ms, longest block {opened_block} ms; "
        f"fitted repaint {expanded_paint * 1000:.0f} ms"
    )
    print(f"value change, all boxes drawn               : {ms(expanded_update)}")
    # with gradients shown every box's colour can change with a slider move
    panel.state.backward()
    app.processEvents()
    grads_update = []
    for r in range(args.repeat):
        t = time.perf_counter()
        panel.state.set_value("x0", 0.75 + r)
        app.processEvents()
        grads_update.append(time.perf_counter() - t)
    print(f"value change after Backward, all boxes      : {ms(grads_update)}")
    panel.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
