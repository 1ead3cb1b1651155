"""The op workshop's definitions: an op the learner writes as text, refused in one sentence or made an ``Op``.

An ``OpDefinition`` is a name, one or two input names, the value and one local
derivative per input, each typed in the expression language (``x / (1 + abs(x))``).
``compile_definition`` checks it against everything a hostile or careless text can
do (a name that shadows the language or the engine, a 10,000-character name, an op
that calls itself directly or through another of the learner's ops, a text outside
the language's whitelist, a formula so big it never ends) and raises a
``WorkshopError`` naming the field at fault.  ``make_op`` turns a compiled
definition into an ``Op`` of the engine's kind: its rule, numpy twin and
higher-order derivative all run the learner's text through the language's own
machine, never through eval.
"""

from __future__ import annotations

import keyword
import re
from dataclasses import dataclass

from autograd_core.engine.custom_ops import CUSTOM_OPS
from autograd_core.engine.ops import OPS, Op, wrap
from autograd_core.engine.tensor import Tensor
from autograd_core.language.expression import (
    CONSTANTS,
    FUNCTION_NAMES,
    METHOD_NAMES,
    ExpressionError,
    Program,
    compile_expression,
)
from autograd_core.language.symbolic import Sym

NAME_LIMIT = 32  # characters of an op's or an input's name
TEXT_LIMIT = 400  # characters of a value or a derivative
NESTING_LIMIT = 40  # brackets and calls inside one another
NODE_LIMIT = 300  # nodes of one value or derivative
COST_LIMIT = 5_000  # steps to compute the op once, through the learner's ops it calls
RESERVED = frozenset({"linear", "True", "False", "None"})  # the network builder's "no activation", Python's words

_IDENTIFIER = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
_NAMES_IN_TEXT = re.compile(r"(?<![\w.])[A-Za-z_]\w*")  # a name, not a method (x.tanh) nor inside 1e5
_CALLED_NAMES = re.compile(r"(?<!\w)[A-Za-z_]\w*")  # a name or a method
_APPLY = 4  # the language's instruction that applies an op (see expression.py)


class WorkshopError(ValueError):
    """A definition refused, in one sentence; ``field`` says where: "name", "inputs", "value" or "derivative <x>"."""

    def __init__(self, message: str, field: str = "name"):
        super().__init__(message)
        self.message = message
        self.field = field

    def __str__(self) -> str:
        return self.message


@dataclass(frozen=True)
class OpDefinition:
    """What the learner typed: ``name(inputs) = value`` and ∂name/∂input for each input, as text."""

    name: str
    inputs: tuple[str, ...]
    value: str
    derivatives: tuple[str, ...]

    def to_dict(self) -> dict:
        """Plain data for sessions and settings."""
        return {
            "name": self.name,
            "inputs": list(self.inputs),
            "value": self.value,
            "derivatives": list(self.derivatives),
        }

    @classmethod
    def from_dict(cls, data: object) -> OpDefinition:
        """The definition ``to_dict`` wrote; a WorkshopError for anything else (a settings file edited by hand)."""
        if not isinstance(data, dict):
            raise WorkshopError(f"an op is saved as a table of name, inputs, value, derivatives, got {data!r:.60}")
        inputs, derivatives = data.get("inputs"), data.get("derivatives")
        texts = (data.get("name"), data.get("value"), *(inputs or ()), *(derivatives or ()))
        if (
            not isinstance(inputs, list)
            or not isinstance(derivatives, list)
            or not all(isinstance(t, str) for t in texts)
        ):
            raise WorkshopError(
                f"a saved op needs a name, a list of inputs, a value and a list of derivatives: {data!r:.80}"
            )
        return cls(data["name"], tuple(inputs), data["value"], tuple(derivatives))

    def backward_lines(self, out: str = "out") -> list[str]:
        """The article's ``_backward`` body, filled in with the typed derivatives: ``x.grad += (…) * out.grad``."""
        return [f"{x}.grad += {wrap_text(d)} * {out}.grad" for x, d in zip(self.inputs, self.derivatives)]

    def signature(self) -> str:
        return f"{self.name}({', '.join(self.inputs)})"


def wrap_text(text: str) -> str:
    """Brackets around a typed formula unless it is one name or number."""
    text = " ".join(text.split())
    return text if re.fullmatch(r"[\w.]+", text) else f"({text})"


class CompiledDefinition:
    """A definition that passed every check: its programs, the learner's ops it calls, and its cost."""

    def __init__(self, definition: OpDefinition, value: Program, derivatives: list[Program], uses: set[str], cost: int):
        self.definition = definition
        self.value = value
        self.derivatives = derivatives
        self.uses = uses  # names of the learner's ops it calls
        self.cost = cost  # steps of the language's machine to compute the value and the derivatives once


# ------------------------------------------------------------------ checks


