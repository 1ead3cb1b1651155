"""Work for the newest request only, on one worker thread, its result handed back to the GUI thread.

Typing fast asks for a new graph before the last one is built: each request
takes a new generation number, a job whose request was overtaken is skipped
when it comes up, and a result that comes back for an older generation is
dropped, so an older text's graph is never drawn over a newer one.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from weakref import WeakMethod

import shiboken6
from PySide6.QtCore import QObject, Signal

_executor: ThreadPoolExecutor | None = None


def _jobs_executor() -> ThreadPoolExecutor:
    # One thread for every LatestJob: jobs run one after the other, the GUI thread competes with one worker only.
    global _executor
    if _executor is None:
        _executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="graph-build")
    return _executor


_gc_lock = threading.Lock()
_gc_pauses = 0  # how many paused_gc blocks are running (any thread)


@contextmanager
def paused_gc():
    """No automatic garbage collection while building a graph or its drawing (cycles are collected after).

    A big expression's build makes tens of thousands of objects that all survive it, so the collector
    kept scanning them for nothing: a third of a 2,000-node overview's layout time.  Counted, so that
    overlapping blocks on two threads leave it enabled only when the last one ends (and only if it was).
    """
    global _gc_pauses
    with _gc_lock:
        if _gc_pauses == 0:
            paused_gc.was_enabled = gc.isenabled()
            gc.disable()
        _gc_pauses += 1
    try:
        yield
    finally:
        with _gc_lock:
            _gc_pauses -= 1
            if _gc_pauses == 0 and paused_gc.was_enabled:
                gc.enable()


paused_gc.was_enabled = True


class _Courier(QObject):
    """The one carrier of results from worker threads to the GUI thread, alive as long as the app.

    A carrier owned by a view went with it in the GUI thread, possibly while a worker was emitting on it: a crash
    no ``try`` can catch.  This one is never deleted, and hands a result on only to a receiver still alive."""

    carried = Signal(object, object)  # a weak reference to the receiver's method, its arguments

    def __init__(self):
        super().__init__()
        self.carried.connect(self._deliver)  # queued: the courier lives in the GUI thread

    def _deliver(self, receiver: WeakMethod, args: tuple) -> None:
        method = receiver()
        owner = getattr(method, "__self__", None)
        if method is None or (isinstance(owner, QObject) and not shiboken6.isValid(owner)):
            return  # its object was deleted meanwhile (a window closed, a view replaced)
        method(*args)


_courier: _Courier | None = None


def gui_courier() -> _Courier:
    """The courier, made on first use; call it first from the GUI thread (a worker's object would live in the
    worker's thread), as every requester does when it is built."""
    global _courier
    if _courier is None:
        _courier = _Courier()
    return _courier


def hand_back(receiver: WeakMethod, *args) -> None:
    """From any thread: call ``receiver(*args)`` on the GUI thread, if its object is still alive then."""
    gui_courier().carried.emit(receiver, args)


class LatestJob(QObject):
    """Runs ``fn(*args)`` off the GUI thread and calls ``then(result)`` back on it, only if no newer
    ``submit`` or ``cancel`` came meanwhile.  An exception from ``fn`` is handed to ``failed`` instead."""

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self.generation = 0
        self._running = 0  # generation of the job in flight (0: none)
        self._reply = WeakMethod(self._done)
        gui_courier()  # made here, in the GUI thread
        self._callbacks: tuple | None = None

    def submit(self, fn: Callable, *args, then: Callable, failed: Callable | None = None) -> int:
        self.generation += 1
        generation = self._running = self.generation
        self._callbacks = (then, failed)
        reply = self._reply

        def job() -> None:
            if generation != self.generation:
                return  # overtaken before it started
            try:
                with paused_gc():
                    result, error = fn(*args), None
            except Exception as err:  # handed to ``failed`` on the GUI thread
                result, error = None, err
            hand_back(reply, generation, result, error)  # dropped if the requester was deleted meanwhile

        _jobs_executor().submit(job)
        return generation

    def cancel(self) -> None:
        """Drop the job in flight (a newer request was handled another way)."""
        self.generation += 1
        self._running = 0
        self._callbacks = None

    @property
    def pending(self) -> bool:
        """A job is running or waiting, and its result will be used."""
        return self._running == self.generation and self._running != 0

    def _done(self, generation: int, result, error) -> None:
        if generation != self.generation or self._callbacks is None:
            return  # a newer request replaced this one
        then, failed = self._callbacks
        self._running, self._callbacks = 0, None
        if error is None:
            then(result)
        elif failed is not None:
            failed(error)
        else:
            raise error
