"""The Op workshop tab used as a learner would: typing an op into its fields and clicking Check and define; the
op then typed in an expression (its own box, its local derivative in the ledger), picked as a network's
activation and trained (in this process, and in the real training process), kept across a session and across a
restart of the app; a wrong derivative refused with its worst point; each hostile definition said in one
sentence with nothing else broken; lesson 9's Show me and its prediction's truth."""

import json

import pytest
from conftest import new_main_window
from expression_gui_helpers import type_expression
from PySide6.QtCore import QCoreApplication, QEvent, QSettings, Qt
from PySide6.QtWidgets import QApplication
from training_gui_helpers import set_spin

from autograd_core.engine.custom_ops import CUSTOM_OPS
from autograd_core.language.workshop import OpDefinition, define
from autograd_core.language.workshop_definition import NAME_LIMIT
from autograd_core.lessons import load_lessons
from autograd_core.lessons.predict import check_prediction
from gui.lessons.lesson_state import build_state
from gui.shell.main_window import MainWindow
from gui.shell.settings import AppSettings
from gui.workshop.workshop_panel import SETTINGS_KEY

SOFT = ("soft", "x", "x / (1 + abs(x))", "1 / (1 + abs(x))**2")
TIMEOUT = 60_000


@pytest.fixture(autouse=True)
def _no_ops_before_or_after():
    """The learner's ops are the process's: each test starts and ends with none."""
    CUSTOM_OPS.clear()
    yield
    CUSTOM_OPS.clear()


@pytest.fixture
def window(qtbot, tmp_path, in_process_training):
    w = new_main_window(qtbot, tmp_path)
    click_tab(qtbot, w, w.workshop)
    yield w
    w.training.controller.pause()
    w.expression.state.stop()


def click_tab(qtbot, window, area):
    bar = window.tabs.tabBar()
    qtbot.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(window.tabs.indexOf(area)).center())
    assert window.tabs.currentWidget() is area


def type_into(qtbot, field, text):
    """Select what is there and type over it, key by key."""
    field.setFocus()
    field.selectAll()
    qtbot.keyClick(field, Qt.Key.Key_Delete)
    qtbot.keyClicks(field, text)


def type_op(qtbot, panel, name, inputs, value, *derivatives):
    qtbot.mouseClick(panel.clear_button, Qt.MouseButton.LeftButton)
    type_into(qtbot, panel.name, name)
    type_into(qtbot, panel.inputs, inputs)
    type_into(qtbot, panel.value, value)
    for field, text in zip(panel.derivatives, derivatives, strict=False):
        type_into(qtbot, field, text)


def check_and_define(qtbot, panel):
    qtbot.mouseClick(panel.define_button, Qt.MouseButton.LeftButton)
    return panel.result


def test_a_correct_op_is_accepted_shown_in_the_articles_form_and_listed(qtbot, window):
    panel = window.workshop
    type_op(qtbot, panel, *SOFT)
    # the article's _backward line follows the typing, before any check
    assert "x.grad += (1 / (1 + abs(x))**2) * out.grad" in panel.code.toPlainText()
    assert "out = Tensor(x / (1 + abs(x)), 'soft')" in panel.code.toPlainText()
    result = check_and_define(qtbot, panel)
    assert result.accepted and "soft" in CUSTOM_OPS
    assert panel.message.text().startswith("✓ soft is defined: your derivative agrees with the slope at all 201")
    assert panel.marked is None
    assert [panel.ops.item(i).text() for i in range(panel.ops.count())] == ["soft(x) = x / (1 + abs(x))"]
    # the plot drew both curves on the 201-point grid, nothing marked
    assert len(panel.plot.drawn["x"]) == 201 and not panel.plot.drawn["disagree"].any()
    # the network builder lists it (from the registry's signal), every layer's box too
    network = window.training.network_panel
    assert network.activation.findData("soft") >= 0
    assert all(box.findData("soft") >= 0 for box in network.layer_activations)
    # Remove takes it away again, everywhere
    panel.ops.setCurrentRow(0)
    qtbot.mouseClick(panel.remove_button, Qt.MouseButton.LeftButton)
    assert "soft" not in CUSTOM_OPS and panel.ops.count() == 0 and network.activation.findData("soft") < 0


