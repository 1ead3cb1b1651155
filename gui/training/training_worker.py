"""The GUI side of the training engine: a child process that never dies for good, or the same engine in-process.

``ProcessWorker`` runs ``autograd_core.live.service.Engine`` in a child process
(see that module for why) and reads its replies on a reader thread, which
only waits on the pipe (releasing the GIL), keeps the latest snapshot and
tells the GUI with one ``snapshot_ready`` signal per snapshot not yet taken.
Snapshots the GUI had no time for are merged, so a slow frame drops
pictures, never metrics.

Every snapshot is also the *last good state*: weights, optimizer state,
data, the history so far, and the engine's own state (playing, speed, the
picked weight).  If the child dies (killed, out of memory, a bug), the worker
starts a new one from that state, sends it again the commands it had not yet
seen, and says so in one line (``restarted``).  A child that dies again
before its first snapshot is restarted once more without those commands (one
of them may be the cause); after that, or after too many restarts in a row,
the worker gives up (``failed``) and the controller's Reset starts afresh.

``InProcessWorker`` drives the very same engine from a Qt timer in this
process, through a pipe that pickles like the real one: the tests use it
where a child process is not the point (no interpreter start-up per test).
"""

from __future__ import annotations

import atexit
import dataclasses
import itertools
import os
import pickle
import queue
import subprocess
import sys
import threading
import time
from collections import deque
from multiprocessing.connection import Connection
from pathlib import Path

from PySide6.QtCore import QObject, QTimer, Signal

from autograd_core.language.workshop import save_definitions
from autograd_core.learn.data import Dataset
from autograd_core.learn.training import Trainer, TrainingConfig
from autograd_core.live.protocol import Command, DefineOps, Export, Exported, Snapshot, Start, Stop
from autograd_core.live.service import Engine, is_regression
from autograd_core.session import SessionData, parse_session, trainer_from_session

from ..workshop.ops_signal import custom_ops_signal

REPO_ROOT = Path(__file__).resolve().parents[2]
RESTART_WINDOW = 60.0  # seconds: more than MAX_RESTARTS deaths within this window and the worker gives up
MAX_RESTARTS = 5
# The child's first lines, before any import: it must not outlive this process, even while it is still starting
# (a second or more on a busy machine) or starved of CPU.  On Linux the kernel kills it when the thread that
# started it ends (PR_SET_PDEATHSIG: every worker is started from the GUI thread, which lives as long as the app);
# a parent already gone by then, or another system, is caught by the process's own watch
# (``autograd_core.live.process.child_main``).
CHILD_CODE = (
    "import os, sys\n"
    "if sys.platform.startswith('linux'):\n"
    "    import ctypes, signal\n"
    "    ctypes.CDLL(None).prctl(1, signal.SIGKILL)\n"  # 1: PR_SET_PDEATHSIG
    "if os.getppid() != int(sys.argv[3]):\n"
    "    os._exit(0)\n"
    "import autograd_core.live.process as p\n"
    "p.child_main()\n"
)
_LIVE: set[ProcessWorker] = set()  # running workers, kept alive until stopped


@atexit.register
def _stop_all() -> None:
    """Last resort at interpreter exit: stop every training process still running."""
    for worker in list(_LIVE):
        worker.stop(2000)


# The training process runs this much below the window's priority once its first picture is sent: where both
# want the CPU (a busy or small machine), the window's answer to a click comes first and training takes what is
# left (on an idle core it runs as fast).  Its start runs at the window's priority, so the first picture never
# waits behind every other busy process of the machine (niced from the start it took over 30 s to come under load).
TRAINING_NICENESS = 10


