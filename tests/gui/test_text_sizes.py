"""Presentation mode makes every text at least as large as normal mode, and plot and diagram text ≥ 1.5×.

The measurement and the comparison are tools/text_sizes.py; the states are the screenshot tour's.
"""

import pyqtgraph as pg
import pytest
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QGraphicsSimpleTextItem, QLabel, QVBoxLayout, QWidget

from tools.text_sizes import (
    GRAPH,
    PLOT,
    PLOT_RATIO,
    WIDGET,
    compare,
    measure,
    measure_state,
    min_ratios,
    ratios,
)
from tools.tour_states import Mode, build_states

# a representative subset: the expression graph, training (two and three classes, the loss slice), the sample
# graph (its header and boxes) and the lab
STATES = ("expr-neuron", "train-moons-after", "train-spiral3", "train-loss-slice", "sample-graph", "lab-race")
SIZES = ((1280, 720), (1024, 700))


def _font(points: float) -> QFont:
    font = QFont()
    font.setPointSizeF(points)
    return font


class _Panel(QWidget):
    """A label, a rich-text label, a styled plot and a network diagram, in either mode's sizes."""

    def __init__(self):
        super().__init__()
        from gui.plots.network_diagram import NetworkDiagram

        self.label = QLabel("Learning rate")
        self.rich = QLabel("<b>Loss</b> <span style='font-size:9pt'>(mean)</span>")
        self.plot = pg.PlotWidget()
        self.diagram = NetworkDiagram()
        layout = QVBoxLayout(self)
        for w in (self.label, self.rich, self.plot, self.diagram):
            layout.addWidget(w)
        self.resize(500, 700)

    def look(self, presentation: bool) -> None:
        from gui.look.theme import palette
        from gui.training.training_style import set_plot_title, style_plot

        scale = 1.6 if presentation else 1.0
        self.label.setFont(_font(9 * scale))
        self.rich.setFont(_font(9 * scale))
        self.rich.setText(f"<b>Loss</b> <span style='font-size:{9 * scale:.1f}pt'>(mean)</span>")
        style_plot(self.plot, palette("light"), presentation)
        set_plot_title(self.plot, "Loss", palette("light"), presentation)
        self.diagram.apply_palette(palette("light"), presentation)
        if not self.diagram.sizes:
            self.diagram.set_architecture((2, 4, 1), "tanh")


def test_the_comparison_fails_on_a_font_presentation_mode_leaves_unscaled(qtbot):
    panel = _Panel()
    qtbot.addWidget(panel)
    panel.look(False)
    panel.show()
    qtbot.waitExposed(panel)
    qtbot.wait(20)
    normal = measure(panel)
    panel.look(True)
    qtbot.wait(20)
    big = measure(panel)
    kinds = {key: kind for key, (kind, _r) in ratios(normal, big).items()}
    # every kind of text is measured: labels (the rich one by its largest font), plot title, axis numbers and
    # labels, the diagram's labels
    assert any(k.startswith("label «Learning rate»") for k in kinds)
    assert any(k.startswith("label «Loss (mean)»") for k in kinds)
    assert any(k.startswith("title in") and v == PLOT for k, v in kinds.items())
    assert any(k.startswith("axis numbers bottom") for k in kinds)
    assert {"text «x1» in NetworkDiagram.view", "text «score» in NetworkDiagram.view"} <= set(kinds)
    assert compare(normal, big) == []

    # an axis font presentation mode forgot (10 pt in both): its plot text is not 1.5×
    panel.plot.getPlotItem().getAxis("bottom").setStyle(tickFont=_font(10.0))
    qtbot.wait(20)
    found = compare(normal, measure(panel))
    assert [(f.kind, f.widget) for f in found] == [("plot text not 1.5×", "axis numbers bottom in _Panel.plot")]

    # a label that shrinks, and a rich label measured by its largest text: a span of a fixed size that shrinks
    panel.look(True)
    panel.label.setFont(_font(8.0))
    panel.rich.setText("<b>Loss</b> <span style='font-size:7pt'>(mean)</span>")
    panel.rich.setFont(_font(7.0))
    found = compare(normal, measure(panel))
    assert {f.kind for f in found} == {"smaller in presentation"}
    assert len(found) == 2 and all("label «" in f.widget for f in found)
    # the same size in both modes is not smaller (ordinary widget text need not grow)
    panel.look(True)
    panel.label.setFont(_font(9.0))
    assert compare(normal, measure(panel)) == []


def test_the_comparison_fails_on_graph_text_smaller_in_presentation():
    from tools.text_sizes import TextSize

    key = "graph box text in ExpressionPanel.view"
    normal = {key: TextSize(key, GRAPH, 13.7)}
    smaller = compare(normal, {key: TextSize(key, GRAPH, 13.5)})
    assert [f.kind for f in smaller] == ["graph text smaller in presentation"]
    assert compare(normal, {key: TextSize(key, GRAPH, 15.1)}) == []  # not 1.5×: a graph shown whole is fine
    assert compare(normal, {key: TextSize(key, GRAPH, 13.5)}, check_graph=False) == []


