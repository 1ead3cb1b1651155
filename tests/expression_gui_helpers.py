"""Shared by the expression-area GUI tests: typing an expression into the editor as a user would."""

from PySide6.QtCore import Qt

# A graph's layout off the GUI thread takes at most about 1 s on an idle machine (Kamada–Kawai of a derivative
# graph; gui/graph_view/layout_runner.py); a shared CI machine at load 10 runs it up to ten times slower, and the
# wait leaves three times that.  waitUntil returns as soon as the view is ready, so a long wait costs nothing.
LAYOUT_WAIT_MS = 30_000


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
    qtbot.waitUntil(lambda: not panel.view.busy, timeout=LAYOUT_WAIT_MS)
