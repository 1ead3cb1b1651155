"""Task conditions: a small, safe language over the app's named state (never ``eval``).

A condition is one expression in the syntax of the app's expression language, plus comparisons and
``and``/``or``/``not``: ``grad(a) > 0``, ``steps >= 100 and train_loss < 0.3``, ``layers == "16,16"``.
Python's ``ast`` parses it; a whitelist walker refuses every other construct and every name that is not a
documented state name (``STATE_NAMES``), so a lesson file can read the app's state and nothing else.
"""

from __future__ import annotations

import ast
import math
import operator

from autograd_core.lessons.structure import expression_structure
from autograd_core.numbers import counted

# name -> what it is (docs/LESSONS.md lists the same table; tests/core/lessons/test_lessons.py holds the two together)
STATE_NAMES: dict[str, str] = {
    "tab": 'the tab on screen: "expression", "training", "sample" or "lab"',
    "expression": "the expression's text, as typed",
    "output": "the expression's output value (its root)",
    "nodes": "how many nodes the expression's graph has",
    "backward_done": "true once backward has run (by the button, or stepped to the end)",
    "ledger_steps": "how many backward steps the ledger has shown while stepping",
    "mode": 'the derivative mode: "reverse" or "forward"',
    "layers": 'the hidden layer widths, e.g. "16,16"',
    "parameters": "how many weights and biases the network has",
    "activation": 'the hidden activation, e.g. "relu"',
    "dataset": 'the training data set, e.g. "moons"',
    "preset": 'the preset the training settings came from, e.g. "article" ("" when none)',
    "lr": "the learning rate",
    "steps": "training steps done since the last reset",
    "epochs": "passes over the training data done since the last reset",
    "train_loss": "the training loss now (nan before the first snapshot)",
    "test_loss": "the test loss now (nan with no test set)",
    "train_acc": "training accuracy now, 0 to 1",
    "test_acc": "test accuracy now, 0 to 1",
    "slow": "true while the app says learning is too slow",
    "previous_loss": "the training loss the run before this one ended on (nan before a second run)",
    "article_loss": "the training loss the latest article's run had after its 100 epochs (nan before one)",
    "plot": 'the training plot on screen: "curves", "gradient_flow", "loss_slice", "confusion" or "landscape"',
    "diverged": "true while the app says training diverged",
    "broken": 'the Break-it switch: "assign", "creation_order" or "eager" ("" when backward is correct)',
    "broken_done": "true once a backward broken on purpose ran to the end (backward_done stays false then)",
    "output_op": 'the op that made the output: "*", "+", "tanh", "**2"… ("" for a single input)',
    "workshop_refused": "how many wrong derivatives the Op workshop refused since the lesson's setup (op clear)",
}
# Read from the expression's text, not from the app (see structure.py): the GUI gives ``expression`` already.
STRUCTURE_NAMES = ("output_op",)

# function -> (number of arguments, what it does)
FUNCTIONS: dict[str, tuple[int, str]] = {
    "grad": (1, "grad(a): the gradient shown for the node labeled a (0 before backward)"),
    "value": (1, "value(a): the value of the node labeled a"),
    "has": (1, "has(a): whether the expression has a node labeled a"),
    "uses": (2, 'uses(x, "+"): how many times the node labeled x is an operand of a + node (x + x: 2)'),
    "count": (1, 'count("relu"): how many nodes the op relu made (an op by name, or as the ledger writes it: "*")'),
    "feeds_output": (1, "feeds_output(d): whether the node labeled d is an operand of the output itself"),
    "defined": (1, "defined(soft): whether an op of yours named soft is checked and defined in the Op workshop"),
    "abs": (1, "abs(x): the size of x"),
    "min": (2, "min(x, y)"),
    "max": (2, "max(x, y)"),
}

_COMPARE = {
    ast.Eq: operator.eq,
    ast.NotEq: operator.ne,
    ast.Lt: operator.lt,
    ast.LtE: operator.le,
    ast.Gt: operator.gt,
    ast.GtE: operator.ge,
}
_ARITH = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv}
MAX_LENGTH = 500


class ConditionError(ValueError):
    """A condition the walker refuses; ``column`` is 1-based within the condition."""

    def __init__(self, message: str, column: int = 1):
        super().__init__(message)
        self.column = column


def parse_condition(text: str) -> ast.expr:
    """Parse and validate ``text``; raise ConditionError naming the problem."""
    if not text.strip():
        raise ConditionError("the condition is empty")
    if len(text) > MAX_LENGTH:
        raise ConditionError(f"the condition is longer than {MAX_LENGTH} characters")
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except SyntaxError as exc:
        raise ConditionError(f"not a condition: {exc.msg}", exc.offset or 1) from None
    _validate(tree.body)
    return tree.body


