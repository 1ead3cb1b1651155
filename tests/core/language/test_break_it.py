"""Break it: backward replayed with the article's two bugs gives the article's wrong grads, says it is broken,
and the correct replay (the switch off) gives the right ones again."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from autograd_core.language.break_it import BUG_CODE, BUGS, replay_backward
from autograd_core.language.expression import compile_expression
from autograd_core.language.trace import backward_steps

ROOT = Path(__file__).resolve().parents[3]


def reused():
    example = next(e for e in json.loads((ROOT / "resources/examples.json").read_text()) if "Reused" in e["name"])
    return compile_expression(example["text"]).evaluate(example["values"])


def by_label(replay):
    return {n.label: g for n, g in replay.grads.items() if n.label}


# the reused node by hand: h = a·b = −0.75, y = h·c + tanh h; ∂y/∂h = c + (1 − tanh²h)
H = 0.5 * -1.5
DH = 2.0 + (1.0 - math.tanh(H) ** 2)


def test_assign_in_place_of_add_gives_one_not_two_on_x_plus_x_and_records_what_it_overwrote():
    ev = compile_expression("y = x + x").evaluate({"x": 3.0})
    broken = replay_backward(ev.output, "assign")
    assert broken.broken and by_label(broken)["x"] == 1.0 and broken.correct[ev.inputs["x"]] == 2.0
    root_step = broken.steps[0]
    first, second = root_step.contributions
    assert first.overwritten is None and first.after == 1.0
    assert second.overwritten == 1.0 and second.before == 1.0 and second.after == 1.0
    assert "'=' threw away the 1.0 it held → x.grad = 1.0" in root_step.sentences()[2]
    assert broken.wrong == [ev.inputs["x"]]
    assert broken.reason.endswith("x.grad is 1.0, not 2.0.") and broken.reason.startswith("broken on purpose")
    assert broken.label == "BROKEN ON PURPOSE (= in place of +=): these gradients are wrong"


def test_the_correct_replay_is_backward_steps_unchanged_and_restores_the_right_grads():
    ev = compile_expression("y = x + x").evaluate({"x": 3.0})
    replay_backward(ev.output, "assign")
    fixed = replay_backward(ev.output)
    assert not fixed.broken and fixed.reason == "" and fixed.label == "" and fixed.wrong == []
    assert by_label(fixed)["x"] == 2.0
    assert [s.grad for s in fixed.steps] == [s.grad for s in backward_steps(ev.output)]
    ev.output.backward()
    assert ev.inputs["x"].grad == 2.0  # no replay touched a Tensor


def test_assign_on_the_reused_node_keeps_only_the_last_contribution():
    ev = reused()
    broken = replay_backward(ev.output, "assign")
    grads = by_label(broken)
    # backward visits tanh(h) first, then h·c: h's grad is overwritten by c = 2
    assert grads["h"] == 2.0 and grads["a"] == -1.5 * 2.0 and grads["b"] == 0.5 * 2.0
    assert broken.correct[ev.named["h"]] == pytest.approx(DH)
    overwritten = [c for s in broken.steps for c in s.contributions if c.overwritten is not None]
    assert len(overwritten) == 1 and overwritten[0].overwritten == pytest.approx(1.0 - math.tanh(H) ** 2)
    assert {n.label for n in broken.wrong} == {"h", "a", "b"}


def test_eager_order_passes_the_reused_node_on_before_its_second_consumer_delivers():
    ev = reused()
    broken = replay_backward(ev.output, "eager")
    grads = by_label(broken)
    assert grads["a"] == -1.5 * 2.0 and grads["b"] == 0.5 * 2.0  # only h·c's part reached a and b
    assert grads["h"] == pytest.approx(DH)  # h's own total is right, but it came too late
    late = [(s.node, c) for s in broken.steps for c in s.contributions if c.late]
    assert len(late) == 1 and late[0][1].parent is ev.named["h"] and late[0][0].op == "tanh"
    assert any(line.startswith("too late: h had already passed") for s in broken.steps for line in s.sentences())
    assert {n.label for n in broken.wrong} == {"a", "b"}
    assert "a.grad is −3.0, not −3.89488" in broken.reason


def test_creation_order_passes_every_inner_node_on_before_anything_reached_it():
    ev = reused()
    broken = replay_backward(ev.output, "creation_order")
    grads = by_label(broken)
    assert grads["a"] == 0.0 and grads["b"] == 0.0 and grads["c"] == 0.0 and grads["h"] == 0.0
    correct = replay_backward(ev.output)
    assert by_label(correct)["a"] == pytest.approx(-1.5 * DH) and by_label(correct)["c"] == pytest.approx(H)
    assert broken.steps[-1].node is ev.output  # the output came last
    assert sum(c.late for s in broken.steps for c in s.contributions) == 4
    assert "backward ran in creation order" in broken.reason


def test_every_bug_has_the_articles_code_and_an_unknown_one_is_refused():
    assert set(BUG_CODE) == set(BUGS)
    assert "self.grad = 1.0 * out.grad" in BUG_CODE["assign"] and "for node in topo:" in BUG_CODE["creation_order"]
    ev = compile_expression("x * 2").evaluate({"x": 1.0})
    with pytest.raises(ValueError, match="unknown bug"):
        replay_backward(ev.output, "reverse")


def test_lesson_10s_prediction_is_judged_against_the_broken_grad_the_app_shows():
    from autograd_core.lessons import check, load_lesson
    from autograd_core.lessons.predict import check_prediction, read_guess

    lesson = load_lesson(ROOT / "resources/lessons/10-break-it.md")
    task = lesson.tasks[0]
    assert task.kind == "predict" and [a.verb for a in task.reveal] == ["break", "backward"]
    ev = compile_expression("y = x + x").evaluate({"x": 3.0})
    shown = replay_backward(ev.output, "assign").grads[ev.inputs["x"]]  # what the boxes show after the reveal
    state = {"expression": "y = x + x", "broken": "assign", "broken_done": True, "grad": {"x": shown}}
    assert check_prediction(task, read_guess("1"), state).correct
    wrong = check_prediction(task, read_guess("2"), state)
    assert not wrong.correct and "you said 2" in wrong.sentence
    assert check(task.condition, state)
    assert not check(task.condition, {**state, "broken": ""})  # the right grads never tick the broken task


@pytest.mark.parametrize("bug", list(BUGS))
def test_each_ledger_line_has_its_mark_and_only_the_overwriting_or_late_lines_are_marked(bug):
    broken = replay_backward(reused().output, bug)
    for step in broken.steps:
        lines, marks = step.sentences(), step.marks()
        assert len(lines) == len(marks)
        for line, mark in zip(lines, marks, strict=True):
            assert (mark == "overwritten") == ("threw away" in line)
            assert (mark == "late") == line.startswith("too late:")


def test_the_switch_gives_the_correct_trace_off_and_the_broken_replay_on():
    from autograd_core.language.break_it import BreakItSwitch

    ev = compile_expression("y = x + x").evaluate({"x": 3.0})
    switch = BreakItSwitch()
    steps = switch.trace(ev.output)
    assert switch.replay is None and not switch.broken and switch.message() == ""
    assert [s.grad for s in steps] == [s.grad for s in backward_steps(ev.output)]
    assert switch.switch("assign") and not switch.switch("assign")  # already on: nothing to do
    steps = switch.trace(ev.output)
    assert switch.broken and steps is switch.replay.steps and switch.replay.grads[ev.inputs["x"]] == 1.0
    assert switch.message() == "BROKEN backward (= in place of +=): " + switch.replay.reason
    assert switch.message().endswith("x.grad is 1.0, not 2.0.")
    with pytest.raises(ValueError, match="unknown bug"):
        switch.switch("reverse")
    assert switch.bug == "assign" and switch.switch(None) and switch.bug is None
    switch.trace(ev.output)
    assert not switch.broken and ev.inputs["x"].grad == 0.0  # no trace touched a Tensor
