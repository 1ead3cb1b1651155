"""Engine speed before and after a change, in machine instructions (valgrind's callgrind), not seconds.

A change to the engine's hot loops must cost nothing on the library's own ops; on a shared 2-core machine a
wall-clock or even CPU-time benchmark (``bench_engine.py``) moves by 10–30 % with the load beside it.  Callgrind
counts the instructions Python executes, which do not depend on the load, so a difference of 1 % is real.

Both trees (the working tree and ``--ref``, checked out into a temporary folder) run the same workloads as
``bench_engine.py`` (micrograd's demo network 2-16-16-1 on 100 points: the per-op graph of 65,818 nodes and the
fused training step), each step being forward, zero_grad, backward and update. A workload runs ``--steps`` and
1 step in two processes; the difference divided by ``--steps − 1`` is the cost of one step, without Python's
start and the imports. The points are made with ``random`` (make_moons's shape, not its values), so no
scikit-learn import lands in the count.

    python benchmarks/bench_engine_instructions.py [--ref HEAD~3] [--steps 3]

Needs valgrind (``apt-get install valgrind``).  Each tree takes about a minute.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CHILD = r"""
import math, random, sys
sys.path.insert(0, sys.argv[1])
sys.path.insert(0, sys.argv[2])
from autograd_core import Tensor  # first: bench_engine puts the working tree on sys.path
from autograd_core.learn.nn import MLP
from bench_engine import MicrogradShapedMLP, micrograd_loss, fused_loss
assert sys.modules["autograd_core"].__file__.startswith(sys.argv[1])  # the tree asked for, not the working one

random.seed(1)
X = [[math.cos(t) + random.gauss(0, 0.1), math.sin(t) + random.gauss(0, 0.1)] for t in
     (math.pi * k / 50 for k in range(100))]
y = [1 if k % 2 else -1 for k in range(100)]
random.seed(1337)
if sys.argv[3] == "per-op":
    model = MicrogradShapedMLP(Tensor, 2, [16, 16, 1])
    loss_fn = lambda: micrograd_loss(Tensor, model, X, y)
else:
    model = MLP(2, [16, 16, 1], seed=1337)
    loss_fn = lambda: fused_loss(model, X, y)
for _ in range(int(sys.argv[4])):
    loss = loss_fn()
    for p in model.parameters():
        p.grad = 0.0
    loss.backward()
    for p in model.parameters():
        p.data -= 0.01 * p.grad
"""


def instructions(tree: Path, workload: str, steps: int) -> int:
    """Instructions (callgrind's Ir) of a whole process running ``steps`` steps of ``workload`` in ``tree``."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "callgrind.out"
        subprocess.run(
            [
                "valgrind",
                "--tool=callgrind",
                f"--callgrind-out-file={out}",
                sys.executable,
                "-c",
                CHILD,
                str(tree),
                str(ROOT / "benchmarks"),
                workload,
                str(steps),
            ],
            check=True,
            capture_output=True,
        )
        match = re.search(r"^(?:summary|totals): (\d+)", out.read_text(), re.M)
        return int(match.group(1))


def per_step(tree: Path, workload: str, steps: int) -> float:
    return (instructions(tree, workload, steps) - instructions(tree, workload, 1)) / (steps - 1)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ref", default="HEAD", help="the tree to compare the working tree with (a git revision)")
    parser.add_argument("--steps", type=int, default=3, help="steps in the long run (the short run takes 1)")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        print("valgrind is not installed: apt-get install valgrind", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory() as tmp:
        before = Path(tmp) / "before"
        before.mkdir()
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", args.ref], check=True, capture_output=True)
        subprocess.run(["tar", "-x", "-C", str(before)], input=archive.stdout, check=True)
        print(f"instructions per step (callgrind), {args.ref} against the working tree")
        print(f"{'workload':<12}{args.ref:>18}{'working tree':>18}{'change':>10}")
        for workload in ("per-op", "fused"):
            old, new = per_step(before, workload, args.steps), per_step(ROOT, workload, args.steps)
            print(f"{workload:<12}{old:>18,.0f}{new:>18,.0f}{(new - old) / old:>+10.2%}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
