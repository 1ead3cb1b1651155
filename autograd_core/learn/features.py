"""Input features: extra network inputs typed as expressions of x1 and x2 (``x1**2``, ``x1*x2``, ``sin(x2)``).

Each feature goes through the app's own expression language
(``compile_expression(...).evaluate_array``), never Python's eval.  A
``FeatureMLP`` is an MLP whose inputs are (x1, x2, feature1, …): it takes
points of the plane and appends their features itself, in the scalar call and
the vectorised forward pass, so every view that evaluates the model on the
plane (decision regions, neuron maps, dead units, the sample graph) applies
the same features.
"""

from __future__ import annotations

import numpy as np

from autograd_core.engine.tensor import Tensor
from autograd_core.language.expression import ExpressionError, compile_expression
from autograd_core.learn.nn import MLP
from autograd_core.numbers import counted

MAX_FEATURES = 8
PLANE = ("x1", "x2")


def feature_program(text):
    """The typed feature, checked: a non-empty expression of x1 and x2 only; ValueError saying what is wrong."""
    if not isinstance(text, str) or not text.strip():
        raise ValueError("a feature must be an expression of x1 and x2, such as x1*x2")
    try:
        program = compile_expression(text)
    except ExpressionError as exc:
        raise ValueError(f"the feature {text!r} is not a valid expression: {exc}") from None
    others = [name for name in program.inputs if name not in PLANE]
    if others:
        raise ValueError(f"the feature {text!r} may use only x1 and x2, not {', '.join(others)}")
    return program


def check_features(features) -> None:
    if features is None:
        return
    if not isinstance(features, list | tuple) or len(features) > MAX_FEATURES:
        raise ValueError(f"features must be a list of at most {MAX_FEATURES} expressions of x1 and x2")
    for text in features:
        feature_program(text)
    if len(set(features)) != len(features):
        raise ValueError("the same feature is listed twice")


def feature_values(features, X: np.ndarray, programs=None) -> np.ndarray:
    """(n, len(features)): each feature over the points X (rows x1, x2)."""
    X = np.asarray(X, dtype=float).reshape(-1, 2)
    programs = programs or [feature_program(f) for f in features]
    columns = []
    env = {"x1": X[:, 0], "x2": X[:, 1]}
    with np.errstate(all="ignore"):
        for program in programs:
            value = program.evaluate_array({k: v for k, v in env.items() if k in program.inputs})
            columns.append(np.broadcast_to(np.asarray(value, dtype=float), (len(X),)))
    return np.column_stack(columns) if columns else np.empty((len(X), 0))


def check_finite(features, X: np.ndarray) -> None:
    """ValueError naming the first feature and point where a feature is not finite (``log(x1)`` at x1 < 0)."""
    values = feature_values(features, X)
    bad = ~np.isfinite(values)
    if bad.any():
        i, k = np.argwhere(bad)[0]
        x1, x2 = np.asarray(X, float).reshape(-1, 2)[i]
        raise ValueError(f"the feature {features[k]!r} is not finite at (x1, x2) = ({x1:.4g}, {x2:.4g})")


class FeatureMLP(MLP):
    """An MLP over (x1, x2, features…) that accepts points of the plane and adds their features itself."""

    def __init__(self, features, nouts, **kwargs):
        self.features = tuple(features)
        self._programs = [feature_program(f) for f in self.features]
        super().__init__(2 + len(self.features), nouts, **kwargs)

    @classmethod
    def from_mlp(cls, model: MLP, features) -> FeatureMLP:
        """The same weights, reading points of the plane (e.g. ``inspection.mlp_from_arrays``' result)."""
        wrapped = cls.__new__(cls)
        wrapped.__dict__.update(model.__dict__)
        wrapped.features = tuple(features)
        wrapped._programs = [feature_program(f) for f in wrapped.features]
        if wrapped.nin != 2 + len(wrapped.features):
            raise ValueError(
                f"a network with {model.nin} inputs cannot take x1, x2 and {counted(len(features), 'feature')}"
            )
        return wrapped

    def expand(self, X: np.ndarray) -> np.ndarray:
        X = np.asarray(X, dtype=float).reshape(-1, 2)
        return np.column_stack([X, feature_values(self.features, X, self._programs)])

    def feature_inputs(self, x) -> list:
        """The point (x1, x2) and its features as input leaves (values: data, no gradient to the point)."""
        values = [v.data if isinstance(v, Tensor) else float(v) for v in x]
        extra = feature_values(self.features, np.array([values]), self._programs)[0].tolist()
        return [*x, *(Tensor(v, label=f, kind="input") for f, v in zip(self.features, extra))]

    def __call__(self, x, fused: bool = True):
        if len(x) == 2 and self.features:
            x = self.feature_inputs(x)
        return super().__call__(x, fused)

    def forward_array(self, X: np.ndarray, weights=None, return_hidden: bool = False):
        X = np.asarray(X, dtype=float)
        if X.ndim == 2 and X.shape[1] == 2 and self.features:
            X = self.expand(X)
        return super().forward_array(X, weights=weights, return_hidden=return_hidden)
