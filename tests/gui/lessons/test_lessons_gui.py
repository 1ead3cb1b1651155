"""The lesson panel driven as a learner would: every shipped lesson starts with no task ticked, Show me
marks each task in turn with its own mark (◌, never the learner's ✓);
first start, dismiss, Help → Lessons; a bad lesson file; controls stepping back."""

import pytest
from conftest import new_main_window

lessons_api = pytest.importorskip("autograd_core.lessons")

TIMEOUT = 120_000  # lesson 8 trains 100 full-batch epochs in this process (~20 s)
pytestmark = pytest.mark.first_start


@pytest.fixture
def window(qtbot, tmp_path, in_process_training):
    return new_main_window(qtbot, tmp_path, (1024, 700))


SHIPPED, _ERRORS = lessons_api.load_lessons()


def test_shipped_lessons_load():
    assert len(SHIPPED) >= 8 and not _ERRORS


@pytest.mark.slow
@pytest.mark.parametrize("lesson", SHIPPED, ids=[lesson.slug for lesson in SHIPPED])
def test_show_me_marks_each_task_in_turn_as_shown(qtbot, window, lesson):
    panel = window.lessons
    panel.start(lesson)
    assert panel.task_signs() == ["○"] * len(lesson.tasks)
    for i in range(len(lesson.tasks)):
        panel.tasks.setCurrentRow(i)
        panel.show_me_button.click()
        qtbot.waitUntil(lambda i=i: panel.task_signs()[i] == "◌" and not panel.revealing, timeout=TIMEOUT)
        window.training.controller.pause()
    assert not any(panel.task_marks())  # Show me's mark is never the learner's
    assert panel.tracker.remembered(lesson).learner_count == 0 and not panel.tracker.remembered(lesson).lesson_done
    panel.leave()


def test_first_start_opens_start_here_then_dismiss_and_help_brings_it_back(qtbot, window):
    panel = window.lessons
    assert panel.isVisible() and panel.stack.currentIndex() == 0 and panel.list.count() == len(SHIPPED)
    panel.findChild(type(panel.show_me_button), "lessonDismiss").click()
    assert not panel.isVisible()
    window.menus.lessons_action.trigger()
    assert panel.isVisible()


def test_a_bad_lesson_file_gets_one_message_naming_file_and_line(window, tmp_path, monkeypatch):
    bad = tmp_path / "bad.md"
    bad.write_text("# A lesson\n\nnonsense: yes\n", encoding="utf-8")
    shown = []
    monkeypatch.setattr(window, "warn", lambda title, text: shown.append(text))
    assert window.open_lesson(str(bad)) is False
    assert len(shown) == 1 and "bad.md" in shown[0] and "line" in shown[0]


def test_controls_step_back_and_come_back(window):
    lesson = SHIPPED[0]
    mode = window.expression.mode
    assert not mode.isHidden()
    window.lessons.start(lesson)
    assert mode.isHidden()
    window.lessons.leave()
    assert not mode.isHidden()


def test_progress_is_remembered_in_a_new_window_with_the_same_settings(qtbot, window):
    from gui.shell.main_window import MainWindow

    lesson = SHIPPED[0]
    window.lessons.start(lesson)
    window.lessons.show_me_button.click()
    qtbot.waitUntil(lambda: window.lessons.task_signs()[0] == "◌", timeout=TIMEOUT)
    second = MainWindow(window.settings)
    qtbot.addWidget(second)
    assert second.lessons.tracker.remembered(lesson).by(0) == "shown"
    assert second.lessons.tracker.completed(lesson) == 0  # Show me's task is not the learner's
    second.lessons.start(lesson)
    assert second.lessons.task_signs()[0] == "◌"


def test_restart_puts_the_app_back_to_the_lessons_start_and_forgets_its_progress(qtbot, window):
    lesson = SHIPPED[0]
    panel = window.lessons
    panel.start(lesson)
    state = window.expression.state
    assert state.values["x"] == 2 and state.root.data == 5
    panel.show_me_button.click()  # task 1: x = 4
    qtbot.waitUntil(lambda: panel.task_signs()[0] == "◌", timeout=TIMEOUT)
    assert state.values["x"] == 4
    panel.restart_button.click()
    assert panel.task_marks() == [False] * len(lesson.tasks)
    assert state.values["x"] == 2 and state.root.data == 5 and window.expression.inputs.rows["x"].spin.value() == 2
    assert panel.tracker.completed(lesson) == 0 and not panel.tracker.remembered(lesson).marks


