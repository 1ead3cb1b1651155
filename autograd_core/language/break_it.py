"""Break it: ``backward()`` replayed with one of the article's two bugs, on purpose, so the learner sees what breaks.

- ``"assign"``: each edge writes ``parent.grad = local · grad`` in place of ``+=``.  On ``y = x + x`` the second
  edge overwrites the first and x's grad is 1, not 2; every step records the value it overwrote.
- ``"creation_order"``: nodes are processed in the order they were made (parents first) instead of its
  reverse, so a node passes its gradient on before its consumers have delivered any.
- ``"eager"``: each node is processed as soon as one consumer has delivered, so a node used twice passes on
  only part of its gradient; the contribution that arrives after it was processed is recorded as late.

``replay_backward(root, bug)`` simulates like ``trace.backward_steps`` (no Tensor's ``grad`` changes) and
returns a ``Replay``: its steps for the ledger, the grads it ends with, the right grads beside them, the nodes
where they differ, and, when a bug is on, ``broken = True`` with a sentence saying why, so a broken result is
never taken for a correct one.  ``bug=None`` is the correct replay, ``backward_steps`` itself, unchanged.
"""

from __future__ import annotations

import math

from autograd_core.engine.explain import derivative_formula
from autograd_core.engine.tensor import Tensor, topological_order
from autograd_core.language.trace import (
    BackwardStep,
    Contribution,
    _attr,
    _user_step,
    backward_steps,
    fmt,
    node_name,
)

BUGS: dict[str, str] = {
    "assign": "= in place of +=",
    "creation_order": "creation order",
    "eager": "each node as soon as one consumer delivered",
}


# Each bug as the article's code would have it, for the panel that switches it on.
BUG_CODE: dict[str, str] = {
    "assign": (
        "def __add__(self, other):\n"
        "    out = Value(self.data + other.data, (self, other), '+')\n"
        "    def _backward():\n"
        "        self.grad = 1.0 * out.grad   # the bug: = in place of +=\n"
        "        other.grad = 1.0 * out.grad\n"
        "    out._backward = _backward\n"
        "    return out"
    ),
    "creation_order": (
        "build_topo(self)\n"
        "self.grad = 1.0\n"
        "for node in topo:   # the bug: creation order, where backward needs reversed(topo)\n"
        "    node._backward()"
    ),
    "eager": (
        "visited = set()\n"
        "def visit(node):\n"
        "    if node not in visited:\n"
        "        visited.add(node)\n"
        "        node._backward()   # the bug: passed on as soon as one consumer delivered\n"
        "        for child in node._prev:\n"
        "            visit(child)\n"
        "self.grad = 1.0\n"
        "visit(self)"
    ),
}


class BrokenContribution(Contribution):
    """A contribution of a broken replay: what it overwrote (the "=" bug) and whether it came too late."""

    __slots__ = ("overwritten", "late")

    def __init__(self, parent, index, local, formula, contribution, before, after, overwritten, late):
        super().__init__(parent, index, local, formula, contribution, before, after)
        self.overwritten: float | None = overwritten  # the parent's gradient this edge threw away ("=" bug)
        self.late: bool = late  # the parent had already passed its gradient on: this never reaches its inputs


class BrokenStep(BackwardStep):
    """One node of a broken replay; its sentences say what the bug did."""

    __slots__ = ("assign",)

    def __init__(self, node, grad, contributions, number, seed, assign: bool):
        super().__init__(node, grad, contributions, number, seed)
        self.assign = assign  # this replay writes grad = … (the "=" bug)

    def sentences(self) -> list[str]:
        lines = []
        name = node_name(self.node)
        if self.is_root:
            lines.append(f"grad({name}) = 1.0: the output's gradient with respect to itself")
        if self.node.is_leaf:
            lines.append(f"{name} is a leaf ({self.node.kind}): nothing to pass on; {_attr(name)} = {fmt(self.grad)}")
        for c in self.contributions:
            p = node_name(c.parent)
            if c.overwritten is not None:
                lines.append(
                    f"grad({p}) = {c.formula} · {fmt(self.grad)} = {fmt(c.contribution)}: '=' threw away the "
                    f"{fmt(c.overwritten)} it held → {_attr(p)} = {fmt(c.after)}"
                )
            else:
                lines.append(
                    f"grad({p}) {'=' if self.assign else '+='} {c.formula} · {fmt(self.grad)} = "
                    f"{fmt(c.contribution)} → {_attr(p)} = {fmt(c.after)}"
                )
            if c.late:
                lines.append(f"too late: {p} had already passed its gradient on, so its inputs never get this part")
        return lines

    def marks(self) -> list[str]:
        """What each line of ``sentences()`` shows: "" (a plain line), "overwritten" or "late", for the ledger."""
        marks = [""] * ((1 if self.is_root else 0) + (1 if self.node.is_leaf else 0))
        for c in self.contributions:
            marks.append("overwritten" if c.overwritten is not None else "")
            if c.late:
                marks.append("late")
        return marks


