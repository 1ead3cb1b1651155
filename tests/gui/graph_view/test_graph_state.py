"""One source of truth: a state change is one signal and one immutable snapshot; stepping is incremental."""

import pytest
from PySide6.QtCore import Qt

from autograd_core.language.trace import grads_after
from gui.graph_view.graph_state import Change


@pytest.fixture
def panel(qtbot, expression_panel):
    widget = expression_panel
    widget.resize(1200, 700)
    widget.state.load("h = a*b + c\ny = tanh(h) * 2", {"a": 0.5, "b": -1.0, "c": 0.25})
    qtbot.waitUntil(lambda: not widget.view.busy)
    return widget


def record(state):
    changes = []
    state.changed.connect(changes.append)
    return changes


def count_calls(monkeypatch, obj, name):
    calls = []
    original = getattr(obj, name)

    def counted(*args, **kwargs):
        calls.append(args)
        return original(*args, **kwargs)

    monkeypatch.setattr(obj, name, counted)
    return calls


def test_a_slider_move_is_one_signal_and_one_inputs_refresh(qtbot, panel, monkeypatch):
    changes = record(panel.state)
    refreshes = count_calls(monkeypatch, panel.inputs, "refresh")
    slider = panel.inputs.rows["a"].slider
    slider.setValue(slider.value() + 40)  # as a drag step does
    assert len(changes) == 1 and changes[0] & Change.VALUES and not changes[0] & Change.STRUCTURE
    assert len(refreshes) == 1
    snap = panel.state.snapshot
    assert isinstance(snap.values, tuple) and isinstance(snap.grads, tuple)
    # the view shows the snapshot's numbers, not a copy kept elsewhere
    for node, item in panel.view.nodes.items():
        assert item.value == snap.values[node]


def test_a_text_edit_is_one_signal(qtbot, panel, monkeypatch):
    changes = record(panel.state)
    rebuilds = count_calls(monkeypatch, panel.inputs, "rebuild")
    refreshes = count_calls(monkeypatch, panel.inputs, "refresh")
    panel.evaluate("h = a*b + c\ny = tanh(h) * 3 + d")
    assert len(changes) == 1
    assert changes[0] & Change.PROGRAM and changes[0] & Change.STRUCTURE
    assert len(rebuilds) == 1 and len(refreshes) <= 1  # a rebuild refreshes the rows it keeps


def test_a_typing_error_is_one_signal_and_keeps_the_snapshot(qtbot, panel):
    before = panel.state.snapshot
    changes = record(panel.state)
    panel.evaluate("h = a*b +")
    assert changes == [Change.ERROR] and panel.state.snapshot is before


def test_snapshots_never_change_after_they_are_made(qtbot, panel):
    first = panel.state.snapshot
    values, grads = first.values, first.grads
    panel.state.backward()
    panel.state.set_value("a", 1.5)
    assert first.values == values and first.grads == grads
    assert panel.state.snapshot is not first and panel.state.snapshot.values != values


def test_stepping_forward_and_back_matches_a_replay_from_zero(qtbot, panel):
    state = panel.state
    state.step()
    total = len(state.steps)
    for k in range(1, total + 1):
        if k > 1:
            state.step()
        expected = grads_after(state.root, state.steps, k)
        assert state.snapshot.grads == tuple(expected.get(t) for t in state.tensors), k
    for k in range(total - 1, -1, -1):
        state.back()
        expected = grads_after(state.root, state.steps, k)
        assert state.snapshot.grads == tuple(expected.get(t) for t in state.tensors), k
        ledger = panel.backward.sentences()
        assert len(ledger) == len(state.ledger())
        assert all(line.startswith(f"{n}. ") for line, (n, _s) in zip(ledger, state.ledger()))


def test_ledger_lines_are_added_one_step_at_a_time(qtbot, panel):
    qtbot.mouseClick(panel.backward.step_button, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(panel.backward.step_button, Qt.MouseButton.LeftButton)
    first_item = panel.backward.ledger.item(0)
    qtbot.mouseClick(panel.backward.step_button, Qt.MouseButton.LeftButton)
    assert panel.backward.ledger.item(0) is first_item  # kept, not rewritten
    assert panel.backward.sentences() == [f"{n}. {s}" for n, s in panel.state.ledger()]
    bold = [panel.backward.ledger.item(i).font().bold() for i in range(panel.backward.ledger.count())]
    current = [n == panel.state.position for n, _s in panel.state.ledger()]
    assert bold == current
