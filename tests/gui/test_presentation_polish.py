"""Presentation mode on a projector (1280×720): sizes and geometry measured, not pixels."""

import numpy as np
import pytest
from conftest import new_main_window
from PySide6.QtCore import QCoreApplication, QEvent, QObject
from PySide6.QtGui import QFontMetricsF
from PySide6.QtWidgets import QApplication

from autograd_core.drawing.graph import to_networkx
from autograd_core.learn.nn import MLP
from gui.graph_view import GraphView


@pytest.fixture
def window(qtbot, tmp_path):
    w = new_main_window(qtbot, tmp_path, (1280, 720))
    qtbot.waitUntil(lambda: not w.expression.view.busy)
    yield w
    w.expression.state.stop()
    w.set_theme("light")
    w.set_presentation(False)


def on_screen_title_size(qtbot, view) -> float:
    """Point size of a node title as the audience sees it: font size × the view's zoom after Fit."""
    qtbot.waitUntil(lambda: not view.busy and bool(view.nodes))
    QApplication.processEvents()
    view.fit()
    return view.title_font.pointSizeF() * view.transform().m11()


def test_presentation_mode_makes_fitted_node_text_clearly_larger(qtbot, window):
    """Titles at least 9 pt on screen at 1280×720, and at least 1.5× 9 pt in presentation mode.

    Normal mode's drawing is now compact too (13 pt here), so presentation mode, whose boxes grow with its
    fonts, gains less on top of it in the same view: it must reach the projector's size and never be smaller."""
    view = window.expression.view
    normal = on_screen_title_size(qtbot, view)
    window.set_presentation(True)
    qtbot.wait(50)
    big = on_screen_title_size(qtbot, view)
    assert normal >= 9.0 and big >= 1.5 * 9.0 and big > normal, (normal, big)
    # everything shown (or, if it cannot be at that size, the output and the map), and every box is wide
    # enough for its title
    visible = view.mapToScene(view.viewport().rect()).boundingRect()
    everything = visible.adjusted(-2, -2, 2, 2).contains(view.graph_rect())
    assert everything or (view.fit_is_partial and view.overview.isVisible() and visible.contains(view.focus_box()))
    metrics = QFontMetricsF(view.title_font)
    legend = view.legend.geometry()
    for item in view.nodes.values():
        assert metrics.horizontalAdvance(item.title) <= item.width - 8
        box = view.mapFromScene(item.sceneBoundingRect()).boundingRect()
        assert not box.intersects(legend), (item.title, box, legend)  # centring once hid a box under the legend


def test_presentation_mode_still_fits_a_large_graph_and_zooms(qtbot):
    model = MLP(2, [8, 8, 1], seed=0)  # ~250 nodes in the long form
    graph = to_networkx(model([0.5, -0.25], fused=False))
    view = GraphView()
    qtbot.addWidget(view)
    view.resize(700, 560)
    view.show()
    view.set_presentation(True)
    view.set_graph(graph)
    qtbot.waitUntil(lambda: not view.busy and len(view.nodes) == graph.number_of_nodes(), timeout=20000)
    view.fit()
    visible = view.mapToScene(view.viewport().rect()).boundingRect()
    assert visible.contains(view.scene().itemsBoundingRect())
    before = view.transform().m11()
    view.zoom_in()
    assert view.transform().m11() == pytest.approx(before * 1.25)
    view.fit()
    assert view.transform().m11() == pytest.approx(before)


def _sample_tab(window):
    panel = window.areas["sample"] if "sample" in window.areas else None
    assert panel is not None, list(window.areas)
    window.tabs.setCurrentWidget(panel)
    return panel


def test_sample_entry_row_fits_a_projector_without_clipping(qtbot, window):
    """x/y showed '.168475' at 1280 px, and widening them pushed the tab's minimum width to 1311 px."""
    window.set_presentation(True)
    panel = _sample_tab(window)
    qtbot.wait(50)
    for edit, text in ((panel.x_edit, "-0.168475"), (panel.y_edit, "-1.23457e-05")):
        edit.setText(text)
        edit.setCursorPosition(0)
        assert edit.fontMetrics().horizontalAdvance(text) + 10 <= edit.width(), (text, edit.width())
    assert panel.minimumSizeHint().width() <= 1200
    assert window.minimumSizeHint().width() <= 1280
    # every control of the entry rows is shown whole, inside the tab
    controls = [panel.x_edit, panel.y_edit, panel.label_combo, panel.show_button, panel.follow_button]
    controls += [panel.fused_check, panel.collapse_button, panel.expand_button]
    for widget in controls:
        rect = widget.geometry().translated(widget.parentWidget().mapTo(panel, widget.pos()) - widget.pos())
        assert panel.rect().contains(rect), (widget.objectName(), rect)
        assert widget.width() >= widget.minimumSizeHint().width(), widget.objectName()


