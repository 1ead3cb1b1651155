"""Shared by the export tests: the command line in this process, an exported script in a child interpreter."""

from __future__ import annotations

import contextlib
import importlib.util
import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

from autograd_core import cli

REPO = Path(__file__).resolve().parents[1]

# The five runs every export must reproduce (fewer steps than their real settings, to keep the tests short).
MATRIX = {
    "moons-preset": ["--preset", "--steps", "40"],
    "full-batch-sgd": ["--optimizer", "sgd", "--schedule", "constant", "--batch-size", "0", "--lr", "0.5",
                       "--steps", "25"],
    "blobs-3": ["--dataset", "blobs", "--classes", "3", "--steps", "40"],
    "regression-sin": ["--task", "regression", "--target", "sin(3*x)", "--steps", "60"],
    "article": ["--preset", "article", "--steps", "12"],
}  # fmt: skip


def cli_run(argv: list[str]) -> tuple[int, str, str]:
    """``main.py train`` in this process: exit code, stdout, stderr (argparse's exits become the code)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = cli.main(argv)
        except SystemExit as exc:
            code = exc.code
    return code, out.getvalue(), err.getvalue()


def cli_train_loss(argv: list[str]) -> float:
    code, out, err = cli_run([*argv, "--json"])
    assert code == 0, err
    return json.loads(out.strip().splitlines()[-1])["train_loss"]


def script_train_loss(path, python: str = sys.executable) -> float:
    """Run an exported script as ``python FILE`` from the repo root; its last line is ``train loss X``."""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    done = subprocess.run([python, str(path)], cwd=REPO, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    last = done.stdout.strip().splitlines()[-1]
    match = re.fullmatch(r"train loss (\S+)", last)
    assert match, last
    return float(match.group(1))


def load_module(path):
    spec = importlib.util.spec_from_file_location(Path(path).stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# Features that use every op of the expression language (at most 8 a model), in its function and method forms.
FEATURE_GROUPS = [
    ["pow(x1**2 + 1, x2)", "max(x1, x2)", "min(x1, x2)", "relu(x1 - 0.5)", "leaky_relu(x2, 0.2)", "tanh(x1*x2)",
     "sigmoid(3*x1)", "elu(x2, 0.5)"],
    ["selu(x1)", "silu(x2)", "gelu(x1 + x2)", "gelu_tanh(x1)", "softsign(x2)", "hardtanh(x1, -0.5, 0.5)", "mish(x2)",
     "softplus(x1)"],
    ["exp(-x1**2)", "log(x2**2 + 1)", "sin(2*x1)", "cos(pi*x2)", "abs(x1) / (1 + x2**2)", "sqrt(abs(x2))", "erf(x1)",
     "2**x1 - e"],
    ["(x1*x2).relu()", "h = x1 + x2\nh*h - x1.max(x2)", "x1", "-x2 / 3", "pi", "x1 * exp(1) + sqrt(2)",
     "max(x1, 0.5) + min(2, x2) + pow(2, x1) + pow(x2, 2)", "x1 ** (1 + 1) + x2.max(-1)"],
]  # fmt: skip
