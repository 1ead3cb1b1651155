"""Lesson files: one Markdown file per lesson, read into a ``Lesson`` or refused with one message that names the
file, the line and the problem (``LessonError``).  The format is documented in docs/LESSONS.md.

A file is a ``---`` header (title, tab, setup, controls), the explanation, ``## Task: …`` sections (each with
``check:``, ``hint:`` and ``show me:``) and, last, ``## The code``: python blocks, each followed by an
``output`` block saying what it prints.
"""

from __future__ import annotations

import contextvars
import dataclasses
import re
from pathlib import Path

from autograd_core.lessons.commands import TABS, Command, CommandError, read_command, split_action
from autograd_core.lessons.conditions import ConditionError, parse_condition
from autograd_core.lessons.controls import read_controls
from autograd_core.numbers import is_number

_ROOT = Path(__file__).resolve().parents[2]
# From a clone, resources/ sits beside autograd_core/; installed, it is autograd_playground/resources.
LESSONS_DIR = next(
    (
        d
        for d in (_ROOT / "resources" / "lessons", _ROOT / "autograd_playground" / "resources" / "lessons")
        if d.is_dir()
    ),
    _ROOT / "resources" / "lessons",
)
MAX_BYTES = 200_000  # a lesson is a page of text; anything bigger is not one
HEADER_FIELDS = ("title", "tab", "setup", "controls")
TASK_FIELDS = ("check", "hint", "show me")
# A predict task (docs/LESSONS.md): the learner's guess, checked against ``predict:`` after ``reveal:`` runs.
PREDICT_FIELDS = ("predict", "answer", "tolerance", "reveal")
ANSWERS = ("number", "sign")
# The ops a lesson defines in the workshop (its ``op name X`` actions): an expression or an activation may name
# them before they exist, as they will once the learner has defined them.
_LESSON_OPS: contextvars.ContextVar[frozenset] = contextvars.ContextVar("lesson_ops", default=frozenset())


class LessonError(ValueError):
    """A lesson file that cannot be used: ``str()`` is "file, line N: problem"."""

    def __init__(self, path, line: int | None, problem: str):
        self.path, self.line, self.problem = str(path), line, problem
        where = f"{Path(self.path).name}, line {line}" if line else Path(self.path).name
        super().__init__(f"{where}: {problem}")


@dataclasses.dataclass(frozen=True)
class Action:
    """One thing a lesson does in the app, as a user would: ``verb`` from ACTIONS and its ``args`` text, as the
    lesson words it, and the ``command`` the app carries out."""

    verb: str
    args: str
    line: int
    command: Command


@dataclasses.dataclass(frozen=True)
class Task:
    """A task: ``kind`` "do" ticks when the state meets ``condition``; "predict" asks for a guess first."""

    text: str
    condition: str
    hint: str
    show_me: tuple[Action, ...]
    line: int
    kind: str = "do"
    predict: str = ""  # a predict task: the condition-language expression whose value is the truth
    answer: str = "number"  # "number", or "sign" (the learner picks +, − or 0)
    tolerance: float = 0.0  # how far a number may be from the truth (a share of it when ``relative``)
    relative: bool = False
    reveal: tuple[Action, ...] = ()  # what the reveal button does (Backward…), after the guess


@dataclasses.dataclass(frozen=True)
class Lesson:
    path: str
    slug: str
    title: str
    tab: str
    setup: tuple[Action, ...]
    controls: tuple[str, ...]
    explanation: str
    tasks: tuple[Task, ...]
    code: tuple[str, ...]  # python blocks, run in order as one script
    output: tuple[str, ...]  # what the script prints (the output blocks, in order)


def parse_action(text: str, line: int, path) -> Action:
    """``text`` like "set x 3" or "step all" -> Action, its command checked (commands.py)."""
    try:
        verb, args = split_action(text)
        command = read_command(verb, args, _LESSON_OPS.get())
    except CommandError as exc:
        raise LessonError(path, line, str(exc)) from None
    if verb == "expression":
        args = args.replace("; ", "\n")
    return Action(verb, args, line, command)


def _read(path: Path) -> str:
    size = path.stat().st_size
    if size > MAX_BYTES:
        raise LessonError(path, None, f"the file is {size:,} bytes; a lesson is at most {MAX_BYTES:,}")
    raw = path.read_bytes()
    if b"\x00" in raw:
        raise LessonError(path, None, "this is a binary file, not a Markdown lesson")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise LessonError(path, line, "the file is not UTF-8 text") from None


