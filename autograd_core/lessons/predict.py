"""Predict, then reveal: a task where the learner types a number (or picks a sign) before pressing the button
that shows it, and the app checks the guess with the task's stated tolerance.

``read_guess`` turns what was typed into a number (a sign is -1, 0 or +1) or says in one sentence what to
type; ``check_prediction`` compares it with the truth, read from the app's state with the task's
``predict:`` expression (the condition language: ``grad(a)``, ``value(out)``…) after the reveal, and returns
a ``Prediction`` whose ``sentence`` shows the truth beside the guess.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from autograd_core.lessons.conditions import evaluate
from autograd_core.numbers import LEDGER, format_number

SIGN_WORDS = {
    "+": 1,
    "positive": 1,
    "pos": 1,
    "-": -1,
    "−": -1,
    "negative": -1,
    "neg": -1,
    "0": 0,
    "zero": 0,
}
SIGN_NAMES = {1: "positive", -1: "negative", 0: "zero"}
ZERO = 1e-12  # a truth this close to 0 has the sign zero


class GuessError(ValueError):
    """What was typed is not a guess of the kind the task asks for."""


@dataclass(frozen=True)
class Prediction:
    guess: float
    truth: float
    correct: bool
    sentence: str


def read_guess(text: str, answer: str = "number") -> float:
    """The number typed (``answer`` "number") or the sign picked (-1, 0, +1 for "sign")."""
    cleaned = str(text).strip().replace("−", "-").replace(",", ".") if answer == "number" else str(text).strip()
    if answer == "sign":
        sign = SIGN_WORDS.get(cleaned.lower())
        if sign is None:
            raise GuessError("pick a sign: positive (+), negative (−) or zero (0)")
        return float(sign)
    try:
        value = float(cleaned)
    except ValueError:
        raise GuessError(f"type a number, like -0.5 (got {text!r:.20})") from None
    if not math.isfinite(value):
        raise GuessError("type a finite number")
    return value


def _sign(x: float) -> int:
    return 0 if abs(x) <= ZERO else (1 if x > 0 else -1)


def _num(x: float) -> str:
    return format_number(x, LEDGER)


def check_prediction(task, guess: float, state: dict, truth: float | None = None) -> Prediction:
    """Compare ``guess`` (from ``read_guess``) with the truth the task's ``predict:`` reads from ``state`` (or
    with ``truth``, read when the answer was revealed: a second reveal might not show the same, as a second
    Backward accumulates)."""
    if truth is None:
        truth = evaluate(task.predict, state)
    truth = float(truth) if isinstance(truth, int | float) else math.nan
    if not math.isfinite(truth):
        return Prediction(guess, truth, False, f"the answer is {_num(truth)}: there is nothing to compare with")
    if task.answer == "sign":
        correct = _sign(truth) == int(guess)
        said, verdict = SIGN_NAMES[int(guess)], "right" if correct else "not that sign"
        return Prediction(guess, truth, correct, f"you said {said}; it is {_num(truth)} ({verdict})")
    allowed = task.tolerance * abs(truth) if task.relative else task.tolerance
    off = abs(guess - truth)
    correct = off <= allowed + 1e-12 * max(1.0, abs(truth))
    stated = f"±{_num(task.tolerance * 100)} %" if task.relative else f"±{_num(task.tolerance)}"
    verdict = f"right, within {stated}" if correct else f"off by {_num(off)}, more than {stated}"
    return Prediction(guess, truth, correct, f"you said {_num(guess)}; it is {_num(truth)}: {verdict}")