def test_the_op_typed_in_an_expression_has_its_own_box_and_its_local_derivative_in_the_ledger(qtbot, window):
    panel = window.workshop
    type_op(qtbot, panel, *SOFT)
    assert check_and_define(qtbot, panel).accepted
    click_tab(qtbot, window, window.expression)
    expr = window.expression
    type_expression(qtbot, expr, "y = soft(x)")
    qtbot.waitUntil(lambda: "x" in expr.inputs.rows)
    set_spin(qtbot, expr.inputs.rows["x"].spin, -3)
    qtbot.waitUntil(lambda: expr.state.values.get("x") == -3)
    tensors = expr.state.tensors
    boxes = [item for node, item in expr.view.nodes.items() if item.kind == "op" and tensors[node].op == "soft"]
    assert len(boxes) == 1 and boxes[0].title == "y = soft" and boxes[0].value == pytest.approx(-0.75)
    step = expr.backward.step_button
    while step.isEnabled():
        qtbot.mouseClick(step, Qt.MouseButton.LeftButton)
    ledger = expr.backward.sentences()
    line = next(s for s in ledger if "grad(x) +=" in s)
    # the local derivative as the learner typed it, and its number at x = −3: 1/16
    assert "1 / (1 + abs(x))**2" in line and "0.0625" in line
    assert expr.state.input_grad("x") == pytest.approx(0.0625)


def test_the_op_is_an_activation_trained_off_the_gui_thread_and_exported(qtbot, window):
    panel = window.workshop
    type_op(qtbot, panel, *SOFT)
    assert check_and_define(qtbot, panel).accepted
    click_tab(qtbot, window, window.training)
    training = window.training
    controller = training.controller
    network = training.network_panel
    network.activation.setCurrentIndex(network.activation.findData("soft"))  # the user's pick
    qtbot.waitUntil(lambda: controller.config.activation == "soft" and controller.settled, timeout=TIMEOUT)
    first = controller.last_metrics.train_loss
    controller.update_settings(steps=5)
    qtbot.mouseClick(training.training_panel.play_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: controller.last_metrics.step >= 5 and controller.settled, timeout=TIMEOUT)
    snap = controller.last_snapshot
    assert snap.error is None and controller.last_metrics.train_loss < first
    # the run's exports: the Python script defines the op (and shows its closure), PyTorch writes torch ops
    python = window.show_export("python").export.text
    assert "assert define(OpDefinition('soft', ('x',)" in python and "#         x.grad += " in python
    torch = window.show_export("torch").export.text
    assert "class Op_soft(nn.Module)" in torch and "torch.abs(x)" in torch
    window.export_dialog.close()


def test_the_real_training_process_trains_an_op_defined_after_it_started(qtbot, process_ws):
    controller = process_ws.controller
    pid = process_ws.controller._worker.pid
    assert define(OpDefinition(*SOFT[:1], ("x",), SOFT[2], (SOFT[3],))).accepted  # the signal tells the process
    network = process_ws.network_panel
    qtbot.waitUntil(lambda: network.activation.findData("soft") >= 0)
    network.activation.setCurrentIndex(network.activation.findData("soft"))
    qtbot.waitUntil(lambda: controller.config.activation == "soft" and controller.settled, timeout=TIMEOUT)
    assert controller.last_snapshot.error is None  # the process took the new network (it knows soft)
    assert controller._worker._config["activation"] == "soft"
    controller.update_settings(steps=3)
    controller.play()
    qtbot.waitUntil(lambda: controller.last_metrics.step >= 3 and controller.settled, timeout=TIMEOUT)
    assert controller.last_snapshot.error is None and controller._worker.pid == pid  # the same process, no crash


def test_ops_are_kept_in_a_session_file_and_come_back_when_it_opens(qtbot, window, tmp_path):
    panel = window.workshop
    type_op(qtbot, panel, *SOFT)
    assert check_and_define(qtbot, panel).accepted
    path = str(tmp_path / "ops.agp.json")
    assert window.save_session_to(path)
    saved = json.loads(open(path, encoding="utf-8").read())
    assert saved["custom_ops"] == [{"name": "soft", "inputs": ["x"], "value": SOFT[2], "derivatives": [SOFT[3]]}]
    qtbot.mouseClick(panel.remove_button, Qt.MouseButton.LeftButton)
    assert "soft" not in CUSTOM_OPS and panel.ops.count() == 0
    assert window.open_session(path)
    assert "soft" in CUSTOM_OPS and panel.ops.count() == 1
    assert window.training.network_panel.activation.findData("soft") >= 0


def gone(window):
    """Close ``window`` and delete it, as quitting the app does (it no longer follows the ops)."""
    window.close()
    window.deleteLater()
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)


