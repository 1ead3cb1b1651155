"""Fit keeps the graph's text readable: at least 9 pt on screen (13.5 pt in presentation mode) for a graph
of up to 60 boxes.  A graph too big for that at the view's size is shown around its output, or the current
backward step, with the overview map beside the legend and no box under either; View ▸ Whole graph (or
``show_whole``) shows all of it, smaller."""

import pytest
from PySide6.QtCore import QRectF, Qt

from autograd_core.drawing import clear_of_corner
from gui.expression.expression_panel import ExpressionPanel
from gui.graph_view import READABLE_POINTS, GraphView
from tests.graph_cases import EXAMPLES, graph_of

MORE_OPS = next(e for e in EXAMPLES if e["name"] == "micrograd test: more ops")


def under_corner(boxes, x, y, view, corner):
    cw, ch = corner
    return [b for b in boxes if b[0] < x + cw and b[2] > x and b[1] < y + view[1] and b[3] > y + view[1] - ch]


def test_clear_of_corner_moves_the_view_the_least_to_clear_the_corner():
    # a view 100×100 at (0, 0) with a 40×30 corner reserved at its bottom left; one box under the corner
    boxes = [(10.0, 60.0, 20.0, 98.0), (60.0, 10.0, 90.0, 30.0)]
    x, y = clear_of_corner(boxes, (0.0, 0.0), (100.0, 100.0), (40.0, 30.0), (-50.0, 50.0), (-50.0, 50.0))
    assert under_corner(boxes, x, y, (100.0, 100.0), (40.0, 30.0)) == []
    # the cheapest of the four moves: right by 20 (past the box), not down 28, left 30 or up 40
    assert (x, y) == pytest.approx((20.0, 0.0), abs=1e-3)
    # nothing under the corner: the view stays where it was asked to be
    assert clear_of_corner(boxes[1:], (0.0, 0.0), (100.0, 100.0), (40.0, 30.0), (-50, 50), (-50, 50)) == (0.0, 0.0)
    # a move that would lose the box the view is about (or put it under the corner) is refused
    keep = (0.0, 40.0, 30.0, 60.0)
    x, y = clear_of_corner(boxes, (0.0, 0.0), (100.0, 100.0), (40.0, 30.0), (0.0, 50.0), (0.0, 50.0), keep)
    assert (x, y) == pytest.approx((0.0, 28.0), abs=1e-3)  # right by 20 loses the box's left edge
    # no move keeps it: the start is kept
    keep = (0.0, 5.0, 30.0, 35.0)
    assert clear_of_corner(boxes, (0.0, 0.0), (100.0, 100.0), (40.0, 30.0), (0.0, 50.0), (0.0, 50.0), keep) == (0, 0)


def test_clear_of_corner_keeps_at_least_the_focus_clear_when_no_place_clears_every_box():
    # a corner as wide as the view, a box under it wherever the view goes: the kept box is moved above it
    boxes = [(50.0, 0.0, 70.0, 200.0), (10.0, 50.0, 30.0, 80.0)]
    keep = boxes[1]
    x, y = clear_of_corner(boxes, (0.0, 0.0), (100.0, 100.0), (100.0, 40.0), (0.0, 0.0), (0.0, 100.0), keep)
    assert (x, y) == pytest.approx((0.0, 20.0), abs=1e-3)  # keep's bottom (80) at the corner's top (20 + 60)
    # or right of it, when the view can only move sideways (a wide box stays under the corner)
    boxes = [(-200.0, 70.0, 200.0, 90.0), keep]
    x, y = clear_of_corner(boxes, (0.0, 0.0), (100.0, 100.0), (60.0, 40.0), (-100.0, 0.0), (0.0, 0.0), keep)
    assert (x, y) == pytest.approx((-50.0, 0.0), abs=1e-3)


def shown_rect(view) -> QRectF:
    return view.mapToScene(view.viewport().rect()).boundingRect()


def on_screen(view, item):
    return view.mapFromScene(item.sceneBoundingRect()).boundingRect()


