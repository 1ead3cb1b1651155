"""The learner's ops as a Qt signal: every view that lists them (the workshop's list, the network builder's
activations, the training process's copy) refreshes on ``custom_ops_signal().changed``, never by polling.

The core registry (``CUSTOM_OPS``) calls plain listeners; this one object turns its calls into a signal, so a
widget's slot runs in the GUI thread and a deleted widget is disconnected by Qt.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal

from autograd_core.engine.custom_ops import CUSTOM_OPS

SAVED_OPS_KEY = "workshop/ops"  # the settings key of the ops defined, as workshop.save_definitions() in JSON


class CustomOpsSignal(QObject):
    changed = Signal()


_SIGNAL: CustomOpsSignal | None = None


def custom_ops_signal() -> CustomOpsSignal:
    """The one signal for the app (made on first use, subscribed to the registry once)."""
    global _SIGNAL
    if _SIGNAL is None:
        _SIGNAL = CustomOpsSignal()
        CUSTOM_OPS.subscribe(_SIGNAL.changed.emit)
    return _SIGNAL
