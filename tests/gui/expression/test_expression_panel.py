"""The expression playground driven as a user would: typing, values, Backward, stepping, errors."""

import math

import pytest
from expression_gui_helpers import type_expression
from PySide6.QtCore import Qt

from autograd_core import Tensor, gradcheck
from autograd_core.language.trace import backward_steps
from autograd_core.numbers import format_number
from gui.expression.expression_panel import ExpressionPanel

# Any Qt warning fails these tests (the offscreen platform's own notice aside).
pytestmark = [pytest.mark.qt_log_level_fail("WARNING"), pytest.mark.qt_log_ignore("propagateSizeHints")]


@pytest.fixture
def panel(expression_panel):
    expression_panel.resize(1300, 800)
    return expression_panel


def set_value(qtbot, panel, name, value):
    spin = panel.inputs.rows[name].spin
    spin.setFocus()
    spin.lineEdit().selectAll()
    qtbot.keyClicks(spin.lineEdit(), str(value))
    qtbot.keyClick(spin.lineEdit(), Qt.Key.Key_Return)


def shown(panel):
    """(title, value, grad) of every node box, by node id."""
    return {n: (item.title, item.value, item.grad) for n, item in panel.view.nodes.items()}


def item_named(panel, title):
    return next(item for item in panel.view.nodes.values() if item.title == title)


def test_typing_builds_the_graph_after_a_debounce(qtbot, panel):
    edit = panel.editor.edit
    edit.selectAll()
    qtbot.keyClick(edit, Qt.Key.Key_Delete)
    qtbot.keyClicks(edit, "h = a*b")
    assert panel.editor.pending  # not compiled on every key
    qtbot.keyClick(edit, Qt.Key.Key_Return)
    qtbot.keyClicks(edit, "h + c")
    qtbot.waitUntil(lambda: panel.state.text == "h = a*b\nh + c", timeout=3000)
    assert list(panel.inputs.rows) == ["a", "b", "c"]
    a, b, c = (panel.state.values[n] for n in "abc")
    # the engine, independently
    ta, tb, tc = Tensor(a), Tensor(b), Tensor(c)
    out = ta * tb + tc
    assert len(panel.view.nodes) == 5
    assert item_named(panel, "h = *").value == a * b
    root = max(panel.view.nodes)  # ids are topological: the output is last
    assert panel.view.nodes[root].value == out.data
    assert len(panel.view.edges) == 4


def test_editing_a_value_recomputes_at_once(qtbot, panel):
    type_expression(qtbot, panel, "y = a*b + c")
    set_value(qtbot, panel, "a", 1.5)
    assert panel.state.values["a"] == 1.5
    b, c = panel.state.values["b"], panel.state.values["c"]
    assert item_named(panel, "y = +").value == 1.5 * b + c
    # the slider follows the spin box
    row = panel.inputs.rows["a"]
    lo, hi = panel.state.ranges["a"]
    assert row.slider.value() == round((1.5 - lo) / (hi - lo) * 1000)
    # and the slider drives the value
    row.slider.setValue(1000)
    assert panel.state.values["a"] == hi
    assert item_named(panel, "y = +").value == hi * b + c


def test_backward_button_shows_the_engines_gradients(qtbot, panel):
    type_expression(qtbot, panel, "h = a*b + c\nout = tanh(h) * a")
    qtbot.mouseClick(panel.backward.backward_button, Qt.MouseButton.LeftButton)
    v = panel.state.values
    a, b, c = Tensor(v["a"]), Tensor(v["b"]), Tensor(v["c"])
    out = (a * b + c).tanh() * a
    out.backward()
    for name, leaf in zip("abc", (a, b, c)):
        assert panel.inputs.rows[name].grad.text() == f"grad {format_number(leaf.grad)}"
        assert item_named(panel, name).grad == leaf.grad
    assert item_named(panel, "out = *").grad == 1.0
    # pressing again accumulates into the leaves, like PyTorch; Zero grad resets
    qtbot.mouseClick(panel.backward.backward_button, Qt.MouseButton.LeftButton)
    assert item_named(panel, "a").grad == pytest.approx(2 * a.grad)
    qtbot.mouseClick(panel.backward.zero_button, Qt.MouseButton.LeftButton)
    assert all(item.grad == 0.0 for item in panel.view.nodes.values())


