"""Every shipped lesson's tasks done as a learner does them by hand: typing in the editor and the
input boxes, clicking the real buttons, picking from the real lists, typing a prediction and pressing Enter;
each task ticks only once it is done."""

import pytest
from conftest import new_main_window
from expression_gui_helpers import type_expression
from PySide6.QtCore import Qt
from training_gui_helpers import set_spin

from autograd_core.lessons import load_lessons

pytestmark = pytest.mark.first_start
TIMEOUT = 120_000
LESSONS = {lesson.slug[:2]: lesson for lesson in load_lessons()[0]}


@pytest.fixture
def window(qtbot, tmp_path, in_process_training):
    w = new_main_window(qtbot, tmp_path, (1280, 800))
    yield w
    w.training.controller.pause()
    w.expression.state.stop()


def reveal(qtbot, window, widget):
    """A setting a narrow training area keeps under its Settings tab: click that tab first, as a user would."""
    training = window.training
    curves, scroll = training.curves, training.side_scroll
    index = curves.indexOf(scroll)
    if not widget.isVisible() and index >= 0 and scroll.isAncestorOf(widget):
        qtbot.mouseClick(curves.tabBar(), Qt.MouseButton.LeftButton, pos=curves.tabBar().tabRect(index).center())
    if scroll.isAncestorOf(widget):
        scroll.ensureWidgetVisible(widget)  # (the column scrolls; a user scrolls to it)


def click(qtbot, button):
    reveal(qtbot, button.window(), button)
    assert button.isVisible() and button.isEnabled(), button.text()
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def type_number(qtbot, spin, value):
    reveal(qtbot, spin.window(), spin)
    assert spin.isVisible()
    set_spin(qtbot, spin, value)


def set_input(qtbot, window, name, value):
    qtbot.waitUntil(lambda: name in window.expression.inputs.rows)
    type_number(qtbot, window.expression.inputs.rows[name].spin, value)


def backward(qtbot, window):
    click(qtbot, window.expression.backward.backward_button)


def step(qtbot, window, times=1):
    for _ in range(times):
        click(qtbot, window.expression.backward.step_button)


def step_to_the_end(qtbot, window):
    button = window.expression.backward.step_button
    while button.isEnabled():
        click(qtbot, button)


def set_layers(qtbot, window, widths):
    network = window.training.network_panel
    while len(network.layer_spins) < len(widths):
        before = len(network.layer_spins)
        click(qtbot, network.add_button)
        qtbot.waitUntil(lambda before=before: len(network.layer_spins) > before and network.layer_spins[-1].isVisible())
    for spin, width in zip(network.layer_spins, widths, strict=False):
        type_number(qtbot, spin, width)


def pick(qtbot, combo, text):
    """Choose ``text`` in a combo as a user's pick does (its index changes, its signals fire)."""
    reveal(qtbot, combo.window(), combo)
    assert combo.isVisible()
    index = combo.findText(text)
    assert index >= 0, text
    combo.setCurrentIndex(index)


def load_example(qtbot, window, name):
    """Examples → ``name``: the entry of the real menu, then wait for its graph."""
    panel = window.expression
    next(a for a in panel.examples_menu.actions() if a.text() == name).trigger()
    qtbot.waitUntil(lambda: not panel.view.busy and bool(panel.view.nodes))


def play_until_finished(qtbot, window):
    controller = window.training.controller
    click(qtbot, window.training.training_panel.play_button)
    qtbot.waitUntil(lambda: controller.running, timeout=TIMEOUT)
    qtbot.waitUntil(lambda: not controller.running and controller.settled, timeout=TIMEOUT)