def open_panel(qtbot, size: tuple, presentation: bool, text: str, values=None) -> ExpressionPanel:
    """An Expression panel of ``size`` showing ``text``, its graph drawn."""
    panel = ExpressionPanel()
    qtbot.addWidget(panel)
    panel.resize(*size)
    panel.show()
    if presentation:
        panel.view.set_presentation(True)
    panel.state.load(text, values)
    qtbot.waitUntil(lambda: not panel.view.busy and bool(panel.view.nodes), timeout=30000)
    return panel


def assert_current_box_clear(view, shown_overlays_only: bool = True) -> bool:
    """The current node's box (if it has one: False when not) is on screen and under neither the legend nor
    the map (only those shown, or ``shown_overlays_only=False``: wherever they are, shown or not)."""
    current = view.nodes.get(view.current_node)
    if current is None:
        return False
    box = on_screen(view, current)
    assert view.viewport().rect().contains(box), view.current_node
    overlays = [o for o in (view.legend, view.overview) if o.isVisible() or not shown_overlays_only]
    covered = [o.objectName() for o in overlays if box.intersects(o.geometry())]
    assert covered == [], (view.current_node, covered)
    return True


def step_keeping_each_current_box_clear(qtbot, panel, steps: int) -> set:
    """Click Step ``steps`` times; each current node's box is on screen and under neither the legend nor the
    map.  Returns the nodes visited."""
    view, visited = panel.view, set()
    for _ in range(steps):
        qtbot.mouseClick(panel.backward.step_button, Qt.MouseButton.LeftButton)
        if assert_current_box_clear(view):
            visited.add(view.current_node)
    return visited


def assert_nothing_under_the_overlays(view):
    for overlay in (view.legend, view.overview):
        if overlay.isVisible():
            assert view.viewport().rect().contains(overlay.geometry())
            hidden = [n for n, item in view.nodes.items() if on_screen(view, item).intersects(overlay.geometry())]
            assert hidden == [], (overlay.objectName(), hidden)


def presentation_view(qtbot, size: tuple, text: str) -> GraphView:
    """A graph view of ``size`` in presentation mode showing ``text``, drawn."""
    view = GraphView()
    qtbot.addWidget(view)
    view.set_presentation(True)
    view.resize(*size)
    view.show()
    view.set_graph(graph_of(text))
    qtbot.waitUntil(lambda: not view.busy and bool(view.nodes), timeout=30000)
    return view


@pytest.fixture
def big_view(qtbot):
    """The 33-node example in presentation mode, in a graph view the size it has at 1280×720."""
    view = presentation_view(qtbot, (600, 560), MORE_OPS["text"])
    return view


def test_fit_keeps_presentation_text_readable_and_shows_the_output(qtbot, big_view):
    view = big_view
    view.fit(whole=False)
    assert view.fitted_text_points() == pytest.approx(1.5 * READABLE_POINTS)  # 13.5 pt, not smaller
    assert view.fit_is_partial and view.overview.isVisible()
    output = next(item for n, item in view.nodes.items() if view.graph.nodes[n].get("label") == "g")  # the output
    assert view.viewport().rect().contains(on_screen(view, output))
    assert_nothing_under_the_overlays(view)
    # no scroll bars (their coming and going would change what Fit shows); drag, wheel and map move around
    assert not view.horizontalScrollBar().isVisible() and not view.verticalScrollBar().isVisible()
    # every box can be reached: the scene holds the whole graph
    assert view.sceneRect().contains(view.graph_rect())


