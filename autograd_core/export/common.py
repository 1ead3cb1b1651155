"""What every export shares: the exception, the result type, number and array literals, and the translation of a
feature (an expression of x1, x2) into NumPy or PyTorch code.

A feature is the learner's text, so it is never pasted into a script: its compiled program (the expression
language's stack machine, ``language.expression``) is run with strings instead of numbers, and each op of the
op table becomes the matching call of a fixed table here.  Numbers are written with ``repr`` (they read back
exactly); anything else the learner typed reaches a script only inside ``repr()`` string literals or comments
cut to one line.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from autograd_core.engine.custom_ops import CUSTOM_OPS
from autograd_core.engine.ops import OPS
from autograd_core.language.expression import CONSTANTS
from autograd_core.learn.features import feature_program

# More points (or weights) than this go into a .npz file beside the script instead of its text.
INLINE_LIMIT = 10_000
LINE_WIDTH = 100


# The batch order of ``Trainer`` (its ``_epoch_order`` and ``_next_batch``) as code, written once for both scripts:
# ``n`` (the training points) is defined just before it.
BATCH_ORDER = '''position = 0  # points drawn so far; epoch e shuffles them with random.Random(f"batches:{SEED}:{e}")
orders = {}


def next_batch():
    """The next BATCH training points, in the shuffled order of their epoch (a batch may run into the next epoch)."""
    global position
    if BATCH <= 0 or BATCH >= n:
        return list(range(n))  # full batch: every step is one epoch
    picked = []
    while len(picked) < BATCH:
        epoch, start = divmod(position, n)
        if epoch not in orders:
            order = list(range(n))
            random.Random(f"batches:{SEED}:{epoch}").shuffle(order)
            orders[epoch] = order
        take = min(BATCH - len(picked), n - start)
        picked.extend(orders[epoch][start : start + take])
        position += take
    return picked
'''


class ExportUnsupported(ValueError):
    """The run uses something the export's target has no counterpart for; ``str()`` is one sentence saying what."""


@dataclass
class ScriptExport:
    """A script's text and, when the data is too big to write into it, the arrays of its ``.npz`` file
    (named like the script, ``.npz`` instead of ``.py``; the script finds it beside itself)."""

    text: str
    arrays: dict[str, np.ndarray] | None = None


TorchExport = ScriptExport


def number(value: float) -> str:
    """A float as Python reads it back exactly (``inf`` and ``nan`` through ``float()``)."""
    value = float(value)
    if math.isfinite(value):
        return repr(value)
    return f'float("{value}")'


def one_line(text: str, limit: int = 80) -> str:
    """User text made safe for a comment: one line, clipped."""
    flat = "; ".join(" ".join(line.split()) for line in str(text).splitlines() if line.strip())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def wrapped(items: list[str], indent: str = "    ") -> str:
    """``items`` joined with commas, wrapped at ``LINE_WIDTH`` (the body of a list literal)."""
    lines, line = [], indent
    for item in items:
        piece = item + ","
        if len(line) + len(piece) + 1 > LINE_WIDTH and line.strip():
            lines.append(line.rstrip())
            line = indent
        line += piece + " "
    if line.strip():
        lines.append(line.rstrip())
    return "\n".join(lines)


def list_literal(values) -> str:
    """A (nested) list of numbers as Python source: rows one after another, wrapped."""
    array = np.asarray(values)
    if array.ndim == 1:
        items = [str(int(v)) if np.issubdtype(array.dtype, np.integer) else number(v) for v in array.tolist()]
        return "[\n" + wrapped(items) + "\n]" if items else "[]"
    rows = ["[" + ", ".join(number(v) for v in row) + "]" for row in array.tolist()]
    if any(len(row) > LINE_WIDTH - 8 for row in rows):  # long rows (a layer's weights): one row a block
        blocks = ["    [\n" + wrapped([number(v) for v in row], "        ") + "\n    ]," for row in array.tolist()]
        return "[\n" + "\n".join(blocks) + "\n]"
    return "[\n" + wrapped(rows) + "\n]" if rows else "[]"


# ------------------------------------------------------------ features as code

# The exports' spellings of each op come from its record (``Op.spell``): the op table's, and those of an op
# registered beside it (``CUSTOM_OPS``). Built on each call, so an op registered later is spelled too.


def _ops():
    return [*OPS.values(), *(CUSTOM_OPS.get(name) for name in CUSTOM_OPS.names())]


