"""Decision regions (autograd_core.learn.regions) and the grid the training service sends, without Qt."""

import math
import pickle

import numpy as np
import pytest

from autograd_core.learn.nn import MLP
from autograd_core.learn.regions import (
    RegionGrid,
    class_regions,
    grid_points,
    probability_ramp,
    region_image,
    region_rgba,
    regions_from_scores,
)
from autograd_core.live.protocol import Start, Step
from autograd_core.live.service import GRID_RESOLUTION, Engine, map_extent


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
            assert grid.probability[i, j] == pytest.approx(p1, abs=1e-6)  # float32 storage
            assert grid.winner[i, j] == int(out.data > 0)
            assert grid.confidence[i, j] == pytest.approx(max(p1, 1 - p1), abs=1e-6)
        else:
            z = np.array([t.data for t in out])
            p = np.exp(z - z.max()) / np.exp(z - z.max()).sum()
            assert grid.winner[i, j] == int(np.argmax(z))
            assert grid.confidence[i, j] == pytest.approx(p.max(), abs=1e-6)
            assert grid.probability is grid.confidence  # K classes: the one stored number is the confidence


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


class _Out:
    def __init__(self):
        self.sent = []

    def send(self, message):
        self.sent.append(message)


class _Commands:
    def __init__(self, *commands):
        self.queue = list(commands)

    def poll(self, timeout=0.0):
        return bool(self.queue)

    def recv(self):
        return self.queue.pop(0)


def test_the_service_sends_a_two_class_region_grid_of_sigmoid_values():
    """The snapshot's grid is the core's RegionGrid; its P(class 1) is σ of the network's score, by hand."""
    out = _Out()
    config = {"dataset": "moons", "samples": 40, "layers": [3], "activation": "tanh", "steps": 10}
    engine = Engine(Start(config=config), out, clock=lambda: 0.0)
    engine.run_once(_Commands(Step(count=2)))
    while engine.steps_requested:
        engine.run_once(_Commands())
    snap = out.sent[-1]
    grid = snap.grid
    assert isinstance(grid, RegionGrid) and grid.classes == 2 and grid.predicted is None
    assert grid.extent == map_extent(engine.trainer.data)  # the extent computed once, in the service
    n = GRID_RESOLUTION
    assert grid.probability.shape == (n, n) and grid.probability.dtype == np.float32
    (W1, b1), (W2, b2) = snap.weights
    x0, x1, y0, y1 = grid.extent
    for i, j in [(0, 0), (0, n - 1), (n // 2, n // 3), (n - 1, 7), (n - 1, n - 1)]:
        x, y = x0 + j * (x1 - x0) / (n - 1), y0 + i * (y1 - y0) / (n - 1)
        hidden = [math.tanh(W1[h, 0] * x + W1[h, 1] * y + b1[h]) for h in range(3)]
        score = sum(W2[0, h] * hidden[h] for h in range(3)) + b2[0]
        p = 1 / (1 + math.exp(-score))
        assert grid.probability[i, j] == pytest.approx(p, abs=1e-6)
        assert grid.winner[i, j] == (p > 0.5)
        assert grid.confidence[i, j] == pytest.approx(max(p, 1 - p), abs=1e-6)


def test_a_two_class_grid_pickles_to_one_float32_a_point():
    """What crosses the pipe: P(class 1) only, not the two probabilities, the winner and the confidence too."""
    model = MLP(2, [8, 1], seed=3)
    grid = class_regions(model, (-2.0, 2.0, -2.0, 2.0), resolution=200)
    boundary = grid.boundary_x.nbytes + grid.boundary_y.nbytes
    assert 200 * 200 * 4 + boundary < len(pickle.dumps(grid)) < 200 * 200 * 4 + boundary + 2_000


def test_the_probability_ramp_interpolates_and_truncates_like_the_color_bar():
    ramp = [(0, 0, 0), (100, 200, 255), (255, 255, 255)]
    rgba = probability_ramp(np.array([0.0, 0.25, 0.5, 0.75, 1.0], dtype=np.float32), ramp)
    assert rgba.tolist() == [
        [0, 0, 0, 255],
        [50, 100, 127, 255],  # halfway to the middle color; 127.5 truncated
        [100, 200, 255, 255],
        [177, 227, 255, 255],  # 177.5, 227.5 truncated
        [255, 255, 255, 255],
    ]
    with pytest.raises(ValueError, match="three RGB colors"):
        probability_ramp(np.zeros(3), ramp[:2])


def test_region_rgba_paints_two_classes_on_the_ramp_and_k_classes_by_region():
    ramp = [(0, 0, 0), (100, 200, 255), (255, 255, 255)]
    palette = [(200, 0, 0), (0, 200, 0), (0, 0, 200)]
    two = RegionGrid((0.0, 1.0, 0.0, 1.0), 2, np.array([[0.25, 0.75]], dtype=np.float32), np.empty(0), np.empty(0))
    assert region_rgba(two, palette, ramp=ramp)[0, :, :3].tolist() == [[50, 100, 127], [177, 227, 255]]
    # discretized: each point at its class's end of the ramp
    assert region_rgba(two, palette, ramp=ramp, discrete=True)[0, :, :3].tolist() == [[0, 0, 0], [255, 255, 255]]
    # without a ramp, and for K classes, the class colors by confidence (region_image)
    np.testing.assert_array_equal(region_rgba(two, palette), region_image(two, palette))
    scores = np.array([[10.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 10.0], [0.0, 10.0, 0.0]])
    three = regions_from_scores(scores, (0.0, 1.0, 0.0, 1.0), 2)
    np.testing.assert_array_equal(
        region_rgba(three, palette, (255, 255, 255), ramp=ramp, discrete=True),
        region_image(three, palette, (255, 255, 255), discrete=True),
    )
