"""The expression language: every construct, gradients, every error with its position, limits, fuzzing."""

import math
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from autograd_core import Tensor, topological_order
from autograd_core.drawing.graph import to_networkx
from autograd_core.engine.ops import LANGUAGE_OPS
from autograd_core.language.expression import (
    CONSTANTS,
    FUNCTION_NAMES,
    MAX_NESTING,
    MAX_TEXT_LENGTH,
    ExpressionError,
    compile_expression,
)
from autograd_core.language.trace import backward_steps


def run(text, **values):
    program = compile_expression(text)
    return program.evaluate(values)


def value(text, **values):
    return run(text, **values).output.data


# ------------------------------------------------------------------ constructs


@pytest.mark.parametrize(
    "text, expected",
    [
        ("3", 3.0),
        ("2.5", 2.5),
        ("1e-3", 0.001),
        ("2 + 3 * 4", 14.0),
        ("(2 + 3) * 4", 20.0),
        ("7 - 2 - 1", 4.0),
        ("8 / 4 / 2", 1.0),
        ("2 ** 3 ** 2", 512.0),  # right-associative
        ("-2 ** 2", -4.0),  # as in Python: -(2**2)
        ("(-2) ** 2", 4.0),
        ("- -3", 3.0),
        ("+4", 4.0),
        ("pi", math.pi),
        ("e", math.e),
        ("2*pi + e", 2 * math.pi + math.e),
        ("pow(2, 10)", 1024.0),
        ("1_000 + 0x10", 1016.0),
    ],
)
def test_numbers_and_operators(text, expected):
    assert value(text) == pytest.approx(expected, rel=1e-15)


def test_every_function_and_method_matches_the_engine():
    x0, y0 = 0.7, -0.4
    for name in FUNCTION_NAMES:
        if name == "pow":
            continue
        if LANGUAGE_OPS[name].arity == 2:  # max(a, b), min(a, b)
            engine = getattr(Tensor(x0), name)(Tensor(y0)).data
            assert value(f"{name}(x, y)", x=x0, y=y0) == engine, name
            assert value(f"x.{name}(y)", x=x0, y=y0) == engine, name
            assert run(f"{name}(x, y)", x=x0, y=y0).output.op == name
            continue
        engine = getattr(Tensor(x0), name)().data
        assert value(f"{name}(x)", x=x0) == engine, name
        assert value(f"x.{name}()", x=x0) == engine, name
        assert run(f"{name}(x)", x=x0).output.op == name
    assert value("leaky_relu(x, 0.1)", x=-2.0) == pytest.approx(-0.2)
    assert value("leaky_relu(x)", x=-2.0) == pytest.approx(-0.02)  # the engine's default slope
    assert value("x.leaky_relu(-0.5)", x=-2.0) == pytest.approx(1.0)
    assert value("(a*b).relu()", a=2.0, b=-3.0) == 0.0
    assert value("(a*b).relu().exp()", a=2.0, b=3.0) == pytest.approx(math.exp(6.0))
    assert value("pow(x, y)", x=2.0, y=3.0) == 8.0


def test_assignments_comments_and_output():
    text = "# a neuron\nh = a*b + c   # pre-activation\nout = h.tanh()"
    program = compile_expression(text)
    assert program.inputs == ["a", "b", "c"]
    assert program.text == text
    ev = program.evaluate({"a": 2.0, "b": -3.0, "c": 10.0})
    assert ev.output is ev.named["out"]
    assert ev.output.label == "out" and ev.named["h"].label == "h"
    assert ev.named["h"].data == 4.0 and ev.output.data == math.tanh(4.0)
    assert ev.named["h"].op == "+" and ev.output.parents == (ev.named["h"],)
    assert set(ev.inputs) == {"a", "b", "c"}
    assert all(ev.inputs[n].label == n and ev.inputs[n].kind == "input" for n in "abc")
    same = compile_expression("h = a*b + c; out = h.tanh()").evaluate({"a": 2.0, "b": -3.0, "c": 10.0})
    assert same.output.data == ev.output.data


