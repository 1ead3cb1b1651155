"""A lesson's actions as typed commands.  "set x 3", "step all" or "op range -3 3" is read here, once, into a
command with its numbers and names already checked (``SetInput("x", 3.0)``), so a malformed action is refused when
the lesson is read, with no window, and the app only carries the command out on its state objects."""

from __future__ import annotations

import re
from dataclasses import dataclass

from autograd_core.language.break_it import BUGS
from autograd_core.language.expression import ExpressionError, compile_expression
from autograd_core.learn.data import DATASETS
from autograd_core.learn.nn import ACTIVATIONS
from autograd_core.learn.presets import PRESETS
from autograd_core.numbers import is_number

TABS = ("expression", "training", "sample", "lab", "workshop")
BREAK_CHOICES = (*BUGS, "off")  # the Break-it switch: one of the article's two bugs, or the correct backward
# verb -> what its argument is ("" for none); docs/LESSONS.md lists them
ACTIONS: dict[str, str] = {
    "tab": "a tab: " + ", ".join(TABS),
    "expression": "an expression; '; ' separates its lines",
    "set": "an input's name and a number: set x 3",
    "backward": "",
    "step": "",
    "step all": "",
    "reset grads": "",
    "preset": "a preset's name: " + ", ".join(PRESETS),
    "dataset": "a data set: " + ", ".join(DATASETS),
    "layers": "hidden layer widths: layers 16,16",
    "activation": "an activation: " + ", ".join(ACTIVATIONS),
    "lr": "a learning rate: lr 0.1",
    "epochs": "how many more epochs to train, then play: epochs 100",
    "play": "",
    "pause": "",
    "reset": "",
    "slice": "",
    "curves": "",
    "op": "a step in the Op workshop: op name soft, op inputs x, op value …, op derivative x …, op range -3 3, "
    "op check, op clear, op remove soft",
    "break": "a bug to switch on, or off: " + ", ".join(BREAK_CHOICES),
}
# The Op workshop's steps (``op STEP …``) -> what follows the step ("" for nothing).
OP_STEPS = {
    "name": "text",
    "inputs": "text",
    "value": "text",
    "derivative": "input text",
    "range": "two numbers",
    "check": "",
    "clear": "",
    "remove": "text",
}
MAX_EPOCHS = 10_000
MAX_LR = 10.0


class CommandError(ValueError):
    """An action that is not one a lesson can do: ``str()`` says what is wrong, in the lesson's words."""


@dataclass(frozen=True)
class ShowTab:
    tab: str


@dataclass(frozen=True)
class SetExpression:
    text: str  # its lines, newline-separated


@dataclass(frozen=True)
class SetInput:
    name: str
    value: float


@dataclass(frozen=True)
class Backward:
    pass


@dataclass(frozen=True)
class Step:
    pass


@dataclass(frozen=True)
class StepAll:
    pass


@dataclass(frozen=True)
class ResetGrads:
    pass


@dataclass(frozen=True)
class UsePreset:
    name: str


@dataclass(frozen=True)
class UseDataset:
    name: str


@dataclass(frozen=True)
class SetLayers:
    sizes: tuple[int, ...]


@dataclass(frozen=True)
class SetActivation:
    name: str


@dataclass(frozen=True)
class SetLearningRate:
    lr: float


@dataclass(frozen=True)
class TrainEpochs:
    epochs: int  # more than the run has done: the step limit moves, then Play


@dataclass(frozen=True)
class Play:
    pass


@dataclass(frozen=True)
class Pause:
    pass


@dataclass(frozen=True)
class ResetTraining:
    pass


@dataclass(frozen=True)
class ShowCurves:
    pass


@dataclass(frozen=True)
class ShowSlice:
    pass


@dataclass(frozen=True)
class SwitchBug:
    bug: str | None  # None: the correct backward


@dataclass(frozen=True)
class OpText:
    field: str  # "name", "inputs" or "value": typed into that field of the workshop
    text: str


@dataclass(frozen=True)
class OpDerivative:
    input: str
    text: str


@dataclass(frozen=True)
class OpRange:
    lo: float
    hi: float


@dataclass(frozen=True)
class OpCheck:
    pass


@dataclass(frozen=True)
class OpClear:
    pass


@dataclass(frozen=True)
class OpRemove:
    name: str


Command = (
    ShowTab
    | SetExpression
    | SetInput
    | Backward
    | Step
    | StepAll
    | ResetGrads
    | UsePreset
    | UseDataset
    | SetLayers
    | SetActivation
    | SetLearningRate
    | TrainEpochs
    | Play
    | Pause
    | ResetTraining
    | ShowCurves
    | ShowSlice
    | SwitchBug
    | OpText
    | OpDerivative
    | OpRange
    | OpCheck
    | OpClear
    | OpRemove
)
OP_COMMANDS = (OpText, OpDerivative, OpRange, OpCheck, OpClear, OpRemove)  # what the Op workshop does
# The actions that take nothing after them, and the command each one is.
_PLAIN = {
    "backward": Backward,
    "step": Step,
    "step all": StepAll,
    "reset grads": ResetGrads,
    "play": Play,
    "pause": Pause,
    "reset": ResetTraining,
    "slice": ShowSlice,
    "curves": ShowCurves,
}


