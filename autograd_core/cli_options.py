"""The command line's options: ``build_parser`` (every ``TrainingConfig`` field an option, with the config's
defaults), the types that read each option's text into one clear line on a mistake, and reading a points file.

Apart from ``cli.py``, which runs a training from the options: what the options are is one job, what a run does
with them another.
"""

from __future__ import annotations

import argparse
import csv
import dataclasses
import json
import re

from autograd_core.export.options import add_export_options
from autograd_core.files import (
    count_json_values,
    read_regular_file,
)
from autograd_core.learn.data import DATASETS, MAX_CLASSES, MAX_SAMPLES
from autograd_core.learn.losses import LOSSES
from autograd_core.learn.nn import ACTIVATIONS, INITIALIZATIONS
from autograd_core.learn.optim import OPTIMIZERS, SCHEDULES
from autograd_core.learn.presets import PRESETS
from autograd_core.learn.run_cost import option_name
from autograd_core.learn.training import TrainingConfig

DEFAULTS = TrainingConfig()


class _Parser(argparse.ArgumentParser):
    """argparse, but an error is a single line (plus where to look), exit code 2."""

    def error(self, message: str):
        self.exit(2, f"{self.prog}: error: {one_line(message)} (see --help)\n")


def _layers(text: str) -> list[int]:
    """'16,16' → [16, 16]; '' or 'none' → no hidden layer (a linear model)."""
    text = text.strip()
    if text.lower() in ("", "none"):
        return []
    try:
        widths = [int(part) for part in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"layers must be widths separated by commas, like 16,16; got {clip(text)!r}"
        ) from None
    if any(w < 1 for w in widths):
        raise argparse.ArgumentTypeError(f"every layer needs at least one neuron; got {clip(text)!r}")
    return widths


def _activations(text: str) -> list[str]:
    """'tanh,relu' → one activation per hidden layer."""
    names = [part.strip() for part in text.split(",") if part.strip()]
    bad = [n for n in names if n not in ACTIVATIONS]
    if not names or bad:
        raise argparse.ArgumentTypeError(
            f"activations must be names separated by commas, one per hidden layer, from {', '.join(ACTIVATIONS)}; "
            f"got {clip(text)!r}"
        )
    return names


def _columns(text: str) -> list[int]:
    """'2,3' → two column numbers of iris or wine."""
    try:
        columns = [int(part) for part in text.split(",")]
    except ValueError:
        columns = []
    if len(columns) != 2:
        raise argparse.ArgumentTypeError(f"columns must be two column numbers like 2,3; got {clip(text)!r}")
    return columns


def _whole_number(text: str) -> int:
    """Only the syntax: the range is the config's (``TrainingConfig.validate``), so every message about it agrees."""
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {clip(text)!r}") from None


