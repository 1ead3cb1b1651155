"""The networkx graph model: attributes, edge multiplicity, layouts."""

import math

import networkx as nx
import pytest

from autograd_core import Tensor, topological_order
from autograd_core.drawing.graph import count_crossings, layout, to_networkx, update_values
from autograd_core.engine.explain import derivative_formula
from autograd_core.language.expression import compile_expression
from autograd_core.learn.nn import MLP


def build(text, **values):
    return compile_expression(text).evaluate(values)


def by_label(graph):
    return {attrs["label"]: n for n, attrs in graph.nodes(data=True) if attrs["label"]}


def test_node_attributes_of_a_small_neuron():
    ev = build("h = a*b + c\nout = h.tanh()", a=2.0, b=-3.0, c=10.0)
    ev.output.backward()
    graph = to_networkx(ev.output)
    assert isinstance(graph, nx.MultiDiGraph) and isinstance(graph, nx.DiGraph)
    assert sorted(graph.nodes) == list(range(6))  # a, b, a*b, c, h, out
    ids = by_label(graph)
    assert graph.graph["root"] == ids["out"] == 5
    out, h, a = graph.nodes[ids["out"]], graph.nodes[ids["h"]], graph.nodes[ids["a"]]
    assert (out["op"], out["kind"], out["data"], out["grad"]) == ("tanh", "op", math.tanh(4.0), 1.0)
    assert (h["op"], h["data"]) == ("+", 4.0)
    assert (a["op"], a["kind"], a["data"], a["depth"]) == ("", "input", 2.0, 0)
    assert a["grad"] == pytest.approx(-3.0 * (1 - math.tanh(4.0) ** 2))
    assert out["tensor"] is ev.output and a["tensor"] is ev.inputs["a"]
    assert [graph.nodes[ids[n]]["depth"] for n in ("a", "b", "c", "h", "out")] == [0, 0, 0, 2, 3]
    assert graph.graph["ids"][ev.output] == ids["out"]
    # ids follow the engine's topological order: every edge goes from a smaller id to a larger one
    assert [graph.nodes[i]["tensor"] for i in graph] == topological_order(ev.output)
    assert all(u < v for u, v in graph.edges())


def test_edges_carry_local_derivatives_and_formulas():
    ev = build("h = a*b + c\nout = h.tanh()", a=2.0, b=-3.0, c=10.0)
    graph = to_networkx(ev.output)
    ids = by_label(graph)
    ab = next(iter(graph.predecessors(ids["h"])))
    edge = graph.edges[ids["a"], ab, 0]
    assert (edge["local"], edge["index"], edge["formula"]) == (-3.0, 0, "b")
    assert graph.edges[ids["b"], ab, 1]["local"] == 2.0
    assert graph.edges[ids["h"], ids["out"], 0]["local"] == pytest.approx(1 - math.tanh(4.0) ** 2)
    for u, v, key, attrs in graph.edges(keys=True, data=True):
        child = graph.nodes[v]["tensor"]
        assert child.parents[key] is graph.nodes[u]["tensor"]
        assert attrs["local"] == child.local_grads[key]
        assert attrs["formula"] == derivative_formula(child, key)
    assert graph.number_of_edges() == sum(len(graph.nodes[n]["tensor"].parents) for n in graph)


@pytest.mark.parametrize("text", ["x*x", "x + x"])
def test_a_node_used_twice_by_one_op_keeps_both_edges(text):
    ev = build(text, x=3.0)
    graph = to_networkx(ev.output)
    assert graph.number_of_nodes() == 2
    assert graph.number_of_edges(0, 1) == 2
    assert sorted(graph[0][1]) == [0, 1]  # keyed by argument index
    expected = 3.0 if text == "x*x" else 1.0
    assert [graph.edges[0, 1, k]["local"] for k in (0, 1)] == [expected, expected]


def test_kinds_and_groups_from_the_network_builder():
    model = MLP(2, [2, 1], seed=0)
    x = [Tensor(0.5, label="x0"), Tensor(-1.0, label="x1")]
    out = model(x)
    graph = to_networkx(out)
    kinds = {attrs["kind"] for _, attrs in graph.nodes(data=True)}
    assert {"input", "parameter", "op"} <= kinds
    groups = {attrs["group"] for _, attrs in graph.nodes(data=True) if attrs["kind"] == "op"}
    names = {n.name for layer in model.layers for n in layer.neurons}
    assert groups == names
    leaf_groups = {attrs["group"] for _, attrs in graph.nodes(data=True) if attrs["kind"] == "input"}
    assert leaf_groups == {None}


def test_update_values_rereads_tensors():
    ev = build("a*b", a=2.0, b=5.0)
    graph = to_networkx(ev.output)
    assert graph.nodes[0]["grad"] == 0.0
    ev.output.backward()
    ev.inputs["a"].data = 7.0
    update_values(graph)
    assert graph.nodes[0]["grad"] == 5.0 and graph.nodes[0]["data"] == 7.0


def test_a_single_leaf_graph():
    graph = to_networkx(Tensor(1.0, label="x"))
    assert graph.number_of_nodes() == 1 and graph.number_of_edges() == 0
    for method in ("layered", "spring", "kamada_kawai"):
        assert layout(graph, method) == {0: (0.0, 0.0)}


