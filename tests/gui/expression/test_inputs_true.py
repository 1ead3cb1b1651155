"""Every input row shows the value the graph computes with: a new expression whose inputs start like
the old ones keeps those rows, and they must show the new values, not the old ones."""

from gui.expression.expression_panel import ExpressionPanel
from gui.expression.inputs_panel import slider_position


def test_rows_kept_for_a_new_expression_show_its_values_not_the_old_ones(qtbot):
    panel = ExpressionPanel()
    qtbot.addWidget(panel)
    panel.show()
    panel.state.load("x * 2", {"x": 2.0})
    qtbot.waitUntil(lambda: panel.inputs.complete)
    assert panel.inputs.rows["x"].spin.value() == 2.0
    example = next(e for e in panel.examples if e["name"] == "Not finite: division by zero")
    panel.load_example(example)  # inputs x, y: x's row is kept
    qtbot.waitUntil(lambda: panel.inputs.complete)
    for name in ("x", "y"):
        row = panel.inputs.rows[name]
        assert panel.state.values[name] == 1.0
        assert row.spin.value() == 1.0, name
        lo, hi = panel.state.ranges[name]
        assert row.slider.value() == slider_position(1.0, lo, hi)
    panel.state.stop()