def test_stepping_through_the_whole_trace(qtbot, panel):
    type_expression(qtbot, panel, "h = a*b\ny = h*c + h.tanh()")
    state = panel.state
    steps = backward_steps(state.root)
    step_button = panel.backward.step_button
    taken = 0
    while step_button.isEnabled():
        qtbot.mouseClick(step_button, Qt.MouseButton.LeftButton)
        taken += 1
        # nodes not reached yet show no gradient; the current node is highlighted
        reached = {state.node_ids[s.node] for s in steps[:taken]}
        reached |= {state.node_ids[c.parent] for s in steps[:taken] for c in s.contributions}
        for node, item in panel.view.nodes.items():
            assert (item.grad is None) == (node not in reached)
        current = state.node_ids[steps[taken - 1].node]
        assert panel.view.nodes[current].highlighted and panel.view.nodes[current].current
        assert f"Step {taken} of {len(steps)}" in panel.backward.progress.text()
    assert taken == len(steps)
    # the ledger lists the trace's sentences, numbered by step, and h got two contributions
    sentences = panel.backward.sentences()
    assert sentences == [f"{k + 1}. {line}" for k, step in enumerate(steps) for line in step.sentences()]
    assert sum(1 for s in sentences if " += " in s) == sum(len(s.contributions) for s in steps)
    to_h = [s for s in sentences if "grad(h) +=" in s]
    assert len(to_h) == 2
    # the final gradients are the engine's own backward()
    v = state.values
    a, b, c = Tensor(v["a"]), Tensor(v["b"]), Tensor(v["c"])
    h = a * b
    y = h * c + h.tanh()
    y.backward()
    assert item_named(panel, "h = *").grad == h.grad
    for name, leaf in zip("abc", (a, b, c)):
        assert item_named(panel, name).grad == leaf.grad
    # Back undoes a step: the last-reached leaf loses its gradient again
    qtbot.mouseClick(panel.backward.back_button, Qt.MouseButton.LeftButton)
    assert state.position == len(steps) - 1
    assert len(panel.backward.sentences()) < len(sentences)


def test_x_plus_x_receives_two_contributions(qtbot, panel):
    example = next(e for e in panel.examples if e["name"].startswith("x + x"))
    panel.load_example(example)
    qtbot.waitUntil(lambda: not panel.view.busy)
    # one x node, two parallel edges into +
    assert sum(1 for item in panel.view.nodes.values() if item.title == "x") == 1
    assert len(panel.view.edges) == 2
    while panel.backward.step_button.isEnabled():
        qtbot.mouseClick(panel.backward.step_button, Qt.MouseButton.LeftButton)
    lines = [s for s in panel.backward.sentences() if "grad(x) +=" in s]
    assert len(lines) == 2
    assert lines[0].endswith("x.grad = 1.0") and lines[1].endswith("x.grad = 2.0")
    assert item_named(panel, "x").grad == 2.0


def test_play_animates_to_the_end(qtbot, panel):
    type_expression(qtbot, panel, "y = (a*b).relu() + b")
    panel.backward.speed.setValue(panel.backward.speed.maximum())
    qtbot.mouseClick(panel.backward.play_button, Qt.MouseButton.LeftButton)
    assert panel.backward.play_button.text() == "Pause"
    qtbot.waitUntil(lambda: not panel.state.playing, timeout=5000)
    assert panel.state.position == len(panel.state.steps)
    assert panel.backward.play_button.text() == "Play"


@pytest.mark.parametrize(
    ("text", "bad", "words"),
    [
        ("y = a * (b +", "(", "line 1"),  # unclosed bracket
        ("y = foo(a)", "foo", "foo"),  # unknown function
        ("y = a[0]", "a[0]", ""),  # subscripts are not in the language
        ("y = a +* b", "*", ""),
    ],
)
def test_parse_errors_underline_the_span_and_keep_the_last_graph(qtbot, panel, text, bad, words):
    type_expression(qtbot, panel, "y = a*b + c")
    before = shown(panel)
    edit = panel.editor.edit
    edit.selectAll()
    qtbot.keyClick(edit, Qt.Key.Key_Delete)
    qtbot.keyClicks(edit, text)
    qtbot.waitUntil(lambda: panel.state.error is not None, timeout=3000)
    err = panel.state.error
    label = panel.editor.error_label
    assert label.isVisible()
    assert err.message in label.text() and f"Line {err.line}, column {err.column}" in label.text()
    assert words.lower() in label.text().lower() or not words
    start, end = panel.editor.error_span()
    assert start == err.column - 1 and end >= start + 1
    assert end == max(err.end_column - 1, start + 1) or end <= len(text)
    # the last good graph stays on screen, dimmed
    assert shown(panel) == before
    assert panel.view.dimmed and panel.view.builder.root.opacity() < 0.5
    # fixing the text brings it back
    edit.selectAll()
    qtbot.keyClick(edit, Qt.Key.Key_Delete)
    qtbot.keyClicks(edit, "y = a*b")
    qtbot.waitUntil(lambda: panel.state.error is None, timeout=3000)
    assert not label.isVisible() and panel.editor.error_span() is None
    assert not panel.view.dimmed and panel.view.builder.root.opacity() == 1.0


