"""What an area (a tab of the main window) may offer it: one small Protocol per optional part.

The window asks ``isinstance(area, ThemedArea)`` and so on, so an area opts in by having the methods, and the
parts are named and typed in one place rather than as strings passed to ``hasattr``.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from PySide6.QtCore import SignalInstance
from PySide6.QtWidgets import QStatusBar


@runtime_checkable
class StatusArea(Protocol):
    """One-line messages for the status bar."""

    status: SignalInstance  # (str)


@runtime_checkable
class WithdrawingArea(Protocol):
    """Names a message it sent that is no longer true: the window clears it if it is still shown."""

    status_withdrawn: SignalInstance  # (str)


@runtime_checkable
class SupersedingArea(Protocol):
    """Names a message it sent and its new wording (the count it gave has changed): the window shows the new
    one if the old one is still shown."""

    status_superseded: SignalInstance  # (str, str)


def connect_status(area: object, bar: QStatusBar, timeout_ms: int = 10000) -> None:
    """Show an area's messages on the window's status bar, and take back or reword the ones it says changed."""

    def withdraw(text: str) -> None:
        if bar.currentMessage() == text:
            bar.clearMessage()

    def supersede(said: str, now: str) -> None:
        if bar.currentMessage() == said:
            bar.showMessage(now, timeout_ms)

    if isinstance(area, StatusArea):
        area.status.connect(lambda text: bar.showMessage(text, timeout_ms))
    if isinstance(area, WithdrawingArea):
        area.status_withdrawn.connect(withdraw)
    if isinstance(area, SupersedingArea):
        area.status_superseded.connect(supersede)


@runtime_checkable
class ThemedArea(Protocol):
    def set_theme(self, theme: str) -> None: ...


@runtime_checkable
class PresentationArea(Protocol):
    def set_presentation(self, on: bool) -> None: ...


@runtime_checkable
class SessionArea(Protocol):
    """Its part of a saved session, stored under ``extra[<area key>]``; the training area's ``restore_session``
    also takes the whole ``SessionData`` (config, weights)."""

    def session_state(self) -> dict: ...

    def restore_session(self, section: dict, *data: Any) -> None: ...


@runtime_checkable
class TrainerArea(Protocol):
    """The Trainer and run history saved with the session."""

    def session_trainer(self) -> Any: ...

    def session_runs(self) -> Any: ...


@runtime_checkable
class ExportableArea(Protocol):
    def export_image(self, path: str) -> None: ...


@runtime_checkable
class ExportingWindow(Protocol):
    """A window whose File → Export image… an area's Export button opens (a bare panel in a test has none)."""

    def export_image(self, path: str | None = None) -> bool: ...


@runtime_checkable
class ViewArea(Protocol):
    """An area with a graph view the zoom actions drive."""

    view: Any  # a gui.graph_view.GraphView


@runtime_checkable
class StateArea(Protocol):
    """An area with a state object (a GraphState: the non-finite warning describes it)."""

    state: Any


@runtime_checkable
class BackwardArea(StateArea, Protocol):
    """An area whose graph the Backward menu's keys (F5, F6, Shift+F6, F7) drive."""

    backward: Any  # its BackwardPanel
