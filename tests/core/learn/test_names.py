"""The data's own names travel with it (iris's species, PC1/PC2, a file's header) through sessions and exports,
and the naming scheme falls back to numbers (every view showing them: tests/gui/training/test_names_gui.py)."""

import csv
import io

import numpy as np
import pytest

from autograd_core.language.naming import class_name, input_label
from autograd_core.learn.data import Dataset, add_point, empty_dataset, make_dataset
from autograd_core.learn.tabular import parse_table, predictions_csv, table_dataset


def test_the_naming_scheme_falls_back_to_numbers():
    assert class_name(2, ["a", "b", "c"]) == "c"
    assert class_name(3, ["a", "b", "c"]) == "class 3"  # a painted class the data never named
    assert class_name(0, None) == "class 0" and class_name(1, ["", "b"]) == "b" and class_name(0, [" "]) == "class 0"
    assert input_label(0, "PC1") == "x1 · PC1" and input_label(1) == "x2" and input_label(0, "x1") == "x1"


def test_iris_and_wine_carry_their_species_and_axes():
    from sklearn.datasets import load_iris, load_wine

    iris = make_dataset("iris")
    assert iris.class_labels() == ["setosa", "versicolor", "virginica"]
    assert iris.feature_names == ["PC1", "PC2"]
    assert (iris.input_label(0), iris.input_label(1)) == ("x1 · PC1", "x2 · PC2")
    columns = make_dataset("iris", features=[2, 3])
    assert columns.feature_names == ["petal length (cm)", "petal width (cm)"]
    # the columns are standardized (mean 0, std 1 over the table): the views say so, not the column's unit
    assert columns.input_label(0) == "x1 · petal length (standardized)"
    wine = make_dataset("wine", features=[0, 6])
    assert wine.class_labels() == [str(n) for n in load_wine().target_names] == ["class_0", "class_1", "class_2"]
    assert wine.feature_names == [load_wine().feature_names[0], load_wine().feature_names[6]]
    # the names belong to the right labels: every setosa of sklearn's table is class 0 here
    assert list(load_iris().target_names).index("setosa") == 0 and np.sum(iris.y == 0) == 50


@pytest.mark.parametrize(("name", "classes"), [("blobs", 4), ("moons", 2), ("spiral", 3)])
def test_generated_sets_number_their_classes_and_name_no_feature(name, classes):
    data = make_dataset(name, samples=60, classes=classes)
    assert data.class_names is None and data.feature_names is None
    assert data.class_labels() == [f"class {k}" for k in range(classes)]
    assert (data.input_label(0), data.input_label(1)) == ("x1", "x2")


def test_a_file_names_its_classes_and_columns_by_its_header():
    text = "length,width,species\n" + "\n".join(
        f"{1 + i * 0.1},{2 - i * 0.05},{'rose' if i % 2 else 'tulip'}" for i in range(12)
    )
    data = table_dataset(parse_table(text), ["length", "width"], "species")
    assert data.class_labels() == ["rose", "tulip"]
    assert (data.input_label(0), data.input_label(1)) == ("x1 · length (standardized)", "x2 · width (standardized)")


def test_names_survive_a_session_an_edit_and_the_csv_export():
    iris = make_dataset("iris")
    again = Dataset.from_dict(iris.to_dict())
    assert again.class_names == iris.class_names and again.feature_names == ["PC1", "PC2"]
    painted = add_point(iris, 0.0, 0.0, 2, classes=3)
    assert painted.class_label(2) == "virginica" and painted.input_label(1) == "x2 · PC2"
    cleared = empty_dataset(like=iris)  # Clear all empties the plane, not its axes
    assert len(cleared.y) == 0 and cleared.input_label(0) == "x1 · PC1" and cleared.class_label(1) == "versicolor"
    assert empty_dataset().feature_names is None
    scores = np.zeros((len(iris.y), 3))
    scores[np.arange(len(iris.y)), iris.y] = 1.0
    rows = list(csv.reader(io.StringIO(predictions_csv(iris, scores))))
    assert rows[0] == ["PC1", "PC2", "set", "label", "predicted", "P(setosa)", "P(versicolor)", "P(virginica)"]
    assert {r[3] for r in rows[1:]} == {"setosa", "versicolor", "virginica"}


def test_standardized_columns_say_so_and_know_their_own_units():
    """Iris's and wine's columns are standardized before training: the axis title names the column with
    "(standardized)" in place of its unit (its ticks read −2 … 2, not centimetres), and the data set keeps the
    mean and scale, so the export writes the table's own units (without noise, exactly sklearn's values)."""
    from sklearn.datasets import load_iris

    from autograd_core.language.naming import standardized_name

    assert standardized_name("petal length (cm)") == "petal length (standardized)"
    assert standardized_name("alcohol") == "alcohol (standardized)"
    assert standardized_name("od280/od315_of_diluted_wines") == "od280/od315_of_diluted_wines (standardized)"
    columns = make_dataset("iris", features=[2, 3], noise=0.0)
    assert abs(columns.X.mean(axis=0)).max() < 0.2 and columns.X.min() < -1.0  # standardized coordinates
    assert columns.feature_names == ["petal length (cm)", "petal width (cm)"]  # the table's names, unchanged
    assert columns.input_label(1) == "x2 · petal width (standardized)"
    table = load_iris().data[:, [2, 3]]
    own = columns.X * columns.scale + columns.mean
    assert all(np.abs(table - row).sum(axis=1).min() < 1e-9 for row in own)
    scores = np.zeros((len(columns.y), 3))
    rows = list(csv.reader(io.StringIO(predictions_csv(columns, scores))))
    assert rows[0][:2] == ["petal length (cm)", "petal width (cm)"]
    assert all(1.0 <= float(r[0]) <= 6.9 and 0.1 <= float(r[1]) <= 2.5 for r in rows[1:])
    # a painted point keeps the axes and their standardization; principal components are not a column's units
    painted = add_point(columns, 0.0, 0.0, 1, classes=3)
    assert painted.input_label(0) == "x1 · petal length (standardized)"
    assert make_dataset("iris").input_label(0) == "x1 · PC1"
    assert make_dataset("wine", features=[0, 6]).input_label(0) == "x1 · alcohol (standardized)"
    again = Dataset.from_dict(columns.to_dict())
    assert again.input_label(0) == columns.input_label(0)
