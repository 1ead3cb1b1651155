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
from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtGui import QColor, QImage
from PySide6.QtTest import QTest

from gui.shell.window_settings import DEFAULT_SIZE
from tools.layout_checks import theme_findings
from tools.tour_states import MODES, Mode, representative_states


@pytest.mark.slow
def test_the_quick_tour_finds_no_layout_problem_in_any_mode(tmp_path):
    """The representative states × all twelve modes, in a fresh process as the app runs (one window per
    process): every picture written, the index lists them, and the checks find nothing."""
    root = Path(__file__).resolve().parents[2]
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


@pytest.mark.slow
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
    from gui.look.theme import PALETTES, PLOT_TEXT_PT

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


@pytest.mark.slow
def test_the_lab_and_landscape_follow_a_runtime_theme_and_mode_switch(tour):
    """View → Dark theme / Presentation mode while the lab or the landscape is shown: they repaint in the
    palette's background and their plot text grows ≥ 1.5×."""
    from gui.look.theme import PALETTES, graph_colors
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


def test_presentation_training_plots_use_their_space(tour):
    """Presentation mode at 1280×720 and 1024×700: the boundary's data area is at least 250 px each way and the
    loss and accuracy plots' at least 150×120 (they were ~60–120 px and ~50 px high, stacked in rows); the
    check itself flags a window too short for them."""
    from tools.layout_checks import BOUNDARY_LEAST_PX, METRICS_LEAST_PX, data_area, plot_size_findings
    from tools.tour_states import _training

    training = tour.window.training
    for size in ((1280, 720), (1024, 700)):
        mode = Mode("dark", True, size)
        tour.apply_mode(mode)
        _training("moons", 60)(tour)
        tour.apply_mode(mode)
        w, h = data_area(training.boundary.plot)
        assert min(w, h) >= BOUNDARY_LEAST_PX, (size, w, h)
        for plot in (training.metrics.loss_plot, training.metrics.acc_plot):
            w, h = data_area(plot)
            assert w >= METRICS_LEAST_PX[0] and h >= METRICS_LEAST_PX[1], (size, w, h)
        assert plot_size_findings(tour.window, mode) == []
        assert (tour.window.width(), tour.window.height()) == size
    tour.window.resize(1280, 480)  # too short for both: the check says so
    tour.process(60)
    tour.settle()
    assert plot_size_findings(tour.window, Mode("dark", True, (1280, 720)))
    tour.apply_mode(Mode("light", False, (1280, 720)))


def test_the_lab_table_fits_its_columns_without_scrolling_sideways(tour):
    """At 1280×720 in presentation mode (and 1024×700 in normal mode) every column of the results table is in
    view: no horizontal scroll bar; a cell cut short keeps its whole text in its tooltip."""
    from tools.layout_checks import table_findings
    from tools.tour_states import _lab

    for mode in (Mode("light", True, (1280, 720)), Mode("light", False, (1024, 700)), Mode("dark", True, (1024, 700))):
        tour.apply_mode(mode)
        _lab()(tour)
        table = tour.window.lab.table
        widths = sum(table.columnWidth(c) for c in range(table.columnCount()))
        assert widths <= table.viewport().width() + 1, (mode.name, widths, table.viewport().width())
        assert not table.horizontalScrollBar().isVisible(), mode.name
        assert table_findings(tour.window) == [], mode.name
        for r in range(table.rowCount()):
            for c in (2, 6):
                item = table.item(r, c)
                need = table.fontMetrics().horizontalAdvance(item.text()) + 8
                if item.text() and need > table.columnWidth(c):
                    assert item.text() in item.toolTip(), (mode.name, item.text(), item.toolTip())
    # narrow, the column in view gets the room: "One step" (the graph) takes more width than "Race", and the
    # table, narrower then, still fits its columns
    lab = tour.window.lab
    lab.side_tabs.setCurrentWidget(lab.controls)
    tour.process(30)
    race_width = lab.side_tabs.width()
    lab.side_tabs.setCurrentWidget(lab.right)
    tour.process(30)
    assert lab.side_tabs.width() > race_width * 1.1, (lab.side_tabs.width(), race_width)
    assert table_findings(tour.window) == []
    # and a table that does scroll sideways is found (the lab's refits itself when its width changes)
    from PySide6.QtWidgets import QTableWidget, QVBoxLayout, QWidget

    other = QWidget()
    wide = QTableWidget(3, 4)
    QVBoxLayout(other).addWidget(wide)
    other.resize(300, 200)
    for c in range(4):
        wide.setColumnWidth(c, 200)
    other.show()
    tour.process(30)
    assert [f.kind for f in table_findings(other)] == ["table scrolls sideways"]
    other.close()
    tour.apply_mode(Mode("light", False, (1280, 720)))


