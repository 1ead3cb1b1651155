"""Lessons that teach by doing: predict-then-reveal tasks, progress that knows who did a task, and conditions
that check the expression's structure (each loose check of the shipped lessons fails on its wrong answer)."""

from __future__ import annotations

import math

import pytest

from autograd_core.lessons import (
    GuessError,
    LessonError,
    LessonProgress,
    check,
    check_prediction,
    parse_condition,
    parse_lesson,
    read_guess,
)
from autograd_core.lessons.conditions import ConditionError

LESSON = """---
title: Predict
tab: expression
setup:
  - expression h = a * b; out = h + c
---
Guess before you press.

## Task: Predict a's gradient (within 0.01), then press Backward
predict: grad(a)
tolerance: 0.01
hint: a's grad is b's value.
reveal: backward

## Task: Predict the sign of b's gradient
predict: grad(b)
answer: sign
hint: b's grad is a's value.
reveal:
  - backward

## Task: Predict the output within 5 %
predict: value(out)
tolerance: 5%
hint: 2 · −3 + 10.
reveal: backward
show me:
  - set a 2
  - backward

## Task: Press Backward
check: backward_done
hint: The button under the graph.
show me: backward
"""

STATE = {"grad": {"a": -3.0, "b": 2.0, "c": 1.0}, "value": {"a": 2.0, "b": -3.0, "out": 4.0}}


def lesson():
    return parse_lesson(LESSON, "predict.md")


def test_a_predict_task_parses_with_its_answer_tolerance_and_reveal():
    first, sign, relative, plain = lesson().tasks
    assert first.kind == "predict" and first.predict == "grad(a)" and first.tolerance == 0.01
    assert first.answer == "number" and not first.relative
    assert [a.verb for a in first.reveal] == ["backward"] and first.show_me == first.reveal
    assert first.condition == "false"  # the state never ticks it: the prediction does
    assert sign.answer == "sign" and [a.verb for a in sign.reveal] == ["backward"]
    assert relative.relative and relative.tolerance == pytest.approx(0.05)
    assert [a.verb for a in relative.show_me] == ["set", "backward"]
    assert plain.kind == "do" and plain.predict == ""


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (("tolerance: 0.01\n", ""), "states no 'tolerance:'"),
        (("tolerance: 0.01", "tolerance: a lot"), "is not a number like 0.01 or 5%"),
        (("answer: sign", "answer: shape"), "answer 'shape' is not one of number, sign"),
        (("predict: grad(a)", "predict: grad(a) +"), "bad predict"),
        (("reveal: backward\n\n## Task: Predict the sign", "\n## Task: Predict the sign"), "has no 'reveal:'"),
        (("check: backward_done", "check: backward_done\ntolerance: 1"), "belongs to a predict task"),
    ],
)
def test_a_bad_predict_task_gets_one_message(change, words):
    with pytest.raises(LessonError, match=words):
        parse_lesson(LESSON.replace(*change, 1), "predict.md")


def test_a_number_prediction_accepts_right_answers_within_the_tolerance_and_refuses_wrong_ones():
    task = lesson().tasks[0]  # grad(a) = −3 within 0.01
    right = check_prediction(task, read_guess("-3"), STATE)
    assert right.correct and right.truth == -3.0
    assert right.sentence == "you said −3; it is −3: right, within ±0.01"
    assert check_prediction(task, read_guess("−3.005"), STATE).correct  # a typed minus sign too
    wrong = check_prediction(task, read_guess("3"), STATE)
    assert not wrong.correct and wrong.guess == 3.0 and wrong.truth == -3.0
    assert wrong.sentence == "you said 3; it is −3: off by 6, more than ±0.01"
    assert not check_prediction(task, read_guess("-3.02"), STATE).correct


def test_a_relative_tolerance_and_a_sign_prediction():
    _, sign, relative, _ = lesson().tasks
    assert check_prediction(relative, read_guess("4.19"), STATE).correct  # 4 ± 5 %
    assert not check_prediction(relative, read_guess("4.3"), STATE).correct
    assert check_prediction(sign, read_guess("positive", "sign"), STATE).correct  # grad(b) = 2
    refused = check_prediction(sign, read_guess("−", "sign"), STATE)
    assert not refused.correct and refused.sentence == "you said negative; it is 2 (not that sign)"


