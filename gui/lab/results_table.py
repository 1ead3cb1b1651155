"""The Optimizer lab's results table: one row per racer, columns fitted to the width, Results or Settings tabs.

A widget of its own, composed into ``OptimizerLabPanel``: it reads and edits the lab's ``LabState`` and tells
the panel what it needs through signals (a message; a new height when its view tabs come or go). Its job:
fitting eight rows of optimizer settings and results into whatever width the window gives, cutting a cell
short only with its whole text in its tooltip.
"""

from __future__ import annotations

import math

from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtGui import QIcon, QPixmap
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QTabBar,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from autograd_core.learn.optim import OPTIMIZER_LABELS
from autograd_core.numbers import format_full, format_number

from ..look.theme import lab_colors
from ..shell.table_cells import table_cell
from .optimizer_lab_state import LabState, settings_text

COLUMNS = ("Optimizer", "lr", "Settings", "Steps", "Loss", "Distance", "Note")
COLUMN_TIPS = (
    "Optimizer: tick the ones to race",
    "lr: the learning rate; double-click to edit (used from the next race)",
    "Settings: the optimizer's other settings, torch's names; double-click to edit (used from the next race)",
    "Steps taken",
    "Loss: f at the racer's current point",
    "Distance to the nearest known minimum",
    "Note: why a racer stopped",
)
ELASTIC = (2, 6)  # Settings and Note give up width first (elided, the whole text in the cell's tooltip)
# A table too narrow for every column shows them in two views, one at a time (a tab bar over the table):
RESULTS_VIEW = (0, 1, 3, 4, 5, 6)  # the race's figures, beside each optimizer's name and learning rate
SETTINGS_VIEW = (0, 1, 2)  # what each optimizer races with (editable)
DROPPED = (6, 5, 1)  # still too narrow, the results leave out Note, Distance, lr (name, steps and loss stay)
LEAST_CHARS = 3  # … down to about this many characters (the tooltip has the rest)
NAME_CHARS = 5  # then the optimizer's name, down to its check box, swatch and about this many characters
EDITABLE = (1, 2)
EDITABLE_FLAGS = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemIsEditable
RESERVED = (3, 4, 5)  # Steps, Loss, Distance: room for longer numbers than shown, given up when the table is tight


