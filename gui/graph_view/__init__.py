"""The graph view: a zoomable drawing of a computation graph (see ``view``), re-exported for the rest of the app.

Its parts: ``view`` (GraphView: scene, building, layout jobs), ``navigation`` (Fit and zoom), ``items`` (boxes,
edges, box fonts), ``overlays`` (legend, overview map), ``numbers`` (box numbers, tooltips), ``export``
(PNG/SVG); the Qt-free parts are in the core: ``autograd_core.drawing.fit`` (the fit policy) and
``autograd_core.drawing.collapse`` (groups drawn as one box).
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

from .items import BoxFonts, BoxLayer, EdgeBundle, EdgeItem, NodeItem, TrunkItem, painter_path
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
