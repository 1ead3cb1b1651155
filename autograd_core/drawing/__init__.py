"""Where every box and every edge of a graph drawing goes, in scene units (no Qt).

The view gives each node's box size; ``draw(graph, method, sizes)`` returns a
``Drawing``: box centers and, for every edge, a path that touches no box it
does not connect and ends with its arrowhead on the target box's border.

Layered drawings follow Sugiyama's method, as Graphviz ``dot`` does:

1. *Layers.*  Longest path from the leaves, then each node moves to the
   layer that shortens its edges (a leaf sits just before its first use).
2. *Virtual nodes.*  An edge that skips layers gets one slot in each layer
   it crosses, so it passes *between* boxes, never behind one.
3. *Order.*  Start from the depth-first order (no crossing at all for a tree),
   then barycenter sweeps and adjacent swaps ("transpose"); the order with the
   fewest crossings wins.
4. *Coordinates.*  Each layer is placed by isotonic regression: every node as
   close as possible to the mean of its neighbors, boxes kept apart by a gap
   (virtual slots weigh more, so long edges stay straight).
5. *Routes.*  An edge leaves its source's border, runs through each layer at
   its slot's height and crosses each gap between layers as a cubic curve (its
   control points stay inside the gap, where there is no box).  Each box
   spreads its edges' ports along its border in the order of the other ends,
   so the two edges of ``x*x`` are two lines with two arrowheads.

Force layouts (spring, Kamada–Kawai) are scaled to the box sizes, their
overlaps are pushed apart, and an edge that would cross a box is bent around it.
"""

from __future__ import annotations

from autograd_core.drawing.base import (
    BEND_ROOM,
    COMPACT_NODES,
    COMPACT_THOROUGH_NODES,
    EDGE_GAP,
    FORCE_GAP,
    LANE_GAP,
    LANE_MARGIN,
    LAYER_GAP,
    MIN_LAYER_GAP,
    NODE_GAP,
    PACK_GAIN,
    QUICK_SWEEPS,
    RESTART_WORK,
    RESTARTS,
    THOROUGH_SEGMENTS,
    TRANSPOSE_SEGMENTS,
    TRUNK_EDGES,
    Drawing,
    EdgeKey,
    Point,
    clear_of_corner,
    fit_in_view,
)
from autograd_core.drawing.crossings import (
    _Crossings,
    _dfs_rank,
    _layer_crossings,
    _minimize,
    _order,
    _order_layering,
    _pair_costs,
    _positions,
    _sift,
    _sort_by_barycenter,
    _swap_parallel,
    _total_crossings,
    _transpose,
    layered_order,
)
from autograd_core.drawing.force import _extent, _force_drawing, _shown_scale, compact, pack_rows, remove_overlaps
from autograd_core.drawing.layering import (
    LayeredOrder,
    _is_virtual,
    _limit_width,
    _natural,
    argument_indices,
    assign_layers,
    fold_blocks,
    layer_width_for,
    tight_layers,
)
from autograd_core.drawing.layout import draw
from autograd_core.drawing.placement import _layered_drawing, _place_layer, _port_order, _spread
from autograd_core.drawing.quality import box_overlaps, count_path_crossings, edge_box_hits, flatten
from autograd_core.drawing.routing import (
    _box,
    _BoxIndex,
    _detour,
    _exit_point,
    _inflate,
    _visibility_route,
    route_straight,
    segment_box_entry,
)

__all__ = [
    "BEND_ROOM",
    "COMPACT_NODES",
    "COMPACT_THOROUGH_NODES",
    "EDGE_GAP",
    "FORCE_GAP",
    "LANE_GAP",
    "LANE_MARGIN",
    "LAYER_GAP",
    "MIN_LAYER_GAP",
    "NODE_GAP",
    "PACK_GAIN",
    "QUICK_SWEEPS",
    "RESTARTS",
    "RESTART_WORK",
    "THOROUGH_SEGMENTS",
    "TRANSPOSE_SEGMENTS",
    "TRUNK_EDGES",
    "Drawing",
    "EdgeKey",
    "LayeredOrder",
    "Point",
    "_BoxIndex",
    "_Crossings",
    "_box",
    "_detour",
    "_dfs_rank",
    "_exit_point",
    "_extent",
    "_force_drawing",
    "_inflate",
    "_is_virtual",
    "_layer_crossings",
    "_layered_drawing",
    "_limit_width",
    "_minimize",
    "_natural",
    "_order",
    "_order_layering",
    "_pair_costs",
    "_place_layer",
    "_port_order",
    "_positions",
    "_shown_scale",
    "_sift",
    "_sort_by_barycenter",
    "_spread",
    "_swap_parallel",
    "_total_crossings",
    "_transpose",
    "_visibility_route",
    "argument_indices",
    "assign_layers",
    "box_overlaps",
    "clear_of_corner",
    "compact",
    "count_path_crossings",
    "draw",
    "edge_box_hits",
    "fit_in_view",
    "flatten",
    "fold_blocks",
    "layer_width_for",
    "layered_order",
    "pack_rows",
    "remove_overlaps",
    "route_straight",
    "segment_box_entry",
    "tight_layers",
]