def test_whole_graph_shows_everything_smaller_and_fit_comes_back(qtbot, big_view):
    view = big_view
    view.show_whole()  # (a layered drawing is laid out again: to show the whole graph largest)
    qtbot.waitUntil(lambda: not view.busy, timeout=30000)
    assert not view.fit_is_partial and not view.overview.isVisible()
    assert shown_rect(view).adjusted(-1, -1, 1, 1).contains(view.graph_rect())
    assert view.fitted_text_points() < 1.5 * READABLE_POINTS
    view.resize(640, 600)  # a resize refits the way the user chose
    qtbot.wait(20)
    assert not view.fit_is_partial
    view.fit(whole=False)
    qtbot.waitUntil(lambda: not view.busy, timeout=30000)
    assert view.fit_is_partial and view.fitted_text_points() == pytest.approx(13.5)
    # Whole graph is asked for the graph on screen: a new expression opens readable again
    view.show_whole()
    qtbot.waitUntil(lambda: not view.busy, timeout=30000)
    view.set_graph(graph_of(MORE_OPS["text"] + "\nh = g * 2"))
    qtbot.waitUntil(lambda: not view.busy and bool(view.nodes), timeout=30000)
    assert view.fit_is_partial and view.fitted_text_points() == pytest.approx(13.5)


def test_a_graph_that_fits_readably_is_shown_whole(qtbot):
    view = GraphView()
    qtbot.addWidget(view)
    view.resize(930, 900)  # the graph view at 1600×1000, normal mode
    view.show()
    view.set_graph(graph_of(MORE_OPS["text"]))
    qtbot.waitUntil(lambda: not view.busy and bool(view.nodes), timeout=30000)
    view.fit()
    assert not view.fit_is_partial and view.fitted_text_points() >= READABLE_POINTS
    assert shown_rect(view).adjusted(-1, -1, 1, 1).contains(view.graph_rect())
    assert_nothing_under_the_overlays(view)


def test_a_big_overview_is_still_fitted_whole(qtbot):
    """Above 60 boxes a graph is an overview (names drawn large where numbers cannot be read): shown whole."""
    terms = " + ".join(f"x*{i}" for i in range(1, 40))
    view = GraphView()
    qtbot.addWidget(view)
    view.resize(600, 500)
    view.show()
    view.set_graph(graph_of(f"y = {terms}"))
    qtbot.waitUntil(lambda: not view.busy and bool(view.nodes), timeout=30000)
    assert len(view.nodes) > 60
    view.fit()
    assert not view.fit_is_partial
    assert shown_rect(view).adjusted(-1, -1, 1, 1).contains(view.graph_rect())


def test_stepping_backward_scrolls_to_the_current_node(qtbot):
    panel = open_panel(qtbot, (1280, 680), True, MORE_OPS["text"], MORE_OPS.get("values"))
    view = panel.view
    view.fit()
    assert view.fit_is_partial
    seen_off_screen = False
    for _ in range(40):
        before = shown_rect(view)
        qtbot.mouseClick(panel.backward.step_button, Qt.MouseButton.LeftButton)
        current = view.nodes.get(view.current_node)
        if current is None:
            continue
        seen_off_screen |= not before.contains(current.sceneBoundingRect())
        assert shown_rect(view).contains(current.sceneBoundingRect()), view.current_node
    assert seen_off_screen  # the walk did leave the part Fit showed first


def test_a_graph_narrower_than_the_view_is_still_moved_clear_of_the_legend(qtbot):
    """A wide, short view: the 26-box chain is cropped at the top and bottom but narrower than the view, so
    the view cannot move sideways; it must still move (down) until no box is under the legend or map."""
    view = presentation_view(qtbot, (1200, 300), "y = " + "tanh(" * 25 + "x" + ")" * 25)
    view.fit(whole=False)
    assert view.fit_is_partial and view.fitted_text_points() == pytest.approx(13.5)
    assert shown_rect(view).width() > view.graph_rect().width()  # (the case: only the height is cropped)
    assert view.legend.isVisible() and view.overview.isVisible()
    assert_nothing_under_the_overlays(view)
    (output,) = [n for n in view.nodes if view.graph.out_degree(n) == 0]
    assert view.viewport().rect().contains(on_screen(view, view.nodes[output]))


def test_stepping_backward_never_puts_the_current_node_under_the_legend_or_map(qtbot):
    panel = open_panel(qtbot, (1280, 680), True, MORE_OPS["text"], MORE_OPS.get("values"))
    view = panel.view
    view.fit()
    assert view.fit_is_partial
    visited = step_keeping_each_current_box_clear(qtbot, panel, 40)
    assert len(visited) > 20