def _check_identifier(name: object, what: str, field: str) -> str:
    if not isinstance(name, str) or not name:
        raise WorkshopError(f"give the {what} a name", field)
    if len(name) > NAME_LIMIT:
        raise WorkshopError(
            f"the {what}'s name is {len(name):,} characters long; a name is at most {NAME_LIMIT}", field
        )
    if not _IDENTIFIER.fullmatch(name):
        raise WorkshopError(
            f"the {what}'s name {name!r} must be letters, digits and _, starting with a letter (like my_op)", field
        )
    if keyword.iskeyword(name) or name in RESERVED:
        raise WorkshopError(f"{name!r} is a word Python or the app keeps for itself: pick another name", field)
    if name in CONSTANTS:
        raise WorkshopError(f"{name!r} is a constant of the language: pick another name", field)
    if name in OPS or name in FUNCTION_NAMES or name in METHOD_NAMES:
        raise WorkshopError(
            f"{name!r} is already an op of the engine, and yours would hide it: pick another name", field
        )
    return name


def _check_name(definition: OpDefinition) -> None:
    name = _check_identifier(definition.name, "op", "name")
    if CUSTOM_OPS.is_reserved(name):
        raise WorkshopError(f"{name!r} is a name every node already answers to (Tensor.{name}): pick another", "name")


def _check_inputs(definition: OpDefinition) -> None:
    inputs = definition.inputs
    if not isinstance(inputs, tuple) or not 1 <= len(inputs) <= 2:
        raise WorkshopError("an op takes one input (x) or two (x, y)", "inputs")
    for name in inputs:
        _check_identifier(name, "input", "inputs")
        if name == definition.name:
            raise WorkshopError(f"the op and its input are both called {name!r}: rename one", "inputs")
        if name in CUSTOM_OPS:
            raise WorkshopError(f"the input {name!r} has the name of one of your ops: call it x", "inputs")
    if len(set(inputs)) != len(inputs):
        raise WorkshopError(f"the two inputs have the same name {inputs[0]!r}", "inputs")
    if not isinstance(definition.derivatives, tuple) or len(definition.derivatives) != len(inputs):
        raise WorkshopError(f"type one derivative per input: ∂{definition.name}/∂{' and ∂'.join(inputs)}", "inputs")


def _field(definition: OpDefinition, index: int | None) -> tuple[str, str]:
    """(the field's name for WorkshopError, the field in words)."""
    if index is None:
        return "value", "the value"
    x = definition.inputs[index]
    return f"derivative {x}", f"the derivative for {x}"


def _compile_text(definition: OpDefinition, index: int | None) -> Program:
    text = definition.value if index is None else definition.derivatives[index]
    field, what = _field(definition, index)
    if not isinstance(text, str) or not text.strip():
        raise WorkshopError(f"type {what}", field)
    if len(text) > TEXT_LIMIT:
        raise WorkshopError(f"{what} is {len(text):,} characters long; an op's formula is at most {TEXT_LIMIT}", field)
    if definition.name in _CALLED_NAMES.findall(text):
        raise WorkshopError(
            f"{what} calls {definition.name} itself: an op is written with ops that exist already, not with itself",
            field,
        )
    try:
        program = compile_expression(text, max_length=TEXT_LIMIT, max_nesting=NESTING_LIMIT, max_nodes=NODE_LIMIT)
    except ExpressionError as error:
        raise WorkshopError(f"{what} is not in the language: {error.message} ({error.where()})", field) from None
    if program.assigned:
        raise WorkshopError(f"write {what} as one expression, without naming parts (h = …)", field)
    strangers = [n for n in program.inputs if n not in definition.inputs]
    if strangers:
        raise WorkshopError(f"{what} uses {strangers[0]!r}, which is not an input of {definition.signature()}", field)
    return program


def _custom_ops_in(program: Program) -> list[str]:
    return [ins[1].base.name for ins in program._code if ins[0] == _APPLY and ins[1].base.name in CUSTOM_OPS]


def _path_to(start: str, target: str) -> list[str] | None:
    """The chain of the learner's ops from ``start`` that reaches ``target`` (recursion), or None."""
    stack = [[start]]
    seen = set()
    while stack:
        path = stack.pop()
        if path[-1] == target:
            return path
        if path[-1] in seen:
            continue
        seen.add(path[-1])
        compiled = CUSTOM_OPS.source(path[-1])
        for used in getattr(compiled, "uses", ()):
            stack.append([*path, used])
    return None


def compile_definition(definition: OpDefinition) -> CompiledDefinition:
    """Check ``definition`` and compile its texts; a WorkshopError with one sentence if anything is wrong."""
    if not isinstance(definition, OpDefinition):
        raise WorkshopError(f"expected an OpDefinition, got {type(definition).__name__}")
    _check_name(definition)
    _check_inputs(definition)
    value = _compile_text(definition, None)
    derivatives = [_compile_text(definition, i) for i in range(len(definition.inputs))]
    uses: set[str] = set()
    cost = value.node_count + sum(p.node_count for p in derivatives)
    for index, program in enumerate([value, *derivatives]):
        _, what = _field(definition, index - 1 if index else None)
        for used in _custom_ops_in(program):
            path = _path_to(used, definition.name) if used != definition.name else None
            if path:
                chain = ", which calls ".join(path[:-1])
                raise WorkshopError(
                    f"{what} calls {chain}, which calls {definition.name}: an op cannot call itself",
                    _field(definition, index - 1 if index else None)[0],
                )
            uses.add(used)
            cost += getattr(CUSTOM_OPS.source(used), "cost", 0)
            if cost > COST_LIMIT:
                raise WorkshopError(
                    f"{what} would take more than {COST_LIMIT:,} steps to compute once, through the ops it calls: "
                    "a formula that never ends in practice; write it with fewer calls",
                    _field(definition, index - 1 if index else None)[0],
                )
    return CompiledDefinition(definition, value, derivatives, uses, cost)


