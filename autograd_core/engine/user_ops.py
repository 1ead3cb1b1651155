"""Ops written by hand, the article's way: ``out = Tensor(value, label, _children)``, then ``out._backward = f``.

``backward()`` takes its fast loop while no closure was ever assigned (``closures.assigned == 0``); after that
it takes ``backward_with_user_steps``, which calls each closure in its turn and checks what it wrote, so a broken
op is named by its label instead of surfacing as a nan three layers later.
"""

from __future__ import annotations

import math

from autograd_core.engine.node_info import MANY


class _Closures:
    """How many closures were ever assigned to ``_backward``: while 0, ``backward()`` takes its fast loop only."""

    __slots__ = ("assigned",)

    def __init__(self):
        self.assigned = 0


closures = _Closures()


class UserOpError(Exception):
    """An op written by hand broke the chain rule: its closure raised or wrote a non-finite gradient."""


class UnknownDerivative(ValueError):
    """A number was asked of a node written by hand that only its ``_backward`` closure knows."""

    def __init__(self, node, what: str = "its local derivative"):
        self.node = node
        super().__init__(f"node {quoted(node.label)} is an op written in Python: {what} {UNKNOWN_LOCAL}")


UNKNOWN_LOCAL = "lives in its _backward closure, where it cannot be read"


def quoted(label: str) -> str:
    return f"'{label}'" if label else "(no label)"


def backward_with_user_steps(order: list) -> None:
    """``backward()``'s loop for a graph that may hold closures: each closure is called in its turn and checked.

    A closure that raises, or turns a finite ``out.grad`` into a non-finite gradient of an input, stops the
    walk with a ``UserOpError`` that names its node; every gradient the walk touched is put back first, so a
    failed backward leaves the graph as it was."""
    touched: dict = {}  # node → its gradient before this walk
    try:
        for node in reversed(order):
            a, g, b = node._a, node.grad, node._b
            if b is None:
                touched.setdefault(a, a.grad if a._a is None else 0.0)
                a.grad += node._da * g
            elif b is MANY:
                for parent in a:
                    touched.setdefault(parent, parent.grad if parent._a is None else 0.0)
                if node._db is None:
                    for parent, local in zip(a, node._da):
                        parent.grad += local * g
                else:
                    _call_user_step(node, a, g)
            else:
                touched.setdefault(a, a.grad if a._a is None else 0.0)
                touched.setdefault(b, b.grad if b._a is None else 0.0)
                a.grad += node._da * g
                b.grad += node._db * g
    except BaseException:
        for node, grad in touched.items():
            node.grad = grad
        for node in order:
            node.grad = 0.0
        raise


def _call_user_step(node, parents: list, g: float) -> None:
    before = [p.grad for p in parents]
    try:
        node._db()
    except Exception as error:
        raise UserOpError(
            f"the _backward of node {quoted(node.label)} raised {type(error).__name__}: {error}"
        ) from error
    if math.isfinite(g):
        for parent, old in zip(parents, before):
            if math.isfinite(old) and not math.isfinite(parent.grad):
                name = quoted(parent.label) if parent.label else f"of value {parent.data:.6g}"
                raise UserOpError(
                    f"the _backward of node {quoted(node.label)} wrote grad = {parent.grad} into its input "
                    f"{name}, from out.grad = {g:.6g}: its local derivative is not finite there"
                )
