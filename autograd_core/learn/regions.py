"""Decision regions on a grid: class probabilities, the winning class, its confidence, the boundaries.

One pipeline for every view that paints a model over the plane: the
training service evaluates a ``RegionGrid`` and sends it as it is in its
snapshots; the live boundary map and the PNG export both turn it into
pixels with ``region_rgba``.  No Qt: colors come in as RGB triples (the
GUI's theme palette) and go out as an RGBA array.

- Two classes (one logit): ``probability`` is P(class 1) = σ(score) and the
  boundary is its 0.5 level; painted on a three-color ramp.
- K > 2 classes (K scores): the softmax's arg-max is the ``winner`` and its
  probability the ``confidence`` (1/K … 1); the boundaries are the zero
  levels of each class's margin ``s_k − max_{j≠k} s_j`` (where class k stops
  winning), traced by marching squares.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from autograd_core.engine.ops import softmax_array
from autograd_core.learn.losses import class_probabilities

if TYPE_CHECKING:
    from autograd_core.learn.data import Dataset

GRID_RESOLUTION = 90  # points per side of the live map (the training service's grid)


@dataclass
class RegionGrid:
    """A model's classes over a regular grid; ``[i, j]`` is at x = xs[j], y = ys[i] (row-major, y up).

    It crosses the pipe in every snapshot, so it holds one float32 number a
    point and derives the rest: for two classes the winner and confidence
    come from P(class 1); for K classes only the winner is stored beside the
    confidence (the full (ny, nx, K) softmax would be K times the bytes).
    """

    extent: tuple[float, float, float, float]  # x0, x1, y0, y1
    classes: int
    probability: np.ndarray  # (ny, nx) float32: P(class 1) for two classes, the winner's probability for K
    boundary_x: np.ndarray  # boundary segments as point pairs (draw with connect="pairs")
    boundary_y: np.ndarray
    predicted: np.ndarray | None = None  # K > 2: the winning class (ny, nx) uint8; two classes: None (P > 0.5)

    @property
    def winner(self) -> np.ndarray:
        """The predicted class at each point (uint8)."""
        if self.predicted is not None:
            return self.predicted
        return (self.probability > 0.5).astype(np.uint8)

    @property
    def confidence(self) -> np.ndarray:
        """The predicted class's probability: max(p, 1 − p) for two classes."""
        if self.classes > 2:
            return self.probability
        return np.maximum(self.probability, np.float32(1.0) - self.probability)


def grid_axes(extent: tuple[float, float, float, float], resolution: int) -> tuple[np.ndarray, np.ndarray]:
    x0, x1, y0, y1 = extent
    return np.linspace(x0, x1, resolution), np.linspace(y0, y1, resolution)


def grid_points(extent: tuple[float, float, float, float], resolution: int) -> np.ndarray:
    """The grid's points as rows (x, y), row-major with y up: the order of the region arrays."""
    xs, ys = grid_axes(extent, resolution)
    gx, gy = np.meshgrid(xs, ys)
    return np.column_stack([gx.ravel(), gy.ravel()])