@pytest.mark.slow
def test_every_lab_table_cell_shows_its_whole_text_or_is_elided_with_a_tooltip(tour):
    """Each lab state in all twelve modes: every visible cell of the results table needs (by the table font's
    metrics) no more than its column's width, or it is elided with its whole text in its tooltip; the header
    likewise; and the table never scrolls sideways."""
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QFontMetricsF

    from tools.layout_checks import cell_findings, cell_need
    from tools.tour_states import build_states

    states = [s for s in build_states() if s.name.startswith("lab-")]
    assert len(states) >= 3
    cut = 0
    for mode in MODES:
        for state in states:
            tour.apply_mode(mode)
            state.setup(tour)
            tour.process(30)
            table = tour.window.lab.table
            where = f"{state.name} {mode.name}"
            assert table.isVisible(), where
            assert not table.horizontalScrollBar().isVisible(), where
            assert cell_findings(table) == [], where
            fm = QFontMetricsF(table.font())
            for r in range(table.rowCount()):
                if not table.visualRect(table.model().index(r, 0)).intersects(table.viewport().rect()):
                    continue
                for c in range(table.columnCount()):
                    item = table.item(r, c)
                    if not item.text():
                        continue
                    if cell_need(table, table.indexFromItem(item)) > table.columnWidth(c):
                        # the numbers (lr, steps, loss, distance) give way last: whole but in the narrowest
                        # mode with the step graph beside the map
                        narrowest = state.name == "lab-step-graph" and mode.size == (1024, 700)
                        assert narrowest or c not in (1, 3, 4, 5), (where, c, item.text())
                    if fm.horizontalAdvance(item.text()) > table.columnWidth(c):
                        cut += 1
                        assert item.text() in item.toolTip(), (where, item.text(), item.toolTip())
                        assert table.textElideMode() == Qt.TextElideMode.ElideRight
    assert cut > 0  # (the narrow modes do elide some cells: the tooltips above were checked)
    # the check itself finds a cut cell without a tooltip
    lab = tour.window.lab
    tour.apply_mode(Mode("light", True, (1024, 700)))
    states[0].setup(tour)
    table = lab.table
    item = table.item(1, 0)
    item.setToolTip("")
    table.setColumnWidth(0, 30)
    assert any(f.kind == "clipped cell" for f in cell_findings(table))
    lab.results.fill()
    assert cell_findings(table) == []
    tour.apply_mode(Mode("light", False, (1280, 720)))


def _fitted_text(tour, state, mode) -> float:
    from tools.tour_states import build_states

    setup = next(s for s in build_states() if s.name == state).setup
    tour.apply_mode(mode)
    setup(tour)
    tour.apply_mode(mode)
    view = tour.window.sample.view if state.startswith("sample") else tour.window.lab.view
    tour.wait_until(lambda: not view.busy)
    tour.process(60)
    view.fit()  # (what the Fit button shows; the view's own fit must agree)
    return view.fitted_text_points()


@pytest.mark.slow
def test_graph_text_in_presentation_is_larger_than_in_normal_mode(tour):
    """The sample graph and the lab's step graph, fitted: their text is readable (≥ 9 pt, and 13.5 pt = 1.5 ×
    9 pt in presentation mode) and larger in presentation mode than in normal mode at every window size (a
    graph too big for that is shown around its output with the overview map: test_graph_readable_fit.py);
    and the sample graph fills its view (the legend's corner included)."""
    for state in ("sample-graph", "lab-step-graph"):
        for size in ((1600, 1000), (1280, 720), (1024, 700)):
            normal = _fitted_text(tour, state, Mode("light", False, size))
            big = _fitted_text(tour, state, Mode("light", True, size))
            assert normal >= 9.0 - 1e-6 and big >= 13.5 - 1e-6 and big >= normal, (state, size, normal, big)
    # the sample graph fills its view: as tall (or as wide) as the viewport, less the margins
    _fitted_text(tour, "sample-graph", Mode("light", True, (1280, 720)))
    view = tour.window.sample.view
    shown = view.graph_rect().size() * view.transform().m11()
    vp = view.viewport().size()
    assert max(shown.width() / vp.width(), shown.height() / vp.height()) >= 0.9, (shown, vp)
    tour.apply_mode(Mode("light", False, (1280, 720)))


