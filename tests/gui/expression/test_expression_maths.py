"""The expression tab's maths driven as a user would: mode toggle, forward stepping,
cost counter, derivative graphs, the chain rule along a clicked path and the symbolic derivative."""

import math
import unicodedata

import pytest
from PySide6.QtCore import QPoint, QSettings, Qt
from PySide6.QtWidgets import QApplication

from autograd_core.language.expression import compile_expression
from gui.shell.main_window import MainWindow
from gui.shell.settings import AppSettings
from tests.expression_gui_helpers import LAYOUT_WAIT_MS

pytestmark = [pytest.mark.qt_log_level_fail("WARNING"), pytest.mark.qt_log_ignore("propagateSizeHints")]


@pytest.fixture
def panel(expression_panel):
    return expression_panel


def load(qtbot, panel, text, values):
    panel.state.load(text, values)
    qtbot.waitUntil(lambda: not panel.view.busy, timeout=LAYOUT_WAIT_MS)


def nfc(text):
    return unicodedata.normalize("NFC", text)


def ledger(panel):
    return [nfc(line) for line in panel.backward.sentences()]


def box(panel, title):
    return next(item for item in panel.view.nodes.values() if item.title == title)


def test_forward_mode_steps_tangents_with_their_own_ledger(qtbot, panel):
    # h = a*b, out = h + c at a = 2, b = −3, c = 10; seed a: ȧ = 1, ḃ = ċ = 0, ḣ = b·ȧ + a·ḃ = −3, (out)˙ = −3
    load(qtbot, panel, "h = a*b\nout = h + c", {"a": 2.0, "b": -3.0, "c": 10.0})
    assert panel.mode.reverse_button.isChecked()
    qtbot.mouseClick(panel.mode.forward_button, Qt.MouseButton.LeftButton)
    assert panel.state.direction == "forward" and panel.backward.backward_button.text() == "Run forward"
    assert panel.mode.seed_combo.currentData() == "a"
    assert all(item.grad is None for item in panel.view.nodes.values())  # no tangent computed yet
    for _ in range(3):
        qtbot.mouseClick(panel.backward.step_button, Qt.MouseButton.LeftButton)
    lines = ledger(panel)
    assert lines[0] == nfc("1. ȧ = 1.0: a is a leaf (input), its tangent is chosen")
    assert lines[1] == nfc("2. ḃ = 0.0: b is a leaf (input), its tangent is chosen")
    assert lines[2] == nfc("3. ḣ = ∂h/∂a · ȧ + ∂h/∂b · ḃ = b · 1.0 + a · 0.0 = −3.0 · 1.0 + 2.0 · 0.0 = −3.0")
    # the graph shows tangents, the current node highlighted with its operands
    h = box(panel, "h = *")
    assert h.grad == -3.0 and h.current and box(panel, "a").highlighted
    assert panel.state.snapshot.grad_name == "tangent"
    assert panel.inputs.rows["a"].grad.text() == "tangent 1"
    assert panel.backward.progress.text() == "Forward step 3 of 5: node h"
    assert not panel.mode.agreement.isVisible()  # not finished: nothing to compare yet
    qtbot.mouseClick(panel.backward.back_button, Qt.MouseButton.LeftButton)
    assert len(ledger(panel)) == 2 and box(panel, "h = *").grad is None
    qtbot.mouseClick(panel.backward.backward_button, Qt.MouseButton.LeftButton)  # "Run forward": every tangent
    assert len(ledger(panel)) == 5 and box(panel, "out = +").grad == -3.0
    assert panel.mode.agreement.text().startswith("forward (jvp): −3 · reverse: ∂/∂a = −3")
    assert "agree" in panel.mode.agreement.text()
    # seed b instead: ḃ = 1, (out)˙ = a = 2
    panel.mode.seed_combo.setCurrentIndex(1)
    panel.mode.seed_combo.activated.emit(1)
    assert panel.state.seed == "b" and ledger(panel) == []
    qtbot.mouseClick(panel.backward.backward_button, Qt.MouseButton.LeftButton)
    assert box(panel, "out = +").grad == 2.0 and "∂/∂b = 2" in panel.mode.agreement.text()
    # back to reverse mode: the backward ledger and gradients again
    qtbot.mouseClick(panel.mode.reverse_button, Qt.MouseButton.LeftButton)
    assert panel.backward.backward_button.text() == "Backward" and ledger(panel) == []
    qtbot.mouseClick(panel.backward.backward_button, Qt.MouseButton.LeftButton)
    assert box(panel, "a").grad == -3.0 and panel.state.snapshot.grad_name == "grad"
    assert panel.inputs.rows["a"].grad.text() == "grad −3"


