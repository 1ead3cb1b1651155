"""Which widgets each lesson control name stands for, and stepping them back while a lesson runs.  Which
names a lesson keeps is the core's policy (autograd_core.lessons.controls); this module only knows the widgets."""

from __future__ import annotations

from collections.abc import Iterable

from PySide6.QtWidgets import QTabWidget, QWidget

from autograd_core.lessons.controls import stepping_back


class TabPages:
    """Some pages of a tab widget, hidden and shown as one control (the curves' tabs: a narrow training area
    keeps its Settings page among them, and that page must stay)."""

    def __init__(self, tabs: QTabWidget, pages: Iterable[QWidget]):
        self.tabs, self.pages = tabs, list(pages)

    def _indexes(self):
        return [i for i in (self.tabs.indexOf(p) for p in self.pages) if i >= 0]

    def isHidden(self) -> bool:
        return not any(self.tabs.isTabVisible(i) for i in self._indexes())

    def hide(self) -> None:
        current = self.tabs.currentIndex()
        for i in self._indexes():
            self.tabs.setTabVisible(i, False)
        if current in self._indexes():  # the page on screen went: show the first one left
            visible = [i for i in range(self.tabs.count()) if self.tabs.isTabVisible(i)]
            if visible:
                self.tabs.setCurrentIndex(visible[0])

    def show(self) -> None:
        for i in self._indexes():
            self.tabs.setTabVisible(i, True)


def control_widgets(window) -> dict[str, list]:
    """Control name (as a lesson's ``controls:`` lists it, or one that steps back in every lesson) -> the widgets
    it shows."""
    expr, training = window.expression, window.training
    back = expr.backward
    panel, network = training.training_panel, training.network_panel
    curves = training.curves
    plots = (training.metrics, training.gradient_flow, training.confusion, training.landscape, training.runs_panel)
    return {
        "editor": [expr.editor, expr.examples_button, expr.evaluate_button],
        "inputs": [expr.inputs],
        "backward": [back.backward_button, back.zero_button],
        "step": [back.step_button, back.back_button, back.play_button, back.speed, back.progress],
        "ledger": [back.ledger, back.ledger_title],
        "graph": [expr.view],
        "layers": [network],
        "activation": [network.activation],
        "dataset": [panel.data_box],
        "preset": [panel.preset_button, panel.article_button],
        "lr": [panel.settings_box],
        "play": [panel.play_button, panel.speed, panel.speed_label],
        "step_train": [panel.step_button],
        "reset": [panel.reset_button],
        "curves": [TabPages(curves, plots)],
        "boundary": [training.boundary],
        "loss_slice": [TabPages(curves, [training.loss_slice])],
        "diagram": [training.diagram],
        "break_it": [expr.break_it, expr.break_it.details],
        "mode": [expr.mode],
        "maths": [expr.maths_control],
        "layout": [expr.layout_label, expr.layout_combo],
        "collapse": [expr.collapse_button],
        "export": [expr.export_button],
        "paint": [training.boundary.tools],
    }


class SteppedBack:
    """Hides the controls a lesson does not list; ``restore`` shows exactly the ones it hid."""

    def __init__(self):
        self.hidden: list = []

    def apply(self, window, controls) -> None:
        self.restore()
        plan = stepping_back(controls)
        if plan.bug_off:
            window.expression.state.set_bug(None)  # (the switch's list follows the state)
        registry = control_widgets(window)
        keep = {id(w) for name in plan.kept for w in registry.get(name, [])}
        for widget in [w for name in plan.hidden for w in registry[name]]:
            if id(widget) in keep or widget.isHidden():
                continue
            widget.hide()
            self.hidden.append(widget)
        curves = window.training.curves
        if not any(curves.isTabVisible(i) for i in range(curves.count())) and not curves.isHidden():
            curves.hide()  # no page left (the settings are beside it): no empty tab widget on screen
            self.hidden.append(curves)

    def restore(self) -> None:
        for widget in reversed(self.hidden):
            widget.show()
        self.hidden = []
