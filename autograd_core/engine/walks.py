"""Walks over a graph of nodes: every node after its parents (``topological_order``), and ``backward()``'s walk
over the nodes that pass a gradient on (``interior_order``).

Kept apart from the node (``tensor.py``): they read only a node's parent slots (``_a``, ``_b``; ``MANY`` marks a
list of parents), so they are the engine's one place that knows how to go through a graph without recursion.
"""

from __future__ import annotations

from autograd_core.engine.node_info import MANY


def topological_order(root) -> list:
    """Every node reachable from ``root``, each after all of its parents.

    Iterative depth-first post-order (an explicit stack, so a chain of a
    million ops is fine); parents are visited in argument order.  A node met
    for the first time is pushed back under an ``_EXIT`` mark, its later
    operands on top, and the walk goes straight on to its first operand; the
    node is written out when its mark comes off the stack, after its parents.
    """
    order: list = []
    visited: set = set()
    stack: list = []
    push, pop, emit, visit = stack.append, stack.pop, order.append, visited.add
    exit_, many = _EXIT, MANY
    node = root
    while True:
        while node not in visited:
            visit(node)
            a = node._a
            if a is None:
                emit(node)
                break
            push(node)
            push(exit_)
            b = node._b
            if b is not None:
                if b is many:
                    for parent in a[:0:-1]:
                        if parent not in visited:
                            push(parent)
                    a = a[0]
                elif b not in visited:
                    push(b)
            node = a
        if not stack:
            return order
        node = pop()
        while node is exit_:
            emit(pop())
            if not stack:
                return order
            node = pop()


def interior_order(root) -> list:
    """``topological_order(root)`` without its leaves, with every gradient set to 0: ``backward()``'s walk.

    The same walk with the leaves skipped (they have nothing to pass on), so
    ``backward()`` visits nodes in exactly the order ``trace`` replays.  A
    visited node is marked by its gradient being ``_ZERO``, a 0.0 of its own
    (no set to fill; ``backward()`` then adds into it, which replaces it).
    If anything interrupts the walk, the marks are removed.
    """
    order: list = []
    stack: list = []
    push, pop, emit = stack.append, stack.pop, order.append
    exit_, many, zero = _EXIT, MANY, _ZERO
    node = root
    try:
        while True:
            while node._a is not None and node.grad is not zero:
                node.grad = zero
                push(node)
                push(exit_)
                a = node._a
                b = node._b
                if b is not None:
                    if b is many:
                        for parent in a[:0:-1]:
                            if parent._a is not None and parent.grad is not zero:
                                push(parent)
                        a = a[0]
                    elif b._a is not None and b.grad is not zero:
                        push(b)
                node = a
            if not stack:
                return order
            node = pop()
            while node is exit_:
                emit(pop())
                if not stack:
                    return order
                node = pop()
    except BaseException:
        for marked in (*order, *stack):
            if marked is not exit_:
                marked.grad = 0.0
        raise


_EXIT = object()  # the stack mark "this node's parents are done"
_ZERO = float("0")  # a 0.0 that is no other 0.0 (literals are shared): "visited" in backward()'s walk