def test_ops_come_back_after_a_restart_and_one_that_no_longer_checks_is_said(qtbot, tmp_path, in_process_training):
    settings = AppSettings(QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat))
    first = MainWindow(settings)  # (not handed to qtbot: this test deletes it, as quitting the app does)
    first.show()
    click_tab(qtbot, first, first.workshop)
    type_op(qtbot, first.workshop, *SOFT)
    assert check_and_define(qtbot, first.workshop).accepted
    gone(first)
    CUSTOM_OPS.clear()  # a new start of the app: no op defined
    again = MainWindow(settings)
    assert "soft" in CUSTOM_OPS and again.workshop.ops.count() == 1
    assert again.training.network_panel.activation.findData("soft") >= 0
    gone(again)
    # a stored definition that no longer checks (a settings file edited by hand): said, not used, no crash
    CUSTOM_OPS.clear()
    wrong = {"name": "soft", "inputs": ["x"], "value": SOFT[2], "derivatives": ["1 / (1 + abs(x))"]}
    settings.set(SETTINGS_KEY, json.dumps([wrong]))
    third = MainWindow(settings)
    qtbot.addWidget(third)
    assert "soft" not in CUSTOM_OPS and third.workshop.ops.count() == 0
    message = third.workshop.message.text()
    assert message.startswith("A saved op no longer checks and was left out: soft: at x = −3 your derivative")
    settings.set(SETTINGS_KEY, "{not json")
    fourth = MainWindow(settings)
    qtbot.addWidget(fourth)
    assert "not readable" in fourth.workshop.message.text()


def test_a_wrong_derivative_is_refused_with_its_worst_point_and_the_plot_marks_where(qtbot, window):
    panel = window.workshop
    type_op(qtbot, panel, "soft", "x", SOFT[2], "1 / (1 + abs(x))")
    result = check_and_define(qtbot, panel)
    assert not result.accepted and "soft" not in CUSTOM_OPS
    assert panel.message.text() == (
        "✗ Refused: at x = −3 your derivative gives 0.25, the slope is 0.0625 (it disagrees at 200 of 201 points)."
    )
    assert panel.marked is panel.derivatives[0] and panel.derivative_labels[0].property("textRole") == "error"
    assert panel.plot.worst_x == -3.0 and int(panel.plot.drawn["disagree"].sum()) == 200
    assert panel.refused_derivatives == 1
    # the range is the learner's: on [0.5, 2] the worst point (relative to the slope) is its end, 2
    set_spin(qtbot, panel.lo, 0.5)
    set_spin(qtbot, panel.hi, 2)
    result = check_and_define(qtbot, panel)
    assert result.worst["point"] == (2.0,) and panel.plot.worst_x == 2.0
    assert panel.message.text().startswith("✗ Refused: at x = 2 your derivative gives 0.333333, the slope is 0.111111")


def test_points_where_the_value_is_undefined_are_said_apart(qtbot, window):
    panel = window.workshop
    type_op(qtbot, panel, "root", "x", "sqrt(x)", "0.5 / sqrt(x)")
    result = check_and_define(qtbot, panel)
    assert result.accepted and "undefined (nan or inf) at 101 points (first at x = −3)" in panel.message.text()
    assert int(panel.plot.drawn["undefined"].sum()) == 101 and not panel.plot.drawn["disagree"].any()


def paste_into(qtbot, field, text):
    """Paste ``text`` (Ctrl+V), as a learner pasting a long text does."""
    QApplication.clipboard().setText(text)
    field.setFocus()
    field.selectAll()
    qtbot.keyClick(field, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)


HOSTILE = {
    "shadows an op": (("tanh", "x", "x", "1"), "name", "tanh"),
    "recursion": (("f", "x", "x * f(x)", "1"), "value", "calls f itself"),
    "never ends": (("deep", "x", "x", "(" * 60 + "x" + ")" * 60), "derivative x", "nested more than 40 levels"),
    "overflows everywhere": (("boom", "x", "x", "exp(1000 + x*x)"), "derivative x", "overflows (inf or nan)"),
}


@pytest.mark.parametrize("case", HOSTILE, ids=list(HOSTILE))
def test_a_hostile_definition_gets_one_clear_message_and_nothing_else_breaks(qtbot, window, case):
    typed, field, words = HOSTILE[case]
    panel = window.workshop
    type_op(qtbot, panel, *typed)
    result = check_and_define(qtbot, panel)
    assert not result.accepted and len(CUSTOM_OPS) == 0
    text = panel.message.text()
    assert text.startswith("✗ Refused: ") and words in text and text.count(".") <= 3 and len(text) < 200
    assert panel.marked is panel.field_widget(field)
    # nothing else broke: a correct op is still accepted, the expression area still works
    type_op(qtbot, panel, *SOFT)
    assert check_and_define(qtbot, panel).accepted
    click_tab(qtbot, window, window.expression)
    type_expression(qtbot, window.expression, "y = soft(x) * 2")
    assert window.expression.state.root is not None


