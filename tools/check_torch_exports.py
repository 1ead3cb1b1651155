"""Dev check: the exports against real PyTorch, in a venv of its own (torch is not a dependency of the project).

    python tools/check_torch_exports.py [--venv DIR] [--quick]

Makes the venv if it is missing (``python -m venv DIR``, then torch 2.13.0 and the project's own pins of
numpy, networkx, scikit-learn, pytest and hypothesis), runs ``tests/core/export/test_export_torch.py`` in it, then
the five named runs of ``main.py train`` at their real settings (``--quick``: the tests' fewer steps): for each
it prints the command line's train loss, the ``--export-python`` script's, the ``--export-torch`` script's and
their differences.  Exits 1 when a test fails or a difference passes 1e-9 (python) or 1e-6 (torch).
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
TORCH = "torch==2.13.0"
PINNED = ("numpy", "networkx", "scikit-learn", "scipy", "pytest", "hypothesis")
# The five runs at their real settings (the tests take fewer steps: tests/export_helpers.py MATRIX).
RUNS = {
    "moons-preset": ["--preset"],
    "full-batch-sgd": ["--optimizer", "sgd", "--schedule", "constant", "--batch-size", "0", "--lr", "0.5"],
    "blobs-3": ["--dataset", "blobs", "--classes", "3"],
    "regression-sin": ["--task", "regression", "--target", "sin(3*x)"],
    "article": ["--preset", "article"],
}


def pins() -> list[str]:
    """The project's pinned versions of the packages the checks need (requirements*.txt)."""
    wanted = []
    for name in ("requirements.txt", "requirements-dev.txt"):
        for line in (REPO / name).read_text().splitlines():
            match = re.match(r"^([A-Za-z0-9_.-]+)==(\S+)", line.strip())
            if match and match.group(1).lower() in PINNED:
                wanted.append(f"{match.group(1)}=={match.group(2)}")
    return wanted


def venv_python(venv: Path) -> Path:
    return venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def ensure_venv(venv: Path) -> Path:
    python = venv_python(venv)
    if not python.exists():
        print(f"making {venv} ...", flush=True)
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    has_torch = subprocess.run([str(python), "-c", "import torch, sklearn, pytest"], capture_output=True)
    if has_torch.returncode != 0:
        print(f"installing {TORCH} and {', '.join(pins())} ...", flush=True)
        subprocess.run([str(python), "-m", "pip", "install", "-q", TORCH, *pins()], check=True)
    return python


def last_loss(python: Path, script: Path) -> float:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    done = subprocess.run([str(python), str(script)], cwd=REPO, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(done.stderr[-2000:])
    return float(done.stdout.strip().splitlines()[-1].removeprefix("train loss "))


def run_matrix(python: Path, quick: bool) -> bool:
    sys.path.insert(0, str(REPO / "tests"))
    sys.path.insert(0, str(REPO))
    from export_helpers import MATRIX, cli_train_loss

    runs = MATRIX if quick else RUNS
    good = True
    print(f"\n{'run':16} {'CLI train loss':>22} {'python export':>22} {'diff':>9} {'torch export':>22} {'diff':>9}")
    with tempfile.TemporaryDirectory() as folder:
        for name, argv in runs.items():
            py, pt = Path(folder) / f"{name}.py", Path(folder) / f"{name}_torch.py"
            cli = cli_train_loss([*argv, "--yes", "--export-python", str(py), "--export-torch", str(pt)])
            ours, theirs = last_loss(python, py), last_loss(python, pt)
            d_py, d_pt = abs(ours - cli), abs(theirs - cli)
            good &= d_py <= 1e-9 and d_pt <= 1e-6
            print(f"{name:16} {cli!r:>22} {ours!r:>22} {d_py:9.1e} {theirs!r:>22} {d_pt:9.1e}", flush=True)
    return good


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--venv", default=str(REPO / ".venv-torch"), help="the venv with torch (default .venv-torch)")
    parser.add_argument("--quick", action="store_true", help="the tests' shorter runs")
    parser.add_argument("--inside", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    venv = Path(args.venv).resolve()
    if not args.inside:
        python = ensure_venv(venv)
        return subprocess.run(
            [str(python), __file__, "--venv", str(venv), "--inside", *(["--quick"] if args.quick else [])]
        ).returncode
    python = Path(sys.executable)
    tests = subprocess.run(
        [str(python), "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/core/export/test_export_torch.py"],
        cwd=REPO,
    )
    good = run_matrix(python, args.quick)
    print("\nall within 1e-9 (python) and 1e-6 (torch)" if good else "\nsome differences are too large")
    return 0 if tests.returncode == 0 and good else 1


if __name__ == "__main__":
    sys.exit(main())
