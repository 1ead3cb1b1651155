"""Defects found in the acceptance pass (the real app under Xvfb at 1280×720), each pinned by a test."""

from PySide6.QtCore import Qt

from gui.training_workspace import TrainingWorkspace

TIMEOUT = 30_000


def test_play_button_uses_an_icon_not_a_pause_glyph(qtbot):
    """'⏸' is missing from common fonts (it showed as a box): the button shows a word and the style's icon."""
    ws = TrainingWorkspace()
    qtbot.addWidget(ws)
    ws.show()
    try:
        qtbot.waitUntil(lambda: ws.controller.last_snapshot is not None, timeout=TIMEOUT)
        button = ws.training_panel.play_button
        assert button.text() == "Play" and not button.icon().isNull()
        play_icon = button.icon().pixmap(16, 16).toImage()
        qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
        assert button.text() == "Pause" and not button.icon().isNull()
        assert button.icon().pixmap(16, 16).toImage() != play_icon  # the icon changed with the state
        assert all(ord(c) < 0x2000 for c in button.text())  # plain text: nothing a font can lack
        qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
        assert button.text() == "Play"
    finally:
        ws.shutdown()
