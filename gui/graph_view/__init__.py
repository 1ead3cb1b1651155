"""The graph view: a zoomable drawing of a computation graph (see ``view``), re-exported for the rest of the app.

Its parts, composed by ``view`` (GraphView, a small widget): ``appearance`` (theme, fonts, shared pens),
``layout_runner`` (layouts, on a worker thread when slow), ``builder`` (the scene's items, added in batches; their
numbers and highlights), ``items`` (boxes, edges), ``navigation`` (Fit and zoom, where the overlays sit),
``overlays`` (legend, overview map), ``export`` (PNG/SVG); the Qt-free parts are in the core:
``autograd_core.drawing.fit`` (the fit policy), ``autograd_core.drawing.collapse`` (groups drawn as one box) and
``autograd_core.graph_numbers`` (what a box and its tooltip say).
"""

from autograd_core.drawing.collapse import collapse_groups, groups_of
from autograd_core.drawing.fit import (
    MAX_FIT_SCALE,
    PRESENTATION_TEXT_MARGIN,
    READABLE_FIT_MAX_BOXES,
    READABLE_POINTS,
    compute_drawing,
    layout_for_view,
    presentation_floor,
    view_scale,
)

from .appearance import Appearance, BoxFonts
from .items import BoxLayer, EdgeBundle, EdgeItem, NodeItem, TrunkItem, painter_path
from .overlays import Legend, OverviewMap
from .view import (
    HUGE_GRAPH_NODES,
    LARGE_GRAPH_NODES,
    LAYOUTS,
    GraphView,
    tool_button,
    view_tool_buttons,
)

__all__ = [
    "HUGE_GRAPH_NODES",
    "LARGE_GRAPH_NODES",
    "LAYOUTS",
    "MAX_FIT_SCALE",
    "PRESENTATION_TEXT_MARGIN",
    "READABLE_FIT_MAX_BOXES",
    "READABLE_POINTS",
    "Appearance",
    "BoxFonts",
    "BoxLayer",
    "EdgeBundle",
    "EdgeItem",
    "GraphView",
    "Legend",
    "NodeItem",
    "OverviewMap",
    "TrunkItem",
    "collapse_groups",
    "compute_drawing",
    "groups_of",
    "layout_for_view",
    "painter_path",
    "presentation_floor",
    "tool_button",
    "view_scale",
    "view_tool_buttons",
]
