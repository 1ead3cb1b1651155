"""The Runs tab: every run kept, one row each, to compare, overlay, restore or delete.

A table model over the ``RunKeeper``'s history (Qt's model/view: the table never holds runs of its own; it
asks the model, and the model reads the keeper).  Rows sort by any column (numbers as numbers).  The "Show"
box overlays a run's curves on the live plots; the name and the note are edited in place; the buttons restore
a run's settings, show two runs' final pictures side by side, and delete.
"""

from __future__ import annotations

import math

from PySide6.QtCore import QAbstractTableModel, QEvent, QSortFilterProxyModel, Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from autograd_core.numbers import MISSING, format_fixed, format_number, format_percent

from .keeper import GHOSTS_MAX, RunKeeper

COLUMNS = ("Show", "Pin", "Run", "Steps", "Train loss", "Test loss", "Best accuracy", "Time (s)", "Note")
SHOW, PIN, NAME, STEPS, TRAIN_LOSS, TEST_LOSS, BEST, TIME, NOTE = range(len(COLUMNS))
SORT_ROLE = Qt.ItemDataRole.UserRole + 1
TIPS = {
    SHOW: "Overlay this run's train curves (dashed) on the live loss and accuracy plots",
    PIN: "A pinned run is never dropped when the history is full (50 runs)",
    NAME: "What differs from the run before; double-click to rename",
    BEST: "The best test accuracy (R² for regression; the train figure when there is no test set)",
    TIME: "Training time, pauses not counted",
    NOTE: "Your note; double-click to write one",
}


def best_score(run) -> float | None:
    """The run's best test accuracy (or R²); the train figure when it has no test set."""
    score = "r2" if run.task == "regression" else "acc"
    best = run.best(f"test_{score}")
    return best if best is not None else run.best(f"train_{score}")


def format_score(run, value: float | None) -> str:
    if run.task == "regression":
        return f"R² {format_number(value, 4)}" if value is not None else MISSING
    return format_percent(value)


SHOWN_ROLES = (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.CheckStateRole)
ROLES = frozenset(
    (
        *SHOWN_ROLES,
        Qt.ItemDataRole.EditRole,
        SORT_ROLE,
        Qt.ItemDataRole.ToolTipRole,
        Qt.ItemDataRole.TextAlignmentRole,
    )
)


