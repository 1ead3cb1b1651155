"""``python main.py train``: main paths in a subprocess, as a user runs it; the many error cases in-process (fast)."""

import io
import json
import os
import re
import subprocess
import sys
import tracemalloc
from pathlib import Path

import pytest

from autograd_core.cli import main
from autograd_core.learn.run_cost import RunLimits
from autograd_core.learn.training import Trainer

ROOT = Path(__file__).resolve().parents[2]
SMALL = ["--schedule", "constant", "--samples", "60", "--layers", "4", "--steps", "20", "--batch-size", "16"]


def train(*args):
    """Run ``python main.py train ARGS`` in a subprocess; stdout/stderr as text with \\r kept."""
    result = subprocess.run(
        [sys.executable, str(ROOT / "main.py"), "train", *args], capture_output=True, cwd=ROOT, timeout=120
    )
    result.stdout, result.stderr = result.stdout.decode(), result.stderr.decode()
    return result


def run_in_process(capsys, *args):
    """The same entry point, in this process: (exit code, stdout, stderr)."""
    try:
        code = main(list(args))
    except SystemExit as exc:  # argparse's exit for --help and bad options
        code = exc.code
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_help_documents_every_option():
    result = train("--help")
    assert result.returncode == 0
    for option in (
        "--dataset", "--samples", "--noise", "--test-fraction", "--data-seed", "--standardize", "--points",
        "--layers", "--activation", "--init", "--seed", "--loss", "--optimizer", "--lr", "--momentum",
        "--schedule", "--batch-size", "--l1", "--l2", "--steps", "--load", "--save", "--plot", "--progress",
    ):  # fmt: skip
        assert option in result.stdout, option
    assert "moons" in result.stdout and "hinge" in result.stdout


def test_a_bad_option_gives_one_line_and_exit_code_2():
    result = train("--lr", "fast")
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr == "main.py train: error: argument --lr: expected a number, got 'fast' (see --help)\n"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--dataset", "swirl"], "invalid choice: 'swirl'"),
        (["--layers", "16,x"], "layers must be widths separated by commas"),
        (["--lr", "-1"], "lr must be positive"),
        (["--noise", "nan"], "expected a finite number"),
        # One range, one message, whatever the wrong number: the config's.
        (["--steps", "-5"], "--steps must be a whole number from 1 to 1000000, got -5"),
        (["--steps", "0"], "--steps must be a whole number from 1 to 1000000, got 0"),
        (["--steps", "x"], "argument --steps: expected a whole number, got 'x'"),
        (["--test-fraction", "2"], "--test-fraction must be a number from 0 to 0.95, got 2.0"),
        (["--data-seed", "-1"], "--data-seed must be a whole number from 0 to"),
        (["--batch-size", "-3"], "--batch-size must be a whole number from 0 to 100000, got -3"),
        (["--layers", "999"], "--layers: every layer width must be a whole number from 1 to 256, got 999"),
        (["--layers", "1,1,1,1,1,1,1,1,1"], "--layers must be a list of at most 8 hidden layer widths"),
        (["--frobnicate"], "unrecognized arguments: --frobnicate"),
        (["--plot", "out.jpg"], "ending in .png"),
        (["--points", "missing.csv"], "cannot read --points missing.csv: No such file or directory"),
        (["--points", "/dev/zero"], "cannot read --points /dev/zero: it is a device, not a regular file"),
        (["--save", "/nonexistent/run.json"], "cannot write --save /nonexistent/run.json: the folder /nonexistent"),
        (["--save", "/dev/null"], "cannot write --save /dev/null: it is a device"),
    ],
)
def test_bad_options_in_process(capsys, args, message):
    code, out, err = run_in_process(capsys, *args)
    assert code == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("main.py train: error:")
    assert message in lines[0]
    assert not re.search(r"\b(test_fraction|data_seed|batch_size)\b", lines[0])  # option names, not field names


