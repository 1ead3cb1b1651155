"""Docs that cannot drift: ``.venv/bin/python tools/doc_checks.py`` prints every finding and exits 1 on one;
``--map`` drafts, from their docstrings, the module map entries of the modules docs/ARCHITECTURE.md misses.

Three checks, each a function ``tests/core/test_docs.py`` runs on the tree and on a planted defect:

- ``missing_paths``: a repository path (``gui/look/theme.py``, ``tests/core/``, ``resources/lessons/*.md``) or
  module (``autograd_core.drawing.fit``) named in README.md, docs/*.md, the folders' README.md, the newest entry
  of CHANGELOG.md, pyproject.toml, requirements*.txt, .ci/run or a docstring or comment of the code that does not
  exist. A path counts when its first part is one of the repository's own top-level names or
  package folders (``engine/tensor.py``); URLs, absolute paths, ``~/…`` and file names a user types are not paths
  of the repository.
- ``module_map_problems``: docs/ARCHITECTURE.md's "Every module" lists each package folder's modules, and no
  other, each entry one full sentence.
- ``issue_references``: a docstring or comment of the code that cites one of the project's issues by number (the
  word issue and a number, or a number after ``(#``): a reader cannot look those up, and the history lives in
  CHANGELOG.md.
"""

from __future__ import annotations

import ast
import functools
import re
import sys
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("autograd_core", "gui")
CODE_FOLDERS = ("autograd_core", "gui", "tools", "benchmarks", "tests")
# the repository's own top-level folders: a path into one is checked even when the folder itself is gone
TOP_LEVEL = {*CODE_FOLDERS, "resources", "docs", ".ci"}

# a run of path characters holding a slash, not part of a URL, an absolute path, ``~/`` or ``$VAR/``
_PATH = re.compile(r"(?<![\w/~$.:@\\-])(\.?[\w-]+(?:/[\w.*<>{}-]*)+)")
_URL = re.compile(r"\b[a-z][a-z0-9+.-]*://\S+")
_LINK = re.compile(r"\]\(([^)\s]+)\)")
_DOTTED = re.compile(r"(?<![\w.])((?:autograd_core|gui)(?:\.\w+)+)")


# ------------------------------------------------------------------ text: where paths are named


def docstrings_and_comments(path: Path) -> list[tuple[int, str]]:
    """(line, text) of every docstring and comment of a module (read once: every check asks for them)."""
    return _docstrings_and_comments(path, path.stat().st_mtime_ns)


@functools.cache
def _docstrings_and_comments(path: Path, _mtime: int) -> list[tuple[int, str]]:
    return list(texts_of_source(path.read_text("utf-8")))


# a string literal (skipped whole, so a "#" inside one is no comment) or a comment; Python 3.11 allows no "#" and
# no quote of their own kind inside an f-string's braces, so this finds the tokenizer's comments (the same on every
# module of the tree) at a fraction of its cost
_STRING_OR_COMMENT = re.compile(
    r'[rRbBuUfF]{0,2}(?:"""(?:\\.|[^\\])*?"""'
    r"|'''(?:\\.|[^\\])*?'''"
    r'|"(?:\\.|[^"\\\n])*"'
    r"|'(?:\\.|[^'\\\n])*')"
    r"|(#[^\n]*)"
)


