"""``python main.py train``: train an MLP on a toy data set from the command line, no screen needed.

Every ``TrainingConfig`` field has an option; defaults are the config's.
With ``--load`` the saved session's config is used and training continues
up to ``--steps`` (options that would change the model or data are refused).
Every bad input gets one line and no traceback: bad options, unusable
``--save``/``--plot`` paths (checked before training) and runs that would
exhaust memory (``run_cost``, checked before anything is built) exit with 2;
a failed load/save or a non-finite stop exits with 1.  Messages name options
(``--test-fraction``), never config fields.  No Qt here: ``--plot`` calls a
``plot_writer`` that the launcher passes in from ``gui/plots/boundary_png.py``.
"""

from __future__ import annotations

import argparse
import csv
import dataclasses
import json
import re
import sys
import time
from collections.abc import Callable

import numpy as np

from autograd_core.export.options import add_export_options, check_export_paths, write_model, write_recipes
from autograd_core.files import (
    FileError,
    check_writable,
    count_json_values,
    format_size,
    read_regular_file,
    write_atomically,
    write_target,
)
from autograd_core.learn.data import DATASETS, MAX_CLASSES, MAX_SAMPLES, dataset_points
from autograd_core.learn.losses import LOSSES
from autograd_core.learn.nn import ACTIVATIONS, INITIALIZATIONS
from autograd_core.learn.optim import OPTIMIZERS, SCHEDULES
from autograd_core.learn.presets import PRESETS, apply_preset, named_preset_config
from autograd_core.learn.regression import SHARED_SETTINGS
from autograd_core.learn.run_cost import RunCost, RunLimits, estimate_run_cost, option_name
from autograd_core.learn.runs import RunHistory, first_point, record_trainer_run
from autograd_core.learn.tabular import TableError, numeric_column, read_table, table_dataset
from autograd_core.learn.training import SETTINGS_WITHOUT_RESET, StepMetrics, Trainer, TrainingConfig
from autograd_core.session import SessionError, load_session, save_session, trainer_from_session

PlotWriter = Callable[[str, Trainer], None]
DEFAULTS = TrainingConfig()


class _Parser(argparse.ArgumentParser):
    """argparse, but an error is a single line (plus where to look), exit code 2."""

    def error(self, message: str):
        self.exit(2, f"{self.prog}: error: {_one_line(message)} (see --help)\n")


def _layers(text: str) -> list[int]:
    """'16,16' → [16, 16]; '' or 'none' → no hidden layer (a linear model)."""
    text = text.strip()
    if text.lower() in ("", "none"):
        return []
    try:
        widths = [int(part) for part in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"layers must be widths separated by commas, like 16,16; got {_clip(text)!r}"
        ) from None
    if any(w < 1 for w in widths):
        raise argparse.ArgumentTypeError(f"every layer needs at least one neuron; got {_clip(text)!r}")
    return widths


def _activations(text: str) -> list[str]:
    """'tanh,relu' → one activation per hidden layer."""
    names = [part.strip() for part in text.split(",") if part.strip()]
    bad = [n for n in names if n not in ACTIVATIONS]
    if not names or bad:
        raise argparse.ArgumentTypeError(
            f"activations must be names separated by commas, one per hidden layer, from {', '.join(ACTIVATIONS)}; "
            f"got {_clip(text)!r}"
        )
    return names


def _columns(text: str) -> list[int]:
    """'2,3' → two column numbers of iris or wine."""
    try:
        columns = [int(part) for part in text.split(",")]
    except ValueError:
        columns = []
    if len(columns) != 2:
        raise argparse.ArgumentTypeError(f"columns must be two column numbers like 2,3; got {_clip(text)!r}")
    return columns


def _whole_number(text: str) -> int:
    """Only the syntax: the range is the config's (``TrainingConfig.validate``), so every message about it agrees."""
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {_clip(text)!r}") from None


