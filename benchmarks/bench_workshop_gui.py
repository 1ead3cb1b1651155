"""The Op workshop's Check and define, as the GUI thread waits for it: the check, the verdict and the plot drawn.

Target: under 250 ms for every definition of ``bench_workshop.CASES`` (one click: ``check_definition``, the
message, the field marked, the plot's curves and marks redrawn, and the repaint that follows).

    QT_QPA_PLATFORM=offscreen python benchmarks/bench_workshop_gui.py [--repeats 10]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_workshop import CASES
from PySide6.QtWidgets import QApplication

from autograd_core.engine.custom_ops import CUSTOM_OPS
from gui.workshop.workshop_panel import WorkshopPanel


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=10)
    args = parser.parse_args()
    app = QApplication.instance() or QApplication([])
    panel = WorkshopPanel()
    panel.resize(1280, 720)
    panel.show()
    app.processEvents()
    print(f"Check and define on the GUI thread (check + verdict + plot + repaint), median/max of {args.repeats}, ms:")
    worst = 0.0
    for label, definition in CASES.items():
        panel.show_definition(definition)
        times = []
        for _ in range(args.repeats + 1):
            CUSTOM_OPS.clear()
            start = time.perf_counter()
            panel.define_button.click()
            panel.plot.plot.repaint()
            app.processEvents()
            times.append((time.perf_counter() - start) * 1000)
        times = times[1:]  # (the first is warm-up)
        worst = max(worst, max(times))
        verdict = "accepted" if panel.result.accepted else "refused"
        print(f"  {label:30s} median {statistics.median(times):6.1f}  max {max(times):6.1f}  ({verdict})")
    print(f"worst click: {worst:.1f} ms (goal: under 250 ms)")
    CUSTOM_OPS.clear()


if __name__ == "__main__":
    main()