def texts_of_source(source: str) -> Iterator[tuple[int, str]]:
    """(line, text) of every docstring and comment of ``source``."""
    statements = list(ast.parse(source).body)
    yield from _docstring(1, statements)
    while statements:  # statements only: the expressions, most of the tree, hold no docstring
        node = statements.pop()
        for field in ("body", "orelse", "finalbody", "handlers", "cases"):
            block = getattr(node, field, None)
            if isinstance(block, list):
                if field == "body" and isinstance(node, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
                    yield from _docstring(node.lineno, block)
                statements.extend(block)
    line, seen = 1, 0
    for match in _STRING_OR_COMMENT.finditer(source):
        if match.group(1):
            line += source.count("\n", seen, match.start())
            seen = match.start()
            yield line, match.group(1)


def _docstring(line: int, body: list[ast.stmt]) -> Iterator[tuple[int, str]]:
    first = body[0] if body else None
    if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
        yield first.lineno, first.value.value


def newest_changelog_entry(text: str) -> str:
    """The first ``### `` entry of the changelog (the newest), without the ones before it."""
    parts = re.split(r"^(?=### )", text, flags=re.M)
    return parts[1].split("\n## ", 1)[0] if len(parts) > 1 else ""


def named_texts(root: Path) -> Iterator[tuple[Path, int, str]]:
    """(file, first line, text) of every text that names paths of the repository: the docs and the code's
    docstrings and comments."""
    for path in [
        root / "README.md",
        root / "pyproject.toml",
        *sorted(root.glob("requirements*.txt")),
        root / ".ci/run",
    ]:
        if path.exists():
            yield path, 1, path.read_text("utf-8")
    for path in sorted((root / "docs").glob("*.md")) + sorted(root.glob("*/README.md")):
        yield path, 1, path.read_text("utf-8")
    changelog = root / "CHANGELOG.md"
    if changelog.exists():
        text = changelog.read_text("utf-8")
        entry = newest_changelog_entry(text)
        yield changelog, text[: text.find(entry)].count("\n") + 1 if entry else 1, entry
    for folder in CODE_FOLDERS:
        for path in sorted((root / folder).rglob("*.py")):
            for line, text in docstrings_and_comments(path):
                yield path, line, text


# ------------------------------------------------------------------ paths


def path_roots(root: Path) -> tuple[set[str], list[Path]]:
    """The first parts a repository path may start with, and the folders it may be relative to: the repository's
    top-level names (``gui``, ``.ci``, ``main.py``), and the package folders (``engine``, ``shell``), which a
    docstring names relative to its package."""
    names = TOP_LEVEL | {
        p.name for p in root.iterdir() if not p.name.startswith((".git", ".venv", "__")) and p.name != "venv"
    }
    bases = [root]
    for package in PACKAGES:
        if (root / package).is_dir():
            bases.append(root / package)
            names |= {p.name for p in (root / package).iterdir() if p.is_dir() and p.name != "__pycache__"}
    return names, bases


def named_paths(text: str, first_parts: set[str]) -> Iterator[tuple[int, str]]:
    """(line offset, path) of each path ``text`` names whose first part is one of ``first_parts``."""
    text = _URL.sub(" ", text)
    for offset, line in enumerate(text.splitlines()):
        for match in _PATH.finditer(line):
            path = match.group(1).rstrip(".,:;")
            if path.split("/")[0] in first_parts:
                yield offset, path


def exists(path: str, bases: list[Path]) -> bool:
    """Whether ``path`` names a file or folder under one of ``bases``: a glob matches one, a placeholder
    (``tests/<files>``, ``{name}``) stands for anything inside the folder before it."""
    cut = re.search(r"[<{]", path)
    if cut:
        path = path[: cut.start()].rpartition("/")[0]
    for base in bases:
        if "*" in path:
            if next(base.glob(path), None) is not None:
                return True
        elif (base / path).exists():
            return True
    return False


@functools.cache
def _bound_names(source: Path) -> frozenset[str]:
    """Every name a module binds: its functions, classes, assignments and imports, and what its ``__all__``
    exports (a module's ``__getattr__`` may load those on first use)."""
    names = set()
    for node in ast.walk(ast.parse(source.read_text("utf-8"))):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.alias):
            names.add((node.asname or node.name).split(".")[0])
        elif isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets):
            names |= {c.value for c in ast.walk(node.value) if isinstance(c, ast.Constant)}  # loaded lazily, maybe
    return frozenset(names)


def dotted_name_exists(name: str, root: Path) -> bool:
    """Whether ``autograd_core.drawing.graph.to_networkx`` names a module, or a name its module binds."""
    parts = name.split(".")
    for i in range(len(parts), 0, -1):
        base = root.joinpath(*parts[:i])
        source = base.with_suffix(".py") if base.with_suffix(".py").exists() else base / "__init__.py"
        if source.exists():
            return i == len(parts) or parts[i] in _bound_names(source)
    return False


def missing_paths(root: Path = ROOT) -> list[str]:
    """``file:line: path`` for every path of the repository named in its docs and code that does not exist."""
    first_parts, bases = path_roots(root)
    found = []
    for file, line, text in named_texts(root):
        here = [file.parent, *bases]  # a Markdown file names its neighbors relative to itself
        for offset, path in named_paths(text, first_parts):
            if not exists(path, here):
                found.append(f"{file.relative_to(root)}:{line + offset}: {path}")
        for offset, chunk in enumerate(_URL.sub(" ", text).splitlines()):
            for name in _DOTTED.findall(chunk):
                if not dotted_name_exists(name.rstrip("."), root):
                    found.append(f"{file.relative_to(root)}:{line + offset}: {name}")
        if file.suffix == ".md":
            for offset, chunk in enumerate(text.splitlines()):
                for link in _LINK.findall(chunk):
                    target = link.split("#")[0]
                    if target and ":" not in target and not (file.parent / target).exists():
                        found.append(f"{file.relative_to(root)}:{line + offset}: {target}")
    return found