def test_forward_mode_agrees_with_reverse_on_a_bigger_expression(qtbot, panel):
    load(qtbot, panel, "z = w1*x1 + w2*x2 + b\ny = tanh(z) * sigmoid(x1) + log(1 + exp(-z))",
         {"w1": 0.3, "x1": -1.2, "w2": 0.8, "x2": 0.5, "b": 0.1})  # fmt: skip
    panel.mode.forward_button.click()
    # the seeds read as tangents: "b" takes a combining dot (ḃ); "w1" a spacing one after brackets, as a
    # combining dot after a digit was not drawn and "w1 = 1" read as a value
    seeds = [panel.mode.seed_combo.itemText(i) for i in range(panel.mode.seed_combo.count())]
    assert "(w1)\u02d9 = 1" in seeds and "b\u0307 = 1" in seeds, seeds
    panel.state.set_seed("x1")
    panel.state.backward()
    jvp = panel.state.forward_trace[-1].tangent
    panel.mode.reverse_button.click()
    panel.state.backward()
    assert jvp == pytest.approx(panel.state.input_grad("x1"), rel=1e-12, abs=1e-15)


def test_the_keys_and_the_menu_drive_forward_mode(qtbot, tmp_path):
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(tmp_path / "qsettings"))
    window = MainWindow(AppSettings(QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)))
    qtbot.addWidget(window)
    window.show()
    qtbot.waitUntil(lambda: not window.expression.view.busy)
    window.activateWindow()  # window shortcuts need the window to be the active one
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window)
    state = window.expression.state
    state.load("h = a*b\nout = h + c", {"a": 2.0, "b": -3.0, "c": 10.0})
    qtbot.keyClick(window, Qt.Key.Key_F8)
    assert state.direction == "forward" and window.menus.forward_action.isChecked()
    assert window.expression.mode.forward_button.isChecked()
    qtbot.keyClick(window, Qt.Key.Key_F6)
    qtbot.keyClick(window, Qt.Key.Key_F6)
    assert state.forward_position == 2
    qtbot.keyClick(window, Qt.Key.Key_F6, Qt.KeyboardModifier.ShiftModifier)
    assert state.forward_position == 1
    qtbot.keyClick(window, Qt.Key.Key_F5)
    assert state.forward_done and state.forward_trace[-1].tangent == -3.0
    qtbot.keyClick(window, Qt.Key.Key_F8)
    assert state.direction == "reverse" and window.expression.mode.reverse_button.isChecked()
    state.stop()


def test_cost_counter_for_three_inputs_updates_on_edit(qtbot, panel):
    load(qtbot, panel, "h = a*b\nout = h + c", {"a": 2.0, "b": -3.0, "c": 10.0})
    assert panel.mode.cost.text() == ("forward mode: 3 passes (one per input) · reverse mode: 1 pass (one per output)")
    panel.editor.set_text("x * 2")
    panel.evaluate("x * 2")
    assert panel.mode.cost.text() == "forward mode: 1 pass (one per input) · reverse mode: 1 pass (one per output)"


def finite_difference(program, values, name, order, h=1e-4):
    def f(x):
        return program.evaluate({**values, name: x}).output.data

    x = values[name]
    if order == 1:
        return (f(x + h) - f(x - h)) / (2 * h)
    return (f(x + h) - 2 * f(x) + f(x - h)) / (h * h)


@pytest.mark.parametrize("order", [1, 2])
def test_derivative_graphs_match_finite_differences(qtbot, panel, order):
    text = "z = w*x + b\nout = tanh(z) * x + exp(-x*x)"
    values = {"w": 0.7, "x": -0.4, "b": 0.2}
    load(qtbot, panel, text, values)
    plain_nodes = len(panel.view.nodes)
    combo, inputs = panel.maths.graph_combo, panel.maths.input_combo
    inputs.setCurrentIndex(inputs.findData("x"))
    inputs.activated.emit(inputs.currentIndex())
    combo.setCurrentIndex(order)
    combo.activated.emit(order)
    qtbot.waitUntil(lambda: not panel.view.busy, timeout=LAYOUT_WAIT_MS)
    title = "∂out/∂x" if order == 1 else "∂²out/∂x²"  # named after the output backward runs from
    root = panel.state.root
    assert root.label == title and panel.state.derivative == ("x", order)
    root_box = next(item for item in panel.view.nodes.values() if item.title.startswith(title))
    expected = finite_difference(compile_expression(text), values, "x", order)
    assert root_box.value == pytest.approx(expected, rel=1e-6, abs=1e-6)
    assert len(panel.view.nodes) > plain_nodes  # the derivative is a graph of its own, bigger than the expression
    # a new value: the derivative graph is rebuilt at the new point
    panel.state.set_value("x", 0.9)
    qtbot.waitUntil(lambda: not panel.view.busy, timeout=LAYOUT_WAIT_MS)
    expected = finite_difference(compile_expression(text), {**values, "x": 0.9}, "x", order)
    assert panel.state.root.data == pytest.approx(expected, rel=1e-6, abs=1e-6)
    # the gradient check does not judge a derivative graph's gradients against the expression's
    assert not panel.state.plain_reverse
    combo.setCurrentIndex(0)
    combo.activated.emit(0)
    qtbot.waitUntil(lambda: not panel.view.busy, timeout=LAYOUT_WAIT_MS)
    assert panel.state.derivative is None and len(panel.view.nodes) == plain_nodes


