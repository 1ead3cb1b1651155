"""A layout that fails says so and leaves the view usable (never busy for ever, never blank without a word)."""

import pytest

import autograd_core.drawing.fit as fit_module  # where layout_for_view looks up compute_drawing
from autograd_core import Tensor
from autograd_core.drawing.graph import to_networkx
from gui.graph_view import GraphView


def chain(length: int) -> Tensor:
    x = Tensor(0.5, label="x")
    y = x
    for _ in range(length):
        y = (y * 1.1).tanh()
    y.backward()
    return y


@pytest.mark.parametrize("length", [2, 40], ids=["laid-out-at-once", "laid-out-on-the-worker-thread"])
def test_a_failing_layout_is_reported_and_the_next_graph_is_drawn(qtbot, monkeypatch, length):
    view = GraphView()
    view.resize(900, 600)
    qtbot.addWidget(view)
    view.show()
    messages: list[str] = []
    view.message.connect(messages.append)

    real = fit_module.compute_drawing

    def broken(*args, **kwargs):
        raise ZeroDivisionError("float division by zero")

    monkeypatch.setattr(fit_module, "compute_drawing", broken)
    view.set_graph(to_networkx(chain(length)))
    qtbot.waitUntil(lambda: any("Layout failed" in m for m in messages), timeout=10000)
    assert not view.busy
    assert any("ZeroDivisionError" in m for m in messages)

    monkeypatch.setattr(fit_module, "compute_drawing", real)
    graph = to_networkx(chain(length))
    view.set_graph(graph)
    qtbot.waitUntil(lambda: not view.busy and len(view.nodes) == graph.number_of_nodes(), timeout=10000)
