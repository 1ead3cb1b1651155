"""Big expressions in the graph view: opened as groups, navigable by mouse and keyboard, never freezing the window."""

import pytest
from PySide6.QtCore import QPoint, Qt, QTimer
from PySide6.QtGui import QColor, QCursor, QTextCursor
from PySide6.QtWidgets import QApplication

from autograd_core.numbers import format_number
from gui.expression.expression_panel import ExpressionPanel
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
    vp = view.viewport().rect()
    points = (QPoint(x, y) for x in range(4, vp.width(), 17) for y in range(4, vp.height(), 17))
    QCursor.setPos(view.viewport().mapToGlobal(next(p for p in points if view.node_at(p) is None)))
    before = set(view.collapsed)
    assert view.node_at(view.viewport().mapFromGlobal(QCursor.pos())) is None
    qtbot.keyClick(view, Qt.Key.Key_Return)
    qtbot.wait(20)
    assert view.collapsed == before


def box_pixels(view) -> list[tuple[NodeItem, QColor]]:
    """(box, color on screen at its center) for every box at least 5 pixels wide and tall in the viewport."""
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
    regrouped = []  # the box layer sorting its boxes by color again: a box's look changed
    original = BoxLayer._regroup

    def counting(self):
        regrouped.append(self)
        return original(self)

    monkeypatch.setattr(BoxLayer, "_regroup", counting)
    before = {n: item.value for n, item in view.nodes.items()}
    panel.state.set_value("x0", 0.123)  # gradients are not shown: every box keeps its color
    view.viewport().grab()
    changed = [n for n, item in view.nodes.items() if item.value != before[n]]
    assert changed  # the numbers did change (drawn on zooming in, and in tooltips)
    assert regrouped == []
    # with gradients shown, the boxes whose color changes are drawn in their new color
    panel.state.backward()
    drawn = box_pixels(view)
    assert len(drawn) > 100
    assert all(color == item.fill() for item, color in drawn)
    shades = {item.node: item.shade for item in view.nodes.values()}
    panel.state.set_value("x0", -2.0)
    drawn = box_pixels(view)
    recolored = [item for item, _ in drawn if item.shade != shades[item.node]]
    assert 0 < len(recolored) < len(drawn)
    assert all(color == item.fill() for item, color in drawn)
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
    assert view.builder.plain
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


def test_a_slider_move_redraws_every_box_with_its_new_value_and_gradient(qtbot):
    panel = open_panel(qtbot, neurons(60))
    view = panel.view
    view.expand_all()
    qtbot.waitUntil(lambda: not view.busy, timeout=30000)
    view.resetTransform()  # zoomed in: the numbers are drawn as text
    state = panel.state

    def shown_text_matches():
        for item in view.nodes.values():
            value_text, grad_text = item.texts()
            assert value_text == f"data {format_number(state.tensors[item.node].data)}"
            assert grad_text == f"grad {format_number(state.snapshot.grad(item.node))}"

    view.viewport().grab()
    panel.state.set_value("x0", 1.75)
    view.viewport().grab()
    shown_text_matches()
    state.backward()
    panel.state.set_value("x0", -0.5)  # after Backward the gradients follow the slider too
    view.viewport().grab()
    shown_text_matches()
    x0 = state.node_ids[state.evaluation.inputs["x0"]]
    assert view.nodes[x0].grad == state.evaluation.inputs["x0"].grad != 0.0


def test_a_2000_node_graph_built_in_batches_draws_every_node_and_edge(qtbot):
    panel = open_panel(qtbot, neurons(340))
    view = panel.view
    batches = []
    view.layout_started.connect(lambda: batches.clear())
    original = view.builder.run_batch

    def counted():
        batches.append(len(view.builder.pending))
        original()

    view.builder.batch_timer.timeout.disconnect()
    view.builder.batch_timer.timeout.connect(counted)
    view.expand_all()
    qtbot.waitUntil(lambda: not view.busy, timeout=60000)
    assert len(batches) >= 2  # built over several event-loop turns
    graph = view.base_graph
    assert set(view.nodes) == set(graph.nodes) and len(view.nodes) > 2000
    assert set(view.edges) == set(graph.edges(keys=True))
    rect = view.graph_rect()
    assert rect == view.builder.root.childrenBoundingRect()  # kept while building, not asked of 4,000 items
    slack = rect.adjusted(-1e-6, -1e-6, 1e-6, 1e-6)  # (a box on the edge: boxes fit their text, widths are fractional)
    assert all(slack.contains(item.sceneBoundingRect()) for item in view.nodes.values())


