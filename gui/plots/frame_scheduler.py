"""One view redrawn per frame tick, so live training never stalls the event loop.

Each repaint of a plot is a few milliseconds; all of them at once, at every
snapshot, held the GUI thread long enough for clicks to lag.  The scheduler
keeps the views marked for a redraw in order, draws the first at once and one
more per tick, skips a view that would draw nothing now (a hidden tab), and
spaces out the views that are costly to draw (a throttle per view, drawn again
by their own timer when their time comes).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from PySide6.QtCore import QObject, QTimer, Signal

FRAME_TICK_MS = 15


class FrameScheduler(QObject):
    """Views by name, drawn one per tick by ``draw(name) -> bool`` (False: nothing was drawn after all).

    ``visible(name)`` says whether a view would show what it draws now;
    ``throttle`` maps a view to the least seconds between two of its draws.
    """

    drawn = Signal(str, float)  # a view was drawn, and the seconds its drawing took (benchmarks read it)

    def __init__(
        self,
        draw: Callable[[str], bool],
        visible: Callable[[str], bool],
        throttle: dict[str, float] | None = None,
        tick_ms: int = FRAME_TICK_MS,
        parent: QObject | None = None,
    ):
        super().__init__(parent)
        self._draw = draw
        self._visible = visible
        self._throttle = dict(throttle or {})
        self._drawn_at = dict.fromkeys(self._throttle, 0.0)
        self._dirty: list[str] = []
        self.timer = QTimer(self)
        self.timer.setInterval(tick_ms)
        self.timer.timeout.connect(self.draw_next)
        self._later: dict[str, QTimer] = {}
        for name in self._throttle:
            later = QTimer(self)
            later.setSingleShot(True)
            later.timeout.connect(lambda name=name: self.mark(name))
            self._later[name] = later

    @property
    def pending(self) -> tuple[str, ...]:
        """The views waiting for a tick, in the order they will be drawn."""
        return tuple(self._dirty)

    def waiting(self, name: str) -> bool:
        """True while a throttled view waits for its own timer."""
        return name in self._later and self._later[name].isActive()

    def mark(self, *names: str, at_once: bool = False) -> None:
        """Redraw these views (each once, however often marked); ``at_once`` lifts their throttle this time."""
        for name in names:
            if at_once and name in self._drawn_at:
                self._drawn_at[name] = 0.0
            if name not in self._dirty:
                self._dirty.append(name)
        if not self.timer.isActive():
            self.draw_next()  # the first view at once, the others on the next ticks
            self.timer.start()

    def release(self, name: str) -> None:
        """The next draw of a throttled view is not held back (its picture became stale, e.g. a new network)."""
        if name in self._drawn_at:
            self._drawn_at[name] = 0.0

    def _worth_a_tick(self, name: str) -> bool:
        """False for a view that would draw nothing now, so it takes no frame tick from the others."""
        if name in self._throttle:
            wait = self._throttle[name] - (time.monotonic() - self._drawn_at[name])
            if wait > 0 and not self._later[name].isActive():
                self._later[name].start(int(wait * 1000) + 1)
            return wait <= 0
        return self._visible(name)

    def draw_next(self) -> None:
        """Draw the first view worth a tick; stop ticking when none is left."""
        while self._dirty and not self._worth_a_tick(self._dirty[0]):
            self._dirty.pop(0)
        if not self._dirty:
            self.timer.stop()
            return
        name = self._dirty.pop(0)
        start = time.perf_counter()
        if self._draw(name):
            if name in self._drawn_at:
                self._drawn_at[name] = time.monotonic()
            self.drawn.emit(name, time.perf_counter() - start)

    def flush(self) -> None:
        """Draw every pending view now (tests and screenshots)."""
        while self._dirty:
            self.draw_next()

    def stop(self) -> None:
        """No more ticks (the area is closing)."""
        self.timer.stop()
        for later in self._later.values():
            later.stop()
