"""The op workshop's check of a definition: how long ``check_definition`` takes, the figure the GUI thread waits.

Target: under 250 ms for a typical definition (softsign with abs, a smooth one, a refused one, two inputs);
and a custom op as the activation of a 2-16-16-1 network against the built-in op of the same maths.

    python benchmarks/bench_workshop.py [--repeats 20] [--steps 20]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from autograd_core.engine.custom_ops import CUSTOM_OPS
from autograd_core.language.workshop import OpDefinition, check_definition, define
from autograd_core.learn.training import Trainer, TrainingConfig

CASES = {
    "softsign (abs: piecewise)": OpDefinition("soft", ("x",), "x / (1 + abs(x))", ("1 / (1 + abs(x))**2",)),
    "tanh from exp (smooth)": OpDefinition(
        "my_tanh", ("x",), "(exp(2*x) - 1) / (exp(2*x) + 1)", ("1 - ((exp(2*x) - 1) / (exp(2*x) + 1))**2",)
    ),
    "wrong derivative (refused)": OpDefinition("soft", ("x",), "x / (1 + abs(x))", ("1 / (1 + abs(x))",)),
    "two inputs, 21 × 21": OpDefinition("blend", ("x", "y"), "x*y + sin(x)", ("y + cos(x)", "x")),
    # near the size limits: 12 kinks, 300 characters, two inputs (the symbolic comparison runs out of time)
    "large, two inputs (worst case)": OpDefinition(
        "big",
        ("x", "y"),
        "+".join(f"abs(x - {k}*y) * sin(x + {k})" for k in range(12)),
        ("+".join(f"(x - {k}*y)/abs(x - {k}*y) * sin(x + {k}) + abs(x - {k}*y) * cos(x + {k})" for k in range(4)), "0"),
    ),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=20)
    parser.add_argument("--steps", type=int, default=20)
    args = parser.parse_args()
    print("check_definition (default grid: 201 points, or 21 × 21 for two inputs), ms:")
    for label, definition in CASES.items():
        check_definition(definition)  # warm
        times = []
        for _ in range(args.repeats):
            start = time.perf_counter()
            result = check_definition(definition)
            times.append((time.perf_counter() - start) * 1000)
        verdict = "accepted" if result.accepted else "refused"
        print(f"  {label:30s} median {statistics.median(times):6.1f}  max {max(times):6.1f}  ({verdict})")

    define(CASES["softsign (abs: piecewise)"])
    print(f"training step, 2-16-16-1 on moons, median of {args.steps} steps, ms:")
    per_step = {}
    for activation in ("softsign", "soft"):
        trainer = Trainer(TrainingConfig(activation=activation, layers=[16, 16], seed=1))
        trainer.step()
        times = []
        for _ in range(args.steps):
            start = time.perf_counter()
            trainer.step()
            times.append((time.perf_counter() - start) * 1000)
        per_step[activation] = statistics.median(times)
        print(f"  {activation:10s} {per_step[activation]:7.1f}")
    print(f"  the workshop's op / the built-in op: {per_step['soft'] / per_step['softsign']:.2f}×")
    CUSTOM_OPS.clear()


if __name__ == "__main__":
    main()
