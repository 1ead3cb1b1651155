"""Break it, clicked as a learner would: each switch gives the article's wrong grads in the boxes, the ledger marks
the line that overwrote or came too late, the grad check turns red, a file exported says it is broken, and the
switch back restores the right grads; lesson 10's Show me ticks each task and its prediction is judged."""

import math

import pytest
from conftest import new_main_window
from expression_gui_helpers import type_expression
from PySide6.QtCore import Qt
from PySide6.QtGui import QImage, QPalette

from autograd_core.lessons import load_lessons
from autograd_core.lessons.predict import check_prediction
from gui.look.theme import palette

pytestmark = [pytest.mark.qt_log_level_fail("WARNING"), pytest.mark.qt_log_ignore("propagateSizeHints")]

# the shipped "Reused intermediate node" by hand: h = a·b = −0.75, y = h·c + tanh h, ∂y/∂h = c + 1 − tanh²h
A, B, C = 0.5, -1.5, 2.0
H = A * B
DH = C + 1.0 - math.tanh(H) ** 2


@pytest.fixture
def panel(expression_panel):
    expression_panel.resize(1400, 900)
    return expression_panel


def choose(qtbot, panel, bug):
    """Pick a Break-it entry with the keyboard, as a learner would in the closed combo (each key activates)."""
    combo = panel.break_it.combo
    target = combo.findData(bug)
    combo.setFocus()
    while combo.currentIndex() != target:
        qtbot.keyClick(combo, Qt.Key.Key_Down if combo.currentIndex() < target else Qt.Key.Key_Up)
    assert panel.state.bug == bug


def box_grads(panel):
    """Node title -> the gradient its box shows."""
    return {item.title: item.grad for item in panel.view.nodes.values()}


def grad_of(panel, name):
    return panel.state.input_grad(name)


def load_reused(qtbot, panel):
    action = next(a for a in panel.examples_menu.actions() if a.text() == "Reused intermediate node")
    action.trigger()  # the Examples menu's entry
    qtbot.waitUntil(lambda: not panel.view.busy and bool(panel.view.nodes), timeout=5000)
    assert panel.state.values == {"a": A, "b": B, "c": C}


def is_error_red(label):
    return label.palette().color(QPalette.ColorRole.WindowText).name() == palette().error.lower()


def test_equals_in_place_of_plus_equals_gives_x_grad_1_on_x_plus_x_and_the_switch_back_gives_2(qtbot, panel):
    type_expression(qtbot, panel, "y = x + x")
    click = lambda b: qtbot.mouseClick(b, Qt.MouseButton.LeftButton)  # noqa: E731
    choose(qtbot, panel, "assign")
    assert panel.break_it.code.isVisible() and "self.grad = 1.0 * out.grad" in panel.break_it.code.toPlainText()
    assert not panel.broken_badge.isVisible()  # nothing broken on screen before Backward
    click(panel.backward.backward_button)
    assert grad_of(panel, "x") == 1.0
    assert box_grads(panel)["x"] == 1.0 and panel.inputs.rows["x"].grad.text() == "grad 1"
    assert panel.state.evaluation.inputs["x"].grad == 0.0  # the Tensor holds no broken grad
    # the ledger marks the line that threw the first contribution away
    (marked,) = panel.backward.marked()
    assert marked[0] == "overwritten" and "'=' threw away the 1.0 it held → x.grad = 1.0" in marked[1]
    item = next(panel.backward.ledger.item(i) for i in range(panel.backward.ledger.count()) if "threw" in
                panel.backward.ledger.item(i).text())  # fmt: skip
    assert item.foreground().color().name() == palette().error.lower()
    # the check is red, one sentence says why, and it is marked broken beside the graph and over the ledger
    check = panel.break_it.check
    assert check.isVisible() and is_error_red(check)
    assert check.text() == "grad check: x's grad 1 ≠ 2 by finite differences"
    assert panel.break_it.reason.text().endswith("x.grad is 1.0, not 2.0.")
    assert panel.broken_badge.isVisible() and panel.backward.progress.text().startswith("BROKEN backward")
    assert is_error_red(panel.backward.progress) and is_error_red(panel.broken_badge)
    # the switch back: the right grads at once, nothing marked
    choose(qtbot, panel, None)
    assert grad_of(panel, "x") == 2.0 and box_grads(panel)["x"] == 2.0
    assert panel.state.evaluation.inputs["x"].grad == 2.0 and panel.state.mode == "done"
    assert not panel.broken_badge.isVisible() and not panel.backward.progress.text().startswith("BROKEN")
    assert not panel.break_it.check.isVisible() and panel.backward.marked() == []


