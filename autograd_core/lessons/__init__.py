"""Lessons: the article, lesson by lesson, as data.  Parse and validate lesson files; check task conditions
against the app's named state (a safe language, never ``eval``) and the expression's structure; check a
prediction; remember who did each task (the learner or Show me).  No Qt here: the GUI's lesson panel uses it."""

from autograd_core.lessons.conditions import FUNCTIONS, STATE_NAMES, ConditionError, check, parse_condition
from autograd_core.lessons.parse import (
    ACTIONS,
    ANSWERS,
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
from autograd_core.lessons.predict import GuessError, Prediction, check_prediction, read_guess
from autograd_core.lessons.progress import LEARNER, MARKS, SHOWN, LessonProgress
from autograd_core.lessons.structure import expression_structure

__all__ = [
    "ACTIONS",
    "ANSWERS",
    "CONTROLS",
    "FUNCTIONS",
    "LEARNER",
    "LESSONS_DIR",
    "MARKS",
    "SHOWN",
    "STATE_NAMES",
    "TABS",
    "Action",
    "ConditionError",
    "GuessError",
    "Lesson",
    "LessonError",
    "LessonProgress",
    "Prediction",
    "Task",
    "check",
    "check_prediction",
    "expression_structure",
    "load_lesson",
    "load_lessons",
    "parse_action",
    "parse_condition",
    "parse_lesson",
    "read_guess",
]