def test_error_span_matches_the_library_position(qtbot, panel):
    type_expression(qtbot, panel, "y = a")
    edit = panel.editor.edit
    edit.selectAll()
    qtbot.keyClick(edit, Qt.Key.Key_Delete)
    qtbot.keyClicks(edit, "h = a*b")
    qtbot.keyClick(edit, Qt.Key.Key_Return)
    qtbot.keyClicks(edit, "y = h + lambda")
    qtbot.waitUntil(lambda: panel.state.error is not None, timeout=3000)
    err = panel.state.error
    assert err.line == 2
    start, end = panel.editor.error_span()
    block = edit.document().findBlockByNumber(1)
    assert start == block.position() + err.column - 1
    assert edit.toPlainText()[start:end].strip() != ""


def click(qtbot, button):
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def test_gradient_check_judges_only_the_gradient_on_screen(qtbot, panel):
    type_expression(qtbot, panel, "y = a*b + sin(c)")
    click(qtbot, panel.inputs.gradcheck)
    v = panel.state.values
    expected = gradcheck(lambda a, b, c: a * b + c.sin(), [v["a"], v["b"], v["c"]], names=["a", "b", "c"])
    rows = panel.inputs.rows
    # Before Backward the gradients shown are 0: numeric gradients, but nothing ticked.
    for result in expected:
        row = rows[result.name]
        assert row.numeric.isVisible() and row.numeric.text() == f"numeric {format_number(result.numeric)}"
        assert row.grad.text() == "grad 0"
        assert row.error.text() == "needs Backward" and "✓" not in row.error.text()
        assert row.verdict == "pending" and not row.mismatch
    # After Backward: the tick sits beside the very number shown, which is the engine's gradient.
    click(qtbot, panel.backward.backward_button)
    for result in expected:
        row = rows[result.name]
        assert row.grad.text() == f"grad {format_number(result.analytic)}"
        assert row.verdict == "ok" and row.error.text().endswith("✓")
        assert f"grad shown = {result.analytic!r}" in row.error.toolTip()
    # Backward again accumulates into the leaves: the grad shown is twice the numeric one, and the check says so.
    click(qtbot, panel.backward.backward_button)
    for result in expected:
        row = rows[result.name]
        assert row.grad.text() == f"grad {format_number(2 * result.analytic)}"
        assert row.error.text() == "✗ accumulated ×2" and row.verdict == "accumulated" and not row.mismatch
    # Zero grad: back to nothing to compare.
    click(qtbot, panel.backward.zero_button)
    assert all(row.verdict == "pending" for row in rows.values())
    # Stepping: compared only once the pass is complete; one step back and it waits again.
    click(qtbot, panel.backward.step_button)
    assert all(row.error.text() == "needs last step" for row in rows.values())
    while panel.backward.step_button.isEnabled():
        click(qtbot, panel.backward.step_button)
    assert all(row.verdict == "ok" for row in rows.values())
    click(qtbot, panel.backward.back_button)
    assert all(row.verdict == "pending" for row in rows.values())
    # relu at 0 has a kink: autograd says 0, central differences 0.5 -> flagged once Backward has run
    click(qtbot, panel.backward.zero_button)
    type_expression(qtbot, panel, "y = relu(x)")
    set_value(qtbot, panel, "x", 0)
    row = panel.inputs.rows["x"]
    assert row.verdict == "pending" and "numeric 0.5" in row.numeric.text()
    click(qtbot, panel.backward.backward_button)
    assert row.mismatch and row.error.text() == "rel 5.0e−01 ✗ mismatch" and row.grad.text() == "grad 0"
    # a gradient that is not finite cannot be checked: said so, not called a mismatch of "rel inf"
    type_expression(qtbot, panel, "y = log(x)")
    set_value(qtbot, panel, "x", -1)
    row = panel.inputs.rows["x"]
    assert row.verdict == "nonfinite" and row.error.text() == "✗ not finite" and not row.mismatch
    click(qtbot, panel.inputs.gradcheck)
    assert not row.numeric.isVisible() and not row.error.isVisible()


def test_non_finite_nodes_are_marked(qtbot, panel):
    example = next(e for e in panel.examples if "log of a negative" in e["name"])
    messages = []
    panel.status.connect(messages.append)
    panel.load_example(example)
    qtbot.waitUntil(lambda: not panel.view.busy)
    log_item = next(item for item in panel.view.nodes.values() if item.title == "log")
    assert log_item.non_finite and math.isnan(log_item.value)
    assert any("log(−1)" in m for m in messages)
    assert panel.state.non_finite[0].message.startswith("log(−1)")


