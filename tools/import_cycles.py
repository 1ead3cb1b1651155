"""Import cycles among a package's modules: ``.venv/bin/python tools/import_cycles.py [--runtime] autograd_core gui``.

Every import counts, at the top of a module or inside a function (a lazy import only hides a cycle), and so do
those under ``if TYPE_CHECKING:``: they never run, but a module that names its host's type for its annotations
depends on it as much as one that imports it (``--runtime`` leaves them out). A package's ``__init__``
re-exporting its own modules is not a cycle. Prints each cycle and exits 1 when there is one
(``tests/core/test_house.py`` runs it).
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import networkx as nx

ROOT = Path(__file__).resolve().parents[1]


def _imports(tree: ast.AST, type_checking: bool = True):
    """Import nodes: all of them, or (``type_checking=False``) those that run, not under ``if TYPE_CHECKING``."""
    stack = [tree]
    while stack:
        node = stack.pop()
        if not type_checking and isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            stack.extend(node.orelse)
            continue
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
        stack.extend(ast.iter_child_nodes(node))


def import_graph(package: Path, type_checking: bool = True) -> nx.DiGraph:
    """Module → module it imports, for the modules of ``package`` (a folder); ``type_checking=False`` leaves out
    the imports under ``if TYPE_CHECKING:``."""
    modules = {
        ".".join(p.relative_to(package.parent).with_suffix("").parts).removesuffix(".__init__"): p
        for p in package.rglob("*.py")
    }
    graph = nx.DiGraph()
    for name, path in modules.items():
        here = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in _imports(ast.parse(path.read_text("utf-8")), type_checking):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            else:
                if node.level:
                    parts = here.split(".")[: len(here.split(".")) - node.level + 1]
                    base = ".".join([*parts, node.module] if node.module else parts)
                else:
                    base = node.module or ""
                targets = [base, *(f"{base}.{alias.name}" for alias in node.names)]
            for target in targets:
                if target in modules and target != name and not name.startswith(target + "."):
                    graph.add_edge(name, target)
    return graph


def cycles(package: Path, type_checking: bool = True) -> list[list[str]]:
    """Each cycle's modules, sorted; ``type_checking=False`` counts only the imports that run."""
    return sorted(sorted(c) for c in nx.simple_cycles(import_graph(package, type_checking)))


def main(argv: list[str]) -> int:
    runtime = "--runtime" in argv
    names = [a for a in argv if a != "--runtime"]
    found = 0
    for name in names or ["autograd_core", "gui"]:
        for cycle in cycles(ROOT / name, type_checking=not runtime):
            found += 1
            print(" -> ".join(cycle))
    print(f"{found} import cycles")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