# ------------------------------------------------------------------ the op


_NUM, _INPUT, _CONST = 0, 1, 3  # the language's other instructions (see expression.py)
_FAST = {"add": lambda f, g: lambda v: f(v) + g(v), "sub": lambda f, g: lambda v: f(v) - g(v),
         "mul": lambda f, g: lambda v: f(v) * g(v)}  # fmt: skip


def _same(value, _name):
    return value


def float_function(program: Program, inputs: tuple[str, ...]):
    """``program`` on plain floats as nested closures, one per instruction, each calling its op's float rule
    (IEEE: inf and nan, never an exception); the closures are built from the instructions, never from text."""
    stack: list = []
    for ins in program._code:
        code = ins[0]
        if code == _NUM or code == _CONST:
            number = ins[1] if code == _NUM else CONSTANTS[ins[1]]
            stack.append(lambda v, number=number: number)
        elif code == _INPUT:
            k = inputs.index(ins[1])
            stack.append(lambda v, k=k: v[k])
        elif code == _APPLY:
            op, params = ins[1], ins[2]
            if ins[3] == 2:
                g, f = stack.pop(), stack.pop()
                fast = _FAST.get(op.base.name)
                stack.append(fast(f, g) if fast else (lambda v, f=f, g=g, rule=op.rule: rule(f(v), g(v))[0]))
            else:
                f = stack.pop()
                stack.append(lambda v, f=f, rule=op.rule, p=params: rule(f(v), *p)[0])
        else:  # pragma: no cover - a definition has no assignments (compile_definition refuses them)
            raise WorkshopError("an op's formula has no assignments")
    (top,) = stack
    if len(inputs) == 1:
        return lambda a: float(top((a,)))
    return lambda a, b: float(top((a, b)))


def _sym_run(program: Program, leaves: dict[str, Sym]) -> Sym:
    builder = next(iter(leaves.values())).builder

    def function_of(op: Op):
        return lambda *args: builder.apply(op.bind(tuple(args[op.arity :])), tuple(args[: op.arity]))

    constant = lambda name: builder.number(CONSTANTS[name])  # noqa: E731
    leaves = {n: leaves.get(n, builder.number(0.0)) for n in program.inputs}
    result = program._run(leaves, builder.number, constant, function_of, _same)[0]
    return result if isinstance(result, Sym) else builder.number(result)


def make_op(compiled: CompiledDefinition) -> Op:
    """The definition as an ``Op``: rule, numpy twin, higher-order derivative, ledger text, all from its texts."""
    d = compiled.definition
    inputs, arity = d.inputs, len(d.inputs)
    value = float_function(compiled.value, inputs)
    locals_ = [float_function(p, inputs) for p in compiled.derivatives]
    if arity == 1:
        (d0,) = locals_

        def rule(a):
            return value(a), d0(a)

    else:
        d0, d1 = locals_

        def rule(a, b):
            return value(a, b), d0(a, b), d1(a, b)

    def numpy(*arrays):
        return compiled.value.evaluate_array(dict(zip(inputs, arrays)))

    def derivative(out, *operands):
        operands = operands[:arity]
        if any(isinstance(o, Sym) for o in operands):
            builder = next(o for o in operands if isinstance(o, Sym)).builder
            syms = {n: o if isinstance(o, Sym) else builder.number(float(o)) for n, o in zip(inputs, operands)}
            return tuple(_sym_run(p, syms) for p in compiled.derivatives)
        leaves = {
            n: o if isinstance(o, Tensor) else Tensor(float(o), kind="constant") for n, o in zip(inputs, operands)
        }
        return tuple(p.evaluate(leaves).output for p in compiled.derivatives)

    def formula(index: int, operands) -> str:
        names = dict(zip(inputs, (wrap(t) for t in operands)))
        text = " ".join(d.derivatives[index].split())
        return _NAMES_IN_TEXT.sub(lambda m: names.get(m.group(0), m.group(0)), text)

    text = f"{d.name}({{0}})" if arity == 1 else f"{d.name}({{0}}, {{1}})"
    help_ = f"{d.signature()} = {' '.join(d.value.split())} — your op, checked in the workshop"
    return Op(
        name=d.name,
        arity=arity,
        rule=rule,
        derivative=derivative,
        numpy=numpy,
        text=text,
        formula=formula,
        help=help_,
        activation=arity == 1,
    )