def split_action(text: str) -> tuple[str, str]:
    """``text`` like "set x 3" or "step all" -> (verb, what follows it); CommandError for an unknown verb."""
    words = text.split()
    if not words:
        raise CommandError("an empty action")
    two = " ".join(words[:2])
    verb = two if two in ACTIONS else words[0]
    if verb not in ACTIONS:
        raise CommandError(f"unknown action {words[0]!r}; actions are {', '.join(ACTIONS)}")
    return verb, text.strip()[len(verb) :].strip()


def read_command(verb: str, args: str, lesson_ops: frozenset[str] = frozenset()) -> Command:
    """The command for ``verb`` and its ``args``, checked (CommandError says what is wrong).

    ``lesson_ops``: the ops the lesson defines in the workshop; an expression or an activation may name them
    before they exist, as they will once the learner has defined them."""
    words = args.split()
    if (verb, words[:1]) in (("step", ["all"]), ("reset", ["grads"])):  # a two-word verb, however it was split
        verb, args = f"{verb} {words[0]}", " ".join(words[1:])
    if verb not in ACTIONS:
        raise CommandError(f"unknown action {verb!r}; actions are {', '.join(ACTIONS)}")
    wants = ACTIONS[verb]
    if not wants and args:
        raise CommandError(f"the action {verb!r} takes nothing after it")
    if wants and not args:
        raise CommandError(f"the action {verb!r} needs {wants}")
    if verb in _PLAIN:
        return _PLAIN[verb]()
    if verb == "op":
        return _op_command(args)
    problem = _bad_argument(verb, args, lesson_ops)
    if problem:
        raise CommandError(problem)
    if verb == "set":
        name, value = args.split()
        return SetInput(name, float(value))
    if verb == "layers":
        return SetLayers(tuple(int(s) for s in args.replace(" ", "").split(",")))
    if verb == "lr":
        return SetLearningRate(float(args))
    if verb == "epochs":
        return TrainEpochs(int(args))
    if verb == "break":
        return SwitchBug(None if args == "off" else args)
    named = {"tab": ShowTab, "preset": UsePreset, "dataset": UseDataset, "activation": SetActivation}
    if verb in named:
        return named[verb](args)
    return SetExpression(args.replace("; ", "\n"))


def _bad_argument(verb: str, args: str, lesson_ops: frozenset[str]) -> str:
    choices = {
        "tab": TABS,
        "preset": tuple(PRESETS),
        "dataset": DATASETS,
        "activation": ACTIVATIONS,
        "break": BREAK_CHOICES,
    }
    if verb == "activation" and args in lesson_ops:
        return ""
    if verb in choices and args not in choices[verb]:
        return f"{verb} {args!r} is not one of {', '.join(choices[verb])}"
    if verb == "set" and (len(args.split()) != 2 or not is_number(args.split()[1])):
        return "set needs an input's name and a number, like: set x 3"
    if verb == "lr" and not (is_number(args) and 0 < float(args) <= MAX_LR):
        return f"lr {args!r} is not a learning rate between 0 and {MAX_LR:g}"
    if verb == "epochs" and not (args.isdigit() and 0 < int(args) <= MAX_EPOCHS):
        return f"epochs {args!r} is not a whole number from 1 to {MAX_EPOCHS}"
    if verb == "layers" and not re.fullmatch(r"\d{1,3}(,\d{1,3}){0,7}", args.replace(" ", "")):
        return f"layers {args!r} is not a list of widths like 16,16"
    if verb == "expression":
        try:
            compile_expression(args.replace("; ", "\n"))
        except ExpressionError as exc:
            if not any(re.search(rf"\b{name}\s*\(", args) for name in lesson_ops):
                return f"the expression does not parse: {exc}"
    return ""


def _op_command(args: str) -> Command:
    """``op STEP …``: what is typed keeps its own spacing ("x / (1 + abs(x))")."""
    words = args.split()
    step = words[0] if words else ""
    if step not in OP_STEPS:
        raise CommandError(f"op {step!r} is not one of {', '.join(OP_STEPS)}")
    wants, rest = OP_STEPS[step], words[1:]
    text = args.strip().partition(" ")[2].strip()
    if not wants and rest:
        raise CommandError(f"op {step} takes nothing after it")
    if wants == "text" and not rest:
        raise CommandError(f"op {step} needs its text, like: op {step} x")
    if wants == "input text" and len(rest) < 2:
        raise CommandError("op derivative needs an input and its derivative, like: op derivative x 1 - tanh(x)**2")
    if wants == "two numbers" and not (len(rest) == 2 and all(is_number(w) for w in rest)):
        raise CommandError("op range needs two numbers, like: op range -3 3")
    if step in ("name", "inputs", "value"):
        return OpText(step, text)
    if step == "derivative":
        name, _, derivative = text.partition(" ")
        return OpDerivative(name, derivative.strip())
    if step == "range":
        return OpRange(float(rest[0]), float(rest[1]))
    if step == "remove":
        return OpRemove(text)
    return OpCheck() if step == "check" else OpClear()
