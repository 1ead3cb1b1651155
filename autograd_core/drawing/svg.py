"""A Tensor's graph as an SVG picture, for a notebook or a file: the app's boxes and layout, without Qt or Graphviz.

``draw(root)`` lays the graph out with the project's layered (Sugiyama) layout and writes each box as the app's
graph view paints it: the name (or op), the value and the gradient, the fill colored by the gradient's sign and
size, the border by the node's kind.  The picture draws its own background, so a notebook's dark theme never hides
its text, and its colors are the app's palette (``THEMES``, checked against it by the GUI tests).  A graph of more
than ``max_nodes`` nodes is folded into a few boxes (``folding.fold``) with a sentence saying what was folded: the
article's 70,000-node training loss is a picture of a few kilobytes, not a frozen kernel.
"""

from __future__ import annotations

import gc
import math
import re
import textwrap
from pathlib import Path
from xml.sax.saxutils import escape

from autograd_core.drawing.folding import MAX_BOXES, fold
from autograd_core.drawing.graph import to_networkx
from autograd_core.drawing.layout import draw as layout_drawing
from autograd_core.engine.tensor import Tensor, topological_order
from autograd_core.numbers import format_number

MAX_NODES = 300  # drawn one box per node up to this many (about 100 kB of SVG); a bigger graph is folded
DIRECTIONS = ("LR", "TB")
FOLD_NODES = 120  # a long drawing of up to this many boxes is cut into blocks when that fits a page better
PAGE_ASPECT = 3.0  # ... a page being up to three times as wide as tall, or as tall as wide
PAGE_WIDTH = 1200.0  # a drawing no longer than this (px) fits a notebook's page as it is

# The graph view's colors of each theme (gui/look/theme.py's palette: graph_*, borders, fills, error).
THEMES = {
    "light": {
        "background": "#fbfbfd",
        "text": "#1b1b1f",
        "muted": "#7a7a85",
        "edge": "#6b6f7a",
        "input": "#2e9d4f",
        "parameter": "#8e44ad",
        "constant": "#9a9aa3",
        "op": "#3d4250",
        "node": "#ffffff",
        "negative": "#2166ac",
        "positive": "#b2182b",
        "error": "#d0021b",
    },
    "dark": {
        "background": "#1e1f24",
        "text": "#ecedf2",
        "muted": "#9a9caa",
        "edge": "#a3a7b5",
        "input": "#5fd38a",
        "parameter": "#c48be0",
        "constant": "#8a8c97",
        "op": "#c9ccd6",
        "node": "#2a2b31",
        "negative": "#2166ac",
        "positive": "#b2182b",
        "error": "#ff6b6b",
    },
}
DARK_TEXT, LIGHT_TEXT = "#111111", "#f5f5f5"  # a box's text: whichever reads better on its fill (as the app)

FONT = "DejaVu Sans, Verdana, Segoe UI, Helvetica, Arial, sans-serif"
TITLE_SIZE, BODY_SIZE, NOTE_SIZE = 12.0, 11.0, 12.0  # px
# Widths are estimated, not measured (no font engine here): per character, as wide as DejaVu Sans and Verdana
# (the widest of the fonts above), so a box is never too narrow for its text in any of them.
TITLE_EM, BODY_EM = 0.66, 0.64
BOX_HEIGHT = 48.0
BOX_PADDING = 16.0
MARGIN = 16.0
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")  # characters XML 1.0 cannot hold


class GraphPicture:
    """A drawn graph: shows itself in Jupyter (``_repr_svg_``), ``svg`` is its text, ``save(path)`` writes it."""

    def __init__(self, svg: str, *, nodes: int, boxes: int, note: str, direction: str, theme: str):
        self.svg = svg
        self.nodes, self.boxes, self.note = nodes, boxes, note
        self.direction, self.theme = direction, theme
        self.folded = bool(note)

    def _repr_svg_(self) -> str:
        return self.svg

    def save(self, path: str | Path) -> Path:
        """Write the SVG (UTF-8) to ``path``; returns the path."""
        path = Path(path)
        path.write_text(self.svg, encoding="utf-8")
        return path

    def __repr__(self) -> str:
        folded = f", folded into {self.boxes} boxes" if self.folded else ""
        return f"<GraphPicture of {self.nodes:,} nodes{folded}, {self.direction}, {len(self.svg) / 1000:.1f} kB of SVG>"