def test_training_prints_a_summary_and_a_progress_bar():
    result = train(*SMALL, "--progress", "bar")
    assert result.returncode == 0, result.stderr
    assert "MLP 2-4-1 relu (17 parameters)" in result.stdout
    assert "step 20: train loss" in result.stdout and "test accuracy" in result.stdout
    assert "\r[" in result.stderr and "20/20" in result.stderr


def test_save_then_load_continues_exactly_like_one_run(tmp_path, capsys):
    code, straight, _ = run_in_process(capsys, *SMALL[:-4], "--steps", "30", "--batch-size", "16", "--json")
    assert code == 0
    first = train(*SMALL, "--save", str(tmp_path / "s.json"), "--json")
    assert first.returncode == 0, first.stderr
    assert json.loads(first.stdout)["step"] == 20
    resumed = train("--load", str(tmp_path / "s.json"), "--steps", "30", "--json")
    assert resumed.returncode == 0, resumed.stderr
    a, b = json.loads(straight), json.loads(resumed.stdout)
    assert b["step"] == 30 and b["steps_run"] == 10
    assert b["train_loss"] == a["train_loss"] and b["test_acc"] == a["test_acc"]


def test_load_refuses_model_changes_and_bad_files(tmp_path, capsys):
    assert run_in_process(capsys, *SMALL, "--save", str(tmp_path / "s.json"), "--json")[0] == 0
    code, _, err = run_in_process(capsys, "--load", str(tmp_path / "s.json"), "--layers", "8")
    assert code == 2 and "--layers cannot change a loaded session" in err
    (tmp_path / "bad.json").write_text('{"format": "autograd-playground-session", "vers')
    code, _, err = run_in_process(capsys, "--load", str(tmp_path / "bad.json"))
    assert code == 1
    assert err.strip().count("\n") == 0 and "not valid JSON" in err


def test_non_finite_stop_is_reported_with_exit_code_1(capsys):
    args = ["--loss", "mse", "--optimizer", "sgd", "--lr", "1e6", "--steps", "50", "--batch-size", "8"]
    code, out, err = run_in_process(capsys, *args)
    assert code == 1
    assert "Training stopped at step" in err and "too large?" in err
    assert "train accuracy" in out  # the summary of the last good state is still printed


def test_points_file(tmp_path, capsys):
    points = tmp_path / "points.csv"
    points.write_text("x,y,label\n0,0,0\n1,1,1\n0,1,1\n1,0,0\n0.2,0.1,0\n0.9,0.8,1\n")
    args = ["--points", str(points), "--layers", "3", "--steps", "5", "--test-fraction", "0", "--json"]
    code, out, err = run_in_process(capsys, *args)
    assert code == 0, err
    summary = json.loads(out)
    assert summary["test_acc"] is None and summary["step"] == 5


def test_plot_without_a_writer_is_refused(capsys):
    code, _, err = run_in_process(capsys, "--plot", "x.png")
    assert code == 2 and "needs the PNG renderer" in err


def test_plot_writes_a_png_without_a_screen(tmp_path):
    out = tmp_path / "boundary.png"
    result = train(*SMALL, "--plot", str(out))
    assert result.returncode == 0, result.stderr
    data = out.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    from PySide6.QtGui import QImage

    image = QImage(str(out))
    assert (image.width(), image.height()) == (820, 700)
    # The map is not blank: it holds both class colors (blue-ish and orange-ish pixels).
    colors = {image.pixelColor(x, y).name() for x in range(80, 700, 20) for y in range(80, 620, 20)}
    assert any(int(c[1:3], 16) > int(c[5:7], 16) + 40 for c in colors)  # more red than blue: orange
    assert any(int(c[5:7], 16) > int(c[1:3], 16) + 40 for c in colors)  # more blue than red: blue


# ------------------------------------------------------------------ hostile input: one line, no traceback, bounded


