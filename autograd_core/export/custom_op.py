"""An op of the workshop as code: the article's closure for the engine, and an expression of torch ops.

The learner's texts are never pasted into the code: their compiled programs (the expression language's
stack machine) are run with strings instead of numbers, each op becoming a fixed piece of code from the
tables here; another op of the learner's is written out inline, from its own program.
"""

from __future__ import annotations

from autograd_core.engine.custom_ops import CUSTOM_OPS
from autograd_core.export.common import ExportUnsupported, number, spellings
from autograd_core.language.expression import CONSTANTS, Program
from autograd_core.language.workshop_definition import OpDefinition, compile_definition

_OPERATORS = {"add": "+", "sub": "-", "mul": "*", "div": "/"}


def _code(program: Program, leaves: dict[str, str], calls: dict[str, str], target: str) -> str:
    def literal(value) -> str:
        written = number(value)
        return f"({written})" if written.startswith("-") else written

    def function_of(op):
        def apply(*args):
            operands = [a if isinstance(a, str) else literal(a) for a in args[: op.arity]]
            params = dict(zip((name for name, _ in op.params), (number(v) for v in args[op.arity :])))
            name = op.base.name
            if name in _OPERATORS:
                return f"({operands[0]} {_OPERATORS[name]} {operands[1]})"
            if name == "neg":
                return f"(-{operands[0]})"
            if name in CUSTOM_OPS and name not in calls:
                inner = CUSTOM_OPS.source(name)
                return f"({_code(inner.value, dict(zip(inner.definition.inputs, operands)), calls, target)})"
            if name not in calls:
                raise ExportUnsupported(f"the op uses {name}, which has no {target} counterpart here")
            text = calls[name].format(*operands, **params)  # operands are names, calls or in brackets
            return text if _is_call(calls[name]) else f"({text})"

        return apply

    def constant(name: str) -> str:
        return "math.pi" if name == "pi" and target == "Python" else number(CONSTANTS[name])

    code = program._run(leaves, literal, constant, function_of, lambda value, _name: value)[0]
    return _unwrap(code) if isinstance(code, str) else literal(code)


def _is_call(template: str) -> bool:
    """``f(…)`` as one call, whose brackets hold everything after its name."""
    head, _, rest = template.partition("(")
    return bool(head) and head.replace(".", "").isidentifier() and _closes_at_end("(" + rest)


def _closes_at_end(text: str) -> bool:
    depth = 0
    for i, ch in enumerate(text):
        depth += ch == "("
        depth -= ch == ")"
        if depth == 0:
            return i == len(text) - 1
    return False


def _unwrap(code: str) -> str:
    return code[1:-1] if code.startswith("(") and _closes_at_end(code) else code


def python_closure(definition: OpDefinition) -> str:
    """The op as the article writes one: the value from ``.data``, then ``_backward`` adding local × out.grad."""
    compiled = compile_definition(definition)
    d = compiled.definition
    data = {x: f"{x}.data" for x in d.inputs}
    value = _code(compiled.value, data, spellings("python"), "Python")
    children = f"({d.inputs[0]},)" if len(d.inputs) == 1 else f"({', '.join(d.inputs)})"
    lines = [
        f"def {d.name}({', '.join(d.inputs)}):",
        f"    out = Tensor({value}, {d.name!r}, _children={children})",
        "",
        "    def _backward():",
    ]
    for x, program in zip(d.inputs, compiled.derivatives):
        local = _code(program, data, spellings("python"), "Python")
        local = local if _is_call(local) or local.replace(".", "").isalnum() else f"({local})"
        lines.append(f"        {x}.grad += {local} * out.grad")
    lines += ["", "    out._backward = _backward", "    return out", ""]
    return "\n".join(lines)


def torch_expression(definition: OpDefinition, operands: tuple[str, ...] | None = None) -> str:
    """The op's value as torch ops on tensors named ``operands`` (its inputs by default): torch differentiates it."""
    compiled = compile_definition(definition)
    names = operands or compiled.definition.inputs
    return _code(compiled.value, dict(zip(compiled.definition.inputs, names)), spellings("torch"), "PyTorch")


def torch_function(definition: OpDefinition) -> str:
    """``def name(x): return <torch ops>``, to paste before a model that uses it as its activation."""
    return f"def {definition.name}({', '.join(definition.inputs)}):\n    return {torch_expression(definition)}\n"


def ops_needed(names) -> list[str]:
    """The learner's ops among ``names`` and every op of theirs those call, in the order they were defined."""
    wanted: set[str] = set()
    stack = [n for n in names if n in CUSTOM_OPS]
    while stack:
        name = stack.pop()
        if name not in wanted:
            wanted.add(name)
            stack.extend(getattr(CUSTOM_OPS.source(name), "uses", ()))
    return [name for name in CUSTOM_OPS.names() if name in wanted]


def definitions_code(names) -> list[str]:
    """Lines that define the learner's ops ``names`` (and those they call) in a script on this library: the texts
    as string literals, checked again there by the workshop (never run as Python)."""
    needed = ops_needed(names)
    if not needed:
        return []
    lines = [
        "# ---- your ops from the workshop: their texts, checked again here in the expression language",
        "from autograd_core.language.workshop import OpDefinition, define",
        "",
    ]
    for name in needed:
        d = CUSTOM_OPS.source(name).definition
        lines.append(f"assert define(OpDefinition({d.name!r}, {d.inputs!r}, {d.value!r}, {d.derivatives!r})).accepted")
    for name in needed:  # what each one is, in the article's own form (a comment: the engine's op above runs)
        try:
            closure = python_closure(CUSTOM_OPS.source(name).definition)
        except ExportUnsupported:
            continue
        lines += [
            "",
            f"# {name} in the article's form:",
            *(f"# {line}" if line else "#" for line in closure.splitlines()),
        ]
    return [*lines, ""]


def torch_module_name(name: str) -> str:
    return f"Op_{name}"


def torch_module(definition: OpDefinition) -> str:
    """The op as a ``torch.nn.Module`` of torch ops, so a ``nn.Sequential`` can take it as an activation."""
    x = definition.inputs[0]
    return (
        f"class {torch_module_name(definition.name)}(nn.Module):\n"
        f'    """Your op {definition.name} from the workshop, as torch ops: torch differentiates them."""\n\n'
        f"    def forward(self, {x}):\n"
        f"        return {torch_expression(definition)}\n"
    )
