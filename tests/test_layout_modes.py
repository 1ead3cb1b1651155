"""Every representative view in light/dark × normal/presentation × 1600×1000, 1280×720, 1024×700.

The states are the screenshot tour's (tools/tour_states.py), training in this process; the checks are
tools/layout_checks.py: whole text in every visible label, button, combo and spin box (or elided on purpose
with a tooltip), nothing outside the window or cut by a parent, legends and banners inside their views,
the window size unchanged by a mode switch, and the theme's plot background in the plots' pixels.
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtGui import QColor, QImage

from tools.layout_checks import theme_findings
from tools.tour_states import MODES, Mode, Tour, representative_states


@pytest.fixture(scope="module")
def tour(tmp_path_factory):
    from PySide6.QtWidgets import QApplication

    QApplication.instance() or QApplication([])
    t = Tour(str(tmp_path_factory.mktemp("settings")))
    yield t
    t.window.set_theme("light")
    t.window.set_presentation(False)
    t.close()  # also gives later tests the real training process back


def test_the_quick_tour_finds_no_layout_problem_in_any_mode(tmp_path):
    """The representative states × all twelve modes, in a fresh process as the app runs (one window per
    process): every picture written, the index lists them, and the checks find nothing."""
    root = Path(__file__).resolve().parents[1]
    out = tmp_path / "tour"
    run = subprocess.run(
        [sys.executable, str(root / "tools" / "screenshot_tour.py"), "--quick", "--out", str(out)],
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen"},
    )
    assert run.returncode == 0, run.stderr[-2000:]
    pictures = sorted(out.glob("*.png"))
    assert len(pictures) == len(representative_states()) * len(MODES)
    index = (out / "index.html").read_text(encoding="utf-8")
    assert all(p.name in index for p in pictures)
    assert QImage(str(pictures[0])).width() in (1600, 1280, 1024)
    findings = (out / "findings.txt").read_text(encoding="utf-8")
    assert findings == "", findings


def test_a_mode_switch_never_resizes_the_window(tour):
    """Presentation mode's fonts must not widen the window, on any tab (hidden tabs included)."""
    for size in ((1024, 700), (1280, 720)):
        tour.apply_mode(Mode("light", False, size))
        for key in ("expression", "training", "sample"):
            tour.show_tab(key)
            for on in (True, False, True):
                tour.window.set_presentation(on)
                tour.process(40)
                assert (tour.window.width(), tour.window.height()) == size, (key, on)
            tour.window.set_presentation(False)


def test_plots_and_diagram_use_the_theme_palette_and_grow_in_presentation(tour):
    from gui.theme import PALETTES, PLOT_TEXT_PT

    training = tour.window.training
    tour.apply_mode(Mode("dark", False, (1280, 720)))
    tour.show_tab("training")
    tour.train_to(5, dataset="moons")
    assert not theme_findings(tour.window, "dark")
    image = training.diagram.view.grab().toImage()
    assert image.pixelColor(2, 2) == QColor(PALETTES["dark"].plot_background)
    # the check itself fails on the wrong theme: the dark views are not the light palette's white
    assert theme_findings(tour.window, "light")
    title = training.boundary.plot.getPlotItem().titleLabel
    normal_axis = training.boundary.plot.getPlotItem().getAxis("bottom").style["tickFont"].pointSizeF()
    normal_label = training.diagram.layer_labels[0].font().pointSizeF()
    normal_title = float(title.opts["size"].rstrip("pt"))
    tour.apply_mode(Mode("dark", True, (1280, 720)))
    axis = training.boundary.plot.getPlotItem().getAxis("bottom").style["tickFont"].pointSizeF()
    label = training.diagram.layer_labels[0].font().pointSizeF()
    big_title = float(title.opts["size"].rstrip("pt"))
    assert normal_axis == PLOT_TEXT_PT
    assert axis >= 1.5 * normal_axis and label >= 1.5 * normal_label and big_title >= 1.5 * normal_title
    tour.apply_mode(Mode("light", False, (1280, 720)))
    assert not theme_findings(tour.window, "light")


def test_the_lab_and_landscape_follow_a_runtime_theme_and_mode_switch(tour):
    """View → Dark theme / Presentation mode while the lab or the landscape is shown: they repaint in the
    palette's background and their plot text grows ≥ 1.5×."""
    from gui.theme import PALETTES, graph_colors
    from tools.tour_states import _lab, _landscape

    window = tour.window
    tour.apply_mode(Mode("light", False, (1280, 720)))
    _lab(step_graph=True)(tour)
    lab = window.lab
    axis = lab.plot.getPlotItem().getAxis("bottom")
    normal = axis.style["tickFont"].pointSizeF()
    window.set_theme("dark")
    tour.process(60)
    assert lab.plot.grab().toImage().pixelColor(3, 3) == graph_colors("dark").background
    assert not theme_findings(window, "dark")
    window.set_presentation(True)
    tour.process(60)
    assert axis.style["tickFont"].pointSizeF() >= 1.5 * normal
    assert lab.editor.edit.font().pointSizeF() > 1.3 * window.font().pointSizeF() / 1.6
    assert (window.width(), window.height()) == (1280, 720)
    window.set_presentation(False)
    window.set_theme("light")
    tour.process(60)

    _landscape(tour)
    plot = window.training.landscape.plot
    axis = plot.getPlotItem().getAxis("left")
    normal = axis.style["tickFont"].pointSizeF()
    window.set_theme("dark")
    tour.process(60)
    assert plot.grab().toImage().pixelColor(3, 3) == QColor(PALETTES["dark"].plot_background)
    window.set_presentation(True)
    tour.process(60)
    assert axis.style["tickFont"].pointSizeF() >= 1.5 * normal
    window.set_presentation(False)
    window.set_theme("light")
    tour.process(60)
    assert plot.grab().toImage().pixelColor(3, 3) == QColor(PALETTES["light"].plot_background)
