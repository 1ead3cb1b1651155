"""Print the sizes the layout checks are about, per mode: the decision boundary's and the loss/accuracy plots'
data areas (train-moons-after), and the fitted text of the sample graph and the lab's step graph (points on
screen, presentation ÷ normal at each window size).

    python tools/view_sizes.py                # everything (about a minute, offscreen)
    python tools/view_sizes.py --plots        # the training plots only
    python tools/view_sizes.py --graphs       # the graph text only
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--plots", action="store_true", help="the training plots' data areas only")
    parser.add_argument("--graphs", action="store_true", help="the graphs' fitted text only")
    args = parser.parse_args(argv)
    both = not args.plots and not args.graphs

    from PySide6.QtWidgets import QApplication

    QApplication.instance() or QApplication(sys.argv)
    from tools.layout_checks import data_area
    from tools.tour_states import MODES, SIZES, Mode, Tour, build_states

    states = {s.name: s.setup for s in build_states()}
    tour = Tour(tempfile.mkdtemp(prefix="view-sizes-"))
    try:
        if args.plots or both:
            training = tour.window.training
            for mode in (m for m in MODES if m.theme == "light"):
                tour.apply_mode(mode)
                states["train-moons-after"](tour)
                tour.apply_mode(mode)
                sizes = [data_area(p) for p in (training.boundary.plot, training.metrics.loss_plot)]
                print(
                    f"{mode.name:28} boundary {sizes[0][0]:.0f}×{sizes[0][1]:.0f}  "
                    f"loss/accuracy {sizes[1][0]:.0f}×{sizes[1][1]:.0f} px",
                    flush=True,
                )
        if args.graphs or both:
            for state in ("sample-graph", "lab-step-graph"):
                for size in SIZES:
                    points = []
                    for presentation in (False, True):
                        mode = Mode("light", presentation, size)
                        tour.apply_mode(mode)
                        states[state](tour)
                        tour.apply_mode(mode)
                        view = tour.window.sample.view if state == "sample-graph" else tour.window.lab.view
                        tour.wait_until(lambda view=view: not view.busy)
                        view.fit()
                        points.append(view.fitted_text_points())
                    print(
                        f"{state:15} {size[0]}×{size[1]}  normal {points[0]:.2f} pt  presentation {points[1]:.2f} pt  "
                        f"= {points[1] / points[0]:.2f}×",
                        flush=True,
                    )
    finally:
        tour.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
