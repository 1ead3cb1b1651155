"""Shared by the training-area GUI tests: a small in-process training workspace, typing into a spin box and
clicking an edge as a user would, choosing regression and typing its target, and listing this process's children
(a training process nobody stopped)."""

import numpy as np
from PySide6.QtCore import Qt

TIMEOUT = 30_000
# How long a test waits for the real training process (its first snapshot, a few steps), from the product's figures:
# its first snapshot comes 0.3 s after it starts on an idle machine and 4 s beside two busy processes on a shared
# two-core machine at load 13 (its start is ~0.4 s of CPU at the window's priority: benchmarks/bench_startup.py);
# a step of the tests' small networks takes milliseconds.  The wait allows ten times the busy figure.
PROCESS_WAIT_MS = 40_000


def engine_and_worker(start):
    """A training ``Engine`` and the GUI's ``TrainingWorker`` joined by in-process pipes, and ``run(command=None)``:
    send a command as the worker would (numbered), let the engine take one turn, hand its replies to the worker."""
    from autograd_core.live.service import Engine
    from gui.training.training_worker import LocalPipe, TrainingWorker

    worker = TrainingWorker(start)
    commands, replies = LocalPipe(), LocalPipe()
    engine = Engine(start, replies)

    def run(command=None):
        if command is not None:
            worker.sent += 1
            commands.send(type(command)(**{**command.__dict__, "seq": worker.sent}))
        engine.run_once(commands)
        while replies.poll():
            worker._receive(replies.recv())

    return engine, worker, run


def small_workspace(qtbot, **config):
    """A shown training workspace on a small ``TrainingConfig(**config)``, its engine in this process, ready."""
    from autograd_core.learn.training import TrainingConfig
    from gui.training.training_controller import TrainingController
    from gui.training.training_worker import InProcessWorker
    from gui.training.training_workspace import TrainingWorkspace

    w = TrainingWorkspace(TrainingController(TrainingConfig(**config), worker_factory=InProcessWorker))
    qtbot.addWidget(w)
    w.resize(1400, 900)
    w.show()
    qtbot.waitUntil(lambda: w.controller.last_snapshot is not None, timeout=TIMEOUT)
    w.flush()
    return w


def settle(qtbot, ws):
    """Wait until the engine has answered every command and stopped stepping; draw what it sent."""
    qtbot.waitUntil(lambda: ws.controller.settled and not ws.controller.last_snapshot.running, timeout=TIMEOUT)
    ws.flush()


def set_spin(qtbot, spin, value):
    """Type a value into a spin box as a user would (select all, type, Enter)."""
    spin.setFocus()
    spin.lineEdit().selectAll()
    qtbot.keyClicks(spin.lineEdit(), str(value))
    qtbot.keyClick(spin.lineEdit(), Qt.Key.Key_Return)


def lonely_point(edge, edges):
    """The point of ``edge`` (between 10 % and 90 % of its length) farthest from every other edge."""

    def distance(p, e):
        a, b = np.array(e.line().p1().toTuple()), np.array(e.line().p2().toTuple())
        t = np.clip(np.dot(p - a, b - a) / np.dot(b - a, b - a), 0, 1)
        return np.linalg.norm(p - (a + t * (b - a)))

    best, best_gap = None, -1.0
    for t in np.linspace(0.1, 0.9, 33):
        point = edge.line().pointAt(t)
        p = np.array(point.toTuple())
        gap = min(distance(p, e) for e in edges if e is not edge)
        if gap > best_gap:
            best, best_gap = point, gap
    return best


def child_pids() -> set[int]:
    """Process ids whose parent is this process (Linux /proc): a training process nobody stopped shows here."""
    import os

    mine, found = os.getpid(), set()
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == mine and fields[0] != "Z":
            found.add(int(entry))
    return found


def choose_regression(qtbot, ws):
    task = ws.training_panel.task_settings.task
    task.setFocus()
    qtbot.keyClick(task, Qt.Key.Key_Down)  # classification → regression
    qtbot.waitUntil(lambda: ws.controller.last_snapshot.regression is not None, timeout=TIMEOUT)


def type_target(qtbot, ws, text):
    box = ws.training_panel.task_settings.target
    box.selectAll()
    qtbot.keyClick(box, Qt.Key.Key_Delete)
    qtbot.keyClicks(box, text)
    qtbot.keyClick(box, Qt.Key.Key_Return)