def test_a_view_moved_away_from_the_current_step_stays_when_a_value_changes(qtbot):
    """Stepping scrolls to each new node, but a redraw of the same step (an input dragged, a training tick in
    the sample graph) leaves the view where the user moved it."""
    panel = open_panel(qtbot, (1280, 680), True, MORE_OPS["text"], MORE_OPS.get("values"))
    view = panel.view
    for _ in range(3):
        qtbot.mouseClick(panel.backward.step_button, Qt.MouseButton.LeftButton)
    current = view.nodes[view.current_node]
    assert shown_rect(view).contains(current.sceneBoundingRect())
    # the user clicks the map's far corner from the current node: it goes off screen
    map_rect = view.overview.rect()
    far = map_rect.bottomLeft() if current.x() > view.graph_rect().center().x() else map_rect.bottomRight()
    qtbot.mouseClick(view.overview, Qt.MouseButton.LeftButton, pos=far + (map_rect.center() - far) / 8)
    moved = shown_rect(view)
    assert not moved.intersects(current.sceneBoundingRect())
    step = view.current_node
    panel.state.set_value("a", -3.5)
    assert view.current_node == step  # (the same step, redrawn with the new value)
    assert shown_rect(view) == moved
    qtbot.mouseClick(panel.backward.step_button, Qt.MouseButton.LeftButton)  # a new step is followed
    assert shown_rect(view).contains(view.nodes[view.current_node].sceneBoundingRect())


def test_a_view_too_narrow_for_the_map_does_not_keep_room_for_it(qtbot):
    """Below 300×200 pixels the overview map is hidden: Fit keeps boxes out of the legend's corner only, not
    out of the empty place the map would take (which scrolled the graph's end half way up the view)."""
    view = presentation_view(qtbot, (290, 560), MORE_OPS["text"])
    view.fit(whole=False)
    assert view.fit_is_partial and not view.overview.isVisible() and view.legend.isVisible()
    assert_nothing_under_the_overlays(view)
    graph_bottom = view.mapFromScene(view.graph_rect().bottomLeft()).y()
    assert graph_bottom >= view.legend.geometry().top() - 24  # the graph's end just above the legend


def test_stepping_in_a_narrow_view_keeps_each_current_box_clear_of_the_legend_and_map(qtbot):
    """In a view too narrow for the map beside the legend the map sits above it: together they take the
    view's whole width, and no place keeps every box clear; the current step's box still is."""
    terms = " + ".join(f"tanh(x*{i} + y)" for i in range(1, 16))
    panel = open_panel(qtbot, (1000, 600), True, "z = " + terms, {"x": 0.5, "y": 0.1})
    view = panel.view
    assert view.collapsed and len(view.nodes) <= 60  # (a big expression starts with its groups collapsed)
    view.fit(whole=False)
    assert view.fit_is_partial and view.overview.isVisible()
    assert view.overview.geometry().bottom() < view.legend.geometry().top()  # the map above the legend
    visited = set()
    while qtbot.mouseClick(panel.backward.step_button, Qt.MouseButton.LeftButton) or panel.state.position < len(
        panel.state.steps
    ):
        if assert_current_box_clear(view, shown_overlays_only=False):
            visited.add(view.current_node)
    assert len(visited) > 10


def test_stepping_after_zooming_by_hand_keeps_the_zoom_and_the_current_box_clear_of_the_overlays(qtbot):
    panel = open_panel(qtbot, (1280, 680), False, MORE_OPS["text"], MORE_OPS.get("values"))
    view = panel.view
    for _ in range(3):
        view.zoom_in()  # (the + button's slot)
    zoom = view.transform().m11()
    visited = step_keeping_each_current_box_clear(qtbot, panel, 40)
    assert len(visited) > 20 and view.transform().m11() == pytest.approx(zoom) and not view.auto_fit