# ------------------------------------------------------------------ layout

TEXTS = [
    "tanh(a*b + c)",
    "h = a*b + c*d\nk = a*d + b*c\nh*k + a*c",
    "tanh(a*x + b) * sigmoid(c*y + d) + x*y*2",
]


@pytest.mark.parametrize("text", TEXTS)
def test_layered_layout_goes_left_to_right(text):
    program = compile_expression(text)
    ev = program.evaluate({n: 0.5 for n in program.inputs})
    graph = to_networkx(ev.output)
    pos = layout(graph)
    assert set(pos) == set(graph.nodes)
    for u, v in graph.edges():
        assert pos[u][0] < pos[v][0]
    inputs = [n for n, k in graph.nodes(data="kind") if k == "input"]
    assert {pos[n][0] for n in inputs} == {0.0}
    root = graph.graph["root"]
    assert pos[root][0] == max(x for x, _ in pos.values())
    for column in {x for x, _ in pos.values()}:  # no two nodes on top of each other
        ys = [y for x, y in pos.values() if x == column]
        assert len(ys) == len(set(ys))


def test_constants_sit_next_to_their_use():
    ev = build("tanh(tanh(tanh(x))) * 2", x=0.5)
    graph = to_networkx(ev.output)
    pos = layout(graph)
    two = next(n for n, attrs in graph.nodes(data=True) if attrs["kind"] == "constant")
    assert pos[two][0] == pos[graph.graph["root"]][0] - 1


@pytest.mark.parametrize("method", ["layered", "spring", "kamada_kawai"])
def test_layouts_are_deterministic(method):
    text = TEXTS[2]
    values = {"a": 1.0, "b": 2.0, "c": 3.0, "d": 4.0, "x": 0.5, "y": -0.5}
    first = layout(to_networkx(build(text, **values).output), method)
    second = layout(to_networkx(build(text, **values).output), method)
    assert first == second
    assert all(isinstance(x, float) and isinstance(y, float) for x, y in first.values())
    assert all(math.isfinite(x) and math.isfinite(y) for x, y in first.values())


@pytest.mark.parametrize("method", ["spring", "kamada_kawai"])
def test_force_layouts_keep_the_output_right_of_the_leaves(method):
    ev = build(TEXTS[1], a=1.0, b=2.0, c=3.0, d=4.0)
    graph = to_networkx(ev.output)
    pos = layout(graph, method)
    leaves = [n for n in graph if graph.in_degree(n) == 0]
    assert pos[graph.graph["root"]][0] > sum(pos[n][0] for n in leaves) / len(leaves)


def test_barycenter_sweeps_cut_crossings():
    ev = build(TEXTS[1], a=1.0, b=2.0, c=3.0, d=4.0)
    graph = to_networkx(ev.output)
    before = count_crossings(graph, layout(graph, sweeps=0))
    after = count_crossings(graph, layout(graph))
    assert after < before


def test_count_crossings_on_a_hand_made_picture():
    graph = nx.DiGraph([(0, 2), (1, 3)])
    crossed = {0: (0.0, 0.0), 1: (0.0, 1.0), 2: (1.0, 1.0), 3: (1.0, 0.0)}
    straight = {0: (0.0, 0.0), 1: (0.0, 1.0), 2: (1.0, 0.0), 3: (1.0, 1.0)}
    assert count_crossings(graph, crossed) == 1 and count_crossings(graph, straight) == 0


def test_layout_of_a_plain_digraph_and_unknown_method():
    graph = nx.DiGraph([("a", "c"), ("b", "c"), ("c", "d")])
    pos = layout(graph)
    assert pos["a"][0] == pos["b"][0] == 0.0 and pos["d"][0] == 2.0
    with pytest.raises(ValueError, match="unknown layout"):
        layout(graph, "circular")
    assert layout(nx.MultiDiGraph()) == {}


def test_lexicographic_order_is_networkx_lexicographical_topological_sort():
    """The drawing's own topological order (collapsed graphs: string and int ids) is exactly networkx's."""
    import random

    from autograd_core.drawing.graph import _sort_key, lexicographic_order

    rng = random.Random(0)
    for _ in range(200):
        names = list(dict.fromkeys(rng.choice([i, f"group:{i}", f"L1.n{i}"]) for i in range(rng.randint(1, 50))))
        rng.shuffle(names)
        graph = nx.MultiDiGraph()
        graph.add_nodes_from(names)
        flow = rng.sample(names, len(names))
        for _ in range(rng.randint(0, 3 * len(flow))):
            a, b = rng.randrange(len(flow)), rng.randrange(len(flow))
            if a < b:
                graph.add_edge(flow[a], flow[b])  # (repeats: several keys)
        for g in (graph, nx.DiGraph(graph)):
            assert lexicographic_order(g) == list(nx.lexicographical_topological_sort(g, key=_sort_key))
    cycle = nx.MultiDiGraph([(0, 1), (1, 0)])
    with pytest.raises(nx.NetworkXUnfeasible):
        lexicographic_order(cycle)
