"""Lessons that teach by doing, driven as a learner would: a prediction typed before the reveal (right: ✓,
wrong: the truth beside it and no ✓), Show me's own mark (◌), checks that refuse the wrong structure, and the
lessons that used to mislead (the ledger they name, lesson 5's overflow, lesson 6's reused node, lesson 7's
data set, lesson 8's comparison, Restart, the Zero grad button's name)."""

import math
import re

import pytest
from conftest import new_main_window
from expression_gui_helpers import type_expression
from PySide6.QtCore import Qt
from test_lessons_by_hand import (
    backward,
    click,
    guess,
    pick_task,
    play_until_finished,
    set_input,
    set_layers,
    step,
    step_to_the_end,
    type_number,
)

from autograd_core.lessons import check, load_lessons
from gui.lessons.lesson_state import build_state

pytestmark = pytest.mark.first_start
TIMEOUT = 120_000
LESSONS = {lesson.slug[:2]: lesson for lesson in load_lessons()[0]}


@pytest.fixture
def window(qtbot, tmp_path, in_process_training):
    w = new_main_window(qtbot, tmp_path, (1280, 800))
    yield w
    w.training.controller.pause()
    w.expression.state.stop()


def start(window, key):
    panel = window.lessons
    panel.start(LESSONS[key])
    return panel


def result(panel) -> str:
    return panel.predict.result.text() if panel.predict.result.isVisible() else ""


# ---------------------------------------------------------------- predict, then reveal

# lesson, predict task, what comes before it, a right guess, a wrong guess, the truth as the box writes it
PREDICTIONS = [
    ("01", 1, None, "2", "5", "it is 2"),
    ("02", 0, None, "-3", "3", "it is −3"),
    ("03", 0, None, "3", "1", "it is 3"),
    ("04", 0, None, "2", "1", "it is 2"),
    ("05", 2, None, "0.25", "0.5", "it is 0.25"),
    ("06", 1, step, "-2", "4", "it is −2"),
]


@pytest.mark.parametrize(
    ("key", "index", "before", "right", "wrong", "truth"), PREDICTIONS, ids=[p[0] for p in PREDICTIONS]
)
def test_a_prediction_is_refused_when_wrong_and_ticks_when_right(
    qtbot, window, key, index, before, right, wrong, truth
):
    panel = start(window, key)
    if before is not None:
        before(qtbot, window)
    guess(qtbot, window, index, wrong)
    assert truth in result(panel) and "off by" in result(panel)  # the truth beside the guess
    assert panel.task_signs()[index] == "◌" and not panel.task_marks()[index]  # revealed wrong: shown, no ✓
    click(qtbot, panel.restart_button)
    if before is not None:
        before(qtbot, window)
    guess(qtbot, window, index, right)
    assert truth in result(panel) and "right, within" in result(panel)
    assert panel.task_marks()[index]


def test_a_guess_that_is_not_a_number_is_refused_before_anything_is_revealed(qtbot, window):
    panel = start(window, "01")
    guess(qtbot, window, 1, "two")
    assert "Type a number" in result(panel)
    assert window.expression.state.mode == "none"  # Backward was not pressed: nothing revealed
    assert panel.task_signs()[1] == "○"
    panel.predict.guess.selectAll()
    qtbot.keyClicks(panel.predict.guess, "2")
    qtbot.keyClick(panel.predict.guess, Qt.Key.Key_Return)
    assert panel.task_marks()[1] and window.expression.state.mode == "done"


def test_a_guess_after_the_answer_was_shown_earns_no_tick(qtbot, window):
    panel = start(window, "01")
    pick_task(qtbot, window, 1)
    click(qtbot, panel.show_me_button)  # Show me reveals the answer
    assert panel.task_signs()[1] == "◌" and "the answer is 2" in result(panel)
    guess(qtbot, window, 1, "2")
    assert panel.task_signs()[1] == "◌" and "on screen before the guess" in result(panel)


def test_a_guess_after_pressing_backward_earns_no_tick_and_backward_does_not_run_twice(qtbot, window):
    panel = start(window, "01")
    pick_task(qtbot, window, 1)
    backward(qtbot, window)  # the answer is on the graph before the guess
    guess(qtbot, window, 1, "2")
    assert "it is 2" in result(panel) and "on screen before the guess" in result(panel)
    assert panel.task_signs()[1] == "◌" and window.expression.state.values["x"] == 2
    assert panel.tracker.state["grad"]["x"] == 2  # not 4: the reveal's Backward did not run again


def test_the_sign_picker_takes_a_sign_and_enter(qtbot, window):
    panel = start(window, "01")
    guess(qtbot, window, 3, "+")
    assert panel.predict.sign.isVisible() and not panel.predict.guess.isVisible()
    assert "not that sign" in result(panel) and panel.task_signs()[3] == "◌"
    click(qtbot, panel.restart_button)
    guess(qtbot, window, 3, "-")
    assert "you said negative" in result(panel).lower() and panel.task_marks()[3]