def test_an_emptied_view_shows_no_map_and_a_new_cropped_graph_says_so_again(qtbot, big_view):
    view = big_view
    messages = []
    view.message.connect(messages.append)
    view.fit(whole=False)
    assert view.fit_is_partial and view.overview.isVisible()
    view.set_graph(None)  # (e.g. the sample graph with no point)
    assert not view.nodes and not view.overview.isVisible() and not view.fit_is_partial
    messages.clear()  # (the Fit asked for above said why it was cropped, as every asked-for Fit does)
    view.set_graph(graph_of(MORE_OPS["text"]))
    qtbot.waitUntil(lambda: not view.busy and bool(view.nodes), timeout=30000)
    assert view.fit_is_partial and view.overview.isVisible()
    assert sum("boxes are off screen" in m for m in messages) == 1


def _fitted_points(qtbot, window, text, values) -> tuple[float, bool]:
    view = window.expression.view
    window.expression.state.load(text, values)
    qtbot.waitUntil(lambda: view.graph is not None and not view.busy, timeout=20_000)
    view.fit(whole=False)
    qtbot.waitUntil(lambda: not view.busy, timeout=20_000)
    return view.fitted_text_points(), view.fit_is_partial


@pytest.mark.parametrize(
    "size, name",
    [
        (
            (1280, 720),
            "Neuron: tanh(w1*x1 + w2*x2 + b)",
        ),  # was 13.7 pt whole in normal mode, 13.5 pt cropped in presentation
        ((1280, 720), "Reused intermediate node"),  # was 19.6 pt in normal mode, 18.4 pt in presentation
        ((1600, 1000), "a*b + c (the article's first graph)"),
    ],
)
def test_presentation_mode_never_shows_graph_text_smaller_than_normal_mode(qtbot, tmp_path, size, name):
    """In the same window, Fit in presentation mode shows the graph's text at least 1.1 × as large as normal
    mode's Fit (the margin covers the view being a few per cent smaller in presentation mode); a small graph
    is still shown whole."""
    from PySide6.QtCore import QSettings

    from gui.graph_view import PRESENTATION_TEXT_MARGIN
    from gui.shell.main_window import MainWindow
    from gui.shell.settings import AppSettings

    example = next(e for e in EXAMPLES if e["name"] == name)
    window = MainWindow(AppSettings(QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)))
    qtbot.addWidget(window)
    window.resize(*size)
    window.show()
    normal, _ = _fitted_points(qtbot, window, example["text"], example.get("values"))
    window.set_presentation(True)
    big, partial = _fitted_points(qtbot, window, example["text"], example.get("values"))
    assert big >= PRESENTATION_TEXT_MARGIN * normal - 0.05 and big >= 1.5 * READABLE_POINTS - 1e-6, (normal, big)
    if graph_of(example["text"]).number_of_nodes() <= 6:
        assert not partial  # a*b + c fits whole at 1.5 × its normal size
    window.set_presentation(False)


@pytest.mark.parametrize("presentation", [False, True])
def test_a_resize_after_whole_graph_does_not_lay_the_graph_out_again_for_nothing(qtbot, presentation):
    """The readable zoom of the last layout was compared with the one a resize computes, also for Whole graph
    (which has none): every resize after Whole graph rebuilt the graph, a second for a big one."""
    example = next(e for e in EXAMPLES if e["name"] == "Sigmoid written out")
    panel = open_panel(qtbot, (1000, 700), presentation, example["text"], example.get("values"))
    view = panel.view
    qtbot.wait(300)
    qtbot.waitUntil(lambda: view.settled, timeout=30000)  # the first show's re-layout check is over
    view.show_whole()
    qtbot.waitUntil(lambda: view.settled, timeout=30000)
    started = []
    view.layout_started.connect(lambda: started.append(1))
    for width in (1030, 1000):
        panel.resize(width, 700)
        qtbot.wait(300)  # the re-layout check runs 200 ms after a resize
        qtbot.waitUntil(lambda: view.settled, timeout=30000)
    assert started == []
