"""``python main.py train``: train an MLP on a toy data set from the command line, no screen needed.

Every ``TrainingConfig`` field has an option; defaults are the config's.
With ``--load`` the saved session's config is used and training continues
up to ``--steps`` (options that would change the model or data are refused).
Bad options print one line and exit with code 2; a failed load/save or a
non-finite stop exits with 1.  No Qt here: ``--plot`` calls a ``plot_writer``
that ``main.py`` passes in from ``gui/boundary_png.py``.
"""

from __future__ import annotations

import argparse
import csv
import dataclasses
import json
import sys
import time
from collections.abc import Callable

from autograd_core.data import DATASETS
from autograd_core.losses import LOSSES
from autograd_core.nn import ACTIVATIONS, INITIALISATIONS
from autograd_core.optim import OPTIMIZERS, SCHEDULES
from autograd_core.session import SessionError, load_session, save_session, trainer_from_session
from autograd_core.training import SETTINGS_WITHOUT_RESET, StepMetrics, Trainer, TrainingConfig

PlotWriter = Callable[[str, Trainer], None]
DEFAULTS = TrainingConfig()


class _Parser(argparse.ArgumentParser):
    """argparse, but an error is a single line (plus where to look), exit code 2."""

    def error(self, message: str):
        self.exit(2, f"{self.prog}: error: {message} (see --help)\n")


def _layers(text: str) -> list[int]:
    """'16,16' → [16, 16]; '' or 'none' → no hidden layer (a linear model)."""
    text = text.strip()
    if text.lower() in ("", "none"):
        return []
    try:
        widths = [int(part) for part in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"layers must be widths separated by commas, like 16,16; got {text!r}"
        ) from None
    if any(w < 1 for w in widths):
        raise argparse.ArgumentTypeError(f"every layer needs at least one neuron; got {text!r}")
    return widths


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a whole number ≥ 0, got {text!r}")
    return value