def test_deeply_nested_points_json_is_one_line_in_a_subprocess(tmp_path):
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    result = train("--points", str(deep))
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr == (
        f"main.py train: error: cannot read --points {deep}: it is not a list of [x, y, label]: "
        "its JSON is nested too deeply (see --help)\n"
    )


def test_a_run_that_would_exhaust_memory_is_refused_before_anything_is_built():
    """The issue's two runs: 2.5 GB peak today (asked first), MemoryError with 256,256 (refused)."""
    result = train("--samples", "100000", "--batch-size", "0")
    assert result.returncode == 2 and result.stdout == "" and "Traceback" not in result.stderr
    assert result.stderr.count("\n") == 1
    assert "this run needs about 2." in result.stderr and "lower --batch-size, --samples or --layers" in result.stderr
    if RunLimits.for_this_machine().refuse_bytes > 3 * 2**30:  # asked (here: refused without a terminal)
        assert "(add --yes to run it anyway)" in result.stderr
    else:  # a machine with under 6 GiB: beyond half of it, refused outright
        assert "half of this machine's memory" in result.stderr
    result = train("--samples", "100000", "--batch-size", "0", "--layers", "256,256", "--yes")
    assert result.returncode == 2 and result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    assert "GiB of memory (over" in result.stderr and "(--layers 256,256)" in result.stderr
    assert "--yes" not in result.stderr  # no way around a refusal


def test_the_refusal_allocates_almost_nothing(capsys):
    tracemalloc.start()
    try:
        code, _, err = run_in_process(capsys, "--samples", "100000", "--batch-size", "0", "--layers", "256,256")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert code == 2 and "of memory" in err
    assert peak < 20 * 2**20  # no data set, no model, no graph


TINY_LIMITS = RunLimits(ask_bytes=2**40, refuse_bytes=2**41, ask_seconds=1e-6)


def test_a_slow_run_needs_yes_when_nobody_can_be_asked(capsys):
    code, out, err = run_in_process_with(capsys, TINY_LIMITS, *SMALL)
    assert code == 2 and out == ""
    assert "this run takes about" in err and "lower --steps" in err and err.rstrip().endswith("(see --help)")
    code, out, err = run_in_process_with(capsys, TINY_LIMITS, *SMALL, "--yes", "--json")
    assert code == 0 and json.loads(out)["step"] == 20


class _Terminal(io.StringIO):
    def isatty(self):
        return True


@pytest.mark.parametrize(("answer", "expected"), [("y\n", 0), ("\n", 2), ("", 2)])
def test_on_a_terminal_a_slow_run_is_asked_about(capsys, monkeypatch, answer, expected):
    monkeypatch.setattr(sys, "stdin", _Terminal(answer))
    terminal = _Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    code, out, _ = run_in_process_with(capsys, TINY_LIMITS, *SMALL, "--json", "--progress", "none")
    assert code == expected
    assert "this run takes about" in terminal.getvalue() and "Run it anyway? [y/N]" in terminal.getvalue()
    assert (json.loads(out)["step"] == 20) if expected == 0 else out == ""


def test_save_and_plot_paths_are_checked_before_training(tmp_path, capsys, monkeypatch):
    trained = []
    monkeypatch.setattr(Trainer, "step", lambda self: trained.append(1))
    code, out, err = run_in_process(capsys, "--save", str(tmp_path / "no" / "run.json"))
    assert code == 2 and out == "" and not trained
    assert err.count(str(tmp_path / "no" / "run.json")) == 1  # the path once
    code, _, err = run_in_process_with(capsys, None, "--plot", str(tmp_path / "no" / "b.png"), plot_writer=_png)
    assert code == 2 and "cannot write --plot" in err and not trained
    same = str(tmp_path / "same.png")
    code, _, err = run_in_process_with(capsys, None, "--plot", same, "--save", same, plot_writer=_png)
    assert code == 2 and "--save and --plot name the same file" in err and not trained
    if os.geteuid() != 0:
        locked = tmp_path / "locked"
        locked.mkdir(mode=0o500)
        code, _, err = run_in_process(capsys, "--save", str(locked / "run.json"))
        assert code == 2 and "Permission denied" in err and not trained


