"""Which widgets each lesson control name stands for, and stepping the others back while a lesson runs."""

from __future__ import annotations


class TabPages:
    """Some pages of a tab widget, hidden and shown as one control (the curves' tabs: a narrow training area
    keeps its Settings page among them, and that page must stay)."""

    def __init__(self, tabs, pages):
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
    """Control name (as a lesson's ``controls:`` lists it) -> the widgets it shows."""
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
    }


def _extras(window) -> list:
    """Controls no lesson names: they step back in every lesson."""
    expr = window.expression
    return [
        expr.mode,
        expr.maths_control,
        expr.layout_label,
        expr.layout_combo,
        expr.collapse_button,
        expr.export_button,
        window.training.boundary.tools,  # painting points: no lesson asks for it, and it takes the plot's height
    ]


class SteppedBack:
    """Hides the controls a lesson does not list; ``restore`` shows exactly the ones it hid."""

    def __init__(self):
        self.hidden: list = []

    def apply(self, window, controls) -> None:
        self.restore()
        wanted = set(controls)
        if "break_it" not in wanted:
            window.expression.break_it.set_bug(None)  # a lesson without the switch never runs a broken backward
        registry = control_widgets(window)
        keep = {id(w) for name in wanted for w in registry.get(name, [])}
        for widget in [w for name, ws in registry.items() if name not in wanted for w in ws] + _extras(window):
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