# ---------------------------------------------------------------- Show me's mark


def test_show_me_leaves_its_own_mark_kept_apart_in_the_settings(qtbot, window):
    panel = start(window, "01")
    click(qtbot, panel.show_me_button)  # task 1, done by Show me
    qtbot.waitUntil(lambda: panel.task_signs()[0] == "◌")
    assert "Show me" in panel.tasks.item(0).toolTip()
    guess(qtbot, window, 1, "2")  # task 2, done by the learner
    assert panel.task_signs()[:2] == ["◌", "✓"]
    assert window.settings.q.value("lessons/done/" + LESSONS["01"].slug) == ["0:shown", "1"]
    panel.leave()
    entry = panel.list.item(0)
    assert "1/4 · 1 ◌" in entry.text() and "Show me did 1" in entry.toolTip()


def test_old_stored_progress_still_loads_as_the_learners(window):
    lesson = LESSONS["02"]
    window.settings.set("lessons/done/" + lesson.slug, ["0", "1"])  # an older file: plain task numbers
    panel = window.lessons
    panel._fill_list()
    assert panel.list.item(1).text().endswith("✓")  # a lesson done by the learner
    panel.start(lesson)
    assert panel.task_signs() == ["✓", "✓"]


# ---------------------------------------------------------------- checks that test the task

# lesson, task, the wrong answer typed, the right one
LOOSE = [
    ("02", 1, ["h = a * b\nout = h * d + c"], ["h = a * b\nout = (h + c) * d"]),
    ("03", 1, ["j = s * 6", step_to_the_end], ["b = s * 2\nj = b * 3", step_to_the_end]),
    ("04", 3, ["y = x**2", ("x", 3), backward], ["y = x * x", backward]),
    ("05", 1, ["y = sigmoid(x)", ("x", -800), backward], ["y = relu(x)", ("x", -2), backward]),
]


def _do(qtbot, window, steps):
    for item in steps:
        if isinstance(item, str):
            type_expression(qtbot, window.expression, item)
        elif isinstance(item, tuple):
            set_input(qtbot, window, *item)
        else:
            item(qtbot, window)


@pytest.mark.parametrize(("key", "index", "wrong", "right"), LOOSE, ids=[c[0] for c in LOOSE])
def test_a_structure_check_refuses_the_wrong_answer_and_ticks_the_right_one(qtbot, window, key, index, wrong, right):
    panel = start(window, key)
    pick_task(qtbot, window, index)
    _do(qtbot, window, wrong)
    qtbot.wait(50)  # (any tick would come from the next event-loop turn)
    panel.tracker.refresh()
    assert not panel.task_marks()[index], f"{wrong} ticked lesson {key}'s task {index + 1}"
    _do(qtbot, window, right)
    qtbot.waitUntil(lambda: panel.task_marks()[index], timeout=TIMEOUT)


# ---------------------------------------------------------------- lessons that misled


@pytest.mark.parametrize(
    ("key", "index", "typed", "share"), [("03", 1, "b = s * 2\nj = b * 3", "grad(s) +="), ("04", 2, None, "grad(x) +=")]
)
def test_a_lesson_that_names_the_ledger_fills_it(qtbot, window, key, index, typed, share):
    panel = start(window, key)
    back = window.expression.backward
    assert "ledger" in LESSONS[key].explanation.lower()
    pick_task(qtbot, window, index)
    if typed:
        type_expression(qtbot, window.expression, typed)
    step_to_the_end(qtbot, window)  # (the Step button is on screen: the lesson keeps it)
    qtbot.waitUntil(lambda: panel.task_marks()[index])
    lines = back.sentences()
    assert back.ledger.isVisible() and lines
    assert sum(share in line for line in lines) == (2 if key == "04" else 1)  # x + x: two shares for x


def test_lesson_5_says_what_overflows_and_shows_the_nan_grad(qtbot, window):
    lesson = LESSONS["05"]
    assert "never overflows" not in lesson.explanation
    panel = start(window, "05")
    index = next(i for i, t in enumerate(lesson.tasks) if "nan" in t.text)
    pick_task(qtbot, window, index)
    type_expression(qtbot, window.expression, "y = 1 / (1 + exp(-x))")
    set_input(qtbot, window, "x", -800)
    backward(qtbot, window)
    qtbot.waitUntil(lambda: panel.task_marks()[index])
    state = panel.tracker.state
    assert state["output"] == 0 and math.isnan(state["grad"]["x"])  # the value right, the grad nan