def spellings(target: str) -> dict[str, str]:
    """Op name → how ``target`` ("numpy", "torch", "torch_module" or "python") writes it, for every op that
    has a spelling there."""
    return {op.name: text for op in _ops() if (text := getattr(op.spell, target)) is not None}


# NumPy helpers that are no op of their own: erfc (GELU's exact form) and the identity of a linear layer.
_EXTRA_NUMPY_HELPERS = {
    "erfc": ("erfc = np.vectorize(math.erfc, otypes=[float])\n", ()),
    "linear": ("def linear(z):\n    return z\n", ()),
}


def numpy_helper_table() -> dict[str, tuple[str, tuple[str, ...]]]:
    """Helper name → (its definition in the NumPy script, the helpers it needs defined before it)."""
    table = {op.name: (op.spell.numpy_helper, op.spell.numpy_needs) for op in _ops() if op.spell.numpy_helper}
    return {**table, **_EXTRA_NUMPY_HELPERS}


_OPERATORS = {"add": "+", "sub": "-", "mul": "*", "div": "/"}


def feature_code(text: str, target: str, prefix: str = "part") -> tuple[str, set[str], list[str]]:
    """The feature ``text`` as one NumPy (``target`` "numpy") or PyTorch ("torch") expression of the arrays
    ``x1`` and ``x2``, the names of the NumPy helpers it calls, and the lines to run before it: one per named
    part (``h = x1*x2``), as ``{prefix}1 = …`` (the learner's names stay out of the code).  A part without x1
    or x2 is worked out here (with the op table's numpy twins, as the app does) and written as its number.
    Raises ExportUnsupported for an op the target table lacks."""
    calls = spellings(target)
    helpers = numpy_helper_table()
    program = feature_program(text)
    used: set[str] = set()

    def literal(value) -> str:
        written = number(value)
        return f"({written})" if written.startswith("-") else written

    def function_of(op):
        def apply(*args):
            operands, values = args[: op.arity], args[op.arity :]
            if not any(isinstance(a, str) for a in operands):  # only numbers: the number itself
                with np.errstate(all="ignore"):
                    return float(op.numpy(*operands, *values))
            operands = [a if isinstance(a, str) else literal(a) for a in operands]
            params = dict(zip((name for name, _ in op.params), (number(v) for v in values)))
            if op.name in _OPERATORS:
                return f"({operands[0]} {_OPERATORS[op.name]} {operands[1]})"
            if op.name == "neg":
                return f"(-{operands[0]})"
            if op.name not in calls:
                raise ExportUnsupported(f"the feature {one_line(text)!r} uses {op.name}, which has no {target} twin")
            if target == "numpy":
                head = calls[op.name].split("(", 1)[0]
                if head in helpers:
                    used.add(head)
            if target == "torch" and op.name in ("max", "min") and not all(isinstance(a, str) for a in args[:2]):
                # torch.maximum takes two tensors: against a number it is a clamp (the same values)
                tensor, bound = (operands[0], operands[1]) if isinstance(args[0], str) else (operands[1], operands[0])
                return f"torch.clamp({tensor}, {'min' if op.name == 'max' else 'max'}={bound})"
            return calls[op.name].format(*operands, **params)

        return apply

    setup: list[str] = []
    names: set[str] = set()

    def label(value, _name):  # a named part computed once, on its own line
        if not isinstance(value, str) or value in leaves or value in names:
            return value
        part = f"{prefix}{len(setup) + 1}"
        setup.append(f"{part} = {value}")
        names.add(part)
        return part

    leaves = {name: name for name in ("x1", "x2")}
    code, _ = program._run(leaves, float, CONSTANTS.__getitem__, function_of, label)
    if not isinstance(code, str):  # a constant feature: one column of its value
        full = "np.full(len(x1), {})" if target == "numpy" else "torch.full_like(x1, {})"
        return full.format(number(code)), used, setup
    if code in leaves:  # a feature that is only x1 or x2 still makes its own column
        code = f"({code} + 0.0)"
    return code, used, setup


def numpy_helpers(names: set[str]) -> str:
    """The definitions of the NumPy helpers ``names`` (and of those they call), in a fixed order."""
    wanted: list[str] = []
    table = numpy_helper_table()

    def add(name: str) -> None:
        for need in table[name][1]:
            add(need)
        if name not in wanted:
            wanted.append(name)

    for name in sorted(names):
        add(name)
    return "\n\n".join(table[name][0] for name in wanted)


def check_activation(name: str, table: dict, target: str) -> None:
    if name != "linear" and name not in table:
        raise ExportUnsupported(f"the activation {name} has no {target} counterpart")
