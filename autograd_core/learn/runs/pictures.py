"""A run's final picture: its decision regions on a small grid (classification) or its fitted curve
(regression), with a sample of the training points."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

import numpy as np

from autograd_core.learn.data import MAX_CLASSES
from autograd_core.learn.regions import RegionGrid
from autograd_core.learn.runs.checks import (
    MAX_FIT_POINTS,
    MAX_PICTURE_POINTS,
    MAX_PICTURE_SIZE,
    even_picks,
    is_finite,
    is_point,
    is_whole,
    short_repr,
    whole_numbers,
)
from autograd_core.numbers import plural

# ------------------------------------------------------------------ pictures


@dataclass
class RunPicture:
    """A small picture of a run's final decision regions ("classes") or of its fitted curve ("fit")."""

    kind: str
    extent: tuple[float, float, float, float]
    size: int = 0
    labels: list[int] = field(default_factory=list)
    confidence: list[int] = field(default_factory=list)
    points: list[list[float]] = field(default_factory=list)
    curve: list[list[float]] = field(default_factory=list)

    def to_dict(self) -> dict:
        return {  # not dataclasses.asdict: it deep-copies every cell and point, 10× slower
            "kind": self.kind,
            "extent": list(self.extent),
            "size": self.size,
            "labels": list(self.labels),
            "confidence": list(self.confidence),
            "points": [list(p) for p in self.points],
            "curve": [list(p) for p in self.curve],
        }

    @classmethod
    def from_dict(cls, d) -> RunPicture:
        """Checked like a file: counts before contents; ValueError with a sentence."""
        if not isinstance(d, dict):
            raise ValueError("a run's picture must be an object")
        unknown = sorted(set(d) - {f.name for f in dataclasses.fields(cls)})
        if unknown:
            raise ValueError(
                f"a run's picture has unknown {plural(len(unknown), 'field')} {', '.join(map(str, unknown))[:200]}"
            )
        kind = d.get("kind")
        if kind not in ("classes", "fit"):
            raise ValueError(f"a run's picture kind must be classes or fit, got {short_repr(kind)}")
        extent = d.get("extent")
        if not isinstance(extent, list) or len(extent) != 4 or not all(is_finite(v) for v in extent):
            raise ValueError("a run's picture extent must be four finite numbers x0, x1, y0, y1")
        x0, x1, y0, y1 = (float(v) for v in extent)
        if not (x0 < x1 and y0 < y1):
            raise ValueError("a run's picture extent must have x0 < x1 and y0 < y1")
        size = d.get("size", 0)
        if not is_whole(size) or not 0 <= size <= MAX_PICTURE_SIZE:
            raise ValueError(f"a run's picture size must be a whole number from 0 to {MAX_PICTURE_SIZE}")
        labels, confidence = d.get("labels", []), d.get("confidence", [])
        points, curve = d.get("points", []), d.get("curve", [])
        for name, value, most in (
            ("labels", labels, size * size),
            ("confidence", confidence, size * size),
            ("points", points, MAX_PICTURE_POINTS),
            ("curve", curve, MAX_FIT_POINTS),
        ):
            if not isinstance(value, list) or len(value) > most:
                raise ValueError(f"a run's picture {name} must be a list of at most {most:,} items")
        if kind == "classes":
            cells = size * size
            if len(labels) != cells or len(confidence) != cells:
                raise ValueError(f"a run's picture of {size}×{size} cells needs {cells:,} labels and confidences")
            if not whole_numbers(labels, 0, MAX_CLASSES - 1):
                raise ValueError(f"a run's picture labels must be classes from 0 to {MAX_CLASSES - 1}")
            if not whole_numbers(confidence, 0, 100):
                raise ValueError("a run's picture confidences must be whole percentages from 0 to 100")
            if curve:
                raise ValueError("a run's picture of classes has no curve")
            if not all(is_point(p, 3) and is_whole(p[2]) and 0 <= p[2] < MAX_CLASSES for p in points):
                raise ValueError("a run's picture points must be [x, y, class] with finite x, y")
        else:
            if size or labels or confidence:
                raise ValueError("a run's picture of a fit has no cells")
            if not all(is_point(p, 2) for p in points) or not all(is_point(p, 2) for p in curve):
                raise ValueError("a run's picture of a fit holds [x, y] points with finite x, y")
        return cls(
            kind,
            (x0, x1, y0, y1),
            size,
            list(labels),
            list(confidence),
            [[float(p[0]), float(p[1]), *([int(p[2])] if kind == "classes" else [])] for p in points],
            [[float(x), float(y)] for x, y in curve],
        )

    def nbytes(self) -> int:
        # small ints are shared by Python: a list slot each; a point is a list of two or three floats
        return 400 + 8 * (len(self.labels) + len(self.confidence)) + 140 * (len(self.points) + len(self.curve))