def test_a_ten_thousand_character_name_is_refused_in_a_short_sentence(qtbot, window):
    panel = window.workshop
    type_op(qtbot, panel, "", "x", "x", "1")
    paste_into(qtbot, panel.name, "a" * 10_000)
    assert len(panel.name.text()) == 10_000
    check_and_define(qtbot, panel)
    assert panel.message.text() == (
        f"✗ Refused: the op's name is 10,000 characters long; a name is at most {NAME_LIMIT}"
    )
    assert panel.marked is panel.name and len(CUSTOM_OPS) == 0
    assert len(panel.code.toPlainText().splitlines()[0]) < 80  # the article's code shows the name cut short


def test_a_recursion_through_another_op_is_refused_and_the_old_op_stays(qtbot, window):
    panel = window.workshop
    type_op(qtbot, panel, "f", "x", "2*x", "2")
    assert check_and_define(qtbot, panel).accepted
    type_op(qtbot, panel, "g", "x", "f(x) + x", "3")
    assert check_and_define(qtbot, panel).accepted
    type_op(qtbot, panel, "f", "x", "g(x)", "3")
    assert not check_and_define(qtbot, panel).accepted
    assert panel.message.text() == "✗ Refused: the value calls g, which calls f: an op cannot call itself"
    assert CUSTOM_OPS.source("f").definition.value == "2*x" and panel.ops.count() == 2


def test_two_inputs_get_two_derivative_fields_and_a_slice_of_the_grid(qtbot, window):
    panel = window.workshop
    type_op(qtbot, panel, "blend", "x, y", "x*y + sin(x)", "y + cos(x)", "y")
    assert panel.derivatives[1].isVisible() and panel.derivative_labels[1].text() == "∂blend/∂y"
    result = check_and_define(qtbot, panel)
    assert not result.accepted and result.worst["input"] == "y"
    assert panel.marked is panel.derivatives[1] and panel.plot.drawn["input"] == "y"
    assert "your derivative for y gives" in panel.message.text()


# ------------------------------------------------------------------ lesson 9

LESSON = next(lesson for lesson in load_lessons()[0] if lesson.slug.startswith("09"))


@pytest.mark.first_start
def test_lesson_9_show_me_defines_breaks_uses_and_trains_the_op(qtbot, window):
    lessons = window.lessons
    lessons.start(LESSON)
    assert window.tabs.currentWidget() is window.workshop and window.workshop.refused_derivatives == 0
    assert lessons.task_marks() == [False] * len(LESSON.tasks)
    predict = next(i for i, task in enumerate(LESSON.tasks) if task.kind == "predict")
    task = LESSON.tasks[predict]
    for i in range(len(LESSON.tasks)):
        lessons.tasks.setCurrentRow(i)
        if i == predict:  # the guess typed into the guess box, Enter: checked against the truth its reveal shows
            lessons.predict.guess.setFocus()
            qtbot.keyClicks(lessons.predict.guess, "0.255")  # within the stated ±0.01 of 0.25
            qtbot.keyClick(lessons.predict.guess, Qt.Key.Key_Return)
            qtbot.waitUntil(lambda i=i: lessons.task_marks()[i], timeout=TIMEOUT)
            state = build_state(window)
            assert check_prediction(task, 0.25, state).correct
            assert not check_prediction(task, 0.5, state).correct  # the derivative without the square
            continue
        lessons.show_me_button.click()
        qtbot.waitUntil(lambda i=i: lessons.task_signs()[i] == "◌" and not lessons.revealing, timeout=TIMEOUT)
        window.training.controller.pause()
    assert window.workshop.refused_derivatives == 1 and window.training.controller.config.activation == "soft"
    lessons.leave()


def test_lesson_9s_setup_starts_afresh_so_nothing_is_ticked_by_an_op_defined_before(qtbot, window):
    type_op(qtbot, window.workshop, *SOFT)
    assert check_and_define(qtbot, window.workshop).accepted
    type_op(qtbot, window.workshop, "soft", "x", SOFT[2], "1")
    check_and_define(qtbot, window.workshop)
    assert window.workshop.refused_derivatives == 1
    window.lessons.start(LESSON)
    qtbot.wait(50)
    assert "soft" not in CUSTOM_OPS and window.workshop.refused_derivatives == 0
    assert window.lessons.task_marks() == [False] * len(LESSON.tasks)
    window.lessons.leave()
