"""Graph drawings are truthful in scene units, for every layout: no edge through a box, no overlap, edges ending on
their target's border, folds and bends, crossings counted on the drawn paths (drawn in the view, legible at Fit:
tests/gui/graph_view/test_graph_geometry_gui.py)."""

import pytest

from autograd_core.drawing import (
    box_overlaps,
    count_path_crossings,
    draw,
    edge_box_hits,
    fit_in_view,
    flatten,
    fold_blocks,
    layered_order,
)
from tests.graph_cases import EXAMPLES, cases, graph_of

METHODS = ("layered", "spring", "kamada_kawai")


def sizes_for(graph):
    """Box sizes as the view makes them: wider for long titles."""
    return {n: (96.0 + 7.0 * len(str(a.get("label") or a.get("op") or "")), 54.0) for n, a in graph.nodes(data=True)}


@pytest.mark.slow
@pytest.mark.parametrize("method", METHODS)
def test_no_edge_crosses_a_box_and_no_boxes_overlap(method):
    count = 300 if method != "kamada_kawai" else 120  # Kamada–Kawai is O(n²) per graph
    for name, text in cases(count):
        graph = graph_of(text)
        drawing = draw(graph, method, sizes_for(graph))
        assert edge_box_hits(drawing) == [], (name, method)
        assert box_overlaps(drawing) == [], (name, method)
        assert set(drawing.paths) == set(graph.edges(keys=True))


@pytest.mark.slow
@pytest.mark.parametrize("method", METHODS)
def test_a_network_with_collapsed_and_open_groups_is_drawn_truthfully(method):
    """Group boxes (string ids) next to open nodes (int ids), as the sample graph shows a network."""
    from autograd_core.drawing.collapse import collapse_groups
    from autograd_core.drawing.graph import to_networkx
    from autograd_core.learn.inspection import sample_graph
    from autograd_core.learn.nn import MLP

    graph = to_networkx(sample_graph(MLP(2, [16, 16, 1], seed=0), (0.3, 0.2), 1, "bce", fused=True).loss)
    neurons = {f"L{k}.n{j}" for k in (1, 2) for j in range(1, 17)} | {"L3.n1"}
    for collapsed in (neurons, neurons - {"L2.n3"}, neurons - {"L1.n1", "L3.n1"}):
        shown = collapse_groups(graph, collapsed)
        drawing = draw(shown, method, sizes_for(shown))
        assert edge_box_hits(drawing) == [] and box_overlaps(drawing) == []


@pytest.mark.parametrize("direction", ["LR", "TB"])
def test_layered_edges_end_on_the_target_border_and_parallel_edges_stay_apart(direction):
    graph = graph_of("y = x*x + x")
    drawing = draw(graph, "layered", sizes_for(graph), direction=direction)
    for (u, v, key), arrow in drawing.arrows.items():
        left, top, right, bottom = drawing.box(v)
        tip = (arrow[0], arrow[1])
        on_border = (tip[0] in (left, right) and top <= tip[1] <= bottom) or (
            tip[1] in (top, bottom) and left <= tip[0] <= right
        )
        assert on_border, (u, v, key, tip, drawing.box(v))
        assert flatten(drawing.path((u, v, key)))[-1] == pytest.approx(tip)
    square = [e for e in drawing.paths if graph.nodes[e[1]]["op"] == "*"]
    assert len(square) == 2
    tips = {(round(drawing.arrows[e][0], 3), round(drawing.arrows[e][1], 3)) for e in square}
    assert len(tips) == 2  # two arrowheads, two lines: x is used twice


@pytest.mark.slow
@pytest.mark.parametrize("direction", ["LR", "TB"])
def test_folded_layered_drawings_are_truthful_and_cross_no_more_than_their_order(direction):
    """A deep drawing folded into blocks of layers side by side: every edge that wraps from one block to the
    next has a lane of its own, touches no box and lands on its target's border; the lanes nest, so the
    drawing crosses no more than its order of layers does (as the unfolded drawing)."""
    folded_some = 0
    for name, text in cases(80):
        graph = graph_of(text)
        sizes = sizes_for(graph)
        order = layered_order(graph)
        for folds in (2, 3):
            if len(order.layers) < 2 * folds:
                continue
            folded_some += 1
            drawing = draw(graph, "layered", sizes, direction=direction, layering=order, folds=folds)
            assert edge_box_hits(drawing) == [], (name, folds)
            assert box_overlaps(drawing) == [], (name, folds)
            assert set(drawing.paths) == set(graph.edges(keys=True))
            for (u, v, key), arrow in drawing.arrows.items():
                left, top, right, bottom = drawing.box(v)
                assert left - 1e-6 <= arrow[0] <= right + 1e-6 and top - 1e-6 <= arrow[1] <= bottom + 1e-6
                assert flatten(drawing.path((u, v, key)))[-1] == pytest.approx(arrow[:2])
            crossings = count_path_crossings({e: flatten(drawing.path(e)) for e in drawing.paths})
            assert crossings <= order.crossings, (name, folds, crossings, order.crossings)
    assert folded_some > 50


