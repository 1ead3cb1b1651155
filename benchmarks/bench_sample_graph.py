"""Build and draw time of one sample's graph for a 2-16-16-1 network (collapsed and expanded).

QT_QPA_PLATFORM=offscreen python benchmarks/bench_sample_graph.py
"""

import os
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from PySide6.QtCore import QEventLoop, QTimer
from PySide6.QtWidgets import QApplication

app = QApplication([])
from autograd_core.learn.nn import MLP  # noqa: E402  (after the QApplication)
from gui.training.sample_graph_panel import SampleGraphPanel  # noqa: E402


def idle(view):
    loop = QEventLoop()
    while view.busy:
        QTimer.singleShot(1, loop.quit)
        loop.exec()


model = MLP(2, [16, 16, 1], seed=0)
for fused in (True, False):
    p = SampleGraphPanel()
    p.resize(1500, 900)
    p.set_source(lambda: model, lambda: "bce")
    p.show()
    p.fused_check.setChecked(fused)
    p.show_sample(0.1, 0.2, 1)
    idle(p.view)
    rows = {
        "build (sample_graph + networkx + trace state)": [],
        "show point, collapsed (build + draw)": [],
        "expand all (draw)": [],
        "collapse all (draw)": [],
        "new weights, same shape (follow)": [],
    }
    for k in range(5):
        t = time.perf_counter()
        p.state.show_sample(model, (0.1 + k / 10, 0.2), 1)
        b = time.perf_counter() - t
        idle(p.view)
        rows["build (sample_graph + networkx + trace state)"].append(b)
        p.view.set_graph(None)
        p._drawn_groups = None
        p.view._drawn_version = -1
        t = time.perf_counter()
        p.show_sample(0.3, -0.2 - k / 10, 1)
        idle(p.view)
        rows["show point, collapsed (build + draw)"].append(time.perf_counter() - t)
        t = time.perf_counter()
        p.view.expand_all()
        idle(p.view)
        rows["expand all (draw)"].append(time.perf_counter() - t)
        t = time.perf_counter()
        p.collapse_neurons()
        idle(p.view)
        rows["collapse all (draw)"].append(time.perf_counter() - t)
        t = time.perf_counter()
        p.refresh_model()
        idle(p.view)
        rows["new weights, same shape (follow)"].append(time.perf_counter() - t)
    n = p.state.graph.number_of_nodes()
    print(f"fused={fused}: {n} nodes, {len(p.view.nodes)} drawn collapsed")
    for name, ts in rows.items():
        print(f"  {name:48s} median {statistics.median(ts) * 1000:6.1f} ms  (min {min(ts) * 1000:.1f})")
    p.close()