@pytest.mark.slow
def test_the_divergence_banner_covers_no_plot_in_any_mode(tour):
    """SGD at lr 80 diverges: the banner saying so takes its own row, in all twelve modes, and covers none of
    the plots or the diagram (it floated over the bottom of the curves and hid most of the short loss plot in
    the columns layout), and the loss and accuracy plots keep a readable size; the check itself finds a banner
    laid over a plot."""
    from tools.layout_checks import banner_overlap_findings, plot_size_findings
    from tools.tour_states import build_states

    setup = next(s for s in build_states() if s.name == "train-divergence").setup
    training = tour.window.training
    banner = training.training_panel.banner
    for mode in MODES:
        tour.apply_mode(mode)
        setup(tour)
        tour.apply_mode(mode)
        assert banner.isVisible() and "exploded" in training.training_panel.banner_text.text(), mode.name
        assert banner_overlap_findings(tour.window) == [], mode.name
        assert plot_size_findings(tour.window, mode) == [], mode.name  # the banner's row is the diagram's loss
        assert (tour.window.width(), tour.window.height()) == mode.size
    # the check finds a banner over the loss plot
    loss = training.metrics.loss_plot
    banner.move(banner.parentWidget().mapFromGlobal(loss.mapToGlobal(loss.rect().center())))
    assert {f.kind for f in banner_overlap_findings(tour.window)} == {"banner over a plot"}
    training.training_panel.show_message("")
    tour.apply_mode(Mode("light", False, (1280, 720)))


def test_the_loss_slice_plot_keeps_a_readable_height_in_every_mode(tour):
    """The loss slice's plot was a strip (~115 px, a 65 px data area) under its caption in presentation mode at
    1280×720 and 1024×700: it keeps at least PLOT_LEAST_PX (a data area of 100 px or more), in all twelve modes, and
    where the room is short its caption scrolls with it, whole: the scroll area's range is what does not fit."""
    from gui.plots.loss_slice_plot import PLOT_LEAST_PX
    from tools.layout_checks import SLICE_LEAST_PX, data_area, plot_size_findings, text_findings
    from tools.tour_states import build_states

    setup = next(s for s in build_states() if s.name == "train-loss-slice").setup
    panel = tour.window.training.loss_slice
    for mode in MODES:
        tour.apply_mode(mode)
        setup(tour)
        tour.apply_mode(mode)
        assert tour.window.training.curves.currentWidget() is panel and panel.current is not None, mode.name
        assert panel.plot.height() >= PLOT_LEAST_PX, (mode.name, panel.plot.height())
        w, h = data_area(panel.plot)
        assert w >= SLICE_LEAST_PX[0] and h >= SLICE_LEAST_PX[1], (mode.name, w, h)
        assert plot_size_findings(tour.window, mode) == [], mode.name
        assert text_findings(panel.caption) == [], mode.name  # the whole caption (in reach of the scroll bar)
        page, viewport = panel.scroll_area.widget(), panel.scroll_area.viewport()
        bar = panel.scroll_area.verticalScrollBar()
        assert bar.maximum() == max(0, page.height() - viewport.height()), mode.name
        assert panel.caption.geometry().bottom() < page.height(), mode.name
    tour.apply_mode(Mode("light", False, (1280, 720)))