def test_the_last_line_is_the_output_even_when_it_is_a_bare_expression():
    ev = run("h = x*2\nh + 1", x=3.0)
    assert ev.output.data == 7.0 and ev.output.label == ""
    assert ev.named["h"].data == 6.0


def test_inputs_in_order_of_first_appearance():
    assert compile_expression("z*y + tanh(x) - y*z").inputs == ["z", "y", "x"]
    assert compile_expression("h = b*a\nout = h + c + a").inputs == ["b", "a", "c"]
    assert compile_expression("pi*e + 3").inputs == []


def test_a_name_used_twice_is_one_node_with_two_edges():
    ev = run("x + x", x=3.0)
    x = ev.inputs["x"]
    assert ev.output.parents == (x, x)
    assert len(topological_order(ev.output)) == 2
    ev.output.backward()
    assert x.grad == 2.0
    ev = run("h = x*x\nh + h", x=3.0)
    assert ev.output.parents == (ev.named["h"], ev.named["h"])


def test_numbers_are_constant_leaves_and_power_literals_become_engine_ops():
    ev = run("a*2 + 2", a=1.0)
    leaves = [n for n in topological_order(ev.output) if n.is_leaf]
    assert [n.kind for n in leaves] == ["input", "constant", "constant"]
    assert run("x**2", x=3.0).output.op == "**2"
    assert run("x**-1", x=4.0).output.data == 0.25
    assert run("2**x", x=3.0).output.op == "2**"
    both = run("x**y", x=2.0, y=3.0).output
    assert both.op == "**" and [p.label for p in both.parents] == ["x", "y"]
    shared = run("pi*x + pi", x=1.0).output
    pis = [n for n in topological_order(shared) if n.label == "pi"]
    assert len(pis) == 1 and pis[0].kind == "constant"


def test_aliases_name_the_same_node():
    """y = x makes no new node: named['y'] is x's node, which keeps its first label."""
    ev = run("y = x\nk = 3\nout = y*k", x=2.0)
    assert ev.named["y"] is ev.inputs["x"] and ev.inputs["x"].label == "x"
    assert ev.named["k"].label == "k" and ev.named["k"].kind == "constant"
    assert ev.output.data == 6.0


def test_indented_lines_and_line_continuations_are_fine():
    assert value("  h = a + 1\n\th * 2", a=1.0) == 4.0
    assert value("(a +\n    b)", a=1.0, b=2.0) == 3.0


def test_each_evaluation_is_a_fresh_graph():
    program = compile_expression("a*b")
    one, two = program.evaluate({"a": 1.0, "b": 2.0}), program.evaluate({"a": 3.0, "b": 4.0})
    assert one.output is not two.output and one.output.data == 2.0 and two.output.data == 12.0
    assert program.evaluate({"a": 1.0, "b": 2.0, "unused": 5.0}).output.data == 2.0


# ------------------------------------------------------------------ gradients


@pytest.mark.parametrize(
    "text",
    [
        "tanh(a*b + c)",
        "h = a*b + c\nout = h.tanh() * h",
        "x + x*x - x/y",
        "y**3 - 2**x + pow(x, y)",
        "sigmoid(x) * softplus(y) + log(x*x + 1) + sqrt(y + 5)",
        "sin(x)*cos(y) + exp(-x*x) + abs(y - 0.3)",
        "leaky_relu(x - 2, 0.1) + (x*y).relu() + x.leaky_relu(0.2)",
        "-x / (1 + abs(y)) + pi*x + e**y",
    ],
)
def test_gradients_match_finite_differences(text):
    program = compile_expression(text)
    point = {"a": 0.8, "b": -1.3, "c": 0.4, "x": 0.9, "y": 1.7}
    values = {n: point[n] for n in program.inputs}
    ev = program.evaluate(values)
    ev.output.backward()
    for name in program.inputs:
        h = 1e-6
        up = program.evaluate({**values, name: values[name] + h}).output.data
        down = program.evaluate({**values, name: values[name] - h}).output.data
        numeric = (up - down) / (2 * h)
        assert ev.inputs[name].grad == pytest.approx(numeric, rel=1e-5, abs=1e-7), name