# ------------------------------------------------------------------ the module map


def module_map(text: str) -> dict[str, list[tuple[str, str]]]:
    """docs/ARCHITECTURE.md's "Every module": folder (``autograd_core/engine``) → [(module, its entry)]."""
    section = text.split("## Every module", 1)[1] if "## Every module" in text else ""
    section = re.split(r"^## ", section, maxsplit=1, flags=re.M)[0]
    folders: dict[str, list[tuple[str, str]]] = {}
    folder = None
    for line in section.splitlines():
        if heading := re.match(r"\*\*`([\w/]+?)/?`\*\*", line):
            folder = heading.group(1)
            folders[folder] = []
        elif entry := re.match(r"- `([\w.]+\.py)`: (.*)", line):
            if folder is not None:
                folders[folder].append((entry.group(1), entry.group(2)))
        elif line.startswith("  ") and folder is not None and folders[folder]:
            module, words = folders[folder][-1]
            folders[folder][-1] = (module, f"{words} {line.strip()}")
    return folders


def package_modules(root: Path) -> dict[str, list[str]]:
    """Each package folder (``gui/shell``) → its modules, as the tree holds them."""
    folders = {}
    for package in PACKAGES:
        for folder in [root / package, *sorted((root / package).rglob("*"))]:
            if folder.is_dir() and (folder / "__init__.py").exists():
                name = str(folder.relative_to(root))
                folders[name] = sorted(p.name for p in folder.glob("*.py") if p.name != "__init__.py")
    return folders


def module_map_problems(root: Path = ROOT) -> list[str]:
    """What docs/ARCHITECTURE.md's module map gets wrong about the tree: a module or folder missing, one named
    that does not exist, an entry that is not one full sentence."""
    drawn = module_map((root / "docs" / "ARCHITECTURE.md").read_text("utf-8"))
    problems = []
    for folder, modules in package_modules(root).items():
        if folder not in drawn:
            problems.append(f"{folder}/ is missing")
            continue
        named = [module for module, _ in drawn[folder]]
        problems += [f"{folder}/{m} is missing" for m in modules if m not in named]
        problems += [f"{folder}/{m} does not exist" for m in named if m not in modules]
        for module, words in drawn[folder]:
            if not re.search(r"[.!?)]\)?$", words.rstrip("`")):
                problems.append(f"{folder}/{module}'s entry stops mid-sentence")
    problems += [f"{folder}/ does not exist" for folder in drawn if folder not in package_modules(root)]
    return problems


# ------------------------------------------------------------------ issue numbers

# the word issue and a number, or "(#" or "see #" and a number; not a node's id in an example ("tanh #112")
_ISSUE = re.compile(r"\b[Ii]ssues?\s+#?\d+|(?:\(|\b(?:see|fixes|closes|per|from|in)\s+)#\d+\b")


def issue_references(root: Path = ROOT, folders: tuple[str, ...] = CODE_FOLDERS) -> list[str]:
    """``file:line: text`` for every docstring or comment that cites an issue of the project."""
    found = []
    for folder in folders:
        for path in sorted((root / folder).rglob("*.py")):
            for line, text in docstrings_and_comments(path):
                for offset, chunk in enumerate(text.splitlines()):
                    if match := _ISSUE.search(chunk):
                        found.append(f"{path.relative_to(root)}:{line + offset}: {match.group(0)}")
    return found


def draft_entry(module: Path) -> str:
    """A module map entry drafted from the module's docstring: its first paragraph, as one line, to edit down."""
    doc = ast.get_docstring(ast.parse(module.read_text("utf-8"))) or "(no docstring)"
    return f"- `{module.name}`: {' '.join(doc.split(chr(10) * 2)[0].split())}"


def main(argv: list[str]) -> int:
    if "--map" in argv:  # draft entries for the modules the map misses
        for folder, modules in package_modules(ROOT).items():
            named = [m for m, _ in module_map((ROOT / "docs" / "ARCHITECTURE.md").read_text("utf-8")).get(folder, [])]
            for module in modules:
                if module not in named:
                    print(f"{folder}/: {draft_entry(ROOT / folder / module)}")
        return 0
    findings = missing_paths() + module_map_problems() + issue_references()
    for finding in findings:
        print(finding)
    print(f"{len(findings)} findings")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