def _field(text: str, names, path, number: int) -> tuple[str, str]:
    name, sep, value = text.partition(":")
    name = name.strip().lower()
    if not sep or name not in names:
        raise LessonError(path, number, f"unknown field {text.strip()!r}; expected one of {', '.join(names)}")
    return name, value.strip()


def _actions(value: str, items: list[tuple[int, str]], number: int, path) -> tuple[Action, ...]:
    """A field's actions: on its own line ("show me: backward"), or listed below it ("  - backward")."""
    found = [(number, value)] if value else []
    found += items
    return tuple(parse_action(text, line, path) for line, text in found)


def _list_items(lines: list[str], start: int) -> tuple[list[tuple[int, str]], int]:
    """The ``  - item`` lines from index ``start``; returns (line number, text) pairs and the next index."""
    items = []
    i = start
    while i < len(lines) and re.match(r"\s+-\s", lines[i]):
        items.append((i + 1, lines[i].strip()[1:].strip()))
        i += 1
    return items, i


def parse_lesson(text: str, path="lesson.md") -> Lesson:
    """Read one lesson's text; raise LessonError (file, line, problem) for the first thing wrong."""
    token = _LESSON_OPS.set(frozenset(re.findall(r"\bop name\s+([A-Za-z]\w*)", text)))
    try:
        return _parse_lesson(text, path)
    finally:
        _LESSON_OPS.reset(token)


def _parse_lesson(text: str, path) -> Lesson:
    path = Path(path)
    lines = text.splitlines()
    if not lines or lines[0].strip() != "---":
        raise LessonError(path, 1, "a lesson starts with a '---' header (title, tab, setup, controls)")
    try:
        end = next(i for i in range(1, len(lines)) if lines[i].strip() == "---")
    except StopIteration:
        raise LessonError(path, 1, "the header's closing '---' is missing") from None
    header: dict = {"tab": "", "setup": (), "controls": ()}
    i = 1
    while i < end:
        if not lines[i].strip():
            i += 1
            continue
        name, value = _field(lines[i], HEADER_FIELDS, path, i + 1)
        items, after = _list_items(lines[:end], i + 1)
        if name == "setup":
            header["setup"] = _actions(value, items, i + 1, path)
        elif items:
            raise LessonError(path, items[0][0], f"{name} takes one line, not a list")
        elif name == "controls":
            try:
                header["controls"] = read_controls(value)
            except ValueError as exc:
                raise LessonError(path, i + 1, str(exc)) from None
        elif name == "tab" and value not in TABS:
            raise LessonError(path, i + 1, f"tab {value!r} is not one of {', '.join(TABS)}")
        else:
            header[name] = value
        i = after
    if not header.get("title"):
        raise LessonError(path, 1, "the header has no title")
    setup = header["setup"]
    if header["tab"]:
        setup = (parse_action(f"tab {header['tab']}", 1, path), *setup)

    body = lines[end + 1 :]
    offset = end + 2  # body[k] is line offset + k
    task_starts = [k for k, line in enumerate(body) if line.startswith("## ")]
    explanation_end = task_starts[0] if task_starts else len(body)
    explanation = "\n".join(body[:explanation_end]).strip()
    if not explanation:
        raise LessonError(path, offset, "the lesson has no explanation before its first task")
    tasks, code, output = [], [], []
    for n, k in enumerate(task_starts):
        stop = task_starts[n + 1] if n + 1 < len(task_starts) else len(body)
        heading = body[k][3:].strip()
        if heading.lower().startswith("task:"):
            tasks.append(_task(heading[5:].strip(), body[k + 1 : stop], offset + k, path))
        elif heading.lower() == "the code":
            _code(body[k + 1 : stop], offset + k + 1, path, code, output)
        else:
            raise LessonError(path, offset + k, f"unknown section {heading!r}; use '## Task: …' or '## The code'")
    if not tasks:
        raise LessonError(path, offset, "the lesson has no '## Task: …' section")
    return Lesson(
        path=str(path),
        slug=path.stem,
        title=header["title"],
        tab=header["tab"],
        setup=setup,
        controls=header["controls"],
        explanation=explanation,
        tasks=tuple(tasks),
        code=tuple(code),
        output=tuple(output),
    )


