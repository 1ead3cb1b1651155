"""A tiny expression language that builds a Tensor graph: ``tanh(a*b + c)``.

The learner's text is parsed with Python's own ``ast`` module (good positions,
familiar syntax) and then walked with a whitelist: numbers, names, ``+ - * /
**``, unary minus, calls of the engine's ops (``tanh(x)``), method calls in the
engine's style (``(a*b).relu()``), the constants ``pi`` and ``e``, assignments
(``h = a*b + c``) and comments.  Everything else is refused with an
``ExpressionError`` that names the line and column.  **User text is never
executed**: the walk compiles it into a flat list of instructions for a small
stack machine, and ``Program.evaluate`` runs that list on Tensors (a graph to
differentiate), ``Program.evaluate_array`` on numpy arrays with each op's
numpy twin (the same numbers over a whole grid at once).

Both the walk and the machine are iterative, so a 10,000-term sum is fine;
the only recursion is inside ``ast.parse``, which is guarded (see ``_parse``).

Choices a learner will see:
- A name is one node, however often it is used: ``x + x`` has one ``x`` with
  two edges, which is why gradients add up.
- Every number is its own constant leaf (as in the engine, where ``a*2``
  makes a constant ``2``), except a number exponent or base of ``**``:
  ``x**2`` is the engine's one-parent op ``**2`` and ``2**x`` its op ``2**``,
  and an op's numeric parameter (the slope in ``leaky_relu(x, 0.1)``).
- ``h = <expr>`` labels the node of ``<expr>`` with ``h``.  An alias
  (``y = x``, ``y = pi``) names a node that already has a label: no new node is
  made, the node keeps its first label, and ``named['y']`` is that same node.
- Each name is assigned at most once (a graph node has one name), and must be
  assigned before it is used.  The last line's value is the output; an earlier
  line whose value is neither assigned nor last is refused (it would be lost).
"""

from __future__ import annotations

import ast
import difflib
import math
import re
import sys
import threading
import warnings
from collections.abc import Mapping

import numpy as np

from autograd_core.engine.custom_ops import CUSTOM_OPS, find_op
from autograd_core.engine.ops import OPS, Op
from autograd_core.engine.tensor import Tensor

# The language's functions and methods are the op table's (``autograd_core.engine.ops``):
# ``tanh(x)`` / ``x.tanh()``, ``leaky_relu(x, 0.1)``, ``max(a, b)``, ``pow(a, b)``…
# plus the learner's own ops of the workshop (``custom_ops.CUSTOM_OPS``), looked up when a text is compiled.
FUNCTION_NAMES: tuple[str, ...] = tuple(op.name for op in OPS.values() if op.function)
METHOD_NAMES: tuple[str, ...] = tuple(op.name for op in OPS.values() if op.method)


def function_names() -> tuple[str, ...]:
    """The names callable as ``name(x)`` now: the table's and the learner's ops."""
    return FUNCTION_NAMES + CUSTOM_OPS.names()


def method_names() -> tuple[str, ...]:
    """The names callable as ``x.name()`` now."""
    return METHOD_NAMES + CUSTOM_OPS.names()


CONSTANTS: dict[str, float] = {"pi": math.pi, "e": math.e}

MAX_TEXT_LENGTH = 20_000
MAX_NESTING = 200
MAX_NODES = 100_000

# Texts longer than this may nest deeper than the default recursion limit
# allows inside ast.parse; they are parsed on a thread with a large stack.
_DEEP_PARSE_LENGTH = 1_000
_DEEP_PARSE_STACK = 64 * 1024 * 1024
# The parser's pseudo file name (CPython tries to open it to quote a syntax error's line; it never exists).
_FILENAME = "<expression>"

