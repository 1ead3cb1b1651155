"""The diagram stretches its layers to the view's shape: a wide view is filled, circles stay round, clicks pick."""

import itertools

import numpy as np
import pytest
from PySide6.QtCore import QRectF, Qt
from PySide6.QtTest import QTest

from gui.plots.network_diagram import MAX_LAYER_GAP, MIN_LAYER_GAP, NetworkDiagram

SIZES = (2, 16, 16, 1)


@pytest.fixture
def diagram(qtbot):
    d = NetworkDiagram()
    qtbot.addWidget(d)
    d.show()
    qtbot.waitExposed(d)
    resize_view(qtbot, d, 700, 300)
    d.set_architecture(SIZES, "relu")
    qtbot.wait(20)
    return d


def resize_view(qtbot, d, width, height):
    """Size the widget so that its graphics view (below the header, above the key) is ``width`` × ``height``."""
    d.resize(width, height)
    qtbot.wait(10)
    d.resize(width, height + d.height() - d.view.height())
    qtbot.wait(20)
    assert abs(d.view.height() - height) <= 2


def network_rect(d) -> QRectF:
    rect = QRectF()
    for column in d.neurons:
        for item in column:
            rect = rect.united(item.sceneBoundingRect())
    return rect


def on_screen(d):
    return d.view.mapFromScene(network_rect(d)).boundingRect()


def weights(sizes, seed=0):
    rng = np.random.default_rng(seed)
    return [(rng.normal(size=(b, a)), rng.normal(size=b)) for a, b in itertools.pairwise(sizes)]


def test_a_wide_view_is_filled_and_circles_stay_round(diagram):
    vw = diagram.view.viewport().width()
    assert vw > 2 * diagram.view.viewport().height()  # the case in question: wide and short
    shown = on_screen(diagram)
    assert shown.width() >= 0.85 * vw, (shown, vw)
    assert diagram.view.viewport().rect().contains(shown)
    assert MIN_LAYER_GAP <= diagram.layer_gap <= MAX_LAYER_GAP and diagram.layer_gap > 220  # wider than the default
    assert diagram.view.transform().m11() == pytest.approx(diagram.view.transform().m22())  # uniform scale
    for column in diagram.neurons:
        for item in column:
            assert item.rect().width() == pytest.approx(item.rect().height())
            assert item.rect().width() > 0


def test_resizing_moves_edges_maps_marks_labels_and_the_pick_with_the_neurons(qtbot, diagram):
    diagram.set_weights(weights(SIZES))
    maps = [np.linspace(-1, 1, 16 * 8 * 8).reshape(16, 8, 8), np.linspace(0, 1, 16 * 8 * 8).reshape(16, 8, 8)]
    diagram.set_neuron_maps(maps)
    diagram.set_dead([(1, 3)])
    diagram.pick(2, 5, 7, emit=False)
    gap_before = diagram.layer_gap
    resize_view(qtbot, diagram, 600, 360)
    assert MIN_LAYER_GAP < diagram.layer_gap < gap_before  # the state survived a move, not a rebuild
    assert diagram.maps and diagram.dead == {(1, 3)} and diagram.picked == (2, 5, 7)
    for edge in diagram.edges:
        source = diagram.neurons[edge.layer - 1][edge.col].rect().center()
        target = diagram.neurons[edge.layer][edge.row].rect().center()
        assert edge.line().p1() == source and edge.line().p2() == target
    assert np.allclose(
        diagram.geometry.edge_ends, [[*e.line().p1().toTuple(), *e.line().p2().toTuple()] for e in diagram.edges]
    )
    for layer in (1, 2):
        for item in diagram.neurons[layer]:
            assert item.image_item.sceneBoundingRect().center().toTuple() == pytest.approx(
                item.rect().center().toTuple()
            )
    dead = diagram.neurons[1][3]
    assert dead.dead_mark.sceneBoundingRect().center().toTuple() == pytest.approx(dead.rect().center().toTuple())
    (halo,) = diagram._pick_items
    assert halo.line().p1() == diagram.neurons[1][7].rect().center()
    assert halo.line().p2() == diagram.neurons[2][5].rect().center()
    for label in diagram.layer_labels:
        assert label.pos().x() == pytest.approx(
            diagram.neurons[diagram.layer_labels.index(label) + 1][0].rect().center().x()
        )
    shown = on_screen(diagram)
    left, right = diagram.label_margins()
    assert shown.width() >= diagram.view.viewport().width() - left - right - 8  # all the width the labels leave
    assert diagram.view.viewport().rect().contains(shown)


