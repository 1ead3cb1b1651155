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


def test_a_slow_layout_shows_a_busy_sign_until_the_graph_is_drawn(qtbot, monkeypatch):
    """A layout on the worker thread that takes a while: the empty view says what it is doing, and the sign
    goes when the boxes are drawn (a blank view with no word read as a hang)."""
    import threading

    view = GraphView()
    view.resize(900, 600)
    qtbot.addWidget(view)
    view.show()
    real = fit_module.compute_drawing
    release = threading.Event()

    def slow(*args, **kwargs):
        release.wait(10)  # the layout runs until the test lets it finish
        return real(*args, **kwargs)

    monkeypatch.setattr(fit_module, "compute_drawing", slow)
    graph = to_networkx(chain(40))
    boxes = graph.number_of_nodes()
    view.set_graph(graph)
    qtbot.waitUntil(lambda: view.busy_sign.isVisible(), timeout=5000)
    assert view.busy and f"Laying out {boxes} boxes (layered layout)" in view.busy_sign.text()
    sign = view.busy_sign.geometry()
    assert view.viewport().rect().contains(sign)  # in the view, not off its edge
    release.set()
    qtbot.waitUntil(lambda: not view.busy, timeout=10000)
    assert not view.busy_sign.isVisible() and len(view.nodes) == boxes


def test_a_quick_layout_never_flashes_the_sign(qtbot):
    view = GraphView()
    view.resize(900, 600)
    qtbot.addWidget(view)
    view.show()
    view.set_graph(to_networkx(chain(2)))
    qtbot.waitUntil(lambda: not view.busy, timeout=10000)
    qtbot.wait(200)
    assert not view.busy_sign.isVisible()


def test_a_layout_outdated_while_it_waits_its_turn_is_never_computed(qtbot, monkeypatch):
    """Three graphs set while a slow layout runs: the middle one's layout is skipped (the last one is shown),
    so quick edits during a long layout cost two layouts, not three."""
    import threading

    view = GraphView()
    view.resize(900, 600)
    qtbot.addWidget(view)
    view.show()
    # (the look for a better layout 200 ms after the first resize, once done: else it may lay the last graph out
    # again, and count, when the three graphs are drawn within those 200 ms)
    qtbot.waitUntil(lambda: view.settled, timeout=5000)
    real = fit_module.compute_drawing
    release, laid_out = threading.Event(), []

    def slow(graph, *args, **kwargs):
        laid_out.append(graph.number_of_nodes())
        if len(laid_out) == 1:
            release.wait(10)  # the first layout runs until the next two graphs are set
        return real(graph, *args, **kwargs)

    monkeypatch.setattr(fit_module, "compute_drawing", slow)
    first, middle, last = (to_networkx(chain(n)) for n in (40, 41, 42))
    view.set_graph(first)
    qtbot.waitUntil(lambda: laid_out == [first.number_of_nodes()], timeout=5000)
    view.set_graph(middle)
    qtbot.wait(50)  # (its job is queued behind the first)
    view.set_graph(last)
    qtbot.wait(50)
    release.set()
    qtbot.waitUntil(lambda: not view.busy, timeout=10000)
    assert laid_out == [first.number_of_nodes(), last.number_of_nodes()]
    assert len(view.nodes) == last.number_of_nodes()


def test_a_layout_that_ends_after_its_view_was_deleted_ends_quietly(qtbot):
    """A job on the layout thread holds only weak references to its view; its last word goes through the app's
    courier, which outlives every view (a carrier owned by the view could be deleted in the GUI thread while the
    worker emitted on it: a crash), and is dropped for a deleted view without an error."""
    import gc
    import threading
    from weakref import WeakMethod

    from PySide6.QtCore import QCoreApplication, QEvent

    from gui.graph_view.layout_runner import layout_job
    from gui.graph_view.worker import gui_courier

    view = GraphView()
    delivered = []
    view.layouts._done = lambda *done: delivered.append(done)  # what would reach the view
    reply, generation = view.layouts.reply, view.layouts.current_generation()
    current = WeakMethod(view.layouts.current_generation)
    graph = to_networkx(chain(3))
    sizes = {node: (80.0, 40.0) for node in graph}
    args = (generation, graph, "layered", sizes, (900.0, 600.0), (120.0, 30.0), reply, None, lambda: None)
    worker = threading.Thread(target=layout_job, args=args)  # an outdated job's word, from another thread
    worker.start()
    worker.join()
    qtbot.waitUntil(lambda: len(delivered) == 1)  # a live view gets it, on the GUI thread
    view.deleteLater()
    del view
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    gc.collect()
    courier = gui_courier()
    args = (generation, graph, "layered", sizes, (900.0, 600.0), (120.0, 30.0), reply, None, current)
    worker = threading.Thread(target=layout_job, args=args)
    worker.start()
    worker.join()
    QCoreApplication.processEvents()
    assert gui_courier() is courier and len(delivered) == 1  # the deleted view's word was dropped
