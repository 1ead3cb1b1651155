"""One spelling across the app, its code and its README: the American forms that Qt, NumPy and PyTorch use
(color, center, optimizer, normalize), so that no "Discretize" box has a tooltip saying "Colour", no
"Optimizer lab" has buttons saying "optimiser", no "Initialisation" stands beside INITIALIZATIONS."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# British forms, written in pieces so that this file does not list them itself
BRITISH = re.compile(
    "|".join(
        [
            "col" + "our",
            "optim" + "is",
            "initial" + "is",
            "standard" + "is",
            "discret" + "is",
            "normal" + "is",
            "minim" + "is",
            "maxim" + "is",
            "regular" + "is",
            "visual" + "is",
            "behavi" + "our",
            "neighb" + "our",
            "lab" + "elled",
            "lab" + "elling",
            "cent" + "re",
            r"\bgr" + "ey",
            r"\banal" + r"ys(e|ed|es|ing)\b",
        ]
    ),
    re.IGNORECASE,
)
LEGACY = 'state.get("discret' + 'ise"'  # a key sessions saved before the change still carry: read, never written


def project_files():
    for folder in ("gui", "autograd_core", "tools", "benchmarks", "tests", "resources"):
        for path in (ROOT / folder).rglob("*"):
            skip = "data" in path.parts or path == Path(__file__).resolve()  # (this file quotes the old spellings)
            if path.is_file() and path.suffix in (".py", ".md", ".qss", ".txt", ".toml") and not skip:
                yield path
    yield from (ROOT / "main.py", ROOT / "README.md", ROOT / "pyproject.toml")


def test_the_project_is_written_in_one_spelling():
    found = []
    for path in project_files():
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for match in BRITISH.finditer(line.replace(LEGACY, "")):
                found.append(f"{path.relative_to(ROOT)}:{number}: {match.group(0)!r} in {line.strip()[:90]!r}")
    assert not found, f"{len(found)} British spellings:\n" + "\n".join(found[:40])


def test_the_check_finds_a_british_spelling(tmp_path):
    assert BRITISH.search("the optimis" + "er's col" + "our") and not BRITISH.search("the optimizer's color")
    assert BRITISH.search("cent" + "red") and not BRITISH.search("centered, concentrate")
