"""Run history: every training run from a fresh start (Reset, or a change that restarts training) to the next.

The app keeps the last ``MAX_RUNS`` runs so a learner can compare them (a
table, ghost curves, a small picture of each final decision boundary) and a
session file keeps them too.  A run is small on purpose: its curves are
thinned to ``CURVE_POINTS`` points by the rule sessions use for long
histories (``even_picks``), its picture is at most 64×64 cells and 300
points, and painted points in its config are kept as a count and a digest,
not the points themselves (the session holds the data once).

Everything read from a file is checked before it is built (``Run.from_dict``,
``RunHistory.from_list``): counts first, then types and ranges; anything
wrong is a ``ValueError`` with a sentence.  No Qt here.

The parts, by job: ``checks.py`` (limits and the checks a file's values go through), ``pictures.py`` (a run's
final picture), ``naming.py`` (a run's name from what changed) and ``history.py`` (a run, the history, and a run
recorded from a trainer).
"""

from autograd_core.learn.runs.checks import CURVE_POINTS, CURVES, MAX_RUNS, REGRESSION_CURVES, even_picks
from autograd_core.learn.runs.history import Run, RunHistory, first_point, history_columns, record_trainer_run
from autograd_core.learn.runs.naming import describe_change, run_config
from autograd_core.learn.runs.pictures import RunPicture, picture_from_fit, picture_from_grid

__all__ = [
    "CURVES",
    "CURVE_POINTS",
    "MAX_RUNS",
    "REGRESSION_CURVES",
    "Run",
    "RunHistory",
    "RunPicture",
    "describe_change",
    "even_picks",
    "first_point",
    "history_columns",
    "picture_from_fit",
    "picture_from_grid",
    "record_trainer_run",
    "run_config",
]