class RunsModel(QAbstractTableModel):
    """The keeper's runs as rows, newest first."""

    def __init__(self, keeper: RunKeeper, parent=None):
        super().__init__(parent)
        self.keeper = keeper
        self._runs = []
        self._shown: list[tuple] = []  # what each cell shows, to tell which cells a change touched
        self._keys: list[tuple] = []  # what each row's cells were computed from (unchanged: not computed again)
        self._live_id: int | None = None  # the run being trained (found once per refresh)
        keeper.changed.connect(self.refresh)
        self.refresh()

    def _cells(self, row: int) -> tuple:
        """What the row shows: (text, check state) per column, in column order."""
        run = self._runs[row]
        return tuple(self._value(run, c, role) for c in range(len(COLUMNS)) for role in SHOWN_ROLES)

    def _key(self, run) -> tuple:
        """Everything a row shows is derived from these (a recorded run gets a new curves dict)."""
        live = run.id == self._live_id
        return (
            id(run.curves),
            run.name,
            run.note,
            run.pinned,
            run.steps,
            run.seconds,
            run.id in self.keeper.ghosts,
            live,
        )

    def refresh(self) -> None:
        """The same runs: only the cells that changed are announced (an open editor keeps what is typed in
        it, a selection stays); other runs: the table starts again.  While training, only the live run's row
        changes: the others are not computed again (50 full runs cost 14 ms a second otherwise)."""
        runs = list(reversed(self.keeper.history.runs))
        current = self.keeper.history.current
        self._live_id = None if current is None else current.id
        if [r.id for r in runs] != [r.id for r in self._runs]:
            self.beginResetModel()
            self._runs = runs
            self._shown = [self._cells(row) for row in range(len(runs))]
            self._keys = [self._key(run) for run in runs]
            self.endResetModel()
            return
        self._runs = runs
        for row in range(len(runs)):
            key = self._key(runs[row])
            if key == self._keys[row]:
                continue
            self._keys[row] = key
            cells, before = self._cells(row), self._shown[row]
            self._shown[row] = cells  # (before announcing: a view may read the cell at once)
            for column in range(len(COLUMNS)):
                if cells[2 * column : 2 * column + 2] != before[2 * column : 2 * column + 2]:
                    self.dataChanged.emit(self.index(row, column), self.index(row, column))

    def shown_cells(self) -> tuple:
        """What every row shows (rows and texts: the columns' widths follow from these)."""
        return tuple(self._shown)

    def run_at(self, row: int):
        return self._runs[row]

    def rowCount(self, parent=None) -> int:
        return 0 if parent is not None and parent.isValid() else len(self._runs)

    def columnCount(self, parent=None) -> int:
        return 0 if parent is not None and parent.isValid() else len(COLUMNS)

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):
        if orientation != Qt.Orientation.Horizontal:
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return COLUMNS[section]
        if role == Qt.ItemDataRole.ToolTipRole:
            return TIPS.get(section)
        return None

    def flags(self, index):
        flags = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
        if index.column() in (SHOW, PIN):
            flags |= Qt.ItemFlag.ItemIsUserCheckable
        if index.column() in (NAME, NOTE):
            flags |= Qt.ItemFlag.ItemIsEditable
        return flags

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        """Text and check marks from what ``refresh`` computed: measuring the columns asks every cell for
        several roles (44,000 calls to show 50 runs), and each had found the live run again (1.2–1.9 s)."""
        if not index.isValid() or role not in ROLES:
            return None
        row, column = index.row(), index.column()
        if role in SHOWN_ROLES and row < len(self._shown):
            return self._shown[row][2 * column + SHOWN_ROLES.index(role)]
        return self._value(self._runs[row], column, role)

    def _value(self, run, column: int, role):
        live = run.id == self._live_id
        if role == Qt.ItemDataRole.CheckStateRole:
            if column == SHOW:
                return Qt.CheckState.Checked if run.id in self.keeper.ghosts else Qt.CheckState.Unchecked
            if column == PIN:
                return Qt.CheckState.Checked if run.pinned else Qt.CheckState.Unchecked
            return None
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.EditRole):
            if column == NAME:
                return ("▶ " if live and role == Qt.ItemDataRole.DisplayRole else "") + run.name
            if column == STEPS:
                return f"{run.steps:,}"
            if column == TRAIN_LOSS:
                return format_number(run.final("train_loss"), 4)
            if column == TEST_LOSS:
                return format_number(run.final("test_loss"), 4)
            if column == BEST:
                return format_score(run, best_score(run))
            if column == TIME:
                return format_fixed(run.seconds, 1)
            if column == NOTE:
                return run.note
            return None
        if role == SORT_ROLE:
            value = {
                SHOW: run.id in self.keeper.ghosts,
                PIN: run.pinned,
                NAME: run.name.lower(),
                STEPS: run.steps,
                TRAIN_LOSS: run.final("train_loss"),
                TEST_LOSS: run.final("test_loss"),
                BEST: best_score(run),
                TIME: run.seconds,
                NOTE: run.note.lower(),
            }[column]
            if value is None or (isinstance(value, float) and math.isnan(value)):
                return math.inf  # missing figures sort last
            return value
        if role == Qt.ItemDataRole.ToolTipRole:
            if column == NAME:
                return f"Run {run.id}: {run.name}" + (" — ▶ the run being trained now" if live else "")
            if column == NOTE and run.note:
                return run.note
            return TIPS.get(column)
        if role == Qt.ItemDataRole.TextAlignmentRole and column in (STEPS, TRAIN_LOSS, TEST_LOSS, BEST, TIME):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def setData(self, index, value, role=Qt.ItemDataRole.EditRole) -> bool:
        if not index.isValid():
            return False
        run, column = self._runs[index.row()], index.column()
        try:
            if role == Qt.ItemDataRole.CheckStateRole and column == SHOW:
                on = Qt.CheckState(value) == Qt.CheckState.Checked
                if not self.keeper.show_ghost(run.id, on):
                    self.keeper.controller.message.emit(
                        f"At most {GHOSTS_MAX} runs are overlaid at once: untick one first."
                    )
                    return False
                return True
            if role == Qt.ItemDataRole.CheckStateRole and column == PIN:
                self.keeper.pin(run.id, Qt.CheckState(value) == Qt.CheckState.Checked)
                return True
            if role == Qt.ItemDataRole.EditRole and column == NAME:
                self.keeper.rename(run.id, str(value).strip() or run.name)
                return True
            if role == Qt.ItemDataRole.EditRole and column == NOTE:
                self.keeper.set_note(run.id, str(value))
                return True
        except (KeyError, ValueError) as exc:
            self.keeper.controller.message.emit(f"Not changed: {exc}")
        return False


