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

With K > 2 classes the model has K scores per sample and the loss is the
softmax cross-entropy (``bce`` names cross-entropy whatever K is):
``log Σₖ exp(zₖ) − z_y``, computed as ``m + log Σₖ exp(zₖ − m) − z_y`` with
``m = max z`` taken as a constant (detached), so no exponential overflows;
the graph is made of ``exp``, ``log``, ``+`` and ``−`` nodes whose local
derivatives a learner sees like any other (m's gradient would cancel anyway).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from autograd_core.engine.ops import sigmoid_array, softmax_array
from autograd_core.engine.tensor import Tensor

LOSSES = ("bce", "hinge", "mse")


def _check(scores: Sequence, labels: Sequence) -> None:
    if len(scores) != len(labels):
        raise ValueError(f"{len(scores)} scores but {len(labels)} labels")
    if not scores:
        raise ValueError("a loss needs at least one sample")


def softmax_cross_entropy(scores: Sequence[Sequence[Tensor]], labels: Sequence[int]) -> Tensor:
    """Mean of ``log Σₖ exp(zₖ) − z_y`` over samples (each a list of K scores), by the stable log-sum-exp."""
    _check(scores, labels)
    terms = []
    for z, y in zip(scores, labels):
        if not 0 <= int(y) < len(z):
            raise ValueError(f"label {y!r} is not one of the {len(z)} classes")
        m = max(t.data for t in z)
        if not math.isfinite(m):
            m = 0.0  # a non-finite score makes the loss non-finite anyway (and training stops on it)
        shifted = Tensor.sum([(t - m).exp() for t in z])
        terms.append(shifted.log() + m - z[int(y)])
    return Tensor.sum(terms) * (1.0 / len(terms))


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
    """The named loss (one of ``LOSSES``) as a Tensor; scores that are lists (K per sample) take softmax
    cross-entropy, the only loss of more than two classes."""
    if name not in _TENSOR_LOSSES:
        raise ValueError(f"unknown loss {name!r}; choose one of {', '.join(LOSSES)}")
    if scores and isinstance(scores[0], list | tuple):
        if name != "bce":
            raise ValueError(f"more than two classes train with cross-entropy (bce), not {name}")
        return softmax_cross_entropy(scores, labels)
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
    if z.ndim == 2:
        if name != "bce":
            raise ValueError(f"more than two classes train with cross-entropy (bce), not {name}")
        if len(z) != len(y) or z.size == 0:
            raise ValueError("scores and labels must be non-empty and the same length")
        values = log_sum_exp(z) - z[np.arange(len(z)), y.astype(int)]
        return float(math.fsum(values) / len(values)) if np.all(np.isfinite(values)) else float(np.mean(values))
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


def log_sum_exp(z: np.ndarray) -> np.ndarray:
    """``log Σₖ exp(z[:, k])`` per row, shifted by the row's maximum (no overflow)."""
    z = np.asarray(z, dtype=float)
    m = np.max(z, axis=1)
    m = np.where(np.isfinite(m), m, 0.0)
    with np.errstate(all="ignore"):
        return m + np.log(np.sum(np.exp(z - m[:, None]), axis=1))


def softmax(z: np.ndarray) -> np.ndarray:
    """Class probabilities of rows of K scores."""
    return softmax_array(z, axis=1)


def predict(scores: np.ndarray) -> np.ndarray:
    """Class 1 where the score is positive (as micrograd: ``score > 0``); with K scores a row, the largest."""
    scores = np.asarray(scores)
    if scores.ndim == 2:
        return np.argmax(scores, axis=1).astype(int)
    return (scores > 0.0).astype(int)


def class_probabilities(scores: np.ndarray) -> np.ndarray:
    """(n, K) probabilities of each class: [1 − σ(z), σ(z)] for one score a row, else the softmax."""
    scores = np.asarray(scores, dtype=float)
    if scores.ndim == 2:
        return softmax(scores)
    p = probability(scores)
    return np.column_stack([1.0 - p, p])


def confusion_matrix(scores: np.ndarray, labels: np.ndarray, classes: int) -> np.ndarray:
    """``m[true, predicted]`` counts (K × K integers)."""
    pred = predict(scores)
    labels = np.asarray(labels, dtype=int)
    m = np.zeros((classes, classes), dtype=int)
    np.add.at(m, (labels, np.clip(pred, 0, classes - 1)), 1)
    return m


def confusion_from_predictions(predicted: np.ndarray, labels: np.ndarray, classes: int) -> np.ndarray:
    """``m[true, predicted]`` counts from predicted classes (K × K integers)."""
    predicted = np.clip(np.asarray(predicted, dtype=int), 0, classes - 1)
    labels = np.asarray(labels, dtype=int)
    return np.bincount(labels * classes + predicted, minlength=classes * classes).reshape(classes, classes)


def per_class_accuracy(matrix: np.ndarray) -> list[float | None]:
    """Each class's recall from a confusion matrix: right / points of that class (None for an absent class)."""
    matrix = np.asarray(matrix)
    totals = matrix.sum(axis=1)
    return [float(matrix[k, k] / totals[k]) if totals[k] else None for k in range(len(matrix))]


def accuracy(scores: np.ndarray, labels: np.ndarray) -> float:
    """Fraction of samples whose predicted class equals the label."""
    labels = np.asarray(labels)
    if labels.size == 0:
        raise ValueError("accuracy needs at least one sample")
    return float(np.mean(predict(scores) == labels))


def probability(scores: np.ndarray) -> np.ndarray:
    """σ(score): the model's probability of class 1 (the decision boundary is 0.5)."""
    return sigmoid_array(scores)
