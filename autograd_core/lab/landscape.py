"""A network's loss landscape: the training loss over a 2-D slice of weight space, and the path through it.

Following Li et al. 2018, "Visualizing the Loss Landscape of Neural Nets": pick
two random directions d₁, d₂ in weight space, rescale each neuron's part of them
to the norm of that neuron's incoming weights (*filter normalization*: a
direction moves every neuron by the same relative amount, so layers of very
different scales are comparable), and evaluate

    L(α, β) = loss(θ + α·d₁ + β·d₂)

on a grid of (α, β).  As in their code, biases are not perturbed (their
direction is 0).  Alternatively the plane is spanned by the top two principal
directions of the training path itself (PCA of θₜ − θ, also from Li et al.),
which shows the path with as little distortion as two directions can.

The grid is evaluated with a batched numpy forward (each op's numpy twin, the
same as ``MLP.forward_array`` gives, to 1e-12) over many weight settings at
once; the training path (a list of flattened weight vectors) is projected onto
the plane by least squares.

Weights are handled as ``[(W, b)]`` per layer (``MLP.weight_arrays``) and
flattened neuron by neuron, each row of W then its bias: the order of
``MLP.parameters()`` and ``state_dict()``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from autograd_core.lab.surfaces import log_levels
from autograd_core.learn.losses import loss_array
from autograd_core.learn.nn import activate_array

MODES = ("random", "pca")
MAX_HISTORY = 2_000  # weight vectors a path keeps (thinned to every other one when full)
CHUNK_FLOATS = 2_000_000  # activations held at once by the batched forward (~16 MB)

Weights = Sequence[tuple[np.ndarray, np.ndarray]]


def flatten_weights(weights: Weights) -> np.ndarray:
    """One vector, neuron by neuron (its weights then its bias), as ``MLP.state_dict()``."""
    return np.concatenate([np.column_stack([W, b]).ravel() for W, b in weights])


def unflatten_weights(vector: np.ndarray, like: Weights) -> list[tuple[np.ndarray, np.ndarray]]:
    """The inverse of ``flatten_weights`` for arrays shaped as ``like``."""
    vector = np.asarray(vector, dtype=float)
    out, at = [], 0
    for W, _b in like:
        nout, nin = W.shape
        block = vector[at : at + nout * (nin + 1)].reshape(nout, nin + 1)
        out.append((block[:, :nin].copy(), block[:, nin].copy()))
        at += nout * (nin + 1)
    if at != vector.size:
        raise ValueError(f"a vector of {vector.size} numbers does not fit weights of {at}")
    return out


def filter_normalize(direction: Weights, weights: Weights) -> list[tuple[np.ndarray, np.ndarray]]:
    """Each neuron's row of ``direction`` rescaled to the norm of the same neuron's weights; biases 0.

    A neuron whose direction row is zero stays zero (nothing to rescale).
    """
    out = []
    for (dW, _db), (W, b) in zip(direction, weights):
        dW = np.asarray(dW, dtype=float)
        row = np.linalg.norm(dW, axis=1, keepdims=True)
        target = np.linalg.norm(np.asarray(W, dtype=float), axis=1, keepdims=True)
        scale = np.divide(target, row, out=np.zeros_like(row), where=row > 0)
        out.append((dW * scale, np.zeros_like(np.asarray(b, dtype=float))))
    return out


def random_direction(weights: Weights, rng: np.random.Generator) -> list[tuple[np.ndarray, np.ndarray]]:
    """A Gaussian direction, filter-normalized to ``weights``."""
    raw = [(rng.standard_normal(np.shape(W)), np.zeros(np.shape(b))) for W, b in weights]
    return filter_normalize(raw, weights)


def pca_directions(history: np.ndarray, center: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The top two principal directions of the path's offsets from ``center`` (unit vectors) and their
    share of the variance; a path too short or too straight for two gets a random second one."""
    offsets = np.asarray(history, dtype=float) - center
    if len(offsets) >= 2 and np.any(offsets):
        _u, s, vt = np.linalg.svd(offsets, full_matrices=False)
        variance = s**2 / max(float(np.sum(s**2)), 1e-300)
        d1 = vt[0]
        d2 = vt[1] if len(vt) > 1 and s[1] > 1e-12 * s[0] else None
    else:
        variance, d1, d2 = np.array([1.0]), None, None
    rng = np.random.default_rng(0)
    if d1 is None:
        d1 = rng.standard_normal(center.size)
        d1 /= np.linalg.norm(d1)
    if d2 is None:
        d2 = rng.standard_normal(center.size)
        d2 -= d1 * (d2 @ d1)
        d2 /= np.linalg.norm(d2)
    shares = np.zeros(2)
    shares[: min(2, len(variance))] = variance[:2]
    return d1, d2, shares