def test_edge_item_finds_each_weight_by_its_layer_row_and_column(diagram):
    for edge in diagram.edges:
        assert diagram.edge_item(edge.layer, edge.row, edge.col) is edge


def test_clicking_an_edge_midpoint_after_a_resize_picks_that_weight(qtbot, diagram):
    diagram.set_weights(weights(SIZES))
    resize_view(qtbot, diagram, 900, 320)
    edge = next(e for e in diagram.edges if e.layer == 3 and e.col == 4)
    picked = []
    diagram.parameter_picked.connect(lambda *args: picked.append(args))
    point = diagram.view.mapFromScene(edge.line().center())
    QTest.mouseClick(diagram.view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, point)
    assert picked == [(2, 0, 4)]
    assert diagram.picked == (3, 0, 4)


def test_a_narrow_tall_view_still_shows_the_whole_network(qtbot, diagram):
    resize_view(qtbot, diagram, 320, 700)
    assert diagram.layer_gap == MIN_LAYER_GAP
    shown = on_screen(diagram)
    assert diagram.view.viewport().rect().contains(shown), (shown, diagram.view.viewport().rect())
    for column in diagram.neurons:
        for item in column:
            assert item.rect().width() == pytest.approx(item.rect().height())


def test_resizes_inside_fitting_once_fit_the_network_once_at_the_end(qtbot, diagram):
    """A mode switch moves the splitters around the diagram several times: the network is fitted once, after."""
    fits = []
    original = diagram.view.fit
    diagram.view.fit = lambda: (fits.append(diagram.view.viewport().size()), original())[1]
    try:
        before = diagram.view.transform().m11()
        with diagram.fitting_once():
            diagram.resize(500, 420)
            qtbot.wait(20)
            diagram.resize(900, 380)
            qtbot.wait(20)
            assert fits == [] and diagram.view.transform().m11() == before  # held: not fitted yet
        assert fits == []  # the fit waits for the next turn of the event loop …
        qtbot.wait(20)
        assert len(fits) == 1 and fits[0] == diagram.view.viewport().size()
        shown = on_screen(diagram)
        assert diagram.view.viewport().rect().contains(shown)
        original()  # the same picture as fitting on every resize gives
        assert on_screen(diagram) == shown and diagram.view.transform().m11() != before
        diagram.resize(700, 400)  # outside: every resize fits at once, as before
        qtbot.wait(20)
        assert len(fits) >= 2
    finally:
        diagram.view.fit = original


