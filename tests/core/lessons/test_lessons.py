"""Lesson files, without Qt: the shipped lessons load, run their code and print what they say; bad
files get one message naming file, line and problem; conditions read named state and nothing else."""

import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from autograd_core.lessons import (
    FUNCTIONS,
    STATE_NAMES,
    ConditionError,
    LessonError,
    check,
    load_lesson,
    load_lessons,
    parse_condition,
    parse_lesson,
)

ROOT = Path(__file__).resolve().parents[3]
LESSONS, ERRORS = load_lessons()

GOOD = """---
title: A tiny lesson
tab: expression
setup:
  - expression y = x * 3
controls: editor, inputs, backward
---
Some words.

## Task: Press Backward
check: backward_done and grad(x) == 3
hint: The Backward button.
show me: backward
"""


def test_at_least_eight_lessons_ship_and_all_of_them_load_in_the_articles_order():
    assert not ERRORS, [str(e) for e in ERRORS]
    assert len(LESSONS) >= 8
    numbers = [int(re.match(r"(\d+)\.", lesson.title).group(1)) for lesson in LESSONS]
    assert numbers == list(range(1, len(LESSONS) + 1))  # file name order is the lessons' order
    firsts = ["memory", "family tree", "chain rule", "add up", "activations", "right order", "mlp", "two moons"]
    for lesson, words in zip(LESSONS, firsts, strict=False):
        assert words in lesson.title.lower()


@pytest.mark.parametrize("lesson", LESSONS, ids=[lesson.slug for lesson in LESSONS])
def test_each_lesson_is_short_has_tasks_with_hint_and_show_me_and_code(lesson):
    words = len(re.findall(r"[A-Za-z0-9']+", lesson.explanation))
    assert 40 <= words <= 250, words
    assert lesson.tasks and all(t.hint and t.show_me and t.condition for t in lesson.tasks)
    assert lesson.code and len(lesson.output) == len(lesson.code)
    assert all("autograd_core" in block for block in lesson.code[:1])
    assert 0 < len(lesson.controls) <= 8  # with the lesson panel's own, about a dozen controls on screen


@pytest.mark.parametrize(  # lesson 8's code trains the article's run: 100 epochs, ~10 s
    "lesson",
    [pytest.param(x, marks=pytest.mark.slow) if x.slug.startswith("08") else x for x in LESSONS],
    ids=[x.slug for x in LESSONS],
)
def test_a_lessons_code_runs_from_the_project_root_and_prints_what_the_lesson_says(lesson):
    script = "\n\n".join(lesson.code)
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines() == "\n".join(lesson.output).strip().splitlines()


def test_a_good_lesson_parses_into_its_parts():
    lesson = parse_lesson(GOOD, "tiny.md")
    assert lesson.title == "A tiny lesson" and lesson.slug == "tiny" and lesson.tab == "expression"
    assert [(a.verb, a.args) for a in lesson.setup] == [("tab", "expression"), ("expression", "y = x * 3")]
    assert lesson.controls == ("editor", "inputs", "backward")
    (task,) = lesson.tasks
    assert task.text == "Press Backward" and task.condition == "backward_done and grad(x) == 3"
    assert [(a.verb, a.args) for a in task.show_me] == [("backward", "")]
    assert task.line == 10 and lesson.explanation == "Some words."


@pytest.mark.parametrize(
    ("change", "line", "words"),
    [
        (("controls: editor", "color: blue"), 6, "unknown field 'color: blue, inputs, backward'"),
        (("check: backward_done and grad(x) == 3", "check: grad(x) >"), 11, "bad condition"),
        (("check: backward_done and grad(x) == 3", "check: speed > 3"), 11, "unknown state name 'speed'"),
        (("check: backward_done and grad(x) == 3", "check: __import__('os')"), 11, "unknown function"),
        (("check: backward_done and grad(x) == 3", "check: grad.__class__"), 11, "not allowed"),
        (("hint: The Backward button.\n", ""), 10, "no 'hint:' line"),
        (("## Task: Press Backward", "## Tusk: Press Backward"), 10, "unknown section"),
        (("show me: backward", "show me: explode"), 13, "unknown action 'explode'"),
        (("show me: backward", "show me: set x"), 13, "set needs an input's name and a number"),
        (("  - expression y = x * 3", "  - expression y = x *"), 5, "the expression does not parse"),
        (("tab: expression", "tab: kitchen"), 3, "tab 'kitchen'"),
        (("title: A tiny lesson\n", ""), 1, "no title"),
    ],
)
def test_a_bad_lesson_gets_one_message_naming_file_line_and_problem(change, line, words):
    old, new = change
    assert old in GOOD
    with pytest.raises(LessonError) as caught:
        parse_lesson(GOOD.replace(old, new), "teacher.md")
    message = str(caught.value)
    assert message.startswith(f"teacher.md, line {line}: "), message
    assert words in message
    assert "\n" not in message and "Traceback" not in message


