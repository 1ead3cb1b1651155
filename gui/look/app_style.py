"""The application's look applied to Qt: its QPalette in each theme, the fonts of presentation mode, the style
that draws the named widgets, check boxes and tab frames, text roles, and repaints held while the look changes.

The colors themselves are in ``theme.py``; this module is where Qt is told about them.
"""

from __future__ import annotations

import contextlib

from PySide6.QtCore import QCoreApplication, QEvent, QPointF, QRectF, Qt, QTimer
from PySide6.QtGui import QColor, QFont, QPainter, QPalette, QPen
from PySide6.QtWidgets import QApplication, QProxyStyle, QStyle, QStyleFactory, QWidget

from .tab_frame import TAB_PAGE_FRAME, draw_tab_page_frame
from .theme import (
    DARK_DISABLED_TEXT,
    DARK_QT_ROLES,
    INDICATOR_COLORS,
    PALETTES,
    PRESENTATION_SCALE,
    THEMES,
    Palette,
    palette,
    set_current,
    theme_notifier,
)
from .wheel_guard import guard_wheel


def _palette(theme: str) -> QPalette:
    palette = QPalette()
    colors = PALETTES["dark" if theme == "dark" else "light"]
    if theme != "dark":
        palette = QApplication.style().standardPalette() if QApplication.style() else palette
        for role, color in (
            (QPalette.ColorRole.Window, colors.window),
            (QPalette.ColorRole.WindowText, colors.window_text),
            (QPalette.ColorRole.Base, colors.base),
        ):
            palette.setColor(QPalette.ColorGroup.Active, role, QColor(color))
            palette.setColor(QPalette.ColorGroup.Inactive, role, QColor(color))
        return palette
    roles = {
        QPalette.ColorRole.Window: colors.window,
        QPalette.ColorRole.WindowText: colors.window_text,
        QPalette.ColorRole.Base: colors.base,
        QPalette.ColorRole.Text: colors.window_text,
        **{getattr(QPalette.ColorRole, name): color for name, color in DARK_QT_ROLES.items()},
    }
    for role, color in roles.items():
        palette.setColor(role, QColor(color))
    for role in (QPalette.ColorRole.Text, QPalette.ColorRole.ButtonText, QPalette.ColorRole.WindowText):
        palette.setColor(QPalette.ColorGroup.Disabled, role, QColor(DARK_DISABLED_TEXT))
    return palette


# Colors of the few widgets styled by object name, per theme (everything else follows the palette).
NAMED_COLORS = {
    name: {
        "error": p.error,
        "muted": p.muted,
        "sel": p.ledger_selection,
        "sel_text": p.ledger_selection_text,
        "banner": p.banner,
        "banner_border": p.banner_border,
    }
    for name, p in PALETTES.items()
}
STYLED_NAMES = frozenset({"errorLabel", "hintLabel", "ledger", "largeGraphBanner"})


# A label's role picks its text color from the palette (and its weight); ``set_text_role`` gives it and every
# theme switch recolors it (apply_theme), so no view writes a color of its own.
TEXT_ROLE = "textRole"
TEXT_ROLES = {  # role → (palette field or None for ordinary text, bold, italic; None leaves the font alone)
    "": (None, False, False),
    "error": ("error", True, False),
    "ok": ("ok", False, False),
    "pending": (None, False, True),
    "muted": ("muted", None, None),
}
OBJECT_ROLES = {"errorLabel": "error", "hintLabel": "muted"}  # widgets styled by object name


def set_text_role(widget: QWidget, role: str | None) -> None:
    """Color ``widget``'s text by ``role`` (a key of TEXT_ROLES; None or "" is ordinary text), in the theme
    applied now and again after every switch.  Costs nothing when the role is unchanged."""
    role = role or ""
    if role not in TEXT_ROLES:
        raise ValueError(f"unknown text role {role!r}; choose one of {', '.join(map(repr, TEXT_ROLES))}")
    if widget.property(TEXT_ROLE) == role:
        return
    widget.setProperty(TEXT_ROLE, role)
    _apply_text_role(widget, role, palette())


def text_role(widget: QWidget) -> str | None:
    """The role given to ``widget`` (by set_text_role or its object name), or None."""
    role = widget.property(TEXT_ROLE)
    return role if role is not None else OBJECT_ROLES.get(widget.objectName())


