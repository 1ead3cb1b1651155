"""Our layered drawing against Graphviz ``dot`` on the examples and 200 random expressions.

For every graph both drawings use the same box sizes; the edges as drawn
(dot's splines, our curves; each sampled into a polyline) are compared for
crossings, and for each layout the script counts edges that enter a box they do
not connect and boxes that overlap.  Also times both.  ``dot`` is a
benchmark-only dependency (``apt-get install graphviz``); without it only our
figures are printed.

Run:  python benchmarks/bench_graph_layout.py [--random 200] [--record tests/data/dot_crossings.json]

``--record`` writes dot's crossing count of every graph to a file that
``tests/core/drawing/test_graph_crossings.py`` holds our drawing to (no ``dot`` needed there).
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from autograd_core.drawing import Drawing, box_overlaps, count_path_crossings, draw, edge_box_hits, flatten
from tests.graph_cases import cases, graph_of

BOX = (112.0, 56.0)  # about the view's box at normal size, in points (1/72 inch) for dot


def dot_drawing(graph) -> Drawing:
    """Graphviz dot's layout of ``graph`` (rankdir LR, our box sizes), parsed from ``-Tjson``.

    Each edge is dot's spline and then its arrowhead, a line to the tip on the
    target's border (``-Tplain`` stops the spline where the arrowhead starts,
    which would leave out what our paths include: the same measure for both).
    """
    w, h = BOX[0] / 72.0, BOX[1] / 72.0
    lines = [
        "digraph G {",
        "rankdir=LR;",
        f'node [shape=box, fixedsize=true, width={w:.4f}, height={h:.4f}, label=""];',
    ]
    lines += [f"n{n};" for n in graph.nodes]
    lines += [f"n{u} -> n{v};" for u, v, _k in graph.edges(keys=True)]
    lines.append("}")
    out = subprocess.run(["dot", "-Tjson"], input="\n".join(lines), capture_output=True, text=True, check=True).stdout
    data = json.loads(out)
    names = {}
    centers, paths = {}, {}
    for obj in data.get("objects", ()):
        n = int(obj["name"][1:])
        names[obj["_gvid"]] = n
        x, y = map(float, obj["pos"].split(","))
        centers[n] = (x, -y)
    count: dict = {}
    for edge in data.get("edges", ()):
        u, v = names[edge["tail"]], names[edge["head"]]
        k = count.get((u, v), 0)
        count[(u, v)] = k + 1
        tip = None
        pts = []
        for token in edge["pos"].split():
            if token.startswith("e,"):
                x, y = map(float, token[2:].split(","))
                tip = (x, -y)
            elif token.startswith("s,"):
                continue
            else:
                x, y = map(float, token.split(","))
                pts.append((x, -y))
        cmds = [("M", *pts[0])]
        for i in range(1, len(pts) - 2, 3):
            cmds.append(("C", *pts[i], *pts[i + 1], *pts[i + 2]))
        if tip is not None:
            cmds.append(("L", *tip))
        paths[(u, v, k)] = cmds
    return Drawing(centers, {n: BOX for n in centers}, paths, {}, "LR")


def measure(drawing: Drawing) -> tuple[int, int, int]:
    polylines = {e: flatten(drawing.path(e)) for e in drawing.paths}
    return count_path_crossings(polylines), len(edge_box_hits(drawing)), len(box_overlaps(drawing))


def median_ms(rows: list, key: str) -> float:
    return statistics.median(r[key] for r in rows) * 1000


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--random", type=int, default=200)
    parser.add_argument("--record", type=Path, help="write dot's crossings per graph to this JSON file")
    args = parser.parse_args(argv)
    has_dot = shutil.which("dot") is not None
    rows = []
    for name, text in cases(args.random):
        graph = graph_of(text)
        t = time.perf_counter()
        ours = draw(graph, "layered", {n: BOX for n in graph})
        t_ours = time.perf_counter() - t
        row = {"name": name, "nodes": graph.number_of_nodes(), "ours": measure(ours), "t_ours": t_ours}
        if has_dot:
            t = time.perf_counter()
            theirs = dot_drawing(graph)
            row["t_dot"] = time.perf_counter() - t
            row["dot"] = measure(theirs)
        rows.append(row)
    if args.record is not None and has_dot:
        version = subprocess.run(["dot", "-V"], capture_output=True, text=True).stderr.strip()
        record = {"dot": version, "box": BOX, "crossings": {r["name"]: r["dot"][0] for r in rows}}
        args.record.write_text(json.dumps(record, indent=1, ensure_ascii=False) + "\n", "utf-8")
        print(f"dot's crossings written to {args.record}")
    examples = [r for r in rows if not r["name"].startswith("random")]
    randoms = [r for r in rows if r["name"].startswith("random")]
    print(f"layered drawing vs Graphviz dot ({'dot found' if has_dot else 'dot NOT installed: ours only'})")
    print(f"{'graph':40s} {'nodes':>5s} {'ours: cross hits overl':>24s} {'dot: cross hits overl':>23s}")
    for r in examples:
        d = r.get("dot", ("-", "-", "-"))
        o = r["ours"]
        print(f"{r['name'][:40]:40s} {r['nodes']:5d} {o[0]:12d} {o[1]:5d} {o[2]:5d} {d[0]:11} {d[1]:5} {d[2]:5}")
    for label, group in (("examples", examples), (f"{len(randoms)} random expressions", randoms)):
        if not group:
            continue
        ours = [r["ours"] for r in group]
        sizes = [r["nodes"] for r in group]
        print(f"{label}: nodes median {statistics.median(sizes):.0f}, max {max(sizes)}")
        print(
            f"  ours: crossings total {sum(o[0] for o in ours)}, edge-box hits {sum(o[1] for o in ours)}, "
            f"box overlaps {sum(o[2] for o in ours)}, median time {median_ms(group, 't_ours'):.1f} ms"
        )
        if has_dot:
            theirs = [r["dot"] for r in group]
            worse = sum(1 for r in group if r["ours"][0] > r["dot"][0])
            better = sum(1 for r in group if r["ours"][0] < r["dot"][0])
            print(
                f"  dot:  crossings total {sum(o[0] for o in theirs)}, edge-box hits {sum(o[1] for o in theirs)}, "
                f"box overlaps {sum(o[2] for o in theirs)}, median time {median_ms(group, 't_dot'):.1f} ms"
            )
            print(f"  graphs where ours has more crossings than dot: {worse}; fewer: {better}")
            for r in group:
                if r["ours"][0] > r["dot"][0]:
                    print(f"    {r['name']}: ours {r['ours'][0]}, dot {r['dot'][0]} ({r['nodes']} nodes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
