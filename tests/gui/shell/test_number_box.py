"""Number boxes read numbers as people type them and keep them whole.

Found by the GUI monkey: typing "1e-320" into an input's box gave 1320 (Qt's spin box dropped the e and the
minus).  So a learning rate typed as 1e-3 became 13, and a value of 1e-5 was stored as 0."""

import math

import pytest
from PySide6.QtCore import Qt

from autograd_core.numbers import format_number, parse_number
from gui.shell.number_box import NumberBox, WholeNumberBox
from tests.training_gui_helpers import set_spin, settle, small_workspace


@pytest.fixture
def box(qtbot):
    widget = NumberBox(-1e15, 1e15, digits=6)
    qtbot.addWidget(widget)
    widget.show()
    return widget


def test_parse_number_reads_what_people_write():
    assert parse_number("1e-3") == 0.001 and parse_number(" −2.5 ") == -2.5 and parse_number("+.5E+2") == 50.0
    assert parse_number("1e-320") == 1e-320  # a subnormal, kept
    assert parse_number("0,5") == 0.5  # a decimal comma, as typed in much of Europe
    for bad in ("", "-", "1e", "e3", "1.2.3", "abc", "nan", "inf", "-inf", "1,5,0", "1_000"):
        assert parse_number(bad) is None, bad


@pytest.mark.parametrize(
    "typed, value",
    [("1e-3", 0.001), ("1e-320", 1e-320), ("-2", -2.0), ("0.123456789", 0.123456789), ("3E2", 300.0)],
)
def test_a_typed_number_is_the_value_exactly(qtbot, box, typed, value):
    box.setValue(7.0)
    set_spin(qtbot, box, typed)
    assert box.value() == value
    assert box.text() == format_number(value, 6)  # written as every other view writes it


def test_a_pasted_number_with_the_true_minus_sign_is_read(qtbot, box):
    """The app writes −2 with U+2212; copied from a graph box or the ledger and pasted back, it reads as −2."""
    box.lineEdit().selectAll()
    box.lineEdit().insert(format_number(-2.5))  # (QTest cannot type U+2212 as a key)
    qtbot.keyClick(box.lineEdit(), Qt.Key.Key_Return)
    assert box.value() == -2.5


def test_keys_that_make_no_number_are_refused_not_turned_into_another_number(qtbot, box):
    box.setValue(7.0)
    set_spin(qtbot, box, "1x2")  # the x is refused: what is left is 12, as typed
    assert box.value() == 12.0
    set_spin(qtbot, box, "1e")  # an unfinished number: Enter keeps the value it had
    assert box.value() == 12.0


def test_a_number_out_of_range_becomes_the_nearest_allowed(qtbot):
    box = NumberBox(0.0001, 1000.0, digits=4)
    qtbot.addWidget(box)
    box.show()
    box.setValue(0.01)
    set_spin(qtbot, box, "1e-7")
    assert box.value() == 0.0001 and box.text() == "0.0001"
    set_spin(qtbot, box, "5e9")
    assert box.value() == 1000.0


def test_the_arrows_step_to_round_numbers_with_one_signal(qtbot, box):
    changes = []
    box.valueChanged.connect(changes.append)
    box.setSingleStep(0.1)
    box.setValue(0.0)
    changes.clear()
    box.setFocus()
    for _ in range(3):
        qtbot.keyClick(box, Qt.Key.Key_Up)
    assert box.value() == 0.3 and box.text() == "0.3"  # not 0.30000000000000004
    assert changes == [0.1, 0.2, 0.3]


def test_an_input_keeps_a_tiny_value_and_the_graph_uses_it(qtbot):
    from gui.expression.expression_panel import ExpressionPanel

    panel = ExpressionPanel()
    qtbot.addWidget(panel)
    panel.show()
    panel.state.load("y = a*b", {"a": 2.0, "b": 3.0})
    row = panel.inputs.rows["a"]
    set_spin(qtbot, row.spin, "1e-5")
    assert panel.state.values["a"] == 1e-5 and math.isclose(panel.state.root.data, 3e-5)
    assert row.spin.text() == format_number(1e-5, 6)  # "1e−05", not "0.0000"


def test_a_learning_rate_typed_as_1e_3_trains_at_1e_3(qtbot):
    ws = small_workspace(qtbot, samples=40, layers=[4], steps=3, lr=0.1)
    set_spin(qtbot, ws.training_panel.lr, "1e-3")
    assert ws.controller.config.lr == 0.001
    settle(qtbot, ws)
    assert ws.training_panel.lr.text() == "0.001"


@pytest.mark.parametrize("typed, value", [("3.5", 4), ("3.4", 3), ("1e1", 10), ("7", 7), ("99999", 64), ("0", 1)])
def test_a_whole_number_box_rounds_a_typed_number_instead_of_dropping_its_point(qtbot, typed, value):
    """Typing 3.5 neurons gave 35 (the point was dropped); now the nearest allowed whole number."""
    box = WholeNumberBox(1, 64)
    box.setSuffix(" neurons")
    qtbot.addWidget(box)
    box.show()
    box.setValue(16)
    set_spin(qtbot, box, typed)
    assert box.value() == value and box.text() == f"{value} neurons"


