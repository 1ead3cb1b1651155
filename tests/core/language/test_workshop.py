"""The op workshop: a learner's op checked against finite differences and the symbolic derivative, refused in one
sentence when hostile or wrong, and first-class once checked (expressions, ledger, higher order, forward mode,
networks, sessions, exports)."""

from __future__ import annotations

import ast
import math
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from autograd_core.engine.custom_ops import CUSTOM_OPS
from autograd_core.engine.forward import Dual, jvp
from autograd_core.engine.functional import grad, hessian
from autograd_core.engine.tensor import Tensor
from autograd_core.export.custom_op import python_closure, torch_expression, torch_function
from autograd_core.language.expression import ExpressionError, compile_expression
from autograd_core.language.trace import backward_steps
from autograd_core.language.workshop import (
    OpDefinition,
    check_definition,
    define,
    definitions,
    load_definitions,
    save_definitions,
    undefine,
)
from autograd_core.language.workshop_definition import COST_LIMIT, NAME_LIMIT, WorkshopError
from autograd_core.learn.nn import MLP, activation_names
from autograd_core.learn.training import Trainer, TrainingConfig

ROOT = Path(__file__).resolve().parents[3]
SOFTSIGN = OpDefinition("soft", ("x",), "x / (1 + abs(x))", ("1 / (1 + abs(x))**2",))


@pytest.fixture(autouse=True)
def _fresh_registry():
    CUSTOM_OPS.clear()
    yield
    CUSTOM_OPS.clear()


def hand_softsign_slope(x):
    return 1.0 / (1.0 + abs(x)) ** 2


# ------------------------------------------------------------------ the check


def test_a_right_derivative_is_accepted_with_every_array_a_plot_needs():
    result = check_definition(SOFTSIGN, -3.0, 3.0, 61)
    assert result.accepted, result.message
    (xs,) = result.grid
    assert xs.shape == (61,) and xs[0] == -3.0 and xs[-1] == 3.0
    hand = np.array([hand_softsign_slope(x) for x in xs])
    assert np.allclose(result.typed[0], hand, rtol=0, atol=1e-15)
    assert np.allclose(result.numeric[0], hand, atol=1e-6)
    assert np.allclose(result.symbolic[0], hand, atol=1e-15)
    assert not result.disagree[0].any() and not result.undefined.any()
    assert result.message.startswith("your derivative agrees with the slope at all 61 points")
    assert "points where" in result.message and result.tolerance


def test_a_wrong_derivative_is_refused_with_its_worst_point_and_both_numbers():
    wrong = OpDefinition("soft", ("x",), "x / (1 + abs(x))", ("1 / (1 + abs(x))",))
    result = check_definition(wrong, -3.0, 3.0, 61)
    assert not result.accepted
    # the worst relative gap is at the edges: 1/(1+3) = 0.25 typed, 1/(1+3)² = 0.0625 the slope
    assert abs(result.worst["point"][0]) == 3.0
    assert result.worst["typed"] == 0.25
    assert result.worst["slope"] == pytest.approx(0.0625, abs=1e-8)
    assert result.message.startswith("at x = −3 your derivative gives 0.25, the slope is 0.0625")
    # right at x = 0 both are 1: the only point where they agree
    assert result.disagree[0].sum() == 60 and not result.disagree[0][30]
    assert CUSTOM_OPS.get("soft") is None and not define(wrong).accepted and "soft" not in CUSTOM_OPS


def test_the_sentence_names_the_point_and_numbers_the_learner_sees():
    # x**3 with the derivative 3*x² written as 3*x: on [1, 1.5] the worst point is 1.5 (4.5 against 6.75)
    result = check_definition(OpDefinition("cube", ("x",), "x**3", ("3*x",)), 1.0, 1.5, 11)
    assert result.worst["point"] == (1.5,) and result.worst["typed"] == 4.5
    assert result.worst["slope"] == pytest.approx(6.75, abs=1e-6)
    assert result.message.startswith("at x = 1.5 your derivative gives 4.5, the slope is 6.75")


def test_two_inputs_are_checked_on_a_square_grid_input_by_input():
    good = OpDefinition("blend", ("x", "y"), "x*y + sin(x)", ("y + cos(x)", "x"))
    result = check_definition(good, -2.0, 2.0, 9)
    assert result.accepted and result.grid[0].shape == (9, 9)
    x, y = result.grid
    assert np.allclose(result.typed[0], y + np.cos(x)) and np.allclose(result.typed[1], x)
    bad = OpDefinition("blend", ("x", "y"), "x*y + sin(x)", ("y + cos(x)", "y"))
    refused = check_definition(bad, -2.0, 2.0, 9)
    assert not refused.accepted and refused.worst["input"] == "y"
    assert "your derivative for y gives" in refused.message and "the slope along y is" in refused.message