def _number(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {_clip(text)!r}") from None
    if value != value or value in (float("inf"), float("-inf")):
        raise argparse.ArgumentTypeError(f"expected a finite number, got {_clip(text)!r}")
    return value


def _clip(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _one_line(text: str, limit: int = 400) -> str:
    """Whatever a message holds (a repr of a huge list, a newline), print it as one readable line."""
    return _clip(" ".join(str(text).split()), limit)


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
                raise ValueError(f"line {number} is {_clip(','.join(row))!r}, not x,y,label") from None
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


class ProgressBar:
    """A one-line bar redrawn with ``\\r`` at most ten times a second."""

    def __init__(self, total: int, stream, width: int = 30, unit: str = "step"):
        self.total, self.stream, self.width, self.unit = max(total, 1), stream, width, unit
        self.last = 0.0

    def update(self, m: StepMetrics, force: bool = False) -> None:
        now = time.perf_counter()
        if not force and now - self.last < 0.1:
            return
        self.last = now
        filled = min(self.width, round(self.width * m.step / self.total))
        test = f"  test {m.test_acc:6.1%}" if m.test_acc is not None else ""
        self.stream.write(
            f"\r[{'#' * filled}{'.' * (self.width - filled)}] {self.unit} {m.step}/{self.total}"
            f"  loss {m.train_loss:.4f}  train {m.train_acc:6.1%}{test}"
        )
        self.stream.flush()

    def close(self) -> None:
        self.stream.write("\n")
        self.stream.flush()


def _describe(trainer: Trainer) -> str:
    c, data = trainer.config, trainer.data
    sizes = "-".join(map(str, [c.inputs, *c.layers, c.outputs]))
    batch = "full batch" if trainer._batch_size() == len(data.y_train) else f"batch {c.batch_size}"
    opt = f"{c.optimizer} lr {c.lr:g}" + ("" if c.schedule == "constant" else f" ({c.schedule})")
    reg = "".join(f", {k} {v:g}" for k, v in (("l1", c.l1), ("l2", c.l2)) if v)
    return (
        f"{data.name}: {len(data.y_train)} train / {len(data.y_test)} test points; "
        f"MLP {sizes} {'/'.join(c.activations) if c.activations else c.activation} "
        f"({trainer.model.num_parameters()} parameters); "
        f"{'cross-entropy' if c.outputs > 1 else c.loss} loss, {opt}, {batch}{reg}"
    )


def main(
    argv: list[str] | None = None,
    plot_writer: PlotWriter | None = None,
    prog: str = "main.py train",
    limits: RunLimits | None = None,
) -> int:
    """Run the command; returns the exit code (argparse exits itself with 2 for bad options and 0 for --help)."""
    parser = build_parser(prog)
    args = vars(parser.parse_args(argv))
    given = {k: v for k, v in args.items() if k in CONFIG_OPTIONS}
    out, err = sys.stdout, sys.stderr
    if args["task"] == "regression" or "target" in args or "target_column" in args:
        if args["task"] != "regression":
            parser.error("--target and --target-column need --task regression")
        return _regression_main(parser, args, out, err)
    if args.get("loss") == "huber":
        parser.error("--loss huber is a regression loss: add --task regression")

    # Everything that can be checked before training is checked first: a bad path never costs a run.
    if "plot" in args and not args["plot"].lower().endswith(".png"):
        parser.error(f"--plot writes a PNG: give a file name ending in .png, not {_clip(args['plot'])!r}")
    if "plot" in args and plot_writer is None:
        parser.error(f"--plot needs the PNG renderer; run it as: {runnable(parser.prog)} ... --plot FILE.png")
    for option in ("save", "plot"):
        if option in args:
            try:
                check_writable(args[option])
            except FileError as exc:
                parser.error(f"cannot write --{option} {args[option]}: {exc}")
    if "save" in args and "plot" in args and write_target(args["save"]) == write_target(args["plot"]):
        parser.error("--save and --plot name the same file")
    problem = check_export_paths(args, others=("save", "plot"))
    if problem:
        parser.error(problem)
    if "load" in args and ("export_python" in args or "export_torch" in args):
        parser.error("--export-python and --export-torch write a run from its start; they cannot follow --load")

    steps_done, data_sizes = 0, {}
    imported = None
    run_history = RunHistory()  # --save appends this run to the history (--load: the session's)
    if "load" in args:
        if "data" in args:
            parser.error("--data cannot be combined with --load (the session has its own data)")
        if "points" in args:
            parser.error("--points cannot be combined with --load (the session has its own data)")
        if args["preset"]:
            parser.error("--preset cannot be combined with --load (the session has its own settings)")
        fixed = sorted(set(given) - set(SETTINGS_WITHOUT_RESET))
        if fixed:
            parser.error(
                f"{option_name(fixed[0])} cannot change a loaded session's model or data; "
                f"only {', '.join(option_name(s) for s in SETTINGS_WITHOUT_RESET)} can"
            )
        try:
            session = load_session(args["load"])
        except SessionError as exc:
            err.write(_one_line(f"error: cannot load the session: {exc}") + "\n")
            return 1
        if session.config is None:
            err.write(_one_line(f"error: {args['load']} holds no trained model (only app state)") + "\n")
            return 1
        config = _valid_config(parser, dataclasses.replace(session.config, **given))
        steps_done = session.step
        run_history = RunHistory(session.runs)
        if session.data is not None:
            data_sizes = {"train_size": len(session.data.y_train), "test_size": len(session.data.y_test)}
    else:
        fields = dict(given)
        if "data" in args:
            if "points" in args:
                parser.error("--data and --points cannot be combined")
            imported = _read_data(parser, args, fields.get("test_fraction", DEFAULTS.test_fraction))
            fields["points"] = dataset_points(imported)
            fields["classes"] = len(imported.class_names)
            fields["standardize"] = False
        elif "x_columns" in args or "label_column" in args:
            parser.error("--x-columns and --label-column need --data FILE")
        if "points" in args:
            try:
                fields["points"] = read_points(args["points"])
            except (FileError, ValueError) as exc:
                parser.error(f"cannot read --points {args['points']}: {exc}")
        if args["preset"]:
            base = TrainingConfig(dataset=fields.get("dataset", DEFAULTS.dataset), classes=fields.get("classes", 2))
            try:
                if args["preset"] is True:
                    config = apply_preset(base, fields)
                else:
                    config = named_preset_config(args["preset"], fields)
            except ValueError as exc:
                parser.error(with_option_names(str(exc)))
        else:
            config = _valid_config(parser, TrainingConfig(**fields))

    if "load" not in args and imported is not None:
        data_sizes = {"train_size": len(imported.y_train), "test_size": len(imported.y_test)}
    cost = estimate_run_cost(config, steps_done=steps_done, runs_bytes=run_history.nbytes(), **data_sizes)
    if not _cost_accepted(parser, cost, limits, args["yes"]):
        return 2

    try:
        if "load" in args:
            trainer = trainer_from_session(session)
            if given:
                trainer.update_settings(**given)
        else:
            trainer = Trainer(config, data=imported)
    except SessionError as exc:
        err.write(_one_line(f"error: cannot load the session: {exc}") + "\n")
        return 1
    except MemoryError:
        err.write(_out_of_memory(cost, "while building the model and data") + "\n")
        return 1

    quiet = args["json"]
    given_data = trainer.data if trainer.config.points is not None else None  # painted or imported: written out
    if write_recipes(args, trainer.config, given_data, err, out, quiet):
        return 1
    if not quiet:
        out.write(_describe(trainer) + "\n")
        out.flush()
    show_bar = args["progress"] == "bar" or (args["progress"] == "auto" and err.isatty())
    unit = trainer.update_unit  # "epoch" when every update is a pass over all the training data
    bar = ProgressBar(trainer.config.steps, err, unit=unit) if show_bar else None
    start_step = trainer.step_count
    start = None  # the run's curves begin at step 0: evaluated now, or kept by the loaded session's last run
    if "save" in args:
        start = trainer.evaluate() if start_step == 0 else first_point((run_history.runs or [None])[-1], start_step)
    t0 = time.perf_counter()
    interrupted = False
    try:
        while not trainer.finished:
            m = trainer.step()
            if bar is not None and trainer.stopped_reason is None:
                bar.update(m, force=trainer.finished)
    except KeyboardInterrupt:
        interrupted = True
    except MemoryError:
        if bar is not None:
            bar.close()
        err.write(_out_of_memory(cost, f"at step {trainer.step_count + 1}") + "\n")
        return 1
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
        "slow": trainer.slow_learning(),
    }
    if quiet:
        out.write(json.dumps(summary) + "\n")
    else:
        test = (
            f"test loss {final.test_loss:.4f}, test accuracy {final.test_acc:.1%}"
            if final.test_acc is not None
            else "no test set"
        )
        if summary["slow"]:
            out.write(summary["slow"] + "\n")
        runs = summary["steps_run"]
        out.write(
            f"{unit} {trainer.step_count}: train loss {final.train_loss:.4f}, train accuracy {final.train_acc:.1%}; "
            f"{test}; {seconds:.1f} s ({runs} {unit}{'s' * (runs != 1)})\n"
        )
    if trainer.stopped_reason:
        err.write(trainer.stopped_reason + "\n")
    if interrupted:
        err.write(f"interrupted at step {trainer.step_count}\n")

    code = 130 if interrupted else 1 if trainer.stopped_reason else 0
    if "save" in args:
        try:
            record_trainer_run(run_history, trainer, seconds, _final_grid(trainer), start)
            save_session(args["save"], trainer, runs=run_history)
        except SessionError as exc:
            err.write(_one_line(f"error: {exc}") + "\n")
            code = 1
        else:
            if not quiet:
                out.write(f"saved {args['save']}\n")
    if "plot" in args:
        try:
            write_atomically(args["plot"], lambda tmp: plot_writer(tmp, trainer))
        except FileError as exc:
            err.write(_one_line(f"error: cannot write --plot {args['plot']}: {exc}") + "\n")
            code = 1
        else:
            if not quiet:
                out.write(f"wrote {args['plot']}\n")
    if write_model(args, trainer.model, "classification", trainer.config.num_classes, err, out, quiet):
        code = 1
    return code


REGRESSION_OPTIONS = (*SHARED_SETTINGS, "loss")  # the regression run's own loss as well


def _regression_main(parser: argparse.ArgumentParser, args: dict, out, err) -> int:
    """--task regression: fit a typed target of x (or a file's column); prints the test R²."""
    from autograd_core.learn.regression import (
        RegressionConfig,
        RegressionData,
        RegressionTrainer,
        regression_preset,
    )

    if args["preset"] not in (True, False):
        parser.error(f"--preset {args['preset']} is a classification preset; regression takes --preset alone")
    unsupported = [o for o in ("load", "save", "plot", "points", "classes", "columns", "activations") if o in args]
    if unsupported:
        parser.error(f"{option_name(unsupported[0])} does not apply to --task regression")
    fields = {k: args[k] for k in REGRESSION_OPTIONS if k in args}
    if "target" in args:
        fields["target"] = args["target"]
    data = None
    if "data" in args:
        if "target" in args:
            parser.error("--target and --data cannot be combined: the file holds the target")
        try:
            table = read_table(args["data"])
            x_name = args.get("x_columns", "1")
            if "," in x_name:
                parser.error("--x-columns takes one column for regression")
            x = numeric_column(table, x_name.strip())
            y = numeric_column(table, args.get("target_column", str(len(table.columns))).strip())
        except (FileError, TableError) as exc:
            parser.error(f"cannot use --data {_clip(args['data'])}: {exc}")
        rng = np.random.default_rng(fields.get("data_seed", 0))
        order = rng.permutation(len(x))
        n_test = round(len(x) * fields.get("test_fraction", 0.25))
        data = RegressionData(x[order[n_test:]], y[order[n_test:]], x[order[:n_test]], y[order[:n_test]], table.name)
    elif "target_column" in args:
        parser.error("--target-column needs --data FILE")
    if fields.get("loss", "mse") not in ("mse", "huber"):
        parser.error(f"--loss {fields['loss']} is for classification; regression takes mse or huber")
    problem = check_export_paths(args)
    if problem:
        parser.error(problem)
    try:
        config = regression_preset(fields) if args["preset"] else RegressionConfig(**fields).validate()
        trainer = RegressionTrainer(config, data=data)
    except ValueError as exc:
        parser.error(with_option_names(str(exc)))
    quiet = args["json"]
    if write_recipes(args, trainer.config, data, err, out, quiet):
        return 1
    c = trainer.config
    sizes = "-".join(map(str, [1, *c.layers, 1]))
    if not quiet:
        out.write(
            f"regression of {trainer.data.name}: {len(trainer.data.x_train)} train / {len(trainer.data.x_test)} "
            f"test points; MLP {sizes} {c.activation}; {c.loss} loss, {c.optimizer} lr {c.lr:g}\n"
        )
        out.flush()
    t0 = time.perf_counter()
    trainer.run()
    m = trainer.evaluate()
    seconds = time.perf_counter() - t0
    if quiet:
        out.write(json.dumps({"step": trainer.step_count, **{k: getattr(m, k) for k in _REGRESSION_SUMMARY}}) + "\n")
    else:
        test = f"test loss {m.test_loss:.4f}, test R² {m.test_r2:.4f}" if m.test_r2 is not None else "no test set"
        out.write(
            f"step {trainer.step_count}: train loss {m.train_loss:.4f}, train R² {m.train_r2:.4f}; {test}; "
            f"{seconds:.1f} s\n"
        )
    return write_model(args, trainer.model, "regression", 1, err, out, quiet)


_REGRESSION_SUMMARY = ("train_loss", "test_loss", "train_r2", "test_r2")


def _read_data(parser: argparse.ArgumentParser, args: dict, test_fraction: float):
    """--data FILE with --x-columns and --label-column → a Dataset; one-line errors naming the option."""
    path = args["data"]
    try:
        table = read_table(path)
        columns = args.get("x_columns", "1,2").split(",")
        if len(columns) != 2:
            parser.error(f"--x-columns needs two columns separated by a comma, got {_clip(args['x_columns'])!r}")
        label = args.get("label_column", str(len(table.columns)))
        return table_dataset(table, [c.strip() for c in columns], label.strip(), test_fraction=test_fraction)
    except (FileError, TableError) as exc:
        parser.error(f"cannot use --data {_clip(path)}: {exc}")


def _valid_config(parser: argparse.ArgumentParser, config: TrainingConfig) -> TrainingConfig:
    """The config, validated; a bad value is a one-line usage error naming the option."""
    try:
        return config.validate()
    except ValueError as exc:
        parser.error(with_option_names(str(exc)))


def _cost_accepted(parser: argparse.ArgumentParser, cost: RunCost, limits: RunLimits | None, yes: bool) -> bool:
    """Refuse a run beyond the machine; ask (on a terminal) before a big or slow one."""
    problems = cost.problems(limits)
    for problem in problems:
        if problem.refuse:
            parser.error(problem.message())
    if not problems or yes:
        return True
    if sys.stdin.isatty() and sys.stderr.isatty():
        for problem in problems:
            sys.stderr.write(problem.message() + "\n")
        sys.stderr.write("Run it anyway? [y/N] ")
        sys.stderr.flush()
        try:
            answer = input()
        except EOFError:
            answer = ""
        if answer.strip().lower() in ("y", "yes"):
            return True
        sys.stderr.write("not run\n")
        return False
    parser.error(f"{problems[0].message()} (add --yes to run it anyway)")


def _final_grid(trainer: Trainer):
    """The trained model's decision regions as the app's training service draws them (for the run's picture)."""
    from autograd_core.live.regions import class_regions
    from autograd_core.live.service import map_extent

    try:
        return class_regions(trainer.model, map_extent(trainer.data))
    except (ValueError, FloatingPointError):  # a diverged model: the run is kept without its picture
        return None


def _out_of_memory(cost: RunCost, where: str) -> str:
    problems = [p for p in cost.problems(RunLimits(ask_bytes=0)) if p.kind == "memory"]
    names = [option_name(f) for f in (problems[0].fields if problems else ("batch_size", "layers"))]
    fix = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]
    return f"error: out of memory {where} (estimated need {format_size(cost.peak_bytes)}); lower {fix}"
