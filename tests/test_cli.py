"""``python main.py train``: main paths in a subprocess, as a user runs it; the many error cases in-process (fast)."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from autograd_core.cli import main

ROOT = Path(__file__).resolve().parents[1]
SMALL = ["--samples", "60", "--layers", "4", "--steps", "20", "--batch-size", "16"]


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
        (["--steps", "-5"], "expected a whole number ≥ 0"),
        (["--steps", "0"], "steps must be a whole number from 1"),
        (["--frobnicate"], "unrecognized arguments: --frobnicate"),
        (["--plot", "out.jpg"], "ending in .png"),
        (["--points", "missing.csv"], "cannot read --points missing.csv"),
    ],
)
def test_bad_options_in_process(capsys, args, message):
    code, out, err = run_in_process(capsys, *args)
    assert code == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("main.py train: error:")
    assert message in lines[0]


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
    # The map is not blank: it holds both class colours (blue-ish and orange-ish pixels).
    colours = {image.pixelColor(x, y).name() for x in range(80, 700, 20) for y in range(80, 620, 20)}
    assert any(int(c[1:3], 16) > int(c[5:7], 16) + 40 for c in colours)  # more red than blue: orange
    assert any(int(c[5:7], 16) > int(c[1:3], 16) + 40 for c in colours)  # more blue than red: blue
