"""Your own data: a CSV or TSV file → a preview → a two-feature classification data set (and back out as CSV).

Reading reuses ``files.read_regular_file``: only a regular file of at most
``MAX_TABLE_BYTES`` is read (a FIFO, a device or a folder is refused before
it is opened, a 1 GB file before a byte is read), so memory is bounded by
the cap and nothing can block.  Then, one clear message for each way a file
can be wrong, naming the line (1-based, as an editor shows it) and the
column:

- not text (NUL bytes, not UTF-8): "it is not a text file …";
- one column only (a wrong delimiter): "found one column …";
- a ragged row: "line 7 has 2 fields; the header has 3";
- a value that is not a number, or NaN/inf: "line 12, column 'x2': 'abc' is not a number";
- too many rows or classes: the limits of ``data.MAX_SAMPLES`` and ``data.MAX_CLASSES``.

The delimiter is the one of comma, tab, semicolon and "|" that splits the
first lines into the same number (> 1) of fields; the first row is a header
when a column holds text there and numbers below (else columns are named
``column 1 …``).  Class labels may be any text: classes are numbered in
sorted order (numerically when every label is a number).
"""

from __future__ import annotations

import csv
import io
import itertools
import math
import os
from dataclasses import dataclass

import numpy as np

from autograd_core.files import read_regular_file
from autograd_core.learn.data import MAX_CLASSES, MAX_SAMPLES, Dataset, _finish
from autograd_core.numbers import counted, is_number

MAX_TABLE_BYTES = 64 * 2**20  # 100,000 rows of a few dozen columns
MAX_COLUMNS = 1000
PICK_CHARS = 10_000  # of each sample line, to pick the delimiter (a line of megabytes is not split to count)
DELIMITERS = (",", "\t", ";", "|")
DELIMITER_NAMES = {",": "comma", "\t": "tab", ";": "semicolon", "|": "bar"}
PREVIEW_ROWS = 8


class TableError(ValueError):
    """A table cannot be read or used; ``str()`` says why, with the line and column."""


@dataclass
class Table:
    """The cells of a delimited text file, as text; ``lines[i]`` is the file line of ``rows[i]``."""

    columns: list[str]
    rows: list[list[str]]
    lines: list[int]
    delimiter: str
    has_header: bool
    name: str = "table"

    def column_index(self, column: str | int) -> int:
        """A column by name (case-insensitive if not exact), by position (an int, 0-based) or by a number
        typed as text (1-based, as "column 3")."""
        if isinstance(column, str) and column not in self.columns and column.strip().isdigit():
            number = int(column)
            if not 1 <= number <= len(self.columns):
                raise TableError(f"there is no column {number}; the file has {len(self.columns)}")
            return number - 1
        if isinstance(column, int) and not isinstance(column, bool):
            if not 0 <= column < len(self.columns):
                raise TableError(f"there is no column {column + 1}; the file has {len(self.columns)}")
            return column
        if column in self.columns:
            return self.columns.index(column)
        lowered = [c.lower() for c in self.columns]
        if str(column).lower() in lowered:
            return lowered.index(str(column).lower())
        raise TableError(f"there is no column {column!r}; the columns are {', '.join(map(repr, self.columns))}")

    def preview(self, rows: int = PREVIEW_ROWS) -> list[list[str]]:
        return self.rows[:rows]


def _pick_delimiter(sample_lines: list[str]) -> str | None:
    best, best_fields = None, 1
    for d in DELIMITERS:
        counts = [len(next(csv.reader([line], delimiter=d))) for line in sample_lines if line.strip()]
        if counts and min(counts) > 1 and len(set(counts)) == 1 and counts[0] > best_fields:
            best, best_fields = d, counts[0]
    if best is None:  # ragged sample: the delimiter that gives the most fields on the first line
        for d in DELIMITERS:
            n = len(next(csv.reader([sample_lines[0]], delimiter=d))) if sample_lines else 1
            if n > best_fields:
                best, best_fields = d, n
    return best