_BINARY_SYMBOLS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.Pow: "**"}
_REFUSED_OPERATORS = {
    ast.FloorDiv: "//",
    ast.Mod: "%",
    ast.MatMult: "@",
    ast.LShift: "<<",
    ast.RShift: ">>",
    ast.BitOr: "|",
    ast.BitXor: "^",
    ast.BitAnd: "&",
}
_UNSUPPORTED = {
    "Compare": "comparisons (<, ==, …) are not supported",
    "BoolOp": "'and' / 'or' are not supported",
    "IfExp": "'… if … else …' is not supported",
    "Lambda": "lambda is not supported",
    "Subscript": "indexing with [ ] is not supported",
    "Slice": "slices are not supported",
    "List": "lists [ ] are not supported",
    "Tuple": "tuples (a, b) are not supported: one value per line",
    "Dict": "dictionaries { } are not supported",
    "Set": "sets { } are not supported",
    "ListComp": "comprehensions are not supported",
    "SetComp": "comprehensions are not supported",
    "DictComp": "comprehensions are not supported",
    "GeneratorExp": "generator expressions are not supported",
    "JoinedStr": "text in quotes (f-strings) is not supported",
    "FormattedValue": "text in quotes (f-strings) is not supported",
    "Starred": "*args are not supported",
    "NamedExpr": "':=' is not supported: write the assignment on its own line",
    "Await": "'await' is not supported",
    "Yield": "'yield' is not supported",
    "YieldFrom": "'yield' is not supported",
    "Import": "imports are not allowed",
    "ImportFrom": "imports are not allowed",
    "FunctionDef": "defining functions is not supported",
    "AsyncFunctionDef": "defining functions is not supported",
    "ClassDef": "defining classes is not supported",
    "AugAssign": "'+=' and friends are not supported: each name is one node, so write h2 = h + …",
    "AnnAssign": "type annotations are not supported",
    "Delete": "'del' is not supported",
    "Return": "'return' is not supported: the last line is the output",
    "If": "'if' is not supported",
    "For": "loops are not supported",
    "AsyncFor": "loops are not supported",
    "While": "loops are not supported",
    "With": "'with' is not supported",
    "AsyncWith": "'with' is not supported",
    "Raise": "'raise' is not supported",
    "Try": "'try' is not supported",
    "Assert": "'assert' is not supported",
    "Global": "'global' is not supported",
    "Nonlocal": "'nonlocal' is not supported",
    "Pass": "'pass' is not supported",
    "Break": "'break' is not supported",
    "Continue": "'continue' is not supported",
    "Match": "'match' is not supported",
}


class ExpressionError(Exception):
    """A problem in the learner's text, with where it is (1-based, end exclusive).

    The span is columns ``[column, end_column)``, from ``line`` to ``end_line``.
    """

    def __init__(
        self,
        message: str,
        line: int = 1,
        column: int = 1,
        end_line: int | None = None,
        end_column: int | None = None,
    ):
        super().__init__(message)
        self.message = message
        self.line = line
        self.column = column
        self.end_line = line if end_line is None else end_line
        self.end_column = column + 1 if end_column is None else end_column

    def __str__(self) -> str:
        return self.message

    def where(self) -> str:
        """'line 2, column 5' for status bars."""
        return f"line {self.line}, column {self.column}"


class EmptyExpressionError(ExpressionError):
    """No expression at all (blank or only comments): a prompt to type one, not a mistake in the text."""


# ------------------------------------------------------------ instructions
# The compiled program is a flat list of tuples run by a stack machine:
# (_NUM, value), (_INPUT, name), (_LOAD, name), (_CONST, name),
# (_APPLY, op, params, operands) and (_STORE, name, is_last_line).

_NUM, _INPUT, _LOAD, _CONST, _APPLY, _STORE = range(6)

_BINARY_OPS = {"+": OPS["add"], "-": OPS["sub"], "*": OPS["mul"], "/": OPS["div"], "**": OPS["pow"]}
_NEG, _POW_CONST, _RPOW_CONST = OPS["neg"], OPS["pow_const"], OPS["rpow_const"]


class Evaluation:
    """One run of a program: a fresh Tensor graph."""

    __slots__ = ("program", "output", "inputs", "named")

    def __init__(self, program: Program, output: Tensor, inputs: dict[str, Tensor], named: dict[str, Tensor]):
        self.program = program
        self.output = output
        self.inputs = inputs
        self.named = named

    def __repr__(self) -> str:
        return f"Evaluation(output={self.output!r})"