def project_path(history: np.ndarray, center: np.ndarray, d1: np.ndarray, d2: np.ndarray) -> np.ndarray:
    """Coordinates (α, β) of each θₜ in the plane θ + α·d₁ + β·d₂, by least squares (rows: steps)."""
    basis = np.column_stack([d1, d2])
    offsets = (np.asarray(history, dtype=float) - center).T
    coords, *_ = np.linalg.lstsq(basis, offsets, rcond=None)
    return coords.T


def batched_scores(
    X: np.ndarray, weight_sets: list[list[tuple[np.ndarray, np.ndarray]]], activation: str, output_activation: str
) -> np.ndarray:
    """The network's outputs for many weight settings at once: (settings, rows, outputs).

    ``weight_sets[l] = (W, b)`` with W of shape (settings, nout, nin) and b
    (settings, nout); the same layers as ``MLP.forward_array``.
    """
    X = np.asarray(X, dtype=float)
    last = len(weight_sets) - 1
    a = None
    for i, (W, b) in enumerate(weight_sets):
        if a is None:
            z = np.einsum("sn,gon->gso", X, W, optimize=True)
        else:
            z = np.matmul(a, np.swapaxes(W, 1, 2))
        z += b[:, None, :]
        a = activate_array(z, activation if i < last else output_activation)
    return a


@dataclass
class Landscape:
    """L on a grid of the plane θ + α·d₁ + β·d₂: ``losses[i, j]`` at α = alphas[j], β = betas[i]."""

    alphas: np.ndarray
    betas: np.ndarray
    losses: np.ndarray
    levels: np.ndarray
    path: np.ndarray  # (steps, 2): the training path's (α, β), oldest first; the last row is now
    path_steps: np.ndarray  # the training step of each path row
    center_loss: float
    mode: str
    seed: int
    span: float
    step: int = 0  # the training step the center is at
    seconds: float = 0.0  # how long the grid took
    variance: tuple[float, float] | None = None  # PCA: share of the path's variance along d₁, d₂

    @property
    def extent(self) -> tuple[float, float, float, float]:
        return float(self.alphas[0]), float(self.alphas[-1]), float(self.betas[0]), float(self.betas[-1])


