"""What the shipped lessons say is what the engine does: lesson 5's two naive sigmoids overflow where its
paragraph says they do (one keeps the right value with a nan gradient, the other loses the value too), and
the engine's own sigmoid has neither problem."""

import math

from autograd_core import Tensor
from autograd_core.lessons import load_lessons

LESSONS = {lesson.slug[:2]: lesson for lesson in load_lessons()[0]}


def naive(x: float, form: str) -> tuple[float, float]:
    t = Tensor(x, label="x")
    y = 1 / (1 + (-t).exp()) if form == "1/(1+e^-x)" else t.exp() / (1 + t.exp())
    y.backward()
    return y.data, t.grad


def test_the_naive_form_at_minus_800_keeps_its_value_and_gets_a_nan_grad():
    value, grad = naive(-800.0, "1/(1+e^-x)")
    assert value == 0 and math.isnan(grad)


def test_the_other_naive_form_at_800_loses_the_value_itself():
    value, _ = naive(800.0, "e^x/(1+e^x)")
    assert math.isnan(value)


def test_the_engines_sigmoid_is_finite_on_both_sides():
    for x, want in ((-800.0, 0.0), (800.0, 1.0)):
        t = Tensor(x)
        y = t.sigmoid()
        y.backward()
        assert y.data == want and t.grad == 0


def test_lesson_5_says_so_and_no_longer_says_one_form_never_overflows():
    text = LESSONS["05"].explanation
    assert "never overflows" not in text
    assert "**nan**" in text and "x = 800" in text and "−800" in text
    assert any("nan" in task.text and 'count("exp")' in task.condition for task in LESSONS["05"].tasks)


def test_lessons_1_to_6_each_ask_for_a_prediction():
    for key in ("01", "02", "03", "04", "05", "06"):
        assert any(task.kind == "predict" for task in LESSONS[key].tasks), key