def test_points_where_the_value_is_undefined_are_said_apart_and_not_counted_wrong():
    result = check_definition(OpDefinition("ln", ("x",), "log(x)", ("1 / x",)), -1.0, 2.0, 31)
    assert result.accepted, result.message
    undefined = [p[0] for p in result.undefined_points()]
    assert undefined == pytest.approx([-1.0 + 0.1 * k for k in range(11)])  # x <= 0: log is nan or -inf
    assert "undefined (nan or inf) at 11 points (first at x = −1)" in result.message


def test_a_kink_accepts_a_one_sided_slope_or_nan_but_not_a_wrong_number():
    assert check_definition(OpDefinition("v", ("x",), "abs(x)", ("x / abs(x)",)), -1.0, 1.0, 21).accepted
    relu_like = check_definition(OpDefinition("r", ("x",), "max(x, 0)", ("1",)), -1.0, 1.0, 21)
    assert not relu_like.accepted and relu_like.worst["point"][0] < 0.0


# ------------------------------------------------------------------ hostile definitions, one sentence each


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("tanh", "already an op of the engine"),
        ("add", "already an op of the engine"),
        ("pi", "constant of the language"),
        ("grad", "every node already answers to"),
        ("backward", "every node already answers to"),
        ("linear", "keeps for itself"),
        ("lambda", "keeps for itself"),
        ("_secret", "letters, digits and _"),
        ("two words", "letters, digits and _"),
        ("", "give the op a name"),
    ],
)
def test_a_name_that_shadows_or_is_no_name_is_refused(name, words):
    result = check_definition(OpDefinition(name, ("x",), "x", ("1",)))
    assert not result.accepted and result.field == "name" and words in result.message
    assert result.grid is None


def test_inputs_are_names_of_their_own():
    same = check_definition(OpDefinition("x", ("x",), "x", ("1",)))
    assert same.field == "inputs" and same.message == "the op and its input are both called 'x': rename one"
    assert "is already an op of the engine" in check_definition(OpDefinition("f", ("tanh",), "1", ("0",))).message
    two = check_definition(OpDefinition("f", ("x", "x"), "x", ("1", "1")))
    assert two.message == "the two inputs have the same name 'x'"
    assert "one input (x) or two" in check_definition(OpDefinition("f", ("x", "y", "z"), "x", ("1", "0", "0"))).message
    assert "one derivative per input" in check_definition(OpDefinition("f", ("x", "y"), "x", ("1",))).message


def test_a_ten_thousand_character_name_is_refused_in_a_short_sentence():
    result = check_definition(OpDefinition("a" * 10_000, ("x",), "x", ("1",)))
    assert result.message == f"the op's name is 10,000 characters long; a name is at most {NAME_LIMIT}"


def test_an_op_that_calls_itself_is_refused_directly_and_through_another_op():
    direct = check_definition(OpDefinition("f", ("x",), "x * f(x)", ("1",)))
    assert direct.field == "value" and "calls f itself" in direct.message
    assert define(OpDefinition("f", ("x",), "2*x", ("2",))).accepted
    method = check_definition(OpDefinition("f", ("x",), "x", ("x.f()",)))  # as a method, redefining f
    assert method.field == "derivative x" and "calls f itself" in method.message
    undefine("f")
    assert define(OpDefinition("f", ("x",), "2*x", ("2",))).accepted
    assert define(OpDefinition("g", ("x",), "f(x) + x", ("3",))).accepted
    loop = define(OpDefinition("f", ("x",), "g(x)", ("3",)))
    assert loop.message == "the value calls g, which calls f: an op cannot call itself"
    assert CUSTOM_OPS.source("f").definition.value == "2*x"  # the old f stays


def test_a_derivative_that_never_ends_is_refused_by_its_size():
    nested = "(" * 60 + "x" + ")" * 60
    deep = check_definition(OpDefinition("deep", ("x",), "x", (nested,)))
    assert deep.field == "derivative x" and "nested more than 40 levels" in deep.message
    long_sum = "+".join(["x"] * 199)
    assert define(OpDefinition("big", ("x",), long_sum, ("199",))).accepted
    calls = "+".join(["big(x)"] * 30)  # 30 calls of a 200-step op
    huge = check_definition(OpDefinition("huge", ("x",), calls, ("5970",)))
    assert f"more than {COST_LIMIT:,} steps to compute once" in huge.message