@pytest.mark.parametrize("theme", ["dark", "light"])
def test_unit_maps_stay_visible_after_a_theme_switch(qtbot, diagram, theme):
    """A theme switch re-styled each circle with an opaque fill, which hid the map drawn behind its outline."""
    from PySide6.QtGui import QColor

    from gui.look.theme import palette

    diagram.set_weights(weights(SIZES))
    maps = [np.linspace(-1, 1, 16 * 8 * 8).reshape(16, 8, 8), np.linspace(0, 1, 16 * 8 * 8).reshape(16, 8, 8)]
    diagram.set_neuron_maps(maps)
    pal = palette(theme)
    diagram.apply_palette(pal)
    qtbot.wait(20)
    image = diagram.view.viewport().grab().toImage()
    for layer in (1, 2):
        for item in diagram.neurons[layer]:
            assert item.brush().style() == Qt.BrushStyle.NoBrush  # the map shows through
            own = diagram.map_images[(layer, item.index)]
            wanted = QColor(own.pixelColor(own.width() // 2, own.height() // 2))
            center = diagram.view.mapFromScene(item.rect().center())
            seen = image.pixelColor(center.x(), center.y())
            gap = max(abs(a - b) for a, b in zip(seen.getRgb()[:3], wanted.getRgb()[:3], strict=True))
            assert gap < 40, (layer, item.index, seen.name(), wanted.name(), QColor(pal.neuron_fill).name())


@pytest.mark.parametrize(
    "sizes", [(2, 16, 16, 1), (3, 16, 16, 1), (2, 16, 16, 3), (2, 16, 16, 6), (2, 2, 1), (5, 4, 6)]
)
@pytest.mark.parametrize("height", [110, 135, 180])
def test_labels_keep_their_presentation_size_and_never_touch_in_a_short_view(qtbot, diagram, sizes, height):
    """Presentation mode at 1024×700 leaves the diagram ~110–180 px high: the input and output labels (a fixed
    size in pixels, 1.5× normal) touched or overlapped there (x1 on x2, score1 on score2).  The narrow layers
    spread out towards the tallest one's height, and where that is not enough their labels alternate between
    columns: no two texts closer than 2 px, none cut by the view's edge, the whole network in view."""
    from gui.look.theme import palette, plot_text_size
    from tools.layout_checks import diagram_text_findings

    diagram.apply_palette(palette("light"), presentation=True)
    diagram.set_architecture(sizes, "relu")
    resize_view(qtbot, diagram, 500, height)
    qtbot.wait(20)
    assert diagram_text_findings(diagram.view) == [], (sizes, height)
    for label, _item, _side in diagram.geometry.label_anchors:
        assert label.font().pointSizeF() == pytest.approx(plot_text_size(True, 1.1))
    assert diagram.view.viewport().rect().contains(on_screen(diagram))
    if max(sizes[0], sizes[-1]) <= 3:  # (only six outputs in 110 px show every third name: the hover names all)
        assert all(label.isVisible() for label, _item, _side in diagram.geometry.label_anchors), (sizes, height)
    # the inputs stay in order, evenly spaced, within the tallest layer's height
    ys = [item.rect().center().y() for item in diagram.neurons[0]]
    assert ys == sorted(ys)
    tallest = max(len(c) for c in diagram.neurons)
    top = min(c[0].rect().center().y() for c in diagram.neurons if len(c) == tallest)
    assert ys[0] >= top - 1e-6 and ys[-1] <= -top + 1e-6


def test_the_diagram_text_check_finds_touching_labels(qtbot, diagram):
    from tools.layout_checks import diagram_text_findings

    assert diagram_text_findings(diagram.view) == []
    x1, x2 = (label for label, _item, side in diagram.geometry.label_anchors if side == "left")
    scale = diagram.view.transform().m11()
    x2.setPos(x1.pos() + (x1.boundingRect().bottomLeft() - x1.boundingRect().topLeft()) / scale)  # just touching
    found = diagram_text_findings(diagram.view)
    assert [f.kind for f in found] == ["diagram text overlaps"] and "x1" in found[0].widget
    x2.setPos(x1.pos() + (x1.boundingRect().bottomLeft() * 30) / scale)  # far below: out of the view
    assert {f.kind for f in diagram_text_findings(diagram.view)} == {"diagram text cut"}


def test_the_key_counts_dead_units_in_the_singular_and_the_plural(diagram):
    """The key under the diagram read "1 dead ReLU unit(s)"."""
    diagram.set_weights(weights(SIZES))
    diagram.set_dead([(1, 3)])
    assert "1 dead ReLU unit" in diagram.key.text() and "unit(s)" not in diagram.key.text()
    assert "units" not in diagram.key.text()
    diagram.set_dead([(1, 3), (2, 0)])
    assert "2 dead ReLU units" in diagram.key.text()
    diagram.set_dead([])
    assert "dead" not in diagram.key.text()
