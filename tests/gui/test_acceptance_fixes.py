"""Defects found in the acceptance pass (the real app under Xvfb at 1280×720), each pinned by a test."""

from PySide6.QtCore import Qt
from PySide6.QtGui import QFontMetrics, QPalette

from gui.plots.metrics_plots import MetricsPlots
from gui.plots.network_diagram import NetworkDiagram


def test_play_button_uses_an_icon_not_a_pause_glyph(qtbot, ws):
    """'⏸' is missing from common fonts (it showed as a box): the button shows a word and the style's icon."""
    button = ws.training_panel.play_button
    assert button.text() == "Play" and not button.icon().isNull()
    play_icon = button.icon().pixmap(16, 16).toImage()
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    assert button.text() == "Pause" and not button.icon().isNull()
    assert button.icon().pixmap(16, 16).toImage() != play_icon  # the icon changed with the state
    assert all(ord(c) < 0x2000 for c in button.text())  # plain text: nothing a font can lack
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    assert button.text() == "Play"


def _on_screen(item, view):
    """The item's rectangle in viewport pixels (labels ignore the zoom, so sceneBoundingRect would lie)."""
    return item.deviceTransform(view.viewportTransform()).mapRect(item.boundingRect())


def _label_rects(qtbot, diagram, sizes, activation):
    diagram.set_architecture(sizes, activation)
    qtbot.wait(20)
    diagram.view.fit()
    return [_on_screen(label, diagram.view) for label in diagram.layer_labels]


def test_hidden_layer_labels_do_not_overlap_in_a_small_diagram(qtbot):
    """At 1280×720 the two hidden layers are ~60 px apart and '16 relu16 relu' ran together."""
    diagram = NetworkDiagram()
    qtbot.addWidget(diagram)
    diagram.resize(490, 260)  # the diagram's size in the training area at 1280×720
    diagram.show()
    for sizes, activation in (((2, 16, 16, 1), "relu"), ((2, 16, 16, 16, 1), "leaky_relu")):
        rects = _label_rects(qtbot, diagram, sizes, activation)
        texts = [label.text() for label in diagram.layer_labels]
        assert len(rects) == len(sizes) - 2 and all(t.startswith("16") for t in texts)
        for i in range(len(rects)):
            for j in range(i + 1, len(rects)):
                assert not rects[i].intersects(rects[j]), (sizes, i, j, rects[i], rects[j])
        viewport = diagram.view.viewport().rect()
        for layer, rect in enumerate(rects, start=1):
            assert viewport.contains(rect.toRect().adjusted(1, 1, -1, -1)), (rect, viewport)
            center = diagram.view.mapFromScene(diagram.neurons[layer][0].sceneBoundingRect().center())
            assert abs(rect.center().x() - center.x()) <= 2  # beside its own layer
    # crowded layers keep the neuron count, the tooltip keeps the rest (the header and key are shorter now:
    # the view is taller at 490×260 than it was, so crowd it a little more)
    diagram.resize(400, 240)
    qtbot.wait(20)
    _label_rects(qtbot, diagram, (2, 16, 16, 16, 1), "leaky_relu")
    assert [label.text() for label in diagram.layer_labels] == ["16"] * 3
    assert "leaky_relu" in diagram.layer_labels[0].toolTip()
    # a wide window gives the activation back
    diagram.resize(1400, 500)
    qtbot.wait(20)
    diagram.view.fit()
    assert [label.text() for label in diagram.layer_labels] == ["16 leaky_relu"] * 3


def test_curve_key_is_readable_on_a_dark_window(qtbot):
    """The train swatch (#37474f) vanished on the dark theme's window color: the key has the plots' white."""
    plots = MetricsPlots()
    qtbot.addWidget(plots)
    dark = plots.palette()
    dark.setColor(QPalette.ColorRole.Window, Qt.GlobalColor.black)
    dark.setColor(QPalette.ColorRole.WindowText, Qt.GlobalColor.white)
    plots.setPalette(dark)
    plots.resize(600, 300)
    plots.show()
    qtbot.wait(20)
    key = plots.key
    image = key.grab().toImage()
    assert QFontMetrics(key.font()).height() <= image.height()
    corner = image.pixelColor(2, image.height() // 2)
    assert corner.lightness() > 240  # painted on white whatever the window color
    # and the train swatch is there: dark pixels of its color on that white
    swatch = [image.pixelColor(x, image.height() // 2) for x in range(image.width() // 3)]
    assert any(c.lightness() < 120 for c in swatch)
