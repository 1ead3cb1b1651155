"""The expression editor: monospace, highlighted, debounced, errors underlined.

Typing restarts a short timer; when it fires the text goes to the state, so
the graph follows the user without recompiling on every key (and only when
the text really changed: re-coloring for a new theme is not an edit).  A
parse error underlines the exact span the library reports and writes its
message below; an empty editor gets a quiet hint instead of an error.  The
editor never owns the program itself.
"""

from __future__ import annotations

import keyword
import re
from contextlib import contextmanager

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QColor, QKeySequence, QSyntaxHighlighter, QTextCharFormat, QTextCursor, QTextFormat
from PySide6.QtWidgets import QLabel, QPlainTextEdit, QTextEdit, QVBoxLayout, QWidget

from autograd_core.language.expression import CONSTANTS, FUNCTION_NAMES, EmptyExpressionError

from ..look.app_style import monospace_font
from ..look.theme import SYNTAX_KINDS, Palette, palette, theme_notifier

DEBOUNCE_MS = 250
# A line this long that arrives at once (a pasted or loaded 2,000-node expression) is shown plain and colored
# LATE_COLORS_MS later, once its graph is drawn: Qt takes ~45 ms to lay out the 3,000 color ranges of a
# 10,000-character line, and ~15 ms more to paint it, both in the way of the graph.  Typing in it colors at once.
LONG_LINE_CHARS = 2_000
LATE_COLORS_MS = 1_000
EMPTY_HINT = "Type an expression, for example tanh(a*b + c), or pick one from Examples."


class ExpressionHighlighter(QSyntaxHighlighter):
    """Colors numbers, functions, constants, operators, assignment targets and comments (the theme's
    ``syntax_*`` colors)."""

    BOLD = ("function", "target")
    ITALIC = ("comment",)

    def __init__(self, document, pal: Palette | None = None):
        super().__init__(document)
        self.functions, self.constants = set(FUNCTION_NAMES), set(CONSTANTS)
        self.hold_long_lines = False  # set while a whole text arrives at once (a paste, a load)
        self._late = QTimer(self)
        self._late.setSingleShot(True)
        self._late.setInterval(LATE_COLORS_MS)
        self._late.timeout.connect(self._color_long_lines)
        self.set_palette(pal or palette())

    @property
    def colors_pending(self) -> bool:
        """A long line that arrived at once is shown plain for now: its colors come after its graph."""
        return self._late.isActive()

    def _color_long_lines(self) -> None:
        block = self.document().firstBlock()
        while block.isValid():
            if block.length() > LONG_LINE_CHARS:
                self.rehighlightBlock(block)
            block = block.next()

    def set_palette(self, pal: Palette) -> None:
        self.colors = pal
        self.formats = {}
        for kind in SYNTAX_KINDS:
            f = QTextCharFormat()
            f.setForeground(QColor(getattr(pal, f"syntax_{kind}")))
            if kind in self.BOLD:
                f.setFontWeight(700)
            f.setFontItalic(kind in self.ITALIC)
            self.formats[kind] = f
        self.rehighlight()

    def set_dark(self, dark: bool) -> None:
        self.set_palette(palette("dark" if dark else "light"))

    # An operator takes the spaces around it: " + " is one range of the line's layout, not three (a pasted
    # 12,000-character line of 3,200 ranges took Qt ~45 ms to lay out, a quarter less so; spaces show no color).
    _token = re.compile(
        r"(?P<comment>#.*)|(?P<number>\b\d+\.?\d*(?:[eE][-+]?\d+)?|\.\d+(?:[eE][-+]?\d+)?)"
        r"|(?P<name>[A-Za-z_]\w*)|(?P<operator>[ \t]*(?:\*\*|[-+*/=()^,]|\.(?!\d))[ \t]*)"
    )
    _target = re.compile(r"^\s*([A-Za-z_]\w*)\s*=(?!=)")

    def highlightBlock(self, text: str) -> None:
        if self.hold_long_lines and len(text) >= LONG_LINE_CHARS:
            self._late.start()  # colored when the window is free again (see LONG_LINE_CHARS)
            return
        target = self._target.match(text)
        if target:
            self.setFormat(target.start(1), len(target.group(1)), self.formats["target"])
        for m in self._token.finditer(text):
            kind = m.lastgroup
            if kind == "name":
                word = m.group()
                if target and m.start() == target.start(1):
                    continue
                if word in self.functions:
                    kind = "function"
                elif word in self.constants:
                    kind = "constant"
                elif keyword.iskeyword(word):
                    kind = "keyword"  # not part of the language: stand out before the error says so
                else:
                    continue
            self.setFormat(m.start(), m.end() - m.start(), self.formats[kind])


