"""Decision regions on a grid: class probabilities, the winning class, its confidence, the boundaries.

One pipeline for every view that paints a model over the plane: the live
boundary map (computed in the training process) and anything else that
wants the same picture.  No Qt: colours come in as RGB triples (the GUI's
theme palette) and go out as an RGBA array.

- Two classes (one logit): ``probability`` is P(class 1) = σ(score) and the
  boundary is its 0.5 level.
- K > 2 classes (K scores): ``probabilities`` is the softmax, ``winner`` the
  arg-max, ``confidence`` its probability (1/K … 1) and the boundaries are
  the zero levels of each class's margin ``s_k − max_{j≠k} s_j`` (where
  class k stops winning), traced by marching squares.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from autograd_core.losses import class_probabilities


@dataclass
class RegionGrid:
    """A model's classes over a regular grid; ``[i, j]`` is at x = xs[j], y = ys[i] (row-major, y up)."""

    extent: tuple[float, float, float, float]  # x0, x1, y0, y1
    classes: int
    probabilities: np.ndarray  # (ny, nx, K) float32
    winner: np.ndarray  # (ny, nx) uint8: the predicted class
    confidence: np.ndarray  # (ny, nx) float32: the predicted class's probability
    boundary_x: np.ndarray  # boundary segments as point pairs (draw with connect="pairs")
    boundary_y: np.ndarray

    @property
    def probability(self) -> np.ndarray:
        """P(class 1) for two classes; the confidence otherwise."""
        return self.probabilities[:, :, 1] if self.classes == 2 else self.confidence


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
    A saddle cell is split the way its centre value says.
    """
    v = np.asarray(values, dtype=float)
    above = v >= level
    v00, v01, v10, v11 = v[:-1, :-1], v[:-1, 1:], v[1:, :-1], v[1:, 1:]
    a00, a01, a10, a11 = above[:-1, :-1], above[:-1, 1:], above[1:, :-1], above[1:, 1:]
    x0, x1 = xs[:-1][None, :], xs[1:][None, :]
    y0, y1 = ys[:-1][:, None], ys[1:][:, None]

    def cross(va, vb):
        with np.errstate(divide="ignore", invalid="ignore"):
            t = (level - va) / (vb - va)
        return np.clip(np.nan_to_num(t, nan=0.5), 0.0, 1.0)

    shape = v00.shape
    # Crossing points on the four edges: bottom (00–01), right (01–11), top (10–11), left (00–10).
    t = cross(v00, v01)
    bottom = (x0 + t * (x1 - x0), np.broadcast_to(y0, shape))
    t = cross(v01, v11)
    right = (np.broadcast_to(x1, shape), y0 + t * (y1 - y0))
    t = cross(v10, v11)
    top = (x0 + t * (x1 - x0), np.broadcast_to(y1, shape))
    t = cross(v00, v10)
    left = (np.broadcast_to(x0, shape), y0 + t * (y1 - y0))
    edges = [bottom, right, top, left]
    hits = np.stack([a00 != a01, a01 != a11, a10 != a11, a00 != a10])  # (4, ny-1, nx-1)
    count = hits.sum(axis=0)

    xs_out, ys_out = [], []
    two = count == 2
    if two.any():
        idx = np.argsort(~hits[:, two], axis=0, kind="stable")[:2]  # the two crossed edges, in edge order
        ex = np.stack([np.broadcast_to(e[0], shape)[two] for e in edges])
        ey = np.stack([np.broadcast_to(e[1], shape)[two] for e in edges])
        cols = np.arange(two.sum())
        xs_out.append(np.column_stack([ex[idx[0], cols], ex[idx[1], cols]]).ravel())
        ys_out.append(np.column_stack([ey[idx[0], cols], ey[idx[1], cols]]).ravel())
    four = count == 4
    if four.any():
        centre_above = ((v00 + v01 + v10 + v11) / 4 >= level)[four]
        joined = centre_above == a00[four]  # corners 00 and 11 connected: cut off corners 01 and 10
        b, r, tp, lf = ([np.broadcast_to(c, shape)[four] for c in e] for e in edges)
        first_a = np.where(joined[:, None], np.column_stack(b), np.column_stack(b))
        first_b = np.where(joined[:, None], np.column_stack(r), np.column_stack(lf))
        second_a = np.where(joined[:, None], np.column_stack(tp), np.column_stack(r))
        second_b = np.where(joined[:, None], np.column_stack(lf), np.column_stack(tp))
        for pa, pb in ((first_a, first_b), (second_a, second_b)):
            xs_out.append(np.column_stack([pa[:, 0], pb[:, 0]]).ravel())
            ys_out.append(np.column_stack([pa[:, 1], pb[:, 1]]).ravel())
    if not xs_out:
        return np.empty(0), np.empty(0)
    return np.concatenate(xs_out), np.concatenate(ys_out)


def regions_from_scores(scores: np.ndarray, extent: tuple[float, float, float, float], resolution: int) -> RegionGrid:
    """The regions of raw scores on the grid (one score or K scores per grid point, in ``grid_points`` order)."""
    xs, ys = grid_axes(extent, resolution)
    scores = np.asarray(scores, dtype=float)
    with np.errstate(all="ignore"):
        probs = np.nan_to_num(class_probabilities(scores), nan=0.0)
    k = probs.shape[1]
    if scores.ndim == 1:
        probs[~np.isfinite(scores)] = 0.5
    probs = probs.reshape(resolution, resolution, k)
    winner = np.argmax(probs, axis=2).astype(np.uint8)
    confidence = np.max(probs, axis=2)
    if k == 2:
        bx, by = contour_segments(probs[:, :, 1], 0.5, xs, ys)
    else:
        s = np.nan_to_num(scores.reshape(resolution, resolution, k), nan=0.0, posinf=1e300, neginf=-1e300)
        parts_x, parts_y = [], []
        # Class k's margin over its best rival: 0 where it stops winning.  Classes 0 … K−2 cover every boundary.
        top2 = np.sort(s, axis=2)[:, :, -2:]
        for c in range(k - 1):
            rival = np.where(s[:, :, c] >= top2[:, :, 1], top2[:, :, 0], top2[:, :, 1])
            cx, cy = contour_segments(s[:, :, c] - rival, 0.0, xs, ys)
            parts_x.append(cx)
            parts_y.append(cy)
        bx, by = np.concatenate(parts_x), np.concatenate(parts_y)
    return RegionGrid(
        extent=tuple(float(v) for v in extent),
        classes=k,
        probabilities=probs.astype(np.float32),
        winner=winner,
        confidence=confidence.astype(np.float32),
        boundary_x=bx,
        boundary_y=by,
    )


def class_regions(model, extent: tuple[float, float, float, float], resolution: int = 90, weights=None) -> RegionGrid:
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
    """RGBA (ny, nx, 4) uint8: each point in its class's colour, its intensity the confidence.

    Intensity runs from 0 at chance (1/K) to ``strength`` at certainty, mixed
    into ``background`` so the points drawn on top stay readable; ``discrete``
    paints every point at full ``strength``.
    """
    k = grid.classes
    if len(palette) < k:
        raise ValueError(f"{k} classes need {k} colours, got {len(palette)}")
    colours = np.asarray(palette[:k], dtype=np.float32)
    back = np.asarray(background, dtype=np.float32)
    if discrete:
        weight = np.full(grid.winner.shape, strength, dtype=np.float32)
    else:
        weight = strength * np.clip((grid.confidence - 1.0 / k) / (1.0 - 1.0 / k), 0.0, 1.0)
    rgb = back + (colours[grid.winner] - back) * weight[:, :, None]
    out = np.empty((*grid.winner.shape, 4), dtype=np.uint8)
    out[:, :, :3] = np.clip(np.rint(rgb), 0, 255).astype(np.uint8)
    out[:, :, 3] = 255
    return out