def test_a_derivative_that_overflows_everywhere_is_refused():
    result = check_definition(OpDefinition("boom", ("x",), "x", ("exp(1000 + x*x)",)))
    assert result.field == "derivative x" and "overflows (inf or nan) at every point" in result.message


@pytest.mark.parametrize(
    "text",
    ["__import__('os').system('true')", "x.__class__", "(lambda: 1)()", "eval('x')", "x if x else 1", "y + x"],
)
def test_text_outside_the_language_is_refused_and_never_run(text):
    result = check_definition(OpDefinition("sneaky", ("x",), "x", (text,)))
    assert not result.accepted and result.field == "derivative x"
    assert "not in the language" in result.message or "not an input of sneaky(x)" in result.message


def test_a_saved_op_of_the_wrong_shape_is_refused_in_one_sentence():
    assert load_definitions("not a list") == ["the saved ops must be a list, got str"]
    problems = load_definitions([{"name": "f"}, {"name": "tanh", "inputs": ["x"], "value": "x", "derivatives": ["1"]}])
    assert len(problems) == 2 and "a saved op needs" in problems[0] and "tanh" in problems[1]
    with pytest.raises(WorkshopError):
        OpDefinition.from_dict(["x"])


# ------------------------------------------------------------------ first-class


def test_a_checked_op_is_typed_by_name_drawn_as_its_own_node_and_shown_in_the_ledger():
    with pytest.raises(ExpressionError, match="unknown function 'soft'"):
        compile_expression("soft(a)")
    assert define(SOFTSIGN).accepted
    ev = compile_expression("y = soft(a*b) + a.soft()").evaluate({"a": 1.5, "b": 2.0})
    ev.output.backward()
    a, b = ev.inputs["a"], ev.inputs["b"]
    assert ev.output.data == pytest.approx(3 / 4 + 1.5 / 2.5)
    # ∂/∂a = b·soft'(ab) + soft'(a) = 2/16 + 1/6.25
    assert a.grad == pytest.approx(2 / 16 + 0.16) and b.grad == pytest.approx(1.5 / 16)
    node = ev.output.parents[1]
    assert node.op == "soft" and not node.is_user_op and node.local_grads == (pytest.approx(0.16),)
    step = next(s for s in backward_steps(ev.output) if s.node is node)
    assert step.contributions[0].formula == "1 / (1 + abs(a))**2"
    assert "= 1 / (1 + abs(a))**2 · 1.0 = 0.16" in step.sentences()[0]


def test_higher_order_and_forward_mode_use_the_typed_derivative():
    define(SOFTSIGN)
    x = Tensor(1.5, "x")
    (g,) = grad(x.soft(), [x], create_graph=True)
    (g2,) = grad(g, [x])
    assert g.data == pytest.approx(0.16) and g2.data == pytest.approx(-2 / 2.5**3)  # d/dx (1+x)^-2
    assert hessian(lambda t: t.soft(), [-0.5])[0][0] == pytest.approx(2 / 1.5**3)
    assert jvp(lambda t: t.soft(), [1.5], [1.0]) == (pytest.approx(0.6), pytest.approx(0.16))
    assert Dual(2.0, 1.0).soft().tangent == pytest.approx(1 / 9)


def test_a_checked_op_is_an_activation_with_the_same_numbers_as_the_built_in_one():
    define(SOFTSIGN)
    assert "soft" in activation_names() and activation_names()[-1] == "linear"
    z = np.linspace(-4, 4, 9)
    model = MLP(2, [3, 1], activation="soft", seed=3)
    scalar = [model([a, -a]).data for a in z]  # the float rule, node by node
    assert np.allclose(np.ravel(model.forward_array(np.c_[z, -z])), scalar, atol=1e-12)  # the numpy twin
    built_in, mine = (
        Trainer(TrainingConfig(activation=a, layers=[4], seed=2, samples=40)) for a in ("softsign", "soft")
    )
    for _ in range(3):
        expected, got = built_in.step(), mine.step()
    assert got.train_loss == pytest.approx(expected.train_loss, abs=1e-12)
    assert mine.model.activations[0] == "soft"


def test_the_numpy_twin_agrees_with_the_float_rule():
    define(SOFTSIGN)
    op = CUSTOM_OPS.get("soft")
    z = np.linspace(-5, 5, 11)
    assert np.allclose(op.numpy(z), [op.rule(v)[0] for v in z], atol=1e-15)


