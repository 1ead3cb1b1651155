"""The op workshop: the learner writes an op, the app checks its derivative, and a checked op is first-class.

The API a panel uses (no Qt here; observe ``CUSTOM_OPS.subscribe`` for changes):

- ``OpDefinition(name, inputs, value, derivatives)``: what was typed (``definition.backward_lines()`` is the
  article's ``x.grad += <local> * out.grad``, filled in);
- ``check_definition(definition, lo, hi, points)`` → ``CheckResult`` (``workshop_check``): arrays for the plot,
  ``accepted``, ``message`` ("at x = 1.5 your derivative gives 0.16, the slope is 0.25."), ``field``;
- ``define(definition, lo, hi)``: the same check, and when accepted the op is registered: typed by name in
  expressions, a box of its own in the graph, its local derivative in the ledger, forward mode, higher order,
  an activation of the network builder (``nn.activation_names()``);
- ``undefine(name)``; ``definitions()``; ``save_definitions()`` / ``load_definitions(data)`` for sessions and
  settings (plain lists of dicts; a loaded op is checked again, so a hand-edited file cannot slip one in).

The Python and PyTorch texts of an op are in ``autograd_core.export.custom_op``.
"""

from __future__ import annotations

from autograd_core.engine.custom_ops import CUSTOM_OPS
from autograd_core.language.workshop_check import CheckResult, check_definition
from autograd_core.language.workshop_definition import OpDefinition, WorkshopError, make_op

MAX_OPS = 64  # ops a session or the settings may bring

__all__ = [
    "CheckResult",
    "OpDefinition",
    "WorkshopError",
    "check_definition",
    "define",
    "definitions",
    "load_definitions",
    "save_definitions",
    "undefine",
]


def define(definition: OpDefinition, lo: float = -3.0, hi: float = 3.0, points: int | None = None) -> CheckResult:
    """Check ``definition``; if it is accepted, register its op (replacing an op of yours of the same name)."""
    result = check_definition(definition, lo, hi, points)
    if result.accepted:
        CUSTOM_OPS.register(make_op(result.compiled), result.compiled)
    return result


def undefine(name: str) -> None:
    """Remove an op of yours: its name is free again; graphs already built keep their nodes."""
    CUSTOM_OPS.unregister(name)


def definitions() -> list[OpDefinition]:
    """The ops you defined in the workshop, in the order you defined them (an op registered from code, with no
    definition behind it, is not one: a session cannot keep it)."""
    sources = (CUSTOM_OPS.source(name) for name in CUSTOM_OPS.names())
    return [source.definition for source in sources if source is not None]


def save_definitions() -> list[dict]:
    """Your ops as plain data (for a session file or the app's settings)."""
    return [d.to_dict() for d in definitions()]


def load_definitions(data: object, lo: float = -3.0, hi: float = 3.0) -> list[str]:
    """Define every op saved by ``save_definitions``, in order; returns one sentence per op refused.

    An op already defined with the same texts is left as it is (a training process told the ops again)."""
    if not isinstance(data, list):
        return [f"the saved ops must be a list, got {type(data).__name__}"]
    if len(data) > MAX_OPS:
        return [f"{len(data):,} saved ops; the workshop keeps at most {MAX_OPS}"]
    problems = []
    for item in data:
        try:
            definition = OpDefinition.from_dict(item)
        except WorkshopError as error:
            problems.append(error.message)
            continue
        known = CUSTOM_OPS.source(definition.name)
        if known is not None and known.definition == definition:
            continue  # checked when it was defined: defining it again would only notify every observer
        result = define(definition, lo, hi)
        if not result.accepted:
            name = definition.name if len(definition.name) <= 40 else definition.name[:40] + "…"
            problems.append(f"{name}: {result.message}")
    return problems
