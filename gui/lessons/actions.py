"""Perform a lesson's setup and Show me actions as a user would: through the app's real widgets, or the
state-object method the widget's click calls (a combo's or a layer list's change)."""

from __future__ import annotations

MAX_STEPS = 10_000  # "step all" clicks Step at most this often (a graph has far fewer nodes)


class ActionFailed(ValueError):
    """An action the app cannot perform (an unknown tab, input or preset)."""


def _number(text: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise ActionFailed(f"{text!r} is not a number") from None


def perform(window, action) -> None:
    """Do one ``Action(verb, args, line)`` in ``window`` (a MainWindow)."""
    arg = action.args if isinstance(action.args, str) else " ".join(str(a) for a in action.args)
    verb = action.verb
    if (verb, arg.split()[:1]) in (("step", ["all"]), ("reset", ["grads"])):  # two-word verbs, however split
        verb, arg = f"{verb} {arg.split()[0]}", " ".join(arg.split()[1:])
    expr, training = window.expression, window.training
    controller = training.controller
    panel = training.training_panel
    if verb == "tab":
        if arg not in window.areas:
            raise ActionFailed(f"no tab {arg!r}; tabs are {', '.join(window.areas)}")
        window.tabs.setCurrentWidget(window.areas[arg])
    elif verb == "expression":
        expr.editor.set_text(arg)
        expr.evaluate(arg)
        if expr.state.mode != "none":  # a lesson's new graph starts with no gradients: the learner runs backward
            expr.backward.zero_button.click()
    elif verb == "set":
        name, value = arg.split()[0], _number(arg.split()[-1])
        spin = next((w for w in expr.inputs.findChildren(object) if w.objectName() == f"value_{name}"), None)
        if spin is None:
            raise ActionFailed(f"the expression has no input {name!r}")
        spin.setValue(value)
    elif verb == "backward":
        expr.backward.backward_button.click()
    elif verb == "step all":
        state = expr.state
        if state.mode != "stepping":
            expr.backward.step_button.click()
        for _ in range(MAX_STEPS):
            if state.mode != "stepping" or state.position >= len(state.steps):
                break
            expr.backward.step_button.click()
    elif verb == "step":
        expr.backward.step_button.click()
    elif verb == "reset grads":
        expr.backward.zero_button.click()
    elif verb == "preset":
        if arg == "article":
            panel.article_button.click()
        elif not controller.use_named_preset(arg):
            raise ActionFailed(f"the preset {arg!r} was refused")
    elif verb == "dataset":
        from autograd_core.learn.data import dataset_classes

        # (its own number of classes: moons after a three-class spiral is two-class, as the data box does it)
        classes = dataset_classes(arg, controller.config.classes)
        if not controller.update_settings(dataset=arg, points=None, classes=classes):
            raise ActionFailed(f"the data set {arg!r} was refused")
        controller.announce_config()
    elif verb == "layers":
        try:
            sizes = [int(s) for s in arg.replace(" ", "").split(",") if s]
        except ValueError:
            raise ActionFailed(f"{arg!r} is not a list of layer sizes like 16,16") from None
        controller.update_settings(layers=sizes)
        controller.announce_config()
    elif verb == "activation":
        controller.update_settings(activation=arg)
        controller.announce_config()
    elif verb == "lr":
        panel.lr.setValue(_number(arg))  # its valueChanged sends the setting, as typing does
    elif verb == "epochs":
        done = controller.last_snapshot.last.step if controller.last_snapshot and controller.last_snapshot.last else 0
        controller.update_settings(steps=done + int(_number(arg)))
        controller.announce_config()
        if not controller.running:
            panel.play_button.click()
    elif verb == "play":
        if not controller.running:
            panel.play_button.click()
    elif verb == "pause":
        if controller.running:
            panel.play_button.click()
    elif verb == "reset":
        panel.reset_button.click()
    elif verb == "break":
        expr.break_it.set_bug(None if arg == "off" else arg)  # the switch, as choosing it in its list does
    elif verb == "curves":
        window.tabs.setCurrentWidget(training)
        training.curves.setCurrentWidget(training.metrics)
    elif verb == "slice":
        window.tabs.setCurrentWidget(training)
        training.curves.setCurrentWidget(training.loss_slice)
        if training.diagram.picked is None:
            controller.request_slice((0, 0, 0))
    elif verb == "op":
        window.tabs.setCurrentWidget(window.workshop)
        op_step(window.workshop, arg)
    else:
        raise ActionFailed(f"unknown action {verb!r}")


def _type_into(field, text: str) -> None:
    """Replace a field's text as typing does (its textChanged runs; the workshop's code follows)."""
    field.setFocus()
    field.selectAll()
    field.insert(text)


def op_step(workshop, arg: str) -> None:
    """One ``op …`` action in the Op workshop: type into its fields, click Check and define, New op, Remove."""
    step, _, rest = arg.strip().partition(" ")
    rest = rest.strip()
    if step in ("name", "inputs", "value"):
        _type_into(getattr(workshop, step), rest)
    elif step == "derivative":
        name, _, text = rest.partition(" ")
        inputs = workshop.input_names()
        if name not in inputs[:2]:
            raise ActionFailed(f"the op's inputs are {', '.join(inputs) or 'none'}, not {name!r}")
        _type_into(workshop.derivatives[inputs.index(name)], text.strip())
    elif step == "range":
        lo, hi = (_number(w) for w in rest.split())
        workshop.lo.setValue(lo)
        workshop.hi.setValue(hi)
    elif step == "check":
        workshop.define_button.click()
    elif step == "clear":
        workshop.clear_button.click()
    elif step == "remove":
        workshop.remove_op(rest)
    else:
        raise ActionFailed(f"unknown workshop step {step!r}")


def perform_all(window, actions) -> None:
    for action in actions:
        perform(window, action)
