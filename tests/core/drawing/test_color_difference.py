"""How different two colors look: CIELAB against the CIE tables, CIEDE2000 against its published test pairs, and
the color-vision deficiency simulation by hand."""

import pytest

from autograd_core.drawing.color_difference import CVD_KINDS, ciede2000, delta_e, delta_e76, lab, simulate

# Sharma, Wu and Dalal (2005), Table 1: the published CIEDE2000 test pairs (a few, including the hue-angle edge cases).
SHARMA = [
    ((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485), 2.0425),
    ((50.0, 0.0, 0.0), (50.0, -1.0, 2.0), 2.3669),
    ((50.0, 2.49, -0.001), (50.0, -2.49, 0.0009), 7.1792),
    ((50.0, 2.49, -0.001), (50.0, -2.49, 0.0011), 7.2195),
    ((50.0, -0.001, 2.49), (50.0, 0.0009, -2.49), 4.8045),
    ((50.0, -0.001, 2.49), (50.0, 0.0011, -2.49), 4.7461),
    ((50.0, 2.5, 0.0), (73.0, 25.0, -18.0), 27.1492),
    ((50.0, 2.5, 0.0), (61.0, -5.0, 29.0), 22.8977),
    ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
    ((22.7233, 20.0904, -46.6940), (23.0331, 14.9730, -42.5619), 2.0373),
]


@pytest.mark.parametrize(("lab1", "lab2", "expected"), SHARMA)
def test_ciede2000_matches_the_published_test_pairs(lab1, lab2, expected):
    assert ciede2000(lab1, lab2) == pytest.approx(expected, abs=1e-4)
    assert ciede2000(lab2, lab1) == pytest.approx(expected, abs=1e-4)


def test_cielab_and_the_deficiency_simulation_by_hand():
    assert lab("#ffffff") == pytest.approx((100.0, 0.0, 0.0), abs=1e-3)
    assert lab("#000000") == pytest.approx((0.0, 0.0, 0.0), abs=1e-9)
    assert lab("#ff0000") == pytest.approx((53.24, 80.09, 67.20), abs=0.01)  # sRGB red, D65 (CIE 15 tables)
    assert lab("#808080")[0] == pytest.approx(53.59, abs=0.01) and delta_e("#808080", "#808080") == 0
    assert delta_e("#ffffff", "#000000") == pytest.approx(100.0, abs=1e-3)
    assert delta_e76("#ffffff", "#000000") == pytest.approx(100.0, abs=1e-3)
    for kind in CVD_KINDS:  # a gray is seen as itself; red and green are far apart, much less so to a deutan
        assert simulate("#808080", kind) == "#808080"
    assert (
        delta_e("#ff0000", "#00ff00") > 80 > 4 * delta_e(simulate("#ff0000", "deutan"), simulate("#00ff00", "deutan"))
    )
    with pytest.raises(ValueError):
        lab("#fff")