def test_a_fold_puts_blocks_side_by_side_and_shortens_a_deep_drawing():
    text = next(e["text"] for e in EXAMPLES if e["name"] == "micrograd test: more ops")
    graph = graph_of(text)
    order = layered_order(graph)
    blocks = fold_blocks(order, sizes_for(graph), "TB", (34.0, 16.0), 2)
    assert blocks[0] == 0 and 0 < blocks[1] < len(order.layers)
    plain = draw(graph, "layered", sizes_for(graph), direction="TB", layering=order)
    folded = draw(graph, "layered", sizes_for(graph), direction="TB", layering=order, folds=2)
    (pl, pt, pr, pb), (fl, ft, fr, fb) = plain.extent(), folded.extent()
    assert fb - ft < 0.7 * (pb - pt)  # about half as tall...
    assert fr - fl > 1.3 * (pr - pl)  # ... and wider
    first = {n for n in graph if order.layer_of[n] < blocks[1]}
    right_of_first = max(folded.box(n)[2] for n in first)
    assert all(folded.box(n)[0] > right_of_first for n in graph if n not in first)  # the second block beside


def test_fit_in_view_keeps_the_legend_corner_clear_and_uses_the_rest():
    # a drawing 100×100 with a box in its bottom-left corner; a view 200×200 with a 60×60 corner reserved
    extent = (0.0, 0.0, 100.0, 100.0)
    boxes = [(0.0, 80.0, 20.0, 100.0), (80.0, 0.0, 100.0, 20.0)]
    scale, x, y = fit_in_view(extent, boxes, (200.0, 200.0), (60.0, 60.0))
    # at scale s the box at the bottom left clears the corner only if moved right (x ≥ 60, x ≤ 200 − 100 s)
    # or up (y + 100 s ≤ 140): s = 1.4, against 2.0 for the whole view and 1.4 above the corner
    assert scale == pytest.approx(1.4, abs=1e-3)
    scale, x, y = fit_in_view(extent, boxes, (200.0, 200.0), (60.0, 60.0), margin=10.0)
    assert scale == pytest.approx(1.3, abs=1e-3)
    assert x + 20.0 * scale <= 60.0 + 1e-3 or y + 100.0 * scale <= 140.0 + 1e-3 or x >= 60.0 - 1e-3
    assert x >= 10.0 - 1e-6 and y >= 10.0 - 1e-6
    assert x + 100.0 * scale <= 190.0 + 1e-3 and y + 100.0 * scale <= 190.0 + 1e-3
    # a drawing whose corner is empty uses the whole view, beside the legend
    scale, x, y = fit_in_view((0.0, 0.0, 100.0, 50.0), [(40.0, 0.0, 100.0, 50.0)], (200.0, 200.0), (60.0, 60.0))
    assert scale == pytest.approx(2.0) and x == pytest.approx(0.0)
    # with no box in the corner, the drawing is centered at the full scale
    scale, x, y = fit_in_view(extent, boxes[1:], (200.0, 200.0), (60.0, 60.0), margin=10.0)
    assert scale == pytest.approx(1.8) and x == pytest.approx(10.0) and y == pytest.approx(10.0)


def test_long_edges_bend_around_boxes_in_between():
    """The startup complaint: in h = a*b + c; y = tanh(h) * 2 the edge from c entered the * box."""
    graph = graph_of("h = a*b + c\ny = tanh(h) * 2")
    drawing = draw(graph, "layered", sizes_for(graph))
    assert edge_box_hits(drawing) == []
    order = layered_order(graph)
    spans = [len(chain) - 2 for chain in order.chains.values()]
    assert max(spans) == 0 or any(s > 0 for s in spans)  # an edge that skips a layer gets virtual slots


def test_crossings_are_counted_on_drawn_paths():
    crossing = {(0, 2, 0): [(0.0, 0.0), (1.0, 1.0)], (1, 3, 0): [(0.0, 1.0), (1.0, 0.0)]}
    apart = {(0, 2, 0): [(0.0, 0.0), (1.0, 0.0)], (1, 3, 0): [(0.0, 1.0), (1.0, 1.0)]}
    shared_end = {(0, 2, 0): [(0.0, 0.0), (1.0, 1.0)], (1, 2, 0): [(0.0, 1.0), (1.0, 0.0)]}
    assert count_path_crossings(crossing) == 1
    assert count_path_crossings(apart) == 0
    assert count_path_crossings(shared_end) == 0  # edges into one node are not compared
    # crossing exactly at a vertex of both polylines: once, not twice or never
    at_vertex = {
        (0, 2, 0): [(0.0, 0.0), (1.0, 1.0), (2.0, 2.0)],
        (1, 3, 0): [(0.0, 2.0), (1.0, 1.0), (2.0, 0.0)],
        (4, 5, 0): [(0.0, 1.0), (1.0, 1.0), (2.0, 1.0)],  # a third edge through the same point
    }
    assert count_path_crossings(at_vertex) == 3
    touching = {(0, 2, 0): [(0.0, 0.0), (2.0, 0.0)], (1, 3, 0): [(1.0, 1.0), (1.0, 0.0), (3.0, -2.0)]}
    assert count_path_crossings(touching) == 1  # a vertex on the other line


def test_examples_cross_no_more_than_a_tree_must():
    """Every example except micrograd's two tests is drawn with no crossing at all."""
    for example in EXAMPLES:
        graph = graph_of(example["text"])
        drawing = draw(graph, "layered", sizes_for(graph))
        crossings = count_path_crossings({e: flatten(drawing.path(e)) for e in drawing.paths})
        if "micrograd test" not in example["name"]:
            assert crossings == 0, example["name"]


# ------------------------------------------------------------------ in the view