# ------------------------------------------------------------------ errors


@pytest.mark.parametrize(
    "text, fragment, line, column, end_column",
    [
        ("tanhh(x)", "unknown function 'tanhh' — did you mean 'tanh'?", 1, 1, 6),
        ("foo(x)", "unknown function 'foo'", 1, 1, 4),
        ("x.tahn()", "unknown method 'tahn' — did you mean 'tanh'?", 1, 1, 7),
        ("h = x\nh.pow(2)", "unknown method 'pow'", 2, 1, 6),
        ("tanh(a, b)", "too many arguments", 1, 1, 11),
        ("tanh()", "tanh takes 1 argument", 1, 1, 7),
        ("x.exp(2)", "too many arguments", 1, 1, 9),
        ("pow(x)", "pow takes 2 arguments", 1, 1, 7),
        ("leaky_relu(x, 0.1, 2)", "too many arguments", 1, 1, 22),
        ("leaky_relu(x, y)", "slope of leaky_relu must be a number", 1, 15, 16),
        ("a + (b *", "syntax error", 1, 5, 6),
        ("a +* b", "syntax error", 1, 4, 5),
        ("x.data", "attributes", 1, 1, 7),
        ("x.tanh", "call it with brackets", 1, 1, 7),
        ("x[0]", "indexing", 1, 1, 5),
        ("'hello'", "text in quotes", 1, 1, 8),
        ("f'{x}'", "f-strings", 1, 1, 7),
        ("a < b", "comparisons", 1, 1, 6),
        ("a and b", "'and' / 'or'", 1, 1, 8),
        ("lambda: 1", "lambda", 1, 1, 10),
        ("import os", "imports are not allowed", 1, 1, 10),
        ("from os import path", "imports are not allowed", 1, 1, 20),
        ("leaky_relu(x, slope=0.1)", "keyword arguments", 1, 15, 24),
        ("tanh(*xs)", "*args", 1, 6, 9),
        ("[x for x in y]", "comprehensions", 1, 1, 15),
        ("(a, b)", "tuples", 1, 1, 7),
        ("a // b", "'//' is not supported", 1, 1, 7),
        ("a % b", "'%' is not supported", 1, 1, 6),
        ("not a", "'not' is not supported", 1, 1, 6),
        ("True + 1", "True is not a number", 1, 1, 5),
        ("2j", "complex numbers", 1, 1, 3),
        ("def f(): pass", "defining functions", 1, 1, 14),
        ("x += 1", "'+='", 1, 1, 7),
        ("a = b = 1", "one name at a time", 1, 1, 10),
        ("a, b = 1, 2", "one name at a time", 1, 1, 5),
        ("x := 3", "syntax error", 1, 3, 5),
        ("(y := 3)", "':='", 1, 2, 8),
        ("out = h * 2\nh = a", "'h' is used before it is assigned (on line 2)", 1, 7, 8),
        ("h = h + 1", "'h' is used before it is assigned (on line 1)", 1, 5, 6),
        ("h = a\nh = h * 2", "'h' is already assigned on line 1", 2, 1, 2),
        ("tanh = 3", "cannot assign to 'tanh': it is a function name", 1, 1, 5),
        ("y = x\npi = 3", "cannot assign to 'pi': it is a constant", 2, 1, 3),
        ("tanh + 1", "'tanh' is a function", 1, 1, 5),
        ("x = 1\nx(2)", "'x' is not a function", 2, 1, 2),
        ("(a)(b)(c)", "only functions by name", 1, 1, 7),
        ("a*b\nc", "this line's value is not used", 1, 1, 4),
        ("", "type an expression", 1, 1, 1),
        ("   \n  # only a comment\n", "type an expression", 1, 1, 1),
        ("  a +* b", "syntax error", 1, 6, 7),  # columns count the stripped indent
        ("π = 1\nπ + tanhh(π)", "unknown function 'tanhh'", 2, 5, 10),  # characters, not UTF-8 bytes
    ],
)
def test_errors_name_the_problem_and_its_position(text, fragment, line, column, end_column):
    with pytest.raises(ExpressionError) as info:
        compile_expression(text)
    err = info.value
    assert fragment in err.message and str(err) == err.message
    assert (err.line, err.column, err.end_column) == (line, column, end_column), err.message
    assert err.end_line >= err.line


