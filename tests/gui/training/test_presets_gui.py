"""The app's preset button: choosing a data set offers its tuned preset, and a click applies it everywhere."""

from PySide6.QtCore import Qt


def test_choosing_a_data_set_offers_its_preset(qtbot, ws):
    panel = ws.training_panel
    panel.dataset.setCurrentIndex(panel.dataset.findData("spiral"))
    assert not panel.preset_button.isHidden()
    assert "noise 0.05" in panel.preset_text.text()
    qtbot.mouseClick(panel.preset_button, Qt.MouseButton.LeftButton)
    config = ws.controller.config
    assert (config.samples, config.noise, config.activation, config.steps, config.layers) == (
        400,
        0.05,
        "tanh",
        600,
        [24, 24],
    )
    # Every panel shows it.
    assert panel.samples.value() == 400 and panel.steps.value() == 600
    assert ws.network_panel.activations() == ["tanh", "tanh"]
    qtbot.waitUntil(lambda: ws.controller.last_snapshot.activation == "tanh", timeout=20_000)