class Program:
    """A checked expression, ready to build graphs from input values."""

    def __init__(
        self, text: str, code: list[tuple], inputs: list[str], first_use: dict, assigned: list[str], node_count: int
    ):
        self.text = text
        self._code = code
        self._inputs = inputs
        self._first_use = first_use
        self.assigned = assigned  # assigned names, in order
        self.node_count = node_count  # nodes each evaluate() builds

    @property
    def inputs(self) -> list[str]:
        """Free names (the leaves the learner edits), in order of first appearance."""
        return list(self._inputs)

    def __repr__(self) -> str:
        return f"Program(inputs={self._inputs}, nodes={self.node_count})"

    def _value_of(self, name: str, values: Mapping) -> object:
        if name not in values:
            raise ExpressionError(f"no value given for input '{name}'", *self._first_use[name])
        return values[name]

    def evaluate(self, values: Mapping[str, float] | None = None) -> Evaluation:
        """Build a fresh graph; ``values`` maps each input name to a number (extra names are ignored).

        A value may also be a Tensor, which is then used as that input's leaf
        (so ``gradcheck`` can differentiate a program directly).
        """
        values = {} if values is None else values
        leaves: dict[str, Tensor] = {}
        for name in self._inputs:
            raw = self._value_of(name, values)
            if isinstance(raw, Tensor):
                leaves[name] = raw
                continue
            try:
                if isinstance(raw, (str, bytes)):
                    raise TypeError
                number = float(raw)
            except (TypeError, ValueError, OverflowError):
                raise ExpressionError(
                    f"the value of '{name}' must be a number, not {type(raw).__name__}", *self._first_use[name]
                ) from None
            leaves[name] = Tensor(number, label=name, kind="input")
        constants: dict[str, Tensor] = {}

        def constant(name: str) -> Tensor:
            node = constants.get(name)
            if node is None:
                node = constants[name] = Tensor(CONSTANTS[name], label=name, kind="constant")
            return node

        def label(node: Tensor, name: str) -> Tensor:
            if not node.label:
                node.label = name
            return node

        output, named = self._run(
            leaves, lambda value: Tensor(value, kind="constant"), constant, lambda op: op.apply, label
        )
        return Evaluation(self, output, leaves, named)

    def evaluate_array(self, values: Mapping[str, object] | None = None) -> np.ndarray:
        """The output over whole arrays of inputs, with each op's numpy twin: one pass, no graph.

        ``values`` maps each input name to a number or an array; they are
        broadcast together (a 200 × 200 grid of ``x`` against one of ``y``…) and
        the result has their common shape.  The numbers are the scalar path's
        (to 1e-12), IEEE included: ``log(0)`` is ``-inf`` here too, silently.
        """
        values = {} if values is None else values
        arrays: dict[str, np.ndarray] = {}
        for name in self._inputs:
            raw = self._value_of(name, values)
            try:
                if isinstance(raw, (str, bytes)):
                    raise TypeError
                arrays[name] = np.asarray(raw, dtype=float)
            except (TypeError, ValueError, OverflowError):
                raise ExpressionError(
                    f"the values of '{name}' must be numbers, not {type(raw).__name__}", *self._first_use[name]
                ) from None
        try:
            shape = np.broadcast_shapes(*(a.shape for a in arrays.values()))
        except ValueError:
            shapes = ", ".join(f"{n} {a.shape}" for n, a in arrays.items())
            raise ExpressionError(f"the input arrays have shapes that do not fit together: {shapes}") from None
        with np.errstate(all="ignore"):
            output, _ = self._run(arrays, float, CONSTANTS.__getitem__, lambda op: op.numpy, lambda value, name: value)
            return np.array(np.broadcast_to(np.asarray(output, dtype=float), shape))

    def _run(self, leaves: Mapping, number, constant, function_of, label) -> tuple[object, dict[str, object]]:
        """Run the instructions: ``number`` makes a literal, ``constant`` pi or e, ``function_of(op)`` the
        function that applies an op (to Tensors, arrays…), ``label(value, name)`` names a result."""
        bound: dict[str, object] = {}
        named: dict[str, object] = {}
        stack: list = []
        push, pop = stack.append, stack.pop
        for ins in self._code:
            code = ins[0]
            if code == _APPLY:
                fn = function_of(ins[1])
                if ins[3] == 2:
                    b = pop()
                    push(fn(pop(), b, *ins[2]))
                else:
                    push(fn(pop(), *ins[2]))
            elif code == _NUM:
                push(number(ins[1]))
            elif code == _INPUT:
                push(leaves[ins[1]])
            elif code == _LOAD:
                push(bound[ins[1]])
            elif code == _CONST:
                push(constant(ins[1]))
            elif code == _STORE:
                node = label(pop(), ins[1])
                bound[ins[1]] = named[ins[1]] = node
                if ins[2]:  # the last line: it stays as the output
                    push(node)
        return stack[-1], named