@pytest.mark.parametrize(
    ("name", "output", "grads"),
    [
        ("micrograd test: sanity check", -20.0, {"x": 46.0}),
        ("micrograd test: more ops", 24.70408163265306, {"a": 138.83381924198252, "b": 645.5772594752186}),
        ("Neuron: tanh(w1*x1 + w2*x2 + b)", 0.7071067811865476, {"w1": 1.0, "x1": -1.5, "w2": 0.0, "x2": 0.5}),
    ],
)
def test_examples_match_published_values(qtbot, panel, name, output, grads):
    panel.load_example(next(e for e in panel.examples if e["name"] == name))
    panel.state.backward()
    assert panel.state.root.data == pytest.approx(output, rel=1e-9)
    for input_name, grad in grads.items():
        assert panel.state.input_grad(input_name) == pytest.approx(grad, rel=1e-6, abs=1e-9)


def test_every_example_compiles(qtbot, panel):
    for example in panel.examples:
        assert panel.state.load(example["text"], example.get("values")), example["name"]
        assert set(panel.state.inputs) <= set(example["values"])


def test_range_edit_refuses_an_empty_range(qtbot, panel):
    type_expression(qtbot, panel, "y = 2*a")
    row = panel.inputs.rows["a"]
    messages = []
    panel.status.connect(messages.append)
    row.high.setValue(-10)  # below the minimum
    assert panel.state.ranges["a"][1] > panel.state.ranges["a"][0]
    assert row.high.value() == panel.state.ranges["a"][1]
    assert any("minimum must be below the maximum" in m for m in messages)
    row.low.setValue(1.0)
    row.high.setValue(3.0)
    assert panel.state.ranges["a"] == (1.0, 3.0)
    assert 1.0 <= panel.state.values["a"] <= 3.0  # clamped into the new range


def test_an_empty_editor_gets_a_hint_not_an_error(qtbot, panel):
    messages = []
    panel.status.connect(messages.append)
    type_expression(qtbot, panel, "y = a*b")
    edit = panel.editor.edit
    for blank in ("", "   \n", "# only a comment"):
        edit.selectAll()
        qtbot.keyClick(edit, Qt.Key.Key_Delete)  # Qt warned "QTextCursor::setPosition: Position '1' out of range"
        qtbot.keyClicks(edit, blank.replace("\n", ""))
        qtbot.waitUntil(lambda: not panel.editor.pending, timeout=3000)
        assert panel.editor.hint_label.isVisible() and "Type an expression" in panel.editor.hint_label.text()
        assert not panel.editor.error_label.isVisible() and panel.editor.error_span() is None
        assert messages[-1].startswith("Type an expression") and not messages[-1].startswith("Line")
        assert panel.view.dimmed  # the last graph stays, faded: it is not the (empty) text's graph
    type_expression(qtbot, panel, "y = 2*a")
    assert not panel.editor.hint_label.isVisible() and not panel.view.dimmed
    # an error at the very end of the text is underlined inside the document, never past it
    type_expression(qtbot, panel, "y = (")
    start, end = panel.editor.error_span()
    assert 0 <= start < end <= len(edit.toPlainText())


@pytest.mark.parametrize("value", [5e9, -1e20, math.inf, math.nan])
def test_an_input_no_box_can_hold_is_shown_as_it_is(qtbot, panel, value):
    """A hand-edited session may bring any float: the row shows that number (never a clamped one) and keeps working."""
    panel.state.load("y = 2*a", {"a": value})
    row = panel.inputs.rows["a"]
    if abs(value) <= 1e15:
        assert row.spin.value() == value and row.spin.specialValueText() == ""
    else:
        assert row.spin.text() == format_number(value)
    assert 0 <= row.slider.value() <= 1000
    set_value(qtbot, panel, "a", 1.5)  # typing a number brings the row back to ordinary
    assert panel.state.values["a"] == 1.5 and row.spin.text() == "1.5" and panel.state.root.data == 3.0


