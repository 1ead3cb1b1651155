"""The tour's layout checks (tools/layout_checks.py) judge what is on screen."""


def test_the_banner_check_counts_only_what_a_scroll_area_leaves_on_screen(qtbot):
    """Found in the tour (lesson 8 at 1024×700, presentation): the loss slice's plot, scrolled in its area, ran
    on under the banner below the area, out of sight; the check counted that hidden strip as covered."""
    from PySide6.QtWidgets import QScrollArea, QWidget

    from tools.layout_checks import _shown_rect

    window = QWidget()
    qtbot.addWidget(window)
    area = QScrollArea(window)
    area.setGeometry(0, 0, 300, 200)
    plot = QWidget()
    plot.setMinimumSize(280, 500)
    area.setWidget(plot)
    window.resize(300, 400)
    window.show()
    qtbot.waitExposed(window)
    shown = _shown_rect(plot, window)
    viewport = area.viewport()
    assert shown.height() == viewport.height() < plot.height()
    assert shown.bottom() < 200  # nothing of it below the area, where a banner would be


def test_the_box_check_finds_a_box_outside_its_graph_view(qtbot):
    """Planted: a five-box graph zoomed in by the toolbar's + until boxes cross the view's edge (as lesson 1's x box
    was cut at the left edge): the check names the view and how many boxes; Fit puts them back, and it is quiet."""
    from PySide6.QtCore import Qt

    from gui.expression.expression_panel import ExpressionPanel
    from tools.layout_checks import graph_box_findings

    panel = ExpressionPanel()
    qtbot.addWidget(panel)
    panel.resize(900, 600)
    panel.show()
    panel.state.load("f = x * 2 + 1", {"x": 2.0})
    view = panel.view
    qtbot.waitUntil(lambda: not view.busy and len(view.nodes) == 5 and view.settled, timeout=30000)
    assert graph_box_findings(view) == []
    for _ in range(6):
        qtbot.mouseClick(panel.zoom_in_button, Qt.MouseButton.LeftButton)
    found = graph_box_findings(view)
    assert [f.kind for f in found] == ["box outside its view"], found
    assert "of 5 boxes not wholly shown" in found[0].detail
    qtbot.mouseClick(panel.fit_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: view.settled, timeout=30000)
    assert graph_box_findings(view) == []


def test_the_status_check_finds_a_message_the_view_contradicts(qtbot, tmp_path):
    """Planted: the status line says boxes are off screen while the view shows all of them (as after Leave
    lesson); the check reports it, and a message that matches the view is not reported."""
    from conftest import new_main_window

    from tools.layout_checks import status_findings

    window = new_main_window(qtbot, tmp_path, (1400, 900))
    view = window.expression.view
    qtbot.waitUntil(lambda: not view.busy and bool(view.nodes) and view.settled, timeout=30000)
    n = len(view.nodes)
    assert view.boxes_off_screen() == 0
    window.statusBar().showMessage(f"Fit keeps the graph's text readable, so 4 of its {n} boxes are off screen.")
    found = status_findings(window)
    assert [f.kind for f in found] == ["status contradicts view"], found
    window.statusBar().showMessage(f"Fit keeps the graph's text readable, so 0 of its {n} boxes are off screen.")
    assert status_findings(window) == []


def test_a_narrow_boundary_plot_keeps_its_color_bar_and_the_check_finds_one_pushed_out(qtbot):
    """Lesson 7 at 1280×720 in presentation mode: the boundary plot ~460 px wide, its title ("Decision boundary:
    P(class 1)", 347 px at presentation size) widened the data area's column and pushed the color bar's numbers
    past the plot's edge.  The title is cut to fit what the axes and the bar leave; a title planted wide again is
    found by the check."""
    from gui.look.theme import palette
    from gui.plots.boundary_plot import BoundaryPlot
    from tools.layout_checks import plot_overflow_findings

    plot = BoundaryPlot()
    qtbot.addWidget(plot)
    plot.apply_palette(palette("light"), True)
    plot.resize(460, 350)
    plot.show()
    qtbot.waitExposed(plot)
    qtbot.wait(20)
    item = plot.plot.getPlotItem()
    bar = plot.colorbar.sceneBoundingRect()
    assert bar.right() <= plot.plot.width(), (bar, plot.plot.width())
    assert item.titleLabel.text == "Decision boundary"  # cut at its ":", the whole title in the tooltip
    assert plot.plot.toolTip() == "Decision boundary: P(class 1)"
    assert plot_overflow_findings(plot) == []
    item.setTitle("Decision boundary: P(class 1) of the training points, planted", size="20pt")
    qtbot.waitUntil(lambda: plot_overflow_findings(plot) != [], timeout=5000)
    assert plot_overflow_findings(plot)[0].kind == "plot overflow"
