"""A 300-node typed expression in the Expression panel: its overview groups (names, the n-ary sum, a chain of
one-argument ops) start closed, open by double-click, and stand in for their members while stepping backward."""

from PySide6.QtCore import Qt

from autograd_core.drawing import box_overlaps, edge_box_hits
from gui.expression.expression_panel import ExpressionPanel

TERMS = 32


def chained_neurons(terms: int = TERMS) -> str:
    """About 300 nodes: ``h_i = tanh(exp(sin(cos(w_i*x_j + b_i))))`` summed, then four ops on the sum."""
    lines = [f"h{i} = tanh(exp(sin(cos(w{i}*x{i % 5} + b{i}))))" for i in range(terms)]
    lines.append("exp(sin(cos(relu(" + " + ".join(f"h{i}" for i in range(terms)) + "))))")
    return "\n".join(lines)


def open_panel(qtbot) -> ExpressionPanel:
    panel = ExpressionPanel()
    qtbot.addWidget(panel)
    panel.resize(1400, 850)
    panel.show()
    panel.state.load(chained_neurons(), {})
    qtbot.waitUntil(lambda: not panel.view.busy and bool(panel.view.nodes), timeout=30000)
    return panel


def clean(view) -> None:
    assert edge_box_hits(view.drawing) == []
    assert box_overlaps(view.drawing) == []


def chain_group(view) -> str:
    (name,) = [g for g in view.groups() if g.startswith("exp∘sin∘cos∘relu")]
    return name


def test_a_300_node_expression_starts_as_groups_and_opens_one_by_double_click(qtbot):
    panel = open_panel(qtbot)
    view = panel.view
    total = view.base_graph.number_of_nodes()
    assert 280 <= total <= 340
    groups = set(view.groups())
    assert view.collapsed == groups  # closed by default
    assert {f"h{i}" for i in range(TERMS)} <= groups
    assert any(g.startswith(f"Σ {TERMS} terms") for g in groups)
    chain = chain_group(view)
    assert len(view.nodes) < total / 4  # far fewer boxes drawn
    clean(view)
    assert panel.collapse_button.isVisible() and panel.collapse_button.text() == "Expand all groups"
    # the chain's box shows its output: the expression's value and gradient
    box = view.nodes[f"group:{chain}"]
    root = panel.state.root
    assert box.value == root.data
    # double-click opens the chain: its four ops get their own boxes, the rest stays closed
    view.resetTransform()
    view.centerOn(box)
    qtbot.mouseDClick(view.viewport(), Qt.MouseButton.LeftButton, pos=view.mapFromScene(box.pos()))
    qtbot.waitUntil(lambda: chain not in view.collapsed and not view.busy, timeout=30000)
    members = [n for n, g in view.base_graph.nodes(data="group") if g == chain]
    assert len(members) == 4 and all(n in view.nodes for n in members)
    # an opened chain's boxes show their own ops (the made-up group name is not repeated on each); an opened
    # named value keeps its name: "h3 · cos"
    assert [view.nodes[n].title for n in members] == [view.base_graph.nodes[n]["op"] for n in members]
    assert f"group:{chain}" not in view.nodes and view.collapsed == groups - {chain}
    clean(view)


def test_stepping_backward_highlights_the_box_of_a_closed_group(qtbot):
    panel = open_panel(qtbot)
    view, state = panel.view, panel.state
    chain = chain_group(view)
    graph = view.base_graph
    state.step()  # the output's own step: it is inside the closed chain
    box = view.nodes[f"group:{chain}"]
    assert box.highlighted and box.current
    # step until the trace reaches a node of a closed name group, then one step back and forth
    while True:
        assert state.step()
        node = state.highlight()[2]
        group = graph.nodes[node].get("group")
        if group and group.startswith("h"):
            break
    named = view.nodes[f"group:{group}"]
    assert named.highlighted and named.current and not box.current
    state.back()
    before = state.highlight()[2]
    shown = graph.nodes[before].get("group")
    assert view.nodes[f"group:{shown}"].current if shown in view.collapsed else view.nodes[before].current
    assert not named.current or shown == group
    state.step()
    assert named.current
    # opening the group moves the mark onto the member itself
    view.set_collapsed(view.collapsed - {group})
    qtbot.waitUntil(lambda: not view.busy and node in view.nodes, timeout=30000)
    assert view.nodes[node].current


def test_expand_all_and_collapse_groups_from_the_toolbar_and_the_menu(qtbot):
    panel = open_panel(qtbot)
    view = panel.view
    closed = len(view.nodes)
    menu = panel.group_menu()
    expand, collapse = menu.actions()[:2]
    assert expand.text() == "Expand all groups" and expand.isEnabled() and not collapse.isEnabled()
    expand.trigger()
    qtbot.waitUntil(lambda: not view.busy, timeout=30000)
    assert view.collapsed == set() and len(view.nodes) == view.base_graph.number_of_nodes() > closed
    assert panel.collapse_button.text() == "Collapse groups"
    clean(view)
    expand, collapse = panel.group_menu().actions()[:2]
    assert not expand.isEnabled() and collapse.isEnabled()
    qtbot.mouseClick(panel.collapse_button, Qt.MouseButton.LeftButton)  # the toolbar: collapse them all
    qtbot.waitUntil(lambda: not view.busy, timeout=30000)
    assert view.collapsed == set(view.groups()) and len(view.nodes) == closed
    assert panel.collapse_button.text() == "Expand all groups"
    qtbot.mouseClick(panel.collapse_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not view.busy, timeout=30000)
    assert view.collapsed == set()


def test_a_small_expression_has_no_groups_to_offer(qtbot):
    panel = ExpressionPanel()
    qtbot.addWidget(panel)
    panel.show()
    panel.state.load("tanh(exp(sin(cos(a*b))))", {})
    qtbot.waitUntil(lambda: not panel.view.busy and bool(panel.view.nodes), timeout=30000)
    assert panel.view.groups() == [] and not panel.collapse_button.isVisible()
    expand, collapse = panel.group_menu().actions()[:2]
    assert not expand.isEnabled() and not collapse.isEnabled()