def test_derivative_of_a_non_finite_expression_says_so_and_does_not_crash(qtbot, panel):
    messages = []
    panel.state.message.connect(messages.append)
    load(qtbot, panel, "u = x - 3\ny = log(u) * x", {"x": 1.0})  # log of a negative number: nan
    panel.state.set_derivative("x", 1)
    qtbot.waitUntil(lambda: not panel.view.busy, timeout=LAYOUT_WAIT_MS)
    assert math.isnan(panel.state.root.data)
    assert any(m.startswith("Not finite") for m in messages)
    assert "Symbolic derivative" in panel.maths.text.toPlainText()
    # a derivative with respect to an input the output does not use is the constant 0, with a message
    load(qtbot, panel, "y = 2 * a + 0 * b", {"a": 1.0, "b": 2.0})
    panel.state.set_derivative("b", 2)
    qtbot.waitUntil(lambda: not panel.view.busy, timeout=LAYOUT_WAIT_MS)
    assert panel.state.root.data == 0.0
    panel.state.set_derivative("nope", 1)
    assert messages[-1].startswith("No derivative graph for 'nope'")


def click_node(qtbot, panel, title):
    item = box(panel, title)
    pos = panel.view.mapFromScene(item.scenePos())
    qtbot.mouseClick(panel.view.viewport(), Qt.MouseButton.LeftButton, pos=pos)


def test_clicking_a_node_writes_its_formula_and_the_chain_rule_path(qtbot, panel):
    load(qtbot, panel, "h = a*b\nout = tanh(h + c)", {"a": 0.5, "b": -1.0, "c": 0.3})
    click_node(qtbot, panel, "a")
    assert panel.state.selected == panel.state.node_ids[panel.state.evaluation.inputs["a"]]
    text = panel.maths.text.toPlainText()
    # ∂out/∂a = ∂out/∂(h+c) · ∂(h+c)/∂h · ∂h/∂a = (1 − tanh²(−0.2)) · 1 · b
    t = math.tanh(0.5 * -1.0 + 0.3)
    expected = (1 - t * t) * -1.0
    assert "Chain rule along the path" in text and "a → h → h + c → out" in text
    assert f"{expected:.6g}".replace("-", "−") in text
    assert "The only path, so this product is the gradient" in text
    path = panel.state.selected_path()
    assert path.product == pytest.approx(expected, rel=1e-12) and path.count == 1
    # the path is highlighted in the graph
    assert box(panel, "a").highlighted and box(panel, "out = tanh").highlighted
    assert not box(panel, "b").highlighted
    # an op node: its formula and local derivatives
    click_node(qtbot, panel, "h = *")
    text = panel.maths.text.toPlainText()
    assert "h = a·b = −0.5" in text
    # the symbolic derivative of the whole expression
    assert "(1 − tanh(a·b + c)2)·b" in text  # the 2 is a superscript in the rich text
    assert "<sup>2</sup>" in panel.maths.html()
    # clicking empty space clears the selection
    rect = panel.view.viewport().rect()
    empty = next(
        QPoint(x, y)
        for x in range(5, rect.width(), 20)
        for y in range(5, rect.height(), 20)
        if panel.view.itemAt(QPoint(x, y)) is None
    )
    qtbot.mouseClick(panel.view.viewport(), Qt.MouseButton.LeftButton, pos=empty)
    assert panel.state.selected is None


def test_a_node_reached_by_two_paths_says_that_the_paths_add_up(qtbot, panel):
    load(qtbot, panel, "y = x * x", {"x": 3.0})
    click_node(qtbot, panel, "x")
    text = panel.maths.text.toPlainText()
    assert "2 paths lead from x to y; this one carries 3" in text
    assert "∂y/∂x = 6" in text


def test_play_animates_forward_mode_to_the_end(qtbot, panel):
    load(qtbot, panel, "h = a*b\nout = h + c", {"a": 2.0, "b": -3.0, "c": 10.0})
    panel.mode.forward_button.click()
    panel.backward.speed.setValue(panel.backward.speed.maximum())
    qtbot.mouseClick(panel.backward.play_button, Qt.MouseButton.LeftButton)
    assert panel.backward.play_button.text() == "Pause"
    qtbot.waitUntil(lambda: panel.state.forward_done and not panel.state.playing, timeout=3000)
    assert len(ledger(panel)) == 5 and panel.backward.play_button.text() == "Play"
    assert box(panel, "out = +").grad == -3.0


def test_the_symbolic_text_follows_a_value_at_once_and_big_expressions_skip_it(qtbot, panel):
    load(qtbot, panel, "y = x * x", {"x": 3.0})
    assert "= 6 at the current values" in panel.maths.text.toPlainText()
    panel.state.set_value("x", 4.0)  # a slider step: the text never shows the value of an earlier point
    assert "= 8 at the current values" in panel.maths.text.toPlainText()
    big = " + ".join(f"x{i}*x{i}" for i in range(1, 160))  # ~480 nodes
    load(qtbot, panel, big + " + y*y*y", {})
    assert panel.state.program.node_count > 400
    assert "Shown for expressions of up to 400 nodes" in panel.maths.text.toPlainText()
