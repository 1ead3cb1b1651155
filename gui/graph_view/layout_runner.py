"""Layouts for the graph view: a small layered graph is laid out at once, every other one on a worker thread
whose result comes back to the GUI thread as a queued signal, and a layout outdated by a newer graph (a newer
generation) is dropped, or not even started."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from weakref import WeakMethod

from PySide6.QtCore import QObject, QTimer, Signal

from autograd_core.drawing.fit import layout_for_view

from .worker import paused_gc

SYNC_LAYOUT_NODES = 15  # a layered layout up to this size is computed at once; every other one on a worker thread

LayoutDone = Callable[[int, tuple | None, str], None]  # generation, (Drawing, readable zoom) or None, error text


class _LayoutSignals(QObject):
    """Carries a finished layout from the worker thread to the GUI thread (queued)."""

    done = Signal(int, object, str)  # generation, (Drawing, readable zoom) (None on failure), error text


_executor: ThreadPoolExecutor | None = None


def _layout_executor() -> ThreadPoolExecutor:
    # One worker: a newer graph's layout waits for the older one, whose result is then dropped (and one
    # already outdated when its turn comes is not run at all: ``layout_job``'s ``current``).
    global _executor
    if _executor is None:
        _executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="graph-layout")
    return _executor


def layout_job(
    generation: int, graph, method: str, sizes: dict, view: tuple, gaps, signals, reference, current
) -> None:
    """Lay ``graph`` out off the GUI thread, unless the view has moved on (``current``, a weak reference to its
    generation getter, gives a newer one or none): five quick edits during one long layout cost two layouts, not
    five.  (Weak: this thread must never hold the last reference to a widget.)"""
    getter = current()
    if getter is None or getter() != generation:
        _hand_back(signals, generation, None, "")  # (dropped by the view, as a finished outdated layout is)
        return
    try:
        with paused_gc():
            result = layout_for_view(graph, method, sizes, view, gaps, reference)
            _ = result[0].obstacles  # (cached on the drawing) here rather than in the GUI thread's first Fit
    except Exception as err:  # reported to the user by the view
        _hand_back(signals, generation, None, f"{type(err).__name__}: {err}")
        return
    _hand_back(signals, generation, result, "")


def _hand_back(signals: _LayoutSignals, *done) -> None:
    """Emit ``done`` to the view, unless the view (which owns ``signals``) was deleted meanwhile."""
    try:
        signals.done.emit(*done)
    except RuntimeError:  # its C++ object went with the view's, in the GUI thread
        pass


class LayoutRunner:
    """Runs the layouts of one view, numbered by generation: ``done`` gets each drawing of the current graph,
    ``reoriented`` each trial layout of it for a new viewport shape.

    ``owner`` (the view) owns the signal carriers: they are deleted with it, in the GUI thread, though a job
    on the worker thread holds them till it ends."""

    def __init__(self, owner: QObject, done: LayoutDone, reoriented: LayoutDone):
        self.owner = owner
        self.generation = 0
        self.signals = _LayoutSignals(owner)
        self.signals.done.connect(done)
        self._done = done
        self.reorient_signals = _LayoutSignals(owner)
        self.reorient_signals.done.connect(reoriented)
        self.reorient_pending = False  # a re-layout for the new size is being computed

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
            job = (layout_job, generation, graph, method, sizes, view, gaps, self.signals, reference, current)
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
        job = (self.generation, graph, "layered", sizes, view, gaps, self.reorient_signals, reference)
        _layout_executor().submit(layout_job, *job, WeakMethod(self.current_generation))