def test_typing_a_new_expression_while_a_big_one_is_being_drawn_shows_only_the_new_one(qtbot):
    panel = open_panel(qtbot, "y = a")
    view = panel.view
    small = "h = p*q + r\ny = tanh(h)"

    def only_the_small_one_is_drawn():
        qtbot.waitUntil(lambda: not view.busy and bool(view.nodes), timeout=60000)
        qtbot.wait(300)  # a late layout or batch of the big graph would arrive meanwhile: it must be dropped
        labels = {view.graph.nodes[n].get("label") for n in view.nodes}
        assert {"p", "q", "r", "h", "y"} <= labels
        assert len(view.nodes) == view.base_graph.number_of_nodes() == 6  # p, q, r, *, + and tanh
        assert set(view.edges) == set(view.base_graph.edges(keys=True))
        assert all(item.scene() is view.scene() for item in view.nodes.values())
        drawn = [i for i in view.scene().items() if isinstance(i, NodeItem) and i.isVisible()]
        assert len(drawn) == 6  # nothing of the big graph is left in the scene

    # while its layout is computed on the worker thread
    panel.state.load(neurons(340), {})
    assert view.busy and not view.nodes
    panel.evaluate(small)
    only_the_small_one_is_drawn()
    # while its items are being added, batch after batch
    panel.state.load(neurons(340), {})
    # (the big graph itself drawn, as its overview: not the small one, before the big one reached the view)
    qtbot.waitUntil(lambda: not view.busy and view.base_graph.number_of_nodes() > 2000, timeout=60000)
    original = view.builder.run_batch

    def one_batch_then_hold():  # (on a fast machine the whole build ends between two of waitUntil's looks)
        original()
        if view.nodes and view.builder.pending:
            view.builder.batch_timer.stop()

    view.builder.batch_timer.timeout.disconnect()
    view.builder.batch_timer.timeout.connect(one_batch_then_hold)
    view.expand_all()
    qtbot.waitUntil(lambda: bool(view.builder.pending) and bool(view.nodes), timeout=60000)
    assert view.busy
    panel.evaluate(small)
    only_the_small_one_is_drawn()


@pytest.mark.slow
def test_a_big_overview_makes_edge_items_only_when_needed_and_its_bundles_bound_what_the_items_would(qtbot):
    """Plain edges are painted by their bundles: building a 1,600-edge overview makes none of their own items
    (a highlight makes those it needs), and each bundle still covers exactly what its edges' items paint."""
    from gui.graph_view import EdgeBundle, EdgeItem

    panel = open_panel(qtbot, " + ".join(f"tanh(a*{k % 7 + 1}.5 + b*c{k % 5})" for k in range(400)))
    view = panel.view
    edges = view.edges
    assert len(edges) == view.graph.number_of_edges() > 1000 and set(edges) == set(view.graph.edges(keys=True))
    assert not edges.made and not any(isinstance(i, EdgeItem) for i in view.scene().items())
    bundles = [item for item in view.scene().items() if isinstance(item, EdgeBundle)]
    assert sum(len(b.paths) for b in bundles) == len(edges)
    union = bundles[0].boundingRect()
    for b in bundles[1:]:
        union = union.united(b.boundingRect())
    items = [edges[e] for e in list(edges)]  # every item, made now as the view made them before
    eager = items[0].boundingRect()
    for item in items[1:]:
        eager = eager.united(item.boundingRect())
    assert union == eager
    assert all(item.parentItem() is view.builder.root and not item.highlighted for item in items)
    # an item made while the graph is still being built (a highlight before its trunk's item is) has the same
    # bounds: a trunk's rectangle is measured from the drawing as its item measures it
    kept, view.builder.trunk_rects = view.builder.trunk_rects, {}
    assert kept and all(view.trunk_rect(source) == rect for source, rect in kept.items())
    view.builder.trunk_rects = kept
    # a highlight makes (or reuses) only the items of its edges
    view.expand_all()
    qtbot.waitUntil(lambda: not view.busy, timeout=30000)
    assert not view.edges.made
    some = set(list(view.edges)[:3])
    view.set_highlight({e[0] for e in some} | {e[1] for e in some}, some)
    assert set(view.edges.made) == some and all(view.edges[e].highlighted for e in some)


def test_a_pasted_2000_node_line_is_colored_once_its_graph_is_drawn_and_typing_in_it_colors_at_once(qtbot):
    """Coloring a 10,000-character line took Qt ~60 ms on the way to its graph: it is shown plain until then."""
    panel = open_panel(qtbot, "y = a")
    edit, highlighter = panel.editor.edit, panel.editor.highlighter

    def color_ranges() -> int:
        return len(edit.document().firstBlock().layout().formats())

    def paste(text: str) -> None:
        QApplication.clipboard().setText(text)
        edit.setFocus()
        edit.selectAll()
        qtbot.keyClick(edit, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)
        assert edit.toPlainText() == text

    text = " + ".join(f"tanh(a*{k % 7 + 1}.5 + b*c{k % 5})" for k in range(400))  # a long paste, about 2,000 nodes
    paste(text)
    assert color_ranges() == 0 and highlighter.colors_pending
    qtbot.waitUntil(lambda: panel.state.text == text and not panel.view.busy and bool(panel.view.nodes), timeout=30000)
    assert len(panel.view.base_graph) > 2000
    qtbot.waitUntil(lambda: not highlighter.colors_pending, timeout=5000)
    assert color_ranges() >= 2000  # each tanh, number and run of operators
    edit.moveCursor(QTextCursor.MoveOperation.End)
    qtbot.keyClicks(edit, " + 1")
    assert color_ranges() >= 2000 and not highlighter.colors_pending  # a key typed in it: colored at once
    paste("tanh(a*b + c)")  # a short line pasted: colored at once
    assert color_ranges() >= 3 and not highlighter.colors_pending
