"""The house rules a newcomer relies on, measured on the tree: no import cycles, folders of at most
15 modules, the library free of Qt, and the GUI folder free of Qt-free services."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import networkx as nx
import pytest

from tools.import_cycles import cycles, import_graph

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("autograd_core", "gui")


@pytest.mark.parametrize("package", PACKAGES)
def test_no_import_cycles(package):
    assert cycles(ROOT / package, type_checking=False) == []


@pytest.mark.parametrize("package", PACKAGES)
def test_no_import_cycles_counting_type_only_imports(package):
    """An import under ``if TYPE_CHECKING:`` closes a cycle too (a part naming its host for its annotations):
    a part talks to its host through a small Protocol of its own, or is given what it needs."""
    assert cycles(ROOT / package) == []


def test_the_cycle_finder_finds_a_cycle(tmp_path):
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from pkg import b\n")
    (pkg / "b.py").write_text("def f():\n    from . import a\n")  # a lazy import still closes the cycle
    (pkg / "c.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .d import x\n")
    (pkg / "d.py").write_text("from .c import y\n")  # a cycle through a type-only import
    assert cycles(pkg, type_checking=False) == [["pkg.a", "pkg.b"]]
    assert cycles(pkg) == [["pkg.a", "pkg.b"], ["pkg.c", "pkg.d"]]


# Layers of the core that point one way: the engine is the bottom floor (it imports no other folder of the core,
# only leaf modules such as numbers.py), and the training service (live/) uses learn/, which never imports it back.
CORE_FOLDERS = tuple(
    f"autograd_core.{p.name}" for p in sorted((ROOT / "autograd_core").iterdir()) if (p / "__init__.py").exists()
)
FORBIDDEN_LAYERS = {
    "autograd_core.engine": tuple(f for f in CORE_FOLDERS if f != "autograd_core.engine"),
    "autograd_core.learn": ("autograd_core.live",),
}


def layer_breaches(package: Path, forbidden: dict[str, tuple[str, ...]]) -> set[tuple[str, str]]:
    """(importer, imported) pairs where a module of a folder in ``forbidden`` imports a folder it may not."""
    return {
        (importer, imported)
        for importer, imported in import_graph(package).edges
        for folder, banned in forbidden.items()
        if importer.startswith(folder + ".") and any(imported == b or imported.startswith(b + ".") for b in banned)
    }


def test_the_core_layers_point_one_way():
    assert "autograd_core.language" in FORBIDDEN_LAYERS["autograd_core.engine"]
    assert layer_breaches(ROOT / "autograd_core", FORBIDDEN_LAYERS) == set()


def test_a_layer_breach_is_found(tmp_path):
    core = tmp_path / "autograd_core"
    for folder in ("engine", "learn", "live"):
        (core / folder).mkdir(parents=True)
        (core / folder / "__init__.py").write_text("")
    (core / "__init__.py").write_text("")
    (core / "numbers.py").write_text("")
    (core / "live" / "service.py").write_text("from autograd_core.learn import training\n")  # allowed: down
    (core / "learn" / "training.py").write_text("def f():\n    from autograd_core.live import service\n")
    (core / "engine" / "tensor.py").write_text(
        "from autograd_core.engine import ops\nfrom autograd_core import numbers\n"
    )
    (core / "engine" / "ops.py").write_text("from autograd_core.learn import training\n")
    forbidden = {**FORBIDDEN_LAYERS, "autograd_core.engine": ("autograd_core.learn", "autograd_core.live")}
    assert {importer for importer, _ in layer_breaches(core, forbidden)} == {
        "autograd_core.engine.ops",
        "autograd_core.learn.training",
    }


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


QT = ("PySide6", "pyqtgraph")


def qt_free_modules(package: Path) -> list[str]:
    """The modules of ``package`` (``__init__`` aside) that run without Qt: neither they nor any module of the
    package they import (at the top or lazily, transitively) imports PySide6 or pyqtgraph. An import under
    ``if TYPE_CHECKING:`` never runs, and does not count."""
    paths = {p: ".".join(p.relative_to(package.parent).with_suffix("").parts) for p in package.rglob("*.py")}
    modules = {name.removesuffix(".__init__"): path for path, name in paths.items()}
    graph = import_graph(package, type_checking=False)
    graph.add_nodes_from(modules)
    uses_qt = set()
    for name, path in modules.items():
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.Import) and any(a.name.split(".")[0] in QT for a in node.names):
                uses_qt.add(name)
            elif isinstance(node, ast.ImportFrom) and not node.level and (node.module or "").split(".")[0] in QT:
                uses_qt.add(name)
    through = set(uses_qt)
    for name in uses_qt:
        through |= nx.ancestors(graph, name)  # every module that reaches one that imports Qt
    return sorted(
        path.relative_to(package.parent).as_posix()
        for name, path in modules.items()
        if name not in through and path.name != "__init__.py"
    )


def test_a_qt_free_module_is_found_through_its_imports(tmp_path):
    gui = tmp_path / "gui"
    for name, text in {
        "__init__.py": "",
        "a/__init__.py": "",
        "a/view.py": "from PySide6.QtWidgets import QWidget\n",
        "a/panel.py": "from .helper import f\n",  # Qt through a module that imports it
        "a/helper.py": "from ..b.deep import g\n",
        "b/__init__.py": "",
        "b/deep.py": "def g():\n    import pyqtgraph\n",  # a lazy import of Qt still loads it
        "b/policy.py": "from .numbers import h\n",  # a relative import alone is not Qt
        "b/numbers.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ..a.view import X\n",
    }.items():
        (gui / name).parent.mkdir(parents=True, exist_ok=True)
        (gui / name).write_text(text, encoding="utf-8")
    assert qt_free_modules(gui) == ["gui/b/numbers.py", "gui/b/policy.py"]


def test_the_gui_folder_holds_no_qt_free_service():
    """A module of gui/ that runs without Qt belongs to the core (the launcher excepted: it must answer --help
    and --version without loading Qt)."""
    qt_free = set(qt_free_modules(ROOT / "gui"))
    assert sorted(qt_free - {"gui/shell/launcher.py"}) == []


_QT_CODE = re.compile(r"\bqtbot\b|^\s*(?:from|import)\s+(?:PySide6|pyqtgraph|gui)\b", re.M)


def qt_free_test_files(tests: Path) -> list[str]:
    """The test modules of ``tests/gui`` that need no Qt: none of them, nor a helper module of ``tests`` they
    import, imports PySide6, pyqtgraph or ``gui``, and none of their tests asks for ``qtbot`` or for a fixture of
    ``tests/conftest.py`` that does. They belong in ``tests/core``, which a venv without Qt runs."""
    helpers = {p.stem for p in tests.glob("*.py") if _QT_CODE.search(p.read_text("utf-8"))}
    qt_fixtures = set()
    conftest = tests / "conftest.py"
    if conftest.exists():
        source = conftest.read_text("utf-8")
        for node in ast.parse(source).body:
            if isinstance(node, ast.FunctionDef) and _QT_CODE.search(ast.get_source_segment(source, node) or ""):
                qt_fixtures.add(node.name)
    free = []
    for path in sorted((tests / "gui").glob("test_*.py")):
        tree = ast.parse(path.read_text("utf-8"))
        imported = {a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
        imported |= {(n.module or "").split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
        asked = {a.arg for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) for a in n.args.args}
        if not (_QT_CODE.search(path.read_text("utf-8")) or imported & helpers or asked & qt_fixtures):
            free.append(path.relative_to(tests.parent).as_posix())
    return free


def test_the_gui_tests_all_need_qt():
    assert qt_free_test_files(ROOT / "tests") == []


def test_a_qt_free_test_in_tests_gui_is_found(tmp_path):
    tests = tmp_path / "tests"
    for name, text in {
        "conftest.py": "def ws(qtbot):\n    pass\n\ndef plain(tmp_path):\n    pass\n",
        "gui_helpers.py": "from PySide6.QtCore import Qt\n",
        "gui/test_clicks.py": "def test_a(qtbot):\n    pass\n",
        "gui/test_fixture.py": "def test_b(ws):\n    pass\n",  # Qt through a conftest fixture
        "gui/test_helper.py": "from gui_helpers import Qt\n",  # Qt through a helper
        "gui/test_lazy.py": "def test_c():\n    from gui.look.theme import palette\n",
        "gui/test_numbers.py": "from autograd_core.numbers import format_number\n\ndef test_d(plain):\n    pass\n",
    }.items():
        (tests / name).parent.mkdir(parents=True, exist_ok=True)
        (tests / name).write_text(text, encoding="utf-8")
    assert qt_free_test_files(tests) == ["tests/gui/test_numbers.py"]


@pytest.mark.parametrize("package", PACKAGES)
def test_no_module_is_over_800_lines(package):
    big = {
        str(p.relative_to(ROOT)): n
        for p in (ROOT / package).rglob("*.py")
        if (n := len(p.read_text("utf-8").splitlines())) > 800
    }
    assert big == {}


SIGNAL = re.compile(r"^\s+(\w+)\s*=\s*Signal\(", re.MULTILINE)


def signal_names_not_snake_case(package: Path) -> list[str]:
    """``path: name`` for every Qt signal of ``package`` not named in snake_case (the app's one style)."""
    return [
        f"{path.relative_to(package.parent).as_posix()}: {name}"
        for path in sorted(package.rglob("*.py"))
        for name in SIGNAL.findall(path.read_text("utf-8"))
        if name != name.lower()
    ]


def test_every_signal_is_named_in_snake_case():
    assert len(SIGNAL.findall((ROOT / "gui" / "training" / "training_worker.py").read_text("utf-8"))) > 0
    assert signal_names_not_snake_case(ROOT / "gui") == []


def test_a_camel_case_signal_is_found(tmp_path):
    gui = tmp_path / "gui"
    gui.mkdir()
    (gui / "panel.py").write_text("class P(QObject):\n    value_changed = Signal()\n    pointPicked = Signal(float)\n")
    assert signal_names_not_snake_case(gui) == ["gui/panel.py: pointPicked"]
