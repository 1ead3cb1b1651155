"""The wheel scrolls, it never edits: a spin box, combo box or slider takes the wheel only once it has keyboard
focus (a click or Tab); without it the wheel goes on to its parents, so the scroll area around it scrolls.

Scrolling a form with the wheel used to change whatever passed under the pointer (Samples 200 → 195, and the
data set was made again).  One filter object, given to every such control as the application's style polishes
it (``theme.NamedWidgetStyle.polish``), so every control, present and future, behaves alike.  Not a filter on
the whole application: that one runs a Python call for each of Qt's events (about 10 µs each, thousands per
tab or theme switch); this one sees only the controls' own events.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import QAbstractSlider, QAbstractSpinBox, QApplication, QComboBox, QScrollBar, QWidget

_WHEEL = QEvent.Type.Wheel


def wheel_edited(widget: QWidget) -> bool:
    """Whether the wheel would change ``widget``'s value: a spin box, a combo box or a slider (not a scroll bar)."""
    return isinstance(widget, (QAbstractSpinBox, QComboBox)) or (
        isinstance(widget, QAbstractSlider) and not isinstance(widget, QScrollBar)
    )


class WheelScrolls(QObject):
    """Installed on each control: an unfocused control passes the wheel up, as if it had ignored it."""

    def eventFilter(self, control: QObject, event: QEvent) -> bool:
        if event.type() is not _WHEEL:
            return False
        focused = QApplication.focusWidget()
        if focused is not None and (focused is control or control.isAncestorOf(focused)):
            return False  # chosen by a click or Tab: the wheel edits it, as before
        event.accept()  # (taken here: Qt passes it no further up)
        spot, widget = event.globalPosition(), control
        while not widget.isWindow():  # up from the control's parent, as Qt passes on a wheel nobody took
            widget = widget.parentWidget()
            forwarded = QWheelEvent(
                widget.mapFromGlobal(spot),
                spot,
                event.pixelDelta(),
                event.angleDelta(),
                event.buttons(),
                event.modifiers(),
                event.phase(),
                event.inverted(),
                event.source(),
            )
            QApplication.sendEvent(widget, forwarded)  # (one Qt did not get from the system goes no further)
            if forwarded.isAccepted():  # its scroll area scrolled (or a view zoomed)
                break
        return True


_GUARD: list[WheelScrolls] = []  # one for the application, made with its first control


def guard_wheel(widget: QWidget) -> None:
    """Called as each widget is polished: a control gets the filter, and the wheel no longer focuses it
    (StrongFocus, not WheelFocus: a real wheel event focuses before any filter sees it)."""
    if not wheel_edited(widget):
        return
    if not _GUARD:
        _GUARD.append(WheelScrolls(QApplication.instance()))
    if widget.focusPolicy() == Qt.FocusPolicy.WheelFocus:
        widget.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
    widget.removeEventFilter(_GUARD[0])  # (a widget polished again, after a change of style, gets it once)
    widget.installEventFilter(_GUARD[0])
