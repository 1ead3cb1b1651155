"""Numbers on screen that must stay true, driven with real clicks and key presses: the derivative's name is the
output's, the lab's step view follows the function, the loss slice says what it plots, Reset leaves nothing behind,
and the dark theme's check boxes can be seen."""

import pytest
from expression_gui_helpers import type_expression
from PySide6.QtCore import Qt

from gui.expression.expression_panel import ExpressionPanel

pytestmark = [pytest.mark.qt_log_ignore("propagateSizeHints")]


@pytest.fixture
def panel(qtbot):
    widget = ExpressionPanel()
    widget.resize(1400, 850)
    qtbot.addWidget(widget)
    widget.show()
    yield widget
    widget.state.stop()


def test_the_derivative_is_named_after_the_output_not_an_intermediate_f(qtbot, panel):
    # f = a*b is the user's intermediate; backward runs from g = f*f + a.  At a = 2, b = −3 (the first defaults):
    # f = −6, g = 38, dg/da = 2·f·b + 1 = 37.
    type_expression(qtbot, panel, "f = a*b\ng = f*f + a")
    assert panel.state.evaluation.output.data == 38.0
    text = panel.maths.text.toPlainText()
    assert "g = (a·b)2 + a" in text  # the whole expression is g's formula (the 2 a superscript)
    assert "∂g\n∂a\n\n=\n2·(a·b)·b + 1" in text and "= 37 at the current values" in text
    assert "∂f\n∂a" not in text and "f = (a·b)" not in text
    # the graph choice names g too, and the derivative graph it shows is ∂g/∂a (Down: the next entry)
    combo = panel.maths.graph_combo
    assert [combo.itemText(i) for i in range(combo.count())] == ["g", "∂g/∂x", "∂²g/∂x²"]
    combo.setFocus()
    qtbot.keyClick(combo, Qt.Key.Key_Down)
    qtbot.waitUntil(lambda: not panel.view.busy, timeout=5000)
    assert panel.state.derivative == ("a", 1)
    assert panel.state.root.label == "∂g/∂a" and panel.state.root.data == 37.0
    # an unnamed last line is f again
    combo.setFocus()
    qtbot.keyClick(combo, Qt.Key.Key_Up)
    type_expression(qtbot, panel, "a*b")
    assert "∂f\n∂a" in panel.maths.text.toPlainText()
    assert combo.itemText(1) == "∂f/∂x"
