"""How large the graph's text is after Fit, in the real window, for every example and layout.

Opens the main window at 1600×1000 (``--size``), loads each example (and
``--random N`` random expressions of at most 60 nodes), switches layouts, and
prints the on-screen point size of the node values after Fit (the goal:
≥ 9 pt, and ≥ 13.5 pt in presentation mode), the orientation chosen, whether
the legend covers a box, how many graphs Fit shows only in part to keep that
size (and the share of their boxes on screen), the size the whole graph
would have (View ▸ Whole graph), and presentation mode's text ÷ normal mode's
for each graph (goal: at least 1.1).  With ``--shots DIR`` it saves a screenshot
of each (light and dark, normal and presentation).

Run:  QT_QPA_PLATFORM=offscreen python benchmarks/bench_graph_legibility.py [--shots /tmp/graph-shots]
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication

from tests.graph_cases import EXAMPLES, graph_of, random_expression

SHOWN = ("micrograd test: more ops", "random #17")  # always listed: the 33-node example, the largest random one


def settle(app, view, timeout_s: float = 30.0) -> None:
    end = time.perf_counter() + timeout_s
    app.processEvents()
    while view.busy and time.perf_counter() < end:
        app.processEvents()
        time.sleep(0.002)
    app.processEvents()


def legend_covers_a_box(view) -> bool:
    legend = view.legend.geometry()
    return any(
        view.mapFromScene(item.sceneBoundingRect()).boundingRect().intersects(legend) for item in view.nodes.values()
    )


def share_on_screen(view) -> float:
    """The share of the boxes wholly inside the viewport."""
    shown = view.mapToScene(view.viewport().rect()).boundingRect()
    return sum(shown.contains(item.sceneBoundingRect()) for item in view.nodes.values()) / max(len(view.nodes), 1)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", default="1600x1000")
    parser.add_argument("--random", type=int, default=20)
    parser.add_argument("--shots", default="")
    args = parser.parse_args(argv)
    width, height = (int(v) for v in args.size.split("x"))
    app = QApplication.instance() or QApplication([])
    from gui.shell.main_window import MainWindow
    from gui.shell.settings import AppSettings

    tmp = tempfile.mkdtemp()
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, tmp)
    window = MainWindow(AppSettings(QSettings(str(Path(tmp) / "s.ini"), QSettings.Format.IniFormat)))
    window.resize(width, height)
    window.show()
    panel = window.expression
    view = panel.view
    shots = Path(args.shots) if args.shots else None
    if shots:
        shots.mkdir(parents=True, exist_ok=True)
    cases = [(e["name"], e["text"], e.get("values")) for e in EXAMPLES]
    cases += [
        (f"random #{s}", t, None)
        for s in range(args.random)
        if graph_of(t := random_expression(s)).number_of_nodes() <= 60
    ]
    looks = (
        [("light", False), ("dark", False), ("light", True), ("dark", True)]
        if shots
        else [
            ("light", False),
            ("light", True),
        ]
    )
    figures: dict = {}
    print(f"window {width}×{height}; points of value text after Fit (goal ≥ 9, presentation ≥ 13.5)")
    for theme, presentation in looks:
        window.set_theme(theme)
        window.set_presentation(presentation)
        for method in ("layered", "spring", "kamada_kawai"):
            panel.layout_combo.setCurrentIndex(list(("layered", "spring", "kamada_kawai")).index(method))
            for name, text, values in cases:
                panel.state.load(text, values)
                settle(app, view)
                view.fit(whole=False)
                app.processEvents()
                size = view.fitted_text_points()
                n = len(view.nodes)
                covered = legend_covers_a_box(view)
                how = view.drawing.direction if view.drawing else "-"
                shown = share_on_screen(view) if view.fit_is_partial else 1.0
                view.show_whole()  # what Fit would show if it did not keep the text readable
                settle(app, view)
                whole = view.fitted_text_points()
                view.fit(whole=False)
                settle(app, view)
                figures.setdefault((presentation, method), []).append((size, name, n, covered, how, shown, whole))
                if shots:
                    slug = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:40]
                    tag = f"{'present' if presentation else 'normal'}-{theme}"
                    window.grab().save(str(shots / f"{slug}-{method}-{tag}.png"))
    for (presentation, method), rows in figures.items():
        sizes = [r[0] for r in rows]
        goal = 13.5 if presentation else 9.0
        low = [r for r in rows if r[0] < goal - 1e-6]
        partial = [r for r in rows if r[5] < 1.0]
        wholes = [r[6] for r in rows]
        print(
            f"{'presentation' if presentation else 'normal':12s} {method:13s}: "
            f"median {statistics.median(sizes):5.1f} pt, "
            f"min {min(sizes):5.1f} pt; below goal {len(low)}/{len(rows)}; legend over a box: "
            f"{sum(r[3] for r in rows)}; shown in part {len(partial)}/{len(rows)}"
            + (f" (boxes on screen: median {statistics.median(r[5] for r in partial):.0%})" if partial else "")
            + f"; whole graph: median {statistics.median(wholes):5.1f} pt, min {min(wholes):5.1f} pt"
        )
        for size, name, n, _c, how, _shown, _whole in sorted(low)[:8]:
            print(f"    {size:5.1f} pt  {name} ({n} nodes, direction {how})")
        for size, name, n, _c, how, shown, whole in rows:
            if name in SHOWN or shown < 1.0:
                on_screen = f"{shown:.0%} of boxes on screen, whole {whole:.1f} pt"
                print(f"    {size:5.1f} pt  {name} ({n} nodes, {how}); {on_screen}")
    # the same graph, the same window: presentation mode's text ÷ normal mode's (goal: at least 1.1, the
    # margin PRESENTATION_TEXT_MARGIN keeps for the view being smaller in presentation mode)
    for method in ("layered", "spring", "kamada_kawai"):
        normal = {r[1]: r for r in figures.get((False, method), [])}
        ratios = sorted((r[0] / normal[r[1]][0], r[1]) for r in figures.get((True, method), []) if r[1] in normal)
        if ratios:
            low, name = ratios[0]
            print(
                f"presentation ÷ normal {method:13s}: min {low:.2f} ({name}), "
                f"median {statistics.median(v for v, _ in ratios):.2f}, max {ratios[-1][0]:.2f}"
            )
    window.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