class CodeEdit(QPlainTextEdit):
    """Plain text edit that reports Ctrl+Enter instead of inserting a newline."""

    evaluate_requested = Signal()
    highlighter: ExpressionHighlighter | None = None

    def setPlainText(self, text: str) -> None:
        with self._arriving_at_once():
            super().setPlainText(text)

    def insertFromMimeData(self, source) -> None:
        with self._arriving_at_once():
            super().insertFromMimeData(source)

    @contextmanager
    def _arriving_at_once(self):
        highlighter = self.highlighter
        if highlighter is None:
            yield
            return
        highlighter.hold_long_lines = True
        try:
            yield
        finally:
            highlighter.hold_long_lines = False

    def keyPressEvent(self, event) -> None:
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and (
            event.modifiers() & Qt.KeyboardModifier.ControlModifier
        ):
            self.evaluate_requested.emit()
            event.accept()
            return
        super().keyPressEvent(event)


class ExpressionEditor(QWidget):
    """Editor + error line.  Emits ``text_edited`` (debounced) and ``evaluate_requested``.

    A typing pause emits ``text_ready`` and, one event-loop turn later,
    ``text_edited`` with the same text: a listener can compile the text in the
    first turn and build what it shows in the second, so neither blocks the
    window long; a long text is compiled and its graph built on a worker
    thread instead (``ExpressionState.request_text``).
    """

    text_ready = Signal(str)
    text_edited = Signal(str)
    evaluate_requested = Signal(str)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.edit = CodeEdit()
        self.edit.setObjectName("expressionEdit")
        self.edit.setFont(monospace_font(self.font().pointSizeF() * 1.15))
        self.edit.setTabChangesFocus(True)
        self.edit.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.edit.setPlaceholderText("e.g.  h = a*b + c\n      tanh(h)")
        self.edit.setToolTip(
            "Type an expression: numbers, names, + − * / **, calls like tanh(x) or x.tanh(), "
            "assignments on several lines (h = a*b), # comments. The last line is the output. "
            f"The graph updates as you type; {QKeySequence('Ctrl+Return').toString()} evaluates now."
        )
        self.highlighter = self.edit.highlighter = ExpressionHighlighter(self.edit.document())
        self.error_label = QLabel()
        self.error_label.setObjectName("errorLabel")
        self.error_label.setWordWrap(True)
        self.error_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.error_label.setToolTip("The parse error, with its line and column")
        self.error_label.hide()
        self.hint_label = QLabel()
        self.hint_label.setObjectName("hintLabel")
        self.hint_label.setWordWrap(True)
        self.hint_label.setToolTip("Nothing to compute yet: the editor is empty")
        self.hint_label.hide()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.edit, 1)
        layout.addWidget(self.error_label)
        layout.addWidget(self.hint_label)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(DEBOUNCE_MS)
        self._timer.timeout.connect(self._emit_text)
        self._setting = False
        self._handing = False  # text_ready was emitted; text_edited follows in the next turn
        self._known = ""  # the text last sent to, or received from, the state
        self.edit.textChanged.connect(self._on_changed)
        self.edit.evaluate_requested.connect(self.evaluate_now)
        theme_notifier().changed.connect(self._theme_changed)

    def _theme_changed(self, theme: str, _presentation: bool) -> None:
        self.set_palette(palette(theme))

    def text(self) -> str:
        return self.edit.toPlainText()

    def set_text(self, text: str) -> None:
        """Replace the text without re-emitting it (it came from the state)."""
        self._known = text
        if text == self.text():
            return
        self._setting = True
        try:
            self.edit.setPlainText(text)
        finally:
            self._setting = False
        self._timer.stop()

    def _on_changed(self) -> None:
        # textChanged also fires when the highlighter re-colors (a theme switch): that is no edit.
        if self._setting or (self.text() == self._known and not self._timer.isActive()):
            return
        self._timer.start()

    def _emit_text(self) -> None:
        self._known = self.text()
        self._handing = True
        self.text_ready.emit(self._known)
        QTimer.singleShot(0, self, self._hand_over)

    def _hand_over(self) -> None:
        if not self._handing:
            return  # Ctrl+Return evaluated it meanwhile
        self._handing = False
        if self._timer.isActive():
            return  # typed on meanwhile: the next pause hands the newer text over
        self.text_edited.emit(self._known)

    def evaluate_now(self) -> None:
        self._timer.stop()
        self._handing = False
        self._known = self.text()
        self.evaluate_requested.emit(self._known)

    @property
    def pending(self) -> bool:
        return self._timer.isActive() or self._handing

    # ---- errors

    def show_error(self, err) -> None:
        """Underline the error's span (1-based columns, end exclusive) and show its message.

        An empty editor is no mistake: it gets a hint, not a red error.
        """
        self.edit.setExtraSelections([])
        self.error_label.clear()
        self.error_label.hide()
        self.hint_label.setVisible(isinstance(err, EmptyExpressionError))
        if isinstance(err, EmptyExpressionError):
            self.hint_label.setText(EMPTY_HINT)
            return
        if err is None:
            return
        doc = self.edit.document()
        line = max(1, int(getattr(err, "line", 1) or 1))
        column = max(1, int(getattr(err, "column", 1) or 1))
        end_line = max(line, int(getattr(err, "end_line", line) or line))
        end_column = int(getattr(err, "end_column", column + 1) or column + 1)
        start_block = doc.findBlockByNumber(min(line, doc.blockCount()) - 1)
        end_block = doc.findBlockByNumber(min(end_line, doc.blockCount()) - 1)
        start = start_block.position() + min(column - 1, max(0, start_block.length() - 1))
        end = end_block.position() + min(end_column - 1, max(0, end_block.length() - 1))
        last = doc.characterCount() - 1  # the last valid cursor position (after the final character)
        if end <= start:  # an empty span (e.g. "unexpected end"): mark one character
            start = max(0, min(start, last - 1))
            end = start + 1
        end = min(end, last)
        if start < end:  # a document without characters has nothing to underline
            cursor = QTextCursor(doc)
            cursor.setPosition(start)
            cursor.setPosition(end, QTextCursor.MoveMode.KeepAnchor)
            selection = QTextEdit.ExtraSelection()
            selection.cursor = cursor
            fmt = QTextCharFormat()
            fmt.setUnderlineStyle(QTextCharFormat.UnderlineStyle.WaveUnderline)
            pal = self.highlighter.colors
            fmt.setUnderlineColor(QColor(pal.error))
            fmt.setBackground(QColor(pal.error_span))
            fmt.setProperty(QTextFormat.Property.FullWidthSelection, False)
            selection.format = fmt
            self.edit.setExtraSelections([selection])
        self.error_label.setText(f"Line {line}, column {column}: {getattr(err, 'message', str(err))}")
        self.error_label.show()

    def error_span(self) -> tuple[int, int] | None:
        """(start, end) character positions currently underlined, for tests and tooltips."""
        selections = self.edit.extraSelections()
        if not selections:
            return None
        cursor = selections[0].cursor
        return cursor.selectionStart(), cursor.selectionEnd()

    def set_dark(self, dark: bool) -> None:
        self.set_palette(palette("dark" if dark else "light"))

    def set_palette(self, pal: Palette) -> None:
        """Syntax colors and the underlined error's colors of ``pal`` (called on every theme switch)."""
        if pal is self.highlighter.colors:
            return
        self.highlighter.set_palette(pal)
        selections = self.edit.extraSelections()
        for selection in selections:
            selection.format.setUnderlineColor(QColor(pal.error))
            selection.format.setBackground(QColor(pal.error_span))
        if selections:
            self.edit.setExtraSelections(selections)
