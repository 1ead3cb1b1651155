"""Big expressions in the graph view: opened as groups, navigable by mouse and keyboard, never freezing the window."""

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QCursor

from gui.expression_panel import ExpressionPanel
from gui.graph_view import NodeItem


def neurons(terms: int) -> str:
    """``h_i = tanh(w_i*x_i + b_i)`` summed: about 6 nodes per term (as benchmarks/bench_graph_view.py)."""
    lines = [f"h{i} = tanh(w{i}*x{i % 7} + b{i})" for i in range(terms)]
    lines.append("y = " + " + ".join(f"h{i}" for i in range(terms)))
    return "\n".join(lines)


def open_panel(qtbot, text: str) -> ExpressionPanel:
    panel = ExpressionPanel()
    qtbot.addWidget(panel)
    panel.resize(1400, 850)
    panel.show()
    panel.state.load(text, {})
    qtbot.waitUntil(lambda: not panel.view.busy and bool(panel.view.nodes), timeout=30000)
    return panel


def group_box(view, name: str) -> NodeItem:
    return view.nodes[f"group:{name}"]


def test_300_node_expression_opens_as_groups_that_open_and_close_by_mouse_and_keys(qtbot):
    panel = open_panel(qtbot, neurons(50))
    view = panel.view
    total = view.base_graph.number_of_nodes()
    assert total > 300
    # an overview, not a pile: one box per assigned name and one for the 50-term sum
    assert len(view.nodes) < total / 3
    assert "h7" in view.collapsed and isinstance(group_box(view, "h7"), NodeItem)
    # double-click opens h7: its members get their own boxes
    view.resetTransform()
    view.centerOn(group_box(view, "h7"))
    box = group_box(view, "h7")
    qtbot.mouseDClick(view.viewport(), Qt.MouseButton.LeftButton, pos=view.mapFromScene(box.pos()))
    qtbot.waitUntil(lambda: "h7" not in view.collapsed and not view.busy, timeout=30000)
    opened = [n for n, attrs in view.graph.nodes(data=True) if attrs.get("group") == "h7" and n in view.nodes]
    assert len(opened) >= 4 and "group:h7" not in view.nodes
    # Enter over one of its boxes closes the group again (keyboard, with the mouse over the box)
    view.resetTransform()
    view.centerOn(view.nodes[opened[0]])
    qtbot.wait(10)
    QCursor.setPos(view.viewport().mapToGlobal(view.mapFromScene(view.nodes[opened[0]].pos())))
    if view.node_at(view.viewport().mapFromGlobal(QCursor.pos())) != opened[0]:
        # offscreen platforms may not move the cursor: then the key has nothing under the mouse
        assert view.node_at(view.mapFromScene(view.nodes[opened[0]].pos())) == opened[0]
        view.toggle_group_of(opened[0])
    else:
        view.setFocus()
        qtbot.keyClick(view, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: "h7" in view.collapsed and not view.busy, timeout=30000)
    assert "group:h7" in view.nodes
    # Enter over empty space changes nothing
    before = set(view.collapsed)
    qtbot.keyClick(view, Qt.Key.Key_Return)
    qtbot.wait(20)
    assert view.collapsed == before


def test_value_change_when_zoomed_out_repaints_no_box_whose_look_is_unchanged(qtbot, monkeypatch):
    panel = open_panel(qtbot, neurons(60))
    view = panel.view
    view.expand_all()
    qtbot.waitUntil(lambda: not view.busy, timeout=30000)
    view.fit()
    assert view.fitted_text_points() < 4.5  # far out: no number is drawn
    view.viewport().grab()  # painted once, as on screen
    marked = []  # boxes asked to repaint
    original = NodeItem.update

    def counting(self, *args):
        marked.append(self.node)
        original(self, *args)

    monkeypatch.setattr(NodeItem, "update", counting)
    before = {n: item.value for n, item in view.nodes.items()}
    panel.state.set_value("x0", 0.123)  # gradients are not shown: every box keeps its colour
    changed = [n for n, item in view.nodes.items() if item.value != before[n]]
    assert changed  # the numbers did change (drawn on zooming in, and in tooltips)
    assert marked == []
    # with gradients shown, a box whose colour changes is repainted
    panel.state.backward()
    view.viewport().grab()
    marked.clear()
    panel.state.set_value("x0", -2.0)
    assert 0 < len(marked) < len(view.nodes)
    # zoomed in, the numbers can be read: every box whose numbers changed is repainted
    view.resetTransform()
    marked.clear()
    before = {n: item.value for n, item in view.nodes.items()}
    panel.state.set_value("x0", 0.5)
    changed = {n for n, item in view.nodes.items() if item.value != before[n]}
    assert changed and changed <= set(marked)


def test_big_expression_is_laid_out_while_the_event_loop_runs(qtbot):
    panel = open_panel(qtbot, "y = a")
    view = panel.view
    ticks = []
    timer = QTimer()
    timer.setInterval(5)
    timer.timeout.connect(lambda: ticks.append(view.busy))
    timer.start()
    panel.state.load(neurons(340), {})  # about 2,000 nodes
    assert view.busy  # drawing has not happened inside the call
    qtbot.waitUntil(lambda: not view.busy and bool(view.nodes), timeout=60000)
    timer.stop()
    assert ticks.count(True) >= 2  # the event loop kept running while the layout was computed
    assert len(view.nodes) < view.base_graph.number_of_nodes()  # opened as its overview
