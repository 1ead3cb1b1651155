"""The op table: everything the engine and the app know about an op, in one entry.

Each ``Op`` holds, side by side:

- ``rule``: the float value and the local derivative(s), computed together
  (``rule(a, b) -> (value, ∂/∂a, ∂/∂b)``); the engine's fast path calls it
  directly, and forward mode's tangent rule is the same locals times the
  operands' tangents (ẏ = Σ ∂y/∂xᵢ · ẋᵢ), so it cannot drift from them;
- ``derivative``: the same local derivatives written with the engine's own
  ops, so a gradient can itself be differentiated (``grad(create_graph=True)``,
  Hessians); ``None`` means the op is piecewise linear: its float locals are
  constants and every higher derivative is 0 (PyTorch agrees);
- ``numpy``: its twin on numpy arrays (vectorised forward, ``evaluate_array``);
- ``name``: its name in the expression language and as a ``Tensor`` method;
- ``text`` and ``formula``: how a node and its local derivatives read in the
  backward ledger, graph hover and error messages;
- ``help``: one line for the app; ``activation`` and ``output_range`` for the
  network builder and the neuron maps.

Everything else is derived from ``OPS``: the ``Tensor`` methods, the
language's whitelist, the MLP activations, the vectorised forward, the
neuron maps' color ranges, the help text and the exports' spellings.  Adding an op is
one entry (in ``arithmetic.py``, ``activations.py`` or ``functions.py``) plus its tests.  Numbers follow
IEEE like numpy and PyTorch: no rule ever raises a Python arithmetic exception.

The package, by job: ``record.py`` (the ``Op`` record and its ``Spellings``), ``floats.py`` (IEEE-safe
primitives and numpy twins), and the ops by family, each op's rule, derivative and entry together:
``arithmetic.py``, ``activations.py``, ``functions.py``.  This module assembles the table.
"""

from __future__ import annotations

from autograd_core.engine.ops.activations import ACTIVATIONS
from autograd_core.engine.ops.arithmetic import ARITHMETIC, NARY
from autograd_core.engine.ops.floats import (  # noqa: F401  (part of the API)
    GELU_TANH_C,
    GELU_TANH_K,
    INF,
    INV_SQRT_2PI,
    NAN,
    SELU_ALPHA,
    SELU_SCALE,
    SQRT1_2,
    TWO_OVER_SQRT_PI,
    ieee_div,
    ieee_exp,
    ieee_log,
    ieee_pow,
    sigmoid_array,
    softmax_array,
    softplus,
    stable_sigmoid,
    stable_softmax,
)
from autograd_core.engine.ops.functions import FUNCTIONS
from autograd_core.engine.ops.record import Op, Spellings, number_text, wrap  # noqa: F401  (part of the API)

# In this order: the network builder offers the activations in it, and help lists the ops in it.
OPS: dict[str, Op] = {op.name: op for op in (*ARITHMETIC, *ACTIVATIONS, *FUNCTIONS, *NARY)}
ACTIVATION_OPS: tuple[Op, ...] = tuple(op for op in OPS.values() if op.activation)
LANGUAGE_OPS: dict[str, Op] = {op.name: op for op in OPS.values() if op.function or op.method}