# ------------------------------------------------------------------- parse


class _Source:
    """The text split in lines, with leading blanks stripped (so indenting a line is fine).

    Maps ast positions (UTF-8 byte offsets in the stripped lines) back to
    1-based character columns in the learner's text.
    """

    def __init__(self, text: str):
        lines = re.split(r"\r\n|\r|\n", text)
        self.stripped = [line.lstrip(" \t\f") for line in lines]
        self.shift = [len(line) - len(s) for line, s in zip(lines, self.stripped)]
        self.source = "\n".join(self.stripped)

    def column(self, line: int, byte_offset: int) -> int:
        if not 1 <= line <= len(self.stripped):
            return 1
        prefix = self.stripped[line - 1].encode("utf-8")[: max(byte_offset, 0)]
        return self.shift[line - 1] + len(prefix.decode("utf-8", errors="ignore")) + 1

    def span(self, node: ast.AST) -> tuple[int, int, int, int]:
        line = getattr(node, "lineno", 1) or 1
        end_line = getattr(node, "end_lineno", None) or line
        column = self.column(line, getattr(node, "col_offset", 0) or 0)
        end_offset = getattr(node, "end_col_offset", None)
        end_column = self.column(end_line, end_offset) if end_offset is not None else column + 1
        return line, column, end_line, end_column

    def char_span(self, line: int, offset: int | None, end_line: int | None, end_offset: int | None):
        """Positions of a SyntaxError (1-based character offsets in the stripped lines)."""
        line = min(max(line or 1, 1), len(self.stripped))
        column = max(offset or 1, 1) + self.shift[line - 1]
        if end_line == line and end_offset and end_offset > (offset or 1):
            return line, column, line, end_offset + self.shift[line - 1]
        return line, column, line, column + 1


def _check_brackets(text: str, limit: int) -> None:
    """Refuse bracket nesting deeper than ``limit`` before the parser sees it (it recurses)."""
    depth = 0
    line, column = 1, 0
    in_comment = False
    for ch in text:
        column += 1
        if ch == "\n":
            line, column, in_comment = line + 1, 0, False
        elif in_comment:
            continue
        elif ch == "#":
            in_comment = True
        elif ch in "([{":
            depth += 1
            if depth > limit:
                raise ExpressionError(
                    f"brackets are nested more than {limit} levels deep: simplify with assignments (h = …)",
                    line,
                    column,
                )
        elif ch in ")]}":
            depth = max(depth - 1, 0)


def _parse(source: str) -> ast.Module:
    """``ast.parse`` that never lets RecursionError/MemoryError or a stack overflow through.

    The parser recurses once per level of a left-nested chain (``a+b+c+…``), so
    long texts are parsed on a helper thread with a large stack and a raised
    recursion limit; the caller gets the same tree.
    """
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # SyntaxWarnings are noise here
        if len(source) <= _DEEP_PARSE_LENGTH:
            return ast.parse(source, _FILENAME)
        result: dict[str, object] = {}

        def work() -> None:
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    result["tree"] = ast.parse(source, _FILENAME)
            except BaseException as exc:  # handed back to the caller's thread
                result["error"] = exc

        old_limit = sys.getrecursionlimit()
        old_stack = threading.stack_size()
        try:
            sys.setrecursionlimit(max(old_limit, 4 * len(source) + 1_000))
            try:
                threading.stack_size(_DEEP_PARSE_STACK)
            except (ValueError, RuntimeError):  # platform refuses: parse on a default stack
                pass
            try:
                thread = threading.Thread(target=work, name="expression-parse", daemon=True)
                thread.start()
            finally:
                threading.stack_size(old_stack)
            thread.join()
        finally:
            sys.setrecursionlimit(old_limit)
        if "error" in result:
            raise result["error"]  # type: ignore[misc]
        return result["tree"]  # type: ignore[return-value]


def _suggest(name: str, choices: tuple[str, ...]) -> str:
    close = difflib.get_close_matches(name, choices, n=1, cutoff=0.6)
    return f" — did you mean '{close[0]}'?" if close else ""


