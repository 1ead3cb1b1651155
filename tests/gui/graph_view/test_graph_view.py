"""The reusable graph view: items, tooltips, colors, layouts, zoom/pan, export, large graphs, groups."""

import math
import xml.etree.ElementTree as ET

import pytest
from PySide6.QtCore import QCoreApplication, QPoint, QPointF, Qt
from PySide6.QtGui import QColor, QImage, QWheelEvent
from PySide6.QtWidgets import QApplication

from autograd_core import Tensor
from autograd_core.drawing.graph import to_networkx
from autograd_core.learn.nn import MLP
from gui.graph_view import LARGE_GRAPH_NODES, collapse_groups


@pytest.fixture
def view(graph_view):
    return graph_view


def neuron():
    x1, x2 = Tensor(2.0, label="x1"), Tensor(0.0, label="x2")
    w1, w2 = Tensor(-3.0, label="w1", kind="parameter"), Tensor(1.0, label="w2", kind="parameter")
    b = Tensor(6.8813735870195432, label="b", kind="parameter")
    n = x1 * w1 + x2 * w2 + b
    n.label = "n"
    o = n.tanh()
    o.label = "o"
    o.backward()
    return o


def draw(qtbot, view, graph, **kw):
    view.set_graph(graph, **kw)
    qtbot.waitUntil(lambda: not view.busy, timeout=10000)


def test_every_node_and_edge_is_drawn_with_value_and_grad(qtbot, view):
    o = neuron()
    graph = to_networkx(o)
    draw(qtbot, view, graph)
    assert len(view.nodes) == graph.number_of_nodes()
    assert len(view.edges) == graph.number_of_edges()
    for node, attrs in graph.nodes(data=True):
        item = view.nodes[node]
        assert item.value == attrs["tensor"].data and item.grad == attrs["tensor"].grad
        assert item.kind == attrs["kind"]
    titles = {item.title for item in view.nodes.values()}
    assert {"x1", "w1", "o = tanh", "n = +"} <= titles


def test_reused_node_has_two_separate_edges(qtbot, view):
    x = Tensor(3.0, label="x")
    y = x * x
    graph = to_networkx(y)
    draw(qtbot, view, graph)
    edges = list(view.edges.values())
    assert len(edges) == 2 and {e.key for e in edges} == {0, 1}
    # they bend apart, so both are visible
    assert edges[0].path.pointAtPercent(0.5) != edges[1].path.pointAtPercent(0.5)


def test_tooltip_has_full_precision_and_local_derivatives(qtbot, view):
    o = neuron()
    graph = to_networkx(o)
    draw(qtbot, view, graph)
    node = next(n for n, a in graph.nodes(data=True) if a["label"] == "o")
    tip = view.tooltip_for(node)
    assert repr(o.data) in tip and repr(o.grad) in tip
    n_id = next(n for n, a in graph.nodes(data=True) if a["label"] == "n")
    local = graph.edges[n_id, node, 0]["local"]
    assert repr(local) in tip and "∂o/∂n" in tip and "tanh" in tip


def pixel_at(view, node):
    """The color inside a node box, near its left edge (away from the text)."""
    item = view.nodes[node]
    point = view.mapFromScene(item.pos() + QPointF(-item.width / 2 + 5, 0))
    return QColor(view.viewport().grab().toImage().pixel(point))


def test_node_color_follows_gradient_sign(qtbot, view):
    a, b = Tensor(2.0, label="a"), Tensor(-3.0, label="b")
    y = a * b
    y.backward()  # grad a = -3 (blue), grad b = 2 (red)
    graph = to_networkx(y)
    draw(qtbot, view, graph)
    ids = {attrs["label"]: n for n, attrs in graph.nodes(data=True)}
    neg, pos = pixel_at(view, ids["a"]), pixel_at(view, ids["b"])
    assert neg.blue() > neg.red() + 40
    assert pos.red() > pos.blue() + 40
    assert view.grad_scale == 3.0


def test_layouts_place_every_node(qtbot, view):
    o = neuron()
    graph = to_networkx(o)
    draw(qtbot, view, graph)
    layered = {n: item.pos() for n, item in view.nodes.items()}
    for method in ("spring", "kamada_kawai", "layered"):
        view.set_layout_method(method)
        qtbot.waitUntil(lambda: not view.busy)
        assert len(view.nodes) == graph.number_of_nodes()
        positions = {n: (round(i.pos().x()), round(i.pos().y())) for n, i in view.nodes.items()}
        assert len(set(positions.values())) == len(positions)  # no two boxes on the same spot
        if method != "layered":
            assert positions != {n: (round(p.x()), round(p.y())) for n, p in layered.items()}
    with pytest.raises(ValueError):
        view.set_layout_method("circular")