def _png(path, trainer):
    with open(path, "wb") as f:
        f.write(b"\x89PNG fake " + str(trainer.step_count).encode())


def test_a_failing_plot_writer_keeps_the_old_png_and_says_so_once(tmp_path, capsys):
    target = tmp_path / "b.png"
    target.write_bytes(b"old picture")

    def broken(path, trainer):
        with open(path, "wb") as f:
            f.write(b"half a pic")
        raise OSError(f"Qt could not write the PNG to {path}")

    code, _, err = run_in_process_with(capsys, None, *SMALL, "--plot", str(target), "--json", plot_writer=broken)
    assert code == 1 and target.read_bytes() == b"old picture"
    assert err == f"error: cannot write --plot {target}: the writer failed\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["b.png"]


def test_plotting_onto_a_symlink_keeps_the_link_and_the_mode(tmp_path, capsys):
    real = tmp_path / "real.png"
    real.write_bytes(b"old")
    os.chmod(real, 0o640)
    link = tmp_path / "link.png"
    link.symlink_to(real)
    code, _, _ = run_in_process_with(capsys, None, *SMALL, "--plot", str(link), "--json", plot_writer=_png)
    assert code == 0 and link.is_symlink() and real.read_bytes() == b"\x89PNG fake 20"
    assert os.stat(real).st_mode & 0o777 == 0o640


def test_running_out_of_memory_mid_run_is_one_line(capsys, monkeypatch):
    def exhausted(self):
        raise MemoryError

    monkeypatch.setattr(Trainer, "step", exhausted)
    code, _, err = run_in_process(capsys, *SMALL)
    assert code == 1
    assert err.startswith("error: out of memory at step 1 (estimated need ") and err.count("\n") == 1
    assert err.endswith("MiB); lower --batch-size or --layers\n")


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("x,y,label\n0,0,0\n1,1\n", "line 3 is '1,1', not x,y,label"),
        ("", "it holds no points"),
        ("0,0,0\n" * 100_001, "it holds 100,001 points; at most 100,000 are allowed"),
        ("0,0,7\n", "--points: every point must be [x, y, label]"),
    ],
)
def test_bad_points_files(tmp_path, capsys, content, message):
    path = tmp_path / "p.csv"
    path.write_text(content)
    code, out, err = run_in_process(capsys, "--points", str(path))
    assert code == 2 and out == "" and err.count("\n") == 1 and message in err


def test_bad_points_json(tmp_path, capsys):
    path = tmp_path / "p.json"
    path.write_text(json.dumps([[0.5] * 50_000]))  # one "point" of 50,000 numbers: the message stays short
    code, _, err = run_in_process(capsys, "--points", str(path))
    assert code == 2 and err.count("\n") == 1 and len(err) < 500 and "every point must be" in err
    path.write_text("[" + "[0,0,1]," * 200_000 + "[0,0,1]]")
    code, _, err = run_in_process(capsys, "--points", str(path))
    assert code == 2 and "more than the 100,000 points allowed" in err
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    code, _, err = run_in_process(capsys, "--points", str(fifo))
    assert code == 2 and "it is a pipe" in err


def test_loading_a_special_file_is_one_line(capsys):
    code, out, err = run_in_process(capsys, "--load", "/dev/zero")
    assert code == 1 and out == ""
    assert err == "error: cannot load the session: cannot read /dev/zero: it is a device, not a regular file\n"


def run_in_process_with(capsys, limits, *args, plot_writer=None):
    """``run_in_process`` with run-cost limits and a plot writer."""
    try:
        code = main(list(args), plot_writer=plot_writer, limits=limits)
    except SystemExit as exc:
        code = exc.code
    captured = capsys.readouterr()
    return code, captured.out, captured.err
