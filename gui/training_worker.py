"""The GUI side of training: starts the training process and reads its snapshots on a worker thread.

The training itself runs in a child process (see ``gui.training_process`` for
why).  This QThread only waits on the pipe (which releases the GIL), keeps
the latest snapshot and tells the GUI with one ``snapshotReady`` signal per
snapshot it has not yet taken.  Snapshots the GUI had no time for are
merged, so a slow frame drops pictures, never metrics.
"""

from __future__ import annotations

import atexit
import itertools
import os
import queue
import subprocess
import sys
import threading
from multiprocessing.connection import Connection
from pathlib import Path

from PySide6.QtCore import QThread, Signal

from autograd_core.session import parse_session, trainer_from_session
from gui.training_process import Snapshot

REPO_ROOT = Path(__file__).resolve().parents[1]
_LIVE: set[TrainingWorker] = set()  # running workers, kept alive until stopped (a QThread must not die running)


@atexit.register
def _stop_all() -> None:
    """Last resort at interpreter exit: stop every training process and reader thread still running."""
    for worker in list(_LIVE):
        worker.stop(2000)


class TrainingWorker(QThread):
    """Owns the training process; ``send()`` commands, ``take_snapshot()`` the latest state."""

    snapshotReady = Signal()
    processDied = Signal(str)

    def __init__(self, config: dict, min_interval: float = 0.05, parent=None):
        super().__init__(parent)
        # A fresh interpreter (never fork a process that runs Qt threads; and unlike multiprocessing's
        # "spawn" this does not re-run the caller's __main__), talking over two pipes.
        cmd_read, cmd_write = os.pipe()
        out_read, out_write = os.pipe()
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join([str(REPO_ROOT), *filter(None, [env.get("PYTHONPATH")])])
        self._process = subprocess.Popen(
            [sys.executable, "-c", "import gui.training_process as p; p.child_main()", str(cmd_read), str(out_write)],
            pass_fds=(cmd_read, out_write),
            env=env,
            cwd=str(REPO_ROOT),
        )
        os.close(cmd_read)
        os.close(out_write)
        self._commands = Connection(cmd_write, readable=False)
        self._events = Connection(out_read, writable=False)
        self._commands.send((config, min_interval))
        _LIVE.add(self)
        self._send_lock = threading.Lock()
        self._pending: Snapshot | None = None
        self._pending_lock = threading.Lock()
        self._dataset = None
        self._replies: queue.Queue = queue.Queue()
        self._ids = itertools.count(1)
        self._stopping = False
        self.sent = 0  # commands sent; a snapshot with seq == sent has seen them all

    # ----------------------------------------------------------- GUI-thread API

    def send(self, *message) -> None:
        if self._stopping:
            return
        with self._send_lock:
            try:
                self._commands.send(message)
                self.sent += 1
            except (BrokenPipeError, OSError):
                pass

    def take_snapshot(self) -> Snapshot | None:
        with self._pending_lock:
            snap, self._pending = self._pending, None
        return snap

    def export_trainer(self, timeout: float = 10.0):
        """A Trainer in this process equal to the one training now (weights, optimiser, history, data)."""
        request = next(self._ids)
        self.send("export", request)
        while True:
            try:
                reply_id, document = self._replies.get(timeout=timeout)
            except queue.Empty:
                raise TimeoutError("the training process did not answer") from None
            if reply_id == request:
                return trainer_from_session(parse_session(document))

    def stop(self, timeout_ms: int = 5000) -> bool:
        """End the training process and the reader thread; True when both are gone."""
        if self._stopping:
            return self.isFinished()
        self.send("stop")
        self._stopping = True
        try:
            self._process.wait(timeout_ms / 1000)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait(2.0)
        finished = self.wait(timeout_ms)
        self._commands.close()
        if finished:
            self._events.close()
            _LIVE.discard(self)
        return finished and self._process.poll() is not None

    # ------------------------------------------------------------ reader thread

    def run(self) -> None:
        while True:
            try:
                if not self._events.poll(0.1):
                    if self._stopping:
                        break
                    continue
                kind, *payload = self._events.recv()
            except Exception:  # EOF, a closed pipe, or a message we cannot read: the process is gone for us
                if not self._stopping:
                    self.processDied.emit("The training process ended unexpectedly; reset the network to go on.")
                break
            if kind == "snapshot":
                self._store(payload[0])
            elif kind == "export":
                self._replies.put((payload[0], payload[1]))

    def _store(self, snap: Snapshot) -> None:
        if snap.dataset is None:
            snap.dataset = self._dataset
        self._dataset = snap.dataset
        with self._pending_lock:
            old = self._pending
            if old is not None and old.generation == snap.generation:
                if snap.history is None and old.history is not None:
                    snap.history = old.history
                snap.metrics = old.metrics + snap.metrics
                if snap.last is None:
                    snap.last = old.last
                if snap.loss_slice is None and old.loss_slice is not None and snap.slice_spec == old.slice_spec:
                    snap.loss_slice = old.loss_slice
            self._pending = snap
            notify = old is None
        if notify:
            self.snapshotReady.emit()