def contour_segments(values: np.ndarray, level: float, xs: np.ndarray, ys: np.ndarray):
    """Marching squares, vectorised: the ``level`` line of ``values[i, j]`` (at xs[j], ys[i]) as point pairs.

    Returns (x, y) arrays of even length; points 2k and 2k+1 are one segment.
    A saddle cell is split the way its center value says.  Only the cells the
    line crosses are interpolated (a few hundred of a 200² grid), so a frame
    costs about a millisecond.
    """
    v = np.asarray(values, dtype=float)
    above = v >= level
    crossed = (
        (above[:-1, :-1] != above[:-1, 1:])
        | (above[:-1, 1:] != above[1:, 1:])
        | (above[1:, :-1] != above[1:, 1:])
        | (above[:-1, :-1] != above[1:, :-1])
    )
    ii, jj = np.nonzero(crossed)
    if not len(ii):
        return np.empty(0), np.empty(0)
    v00, v01, v10, v11 = v[ii, jj], v[ii, jj + 1], v[ii + 1, jj], v[ii + 1, jj + 1]
    a00, a01, a10, a11 = above[ii, jj], above[ii, jj + 1], above[ii + 1, jj], above[ii + 1, jj + 1]
    x0, x1, y0, y1 = xs[jj], xs[jj + 1], ys[ii], ys[ii + 1]

    def cross(va, vb):
        with np.errstate(divide="ignore", invalid="ignore"):
            t = (level - va) / (vb - va)
        return np.clip(np.nan_to_num(t, nan=0.5), 0.0, 1.0)

    # Crossing points on the four edges: bottom (00–01), right (01–11), top (10–11), left (00–10).
    bottom = (x0 + cross(v00, v01) * (x1 - x0), y0)
    right = (x1, y0 + cross(v01, v11) * (y1 - y0))
    top = (x0 + cross(v10, v11) * (x1 - x0), y1)
    left = (x0, y0 + cross(v00, v10) * (y1 - y0))
    edges = [bottom, right, top, left]
    hits = np.stack([a00 != a01, a01 != a11, a10 != a11, a00 != a10])  # (4, cells)
    count = hits.sum(axis=0)
    ex = np.stack([e[0] for e in edges])
    ey = np.stack([e[1] for e in edges])

    xs_out, ys_out = [], []
    two = count == 2
    if two.any():
        idx = np.argsort(~hits[:, two], axis=0, kind="stable")[:2]  # the two crossed edges, in edge order
        cols = np.arange(two.sum())
        ex2, ey2 = ex[:, two], ey[:, two]
        xs_out.append(np.column_stack([ex2[idx[0], cols], ex2[idx[1], cols]]).ravel())
        ys_out.append(np.column_stack([ey2[idx[0], cols], ey2[idx[1], cols]]).ravel())
    four = count == 4
    if four.any():
        center_above = ((v00 + v01 + v10 + v11) / 4 >= level)[four]
        joined = center_above == a00[four]  # corners 00 and 11 connected: cut off corners 01 and 10
        b, r, tp, lf = (np.column_stack([ex[e, four], ey[e, four]]) for e in range(4))
        first_a = b
        first_b = np.where(joined[:, None], r, lf)
        second_a = np.where(joined[:, None], tp, r)
        second_b = np.where(joined[:, None], lf, tp)
        for pa, pb in ((first_a, first_b), (second_a, second_b)):
            xs_out.append(np.column_stack([pa[:, 0], pb[:, 0]]).ravel())
            ys_out.append(np.column_stack([pa[:, 1], pb[:, 1]]).ravel())
    return np.concatenate(xs_out), np.concatenate(ys_out)


def regions_from_scores(scores: np.ndarray, extent: tuple[float, float, float, float], resolution: int) -> RegionGrid:
    """The regions of raw scores on the grid (one score or K scores per grid point, in ``grid_points`` order).

    Made for one frame of a live view (a 200² grid of six classes in a few ms): one exponential per score,
    the winner by arg-max, and marching squares only for the classes that win somewhere.
    """
    xs, ys = grid_axes(extent, resolution)
    scores = np.asarray(scores, dtype=float)
    shape = (resolution, resolution)
    if scores.ndim == 1:
        with np.errstate(all="ignore"):
            p1 = np.nan_to_num(class_probabilities(scores)[:, 1], nan=0.5).reshape(shape)
        bx, by = contour_segments(p1, 0.5, xs, ys)
        return RegionGrid(tuple(float(v) for v in extent), 2, p1.astype(np.float32), bx, by)
    k = scores.shape[1]
    if not np.isfinite(scores).all():
        scores = np.nan_to_num(scores, nan=0.0, posinf=1e300, neginf=-1e300)
    # Class-major (K rows of n points): every reduction over the classes is then K element-wise passes,
    # several times faster than reducing a short last axis.
    S = np.ascontiguousarray(scores.T)
    top = S[0].copy()
    winner = np.zeros(len(top), dtype=np.intp)
    for c in range(1, k):
        better = S[c] > top
        winner[better] = c
        np.maximum(top, S[c], out=top)
    second = np.full_like(top, -np.inf)
    for c in range(k):
        np.maximum(second, np.where(winner == c, -np.inf, S[c]), out=second)
    confidence = softmax_array(S, axis=0).max(axis=0).reshape(shape)  # the winner's probability
    present = np.flatnonzero(np.bincount(winner, minlength=k))
    parts_x, parts_y = [np.empty(0)], [np.empty(0)]
    # Class c's margin over its best rival is 0 where it stops winning; all winners but one cover every boundary.
    for c in present[:-1].tolist():
        margin = np.where(winner == c, S[c] - second, S[c] - top).reshape(shape)
        cx, cy = contour_segments(margin, 0.0, xs, ys)
        parts_x.append(cx)
        parts_y.append(cy)
    return RegionGrid(
        extent=tuple(float(v) for v in extent),
        classes=k,
        probability=confidence.astype(np.float32),
        boundary_x=np.concatenate(parts_x),
        boundary_y=np.concatenate(parts_y),
        predicted=winner.astype(np.uint8).reshape(shape),
    )


