"""Run-cost estimates against measurements, and what hostile inputs cost to refuse.

1. For a few configs (full batch, so one step's graph dominates), each in a fresh
   process: peak RSS and seconds per step measured over a few real steps, beside
   ``autograd_core.learn.run_cost.estimate_run_cost``'s peak bytes and seconds per step.
   The constants in ``run_cost`` were fitted from this table; refit them when the
   engine's node layout changes.
2. Refusals, each in a fresh process: seconds and peak RSS to refuse the issue's
   CLI runs (``--samples 100000 --batch-size 0`` with and without ``--layers 256,256``)
   and to refuse a 42 MiB session holding 5.5 M points.

    python benchmarks/bench_run_cost.py [--quick]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from autograd_core.files import format_size
from autograd_core.learn.run_cost import estimate_run_cost
from autograd_core.learn.training import Trainer, TrainingConfig
from autograd_core.session import session_dict

ROOT = Path(__file__).resolve().parents[1]
MEASURE = """
import json, resource, sys, time
sys.path.insert(0, {root!r})
from autograd_core.learn.training import Trainer, TrainingConfig
trainer = Trainer(TrainingConfig(**json.loads(sys.argv[1])))
trainer.step()
start = time.perf_counter()
for _ in range(2):
    trainer.step()
per_step = (time.perf_counter() - start) / 2
print(json.dumps({{"rss": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024, "per_step": per_step}}))
"""

CONFIGS = [
    {"samples": 2000, "layers": [16, 16]},
    {"samples": 4000, "layers": [16, 16]},
    {"samples": 2000, "layers": [64, 64]},
    {"samples": 8000, "layers": [8]},
    {"samples": 2000, "layers": [8, 8, 8, 8]},
]


def estimates_against_measurements(quick: bool) -> None:
    print("1. estimate vs measurement (full batch, test 25 %, fresh process each)")
    print(f"{'config':28}{'peak RSS':>12}{'estimate':>12}{'ratio':>7}{'s/step':>9}{'estimate':>10}{'ratio':>7}")
    for fields in CONFIGS[:2] if quick else CONFIGS:
        fields = {**fields, "batch_size": 0, "steps": 10}
        out = subprocess.run(
            [sys.executable, "-c", MEASURE.format(root=str(ROOT)), json.dumps(fields)],
            capture_output=True,
            text=True,
            check=True,
        )
        measured = json.loads(out.stdout)
        cost = estimate_run_cost(TrainingConfig(**fields))
        name = f"{fields['samples']} samples, {','.join(map(str, fields['layers']))}"
        print(
            f"{name:28}{format_size(measured['rss']):>12}{format_size(cost.peak_bytes):>12}"
            f"{cost.peak_bytes / measured['rss']:>7.2f}{measured['per_step']:>9.3f}{cost.seconds_per_step:>10.3f}"
            f"{cost.seconds_per_step / measured['per_step']:>7.2f}"
        )


def timed(command: list[str]) -> tuple[float, int, str]:
    """Seconds, peak RSS (bytes) and the last stderr line of a command run under a tiny Python wrapper."""
    wrapper = (
        "import resource, subprocess, sys, time; t = time.perf_counter(); "
        "r = subprocess.run(sys.argv[1:], capture_output=True, text=True); "
        "print(time.perf_counter() - t, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024); "
        "print(r.stderr.strip().splitlines()[-1] if r.stderr.strip() else '')"
    )
    out = subprocess.run([sys.executable, "-c", wrapper, *command], capture_output=True, text=True, check=True)
    first, last = out.stdout.splitlines()[:2]
    seconds, rss = first.split()
    return float(seconds), int(rss), last


def refusals() -> None:
    print("\n2. refusing hostile input (fresh process each: wall time, peak RSS, the message)")
    main = [sys.executable, str(ROOT / "main.py"), "train"]
    with tempfile.TemporaryDirectory() as tmp:
        doc = session_dict(Trainer(TrainingConfig(samples=40, layers=[4], steps=5)))
        doc["data"]["X_train"] = "@POINTS@"
        head, tail = json.dumps(doc).encode().split(b'"@POINTS@"')
        huge = Path(tmp) / "huge.json"
        huge.write_bytes(head + b"[" + b"[.1,.2]," * 5_499_999 + b"[.1,.2]]" + tail)
        cases = [
            ("--samples 100000 --batch-size 0", [*main, "--samples", "100000", "--batch-size", "0"]),
            (
                "... --layers 256,256",
                [*main, "--samples", "100000", "--batch-size", "0", "--layers", "256,256"],
            ),
            (f"--load ({format_size(huge.stat().st_size)}, 5.5 M points)", [*main, "--load", str(huge)]),
        ]
        for name, command in cases:
            seconds, rss, message = timed(command)
            print(f"{name:40}{seconds:7.2f} s{format_size(rss):>12}   {message[:110]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="two configs only")
    args = parser.parse_args()
    estimates_against_measurements(args.quick)
    refusals()


if __name__ == "__main__":
    main()
