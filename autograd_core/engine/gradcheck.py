"""Autograd against central finite differences: the test every gradient in this project is held to."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from autograd_core.engine.tensor import Tensor, no_grad

INF = math.inf


class GradcheckResult:
    """Analytic vs numeric gradient of one input."""

    __slots__ = ("name", "analytic", "numeric", "rel_error")

    def __init__(self, name: str, analytic: float, numeric: float, rel_error: float):
        self.name, self.analytic, self.numeric, self.rel_error = name, analytic, numeric, rel_error

    def __repr__(self) -> str:
        return (
            f"GradcheckResult({self.name}: autograd={self.analytic:.6g}, "
            f"numeric={self.numeric:.6g}, rel={self.rel_error:.2g})"
        )


def relative_error(a: float, b: float) -> float:
    """|a − b| / max(|a|, |b|, 1): relative for large gradients, absolute below 1 (where
    finite-difference round-off would swamp a pure relative error); 0 for equal infinities."""
    if a == b:
        return 0.0
    if not (math.isfinite(a) and math.isfinite(b)):
        return INF
    return abs(a - b) / max(abs(a), abs(b), 1.0)


def gradcheck(
    fn: Callable[..., Tensor], values: Sequence[float], eps: float = 1e-6, names: Sequence[str] | None = None
) -> list[GradcheckResult]:
    """Compare autograd with central finite differences for ``fn(*tensors)``.

    ``fn`` is called with fresh leaf Tensors built from ``values`` and must
    return a Tensor.  The step is scaled with the size of each value.
    """
    names = list(names) if names is not None else [f"x{i + 1}" for i in range(len(values))]
    leaves = [Tensor(v, label=n) for v, n in zip(values, names)]
    fn(*leaves).backward()
    results = []
    for i, v in enumerate(values):
        h = eps * max(1.0, abs(v))
        with no_grad():
            up = fn(*[Tensor(v + h if j == i else w) for j, w in enumerate(values)]).data
            down = fn(*[Tensor(v - h if j == i else w) for j, w in enumerate(values)]).data
        numeric = (up - down) / (2.0 * h)
        results.append(GradcheckResult(names[i], leaves[i].grad, numeric, relative_error(leaves[i].grad, numeric)))
    return results