def test_lesson_6_has_a_node_that_waits_for_two_contributions(qtbot, window):
    panel = start(window, "06")
    state = window.expression.state
    n = next(t for t in state.tensors if t.label == "n")
    step(qtbot, window)
    assert state.displayed_grad(n) == 4  # n's first share (from L), with one still to come
    qtbot.waitUntil(lambda: panel.task_marks()[0])
    step(qtbot, window)
    assert state.displayed_grad(n) == -2  # d's share arrived: n is complete before a and b hear of it
    lines = window.expression.backward.sentences()
    assert sum("grad(n) +=" in line for line in lines) == 2


def test_lesson_7_ticks_after_a_three_class_data_set(qtbot, window):
    controller = window.training.controller
    window.tabs.setCurrentWidget(window.training)
    assert controller.use_named_preset("spiral3")
    qtbot.waitUntil(lambda: controller.last_snapshot is not None and controller.config.classes == 3, timeout=TIMEOUT)
    panel = start(window, "07")
    set_layers(qtbot, window, [16, 16])
    qtbot.waitUntil(lambda: panel.task_marks()[0], timeout=TIMEOUT)
    assert panel.tracker.state["parameters"] == 337 == len(_model_weights(controller))


def _model_weights(controller):
    return [x for w, b in controller.last_snapshot.weights for x in [*w.ravel(), *b.ravel()]]


def test_restart_then_a_tab_switch_ticks_nothing(qtbot, window):
    panel = start(window, "07")
    network = window.training.network_panel
    type_number(qtbot, network.layer_spins[0], 16)
    network.activation.setCurrentIndex(network.activation.findText("tanh"))
    qtbot.waitUntil(lambda: panel.task_marks()[2], timeout=TIMEOUT)
    click(qtbot, panel.restart_button)
    qtbot.waitUntil(lambda: window.training.controller.settled, timeout=TIMEOUT)
    assert panel.task_marks() == [False] * 3
    state = build_state(window)
    assert not any(check(task.condition, state) for task in LESSONS["07"].tasks)  # the setup put the state back
    window.tabs.setCurrentWidget(window.expression)
    window.tabs.setCurrentWidget(window.training)
    qtbot.wait(50)
    panel.tracker.refresh()
    assert panel.task_marks() == [False] * 3


@pytest.mark.parametrize("key", sorted(LESSONS), ids=[LESSONS[k].slug for k in sorted(LESSONS)])
def test_no_task_is_done_at_a_lessons_start(qtbot, window, key):
    start(window, key)
    if LESSONS[key].tab == "training":  # (its setup's settings reach the training process first)
        qtbot.waitUntil(lambda: window.training.controller.settled, timeout=TIMEOUT)
    state = build_state(window)
    met = [t.text for t in LESSONS[key].tasks if t.kind == "do" and check(t.condition, state)]
    assert not met


def test_every_zero_grad_a_lesson_names_is_the_buttons_label(window):
    label = window.expression.backward.zero_button.text()
    named = [
        " ".join(m.split()) for lesson in LESSONS.values() for m in re.findall(r"Zero\s+grads?\b", lesson.explanation)
    ]
    named += [
        " ".join(m.split())
        for lesson in LESSONS.values()
        for t in lesson.tasks
        for m in re.findall(r"Zero\s+grads?\b", t.hint)
    ]
    assert named and set(named) == {label}


@pytest.mark.slow
def test_lesson_8_compares_with_the_articles_run_whatever_ran_between(qtbot, window):
    panel = start(window, "08")
    training = window.training
    settings = training.training_panel
    last = len(LESSONS["08"].tasks) - 1
    click(qtbot, settings.article_button)
    play_until_finished(qtbot, window)  # the article's run: lr 0.001
    for lr in (0.01, 0.1):  # a learner who tries 0.01 first
        type_number(qtbot, settings.lr, lr)
        click(qtbot, settings.reset_button)
        play_until_finished(qtbot, window)
        qtbot.waitUntil(lambda: panel.compare.isVisible(), timeout=TIMEOUT)
        text = panel.compare.text()
        assert text.startswith("The article's run:") and "at lr 0.001." in text and "This run: " in text
        assert text.endswith(f"at lr {lr}.")
    qtbot.waitUntil(lambda: panel.task_marks()[last], timeout=TIMEOUT)


def test_lesson_8_starts_on_the_curves_so_a_loss_slice_left_open_ticks_nothing(qtbot, window):
    """Its third task asks to open the loss slice: a slice page left open by an earlier lesson must not do it."""
    training = window.training
    window.tabs.setCurrentWidget(training)
    training.curves.setCurrentWidget(training.loss_slice)
    panel = start(window, "08")
    assert training.curves.currentWidget() is training.metrics
    assert build_state(window)["plot"] == "curves" and not any(panel.task_marks())