def test_ops_survive_a_round_trip_through_plain_data_and_can_be_undone():
    define(SOFTSIGN)
    define(OpDefinition("pair", ("x", "y"), "soft(x) * y", ("y / (1 + abs(x))**2", "soft(x)")))
    saved = save_definitions()
    assert saved[0] == {
        "name": "soft",
        "inputs": ["x"],
        "value": "x / (1 + abs(x))",
        "derivatives": ["1 / (1 + abs(x))**2"],
    }
    CUSTOM_OPS.clear()
    assert not hasattr(Tensor, "soft")
    assert load_definitions(saved) == []
    assert [d.name for d in definitions()] == ["soft", "pair"]
    assert compile_expression("pair(a, b)").evaluate({"a": 1.0, "b": 4.0}).output.data == 2.0
    seen = []
    stop = CUSTOM_OPS.subscribe(lambda: seen.append(CUSTOM_OPS.names()))
    undefine("pair")
    stop()
    assert seen == [("soft",)] and not hasattr(Tensor, "pair")
    with pytest.raises(ExpressionError, match="unknown function 'pair'"):
        compile_expression("pair(a, b)")


# ------------------------------------------------------------------ code


def test_the_python_export_is_the_articles_closure_and_computes_the_engines_grads(tmp_path):
    define(SOFTSIGN)
    pair = OpDefinition("pair", ("x", "y"), "soft(x) * y - x", ("y / (1 + abs(x))**2 - 1", "soft(x)"))
    assert define(pair).accepted
    code = python_closure(pair)
    assert "out = Tensor(" in code and "def _backward():" in code and "out._backward = _backward" in code
    assert "        x.grad += ((y.data / ((1.0 + abs(x.data)) ** 2.0)) - 1.0) * out.grad" in code
    script = tmp_path / "op.py"
    script.write_text(
        "import math\nfrom autograd_core import Tensor\n\n"
        + code
        + "\nx, y = Tensor(1.5, 'x'), Tensor(-2.0, 'y')\nout = pair(x, y)\nout.backward()\n"
        + "print(out.data, x.grad, y.grad)\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    run = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, env=env, check=True)
    value, gx, gy = map(float, run.stdout.split())
    ev = compile_expression("pair(x, y)").evaluate({"x": 1.5, "y": -2.0})
    ev.output.backward()
    assert value == pytest.approx(ev.output.data) and value == pytest.approx(-0.6 * 2 - 1.5)
    assert gx == pytest.approx(ev.inputs["x"].grad) and gy == pytest.approx(ev.inputs["y"].grad)
    assert gx == pytest.approx(-2 / 6.25 - 1)


def test_the_torch_expression_uses_torch_ops():
    define(SOFTSIGN)
    assert torch_expression(SOFTSIGN) == "x / (1.0 + torch.abs(x))"
    assert torch_expression(SOFTSIGN, ("z",)) == "z / (1.0 + torch.abs(z))"
    assert torch_function(SOFTSIGN) == "def soft(x):\n    return x / (1.0 + torch.abs(x))\n"


def test_a_definition_never_reaches_eval():
    # a value that would do something if it were run as Python only ever meets the language's whitelist
    marker = "open('/tmp/should-not-exist', 'w')"
    result = check_definition(OpDefinition("evil", ("x",), marker, ("1",)))
    assert not result.accepted and "not in the language" in result.message
    assert not Path("/tmp/should-not-exist").exists()
    assert math.isfinite(check_definition(SOFTSIGN).seconds)


def test_a_session_keeps_the_ops_its_network_uses(tmp_path):
    from autograd_core.session import load_session, save_session, trainer_from_session

    define(SOFTSIGN)
    trainer = Trainer(TrainingConfig(activation="soft", layers=[3], seed=4, samples=30))
    trainer.step()
    path = tmp_path / "run.json"
    save_session(path, trainer)
    CUSTOM_OPS.clear()  # a new app: the op is not defined until the session brings it
    data = load_session(path)
    assert data.custom_ops == [SOFTSIGN.to_dict()] and "soft" in CUSTOM_OPS
    again = trainer_from_session(data)
    assert again.model.state_dict() == trainer.model.state_dict()
    assert again.step().train_loss == pytest.approx(trainer.step().train_loss, abs=1e-12)


def test_a_session_with_a_hostile_op_is_refused_in_one_sentence(tmp_path):
    import json

    from autograd_core.session import SessionError, load_session, save_session

    path = tmp_path / "run.json"
    save_session(path, None)
    doc = json.loads(path.read_text())
    doc["custom_ops"] = [{"name": "x" * 10_000, "inputs": ["x"], "value": "x", "derivatives": ["1"]}]
    path.write_text(json.dumps(doc))
    with pytest.raises(
        SessionError, match=r"an op of the session is refused: x{40}…: the op's name is 10,000 characters"
    ):
        load_session(path)


def test_a_version_2_session_without_ops_still_loads(tmp_path):
    import json

    from autograd_core.session import load_session, session_dict

    trainer = Trainer(TrainingConfig(layers=[3], seed=4, samples=30))
    doc = session_dict(trainer)
    doc["version"] = 2
    del doc["custom_ops"]
    (tmp_path / "v2.json").write_text(json.dumps(doc))
    data = load_session(tmp_path / "v2.json")
    assert data.custom_ops == [] and data.weights == trainer.model.state_dict()


def test_the_python_export_of_a_run_defines_the_ops_it_trains_with_and_trains_the_same(tmp_path):
    from export_helpers import script_train_loss

    from autograd_core.export import numpy_model_script, python_script
    from autograd_core.export.common import ExportUnsupported
    from autograd_core.export.to_torch import torch_script

    define(SOFTSIGN)
    define(OpDefinition("soft2", ("x",), "2 * soft(x)", ("2 / (1 + abs(x))**2",)))
    config = TrainingConfig(activation="soft2", layers=[4], seed=2, samples=40, steps=4)
    trainer = Trainer(config)
    trainer.run()
    text = python_script(config)
    assert "assert define(OpDefinition('soft', ('x',), 'x / (1 + abs(x))', ('1 / (1 + abs(x))**2',))).accepted" in text
    assert text.index("OpDefinition('soft',") < text.index("OpDefinition('soft2',")  # what it calls comes first
    path = tmp_path / "run.py"
    path.write_text(text)
    assert script_train_loss(path) == pytest.approx(trainer.evaluate().train_loss, abs=1e-12)
    torch_text = torch_script(config).text
    ast.parse(torch_text)  # (torch itself is not installed here: tools/check_torch_exports.py runs it)
    assert "class Op_soft2(nn.Module):" in torch_text and "    Op_soft2(),\n" in torch_text
    assert "        return 2.0 * (x / (1.0 + torch.abs(x)))\n" in torch_text  # soft written out inside soft2
    with pytest.raises(ExportUnsupported, match="soft2"):  # the NumPy model has no twin of it: one sentence
        numpy_model_script(trainer.model)


def test_the_training_process_defines_the_ops_it_is_started_with():
    from autograd_core.live.protocol import Start
    from autograd_core.live.service import Engine

    assert define(SOFTSIGN).accepted
    saved = save_definitions()  # what the GUI sends
    config = TrainingConfig(activation="soft", layers=[3], seed=1, samples=30).to_dict()
    CUSTOM_OPS.clear()  # a fresh process knows no op of the learner's
    engine = Engine(Start(config=config, custom_ops=saved), out=[])
    assert engine.error is None and engine.trainer.model.activations[0] == "soft"
    assert not engine.step_once() and engine.error is None and engine.trainer.step_count == 1


def test_a_running_training_process_defines_ops_it_is_told_later_and_notifies_no_one_for_known_ones():
    from autograd_core.live.protocol import DefineOps, Reset, Start
    from autograd_core.live.service import Engine

    engine = Engine(Start(config=TrainingConfig(layers=[3], seed=1, samples=30).to_dict()), out=[])
    assert define(SOFTSIGN).accepted
    saved = save_definitions()
    CUSTOM_OPS.clear()  # the process's own registry: it has not heard of soft
    engine.handle(DefineOps(saved))
    assert "soft" in CUSTOM_OPS and engine.error is None
    engine.handle(Reset(TrainingConfig(activation="soft", layers=[3], seed=1, samples=30).to_dict()))
    assert engine.error is None and engine.trainer.model.activations[0] == "soft"
    heard = []
    stop = CUSTOM_OPS.subscribe(lambda: heard.append(1))
    engine.handle(DefineOps(saved))  # told again (a restart replays it): the same texts, nothing changes
    assert heard == []
    engine.handle(DefineOps([{**saved[0], "derivatives": ["1 / (1 + abs(x))"], "name": "bad"}]))
    assert "bad" not in CUSTOM_OPS and "bad: at x = −3 your derivative" in engine.error
    stop()


def test_a_value_undefined_everywhere_and_a_bad_range_are_said_in_one_sentence():
    nowhere = check_definition(OpDefinition("nowhere", ("x",), "log(-1 - x*x)", ("-2*x / (-1 - x*x)",)))
    assert nowhere.field == "value" and "undefined (nan or inf) at every point" in nowhere.message
    assert check_definition(SOFTSIGN, 2.0, 1.0).field == "range"
    assert "two numbers" in check_definition(SOFTSIGN, "a", 1.0).message
    assert "3 to 2001 points" in check_definition(SOFTSIGN, -1.0, 1.0, 10**6).message