def test_boundary_plot_shows_a_sensible_empty_state_before_training_reports(qtbot):
    """For ~1 s after the tab first showed, the axes read −500…500 (×0.001) on an empty plot."""
    from autograd_core.learn.data import make_dataset
    from autograd_core.learn.regions import class_regions
    from autograd_core.live.service import Snapshot, map_extent
    from gui.plots.boundary_plot import BoundaryPlot

    plot = BoundaryPlot()
    qtbot.addWidget(plot)
    plot.resize(500, 500)
    plot.show()
    qtbot.wait(20)

    def view():
        (x0, x1), (y0, y1) = plot.plot.getPlotItem().getViewBox().viewRange()
        return x0, x1, y0, y1

    x0, x1, y0, y1 = view()
    assert x0 <= -2 and x1 >= 2 and y0 <= -2 and y1 >= 2 and max(x1 - x0, y1 - y0) < 6, (x0, x1, y0, y1)
    assert plot.placeholder.isVisible() and "Starting the training process" in plot.placeholder.toPlainText()
    # the data alone moves nothing: the map's extent is the training service's, and comes with the map
    dataset = make_dataset("moons", samples=100, noise=0.1, seed=0, test_fraction=0.2, standardize=False)
    before = view()
    plot.set_dataset(dataset)
    assert view() == before
    model = MLP(2, [4, 1], seed=0)
    extent = map_extent(dataset)
    plot.update_snapshot(Snapshot(generation=1, dataset=dataset, grid=class_regions(model, extent, resolution=20)))
    assert not plot.placeholder.isVisible()
    np.testing.assert_allclose(view(), extent, atol=1e-9)
    bx0, bx1, by0, by1 = dataset.bounds(margin=0.15)  # the data with its margin, squared
    assert extent[0] <= bx0 and extent[1] >= bx1 and extent[2] <= by0 and extent[3] >= by1
    assert extent[1] - extent[0] == pytest.approx(extent[3] - extent[2])


def _contrast(a, b) -> float:
    """WCAG contrast ratio of two QColors."""

    def luminance(c):
        def channel(v):
            v /= 255.0
            return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

        return 0.2126 * channel(c.red()) + 0.7152 * channel(c.green()) + 0.0722 * channel(c.blue())

    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_paint_buttons_are_readable_in_both_themes(qtbot, theme):
    """Blue 'Paint class 0' text on the dark theme's gray button had a contrast of about 2:1."""
    from PySide6.QtGui import QColor, QPalette

    from gui.look.app_style import apply_theme
    from gui.look.theme import PALETTES
    from gui.plots.boundary_plot import BoundaryPlot

    app = QApplication.instance()
    base = app.property("basePointSize") or app.font().pointSizeF()
    apply_theme(app, theme, False, base)
    try:
        plot = BoundaryPlot()
        qtbot.addWidget(plot)
        plot.show()
        qtbot.wait(10)
        for label in (0, 1):
            palette = plot.mode_buttons[f"paint{label}"].palette()
            text = palette.color(QPalette.ColorRole.ButtonText)
            fill = palette.color(QPalette.ColorRole.Button)
            assert _contrast(text, fill) >= 4.5, (theme, label, text.name(), fill.name())
            # the button still shows its class color, the theme's one
            assert QColor(PALETTES[theme].class_colors[label]) in (text, fill)
    finally:
        apply_theme(app, "light", False, base)


def test_a_short_axis_gets_fewer_ticks_and_a_long_title_is_cut_at_a_colon(qtbot):
    import pyqtgraph as pg
    from PySide6.QtGui import QFontMetricsF

    from gui.training.training_style import plot_font, set_plot_title, style_plot

    plot = pg.PlotWidget()
    qtbot.addWidget(plot)
    style_plot(plot, presentation=True)
    plot.setYRange(-2, 2, padding=0)
    axis = plot.getPlotItem().getAxis("left")
    text_height = QFontMetricsF(plot_font(True)).height()
    for size in (60, 120, 400):
        major = axis.tickSpacing(-2.0, 2.0, size)[0][0]
        assert size * major / 4.0 >= 1.6 * text_height  # labels never closer than 1.6 lines
    assert axis.tickSpacing(-2.0, 2.0, 400)[0][0] <= 1.0  # a long axis keeps its ticks
    plot.resize(300, 200)
    set_plot_title(plot, "Decision regions: color = class, intensity = confidence", presentation=True)
    assert plot.getPlotItem().titleLabel.text == "Decision regions"
    assert plot.toolTip() == "Decision regions: color = class, intensity = confidence"
    plot.resize(1400, 200)
    set_plot_title(plot, "Decision regions: color = class, intensity = confidence", presentation=True)
    assert plot.getPlotItem().titleLabel.text.startswith("Decision regions: color")