def _literal(node: ast.AST) -> float | None:
    """The value of a number literal, possibly signed (``-3``, ``+2.5``); None otherwise."""
    sign = 1.0
    while isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        if isinstance(node.op, ast.USub):
            sign = -sign
        node = node.operand
    if isinstance(node, ast.Constant) and type(node.value) in (int, float):
        try:
            return sign * float(node.value)
        except OverflowError:  # an integer literal beyond float range
            return sign * math.inf
    return None


class _Compiler:
    """Walks the ast with an explicit stack, emitting instructions in evaluation order."""

    def __init__(self, text: str, source: _Source, max_nesting: int, max_nodes: int):
        self.text = text
        self.src = source
        self.max_nesting = max_nesting
        self.max_nodes = max_nodes
        self.code: list[tuple] = []
        self.inputs: list[str] = []
        self.first_use: dict[str, tuple[int, int, int, int]] = {}
        self.assigned: dict[str, int] = {}  # name -> line, as the walk passes assignments
        self.will_assign: dict[str, int] = {}  # name -> first line that assigns it
        self.constants_used: set[str] = set()
        self.nodes = 0

    def error(self, message: str, node: ast.AST) -> ExpressionError:
        return ExpressionError(message, *self.src.span(node))

    def count(self, node: ast.AST, n: int = 1) -> None:
        self.nodes += n
        if self.nodes > self.max_nodes:
            raise self.error(f"the graph would have more than {self.max_nodes:,} nodes: use a smaller expression", node)

    def compile(self, tree: ast.Module) -> Program:
        body = tree.body
        if not body:
            raise EmptyExpressionError("type an expression, for example tanh(a*b + c)", 1, 1, 1, 1)
        for stmt in body:
            if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
                self.will_assign.setdefault(stmt.targets[0].id, stmt.lineno)
        for i, stmt in enumerate(body):
            last = i == len(body) - 1
            if isinstance(stmt, ast.Expr):
                if not last:
                    raise self.error("this line's value is not used: name it (h = …) or make it the last line", stmt)
                self.expression(stmt.value)
            elif isinstance(stmt, ast.Assign):
                self.assignment(stmt, last)
            else:
                message = _UNSUPPORTED.get(type(stmt).__name__, f"'{type(stmt).__name__}' is not supported here")
                raise self.error(message, stmt)
        return Program(self.text, self.code, self.inputs, self.first_use, list(self.assigned), self.nodes)

    def assignment(self, stmt: ast.Assign, last: bool) -> None:
        if len(stmt.targets) != 1:
            raise self.error("assign one name at a time (a = b = … is not supported)", stmt)
        target = stmt.targets[0]
        if not isinstance(target, ast.Name):
            if isinstance(target, (ast.Tuple, ast.List)):
                raise self.error("assign one name at a time (a, b = … is not supported)", target)
            raise self.error("only a name can be assigned, like h = a*b", target)
        name = target.id
        if name in FUNCTION_NAMES or name in CUSTOM_OPS:
            raise self.error(f"cannot assign to '{name}': it is a function name", target)
        if name in CONSTANTS:
            raise self.error(f"cannot assign to '{name}': it is a constant", target)
        if name in self.assigned:
            raise self.error(
                f"'{name}' is already assigned on line {self.assigned[name]}: each name is one node, pick a new name",
                target,
            )
        self.expression(stmt.value)
        self.assigned[name] = stmt.lineno
        self.code.append((_STORE, name, last))

    def expression(self, root: ast.AST) -> None:
        """Emit the instructions of one expression, checking every node against the whitelist."""
        work: list[tuple] = [(root, 1)]
        emit = self.code.append
        while work:
            item, depth = work.pop()
            if isinstance(item, tuple):  # a deferred instruction, emitted after its operands
                emit(item)
                continue
            node = item
            if depth > self.max_nesting:
                raise self.error(f"the expression is nested more than {self.max_nesting} levels deep", node)
            if isinstance(node, ast.BinOp):
                op_type = type(node.op)
                if op_type not in _BINARY_SYMBOLS:
                    symbol = _REFUSED_OPERATORS.get(op_type, "this operator")
                    raise self.error(f"the operator '{symbol}' is not supported (use + - * / **)", node)
                if op_type is ast.Pow:
                    self.power(node, node.left, node.right, depth, work)
                    continue
                self.count(node)
                work.append(((_APPLY, _BINARY_OPS[_BINARY_SYMBOLS[op_type]], (), 2), depth))
                work.append((node.right, depth + 1))
                work.append((node.left, depth))  # a left chain a+b+c+… is not nesting
            elif isinstance(node, ast.Name):
                self.name(node)
            elif isinstance(node, ast.Constant):
                value = _literal(node)
                if value is None:
                    raise self.error(self.constant_problem(node.value), node)
                self.count(node)
                emit((_NUM, value))
            elif isinstance(node, ast.UnaryOp):
                value = _literal(node)
                if value is not None:  # -3 is a number, as in Python
                    self.count(node)
                    emit((_NUM, value))
                elif isinstance(node.op, ast.USub):
                    self.count(node)
                    work.append(((_APPLY, _NEG, (), 1), depth))
                    work.append((node.operand, depth + 1))
                elif isinstance(node.op, ast.UAdd):
                    work.append((node.operand, depth + 1))
                else:
                    symbol = "not" if isinstance(node.op, ast.Not) else "~"
                    raise self.error(f"'{symbol}' is not supported (use + - * / **)", node)
            elif isinstance(node, ast.Call):
                self.call(node, depth, work)
            elif isinstance(node, ast.Attribute):
                if node.attr in METHOD_NAMES or node.attr in CUSTOM_OPS:
                    raise self.error(f"'.{node.attr}' is a method: call it with brackets, like x.{node.attr}()", node)
                raise self.error(
                    f"attributes such as '.{node.attr}' are not supported; methods are x.tanh() etc.", node
                )
            else:
                name = type(node).__name__
                raise self.error(_UNSUPPORTED.get(name, f"'{name}' is not supported in an expression"), node)

    def power(self, node: ast.AST, base: ast.AST, exponent: ast.AST, depth: int, work: list) -> None:
        """``x**2`` → the engine's op '**2'; ``2**x`` → '2**'; otherwise Tensor ** Tensor."""
        n = _literal(exponent)
        if n is not None:
            self.count(node)
            work.append(((_APPLY, _POW_CONST, (n,), 1), depth))
            work.append((base, depth + 1))
            return
        c = _literal(base)
        if c is not None:
            self.count(node)
            work.append(((_APPLY, _RPOW_CONST, (c,), 1), depth))
            work.append((exponent, depth + 1))
            return
        self.count(node)
        work.append(((_APPLY, _BINARY_OPS["**"], (), 2), depth))
        work.append((exponent, depth + 1))
        work.append((base, depth + 1))

    @staticmethod
    def constant_problem(value: object) -> str:
        if isinstance(value, bool):
            return f"{value} is not a number here"
        if isinstance(value, (str, bytes)):
            return "text in quotes is not supported: use numbers and names"
        if isinstance(value, complex):
            return "complex numbers are not supported"
        if value is None:
            return "None is not supported"
        return f"{value!r} is not supported"

    def name(self, node: ast.Name) -> None:
        name = node.id
        if name in CONSTANTS:
            if name not in self.constants_used:
                self.constants_used.add(name)
                self.count(node)
            self.code.append((_CONST, name))
        elif name in FUNCTION_NAMES or name in CUSTOM_OPS:
            raise self.error(f"'{name}' is a function: call it with brackets, like {name}(x)", node)
        elif name in self.assigned:
            self.code.append((_LOAD, name))
        elif name in self.will_assign:
            raise self.error(f"'{name}' is used before it is assigned (on line {self.will_assign[name]})", node)
        else:
            if name not in self.first_use:
                self.count(node)
                self.inputs.append(name)
                self.first_use[name] = self.src.span(node)
            self.code.append((_INPUT, name))

    def call(self, node: ast.Call, depth: int, work: list) -> None:
        if node.keywords:
            kw = node.keywords[0]
            what = f"'{kw.arg}=…'" if kw.arg else "'**…'"
            raise self.error(f"keyword arguments such as {what} are not supported: pass numbers in order", kw)
        for arg in node.args:
            if isinstance(arg, ast.Starred):
                raise self.error("*args are not supported", arg)
        func = node.func
        args = list(node.args)
        if isinstance(func, ast.Attribute):
            name = func.attr
            if name not in METHOD_NAMES and name not in CUSTOM_OPS:
                raise self.error(f"unknown method '{name}'{_suggest(name, method_names())}", func)
            op = find_op(name)
            operands, extra = [func.value, *args[: op.arity - 1]], args[op.arity - 1 :]
            depths = [depth] + [depth + 1] * (len(operands) - 1)  # x.tanh().exp()… is a chain, not nesting
            method = True
        elif isinstance(func, ast.Name):
            name = func.id
            if name not in FUNCTION_NAMES and name not in CUSTOM_OPS:
                if name in CONSTANTS or name in self.assigned or name in self.first_use or name in self.will_assign:
                    raise self.error(f"'{name}' is not a function", func)
                raise self.error(f"unknown function '{name}'{_suggest(name, function_names())}", func)
            op = find_op(name)
            if name == "pow":
                if len(args) != 2:
                    raise self.error(f"pow takes 2 arguments, pow(a, b) (got {len(args)})", node)
                self.power(node, args[0], args[1], depth, work)
                return
            if len(args) < op.arity:
                example = f"{name}(x)" if op.arity == 1 else f"{name}(a, b)"
                plural = "s" if op.arity > 1 else ""
                raise self.error(f"{name} takes {op.arity} argument{plural}, like {example} (got {len(args)})", node)
            operands, extra = args[: op.arity], args[op.arity :]
            depths = [depth + 1] * len(operands)
            method = False
        else:
            raise self.error("only functions by name can be called, like tanh(x)", func)
        params = self.parameters(node, op, extra, len(args), method)
        self.count(node)
        work.append(((_APPLY, op, params, op.arity), depth))
        for operand, operand_depth in reversed(list(zip(operands, depths))):
            work.append((operand, operand_depth))

    def parameters(self, node: ast.Call, op: Op, extra: list[ast.AST], got: int, method: bool) -> tuple:
        """The numbers after an op's operands (``leaky_relu(x, 0.1)``): literals only, at most ``op.params``."""
        if len(extra) > len(op.params):
            if op.params:
                names = " and ".join(name for name, _ in op.params)
                takes = f"{'x' if op.arity == 1 else 'a, b'} and an optional {names}"
                raise self.error(f"too many arguments: {op.name} takes {takes} (got {got})", node)
            if op.arity == 1:
                where = f"x.{op.name}()" if method else f"{op.name}(x)"
                raise self.error(f"too many arguments: {op.name} takes none besides x, write {where} (got {got})", node)
            where = f"a.{op.name}(b)" if method else f"{op.name}(a, b)"
            raise self.error(f"too many arguments: write {where} (got {got})", node)
        params = []
        for arg, (param, default) in zip(extra, op.params):
            value = _literal(arg)
            if value is None:
                raise self.error(f"the {param} of {op.name} must be a number, like {op.name}(x, {default:g})", arg)
            params.append(value)
        return op.resolve(params)  # the defaults too, so every backend gets all of them