def draw(
    root: Tensor,
    direction: str = "LR",
    *,
    theme: str = "light",
    max_nodes: int = MAX_NODES,
    max_boxes: int = MAX_BOXES,
) -> GraphPicture:
    """The graph of ``root`` as an SVG picture: inputs on the left and the output on the right (``direction=
    "LR"``) or inputs at the top (``"TB"``), in the app's ``theme`` ("light" or "dark").

    Up to ``max_nodes`` nodes every node is a box; a bigger graph is folded into about ``max_boxes`` boxes, each
    a value with the nodes only it depends on, and the picture says so in a sentence at its top.
    """
    if direction not in DIRECTIONS:
        raise ValueError(f"unknown direction {direction!r}; choose one of {', '.join(DIRECTIONS)}")
    if theme not in THEMES:
        raise ValueError(f"unknown theme {theme!r}; choose one of {', '.join(THEMES)}")
    if not isinstance(root, Tensor):
        raise TypeError(f"draw() takes a Tensor (the output whose graph to draw), got {type(root).__name__}")
    collecting = gc.isenabled()
    gc.disable()  # the walks make many small lists: the collector would scan every node of a big graph for nothing
    try:
        order = topological_order(root)
        if len(order) <= max_nodes:
            graph, note = to_networkx(root), ""
        else:
            graph, note = fold(root, max_boxes, order)
        svg = render(graph, direction, theme, note)
    finally:
        if collecting:
            gc.enable()
    return GraphPicture(
        svg, nodes=len(order), boxes=graph.number_of_nodes(), note=note, direction=direction, theme=theme
    )


# ------------------------------------------------------------------ boxes


def box_title(attrs: dict) -> str:
    """The box's first line, as the app writes it: "y = tanh", an op, a name, "const"; "▣ …" for a folded box."""
    label, op, kind = attrs.get("label") or "", attrs.get("op") or "", attrs.get("kind", "op")
    if attrs.get("folded"):
        if kind == "group":
            return f"▣ {label}"
        inner = f"{label} = {op}" if label and op and label != op else label or op or "?"
        return f"▣ {inner} ({attrs['members']:,} nodes)"
    if label and op and label != op:
        return f"{label} = {op}"
    if label:
        return label
    if kind == "constant" and not op:
        return "const"
    return op or "?"


def box_lines(attrs: dict) -> tuple[str, str]:
    """The value and gradient lines ("data 0.5", "grad −1.25"; a folded box shows its value as "out")."""
    if "lines" in attrs:
        return attrs["lines"]
    name = "out" if attrs.get("folded") else "data"
    return f"{name} {format_number(attrs.get('data'))}", f"grad {format_number(attrs.get('grad'))}"


def box_size(attrs: dict) -> tuple[float, float]:
    title = box_title(attrs)
    lines = box_lines(attrs)
    width = max(len(title) * TITLE_EM * TITLE_SIZE, max(len(t) for t in lines) * BODY_EM * BODY_SIZE)
    return (max(width, 60.0) + BOX_PADDING, BOX_HEIGHT)


def gradient_strength(grad: float, scale: float) -> float:
    """The gradient on a symmetric log scale in [-1, 1] (the app's color scale; ``scale``: the largest |grad|)."""
    if not math.isfinite(grad) or grad == 0.0 or scale <= 0.0 or not math.isfinite(scale):
        return 0.0
    unit = max(scale * 0.01, 1e-12)
    return math.copysign(min(1.0, math.log1p(abs(grad) / unit) / math.log1p(scale / unit)), grad)


def fill_color(grad, scale: float, colors: dict) -> str:
    """Blue for a negative gradient, the theme's box color for none, red for a positive one."""
    if grad is None:
        return colors["node"]
    strength = gradient_strength(grad, scale)
    neutral, target = _rgb(colors["node"]), _rgb(colors["negative" if strength < 0 else "positive"])
    t = min(1.0, abs(strength)) * 0.85
    return "#" + "".join(f"{round(a + (b - a) * t):02x}" for a, b in zip(neutral, target))


