"""The lesson panel: a dock beside the live view with the lesson list ("Start here") and one lesson at a time:
its explanation, its tasks (✓ when the learner did them, ◌ when Show me did), a guess box for a task that asks
for a prediction, Hint, Show me, Next, Restart, the code."""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QFontDatabase, QGuiApplication
from PySide6.QtWidgets import (
    QDockWidget,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QStackedWidget,
    QTextBrowser,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from autograd_core.lessons import (
    LEARNER,
    SHOWN,
    GuessError,
    LessonError,
    check_prediction,
    load_lesson,
    load_lessons,
    read_guess,
)
from autograd_core.lessons.progress import MARK_HELP, MARKS
from autograd_core.numbers import format_number

from .actions import ActionFailed, perform_all
from .controls import SteppedBack
from .lesson_state import LessonState, compare_runs
from .pointer import Spotlight, task_control
from .predict_box import PredictBox

DONE, SHOWN_MARK, OPEN = MARKS[LEARNER], MARKS[SHOWN], "○"
TRAINING_VERBS = frozenset({"preset", "dataset", "layers", "activation", "lr", "epochs", "play", "reset"})
TASK_HELP = {
    DONE: f"Done: {MARK_HELP[LEARNER]}",
    SHOWN_MARK: f"Done: {MARK_HELP[SHOWN]}. Restart the lesson to do it yourself",
    OPEN: "Not done yet",
}


class LessonPanel(QDockWidget):
    """Start here: pick a lesson, do its tasks in the live app beside it."""

    lesson_started = Signal(str)  # slug

    def __init__(self, window):
        super().__init__("Start here", window)
        self.setObjectName("lessonDock")
        self.setFeatures(
            QDockWidget.DockWidgetFeature.DockWidgetClosable | QDockWidget.DockWidgetFeature.DockWidgetMovable
        )
        self.window_ = window
        self.tracker = LessonState(window, self)
        self.stepped_back = SteppedBack()
        self.lessons, self.errors = load_lessons()
        self.lesson = None
        self.current_task = 0
        self.last_error = ""

        self.stack = QStackedWidget()
        self.setWidget(self.stack)
        self.stack.addWidget(self._build_list())
        self.stack.addWidget(self._build_lesson())
        self.tracker.changed.connect(self._show_tasks)
        self._fill_list()
        self.spotlight = Spotlight(window)  # the current task's control, outlined for a moment
        self._then = None  # a reveal that trains: what to do once the training process has answered
        self._wait = QTimer(self)
        self._wait.setInterval(100)
        self._wait.timeout.connect(self._poll_training)

    # ---------------------------------------------------------------- the list

    def _build_list(self) -> QWidget:
        page = QWidget()
        layout = QVBoxLayout(page)
        intro = QLabel(
            "Lessons walk through building an autograd engine, one idea at a time, in the live app. "
            f"Each task ticks itself ({DONE}) when you have done it; one Show me did gets {SHOWN_MARK}, and a lesson "
            "is done when you did every task."
        )
        intro.setWordWrap(True)
        self.list = QListWidget()
        self.list.setObjectName("lessonList")
        self.list.setWordWrap(True)
        self.list.itemActivated.connect(lambda item: self.start(item.data(Qt.ItemDataRole.UserRole)))
        self.list.itemClicked.connect(lambda item: self.start(item.data(Qt.ItemDataRole.UserRole)))
        self.list_errors = QLabel()
        self.list_errors.setObjectName("lessonErrors")
        self.list_errors.setWordWrap(True)
        self.list_errors.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        dismiss = QPushButton("Close")
        dismiss.setObjectName("lessonDismiss")
        dismiss.setToolTip("Hide the lessons; Help → Lessons brings them back")
        dismiss.clicked.connect(self.close)
        layout.addWidget(intro)
        layout.addWidget(self.list, 1)
        layout.addWidget(self.list_errors)
        layout.addWidget(dismiss, 0, Qt.AlignmentFlag.AlignRight)
        return page

    def _fill_list(self) -> None:
        self.list.clear()
        for lesson in self.lessons:
            progress = self.tracker.remembered(lesson)
            done, total = progress.learner_count, len(lesson.tasks)
            shown = len(progress.marks) - done
            mark = DONE if progress.lesson_done else f"{done}/{total}" + (f" · {shown} {SHOWN_MARK}" if shown else "")
            item = QListWidgetItem(f"{lesson.title}   {mark}")
            item.setData(Qt.ItemDataRole.UserRole, lesson)
            item.setToolTip(
                "Done: you did every task"
                if progress.lesson_done
                else f"You did {done} of {total} tasks" + (f"; Show me did {shown} ({SHOWN_MARK})" if shown else "")
            )
            self.list.addItem(item)
        self.list_errors.setText("\n".join(str(e) for e in self.errors))
        self.list_errors.setVisible(bool(self.errors))

    # ---------------------------------------------------------------- one lesson

    def _build_lesson(self) -> QWidget:
        page = QWidget()
        layout = QVBoxLayout(page)
        self.title = QLabel()
        self.title.setObjectName("lessonTitle")
        self.title.setWordWrap(True)
        font = self.title.font()
        font.setBold(True)
        font.setPointSizeF(font.pointSizeF() * 1.25)
        self.title.setFont(font)
        self.explanation = QTextBrowser()
        self.explanation.setObjectName("lessonExplanation")
        self.explanation.setOpenExternalLinks(True)
        self.tasks = QListWidget()
        self.tasks.setObjectName("lessonTasks")
        self.tasks.setWordWrap(True)
        self.tasks.currentRowChanged.connect(self._task_picked)
        self.predict = PredictBox()  # a predict task: the guess, before the reveal
        self.predict.submitted.connect(self.submit_guess)
        self.predict.hide()
        self.hint = QLabel()
        self.hint.setObjectName("lessonHint")
        self.hint.setWordWrap(True)
        self.hint.hide()
        self.compare = QLabel()  # a training lesson: the run before this one, beside this one
        self.compare.setObjectName("lessonCompare")
        self.compare.setWordWrap(True)
        self.compare.setToolTip("The last run (before Reset or new settings) and this one, to compare")
        self.compare.hide()
        self.message = QLabel()
        self.message.setObjectName("lessonMessage")
        self.message.setWordWrap(True)
        self.message.hide()

        def button(text, name, tip, slot):
            b = QPushButton(text)
            b.setObjectName(name)
            b.setToolTip(tip)
            b.clicked.connect(slot)
            return b

        self.hint_button = button("Hint", "lessonHintButton", "A hint for the current task", self.show_hint)
        self.show_me_button = button("Show me", "lessonShowMe", "Do the current task in the app", self.show_me)
        self.next_button = button("Next", "lessonNext", "Move on to the next task", self.next_task)
        self.restart_button = button(
            "Restart lesson", "lessonRestart", "Put the app back to this lesson's start", self.restart
        )
        self.code_button = QToolButton()
        self.code_button.setObjectName("lessonCodeToggle")
        self.code_button.setText("The code")
        self.code_button.setCheckable(True)
        self.code_button.setToolTip("The lesson's python, using autograd_core, ready to copy")
        self.code = QPlainTextEdit()
        self.code.setObjectName("lessonCode")
        self.code.setReadOnly(True)
        self.code.setToolTip(
            "The lesson's code: run it as a script from the project's folder; it prints the numbers on screen"
        )
        self.code.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.code.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.copy_button = button("Copy", "lessonCopy", "Copy the code to the clipboard", self.copy_code)
        self.code_box = QWidget()
        code_layout = QVBoxLayout(self.code_box)
        code_layout.setContentsMargins(0, 0, 0, 0)
        code_layout.addWidget(self.code)
        code_layout.addWidget(self.copy_button, 0, Qt.AlignmentFlag.AlignRight)
        self.code_box.hide()
        self.code_button.toggled.connect(self.code_box.setVisible)
        self.leave_button = button(
            "Leave lesson", "lessonLeave", "Back to the lesson list; every control returns", self.leave
        )
        self.more_button = QToolButton()
        self.more_button.setObjectName("lessonMore")
        self.more_button.setText("More controls")
        self.more_button.setCheckable(True)
        self.more_button.setToolTip("Show every control of the app, not only the lesson's")
        self.more_button.toggled.connect(self._more_toggled)

        # Two buttons a row at most, so the dock stays narrow at 1024 × 700 in presentation mode.
        row1 = QHBoxLayout()
        for b in (self.hint_button, self.show_me_button, self.next_button):
            row1.addWidget(b)
        row2 = QHBoxLayout()
        row2.addWidget(self.code_button)
        row2.addWidget(self.more_button)
        row2.addStretch(1)
        row3 = QHBoxLayout()
        row3.addWidget(self.restart_button)
        row3.addStretch(1)
        row3.addWidget(self.leave_button)
        layout.addWidget(self.title)
        layout.addWidget(self.explanation, 3)
        layout.addWidget(self.tasks, 2)
        layout.addWidget(self.predict)
        layout.addWidget(self.hint)
        layout.addWidget(self.compare)
        layout.addWidget(self.message)
        layout.addLayout(row1)
        layout.addWidget(self.code_box, 3)
        layout.addLayout(row2)
        layout.addLayout(row3)
        return page

    def fit_width(self) -> None:
        """A lesson: about a third of the window, at most 440 px; the list: a quarter, at most 360 px.  The
        live app keeps most of the room."""
        window = self.window_
        share, most = (3, 440) if self.stack.currentIndex() == 1 else (4, 360)
        width = max(240, min(most, window.width() // share))
        window.resizeDocks([self], [width], Qt.Orientation.Horizontal)

    # ---------------------------------------------------------------- running a lesson

    def start(self, lesson) -> bool:
        """Open ``lesson``: set the app up as it says, step back the controls it does not use."""
        self.window_.build_later_areas()  # (a lesson opened in the first instant after the window showed)
        self._stop_waiting()
        self.lesson = lesson
        self.current_task = 0
        self.title.setText(lesson.title)
        self.setWindowTitle(f"Lesson: {lesson.title}")
        self.explanation.setMarkdown(lesson.explanation)
        self.code.setPlainText("\n\n".join(lesson.code))
        self.code_button.setVisible(bool(lesson.code))
        self.code_button.setChecked(False)
        self.hint.hide()
        self.message.hide()
        self.more_button.blockSignals(True)
        self.more_button.setChecked(False)
        self.more_button.blockSignals(False)
        self.stack.setCurrentIndex(1)
        self.show()
        self.fit_width()
        self.tracker.start(lesson)
        ok = self._setup()
        self.stepped_back.apply(self.window_, lesson.controls)
        self.window_.expression.set_columns_fitted(True)  # the graph, the lesson's subject, gets the room
        first_open = next((i for i in range(len(lesson.tasks)) if not self.tracker.is_done(i)), 0)
        self.tasks.setCurrentRow(first_open)
        self._ask()
        self.point_at_task()
        self.lesson_started.emit(lesson.slug)
        return ok

    def _setup(self) -> bool:
        try:
            perform_all(self.window_, self.lesson.setup)
        except (ActionFailed, ValueError) as exc:
            self._say(f"{self.lesson.path}: this lesson's setup failed: {exc}")
            self.tracker.arm()
            return False
        self._settle()
        self.tracker.arm()
        return True

    def _settle(self) -> None:
        """Let the app take in what the actions did (the editor's hand-over, the trainer's answer)."""
        from PySide6.QtWidgets import QApplication

        for _ in range(3):
            QApplication.processEvents()

    def restart(self) -> None:
        if self.lesson is None:
            return
        self._stop_waiting()
        self.tracker.restart()
        self.window_.training.controller.pause()
        self._setup()
        self.tasks.setCurrentRow(0)
        self._ask()

    def leave(self) -> None:
        """Back to the list; every control that stepped back returns."""
        self._stop_waiting()
        self.stepped_back.restore()
        self.window_.expression.set_columns_fitted(False)
        self.tracker.stop()
        self.lesson = None
        self.setWindowTitle("Start here")
        self.stack.setCurrentIndex(0)
        self._fill_list()

    def open_file(self, path: str) -> bool:
        """File → Open lesson…: a teacher's own file.  A bad file: one message naming file, line and problem."""
        try:
            lesson = load_lesson(path)
        except LessonError as exc:
            self.last_error = str(exc)
            self.window_.warn("Lesson not opened", self.last_error)
            return False
        except OSError as exc:
            self.last_error = f"{path}: {exc.strerror or exc}"
            self.window_.warn("Lesson not opened", self.last_error)
            return False
        self.last_error = ""
        return self.start(lesson)

    def show_list(self) -> None:
        """Help → Lessons: the lesson list (or the running lesson), beside the live view."""
        if self.lesson is None:
            self.stack.setCurrentIndex(0)
            self._fill_list()
        self.show()
        self.fit_width()
        self.raise_()

    def closeEvent(self, event) -> None:
        if self.lesson is not None:
            self.leave()
        super().closeEvent(event)

    # ---------------------------------------------------------------- tasks

    def _show_tasks(self) -> None:
        if self.lesson is None:
            return
        row = self.tasks.currentRow()
        self.tasks.blockSignals(True)
        self.tasks.clear()
        for i, task in enumerate(self.lesson.tasks):
            mark = self.tracker.mark(i) or OPEN
            item = QListWidgetItem(f"{mark}  {task.text}")
            item.setData(Qt.ItemDataRole.UserRole, i)
            item.setToolTip(TASK_HELP[mark] + (" (a prediction: guess first)" if task.kind == "predict" else ""))
            self.tasks.addItem(item)
        self.tasks.setCurrentRow(max(0, min(row, len(self.lesson.tasks) - 1)))
        self.tasks.blockSignals(False)
        self._sync_buttons()
        self._show_compare()

    def _show_compare(self) -> None:
        training = self.window_.training
        text = ""
        if self.lesson is not None and self.lesson.tab == "training":
            unit = "epochs" if training.controller.config.batch_size == 0 else "steps"
            text = compare_runs(training.runs.history.runs, unit)
        self.compare.setText(text)
        self.compare.setVisible(bool(text))

    def _task_picked(self, row: int) -> None:
        if row >= 0:
            self.current_task = row
        self.hint.hide()
        self._ask()
        self._sync_buttons()
        self.point_at_task()

    def _ask(self) -> None:
        """The guess box, for a predict task only (fresh: a new task, a restart)."""
        task = self._task()
        predicting = task is not None and task.kind == "predict"
        if predicting:
            self.predict.ask(task)
        self.predict.setVisible(predicting)

    def _task(self):
        if self.lesson is None or not 0 <= self.current_task < len(self.lesson.tasks):
            return None
        return self.lesson.tasks[self.current_task]

    def submit_guess(self, typed: str) -> bool:
        """Check the guess typed for the current predict task, then do its reveal and show the truth beside the
        guess.  A guess that is not a number (or no sign) is refused before anything is revealed.  True when the
        learner earned the ✓ (a right guess, made before the answer was on screen)."""
        task = self._task()
        if task is None or task.kind != "predict" or self._then is not None:  # (a reveal still training)
            return False
        try:
            guess = read_guess(typed, task.answer)
        except GuessError as exc:
            self.predict.say(str(exc)[:1].upper() + str(exc)[1:] + ".", None)
            self.predict.focus()
            return False
        index = self.current_task
        known = self.tracker.truths.get(index)  # revealed already: the answer it showed (not a second reveal)
        if known is None and self._answer_on_screen(task):  # the learner pressed Backward before guessing
            self.tracker.revealed.add(index)
            known = self.tracker.truth(index)
        if known is not None:
            return self._judge(index, task, guess, known)
        try:
            perform_all(self.window_, task.reveal)
        except (ActionFailed, ValueError) as exc:
            self._say(f"{self.lesson.path}, line {task.line}: the reveal failed: {exc}")
            return False
        self._settle()
        if self._after_training(task, lambda: self._judge(index, task, guess, None)):
            return False  # (judged once the training process has answered)
        return self._judge(index, task, guess, None)

    def _judge(self, index: int, task, guess: float, known: float | None) -> bool:
        """The guess against the truth (read now, or ``known`` from the reveal): the sentence, and the mark."""
        self.tracker.refresh()
        result = check_prediction(task, guess, self.tracker.state, known)
        earned = self.tracker.reveal(index, result.correct, result.truth)
        note = ""
        if result.correct and not earned:
            note = " (the answer was on screen before the guess: no ✓; Restart the lesson to try again)"
        sentence = result.sentence[:1].upper() + result.sentence[1:]
        if index == self.current_task:
            self.predict.say(sentence + "." + note, result.correct)
        return earned

    def _after_training(self, task, then) -> bool:
        """A reveal that trains (Play, new layers) answers when the training process does: call ``then`` once
        it has taken every command and stopped.  False (nothing to wait for) for any other reveal."""
        if not any(action.verb in TRAINING_VERBS for action in task.reveal):
            return False
        self._then = then
        self.predict.reveal_button.setEnabled(False)
        self.predict.say("Revealing: waiting for the training to finish…", None)
        self._wait.start()
        return True

    @property
    def revealing(self) -> bool:
        """A reveal (or Show me) that trains is waiting for the training process to answer."""
        return self._then is not None

    def _poll_training(self) -> None:
        controller = self.window_.training.controller
        if self._then is not None and (controller.running or not controller.settled):
            return
        self._stop_waiting(run=True)

    def _stop_waiting(self, run: bool = False) -> None:
        self._wait.stop()
        then, self._then = self._then, None
        self.predict.reveal_button.setEnabled(True)
        if run and then is not None and self.lesson is not None:
            then()

    def _answer_on_screen(self, task) -> bool:
        """Whether the reveal's backward has run already (its grads are on screen): a reveal that starts with
        Backward or Step would only add to them, and the guess could be read off the graph."""
        first = task.reveal[0].verb if task.reveal else ""
        self.tracker.refresh()
        return first in ("backward", "step", "step all") and bool(self.tracker.state.get("backward_done"))

    def point_at_task(self) -> None:
        """Scroll the current task's control into view and outline it (after the layout settles: a lesson's
        start moves the columns); a prediction's control is its guess box, not the button that reveals it."""
        if self.lesson is None or not 0 <= self.current_task < len(self.lesson.tasks):
            return
        task = self.lesson.tasks[self.current_task]
        if task.kind == "predict":
            box = self.predict.guess if task.answer == "number" else self.predict.sign
            QTimer.singleShot(0, lambda: self.spotlight.point_at(box))
            return
        widget = task_control(self.window_, task)
        if widget is not None:
            QTimer.singleShot(0, lambda: self.spotlight.point_at(widget))

    def _sync_buttons(self) -> None:
        if self.lesson is None:
            return
        n = len(self.lesson.tasks)
        self.next_button.setEnabled(self.current_task < n - 1)
        has = 0 <= self.current_task < n
        self.hint_button.setEnabled(has and bool(self.lesson.tasks[self.current_task].hint))
        self.show_me_button.setEnabled(has and bool(self.lesson.tasks[self.current_task].show_me))

    def task_marks(self) -> list[bool]:
        """Whether each task of the running lesson shows ✓, the learner's own (read off the list, as a user
        sees it)."""
        return [self.tasks.item(i).text().startswith(DONE) for i in range(self.tasks.count())]

    def task_signs(self) -> list[str]:
        """Each task's mark as the list shows it: ✓ (the learner), ◌ (Show me) or ○ (not done)."""
        return [self.tasks.item(i).text().split()[0] for i in range(self.tasks.count())]

    def show_hint(self) -> None:
        if self.lesson is None:
            return
        self.hint.setText(f"Hint: {self.lesson.tasks[self.current_task].hint}")
        self.hint.show()
        self.point_at_task()

    def show_me(self) -> None:
        """Do the current task in the app, as a user would."""
        if self.lesson is None:
            return
        index = self.current_task
        task = self.lesson.tasks[index]
        self.tracker.begin_show_me(index)
        try:
            perform_all(self.window_, task.show_me)
        except (ActionFailed, ValueError) as exc:
            self._say(f"{self.lesson.path}, line {task.line}: Show me failed: {exc}")
        self._settle()
        self.tracker.end_show_me(index)
        if task.kind == "predict" and not self._after_training(task, lambda: self._shown(index)):
            self._shown(index)

    def _shown(self, index: int) -> None:
        """Show me revealed a prediction: its answer, kept as the one a later guess is checked against."""
        self.tracker.refresh()
        truth = self.tracker.truths.setdefault(index, self.tracker.truth(index))
        if index == self.current_task and truth is not None:
            self.predict.say(f"Shown: the answer is {format_number(truth)} (no guess: {SHOWN_MARK}).", None)

    def next_task(self) -> None:
        if self.lesson is not None and self.current_task < len(self.lesson.tasks) - 1:
            self.tasks.setCurrentRow(self.current_task + 1)

    def copy_code(self) -> None:
        QGuiApplication.clipboard().setText(self.code.toPlainText())

    def _more_toggled(self, on: bool) -> None:
        if on:
            self.stepped_back.restore()
        elif self.lesson is not None:
            self.stepped_back.apply(self.window_, self.lesson.controls)

    def _say(self, text: str) -> None:
        self.last_error = text
        self.message.setText(text)
        self.message.show()