def _validate(node: ast.AST) -> None:
    where = getattr(node, "col_offset", 0) + 1
    if isinstance(node, ast.BoolOp):
        for value in node.values:
            _validate(value)
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.Not, ast.USub, ast.UAdd)):
        _validate(node.operand)
    elif isinstance(node, ast.Compare):
        if not all(type(op) in _COMPARE for op in node.ops):
            raise ConditionError("only == != < <= > >= compare here", where)
        for part in (node.left, *node.comparators):
            _validate(part)
    elif isinstance(node, ast.BinOp) and type(node.op) in _ARITH:
        _validate(node.left)
        _validate(node.right)
    elif isinstance(node, ast.Constant):
        if not isinstance(node.value, (int, float, str, bool)):
            raise ConditionError(f"{node.value!r} is not a number, a string or true/false", where)
    elif isinstance(node, ast.Name):
        if node.id not in STATE_NAMES and node.id not in ("true", "false"):
            known = ", ".join(sorted(STATE_NAMES))
            raise ConditionError(f"unknown state name {node.id!r}; the state names are {known}", where)
    elif isinstance(node, ast.Call):
        name = node.func.id if isinstance(node.func, ast.Name) else None
        if name not in FUNCTIONS:
            raise ConditionError(f"unknown function {ast.unparse(node.func)!r}; use {', '.join(FUNCTIONS)}", where)
        if node.keywords or len(node.args) != FUNCTIONS[name][0]:
            raise ConditionError(f"{name}() takes {counted(FUNCTIONS[name][0], 'argument')}", where)
        if name in ("grad", "value", "has", "feeds_output", "uses", "defined"):
            arg = node.args[0]
            if not (isinstance(arg, ast.Name) or (isinstance(arg, ast.Constant) and isinstance(arg.value, str))):
                raise ConditionError(f"{name}() takes a node's label, like {name}(a)", where)
        if name in ("uses", "count"):
            op = node.args[-1]
            if not (isinstance(op, ast.Constant) and isinstance(op.value, str)):
                example = FUNCTIONS[name][1].split(":")[0]
                raise ConditionError(f"{name}() takes an op in quotes, like {example}", where)
        if name in ("abs", "min", "max"):
            for arg in node.args:
                _validate(arg)
    else:
        raise ConditionError(f"{ast.unparse(node)!r} is not allowed in a condition", where)


def _structure(state: dict):
    return expression_structure(state.get("expression", "") or "")


def evaluate(text: str, state: dict):
    """The value of a condition's expression (a number, text, true/false) in ``state``: a prediction's truth."""
    return _evaluate(parse_condition(text), state)


def check(condition: str, state: dict) -> bool:
    """Whether ``state`` (state name -> value, plus ``grad``/``value``: label -> number) meets ``condition``.

    A node the expression does not have reads as nan, so a comparison with it is false: the task is not done.
    """
    return bool(_evaluate(parse_condition(condition), state))


def _label(arg: ast.expr) -> str:
    return arg.id if isinstance(arg, ast.Name) else arg.value


def _evaluate(node: ast.AST, state: dict):
    if isinstance(node, ast.BoolOp):
        values = (_evaluate(v, state) for v in node.values)
        return all(values) if isinstance(node.op, ast.And) else any(values)
    if isinstance(node, ast.UnaryOp):
        value = _evaluate(node.operand, state)
        return not value if isinstance(node.op, ast.Not) else (-value if isinstance(node.op, ast.USub) else +value)
    if isinstance(node, ast.Compare):
        left = _evaluate(node.left, state)
        for op, right_node in zip(node.ops, node.comparators, strict=True):
            right = _evaluate(right_node, state)
            if isinstance(left, str) != isinstance(right, str) and not isinstance(op, (ast.Eq, ast.NotEq)):
                return False  # "16,16" < 3: not met, rather than Python's TypeError
            if not _COMPARE[type(op)](left, right):
                return False
            left = right
        return True
    if isinstance(node, ast.BinOp):
        left, right = _evaluate(node.left, state), _evaluate(node.right, state)
        if isinstance(node.op, ast.Div) and right == 0:
            return math.nan
        return _ARITH[type(node.op)](left, right)
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name):
        if node.id in ("true", "false"):
            return node.id == "true"
        if node.id in STRUCTURE_NAMES and node.id not in state:
            return _structure(state).output_op
        return state.get(node.id, math.nan)
    if isinstance(node, ast.Call):
        name = node.func.id
        if name == "has":
            return _label(node.args[0]) in state.get("value", {})
        if name == "defined":
            return _label(node.args[0]) in state.get("ops", ())
        if name in ("grad", "value"):
            return state.get(name, {}).get(_label(node.args[0]), math.nan)
        if name in ("uses", "count", "feeds_output"):
            structure = _structure(state)
            if name == "uses":
                return structure.used(_label(node.args[0]), node.args[1].value)
            if name == "count":
                return structure.count(node.args[0].value)
            return structure.feeds_output(_label(node.args[0]))
        args = [_evaluate(a, state) for a in node.args]
        return {"abs": abs, "min": min, "max": max}[name](*args)
    raise ConditionError(f"{ast.unparse(node)!r} is not allowed in a condition")
