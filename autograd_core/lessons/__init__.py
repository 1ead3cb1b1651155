"""Lessons: the article, lesson by lesson, as data.  Parse and validate lesson files, their actions as typed
commands and the controls they keep; check task conditions against the app's named state (a safe language,
never ``eval``) and the expression's structure; check a prediction; remember who did each task (the learner or
Show me).  No Qt here: the GUI's lesson panel uses it."""

from autograd_core.lessons.commands import ACTIONS, TABS, Command, CommandError, read_command, split_action
from autograd_core.lessons.conditions import FUNCTIONS, STATE_NAMES, ConditionError, check, parse_condition
from autograd_core.lessons.controls import ALWAYS_STEPPED_BACK, CONTROLS, SteppingBack, stepping_back
from autograd_core.lessons.parse import (
    ANSWERS,
    LESSONS_DIR,
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
    "ALWAYS_STEPPED_BACK",
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
    "Command",
    "CommandError",
    "ConditionError",
    "GuessError",
    "Lesson",
    "LessonError",
    "LessonProgress",
    "Prediction",
    "SteppingBack",
    "Task",
    "check",
    "check_prediction",
    "expression_structure",
    "load_lesson",
    "load_lessons",
    "parse_action",
    "parse_condition",
    "parse_lesson",
    "read_command",
    "read_guess",
    "split_action",
    "stepping_back",
]