def text_color(fill: str) -> str:
    """Near-black or near-white, whichever has the higher WCAG contrast on ``fill``."""
    return DARK_TEXT if contrast_ratio(DARK_TEXT, fill) >= contrast_ratio(LIGHT_TEXT, fill) else LIGHT_TEXT


def contrast_ratio(a: str, b: str) -> float:
    """WCAG 2 contrast ratio of two "#rrggbb" colors, 1 … 21."""
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def _luminance(color: str) -> float:
    r, g, b = (v / 255 for v in _rgb(color))
    linear = [v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4 for v in (r, g, b)]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def _rgb(color: str) -> tuple[int, int, int]:
    return tuple(int(color[i : i + 2], 16) for i in (1, 3, 5))


# ------------------------------------------------------------------ the SVG text


def render(graph, direction: str, theme: str, note: str = "") -> str:
    """The SVG text of ``graph`` (node attributes as ``to_networkx``'s), laid out in ``direction``."""
    colors = THEMES[theme]
    sizes = {n: box_size(attrs) for n, attrs in graph.nodes(data=True)}
    drawing = _layout(graph, sizes, direction)
    left, top, right, bottom = drawing.extent() if graph.number_of_nodes() else (0.0, 0.0, 0.0, 0.0)
    width = max(right - left, LEGEND_WIDTH) + 2 * MARGIN
    note_lines = textwrap.wrap(note, max(int(max(width, 640.0) / (NOTE_SIZE * 0.58)), 40)) if note else []
    width = max(width, 640.0) if note_lines else width
    head = len(note_lines) * NOTE_SIZE * 1.35 + (8.0 if note_lines else 0.0)
    legend_h = 24.0
    height = (bottom - top) + 2 * MARGIN + head + legend_h
    dx, dy = MARGIN - left, MARGIN + head - top
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
        f'viewBox="0 0 {width:.0f} {height:.0f}" font-family="{FONT}" font-size="{BODY_SIZE:g}">',
        f'<rect width="{width:.0f}" height="{height:.0f}" fill="{colors["background"]}"/>',
    ]
    for k, line in enumerate(note_lines):
        out.append(
            f'<text x="{MARGIN:g}" y="{MARGIN + (k + 0.8) * NOTE_SIZE * 1.35:.1f}" font-size="{NOTE_SIZE:g}" '
            f'fill="{colors["text"]}">{_text(line)}</text>'
        )
    out.append(f'<g transform="translate({dx:.1f},{dy:.1f})">')
    out.append(f'<g fill="none" stroke="{colors["edge"]}" stroke-width="1.2">')
    arrows = []
    for edge in drawing.paths:
        out.append(f'<path d="{_path_data(drawing.path(edge))}"/>')
        arrows.append(_arrow(drawing.arrows[edge]))
    out.append("</g>")
    if arrows:
        out.append(f'<path fill="{colors["edge"]}" d="{"".join(arrows)}"/>')
    scale = max((abs(g) for _, g in graph.nodes(data="grad") if g is not None and math.isfinite(g)), default=0.0)
    out.append('<g text-anchor="middle">')
    for node, attrs in graph.nodes(data=True):
        out.append(_box(attrs, drawing.centers[node], sizes[node], scale, colors))
    out.append("</g></g>")
    out.append(_legend(colors, height - legend_h - 4.0))
    out.append("</svg>")
    return "\n".join(out)


def _layout(graph, sizes: dict, direction: str):
    """The layered drawing; a long one of up to ``FOLD_NODES`` boxes is cut into up to four blocks (the
    graph view's folds) when that brings it nearer a page's shape."""
    drawing = layout_drawing(graph, "layered", sizes, direction=direction)
    if graph.number_of_nodes() > FOLD_NODES:
        return drawing
    best, best_cost = drawing, _shape_cost(drawing)
    for folds in (2, 3, 4):
        if best_cost <= 1.0:
            break
        candidate = layout_drawing(graph, "layered", sizes, direction=direction, folds=folds)
        cost = _shape_cost(candidate)
        if cost < best_cost:
            best, best_cost = candidate, cost
    return best


def _shape_cost(drawing) -> float:
    """How far a drawing is from fitting a page: 1 when it fits one as it is or is within PAGE_ASPECT either way,
    more otherwise."""
    left, top, right, bottom = drawing.extent()
    w, h = max(right - left, 1.0), max(bottom - top, 1.0)
    if max(w, h) <= PAGE_WIDTH:
        return 1.0
    return max(w / h / PAGE_ASPECT, h / w / PAGE_ASPECT, 1.0)


