"""Your own data: CSV/TSV tables, hostile files, string labels, the CLI's --data, predictions out as CSV."""

import csv
import io
import os
import time

import numpy as np
import pytest

from autograd_core.cli import main as cli_main
from autograd_core.files import FileError
from autograd_core.learn.data import Dataset
from autograd_core.learn.tabular import (
    MAX_TABLE_BYTES,
    TableError,
    class_labels,
    parse_table,
    predictions_csv,
    read_table,
    table_dataset,
)


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_bytes(text.encode() if isinstance(text, str) else text)
    return str(path)


def test_header_delimiter_and_string_labels(tmp_path):
    path = write(tmp_path, "flowers.tsv", "width\theight\tkind\n1.0\t2\tsetosa\n3\t4\tvirginica\n5\t6\tsetosa\n")
    table = read_table(path)
    assert table.delimiter == "\t" and table.has_header and table.columns == ["width", "height", "kind"]
    assert table.lines == [2, 3, 4] and table.name == "flowers"
    y, names = class_labels(table, "kind")
    assert names == ["setosa", "virginica"] and y.tolist() == [0, 1, 0]
    headless = parse_table("1;2;0\n3;4;1\n")
    assert not headless.has_header and headless.columns == ["column 1", "column 2", "column 3"]
    assert headless.delimiter == ";"
    assert class_labels(parse_table("x,y\n1,10\n2,9\n3,10\n"), "y")[1] == ["9", "10"]  # numbers sort numerically


@pytest.mark.parametrize(
    "text,message",
    [
        ("a b c\n1 2 3\n", "one column only"),
        ("a,b,c\n1,2,x\n3,4\n", "line 3 has 2 fields; the header has 3"),
        ("a,b,c\n1,2,x\n3,abc,y\n", "line 3, column 'b': 'abc' is not a number"),
        ("a,b,c\n1,2,x\n3,inf,y\n", "line 3, column 'b': 'inf' is not a finite number"),
        ("a,b,c\n1,2,x\n\n# note\n3,NaN,y\n", "line 5, column 'b': 'NaN' is not a finite number"),
        ("a,b,c\n1,2,x\n3,4,x\n", "one label only"),
        ("a,b,c\n" + "".join(f"{i},{i},{i}\n" for i in range(10)), "10 different labels; at most 6"),
        ("a,b,c\n", "a header but no rows"),
        ("", "no rows"),
    ],
)
def test_bad_tables_name_the_line_and_column(text, message):
    with pytest.raises(TableError, match=message.replace("(", r"\(").replace(")", r"\)")):
        table_dataset(parse_table(text), ["a", "b"], "c")


def test_hostile_files_get_one_message_and_nothing_hangs(tmp_path):
    garbage = write(tmp_path, "garbage.csv", bytes(range(256)) * 40)
    with pytest.raises(TableError, match="not a text file"):
        read_table(garbage)
    latin = write(tmp_path, "latin.csv", b"a,b,c\n1,2,caf\xe9\n")
    with pytest.raises(TableError, match="not UTF-8 text \\(line 2"):
        read_table(latin)
    fifo = str(tmp_path / "pipe.csv")
    os.mkfifo(fifo)
    start = time.monotonic()
    with pytest.raises(FileError, match="pipe"):
        read_table(fifo)
    assert time.monotonic() - start < 2
    with pytest.raises(FileError, match="device"):
        read_table("/dev/zero")
    with pytest.raises(FileError, match="folder"):
        read_table(str(tmp_path))
    huge = tmp_path / "huge.csv"
    with open(huge, "wb") as f:  # a sparse 1 GB file: refused from its size, never read
        f.truncate(2**30)
    with pytest.raises(FileError, match="too large"):
        read_table(str(huge))
    assert os.path.getsize(huge) > MAX_TABLE_BYTES


def test_dataset_split_standardized_and_session_keeps_names(tmp_path):
    rows = "".join(f"{i},{(i * 7) % 5},{'cat' if i % 3 else 'dog'}\n" for i in range(60))
    table = parse_table("x,y,animal\n" + rows, name="pets")
    d = table_dataset(table, ["x", "y"], "animal", test_fraction=0.25, seed=1)
    assert d.class_names == ["cat", "dog"] and d.feature_names == ["x", "y"]
    assert len(d.y_train) + len(d.y_test) == 60 and len(d.y_test) == 15
    np.testing.assert_allclose(d.X_train.mean(axis=0), 0.0, atol=1e-12)
    back = Dataset.from_dict(d.to_dict())
    assert back.class_names == ["cat", "dog"] and back.feature_names == ["x", "y"]
    np.testing.assert_array_equal(back.X_test, d.X_test)
    with pytest.raises(TableError, match="label column cannot also be a feature"):
        table_dataset(table, ["x", "animal"], "animal")
    with pytest.raises(TableError, match="there is no column 'z'"):
        table_dataset(table, ["x", "z"], "animal")


