"""The status line tells the truth as long as it is shown: Fit's "N of its M boxes are off screen" is told again
with the new count, or taken back, the moment the view changes (Leave lesson, a resize, a new expression), and
it says "is" for one box."""

import pytest
from conftest import new_main_window
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QPushButton, QToolButton

from gui.graph_view import GraphView
from tests.expression_gui_helpers import type_expression
from tests.graph_cases import graph_of

pytestmark = pytest.mark.first_start  # the lesson dock opens as for a new user

OFF = "off screen"


def settle(qtbot, view, cropped: bool = False) -> None:
    """Wait until the graph is drawn and fitted to the view's final size (``cropped``: with boxes off screen)."""
    qtbot.waitUntil(lambda: not view.busy and bool(view.nodes) and view.settled, timeout=20_000)
    qtbot.wait(30)  # (the resize a dock's opening or closing makes arrives in the next turns)
    if cropped:
        qtbot.waitUntil(lambda: view.fit_is_partial and view.boxes_off_screen() > 1 and view.settled, timeout=20_000)


def chain(links: int) -> str:
    """An expression of 3 boxes per link: lessons show their own graphs whole, so a longer one makes Fit crop."""
    return "h0 = x*y\n" + "\n".join(f"h{i} = tanh(h{i - 1}) + w{i}" for i in range(1, links))


def fit_button(panel) -> QToolButton:
    return next(b for b in panel.findChildren(QToolButton) if b.text() == "Fit")


def start_lesson(qtbot, window, number: int) -> None:
    """Click the lesson in Start here's list."""
    listing = window.lessons.list
    item = listing.item(number - 1)
    qtbot.mouseClick(listing.viewport(), Qt.MouseButton.LeftButton, pos=listing.visualItemRect(item).center())
    assert window.lessons.lesson is not None and window.lessons.lesson.title.startswith(f"{number}.")


def truthful(window, view) -> bool:
    """The status line says nothing about boxes off screen, or says how many are off screen now."""
    text = window.statusBar().currentMessage()
    if OFF not in text:
        return True
    off = view.boxes_off_screen()
    verb = "is" if off == 1 else "are"
    return off > 0 and f"so {off} of its {len(view.nodes)} boxes {verb} off screen" in text


def test_fits_message_is_told_again_when_leave_lesson_changes_the_view(qtbot, tmp_path):
    window = new_main_window(qtbot, tmp_path, (1280, 720))
    panel, view = window.expression, window.expression.view
    start_lesson(qtbot, window, 6)
    settle(qtbot, view)
    type_expression(qtbot, panel, chain(8))  # 24 boxes: more than the lesson's column shows at readable text
    settle(qtbot, view, cropped=True)
    qtbot.mouseClick(fit_button(panel), Qt.MouseButton.LeftButton)
    said, before = window.statusBar().currentMessage(), view.boxes_off_screen()
    assert f"so {before} of its {len(view.nodes)} boxes are off screen" in said and before > 1
    leave = window.lessons.findChild(QPushButton, "lessonLeave")
    qtbot.mouseClick(leave, Qt.MouseButton.LeftButton)  # the columns go back to their widths before the lesson
    qtbot.waitUntil(lambda: view.boxes_off_screen() != before and view.settled, timeout=5_000)
    qtbot.wait(30)
    assert OFF in window.statusBar().currentMessage() and truthful(window, view), (
        window.statusBar().currentMessage(),
        view.boxes_off_screen(),
    )


def test_a_resize_that_fits_every_box_takes_the_message_back_and_every_width_between_tells_the_truth(qtbot, tmp_path):
    window = new_main_window(qtbot, tmp_path, (1024, 700))
    panel, view = window.expression, window.expression.view
    start_lesson(qtbot, window, 1)
    settle(qtbot, view)
    type_expression(qtbot, panel, chain(6))  # 18 boxes: cropped beside the lesson at 1024 wide, whole at 1520
    settle(qtbot, view, cropped=True)
    qtbot.mouseClick(fit_button(panel), Qt.MouseButton.LeftButton)
    first = window.statusBar().currentMessage()
    assert OFF in first and view.boxes_off_screen() > 0
    counts = {view.boxes_off_screen()}
    for width in range(1040, 1700, 40):  # the window widens: fewer boxes off screen, then none
        window.resize(width, 700)
        qtbot.wait(10)
        counts.add(view.boxes_off_screen())
        assert truthful(window, view), (width, window.statusBar().currentMessage(), view.boxes_off_screen())
    assert view.boxes_off_screen() == 0 and OFF not in window.statusBar().currentMessage()
    assert len(counts) > 1


def test_a_new_expression_takes_fits_message_back(qtbot, tmp_path):
    window = new_main_window(qtbot, tmp_path, (1024, 700))
    panel, view = window.expression, window.expression.view
    start_lesson(qtbot, window, 6)
    settle(qtbot, view)
    type_expression(qtbot, panel, chain(8))
    settle(qtbot, view, cropped=True)
    qtbot.mouseClick(fit_button(panel), Qt.MouseButton.LeftButton)
    assert OFF in window.statusBar().currentMessage()
    edit = panel.editor.edit
    edit.moveCursor(edit.textCursor().MoveOperation.End)
    qtbot.keyClick(edit, Qt.Key.Key_Return)
    qtbot.keyClicks(edit, "z = h7 * 2")  # typed: the graph grows two boxes
    qtbot.keyClick(edit, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: "z = " in panel.state.text and not view.busy, timeout=20_000)
    qtbot.wait(30)
    assert truthful(window, view), window.statusBar().currentMessage()


def test_the_first_start_says_no_box_is_off_screen_when_none_is(qtbot, tmp_path):
    window = new_main_window(qtbot, tmp_path, None)  # the app's own size, Start here open
    view = window.expression.view
    settle(qtbot, view)
    qtbot.waitUntil(lambda: view.settled, timeout=10_000)
    qtbot.wait(50)
    assert truthful(window, view), (window.statusBar().currentMessage(), view.boxes_off_screen())


def test_one_box_off_screen_is_one_box_that_is(qtbot):
    """A view sized so that Fit leaves one box off screen says "is"."""
    view = GraphView()
    qtbot.addWidget(view)
    view.resize(1200, 300)
    view.show()
    messages = []
    view.message.connect(messages.append)
    view.set_graph(graph_of("a = x * y\nb = a + z\nc = tanh(b)\nd = c * w\nout = exp(d)"))
    settle(qtbot, view)
    sizes = [(width, height) for height in (300, 200, 420) for width in range(1200, 100, -10)]
    for width, height in sizes:  # Fit leaves no box off screen, then some: the first with just one
        view.resize(width, height)
        messages.clear()
        view.fit(whole=False)  # the Fit button's slot
        if view.boxes_off_screen() == 1:
            break
    assert view.boxes_off_screen() == 1
    assert messages == [
        f"Fit keeps the graph's text readable, so 1 of its {len(view.nodes)} boxes is off screen: "
        "drag it or choose View ▸ Whole graph (Ctrl+9)."
    ]