def test_eager_order_on_the_reused_node_loses_tanhs_part_of_a_and_b_and_marks_the_late_line(qtbot, panel):
    load_reused(qtbot, panel)
    choose(qtbot, panel, "eager")
    for _ in range(20):  # Step to the end: the broken replay, node by node
        if not panel.backward.step_button.isEnabled():
            break
        qtbot.mouseClick(panel.backward.step_button, Qt.MouseButton.LeftButton)
    grads = box_grads(panel)
    assert grad_of(panel, "a") == B * C and grad_of(panel, "b") == A * C  # only h·c's part reached them
    assert grad_of(panel, "c") == pytest.approx(H)  # right where the bug cannot reach
    assert grads["h = *"] == pytest.approx(DH)  # h's own total is right: it came too late to pass on
    (late,) = [text for mark, text in panel.backward.marked() if mark == "late"]
    assert "too late: h had already passed its gradient on" in late
    assert panel.break_it.check.text().startswith("grad check: a's grad −3 ≠ −3.89488")
    choose(qtbot, panel, None)
    assert grad_of(panel, "a") == pytest.approx(B * DH) and grad_of(panel, "b") == pytest.approx(A * DH)


def test_creation_order_on_the_reused_node_leaves_every_input_at_zero_and_is_exported_as_broken(qtbot, panel, tmp_path):
    load_reused(qtbot, panel)
    choose(qtbot, panel, "creation_order")
    qtbot.mouseClick(panel.backward.backward_button, Qt.MouseButton.LeftButton)
    assert [grad_of(panel, n) for n in "abc"] == [0.0, 0.0, 0.0]
    assert box_grads(panel)["h = *"] == 0.0 and box_grads(panel)["y = +"] == 1.0
    assert len([m for m, _ in panel.backward.marked() if m == "late"]) == 4
    assert "backward ran in creation order" in panel.break_it.reason.text()
    # exported: the picture and the file say it is broken
    png, svg = tmp_path / "broken.png", tmp_path / "broken.svg"
    panel.export_image(str(png))
    panel.export_image(str(svg))
    image = QImage(str(png))
    assert not image.isNull() and image.text("Broken") == "true"
    assert image.text("Description").startswith("BROKEN ON PURPOSE (creation order): these gradients are wrong")
    text = svg.read_text(encoding="utf-8")
    assert 'data-broken="true"' in text and ">BROKEN ON PURPOSE (creation order)" in text
    # switched off: the right grads, and a picture with no broken flag
    choose(qtbot, panel, None)
    assert grad_of(panel, "c") == pytest.approx(H) and grad_of(panel, "a") == pytest.approx(B * DH)
    fixed = tmp_path / "fixed.svg"
    panel.export_image(str(fixed))
    assert "BROKEN" not in fixed.read_text(encoding="utf-8")


def test_new_values_keep_the_bug_and_zero_grad_forgets_the_broken_run(qtbot, panel):
    type_expression(qtbot, panel, "y = x + x")
    choose(qtbot, panel, "assign")
    qtbot.mouseClick(panel.backward.backward_button, Qt.MouseButton.LeftButton)
    spin = panel.inputs.rows["x"].spin
    spin.setFocus()
    spin.lineEdit().selectAll()
    qtbot.keyClicks(spin.lineEdit(), "5")
    qtbot.keyClick(spin.lineEdit(), Qt.Key.Key_Return)
    assert panel.state.values["x"] == 5 and grad_of(panel, "x") == 1.0 and panel.state.broken
    qtbot.mouseClick(panel.backward.backward_button, Qt.MouseButton.LeftButton)  # again: never accumulates
    assert grad_of(panel, "x") == 1.0
    qtbot.mouseClick(panel.backward.zero_button, Qt.MouseButton.LeftButton)
    assert not panel.state.broken and grad_of(panel, "x") == 0.0 and not panel.broken_badge.isVisible()


