"""Measures of a drawing: path crossings, edges through boxes, overlapping boxes."""

from __future__ import annotations

from itertools import pairwise

from autograd_core.drawing.base import Drawing, Point
from autograd_core.drawing.routing import _BoxIndex

# ------------------------------------------------------------------ measuring


def flatten(cmds: list, steps: int = 12) -> list[Point]:
    """A path's commands as a polyline (curves sampled), for geometry checks and crossing counts."""
    points: list[Point] = []
    for c in cmds:
        if c[0] in ("M", "L"):
            points.append((c[1], c[2]))
        else:
            p0 = points[-1]
            p1, p2, p3 = (c[1], c[2]), (c[3], c[4]), (c[5], c[6])
            for i in range(1, steps + 1):
                t = i / steps
                s = 1 - t
                points.append(
                    (
                        s**3 * p0[0] + 3 * s * s * t * p1[0] + 3 * s * t * t * p2[0] + t**3 * p3[0],
                        s**3 * p0[1] + 3 * s * s * t * p1[1] + 3 * s * t * t * p2[1] + t**3 * p3[1],
                    )
                )
    return points


def count_path_crossings(paths: dict) -> int:
    """Points where two drawn edges cross (edges sharing an end node are not compared), via numpy.

    Each segment is half-open (its end point belongs to the next one), so two
    polylines crossing exactly at a vertex of one of them (rounded coordinates,
    as ``dot`` writes them) count once, neither zero times nor twice.
    """
    import numpy as np

    keys = list(paths)
    segs = []
    owner = []
    for i, k in enumerate(keys):
        pts = paths[k]
        for a, b in pairwise(pts):
            if a != b:
                segs.append((a[0], a[1], b[0], b[1]))
                owner.append(i)
    if not segs:
        return 0
    s = np.array(segs)
    own = np.array(owner)
    ends = [(k[0], k[1]) for k in keys]
    share = np.array([[len({a[0], a[1]} & {b[0], b[1]}) > 0 for b in ends] for a in ends])
    px, py, qx, qy = s[:, 0], s[:, 1], s[:, 2], s[:, 3]
    rx, ry = qx - px, qy - py
    total = 0
    chunk = 512
    for start in range(0, len(s), chunk):
        sl = slice(start, start + chunk)
        denom = rx[sl, None] * ry[None, :] - ry[sl, None] * rx[None, :]
        wx = px[None, :] - px[sl, None]
        wy = py[None, :] - py[sl, None]
        with np.errstate(divide="ignore", invalid="ignore"):
            t = (wx * ry[None, :] - wy * rx[None, :]) / denom
            u = (wx * ry[sl, None] - wy * rx[sl, None]) / denom
        hit = (np.abs(denom) > 1e-12) & (t > -1e-9) & (t < 1 - 1e-9) & (u > -1e-9) & (u < 1 - 1e-9)
        oi, oj = own[sl, None], own[None, :]
        hit &= oi < oj
        hit &= ~share[oi, oj]
        total += int(hit.sum())
    return total


def edge_box_hits(drawing: Drawing, steps: int = 16, tolerance: float = 0.5) -> list:
    """(edge, node) for every drawn edge that enters a box it does not connect; [] is a clean drawing."""
    hits = []
    boxes = {n: drawing.box(n) for n in drawing.centers}
    shrunk = {n: (b[0] + tolerance, b[1] + tolerance, b[2] - tolerance, b[3] - tolerance) for n, b in boxes.items()}
    index = _BoxIndex(shrunk)
    for e in drawing.paths:
        pts = flatten(drawing.path(e), steps)
        for a, b in pairwise(pts):
            hit = index.first_hit(a, b, {e[0], e[1]})
            if hit is not None:
                hits.append((e, hit[0]))
                break
    return hits


def box_overlaps(drawing: Drawing) -> list:
    """Pairs of boxes that overlap."""
    nodes = list(drawing.centers)
    out = []
    boxes = [drawing.box(n) for n in nodes]
    order = sorted(range(len(nodes)), key=lambda i: boxes[i][0])
    for ii, i in enumerate(order):
        bi = boxes[i]
        for j in order[ii + 1 :]:
            bj = boxes[j]
            if bj[0] >= bi[2]:
                break
            if bj[1] < bi[3] and bi[1] < bj[3]:
                out.append((nodes[i], nodes[j]))
    return out