def test_the_code_box_shows_the_lessons_python_ready_to_copy(window):
    from PySide6.QtGui import QGuiApplication

    panel = window.lessons
    panel.start(SHIPPED[0])
    panel.code_button.click()
    assert panel.code_box.isVisible() and "from autograd_core import Tensor" in panel.code.toPlainText()
    panel.copy_button.click()
    assert QGuiApplication.clipboard().text() == panel.code.toPlainText()


def test_a_training_lesson_hides_the_plot_pages_it_does_not_use_and_leaving_brings_them_back(window):
    curves = window.training.curves
    lesson = next(lesson for lesson in SHIPPED if "curves" not in lesson.controls and lesson.tab == "training")
    pages = [curves.widget(i) for i in range(curves.count())]
    window.lessons.start(lesson)
    shown = [curves.widget(i) for i in range(curves.count()) if curves.isTabVisible(i)]
    assert window.training.metrics not in shown and window.training.loss_slice not in shown
    assert all(page is window.training.side_scroll for page in shown)  # only a narrow area's Settings page stays
    window.lessons.more_button.click()  # "More controls": everything, during the lesson
    assert all(curves.isTabVisible(i) for i in range(curves.count())) and not curves.isHidden()
    window.lessons.more_button.click()
    window.lessons.leave()
    assert [curves.widget(i) for i in range(curves.count())] == pages
    assert all(curves.isTabVisible(i) for i in range(curves.count())) and not curves.isHidden()


def test_the_articles_points_end_when_the_learner_picks_other_data(qtbot, window):
    controller = window.training.controller
    window.tabs.setCurrentWidget(window.training)
    window.training.training_panel.article_button.click()
    assert controller.config.sklearn_seed == 42 and controller.preset == "article"
    assert controller.update_settings(data_seed=controller.config.data_seed + 1)
    assert controller.config.sklearn_seed is None  # Regenerate or a new data seed draws new points again


def test_a_lesson_acts_through_the_state_objects_and_presses_no_button(window, monkeypatch):
    """Every kind of action does what the app's own control calls, on its state object: nothing is clicked, so an
    action works whatever the lesson has stepped back or a narrow window has put on another page."""
    from PySide6.QtWidgets import QAbstractButton

    from autograd_core.lessons import parse_action
    from autograd_core.lessons.controls import ALWAYS_STEPPED_BACK, CONTROLS
    from gui.lessons.actions import perform_all
    from gui.lessons.controls import control_widgets

    assert set(control_widgets(window)) == set(CONTROLS) | set(ALWAYS_STEPPED_BACK)  # every name has its widgets
    pressed = []
    monkeypatch.setattr(QAbstractButton, "click", lambda button: pressed.append(button.text()))
    lines = (
        "expression y = x * x; f = y + x",
        "set x 3",
        "step all",
        "preset article",
        "lr 0.05",
        "layers 4,3",
        "play",
        "pause",
        "reset",
        "op clear",
        "op name sq",
        "op inputs x",
        "op value x * x",
        "op derivative x 2 * x",
        "op check",
    )
    perform_all(window, [parse_action(text, n, "lesson.md") for n, text in enumerate(lines, 1)])
    assert pressed == []
    state = window.expression.state
    assert state.values["x"] == 3 and state.mode == "stepping" and state.position == len(state.steps)
    assert state.input_grad("x") == 7  # f = x² + x at 3: 2·3 + 1, every step taken
    controller, panel = window.training.controller, window.training.training_panel
    assert controller.preset == "article" and controller.config.lr == 0.05 and controller.config.layers == [4, 3]
    assert panel.lr.value() == 0.05  # the panel shows the setting the lesson made
    assert not controller.running
    assert window.workshop.result.accepted and window.tabs.currentWidget() is window.workshop
    perform_all(window, [parse_action("op remove sq", 1, "lesson.md"), parse_action("reset grads", 2, "lesson.md")])
    assert state.mode == "none" and pressed == []


def test_every_shipped_task_with_a_show_me_points_at_the_control_it_uses(window):
    """A task's first Show me action names the control the pointer outlines: "step all" is the Step button and
    "reset grads" is Zero grad (two-word verbs had no entry, so those tasks pointed at nothing)."""
    from gui.lessons.pointer import task_control

    back = window.expression.backward
    wanted = {"step all": back.step_button, "reset grads": back.zero_button, "step": back.step_button}
    seen = set()
    for lesson in SHIPPED:
        for task in lesson.tasks:
            first = task.show_me[0].verb if task.show_me else None
            if first in wanted:
                assert task_control(window, task) is wanted[first], (lesson.slug, task.text)
                seen.add(first)
    assert "step all" in seen
