"""The graph view's fit policy without Qt: how large Fit shows a drawing, the readable floor, the legend's corner."""

import itertools

import numpy as np
import pytest

from autograd_core import Tensor
from autograd_core.drawing import fit_in_view
from autograd_core.drawing.fit import (
    ITEM_PAD,
    MAX_FIT_SCALE,
    PRESENTATION_TEXT_MARGIN,
    READABLE_POINTS,
    boxes_around_output,
    compute_drawing,
    layout_for_view,
    output_node,
    padded_obstacles,
    presentation_floor,
    view_scale,
    window_start,
)
from autograd_core.drawing.graph import to_networkx

BODY_POINTS = 9.9  # the boxes' value text at zoom 1 in normal mode (gui BoxFonts: 11 pt × 0.9)
SIZES_OF = (90.0, 48.0)  # a box's width and height at zoom 1


def weighted_sum(terms: int):
    """``tanh(Σ w_i·x_i)``: 3 × terms + 1 boxes, the inputs side by side in the first layer."""
    total = None
    for i in range(terms):
        product = Tensor(0.5, label=f"w{i}") * Tensor(1.0, label=f"x{i}")
        total = product if total is None else total + product
    out = total.tanh()
    out.label = "out"
    out.backward()
    return to_networkx(out)


def sizes(graph) -> dict:
    return {node: SIZES_OF for node in graph}


def a_view(width, height, corner=(0.0, 0.0), readable=0.0, margin=12.0):
    """(width, height, corner width, corner height, margin, largest scale, readable scale), as GraphView.view_shape."""
    return (float(width), float(height), *corner, margin, MAX_FIT_SCALE, readable)


def test_window_start_centers_on_the_focus_but_stays_inside_the_span():
    assert window_start(50.0, 0.0, 100.0, 20.0) == 40.0  # centered on the focus
    assert window_start(2.0, 0.0, 100.0, 20.0) == 0.0  # not before the span's start
    assert window_start(99.0, 0.0, 100.0, 20.0) == 80.0  # nor past its end
    assert window_start(10.0, 0.0, 100.0, 300.0) == -100.0  # a window larger than the span: the span centered


def test_the_output_is_the_last_sink():
    graph = weighted_sum(3)
    out = output_node(graph)
    assert graph.out_degree(out) == 0
    assert graph.nodes[out]["label"] == "out"


def test_fit_never_goes_past_the_largest_scale_and_grows_with_the_view():
    graph = weighted_sum(2)
    drawing = compute_drawing(graph, "layered", sizes(graph), view=a_view(4000, 3000))
    assert view_scale(drawing, a_view(4000, 3000)) == pytest.approx(MAX_FIT_SCALE)
    small, large = view_scale(drawing, a_view(300, 200)), view_scale(drawing, a_view(600, 400))
    assert small < large <= MAX_FIT_SCALE


def test_the_legend_corner_is_kept_clear():
    graph = weighted_sum(4)
    corner = (500.0, 250.0)  # a legend as wide as most of the view: the graph must shrink and move right
    view = a_view(800, 500, corner)
    drawing = compute_drawing(graph, "layered", sizes(graph), view=view)
    scale = view_scale(drawing, view)
    assert scale < 0.9 * view_scale(drawing, a_view(800, 500))
    # placed as GraphView.fit_placement places it: no box (as painted, pen included) under the corner
    left, top, right, bottom = drawing.extent()
    extent = (left - ITEM_PAD, top - ITEM_PAD, right + ITEM_PAD, bottom + ITEM_PAD)
    obstacles = padded_obstacles(drawing)
    fitted, x, y = fit_in_view(extent, obstacles, view[:2], corner, view[4], view[5])
    assert fitted == pytest.approx(scale)
    origin = np.array(extent[:2] * 2)
    on_screen = (obstacles - origin) * fitted + np.array((x, y, x, y))
    under_corner = (on_screen[:, 0] < corner[0]) & (on_screen[:, 3] > view[1] - corner[1])
    assert not under_corner.any()
    assert (on_screen[:, 2] <= view[0] + 1e-6).all() and (on_screen[:, 3] <= view[1] + 1e-6).all()  # all on screen