def compile_expression(
    text: str,
    *,
    max_length: int = MAX_TEXT_LENGTH,
    max_nesting: int = MAX_NESTING,
    max_nodes: int = MAX_NODES,
) -> Program:
    """Check ``text`` and turn it into a Program, or raise ExpressionError (and nothing else)."""
    if not isinstance(text, str):
        raise ExpressionError(f"the expression must be text, not {type(text).__name__}")
    if len(text) > max_length:
        raise ExpressionError(f"the text is too long ({len(text):,} characters; the limit is {max_length:,})")
    if "\x00" in text:
        line = text.count("\n", 0, text.index("\x00")) + 1
        raise ExpressionError("the text contains a null character", line, 1)
    _check_brackets(text, max_nesting)
    src = _Source(text)
    try:
        tree = _parse(src.source)
    except SyntaxError as exc:
        message = exc.msg or "invalid syntax"
        if message == "invalid syntax":
            message = "this is not a valid expression here"
        elif message.startswith("Exceeds the limit"):
            message = "this number has too many digits (write 1e400 instead)"
        span = src.char_span(exc.lineno, exc.offset, exc.end_lineno, exc.end_offset)
        raise ExpressionError(f"syntax error: {message}", *span) from None
    except (RecursionError, MemoryError):
        raise ExpressionError(
            f"the expression is nested too deeply (the limit is {max_nesting} levels): simplify with assignments"
        ) from None
    except (ValueError, OverflowError) as exc:
        raise ExpressionError(f"cannot read this text: {exc}") from None
    return _Compiler(text, src, max_nesting, max_nodes).compile(tree)
