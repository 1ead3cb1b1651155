"""How the graph view looks: the theme's colors, the fonts boxes are measured and drawn in (larger in
presentation mode), and the pens and fills every item shares, built once per look rather than once per item
and repaint.  Owned by the ``GraphView``; the items and overlays read it."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QPen

from autograd_core.drawing import LAYER_GAP, NODE_GAP
from autograd_core.drawing.fit import NORMAL_FIT_MARGIN, PRESENTATION_FIT_MARGIN, PRESENTATION_GAPS

from ..look.theme import diverging_color, graph_colors


class BoxFonts:
    """The fonts of the boxes at one text scale, and the sizes a layout needs from them.

    Fitting a graph cancels bigger fonts if boxes and gaps grow alike, and wasted room shrinks the text.  So
    a box is as wide as its title and numbers need when it is laid out, and at least as wide as usual
    numbers need (a longer one met later, a slider away, is drawn a little smaller: the tooltip has it in
    full)."""

    VALUE_SAMPLE = "data −0.0000"

    def __init__(self, scale: float):
        base = 11.0 * scale
        self.title = QFont()
        self.title.setPointSizeF(base)
        self.title.setBold(True)
        self.body = QFont()
        self.body.setPointSizeF(base * 0.9)
        self.title_metrics = QFontMetricsF(self.title)
        self.body_metrics = QFontMetricsF(self.body)
        self.node_height = self.body_metrics.height() * 3 + 6
        self.value_width = self.body_metrics.horizontalAdvance(self.VALUE_SAMPLE)
        self.widths: dict[str, float] = {}  # box width per title (titles repeat: +, *, tanh)


class Appearance:
    """Theme, text scale and line width of one graph view, with the fonts, pens and fills they give."""

    def __init__(self, theme: str = "light"):
        self.theme = theme
        self.colors = graph_colors(theme)
        self.font_scale = 1.0
        self.line_width = 1.0
        self.presentation = False
        self.edge_pens: dict = {}
        self.box_pens: dict = {}
        self.plain_pens: dict = {}  # id(a box's pen) -> the same color and width, solid
        self.fills: dict = {}  # (theme, shade) -> QColor
        self._make_fonts()

    def _make_fonts(self) -> None:
        box = self.box_fonts = BoxFonts(self.font_scale)
        self.normal_box_fonts = box if self.font_scale == 1.0 else BoxFonts(1.0)  # presentation Fit's reference
        self.title_font, self.body_font, self.node_height = box.title, box.body, box.node_height
        self.body_metrics = box.body_metrics
        self.name_font = QFont(self.title_font)  # zoomed out: the name alone, twice as large
        self.name_font.setPointSizeF(box.title.pointSizeF() * 2.0)
        self.name_metrics = QFontMetricsF(self.name_font)
        self.name_points = self.name_font.pointSizeF()
        # for the projector the gaps between layers and around the graph stay narrow (see BoxFonts)
        self.fit_margin = PRESENTATION_FIT_MARGIN if self.presentation else NORMAL_FIT_MARGIN
        self.gaps = PRESENTATION_GAPS if self.presentation else (LAYER_GAP, NODE_GAP)  # between layers, boxes

    def set_theme(self, theme: str) -> None:
        self.theme = theme
        self.colors = graph_colors(theme)

    def set_presentation(self, on: bool) -> None:
        """Bigger text and thicker lines for a projector."""
        self.presentation = bool(on)
        self.font_scale = 1.5 if on else 1.0
        self.line_width = 1.6 if on else 1.0
        self._make_fonts()

    def edge_pen(self, highlighted: bool) -> QPen:
        """The pen of every edge (built once per look, not once per edge and repaint)."""
        key = (self.theme, self.line_width, highlighted)
        pen = self.edge_pens.get(key)
        if pen is None:
            color = self.colors.highlight if highlighted else self.colors.edge
            pen = QPen(color, self.line_width * (3.0 if highlighted else 1.2))
            pen.setCapStyle(Qt.PenCapStyle.FlatCap)  # no square cap poking past the arrow's tip
            self.edge_pens[key] = pen
        return pen

    def fill_for(self, shade: int | None) -> QColor:
        """A box's fill for a gradient of color strength ``shade``/128 (None: no gradient)."""
        key = (self.theme, shade)
        color = self.fills.get(key)
        if color is None:
            color = self.colors.neutral_fill if shade is None else diverging_color(shade / 128.0, self.theme)
            self.fills[key] = color
        return color

    def box_pen(self, kind: str, non_finite: bool, highlighted: bool, current: bool) -> QPen:
        """A box's border pen, built once per look (kind, state, theme, line width) and shared by every box."""
        key = (kind, non_finite, highlighted, current, self.theme, self.line_width)
        pen = self.box_pens.get(key)
        if pen is None:
            colors, lw = self.colors, self.line_width
            pen = QPen(colors.op_border, lw)
            if kind == "input":
                pen = QPen(colors.leaf_border, lw * 2)
            elif kind == "parameter":
                pen = QPen(colors.parameter_border, lw * 2)
            elif kind == "constant":
                pen = QPen(colors.constant_border, lw, Qt.PenStyle.DashLine)
            elif kind == "group":
                pen = QPen(colors.parameter_border, lw * 1.5, Qt.PenStyle.DashDotLine)
            if non_finite:
                pen = QPen(colors.non_finite, lw * 3)
            if highlighted:
                pen = QPen(colors.highlight, lw * (4 if current else 3))
            self.box_pens[key] = pen
        return pen

    def plain_pen(self, pen: QPen) -> QPen:
        """``pen``'s color and width, solid: a far-out box's outline (a dashed outline of a 2-pixel box is noise)."""
        plain = self.plain_pens.get(id(pen))
        if plain is None:
            plain = self.plain_pens[id(pen)] = QPen(pen.color(), pen.widthF())
        return plain
