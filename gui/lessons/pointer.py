"""A task points at its control: the widget its Show me would use is scrolled into view (and its tab page shown)
and an outline around it fades, when the task becomes current and on Hint.  A learner never hunts for a button
below the fold."""

from __future__ import annotations

from PySide6.QtCore import QEasingCurve, QPoint, QRect, Qt, QVariantAnimation
from PySide6.QtGui import QColor, QPainter, QPen
from PySide6.QtWidgets import QAbstractScrollArea, QScrollArea, QStackedWidget, QTabWidget, QWidget

from ..look.theme import palette

FADE_MS = 2600  # how long the outline takes to fade away
OUTLINE_PX = 3


def task_control(window, task) -> QWidget | None:
    """The widget a task is about: the one its first Show me action clicks or types into (None: no such action)."""
    expr, training = window.expression, window.training
    panel = training.training_panel
    back = expr.backward
    for action in task.show_me:
        arg = action.args if isinstance(action.args, str) else " ".join(str(a) for a in action.args)
        words = arg.split()
        verb = action.verb
        if verb == "set" and words:
            found = [w for w in expr.inputs.findChildren(QWidget) if w.objectName() == f"value_{words[0]}"]
            widget = found[0] if found else expr.inputs
        else:
            widget = {
                "expression": expr.editor,
                "backward": back.backward_button,
                "step": back.step_button,
                "step all": back.step_button,
                "reset grads": back.zero_button,
                "reset": panel.reset_button,
                "preset": panel.article_button if words[:1] == ["article"] else panel.preset_button,
                "lr": panel.lr,
                "play": panel.play_button,
                "pause": panel.play_button,
                "epochs": panel.play_button,
                "dataset": panel.data_box,
                "layers": training.network_panel,
                "activation": training.network_panel.activation,
                "slice": training.curves.tabBar(),
                "op": window.workshop.action_widget(words),
            }.get(verb)
        if widget is not None:
            return widget
    return None


def bring_into_view(widget: QWidget) -> None:
    """Show the tab pages that hold ``widget`` and scroll every scroll area around it so that it is in sight."""
    child, parent = widget, widget.parentWidget()
    while parent is not None:
        if isinstance(parent, QStackedWidget) and parent.indexOf(child) >= 0:
            tabs = parent.parentWidget()
            if isinstance(tabs, QTabWidget) and tabs.indexOf(child) >= 0:
                tabs.setCurrentWidget(child)
        child, parent = parent, parent.parentWidget()
    parent = widget.parentWidget()
    while parent is not None:
        area = parent.parentWidget()
        if isinstance(area, QScrollArea) and parent is area.viewport() and area.widget() is not None:
            _scroll_to(area, widget)
        parent = parent.parentWidget()


def _scroll_to(area: QScrollArea, widget: QWidget, margin: int = 8) -> None:
    """Scroll ``area`` as little as shows ``widget`` (up and down: whole; sideways: only when it is wholly out of
    sight, then its left edge first); an area already showing it does not move."""
    top_left = widget.mapTo(area.widget(), QPoint(0, 0))
    view = area.viewport().size()
    bar = area.verticalScrollBar()
    top, bottom = top_left.y() - margin, top_left.y() + widget.height() + margin
    if top < bar.value():
        bar.setValue(top)
    elif bottom > bar.value() + view.height():
        bar.setValue(min(top, bottom - view.height()))
    bar = area.horizontalScrollBar()
    left, right = top_left.x() - margin, top_left.x() + widget.width() + margin
    if right - margin <= bar.value() or left + margin >= bar.value() + view.width():
        # Sideways only when none of it is in sight: a field cut at its right end is still seen, and scrolling
        # to its end would hide the labels on its left (the workshop's form at 1024×700 in presentation mode).
        bar.setValue(left if left < bar.value() else min(left, right - view.width()))


def shown_rect(widget: QWidget, window: QWidget) -> QRect:
    """The part of ``widget`` on screen, in ``window``'s coordinates (what its scroll areas leave in sight)."""
    rect = QRect(widget.mapTo(window, QPoint(0, 0)), widget.size())
    parent = widget.parentWidget()
    while parent is not None and parent is not window:
        if isinstance(parent.parentWidget(), QAbstractScrollArea):  # a viewport: what is scrolled away is not seen
            rect = rect.intersected(QRect(parent.mapTo(window, QPoint(0, 0)), parent.size()))
        parent = parent.parentWidget()
    return rect


class Spotlight(QWidget):
    """An outline drawn over the window around one widget, fading away; clicks go through it."""

    def __init__(self, window: QWidget):
        super().__init__(window)
        self.setObjectName("lessonSpotlight")
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents, True)
        self.target: QWidget | None = None
        self.opacity = 0.0
        self.fade = QVariantAnimation(self)
        self.fade.setStartValue(1.0)
        self.fade.setEndValue(0.0)
        self.fade.setDuration(FADE_MS)
        self.fade.setEasingCurve(QEasingCurve.Type.InCubic)  # strong at first, then gone
        self.fade.valueChanged.connect(self._faded)
        self.fade.finished.connect(self.hide)
        self.hide()

    def point_at(self, widget: QWidget) -> None:
        bring_into_view(widget)
        if not widget.isVisible():  # stepped back by the lesson, or its area is not on screen
            return
        self.target = widget
        self.opacity = 1.0
        self._follow()
        self.show()
        self.raise_()
        self.fade.stop()
        self.fade.start()

    def _faded(self, value) -> None:
        self.opacity = float(value)
        self._follow()
        self.update()

    def _follow(self) -> None:
        """Around the target wherever it is now (a column that settles after the lesson starts moves it)."""
        target = self.target
        if target is None or not target.isVisible():
            self.hide()
            return
        pad = OUTLINE_PX + 3
        window = self.parentWidget()
        self.setGeometry(shown_rect(target, window).adjusted(-pad, -pad, pad, pad).intersected(window.rect()))

    def paintEvent(self, _event) -> None:
        color = QColor(palette().selection)
        color.setAlphaF(max(0.0, min(1.0, self.opacity)))
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(QPen(color, OUTLINE_PX))
        half = OUTLINE_PX / 2 + 1
        painter.drawRoundedRect(self.rect().toRectF().adjusted(half, half, -half, -half), 5, 5)
