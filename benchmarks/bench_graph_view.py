"""How long does a big expression keep the window busy, and how fast does a slider redraw it?

Types a ~2,000-node expression into the real Expression panel and measures, with
a 5 ms heartbeat timer, the longest stretch the GUI thread could not answer
(the target: under 100 ms) and the time until every item is drawn (a graph that
big opens as its overview groups; the target: 200 ms); then a full repaint at
"fit" zoom and zoomed in, and a slider move (recompute, then redraw what
changed; the target: 33 ms, 30 frames/s) before and after Backward, on the
overview and with every group opened.

Each time is given as wall time and CPU time: "cpu" is the whole process
(``time.process_time``, the layout's worker thread included), "gui" the GUI
thread alone (``time.thread_time``).  On a shared machine the wall time grows
with the load and the CPU times do not.  As in the app (gui/shell/app.py), the
objects made at start-up are frozen out of the garbage collector's scans.
The first typing builds the input rows, as the first big expression does.

"typed -> drawn and painted" ends at the first repaint of the view after the last box is in the scene (the
boxes on screen).  ``--shape sum`` types a long one-line expression instead (400 terms
``tanh(a*k.5 + b*c_j)``, about 2,000 nodes; each run another first factor, so each is a new text).

Run:  QT_QPA_PLATFORM=offscreen python benchmarks/bench_graph_view.py [--nodes 2000] [--repeat 3] [--shape sum]
"""

from __future__ import annotations

import argparse
import gc
import os
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PySide6.QtCore import QElapsedTimer, QEvent, QObject, QTimer, Signal


