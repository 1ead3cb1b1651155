"""Lessons: the article, lesson by lesson, as data.  Parse and validate lesson files; check task conditions
against the app's named state (a safe language, never ``eval``).  No Qt here: the GUI's lesson panel uses it."""

from autograd_core.lessons.conditions import FUNCTIONS, STATE_NAMES, ConditionError, check, parse_condition
from autograd_core.lessons.parse import (
    ACTIONS,
    CONTROLS,
    LESSONS_DIR,
    TABS,
    Action,
    Lesson,
    LessonError,
    Task,
    load_lesson,
    load_lessons,
    parse_action,
    parse_lesson,
)

__all__ = [
    "ACTIONS",
    "CONTROLS",
    "FUNCTIONS",
    "LESSONS_DIR",
    "STATE_NAMES",
    "TABS",
    "Action",
    "ConditionError",
    "Lesson",
    "LessonError",
    "Task",
    "check",
    "load_lesson",
    "load_lessons",
    "parse_action",
    "parse_condition",
    "parse_lesson",
]
