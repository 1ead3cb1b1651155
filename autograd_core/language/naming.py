"""One naming scheme for a network's inputs, units and parameters, used by the core and every view.

Counting starts at 1, as in the maths a learner reads: the inputs are
``x1, x2`` (typed the same way in the expression language), layer ``l``'s
``j``-th unit is ``Ll.nj`` and its weights ``w1 … wn`` multiply its inputs
in order (``L1.n3.w2`` is the weight from x2 into the third unit of the
first layer; ``L2.n1.w3`` the weight from ``L1.n3``), its bias ``b``.
Indices passed to these functions are 0-based positions in arrays.
"""

from __future__ import annotations

import re

_UNIT = re.compile(r"L([1-9][0-9]*)\.n[1-9][0-9]*")


def input_name(index: int) -> str:
    """The ``index``-th input (0-based position): ``x1``, ``x2`` …"""
    return f"x{index + 1}"


def unit_name(layer: int, index: int) -> str:
    """Unit ``index`` (0-based) of layer ``layer`` (1 = first hidden layer); layer 0 is the inputs."""
    return input_name(index) if layer == 0 else f"L{layer}.n{index + 1}"


def unit_layer(name: str | None) -> int | None:
    """The layer of a unit named by ``unit_name`` (``L2.n5`` → 2), or None for any other name (``x1``, ``loss``)."""
    match = _UNIT.fullmatch(name) if isinstance(name, str) else None
    return int(match.group(1)) if match else None


def weight_label(source: int) -> str:
    """A unit's weight on its ``source``-th input (0-based): ``w1`` …"""
    return f"w{source + 1}"


def parameter_name(layer: int, unit: int, source: int | None) -> str:
    """``L1.n3.w2`` for a weight, ``L1.n3.b`` for a bias (``source`` None); ``layer`` ≥ 1."""
    return f"{unit_name(layer, unit)}.{'b' if source is None else weight_label(source)}"


def connection_name(layer: int, unit: int, source: int) -> str:
    """The edge a weight sits on, ``x2 → L1.n3``: from unit ``source`` of the layer before."""
    return f"{unit_name(layer - 1, source)} → {unit_name(layer, unit)}"


def class_name(index: int, names=None) -> str:
    """Class ``index`` (0-based) by the name its data set gives it (iris: ``setosa``), else ``class 0`` …"""
    if names is not None and 0 <= index < len(names) and str(names[index]).strip():
        return str(names[index])
    return f"class {index}"


def standardized_name(feature: str) -> str:
    """A standardized column's name: its unit, if it names one, becomes ``standardized`` (mean 0, standard
    deviation 1 has no unit): ``petal length (cm)`` → ``petal length (standardized)``, ``alcohol`` →
    ``alcohol (standardized)``."""
    base = feature.rstrip()
    if base.endswith(")") and " (" in base:
        base = base[: base.rindex(" (")]
    return f"{base} (standardized)"


def input_label(index: int, feature: str | None = None) -> str:
    """Input ``index`` with its feature's human name beside it, for a view with room: ``x1 · PC1``,
    ``x2 · petal width (cm)``; plain ``x1`` when the data set names no feature (or names it ``x1``).
    The graph and the diagram's nodes keep the plain name: it is the name the maths uses."""
    name = input_name(index)
    return name if not feature or feature == name else f"{name} · {feature}"