def test_predictions_csv_in_the_files_units():
    table = parse_table("a,b,c\n" + "".join(f"{i},{2 * i},{'p' if i < 5 else 'q'}\n" for i in range(10)))
    d = table_dataset(table, ["a", "b"], "c", test_fraction=0.2)
    scores = d.X[:, 0] * 5.0  # class q where a is above its mean
    rows = list(csv.reader(io.StringIO(predictions_csv(d, scores))))
    assert rows[0] == ["a", "b", "set", "label", "predicted", "P(p)", "P(q)"]
    assert len(rows) == 11
    for row in rows[1:]:
        a, b = float(row[0]), float(row[1])
        assert b == pytest.approx(2 * a)  # back in the file's own units
        assert row[3] == ("p" if a < 5 else "q")
        assert row[4] == ("q" if a > 4.5 else "p")
        assert float(row[5]) + float(row[6]) == pytest.approx(1.0, abs=1e-5)
    assert sum(r[2] == "test" for r in rows[1:]) == 2


def test_large_table_reads_fast(tmp_path):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(100_000, 2))
    labels = np.array(["red", "green", "blue"])[rng.integers(0, 3, 100_000)]
    path = tmp_path / "big.csv"
    with open(path, "w") as f:
        f.write("u,v,color\n")
        f.writelines(f"{a},{b},{c}\n" for (a, b), c in zip(X.tolist(), labels.tolist()))
    d = table_dataset(read_table(str(path)), ["u", "v"], "color")
    assert len(d.y) == 100_000 and d.class_names == ["blue", "green", "red"]


def test_cli_data_columns_and_errors(tmp_path, capsys):
    rows = "".join(f"{i % 7},{(i * 3) % 5},{'left' if i % 7 < 3 else 'right'}\n" for i in range(80))
    path = write(tmp_path, "side.csv", "p,q,side\n" + rows)
    assert cli_main(["--data", path, "--x-columns", "p,q", "--label-column", "side", "--steps", "5"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("side: 60 train / 20 test points") and "test accuracy" in out
    bad = write(tmp_path, "bad.csv", "p,q,side\n1,2,a\n1,x,b\n")
    with pytest.raises(SystemExit) as exc:
        cli_main(["--data", bad])
    assert exc.value.code == 2
    assert "cannot use --data" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        cli_main(["--x-columns", "p,q"])
    assert "--x-columns and --label-column need --data FILE" in capsys.readouterr().err


def test_sessions_keep_imported_data(tmp_path):
    from autograd_core.learn.data import dataset_points
    from autograd_core.learn.training import Trainer, TrainingConfig
    from autograd_core.session import load_session, save_session, trainer_from_session

    rows = "".join(f"{i % 9},{(i * 4) % 7},{['ant', 'bee', 'cow'][i % 3]}\n" for i in range(45))
    d = table_dataset(parse_table("a,b,who\n" + rows, name="zoo"), ["a", "b"], "who")
    config = TrainingConfig(points=dataset_points(d), classes=3, layers=[4], steps=3)
    trainer = Trainer(config, data=d)
    trainer.run()
    path = tmp_path / "zoo.json"
    save_session(path, trainer)
    back = trainer_from_session(load_session(path))
    assert back.data.class_names == ["ant", "bee", "cow"] and back.data.name == "zoo"
    np.testing.assert_array_equal(back.data.X_test, d.X_test)
    assert back.step_count == 3 and back.model.nouts == [4, 3]


def test_predictions_csv_is_the_text_a_csv_writer_writes():
    """Names with a comma, a quote or a line break are quoted as csv.writer quotes them; floats read back exactly;
    every probability has six significant digits (the export builds its text a column at a time)."""
    from autograd_core.learn.data import make_dataset

    d = make_dataset("blobs", 40, 0.1, 0, 0.25, classes=3)
    d.class_names, d.feature_names = ["a,b", 'say "hi"', "two\nlines"], ["x, one", 'y"']
    scores = np.random.default_rng(2).normal(size=(40, 3))
    text = predictions_csv(d, scores)
    from autograd_core.learn.losses import class_probabilities, predict

    X, probs, pred = d.X * d.scale + d.mean, class_probabilities(scores), predict(scores)
    expected = io.StringIO()
    writer = csv.writer(expected, lineterminator="\n")
    writer.writerow(["x, one", 'y"', "set", "label", "predicted", "P(a,b)", 'P(say "hi")', "P(two\nlines)"])
    for i in range(40):
        part = "train" if i < len(d.y_train) else "test"
        label, guess = d.class_names[d.y[i]], d.class_names[pred[i]]
        writer.writerow(
            [repr(float(X[i, 0])), repr(float(X[i, 1])), part, label, guess, *(f"{v:.6g}" for v in probs[i])]
        )
    assert text == expected.getvalue()
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0][5] == "P(a,b)" and {r[3] for r in rows[1:]} <= set(d.class_names)
    assert all(float(r[0]) == x for r, x in zip(rows[1:], X[:, 0]))


def test_a_session_file_read_as_a_table_is_refused_before_it_is_split(monkeypatch):
    """One line of thousands of commas (a session's JSON): refused with its column count, and the csv module,
    which splits a line in one call that holds the interpreter (the window waited 0.6 s), never sees it."""
    text = "a,b\n1,2\n" + '{"runs": [' + ", ".join(f'{{"id": {i}}}' for i in range(5000)) + "]}\n"

    longest = [0]
    split = csv.reader

    def reader(lines, *args, **kwargs):
        lines = list(lines)
        longest[0] = max([longest[0], *(len(line) for line in lines)])
        return split(lines, *args, **kwargs)

    monkeypatch.setattr(csv, "reader", reader)
    with pytest.raises(TableError, match=r"line 3 has 5,000 columns; at most 1,000 are read"):
        parse_table(text)
    assert longest[0] <= 10_000  # (the line is 55,000 characters long)