def pick_task(qtbot, window, index):
    """Click task ``index`` in the lesson's task list."""
    tasks = window.lessons.tasks
    tasks.scrollToItem(tasks.item(index))
    rect = tasks.visualItemRect(tasks.item(index))
    qtbot.mouseClick(tasks.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert window.lessons.current_task == index


def guess(qtbot, window, index, text):
    """Pick predict task ``index``, type the guess (or pick the sign) and press Enter."""
    pick_task(qtbot, window, index)
    box = window.lessons.predict
    assert box.isVisible()
    if box.answer == "sign":
        box.sign.setFocus()
        box.sign.setCurrentIndex(box.sign.findData(text))
        qtbot.keyClick(box.sign, Qt.Key.Key_Return)
    else:
        box.guess.setFocus()
        qtbot.keyClicks(box.guess, text)
        qtbot.keyClick(box.guess, Qt.Key.Key_Return)


def open_loss_slice(qtbot, window):
    curves = window.training.curves
    index = curves.indexOf(window.training.loss_slice)
    qtbot.mouseClick(curves.tabBar(), Qt.MouseButton.LeftButton, pos=curves.tabBar().tabRect(index).center())
    assert curves.currentWidget() is window.training.loss_slice


BY_HAND = {
    "01": [
        lambda q, w: set_input(q, w, "x", 4),
        lambda q, w: guess(q, w, 1, "2"),
        lambda q, w: (pick_task(q, w, 2), type_expression(q, w.expression, "f = 1 - x * 3"), backward(q, w)),
        lambda q, w: guess(q, w, 3, "-"),
    ],
    "02": [
        lambda q, w: guess(q, w, 0, "-3"),
        lambda q, w: (pick_task(q, w, 1), type_expression(q, w.expression, "h = a * b\nout = (h + c) * d")),
    ],
    "03": [
        lambda q, w: guess(q, w, 0, "3"),
        lambda q, w: (
            pick_task(q, w, 1),
            type_expression(q, w.expression, "b = s * 2\nj = b * 3"),
            step_to_the_end(q, w),
        ),
        lambda q, w: (
            pick_task(q, w, 2),
            type_expression(q, w.expression, "b = s * 5\nj = b * 3"),
            step_to_the_end(q, w),
        ),
    ],
    "04": [
        lambda q, w: guess(q, w, 0, "2"),
        lambda q, w: (pick_task(q, w, 1), backward(q, w)),
        lambda q, w: (pick_task(q, w, 2), step_to_the_end(q, w)),
        lambda q, w: (
            pick_task(q, w, 3),
            click(q, w.expression.backward.zero_button),
            type_expression(q, w.expression, "y = x * x"),
            set_input(q, w, "x", 3),
            backward(q, w),
        ),
    ],
    "05": [
        lambda q, w: (set_input(q, w, "x", 2), backward(q, w)),
        lambda q, w: set_input(q, w, "x", -2),
        lambda q, w: guess(q, w, 2, "0.25"),
        lambda q, w: (
            pick_task(q, w, 3),
            type_expression(q, w.expression, "y = 1 / (1 + exp(-x))"),
            set_input(q, w, "x", -800),
            backward(q, w),
        ),
    ],
    "06": [
        lambda q, w: step(q, w),
        lambda q, w: guess(q, w, 1, "-2"),
    ],
    "07": [
        lambda q, w: set_layers(q, w, [16, 16]),
        lambda q, w: guess(q, w, 1, "609"),
        lambda q, w: pick(q, w.training.network_panel.activation, "tanh"),
    ],
    "08": [
        lambda q, w: click(q, w.training.training_panel.article_button),
        lambda q, w: guess(q, w, 1, "0.65"),
        lambda q, w: open_loss_slice(q, w),
        lambda q, w: (
            type_number(q, w.training.training_panel.lr, 0.1),
            click(q, w.training.training_panel.reset_button),
            play_until_finished(q, w),
        ),
    ],
    "10": [
        lambda q, w: guess(q, w, 0, "1"),  # its reveal: "= in place of +=", then Backward
        lambda q, w: (
            load_example(q, w, "Reused intermediate node"),
            pick(q, w.expression.break_it.combo, "Eager order"),
            backward(q, w),
        ),
        lambda q, w: (pick(q, w.expression.break_it.combo, "Creation order"), backward(q, w)),
        lambda q, w: pick(q, w.expression.break_it.combo, "Correct (+=)"),
    ],
}


def click_tab(qtbot, window, area):
    bar = window.tabs.tabBar()
    qtbot.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(window.tabs.indexOf(area)).center())


def type_field(qtbot, field, text):
    field.setFocus()
    field.selectAll()
    qtbot.keyClick(field, Qt.Key.Key_Delete)
    qtbot.keyClicks(field, text)


def workshop_op(qtbot, window, derivative):
    """soft typed into the Op workshop with ``derivative``, then Check and define."""
    workshop = window.workshop
    click_tab(qtbot, window, workshop)
    for field, text in ((workshop.name, "soft"), (workshop.inputs, "x"), (workshop.value, "x / (1 + abs(x))")):
        type_field(qtbot, field, text)
    type_field(qtbot, workshop.derivatives[0], derivative)
    click(qtbot, workshop.define_button)


def soft_at(qtbot, window, x):
    click_tab(qtbot, window, window.expression)
    type_expression(qtbot, window.expression, "y = soft(x)")
    set_input(qtbot, window, "x", x)
    step_to_the_end(qtbot, window)


def predict_soft(qtbot, window):
    """The guess at soft's slope at x = 1, typed into the guess box (Enter)."""
    guess(qtbot, window, 2, "0.25")


BY_HAND["09"] = [
    lambda q, w: workshop_op(q, w, "1 / (1 + abs(x))**2"),
    lambda q, w: workshop_op(q, w, "1 / (1 + abs(x))"),
    predict_soft,
    lambda q, w: soft_at(q, w, -3),
    lambda q, w: (
        click_tab(q, w, w.training),
        pick(q, w.training.network_panel.activation, "soft"),
        click(q, w.training.training_panel.play_button),
    ),
]


def test_every_shipped_lesson_has_its_by_hand_walk():
    assert set(BY_HAND) == set(LESSONS)
    assert all(len(BY_HAND[key]) == len(LESSONS[key].tasks) for key in LESSONS)


@pytest.mark.slow
@pytest.mark.parametrize("key", sorted(LESSONS), ids=[LESSONS[k].slug for k in sorted(LESSONS)])
def test_a_lessons_tasks_tick_as_they_are_done_by_hand(qtbot, window, key):
    lesson = LESSONS[key]
    panel = window.lessons
    panel.start(lesson)
    assert panel.task_marks() == [False] * len(lesson.tasks)
    for i, do in enumerate(BY_HAND[key]):
        assert not panel.task_marks()[i], f"task {i + 1} ticked before it was done"
        do(qtbot, window)
        qtbot.waitUntil(lambda i=i: panel.task_marks()[i], timeout=TIMEOUT)
    assert all(panel.task_marks())