def test_a_drawing_chosen_for_the_view_is_at_least_as_large_as_the_plain_one():
    graph = weighted_sum(8)  # eight inputs in one layer: a tall, narrow drawing left to right
    view = a_view(1200, 400)
    plain = compute_drawing(graph, "layered", sizes(graph), view=(1e6, 1e6, 0.0, 0.0, 0.0, np.inf))
    chosen = compute_drawing(graph, "layered", sizes(graph), view=view)
    assert view_scale(chosen, view) >= view_scale(plain, view) - 1e-9


def test_boxes_around_the_output_count_only_what_a_cropped_fit_shows():
    graph = weighted_sum(8)
    view = a_view(500, 300)
    drawing = compute_drawing(graph, "layered", sizes(graph), view=view)
    whole = view_scale(drawing, view)
    assert boxes_around_output(drawing, graph, view, whole * 0.99) == graph.number_of_nodes()
    zoomed = boxes_around_output(drawing, graph, view, whole * 4)
    assert 1 <= zoomed < graph.number_of_nodes()  # the output at least, not everything


def test_the_readable_floor_keeps_text_at_nine_points_in_normal_mode():
    graph = weighted_sum(6)
    readable = READABLE_POINTS / BODY_POINTS
    view = a_view(400, 260, readable=readable)  # too small to show it whole that large
    drawing, floor = layout_for_view(graph, "layered", sizes(graph), view, (60.0, 14.0))
    assert view_scale(drawing, view) < readable  # the floor, not the view, decides how large Fit shows it
    assert floor == readable
    zoom = max(floor, min(MAX_FIT_SCALE, view_scale(drawing, view)))  # what Fit does with it
    assert zoom * BODY_POINTS >= READABLE_POINTS - 1e-9


def test_presentation_text_stays_larger_than_normal_modes():
    graph = weighted_sum(3)
    text_scale = 1.5
    normal_view = a_view(900, 600, readable=READABLE_POINTS / BODY_POINTS)
    reference = (sizes(graph), (60.0, 14.0), normal_view, text_scale)
    floor = presentation_floor(graph, "layered", reference)
    normal = compute_drawing(graph, "layered", sizes(graph), gaps=(60.0, 14.0), view=normal_view)
    normal_points = max(normal_view[6], min(MAX_FIT_SCALE, view_scale(normal, normal_view))) * BODY_POINTS
    presentation_points = floor * BODY_POINTS * text_scale
    assert presentation_points == pytest.approx(PRESENTATION_TEXT_MARGIN * normal_points)
    assert presentation_points >= PRESENTATION_TEXT_MARGIN * READABLE_POINTS - 1e-9
    # layout_for_view raises presentation mode's own readable zoom to that floor
    big = (SIZES_OF[0] * text_scale, SIZES_OF[1] * text_scale)
    view = a_view(900, 600, readable=READABLE_POINTS / BODY_POINTS)
    _drawing, raised = layout_for_view(graph, "layered", {n: big for n in graph}, view, (30.0, 8.0), reference)
    assert raised == pytest.approx(max(view[6], floor))


# ------------------------------------------------------------------ a network layer is one column


def network_sample_graph(hidden=(16, 16), fused=True):
    """A 2-…-1 network's sample graph, every neuron drawn as one box (as the Sample graph area opens it)."""
    from autograd_core.drawing.collapse import collapse_groups, groups_of
    from autograd_core.learn.inspection import sample_graph
    from autograd_core.learn.nn import MLP

    model = MLP(2, [*hidden, 1], seed=5)
    graph = to_networkx(sample_graph(model, (0.3, 0.2), 1, fused=fused).loss)
    return collapse_groups(graph, {g for g in groups_of(graph) if g != "loss"})


