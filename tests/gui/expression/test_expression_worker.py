"""A long typed text is compiled and its graph built on a worker thread; the newest text wins."""

import math
import threading

from autograd_core.engine.tensor import topological_order
from autograd_core.language.expression import compile_expression
from gui.expression import text_preparer
from gui.expression.expression_state import DEFAULT_VALUES
from gui.expression.text_preparer import ASYNC_TEXT_CHARS
from gui.graph_view.worker import LatestJob
from tests.expression_gui_helpers import LAYOUT_WAIT_MS


def long_sum_text(terms: int = 400, extra: str = "") -> str:
    """A long paste: ``tanh(a*k.5 + b*c_j)`` summed, about 5 nodes a term (2,000 for 400)."""
    return " + ".join(f"tanh(a*{k % 7 + 1}.5 + b*c{k % 5})" for k in range(terms)) + extra


def by_hand(terms: int, values: dict) -> tuple[float, float]:
    """The sum's value and its derivative with respect to ``a``, written out with math.tanh."""
    total = d_a = 0.0
    for k in range(terms):
        w = k % 7 + 1.5
        t = math.tanh(values["a"] * w + values["b"] * values[f"c{k % 5}"])
        total += t
        d_a += w * (1.0 - t * t)
    return total, d_a


def drawn(panel, text: str) -> bool:
    return panel.state.text == text and not panel.state.pending and not panel.view.busy and bool(panel.view.nodes)


def test_pasting_a_2000_node_expression_draws_it_with_the_engines_numbers(qtbot, expression_panel, monkeypatch):
    panel = expression_panel
    threads = []
    for name in ("compile_expression", "overview_graph"):
        original = getattr(text_preparer, name)

        def spy(*args, _original=original, _name=name, **kwargs):
            threads.append((_name, threading.current_thread() is threading.main_thread()))
            return _original(*args, **kwargs)

        monkeypatch.setattr(text_preparer, name, spy)
    text = long_sum_text()
    assert len(text) >= ASYNC_TEXT_CHARS
    panel.editor.edit.setPlainText(text)  # a paste: the typing pause hands it to the state
    qtbot.waitUntil(lambda: panel.state.pending or panel.state.text == text, timeout=5000)
    qtbot.waitUntil(lambda: drawn(panel, text), timeout=60000)
    # both heavy steps ran once each, neither on the GUI thread
    assert threads == [("compile_expression", False), ("overview_graph", False)]
    state, view = panel.state, panel.view
    values = {name: state.values[name] for name in state.inputs}
    assert state.inputs == ["a", "b", "c0", "c1", "c2", "c3", "c4"]
    assert list(values.values()) == list(DEFAULT_VALUES[:7])
    order = topological_order(state.root)
    assert view.base_graph is state.graph and state.graph.number_of_nodes() == len(order) > 2000
    # the numbers drawn are the engine's: against a fresh evaluation and against the sum written out by hand
    fresh = compile_expression(text).evaluate(values).output
    total, d_a = by_hand(400, values)
    assert math.isclose(state.root.data, total, rel_tol=1e-12) and state.root.data == fresh.data
    assert view.snapshot is state.snapshot and view.snapshot.values == tuple(t.data for t in order)
    root_id = state.node_ids[state.root]
    box = next(item for item in view.nodes.values() if item.source == root_id)  # the Σ group's box (overview)
    assert box.value == total
    # after Backward the gradient drawn for a is d(sum)/da
    state.backward()
    qtbot.waitUntil(lambda: not view.busy, timeout=LAYOUT_WAIT_MS)
    a_id = state.node_ids[state.evaluation.inputs["a"]]
    assert math.isclose(view.snapshot.grads[a_id], d_a, rel_tol=1e-9)
    assert math.isclose(state.input_grad("a"), d_a, rel_tol=1e-9)


def test_two_texts_set_in_quick_succession_end_with_the_second_drawn(qtbot, expression_panel):
    panel = expression_panel
    first, second = long_sum_text(300), long_sum_text(320, " + a")
    panel.state.request_text(first)
    panel.state.request_text(second)
    qtbot.waitUntil(lambda: drawn(panel, second), timeout=60000)
    qtbot.wait(100)  # anything the first request still had on the way has arrived (and been dropped)
    assert panel.state.text == second and panel.view.base_graph is panel.state.graph
    values = {name: panel.state.values[name] for name in panel.state.inputs}
    assert math.isclose(panel.state.root.data, by_hand(320, values)[0] + values["a"], rel_tol=1e-12)