class ResultsTable(QWidget):
    """The lab's results table over its view tabs (Results, Settings), filled from and edited into ``lab``."""

    status = Signal(str)
    compact_changed = Signal()  # the view tabs came or went: the table's height changed

    def __init__(self, lab: LabState, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("labTableBox")
        self.lab = lab
        self.theme = "light"
        self._filling = False
        self.table = QTableWidget(len(lab.rows), len(COLUMNS))
        self.table.setObjectName("labTable")
        self.table.setHorizontalHeaderLabels(COLUMNS)
        self.table.verticalHeader().setVisible(False)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        # Widths are fitted once per fill, not on every change: a resize-to-contents column measures every
        # cell again on each setText (0.5 ms a cell; the table changes on every frame of a race).
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self.table.horizontalHeader().setStretchLastSection(True)
        for c, tip in enumerate(COLUMN_TIPS):
            self.table.horizontalHeaderItem(c).setToolTip(tip)
        self.table.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.table.horizontalHeader().setTextElideMode(Qt.TextElideMode.ElideRight)  # (the tips hold the names)
        self.table.viewport().installEventFilter(self)  # a new width fits the columns again
        self._natural_widths: list[int] = []
        self.table.setToolTip(
            "Tick the optimizers to race; double-click lr or Settings to edit them (used from the next race). "
            "Distance is to the nearest known minimum."
        )
        self.table.itemChanged.connect(self._item_changed)
        # narrow, the table shows the results or the settings, whole, rather than every column cut to "…"
        self.tabs = QTabBar()
        self.tabs.setObjectName("labTableTabs")
        self.tabs.setDocumentMode(True)
        self.tabs.setExpanding(False)
        self.tabs.addTab("Results")
        self.tabs.setTabToolTip(0, "Each racer's steps, loss, distance to the nearest minimum and note")
        self.tabs.addTab("Settings")
        self.tabs.setTabToolTip(1, "Each optimizer's learning rate and other settings: double-click to edit")
        self.tabs.hide()
        self.tabs.currentChanged.connect(lambda _index: self._fit_columns())
        self._compact = False  # the table shows one view at a time
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self.tabs)
        layout.addWidget(self.table, 1)

    def set_theme(self, theme: str) -> None:
        """The racers' swatches follow the theme (the next fill paints them)."""
        self.theme = theme

    def show_results(self) -> None:
        """A new race: its results in view."""
        self.tabs.setCurrentIndex(0)

    def needed_height(self) -> int:
        """Every racer's row, with the header (and the view tabs when shown)."""
        table = self.table
        return (
            table.verticalHeader().length()
            + table.horizontalHeader().sizeHint().height()
            + 2 * table.frameWidth()
            + (self.tabs.sizeHint().height() if self.tabs.isVisibleTo(self) else 0)
        )

    def eventFilter(self, watched, event) -> bool:
        if watched is self.table.viewport() and event.type() == QEvent.Type.Resize:
            self._fit_columns()
        return super().eventFilter(watched, event)

    def fill(self) -> None:
        self._filling = True
        try:
            for r, row in enumerate(self.lab.rows):  # each cell's item kept and changed (table_cells says why)
                name = table_cell(self.table, r, 0)
                name.setText(OPTIMIZER_LABELS[row.kind])
                name.setToolTip(f"{OPTIMIZER_LABELS[row.kind]}: tick it to race")
                name.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsUserCheckable)
                name.setCheckState(Qt.CheckState.Checked if row.enabled else Qt.CheckState.Unchecked)
                swatch = QPixmap(12, 12)
                racers = lab_colors(self.theme).racers
                swatch.fill(racers[r % len(racers)])
                name.setIcon(QIcon(swatch))
                lr = table_cell(self.table, r, 1)
                lr.setText(format_number(row.lr))
                lr.setToolTip(self._lr_tip(row.lr))
                lr.setFlags(EDITABLE_FLAGS)
                settings = table_cell(self.table, r, 2)
                settings.setText(settings_text(row.settings))
                settings.setToolTip(self._settings_tip(row.settings))
                settings.setFlags(EDITABLE_FLAGS if row.settings else Qt.ItemFlag.ItemIsEnabled)
                for c in range(3, len(COLUMNS)):
                    cell = table_cell(self.table, r, c)
                    cell.setText("")
                    cell.setToolTip("")
                    cell.setFlags(Qt.ItemFlag.ItemIsEnabled)
        finally:
            self._filling = False
        self.update_figures()
        self.measure_columns()

    @staticmethod
    def _lr_tip(lr: float) -> str:
        return f"{format_number(lr)} — learning rate {format_full(lr)}: double-click to edit (used from the next race)"

    @staticmethod
    def _settings_tip(settings) -> str:
        text = settings_text(settings)
        about = "other settings, torch's names: double-click to edit (used from the next race)"
        return f"{text} — {about}" if text else about[0].upper() + about[1:]

    def measure_columns(self) -> None:
        """Each column's natural width (its contents, in the font in use), then fitted to the table's width."""
        for c in range(self.table.columnCount()):
            self.table.setColumnHidden(c, False)  # (a hidden column measures nothing)
        self.table.resizeColumnsToContents()
        metrics = self.table.fontMetrics()
        for c, sample in ((3, "00000"), (4, "−8.888e−15"), (5, "8.888e−15")):  # the numbers a race will show
            self.table.setColumnWidth(c, max(metrics.horizontalAdvance(sample) + 14, self.table.columnWidth(c)))
        self._natural_widths = [self.table.columnWidth(c) for c in range(self.table.columnCount())]
        self._fit_columns()

    def _fit_columns(self) -> None:
        """The columns share the table's width, never more (no sideways scrolling).  When every column fits at
        its natural width all show; otherwise the table shows one view at a time (Results or Settings, a tab
        bar over it), each column whole where it can be: Settings and Note give up width first, elided with the
        whole text in their tooltips, then the numbers' spare room; still too narrow, the results view leaves
        out Note, Distance and lr (in that order), then the names shrink, then every column alike."""
        natural = self._natural_widths
        if not natural:
            return
        room = self.table.viewport().width()
        least = LEAST_CHARS * self.table.fontMetrics().averageCharWidth() + 12
        settings_least = self._settings_least()
        # every column in view when the names and numbers keep their width, Settings stays readable (whole,
        # wrapped onto two lines where the rows have room for them) and Note keeps a few letters
        key = sum(w for c, w in enumerate(natural) if c not in ELASTIC)
        compact = key + min(settings_least, natural[2]) + min(least, natural[6]) > room + 1
        if compact != self._compact:
            self._compact = compact
            self.tabs.setVisible(compact)
            self.compact_changed.emit()
        if not compact:
            shown = list(range(len(COLUMNS)))
        else:
            shown = list(RESULTS_VIEW if self.tabs.currentIndex() == 0 else SETTINGS_VIEW)
        widths = {c: natural[c] for c in shown}
        excess = sum(widths.values()) - room
        if excess > 0:
            elastic = [c for c in ELASTIC if c in widths]
            give = [max(widths[c] - (least if c == 6 or compact else settings_least), 0) for c in elastic]
            for c, can in zip(elastic, give, strict=True):
                widths[c] -= min(can, math.ceil(excess * can / max(sum(give), 1)))
            excess = sum(widths.values()) - room
            for c in (c for c in RESERVED if c in widths):  # the numbers' room kept for longer values
                if excess <= 0:
                    break
                taken = min(max(widths[c] - self._shown_width(c), 0), excess)
                widths[c] -= taken
                excess -= taken
            for c in DROPPED:  # whole columns out of view rather than each cut to a letter and "…"
                if excess <= 0 or len(widths) <= 3:
                    break
                if c in widths:
                    excess -= widths.pop(c)
            if excess > 0:  # then the names (the swatch and the first letters still tell the racers apart)
                indicator = self.style().pixelMetric(self.style().PixelMetric.PM_IndicatorWidth)
                least = indicator + 12 + NAME_CHARS * self.table.fontMetrics().averageCharWidth() + 16
                widths[0] -= min(max(widths[0] - least, 0), excess)
                excess = sum(widths.values()) - room
            if excess > 0:
                total = sum(widths.values())
                least = self.table.horizontalHeader().minimumSectionSize()  # (Qt widens a narrower column)
                widths = {c: max(least, int(w * room / total)) for c, w in widths.items()}
                widest = max(widths, key=widths.get)  # the floor may leave a few pixels over
                widths[widest] -= max(sum(widths.values()) - room, 0)
        if compact and self.tabs.currentIndex() == 0:
            left_out = [COLUMNS[c] for c in RESULTS_VIEW if c not in widths]
            tip = "Each racer's steps, loss, distance to the nearest minimum and note"
            if left_out:
                tip += f" ({' and '.join(left_out)} left out at this width: widen the table to see them)"
            self.tabs.setTabToolTip(0, tip)
        header = self.table.horizontalHeader()
        header.setStretchLastSection(False)
        for c in range(len(COLUMNS)):
            hidden = c not in widths
            if self.table.isColumnHidden(c) != hidden:
                self.table.setColumnHidden(c, hidden)
            if not hidden and self.table.columnWidth(c) != widths[c]:
                self.table.setColumnWidth(c, widths[c])
        header.setStretchLastSection(sum(widths.values()) <= room)

    def _settings_least(self) -> int:
        """The Settings column's narrowest readable width: its longest word where a row has room for two lines
        (the cell wraps, e.g. "betas=0.9/0.999," over "weight_decay=0.01"), else its widest text."""
        metrics = self.table.fontMetrics()
        texts = [self.table.item(r, 2).text() for r in range(self.table.rowCount()) if self.table.item(r, 2)]
        two_lines = self.table.verticalHeader().defaultSectionSize() >= 2 * metrics.lineSpacing()
        pieces = [word for text in texts for word in text.split()] if two_lines else texts
        return max([metrics.horizontalAdvance(p) + 14 for p in pieces] or [0])

    def _shown_width(self, c: int) -> int:
        """Room for column ``c``'s texts now (and its header's name), in the font in use."""
        metrics = self.table.fontMetrics()
        texts = [self.table.item(r, c).text() for r in range(self.table.rowCount()) if self.table.item(r, c)]
        header = self.table.horizontalHeaderItem(c).text()
        margin = self.style().pixelMetric(self.style().PixelMetric.PM_HeaderMargin)
        return max(
            [metrics.horizontalAdvance(t) + 14 for t in texts] + [metrics.horizontalAdvance(header) + 4 * margin]
        )

    def update_figures(self) -> None:
        race = self.lab.race
        by_row = {}
        if race is not None:
            by_row = dict(zip(self.lab.race_rows, race.racers))
        self._filling = True
        try:
            for r in range(len(self.lab.rows)):
                racer = by_row.get(r)
                if racer is None:
                    texts = tips = ("", "", "", "")
                else:
                    distance = racer.distance
                    far = "—" if math.isnan(distance) else format_number(distance)
                    texts = (str(racer.steps), format_number(racer.loss), far, racer.note or "")
                    # each cell's tooltip holds its whole text: a narrow column elides it on purpose
                    tips = (
                        f"{texts[0]} steps taken",
                        f"{texts[1]} — loss f = {format_full(racer.loss)} at the racer's current point",
                        "No known minimum" if far == "—" else f"{far} — {format_full(distance)} to the nearest minimum",
                        texts[3],
                    )
                for c, (text, tip) in enumerate(zip(texts, tips, strict=True), start=3):
                    cell = self.table.item(r, c)
                    if cell.text() != text:
                        cell.setText(text)
                        cell.setToolTip(tip)
        finally:
            self._filling = False

    def _item_changed(self, item: QTableWidgetItem) -> None:
        if self._filling:
            return
        r, c = item.row(), item.column()
        if c == 0:
            self.lab.set_enabled(r, item.checkState() == Qt.CheckState.Checked)
            return
        if c not in EDITABLE:
            return
        if c == 1:
            try:
                problem = self.lab.set_lr(r, float(item.text().replace("−", "-")))
            except ValueError:
                problem = f"'{item.text()}' is not a number"
        else:
            problem = self.lab.set_settings(r, item.text())
        row = self.lab.rows[r]
        if problem:
            self.status.emit(f"{OPTIMIZER_LABELS[row.kind]}: {problem}")
        self._filling = True
        try:  # show the value in force (the old one if the text was refused)
            item.setText(format_number(row.lr) if c == 1 else settings_text(row.settings))
            item.setToolTip(self._lr_tip(row.lr) if c == 1 else self._settings_tip(row.settings))
        finally:
            self._filling = False
        if not problem:
            self.status.emit(f"{OPTIMIZER_LABELS[row.kind]}: new settings are used from the next race (click the map).")