def test_the_switch_turned_off_in_forward_mode_leaves_no_broken_run_behind(qtbot, panel):
    """The backward walked in reverse mode follows the switch even while forward mode hides it."""
    type_expression(qtbot, panel, "y = x + x")
    click = lambda b: qtbot.mouseClick(b, Qt.MouseButton.LeftButton)  # noqa: E731
    choose(qtbot, panel, "assign")
    click(panel.backward.backward_button)
    assert panel.state.broken_done and grad_of(panel, "x") == 1.0
    click(panel.mode.forward_button)
    choose(qtbot, panel, None)
    click(panel.mode.reverse_button)
    assert panel.state.direction == "reverse" and not panel.state.broken and not panel.broken_badge.isVisible()
    assert grad_of(panel, "x") == 2.0 and panel.state.evaluation.inputs["x"].grad == 2.0
    # and the other way: turned on while hidden, the broken run is what reverse mode shows
    click(panel.mode.forward_button)
    choose(qtbot, panel, "assign")
    click(panel.mode.reverse_button)
    assert panel.state.broken_done and grad_of(panel, "x") == 1.0 and panel.broken_badge.isVisible()
    assert panel.state.evaluation.inputs["x"].grad == 0.0  # the Tensor holds no broken grad


@pytest.fixture
def window(qtbot, tmp_path, in_process_training):
    return new_main_window(qtbot, tmp_path, (1024, 700))


BREAK_LESSON = next(lesson for lesson in load_lessons()[0] if lesson.slug == "10-break-it")


def test_lesson_10_show_me_ticks_each_task_and_its_prediction_is_judged_by_the_truth(qtbot, window):
    from gui.lessons.lesson_state import build_state

    panel = window.lessons
    panel.start(BREAK_LESSON)
    expr = window.expression
    assert not expr.break_it.isHidden()  # the lesson keeps its switch on screen
    assert panel.task_marks() == [False] * len(BREAK_LESSON.tasks)
    for i in range(len(BREAK_LESSON.tasks)):
        panel.tasks.setCurrentRow(i)
        panel.show_me_button.click()
        qtbot.waitUntil(lambda i=i: panel.task_signs()[i] == "◌", timeout=10_000)  # Show me's mark
        if i == 0:  # the reveal done: the truth the prediction is checked against is the broken grad
            state = build_state(window)
            assert state["broken"] == "assign" and state["broken_done"] and not state["backward_done"]
            task = BREAK_LESSON.tasks[0]
            assert check_prediction(task, 1.0, state).correct
            assert not check_prediction(task, 2.0, state).correct  # the right grad is the wrong answer here
    assert build_state(window)["broken"] == "" and expr.state.input_grad("a") == pytest.approx(B * DH)
    panel.leave()


def test_a_lesson_without_the_switch_hides_it_and_turns_it_off(qtbot, window):
    expr = window.expression
    expr.break_it.set_bug("assign")
    lesson = next(lesson for lesson in load_lessons()[0] if "break_it" not in lesson.controls)
    window.lessons.start(lesson)
    assert expr.break_it.isHidden() and expr.state.bug is None
    window.lessons.leave()
    assert not expr.break_it.isHidden()


def test_a_session_saved_during_a_broken_run_comes_back_correct(qtbot, panel):
    from gui.expression.expression_panel import ExpressionPanel

    type_expression(qtbot, panel, "y = x + x")
    choose(qtbot, panel, "assign")
    qtbot.mouseClick(panel.backward.backward_button, Qt.MouseButton.LeftButton)
    data = panel.session_state()
    assert "assign" not in repr(data) and "broken" not in repr(data).lower()  # never kept
    other = ExpressionPanel()
    qtbot.addWidget(other)
    other.restore_session(data)
    assert other.state.bug is None and other.break_it.combo.currentData() is None
    qtbot.mouseClick(other.backward.backward_button, Qt.MouseButton.LeftButton)
    assert other.state.input_grad("x") == 2.0 and not other.state.broken