def _task(text: str, lines: list[str], line: int, path) -> Task:
    if not text:
        raise LessonError(path, line, "a task needs its words after '## Task:'")
    fields: dict = {}
    numbers: dict = {}
    i = 0
    while i < len(lines):
        if not lines[i].strip():
            i += 1
            continue
        name, value = _field(lines[i], TASK_FIELDS + PREDICT_FIELDS, path, line + 1 + i)
        items, after = _list_items(lines, i + 1)
        number = numbers[name] = line + 1 + i
        if name in ("show me", "reveal"):
            fields[name] = _actions(value, [(line + j, t) for j, t in items], number, path)
        else:
            if items:
                raise LessonError(path, number, f"{name} takes one line, not a list")
            if name in ("check", "predict"):
                try:
                    parse_condition(value)
                except ConditionError as exc:
                    raise LessonError(path, number, f"bad {'condition' if name == 'check' else name}: {exc}") from None
            fields[name] = value
        i = after
    if "predict" in fields:
        return _predict_task(text, fields, numbers, line, path)
    extra = [name for name in PREDICT_FIELDS if name in fields]
    if extra:
        raise LessonError(path, numbers[extra[0]], f"'{extra[0]}:' belongs to a predict task, which has 'predict:'")
    for name in TASK_FIELDS:
        if name not in fields:
            raise LessonError(path, line, f"the task {text!r} has no '{name}:' line")
    return Task(text, fields["check"], fields["hint"], fields["show me"], line)


def _predict_task(text: str, fields: dict, numbers: dict, line: int, path) -> Task:
    """A predict task: predict, hint and reveal required; a number answer states its tolerance."""
    for name in ("hint", "reveal"):
        if name not in fields:
            raise LessonError(path, line, f"the predict task {text!r} has no '{name}:' line")
    answer = fields.get("answer", "number")
    if answer not in ANSWERS:
        raise LessonError(path, numbers["answer"], f"answer {answer!r} is not one of {', '.join(ANSWERS)}")
    tolerance, relative = 0.0, False
    if answer == "number":
        if "tolerance" not in fields:
            raise LessonError(path, line, f"the predict task {text!r} states no 'tolerance:' (like 0.01, or 5%)")
        raw = fields["tolerance"].strip()
        relative = raw.endswith("%")
        number = raw[:-1].strip() if relative else raw
        if not is_number(number) or not 0 <= float(number) < (100 if relative else 1e12):
            raise LessonError(path, numbers["tolerance"], f"tolerance {raw!r} is not a number like 0.01 or 5%")
        tolerance = float(number) / 100 if relative else float(number)
    return Task(
        text,
        fields.get("check", "false"),  # ticked by the prediction, not by the state
        fields["hint"],
        fields.get("show me", fields["reveal"]),
        line,
        kind="predict",
        predict=fields["predict"],
        answer=answer,
        tolerance=tolerance,
        relative=relative,
        reveal=fields["reveal"],
    )


def _code(lines: list[str], line: int, path, code: list, output: list) -> None:
    """``python`` blocks and the ``output`` block after each; anything else between them is prose."""
    i = 0
    while i < len(lines):
        fence = lines[i].strip()
        if fence.startswith("```"):
            kind = fence[3:].strip()
            try:
                close = next(j for j in range(i + 1, len(lines)) if lines[j].strip() == "```")
            except StopIteration:
                raise LessonError(path, line + i, "this code block is never closed with ```") from None
            block = "\n".join(lines[i + 1 : close])
            if kind == "python":
                code.append(block)
            elif kind == "output":
                if len(output) >= len(code):
                    raise LessonError(path, line + i, "an output block must follow a python block")
                output.append(block)
            else:
                raise LessonError(path, line + i, f"unknown block {kind!r}; use ```python or ```output")
            i = close + 1
        else:
            i += 1


def load_lesson(path) -> Lesson:
    """Read the lesson file at ``path`` (LessonError for a bad one, OSError for one that cannot be read)."""
    path = Path(path)
    return parse_lesson(_read(path), path)


def load_lessons(folder=None) -> tuple[list[Lesson], list[LessonError]]:
    """Every ``*.md`` lesson in ``folder`` (the shipped ones by default), in name order; a bad file is left out
    and its one error returned, so the others still open."""
    folder = Path(folder) if folder is not None else LESSONS_DIR
    lessons, errors = [], []
    for path in sorted(folder.glob("*.md")):
        try:
            lessons.append(load_lesson(path))
        except LessonError as exc:
            errors.append(exc)
        except OSError as exc:
            errors.append(LessonError(path, None, f"cannot be read: {exc.strerror or exc}"))
    return lessons, errors
