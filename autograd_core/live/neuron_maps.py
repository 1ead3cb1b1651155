"""Per-neuron maps and dead units of a snapshot's weights: the numbers the network diagram paints.

The training process sends weights, not models; a view that shows each hidden
unit's output over the plane needs a model to run them through.  Building one
per frame costs more than the forward itself, so ``NeuronMaps`` keeps one
model per architecture and only loads the new weights into it.  No Qt here:
the GUI turns the arrays into pictures (``gui.plots.neuron_maps``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from autograd_core.learn.features import FeatureMLP
from autograd_core.learn.inspection import dead_units, mlp_from_arrays, unit_maps

MAP_RESOLUTION = 24  # cells per side of a neuron's map (drawn smoothly scaled)


def snapshot_model(snap):
    """A fresh MLP with a snapshot's weights; with input features, one that takes points of the plane."""
    model = mlp_from_arrays(snap.weights, list(snap.activations) or snap.activation)
    return FeatureMLP.from_mlp(model, snap.features) if snap.features else model


@dataclass(frozen=True)
class NeuronMapFrame:
    """What the diagram shows for one snapshot: the maps (one (units, n, n) array per hidden layer; None when
    the snapshot has no plane to map, e.g. before its first grid), the plane's extent, the training points
    drawn over an enlarged map, and the dead units as (diagram layer, neuron), the input layer being 0."""

    maps: list[np.ndarray] | None
    extent: tuple[float, float, float, float] | None
    points: tuple[np.ndarray, np.ndarray] | None
    dead: list[tuple[int, int]]


class NeuronMaps:
    """Maps and dead units from snapshots, one reused model per architecture (only its weights change)."""

    def __init__(self, resolution: int = MAP_RESOLUTION):
        self.resolution = resolution
        self._key = None
        self._model = None

    def model_for(self, snap):
        """The model of the snapshot's architecture, holding its weights."""
        key = (snap.sizes, snap.activation, tuple(snap.activations), snap.features)
        if self._model is None or self._key != key:
            self._key, self._model = key, snapshot_model(snap)
        flat = np.concatenate([np.column_stack([W, b]).ravel() for W, b in snap.weights])
        self._model.load_state_dict(flat.tolist())
        return self._model

    def frame(self, snap, dataset) -> NeuronMapFrame:
        """The maps over the snapshot's plane and the units dead on ``dataset``'s training points (a regression
        has one input: no maps of the plane, no dead units on its points)."""
        if snap.regression is not None or not snap.weights:
            return NeuronMapFrame(None, None, None, [])
        model = self.model_for(snap)
        extent = snap.grid.extent if snap.grid is not None else None
        maps = points = None
        if extent is not None:
            points = (dataset.X_train, dataset.y_train) if dataset is not None else None
            maps = unit_maps(model, extent, self.resolution)
        dead: list[tuple[int, int]] = []
        if dataset is not None and len(dataset.y_train):
            dead = [(layer + 1, j) for layer, j in dead_units(model, dataset.X_train)]
        return NeuronMapFrame(maps, extent, points, dead)
