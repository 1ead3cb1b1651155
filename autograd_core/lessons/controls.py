"""Which of the app's controls a lesson keeps on screen.  A lesson's ``controls:`` line names the few it uses;
the others step back while it runs, so the learner sees only what the lesson talks about.  The names are the
lesson's words; which widgets each one stands for is the app's business (gui/lessons/controls.py)."""

from __future__ import annotations

from dataclasses import dataclass

# The app's controls a lesson can keep on screen (the rest step back while it runs).
CONTROLS = (
    "editor",
    "inputs",
    "backward",
    "step",
    "ledger",
    "graph",
    "layers",
    "activation",
    "dataset",
    "preset",
    "lr",
    "play",
    "step_train",
    "reset",
    "curves",
    "boundary",
    "loss_slice",
    "diagram",
    "break_it",
)
# Controls no lesson names, so none can keep them: they step back in every lesson.  (The graph's mode and
# maths, its layout and collapse tools, the image export, and painting points, which takes the plot's height.)
ALWAYS_STEPPED_BACK = ("mode", "maths", "layout", "collapse", "export", "paint")


@dataclass(frozen=True)
class SteppingBack:
    """What a lesson's ``controls:`` mean for the screen: the controls that stay, the ones that step back (in
    that order), and whether the Break-it switch goes off (a lesson without it never runs a broken backward)."""

    kept: tuple[str, ...]
    hidden: tuple[str, ...]
    bug_off: bool


def read_controls(text: str) -> tuple[str, ...]:
    """A ``controls:`` line ("editor, backward") -> its names; ValueError names the first unknown one."""
    controls = tuple(c.strip() for c in text.split(",") if c.strip())
    unknown = [c for c in controls if c not in CONTROLS]
    if unknown:
        raise ValueError(f"unknown control {unknown[0]!r}; controls are {', '.join(CONTROLS)}")
    return controls


def stepping_back(controls) -> SteppingBack:
    """The controls a lesson listing ``controls`` keeps, and the ones that step back while it runs."""
    kept = tuple(c for c in CONTROLS if c in set(controls))
    hidden = tuple(c for c in CONTROLS if c not in kept) + ALWAYS_STEPPED_BACK
    return SteppingBack(kept, hidden, bug_off="break_it" not in kept)
