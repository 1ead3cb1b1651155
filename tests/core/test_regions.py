"""Decision regions for K classes (autograd_core.live.regions), without Qt."""

import numpy as np
import pytest

from autograd_core.learn.nn import MLP
from autograd_core.live.regions import class_regions, grid_points, region_image, regions_from_scores


@pytest.mark.parametrize("k", [2, 3, 6])
def test_regions_agree_with_the_scalar_model(k):
    model = MLP(2, [6, 5, 1 if k == 2 else k], activation=["tanh", "relu"], seed=k)
    extent = (-2.0, 2.0, -1.5, 1.5)
    grid = class_regions(model, extent, resolution=12)
    points = grid_points(extent, 12)
    for n in range(0, len(points), 7):
        out = model(points[n].tolist())
        i, j = divmod(n, 12)
        if k == 2:
            p1 = 1.0 / (1.0 + np.exp(-out.data))
            assert grid.probabilities[i, j, 1] == pytest.approx(p1, abs=1e-6)  # float32 storage
            assert grid.winner[i, j] == int(out.data > 0)
        else:
            z = np.array([t.data for t in out])
            p = np.exp(z - z.max()) / np.exp(z - z.max()).sum()
            np.testing.assert_allclose(grid.probabilities[i, j], p, atol=1e-6)
            assert grid.winner[i, j] == int(np.argmax(z))
            assert grid.confidence[i, j] == pytest.approx(p.max(), abs=1e-6)


def test_boundaries_lie_where_two_classes_tie():
    # Three linear scores: s0 = x, s1 = −x, s2 = y.  Boundaries: x = 0 (below y = |x|) and y = |x|.
    extent = (-1.0, 1.0, -1.0, 1.0)
    pts = grid_points(extent, 41)
    scores = np.column_stack([pts[:, 0], -pts[:, 0], pts[:, 1]])
    grid = regions_from_scores(scores, extent, 41)
    assert grid.classes == 3 and set(np.unique(grid.winner).tolist()) == {0, 1, 2}
    bx, by = grid.boundary_x, grid.boundary_y
    assert len(bx) > 0 and len(bx) % 2 == 0
    s = np.column_stack([bx, -bx, by])
    top = np.sort(s, axis=1)
    # At every boundary point the two best classes tie (linear scores: marching squares is exact).
    np.testing.assert_allclose(top[:, -1], top[:, -2], atol=1e-9)


def test_region_image_colors_and_intensity():
    extent = (0.0, 1.0, 0.0, 1.0)
    scores = np.array([[10.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 10.0], [0.0, 10.0, 0.0]])
    grid = regions_from_scores(scores, extent, 2)
    palette = [(200, 0, 0), (0, 200, 0), (0, 0, 200)]
    img = region_image(grid, palette, background=(255, 255, 255), strength=1.0)
    assert img.shape == (2, 2, 4) and (img[:, :, 3] == 255).all()
    assert tuple(img[0, 0, :3]) == pytest.approx((200, 0, 0), abs=1)  # confident class 0
    assert tuple(img[0, 1, :3]) == (255, 255, 255)  # a three-way tie: chance, background
    assert tuple(img[1, 0, :3]) == pytest.approx((0, 0, 200), abs=1)
    discrete = region_image(grid, palette, strength=0.5, discrete=True)
    assert tuple(discrete[0, 1, :3]) == (228, 128, 128)  # the winner (class 0 by arg-max) at half strength
    with pytest.raises(ValueError, match="3 classes need 3 colors"):
        region_image(grid, palette[:2])