def test_missing_or_bad_input_values_point_at_the_first_use():
    program = compile_expression("h = a*2\nout = h + b*b")
    with pytest.raises(ExpressionError, match="no value given for input 'b'") as info:
        program.evaluate({"a": 1.0})
    assert (info.value.line, info.value.column, info.value.end_column) == (2, 11, 12)
    with pytest.raises(ExpressionError, match="must be a number"):
        program.evaluate({"a": "one", "b": 2.0})
    with pytest.raises(ExpressionError, match="must be a number"):
        program.evaluate({"a": None, "b": 2.0})
    assert program.evaluate({"a": 1, "b": math.nan}).output.data != program.evaluate({"a": 1, "b": 0}).output.data


def test_non_text_is_refused():
    with pytest.raises(ExpressionError, match="must be text"):
        compile_expression(None)  # type: ignore[arg-type]


# ------------------------------------------------------------------ limits


def test_text_length_limit():
    ok = "x" + " " * (MAX_TEXT_LENGTH - 1)
    assert compile_expression(ok).inputs == ["x"]
    with pytest.raises(ExpressionError, match="too long"):
        compile_expression(ok + " ")


def test_nesting_limit_for_brackets_unary_minus_and_powers():
    assert value("(" * MAX_NESTING + "x" + ")" * MAX_NESTING, x=2.0) == 2.0
    expected = 0.5
    for _ in range(150):
        expected = math.tanh(expected)
    assert value("tanh(" * 150 + "x" + ")" * 150, x=0.5) == expected
    with pytest.raises(ExpressionError, match="nested more than 200") as info:
        compile_expression("(" * (MAX_NESTING + 1) + "x" + ")" * (MAX_NESTING + 1))
    assert info.value.column == MAX_NESTING + 1
    for deep in ("-" * 300 + "x", "x" + "**x" * 300, "-" * 19_000 + "x", "x" + "**x" * 6_000):
        with pytest.raises(ExpressionError, match="nested"):
            compile_expression(deep)


def test_long_chains_are_not_nesting():
    """A 10,000-term sum or a long method chain parses (no RecursionError), on any thread."""
    text = "+".join(["x"] * 9_999)
    assert len(text) < MAX_TEXT_LENGTH
    ev = run(text, x=1.0)
    assert ev.output.data == 9_999.0
    ev.output.backward()
    assert ev.inputs["x"].grad == 9_999.0
    assert value("x" + ".abs()" * 3_000, x=-2.0) == 2.0
    assert sys.getrecursionlimit() < 10_000  # restored after the deep parse


def test_node_limit():
    text = "h = x*x\n" + "\n".join(f"h{i} = h*{i}" for i in range(50))
    assert compile_expression(text).node_count == 1 + 1 + 50 * 2
    with pytest.raises(ExpressionError, match="more than 60 nodes") as info:
        compile_expression(text, max_nodes=60)
    assert info.value.line > 1


def test_overflow_gives_inf_not_an_exception():
    assert value("2**10000") == math.inf
    assert value("exp(1e6)") == math.inf
    assert value("1e400") == math.inf
    assert value("-1e400 * 2") == -math.inf
    assert value("1/0") == math.inf and math.isnan(value("0/0"))
    assert math.isnan(value("log(-1)"))
    with pytest.raises(ExpressionError, match="too many digits"):
        compile_expression("1" * 5_000)


# ------------------------------------------------------------------ fuzzing