class RunsPanel(QWidget):
    """The table of runs and its buttons."""

    side_by_side = Signal(object, object)  # two runs to show side by side

    def __init__(self, keeper: RunKeeper, parent=None):
        super().__init__(parent)
        self.keeper = keeper
        self.model = RunsModel(keeper, self)
        self.proxy = QSortFilterProxyModel(self)
        self.proxy.setSourceModel(self.model)
        self.proxy.setSortRole(SORT_ROLE)
        self.table = QTableView()
        self.table.setModel(self.proxy)
        self.table.setSortingEnabled(True)
        self.table.sortByColumn(-1, Qt.SortOrder.AscendingOrder)  # newest first until a header is clicked
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setEditTriggers(
            QAbstractItemView.EditTrigger.DoubleClicked | QAbstractItemView.EditTrigger.EditKeyPressed
        )
        self.table.verticalHeader().hide()
        header = self.table.horizontalHeader()
        # Widths set by _fit_columns from one measurement (ResizeToContents measured every cell again on each
        # change and each show, on top of the fit's own measurement)
        header.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        header.setSectionResizeMode(NAME, QHeaderView.ResizeMode.Stretch)
        header.setStretchLastSection(False)
        self.table.selectionModel().selectionChanged.connect(self._selection_changed)

        self.restore_button = QPushButton("Restore settings")
        self.restore_button.setToolTip("Bring the selected run's settings back (training restarts from them)")
        self.restore_button.clicked.connect(self.restore_selected)
        self.compare_button = QPushButton("Side by side")
        self.compare_button.setToolTip("Show the final boundaries (or fits) of the two selected runs side by side")
        self.compare_button.clicked.connect(self.compare_selected)
        self.delete_button = QPushButton("Delete")
        self.delete_button.setToolTip("Delete the selected runs (the run being trained stays)")
        self.delete_button.clicked.connect(self.delete_selected)
        self.hint = QLabel()
        self.hint.setObjectName("hint")
        self.hint.setWordWrap(True)
        buttons = QHBoxLayout()
        for button in (self.restore_button, self.compare_button, self.delete_button):
            buttons.addWidget(button)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.table, 1)
        layout.addLayout(buttons)
        layout.addWidget(self.hint)
        keeper.changed.connect(self._selection_changed)
        self.table.viewport().installEventFilter(self)
        self.model.modelReset.connect(self._fit_columns)  # new names: the room they need
        self.model.dataChanged.connect(self._fit_soon)  # (the live run's figures grow)
        self._fit_timer = QTimer(self, singleShot=True, interval=0)
        self._fit_timer.timeout.connect(self._fit_columns)
        self._fitted: tuple | None = None  # (texts, room, font) the widths were fitted to
        self.model.modelAboutToBeReset.connect(self._keep_selection)
        self.model.modelReset.connect(self._bring_back_selection)
        self._kept: list[int] = []
        self._selection_changed()

    def _keep_selection(self) -> None:
        self._kept = [run.id for run in self.selected_runs()]

    def _bring_back_selection(self) -> None:
        if self._kept:
            self.select_runs(self._kept)

    # Columns given up, in this order, when the table is narrower than its columns (a small window, big text).
    DROPPABLE = (TIME, STEPS, TEST_LOSS, NOTE, PIN, TRAIN_LOSS)
    _fit_pending = False  # runs came while the table was hidden: fit the columns when it is shown

    def eventFilter(self, watched, event) -> bool:
        if watched is self.table.viewport() and event.type() == QEvent.Type.Resize:
            self._fit_columns()  # the table's own size (a hidden tab's is only known when it is shown)
        return super().eventFilter(watched, event)

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self.hint.setVisible(self.height() > 12 * self.fontMetrics().height())  # a short tab keeps the rows

    def _fit_columns(self) -> None:
        """Every shown column fits the width (no sideways scrolling): the least needed go first.

        Only while the table is on screen (a hidden Runs tab fits its columns when shown): measuring every
        column of 50 runs on each new run cost 230 ms of a click on another tab."""
        if not self.isVisible():
            self._fit_pending = True
            return
        self._fit_pending = False
        self._fit_timer.stop()
        room = self.table.viewport().width()
        fitted = (self.model.shown_cells(), room, self.font().key())
        if fitted == self._fitted:
            return  # (shown and resized at once: one fit)
        self._fitted = fitted
        for column in self.DROPPABLE:
            self.table.setColumnHidden(column, False)  # (a hidden column measures nothing)
        widths = {c: self._column_width(c) + 4 for c in range(len(COLUMNS))}  # (+ the grid line and rounding)
        header = self.table.horizontalHeader()
        for column, width in widths.items():
            if column != NAME:
                header.resizeSection(column, width)
        dropped: set[int] = set()
        for column in self.DROPPABLE:
            if sum(w for c, w in widths.items() if c not in dropped) <= room:
                break
            dropped.add(column)
            self.table.setColumnHidden(column, True)

    def _fit_soon(self, *_args) -> None:
        """Changed cells: one fit for all the changes of this event-loop turn (or when shown)."""
        if self.isVisible():
            self._fit_timer.start()
        else:
            self._fit_pending = True

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if self._fit_pending:
            self._fit_columns()

    def _column_width(self, column: int) -> int:
        if column == NAME:  # stretches: room for its names (a very long one is elided)
            return min(self.table.sizeHintForColumn(NAME), 32 * self.fontMetrics().averageCharWidth())
        return max(self.table.sizeHintForColumn(column), self.table.horizontalHeader().sectionSizeHint(column))

    def selected_runs(self) -> list:
        rows = sorted({self.proxy.mapToSource(i).row() for i in self.table.selectionModel().selectedRows()})
        return [self.model.run_at(r) for r in rows if r < self.model.rowCount()]

    def select_runs(self, run_ids) -> None:
        """Select the rows of these runs (as a click would)."""
        self.table.clearSelection()
        flags = self.table.selectionModel().SelectionFlag.Select | self.table.selectionModel().SelectionFlag.Rows
        for row in range(self.proxy.rowCount()):
            source = self.proxy.mapToSource(self.proxy.index(row, 0)).row()
            if self.model.run_at(source).id in run_ids:
                self.table.selectionModel().select(self.proxy.index(row, 0), flags)

    def _selection_changed(self, *_args) -> None:
        runs = self.selected_runs()
        current = self.keeper.history.current
        self.restore_button.setEnabled(len(runs) == 1)
        self.compare_button.setEnabled(len(runs) == 2)
        self.delete_button.setEnabled(any(current is None or r.id != current.id for r in runs))
        count = len(self.keeper.history.runs)
        if not count:
            self.hint.setText("Each run is kept here from Reset (or new settings) to the next one.")
        elif len(runs) < 2:
            self.hint.setText(
                f"{count} run{'s' * (count != 1)} kept. Tick Show to overlay a run; select two rows for Side by side."
            )
        else:
            self.hint.setText(f"{len(runs)} runs selected.")

    def restore_selected(self) -> None:
        runs = self.selected_runs()
        if len(runs) == 1:
            self.keeper.restore(runs[0].id)

    def compare_selected(self) -> None:
        runs = self.selected_runs()
        if len(runs) == 2:
            self.side_by_side.emit(runs[0], runs[1])

    def delete_selected(self) -> None:
        for run in self.selected_runs():
            self.keeper.delete(run.id)
