"""Carry out a lesson's setup, Show me and reveal on the app.  The core has read each action into a checked
command (autograd_core.lessons.commands); here each command goes to the state object the app's own control
calls: the expression's state for Backward and Step, the training controller for Play and the settings, the
workshop for Check.  A lesson thereby does exactly what the learner's click does, and never depends on a button
being on screen (a lesson steps most of them back)."""

from __future__ import annotations

from PySide6.QtWidgets import QLineEdit

from autograd_core.learn.data import dataset_classes
from autograd_core.lessons.commands import (
    OP_COMMANDS,
    Backward,
    OpCheck,
    OpClear,
    OpDerivative,
    OpRange,
    OpRemove,
    OpText,
    Pause,
    Play,
    ResetGrads,
    ResetTraining,
    SetActivation,
    SetExpression,
    SetInput,
    SetLayers,
    SetLearningRate,
    ShowCurves,
    ShowSlice,
    ShowTab,
    Step,
    StepAll,
    SwitchBug,
    TrainEpochs,
    UseDataset,
    UsePreset,
)

MAX_STEPS = 10_000  # "step all" steps at most this often (a graph has far fewer nodes)


class ActionFailed(ValueError):
    """An action the app cannot perform now (a tab it lacks, an input the expression lacks, a refused preset)."""


def perform(window, action) -> None:
    """Do one lesson ``Action`` (its ``command``) in ``window`` (a MainWindow)."""
    command = action.command
    if isinstance(command, OP_COMMANDS):
        window.tabs.setCurrentWidget(window.workshop)
        perform_op(window.workshop, command)
    elif isinstance(command, (ShowTab, ShowCurves, ShowSlice)):
        _show(window, command)
    elif isinstance(command, (SetExpression, SetInput, Backward, Step, StepAll, ResetGrads, SwitchBug)):
        _expression(window.expression, command)
    else:
        _training(window.training.controller, command)


def _show(window, command) -> None:
    """A tab, or a page of the training area's curves (what clicking its tab shows)."""
    training = window.training
    match command:
        case ShowTab(tab):
            if tab not in window.areas:
                raise ActionFailed(f"no tab {tab!r}; tabs are {', '.join(window.areas)}")
            window.tabs.setCurrentWidget(window.areas[tab])
        case ShowCurves():
            window.tabs.setCurrentWidget(training)
            training.curves.setCurrentWidget(training.metrics)
        case ShowSlice():
            window.tabs.setCurrentWidget(training)
            training.curves.setCurrentWidget(training.loss_slice)
            if training.diagram.picked is None:
                training.controller.request_slice((0, 0, 0))


def _expression(expr, command) -> None:
    """The expression area: its state does what its editor, input boxes, Backward buttons and switch call."""
    state = expr.state
    match command:
        case SetExpression(text):
            expr.editor.set_text(text)  # (the editor shows it without sending it back)
            state.set_text(text, force=True)  # what the editor's Evaluate calls
            if state.mode != "none":  # a lesson's new graph starts with no gradients: the learner runs backward
                state.zero_grad()
        case SetInput(name, value):
            if name not in state.inputs:
                raise ActionFailed(f"the expression has no input {name!r}")
            state.set_value(name, value)
        case Backward():
            state.backward()
        case Step():
            state.step()
        case StepAll():
            if state.mode != "stepping":
                state.step()
            for _ in range(MAX_STEPS):
                if state.mode != "stepping" or state.position >= len(state.steps):
                    break
                state.step()
        case ResetGrads():
            state.zero_grad()
        case SwitchBug(bug):
            state.set_bug(bug)  # the switch's list follows the state


def _training(controller, command) -> None:
    """The training area: its controller does what the training panel's buttons and boxes call; every panel then
    shows the settings in force, as after a preset."""
    match command:
        case UsePreset(name):
            if not controller.use_named_preset(name):
                raise ActionFailed(f"the preset {name!r} was refused")
            return
        case UseDataset(name):
            # (its own number of classes: moons after a three-class spiral is two-class, as the data box does it)
            classes = dataset_classes(name, controller.config.classes)
            if not controller.update_settings(dataset=name, points=None, classes=classes):
                raise ActionFailed(f"the data set {name!r} was refused")
        case SetLayers(sizes):
            controller.update_settings(layers=list(sizes))
        case SetActivation(name):
            controller.update_settings(activation=name)
        case SetLearningRate(lr):
            controller.update_settings(lr=lr)
        case TrainEpochs(epochs):
            last = controller.last_snapshot
            done = last.last.step if last and last.last else 0
            controller.update_settings(steps=done + epochs)
            controller.announce_config()
            if not controller.running:
                controller.play()
            return
        case Play():
            if not controller.running:
                controller.play()
            return
        case Pause():
            if controller.running:
                controller.pause()
            return
        case ResetTraining():
            controller.reset()
            return
        case _:
            raise ActionFailed(f"unknown action {command!r}")
    controller.announce_config()


def _type_into(field: QLineEdit, text: str) -> None:
    """Replace a field's text as typing does (its textChanged runs; the workshop's code follows)."""
    field.setFocus()
    field.selectAll()
    field.insert(text)


def perform_op(workshop, command) -> None:
    """One ``op …`` command in the Op workshop: its fields are what the learner types (they are the op being
    written); Check and define, New op and Remove are the workshop's own methods, as its buttons call them."""
    match command:
        case OpText(field, text):
            _type_into(getattr(workshop, field), text)
        case OpDerivative(name, text):
            inputs = workshop.input_names()
            if name not in inputs[:2]:
                raise ActionFailed(f"the op's inputs are {', '.join(inputs) or 'none'}, not {name!r}")
            _type_into(workshop.derivatives[inputs.index(name)], text)
        case OpRange(lo, hi):
            workshop.lo.setValue(lo)
            workshop.hi.setValue(hi)
        case OpCheck():
            workshop.check_and_define()
        case OpClear():
            workshop.clear()
        case OpRemove(name):
            workshop.remove_op(name)
        case _:
            raise ActionFailed(f"unknown workshop step {command!r}")


def perform_all(window, actions) -> None:
    for action in actions:
        perform(window, action)