def test_a_new_expression_reuses_the_input_rows_and_shows_only_its_own(qtbot, panel):
    from PySide6.QtWidgets import QDoubleSpinBox

    from gui.expression.inputs_panel import MAX_ROWS

    def evaluate(text):  # paste it and press Ctrl+Return
        panel.editor.edit.setPlainText(text)
        qtbot.keyClick(panel.editor.edit, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
        assert panel.state.text == text

    many = " + ".join(f"x{i}*w{i}" for i in range(1, 25))  # 48 inputs: the first 40 get a row
    evaluate("a*b + c")
    first = panel.inputs.rows["a"].spin
    for text, names in (("a*b + c", ["a", "b", "c"]), (many, None), ("p - q", ["p", "q"]), (many, None)):
        evaluate(text)
        names = names or panel.state.inputs[:MAX_ROWS]
        assert list(panel.inputs.rows) == names[: len(panel.inputs.rows)]  # new rows come a few per turn
        qtbot.waitUntil(lambda: panel.inputs.complete, timeout=5000)
        assert list(panel.inputs.rows) == names
        for name, row in panel.inputs.rows.items():
            assert row.spin.isVisible() and row.label.text() == f"<b>{name}</b>"
            assert row.spin.objectName() == f"value_{name}" and row.spin.value() == panel.state.values[name]
            assert row.grad.text() == f"grad {format_number(panel.state.input_grad(name))}"
        boxes = panel.inputs.findChildren(QDoubleSpinBox)
        assert len([b for b in boxes if b.isVisible()]) == 3 * len(names)  # value, minimum, maximum per row
        assert {b.objectName() for b in boxes if not b.isVisible()} <= {""}  # spare rows answer to no name
    assert "more are not listed" in panel.inputs.empty.text() and panel.inputs.empty.isVisible()
    assert len(panel.inputs.findChildren(QDoubleSpinBox)) == 3 * MAX_ROWS  # built once, then reused
    assert panel.inputs.rows["x1"].spin is first  # the first line's widgets, renamed
    set_value(qtbot, panel, "x3", 1.25)  # a renamed row drives its new input
    assert panel.state.values["x3"] == 1.25


def test_input_rows_are_built_a_few_per_turn_and_a_newer_program_wins(qtbot):
    from gui.expression.inputs_panel import MAX_ROWS, ROWS_PER_TURN

    panel = ExpressionPanel()
    qtbot.addWidget(panel)
    panel.show()
    many = " + ".join(f"u{i}*v{i}" for i in range(30))  # 60 inputs: the first 40 get a row
    panel.evaluate(many)
    assert 0 < len(panel.inputs.rows) <= ROWS_PER_TURN  # the first rows at once, the window answers meanwhile
    # a newer program while rows are still being built: only its own rows
    panel.evaluate("p*q + r")
    qtbot.wait(200)  # a late batch of rows for the earlier program would run meanwhile
    assert panel.inputs.complete and list(panel.inputs.rows) == ["p", "q", "r"]
    assert len([row for row in panel.inputs._lines if row.spin.isVisible()]) == 3
    # and every row, in the end, for a big one
    panel.evaluate(many)
    qtbot.waitUntil(lambda: panel.inputs.complete, timeout=5000)
    names = panel.state.inputs[:MAX_ROWS]
    assert list(panel.inputs.rows) == names and len(names) == MAX_ROWS
    for name, row in panel.inputs.rows.items():
        assert row.spin.isVisible() and row.spin.value() == panel.state.values[name]
        assert row.label.text() == f"<b>{name}</b>"


def test_a_typing_pause_compiles_once_then_draws_in_the_next_turn(qtbot, panel, monkeypatch):
    import gui.expression.text_preparer as text_preparer

    compiled = []
    original = text_preparer.compile_expression

    def counting(text, **kw):
        compiled.append(text)
        return original(text, **kw)

    monkeypatch.setattr(text_preparer, "compile_expression", counting)
    order = []
    panel.editor.text_ready.connect(lambda text: order.append(("ready", panel.state.text)))
    panel.editor.text_edited.connect(lambda text: order.append(("edited", text)))
    type_expression(qtbot, panel, "y = a*b + c")
    assert compiled == ["y = a*b + c"]  # compiled in the first turn; the second used it
    assert order[0] == ("ready", "") and order[1] == ("edited", "y = a*b + c")  # the graph came after
    assert panel.state.root.data == 2.0 * -3.0 + 10.0
    # Ctrl+Return between the two turns evaluates the text once, not twice
    compiled.clear()
    changes = []
    panel.state.changed.connect(changes.append)
    edit = panel.editor.edit
    panel.editor.text_ready.connect(
        lambda text: qtbot.keyClick(edit, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    )
    edit.selectAll()
    qtbot.keyClicks(edit, "y = a - b")
    qtbot.waitUntil(lambda: panel.state.text == "y = a - b" and not panel.editor.pending, timeout=3000)
    qtbot.wait(50)
    assert panel.state.root.data == 5.0
    assert len(changes) == 1 and compiled == ["y = a - b"]