def test_wheel_zooms_drag_pans_and_fit_shows_everything(qtbot, view):
    o = neuron()
    draw(qtbot, view, to_networkx(o))
    scale = view.transform().m11()
    center = QPointF(view.viewport().rect().center())
    event = QWheelEvent(
        center,
        view.mapToGlobal(center),
        QPoint(0, 0),
        QPoint(0, 240),
        Qt.MouseButton.NoButton,
        Qt.KeyboardModifier.NoModifier,
        Qt.ScrollPhase.NoScrollPhase,
        False,
    )
    view.wheelEvent(event)
    assert view.transform().m11() > scale * 1.3
    view.zoom_in()
    view.zoom_in()
    h, v = view.horizontalScrollBar().value(), view.verticalScrollBar().value()
    vp = view.viewport()
    qtbot.mousePress(vp, Qt.MouseButton.LeftButton, pos=vp.rect().center())
    qtbot.mouseMove(vp, vp.rect().center() + QPoint(120, 80))
    qtbot.mouseRelease(vp, Qt.MouseButton.LeftButton, pos=vp.rect().center() + QPoint(120, 80))
    assert (view.horizontalScrollBar().value(), view.verticalScrollBar().value()) != (h, v)
    view.fit()
    visible = view.mapToScene(view.viewport().rect()).boundingRect()
    assert visible.contains(view.scene().itemsBoundingRect())


def test_a_png_exported_in_bands_is_the_picture_painted_in_one_go(qtbot, view, tmp_path, monkeypatch):
    """The app paints a PNG band by band between event-loop turns; the file is the same picture."""
    import gui.graph_view.export as export

    monkeypatch.setattr(export, "EXPORT_BAND_PIXELS", 20_000)  # many bands even for a small graph
    x = Tensor(0.5, label="x")
    y = sum(((x * k).tanh() for k in range(1, 9)), Tensor(0.0))
    draw(qtbot, view, to_networkx(y))
    whole = view.render_image()
    image, rect, scale = view.exporter.canvas()
    assert len(view.exporter.bands_of(image, rect, scale)) > 5
    said = []
    view.message.connect(said.append)
    png = tmp_path / "bands.png"
    view.export(str(png), background=True)
    assert said == [f"Saving the graph to {png}…"] and not png.exists()  # painting goes on in later turns
    qtbot.waitUntil(lambda: len(said) == 2, timeout=10_000)
    assert said[1] == f"Graph saved to {png}"
    saved = QImage(str(png)).convertToFormat(whole.format())
    assert saved.size() == whole.size()
    differing = sum(
        saved.pixel(i, j) != whole.pixel(i, j) for i in range(0, whole.width(), 3) for j in range(0, whole.height(), 3)
    )
    assert differing == 0


def test_a_banded_export_lets_the_event_loop_run_between_its_bands(qtbot, view, tmp_path, monkeypatch):
    """The next band waits for a timer, not for a posted event: delivering the posted events paints no band.
    Chained through posted events, each band came ahead of the timers and input waiting, band after band: the
    fully opened sample graph's Export… stalled the window 0.3 s."""
    import gui.graph_view.export as export

    monkeypatch.setattr(export, "EXPORT_BAND_PIXELS", 20_000)
    x = Tensor(0.5, label="x")
    draw(qtbot, view, to_networkx(sum(((x * k).tanh() for k in range(1, 9)), Tensor(0.0))))
    painted = []
    original = view.exporter.paint_band
    monkeypatch.setattr(view.exporter, "paint_band", lambda *a: (painted.append(1), original(*a)))
    said = []
    view.message.connect(said.append)
    view.export(str(tmp_path / "bands.png"), background=True)
    assert len(painted) == 1  # the first band at once
    QCoreApplication.sendPostedEvents()
    assert len(painted) == 1
    qtbot.waitUntil(lambda: len(said) == 2, timeout=10_000)
    assert len(painted) > 5


