"""Graphs to draw in geometry tests and layout benchmarks: the examples and seeded random expressions."""

from __future__ import annotations

import json
import random
from pathlib import Path

EXAMPLES = json.loads((Path(__file__).resolve().parents[1] / "resources" / "examples.json").read_text("utf-8"))
UNARY = ("tanh", "relu", "sigmoid", "exp", "log", "sin", "abs")
BINARY = ("+", "-", "*", "/")


def random_expression(seed: int, lines: int | None = None) -> str:
    """A few assignment lines over inputs a…f that reuse earlier names (shared nodes, long edges)."""
    rng = random.Random(seed)
    inputs = [chr(ord("a") + i) for i in range(rng.randint(2, 6))]
    names = list(inputs)
    lines = lines if lines is not None else rng.randint(2, 10)

    def term(depth: int) -> str:
        roll = rng.random()
        if depth <= 0 or roll < 0.15:
            return rng.choice(names) if rng.random() < 0.9 else str(rng.choice((2, 3, 0.5)))
        if roll < 0.45:
            return f"{rng.choice(UNARY)}({term(depth - 1)})"
        if roll < 0.5:
            return f"({term(depth - 1)})**2"
        return f"({term(depth - 1)} {rng.choice(BINARY)} {term(depth - 1)})"

    out = []
    for i in range(lines):
        name = f"h{i + 1}"
        out.append(f"{name} = {term(rng.randint(2, 4))}")
        names.append(name)
    tail = rng.sample(names[len(inputs) :], k=min(len(names) - len(inputs), rng.randint(2, 4)))
    out.append(" + ".join(tail) if tail else names[-1])
    return "\n".join(out)


def graph_of(text: str):
    """The networkx graph of ``text`` evaluated at 0.5 for every input."""
    from autograd_core.drawing.graph import to_networkx
    from autograd_core.language.expression import compile_expression

    program = compile_expression(text)
    return to_networkx(program.evaluate({name: 0.5 for name in program.inputs}).output)


def cases(random_count: int = 200) -> list[tuple[str, str]]:
    """(name, text) for every example and ``random_count`` random expressions."""
    named = [(e["name"], e["text"]) for e in EXAMPLES]
    return named + [(f"random #{seed}", random_expression(seed)) for seed in range(random_count)]
