"""Which widgets each lesson control name stands for, and stepping the others back while a lesson runs."""

from __future__ import annotations


def control_widgets(window) -> dict[str, list]:
    """Control name (as a lesson's ``controls:`` lists it) -> the widgets it shows."""
    expr, training = window.expression, window.training
    back = expr.backward
    panel, network = training.training_panel, training.network_panel
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
        "curves": [training.curves],
        "boundary": [training.boundary],
        "loss_slice": [training.loss_slice],
        "diagram": [training.diagram],
    }


def _extras(window) -> list:
    """Controls no lesson names: they step back in every lesson."""
    expr = window.expression
    return [
        expr.mode,
        expr.maths_box,
        expr.layout_label,
        expr.layout_combo,
        expr.collapse_button,
        expr.export_button,
    ]


class SteppedBack:
    """Hides the controls a lesson does not list; ``restore`` shows exactly the ones it hid."""

    def __init__(self):
        self.hidden: list = []

    def apply(self, window, controls) -> None:
        self.restore()
        wanted = set(controls)
        registry = control_widgets(window)
        keep = {id(w) for name in wanted for w in registry.get(name, [])}
        for widget in [w for name, ws in registry.items() if name not in wanted for w in ws] + _extras(window):
            if id(widget) in keep or widget.isHidden():
                continue
            widget.hide()
            self.hidden.append(widget)

    def restore(self) -> None:
        for widget in self.hidden:
            widget.show()
        self.hidden = []