def test_two_banded_exports_at_once_both_keep_the_boxes_text_and_restore_the_view(qtbot, view, tmp_path, monkeypatch):
    """A second export asked while the first paints its bands: both files are the whole picture, and the view
    gets its plain boxes back only when the last one ends."""
    import gui.graph_view.export as export

    monkeypatch.setattr(export, "EXPORT_BAND_PIXELS", 20_000)
    draw(qtbot, view, to_networkx(neuron()))
    view.scale(0.05, 0.05)  # zoomed far out: the box layer paints plain boxes
    view.viewport().repaint()
    assert view.builder.plain
    whole = view.render_image()
    assert view.builder.plain  # (a one-go export restores it at once)
    said = []
    view.message.connect(said.append)
    first, second = tmp_path / "first.png", tmp_path / "second.png"
    view.export(str(first), background=True)
    image, rect, scale = view.exporter.canvas()
    for _ in range(len(view.exporter.bands_of(image, rect, scale)) // 2):  # the first export half done
        QApplication.processEvents()
    view.export(str(second), background=True)
    assert view.exporter.exporting and not view.builder.plain
    qtbot.waitUntil(lambda: len([t for t in said if t.startswith("Graph saved")]) == 2, timeout=10_000)
    for png in (first, second):
        saved = QImage(str(png)).convertToFormat(whole.format())
        assert saved.size() == whole.size() and saved == whole
    assert not view.exporter.exporting and view.builder.plain


def test_a_graph_redrawn_during_a_banded_export_stops_it_with_a_message(qtbot, view, tmp_path, monkeypatch):
    import gui.graph_view.export as export

    monkeypatch.setattr(export, "EXPORT_BAND_PIXELS", 20_000)
    draw(qtbot, view, to_networkx(neuron()))
    said = []
    view.message.connect(said.append)
    png = tmp_path / "stopped.png"
    view.export(str(png), background=True)
    view.layouts.new_generation()  # what a new layout of another graph does
    qtbot.waitUntil(lambda: len(said) == 2, timeout=10_000)
    assert said[1] == f"The graph changed while it was being exported: {png} not written"
    qtbot.wait(100)
    assert not png.exists() and not view.exporter.exporting


def test_export_png_and_svg(qtbot, view, tmp_path):
    o = neuron()
    draw(qtbot, view, to_networkx(o))
    png, svg = tmp_path / "graph.png", tmp_path / "graph.svg"
    view.export(str(png))
    view.export(str(svg))
    image = QImage(str(png))
    assert not image.isNull() and image.width() > 300 and image.height() > 200
    colors = {image.pixel(x, y) for x in range(0, image.width(), 7) for y in range(0, image.height(), 7)}
    assert len(colors) > 20  # boxes, text, legend: not a blank image
    root = ET.parse(svg).getroot()
    assert root.tag.endswith("svg")
    text = ET.tostring(root, encoding="unicode")
    assert "o = tanh" in text and "grad" in text


def test_dimming_and_non_finite_marker(qtbot, view):
    x = Tensor(-1.0, label="x")
    y = x.log() * 2.0
    y.backward()
    graph = to_networkx(y)
    draw(qtbot, view, graph)
    log_node = next(n for n, a in graph.nodes(data=True) if a["op"] == "log")
    assert view.nodes[log_node].non_finite and math.isnan(view.nodes[log_node].value)
    view.set_dimmed(True, "Line 1, column 3: oops")
    assert view.builder.root.opacity() < 0.5 and view.error_label.isVisible()
    view.set_dimmed(False)
    assert view.builder.root.opacity() == 1.0 and not view.error_label.isVisible()


def test_grad_override_hides_unreached_nodes(qtbot, view):
    o = neuron()
    graph = to_networkx(o)
    draw(qtbot, view, graph)
    root = max(graph.nodes)
    view.set_grads({root: 1.0})
    assert view.nodes[root].grad == 1.0
    assert all(item.grad is None for n, item in view.nodes.items() if n != root)


def test_groups_collapse_and_expand(qtbot, view):
    model = MLP(2, [3, 1], seed=0)
    out = model([Tensor(0.5, label="x0"), Tensor(-1.0, label="x1")])
    out.backward()
    graph = to_networkx(out)
    draw(qtbot, view, graph)
    full = len(view.nodes)
    assert view.groups() == ["L1.n1", "L1.n2", "L1.n3", "L2.n1"]
    view.collapse_all()
    qtbot.waitUntil(lambda: not view.busy)
    assert len(view.nodes) == 2 + 4  # the two inputs and one box per neuron
    box = view.nodes["group:L2.n1"]
    assert box.value == out.data and box.grad == out.grad == 1.0
    assert "Double-click to expand" in view.tooltip_for("group:L2.n1")
    qtbot.mouseDClick(view.viewport(), Qt.MouseButton.LeftButton, pos=view.mapFromScene(box.pos()))
    qtbot.waitUntil(lambda: "L2.n1" not in view.collapsed and not view.busy)  # opened once the click is over
    assert "L2.n1" not in view.collapsed and len(view.nodes) > 6
    view.expand_all()
    qtbot.waitUntil(lambda: not view.busy)
    assert len(view.nodes) == full
    # the collapsed graph keeps every connection between groups
    collapsed = collapse_groups(graph, set(view.groups()))
    assert collapsed.has_edge("group:L1.n1", "group:L2.n1")


def chain(n):
    x = Tensor(0.5, label="x")
    y = x
    for i in range(n - 1):
        y = (y * 0.999) if i % 2 else (y + 0.001)
    return y


def test_large_graph_is_laid_out_off_thread_and_says_so(qtbot, view):
    y = chain(LARGE_GRAPH_NODES + 400)
    graph = to_networkx(y)
    view.set_graph(graph)
    assert view.busy  # the layout runs on a worker thread; the window stays responsive
    qtbot.waitUntil(lambda: not view.busy, timeout=20000)
    assert len(view.nodes) == graph.number_of_nodes()
    assert view.banner.isVisible() and "Large graph" in view.banner_label.text()
    # a newer graph replaces one still being laid out
    view.set_graph(graph)
    small = to_networkx(neuron())
    view.set_graph(small)
    qtbot.waitUntil(lambda: not view.busy, timeout=20000)
    qtbot.wait(50)
    assert len(view.nodes) == small.number_of_nodes() and not view.banner.isVisible()


def test_edge_bundles_paint_each_edge_as_its_own_stroke(qtbot, view):
    """A layer of neurons into the next crosses every edge with every other: one stroke of all their paths made
    Qt's stroker five times slower than stroking them one by one. The bundles now give exactly the picture of
    their edges' own paths, each stroked alone (then the arrowheads), and cover every plain edge once."""
    from PySide6.QtGui import QPainter

    from gui.graph_view import EdgeBundle

    model = MLP(2, [8, 8, 1], seed=0)
    draw(qtbot, view, to_networkx(model([0.5, -0.25])))
    view.set_collapsed(set(view.groups()))  # each neuron one box: the crossing edges between layers
    qtbot.waitUntil(lambda: not view.busy, timeout=10000)
    bundles = [item for item in view.scene().items() if isinstance(item, EdgeBundle)]
    assert bundles and sum(len(b.paths) for b in bundles) == len(view.edges)

    def picture(paint) -> QImage:
        image = QImage(view.viewport().size(), QImage.Format.Format_ARGB32_Premultiplied)
        image.fill(0)
        painter = QPainter(image)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setTransform(view.viewportTransform())
        paint(painter)
        painter.end()
        return image

    def one_by_one(painter):
        painter.setPen(view.edge_pen(False))
        for edge in view.edges.values():
            painter.drawPath(edge.own_path)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(view.colors.edge)
        for bundle in bundles:
            painter.drawPath(bundle.arrows)

    def bundled(painter):
        for bundle in bundles:
            bundle.paint(painter, None)

    reference, painted = picture(one_by_one), picture(bundled)
    assert painted != picture(lambda _p: None)
    assert painted == reference


def test_an_op_written_in_python_is_an_op_box_named_by_its_label_and_its_derivative_is_not_guessed(qtbot, view):
    """The article's way: out = Tensor(value, label, _children), out._backward = closure."""
    x = Tensor(-2.0, label="x")
    out = Tensor(x.data / (1 + abs(x.data)), label="softsign", _children=(x,))

    def _backward():
        x.grad += out.grad / (1 + abs(x.data)) ** 2

    out._backward = _backward
    y = out * 3.0
    y.backward()
    graph = to_networkx(y)
    draw(qtbot, view, graph)
    node = graph.graph["ids"][out]
    item = view.nodes[node]
    assert (item.kind, item.title, item.value, item.grad) == ("op", "softsign", out.data, 3.0)
    tip = view.tooltip_for(node)
    assert "an op written in Python: its local derivative lives in its _backward closure" in tip
    assert "∂softsign/∂x" not in tip  # no number where the closure holds the derivative
