"""The entry point: one call that picks the layered or the force layout."""

from __future__ import annotations

import networkx as nx

from autograd_core.drawing.base import LAYER_GAP, NODE_GAP, Drawing
from autograd_core.drawing.crossings import layered_order
from autograd_core.drawing.force import _force_drawing
from autograd_core.drawing.layering import fold_blocks
from autograd_core.drawing.placement import _layered_drawing

# ------------------------------------------------------------------ entry


def draw(
    graph: nx.DiGraph,
    method: str = "layered",
    sizes: dict | None = None,
    *,
    direction: str = "LR",
    layering=None,
    gaps: tuple[float, float] = (LAYER_GAP, NODE_GAP),
    aspect: float | None = None,
    folds: int = 1,
    view: tuple | None = None,
    positions: dict | None = None,
) -> Drawing:
    """A drawing of ``graph`` with boxes of ``sizes`` ({node: (w, h)}, default 100×50).

    ``direction`` ("LR" or "TB") orients a layered drawing; ``layering`` (from
    ``layered_order``) lets both orientations share the ordering work; ``gaps``
    are the space between layers and between two boxes of a layer; ``folds``
    cuts a deep layered drawing into that many blocks of layers side by side
    (``fold_blocks``); ``aspect`` (width/height of the view) stretches a force
    layout towards the view's shape, and ``view`` (width, height, legend corner
    width and height, margin, largest scale: see ``fit_in_view``) compacts it
    to show largest there.  ``positions`` (``graph.layout``'s for ``method``) spares a force layout
    computed already, for other box sizes.
    """
    sizes = {n: (sizes or {}).get(n, (100.0, 50.0)) for n in graph.nodes}
    if graph.number_of_nodes() == 0:
        return Drawing({}, {}, {}, {}, direction)
    if method == "layered":
        order = layering if layering is not None else layered_order(graph)
        blocks = fold_blocks(order, sizes, direction, gaps, folds) if folds > 1 else None
        return _layered_drawing(graph, order, sizes, direction, gaps, blocks)
    from autograd_core.drawing.graph import layout

    pos = positions if positions is not None else layout(graph, method)
    if view is not None and aspect is None:
        aspect = max(view[0] - 2 * view[4], 1.0) / max(view[1] - 2 * view[4], 1.0)
    return _force_drawing(graph, pos, sizes, aspect, view)