class Replay:
    """A replay of backward, correct or broken on purpose (see the module docstring)."""

    def __init__(self, root: Tensor, bug: str | None, steps: list, grads: dict, correct: dict):
        self.root = root
        self.bug = bug
        self.broken = bug is not None
        self.steps = steps
        self.grads: dict[Tensor, float] = grads  # every node's gradient at the end of this replay
        self.correct: dict[Tensor, float] = correct  # ... and at the end of the correct one
        self.wrong: list[Tensor] = [n for n in grads if not _same(grads[n], correct[n])]

    @property
    def label(self) -> str:
        """What a screen or an export writes beside these grads: '' when correct."""
        return f"BROKEN ON PURPOSE ({BUGS[self.bug]}): these gradients are wrong" if self.broken else ""

    @property
    def reason(self) -> str:
        """Why this result is wrong, in one sentence ('' for the correct replay)."""
        if not self.broken:
            return ""
        wrong = [n for n in self.wrong if n.is_leaf] or self.wrong
        shown = "; ".join(f"{node_name(n)}.grad is {fmt(self.grads[n])}, not {fmt(self.correct[n])}" for n in wrong[:3])
        shown = shown or "no gradient came out wrong on this graph (the bug shows where an inner node is used twice)"
        if self.bug == "assign":
            lost = sum(1 for s in self.steps for c in s.contributions if c.overwritten)
            why = (
                f"broken on purpose: backward wrote grad = … in place of grad += …, so {lost} contribution"
                f"{'s were' if lost != 1 else ' was'} thrown away where a node is used more than once"
            )
        else:
            late = sum(1 for s in self.steps for c in s.contributions if c.late)
            order = (
                "in creation order" if self.bug == "creation_order" else "each node as soon as one consumer delivered"
            )
            why = (
                f"broken on purpose: backward ran {order}, so {late} contribution{'s' if late != 1 else ''} "
                "came after the node had already passed its gradient on"
            )
        return f"{why}: {shown}."


class BreakItSwitch:
    """The Break-it switch and the trace it gives stepping: the correct ``backward_steps``, or with a bug on, its
    broken replay, kept so the screen can say what broke (its grads are shown, never written into a Tensor)."""

    def __init__(self):
        self.bug: str | None = None  # a key of BUGS, None for the correct backward
        self.replay: Replay | None = None  # the broken replay of the last trace (None: it was the correct one)

    def switch(self, bug: str | None) -> bool:
        """Turn a bug on (a key of BUGS) or off (None); False when it was so already."""
        if bug is not None and bug not in BUGS:
            raise ValueError(f"unknown bug {bug!r}; choose one of {', '.join(BUGS)}")
        if bug == self.bug:
            return False
        self.bug = bug
        return True

    def trace(self, root: Tensor) -> list:
        """The steps to walk for ``root`` with the switch as it is now."""
        self.replay = replay_backward(root, self.bug) if self.bug is not None else None
        return self.replay.steps if self.replay is not None else backward_steps(root)

    @property
    def broken(self) -> bool:
        """The last trace is a broken replay: its grads are wrong on purpose, and the engine never ran it."""
        return self.replay is not None and self.replay.broken

    def message(self) -> str:
        """The status line for a broken trace ('' for the correct one)."""
        return f"BROKEN backward ({BUGS[self.replay.bug]}): {self.replay.reason}" if self.broken else ""


def _same(a: float, b: float) -> bool:
    return a == b or (math.isnan(a) and math.isnan(b)) or math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-15)


def replay_backward(root: Tensor, bug: str | None = None) -> Replay:
    """Backward replayed correctly (``bug=None``) or with one of ``BUGS``; mutates nothing."""
    if bug is not None and bug not in BUGS:
        raise ValueError(f"unknown bug {bug!r}; choose one of {', '.join(BUGS)}")
    correct_steps = backward_steps(root)
    correct = _final(root, correct_steps)
    if bug is None:
        return Replay(root, None, correct_steps, dict(correct), correct)
    order = topological_order(root)
    grads = {node: (node.grad if node.is_leaf else 0.0) for node in order}
    seed = root.grad + 1.0 if root.is_leaf else 1.0
    grads[root] = seed
    if bug == "assign":
        sequence = list(reversed(order))
    elif bug == "creation_order":
        sequence = list(order)
    else:
        sequence = None  # decided as the replay goes
    steps = _run(root, seed, grads, sequence, assign=bug == "assign")
    return Replay(root, bug, steps, grads, correct)


def _final(root: Tensor, steps: list[BackwardStep]) -> dict[Tensor, float]:
    grads = {}
    for step in steps:
        grads[step.node] = step.grad
        for c in step.contributions:
            grads[c.parent] = c.after
    grads.setdefault(root, steps[0].seed if steps else 1.0)
    return grads


def _run(root: Tensor, seed: float, grads: dict, sequence: list | None, assign: bool) -> list[BrokenStep]:
    """Process the nodes in ``sequence`` (or eagerly, when None), writing with "=" when ``assign``."""
    done: set[Tensor] = set()
    steps: list[BrokenStep] = []
    pending = [root] if sequence is None else list(reversed(sequence))  # a stack: the next node on top
    while pending:
        node = pending.pop()
        if node in done:
            continue
        done.add(node)
        g = grads[node]
        if node.is_user_op:
            plain = _user_step(node, g, grads)
            contributions = [
                BrokenContribution(c.parent, c.index, c.local, c.formula, c.contribution, c.before, c.after, None,
                                   c.parent in done and not c.parent.is_leaf)
                for c in plain
            ]  # fmt: skip
        else:
            contributions = []
            for index, (parent, local) in enumerate(zip(node.parents, node.local_grads)):
                before = grads[parent]
                contribution = local * g
                after = contribution if assign else before + contribution
                grads[parent] = after
                contributions.append(
                    BrokenContribution(
                        parent, index, local, derivative_formula(node, index), contribution, before, after,
                        before if assign and before != 0.0 else None, parent in done and not parent.is_leaf,
                    )
                )  # fmt: skip
        steps.append(BrokenStep(node, g, contributions, len(steps), seed if node is root else None, assign))
        if sequence is None:  # eager: the inputs that just got their first delivery go next, in argument order
            fresh = [c.parent for c in contributions if c.parent not in done]
            pending.extend(reversed(list(dict.fromkeys(fresh))))
    return steps
