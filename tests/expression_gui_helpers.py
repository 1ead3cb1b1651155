"""Shared by the expression-area GUI tests: typing an expression into the editor as a user would."""

from PySide6.QtCore import Qt


def type_expression(qtbot, panel, text):
    """Select all, type the text, wait for the debounced compile."""
    edit = panel.editor.edit
    edit.setFocus()
    edit.selectAll()
    qtbot.keyClick(edit, Qt.Key.Key_Delete)
    lines = text.split("\n")
    for i, line in enumerate(lines):
        qtbot.keyClicks(edit, line)
        if i < len(lines) - 1:
            qtbot.keyClick(edit, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: panel.state.text == text and not panel.editor.pending, timeout=3000)
    qtbot.waitUntil(lambda: not panel.view.busy, timeout=5000)