def test_a_lesson_without_tasks_or_explanation_is_refused():
    no_tasks = GOOD[: GOOD.index("## Task")]
    with pytest.raises(LessonError, match="no '## Task: …' section"):
        parse_lesson(no_tasks, "t.md")
    with pytest.raises(LessonError, match="no explanation"):
        parse_lesson(GOOD.replace("Some words.\n", ""), "t.md")
    with pytest.raises(LessonError, match="starts with a '---' header"):
        parse_lesson("# Just a heading\n", "t.md")


def test_huge_binary_and_non_utf8_files_are_refused_and_the_other_lessons_still_open(tmp_path):
    (tmp_path / "01-good.md").write_text(GOOD, encoding="utf-8")
    (tmp_path / "02-huge.md").write_text(GOOD + "x" * 300_000, encoding="utf-8")
    (tmp_path / "03-binary.md").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00")
    (tmp_path / "04-latin1.md").write_bytes(GOOD.replace("Some words.", "Caf\xe9").encode("latin-1"))
    lessons, errors = load_lessons(tmp_path)
    assert [lesson.slug for lesson in lessons] == ["01-good"]
    assert [str(e) for e in errors] == [
        f"02-huge.md: the file is {len(GOOD) + 300_000:,} bytes; a lesson is at most 200,000",
        "03-binary.md: this is a binary file, not a Markdown lesson",
        "04-latin1.md, line 8: the file is not UTF-8 text",
    ]
    with pytest.raises(OSError):
        load_lesson(tmp_path / "missing.md")


@given(st.text(max_size=400))
@settings(max_examples=300, deadline=None)
def test_any_text_is_a_lesson_or_one_lesson_error(text):
    try:
        parse_lesson(text, "random.md")
    except LessonError as exc:
        assert str(exc).startswith("random.md")


STATE = {
    "steps": 120,
    "train_loss": 0.25,
    "layers": "16,16",
    "backward_done": True,
    "grad": {"a": 2.5},
    "value": {"a": -1.0},
    "test_loss": float("nan"),
}


@pytest.mark.parametrize(
    ("condition", "met"),
    [
        ("grad(a) > 0", True),
        ("grad(a) > 3", False),
        ("steps >= 100 and train_loss < 0.3", True),
        ("steps >= 200 or train_loss > 0.3", False),
        ('layers == "16,16"', True),
        ('layers == "16"', False),
        ("not backward_done", False),
        ("abs(value(a)) == 1 and has(a) and not has(b)", True),
        ("grad(b) > 0 or grad(b) <= 0", False),  # a node the expression lacks is nan: never met
        ("test_loss < 1", False),  # no test set: nan
        ("min(steps, 50) == 50 and max(grad(a), 3) == 3", True),
        ("steps / 0 > 1", False),
        ("layers < 3", False),  # text against a number: not met, no TypeError
        ("-grad(a) < 0 and 2 * grad(a) - 1 == 4", True),
    ],
)
def test_conditions_read_named_state(condition, met):
    assert check(condition, STATE) is met


@pytest.mark.parametrize(
    "condition",
    [
        "__import__('os').system('true')",
        "grad(a).__class__",
        "steps.real",
        "(lambda: 1)()",
        "[1, 2][0]",
        "open('x')",
        "grad(a + 1)",
        "steps if steps else 0",
        "x := 3",
        "f'{steps}'",
        "steps ** 9999999",
        "",
        "steps in (1, 2)",
    ],
)
def test_conditions_refuse_everything_else(condition):
    with pytest.raises(ConditionError):
        parse_condition(condition)


def test_the_docs_list_every_state_name_and_function():
    docs = (ROOT / "docs" / "LESSONS.md").read_text(encoding="utf-8")
    for name in (*STATE_NAMES, *FUNCTIONS):
        assert f"`{name}" in docs, name
    # the docs' complete example is itself a lesson that loads
    example = re.search(r"````markdown\n(.*?)````", docs, re.S).group(1)
    lesson = parse_lesson(example, "example.md")
    assert lesson.tasks and lesson.code
