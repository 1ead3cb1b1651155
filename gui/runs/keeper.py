"""Every training run kept: the GUI side of ``autograd_core.learn.runs.RunHistory``.

The keeper watches the controller: a new trainer generation (Reset, or a change that restarts training) ends
the run on screen and starts the next one, and the run being trained takes its curves, steps, time and a
small picture of its boundary (or fit) from the controller's copies at most once a second, and once more as
it ends.  Views (the Runs table, the ghost curves, the side-by-side pictures) observe ``changed``; they never
read the trainer.  ``restore`` brings a run's settings back through the controller's own commands.
"""

from __future__ import annotations

import dataclasses
import time

import numpy as np
from PySide6.QtCore import QObject, Signal

from autograd_core.learn.runs import RunHistory, describe_change, picture_from_fit, picture_from_grid, run_config
from autograd_core.live.training_policy import TrainingPart

RECORD_INTERVAL = 1.0  # seconds between two recordings of the run being trained
GHOSTS_MAX = 10  # runs overlaid on the live curves at once


class RunKeeper(QObject):
    """The run history of one training area, fed from its controller's snapshots."""

    changed = Signal()  # a run started, grew, was renamed, pinned, deleted, or the ghosts changed

    def __init__(self, controller, parent=None):
        super().__init__(parent)
        self.controller = controller
        self.history = RunHistory()
        self.ghosts: list[int] = []  # ids of the runs overlaid on the live curves, in the order chosen
        self._generation = None
        self._running_since: float | None = None
        self._seconds = 0.0  # training time of the current run before ``_running_since``
        self._recorded = 0.0
        self._renamed: set[int] = set()  # runs the learner named: their name no longer follows their settings
        self._resume = False  # a session was opened: its last run may go on
        controller.changed.connect(self._training_changed)

    # ------------------------------------------------------------ the run being trained

    def _task_config(self) -> tuple[str, dict]:
        controller = self.controller
        if controller.regression is not None:
            from autograd_core.learn.regression import regression_config_dict

            return "regression", regression_config_dict(controller.regression)
        return "classification", controller.config.to_dict()

    def _training_changed(self, change) -> None:
        if TrainingPart.RUN_ENDING in change:
            self._run_ending()
        if TrainingPart.RUNNING in change:
            self._running(change.running)
        if TrainingPart.SNAPSHOT in change:
            self._snapshot(change.snapshot)

    def _run_ending(self) -> None:
        """The controller is about to clear the history of the run on screen: its last figures first."""
        if self.history.current is not None:
            self.record(follow_settings=False)  # the settings in force now are the next run's

    def _snapshot(self, snap) -> None:
        if snap.generation != self._generation:
            self._generation = snap.generation
            task, config = self._task_config()
            self._running_since = time.monotonic() if self.controller.running else None
            resume, self._resume = self._resume, False
            last = self.history.runs[-1] if self.history.runs else None
            if resume and last.task == task and last.config == run_config(config):
                self.history.resume(last.id)  # the session's last run, continued
                self._seconds = last.seconds
                self.record()
                return
            self._seconds = 0.0
            before = {run.id for run in self.history.runs}
            self.history.start(config, task)
            gone = before - {run.id for run in self.history.runs}
            self.ghosts = [i for i in self.ghosts if i not in gone]
            self._recorded = 0.0
            self.record()
            return
        if not snap.running or time.monotonic() - self._recorded >= RECORD_INTERVAL:
            self.record()  # while training, once a second; paused, every snapshot (a step, a setting) at once

    def _running(self, running: bool) -> None:
        now = time.monotonic()
        if running and self._running_since is None:
            self._running_since = now
        elif not running and self._running_since is not None:
            self._seconds += now - self._running_since
            self._running_since = None

    def seconds(self) -> float:
        """Training time of the current run so far (paused time not counted)."""
        extra = time.monotonic() - self._running_since if self._running_since is not None else 0.0
        return self._seconds + extra

    def record(self, follow_settings: bool = True) -> None:
        """The current run takes the controller's curves, steps, time, settings and picture (the settings not as
        it ends: the change that ended it is the next run's)."""
        run = self.history.current
        if run is None:
            return
        self._recorded = time.monotonic()
        controller = self.controller
        history = controller.history
        score = "r2" if run.task == "regression" else "acc"
        columns = {
            "step": history.column("step"),
            "train_loss": history.column("train_loss"),
            "test_loss": history.column("test_loss"),
            f"train_{score}": history.column("train_acc"),
            f"test_{score}": history.column("test_acc"),
        }
        steps = int(history.column("step")[-1]) if len(history) else 0
        if run.task == "regression":
            changed = run_config(self._task_config()[1])
        else:  # only these change without a restart (and they are small: the data is never copied here)
            changed = {**run.config, **self.controller.live_settings()}
        trained = run.steps == 0 or steps > run.steps  # settings count once a step used them (or none yet)
        if (
            follow_settings and trained and run.task == self.controller.task and changed != run.config
        ):  # changed during the run
            run.config = changed
            if run.id not in self._renamed:
                runs = self.history.runs
                previous = runs[runs.index(run) - 1].config if runs.index(run) > 0 else None
                run.name = describe_change(previous, changed)
        self.history.record(columns, steps, self.seconds(), self._picture())
        self.changed.emit()

    def _picture(self):
        snap = self.controller.last_snapshot
        if snap is None:
            return None
        if snap.regression is not None:
            view = snap.regression
            return picture_from_fit(view.xs, view.curve, np.column_stack([view.x_train, view.y_train]))
        data = self.controller.dataset
        if snap.grid is None or data is None:
            return None
        return picture_from_grid(snap.grid, data.X_train, data.y_train)

    # ------------------------------------------------------------ the learner's edits

    def rename(self, run_id: int, name: str) -> None:
        self.history.rename(run_id, name)
        self._renamed.add(run_id)
        self.changed.emit()

    def set_note(self, run_id: int, note: str) -> None:
        self.history.set_note(run_id, note)
        self.changed.emit()

    def pin(self, run_id: int, pinned: bool) -> None:
        self.history.pin(run_id, pinned)
        self.changed.emit()

    def delete(self, run_id: int) -> bool:
        """Delete a finished run (the one being trained stays: it is on screen); False if it is the current."""
        current = self.history.current
        if current is not None and current.id == run_id:
            return False
        self.history.delete(run_id)
        self.ghosts = [i for i in self.ghosts if i != run_id]
        self.changed.emit()
        return True

    def show_ghost(self, run_id: int, on: bool) -> bool:
        """Overlay a run on the live curves (or take it off); False when ``GHOSTS_MAX`` are shown already."""
        if on and run_id not in self.ghosts:
            if len(self.ghosts) >= GHOSTS_MAX:
                return False
            self.ghosts.append(run_id)
        elif not on and run_id in self.ghosts:
            self.ghosts.remove(run_id)
        else:
            return True
        self.changed.emit()
        return True

    def ghost_runs(self) -> list:
        current = self.history.current
        return [self.history.get(i) for i in self.ghosts if current is None or i != current.id]

    def restore(self, run_id: int) -> bool:
        """The run's settings back in the panels (training restarts from them, paused)."""
        run = self.history.get(run_id)
        controller = self.controller
        config = dict(run.config)
        if run.task == "regression":
            from autograd_core.learn.regression import SHARED_SETTINGS, regression_config_from_dict

            try:
                regression = regression_config_from_dict(config)
            except ValueError as exc:
                controller.message.emit(f"Cannot restore {run.name!r}: {exc}")
                return False
            shared = {name: getattr(regression, name) for name in SHARED_SETTINGS}
            controller.update_settings(**shared, activations=None)  # the panels' shared settings first
            done = controller.set_regression(
                **{f.name: getattr(regression, f.name) for f in dataclasses.fields(regression)}
            )
        else:
            if controller.task == "regression":
                controller.set_task("classification")
            if isinstance(config.get("points"), str):  # painted points are kept as a count: the ones on screen stay
                config.pop("points")
                config.pop("classes", None)
            done = controller.update_settings(**config)
        controller.announce_config()
        if done:
            controller.message.emit(f"Settings of run {run.name!r} restored: press Play to train them again.")
        return done

    # ------------------------------------------------------------ sessions

    def nbytes(self) -> int:
        """The history's memory, for the training area's memory guard."""
        return self.history.nbytes()

    def replace(self, history: RunHistory) -> None:
        """A session's history (opening a session): the runs it kept; its last run goes on as the one on screen
        when the session continues it (same settings), else the next snapshot starts a run."""
        self.history = history
        self.ghosts = []
        self._renamed = {run.id for run in history.runs}  # their names are the learner's now
        self._generation = None
        self._resume = bool(history.runs)
        self.changed.emit()
