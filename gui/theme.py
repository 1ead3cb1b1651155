"""Light/dark themes, presentation mode and the gradient colour map.

Colours live here, in one place, so every widget and the graph view agree and
the projector ("presentation") mode only has to change one set of numbers.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from PySide6.QtCore import QCoreApplication, QEvent
from PySide6.QtGui import QColor, QFont, QPalette
from PySide6.QtWidgets import QApplication, QProxyStyle, QStyleFactory, QWidget

THEMES = ("light", "dark")
PRESENTATION_SCALE = 1.6


@dataclass(frozen=True)
class GraphColors:
    """Colours the graph view draws with (they depend on the theme)."""

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


_LIGHT = GraphColors(
    background=QColor("#fbfbfd"),
    text=QColor("#1b1b1f"),
    muted=QColor("#7a7a85"),
    edge=QColor("#6b6f7a"),
    highlight=QColor("#ff9800"),
    leaf_border=QColor("#2e9d4f"),
    parameter_border=QColor("#8e44ad"),
    constant_border=QColor("#9a9aa3"),
    op_border=QColor("#3d4250"),
    group_fill=QColor("#e8e6f5"),
    non_finite=QColor("#d0021b"),
    neutral_fill=QColor("#ffffff"),
)

_DARK = GraphColors(
    background=QColor("#1e1f24"),
    text=QColor("#ecedf2"),
    muted=QColor("#9a9caa"),
    edge=QColor("#a3a7b5"),
    highlight=QColor("#ffb74d"),
    leaf_border=QColor("#5fd38a"),
    parameter_border=QColor("#c48be0"),
    constant_border=QColor("#8a8c97"),
    op_border=QColor("#c9ccd6"),
    group_fill=QColor("#3a3850"),
    non_finite=QColor("#ff4d5e"),
    neutral_fill=QColor("#2a2b31"),
)


def graph_colors(theme: str) -> GraphColors:
    return _DARK if theme == "dark" else _LIGHT


# ------------------------------------------------------------ colour map


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
    neutral = graph_colors(theme).neutral_fill
    target = QColor("#2166ac") if strength < 0 else QColor("#b2182b")
    t = min(1.0, abs(strength)) * 0.85
    return QColor(
        round(neutral.red() + (target.red() - neutral.red()) * t),
        round(neutral.green() + (target.green() - neutral.green()) * t),
        round(neutral.blue() + (target.blue() - neutral.blue()) * t),
    )


def readable_text(fill: QColor, theme: str) -> QColor:
    """Black or white text, whichever reads better on ``fill``."""
    luminance = 0.299 * fill.red() + 0.587 * fill.green() + 0.114 * fill.blue()
    return QColor("#111111") if luminance > 140 else QColor("#f5f5f5")


# ------------------------------------------------------------ application


def _palette(theme: str) -> QPalette:
    palette = QPalette()
    if theme != "dark":
        return QApplication.style().standardPalette() if QApplication.style() else palette
    roles = {
        QPalette.ColorRole.Window: "#26272d",
        QPalette.ColorRole.WindowText: "#e8e9ee",
        QPalette.ColorRole.Base: "#1c1d22",
        QPalette.ColorRole.AlternateBase: "#2c2d34",
        QPalette.ColorRole.ToolTipBase: "#2f3038",
        QPalette.ColorRole.ToolTipText: "#f0f0f0",
        QPalette.ColorRole.Text: "#e8e9ee",
        QPalette.ColorRole.Button: "#34353d",
        QPalette.ColorRole.ButtonText: "#e8e9ee",
        QPalette.ColorRole.BrightText: "#ff6b6b",
        QPalette.ColorRole.Link: "#6fb3ff",
        QPalette.ColorRole.Highlight: "#3d7bd9",
        QPalette.ColorRole.HighlightedText: "#ffffff",
        QPalette.ColorRole.PlaceholderText: "#8a8c97",
    }
    for role, colour in roles.items():
        palette.setColor(role, QColor(colour))
    for role in (QPalette.ColorRole.Text, QPalette.ColorRole.ButtonText, QPalette.ColorRole.WindowText):
        palette.setColor(QPalette.ColorGroup.Disabled, role, QColor("#6d6f7a"))
    return palette


# Colours of the few widgets styled by object name, per theme (everything else follows the palette).
NAMED_COLOURS = {
    "light": {
        "error": "#c0001a",
        "muted": "#6b6f7a",
        "sel": "#ffe0b2",
        "sel_text": "#1b1b1f",
        "banner": "#fff4d6",
        "banner_border": "#e0b050",
    },
    "dark": {
        "error": "#ff6b6b",
        "muted": "#9a9caa",
        "sel": "#3d7bd9",
        "sel_text": "#ffffff",
        "banner": "#4a3b1c",
        "banner_border": "#a07c2c",
    },
}
STYLED_NAMES = frozenset({"errorLabel", "hintLabel", "ledger", "largeGraphBanner"})


def style_named_widget(widget: QWidget, theme: str, presentation: bool) -> None:
    """The look of a widget the app styles by object name: an error line, a hint, the ledger, the graph banner.

    Labels get a palette colour (they keep following every other palette change); the ledger and the banner,
    which need padding and a rounded border, a style sheet of their own.
    """
    colours = NAMED_COLOURS.get(theme, NAMED_COLOURS["light"])
    name = widget.objectName()
    if name in ("errorLabel", "hintLabel"):
        palette = widget.palette()
        palette.setColor(QPalette.ColorRole.WindowText, QColor(colours["error" if name == "errorLabel" else "muted"]))
        widget.setPalette(palette)
        if name == "errorLabel" and not widget.font().bold():
            font = widget.font()
            font.setBold(True)
            widget.setFont(font)
        return
    if name == "ledger":
        sheet = (
            f"QListWidget::item {{ padding: {4 if presentation else 2}px 2px; }}"
            f"QListWidget::item:selected {{ background: {colours['sel']}; color: {colours['sel_text']}; }}"
        )
    elif name == "largeGraphBanner":
        sheet = (
            f"QFrame#largeGraphBanner {{ background: {colours['banner']}; "
            f"border: 1px solid {colours['banner_border']}; border-radius: 4px; }}"
        )
    else:
        return
    if widget.styleSheet() != sheet:
        widget.setStyleSheet(sheet)


class NamedWidgetStyle(QProxyStyle):
    """Fusion, plus the look of the widgets named in STYLED_NAMES, given to each as Qt polishes it.

    An application-wide style sheet would do the same with one string, but it makes Qt run every widget of
    the app through its style sheet engine: building a window costs twice the CPU, and switching theme or
    presentation mode re-styled every widget (0.5–1 s).  Here a switch touches only the named widgets.
    """

    def __init__(self):
        super().__init__(QStyleFactory.create("Fusion"))
        self.theme, self.presentation = "light", False

    def polish(self, target):
        result = super().polish(target)
        if isinstance(target, QWidget) and target.objectName() in STYLED_NAMES:
            style_named_widget(target, self.theme, self.presentation)
        return result


def apply_theme(app: QApplication, theme: str = "light", presentation: bool = False, base_point_size: float = 0.0):
    """Set palette, font size and the named widgets' look for the whole application.

    ``base_point_size`` is the font size before presentation scaling (read once
    at start-up so toggling presentation mode twice returns to the same size).
    """
    theme = theme if theme in THEMES else "light"
    base = base_point_size or app.font().pointSizeF() or 10.0
    style = app.style()
    if not isinstance(style, NamedWidgetStyle):
        style = NamedWidgetStyle()
        app.setStyle(style)
        app.setProperty("appliedTheme", None)
        _STYLES.append(style)  # the application owns it in C++; keep the Python side alive with it
    key = f"{theme}/{presentation}/{base}"
    if app.property("appliedTheme") == key:
        return  # palette and font reach every widget: only when something changed
    app.setProperty("appliedTheme", key)
    style.theme, style.presentation = theme, presentation
    app.setPalette(_palette(theme))
    font = QFont(app.font())
    font.setPointSizeF(base * (PRESENTATION_SCALE if presentation else 1.0))
    app.setFont(font)
    # Outside a running event loop (tests, start-up) Qt posts the change to the widgets: deliver it now, so the
    # areas restyled next and the widgets below already see the new palette and font, as in the running app.
    for change in (QEvent.Type.ApplicationPaletteChange, QEvent.Type.ApplicationFontChange):
        QCoreApplication.sendPostedEvents(None, change)
    for widget in app.allWidgets():
        sheet = widget.styleSheet()
        if widget.objectName() in STYLED_NAMES:
            style_named_widget(widget, theme, presentation)
        if sheet and widget.styleSheet() == sheet:
            # A widget with a style sheet of its own took a copy of the palette and font when Qt styled it:
            # styling it again (it and its children, a few dozen widgets in all) gives it the new ones.
            widget.setStyleSheet(sheet)


_STYLES: list[NamedWidgetStyle] = []


def monospace_font(point_size: float | None = None) -> QFont:
    font = QFont("DejaVu Sans Mono")
    font.setStyleHint(QFont.StyleHint.Monospace)
    font.setFixedPitch(True)
    if point_size:
        font.setPointSizeF(point_size)
    return font


# ------------------------------------------------------------ class colours

# One colour per class (up to autograd_core.data.MAX_CLASSES), per theme.  Classes 0 and 1 keep the blue and
# orange of the two-class views (training_style.CLASS_COLORS); the others are far apart in hue and lightness.
CLASS_PALETTES: dict[str, tuple[str, ...]] = {
    "light": ("#1565c0", "#ef6c00", "#2e7d32", "#c2185b", "#6a1b9a", "#00838f"),
    "dark": ("#64b5f6", "#ffb74d", "#81c784", "#f06292", "#ba68c8", "#4dd0e1"),
}


def class_colors(theme: str = "light") -> tuple[str, ...]:
    """The class colours of ``theme`` as hex strings, class 0 first."""
    return CLASS_PALETTES["dark" if theme == "dark" else "light"]


def class_rgb(theme: str = "light") -> list[tuple[int, int, int]]:
    """The same as (r, g, b) triples (for ``autograd_core.regions.region_image``)."""
    return [(QColor(c).red(), QColor(c).green(), QColor(c).blue()) for c in class_colors(theme)]


# ------------------------------------------------------------ optimizer lab


@dataclass(frozen=True)
class LabColors:
    """The optimizer lab's colours: the surface's bands (low → high), the racers, the marks on the map."""

    surface_low: QColor
    surface_mid: QColor
    surface_high: QColor
    non_finite: QColor  # where f is inf or nan
    racers: tuple[QColor, ...]  # one per optimiser, distinct on both band ends
    minimum: QColor
    start: QColor
    arrows: QColor
    text: QColor


_LAB_RACERS = ("#e6194b", "#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd", "#00a5a5", "#d62fa0", "#8c564b")

_LAB = {
    "light": LabColors(
        surface_low=QColor("#fff7e6"),
        surface_mid=QColor("#9ecae1"),
        surface_high=QColor("#253494"),
        non_finite=QColor("#7a7a85"),
        racers=tuple(QColor(c) for c in _LAB_RACERS),
        minimum=QColor("#111111"),
        start=QColor("#111111"),
        arrows=QColor(40, 40, 50, 150),
        text=QColor("#1b1b1f"),
    ),
    "dark": LabColors(
        surface_low=QColor("#f2f0c8"),
        surface_mid=QColor("#3b7a9c"),
        surface_high=QColor("#141a33"),
        non_finite=QColor("#4a4a55"),
        racers=tuple(
            QColor(c) for c in ("#ff5c7a", "#5fb0ff", "#59d35f", "#ffa94d", "#c39bff", "#3fe0d0", "#ff7ad0", "#d9a27a")
        ),
        minimum=QColor("#ffffff"),
        start=QColor("#ffffff"),
        arrows=QColor(235, 235, 245, 150),
        text=QColor("#ecedf2"),
    ),
}


def lab_colors(theme: str) -> LabColors:
    return _LAB["dark" if theme == "dark" else "light"]
