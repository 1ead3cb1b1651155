"""Typing, prepared ahead: a text compiled during a typing pause, a long one compiled and its graph built on a
worker thread, so the window never waits on a keystroke.

The preparer only prepares: what it made is handed to its host (``ExpressionState``), which shows it.  The
evaluation stays on the GUI thread (the engine's ``no_grad`` switch is global: Tensors are made there only); the
numbers drawn are read from the Tensors when the graph is shown.
"""

from __future__ import annotations

from typing import Protocol

from PySide6.QtCore import QObject

from autograd_core.drawing.grouping import OVERVIEW_NODES, overview_graph
from autograd_core.language.expression import ExpressionError, compile_expression

from ..graph_view.worker import LatestJob

ASYNC_TEXT_CHARS = 1500  # a typed text this long (~250 nodes) is compiled and its graph built on a worker thread


def compile_text(text: str):
    """The program of ``text``, or the ExpressionError that says what is wrong with it."""
    try:
        return compile_expression(text)
    except ExpressionError as err:
        return err


class TextHost(Protocol):
    """What the preparer needs of the state it prepares for."""

    derivative: tuple[str, int] | None  # a derivative graph is shown: it is built on the GUI thread
    values: dict[str, float]

    def give_defaults(self, program) -> dict[str, float]:
        """Give the program's unset inputs their values; returns its input values."""

    def install(self, text: str, program, evaluation=None, graph=None) -> bool:
        """Show ``program`` (or the ExpressionError), with what was computed ahead."""


class TextPreparer:
    """Compiles a text before it is shown: at once for a short one, on a worker thread for a long one."""

    def __init__(self, host: TextHost, parent: QObject | None = None):
        self._host = host
        self._job = LatestJob(parent)  # the compile and graph building of a long text, off the GUI thread
        self._compiled: tuple | None = None  # (text, program or ExpressionError) from prepare

    def prepare(self, text: str) -> None:
        """Compile ``text`` now for the ``take(text)`` that follows (a typing pause: compiling and building the
        graph are then two event-loop turns, neither blocking the window long); a long text is left to
        ``request``, which compiles it on a worker thread."""
        self._compiled = (text, compile_text(text)) if len(text) < ASYNC_TEXT_CHARS else None

    def take(self, text: str):
        """The program of ``text`` (or its error): the one prepared for it, else compiled now."""
        compiled, self._compiled = self._compiled, None
        return compiled[1] if compiled is not None and compiled[0] == text else compile_text(text)

    def request(self, text: str) -> bool:
        """Start preparing a long ``text`` off the GUI thread: compiled, then its graph built (``overview_graph``),
        installed when both are done unless ``cancel`` or a newer request came first.  False for a short text,
        which the caller shows at once."""
        if len(text) < ASYNC_TEXT_CHARS:
            return False
        self._compiled = None
        self._job.submit(
            compile_text,
            text,
            then=lambda program: self._compiled_ahead(text, program),
            failed=lambda _err: self._host.install(text, compile_text(text)),  # (a bug: do it here instead)
        )
        return True

    def cancel(self) -> None:
        """Drop the text being prepared: a newer one is shown another way."""
        self._job.cancel()

    @property
    def pending(self) -> bool:
        """A requested text is being prepared: the graph on screen is about to change."""
        return self._job.pending

    def _compiled_ahead(self, text: str, program) -> None:
        host = self._host
        if isinstance(program, ExpressionError) or host.derivative is not None:
            host.install(text, program)  # nothing more to build ahead (a derivative graph is built here)
            return
        values = host.give_defaults(program)
        try:
            evaluation = program.evaluate(values)
        except ExpressionError:
            host.install(text, program)  # says what went wrong, as set_text does
            return
        self._job.submit(
            overview_graph,
            evaluation.output,
            OVERVIEW_NODES,
            then=lambda graph: self._built_ahead(text, program, values, evaluation, graph),
            failed=lambda _err: host.install(text, program),  # (a bug: build the graph here instead)
        )

    def _built_ahead(self, text: str, program, values: dict, evaluation, graph) -> None:
        host = self._host
        if host.derivative is not None or {name: host.values[name] for name in program.inputs} != values:
            evaluation = None  # an input moved meanwhile (or a derivative is shown): evaluate again, there
        host.install(text, program, evaluation, graph if host.derivative is None else None)
