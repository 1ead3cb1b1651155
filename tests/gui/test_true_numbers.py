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


# ---------------------------------------------------------------- 2. the lab's step graph follows the function

LEFT = Qt.MouseButton.LeftButton


@pytest.fixture
def lab(qtbot):
    from gui.lab.optimizer_lab import OptimizerLabPanel

    widget = OptimizerLabPanel()
    qtbot.addWidget(widget)
    widget.resize(1400, 800)
    widget.show()
    qtbot.waitExposed(widget)
    yield widget
    widget.lab.pause()


def open_a_step(qtbot, lab, start):
    """Race Adam alone from ``start`` (a click on the map), pause, 10 Steps, click its 5th path point."""
    import numpy as np

    for r, row in enumerate(lab.lab.rows):
        want = Qt.CheckState.Checked if row.kind == "adam" else Qt.CheckState.Unchecked
        if lab.table.item(r, 0).checkState() != want:
            lab.table.item(r, 0).setCheckState(want)
    qtbot.mouseClick(lab.plot.viewport(), LEFT, pos=lab.to_view(*start))
    if lab.lab.playing:
        qtbot.mouseClick(lab.play_button, LEFT)  # pause
    for _ in range(10):
        qtbot.mouseClick(lab.step_button, LEFT)
    racer = lab.lab.race.racers[0]
    pixels = np.array([[lab.to_view(x, y).x(), lab.to_view(x, y).y()] for x, y in zip(racer.path_x, racer.path_y)])
    gaps = [min(np.hypot(*(pixels[k] - pixels[j])) for j in range(len(pixels)) if j != k) for k in range(len(pixels))]
    k = int(np.argmax(gaps[1:])) + 1  # a point far from its neighbors, so the click picks it alone
    qtbot.mouseClick(lab.plot.viewport(), LEFT, pos=lab.to_view(racer.path_x[k], racer.path_y[k]))
    assert lab.selected == (0, k)
    qtbot.waitUntil(lambda: bool(lab.view.nodes), timeout=10_000)
    return racer, k


def test_switching_the_function_does_not_leave_the_old_functions_step_graph(qtbot, lab):
    assert lab.lab.preset == "Rosenbrock"
    racer, k = open_a_step(qtbot, lab, (-1.0, 2.0))
    x, y = racer.path_x[k], racer.path_y[k]
    assert lab.step_state.root.data == pytest.approx((1 - x) ** 2 + 100 * (y - x**2) ** 2, rel=1e-12)
    assert "Step" in lab.step_caption.text()
    # Saddle, chosen from the function list with the keyboard
    lab.preset_combo.setFocus()
    qtbot.keyClicks(lab.preset_combo, "Saddle")
    assert lab.lab.preset == "Saddle" and lab.lab.race is None
    # no race, so no step: the view is blank and says how to get one (it showed Rosenbrock's graph and numbers)
    assert lab.step_state.root is None and lab.selected is None
    assert not lab.view.nodes
    assert lab.step_caption.text() == "Click a point of a path to see the graph of that step, with its gradient."
    # a race on Saddle: its step graph is Saddle's f at that point
    racer, k = open_a_step(qtbot, lab, (-2.0, 0.5))
    x, y = racer.path_x[k], racer.path_y[k]
    assert lab.step_state.root.data == pytest.approx(x**2 - y**2 + 0.1 * y**4, rel=1e-12)
    assert lab.step_state.root.data == racer.losses[k]