def loss_landscape(
    model,
    X: np.ndarray,
    y: np.ndarray,
    loss: str,
    *,
    weights: Weights | None = None,
    history: np.ndarray | None = None,
    history_steps: Sequence[int] | None = None,
    mode: str = "random",
    resolution: int = 41,
    span: float = 1.0,
    seed: int = 0,
    step: int = 0,
) -> Landscape:
    """The data loss over a ``resolution``² grid of the plane through ``weights`` (the model's by default).

    ``mode`` "random": two filter-normalized Gaussian directions (``seed``), α
    and β in [−span, span]; "pca": the path's two principal directions, the
    grid wide enough to hold the whole path (``span`` × its reach).  ``history``
    (rows of flattened weights, oldest first) is projected onto the plane.
    """
    import time

    if mode not in MODES:
        raise ValueError(f"unknown landscape mode {mode!r}; choose one of {', '.join(MODES)}")
    resolution = int(resolution)
    if not 3 <= resolution <= 401:
        raise ValueError("the landscape's resolution must be between 3 and 401")
    if not (math.isfinite(span) and span > 0):
        raise ValueError("the landscape's span must be a positive number")
    began = time.perf_counter()
    weights = [(np.asarray(W, dtype=float), np.asarray(b, dtype=float)) for W, b in (weights or model.weight_arrays())]
    center = flatten_weights(weights)
    history = np.empty((0, center.size)) if history is None else np.asarray(history, dtype=float)
    steps = np.arange(len(history)) if history_steps is None else np.asarray(history_steps)
    variance = None
    if mode == "random":
        rng = np.random.default_rng(seed)
        d1 = flatten_weights(random_direction(weights, rng))
        d2 = flatten_weights(random_direction(weights, rng))
        path = project_path(history, center, d1, d2) if len(history) else np.zeros((0, 2))
        reach = span
    else:
        d1, d2, shares = pca_directions(history, center)
        variance = (float(shares[0]), float(shares[1]))
        path = project_path(history, center, d1, d2) if len(history) else np.zeros((0, 2))
        extent = float(np.max(np.abs(path))) if len(path) else 0.0
        reach = span * (1.25 * extent if extent > 0 else 0.1 * max(float(np.linalg.norm(center)), 1.0))
    alphas = np.linspace(-reach, reach, resolution)
    betas = np.linspace(-reach, reach, resolution)
    A, B = np.meshgrid(alphas, betas)
    a_flat, b_flat = A.ravel(), B.ravel()
    dirs1, dirs2 = unflatten_weights(d1, weights), unflatten_weights(d2, weights)
    X = np.asarray(X, dtype=float)
    y = np.asarray(y)
    widest = max(W.shape[0] for W, _ in weights)
    chunk = max(1, CHUNK_FLOATS // max(1, len(X) * widest))
    losses = np.empty(a_flat.size)
    activation, output_activation = model.activation, model.output_activation
    with np.errstate(all="ignore"):
        for start in range(0, a_flat.size, chunk):
            ga = a_flat[start : start + chunk, None, None]
            gb = b_flat[start : start + chunk, None, None]
            sets = [
                (W[None] + ga * dW1[None] + gb * dW2[None], b[None] + ga[:, :, 0] * db1[None] + gb[:, :, 0] * db2[None])
                for (W, b), (dW1, db1), (dW2, db2) in zip(weights, dirs1, dirs2)
            ]
            scores = batched_scores(X, sets, activation, output_activation)
            for g in range(scores.shape[0]):
                s = scores[g]
                losses[start + g] = loss_array(loss, s[:, 0] if s.shape[1] == 1 else s, y)
    losses = losses.reshape(A.shape)
    center_scores = batched_scores(X, [(W[None], b[None]) for W, b in weights], activation, output_activation)[0]
    center_loss = loss_array(loss, center_scores[:, 0] if center_scores.shape[1] == 1 else center_scores, y)
    return Landscape(
        alphas=alphas,
        betas=betas,
        losses=losses,
        levels=log_levels(losses),
        path=path,
        path_steps=steps,
        center_loss=float(center_loss),
        mode=mode,
        seed=seed,
        span=float(reach),
        step=int(step),
        seconds=time.perf_counter() - began,
        variance=variance,
    )


class WeightHistory:
    """The training path as flattened weight vectors, at most ``limit`` of them (thinned evenly when full)."""

    def __init__(self, limit: int = MAX_HISTORY):
        self.limit = max(2, int(limit))
        self.vectors: list[np.ndarray] = []
        self.steps: list[int] = []
        self.stride = 1

    def clear(self) -> None:
        self.vectors, self.steps, self.stride = [], [], 1

    def record(self, step: int, vector) -> None:
        if self.steps and (self.steps[-1] % self.stride or self.steps[-1] == step):
            self.vectors.pop()  # the previous newest was off-stride: replaced by this one
            self.steps.pop()
        self.vectors.append(np.asarray(vector, dtype=float))
        self.steps.append(int(step))
        if len(self.vectors) > self.limit:
            self.stride *= 2
            keep = [i for i, s in enumerate(self.steps) if s % self.stride == 0 or i == len(self.steps) - 1]
            self.vectors = [self.vectors[i] for i in keep]
            self.steps = [self.steps[i] for i in keep]

    def array(self) -> np.ndarray:
        return np.array(self.vectors) if self.vectors else np.zeros((0, 0))
