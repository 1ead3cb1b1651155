"""Docs that cannot drift: every path the docs and the code's docstrings name exists, ARCHITECTURE.md's module map
lists the tree's modules in full sentences, and no docstring or comment cites an issue number. Each check is
shown failing on a planted defect in a small tree of its own."""

from __future__ import annotations

import io
import shutil
import tokenize
from pathlib import Path

from tools.doc_checks import (
    ROOT,
    issue_references,
    missing_paths,
    module_map_problems,
    newest_changelog_entry,
    texts_of_source,
)


def _write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    return root


# ------------------------------------------------------------------ paths


def test_every_path_the_docs_and_docstrings_name_exists():
    assert missing_paths(ROOT) == []


def test_a_broken_path_in_the_docs_fails(tmp_path):
    root = _write(
        tmp_path,
        {
            "gui/__init__.py": "",
            "gui/shell/__init__.py": "",
            "gui/shell/theme.py": '"""Colors (``shell/theme.py``, ``gui/shell/gone.py``)."""\n# see tests/old.py\n',
            "autograd_core/__init__.py": "",
            "autograd_core/engine/__init__.py": "",
            "autograd_core/engine/ops.py": (
                "PATH = 'gui/not/a/docstring.py'  # a string is not a docstring\n"
                "# ``autograd_core.engine.ops.PATH`` is defined, ``autograd_core.engine.ops.GONE`` and ``gui.gone``\n"
            ),
            "tests/core/test_a.py": "",
            "docs/LESSONS.md": "The format.\n",
            "docs/ARCHITECTURE.md": (
                "`engine/ops.py`, `autograd_core/engine/`, `tests/<files>`, `tests/core/*.py` and `gui/*.png`;\n"
                "[the format](LESSONS.md), [gone](GONE.md), [site](https://example.org/gui/x.py)\n"
            ),
            "README.md": (
                "Run `tests/core/test_a.py`, not `tests/core/test_b.py`. Screenshots go to /tmp/tour/gui/a.png;\n"
                "settings live in ~/.config/gui/settings.ini; see https://github.com/x/gui/blob/main/gui/app.py,\n"
                "and save your model as runs/my_model.json.\n"
            ),
            "CHANGELOG.md": "# Changelog\n\n## Unreleased\n\n### Newest\n- `tools/gone.py` added.\n\n"
            "### Older\n- `gui/app.py`, since moved.\n",
            "pyproject.toml": "# tests/e2e/test_front_door.py checks the list\n",
            "requirements-dev.txt": "# tools/check.py runs it\n",
        },
    )
    assert sorted(missing_paths(root)) == [
        "CHANGELOG.md:6: tools/gone.py",  # the newest entry only: older entries are history
        "README.md:1: tests/core/test_b.py",
        "autograd_core/engine/ops.py:2: autograd_core.engine.ops.GONE",
        "autograd_core/engine/ops.py:2: gui.gone",
        "docs/ARCHITECTURE.md:1: gui/*.png",
        "docs/ARCHITECTURE.md:2: GONE.md",
        "gui/shell/theme.py:1: gui/shell/gone.py",
        "gui/shell/theme.py:2: tests/old.py",
        "pyproject.toml:1: tests/e2e/test_front_door.py",
        "requirements-dev.txt:1: tools/check.py",
    ]


def test_the_newest_changelog_entry_is_the_first_one():
    text = "# Changelog\n\n## Unreleased\n\n### B\n- two\n\n### A\n- one\n\n## Earlier\n- zero\n"
    assert newest_changelog_entry(text) == "### B\n- two\n\n"
    assert newest_changelog_entry("# Changelog\n") == ""


# ------------------------------------------------------------------ the module map


def test_the_module_map_lists_every_module_of_the_tree_in_full_sentences():
    assert module_map_problems(ROOT) == []


def test_a_missing_module_in_the_map_fails(tmp_path):
    shutil.copytree(ROOT / "docs", tmp_path / "docs", ignore=shutil.ignore_patterns("screenshots"))
    for package in ("autograd_core", "gui"):
        shutil.copytree(ROOT / package, tmp_path / package, ignore=shutil.ignore_patterns("__pycache__"))
    assert module_map_problems(tmp_path) == []
    (tmp_path / "autograd_core" / "engine" / "planted.py").write_text('"""A module the map does not name."""\n')
    (tmp_path / "gui" / "shell" / "errors.py").unlink()
    (tmp_path / "gui" / "newarea").mkdir()
    (tmp_path / "gui" / "newarea" / "__init__.py").write_text("")
    architecture = tmp_path / "docs" / "ARCHITECTURE.md"
    text = architecture.read_text("utf-8")
    cut = "- `tensor.py`: The scalar autograd engine: a number that remembers its parents."
    assert cut in text
    architecture.write_text(text.replace(cut, "- `tensor.py`: The scalar autograd engine: a number that"))
    assert module_map_problems(tmp_path) == [
        "autograd_core/engine/planted.py is missing",
        "autograd_core/engine/tensor.py's entry stops mid-sentence",
        "gui/newarea/ is missing",
        "gui/shell/errors.py does not exist",
    ]


# ------------------------------------------------------------------ issue numbers


def test_no_docstring_or_comment_cites_an_issue_number():
    assert issue_references(ROOT) == []


def test_an_issue_number_in_a_docstring_or_comment_fails(tmp_path):
    _write(
        tmp_path,
        {
            "gui/a.py": (
                '"""The lessons (issue 23): the panel."""\n'
                "x = 1  # the crash of Issue 11\n"
                "def f():\n"
                '    """Issues 7 and 14 asked for this; see #24."""\n'
                "    return 'issue 5'  # a string the user sees is not a comment\n"
                "# the learner never sees 'tanh #112', and #fff is a color\n"
            ),
            "tests/test_b.py": "# fixed (#31)\n",
        },
    )
    assert sorted(issue_references(tmp_path)) == [
        "gui/a.py:1: issue 23",
        "gui/a.py:2: Issue 11",
        "gui/a.py:4: Issues 7",
        "tests/test_b.py:1: (#31",
    ]


def test_comments_are_found_as_the_tokenizer_finds_them():
    source = (
        '"""Doc # not a comment."""\n'
        "x = 'a # b'  # one\n"
        's = """\n# inside a string\n"""  # two\n'
        "t = f\"{x!r} \\\" # \" + r'\\'#'  # three\n"
        "class A:\n"
        "    '''Class doc.'''\n"
        "    if x:\n"
        "        def f(self):\n"
        '            """Nested doc."""\n'
        "            return '#'  # four\n"
    )
    comments = [(t.start[0], t.string) for t in tokenize.generate_tokens(io.StringIO(source).readline)]
    comments = [c for c in comments if c[1].startswith("#")]
    assert [(line, text) for line, text in texts_of_source(source) if text.startswith("#")] == comments
    assert len(comments) == 4
    assert sorted(text for _, text in texts_of_source(source) if not text.startswith("#")) == [
        "Class doc.",
        "Doc # not a comment.",
        "Nested doc.",
    ]