def test_a_text_item_counts_at_its_size_on_screen_scaled_by_its_view(qtbot):
    """A scene text that does not ignore the view's zoom: its font grows 1.6× but a view that shows the scene at
    half the size makes it smaller on screen (about 0.8×), which the comparison reports."""
    panel = _Panel()
    qtbot.addWidget(panel)
    panel.look(False)
    panel.show()
    qtbot.waitExposed(panel)
    view = panel.diagram.view
    note = QGraphicsSimpleTextItem("a note")
    note.setFont(_font(10.0))
    note.setPos(view.mapToScene(view.viewport().rect().center()))
    panel.diagram.scene.addItem(note)
    normal = measure(panel)
    assert normal["text «a note» in NetworkDiagram.view"].points == pytest.approx(10.0 * view.transform().m11())
    panel.look(True)
    qtbot.wait(20)
    note.setFont(_font(16.0))
    view.scale(0.5, 0.5)
    note.setPos(view.mapToScene(view.viewport().rect().center()))
    big = measure(panel)
    assert big["text «a note» in NetworkDiagram.view"].points == pytest.approx(16.0 * view.transform().m11())
    found = compare(normal, big)
    assert [f.widget for f in found] == ["text «a note» in NetworkDiagram.view"]
    assert big["text «a note» in NetworkDiagram.view"].points < normal["text «a note» in NetworkDiagram.view"].points


def test_the_theme_check_samples_the_plots_themselves(qtbot):
    """A pyqtgraph plot's own visible region is empty (its viewport covers it): the theme check looked at the
    network diagram only.  It samples each plot shown now: a white plot in the dark theme is found."""
    from gui.look.theme import palette
    from tools.layout_checks import theme_findings

    window = QWidget()
    qtbot.addWidget(window)
    plot = pg.PlotWidget()
    plot.setObjectName("whitePlot")
    QVBoxLayout(window).addWidget(plot)
    window.resize(300, 200)
    plot.setBackground("#ffffff")
    window.show()
    qtbot.waitExposed(window)
    assert [f.widget for f in theme_findings(window, "dark")] == ["whitePlot"]
    plot.setBackground(palette("dark").plot_background)
    qtbot.wait(10)
    assert theme_findings(window, "dark") == [] and theme_findings(window, "light")


# The tests below share one tour window (conftest's ``tour``); a test with qtbot closes every window when it
# ends, so those come above.


@pytest.mark.slow
def test_presentation_text_grows_in_the_representative_states(tour):
    """Each state in normal and presentation mode at 1280×720 and 1024×700: no widget text is smaller, every
    plot and diagram text (and the graph legends) is ≥ 1.5×, the graph views' box text is not smaller (their Fit
    shows a graph whole when it can); the network diagram's labels never touch."""
    from tools.layout_checks import diagram_text_findings

    states = {s.name: s for s in build_states()}
    problems, least = [], {}
    for size in SIZES:
        for name in STATES:
            normal, big = measure_state(tour, states[name], size)
            problems += [f"{name} {size}: {f}" for f in compare(normal, big)]
            compared = ratios(normal, big)
            counts = {kind: sum(1 for k, _r in compared.values() if k == kind) for kind in (WIDGET, PLOT, GRAPH)}
            assert counts[WIDGET] >= 5 and counts[PLOT] >= 1, (name, size, counts)
            if name.startswith("train"):
                assert counts[PLOT] >= 8, (name, size, counts)  # axes, titles, the diagram's labels
                view = tour.window.training.diagram.view
                assert diagram_text_findings(view) == [], (name, size)
            for kind, (ratio, key) in min_ratios(normal, big).items():
                if kind not in least or ratio < least[kind][0]:
                    least[kind] = (ratio, f"{name} {size}: {key}")
    assert problems == []
    assert least[WIDGET][0] >= 1.0 and least[PLOT][0] >= PLOT_RATIO and least[GRAPH][0] >= 1.0, least
    tour.apply_mode(Mode("light", False, (1280, 720)))


@pytest.mark.slow
def test_the_theme_does_not_change_text_sizes(tour):
    state = next(s for s in build_states() if s.name == "train-moons-after")
    sizes = {}
    for theme in ("light", "dark"):
        tour.apply_mode(Mode(theme, True, (1280, 720)))
        state.setup(tour)
        tour.apply_mode(Mode(theme, True, (1280, 720)))
        sizes[theme] = {k: v.points for k, v in measure(tour.window).items()}
    assert len(sizes["light"]) > 20 and sizes["light"] == sizes["dark"]
    tour.apply_mode(Mode("light", False, (1280, 720)))