class TrainingWorker(QObject):
    """What the controller talks to: ``send()`` commands, ``take_snapshot()`` the latest state.

    Subclasses transmit the commands; this class numbers them, merges
    snapshots and keeps the last good state.
    """

    snapshot_ready = Signal()
    restarted = Signal(str)  # the training process died and was restarted; one line saying so
    failed = Signal(str)  # it died and could not be restarted; training waits for a reset

    def __init__(self, start: Start, parent=None):
        super().__init__(parent)
        self._start = start
        self._lock = threading.Lock()  # everything below, shared with the reader thread
        self._pending: Snapshot | None = None
        self._dataset = None
        self._config: dict | None = None
        self._good: Snapshot | None = None  # the newest snapshot (dataset filled in): the last good state
        self._rows: list = []  # the trainer's history as of that snapshot
        self._start_metrics = start.start_metrics
        self._log: list[Command] = []  # commands sent that the newest snapshot has not seen yet
        self._snapshot_since_start = False
        self._replies: queue.Queue = queue.Queue()
        self._ids = itertools.count(1)
        self.sent = 0  # commands sent; a snapshot with seq == sent has seen them all
        self.gave_up = False
        # An op the learner defines while this runs is defined in the engine too (a network may then take it).
        custom_ops_signal().changed.connect(self._ops_changed)

    def _ops_changed(self) -> None:
        self.send(DefineOps(save_definitions()))

    # ----------------------------------------------------------- GUI-thread API

    def send(self, command: Command) -> None:
        """Number ``command`` and send it (a dead or stopped worker drops it)."""
        raise NotImplementedError

    def take_snapshot(self) -> Snapshot | None:
        with self._lock:
            snap, self._pending = self._pending, None
        return snap

    def export_trainer(self, timeout: float = 10.0) -> Trainer:
        """A Trainer in this process equal to the one training now (weights, optimizer, history, data)."""
        raise NotImplementedError

    def stop(self, timeout_ms: int = 5000) -> bool:
        """End the engine; True when it is gone."""
        raise NotImplementedError

    def release(self, *_args) -> None:
        """Stop because the owner is being destroyed (connected to its ``destroyed`` signal)."""
        self.stop(2000)

    def last_good_trainer(self) -> Trainer:
        """A Trainer in the state of the newest snapshot (what a restart would continue from)."""
        start = self.restart_state(replay=True)
        if start.session is not None:
            trainer = trainer_from_session(start.session)
            trainer.start_metrics = trainer.start_metrics or start.start_metrics  # step 0, for a session
            return trainer
        data = None if start.data is None else Dataset.from_dict(start.data)
        return Trainer(TrainingConfig.from_dict(start.config or {}), data=data)

    # ---------------------------------------------------- replies (any thread)

    def _receive(self, reply) -> None:
        if isinstance(reply, Snapshot):
            self._store(reply)
        elif isinstance(reply, Exported):
            self._replies.put(reply)

    def _store(self, snap: Snapshot) -> None:
        """Keep the newest snapshot; one the GUI had no time for is merged into it (a snapshot is frozen: the
        merge is a new one)."""
        with self._lock:
            if snap.dataset is None:
                snap = dataclasses.replace(snap, dataset=self._dataset)
            self._dataset = snap.dataset
            if snap.state is not None:  # (the config is sent when it changed)
                if snap.state.config is None:
                    snap = dataclasses.replace(snap, state=dataclasses.replace(snap.state, config=self._config))
                self._config = snap.state.config
            if snap.history is not None:  # a new generation (or a restarted process): the whole history
                self._rows, self._start_metrics = list(snap.history), snap.start
            self._rows.extend(snap.metrics)
            self._good = snap
            self._log = [c for c in self._log if c.seq > snap.seq]
            self._snapshot_since_start = True
            old = self._pending
            if old is not None and old.generation == snap.generation:
                merged = {}
                if snap.history is None:  # (a history replaces everything before it)
                    merged.update(history=old.history, start=old.start, metrics=old.metrics + snap.metrics)
                if snap.last is None:
                    merged["last"] = old.last
                if snap.loss_slice is None and old.loss_slice is not None and snap.slice_spec == old.slice_spec:
                    merged["loss_slice"] = old.loss_slice
                if snap.landscape is None:
                    merged["landscape"] = old.landscape
                snap = dataclasses.replace(snap, **merged)
            self._pending = snap
            notify = old is None
        if notify:
            self.snapshot_ready.emit()

    # ------------------------------------------------------------- restarts

    def restart_state(self, replay: bool) -> Start:
        """A ``Start`` that continues from the last good state.

        With ``replay`` the caller will send the logged commands again (their
        numbers follow the snapshot's); without, they are dropped and counted
        as handled, so the GUI does not wait for them.
        """
        with self._lock:
            good, rows, dataset, start_metrics = self._good, list(self._rows), self._dataset, self._start_metrics
        seq = None if replay else self.sent
        if good is not None and good.state is not None and is_regression(good.state.config):
            state = good.state
            weights = [v for W, b in good.weights for row, bias in zip(W.tolist(), b.tolist()) for v in (*row, bias)]
            return Start(
                config=state.config,
                regression_state=(weights, state.step, rows, state.optimizer_state),
                min_interval=self._start.min_interval,
                generation=good.generation,
                seq=good.seq if seq is None else seq,
                running=good.running,
                delay=good.delay,
                start_metrics=start_metrics,
            )
        if good is None or good.state is None or good.state.config is None or dataset is None:
            return dataclasses.replace(self._start, seq=self._start.seq if seq is None else seq)
        state = good.state
        weights = [v for W, b in good.weights for row, bias in zip(W.tolist(), b.tolist()) for v in (*row, bias)]
        session = SessionData(
            config=TrainingConfig.from_dict(state.config),
            weights=weights,
            history=rows,
            optimizer_state=state.optimizer_state,
            data=dataset,
            step=state.step,
            sample_position=state.sample_position,
            stopped_reason=state.stopped_reason,
        )
        return Start(
            session=session,
            min_interval=self._start.min_interval,
            generation=good.generation,
            seq=good.seq if seq is None else seq,
            running=good.running,
            delay=good.delay,
            slice_spec=good.slice_spec,
            start_metrics=start_metrics,
        )

    def _logged(self) -> list[Command]:
        with self._lock:
            return list(self._log)


