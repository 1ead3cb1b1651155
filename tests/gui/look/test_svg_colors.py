"""A notebook's SVG picture of a graph (``autograd_core.draw``, no Qt) uses the graph view's palette, and colors a
box's fill and text as the view does, so the two never drift apart."""

from __future__ import annotations

import pytest

from autograd_core.drawing.svg import THEMES, fill_color, text_color
from autograd_core.drawing.svg import gradient_strength as svg_strength
from gui.look.theme import PALETTES, diverging_color, gradient_strength, readable_text


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_the_svg_themes_are_the_graph_views_palette(theme):
    p = PALETTES[theme]
    assert THEMES[theme] == {
        "background": p.graph_background,
        "text": p.graph_text,
        "muted": p.graph_muted,
        "edge": p.graph_edge,
        "input": p.leaf_border,
        "parameter": p.parameter_border,
        "constant": p.constant_border,
        "op": p.op_border,
        "node": p.node_fill,
        "negative": p.gradient_negative,
        "positive": p.gradient_positive,
        "error": p.error,
    }


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("grad", [-50.0, -0.3, -1e-5, 0.0, 2e-4, 0.7, 50.0, float("nan")])
def test_a_box_is_filled_and_written_as_the_view_paints_it(theme, grad):
    scale = 50.0
    assert svg_strength(grad, scale) == gradient_strength(grad, scale)
    view_fill = diverging_color(gradient_strength(grad, scale), theme).name()
    assert fill_color(grad, scale, THEMES[theme]) == view_fill
    assert text_color(view_fill) == readable_text(view_fill, theme).name()
