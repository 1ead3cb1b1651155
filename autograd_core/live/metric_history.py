"""The metric history as growing numpy columns: what the live curves read every frame.

The GUI keeps this copy of the trainer's history (filled from snapshots), so plots never read the trainer
from another thread, and a frame hands whole columns to the plot instead of a list of objects.
"""

from __future__ import annotations

import math

import numpy as np


class MetricHistory:
    """Growing numpy columns of the metrics, cheap to hand to a plot every frame."""

    COLUMNS = ("step", "epoch", "train_loss", "test_loss", "train_acc", "test_acc", "lr")

    def __init__(self):
        self.clear()

    def clear(self) -> None:
        self._data = {name: np.empty(256) for name in self.COLUMNS}
        self._norms = np.full((256, 0), math.nan)  # one column per layer: ‖gradient‖ of each step
        self.size = 0

    def extend(self, rows) -> None:
        rows = list(rows)
        need = self.size + len(rows)
        if need > len(self._data["step"]):
            capacity = max(need, 2 * len(self._data["step"]))
            for name, arr in self._data.items():
                grown = np.empty(capacity)
                grown[: self.size] = arr[: self.size]
                self._data[name] = grown
        for name in self.COLUMNS:
            column = self._data[name]
            for i, row in enumerate(rows):
                value = getattr(row, name, None)
                column[self.size + i] = math.nan if value is None else float(value)
        layers = max([self._norms.shape[1], *(len(getattr(r, "grad_norms", None) or ()) for r in rows)])
        if len(self._norms) < len(self._data["step"]) or layers > self._norms.shape[1]:
            grown = np.full((len(self._data["step"]), layers), math.nan)
            grown[: self.size, : self._norms.shape[1]] = self._norms[: self.size]
            self._norms = grown
        for i, row in enumerate(rows):
            norms = getattr(row, "grad_norms", None) or ()
            self._norms[self.size + i] = math.nan
            self._norms[self.size + i, : len(norms)] = [math.nan if v is None else float(v) for v in norms]
        self.size = need

    def column(self, name: str) -> np.ndarray:
        return self._data[name][: self.size]

    def grad_norms(self) -> np.ndarray:
        """(steps × layers): each step's gradient norm per layer (NaN where a step recorded none)."""
        return self._norms[: self.size]

    def __len__(self) -> int:
        return self.size