def _sample_points(points_xy, labels=None) -> list[list[float]]:
    xy = np.asarray(points_xy, dtype=float).reshape(-1, 2)
    keep = [i for i in even_picks(len(xy), MAX_PICTURE_POINTS) if np.isfinite(xy[i]).all()]
    if labels is None:
        return [[float(xy[i, 0]), float(xy[i, 1])] for i in keep]
    labels = np.asarray(labels).reshape(-1)
    return [[float(xy[i, 0]), float(xy[i, 1]), int(labels[i])] for i in keep]


def picture_from_grid(grid: RegionGrid, points_xy, labels, size: int = 40) -> RunPicture:
    """A ``size``×``size`` picture of a snapshot's regions: each cell is the grid point nearest to it.

    Two classes: the label is P(class 1) > 0.5 and the confidence max(p, 1 − p);
    K classes: the grid's winner and its probability.
    """
    if not 1 <= size <= MAX_PICTURE_SIZE:
        raise ValueError(f"a run's picture is 1 to {MAX_PICTURE_SIZE} cells a side, got {size}")
    prob = np.nan_to_num(np.asarray(grid.probability, dtype=float), nan=0.5)
    ny, nx = prob.shape
    iy = np.rint(np.linspace(0, ny - 1, size)).astype(int)
    ix = np.rint(np.linspace(0, nx - 1, size)).astype(int)
    p = prob[np.ix_(iy, ix)]
    if grid.classes > 2:
        cells = np.asarray(grid.winner)[np.ix_(iy, ix)].astype(int)
        confidence = p
    else:
        cells = (p > 0.5).astype(int)
        confidence = np.maximum(p, 1.0 - p)
    percent = np.clip(np.rint(100 * confidence), 0, 100).astype(int)
    return RunPicture(
        "classes",
        tuple(float(v) for v in grid.extent),
        size,
        cells.ravel().tolist(),
        percent.ravel().tolist(),
        _sample_points(points_xy, labels),
        [],
    )


def picture_from_fit(xs, ys, points_xy) -> RunPicture:
    """A regression's picture: the model's curve (≤ 200 points) over up to 300 data points."""
    xs, ys = np.asarray(xs, dtype=float).reshape(-1), np.asarray(ys, dtype=float).reshape(-1)
    curve = [
        [float(xs[i]), float(ys[i])] for i in even_picks(len(xs), MAX_FIT_POINTS) if np.isfinite([xs[i], ys[i]]).all()
    ]
    points = _sample_points(points_xy)
    every = np.array(curve + points, dtype=float).reshape(-1, 2)
    if len(every):
        (x0, y0), (x1, y1) = every.min(axis=0), every.max(axis=0)
    else:
        x0 = y0 = -1.0
        x1 = y1 = 1.0
    pad_x, pad_y = max(x1 - x0, 1e-3) * 0.05, max(y1 - y0, 1e-3) * 0.05
    extent = (float(x0 - pad_x), float(x1 + pad_x), float(y0 - pad_y), float(y1 + pad_y))
    return RunPicture("fit", extent, 0, [], [], points, curve)