class ProcessWorker(TrainingWorker):
    """The engine in a child process, restarted from the last good state if it dies."""

    _died = Signal(object)  # (the process) from the reader thread, handled in the GUI thread

    def __init__(self, start: Start, parent=None):
        super().__init__(start, parent)
        self._send_lock = threading.Lock()
        self._stopping = False
        self._replay_dropped = False
        self._deaths: deque[float] = deque()
        self._died.connect(self._process_died)
        self._spawn(start)
        _LIVE.add(self)

    @property
    def pid(self) -> int:
        return self._process.pid

    def _spawn(self, start: Start) -> None:
        # the learner's ops as they are now (a restart too), defined in the child before its trainer is made
        start = dataclasses.replace(start, custom_ops=save_definitions() or start.custom_ops)
        # A fresh interpreter (never fork a process that runs Qt threads; and unlike multiprocessing's
        # "spawn" this does not re-run the caller's __main__), talking over two pipes.  The child's only
        # link to us is its command pipe: when this process dies, however, the child reads EOF and ends.
        cmd_read, cmd_write = os.pipe()
        out_read, out_write = os.pipe()
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join([str(REPO_ROOT), *filter(None, [env.get("PYTHONPATH")])])
        try:
            process = subprocess.Popen(
                [
                    sys.executable,
                    "-c",
                    CHILD_CODE,
                    str(cmd_read),
                    str(out_write),
                    str(os.getpid()),
                    str(TRAINING_NICENESS),
                ],
                pass_fds=(cmd_read, out_write),
                env=env,
                cwd=str(REPO_ROOT),
            )
        finally:
            os.close(cmd_read)
            os.close(out_write)
        self._process = process
        self._commands = Connection(cmd_write, readable=False)
        events = Connection(out_read, writable=False)
        self._snapshot_since_start = False
        self._reader = threading.Thread(target=self._read, args=(events, process), name="training-reader", daemon=True)
        self._reader.start()
        try:
            self._commands.send(start)
        except OSError:  # died at once: the reader reports it
            pass

    def send(self, command: Command) -> None:
        if self._stopping or self.gave_up:
            return
        with self._send_lock:
            self.sent += 1
            command = dataclasses.replace(command, seq=self.sent)
            with self._lock:
                self._log.append(command)
            try:
                self._commands.send(command)
            except OSError:  # the process is gone: the reader restarts it and the log sends this again
                pass

    def export_trainer(self, timeout: float = 10.0) -> Trainer:
        request = next(self._ids)
        self.send(Export(request))
        deadline = time.monotonic() + timeout
        while True:
            if self.gave_up or self._process.poll() is not None:
                return self.last_good_trainer()  # nothing is lost: the newest snapshot is the trainer's state
            try:
                reply = self._replies.get(timeout=0.05)
            except queue.Empty:
                if time.monotonic() > deadline:
                    raise TimeoutError("the training process did not answer") from None
                continue
            if reply.request == request:
                return trainer_from_session(parse_session(reply.document))

    def stop(self, timeout_ms: int = 5000) -> bool:
        """End the training process and the reader thread; True when both are gone."""
        if not self._stopping:
            self._stopping = True
            with self._send_lock:
                try:
                    self._commands.send(Stop(seq=self.sent + 1))
                except OSError:
                    pass
            try:
                self._process.wait(timeout_ms / 1000)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait(2.0)
            self._commands.close()
        self._reader.join(timeout_ms / 1000)
        gone = not self._reader.is_alive() and self._process.poll() is not None
        if gone:
            _LIVE.discard(self)
        return gone

    # ------------------------------------------------------------ reader thread

    def _read(self, events: Connection, process: subprocess.Popen) -> None:
        try:
            while True:
                try:
                    if not events.poll(0.1):
                        if self._stopping:
                            return
                        continue
                    reply = events.recv()
                except Exception:  # EOF, a closed pipe, or a message we cannot read: this process is gone for us
                    break
                self._receive(reply)
        finally:
            events.close()
        if not self._stopping:
            self._died.emit(process)

    # ------------------------------------------------------------- restarts

    def _process_died(self, process: subprocess.Popen) -> None:
        """In the GUI thread: start a new process from the last good state, or give up."""
        if self._stopping or process is not self._process:
            return
        try:
            code = process.wait(2.0)
        except subprocess.TimeoutExpired:  # it closed its pipe but lives on: end it
            process.kill()
            code = process.wait(2.0)
        how = f"killed by signal {-code}" if code < 0 else f"exit code {code}"
        now = time.monotonic()
        self._deaths.append(now)
        while self._deaths and now - self._deaths[0] > RESTART_WINDOW:
            self._deaths.popleft()
        productive = self._snapshot_since_start
        if (not productive and self._replay_dropped) or len(self._deaths) > MAX_RESTARTS:
            self.gave_up = True
            _LIVE.discard(self)
            self.failed.emit(
                f"The training process stopped again ({how}) and was not restarted: press Reset to start afresh."
            )
            return
        # A process that died before its first snapshot may have been killed by a command it was sent again.
        replay = productive
        self._replay_dropped = not replay
        start = self.restart_state(replay)
        logged = self._logged() if replay else []
        with self._send_lock:
            if not replay:
                with self._lock:
                    self._log = []
            self._spawn(start)
            for command in logged:
                try:
                    self._commands.send(command)
                except OSError:
                    break
        step = start.session.step if start.session is not None else 0
        if replay:
            self.restarted.emit(
                f"The training process stopped unexpectedly ({how}); "
                f"it was restarted from step {step} and nothing was lost."
            )
        else:
            self.restarted.emit(
                f"The training process stopped again ({how}); it was restarted from step {step} "
                "without your last change, which may have caused it."
            )