def test_a_guess_that_is_no_guess_is_refused_in_one_sentence():
    with pytest.raises(GuessError, match="type a number"):
        read_guess("minus three")
    with pytest.raises(GuessError, match="pick a sign"):
        read_guess("up", "sign")
    with pytest.raises(GuessError, match="finite"):
        read_guess("nan")
    task = lesson().tasks[0]
    missing = check_prediction(task, 1.0, {"grad": {}})
    assert not missing.correct and math.isnan(missing.truth)


def test_progress_keeps_who_did_each_task_and_a_lesson_is_done_only_by_the_learner():
    progress = LessonProgress(3)
    assert progress.mark(0) and progress.mark(1, "shown") and progress.mark(2)
    assert [progress.mark_text(i) for i in range(3)] == ["✓", "◌", "✓"]
    assert not progress.lesson_done and progress.learner_count == 2
    assert not progress.mark(0, "shown")  # Show me never takes the learner's tick away
    stored = progress.to_stored()
    assert stored == ["0", "1:shown", "2"]
    again = LessonProgress.from_stored(stored, 3)
    assert again.marks == {0: "learner", 1: "shown", 2: "learner"} and not again.lesson_done
    assert again.mark(1) and again.lesson_done and again.to_stored() == ["0", "1", "2"]


def test_old_progress_files_still_load_and_junk_is_skipped():
    assert LessonProgress.from_stored(["0", "2"], 3).marks == {0: "learner", 2: "learner"}
    assert LessonProgress.from_stored("1", 3).marks == {1: "learner"}
    assert LessonProgress.from_stored(["x", "7", "1:who", None, "2:shown"], 3).marks == {2: "shown"}
    assert LessonProgress.from_stored(None, 3).marks == {}
    with pytest.raises(ValueError):
        LessonProgress(2).mark(0, "robot")


# ---- each loose check of the shipped lessons, as a structure: the wrong answer fails, the right one passes


@pytest.mark.parametrize(
    ("condition", "wrong", "right"),
    [
        # lesson 2: "multiply the output by a new input d" accepted h*d + c
        ('output_op == "*" and feeds_output(d)', "h = a * b\nout = h*d + c", "h = a * b\nout = (h + c) * d"),
        # lesson 4: "use x twice" accepted x**2
        ('uses(x, "*") == 2', "y = x**2", "y = x * x"),
        ('uses(x, "+") == 2', "y = x * 2", "y = x + x"),
        # lesson 5: the relu task ticked on a sigmoid
        ('count("relu") >= 1', "y = sigmoid(x)", "y = relu(x)"),
        ('count("relu") >= 1', "y = sigmoid(x)", "y = (x * 2).relu()"),
        ('count("tanh") == 1 and output_op == "tanh"', "y = tanh(x) + 1", "y = tanh(x + 1)"),
    ],
)
def test_structure_conditions_fail_on_the_wrong_answer_and_pass_on_the_right_one(condition, wrong, right):
    parse_condition(condition)
    assert not check(condition, {"expression": wrong})
    assert check(condition, {"expression": right})


def test_structure_reads_nothing_from_text_that_does_not_compile_and_names_an_op_two_ways():
    assert not check('count("relu") >= 1', {"expression": "relu("})
    assert check('count("mul") == 1 and count("*") == 1 and output_op == "*"', {"expression": "a * b"})
    assert check('output_op == ""', {"expression": "x"})
    assert check('output_op == "**2"', {"expression": "x ** 2"})


@pytest.mark.parametrize("condition", ["uses(x, y) == 2", "count(relu) > 0", 'feeds_output("a", "b")', "uses(x)"])
def test_structure_functions_refuse_the_wrong_arguments(condition):
    with pytest.raises(ConditionError):
        parse_condition(condition)
