"""A table's cells kept and changed in place, never replaced.

Why: ``QTableWidget.setItem`` over a cell that has an item makes Qt delete the old item, and
shrinking the table deletes the items it drops, each behind a Python wrapper PySide may still
hold.  A table redrawn at every training snapshot and every theme switch (the confusion matrix)
churned thousands of items, and the GUI monkey once crashed inside ``setItem``.  Here an item is
made once per cell and then only its text and colors change; the cells a shrink drops are taken
out first, so Python, which holds them, is the one that frees them.
"""

from __future__ import annotations

from PySide6.QtWidgets import QTableWidget, QTableWidgetItem


def resize_table(table: QTableWidget, rows: int, columns: int) -> None:
    """``rows`` × ``columns`` cells, the items (and header items) beyond them taken out before Qt drops them."""
    old_rows, old_columns = table.rowCount(), table.columnCount()
    for r in range(rows, old_rows):
        for c in range(old_columns):
            table.takeItem(r, c)
        table.takeVerticalHeaderItem(r)
    for c in range(columns, old_columns):
        for r in range(min(rows, old_rows)):
            table.takeItem(r, c)
        table.takeHorizontalHeaderItem(c)
    table.setRowCount(rows)
    table.setColumnCount(columns)


def table_cell(table: QTableWidget, row: int, column: int) -> QTableWidgetItem:
    """The item of a cell, made (once) when the cell has none; set every property you rely on, it may be reused."""
    item = table.item(row, column)
    if item is None:
        item = QTableWidgetItem()
        table.setItem(row, column, item)
    return item