def _box(attrs: dict, center, size, scale: float, colors: dict) -> str:
    (x, y), (w, h) = center, size
    kind = attrs.get("kind", "op")
    data, grad = attrs.get("data"), attrs.get("grad")
    non_finite = any(v is not None and not math.isfinite(v) for v in (data, grad))
    fill = fill_color(grad, scale, colors)
    stroke, width, dash = colors["op"], 1.0, ""
    if kind in ("input", "parameter"):
        stroke, width = colors[kind], 2.0
    elif kind == "constant":
        stroke, dash = colors["constant"], ' stroke-dasharray="4 3"'
    elif kind == "group" or attrs.get("folded"):
        stroke, width, dash = colors["parameter"], 1.5, ' stroke-dasharray="7 3 2 3"'
    if non_finite:
        stroke, width = colors["error"], 3.0
    radius = 12 if kind in ("input", "parameter") else 4
    value, gradient = box_lines(attrs)
    return (
        f'<g transform="translate({x:.1f},{y:.1f})" fill="{text_color(fill)}">'
        f'<rect x="{-w / 2:.1f}" y="{-h / 2:.1f}" width="{w:.1f}" height="{h:.1f}" rx="{radius}" fill="{fill}" '
        f'stroke="{stroke}" stroke-width="{width:g}"{dash}/>'
        f'<text y="-8" font-size="{TITLE_SIZE:g}" font-weight="bold">{_text(box_title(attrs))}</text>'
        f'<text y="7">{_text(value)}</text><text y="21">{_text(gradient)}</text></g>'
    )


def _legend(colors: dict, y: float) -> str:
    """One line under the graph: what the fills and the borders mean (as the app's legend)."""
    out = [f'<g font-size="{BODY_SIZE:g}" fill="{colors["muted"]}">']
    x = MARGIN
    for name, fill, stroke, dash in _legend_items(colors):
        out.append(
            f'<rect x="{x:.0f}" y="{y + 4:.0f}" width="14" height="12" rx="2" fill="{fill}" stroke="{stroke}" '
            f'stroke-width="1.5"{dash}/><text x="{x + 19:.0f}" y="{y + 14:.0f}">{_text(name)}</text>'
        )
        x += _legend_step(name)
    out.append("</g>")
    return "".join(out)


def _legend_step(name: str) -> float:
    return 19 + len(name) * BODY_EM * BODY_SIZE + 14


def _legend_items(colors: dict) -> list[tuple[str, str, str, str]]:
    return [
        ("grad > 0", fill_color(1.0, 1.0, colors), colors["op"], ""),
        ("grad < 0", fill_color(-1.0, 1.0, colors), colors["op"], ""),
        ("input", colors["node"], colors["input"], ""),
        ("parameter", colors["node"], colors["parameter"], ""),
        ("constant", colors["node"], colors["constant"], ' stroke-dasharray="3 2"'),
    ]


LEGEND_WIDTH = sum(_legend_step(item[0]) for item in _legend_items(THEMES["light"]))


def _text(text: str) -> str:
    return escape(_NOT_XML.sub("\ufffd", str(text)))


def _num(v: float) -> str:
    return f"{v:.1f}".rstrip("0").rstrip(".")


def _path_data(commands: list) -> str:
    parts = []
    for c in commands:
        parts.append(c[0] + " ".join(_num(v) for v in c[1:]))
    return "".join(parts)


def _arrow(arrow: tuple) -> str:
    """The arrowhead's triangle at the tip (x, y) pointing along (dx, dy), as the app draws it."""
    ex, ey, dx, dy = arrow
    size = 9.0
    nx_, ny_ = -dy * size * 0.45, dx * size * 0.45
    bx, by = ex - dx * size, ey - dy * size
    return f"M{_num(ex)} {_num(ey)}L{_num(bx + nx_)} {_num(by + ny_)}L{_num(bx - nx_)} {_num(by - ny_)}Z"


__all__ = ["DIRECTIONS", "MAX_NODES", "THEMES", "GraphPicture", "box_title", "draw"]
