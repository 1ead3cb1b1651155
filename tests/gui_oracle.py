"""The GUI monkey's oracle: after an action, does every number, mark and message on screen equal the state it
claims to show?  ``check_window(window)`` returns one sentence per disagreement ([] when all
agree); the monkey collects them with the action that led to them (``Monkey(..., oracle=check_window)``).

What is checked, each from a source other than the widget's own formatting where one is cheap:

* the expression area: each input row's box shows the program's value (``ExpressionState.values``), its slider
  sits where that value falls in the row's range, and the range boxes show that range;
* the training header: blank (—) exactly when nothing was measured or no training point is left; otherwise its
  step is the trainer's step and, paused, its train loss and accuracy are those of the shown weights on the
  shown data (a forward pass done here); its test figures show exactly when the data has a test set;
* the curves: paused and drawn, they end at the header's step; the key says "test" exactly when a test curve
  is drawn;
* messages: "No training points" (banner, status bar, data summary) only while there is none; the painted-data
  summary counts the points there are;
* the picture itself: a change to the window reaches the screen (a repaint follows an update), so none of the
  above is true only in the widgets while the window shows an older picture.

States in motion are not judged: the training checks wait for a snapshot that has seen every command, the
curves for the frame that draws them, the inputs for every row to be built.
"""

from __future__ import annotations

import math
import re
from collections import Counter

import numpy as np
from PySide6.QtWidgets import QWidget

from autograd_core.learn.losses import accuracy, loss_array
from autograd_core.numbers import MISSING, format_number, format_percent

NO_POINTS = "No training points"
# How many times each check was made (not skipped as in motion): a run with no findings says what it looked at.
JUDGED: Counter = Counter()


def check_window(window: QWidget) -> list[str]:
    """Every disagreement between what the window shows and the state it shows (sentences)."""
    from gui.expression.inputs_panel import InputsPanel
    from gui.training.training_workspace import TrainingWorkspace

    problems: list[str] = check_painting(window)
    for panel in window.findChildren(InputsPanel):
        problems += check_inputs(panel)
    areas = window.findChildren(TrainingWorkspace) + ([window] if isinstance(window, TrainingWorkspace) else [])
    for area in areas:
        _await(lambda a=area: a.controller.worker is None or a.controller.settled)  # a user looks a moment later
        _await(lambda a=area: not a.frames.pending)
        problems += check_training(area, window)
    return problems


def _await(condition, ms: int = 500) -> None:
    """Let the event loop run until ``condition()`` or ``ms`` pass (then the check skips what is in motion)."""
    from PySide6.QtTest import QTest

    waited = 0
    while not condition() and waited < ms:
        QTest.qWait(10)
        waited += 10


def check_painting(window: QWidget, ms: int = 300) -> list[str]:
    """An update of the status bar is painted within ``ms``: the window has not stopped repainting."""
    from PySide6.QtCore import QEvent, QObject
    from PySide6.QtWidgets import QApplication, QMainWindow

    bar = window.statusBar() if isinstance(window, QMainWindow) else None
    if bar is None or not bar.isVisible() or window.isMinimized():
        return []

    class Paints(QObject):
        seen = False

        def eventFilter(self, watched, event):
            if watched is bar and event.type() == QEvent.Type.Paint:
                self.seen = True
            return False

    paints = Paints()
    QApplication.instance().installEventFilter(paints)
    try:
        bar.update()
        _await(lambda: paints.seen, ms)
    finally:
        QApplication.instance().removeEventFilter(paints)
    JUDGED["repaints"] += 1
    if not paints.seen:
        return [f"the window stopped repainting: an update of its status bar was not painted within {ms} ms"]
    return []


# ------------------------------------------------------------------ expression inputs


def check_inputs(panel) -> list[str]:
    from gui.expression.inputs_panel import BOX_LIMIT, slider_position

    state = panel.state
    if not panel.complete or panel.updating:
        return []
    problems = []
    JUDGED["input rows"] += len(panel.rows)
    for name, row in panel.rows.items():
        if name not in state.values:
            problems.append(f"input row {name!r} shows an input the program does not have")
            continue
        value = state.values[name]
        lo, hi = state.ranges.get(name, (math.nan, math.nan))
        if math.isfinite(value) and abs(value) <= BOX_LIMIT:
            if row.spin.value() != value:
                problems.append(f"input {name}: box holds {row.spin.value()!r}, the program {value!r}")
            elif row.spin.window().focusWidget() is not row.spin and row.spin.text() not in {
                row.spin.textFromValue(value),
                row.spin.textFromValue(value + 0.0),
            }:
                # (Still its window's focus, e.g. while a dialog is up, the box holds an edit in progress.  −0: a Qt
                # spin box may hold it as 0, an equal number, or as −0, as the graph writes it; both are true.)
                problems.append(f"input {name}: box reads {row.spin.text()!r} for {value!r}")
        elif row.spin.specialValueText() != format_number(value):
            problems.append(f"input {name}: box reads {row.spin.text()!r} for {value!r}")
        if row.slider.value() != slider_position(value, lo, hi) and not row.slider.isSliderDown():
            problems.append(
                f"input {name}: slider at {row.slider.value()}, the value {value!r} in [{lo!r}, {hi!r}] is at "
                f"{slider_position(value, lo, hi)}"
            )
        if (row.low.value(), row.high.value()) != (lo, hi) and not (row.low.hasFocus() or row.high.hasFocus()):
            problems.append(
                f"input {name}: range boxes {row.low.value()!r}…{row.high.value()!r}, the program {lo!r}…{hi!r}"
            )
    return problems