def _apply_text_role(widget: QWidget, role: str, pal: Palette) -> None:
    field, bold, italic = TEXT_ROLES.get(role, TEXT_ROLES[""])
    colors = widget.palette()  # a copy that sets only the role changed: the rest follows the application
    color = QColor(getattr(pal, field) if field else pal.window_text)
    if colors.color(QPalette.ColorRole.WindowText) != color:
        colors.setColor(QPalette.ColorRole.WindowText, color)
        widget.setPalette(colors)
    font = widget.font()
    if (bold is not None and font.bold() != bold) or (italic is not None and font.italic() != italic):
        if bold is not None:
            font.setBold(bold)
        if italic is not None:
            font.setItalic(italic)
        widget.setFont(font)


def style_named_widget(widget: QWidget, theme: str, presentation: bool) -> None:
    """The look of a widget the app styles by object name or role: an error line, a hint, the ledger, the
    graph banner, a label given a text role.

    Labels get a palette color (they keep following every other palette change); the ledger and the banner,
    which need padding and a rounded border, a style sheet of their own.
    """
    colors = NAMED_COLORS.get(theme, NAMED_COLORS["light"])
    name = widget.objectName()
    role = text_role(widget)
    if role is not None:
        _apply_text_role(widget, role, palette(theme))
        return
    if name == "ledger":
        sheet = (
            f"QListWidget::item {{ padding: {4 if presentation else 2}px 2px; }}"
            f"QListWidget::item:selected {{ background: {colors['sel']}; color: {colors['sel_text']}; }}"
        )
    elif name == "largeGraphBanner":
        sheet = (
            f"QFrame#largeGraphBanner {{ background: {colors['banner']}; "
            f"border: 1px solid {colors['banner_border']}; border-radius: 4px; }}"
        )
    else:
        return
    if widget.styleSheet() != sheet:
        widget.setStyleSheet(sheet)


_INDICATORS = (QStyle.PrimitiveElement.PE_IndicatorCheckBox, QStyle.PrimitiveElement.PE_IndicatorRadioButton)


def draw_indicator(radio: bool, option, painter: QPainter, colors: dict) -> None:
    """A check box (✓, or a dash when partly checked) or radio button (a dot) in ``colors``."""
    state = option.state
    enabled = bool(state & QStyle.StateFlag.State_Enabled)
    on = bool(state & QStyle.StateFlag.State_On)
    partial = bool(state & QStyle.StateFlag.State_NoChange)
    focus = bool(state & QStyle.StateFlag.State_HasFocus and state & QStyle.StateFlag.State_KeyboardFocusChange)
    filled = enabled and (on or partial)
    border = colors["focus"] if focus else colors["border"] if enabled else colors["disabled"]
    mark = colors["mark"] if enabled else colors["disabled_mark"]
    r = QRectF(option.rect).adjusted(1.0, 1.0, -1.0, -1.0)
    side = min(r.width(), r.height())
    r = QRectF(r.center().x() - side / 2, r.center().y() - side / 2, side, side)
    painter.save()
    painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    painter.setPen(QPen(QColor(colors["checked"] if filled and not focus else border), 1.5))
    painter.setBrush(QColor(colors["checked"] if filled else colors["fill"]))
    if radio:
        painter.drawEllipse(r)
        if on:
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(QColor(mark))
            painter.drawEllipse(r.center(), side * 0.22, side * 0.22)
    else:
        painter.drawRoundedRect(r, 2.0, 2.0)
        pen = QPen(QColor(mark), max(1.6, side / 7))
        pen.setCapStyle(Qt.PenCapStyle.RoundCap)
        pen.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
        painter.setPen(pen)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        x, y, w = r.x(), r.y(), side
        if partial:
            painter.drawLine(QPointF(x + 0.25 * w, y + 0.5 * w), QPointF(x + 0.75 * w, y + 0.5 * w))
        elif on:
            painter.drawPolyline(
                [
                    QPointF(x + 0.22 * w, y + 0.52 * w),
                    QPointF(x + 0.42 * w, y + 0.72 * w),
                    QPointF(x + 0.78 * w, y + 0.3 * w),
                ]
            )
    painter.restore()