SNIPPETS = [
    "__import__('os').system('echo hacked')",
    "().__class__",
    "().__class__.__bases__[0].__subclasses__()",
    "open('x')",
    "eval('1')",
    "exec('import os')",
    "globals()",
    "getattr(x, 'data')",
    "x.__class__",
    "breakpoint()",
    "import os",
    "lambda: 1",
    "[i for i in range(9)]",
    "{'a': 1}",
    "x if y else z",
    "yield x",
    "await x",
    "async def f(): pass",
    "with open('x') as f: pass",
    "del x",
    "global x",
    "x[0]",
    "x.y.z",
    "f(*a, **k)",
    "print(x)",
    "b'bytes'",
    "...",
    "None",
    "x @ y",
    "x := 1",
    "class A: pass",
    "raise SystemExit",
    "assert False",
    "while True: pass",
    "try:\n  x\nexcept: pass",
]
VALID = [
    "tanh(a*b + c)",
    "h = a*b + c\nout = h.tanh()",
    "x + x",
    "leaky_relu(x, 0.1) + pow(x, 2) - 2**y",
    "(a*b).relu().exp() / (1 + e**-pi)",
    "sigmoid(-x) * log(abs(y) + 1e-3)  # comment",
]


def _evaluate_everything(text):
    """Compile and use the program like the GUI does; only ExpressionError may come out."""
    try:
        program = compile_expression(text)
        ev = program.evaluate({name: 0.5 for name in program.inputs})
    except ExpressionError as err:
        assert err.message and err.line >= 1 and err.column >= 1 and err.end_column >= err.column
        return None
    to_networkx(ev.output)
    backward_steps(ev.output)
    ev.output.backward()
    return ev


FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FUZZ
@given(st.text(max_size=80))
def test_fuzz_random_text(text):
    _evaluate_everything(text)


@FUZZ
@given(st.text(alphabet="abcxy0123456789.e+-*/()[]{},;:=#\n _'\"<>!%&|^~@\\", max_size=60))
def test_fuzz_code_like_text(text):
    _evaluate_everything(text)


@FUZZ
@given(st.lists(st.sampled_from(SNIPPETS + VALID), min_size=1, max_size=4), st.sampled_from(["\n", "; ", " + ", "("]))
def test_fuzz_python_snippets(parts, joiner):
    _evaluate_everything(joiner.join(parts))


@FUZZ
@given(
    st.sampled_from(VALID),
    st.lists(
        st.tuples(st.sampled_from(["insert", "delete", "replace"]), st.integers(0, 200), st.characters()),
        min_size=1,
        max_size=5,
    ),
)
def test_fuzz_mutations_of_valid_expressions(text, edits):
    for kind, position, char in edits:
        i = position % (len(text) + 1)
        if kind == "insert":
            text = text[:i] + char + text[i:]
        elif kind == "delete":
            text = text[:i] + text[i + 1 :]
        else:
            text = text[:i] + char + text[i + 1 :]
    _evaluate_everything(text)


def test_dangerous_text_is_refused_and_nothing_runs():
    """An audit hook records any code execution, import, file or process access during compilation."""
    events = []
    watching = [False]
    watched = {"exec", "import", "open", "os.system", "subprocess.Popen", "os.exec", "os.posix_spawn", "builtins.input"}

    def hook(event, args):
        # CPython's parser tries to open its pseudo file "<expression>" to quote a syntax error: not user code.
        if watching[0] and event in watched and not (event == "open" and args[0] == "<expression>"):
            events.append((event, args))

    sys.addaudithook(hook)
    for text in SNIPPETS:
        watching[0] = True
        try:
            with pytest.raises(ExpressionError):
                compile_expression(text)
        finally:
            watching[0] = False
    assert events == []


def test_constants_and_names_are_public():
    assert set(CONSTANTS) == {"pi", "e"}
    assert {"tanh", "relu", "leaky_relu", "sigmoid", "exp", "log", "sin", "cos", "abs", "sqrt", "softplus"} <= set(
        FUNCTION_NAMES
    )


def test_evaluate_accepts_leaf_tensors_for_gradcheck():
    from autograd_core import gradcheck

    program = compile_expression("h = a*b + c\nh.tanh() * a")
    a = Tensor(0.5, label="a")
    evaluation = program.evaluate({"a": a, "b": -1.0, "c": 0.3})
    assert evaluation.inputs["a"] is a
    results = gradcheck(lambda *leaves: program.evaluate(dict(zip("abc", leaves))).output, [0.5, -1.0, 0.3])
    assert all(r.rel_error < 1e-7 for r in results)
