"""Shared by the training-area GUI tests: typing into a spin box as a user would."""

from PySide6.QtCore import Qt


def set_spin(qtbot, spin, value):
    """Type a value into a spin box as a user would (select all, type, Enter)."""
    spin.setFocus()
    spin.lineEdit().selectAll()
    qtbot.keyClicks(spin.lineEdit(), str(value))
    qtbot.keyClick(spin.lineEdit(), Qt.Key.Key_Return)