class NamedWidgetStyle(QProxyStyle):
    """Fusion, plus the look of the widgets named in STYLED_NAMES, given to each as Qt polishes it.

    An application-wide style sheet would do the same with one string, but it makes Qt run every widget of
    the app through its style sheet engine: building a window costs twice the CPU, and switching theme or
    presentation mode re-styled every widget (0.5–1 s).  Here a switch touches only the named widgets.
    """

    def __init__(self):
        super().__init__(QStyleFactory.create("Fusion"))
        self.theme, self.presentation = "light", False

    def drawPrimitive(self, element, option, painter, widget=None):
        colors = INDICATOR_COLORS.get(self.theme)
        if colors is not None and element in _INDICATORS:
            draw_indicator(element == _INDICATORS[1], option, painter, colors)
            return
        if element == TAB_PAGE_FRAME:
            draw_tab_page_frame(self, option, painter, widget)
            return
        super().drawPrimitive(element, option, painter, widget)

    def polish(self, target):
        result = super().polish(target)
        if isinstance(target, QWidget):
            guard_wheel(target)  # (a spin box, combo box or slider: the wheel scrolls past it until it has focus)
            if target.objectName() in STYLED_NAMES or target.property(TEXT_ROLE) is not None:
                style_named_widget(target, self.theme, self.presentation)
        return result


def apply_theme(app: QApplication, theme: str = "light", presentation: bool = False, base_point_size: float = 0.0):
    """Set palette, font size and the named widgets' look for the whole application.

    ``base_point_size`` is the font size before presentation scaling (read once
    at start-up so toggling presentation mode twice returns to the same size).
    """
    theme = theme if theme in THEMES else "light"
    base = base_point_size or app.font().pointSizeF() or 10.0
    style = app.style()
    if not isinstance(style, NamedWidgetStyle):
        style = NamedWidgetStyle()
        app.setStyle(style)
        app.setProperty("appliedTheme", None)
        _STYLES.append(style)  # the application owns it in C++; keep the Python side alive with it
    key = f"{theme}/{presentation}/{base}"
    if app.property("appliedTheme") == key:
        return  # palette and font reach every widget: only when something changed
    app.setProperty("appliedTheme", key)
    style.theme, style.presentation = theme, presentation
    set_current(theme, presentation)
    app.setPalette(_palette(theme))
    font = QFont(app.font())
    font.setPointSizeF(base * (PRESENTATION_SCALE if presentation else 1.0))
    app.setFont(font)
    # Outside a running event loop (tests, start-up) Qt posts the change to the widgets: deliver it now, so the
    # areas restyled next and the widgets below already see the new palette and font, as in the running app.
    for change in (QEvent.Type.ApplicationPaletteChange, QEvent.Type.ApplicationFontChange):
        QCoreApplication.sendPostedEvents(None, change)
    for widget in app.allWidgets():
        sheet = widget.styleSheet()
        if widget.objectName() in STYLED_NAMES or widget.property(TEXT_ROLE) is not None:
            style_named_widget(widget, theme, presentation)
        if sheet and widget.styleSheet() == sheet:
            # A widget with a style sheet of its own took a copy of the palette and font when Qt styled it:
            # styling it again (it and its children, a few dozen widgets in all) gives it the new ones.
            widget.setStyleSheet(sheet)
    theme_notifier().changed.emit(theme, presentation)


_STYLES: list[NamedWidgetStyle] = []


@contextlib.contextmanager
def repainted_once(window: QWidget):
    """No repaint of ``window`` while the body restyles it and the new fonts relayout it, one repaint in the next
    turn of the event loop: each restyled part and each level of relayout had repainted the views (5–6 paints
    of a plot before the last), all in one wait.  Nested, the outermost repaints."""
    painting = window.isVisible() and window.updatesEnabled()
    if painting:
        window.setUpdatesEnabled(False)
    try:
        yield
        if painting:
            for _ in range(3):  # each level of layout posts the next one's request
                QCoreApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
    finally:
        if painting:
            # Painted in the next turn of the event loop: the switch and its repaint are two shorter waits of
            # the window, with the input that came between them answered.
            QTimer.singleShot(0, window, lambda: release_repaints(window))


def release_repaints(window: QWidget) -> None:
    """Repaints on again after a hold, with a repaint asked for even if Qt dropped one during the hold."""
    window.setUpdatesEnabled(True)
    # A repaint request that arrives while the repaints are held (one was waiting in the queue: a training
    # frame) is dropped by Qt, which keeps the window marked dirty; no later change then asks for a repaint, and
    # the window showed its old picture until something exposed it again.  One request more, after the hold.
    QCoreApplication.postEvent(window, QEvent(QEvent.Type.UpdateRequest), Qt.EventPriority.LowEventPriority.value)


def monospace_font(point_size: float | None = None) -> QFont:
    font = QFont("DejaVu Sans Mono")
    font.setStyleHint(QFont.StyleHint.Monospace)
    font.setFixedPitch(True)
    if point_size:
        font.setPointSizeF(point_size)
    return font
