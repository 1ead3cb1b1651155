"""Losses on a model's raw scores (logits), built from the engine's ops so gradients are exact.

Labels are 0/1.  The model's output is linear: a score ``z``, class 1 when
``z > 0``.  Each loss exists twice: on Tensors (to train) and on numpy arrays
(to evaluate whole data sets cheaply with the vectorised forward pass); tests
check that the two agree.

- ``bce``: binary cross-entropy from logits, ``softplus(z) − y·z``.  Equal to
  ``−y·log σ(z) − (1−y)·log(1−σ(z))`` but never takes ``log(sigmoid)``, which
  underflows to ``log(0) = −inf`` for confident wrong answers.
- ``hinge``: micrograd's SVM loss ``relu(1 − t·z)`` with ``t = ±1``.
- ``mse``: ``(z − t)²`` with ``t = ±1``, so the decision threshold stays at 0.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from autograd_core.tensor import Tensor

LOSSES = ("bce", "hinge", "mse")


def _check(scores: Sequence, labels: Sequence) -> None:
    if len(scores) != len(labels):
        raise ValueError(f"{len(scores)} scores but {len(labels)} labels")
    if not scores:
        raise ValueError("a loss needs at least one sample")


def bce_with_logits(scores: Sequence[Tensor], labels: Sequence[int]) -> Tensor:
    """Mean of ``softplus(z) − y·z``: cross-entropy of σ(z) against y, stable for any z."""
    _check(scores, labels)
    terms = [z.softplus() - z if y else z.softplus() for z, y in zip(scores, labels)]
    return Tensor.sum(terms) * (1.0 / len(terms))


def hinge(scores: Sequence[Tensor], labels: Sequence[int]) -> Tensor:
    """Mean of ``relu(1 − t·z)``, t = ±1 (micrograd's demo loss)."""
    _check(scores, labels)
    terms = [(1.0 - z).relu() if y else (1.0 + z).relu() for z, y in zip(scores, labels)]
    return Tensor.sum(terms) * (1.0 / len(terms))


def mse(scores: Sequence[Tensor], labels: Sequence[int]) -> Tensor:
    """Mean of ``(z − t)²``, t = ±1."""
    _check(scores, labels)
    terms = [(z - (1.0 if y else -1.0)) ** 2 for z, y in zip(scores, labels)]
    return Tensor.sum(terms) * (1.0 / len(terms))


_TENSOR_LOSSES = {"bce": bce_with_logits, "hinge": hinge, "mse": mse}


def data_loss(name: str, scores: Sequence[Tensor], labels: Sequence[int]) -> Tensor:
    """The named loss (one of ``LOSSES``) as a Tensor."""
    if name not in _TENSOR_LOSSES:
        raise ValueError(f"unknown loss {name!r}; choose one of {', '.join(LOSSES)}")
    return _TENSOR_LOSSES[name](scores, labels)


def l1_penalty(params: Sequence[Tensor], coefficient: float) -> Tensor:
    """``coefficient · Σ|p|`` (lasso: pushes weights to exactly zero)."""
    return Tensor.sum(p.abs() for p in params) * coefficient


def l2_penalty(params: Sequence[Tensor], coefficient: float) -> Tensor:
    """``coefficient · Σp²`` (weight decay; micrograd's demo uses 1e-4)."""
    return Tensor.sum(p * p for p in params) * coefficient


def regularization(params: Sequence[Tensor], l1: float = 0.0, l2: float = 0.0) -> Tensor | None:
    """L1 plus L2 penalty, or None when both are zero (no nodes built)."""
    parts = []
    if l1:
        parts.append(l1_penalty(params, l1))
    if l2:
        parts.append(l2_penalty(params, l2))
    if not parts:
        return None
    return parts[0] if len(parts) == 1 else parts[0] + parts[1]


# ------------------------------------------------------------ numpy versions


def loss_array(name: str, scores: np.ndarray, labels: np.ndarray) -> float:
    """The named loss of a batch of scores, in numpy (same values as the Tensor version)."""
    z = np.asarray(scores, dtype=float)
    y = np.asarray(labels, dtype=float)
    if z.shape != y.shape or z.size == 0:
        raise ValueError("scores and labels must be non-empty and the same length")
    if name == "bce":
        values = np.logaddexp(0.0, z) - y * z
    elif name == "hinge":
        values = np.maximum(0.0, 1.0 - (2.0 * y - 1.0) * z)
    elif name == "mse":
        values = (z - (2.0 * y - 1.0)) ** 2
    else:
        raise ValueError(f"unknown loss {name!r}; choose one of {', '.join(LOSSES)}")
    return float(math.fsum(values) / z.size) if np.all(np.isfinite(values)) else float(np.mean(values))


def penalty_array(params: Sequence[float], l1: float = 0.0, l2: float = 0.0) -> float:
    """L1 + L2 penalty of plain parameter values."""
    p = np.asarray(params, dtype=float)
    return float(l1 * np.abs(p).sum() + l2 * (p * p).sum())


def predict(scores: np.ndarray) -> np.ndarray:
    """Class 1 where the score is positive (as micrograd: ``score > 0``)."""
    return (np.asarray(scores) > 0.0).astype(int)


def accuracy(scores: np.ndarray, labels: np.ndarray) -> float:
    """Fraction of samples whose predicted class equals the label."""
    labels = np.asarray(labels)
    if labels.size == 0:
        raise ValueError("accuracy needs at least one sample")
    return float(np.mean(predict(scores) == labels))


def probability(scores: np.ndarray) -> np.ndarray:
    """σ(score): the model's probability of class 1 (the decision boundary is 0.5)."""
    z = np.asarray(scores, dtype=float)
    return 0.5 * (1.0 + np.tanh(0.5 * z))  # = σ(z), with no overflow warnings