def unit_layers(graph) -> dict:
    """Network layer (1, 2, …) -> its neuron boxes."""
    from autograd_core.language.naming import unit_layer

    out: dict = {}
    for node, group in graph.nodes(data="group"):
        if (k := unit_layer(group)) is not None:
            out.setdefault(k, []).append(node)
    return out


def test_unit_layer_reads_back_unit_name():
    from autograd_core.language.naming import unit_layer, unit_name

    assert [unit_layer(unit_name(layer, i)) for layer, i in ((1, 0), (2, 15), (12, 3))] == [1, 2, 12]
    assert [unit_layer(name) for name in ("x1", "loss", "L1.n3.w2", "L0.n1", "term 3", None)] == [None] * 6


def test_splitting_wide_layers_keeps_each_network_layer_whole():
    from autograd_core.drawing import layered_order

    graph = network_sample_graph()
    layers = unit_layers(graph)
    assert sorted(len(nodes) for nodes in layers.values()) == [1, 16, 16]
    order = layered_order(graph, max_width=4)  # 16 > 4: before, each layer of 16 became 4 layers of 4
    for nodes in layers.values():
        assert len({order.layer_of[n] for n in nodes}) == 1
    # other wide layers are still split: the 12 inputs of a weighted sum (no network names) go to 3 layers
    plain = weighted_sum(12)
    split = layered_order(plain, max_width=4)
    inputs = [n for n in plain if plain.in_degree(n) == 0 and plain.nodes[n]["label"].startswith("x")]
    assert len({split.layer_of[n] for n in inputs}) >= 3


@pytest.mark.parametrize("view_px", [(1250, 820), (770, 510), (1200, 760), (640, 470)])
def test_the_sample_graph_of_2_16_16_1_draws_each_layer_as_one_column(view_px):
    """At the Sample graph's view sizes (1600×1000 and 1024×700 windows, normal and presentation), each layer of
    16 neurons is one column: before, the readable-scale policy wrapped it onto two rows of 8 top to bottom."""
    graph = network_sample_graph()
    box = {n: ((120.0, 48.0) if graph.nodes[n].get("kind") == "group" else SIZES_OF) for n in graph}
    drawing = compute_drawing(graph, "layered", box, view=a_view(*view_px, readable=READABLE_POINTS / BODY_POINTS))
    assert drawing.direction == "LR"
    for nodes in unit_layers(graph).values():
        xs = {round(drawing.centers[n][0], 3) for n in nodes}
        assert len(xs) == 1, xs
        ys = sorted(drawing.centers[n][1] for n in nodes)
        assert all(b - a >= 48.0 for a, b in itertools.pairwise(ys))  # stacked, none overlapping


def test_an_obstacle_right_of_and_above_another_changes_no_fit():
    """Fit looks only at the rectangles lower than every one left of them (one right of and above another is
    under the legend's corner only when that one is too): adding such rectangles changes no scale or place."""
    rng = np.random.default_rng(0)
    for t in range(3000):
        n = int(rng.integers(1, 40))
        corners = np.round(rng.uniform(0, 30, (n, 4))) * 25 if t % 2 else rng.uniform(0, 800, (n, 4))
        rects = np.concatenate(
            [np.minimum(corners[:, :2], corners[:, 2:]), np.maximum(corners[:, :2], corners[:, 2:])], 1
        )
        hidden = rects[rng.integers(0, n, 2 * n)] + rng.uniform(0, 50, (2 * n, 1)) * np.array([1.0, -1.0, 1.0, -1.0])
        extent = (
            float(rects[:, 0].min()),
            float(rects[:, 1].min()),
            float(rects[:, 2].max()),
            float(rects[:, 3].max()),
        )
        view = (float(rng.uniform(100, 1500)), float(rng.uniform(100, 1000)))
        corner = (float(rng.uniform(0, 500)), float(rng.uniform(0, 300)))
        alone = fit_in_view(extent, rects, view, corner, 12.0, 1.5)
        mixed = np.concatenate([rects, hidden])[rng.permutation(3 * n)]
        assert fit_in_view(extent, mixed, view, corner, 12.0, 1.5) == alone
