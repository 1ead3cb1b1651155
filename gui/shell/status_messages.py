"""An area's one-line status messages, each withdrawn as soon as it stops being true.

A message describes the state it was said in ("Gradients set to zero.", an
example's description, "Backward again: leaf gradients accumulated").  The
area gives a *key* — the few things its messages can speak about (the graph
shown, the gradient mode, the step, the error, which groups are collapsed) —
and reports every change;
when the key differs from the one the message was said with, the message is
withdrawn.  Comparing keys, not counting signals, keeps this independent of the
order in which a state emits its signals: a message said in the middle of a
change (a non-finite warning while the new graph is built) stays, the first
later change removes it.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, Signal

_BY_VALUE = (int, float, str, bool, frozenset)


def _same(a: tuple, b: tuple) -> bool:
    # Objects by identity: a key holds Tensors and errors, whose == may mean something else (or build a graph).
    return len(a) == len(b) and all(x is y or (type(x) in _BY_VALUE and x == y) for x, y in zip(a, b))


class StatusMessages(QObject):
    """``say(text)`` shows a message; ``state_changed()`` withdraws it once ``key()`` has moved on."""

    said = Signal(str)
    withdrawn = Signal(str)  # this text, said earlier, is no longer true: clear it if it is still shown
    superseded = Signal(str, str)  # (said, now): show ``now`` instead, if ``said`` is still shown

    def __init__(self, key: Callable[[], tuple], parent: QObject | None = None):
        super().__init__(parent)
        self.key = key
        self.text = ""  # the message still standing ("" when none)
        self._said_with: tuple = ()

    def say(self, text: str) -> None:
        if not text:
            return
        self.text, self._said_with = text, self.key()
        self.said.emit(text)

    def state_changed(self, *_args) -> None:
        if self.text and not _same(self.key(), self._said_with):
            text, self.text, self._said_with = self.text, "", ()
            self.withdrawn.emit(text)

    def withdraw(self, text: str) -> None:
        """Withdraw ``text`` if it is the standing message (something the key cannot see made it untrue)."""
        if text and self.text == text:
            self.text, self._said_with = "", ()
            self.withdrawn.emit(text)

    def supersede(self, said: str, now: str) -> None:
        """The standing message ``said`` has a truer wording ``now`` (the same fact, updated); "" withdraws it."""
        if not said or self.text != said:
            return
        if not now:
            self.withdraw(said)
            return
        self.text, self._said_with = now, self.key()
        self.superseded.emit(said, now)

    def watch(self, *signals) -> None:
        """Check the key after each of these signals."""
        for signal in signals:
            signal.connect(self.state_changed)
