"""Help → Keyboard shortcuts and Help → About: the shortcut list read from the window's live actions and
shortcuts (so it cannot drift from the keys that work), laid out for a projector's screen."""

from __future__ import annotations

import html

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QApplication,
    QDialog,
    QDialogButtonBox,
    QLabel,
    QMenu,
    QMessageBox,
    QScrollArea,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

# Where a menu's keys act, as the shortcut list says it.
MENU_SCOPES = {"&Backward": "Backward, on the graph shown"}
# Keys and gestures handled inside widgets (no QAction or QShortcut to read them from); tests check each one.
POINTER_AND_FIELD_KEYS = (
    ("Enter", "In the Sample graph's x or y field: show that point"),
    ("Mouse wheel", "Zoom the graph"),
    ("Drag", "Pan the graph"),
    ("Double-click a group", "Collapse / expand it"),
    ("Click a node", "In the Expression: its formula and chain-rule path in Maths"),
)


class ShortcutsDialog(QDialog):
    """Help → Keyboard shortcuts: a rich-text table that scrolls when the screen is small."""

    def __init__(self, text: str, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("shortcutsDialog")
        self.setWindowTitle("Keyboard shortcuts")
        self.label = QLabel(text)
        self.label.setTextFormat(Qt.TextFormat.RichText)
        self.label.setContentsMargins(12, 12, 12, 12)
        scroll = QScrollArea()
        scroll.setWidget(self.label)
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        buttons.button(QDialogButtonBox.StandardButton.Close).setToolTip("Close the list")
        layout = QVBoxLayout(self)
        layout.addWidget(scroll, 1)
        layout.addWidget(buttons)
        hint = self.label.sizeHint()
        screen = (parent.screen() if parent is not None else QApplication.primaryScreen()).availableGeometry()
        self.resize(min(hint.width() + 40, screen.width() - 40), min(hint.height() + 70, screen.height() - 80))

    def text(self) -> str:
        return self.label.text()


def shortcut_rows(window: QWidget, areas: dict[str, QWidget], tabs: QTabWidget) -> list[tuple[str, str, str]]:
    """(keys, what they do, where) for every shortcut ``window`` really has: its actions and its areas' shortcuts."""
    native = QKeySequence.SequenceFormat.NativeText
    rows = []
    for action in window.actions():  # the window holds every action, so they work with the menu bar hidden
        if action.shortcuts():
            keys = ", ".join(k.toString(native) for k in action.shortcuts())
            menu = next((m.title() for m in action.associatedObjects() if isinstance(m, QMenu)), "")
            rows.append((keys, action.text().replace("&", ""), MENU_SCOPES.get(menu, menu.replace("&", ""))))
    for shortcut in window.findChildren(QShortcut):
        if shortcut.key().isEmpty() or not shortcut.isEnabled():
            continue
        parent = shortcut.parent()
        area = next((a for a in areas.values() if a is parent or a.isAncestorOf(parent)), None)
        where = f"{tabs.tabText(tabs.indexOf(area))} tab" if area is not None else ""
        rows.append((shortcut.key().toString(native), shortcut.whatsThis() or "(undocumented)", where))
    return rows


def shortcuts_html(shortcuts: list[tuple[str, str, str]]) -> str:
    """The shortcut table, grouped by where the keys act, in two columns (it fits a projector's screen)."""
    table = shortcuts + [(k, t, "Mouse and fields") for k, t in POINTER_AND_FIELD_KEYS]
    groups: dict[str, list[str]] = {}
    for keys, what, where in table:
        groups.setdefault(where, []).append(
            f"<tr><td style='white-space:pre'><b>{html.escape(keys)}</b>   </td><td>{html.escape(what)}</td></tr>"
        )
    blocks = [
        (len(rows) + 2, f"<tr><td colspan=2><i>{html.escape(where)}</i></td></tr>{''.join(rows)}")
        for where, rows in groups.items()
    ]
    total = sum(n for n, _ in blocks)
    prefix = [sum(n for n, _ in blocks[:i]) for i in range(len(blocks) + 1)]
    split = min(range(len(blocks) + 1), key=lambda i: abs(2 * prefix[i] - total))
    spacer = "<tr><td>&nbsp;</td></tr>"
    left = f"<table>{spacer.join(b for _, b in blocks[:split])}</table>"
    right = f"<table>{spacer.join(b for _, b in blocks[split:])}</table>"
    return f"<table><tr><td valign=top>{left}</td><td width=32></td><td valign=top>{right}</td></tr></table>"


def show_about(parent: QWidget) -> QMessageBox:
    """Help → About."""
    box = QMessageBox(parent)
    box.setObjectName("aboutDialog")
    box.setWindowTitle("About Autograd Playground")
    box.setText(
        "<b>Autograd Playground</b><br>See how gradients flow: type an expression, run backward, "
        "step through the chain rule; build and train a small network on a scalar autograd engine "
        "written from scratch."
    )
    box.open()
    return box
