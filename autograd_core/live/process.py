"""The training process itself: its entry point, its priority, and its end with the app that started it.

Apart from the engine (``service.py``), which is the same in the GUI's process (``InProcessWorker``) and here:
this module is only what a separate process needs, started by ``gui.training.training_worker.CHILD_CODE``.
"""

from __future__ import annotations

import gc
import os
import threading
import time

from autograd_core.live.service import Engine


def engine_main(commands, out, freeze_after_start: bool = False, niceness: int = 0) -> None:
    """The training process: the first message is a ``Start``, then commands until ``Stop``.

    ``niceness``: how far the process lowers its priority once its first snapshot (the window's first picture)
    is sent; its start runs at the priority it was given.

    ``freeze_after_start`` moves everything alive after start-up (modules, data, the model) out of the
    garbage collector's sight, so its full collections scan only what training made since.  On a loaded
    machine the gain was within the noise of benchmarks/bench_engine.py ("gc.freeze()" rows, 35–46× micrograd
    either way); an earlier quieter measurement gave 54 → 44 ms per fused step.  Only the real child does it.
    """
    start = commands.recv()
    engine = Engine(start, out)
    if freeze_after_start:
        gc.collect()
        gc.freeze()
    try:
        engine.run_once(commands)  # the first snapshot
        if niceness:
            _lower_priority(niceness)
        engine.loop(commands)
    except (BrokenPipeError, EOFError, KeyboardInterrupt):
        pass
    finally:
        out.close()


def _lower_priority(niceness: int) -> None:
    try:
        os.nice(niceness)
    except (AttributeError, OSError):  # (no priorities on this system)
        pass


# A training process whose app is gone ends within this many seconds, even on a busy machine: on Linux the kernel
# ends it with its parent (``gui.training.training_worker.CHILD_CODE``); elsewhere, or if the parent died before
# that was set up, ``watch_parent`` looks this often.
ENDS_WITHIN = 2.0
PARENT_CHECK_INTERVAL = ENDS_WITHIN / 8


def watch_parent(parent: int, interval: float = PARENT_CHECK_INTERVAL) -> threading.Thread:
    """End this process at once when ``parent`` is no longer its parent (it died: we were handed to init).

    The command pipe's end says the same, but only when the engine next reads it, which a long step, a busy
    machine or a start still under way delays; this thread only sleeps and looks, so it ends us within
    ``interval`` of its next time slice."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(interval)
        os._exit(0)

    thread = threading.Thread(target=watch, name="parent-watch", daemon=True)
    thread.start()
    return thread


def child_main() -> None:
    """``python -c CHILD_CODE CMD_FD OUT_FD PARENT_PID NICENESS`` (``gui.training.training_worker.CHILD_CODE``).

    Started by the GUI's ``training_worker``."""
    import sys
    from multiprocessing.connection import Connection

    watch_parent(int(sys.argv[3]))
    engine_main(
        Connection(int(sys.argv[1]), writable=False),
        Connection(int(sys.argv[2]), readable=False),
        freeze_after_start=True,
        niceness=int(sys.argv[4]),
    )
