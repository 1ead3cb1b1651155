"""Graphs drawn in the view are truthful for every layout, the legend stays clear and fits its text, and the
examples are legible at Fit in a 1600×1000 window."""

import itertools

import pytest
from PySide6.QtCore import QRectF

from tests.graph_cases import EXAMPLES, graph_of

METHODS = ("layered", "spring", "kamada_kawai")


@pytest.fixture
def view(graph_view):
    return graph_view


def scene_segments(item):
    path = item.mapToScene(item.path)
    for polygon in path.toSubpathPolygons():
        points = [polygon.at(i) for i in range(polygon.size())]
        yield from itertools.pairwise(points)


def segment_enters(a, b, rect: QRectF) -> bool:
    from autograd_core.drawing import segment_box_entry

    box = (rect.left(), rect.top(), rect.right(), rect.bottom())
    return segment_box_entry((a.x(), a.y()), (b.x(), b.y()), box) is not None


def assert_drawn_truthfully(view):
    boxes = {n: item.mapRectToScene(item.box()).adjusted(0.5, 0.5, -0.5, -0.5) for n, item in view.nodes.items()}
    for (u, v, _k), edge in view.edges.items():
        for a, b in scene_segments(edge):
            for n, rect in boxes.items():
                if n not in (u, v):
                    assert not segment_enters(a, b, rect), (u, v, n)
    names = list(boxes)
    for i, m in enumerate(names):
        for n in names[i + 1 :]:
            assert not boxes[m].intersects(boxes[n]), (m, n)


def assert_legend_clear(view):
    viewport = view.viewport().rect()
    legend = view.legend.geometry()
    assert viewport.contains(legend), (viewport, legend)
    for item in view.nodes.values():
        assert not view.mapFromScene(item.sceneBoundingRect()).boundingRect().intersects(legend)


@pytest.mark.slow
@pytest.mark.parametrize("method", METHODS)
def test_every_example_is_drawn_truthfully_in_the_view(qtbot, view, method):
    view.set_layout_method(method)
    for example in EXAMPLES:
        view.set_graph(graph_of(example["text"]))
        qtbot.waitUntil(lambda: not view.busy, timeout=10000)
        assert_drawn_truthfully(view)
        view.fit()
        assert_legend_clear(view)


def test_legend_stays_in_the_viewport_after_pans_zooms_and_resizes(qtbot, view):
    view.set_graph(graph_of(EXAMPLES[7]["text"]))
    qtbot.waitUntil(lambda: not view.busy, timeout=10000)
    view.zoom(3.0)
    view.horizontalScrollBar().setValue(view.horizontalScrollBar().maximum())
    view.verticalScrollBar().setValue(view.verticalScrollBar().maximum())
    assert view.viewport().rect().contains(view.legend.geometry())  # scrolling must not carry it away
    for width, height in ((1024, 700), (420, 360), (1600, 1000), (700, 900)):
        view.resize(width, height)
        qtbot.wait(10)
        view.fit()
        assert_legend_clear(view)


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("presentation", [False, True])
def test_legend_fits_its_text(qtbot, view, theme, presentation):
    from PySide6.QtGui import QFontMetricsF

    view.set_theme(theme)
    view.set_presentation(presentation)
    view.collapsed = {"g"}  # the longest set of swatches
    view.resize(380, 500)
    qtbot.wait(10)
    legend = view.legend
    rows = legend._rows(legend.width() - 2 * legend.PAD)
    fm = QFontMetricsF(view.body_font)
    swatch = fm.height() * 0.8
    for row in rows:
        x, name = row[-1]
        assert legend.PAD + x + swatch + 4 + fm.horizontalAdvance(name) <= legend.width() + 0.5
    needed = legend.size_for(legend.width()).height()
    assert legend.height() >= needed and view.viewport().rect().contains(legend.geometry())


@pytest.fixture
def big_window(qtbot, tmp_path):
    """The main window at 1600×1000, as the issue measures legibility."""
    from PySide6.QtCore import QSettings

    from gui.shell.main_window import MainWindow
    from gui.shell.settings import AppSettings

    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(tmp_path / "qsettings"))
    window = MainWindow(AppSettings(QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)))
    qtbot.addWidget(window)
    window.resize(1600, 1000)
    window.show()
    qtbot.wait(50)
    yield window
    window.set_presentation(False)
    window.expression.state.stop()


def fitted_points(qtbot, window, text: str) -> float:
    """Load ``text``, wait for the drawing, Fit: the on-screen size of the value text (from the scene transform)."""
    panel = window.expression
    panel.state.load(text, None)
    qtbot.waitUntil(lambda: not panel.view.busy and panel.view.drawing is not None, timeout=20000)
    panel.view.fit()
    return panel.view.fitted_text_points()


@pytest.mark.parametrize("presentation", [False, True])
def test_fitted_text_of_the_examples_is_legible_in_a_1600x1000_window(qtbot, big_window, presentation):
    """Measured from the scene transform: value text ≥ 9 pt (13.5 pt in presentation mode) for every
    example.  The 33-node example cannot be shown whole that large in presentation mode: Fit shows it
    around its output, with the overview map (see test_graph_readable_fit.py)."""
    big_window.set_presentation(presentation)
    qtbot.wait(50)
    goal = 13.5 if presentation else 9.0
    sizes, partial = {}, set()
    for example in EXAMPLES:
        sizes[example["name"]] = fitted_points(qtbot, big_window, example["text"])
        assert_legend_clear(big_window.expression.view)
        if big_window.expression.view.fit_is_partial:
            partial.add(example["name"])
    assert min(sizes.values()) >= goal - 1e-6, sizes
    assert partial <= ({"micrograd test: more ops"} if presentation else set()), partial


# The goal: ≥ 9 pt, ≥ 13.5 pt in presentation mode; a graph that cannot be shown whole that large
# is shown in part (benchmarks/bench_graph_legibility.py counts how many).
FITTED_FLOORS = {False: 9.0, True: 13.5}


@pytest.mark.slow
@pytest.mark.parametrize("presentation", [False, True])
def test_representative_graphs_are_legible_at_fit_in_every_layout(qtbot, big_window, presentation):
    """The 33-node example (a 13-layer chain) and a 46-node random expression, fitted in every layout: the
    text size from the scene transform, no edge through a box, no boxes overlapping, the legend clear."""
    from tests.graph_cases import random_expression

    texts = {
        "micrograd test: more ops": next(e["text"] for e in EXAMPLES if e["name"] == "micrograd test: more ops"),
        "random #17": random_expression(17),
    }
    big_window.set_presentation(presentation)
    qtbot.wait(50)
    panel = big_window.expression
    for method in METHODS:
        panel.layout_combo.setCurrentIndex(list(METHODS).index(method))
        for name, text in texts.items():
            points = fitted_points(qtbot, big_window, text)
            assert points >= FITTED_FLOORS[presentation] - 1e-6, (name, method, points)
            assert_drawn_truthfully(panel.view)
            assert_legend_clear(panel.view)
    panel.layout_combo.setCurrentIndex(0)
