"""The wheel scrolls, it never edits: a spin box, combo box or slider without keyboard focus lets the wheel scroll
its scroll area; once a click (or Tab) has focused it, the wheel changes it as before.  One filter
(``gui.look.wheel_guard``), given to every such control as the app's style polishes it."""

from conftest import new_main_window
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import (
    QAbstractScrollArea,
    QAbstractSlider,
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QScrollArea,
    QScrollBar,
)

DOWN, UP = -120, 120  # one notch of the wheel


def wheel(widget, notch: int = DOWN) -> None:
    """One notch of the wheel with the pointer over the middle of ``widget``, delivered as Qt delivers the
    real one: to the widget under the pointer (a spin box's line edit, say), then up its parents until one
    takes it (Qt does not pass a wheel event a test sends up by itself)."""
    spot = widget.mapToGlobal(QPointF(widget.rect().center()))
    target = widget.childAt(widget.rect().center()) or widget
    while target is not None:
        event = QWheelEvent(
            target.mapFromGlobal(spot),
            spot,
            QPoint(0, 0),
            QPoint(0, notch),
            Qt.MouseButton.NoButton,
            Qt.KeyboardModifier.NoModifier,
            Qt.ScrollPhase.NoScrollPhase,
            False,
        )
        QApplication.sendEvent(target, event)
        if event.isAccepted() or target.isWindow():
            return
        target = target.parentWidget()


def scroll_area_of(widget) -> QAbstractScrollArea | None:
    parent = widget.parentWidget()
    while parent is not None and not isinstance(parent, QAbstractScrollArea):
        parent = parent.parentWidget()
    return parent


def notch_that_scrolls(bar) -> int:
    return DOWN if bar.value() < bar.maximum() else UP


def training_settings(qtbot, tmp_path):
    window = new_main_window(qtbot, tmp_path, (1280, 720))
    window.tabs.setCurrentWidget(window.training)
    qtbot.waitUntil(lambda: window.training.controller.last_snapshot is not None, timeout=30_000)
    return window, window.training.training_panel, window.training.side_scroll


def test_the_wheel_over_an_unfocused_samples_box_scrolls_the_settings_and_after_a_click_changes_it(
    qtbot, tmp_path, in_process_training
):
    window, panel, scroll = training_settings(qtbot, tmp_path)
    samples, controller = panel.samples, window.training.controller
    assert samples.value() == 200 and controller.config.samples == 200
    bar = scroll.verticalScrollBar()
    assert bar.maximum() > 0  # the settings are taller than their column at this size
    scroll.ensureWidgetVisible(samples)
    before, config = bar.value(), controller.config
    notch = notch_that_scrolls(bar)
    wheel(samples, notch)
    assert samples.value() == 200 and controller.config == config  # not edited, the data set not made again
    assert bar.value() != before  # the column scrolled instead
    assert (bar.value() > before) == (notch == DOWN)

    scroll.ensureWidgetVisible(samples)
    qtbot.mouseClick(samples.lineEdit(), Qt.MouseButton.LeftButton)  # chosen by a click: the wheel edits it
    assert samples.hasFocus()
    wheel(samples, UP)
    assert samples.value() == 200 + samples.singleStep()
    window.training.shutdown()


def test_the_wheel_over_an_unfocused_combo_box_scrolls_and_after_tab_changes_it(qtbot, tmp_path, in_process_training):
    window, panel, scroll = training_settings(qtbot, tmp_path)
    combo = panel.dataset
    bar = scroll.verticalScrollBar()
    scroll.ensureWidgetVisible(combo)
    index, before = combo.currentIndex(), bar.value()
    wheel(combo, notch_that_scrolls(bar))
    assert combo.currentIndex() == index and bar.value() != before
    assert combo.focusPolicy() == Qt.FocusPolicy.StrongFocus  # a real wheel would not focus it either

    scroll.ensureWidgetVisible(combo)
    previous = combo.previousInFocusChain()
    while not previous.isVisible() or not previous.focusPolicy() & Qt.FocusPolicy.TabFocus:
        previous = previous.previousInFocusChain()
    previous.setFocus(Qt.FocusReason.TabFocusReason)
    qtbot.keyClick(previous, Qt.Key.Key_Tab)  # Tab onto the combo box
    assert combo.hasFocus()
    wheel(combo, DOWN if index < combo.count() - 1 else UP)
    assert combo.currentIndex() != index
    window.training.shutdown()


def test_the_wheel_over_an_unfocused_input_slider_scrolls_the_inputs_and_after_a_click_moves_it(qtbot, tmp_path):
    window = new_main_window(qtbot, tmp_path, (1280, 720))
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)  # (a click focuses only in the active window)
    inputs = window.expression.inputs
    qtbot.waitUntil(lambda: len(inputs.rows) >= 4, timeout=10_000)
    row = list(inputs.rows.values())[1]
    slider, scroll = row.slider, scroll_area_of(row.slider)
    bar = scroll.verticalScrollBar()
    assert bar.maximum() > 0
    scroll.ensureWidgetVisible(slider)
    value, before, text = slider.value(), bar.value(), window.expression.state.text
    wheel(slider, notch_that_scrolls(bar))
    assert slider.value() == value and bar.value() != before

    scroll.ensureWidgetVisible(slider)
    qtbot.mouseClick(slider, Qt.MouseButton.LeftButton)  # (a click on the groove also moves it a page)
    assert slider.hasFocus()
    value = slider.value()
    wheel(slider, UP if value < slider.maximum() else DOWN)
    assert slider.value() != value and window.expression.state.text == text


def test_no_unfocused_control_in_any_scroll_area_of_any_tab_takes_the_wheel(qtbot, tmp_path, in_process_training):
    window = new_main_window(qtbot, tmp_path, (1280, 720))
    window.tabs.setCurrentWidget(window.training)
    qtbot.waitUntil(lambda: window.training.controller.last_snapshot is not None, timeout=30_000)
    checked = []
    for index in range(window.tabs.count()):
        window.tabs.setCurrentIndex(index)
        qtbot.wait(20)
        area = window.tabs.currentWidget()
        window.tabs.tabBar().setFocus()  # no control of the tab holds the focus
        controls = [
            w
            for kind in (QAbstractSpinBox, QComboBox, QAbstractSlider)
            for w in area.findChildren(kind)
            if not isinstance(w, QScrollBar) and w.isVisible() and w.isEnabled() and scroll_area_of(w) is not None
        ]
        for control in controls:
            scroll = scroll_area_of(control)
            if isinstance(scroll, QScrollArea):
                scroll.ensureWidgetVisible(control)
            if not control.visibleRegion().boundingRect().contains(control.rect().center()):
                continue  # (not reachable by the pointer here)
            look = (control.text(),) if isinstance(control, QAbstractSpinBox) else ()
            look += (control.currentIndex(),) if isinstance(control, QComboBox) else ()
            look += (control.value(),) if isinstance(control, QAbstractSlider) else ()
            for notch in (DOWN, UP, UP):
                wheel(control, notch)
            now = (control.text(),) if isinstance(control, QAbstractSpinBox) else ()
            now += (control.currentIndex(),) if isinstance(control, QComboBox) else ()
            now += (control.value(),) if isinstance(control, QAbstractSlider) else ()
            assert now == look, (window.tabs.tabText(index), control.objectName() or type(control).__name__)
            checked.append(control)
    assert len(checked) >= 20
    window.training.shutdown()