def test_an_older_texts_graph_finished_late_is_never_drawn_over_the_newer_one(qtbot, expression_panel, monkeypatch):
    """The first text's graph is held on the worker until the second text was asked for: it is dropped."""
    panel = expression_panel
    release, building = threading.Event(), []
    original = text_preparer.overview_graph

    def held(root, *args):
        building.append(root)
        if len(building) == 1:
            assert release.wait(30)
        return original(root, *args)

    monkeypatch.setattr(text_preparer, "overview_graph", held)
    first, second = long_sum_text(300), long_sum_text(310)
    panel.state.request_text(first)
    qtbot.waitUntil(lambda: len(building) == 1, timeout=30000)  # the first text compiled; its graph is on the way
    panel.state.request_text(second)
    release.set()
    qtbot.waitUntil(lambda: drawn(panel, second), timeout=60000)
    qtbot.wait(100)
    assert panel.state.text == second and len(building) == 2
    assert panel.state.graph.number_of_nodes() == len(topological_order(panel.state.root))
    assert panel.view.base_graph is panel.state.graph
    # and a text set at once (Ctrl+Return, an example) wins over one still being prepared
    panel.state.request_text(first)
    panel.state.set_text("y = a*b + c", force=True)
    qtbot.waitUntil(lambda: not panel.state.pending and not panel.view.busy, timeout=30000)
    qtbot.wait(300)
    assert panel.state.text == "y = a*b + c" and panel.state.root.data == 2.0 * -3.0 + 10.0
    assert panel.view.base_graph is panel.state.graph and panel.state.graph.number_of_nodes() == 5


def test_a_slider_moved_while_the_graph_is_built_is_in_the_numbers_drawn(qtbot, expression_panel, monkeypatch):
    panel = expression_panel
    release = threading.Event()
    original = text_preparer.overview_graph
    started = []

    def held(root, *args):
        started.append(True)
        assert release.wait(30)
        return original(root, *args)

    monkeypatch.setattr(text_preparer, "overview_graph", held)
    text = long_sum_text(300)
    panel.state.request_text(text)
    qtbot.waitUntil(lambda: bool(started), timeout=30000)
    panel.state.set_value("a", 0.25)  # the old program's a (the defaults are given when the text compiled)
    release.set()
    qtbot.waitUntil(lambda: drawn(panel, text), timeout=60000)
    values = {name: panel.state.values[name] for name in panel.state.inputs}
    assert values["a"] == 0.25
    assert math.isclose(panel.view.snapshot.values[-1], by_hand(300, values)[0], rel_tol=1e-12)


def test_latest_job_hands_back_only_the_newest_result(qtbot):
    job = LatestJob()
    gate = threading.Event()
    got = []
    job.submit(lambda: gate.wait(10) and "old", then=got.append)
    job.submit(lambda: "new", then=got.append)
    assert job.pending
    gate.set()
    qtbot.waitUntil(lambda: not job.pending, timeout=10000)
    qtbot.wait(50)
    assert got == ["new"]
    errors = []
    job.submit(lambda: 1 / 0, then=got.append, failed=errors.append)
    qtbot.waitUntil(lambda: not job.pending, timeout=10000)
    assert got == ["new"] and isinstance(errors[0], ZeroDivisionError)
    job.submit(lambda: "dropped", then=got.append)
    job.cancel()
    qtbot.wait(100)
    assert got == ["new"] and not job.pending


def test_a_long_text_with_a_mistake_says_where_and_keeps_the_last_graph(qtbot, expression_panel):
    panel = expression_panel
    good = long_sum_text(300)
    panel.state.request_text(good)
    qtbot.waitUntil(lambda: drawn(panel, good), timeout=60000)
    shown = panel.state.graph
    bad = good + " +"
    panel.editor.edit.setPlainText(bad)
    qtbot.waitUntil(lambda: panel.state.text == bad and not panel.state.pending, timeout=30000)
    err = panel.state.error
    assert err is not None and err.line == 1 and err.column >= len(good)
    assert panel.state.graph is shown and panel.view.base_graph is shown  # the last good graph, dimmed
    assert panel.view.dimmed and panel.editor.error_label.isVisible()
