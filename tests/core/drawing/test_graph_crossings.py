"""Crossing minimization of the layered drawing: the shortest layering, parallel paths, and dot as the bar."""

import itertools
import json
import random
from pathlib import Path

import networkx as nx
import pytest

from autograd_core.drawing import (
    _minimize,
    _swap_parallel,
    assign_layers,
    count_path_crossings,
    draw,
    flatten,
    layered_order,
    tight_layers,
)
from tests.graph_cases import cases, graph_of

DOT = json.loads((Path(__file__).resolve().parents[2] / "data" / "dot_crossings.json").read_text("utf-8"))


def total_length(graph, layer_of) -> int:
    return sum(layer_of[v] - layer_of[u] for u, v in graph.edges())


def shortest_by_brute_force(graph) -> int:
    """The least total edge length over every layering with layers 0..n-1 (tiny graphs only)."""
    nodes = list(graph)
    best = None
    for layers in itertools.product(range(len(nodes)), repeat=len(nodes)):
        layer_of = dict(zip(nodes, layers))
        if all(layer_of[v] > layer_of[u] for u, v in graph.edges()):
            length = total_length(graph, layer_of)
            best = length if best is None else min(best, length)
    return best


def random_dag(rng: random.Random, n: int) -> nx.MultiDiGraph:
    """A connected DAG on 0..n-1 (edges from lower to higher ids), some edges doubled (x*x)."""
    graph = nx.MultiDiGraph()
    graph.add_nodes_from(range(n))
    for v in range(1, n):
        graph.add_edge(rng.randrange(v), v)  # connected
        for u in range(v):
            if rng.random() < 0.25:
                graph.add_edge(u, v)
    return graph


def test_tight_layers_are_the_shortest_layering():
    rng = random.Random(3)
    for _ in range(40):
        graph = random_dag(rng, rng.randint(2, 6))
        layer_of = tight_layers(graph)
        assert all(layer_of[v] > layer_of[u] for u, v in graph.edges())
        assert min(layer_of.values()) == 0
        assert total_length(graph, layer_of) == shortest_by_brute_force(graph)


def test_tight_layers_on_typed_expressions_are_never_longer_than_the_default():
    shorter = 0
    for _name, text in cases(60):
        graph = graph_of(text)
        tight, default = tight_layers(graph), assign_layers(graph)
        assert all(tight[v] > tight[u] for u, v in graph.edges())
        assert total_length(graph, tight) <= total_length(graph, default)
        shorter += total_length(graph, tight) < total_length(graph, default)
    assert shorter  # the default's node-by-node moves miss the shortest layering on some of them


def test_tight_layers_by_hand_and_disconnected():
    # a → c, b → c, c → d, a → d: a must sit two layers before d; the shortest puts b next to c
    graph = nx.MultiDiGraph([("a", "c"), ("b", "c"), ("c", "d"), ("a", "d")])
    assert tight_layers(graph) == {"a": 0, "b": 0, "c": 1, "d": 2}
    assert tight_layers(nx.MultiDiGraph([(0, 1), (2, 3)])) is None  # two pieces: no spanning tree
    assert tight_layers(nx.MultiDiGraph()) == {}


def test_two_parallel_paths_swap_in_every_layer_they_share():
    """0 above 1 on top; their paths (2→4→6 from 1, 3→5→7 from 0) cross once between the first two
    layers.  Swapping 2 and 3 alone moves the crossing one layer down; swapping the paths removes it."""
    layers = [[0, 1], [2, 3], [4, 5], [6, 7]]
    down = [[3], [2], [4], [5], [6], [7], [], []]
    up = [[], [], [1], [0], [2], [3], [4], [5]]
    pos = [0, 1, 0, 1, 0, 1, 0, 1]
    changed = [False] * 4
    _swap_parallel(layers, 1, 0, up, down, pos, changed)
    assert layers == [[0, 1], [3, 2], [5, 4], [7, 6]]
    assert changed == [False, True, True, True]
    assert [pos[i] for i in range(8)] == [0, 1, 1, 0, 1, 0, 1, 0]
    # and the minimization finds it from the crossed start
    crossings, _layers = _minimize([[0, 1], [2, 3], [4, 5], [6, 7]], up, down, 24, False, True, True)
    assert crossings == 0


def test_a_swap_that_does_not_help_is_not_made():
    layers = [[0, 1], [2, 3], [4, 5]]
    down = [[2], [3], [4], [5], [], []]
    up = [[], [], [0], [1], [2], [3]]
    pos = [0, 1, 0, 1, 0, 1]
    _swap_parallel(layers, 1, 0, up, down, pos, [False] * 3)
    assert layers == [[0, 1], [2, 3], [4, 5]]


@pytest.mark.slow
@pytest.mark.parametrize("part", range(4))
def test_no_more_crossings_than_dot(part):
    """The bar: each example and each of the 200 random expressions crosses no more than Graphviz
    dot's drawing of it (recorded by benchmarks/bench_graph_layout.py --record, same boxes, edges as drawn)."""
    box = tuple(DOT["box"])
    named = cases(200)
    assert {name for name, _ in named} == set(DOT["crossings"])
    worse = []
    for name, text in named[part::4]:
        graph = graph_of(text)
        order = layered_order(graph)
        drawing = draw(graph, "layered", {n: box for n in graph}, layering=order)
        ours = count_path_crossings({e: flatten(drawing.path(e)) for e in drawing.paths})
        assert ours == order.crossings  # the count the ordering minimizes is the drawn one
        if ours > DOT["crossings"][name]:
            worse.append((name, ours, DOT["crossings"][name]))
    assert worse == []


def test_graphs_without_edges_are_ordered():
    assert layered_order(nx.MultiDiGraph()).crossings == 0
    one = nx.MultiDiGraph()
    one.add_node(0)
    order = layered_order(one)
    assert order.layers == [[0]] and order.crossings == 0
    two = nx.MultiDiGraph()
    two.add_nodes_from([0, 1])  # two inputs, no op yet
    assert sorted(it for layer in layered_order(two).layers for it in layer) == [0, 1]