def test_a_plot_without_a_title_keeps_room_for_its_top_axis_number(qtbot):
    """The lab's map has no title: its left axis's top number ("3") was cut in half by the plot's edge."""
    import pyqtgraph as pg
    from PySide6.QtGui import QFontMetricsF

    from gui.training.training_style import plot_font, set_plot_title, style_plot

    plot = pg.PlotWidget()
    qtbot.addWidget(plot)
    style_plot(plot, presentation=True)
    top = plot.getPlotItem().layout.getContentsMargins()[1]
    assert top >= QFontMetricsF(plot_font(True)).height() / 2
    set_plot_title(plot, "Loss", presentation=True)  # a title row gives that room: no margin wasted
    assert plot.getPlotItem().layout.getContentsMargins()[1] <= 1.0


class _Paints(QObject):
    """Counts the paint events of one widget."""

    def __init__(self, widget):
        super().__init__()
        self.count = 0
        widget.installEventFilter(self)

    def eventFilter(self, _obj, event):
        if event.type() == QEvent.Type.Paint:
            self.count += 1
        return False


def test_a_mode_switch_lays_the_tab_out_before_its_first_repaint(qtbot, window):
    """Presentation mode on the training tab: new fonts, restyled plots and the new layout are all done when the
    switch returns, before any repaint (each restyled part and each level of relayout had repainted the views:
    5–6 paints of the boundary and loss plots before the one of the new layout)."""
    window.tabs.setCurrentWidget(window.training)
    qtbot.waitUntil(lambda: window.training.controller.last_snapshot is not None, timeout=30_000)
    qtbot.wait(800)  # (the first snapshot's banner and curves are in)
    views = [window.training.boundary.plot.viewport(), window.training.metrics.loss_plot.viewport()]
    for on in (True, False):
        paints = [_Paints(view) for view in views]
        before = [view.size() for view in views]
        window.set_presentation(on)
        assert [p.count for p in paints] == [0, 0], on
        laid_out = [view.size() for view in views]
        assert laid_out != before, on
        for _ in range(3):  # what the event loop would lay out next
            QCoreApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
        assert [view.size() for view in views] == laid_out, on
        qtbot.wait(200)
        assert all(p.count >= 1 for p in paints), on


def test_a_picture_of_the_window_right_after_a_switch_shows_the_whole_window(qtbot, window):
    """The switch's repaint waits for the next turn of the event loop; a picture taken before it is complete."""
    window.tabs.setCurrentWidget(window.training)
    qtbot.wait(300)
    for on in (True, False):
        window.set_presentation(on)
        image = window.grab().toImage()
        colors = {image.pixel(x, y) for x in range(0, image.width(), 23) for y in range(0, image.height(), 23)}
        assert len(colors) > 20, on  # (drawn without its children: the window's background alone)
        qtbot.wait(100)
        assert window.updatesEnabled()


def test_axis_numbers_keep_their_units_inside_zero_to_one(qtbot):
    """A labeled axis over 0…0.5 shows 0.1, 0.2 … with its plain label, not "x1 (m)" and 100, 200 …"""
    import pyqtgraph as pg

    from gui.training.training_style import style_plot

    widget = pg.PlotWidget()
    qtbot.addWidget(widget)
    widget.getPlotItem().setLabel("bottom", "x1")
    style_plot(widget)
    widget.resize(400, 300)
    widget.show()
    widget.setXRange(0.0, 0.5, padding=0)
    qtbot.wait(50)
    axis = widget.getPlotItem().getAxis("bottom")
    assert axis.autoSIPrefixScale == 1.0 and "(m" not in axis.labelString()


def test_the_window_keeps_painting_after_a_switch_made_while_a_repaint_was_due(qtbot, window):
    """A switch made while a repaint request waits in the event queue (training running, a frame just drawn):
    the request arrives while the switch holds the window's repaints, Qt drops it and kept the window marked
    dirty, so no later change asked for a repaint again: the window froze on its last picture."""

    class Paints(QObject):
        count = 0

        def eventFilter(self, watched, event):
            if event.type() == QEvent.Type.Paint and watched is label:
                Paints.count += 1
            return False

    label = window.training.training_panel.status
    counter = Paints()
    QApplication.instance().installEventFilter(counter)
    try:
        window.resize(1600, 1000)  # (room for presentation mode's fonts: the switch does not resize the window)
        window.tabs.setCurrentWidget(window.training)
        qtbot.wait(300)
        for on in (True, False):
            window.training.update()  # a repaint request posted, as a new frame's is
            window.set_presentation(on)
            qtbot.wait(200)
            before = Paints.count
            label.setText(f"changed {on}")
            # repainted in the next frames (froze 1.1 s here, until an unrelated timer asked for a repaint)
            qtbot.waitUntil(lambda before=before: Paints.count > before, timeout=400)
    finally:
        QApplication.instance().removeEventFilter(counter)