class LocalPipe:
    """One direction of an in-process pipe with ``multiprocessing.Connection``'s ``send/poll/recv``.

    Messages are pickled on the way, as across a real pipe, so what works
    here works between processes (and nothing is shared by accident).
    """

    def __init__(self):
        self._queue: deque[bytes] = deque()
        self.closed = False

    def send(self, message) -> None:
        if self.closed:
            raise BrokenPipeError("the pipe is closed")
        self._queue.append(pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL))

    def poll(self, timeout: float = 0.0) -> bool:
        """Never blocks: in one process nothing can arrive while we wait."""
        return bool(self._queue)

    def recv(self):
        if not self._queue:
            raise EOFError("nothing to receive")
        return pickle.loads(self._queue.popleft())

    def close(self) -> None:
        self.closed = True


class InProcessWorker(TrainingWorker):
    """The same engine in this process, one ``run_once`` per timer tick (tests; no child process start-up).

    Training then runs in the GUI thread, a step per tick: fine for small
    test networks, never for the app (see ``autograd_core.live.service``).
    """

    def __init__(self, start: Start, parent=None):
        super().__init__(start, parent)
        self._commands = LocalPipe()
        self._replies_pipe = LocalPipe()
        self.engine = Engine(start, self._replies_pipe)
        self._stopped = False
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self._run)
        self._timer.start(0)

    def send(self, command: Command) -> None:
        if self._stopped:
            return
        self.sent += 1
        self._commands.send(dataclasses.replace(command, seq=self.sent))
        self._timer.start(0)

    def _run(self) -> None:
        if self._stopped:
            return
        wait = self.engine.run_once(self._commands)
        while self._replies_pipe.poll():
            self._receive(self._replies_pipe.recv())
        if self.engine.stop:
            self._stopped = True
        elif not self._stopped:
            self._timer.start(int(wait * 1000))

    def export_trainer(self, timeout: float = 10.0) -> Trainer:
        request = next(self._ids)
        self.send(Export(request))
        while not self._stopped:
            self._run()
            while not self._replies.empty():
                reply = self._replies.get()
                if reply.request == request:
                    return trainer_from_session(parse_session(reply.document))
        return self.last_good_trainer()

    def stop(self, timeout_ms: int = 5000) -> bool:
        self._stopped = True
        self._timer.stop()
        return True
