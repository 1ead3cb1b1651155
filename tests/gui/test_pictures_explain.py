"""Pictures that explain themselves: the sign of a weight has colors of its own (not the class colors), every
color-coded view shows its key, the network diagram of 2-16-16-1 is readable at step 0, the expanded sample
graph says how to read it, and group boxes never show internal ids."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from PySide6.QtGui import QColor

from gui.look.theme import PALETTES, contrast_ratio, palette
from gui.plots import network_diagram
from gui.plots.neuron_maps import color_table

TIMEOUT = 20_000
STRONGEST_INPUTS = getattr(network_diagram, "STRONGEST_INPUTS", 3)  # (named here so main's code runs the tests)


def _linear(v: float) -> float:
    return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4


def oklab(color: str) -> tuple[float, float, float]:
    """OKLab (Ottosson 2020) of "#rrggbb": distances in it follow how different two colors look."""
    c = QColor(color)
    r, g, b = (_linear(x / 255) for x in (c.red(), c.green(), c.blue()))
    lms = (
        0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * b,
        0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * b,
        0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * b,
    )
    l_, m_, s_ = (x ** (1 / 3) for x in lms)
    return (
        0.2104542553 * l_ + 0.7936177850 * m_ - 0.0040720468 * s_,
        1.9779984951 * l_ - 2.4285922050 * m_ + 0.4505937099 * s_,
        0.0259040371 * l_ + 0.7827717662 * m_ - 0.8086757660 * s_,
    )


def distance(a: str, b: str) -> float:
    return 100 * math.dist(oklab(a), oklab(b))


def test_oklab_distance_by_hand():
    # white is L = 1, black L = 0, both gray (a = b = 0): their distance is 100
    assert distance("#ffffff", "#000000") == pytest.approx(100, abs=0.1)
    assert distance("#1565c0", "#1565c0") == 0


# ------------------------------------------------------------------ 1. the sign has its own colors


@pytest.mark.parametrize("theme", sorted(PALETTES))
def test_sign_colors_are_not_the_class_colors(theme):
    pal = palette(theme)
    negative, positive = pal.sign_colors
    for sign in (negative, positive):
        for cls in pal.class_colors[:2]:  # blue and orange: what the boundary and the points mean
            assert distance(sign, cls) >= 15, (theme, sign, cls)
        assert contrast_ratio(sign, pal.plot_background) >= 3.0  # a line reads on the diagram's background
    assert distance(negative, positive) >= 25
    # a unit's map of a signed output runs through the same two colors, a non-negative one through grays
    table = color_table(False, pal)
    assert QColor(*table[0][:3]).name() == negative and QColor(*table[-1][:3]).name() == positive
    for row in color_table(True, pal)[::32]:
        r, g, b = (int(v) for v in row[:3])
        assert max(r, g, b) - min(r, g, b) <= 16  # gray (the dark theme's a touch blue, as its background)


def _mix_towards(edge_color: QColor, target: str, background: str) -> float | None:
    """The f with edge = background + f·(target − background), or None when the color is not on that line."""
    e, t, bg = (np.array(QColor(c).getRgb()[:3], dtype=float) for c in (edge_color.name(), target, background))
    d = t - bg
    f = float(np.dot(e - bg, d) / np.dot(d, d))
    return f if np.abs(bg + f * d - e).max() <= 2.5 else None


def test_diagram_edges_are_drawn_in_the_sign_colors_in_both_themes(qtbot, ws):
    ws.flush()
    diagram = ws.diagram
    for theme in ("light", "dark"):
        ws.set_theme(theme)
        pal = palette(theme)
        weights = np.concatenate([w.ravel() for w, _b in ws.controller.last_snapshot.weights])
        assert (weights > 0).any() and (weights < 0).any()
        for edge, w in zip(diagram.edges, weights):
            color = edge.pen().color()
            own = pal.sign_colors[1] if w >= 0 else pal.sign_colors[0]
            f = _mix_towards(color, own, pal.plot_background)
            assert f is not None, (theme, w, color.name())
            if f < 0.2:  # a faint edge (under a fifth of the way from the background): too little hue to tell
                continue
            for cls in pal.class_colors[:2]:
                assert _mix_towards(color, cls, pal.plot_background) is None, (theme, w, color.name())
        strongest = int(np.argmax(np.abs(weights)))
        full = pal.sign_colors[1] if weights[strongest] >= 0 else pal.sign_colors[0]
        assert diagram.edges[strongest].pen().color().name() == full
    ws.set_theme("light")


# ------------------------------------------------------------------ 2. every color-coded view has its key


def test_diagram_key_says_what_edge_color_and_width_mean(qtbot, ws):
    ws.flush()
    diagram = ws.diagram
    assert diagram.key.isVisible()
    for theme in ("light", "dark"):
        ws.set_theme(theme)
        negative, positive = palette(theme).sign_colors
        text = diagram.key.text()
        assert f"color:{negative}'><b>━━</b></span> − weight" in text
        assert f"color:{positive}'><b>━━</b></span> + weight" in text
        assert "width: |w|" in text
        # the tooltips name the colors drawn in this theme (black on white, white on the dark background)
        words = "gold −, black +" if theme == "light" else "gold −, white +"
        assert words in diagram.key.toolTip() and words in diagram.title.toolTip()
        assert "gold negative" in diagram.mode.toolTip()
        diagram.mode.setCurrentIndex(1)  # edges by gradient: the key follows
        text = diagram.key.text()
        assert "− gradient" in text and "+ gradient" in text and "width: |∂loss/∂w|" in text
        assert "weight" not in text.split("·")[0]
        diagram.mode.setCurrentIndex(0)
    ws.set_theme("light")


# ------------------------------------------------------------------ 3. a readable diagram at step 0


def test_default_network_at_step_0_is_one_column_per_layer_and_not_a_hairball(qtbot, ws):
    ws.flush()
    diagram = ws.diagram
    snap = ws.controller.last_snapshot
    assert snap.sizes == (2, 16, 16, 1) and ws.controller.last_metrics.step == 0
    for column in diagram.neurons:  # each layer is one column: all its circles at one x, none overlapping
        xs = {round(item.rect().center().x(), 6) for item in column}
        assert len(xs) == 1
        ys = sorted(item.rect().center().y() for item in column)
        assert all(b - a >= column[0].rect().height() for a, b in itertools.pairwise(ys))
    by_layer: dict[int, list] = {}
    for edge in diagram.edges:
        by_layer.setdefault(edge.layer, []).append(edge)
    for layer, (W, _b) in enumerate(snap.weights, start=1):
        edges = by_layer[layer]
        shown = [e for e in edges if e.style_key[2] > 0]  # drawn more than faintest
        if W.shape[1] > 2 * STRONGEST_INPUTS:  # 16 inputs a neuron: only the strongest 3 of each stand out
            assert len(shown) <= STRONGEST_INPUTS * W.shape[0] < len(edges) / 4
            for e in shown:
                row = np.abs(W[e.row])
                assert abs(W[e.row, e.col]) >= np.sort(row)[-STRONGEST_INPUTS]
        # the strongest weight of every layer is drawn widest and in full
        best = edges[int(np.argmax(np.abs(W).ravel()))]
        assert best.pen().widthF() == max(e.pen().widthF() for e in edges)
        assert best.style_key[1:] == (max(e.style_key[1] for e in edges), max(e.style_key[2] for e in edges))
    assert network_diagram.FAINT < 0.1


def _check_band_key(key, levels, theme):
    """The key is shown, paints each band in the map's color for it, and writes level numbers in order."""
    from autograd_core.numbers import format_number
    from gui.plots.surface_image import band_colors

    assert key.isVisible() and key.width() >= 40 and key.height() >= 150
    image = key.grab().toImage()
    table = band_colors(len(levels) + 1, theme)
    ratio = image.width() / key.width()
    for k in (0, len(levels) // 2, len(levels)):  # the lowest, a middle and the highest band
        center = key.band_rect(k).center()
        got = image.pixelColor(int(center.x() * ratio), int(center.y() * ratio))
        want = QColor(*(int(v) for v in table[k][:3]))
        assert max(abs(got.red() - want.red()), abs(got.green() - want.green()), abs(got.blue() - want.blue())) <= 3
    shown = key.labels()
    assert len(shown) >= 3 and shown[-1] == format_number(float(levels[-1]))
    assert shown == [format_number(float(levels[i])) for i in key.shown_levels()]


def test_landscape_has_a_numbered_color_scale(qtbot, ws):
    ws.curves.setCurrentIndex(ws.curves.indexOf(ws.landscape))
    qtbot.waitUntil(lambda: ws.landscape.current is not None, timeout=TIMEOUT)
    qtbot.wait(50)
    panel = ws.landscape
    _check_band_key(panel.band_key, panel.current.levels, "light")
    assert panel.band_key.title == "loss"


def test_optimizer_lab_map_has_a_numbered_color_scale(qtbot, lab_panel):
    panel = lab_panel
    qtbot.waitUntil(lambda: panel.lab.grid is not None, timeout=TIMEOUT)
    qtbot.wait(50)
    for theme in ("light", "dark"):
        panel.set_theme(theme)
        qtbot.wait(20)
        _check_band_key(panel.band_key, panel.lab.grid.levels, theme)
    panel.lab.pause()


def test_an_enlarged_neuron_map_says_what_plane_it_is_over_and_shows_the_points(qtbot, ws):
    ws.frames.mark("maps", at_once=True)
    ws.flush()
    diagram = ws.diagram
    assert diagram.map_images
    neuron = diagram.neurons[1][3]
    diagram._hover(neuron)
    magnifier = diagram.magnifier
    assert magnifier.isVisible()
    x0, x1, y0, y1 = ws.controller.last_snapshot.grid.extent
    from autograd_core.numbers import format_number

    text = magnifier.key.text()
    assert f"x1 {format_number(x0)} … {format_number(x1)}" in text
    assert f"x2 {format_number(y0)} … {format_number(y1)}" in text
    assert "training points" in text
    # the points are drawn on the map: pixels in the class colors where there were none in the plain map
    image = magnifier.picture.pixmap().toImage()
    pal = palette()
    found = set()
    for k, cls in enumerate(pal.class_colors[:2]):
        want = QColor(cls)
        for y in range(0, image.height(), 2):
            for x in range(0, image.width(), 2):
                c = image.pixelColor(x, y)
                if abs(c.red() - want.red()) + abs(c.green() - want.green()) + abs(c.blue() - want.blue()) <= 6:
                    found.add(k)
    assert found == {0, 1}
    diagram._hover(None)


# ------------------------------------------------------------------ 4. Expand all stays readable


class _Training:
    """The training area's side of the sample panel's contract: a fixed network and its loss."""

    def __init__(self):
        from PySide6.QtCore import QObject, Signal

        from autograd_core.learn.nn import MLP

        class Signals(QObject):
            model_changed = Signal()
            sample_selected = Signal(float, float, int)

        self.signals = Signals()
        self.model_changed, self.sample_selected = self.signals.model_changed, self.signals.sample_selected
        self.model = MLP(2, [16, 16, 1], seed=5)

    def current_model(self):
        return self.model

    def current_loss(self):
        return "bce"


def test_expand_all_on_the_sample_graph_keeps_text_readable_and_says_how_to_move(qtbot):
    from PySide6.QtCore import Qt

    from gui.graph_view import READABLE_POINTS
    from gui.training.sample_graph_panel import HINT, SampleGraphPanel

    training = _Training()
    panel = SampleGraphPanel()
    panel.bind_training(training)
    panel.resize(1400, 850)
    qtbot.addWidget(panel)
    panel.show()
    panel.x_edit.setText("0.3")
    panel.y_edit.setText("0.2")
    qtbot.mouseClick(panel.show_button, Qt.MouseButton.LeftButton)
    view = panel.view

    def settled():
        return view.graph is not None and not view.busy and view.settled

    qtbot.waitUntil(settled, timeout=TIMEOUT)
    collapsed_hint = panel.hint.text()  # one box per neuron: nothing to collapse
    assert "Collapse all" not in collapsed_hint and (view.fit_is_partial or collapsed_hint == HINT)
    qtbot.mouseClick(panel.expand_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: settled() and len(view.nodes) == 409, timeout=TIMEOUT)
    qtbot.wait(50)
    assert view.fitted_text_points() >= READABLE_POINTS - 1e-6  # every box's numbers can be read
    assert view.fit_is_partial and view.overview.isVisible()  # part of it on screen, the map shows the rest
    # what is on screen is around the loss, the end backward starts from
    loss = view.focus_box()
    assert view.mapFromScene(loss).boundingRect().intersects(view.viewport().rect())
    hint = panel.hint.text()
    assert hint.startswith("409 boxes: shown at a size you can read, around the loss") and "Drag" in hint
    assert "View ▸ Whole graph" in hint and "Collapse all for one box per neuron" in hint
    view.fit()  # Fit again keeps it readable
    assert view.fitted_text_points() >= READABLE_POINTS - 1e-6
    qtbot.mouseClick(panel.collapse_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: settled() and len(view.nodes) < 50, timeout=TIMEOUT)
    qtbot.wait(50)
    assert panel.hint.text() == collapsed_hint


# ------------------------------------------------------------------ 5. group boxes never show internal ids


def test_group_boxes_of_a_typed_sum_have_readable_names_not_node_ids(qtbot):
    import re

    from gui.expression.expression_panel import ExpressionPanel

    panel = ExpressionPanel()
    qtbot.addWidget(panel)
    panel.resize(1400, 850)
    panel.show()
    # 16 unnamed neurons summed, and four ops on a second sum: the groups a typed network gets
    neurons = " + ".join(f"tanh(w{i}*x + b{i})" for i in range(16))
    chain = "exp(sin(cos(relu(" + " + ".join(f"sigmoid(v{i}*x)" for i in range(4)) + "))))"
    panel.state.load(f"{neurons} + {chain}", {})
    view = panel.view
    qtbot.waitUntil(lambda: not view.busy and bool(view.nodes), timeout=30_000)
    groups = set(view.groups())
    # the tanh terms in the order written, the chain on the inner sum the 17th; the inner sum's terms by their sum
    assert {f"term {k} of Σ 17 terms" for k in range(1, 18)} <= groups
    assert {"Σ 17 terms", "Σ 4 terms", "term 2 of Σ 4 terms"} <= groups
    titles = [item.title for item in view.nodes.values()]
    for title in titles:
        assert not re.search(r"#\d", title), title
    assert "▣ term 3 of Σ 17 terms · tanh" in titles
    view.expand_all()  # opened, a member's box shows its op, not the made-up name again
    qtbot.waitUntil(lambda: not view.busy and not view.collapsed, timeout=30_000)
    for item in view.nodes.values():
        assert not re.search(r"#\d", item.title) and "term " not in item.title, item.title
    panel.state.stop()


# ------------------------------------------------------------------ Fit shows the whole graph or says why not


def test_fit_of_a_300_node_overview_says_why_it_does_not_show_all(qtbot, tmp_path):
    from conftest import new_main_window
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QToolButton

    from tests.gui.graph_view.test_graph_groups_gui import chained_neurons

    window = new_main_window(qtbot, tmp_path)
    panel = window.expression
    window.tabs.setCurrentWidget(panel)
    panel.state.load(chained_neurons(), {})
    view = panel.view
    qtbot.waitUntil(lambda: not view.busy and bool(view.nodes) and view.settled, timeout=30_000)
    qtbot.wait(50)
    assert view.fit_is_partial  # the overview's 39 boxes do not fit at a readable size
    window.statusBar().clearMessage()
    fit = next(b for b in panel.findChildren(QToolButton) if b.text() == "Fit")
    qtbot.mouseClick(fit, Qt.MouseButton.LeftButton)
    text = window.statusBar().currentMessage()
    shown = view.mapToScene(view.viewport().rect()).boundingRect()
    off = sum(1 for item in view.nodes.values() if not shown.contains(item.mapRectToScene(item.box())))
    assert 0 < off < len(view.nodes)
    assert text.startswith(f"Fit keeps the graph's text readable, so {off} of its {len(view.nodes)} boxes are off")
    assert "View ▸ Whole graph (Ctrl+9)" in text
    # pressed again, it says so again (it said it only the first time, so a second Fit seemed to do nothing)
    window.statusBar().clearMessage()
    qtbot.mouseClick(fit, Qt.MouseButton.LeftButton)
    assert window.statusBar().currentMessage() == text
    view.show_whole()  # the whole graph: every box on screen
    shown = view.mapToScene(view.viewport().rect()).boundingRect()
    assert all(shown.contains(item.sceneBoundingRect()) for item in view.nodes.values())
    panel.state.stop()


def test_hovering_a_neuron_draws_all_its_weights_in_full(qtbot, ws):
    ws.flush()
    diagram = ws.diagram
    W = ws.controller.last_snapshot.weights[1][0]  # 16 × 16: into the second hidden layer
    neuron = diagram.neurons[2][5]
    into = [e for e in diagram.edges if e.layer == 2 and e.row == 5]
    faint = [e for e in into if e.style_key[2] == 0]
    assert len(faint) >= 16 - STRONGEST_INPUTS - 2  # most of its inputs are faint until hovered
    diagram._hover(neuron)
    peak = np.abs(W).max()
    for e in into:  # hovered: each by its own |w| (squared, of the layer's largest), none capped
        assert e.style_key[2] == min(5, int((abs(W[e.row, e.col]) / peak) ** 2 * 6)), e.col
    assert sum(e.style_key[2] > 0 for e in into) > STRONGEST_INPUTS
    diagram._hover(None)
    assert [e.style_key[2] for e in faint] == [0] * len(faint)


def test_a_narrow_diagram_keeps_its_color_key_and_drops_the_hints_to_its_tooltip(qtbot, ws):
    """At 1024 px in presentation mode the key wrapped to three lines and squeezed the diagram to a strip: there
    the hints (circles, click an edge) go to the tooltip and the sign colors stay."""
    diagram = ws.diagram
    wide = diagram.key.text()
    assert "click an edge" in wide and "weight" in wide
    ws.resize(700, 800)
    diagram.resize(260, 300)
    qtbot.waitUntil(lambda: "click an edge" not in diagram.key.text(), timeout=5000)
    assert "− weight" in diagram.key.text() and "+ weight" in diagram.key.text()
    assert "Click an edge" in diagram.key.toolTip()


# ------------------------------------------------------------------ a layer of 16 is one column, in both pictures


@pytest.mark.parametrize("presentation", [False, True])
def test_a_16_neuron_layer_is_one_column_in_the_diagram_and_the_sample_graph(qtbot, training_window, presentation):
    """2-16-16-1 at 1600×1000 and 1024×700: the diagram draws each layer as one column, and so does the sample
    graph (it wrapped each layer of 16 onto two rows of 8 in normal mode, at both sizes)."""
    from autograd_core.language.naming import unit_layer

    window = training_window
    controller = window.training.controller
    assert controller.last_snapshot.sizes == (2, 16, 16, 1)
    window.set_presentation(presentation)
    x, y = controller.dataset.X_train[0]
    for size in ((1600, 1000), (1024, 700)):
        window.resize(*size)
        window.tabs.setCurrentWidget(window.training)
        window.training.flush()
        qtbot.wait(50)
        for column in window.training.diagram.neurons:
            assert len({round(item.sceneBoundingRect().center().x(), 3) for item in column}) == 1
        window.show_sample(float(x), float(y), int(controller.dataset.y_train[0]))
        view = window.sample.view
        qtbot.wait(250)  # past the view's re-layout after a resize
        qtbot.waitUntil(lambda: view.graph is not None and not view.busy and view.settled, timeout=TIMEOUT)
        layers: dict[int, list] = {}
        for node, group in view.graph.nodes(data="group"):
            if (k := unit_layer(group)) is not None:
                layers.setdefault(k, []).append(view.nodes[node].sceneBoundingRect())
        assert sorted(len(boxes) for boxes in layers.values()) == [1, 16, 16]
        for boxes in layers.values():
            assert len({round(b.center().x(), 3) for b in boxes}) == 1, (size, presentation)
            tops = sorted(b.top() for b in boxes)
            assert all(b - a >= boxes[0].height() for a, b in itertools.pairwise(tops))
    window.set_presentation(False)
