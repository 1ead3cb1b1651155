"""The front door: help, version and mistakes without Qt; no display → one line; the package installs and runs."""

import os
import shutil
import subprocess
import sys
import tomllib
from importlib import metadata
from pathlib import Path

import pytest

from autograd_core import __version__
from gui.shell.launcher import missing_display

ROOT = Path(__file__).resolve().parents[2]
NO_DISPLAY = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}


def run_main(*args, env=None, cwd=ROOT):
    """``python -X importtime main.py ARGS``: (exit code, stdout, stderr without import lines, Qt imported?)."""
    result = subprocess.run(
        [sys.executable, "-X", "importtime", str(ROOT / "main.py"), *args],
        capture_output=True,
        text=True,
        env=NO_DISPLAY if env is None else env,
        cwd=cwd,
        timeout=60,
    )
    lines = result.stderr.splitlines(keepends=True)
    imports = "".join(line for line in lines if line.startswith("import time:"))
    stderr = "".join(line for line in lines if not line.startswith("import time:"))
    return result.returncode, result.stdout, stderr, "PySide6" in imports


@pytest.mark.parametrize("flag", ["--help", "-h"])
def test_help_without_qt_and_without_a_display(flag):
    code, out, err, qt = run_main(flag)
    assert (code, err, qt) == (0, "", False)
    assert out.startswith("usage: main.py [-h] [--version]\n       main.py train [options]\n")
    assert "python main.py train --help" in out and "QT_QPA_PLATFORM=offscreen" in out and "xvfb-run" in out


def test_version_without_qt():
    assert run_main("--version") == (0, f"autograd-playground {__version__}\n", "", False)


@pytest.mark.parametrize("args", [["--frobnicate"], ["notes.json"], ["-x", "1"]])
def test_an_unknown_argument_is_one_line_without_qt(args):
    code, out, err, qt = run_main(*args)
    assert (code, out, qt) == (2, "", False)
    assert err.startswith("main.py: error: unrecognized arguments: ") and err.endswith(" (see --help)\n")
    assert err.count("\n") == 1


@pytest.mark.parametrize("platform", [None, "xcb"])
def test_no_display_is_one_line_naming_the_fix_instead_of_qts_abort(platform):
    env = dict(NO_DISPLAY, **({"QT_QPA_PLATFORM": platform} if platform else {}))
    code, out, err, qt = run_main(env=env)
    assert (code, out, qt) == (1, "", False)  # Qt is not even imported, so it cannot abort (exit 134)
    assert err == (
        "main.py: error: no display to open the window on (DISPLAY is not set); run it on a desktop, under Xvfb "
        "(xvfb-run -a python main.py) or offscreen (QT_QPA_PLATFORM=offscreen python main.py); "
        "'python main.py train' needs no display\n"
    )


def test_train_still_needs_no_display(tmp_path):
    code, out, err, qt = run_main("train", "--samples", "40", "--layers", "2", "--steps", "3", "--json", cwd=tmp_path)
    assert (code, err, qt) == (0, "", False) and '"step": 3' in out


@pytest.mark.parametrize(
    ("env", "platform", "problem"),
    [
        ({}, "linux", "DISPLAY is not set"),
        ({"QT_QPA_PLATFORM": "xcb"}, "linux", "DISPLAY is not set"),
        ({"QT_QPA_PLATFORM": "xcb", "WAYLAND_DISPLAY": "wayland-0"}, "linux", "DISPLAY is not set"),
        ({"QT_QPA_PLATFORM": "wayland"}, "linux", "WAYLAND_DISPLAY is not set"),
        ({"DISPLAY": ":0"}, "linux", None),
        ({"WAYLAND_DISPLAY": "wayland-0"}, "linux", None),
        ({"QT_QPA_PLATFORM": "offscreen"}, "linux", None),
        ({"QT_QPA_PLATFORM": "wayland;xcb", "DISPLAY": ":1"}, "linux", None),
        ({"QT_QPA_PLATFORM": "xcb:dpi=96", "DISPLAY": ":1"}, "linux", None),
        ({}, "darwin", None),
        ({}, "win32", None),
    ],
)
def test_which_environments_have_a_display(env, platform, problem):
    assert missing_display(env, platform) == problem


# ------------------------------------------------------------------ installable: pip install . gives the command


def test_pyproject_declares_the_command_the_packages_and_their_data():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert project["project"]["scripts"] == {"autograd-playground": "autograd_playground.gui.shell.launcher:main"}
    setuptools = project["tool"]["setuptools"]
    # the app and its data are installed under the distribution's own name, never as `gui` or `resources`
    assert setuptools["package-dir"] == {"autograd_playground.gui": "gui", "autograd_playground.resources": "resources"}
    folders = [".".join(p.parent.relative_to(ROOT).parts) for p in (ROOT / "autograd_core").rglob("__init__.py")]
    folders += [
        "autograd_playground." + ".".join(p.parent.relative_to(ROOT).parts) for p in (ROOT / "gui").rglob("__init__.py")
    ]
    assert sorted(setuptools["packages"]) == sorted([*folders, "autograd_playground.resources"])
    data = [f for f in (ROOT / "resources").iterdir() if not f.name.startswith(".")]
    assert data and setuptools["package-data"] == {"autograd_playground.resources": ["**/*"]}
    assert setuptools["dynamic"]["version"] == {"attr": "autograd_core.__version__"}