def test_a_hidden_layer_typed_as_3_point_5_neurons_gets_4(qtbot):
    ws = small_workspace(qtbot, samples=40, layers=[16], steps=3)
    spin = ws.network_panel.layer_spins[0]
    set_spin(qtbot, spin, "3.5")
    qtbot.waitUntil(lambda: ws.controller.config.layers == [4], timeout=5000)


@pytest.mark.parametrize("value", [-0.000123456789, -9.87654321e14, 123456.789, -5.0])
def test_an_input_box_shows_its_longest_number_whole(qtbot, value):
    from PySide6.QtGui import QFontMetricsF

    from gui.expression.expression_panel import ExpressionPanel

    panel = ExpressionPanel()
    qtbot.addWidget(panel)
    panel.resize(1024, 700)
    panel.show()
    panel.state.load("y = 2*a", {"a": value})
    spin = panel.inputs.rows["a"].spin
    qtbot.waitUntil(lambda: spin.text() == format_number(value, 6))
    edit = spin.lineEdit()
    assert QFontMetricsF(edit.font()).horizontalAdvance(spin.text()) <= edit.contentsRect().width(), spin.text()


# ---- found by a review of the boxes: each one a way a value changed that nobody asked for


@pytest.fixture
def two_boxes(qtbot):
    """A box and a second widget to move the focus to, as in a window."""
    from PySide6.QtWidgets import QLineEdit, QVBoxLayout, QWidget

    top = QWidget()
    layout = QVBoxLayout(top)
    box = NumberBox(-1e15, 1e15, digits=6)
    layout.addWidget(box)
    layout.addWidget(QLineEdit())
    qtbot.addWidget(top)
    top.show()
    box.window_kept = top  # (the box lives as long as its window)
    return box


def test_enter_in_a_box_nobody_edited_keeps_every_digit(qtbot, two_boxes):
    box = two_boxes
    box.setValue(1.23456789)
    changes = []
    box.valueChanged.connect(changes.append)
    box.setFocus()
    qtbot.keyClick(box.lineEdit(), Qt.Key.Key_Return)  # the box shows 1.23457; its value stays 1.23456789
    assert box.text() == "1.23457" and box.value() == 1.23456789 and changes == []


def test_enter_on_an_input_no_box_can_hold_keeps_it(qtbot):
    from gui.expression.expression_panel import ExpressionPanel

    panel = ExpressionPanel()
    qtbot.addWidget(panel)
    panel.show()
    panel.state.load("y = x*x", {"x": 1e300})
    row = panel.inputs.rows["x"]
    row.spin.setFocus()
    qtbot.keyClick(row.spin.lineEdit(), Qt.Key.Key_Return)
    assert panel.state.values["x"] == 1e300  # not clamped to 1e15


@pytest.mark.parametrize("typed, value", [("10,000", 10_000), ("1,500", 1500), ("12 neurons", 12), ("3.5 neurons", 4)])
def test_a_whole_number_box_reads_thousands_and_a_typed_unit(qtbot, typed, value):
    from PySide6.QtWidgets import QLineEdit, QVBoxLayout, QWidget

    top = QWidget()
    layout = QVBoxLayout(top)
    box = WholeNumberBox(1, 100_000)
    box.setSuffix(" neurons")
    layout.addWidget(box)
    layout.addWidget(QLineEdit())
    qtbot.addWidget(top)
    top.show()
    box.setValue(10)
    set_spin(qtbot, box, typed)
    assert box.value() == value


def test_a_number_with_thousands_and_decimals_is_read_whole(qtbot, two_boxes):
    set_spin(qtbot, two_boxes, "1,000.5")
    assert two_boxes.value() == 1000.5


def test_the_adaptive_arrows_reach_zero_and_leave_it_in_usable_steps(qtbot):
    box = NumberBox(0.0, 10.0, digits=4)
    box.setStepType(box.StepType.AdaptiveDecimalStepType)
    qtbot.addWidget(box)
    box.show()
    box.setFocus()
    box.setValue(0.0)
    qtbot.keyClick(box, Qt.Key.Key_Up)
    assert box.value() == 1e-5  # not 1e-323
    box.setValue(0.003)
    for _ in range(400):
        qtbot.keyClick(box, Qt.Key.Key_Down)
        if box.value() == 0.0:
            break
    assert box.value() == 0.0
    box.setValue(1.0)
    qtbot.keyClick(box, Qt.Key.Key_Down)
    assert box.value() == 0.99  # as Qt's own adaptive step


def test_the_arrows_step_a_large_value(qtbot, two_boxes):
    two_boxes.setSingleStep(0.1)
    two_boxes.setValue(1e12)
    two_boxes.setFocus()
    qtbot.keyClick(two_boxes, Qt.Key.Key_Up)
    assert two_boxes.value() == 1e12 + 0.1
