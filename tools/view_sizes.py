"""Print the sizes the layout checks are about, per mode: the decision boundary's and the loss/accuracy plots'
data areas (train-moons-after), and the fitted text of the sample graph and the lab's step graph (points on
screen, presentation ÷ normal at each window size), and the cells of the lab's results table that do not show
their whole text (lab-race, every mode).

    python tools/view_sizes.py                # everything (about a minute, offscreen)
    python tools/view_sizes.py --plots        # the training plots only
    python tools/view_sizes.py --graphs       # the graph text only
    python tools/view_sizes.py --tables       # the lab table's cut cells only
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
    parser.add_argument("--tables", action="store_true", help="the lab table's cells cut short only")
    args = parser.parse_args(argv)
    both = not args.plots and not args.graphs and not args.tables

    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QApplication

    QApplication.instance() or QApplication(sys.argv)
    from tools.layout_checks import data_area, elided_cells
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
        if args.tables or both:
            lab = tour.window.lab
            table = lab.table
            model = table.model()

            def header(c: int) -> str:
                return str(model.headerData(c, Qt.Orientation.Horizontal))

            for state in ("lab-race", "lab-arrows-diverged", "lab-step-graph"):
                for mode in MODES:
                    tour.apply_mode(mode)
                    states[state](tour)
                    tour.apply_mode(mode)
                    views = [lab.table_tabs.tabText(i) for i in range(lab.table_tabs.count())]
                    for view in range(len(views) if lab.table_tabs.isVisible() else 1):
                        lab.table_tabs.setCurrentIndex(view)
                        tour.process(20)
                        cut = elided_cells(table)
                        shown = [c for c in range(model.columnCount()) if not table.isColumnHidden(c)]
                        visible = [
                            r
                            for r in range(model.rowCount())
                            if table.visualRect(model.index(r, 0)).intersects(table.viewport().rect())
                        ]
                        which = views[view] if lab.table_tabs.isVisible() else "all columns"
                        print(
                            f"{state:15} {mode.name:28} {which:11} {len(cut):2} of {len(visible) * len(shown):2} "
                            f"cells in view cut short"
                            + (f" (in {', '.join(header(c) for c in sorted({c for _, c, _ in cut}))})" if cut else "")
                            + f"; shows {', '.join(header(c) for c in shown)}",
                            flush=True,
                        )
                    lab.table_tabs.setCurrentIndex(0)
    finally:
        tour.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