def test_the_gui_imports_itself_relatively_so_it_runs_installed_under_another_name():
    absolute = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in (ROOT / "gui").rglob("*.py")
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if line.lstrip().startswith(("from gui", "import gui"))
    ]
    assert absolute == []


@pytest.mark.slow
def test_pip_install_gives_a_working_autograd_playground_command(tmp_path):
    """Build and install a copy (so the checkout stays clean) and run the installed command from elsewhere."""
    pytest.importorskip("setuptools", minversion="70.1")  # builds wheels without the separate `wheel` package
    source, target = tmp_path / "source", tmp_path / "installed"
    source.mkdir()
    for name in ("pyproject.toml", "README.md", "requirements.txt"):
        shutil.copy(ROOT / name, source / name)
    for package in ("autograd_core", "gui", "resources"):
        shutil.copytree(ROOT / package, source / package, ignore=shutil.ignore_patterns("__pycache__"))
    pip = [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--no-build-isolation", "--no-index"]
    subprocess.run([*pip, "--target", str(target), str(source)], check=True, capture_output=True, timeout=300)

    (dist,) = metadata.distributions(path=[str(target)])
    assert dist.version == __version__
    (script,) = [e for e in dist.entry_points if e.group == "console_scripts"]
    assert (script.name, script.value) == ("autograd-playground", "autograd_playground.gui.shell.launcher:main")
    pins = [line for line in (ROOT / "requirements.txt").read_text().splitlines() if line and line[0] != "#"]
    assert sorted(dist.requires) == sorted(pins)
    assert (target / "autograd_playground" / "resources" / "examples.json").is_file()
    top_level = {
        p.name for p in target.iterdir() if not p.name.endswith((".dist-info", ".egg-info")) and p.name != "bin"
    }
    assert top_level == {"autograd_core", "autograd_playground"}  # no generic `gui` or `resources`

    command = target / "bin" / "autograd-playground"
    env = dict(NO_DISPLAY, PYTHONPATH=str(target))
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()

    def run(*args):
        return subprocess.run([str(command), *args], capture_output=True, text=True, env=env, cwd=elsewhere)

    assert run("--version").stdout == f"autograd-playground {__version__}\n"
    no_display = run()
    assert no_display.returncode == 1 and "xvfb-run -a autograd-playground" in no_display.stderr
    trained = run("train", "--samples", "40", "--layers", "2", "--steps", "3", "--json")
    assert trained.returncode == 0 and '"step": 3' in trained.stdout, trained.stderr
    where = subprocess.run(
        [
            sys.executable,
            "-c",
            "import autograd_playground.gui.expression.expression_panel as p;"
            "print(p.EXAMPLES_PATH, len(p.load_examples()))",
        ],
        capture_output=True,
        text=True,
        env=dict(env, QT_QPA_PLATFORM="offscreen"),
        cwd=elsewhere,
    )
    path, count = where.stdout.split()
    assert Path(path).is_relative_to(target) and int(count) > 0, where.stderr


def test_the_readme_commands_work_as_root_and_ci_runs_the_readme_test_command_and_the_slow_tests():
    readme = (ROOT / "README.md").read_text()
    commands = [line for line in readme.splitlines() if "apt-get install" in line]
    assert len(commands) == 2
    for command in commands:
        assert "sudo apt-get" not in command.replace("$(command -v sudo) apt-get", "")  # no bare sudo: root has none
    test_command = commands[1]
    ci = (ROOT / ".ci" / "run").read_text()
    readme_packages = test_command.split("apt-get install -y ")[1].split(" && ")[0].split()
    ci_packages = ci.split("packages=(")[1].split(")")[0].split()
    assert readme_packages == ci_packages
    assert ".venv/bin/pip install -q -r requirements-dev.txt" in test_command
    assert ".venv/bin/pip install -q -r requirements-dev.txt" in ci
    fast = 'QT_QPA_PLATFORM=offscreen .venv/bin/python -m pytest -q -n auto -m "not slow"'
    slow = "QT_QPA_PLATFORM=offscreen .venv/bin/python -m pytest -q -n auto -m slow --dist loadgroup"
    assert test_command.endswith(fast) and f"`{slow}`" in readme  # the slow ones, in one line below it
    assert f"{fast} -p no:cacheprovider" in ci and f"{slow} -p no:cacheprovider" in ci  # CI runs every test
    assert "SUDO=$(command -v sudo || true)" in ci
