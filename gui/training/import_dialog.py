"""File → Import data… (and a file dropped on the training area): preview a CSV/TSV, pick the columns.

The file is read and split in a background thread (``autograd_core.learn.tabular``:
bounded, regular files only) while the dialog shows a busy bar, so even a
100,000-row file never freezes the window; then a preview of the first rows,
two pickers for the feature columns (the plane's x1 and x2), one for the
label column (text labels are fine), and the test share.  Anything wrong
(binary, ragged, a cell that is not a number, too many classes…) is one line
in red naming the line and column, and OK stays off.
"""

from __future__ import annotations

import threading

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QProgressBar,
    QTableWidget,
    QVBoxLayout,
)

from autograd_core.files import FileError
from autograd_core.learn.tabular import DELIMITER_NAMES, PREVIEW_ROWS, Table, TableError, read_table, table_dataset

from ..look.app_style import set_text_role
from ..shell.number_box import WholeNumberBox
from ..shell.table_cells import resize_table, table_cell

POLL_MS = 30


class ImportDialog(QDialog):
    """Reads ``path`` in the background; ``dataset`` holds the result after OK."""

    def __init__(self, path: str, parent=None, test_percent: int = 25):
        super().__init__(parent)
        self.setWindowTitle("Import data")
        self.path = str(path)
        self.table: Table | None = None
        self.dataset = None
        self.error: str | None = None
        self._result: tuple | None = None
        self.status = QLabel(f"Reading {self.path}…")
        self.status.setWordWrap(True)
        self.progress = QProgressBar()
        self.progress.setRange(0, 0)  # busy
        self.preview = QTableWidget()
        self.preview.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.preview.setMinimumHeight(180)
        self.x1 = QComboBox()
        self.x2 = QComboBox()
        self.label = QComboBox()
        for box, tip in (
            (self.x1, "The column plotted across (x1)"),
            (self.x2, "The column plotted up (x2)"),
            (self.label, "The class of each row (numbers or text; at most six classes)"),
        ):
            box.setToolTip(tip)
            box.currentIndexChanged.connect(self._check)
        self.test_percent = WholeNumberBox(0, 90)
        self.test_percent.setSuffix(" %")
        self.test_percent.setValue(test_percent)
        self.test_percent.setToolTip("Share of the rows held out as a test set")
        self.problem = QLabel()
        self.problem.setObjectName("importProblem")
        self.problem.setWordWrap(True)
        set_text_role(self.problem, "error")
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self._accept)
        self.buttons.rejected.connect(self.reject)
        self.ok_button.setEnabled(False)
        form = QFormLayout()
        form.addRow("Feature x1", self.x1)
        form.addRow("Feature x2", self.x2)
        form.addRow("Label", self.label)
        form.addRow("Test set", self.test_percent)
        layout = QVBoxLayout(self)
        layout.addWidget(self.status)
        layout.addWidget(self.progress)
        layout.addWidget(self.preview, 1)
        layout.addLayout(form)
        layout.addWidget(self.problem)
        layout.addWidget(self.buttons)
        # as big as the font needs (presentation mode's too: the preview shows its rows), within the window
        fm = self.fontMetrics()
        width, height = max(640, 64 * fm.averageCharWidth()), max(480, 24 * fm.height())
        if parent is not None:
            room = parent.window().size()
            width, height = (
                min(width, max(640, int(0.9 * room.width()))),
                min(height, max(480, int(0.9 * room.height()))),
            )
        self.resize(width, height)
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()
        self._timer = QTimer(self)
        self._timer.setInterval(POLL_MS)
        self._timer.timeout.connect(self._poll)
        self._timer.start()

    @property
    def ok_button(self):
        return self.buttons.button(QDialogButtonBox.StandardButton.Ok)

    @property
    def reading(self) -> bool:
        return self._timer.isActive()

    def _read(self) -> None:
        try:
            self._result = (read_table(self.path), None)
        except (FileError, TableError) as exc:
            self._result = (None, f"Cannot import {self.path}: {exc}.")
        except MemoryError:
            self._result = (None, f"Cannot import {self.path}: not enough memory to read it.")
        except Exception as exc:  # a dialog must never take the window down
            self._result = (None, f"Cannot import {self.path}: {type(exc).__name__}: {exc}")

    def _poll(self) -> None:
        if self._result is None:
            return
        self._timer.stop()
        self.progress.hide()
        table, error = self._result
        if error is not None:
            self.error = error
            self.status.setText("Nothing was imported: choose another file (CSV or TSV, UTF-8 text).")
            self.problem.setText(error)
            return
        self._show_table(table)

    def _show_table(self, table: Table) -> None:
        self.table = table
        header = "a header row" if table.has_header else "no header row (columns numbered)"
        self.status.setText(
            f"{len(table.rows):,} rows × {len(table.columns)} columns, {DELIMITER_NAMES[table.delimiter]}-separated, "
            f"{header}. First {min(PREVIEW_ROWS, len(table.rows))} rows:"
        )
        rows = table.preview()
        resize_table(self.preview, len(rows), len(table.columns))  # (a second file reuses the cells: table_cells)
        self.preview.setHorizontalHeaderLabels(table.columns)
        self.preview.setVerticalHeaderLabels([str(n) for n in table.lines[: len(rows)]])
        for i, row in enumerate(rows):
            for j in range(len(table.columns)):  # a short (ragged) row's missing cells blank, not the last file's
                table_cell(self.preview, i, j).setText(row[j] if j < len(row) else "")
        for box in (self.x1, self.x2, self.label):
            box.blockSignals(True)
            box.clear()
            for j, name in enumerate(table.columns):
                box.addItem(name, j)
            box.blockSignals(False)
        n = len(table.columns)
        self.x1.setCurrentIndex(0)
        self.x2.setCurrentIndex(min(1, n - 1))
        self.label.setCurrentIndex(n - 1)
        self._check()

    def choose(self, x1: str, x2: str, label: str) -> None:
        """Pick the columns by name (what a user does with the three boxes)."""
        for box, name in ((self.x1, x1), (self.x2, x2), (self.label, label)):
            box.setCurrentIndex(box.findText(name))

    def _build(self):
        return table_dataset(
            self.table,
            [self.x1.currentData(), self.x2.currentData()],
            self.label.currentData(),
            test_fraction=self.test_percent.value() / 100.0,
        )

    def _check(self) -> None:
        """Try the chosen columns now, so a bad cell is named before OK."""
        if self.table is None or self.x1.currentData() is None or self.label.currentData() is None:
            return
        try:
            dataset = self._build()
        except (TableError, ValueError) as exc:
            self.problem.setText(f"{exc}.")
            self.ok_button.setEnabled(False)
            return
        self.problem.setText("")
        names = dataset.class_names or []
        self.ok_button.setEnabled(True)
        self.ok_button.setToolTip(f"{len(dataset.y):,} points in {len(names)} classes: {', '.join(names)}")

    def _accept(self) -> None:
        if self.table is None:
            return
        try:
            self.dataset = self._build()
        except (TableError, ValueError) as exc:
            self.problem.setText(f"{exc}.")
            return
        self.accept()

    def wait_until_read(self, timeout: float = 30.0) -> None:
        """Block until the file is read (tests and scripts)."""
        self._thread.join(timeout)
        self._poll()

    def keyPressEvent(self, event) -> None:
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and not self.ok_button.isEnabled():
            return
        super().keyPressEvent(event)
