"""A lesson's actions read into typed commands, and the controls a lesson keeps, without Qt: a malformed action is
refused when the lesson is read, and the app gets names and numbers it only has to carry out."""

import pytest

from autograd_core.lessons import (
    ACTIONS,
    ALWAYS_STEPPED_BACK,
    CONTROLS,
    CommandError,
    LessonError,
    load_lessons,
    parse_lesson,
    read_command,
    split_action,
    stepping_back,
)
from autograd_core.lessons.commands import (
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

EXAMPLES = {
    "tab workshop": ShowTab("workshop"),
    "expression a = x * y; f = a + x": SetExpression("a = x * y\nf = a + x"),
    "set x -2.5": SetInput("x", -2.5),
    "backward": Backward(),
    "step": Step(),
    "step all": StepAll(),
    "reset grads": ResetGrads(),
    "preset article": UsePreset("article"),
    "dataset moons": UseDataset("moons"),
    "layers 16, 8": SetLayers((16, 8)),
    "activation relu": SetActivation("relu"),
    "lr 0.05": SetLearningRate(0.05),
    "epochs 100": TrainEpochs(100),
    "play": Play(),
    "pause": Pause(),
    "reset": ResetTraining(),
    "slice": ShowSlice(),
    "curves": ShowCurves(),
    "break assign": SwitchBug("assign"),
    "break off": SwitchBug(None),
    "op name soft": OpText("name", "soft"),
    "op value x / (1 + abs(x))": OpText("value", "x / (1 + abs(x))"),
    "op derivative x 1 / (1 + abs(x))**2": OpDerivative("x", "1 / (1 + abs(x))**2"),
    "op range -3 3.5": OpRange(-3.0, 3.5),
    "op check": OpCheck(),
    "op clear": OpClear(),
    "op remove soft": OpRemove("soft"),
}
BODY = "Words.\n\n## Task: t\ncheck: true\nhint: h\nshow me: backward\n"  # a lesson after its header


@pytest.mark.parametrize("text", EXAMPLES)
def test_an_action_reads_into_its_typed_command(text):
    assert read_command(*split_action(text)) == EXAMPLES[text]


def test_every_verb_has_a_command():
    assert {split_action(text)[0] for text in EXAMPLES} == set(ACTIONS)


@pytest.mark.parametrize(("verb", "args", "command"), [("step", "all", StepAll()), ("reset", "grads", ResetGrads())])
def test_a_two_word_verb_is_one_command_however_it_is_split(verb, args, command):
    assert read_command(verb, args) == command


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", "an empty action"),
        ("jump 3", "unknown action 'jump'"),
        ("backward now", "takes nothing after it"),
        ("set", "needs an input's name and a number"),
        ("set x three", "set needs an input's name and a number"),
        ("set x 1 2", "set needs an input's name and a number"),
        ("lr 0", "not a learning rate between 0 and 10"),
        ("lr 11", "not a learning rate between 0 and 10"),
        ("epochs 2.5", "not a whole number from 1 to 10000"),
        ("epochs 10001", "not a whole number from 1 to 10000"),
        ("layers 16,,16", "not a list of widths"),
        ("layers 1000", "not a list of widths"),
        ("tab nowhere", "tab 'nowhere' is not one of"),
        ("dataset mist", "dataset 'mist' is not one of"),
        ("activation soft", "activation 'soft' is not one of"),
        ("break everything", "break 'everything' is not one of"),
        ("expression y = (x", "the expression does not parse"),
        ("op fly", "op 'fly' is not one of"),
        ("op check now", "op check takes nothing after it"),
        ("op name", "op name needs its text"),
        ("op derivative x", "op derivative needs an input and its derivative"),
        ("op range -3", "op range needs two numbers"),
        ("op range a b", "op range needs two numbers"),
    ],
)
def test_a_malformed_action_is_refused_with_what_is_wrong(text, words):
    with pytest.raises(CommandError, match=words.replace("(", r"\(")):
        read_command(*split_action(text))


def test_an_op_the_lesson_defines_may_be_named_before_it_exists():
    assert read_command("activation", "soft", frozenset({"soft"})) == SetActivation("soft")
    expression = read_command("expression", "y = soft(x)", frozenset({"soft"}))
    assert expression == SetExpression("y = soft(x)")


def test_a_lesson_with_a_malformed_action_is_refused_at_its_line():
    text = (
        "---\ntitle: T\nsetup:\n  - set x three\n---\nWords.\n\n## Task: t\ncheck: true\nhint: h\nshow me: backward\n"
    )
    with pytest.raises(LessonError, match="line 4: set needs an input's name and a number"):
        parse_lesson(text)


def test_every_shipped_action_carries_its_command():
    lessons, errors = load_lessons()
    assert not errors
    kinds = {}  # verb -> the kinds of command it reads into ("op" has several)
    for text, command in EXAMPLES.items():
        kinds.setdefault(split_action(text)[0], set()).add(type(command))
    actions = [a for lesson in lessons for a in (*lesson.setup, *(x for t in lesson.tasks for x in t.show_me))]
    assert len(actions) > 50
    assert [a for a in actions if type(a.command) not in kinds[a.verb]] == []
    assert lessons[0].setup[0].command == ShowTab(lessons[0].tab)  # the header's tab is the first action


def test_a_lesson_keeps_the_controls_it_lists_and_steps_back_the_rest():
    plan = stepping_back(["backward", "editor", "break_it"])
    assert plan.kept == ("editor", "backward", "break_it")  # in the app's order
    assert set(plan.hidden) == (set(CONTROLS) - set(plan.kept)) | set(ALWAYS_STEPPED_BACK)
    assert plan.hidden[-len(ALWAYS_STEPPED_BACK) :] == ALWAYS_STEPPED_BACK
    assert not plan.bug_off
    assert stepping_back(["editor"]).bug_off  # no switch on screen: the backward is the correct one
    assert not set(ALWAYS_STEPPED_BACK) & set(CONTROLS)  # no lesson can keep them


def test_an_unknown_control_is_refused_at_its_line():
    text = "---\ntitle: T\ncontrols: editor, painting\n---\n" + BODY
    with pytest.raises(LessonError, match="line 3: unknown control 'painting'"):
        parse_lesson(text)
