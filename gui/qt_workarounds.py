"""Work around a reference-count bug of PySide6 6.12 on Python 3.11.

Measured here: every ``QPainter.setPen(QPen)`` and ``QPainter.drawLine(QPointF, QPointF)``
call lowers ``None``'s reference count by one (pyqtgraph makes a few dozen such
calls per frame).  On Python < 3.12 ``None`` is an ordinary object, so after a
minute of live plotting its count reaches zero and the interpreter aborts with
"Fatal Python error: none_dealloc".  Python 3.12+ makes ``None`` immortal; here we
do the same by hand: give the singletons a count no painting can use up.
"""

from __future__ import annotations

import ctypes
import sys

_RESERVE = 1 << 48  # references; at a million lost per second this lasts nine years


def protect_singletons() -> None:
    """Make None, True and False practically immortal (idempotent; a no-op on Python ≥ 3.12)."""
    if sys.version_info >= (3, 12) or getattr(protect_singletons, "done", False):
        return
    for obj in (None, True, False):
        count = ctypes.c_ssize_t.from_address(id(obj))  # ob_refcnt is the first field of every object
        count.value += _RESERVE
    protect_singletons.done = True


protect_singletons()
