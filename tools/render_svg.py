"""Render SVG files to PNG with the app's Qt (QtSvg, offscreen), to look at what ``autograd_core.draw`` writes.

    QT_QPA_PLATFORM=offscreen .venv/bin/python tools/render_svg.py graph.svg [more.svg ...] [--out DIR] [--scale 2]
    QT_QPA_PLATFORM=offscreen .venv/bin/python tools/render_svg.py --samples --out /tmp/svg
    QT_QPA_PLATFORM=offscreen .venv/bin/python tools/render_svg.py --notebook examples/article.ipynb --out /tmp/nb

Each PNG is written beside its SVG (or into ``--out``), at ``--scale`` times the SVG's size.  ``--samples`` first
draws the pictures worth checking by eye into ``--out``: a 10-node graph in light and dark, LR and TB, a neuron's
graph inside a notebook-like page (light and dark), a graph with a user op, the folded overviews of two
2,000-node expressions and of the article's 70,000-node training loss.  ``--notebook`` executes a notebook in
memory (nbclient, this venv's Python; the file is never written) and renders each SVG output as that notebook's
output cell, on a light and a dark page.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from anywhere: the checkout's code

NOTEBOOK_PAGE = {  # a Jupyter output cell's page and prompt colors, light and dark, around the picture
    "light": ("#ffffff", "#616161"),
    "dark": ("#111111", "#9e9e9e"),
}


def render(svg_path: Path, png_path: Path, scale: float = 1.5, page: str | None = None) -> Path:
    """Paint ``svg_path`` into ``png_path`` with QSvgRenderer; with ``page`` ("light"/"dark"), framed as a
    notebook's output cell of that theme (its background and an ``Out[1]:`` prompt) around the picture."""
    from PySide6.QtCore import QRectF, Qt
    from PySide6.QtGui import QColor, QFont, QGuiApplication, QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    _app = QGuiApplication.instance() or QGuiApplication(sys.argv[:1])
    renderer = QSvgRenderer(str(svg_path))
    if not renderer.isValid():
        raise SystemExit(f"{svg_path}: not an SVG Qt can read")
    size = renderer.defaultSize()
    w, h = size.width() * scale, size.height() * scale
    left, top = (90 * scale, 20 * scale) if page else (0.0, 0.0)
    image = QImage(int(w + left + (20 * scale if page else 0)), int(h + 2 * top), QImage.Format.Format_ARGB32)
    image.fill(QColor(NOTEBOOK_PAGE[page][0]) if page else QColor(0, 0, 0, 0))
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    if page:
        font = QFont("DejaVu Sans Mono")
        font.setPixelSize(int(13 * scale))
        painter.setFont(font)
        painter.setPen(QColor(NOTEBOOK_PAGE[page][1]))
        painter.drawText(QRectF(0, top, left - 8 * scale, 20 * scale), Qt.AlignmentFlag.AlignRight, "Out[1]:")
    renderer.render(painter, QRectF(left, top, w, h))
    painter.end()
    if not image.save(str(png_path)):
        raise SystemExit(f"could not write {png_path}")
    _app = None
    return png_path


def samples(out: Path) -> list[tuple[Path, str | None]]:
    """Draw the pictures worth looking at into ``out``: (svg path, notebook page theme or None)."""
    import random

    from autograd_core import Tensor, draw
    from benchmarks.bench_draw import article_loss, expression, ten_nodes

    out.mkdir(parents=True, exist_ok=True)
    made = []
    small = ten_nodes()
    for theme in ("light", "dark"):
        for direction in ("LR", "TB"):
            path = out / f"ten_{theme}_{direction}.svg"
            draw(small, direction, theme=theme).save(path)
            made.append((path, None))
    random.seed(0)
    x = [Tensor(2.0, label="x1"), Tensor(-1.0, label="x2")]
    w = [Tensor(random.uniform(-1, 1), label=f"w{i + 1}") for i in range(2)]
    b = Tensor(0.5, label="b")
    n = x[0] * w[0] + x[1] * w[1] + b
    n.label = "n"
    o = n.tanh()
    o.label = "o"
    o.backward()
    for theme in ("light", "dark"):
        path = out / f"neuron_notebook_{theme}.svg"
        draw(o, theme=theme).save(path)
        made.append((path, theme))
    a, c = Tensor(1.5, label="a"), Tensor(-2.0, label="c")
    user = Tensor(a.data * c.data, label="my_mul", _children=(a, c))

    def _backward():  # an op written the article's way
        a.grad += c.data * user.grad
        c.grad += a.data * user.grad

    user._backward = _backward
    y = (user + a).tanh()
    y.label = "y"
    y.backward()
    path = out / "user_op.svg"
    draw(y).save(path)
    made.append((path, None))
    for shape in ("wide", "deep"):
        path = out / f"expression_2000_{shape}.svg"
        draw(expression(shape)).save(path)
        made.append((path, None))
    big = article_loss(100)
    for theme in ("light", "dark"):
        path = out / f"article_loss_overview_{theme}.svg"
        draw(big, theme=theme).save(path)
        made.append((path, theme))
    return made


def notebook_outputs(path: Path, out: Path) -> list[tuple[Path, str | None]]:
    """Execute the notebook at ``path`` in memory and write each SVG output to ``out``; each is rendered twice,
    on a light and on a dark notebook page."""
    import nbformat
    from nbclient import NotebookClient

    notebook = nbformat.read(path, as_version=4)
    NotebookClient(
        notebook, kernel_name="python3", timeout=900, resources={"metadata": {"path": str(path.parent)}}
    ).execute()
    out.mkdir(parents=True, exist_ok=True)
    made = []
    for k, cell in enumerate(notebook.cells):
        for output in cell.get("outputs", []):
            svg = output.get("data", {}).get("image/svg+xml")
            if svg:
                for page in ("light", "dark"):
                    file = out / f"{path.stem}_cell{k}_{page}_page.svg"
                    file.write_text(svg, encoding="utf-8")
                    made.append((file, page))
    return made


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("svgs", nargs="*", type=Path)
    parser.add_argument("--out", type=Path, help="folder for the PNGs (default: beside each SVG)")
    parser.add_argument("--scale", type=float, default=1.5)
    parser.add_argument("--samples", action="store_true", help="draw the sample pictures into --out first")
    parser.add_argument("--notebook", type=Path, help="execute this notebook in memory and render its SVG outputs")
    args = parser.parse_args(argv)
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    jobs = [(p, None) for p in args.svgs]
    if args.samples:
        jobs += samples(args.out or Path("svg-samples"))
    if args.notebook:
        jobs += notebook_outputs(args.notebook, args.out or Path("svg-samples"))
    for svg, page in jobs:
        folder = args.out or svg.parent
        folder.mkdir(parents=True, exist_ok=True)
        png = render(svg, folder / (svg.stem + ".png"), args.scale, page)
        print(f"{svg} -> {png}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