def _number(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {clip(text)!r}") from None
    if value != value or value in (float("inf"), float("-inf")):
        raise argparse.ArgumentTypeError(f"expected a finite number, got {clip(text)!r}")
    return value


def clip(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def one_line(text: str, limit: int = 400) -> str:
    """Whatever a message holds (a repr of a huge list, a newline), print it as one readable line."""
    return clip(" ".join(str(text).split()), limit)


# A points file holds at most MAX_SAMPLES points; a CSV line or a pretty-printed JSON point is < 100 bytes.
MAX_POINTS_BYTES = 16 * 2**20


def _betas(text: str) -> list[float]:
    """'0.9,0.999' → [0.9, 0.999] (Adam's β₁, β₂)."""
    parts = text.split(",")
    if len(parts) != 2:
        raise argparse.ArgumentTypeError(
            f"betas must be two numbers separated by a comma, like 0.9,0.999; got {text!r}"
        )
    return [_number(part.strip()) for part in parts]


def read_points(path: str) -> list[list[float]]:
    """Painted points from a CSV (x,y,label per line; a header line is skipped) or JSON ([[x, y, label], ...]).

    Bounded like a session: a regular file of at most ``MAX_POINTS_BYTES``,
    at most ``MAX_SAMPLES`` points, and a JSON document's values counted
    before it is parsed.  Raises FileError or ValueError (the reason, without the path).
    """
    raw = read_regular_file(path, MAX_POINTS_BYTES)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ValueError("it is not UTF-8 text") from None
    if path.lower().endswith(".json"):
        if count_json_values(raw) > 5 * MAX_SAMPLES:  # [x, y, label] is 4 values with its comma
            raise ValueError(f"it holds more than the {MAX_SAMPLES:,} points allowed")
        try:
            points = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ValueError(f"it is not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}") from None
        except RecursionError:
            raise ValueError("it is not a list of [x, y, label]: its JSON is nested too deeply") from None
        if not isinstance(points, list):
            raise ValueError("it is not a list of [x, y, label]")
    else:
        points = []
        for number, row in enumerate(csv.reader(text.splitlines()), start=1):
            if not row or row[0].strip().startswith("#"):
                continue
            try:
                x, y, label = (float(v) for v in row)
            except ValueError:
                if not points:  # a header
                    continue
                raise ValueError(f"line {number} is {clip(','.join(row))!r}, not x,y,label") from None
            points.append([x, y, int(label) if label.is_integer() and 0 <= label < MAX_CLASSES else label])
    if len(points) > MAX_SAMPLES:
        raise ValueError(f"it holds {len(points):,} points; at most {MAX_SAMPLES:,} are allowed")
    if not points:
        raise ValueError("it holds no points")
    return points


def runnable(prog: str) -> str:
    """A program name as one types it again: ``python main.py …`` for the script, the installed command as is."""
    return f"python {prog}" if prog.split(" ")[0].endswith(".py") else prog


def build_parser(prog: str = "main.py train") -> argparse.ArgumentParser:
    d = DEFAULTS
    command = runnable(prog)
    p = _Parser(
        prog=prog,
        description="Train an MLP (scalar autograd engine) on a two-class toy data set and report its accuracy.",
        epilog=(
            "examples:\n"
            f"  {command} --dataset moons --samples 200 --noise 0.1 --layers 16,16 --activation relu \\\n"
            "      --loss bce --optimizer adam --lr 0.05 --steps 200 --batch-size 32 --seed 0 --plot boundary.png\n"
            "  micrograd's demo: --samples 100 --test-fraction 0 --init uniform --loss hinge --l2 1e-4 \\\n"
            "      --optimizer sgd --lr 1 --schedule linear --batch-size 0 --steps 100\n"
            f"  {command} --save run.json; {command} --load run.json --steps 400\n"
            f"  {command} --preset --export-python run.py --export-torch run_torch.py --export-numpy model.py\n"
            "before training, the run's memory and time are estimated: beyond half of this machine's memory it is\n"
            "refused; beyond 1 GiB or 10 minutes you are asked on a terminal (elsewhere: refused unless --yes)\n"
            "exit codes: 0 done, 1 training stopped on a non-finite value or a file error, 2 bad options,\n"
            "130 interrupted"
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
        argument_default=argparse.SUPPRESS,
    )
    task = p.add_argument_group("task")
    task.add_argument(
        "--task",
        choices=("classification", "regression"),
        default="classification",
        help="classification (default) or regression: a 1-D target, typed with --target or read with --data",
    )
    task.add_argument(
        "--target",
        metavar="EXPR",
        help='regression: the target as an expression of x in the app\'s language (default "sin(3*x)"), plus --noise',
    )
    task.add_argument("--target-column", metavar="C", help="regression with --data: the column to fit")
    data = p.add_argument_group("data")
    data.add_argument("--dataset", choices=DATASETS, help=f"data set (default {d.dataset})")
    data.add_argument(
        "--classes",
        type=_whole_number,
        help=f"classes of blobs (centers) and spiral (arms), 2 to {MAX_CLASSES} (default {d.classes}); "
        "iris and wine have 3, the others 2",
    )
    data.add_argument(
        "--columns",
        type=_columns,
        help="iris and wine: two column numbers to plot, like 2,3 (default: the first two principal components)",
    )
    data.add_argument("--samples", type=_whole_number, help=f"number of points (default {d.samples})")
    data.add_argument("--noise", type=_number, help=f"noise level (default {d.noise})")
    data.add_argument(
        "--test-fraction", type=_number, help=f"share of points held out for testing (default {d.test_fraction})"
    )
    data.add_argument("--data-seed", type=_whole_number, help=f"seed of the data and the split (default {d.data_seed})")
    data.add_argument(
        "--sklearn-seed",
        type=_whole_number,
        help="moons, circles, blobs: scikit-learn's random_state itself, for exactly its points "
        "(default: drawn from --data-seed)",
    )
    data.add_argument(
        "--standardize",
        action=argparse.BooleanOptionalAction,
        help=f"scale inputs to mean 0, std 1 (default {'on' if d.standardize else 'off'})",
    )
    data.add_argument(
        "--points", metavar="FILE", help="train on given points: CSV x,y,label lines or JSON [[x,y,label]]"
    )
    data.add_argument(
        "--data",
        metavar="FILE",
        help="train on your own CSV/TSV table (header detected); with --x-columns and --label-column",
    )
    data.add_argument(
        "--x-columns", metavar="A,B", help="--data: the two feature columns, by name or number (default: 1,2)"
    )
    data.add_argument(
        "--label-column", metavar="C", help="--data: the class column, by name or number (default: the last)"
    )

    model = p.add_argument_group("model")
    model.add_argument(
        "--layers",
        type=_layers,
        help=f"hidden layer widths (default {','.join(map(str, d.layers))}); output is 1 logit",
    )
    model.add_argument("--activation", choices=ACTIVATIONS, help=f"hidden activation (default {d.activation})")
    model.add_argument(
        "--activations",
        type=_activations,
        help="one activation per hidden layer, like tanh,relu (overrides --activation)",
    )
    model.add_argument("--init", choices=INITIALIZATIONS, help=f"weight initialization (default {d.init})")
    model.add_argument("--seed", type=_whole_number, help=f"seed of the weights and batch order (default {d.seed})")

    train = p.add_argument_group("training")
    train.add_argument(
        "--loss",
        choices=(*LOSSES, "huber"),
        help=f"bce (cross-entropy from logits), hinge or mse; regression: mse or huber (default {d.loss})",
    )
    train.add_argument("--optimizer", choices=OPTIMIZERS, help=f"optimizer (default {d.optimizer})")
    train.add_argument("--lr", type=_number, help=f"learning rate (default {d.lr})")
    train.add_argument(
        "--momentum", type=_number, help=f"momentum of the momentum and nesterov optimizers (default {d.momentum})"
    )
    train.add_argument("--betas", type=_betas, help=f"adam and adamw: β₁,β₂ (default {','.join(map(str, d.betas))})")
    train.add_argument("--alpha", type=_number, help=f"rmsprop: smoothing constant α (default {d.alpha})")
    train.add_argument(
        "--weight-decay", type=_number, help=f"adamw: decoupled weight decay λ (default {d.weight_decay})"
    )
    train.add_argument(
        "--schedule",
        choices=SCHEDULES,
        help="learning rate: constant, linear (micrograd's, down to 10%% at --steps) or cosine (down to 10%%) "
        f"(default {d.schedule})",
    )
    train.add_argument(
        "--batch-size", type=_whole_number, help=f"minibatch size, 0 = full batch (default {d.batch_size})"
    )
    train.add_argument("--l1", type=_number, help=f"L1 penalty coefficient (default {d.l1})")
    train.add_argument("--l2", type=_number, help=f"L2 penalty coefficient (default {d.l2})")
    train.add_argument(
        "--steps",
        type=_whole_number,
        help=f"total optimizer steps; with --load, training goes on up to this step (default {d.steps})",
    )

    train.add_argument(
        "--preset",
        nargs="?",
        const=True,
        default=False,
        choices=sorted(PRESETS),
        metavar="NAME",
        help="start from the data set's tuned preset (network, optimizer, steps; for xor and spiral also its "
        "points and noise), or from the preset NAME, e.g. article (the beginner's article's run: "
        f"{', '.join(sorted(PRESETS))}); options given explicitly override it",
    )

    io = p.add_argument_group("files and output")
    io.add_argument("--load", metavar="FILE", help="continue a saved session (its config; only training options apply)")
    io.add_argument("--save", metavar="FILE", help="save the session (model, config, history) as JSON")
    io.add_argument("--plot", metavar="FILE.png", help="write the decision boundary with the data as a PNG")
    io.add_argument(
        "--progress",
        choices=("auto", "bar", "none"),
        default="auto",
        help="progress bar on stderr: auto (only on a terminal), bar (always), none",
    )
    io.add_argument("--json", action="store_true", default=False, help="print the summary as JSON")
    io.add_argument(
        "--yes",
        "-y",
        action="store_true",
        default=False,
        help="run without asking even if it needs over 1 GiB of memory or over 10 minutes",
    )
    add_export_options(p)
    return p


CONFIG_OPTIONS = {f.name for f in dataclasses.fields(TrainingConfig)} - {"points"}
_FIELD_AT_START = re.compile(
    r"^(every layer width|every point|"
    + "|".join(sorted((f.name for f in dataclasses.fields(TrainingConfig)), key=len, reverse=True))
    + r")\b"
)


def with_option_names(message: str) -> str:
    """A config error as the command line says it: 'test_fraction must …' → '--test-fraction must …'."""
    match = _FIELD_AT_START.match(message)
    if match is None:
        return message
    word = match.group(1)
    if word.startswith("every "):
        return f"{option_name('layers' if 'layer' in word else 'points')}: {message}"
    return option_name(word) + message[len(word) :]
