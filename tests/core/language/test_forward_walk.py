"""Forward mode walked node by node: the tangents of one seeded input, in topological order, against the
derivatives written out by hand."""

from __future__ import annotations

from autograd_core.engine.tensor import topological_order
from autograd_core.language.expression import compile_expression
from autograd_core.language.forward_walk import ForwardWalk


def walked(text: str, values: dict, seed: str) -> tuple:
    ev = compile_expression(text).evaluate(values)
    walk = ForwardWalk()
    walk.rebuild(ev.output, ev.inputs[seed])
    return ev, walk


def test_the_tangents_are_the_derivatives_by_hand_one_step_at_a_time():
    # y = a·b + c at a = 2, b = −3, c = 10: with ȧ = 1, ḃ = ċ = 0, d(a·b) = b = −3 and ẏ = −3
    ev, walk = walked("y = a*b + c", {"a": 2.0, "b": -3.0, "c": 10.0}, "a")
    order = topological_order(ev.output)
    assert [step.node for step in walk.trace] == order and len(order) == 5
    tangent = {step.node.label or step.node.op: step.tangent for step in walk.trace}
    assert tangent == {"a": 1.0, "b": 0.0, "*": -3.0, "c": 0.0, "y": -3.0}
    assert walk.position == 0 and walk.current is None and not walk.done
    assert walk.tangents(5) == (None,) * 5
    assert (
        walk.move(3)
        and walk.current is walk.trace[2]
        and walk.tangents(5)[:3] == tuple(s.tangent for s in walk.trace[:3])
    )
    assert walk.tangents(5)[3:] == (None, None)
    assert not walk.move(6) and not walk.move(-1) and walk.position == 3  # no such position: nothing moves
    assert walk.move(5) and walk.done and walk.trace[-1].tangent == -3.0


def test_the_step_just_taken_lights_its_node_and_the_edges_from_its_parents():
    ev, walk = walked("y = a*b + c", {"a": 2.0, "b": -3.0, "c": 10.0}, "b")
    ids = {t: i for i, t in enumerate(topological_order(ev.output))}
    assert walk.highlight(ids) is None  # no step taken
    mul = next(k for k, step in enumerate(walk.trace, 1) if step.node.op == "*")
    walk.move(mul)
    node = walk.current.node
    a, b = node.parents
    assert walk.current.tangent == 2.0  # d(a·b)/db = a
    assert walk.highlight(ids) == (
        frozenset({ids[node], ids[a], ids[b]}),
        frozenset({(ids[a], ids[node], 0), (ids[b], ids[node], 1)}),
        ids[node],
    )
    assert walk.highlight({}) is None  # a node the graph does not show


def test_a_new_graph_keeps_the_steps_taken_where_it_can_and_clear_forgets_them():
    _, walk = walked("y = a*b + c", {"a": 2.0, "b": -3.0, "c": 10.0}, "a")
    walk.move(4)
    smaller = compile_expression("y = 3*a").evaluate({"a": 1.0})
    walk.rebuild(smaller.output, smaller.inputs["a"])
    assert len(walk.trace) == 3 and walk.position == 3 and walk.done and walk.trace[-1].tangent == 3.0
    walk.rebuild(smaller.output, None)  # no input seeded: every tangent is 0
    assert [s.tangent for s in walk.trace] == [0.0, 0.0, 0.0]
    walk.clear()
    assert walk.trace == [] and walk.position == 0 and not walk.done
    walk.rebuild(None, None)
    assert walk.trace == []
