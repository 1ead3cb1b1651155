"""One op of the engine as one record with named fields: its value and local derivatives, its NumPy twin, how
it reads in the ledger, and how the exports spell it (``Spellings``).

The op table (``ops.OPS``) is made of these records; so is an op the learner writes in the workshop. Everything
that knows about an op reads it from its record, so adding an op is one entry (see ``ops.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from autograd_core.numbers import LEDGER, counted, format_number

INF = float("inf")


@dataclass(frozen=True)
class Spellings:
    """How the exports write the op, each a template over its operands ``{0}``, ``{1}`` and parameters
    (``{slope}``); ``None`` where that target has no spelling (the export then says so in one sentence).

    ``numpy`` is a call in the NumPy script (``np.exp({0})``, or a helper's name: ``relu({0})``), and
    ``numpy_helper`` that helper's definition with the helpers it ``numpy_needs``; ``torch`` is a torch call,
    ``torch_module`` the op as an ``nn`` module (an activation of ``nn.Sequential``); ``python`` plain Python
    on floats (``math``), as the article's closures compute a value.
    """

    numpy: str | None = None
    numpy_helper: str | None = None
    numpy_needs: tuple[str, ...] = ()
    torch: str | None = None
    torch_module: str | None = None
    python: str | None = None


def wrap(text: str) -> str:
    """Brackets around a compound operand: 'a' stays, 'a + b' becomes '(a + b)'."""
    return text if text.replace("_", "").replace(".", "").isalnum() or text == "…" else f"({text})"


def number_text(x: float) -> str:
    return format_number(x, LEDGER)


class Op:
    """One op of the engine, with everything about it (see the module docstring).

    ``arity`` is the number of Tensor operands (1 or 2; 0 for n-ary ops).
    ``params`` are the op's numeric parameters as ``(name, default)``: the
    language passes them as optional number arguments (``leaky_relu(x, 0.1)``)
    and a node keeps them in its bound op (``op.bind(0.1)``), so formulas and
    higher derivatives see the value used.
    """

    __slots__ = (
        "name",
        "spell",
        "tag_of",
        "arity",
        "rule",
        "derivative",
        "numpy",
        "text",
        "formula",
        "help",
        "params",
        "activation",
        "output_range",
        "function",
        "method",
        "symbol",
        "wrap",
        "tag",
        "args",
        "base",
        "apply",
        "kind",
        "entry",
        "_bound",
    )
    label = ""  # an op node without a label keeps its Op as its description (see tensor.NodeInfo)
    group = None

    def __init__(
        self,
        *,
        name: str,
        arity: int,
        rule: Callable,
        derivative: Callable | None,
        numpy: Callable | None,
        text: str | Callable,
        formula: Sequence[str] | Callable,
        help: str,
        spell: Spellings | None = None,
        params: Sequence[tuple[str, float]] = (),
        activation: bool = False,
        output_range: tuple[float, float] | Callable = (-INF, INF),
        function: bool = True,
        method: bool = True,
        symbol: str | None = None,
        wrap: Sequence[bool] = (),
        tag: Callable | None = None,
    ):
        self.name = name
        self.arity = arity
        self.rule = rule
        self.derivative = derivative
        self.numpy = numpy
        self.text = text
        self.formula = formula
        self.help = help
        self.params = tuple(params)
        self.activation = activation
        self.output_range = output_range
        self.function = function
        self.method = method
        self.symbol = symbol
        self.wrap = tuple(wrap) or (False,) * max(arity, 1)
        self.args: tuple[float, ...] = tuple(default for _, default in self.params)
        self.spell = spell or Spellings()
        self.tag_of = tag  # a parameterised op's tag from its parameters ("**3" for x ** 3)
        self.tag = tag(*self.args) if tag else (symbol or name)  # what ``node.op`` reads
        self.base = self  # the table entry a bound copy came from
        self.apply: Callable | None = None  # the Tensor-level function, set when Tensor derives its methods
        self.kind = "constant"  # a result built under no_grad is a constant leaf
        self.entry = self
        self._bound: dict[tuple[float, ...], Op] = {}

    def __repr__(self) -> str:
        args = f"{self.args}" if self.params else ""
        return f"Op({self.tag!r}{args})"

    def bind(self, args: tuple[float, ...]) -> Op:
        """This op with its parameters set (shared between nodes; the defaults give the entry itself)."""
        if args == self.args:
            return self.base
        bound = self.base._bound.get(args)
        if bound is None:
            if len(self.base._bound) > 4096:  # x ** many different exponents: don't grow without bound
                self.base._bound.clear()
            bound = object.__new__(Op)
            for slot in Op.__slots__:
                setattr(bound, slot, getattr(self.base, slot))
            bound.args = args
            bound.entry = bound
            bound.tag = self.base.tag_of(*args) if self.base.tag_of else self.base.tag
            bound._bound = {}
            self.base._bound[args] = bound
        return bound

    def resolve(self, given: Sequence[Any]) -> tuple[float, ...]:
        """The parameters from optional positional arguments (defaults for the rest)."""
        if len(given) > len(self.params):
            raise TypeError(f"{self.name}() takes at most {counted(len(self.params), 'parameter')}, got {len(given)}")
        return tuple(float(v) for v in given) + self.args[len(given) :]

    def range(self) -> tuple[float, float]:
        """The values the op can take (for color scales): (lo, hi), ±inf when unbounded."""
        r = self.output_range
        return r(*self.args) if callable(r) else r

    # ---- words

    def show(self, operands: Sequence[str], node: Any = None) -> str:
        """The node as a formula of its operands' texts: 'a*b', 'tanh(h)', 'x**2'."""
        if callable(self.text):
            return self.text(operands, node)
        ops = [wrap(t) if w else t for t, w in zip(operands, self.wrap)]
        return self.text.format(*ops, **self._param_texts())

    def derivative_text(self, index: int, operands: Sequence[str]) -> str:
        """∂node/∂operand[index] as text in terms of the operands: 'b', '(1 − tanh²(h))'."""
        if callable(self.formula):
            return self.formula(index, operands, *self.args)
        return (
            self.formula[index].format(*operands, **self._param_texts())
            if self.params
            else self.formula[index].format(*operands)
        )

    def _param_texts(self) -> dict[str, str]:
        return {name: number_text(value) for (name, _), value in zip(self.params, self.args)}
