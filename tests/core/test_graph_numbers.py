"""What a graph box and its tooltip say, read without Qt, against numbers worked out by hand."""

from autograd_core import Tensor
from autograd_core.drawing.collapse import collapse_groups
from autograd_core.drawing.graph import snapshot_of_graph, to_networkx
from autograd_core.graph_numbers import box_lines, box_title, grad_of, node_name, tooltip_html, value_of


def test_a_box_title_names_its_node_op_group_or_collapsed_group():
    assert box_title({"label": "x", "op": "", "kind": "input"}) == "x"
    assert box_title({"label": "", "op": "*", "kind": "op"}) == "*"
    assert box_title({"label": "softsign", "op": "x/(1+|x|)", "kind": "op"}) == "softsign = x/(1+|x|)"
    assert box_title({"label": "", "op": "+", "kind": "op", "group": "h1"}) == "h1 · +"
    assert box_title({"label": "", "op": "", "kind": "constant"}) == "const"
    group = {"label": "h1", "op": "neuron", "kind": "group", "output_op": "relu"}
    assert box_title(group) == "▣ h1 · relu"
    assert box_title({**group, "output_op": "+", "output_label": "score"}) == "▣ h1 · score"


def test_a_box_shows_data_or_a_groups_output_and_its_gradient_at_a_glance():
    assert box_lines("op", 0.5, -2.0, "grad") == ("data 0.5", "grad −2")
    assert box_lines("group", 1.0, None, "∂²f/∂x²") == ("out 1", "∂²f/∂x² —")


def test_the_tooltip_gives_full_numbers_and_each_local_derivative():
    x = Tensor(3.0, label="x")
    y = x * x  # dy/dx through each edge: x = 3; y = 9, grad of x = 6
    y.label = "y"
    y.backward()
    graph = to_networkx(y)
    snap = snapshot_of_graph(graph)
    ids = {attrs["label"]: n for n, attrs in graph.nodes(data=True)}
    assert value_of(snap, ids["y"], graph.nodes[ids["y"]]) == 9.0
    assert grad_of(snap, ids["x"], graph.nodes[ids["x"]]) == 6.0
    text = tooltip_html(graph, graph, snap, ids["y"])
    assert text.startswith("<b>y</b> (op, op *)")
    assert "data = 9.0" in text and "grad = 1.0" in text
    assert text.count("∂y/∂x = ") == 2 and "= 3.0" in text  # one line per edge of x * x
    assert "grad = 6.0" in tooltip_html(graph, graph, snap, ids["x"])
    assert node_name({"label": "", "op": "tanh"}, 7) == "tanh #7"


def test_a_collapsed_group_shows_its_output_and_lists_its_parameters():
    w, x = Tensor(2.0, label="w"), Tensor(5.0, label="x")
    out = (w * x).tanh()
    graph = to_networkx(out)
    for attrs in graph.nodes.values():
        if attrs["label"] == "w":
            attrs["kind"] = "parameter"
        if attrs["label"] != "x":
            attrs["group"] = "n1"
    drawn = collapse_groups(graph, {"n1"})
    snap = snapshot_of_graph(graph)
    box = "group:n1"
    value = value_of(snap, box, drawn.nodes[box])  # its output's: tanh(10), 1 to 4 digits
    assert box_lines("group", value, None, "grad")[0] == "out 1"
    text = tooltip_html(drawn, graph, snap, box)
    assert "w = 2, grad 0" in text and "Double-click to expand this group." in text