def big_expression(nodes: int) -> str:
    """A neuron-like text: h_i = tanh(w_i*x_i + b_i), summed; about ``nodes`` graph nodes."""
    terms = max(1, nodes // 6)
    lines = [f"h{i} = tanh(w{i}*x{i % 7} + b{i})" for i in range(terms)]
    lines.append("y = " + " + ".join(f"h{i}" for i in range(terms)))
    return "\n".join(lines)


def long_sum(nodes: int, run: int = 0) -> str:
    """A long paste: ``tanh(a*k.5 + b*c_j)`` summed, 5 nodes a term; for run > 0 the first factor is 1.5<run>
    (another text of the same shape)."""
    text = " + ".join(f"tanh(a*{k % 7 + 1}.5 + b*c{k % 5})" for k in range(max(1, nodes // 5)))
    return text.replace("a*1.5", f"a*1.5{run}", 1) if run else text


class Paints(QObject):
    """Counts the view's repaints (an event filter on its viewport); ``painted`` once each is done."""

    painted = Signal()

    def __init__(self, widget):
        super().__init__()
        self.count = 0
        widget.installEventFilter(self)

    def eventFilter(self, watched, event) -> bool:
        if event.type() == QEvent.Type.Paint:
            self.count += 1
            QTimer.singleShot(0, self.painted.emit)  # (after the paint itself)
        return False


class Heartbeat:
    """Records the largest gap between 5 ms ticks: how long the event loop was blocked.

    ``worst`` is in wall time; ``worst_cpu`` is the GUI thread's CPU time over the same kind of gap
    (what the code itself costs, whatever the machine's load).
    """

    def __init__(self):
        self.timer = QTimer()
        self.timer.setInterval(5)
        self.timer.timeout.connect(self.tick)
        self.clock = QElapsedTimer()
        self.last = 0
        self.worst = 0
        self.last_cpu = 0.0
        self.worst_cpu = 0.0

    def start(self):
        self.clock.start()
        self.last = 0
        self.worst = 0
        self.last_cpu = time.thread_time()
        self.worst_cpu = 0.0
        self.timer.start()

    def tick(self):
        now, cpu = self.clock.elapsed(), time.thread_time()
        self.worst = max(self.worst, now - self.last)
        self.worst_cpu = max(self.worst_cpu, (cpu - self.last_cpu) * 1000.0)
        self.last, self.last_cpu = now, cpu

    def stop(self) -> int:
        self.tick()
        self.timer.stop()
        return self.worst


def wait(app, condition, timeout_s=60.0, woken_by=()):
    """Run the event loop until ``condition()``: checked when one of the ``woken_by`` signals fires (no polling,
    as the app waits: a loop woken every millisecond takes Python's lock from the worker threads), and every
    20 ms in any case."""
    from PySide6.QtCore import QEventLoop

    if condition():
        return
    loop = QEventLoop()

    def check(*_args):
        if condition():
            loop.quit()

    poll = QTimer()
    poll.setInterval(20)
    poll.timeout.connect(check)
    for signal in woken_by:
        signal.connect(check)
    QTimer.singleShot(int(timeout_s * 1000), loop.quit)
    poll.start()
    loop.exec()
    poll.stop()
    for signal in woken_by:
        signal.disconnect(check)


class Clock:
    """Wall, process CPU and GUI-thread CPU time of one stretch."""

    def __init__(self):
        self.wall, self.cpu, self.gui = time.perf_counter(), time.process_time(), time.thread_time()

    def stop(self) -> tuple[float, float, float]:
        return (
            time.perf_counter() - self.wall,
            time.process_time() - self.cpu,
            time.thread_time() - self.gui,
        )


def report(label: str, runs: list[tuple[float, float, float]]) -> str:
    """median (max) of wall, process CPU and GUI-thread CPU, in ms."""
    parts = []
    for name, i in (("wall", 0), ("cpu", 1), ("gui", 2)):
        xs = [r[i] * 1000 for r in runs]
        parts.append(f"{name} {statistics.median(xs):6.1f} (max {max(xs):6.1f})")
    return f"{label:44s}: " + "   ".join(parts) + " ms"


def slider_moves(app, panel, count: int, start: float) -> list[tuple[float, float, float]]:
    """Move input x0 ``count`` times; each: set the value, then let Qt repaint (one event-loop pass)."""
    runs = []
    for r in range(count):
        clock = Clock()
        panel.state.set_value("x0", start + 0.05 * r)
        app.processEvents()
        runs.append(clock.stop())
    return runs


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--shape", choices=("neurons", "sum"), default="neurons", help="sum: a long one-line sum")
    args = parser.parse_args(argv)
    from gui.expression.expression_panel import ExpressionPanel
    from gui.shell.app import create_app

    app = create_app()  # as the app: its switch interval (gui/shell/app.py)

    panel = ExpressionPanel()
    panel.resize(1400, 850)
    panel.show()
    app.processEvents()
    gc.collect()
    gc.freeze()  # as gui/shell/app.py does once the window is up
    panel.editor._timer.setInterval(1)  # the typing pause, shortened (not counted)
    paints = Paints(panel.view.viewport())
    blocked, blocked_cpu, typed, painted = [], [], [], []
    beat = Heartbeat()
    for run in range(args.repeat):
        text = long_sum(args.nodes, run) if args.shape == "sum" else big_expression(args.nodes)
        panel.state.load("y = a", {"a": 1.0})
        wait(app, lambda: not panel.view.busy)
        app.processEvents()
        beat.start()
        clock = Clock()

        # The real path: the text is pasted into the editor, whose typing pause hands it to the state
        # (compiled in one event-loop turn, the graph built from the next).  The pause itself (250 ms of
        # waiting for more keys) is not counted.
        def paste():
            panel.editor.edit.setPlainText(text)

        QTimer.singleShot(0, paste)
        wait(
            app,
            lambda: panel.state.text == text and not panel.view.busy and panel.view.nodes,
            woken_by=(panel.view.drawn,),
        )
        typed.append(clock.stop())
        seen = paints.count
        # the boxes on screen: the view painted them
        wait(app, lambda: paints.count > seen, timeout_s=5.0, woken_by=(paints.painted,))
        painted.append(clock.stop())
        # a long pasted line is colored once its graph is drawn: that block counts too
        wait(app, lambda: not panel.editor.highlighter.colors_pending)
        app.processEvents()
        blocked.append(beat.stop())
        blocked_cpu.append(beat.worst_cpu)
        wait(app, lambda: panel.inputs.complete)
    n = len(panel.view.nodes)
    repaint_fit, repaint_zoom = [], []
    for _ in range(args.repeat):
        panel.view.fit()
        clock = Clock()
        panel.view.viewport().grab()
        repaint_fit.append(clock.stop())
        panel.view.resetTransform()
        clock = Clock()
        panel.view.viewport().grab()
        repaint_zoom.append(clock.stop())
    panel.view.fit()
    app.processEvents()
    before = slider_moves(app, panel, 3 * args.repeat, 0.25)
    panel.state.backward()
    app.processEvents()
    after = slider_moves(app, panel, 3 * args.repeat, 0.5)
    panel.state.zero_grad()
    app.processEvents()

    base = panel.view.base_graph
    print(
        f"{args.shape}: graph: {base.number_of_nodes()} nodes, {base.number_of_edges()} edges, "
        f"opened as an overview of {n} boxes; "
        f"{args.repeat} runs; offscreen; {os.cpu_count()} cores; load average "
        + " ".join(f"{x:.2f}" for x in os.getloadavg())
    )
    print(
        f"{'longest GUI-thread block while typing it in':44s}: median {statistics.median(blocked):5.0f} ms   "
        f"max {max(blocked):5.0f} ms   (target < 100 ms); its GUI-thread CPU: median "
        f"{statistics.median(blocked_cpu):5.0f} ms   max {max(blocked_cpu):5.0f} ms"
    )
    print(report("typed -> every box drawn (target 200 ms)", typed))
    print(report("typed -> drawn and painted (target 200 ms)", painted))
    print(report("full repaint, fitted", repaint_fit))
    print(report("full repaint, 1:1 zoom (visible part)", repaint_zoom))
    print(report("slider move, overview (target 33 ms)", before))
    print(report("slider move after Backward, overview", after))

    # the same with every group opened: all ~2,000 boxes drawn
    beat.start()
    clock = Clock()
    panel.view.expand_all()
    wait(app, lambda: not panel.view.busy)
    app.processEvents()
    opened, opened_block, opened_block_cpu = clock.stop(), beat.stop(), beat.worst_cpu
    clock = Clock()
    panel.view.viewport().grab()
    expanded_paint = clock.stop()
    before = slider_moves(app, panel, 3 * args.repeat, 0.75)
    panel.state.backward()  # with gradients shown every box's color can change with a slider move
    app.processEvents()
    after = slider_moves(app, panel, 3 * args.repeat, 1.0)
    print(
        f"every group opened ({len(panel.view.nodes)} boxes): {opened[0] * 1000:.0f} ms "
        f"(cpu {opened[1] * 1000:.0f}, gui {opened[2] * 1000:.0f}), longest block {opened_block} ms "
        f"(GUI-thread CPU {opened_block_cpu:.0f} ms)"
    )
    print(report("full repaint, fitted, every box", [expanded_paint]))
    print(report("slider move, every box (target 33 ms)", before))
    print(report("slider move after Backward, every box", after))
    panel.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