def test_the_lab_table_shows_names_steps_and_losses_whole_on_a_projector(tour):
    """At 1024×700 and 1280×720 in presentation mode (a 1024×768 projector) every racer's row is in view with its
    optimizer's name, steps and loss whole (the figures a class reads); too narrow for every column, the table
    shows its Results or its Settings (a tab bar over it), each whole: no more names cut to "Mome…"."""
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    from tools.layout_checks import cell_need, elided_cells
    from tools.tour_states import build_states

    states = [s for s in build_states() if s.name.startswith("lab-")]
    lab = tour.window.lab
    table = lab.table
    for mode in (Mode("light", True, (1024, 700)), Mode("dark", True, (1280, 720))):
        for state in states:
            tour.apply_mode(mode)
            state.setup(tour)
            tour.process(30)
            where = f"{state.name} {mode.name}"
            for r in range(table.rowCount()):
                rect = table.visualRect(table.model().index(r, 0))
                assert table.viewport().rect().contains(rect), (where, r, rect)  # the whole row in view
                for c in (0, 3, 4):  # name, steps, loss
                    assert not table.isColumnHidden(c), (where, c)
                    item = table.item(r, c)
                    assert cell_need(table, table.indexFromItem(item)) <= table.columnWidth(c), (where, item.text())
            assert all(c == 6 for _, c, _ in elided_cells(table)), where  # at most a long note ends in "…"
            left_out = [table.horizontalHeaderItem(c).text() for c in (5, 6) if table.isColumnHidden(c)]
            assert all(name in lab.table_tabs.tabToolTip(0) for name in left_out), where  # the tab says so
            # the settings are a click away, each whole where the table has the room
            tabs = lab.table_tabs
            assert tabs.isVisible() and tabs.tabText(tabs.currentIndex()) == "Results", where
            QTest.mouseClick(tabs, Qt.MouseButton.LeftButton, pos=tabs.tabRect(1).center())
            tour.process(20)
            assert [table.isColumnHidden(c) for c in range(7)] == [False, False, False, True, True, True, True]
            assert table.item(1, 2).text() == "momentum=0.9"
            if state.name == "lab-race":
                assert elided_cells(table) == [], where
            QTest.mouseClick(tabs, Qt.MouseButton.LeftButton, pos=tabs.tabRect(0).center())
            tour.process(20)
            assert not table.isColumnHidden(4) and table.isColumnHidden(2)
    # a new race shows its results; where every column fits, they all show and the tabs go
    tabs = lab.table_tabs
    tabs.setCurrentIndex(1)
    lab.lab.start_race(-1.0, 2.0, play=False)
    tour.process(20)
    assert tabs.currentIndex() == 0 and not table.isColumnHidden(3)
    tour.apply_mode(Mode("light", False, (1600, 1000)))
    states[0].setup(tour)
    tour.process(30)
    assert not tabs.isVisible() and not any(table.isColumnHidden(c) for c in range(7))
    assert elided_cells(table) == []
    tour.apply_mode(Mode("light", False, (1280, 720)))


def test_a_hidden_lab_keeps_its_columns_through_a_mode_switch_and_reflows_once_when_shown(tour, monkeypatch):
    """Narrow (1024 px in presentation mode) the lab's race and step graph share a tabbed column.  A mode
    switch made on another tab changes the hidden lab's font; laying the lab out wide then (its width unknown
    while hidden) and narrow again when shown would move every control twice, 68 ms in the way of the tab
    switch.  Hidden, it keeps its tabbed column; shown, it is still narrow."""
    from gui.lab.optimizer_lab import OptimizerLabPanel

    lab = tour.window.lab
    tour.apply_mode(Mode("light", True, (1024, 700)))
    tour.show_tab("lab")
    tour.process(30)
    assert lab.side_tabs.isVisible() and lab.side_tabs.indexOf(lab.controls) >= 0  # narrow: the race is a tab
    moves = []
    original = OptimizerLabPanel._reflow
    monkeypatch.setattr(OptimizerLabPanel, "_reflow", lambda self: (moves.append(self.isVisible()), original(self)))
    tour.show_tab("training")
    for on in (False, True, False, True):
        tour.window.set_presentation(on)
        tour.process(30)
        assert lab.side_tabs.indexOf(lab.controls) >= 0, on  # hidden: the tabbed column is kept
    tour.show_tab("lab")
    tour.process(30)
    assert lab.side_tabs.isVisible() and lab.side_tabs.indexOf(lab.controls) >= 0
    assert lab.side_tabs.indexOf(lab.right) >= 0
    assert moves and moves[-1] is True  # shown, it reflowed (for its current size and font)
    tour.window.set_presentation(False)