def class_regions(
    model, extent: tuple[float, float, float, float], resolution: int = GRID_RESOLUTION, weights=None
) -> RegionGrid:
    """Evaluate ``model`` (an ``nn.MLP``) on the grid with its vectorised forward pass."""
    scores = model.forward_array(grid_points(extent, resolution), weights=weights)
    return regions_from_scores(scores, extent, resolution)


def region_image(
    grid: RegionGrid,
    palette: list[tuple[int, int, int]],
    background: tuple[int, int, int] = (255, 255, 255),
    strength: float = 0.6,
    discrete: bool = False,
) -> np.ndarray:
    """RGBA (ny, nx, 4) uint8: each point in its class's color, its intensity the confidence.

    Intensity runs from 0 at chance (1/K) to ``strength`` at certainty, mixed
    into ``background`` so the points drawn on top stay readable; ``discrete``
    paints every point at full ``strength``.
    """
    k = grid.classes
    if len(palette) < k:
        raise ValueError(f"{k} classes need {k} colors, got {len(palette)}")
    colors = np.asarray(palette[:k], dtype=np.float32)
    back = np.asarray(background, dtype=np.float32)
    if discrete:
        weight = np.full(grid.winner.shape, strength, dtype=np.float32)
    else:
        weight = strength * np.clip((grid.confidence - 1.0 / k) / (1.0 - 1.0 / k), 0.0, 1.0)
    rgb = back + (colors[grid.winner] - back) * weight[:, :, None]
    out = np.empty((*grid.winner.shape, 4), dtype=np.uint8)
    out[:, :, :3] = np.clip(np.rint(rgb), 0, 255).astype(np.uint8)
    out[:, :, 3] = 255
    return out


def probability_ramp(values: np.ndarray, ramp) -> np.ndarray:
    """RGBA (…, 4) uint8 of probabilities on a ramp of three RGB colors (at 0, 0.5 and 1).

    Linear between the colors and truncated to bytes, as pyqtgraph's
    ``ColorMap.map(mode="byte")`` does, so the map matches its color bar.
    """
    stops = np.asarray(ramp, dtype=float)
    if stops.shape != (3, 3):
        raise ValueError(f"a probability ramp is three RGB colors, got shape {stops.shape}")
    v = np.asarray(values, dtype=float)
    out = np.empty((*v.shape, 4), dtype=np.uint8)
    for c in range(3):
        out[..., c] = np.interp(v, (0.0, 0.5, 1.0), stops[:, c])
    out[..., 3] = 255
    return out


def region_rgba(
    grid: RegionGrid,
    palette: list[tuple[int, int, int]],
    background: tuple[int, int, int] = (255, 255, 255),
    ramp=None,
    discrete: bool = False,
    strength: float = 0.6,
) -> np.ndarray:
    """The picture of ``grid`` as RGBA (ny, nx, 4) uint8, rows as the grid's (y up): the live map's and the PNG's.

    Two classes with a ``ramp``: P(class 1) on it (``discrete``: each point at
    its predicted class's end).  Otherwise (K classes, or no ramp) each point in
    its class's ``palette`` color, its intensity the confidence (``region_image``).
    """
    if grid.classes == 2 and ramp is not None:
        return probability_ramp(grid.winner if discrete else grid.probability, ramp)
    return region_image(grid, palette, background, strength, discrete)


GRID_MARGIN = 0.15  # fraction of the data range added on each side


def square_extent(extent: tuple[float, float, float, float]) -> tuple[float, float, float, float]:
    """Widen the shorter side so the map is square: with equal axis scales it then fills its plot."""
    x0, x1, y0, y1 = extent
    half = max(x1 - x0, y1 - y0) / 2
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    return (cx - half, cx + half, cy - half, cy + half)


def map_extent(dataset: Dataset) -> tuple[float, float, float, float]:
    """Where the boundary map of ``dataset`` lies: its bounds with a margin, made square.

    Computed once, by the training service: the snapshot's ``RegionGrid.extent`` carries it to every view.
    """
    return square_extent(dataset.bounds(margin=GRID_MARGIN))
