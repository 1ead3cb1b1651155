"""Big expressions in the graph view: opened as groups, navigable by mouse and keyboard, never freezing the window."""

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QColor, QCursor

from gui.expression_panel import ExpressionPanel
from gui.graph_view import BoxLayer, NodeItem


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


def box_pixels(view) -> list[tuple[NodeItem, QColor]]:
    """(box, colour on screen at its centre) for every box at least 5 pixels wide and tall in the viewport."""
    image = view.viewport().grab().toImage()
    scale = view.transform().m11()
    out = []
    for item in view.nodes.values():
        if item.width * scale < 5 or item.height * scale < 5:
            continue
        point = view.mapFromScene(item.pos())
        if image.rect().contains(point):
            out.append((item, QColor(image.pixel(point))))
    return out


def test_value_change_when_zoomed_out_repaints_no_box_whose_look_is_unchanged(qtbot, monkeypatch):
    panel = open_panel(qtbot, neurons(60))
    view = panel.view
    view.expand_all()
    qtbot.waitUntil(lambda: not view.busy, timeout=30000)
    view.fit()
    assert view.fitted_text_points() < 4.5  # far out: no number is drawn
    view.viewport().grab()  # painted once, as on screen
    regrouped = []  # the box layer sorting its boxes by colour again: a box's look changed
    original = BoxLayer._regroup

    def counting(self):
        regrouped.append(self)
        return original(self)

    monkeypatch.setattr(BoxLayer, "_regroup", counting)
    before = {n: item.value for n, item in view.nodes.items()}
    panel.state.set_value("x0", 0.123)  # gradients are not shown: every box keeps its colour
    view.viewport().grab()
    changed = [n for n, item in view.nodes.items() if item.value != before[n]]
    assert changed  # the numbers did change (drawn on zooming in, and in tooltips)
    assert regrouped == []
    # with gradients shown, the boxes whose colour changes are drawn in their new colour
    panel.state.backward()
    drawn = box_pixels(view)
    assert len(drawn) > 100
    assert all(colour == item.fill() for item, colour in drawn)
    shades = {item.node: item.shade for item in view.nodes.values()}
    panel.state.set_value("x0", -2.0)
    drawn = box_pixels(view)
    recoloured = [item for item, _ in drawn if item.shade != shades[item.node]]
    assert 0 < len(recoloured) < len(drawn)
    assert all(colour == item.fill() for item, colour in drawn)
    # zoomed in, the numbers can be read: every box whose numbers changed is repainted
    marked = []
    original_update = NodeItem.update

    def marking(self, *args):
        marked.append(self.node)
        original_update(self, *args)

    monkeypatch.setattr(NodeItem, "update", marking)
    view.resetTransform()
    view.viewport().grab()
    before = {n: item.value for n, item in view.nodes.items()}
    panel.state.set_value("x0", 0.5)
    changed = {n for n, item in view.nodes.items() if item.value != before[n]}
    assert changed and changed <= set(marked)


def test_zoomed_out_boxes_still_answer_the_mouse(qtbot):
    """Far out the box layer paints the boxes; each box still has its tooltip and opens its group."""
    panel = open_panel(qtbot, neurons(60))
    view = panel.view
    view.fit()
    view.zoom(0.1)  # far out: plain boxes, painted by the layer
    view.viewport().grab()
    assert view._plain
    box = group_box(view, "h7")
    point = view.mapFromScene(box.pos())
    assert view.node_at(point) == "group:h7"
    assert "h7" in view.tooltip_for("group:h7")
    qtbot.mouseDClick(view.viewport(), Qt.MouseButton.LeftButton, pos=point)
    qtbot.waitUntil(lambda: "h7" not in view.collapsed and not view.busy, timeout=30000)


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
