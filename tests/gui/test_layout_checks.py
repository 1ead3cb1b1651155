"""The tour's layout checks (tools/layout_checks.py) judge what is on screen."""


def test_the_banner_check_counts_only_what_a_scroll_area_leaves_on_screen(qtbot):
    """Found in the tour (lesson 8 at 1024×700, presentation): the loss slice's plot, scrolled in its area, ran
    on under the banner below the area, out of sight; the check counted that hidden strip as covered."""
    from PySide6.QtWidgets import QScrollArea, QWidget

    from tools.layout_checks import _shown_rect

    window = QWidget()
    qtbot.addWidget(window)
    area = QScrollArea(window)
    area.setGeometry(0, 0, 300, 200)
    plot = QWidget()
    plot.setMinimumSize(280, 500)
    area.setWidget(plot)
    window.resize(300, 400)
    window.show()
    qtbot.waitExposed(window)
    shown = _shown_rect(plot, window)
    viewport = area.viewport()
    assert shown.height() == viewport.height() < plot.height()
    assert shown.bottom() < 200  # nothing of it below the area, where a banner would be
