"""Light/dark themes, presentation mode and the gradient color map.

Colors live here, in one place, so every widget and the graph view agree and
the projector ("presentation") mode only has to change one set of numbers.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QColor

THEMES = ("light", "dark")
PRESENTATION_SCALE = 1.6


@dataclass(frozen=True)
class GraphColors:
    """Colors the graph view draws with (they depend on the theme)."""

    background: QColor
    text: QColor
    muted: QColor
    edge: QColor
    highlight: QColor
    leaf_border: QColor
    parameter_border: QColor
    constant_border: QColor
    op_border: QColor
    group_fill: QColor
    non_finite: QColor
    neutral_fill: QColor


def graph_colors(theme: str) -> GraphColors:
    """The graph view's colors: the theme's palette as QColors (``graph_*`` fields and the error red)."""
    return _GRAPH_COLORS["dark" if theme == "dark" else "light"]


# ------------------------------------------------------------ the palette of the views


@dataclass(frozen=True)
class Palette:
    """Named colors every view draws with, one instance per theme (``palette(theme)``).

    Colors are "#rrggbb" strings (pyqtgraph and style sheets take them as they are; ``QColor(name)`` for
    painters).  A new view reads ``palette()`` (the theme now applied) when it is built and again when
    ``theme_notifier().changed`` fires, or implements ``set_theme(name)`` as an area of the main window.
    """

    name: str
    window: str  # the window and its panels (the Qt palette's Window role): labels sit on it
    window_text: str  # ordinary text on the window
    base: str  # text fields and the expression editor (the Qt palette's Base role)
    plot_background: str  # plots, the network diagram, the boundary outside the data
    plot_text: str  # titles, axis numbers, labels on plots and the diagram
    axis: str  # axis lines and ticks
    muted: str  # placeholders, secondary text
    # One color per class (up to autograd_core.learn.data.MAX_CLASSES): 0 blue and 1 orange (points and maps of
    # two-class views), the others far apart in hue and lightness.
    class_colors: tuple[str, ...]
    # The sign of a weight, a gradient or a unit's output (negative, positive): gold and a neutral (black on the
    # light theme, white on the dark), in hue and lightness away from every class color (CIEDE2000 ≥ 20 from each,
    # tests/gui/look/test_palette.py), so an orange edge is never read as "votes for class 1".  The neutral is the
    # positive end, as "dark = large" in the gray maps of ReLU units.  sign_names says them in words.
    sign_colors: tuple[str, str]
    sign_names: tuple[str, str]
    class_text: tuple[str, ...]  # the same hues as text (a class name in a table header): ≥ 4.5:1 on the window
    probability_stops: tuple[str, str, str]  # P(class 1) = 0, 0.5, 1: pale, paler, pale (points read on top)
    sequential_stops: tuple[str, str, str]  # a non-negative unit's map: 0 … peak, in grays (no sign, no class)
    point_outline: str
    contour: str  # the p = 0.5 line
    selection: str  # a selected point, a picked weight
    train: str  # train curves
    test: str  # test curves
    diverged: str
    error: str  # error text (a parse error, a failed gradient check, inf/nan) and error marks
    ok: str  # a passed gradient check
    layer_colors: tuple[str, ...]  # one per layer (gradient flow)
    neuron_fill: str
    neuron_border: str
    input_fill: str
    output_fill: str
    output_border: str
    banner: str
    banner_border: str
    banner_text: str
    next_step: str  # the loss slice's next step (green)
    # The expression graph (boxes, edges, legend): its background and text, the borders that tell a node's kind, a
    # group's fill and a node without gradient; gradients run gradient_negative … node_fill … gradient_positive.
    graph_background: str
    graph_text: str
    graph_muted: str
    graph_edge: str
    graph_highlight: str
    leaf_border: str
    parameter_border: str
    constant_border: str
    op_border: str
    group_fill: str
    node_fill: str
    gradient_negative: str
    gradient_positive: str
    # The optimizer lab: the surface's bands (low, middle, high), where f is not finite, one color per racer
    # (distinct on both band ends), the minima and start marks, the gradient arrows.
    lab_surface_stops: tuple[str, str, str]
    lab_non_finite: str
    lab_racers: tuple[str, ...]
    lab_marks: str
    lab_arrows: str
    ledger_selection: str  # the ledger's current line
    ledger_selection_text: str
    # The expression editor's syntax colors (on ``base``) and the background of an underlined error.
    syntax_number: str
    syntax_function: str
    syntax_constant: str
    syntax_operator: str
    syntax_target: str
    syntax_comment: str
    syntax_keyword: str
    error_span: str


PALETTES = {
    "light": Palette(
        name="light",
        window="#efefef",
        window_text="#000000",
        base="#ffffff",
        plot_background="#ffffff",
        plot_text="#202124",
        axis="#5f6368",
        muted="#5f6368",
        class_colors=("#1565c0", "#ef6c00", "#2e7d32", "#c2185b", "#6a1b9a", "#00838f"),
        class_text=("#1565c0", "#a34f00", "#237a3b", "#c2185b", "#6a1b9a", "#00707a"),
        sign_colors=("#806000", "#262626"),
        sign_names=("gold", "black"),
        probability_stops=("#78aae1", "#ffffff", "#fab473"),
        sequential_stops=("#ffffff", "#a0a0a8", "#26262b"),
        point_outline="#202124",
        contour="#202124",
        selection="#c2185b",
        train="#37474f",
        test="#c2185b",
        diverged="#d32f2f",
        error="#d0021b",
        ok="#237a3b",
        layer_colors=("#1565c0", "#ef6c00", "#2e7d32", "#6a1b9a", "#c62828", "#00838f", "#5d4037", "#455a64"),
        neuron_fill="#ffffff",
        neuron_border="#455a64",
        input_fill="#eceff1",
        output_fill="#fff8e1",
        output_border="#202124",
        banner="#fff4d6",
        banner_border="#e0b050",
        banner_text="#5d4000",
        next_step="#2e7d32",
        graph_background="#fbfbfd",
        graph_text="#1b1b1f",
        graph_muted="#7a7a85",
        graph_edge="#6b6f7a",
        graph_highlight="#ff9800",
        leaf_border="#2e9d4f",
        parameter_border="#8e44ad",
        constant_border="#9a9aa3",
        op_border="#3d4250",
        group_fill="#e8e6f5",
        node_fill="#ffffff",
        gradient_negative="#2166ac",
        gradient_positive="#b2182b",
        lab_surface_stops=("#fff7e6", "#9ecae1", "#253494"),
        lab_non_finite="#7a7a85",
        lab_racers=("#e6194b", "#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd", "#00a5a5", "#d62fa0", "#8c564b"),
        lab_marks="#111111",
        lab_arrows="#282832",
        ledger_selection="#ffe0b2",
        ledger_selection_text="#1b1b1f",
        syntax_number="#a34f00",
        syntax_function="#0050b3",
        syntax_constant="#7b1fa2",
        syntax_operator="#555a66",
        syntax_target="#1b7f3b",
        syntax_comment="#686c78",
        syntax_keyword="#c0001a",
        error_span="#fde2e5",
    ),
    "dark": Palette(
        name="dark",
        window="#26272d",
        window_text="#e8e9ee",
        base="#1c1d22",
        plot_background="#1e1f24",
        plot_text="#e8e9ee",
        axis="#9a9caa",
        muted="#9a9caa",
        class_colors=("#5aa2ff", "#ffa040", "#81c784", "#f06292", "#ba68c8", "#4dd0e1"),
        class_text=("#5aa2ff", "#ffa040", "#81c784", "#f06292", "#c77dd4", "#4dd0e1"),
        sign_colors=("#a08420", "#eeeeee"),
        sign_names=("gold", "white"),
        probability_stops=("#1f3f66", "#1e1f24", "#6a3f14"),
        sequential_stops=("#1e1f24", "#7a7c88", "#f0f0f4"),
        point_outline="#f0f0f0",
        contour="#f0f0f0",
        selection="#ff5c9a",
        train="#cfd8dc",
        test="#ff5c9a",
        diverged="#ff6b6b",
        error="#ff6b6b",
        ok="#5fd38a",
        layer_colors=("#5aa2ff", "#ffa040", "#66cc70", "#c48be0", "#ff6b6b", "#4dd0e1", "#bcaaa4", "#b0bec5"),
        neuron_fill="#2a2b31",
        neuron_border="#a3a7b5",
        input_fill="#34353d",
        output_fill="#4a3b1c",
        output_border="#e8e9ee",
        banner="#4a3b1c",
        banner_border="#a07c2c",
        banner_text="#ffe2a0",
        next_step="#66cc70",
        graph_background="#1e1f24",
        graph_text="#ecedf2",
        graph_muted="#9a9caa",
        graph_edge="#a3a7b5",
        graph_highlight="#ffb74d",
        leaf_border="#5fd38a",
        parameter_border="#c48be0",
        constant_border="#8a8c97",
        op_border="#c9ccd6",
        group_fill="#3a3850",
        node_fill="#2a2b31",
        gradient_negative="#2166ac",
        gradient_positive="#b2182b",
        lab_surface_stops=("#f2f0c8", "#3b7a9c", "#141a33"),
        lab_non_finite="#4a4a55",
        lab_racers=("#ff5c7a", "#5fb0ff", "#59d35f", "#ffa94d", "#c39bff", "#3fe0d0", "#ff7ad0", "#d9a27a"),
        lab_marks="#ffffff",
        lab_arrows="#ebebf5",
        ledger_selection="#2f66b8",
        ledger_selection_text="#ffffff",
        syntax_number="#f2a65a",
        syntax_function="#6fb3ff",
        syntax_constant="#d59cff",
        syntax_operator="#c9ccd6",
        syntax_target="#7ee0a0",
        syntax_comment="#8a8c97",
        syntax_keyword="#ff8080",
        error_span="#4a2228",
    ),
}

SYNTAX_KINDS = ("number", "function", "constant", "operator", "target", "comment", "keyword")

# Which text color is drawn on which background, per view; every pair reads at a WCAG contrast ratio of at
# least 4.5:1 in both themes (tests/gui/look/test_palette.py computes each).  ``class_text`` is checked against every
# background a class name can sit on.
TEXT_ON = (
    ("window_text", "window"),
    ("window_text", "base"),
    ("plot_text", "plot_background"),
    ("muted", "plot_background"),  # a plot's placeholder
    ("muted", "window"),  # hints
    ("error", "window"),  # error lines, the inputs' failed checks, the status bar's inf/nan
    ("error", "base"),
    ("error", "plot_background"),  # the diagram's dead-unit mark
    ("ok", "window"),  # a passed gradient check
    ("banner_text", "banner"),
    ("ledger_selection_text", "ledger_selection"),
    ("window_text", "error_span"),  # an underlined parse error
    ("graph_text", "graph_background"),  # the graph's legend and captions
    ("error", "graph_background"),  # an inf/nan mark
    *((f"syntax_{kind}", "base") for kind in SYNTAX_KINDS),
)
CLASS_TEXT_ON = ("window", "base", "plot_background")

_GRAPH_COLORS = {
    name: GraphColors(
        background=QColor(p.graph_background),
        text=QColor(p.graph_text),
        muted=QColor(p.graph_muted),
        edge=QColor(p.graph_edge),
        highlight=QColor(p.graph_highlight),
        leaf_border=QColor(p.leaf_border),
        parameter_border=QColor(p.parameter_border),
        constant_border=QColor(p.constant_border),
        op_border=QColor(p.op_border),
        group_fill=QColor(p.group_fill),
        non_finite=QColor(p.error),  # the one error red of the theme
        neutral_fill=QColor(p.node_fill),
    )
    for name, p in PALETTES.items()
}


def relative_luminance(color: str) -> float:
    """WCAG 2 relative luminance of "#rrggbb"."""
    c = QColor(color)

    def linear(v: int) -> float:
        v = v / 255
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4

    return 0.2126 * linear(c.red()) + 0.7152 * linear(c.green()) + 0.0722 * linear(c.blue())


def contrast_ratio(a: str, b: str) -> float:
    """WCAG 2 contrast ratio of two colors, 1 … 21 (4.5 is the minimum for normal text)."""
    la, lb = sorted((relative_luminance(a), relative_luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


# The look applied now (apply_theme sets it): views built later start from it.
_CURRENT = {"theme": "light", "presentation": False}


def set_current(theme: str, presentation: bool) -> None:
    """Record the look applied now (``app_style.apply_theme`` calls it)."""
    _CURRENT["theme"], _CURRENT["presentation"] = theme, presentation


def palette(theme: str | None = None) -> Palette:
    """The palette of ``theme``, or of the theme applied now."""
    return PALETTES.get(theme or _CURRENT["theme"], PALETTES["light"])


def current_theme() -> str:
    return _CURRENT["theme"]


def presentation_on() -> bool:
    return _CURRENT["presentation"]


PLOT_TEXT_PT = 10.0  # plot titles, axis text and diagram labels in normal mode
PLOT_TEXT_SCALE = PRESENTATION_SCALE  # ≥ 1.5× in presentation mode


def plot_text_size(presentation: bool | None = None, scale: float = 1.0) -> float:
    """Point size of plot and diagram text (titles ``scale`` 1.1, axes 1.0, small keys 0.9)."""
    on = presentation_on() if presentation is None else presentation
    return PLOT_TEXT_PT * scale * (PLOT_TEXT_SCALE if on else 1.0)


class ThemeNotifier(QObject):
    """``changed(theme, presentation)`` after apply_theme changed either: views that draw their own colors
    or fonts restyle themselves on it."""

    changed = Signal(str, bool)


_NOTIFIER: list[ThemeNotifier] = []


def theme_notifier() -> ThemeNotifier:
    if not _NOTIFIER:
        _NOTIFIER.append(ThemeNotifier())
    return _NOTIFIER[0]


# ------------------------------------------------------------ color map


def gradient_strength(grad: float, scale: float) -> float:
    """Map a gradient to [-1, 1] on a symmetric log scale.

    Gradients span orders of magnitude (1e-4 … 1e3), so a linear map would
    paint almost every node white; log1p keeps small ones visible while the
    sign stays readable.  ``scale`` is the largest |grad| in the graph.
    """
    if not math.isfinite(grad) or grad == 0.0 or scale <= 0.0 or not math.isfinite(scale):
        return 0.0
    s = math.log1p(abs(grad) / _unit(scale)) / math.log1p(scale / _unit(scale))
    return math.copysign(min(1.0, s), grad)


def _unit(scale: float) -> float:
    # The knee of the log scale: 1 % of the largest gradient.
    return max(scale * 0.01, 1e-12)


def diverging_color(strength: float, theme: str = "light") -> QColor:
    """Blue for negative, neutral for zero, red for positive (strength in [-1, 1])."""
    pal = palette("dark" if theme == "dark" else "light")
    neutral = graph_colors(theme).neutral_fill
    target = QColor(pal.gradient_negative if strength < 0 else pal.gradient_positive)
    t = min(1.0, abs(strength)) * 0.85
    return QColor(
        round(neutral.red() + (target.red() - neutral.red()) * t),
        round(neutral.green() + (target.green() - neutral.green()) * t),
        round(neutral.blue() + (target.blue() - neutral.blue()) * t),
    )


def readable_text(fill: QColor | str, theme: str = "") -> QColor:
    """Near-black or near-white text, whichever has the higher contrast ratio on ``fill``."""
    return QColor(_readable_on(QColor(fill).name()))


@functools.lru_cache(maxsize=4096)
def _readable_on(fill: str) -> str:
    dark, light = "#111111", "#f5f5f5"
    return dark if contrast_ratio(dark, fill) >= contrast_ratio(light, fill) else light


# ------------------------------------------------------------ class colors


def class_colors(theme: str | None = None) -> tuple[str, ...]:
    """The class colors of ``theme`` (default: the theme applied now) as hex strings, class 0 first."""
    return palette(theme).class_colors


def class_rgb(theme: str | None = None) -> list[tuple[int, int, int]]:
    """The same as (r, g, b) triples (for ``autograd_core.learn.regions.region_image``)."""
    return [rgb(c) for c in class_colors(theme)]


def rgb(color: str) -> tuple[int, int, int]:
    """A palette color as an (r, g, b) triple (for numpy images)."""
    c = QColor(color)
    return c.red(), c.green(), c.blue()


# ------------------------------------------------------------ optimizer lab


@dataclass(frozen=True)
class LabColors:
    """The optimizer lab's colors: the surface's bands (low → high), the racers, the marks on the map."""

    surface_low: QColor
    surface_mid: QColor
    surface_high: QColor
    non_finite: QColor  # where f is inf or nan
    racers: tuple[QColor, ...]  # one per optimizer, distinct on both band ends
    minimum: QColor
    start: QColor
    arrows: QColor
    text: QColor


LAB_ARROW_ALPHA = 150  # the gradient arrows are drawn translucent over the surface


def _lab(p: Palette) -> LabColors:
    arrows = QColor(p.lab_arrows)
    arrows.setAlpha(LAB_ARROW_ALPHA)
    low, mid, high = p.lab_surface_stops
    return LabColors(
        surface_low=QColor(low),
        surface_mid=QColor(mid),
        surface_high=QColor(high),
        non_finite=QColor(p.lab_non_finite),
        racers=tuple(QColor(c) for c in p.lab_racers),
        minimum=QColor(p.lab_marks),
        start=QColor(p.lab_marks),
        arrows=arrows,
        text=QColor(p.graph_text),
    )


_LAB = {name: _lab(p) for name, p in PALETTES.items()}


def lab_colors(theme: str) -> LabColors:
    return _LAB["dark" if theme == "dark" else "light"]


# ------------------------------------------------------------ Qt's own roles and indicators

# The dark theme's colors for the Qt palette roles the views' palette does not name (app_style applies them).
DARK_QT_ROLES = {
    "AlternateBase": "#2c2d34",
    "ToolTipBase": "#2f3038",
    "ToolTipText": "#f0f0f0",
    "Button": "#34353d",
    "ButtonText": "#e8e9ee",
    "BrightText": "#ff6b6b",
    "Link": "#6fb3ff",
    "Highlight": "#3d7bd9",
    "HighlightedText": "#ffffff",
    "PlaceholderText": "#8a8c97",
}
DARK_DISABLED_TEXT = "#6d6f7a"

# Check box and radio button indicators of the dark theme.  Fusion draws their border darker than the window,
# which on a dark window is no border at all (and a dim check mark on a near-black square): these are drawn
# instead, the border ≥ 3:1 against the window (WCAG's figure for the parts of a control).
INDICATOR_COLORS = {
    "light": {
        "border": "#6b6e76",  # 4.4:1 on the window #efefef (Fusion's own border read 1.65:1)
        "fill": "#ffffff",
        "checked": "#1565c0",  # ticked: filled blue (5.0:1 on the window) …
        "mark": "#ffffff",  # … with a white mark (5.7:1 on that fill)
        "disabled": "#b9bbc1",
        "disabled_mark": "#e8e8ea",
        "focus": "#1a73e8",
    },
    "dark": {
        "border": "#9c9fad",  # 5.7:1 on the window #26272d
        "fill": "#1c1d22",  # the Base role: the box is a field
        "checked": "#4683e0",  # ticked: filled blue (4.0:1 on the window) …
        "mark": "#ffffff",  # … with a white mark (3.8:1 on that fill)
        "disabled": "#5a5c66",
        "disabled_mark": "#8a8c97",
        "focus": "#8fb8ff",
    },
}