def parse_table(text: str, name: str = "table", delimiter: str | None = None) -> Table:
    """Split text into a ``Table`` (delimiter and header detected unless given)."""
    if "\x00" in text:
        raise TableError("it is not a text file (it holds NUL bytes): choose a CSV or TSV file")
    lines = text.splitlines()
    numbered = [(i + 1, line) for i, line in enumerate(lines) if line.strip() and not line.lstrip().startswith("#")]
    if not numbered:
        raise TableError("it holds no rows")
    if delimiter is None:
        delimiter = _pick_delimiter([line[:PICK_CHARS] for _, line in numbered[:20]])
    if delimiter is None:
        raise TableError(
            "found one column only: the rows need two or more columns separated by commas, tabs or semicolons"
        )
    # Refused before the csv module splits them: it splits a line in one call that holds the interpreter, and a
    # session file (one line of megabytes) read as a table kept the window waiting 0.6 s.
    for number, line in numbered:
        if line.count(delimiter) >= MAX_COLUMNS:
            raise TableError(
                f"line {number} has {line.count(delimiter) + 1:,} columns; at most {MAX_COLUMNS:,} are read"
            )
    reader = csv.reader(io.StringIO("\n".join(line for _, line in numbered)), delimiter=delimiter)
    rows = [[cell.strip() for cell in row] for row in reader]
    if len(rows) != len(numbered):  # a quoted field spanning lines: keep it simple, refuse it
        raise TableError("a quoted field runs over several lines; put every row on one line")
    line_numbers = [n for n, _ in numbered]
    width = len(rows[0])
    if width < 2:
        raise TableError("found one column only: separate the columns with commas, tabs or semicolons")
    if width > MAX_COLUMNS:
        raise TableError(f"it has {width:,} columns; at most {MAX_COLUMNS:,} are read")
    body = rows[1:6]
    has_header = any(
        not is_number(rows[0][j]) and all(j < len(r) and is_number(r[j]) for r in body) and body for j in range(width)
    ) or all(not is_number(cell) for cell in rows[0])
    if has_header:
        columns = [cell or f"column {j + 1}" for j, cell in enumerate(rows[0])]
        rows, line_numbers = rows[1:], line_numbers[1:]
    else:
        columns = [f"column {j + 1}" for j in range(width)]
    if len(rows) > MAX_SAMPLES:
        raise TableError(f"it holds {len(rows):,} rows; at most {MAX_SAMPLES:,} are allowed")
    if not rows:
        raise TableError("it holds a header but no rows")
    for row, line in zip(rows, line_numbers):
        if len(row) != width:
            what = "the header has" if has_header else "the first row has"
            raise TableError(f"line {line} has {counted(len(row), 'field')}; {what} {width}")
    return Table(columns, rows, line_numbers, delimiter, has_header, name)


def read_table(path: str | os.PathLike, delimiter: str | None = None) -> Table:
    """Read and split a CSV/TSV file (bounded, regular files only); raises FileError or TableError."""
    raw = read_regular_file(path, MAX_TABLE_BYTES)
    if b"\x00" in raw[:65536]:
        raise TableError("it is not a text file (it holds NUL bytes): choose a CSV or TSV file")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise TableError(
            f"it is not UTF-8 text (line {line} holds a byte that is not): choose a CSV or TSV file"
        ) from None
    name = os.path.splitext(os.path.basename(os.fspath(path)))[0] or "table"
    return parse_table(text, name, delimiter)


def numeric_column(table: Table, column: str | int) -> np.ndarray:
    """A column as finite floats; TableError naming the first bad cell's line and column."""
    j = table.column_index(column)
    cells = [row[j] for row in table.rows]
    try:
        values = np.array(cells, dtype=float)
    except ValueError:
        values = None
    if values is not None and np.isfinite(values).all():
        return values
    for cell, line in zip(cells, table.lines):
        try:
            v = float(cell)
        except ValueError:
            shown = cell if len(cell) <= 30 else cell[:29] + "…"
            raise TableError(f"line {line}, column {table.columns[j]!r}: {shown!r} is not a number") from None
        if not math.isfinite(v):
            raise TableError(f"line {line}, column {table.columns[j]!r}: {cell!r} is not a finite number")
    raise AssertionError("unreachable")


