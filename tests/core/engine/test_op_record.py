"""One op record everywhere: an op given once, as an ``Op`` with named fields, works in the engine, the
language, forward mode, higher order, the ledger and the three exports, with no table of its own anywhere."""

from __future__ import annotations

import numpy as np
import pytest

from autograd_core import Tensor, backward_steps, compile_expression
from autograd_core.engine.custom_ops import CUSTOM_OPS
from autograd_core.engine.forward import Dual
from autograd_core.engine.functional import grad
from autograd_core.engine.ops import OPS, Op, Spellings
from autograd_core.export import numpy_model_script, torch_script
from autograd_core.export.common import feature_code, numpy_helper_table, spellings
from autograd_core.export.custom_op import python_closure
from autograd_core.language.workshop import OpDefinition, define, undefine
from autograd_core.learn.nn import MLP, activation_names
from autograd_core.learn.training import TrainingConfig


def _cube(x):
    return x * x * x, 3.0 * x * x


# The one place: everything below reads this record.
CUBE = Op(
    name="cube",
    arity=1,
    rule=_cube,
    derivative=lambda out, x: (3.0 * x * x,),
    numpy=lambda x: x * x * x,
    text="cube({0})",
    formula=("3·{0}²",),
    help="x³",
    activation=True,
    spell=Spellings(
        numpy="cube({0})",
        numpy_helper="def cube(z):\n    return z * z * z\n",
        torch="torch.pow({0}, 3)",
        torch_module="Cube()",
        python="{0} ** 3",
    ),
)


@pytest.fixture
def cube():
    CUSTOM_OPS.register(CUBE)
    yield CUBE
    CUSTOM_OPS.unregister("cube")


def test_the_engine_takes_its_value_and_derivative_from_the_record(cube):
    x = Tensor(1.5, label="x")
    y = x.cube()
    y.backward()
    assert y.data == 3.375 and x.grad == 6.75
    h = 1e-6
    assert x.grad == pytest.approx(((1.5 + h) ** 3 - (1.5 - h) ** 3) / (2 * h), rel=1e-8)


def test_the_language_knows_it_by_name(cube):
    program = compile_expression("y = cube(a) + 1")
    assert program.evaluate({"a": 2.0}).output.data == 9.0


def test_forward_mode_and_higher_order_use_the_same_record(cube):
    d = Dual(2.0, 1.0).cube()
    assert (d.value, d.tangent) == (8.0, 12.0)
    x = Tensor(2.0)
    (first,) = grad(x.cube(), [x], create_graph=True)
    (second,) = grad(first, [x])
    assert first.data == 12.0 and second.data == 12.0  # d²/dx² x³ = 6x


def test_the_ledger_writes_its_formula(cube):
    x = Tensor(2.0, label="x")
    y = x.cube()
    y.label = "y"
    step = backward_steps(y)[0]
    (contribution,) = step.contributions
    assert contribution.formula == "3·x²" and contribution.local == 12.0


def test_the_numpy_export_writes_and_runs_its_helper(cube):
    assert "cube" in activation_names() and numpy_helper_table()["cube"][0].startswith("def cube(z)")
    model = MLP(2, [3, 1], activation="cube", seed=0)
    script = numpy_model_script(model, ["cube", "linear"])
    assert "def cube(z):" in script
    namespace: dict = {}
    exec(compile(script, "<numpy export>", "exec"), namespace)  # the exported script (our text, not the user's)
    points = np.array([[0.3, -0.2], [1.0, 0.5]])
    expected = np.ravel(model.forward_array(points))
    assert np.allclose(np.ravel(namespace["predict"](points)), expected, atol=1e-12)


def test_the_torch_export_spells_it_as_a_call_and_as_a_module(cube):
    code, helpers, _ = feature_code("cube(x1)", "torch")
    assert code == "torch.pow(x1, 3)" and helpers == set()
    script = torch_script(TrainingConfig(activation="cube", steps=1)).text
    assert "Cube()" in script


def test_the_python_export_spells_it_inside_a_workshop_op(cube):
    assert spellings("python")["cube"] == "{0} ** 3"
    definition = OpDefinition(name="cube_plus", inputs=("x",), value="cube(x) + 1", derivatives=("3*x**2",))
    assert define(definition).accepted
    try:
        closure = python_closure(definition)
    finally:
        undefine("cube_plus")
    assert "x.data ** 3" in closure


def test_every_op_of_the_table_is_one_record_with_its_spellings():
    for op in OPS.values():
        assert isinstance(op.spell, Spellings)
        if op.activation:  # the network builder offers it, so every export can write it
            assert op.spell.numpy and op.spell.numpy_helper and op.spell.torch_module, op.name
    assert spellings("numpy")["tanh"] == "np.tanh({0})" and spellings("python")["tanh"] == "math.tanh({0})"
    assert "cube" not in OPS and "cube" not in spellings("numpy")  # (nothing of the record stays behind)


def test_an_op_is_made_with_named_fields_only():
    with pytest.raises(TypeError):
        Op("cube", 1, _cube, None, None, "cube({0})", ("3·{0}²",), "x³")  # eight positional arguments
