"""The house rules a newcomer relies on, measured on the tree: no import cycles, folders of at most
15 modules, the library free of Qt, and the GUI folder free of Qt-free services."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tools.import_cycles import cycles

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("autograd_core", "gui")


@pytest.mark.parametrize("package", PACKAGES)
def test_no_import_cycles(package):
    assert cycles(ROOT / package) == []


def test_the_cycle_finder_finds_a_cycle(tmp_path):
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from pkg import b\n")
    (pkg / "b.py").write_text("def f():\n    from . import a\n")  # a lazy import still closes the cycle
    (pkg / "c.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .a import x\n")
    assert cycles(pkg) == [["pkg.a", "pkg.b"]]


@pytest.mark.parametrize("package", PACKAGES)
def test_no_folder_holds_more_than_15_modules(package):
    crowded = {
        str(folder.relative_to(ROOT)): n
        for folder in [ROOT / package, *(p for p in (ROOT / package).rglob("*") if p.is_dir())]
        if (n := len([f for f in folder.glob("*.py") if f.name != "__init__.py"])) > 15
    }
    assert crowded == {}


def test_the_library_never_imports_qt():
    qt = re.compile(r"^\s*(from|import)\s+(PySide6|pyqtgraph|gui)\b", re.M)
    assert [str(p.relative_to(ROOT)) for p in (ROOT / "autograd_core").rglob("*.py") if qt.search(p.read_text())] == []


def test_the_gui_folder_holds_no_qt_free_service():
    """A module of gui/ that neither imports Qt nor works on widgets belongs to the core (the launcher excepted:
    it must answer --help and --version without loading Qt)."""
    allowed = {"gui/shell/launcher.py", "gui/lessons/actions.py", "gui/lessons/controls.py"}  # these drive widgets
    qt_free = [
        str(p.relative_to(ROOT))
        for p in (ROOT / "gui").rglob("*.py")
        if p.name != "__init__.py" and not re.search(r"PySide6|pyqtgraph|^\s*from \.", p.read_text(), re.M)
    ]
    assert sorted(set(qt_free) - allowed) == []


@pytest.mark.parametrize("package", PACKAGES)
def test_no_module_is_over_800_lines(package):
    big = {
        str(p.relative_to(ROOT)): n
        for p in (ROOT / package).rglob("*.py")
        if (n := len(p.read_text("utf-8").splitlines())) > 800
    }
    assert big == {}