def _number(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if value != value or value in (float("inf"), float("-inf")):
        raise argparse.ArgumentTypeError(f"expected a finite number, got {text!r}")
    return value


def read_points(path: str) -> list[list[float]]:
    """Painted points from a CSV (x,y,label per line; a header line is skipped) or JSON ([[x, y, label], ...])."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    if path.lower().endswith(".json"):
        points = json.loads(text)
    else:
        points = []
        for row in csv.reader(text.splitlines()):
            if not row or row[0].strip().startswith("#"):
                continue
            try:
                x, y, label = (float(v) for v in row)
            except ValueError:
                if not points:  # a header
                    continue
                raise ValueError(f"bad line in {path}: {','.join(row)!r} (want x,y,label)") from None
            points.append([x, y, int(label) if label in (0.0, 1.0) else label])
    return points


def build_parser() -> argparse.ArgumentParser:
    d = DEFAULTS
    p = _Parser(
        prog="main.py train",
        description="Train an MLP (scalar autograd engine) on a two-class toy data set and report its accuracy.",
        epilog=(
            "examples:\n"
            "  python main.py train --dataset moons --samples 200 --noise 0.1 --layers 16,16 --activation relu \\\n"
            "      --loss bce --optimizer adam --lr 0.05 --steps 200 --batch-size 32 --seed 0 --plot boundary.png\n"
            "  micrograd's demo: --samples 100 --test-fraction 0 --init uniform --loss hinge --l2 1e-4 \\\n"
            "      --optimizer sgd --lr 1 --schedule linear --batch-size 0 --steps 100\n"
            "  python main.py train --save run.json; python main.py train --load run.json --steps 400\n"
            "exit codes: 0 done, 1 training stopped on a non-finite value or a file error, 2 bad options"
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
        argument_default=argparse.SUPPRESS,
    )
    data = p.add_argument_group("data")
    data.add_argument("--dataset", choices=DATASETS, help=f"data set (default {d.dataset})")
    data.add_argument("--samples", type=_positive_int, help=f"number of points (default {d.samples})")
    data.add_argument("--noise", type=_number, help=f"noise level (default {d.noise})")
    data.add_argument(
        "--test-fraction", type=_number, help=f"share of points held out for testing (default {d.test_fraction})"
    )
    data.add_argument("--data-seed", type=_positive_int, help=f"seed of the data and the split (default {d.data_seed})")
    data.add_argument(
        "--standardize",
        action=argparse.BooleanOptionalAction,
        help=f"scale inputs to mean 0, std 1 (default {'on' if d.standardize else 'off'})",
    )
    data.add_argument(
        "--points", metavar="FILE", help="train on given points: CSV x,y,label lines or JSON [[x,y,label]]"
    )

    model = p.add_argument_group("model")
    model.add_argument(
        "--layers",
        type=_layers,
        help=f"hidden layer widths (default {','.join(map(str, d.layers))}); output is 1 logit",
    )
    model.add_argument("--activation", choices=ACTIVATIONS, help=f"hidden activation (default {d.activation})")
    model.add_argument("--init", choices=INITIALISATIONS, help=f"weight initialisation (default {d.init})")
    model.add_argument("--seed", type=_positive_int, help=f"seed of the weights and batch order (default {d.seed})")

    train = p.add_argument_group("training")
    train.add_argument(
        "--loss", choices=LOSSES, help=f"bce (cross-entropy from logits), hinge or mse (default {d.loss})"
    )
    train.add_argument("--optimizer", choices=OPTIMIZERS, help=f"optimiser (default {d.optimizer})")
    train.add_argument("--lr", type=_number, help=f"learning rate (default {d.lr})")
    train.add_argument("--momentum", type=_number, help=f"momentum of the 'momentum' optimiser (default {d.momentum})")
    train.add_argument(
        "--schedule",
        choices=SCHEDULES,
        help="learning rate: constant, linear (micrograd's, down to 10%% at --steps) or cosine (down to 10%%) "
        f"(default {d.schedule})",
    )
    train.add_argument(
        "--batch-size", type=_positive_int, help=f"minibatch size, 0 = full batch (default {d.batch_size})"
    )
    train.add_argument("--l1", type=_number, help=f"L1 penalty coefficient (default {d.l1})")
    train.add_argument("--l2", type=_number, help=f"L2 penalty coefficient (default {d.l2})")
    train.add_argument(
        "--steps",
        type=_positive_int,
        help=f"total optimiser steps; with --load, training goes on up to this step (default {d.steps})",
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
    return p


CONFIG_OPTIONS = {f.name for f in dataclasses.fields(TrainingConfig)} - {"points"}


class ProgressBar:
    """A one-line bar redrawn with ``\\r`` at most ten times a second."""

    def __init__(self, total: int, stream, width: int = 30):
        self.total, self.stream, self.width = max(total, 1), stream, width
        self.last = 0.0

    def update(self, m: StepMetrics, force: bool = False) -> None:
        now = time.perf_counter()
        if not force and now - self.last < 0.1:
            return
        self.last = now
        filled = min(self.width, round(self.width * m.step / self.total))
        test = f"  test {m.test_acc:6.1%}" if m.test_acc is not None else ""
        self.stream.write(
            f"\r[{'#' * filled}{'.' * (self.width - filled)}] {m.step}/{self.total}"
            f"  loss {m.train_loss:.4f}  train {m.train_acc:6.1%}{test}"
        )
        self.stream.flush()

    def close(self) -> None:
        self.stream.write("\n")
        self.stream.flush()


def _describe(trainer: Trainer) -> str:
    c, data = trainer.config, trainer.data
    sizes = "-".join(map(str, [2, *c.layers, 1]))
    batch = "full batch" if trainer._batch_size() == len(data.y_train) else f"batch {c.batch_size}"
    opt = f"{c.optimizer} lr {c.lr:g}" + ("" if c.schedule == "constant" else f" ({c.schedule})")
    reg = "".join(f", {k} {v:g}" for k, v in (("l1", c.l1), ("l2", c.l2)) if v)
    return (
        f"{data.name}: {len(data.y_train)} train / {len(data.y_test)} test points; "
        f"MLP {sizes} {c.activation} ({trainer.model.num_parameters()} parameters); "
        f"{c.loss} loss, {opt}, {batch}{reg}"
    )


def main(argv: list[str] | None = None, plot_writer: PlotWriter | None = None) -> int:
    parser = build_parser()
    args = vars(parser.parse_args(argv))
    given = {k: v for k, v in args.items() if k in CONFIG_OPTIONS}
    out, err = sys.stdout, sys.stderr

    if "plot" in args and not args["plot"].lower().endswith(".png"):
        parser.error(f"--plot writes a PNG: give a file name ending in .png, not {args['plot']!r}")
    if "plot" in args and plot_writer is None:
        parser.error("--plot needs the PNG renderer; run it as: python main.py train ... --plot FILE.png")

    try:
        if "load" in args:
            if "points" in args:
                parser.error("--points cannot be combined with --load (the session has its own data)")
            fixed = sorted(set(given) - set(SETTINGS_WITHOUT_RESET))
            if fixed:
                parser.error(
                    f"--{fixed[0].replace('_', '-')} cannot change a loaded session's model or data; "
                    f"only {', '.join('--' + s.replace('_', '-') for s in SETTINGS_WITHOUT_RESET)} can"
                )
            trainer = trainer_from_session(load_session(args["load"]))
            if given:
                try:
                    trainer.update_settings(**given)
                except ValueError as exc:
                    parser.error(str(exc))
        else:
            fields = dict(given)
            if "points" in args:
                try:
                    fields["points"] = read_points(args["points"])
                except (OSError, ValueError) as exc:
                    parser.error(f"cannot read --points {args['points']}: {exc}")
            try:
                trainer = Trainer(TrainingConfig(**fields))
            except ValueError as exc:
                parser.error(str(exc))
    except SessionError as exc:
        err.write(f"error: cannot load the session: {exc}\n")
        return 1

    quiet = args["json"]
    if not quiet:
        out.write(_describe(trainer) + "\n")
        out.flush()
    show_bar = args["progress"] == "bar" or (args["progress"] == "auto" and err.isatty())
    bar = ProgressBar(trainer.config.steps, err) if show_bar else None
    start_step = trainer.step_count
    t0 = time.perf_counter()
    interrupted = False
    try:
        while not trainer.finished:
            m = trainer.step()
            if bar is not None and trainer.stopped_reason is None:
                bar.update(m, force=trainer.finished)
    except KeyboardInterrupt:
        interrupted = True
    seconds = time.perf_counter() - t0
    if bar is not None:
        bar.close()

    final = trainer.evaluate()
    summary = {
        "step": trainer.step_count,
        "steps_run": trainer.step_count - start_step,
        "train_loss": final.train_loss,
        "train_acc": final.train_acc,
        "test_loss": final.test_loss,
        "test_acc": final.test_acc,
        "seconds": seconds,
        "stopped_reason": trainer.stopped_reason,
        "interrupted": interrupted,
    }
    if quiet:
        out.write(json.dumps(summary) + "\n")
    else:
        test = (
            f"test loss {final.test_loss:.4f}, test accuracy {final.test_acc:.1%}"
            if final.test_acc is not None
            else "no test set"
        )
        out.write(
            f"step {trainer.step_count}: train loss {final.train_loss:.4f}, train accuracy {final.train_acc:.1%}; "
            f"{test}; {seconds:.1f} s ({summary['steps_run']} steps)\n"
        )
    if trainer.stopped_reason:
        err.write(trainer.stopped_reason + "\n")
    if interrupted:
        err.write(f"interrupted at step {trainer.step_count}\n")

    try:
        if "save" in args:
            save_session(args["save"], trainer)
            if not quiet:
                out.write(f"saved {args['save']}\n")
    except SessionError as exc:
        err.write(f"error: {exc}\n")
        return 1
    if "plot" in args:
        try:
            plot_writer(args["plot"], trainer)
        except OSError as exc:
            err.write(f"error: cannot write {args['plot']}: {exc}\n")
            return 1
        if not quiet:
            out.write(f"wrote {args['plot']}\n")
    if interrupted:
        return 130
    return 1 if trainer.stopped_reason else 0
