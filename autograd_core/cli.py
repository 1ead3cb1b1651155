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
import dataclasses
import json
import sys
import time
from collections.abc import Callable

import numpy as np

from autograd_core.cli_options import (
    CONFIG_OPTIONS,
    DEFAULTS,
    build_parser,
    clip,
    one_line,
    read_points,
    runnable,
    with_option_names,
)
from autograd_core.export.options import check_export_paths, write_model, write_recipes
from autograd_core.files import (
    FileError,
    check_writable,
    format_size,
    write_atomically,
    write_target,
)
from autograd_core.learn.data import dataset_points
from autograd_core.learn.presets import apply_preset, named_preset_config
from autograd_core.learn.regression import SHARED_SETTINGS
from autograd_core.learn.run_cost import RunCost, RunLimits, estimate_run_cost, option_name
from autograd_core.learn.runs import RunHistory, first_point, record_trainer_run
from autograd_core.learn.tabular import TableError, numeric_column, read_table, table_dataset
from autograd_core.learn.training import SETTINGS_WITHOUT_RESET, StepMetrics, Trainer, TrainingConfig
from autograd_core.session import SessionError, load_session, save_session, trainer_from_session

PlotWriter = Callable[[str, Trainer], None]


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
        parser.error(f"--plot writes a PNG: give a file name ending in .png, not {clip(args['plot'])!r}")
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
            err.write(one_line(f"error: cannot load the session: {exc}") + "\n")
            return 1
        if session.config is None:
            err.write(one_line(f"error: {args['load']} holds no trained model (only app state)") + "\n")
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
        err.write(one_line(f"error: cannot load the session: {exc}") + "\n")
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
            err.write(one_line(f"error: {exc}") + "\n")
            code = 1
        else:
            if not quiet:
                out.write(f"saved {args['save']}\n")
    if "plot" in args:
        try:
            write_atomically(args["plot"], lambda tmp: plot_writer(tmp, trainer))
        except FileError as exc:
            err.write(one_line(f"error: cannot write --plot {args['plot']}: {exc}") + "\n")
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
            parser.error(f"cannot use --data {clip(args['data'])}: {exc}")
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
            parser.error(f"--x-columns needs two columns separated by a comma, got {clip(args['x_columns'])!r}")
        label = args.get("label_column", str(len(table.columns)))
        return table_dataset(table, [c.strip() for c in columns], label.strip(), test_fraction=test_fraction)
    except (FileError, TableError) as exc:
        parser.error(f"cannot use --data {clip(path)}: {exc}")


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
    from autograd_core.learn.regions import class_regions, map_extent

    try:
        return class_regions(trainer.model, map_extent(trainer.data))
    except (ValueError, FloatingPointError):  # a diverged model: the run is kept without its picture
        return None


def _out_of_memory(cost: RunCost, where: str) -> str:
    problems = [p for p in cost.problems(RunLimits(ask_bytes=0)) if p.kind == "memory"]
    names = [option_name(f) for f in (problems[0].fields if problems else ("batch_size", "layers"))]
    fix = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]
    return f"error: out of memory {where} (estimated need {format_size(cost.peak_bytes)}); lower {fix}"