def class_labels(table: Table, column: str | int, max_classes: int = MAX_CLASSES) -> tuple[np.ndarray, list[str]]:
    """A label column as class numbers 0 … K−1 and the K names (numbers sorted numerically, text sorted)."""
    j = table.column_index(column)
    cells = [row[j] for row in table.rows]
    for cell, line in zip(cells, table.lines):
        if cell == "":
            raise TableError(f"line {line}, column {table.columns[j]!r}: the label is empty")
    names = sorted(set(cells))
    if all(is_number(n) for n in names):
        names = sorted(names, key=float)
    if len(names) > max_classes:
        raise TableError(
            f"column {table.columns[j]!r} has {len(names):,} different labels; at most {max_classes} classes "
            "are allowed (is it the label column?)"
        )
    if len(names) < 2:
        raise TableError(f"column {table.columns[j]!r} has one label only ({names[0]!r}); classes need two or more")
    index = {n: k for k, n in enumerate(names)}
    return np.array([index[c] for c in cells], dtype=int), names


def table_dataset(
    table: Table,
    x_columns: list[str | int],
    label_column: str | int,
    test_fraction: float = 0.25,
    seed: int = 0,
    standardize: bool = True,
) -> Dataset:
    """Two feature columns and a label column → a classification ``Dataset`` (stratified split, seeded).

    Standardized by default (mean 0, std 1 from the training rows), so any
    units train with the same settings; ``class_names`` keeps the labels' text.
    """
    if len(x_columns) != 2:
        raise TableError(f"choose two feature columns for the plane, got {len(x_columns)}")
    if not 0.0 <= test_fraction < 1.0:
        raise TableError(f"the test share must be from 0 to below 1, got {test_fraction!r}")
    js = [table.column_index(c) for c in x_columns]
    jl = table.column_index(label_column)
    if js[0] == js[1]:
        raise TableError("choose two different feature columns")
    if jl in js:
        raise TableError("the label column cannot also be a feature")
    X = np.column_stack([numeric_column(table, j) for j in js])
    y, names = class_labels(table, jl)
    rng = np.random.default_rng(seed)
    features = [table.columns[j] for j in js]
    return _finish(X, y, test_fraction, rng, standardize, table.name, class_names=names, feature_names=features)


ROWS_PER_SLICE = 2000  # predictions_csv builds its text this many rows at a time (a few ms each)


def predictions_csv(dataset: Dataset, scores: np.ndarray, names: list[str] | None = None) -> str:
    """The data (in the file's own units when it was standardized) with each point's set, label, prediction
    and class probabilities, as CSV text.

    Built a column at a time (``repr`` and ``format`` mapped over lists, rows joined once): the same text as a
    ``csv.writer`` row by row, several times faster (100,000 points in well under a second)."""
    from autograd_core.learn.losses import class_probabilities, predict

    X = dataset.X * dataset.scale + dataset.mean
    y = dataset.y
    scores = np.asarray(scores)
    pred = predict(scores)
    probs = class_probabilities(scores)
    labels = names or dataset.class_names or [str(k) for k in range(probs.shape[1])]
    features = dataset.feature_names or ["x1", "x2"]
    header = _csv_line([*features, "set", "label", "predicted", *(f"P({n})" for n in labels)])
    quoted = [_csv_line([name]).rstrip("\n") if name else "" for name in labels]  # a name with a comma is quoted
    n, n_train = len(y), len(dataset.y_train)
    columns = [
        map(repr, X[:, 0].tolist()),  # repr: the shortest text that reads back as the same float
        map(repr, X[:, 1].tolist()),
        ["train"] * n_train + ["test"] * (n - n_train),
        [quoted[t] for t in y.tolist()],
        [quoted[p] for p in pred.tolist()],
        *(map("{:.6g}".format, probs[:, k].tolist()) for k in range(probs.shape[1])),
    ]
    rows = map(",".join, zip(*columns))
    # in slices of rows: each slice is one long call into C, and between them another thread (the window's,
    # when a worker writes the file) gets its turn at Python's lock
    slices = iter(lambda: "\n".join(itertools.islice(rows, ROWS_PER_SLICE)), "")
    return header + "\n".join(slices) + ("\n" if n else "")


def _csv_line(fields: list[str]) -> str:
    """One CSV line as ``csv.writer`` writes it (fields with a comma, quote or line break quoted)."""
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerow(fields)
    return out.getvalue()