# ------------------------------------------------------------------ lessons: the subject gets the room

LESSON_SIZES = (DEFAULT_SIZE, (1280, 720), (1024, 700))


def click_lesson(tour, number: int) -> None:
    """Start lesson ``number`` (1-based) as a learner does: a click on it in Start here; then wait for its graph
    and the columns around it to settle."""
    window, panel = tour.window, tour.window.lessons
    panel.leave()
    window.show_lessons()
    tour.process(30)
    item = panel.list.item(number - 1)
    panel.list.scrollToItem(item)
    QTest.mouseClick(panel.list.viewport(), Qt.MouseButton.LeftButton, pos=panel.list.visualItemRect(item).center())
    assert panel.lesson is not None and panel.lesson.slug.startswith(f"{number:02d}")
    tour.controller.pause()
    for _ in range(2):  # (a graph shown in part makes the columns give it room, then it is laid out again)
        tour.process(30)
        tour.settle()


@pytest.mark.slow
@pytest.mark.parametrize("presentation", [False, True], ids=["normal", "presentation"])
@pytest.mark.parametrize("size", LESSON_SIZES, ids=[f"{w}x{h}" for w, h in LESSON_SIZES])
def test_lessons_1_to_6_show_their_whole_graph_at_a_readable_zoom(tour, size, presentation):
    """With the lesson dock open, every box of lessons 1–6's graphs is inside the view at a zoom of at least 0.9
    (box text at 90 % of its size or more), at the app's default size, 1280×720 and 1024×700, in both modes;
    the graph takes at least a quarter of the window.  (Lesson 1 at 1280×720 showed 2 of its 5 boxes in a 180-px
    column beside a 330-px column holding two buttons.)"""
    from tools.layout_checks import graph_box_findings, lesson_view_findings

    window = tour.window
    tour.apply_mode(Mode("light", presentation, size))
    try:
        for number in range(1, 7):
            click_lesson(tour, number)
            view = window.expression.view
            shown = view.mapToScene(view.viewport().rect()).boundingRect()
            off = [n for n, item in view.nodes.items() if not shown.contains(item.sceneBoundingRect())]
            assert view.nodes and off == [], (number, len(off), len(view.nodes))
            assert view.transform().m11() >= 0.9, (number, view.transform().m11())
            assert graph_box_findings(view) == [] and lesson_view_findings(window) == [], number
            assert (window.width(), window.height()) == size
    finally:
        window.lessons.leave()
        window.lessons.close()
        tour.process(30)


def test_a_column_of_two_buttons_shrinks_to_them_and_keeps_them_at_the_top(tour):
    """Lesson 1 steps the Backward column back to Backward and Zero grad: the column is as wide as they need
    (it was 330 px) and they sit at its top (they floated half-way down); Leave lesson gives the columns back."""
    window = tour.window
    tour.apply_mode(Mode("light", False, (1280, 720)))
    expr = window.expression
    click_lesson(tour, 1)
    column = expr.backward_column
    assert column.width() <= column.sizeHint().width() + 2, (column.width(), column.sizeHint().width())
    button = expr.backward.backward_button
    assert button.isVisible() and button.mapTo(column, button.rect().topLeft()).y() < 3 * button.height()
    in_lesson = column.width()
    window.lessons.leave()
    tour.process(30)
    left, _graph, right = expr.splitter.sizes()
    # the columns as they were before the lesson (330 : 330, scaled; a splitter rounds each share to its pixels)
    assert abs(left - right) <= 10 and min(left, right) > in_lesson + 40, (left, right, in_lesson)
    window.lessons.close()
    tour.process(30)


