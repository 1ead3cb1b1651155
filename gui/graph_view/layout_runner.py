"""Layouts for the graph view: a small layered graph is laid out at once, every other one on a worker thread
whose result comes back to the GUI thread as a queued signal, and a layout outdated by a newer graph (a newer
generation) is dropped, or not even started."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from weakref import WeakMethod

import shiboken6
from PySide6.QtCore import QObject, QTimer

from autograd_core.drawing.fit import layout_for_view

from .worker import gui_courier, hand_back, paused_gc

SYNC_LAYOUT_NODES = 15  # a layered layout up to this size is computed at once; every other one on a worker thread

LayoutDone = Callable[[int, tuple | None, str], None]  # generation, (Drawing, readable zoom) or None, error text


_executor: ThreadPoolExecutor | None = None


def _layout_executor() -> ThreadPoolExecutor:
    # One worker: a newer graph's layout waits for the older one, whose result is then dropped (and one
    # already outdated when its turn comes is not run at all: ``layout_job``'s ``current``).
    global _executor
    if _executor is None:
        _executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="graph-layout")
    return _executor


def layout_job(
    generation: int, graph, method: str, sizes: dict, view: tuple, gaps, reply: WeakMethod, reference, current
) -> None:
    """Lay ``graph`` out off the GUI thread, unless the view has moved on (``current``, a weak reference to its
    generation getter, gives a newer one or none): five quick edits during one long layout cost two layouts, not
    five.  ``reply`` gets (generation, result, error) on the GUI thread, through the app's courier.  (Weak: this
    thread must never hold the last reference to a widget.)"""
    getter = current()
    if getter is None or getter() != generation:
        hand_back(reply, generation, None, "")  # (dropped by the view, as a finished outdated layout is)
        return
    try:
        with paused_gc():
            result = layout_for_view(graph, method, sizes, view, gaps, reference)
            _ = result[0].obstacles  # (cached on the drawing) here rather than in the GUI thread's first Fit
    except Exception as err:  # reported to the user by the view
        hand_back(reply, generation, None, f"{type(err).__name__}: {err}")
        return
    hand_back(reply, generation, result, "")


class LayoutRunner:
    """Runs the layouts of one view, numbered by generation: ``done`` gets each drawing of the current graph,
    ``reoriented`` each trial layout of it for a new viewport shape.

    A job on the worker thread holds only weak references to ``owner`` (the view); its result reaches the view
    through the app's courier, which drops it once the view is deleted."""

    def __init__(self, owner: QObject, done: LayoutDone, reoriented: LayoutDone):
        self.owner = owner
        self.generation = 0
        self._done = done
        self._reoriented = reoriented
        self.reply = WeakMethod(self._deliver_done)
        self.reorient_reply = WeakMethod(self._deliver_reoriented)
        gui_courier()  # made here, in the GUI thread
        self.reorient_pending = False  # a re-layout for the new size is being computed

    def _deliver_done(self, *done) -> None:
        if shiboken6.isValid(self.owner):
            self._done(*done)

    def _deliver_reoriented(self, *done) -> None:
        if shiboken6.isValid(self.owner):
            self._reoriented(*done)

    def new_generation(self) -> int:
        """A new graph (or none): layouts of the ones before are dropped."""
        self.generation += 1
        return self.generation

    def current_generation(self) -> int:
        """The graph's generation now (read from the layout thread: a plain Python attribute)."""
        return self.generation

    def lay_out(self, graph, method: str, sizes: dict, view: tuple, gaps, reference) -> bool:
        """Lay ``graph`` out for the current generation; True when it goes to the worker thread (``done`` comes
        later), False when it was done at once (``done`` has been called)."""
        generation = self.generation
        if graph.number_of_nodes() > SYNC_LAYOUT_NODES or method != "layered":  # Spring and Kamada–Kawai take
            # 0.1–1 s even when small.  Started once the current event is handled: a worker thread competes for
            # Python's lock, so starting it now would slow down whatever else this change does in the GUI thread.
            current = WeakMethod(self.current_generation)
            job = (layout_job, generation, graph, method, sizes, view, gaps, self.reply, reference, current)
            QTimer.singleShot(0, self.owner, lambda: generation == self.generation and _layout_executor().submit(*job))
            return True
        try:
            result = layout_for_view(graph, method, sizes, view, gaps, reference)
        except Exception as err:
            self._done(generation, None, f"{type(err).__name__}: {err}")
            return False
        self._done(generation, result, "")
        return False

    def reorient(self, graph, sizes: dict, view: tuple, gaps, reference) -> None:
        """A layered layout of the current graph for a new viewport shape, off the GUI thread (≤ 1 s), to
        ``reoriented``."""
        self.reorient_pending = True
        job = (self.generation, graph, "layered", sizes, view, gaps, self.reorient_reply, reference)
        _layout_executor().submit(layout_job, *job, WeakMethod(self.current_generation))