# ------------------------------------------------------------------ training


def header_figures(text: str) -> dict:
    """The header's figures as written: step, train loss/score, test loss/score (None where absent)."""
    plain = re.sub(r"<[^>]+>", "", text).replace("&nbsp;", " ")
    step = re.search(r"(?:step|epoch) (\S+)", plain)
    train = re.search(r"train loss (\S+) · (?:acc|R²) (\S+(?: %)?)", plain)
    test = re.search(r"test loss (\S+) · (?:acc|R²) (\S+(?: %)?)", plain)
    return {
        "step": step.group(1) if step else None,
        "train": (train.group(1), train.group(2)) if train else None,
        "test": (test.group(1), test.group(2)) if test else None,
    }


def check_training(area, window) -> list[str]:
    controller, panel, metrics = area.controller, area.training_panel, area.metrics
    problems = []
    data = controller.dataset
    classification = controller.regression is None
    empty = classification and data is not None and len(data.y_train) == 0

    # Messages that say there are no points: only while there are none (said at once, so judged at once).
    banner = "" if panel.banner.isHidden() else panel.banner_text.text()  # (shown, if its tab is)
    if NO_POINTS in banner and not empty:
        problems.append(f"the banner says {banner[:90]!r} while {len(data.y_train)} are painted")
    status = window.statusBar().currentMessage() if hasattr(window, "statusBar") else ""
    if NO_POINTS in status and not empty:
        problems.append(f"the status bar says {NO_POINTS!r} while {len(data.y_train)} are painted")
    if panel.data_summary.isVisible() and data is not None:
        summary = panel.data_summary.text()
        count = re.search(r"<b>(\d+)</b> point", summary)
        if empty != (NO_POINTS in summary) or (count and int(count.group(1)) != len(data.y_train)):
            problems.append(f"the data summary says {summary!r} for {len(data.y_train)} training points")

    snap = controller.last_snapshot
    if snap is None or not controller.settled:
        return problems  # the training process has not answered every command yet: nothing to judge
    JUDGED["training headers"] += 1
    shown = header_figures(panel.status.text())
    m = controller.last_metrics
    blank = shown["train"] is not None and shown["train"][0] == MISSING
    if empty and not blank:
        problems.append(f"no training point, yet the header shows figures: {shown}")
    if m is None and not blank:
        problems.append(f"nothing measured, yet the header shows figures: {shown}")
    if m is not None and not empty:
        if blank or shown["step"] != str(m.step):
            problems.append(f"the header shows {shown}, the last metrics are of step {m.step}")
        if snap.state is not None and not controller.running and m.step != snap.state.step:
            problems.append(f"the header shows step {m.step}, the trainer is at step {snap.state.step}")
        has_test = data is not None and len(data.y_test) > 0 if classification else m.test_acc is not None
        if (shown["test"] is not None) != has_test:
            problems.append(f"the header's test figures {shown['test']} for a test set of {len(data.y_test)} points")
        if classification and not controller.running and not snap.running and data is not None:
            problems += _figures_of_the_weights(controller, shown, m, data)
    elif shown["test"] is not None:
        problems.append(f"blank figures but test figures {shown['test']}")

    if area.frames.pending or controller.running or snap.running or not metrics.isVisible():
        return problems  # curves still to draw (a frame away), moving, or on a tab not shown (drawn when shown)
    JUDGED["curves and keys"] += 1
    steps = metrics.train_loss.xData
    steps = np.array([]) if steps is None else np.asarray(steps)
    history = controller.history
    if len(steps) != len(history) and not (len(history) and not np.isfinite(history.column("train_loss")).any()):
        problems.append(f"the loss curve has {len(steps)} points, the history {len(history)}")
    elif len(steps) and m is not None and not empty and int(steps[-1]) != m.step:
        problems.append(f"the loss curve ends at step {int(steps[-1])}, the header says step {m.step}")
    if empty and len(steps):
        problems.append(f"no training point, yet a curve of {len(steps)} points")
    test_y = metrics.test_loss.yData
    drawn = test_y is not None and len(test_y) > 0 and bool(np.isfinite(np.asarray(test_y, float)).any())
    if ("test" in re.sub(r"<[^>]+>", "", metrics.key.text())) != drawn:
        problems.append(f"the curve key {metrics.key.text()!r} with a test curve drawn: {drawn}")
    return problems


def _figures_of_the_weights(controller, shown: dict, m, data) -> list[str]:
    """Paused: the header's train (and test) figures are those of the shown weights on the shown data."""
    model = controller.current_model()
    if model is None or shown["train"] is None or len(data.y_train) == 0:
        return []
    JUDGED["headers against the weights"] += 1
    problems = []
    loss_name = controller.config.loss
    with np.errstate(all="ignore"):
        for part, X, y in (("train", data.X_train, data.y_train), ("test", data.X_test, data.y_test)):
            if not len(y) or shown[part] is None:
                continue
            scores = model.forward_array(X)
            expected = (format_number(loss_array(loss_name, scores, y)), format_percent(accuracy(scores, y)))
            if shown[part] != expected:
                problems.append(
                    f"the header's {part} loss · acc {shown[part]} at step {m.step}; the shown weights on the shown "
                    f"{len(y)} {part} points give {expected}"
                )
    return problems