def test_lesson_8s_first_task_scrolls_its_button_into_view_and_outlines_it(tour):
    """ "Press The article's run": the button sits below the fold of the settings at the default size.  When the
    task becomes current it is scrolled into view (its Settings tab shown) and outlined; scrolled away again,
    Hint brings it back and outlines it again."""
    from gui.lessons.pointer import shown_rect

    window = tour.window
    tour.apply_mode(Mode("light", False, DEFAULT_SIZE))
    try:
        click_lesson(tour, 8)
        panel = window.lessons
        button = window.training.training_panel.article_button
        spotlight = panel.spotlight
        tour.wait_until(lambda: spotlight.isVisible())
        whole = QRect(button.mapTo(window, QPoint(0, 0)), button.size())
        assert button.isVisible() and shown_rect(button, window) == whole
        assert spotlight.geometry().contains(whole) and spotlight.opacity > 0.5
        assert spotlight.geometry().width() < whole.width() + 30  # around the button, not a whole panel
        scroll = window.training.side_scroll
        scroll.verticalScrollBar().setValue(0)
        tour.process(30)
        assert shown_rect(button, window) != QRect(button.mapTo(window, QPoint(0, 0)), button.size())
        spotlight.fade.stop()
        spotlight.hide()
        QTest.mouseClick(panel.hint_button, Qt.MouseButton.LeftButton)
        tour.wait_until(lambda: spotlight.isVisible())
        whole = QRect(button.mapTo(window, QPoint(0, 0)), button.size())
        assert shown_rect(button, window) == whole and spotlight.geometry().contains(whole)
        assert panel.hint.isVisible()
    finally:
        window.lessons.leave()
        window.lessons.close()
        tour.process(30)


def test_lesson_8s_boundary_keeps_its_plane_at_1024x700_in_presentation_with_the_banner_shown(tour):
    """Lesson 8 at 1024×700 in presentation mode, the dock open, its Settings tab on screen (the first task points
    there) and the banner saying why training stopped: the boundary, the lesson's subject, keeps a plane of at
    least 250 px each way (it was 498×178: the curves kept the room of their tallest page, the runs table, though
    the Settings tab was the one shown, and the toggles' room was guessed at three lines)."""
    from tools.layout_checks import BOUNDARY_LEAST_PX, data_area, lesson_view_findings, plot_size_findings

    window = tour.window
    mode = Mode("light", True, (1024, 700))
    tour.apply_mode(mode)
    training = window.training
    panel = training.training_panel
    try:
        click_lesson(tour, 8)
        assert training.curves.currentWidget() is training.side_scroll  # the Settings tab, as the pointer left it
        QTest.mouseClick(panel.article_button, Qt.MouseButton.LeftButton)
        training.side_scroll.ensureWidgetVisible(panel.steps)
        tour.process(30)
        panel.steps.setFocus()
        panel.steps.selectAll()
        QTest.keyClicks(panel.steps, "3")
        QTest.keyClick(panel.steps, Qt.Key.Key_Return)
        QTest.mouseClick(panel.play_button, Qt.MouseButton.LeftButton)
        tour.wait_until(lambda: not panel.banner.isHidden() and not tour.controller.running)
        assert "Training finished: all 3 epochs" in panel.banner_text.text()
        tour.process(60)
        tour.settle()
        w, h = data_area(training.boundary.plot)
        assert min(w, h) >= BOUNDARY_LEAST_PX, (w, h)
        assert plot_size_findings(window, mode) == [] and lesson_view_findings(window) == []
        assert (window.width(), window.height()) == (1024, 700)
    finally:
        window.lessons.leave()
        window.lessons.close()
        tour.process(30)


def test_lesson_9s_pointer_keeps_the_workshops_labels_in_sight_at_1024x700_in_presentation(tour):
    """Lesson 9's first task points at the op's Name field.  The form is wider than its column there, and the
    pointer scrolled it sideways to the field's right end, which hid every label of the form ("Name", "Value");
    a field partly in sight is not scrolled sideways."""
    from gui.lessons.pointer import shown_rect

    window = tour.window
    tour.apply_mode(Mode("light", True, (1024, 700)))
    try:
        click_lesson(tour, 9)
        spotlight = window.lessons.spotlight
        tour.wait_until(lambda: spotlight.isVisible())
        workshop = window.workshop
        name_label = workshop.form.labelForField(workshop.name)
        assert shown_rect(name_label, window).width() == name_label.width()  # the label whole on screen
        assert shown_rect(workshop.name, window).width() > 0
    finally:
        window.lessons.leave()
        window.lessons.close()
        window.set_presentation(False)
        tour.process(30)
