"""Data sets: shapes, labels, seeds, split, standardization, painted points, bad input."""

from pathlib import Path

import numpy as np
import pytest

from autograd_core.learn.data import DATASETS, TABLE_DATASETS, Dataset, dataset_from_points, make_dataset

GENERATED = tuple(name for name in DATASETS if name not in TABLE_DATASETS)


@pytest.mark.parametrize("name", GENERATED)
def test_shapes_labels_and_balance(name):
    d = make_dataset(name, samples=120, noise=0.1, seed=1, test_fraction=0.25)
    assert d.X_train.shape == (90, 2) and d.X_test.shape == (30, 2)
    assert d.y_train.shape == (90,) and d.y_test.shape == (30,)
    assert set(np.unique(d.y)) == {0, 1}
    assert 0.3 < d.y.mean() < 0.7
    assert np.isfinite(d.X).all()


@pytest.mark.parametrize("name", DATASETS)
def test_same_seed_same_points_other_seed_other_points(name):
    a, b = make_dataset(name, seed=7), make_dataset(name, seed=7)
    np.testing.assert_array_equal(a.X_train, b.X_train)
    np.testing.assert_array_equal(a.y_test, b.y_test)
    assert not np.array_equal(a.X_train, make_dataset(name, seed=8).X_train)


def test_moons_match_scikit_learn_up_to_order():
    d = make_dataset("moons", samples=100, noise=0.0, seed=0, test_fraction=0.0)
    # Without noise every point lies on one of the two unit half circles.
    upper = d.X_train[d.y_train == 0]
    lower = d.X_train[d.y_train == 1]
    np.testing.assert_allclose(np.hypot(upper[:, 0], upper[:, 1]), 1.0)
    np.testing.assert_allclose(np.hypot(lower[:, 0] - 1.0, lower[:, 1] - 0.5), 1.0)


def test_noise_spreads_points():
    quiet = make_dataset("circles", noise=0.0, seed=0, test_fraction=0.0)
    r = np.hypot(*quiet.X_train.T)
    np.testing.assert_allclose(np.sort(np.unique(r.round(9))), [0.5, 1.0])
    noisy = make_dataset("circles", noise=0.2, seed=0, test_fraction=0.0)
    assert np.hypot(*noisy.X_train.T).std() > r.std()


def test_split_is_stratified_and_disjoint():
    d = make_dataset("moons", samples=200, seed=3, test_fraction=0.25)
    assert d.y_test.sum() == 25 and (1 - d.y_test).sum() == 25
    train_rows = {tuple(r) for r in d.X_train}
    assert not any(tuple(r) in train_rows for r in d.X_test)


def test_standardize_uses_training_statistics():
    d = make_dataset("blobs", seed=2, standardize=True)
    np.testing.assert_allclose(d.X_train.mean(axis=0), 0.0, atol=1e-12)
    np.testing.assert_allclose(d.X_train.std(axis=0), 1.0, atol=1e-12)
    raw = make_dataset("blobs", seed=2, standardize=False)
    np.testing.assert_allclose(raw.X_test, d.X_test * d.scale + d.mean, atol=1e-12)


def test_points_with_labels_or_triples():
    d = dataset_from_points([(0.0, 1.0), (2.0, 3.0), (4.0, 5.0)], [0, 1, 1])
    assert d.X_train.shape == (3, 2) and len(d.X_test) == 0 and d.name == "points"
    assert sorted(map(tuple, d.X_train.tolist())) == [(0.0, 1.0), (2.0, 3.0), (4.0, 5.0)]
    triples = dataset_from_points([[0.0, 1.0, 0], [2.0, 3.0, 1], [1.0, 1.0, 1], [5.0, 5.0, 0]], test_fraction=0.5)
    assert len(triples.y_train) == 2 and len(triples.y_test) == 2


def test_dict_round_trip():
    d = make_dataset("spiral", samples=50, seed=0, standardize=True)
    back = Dataset.from_dict(d.to_dict())
    np.testing.assert_array_equal(back.X_train, d.X_train)
    np.testing.assert_array_equal(back.y_test, d.y_test)
    np.testing.assert_array_equal(back.mean, d.mean)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"name": "swirl"}, "unknown data set 'swirl'"),
        ({"samples": 2}, "samples must be"),
        ({"samples": 10.5}, "samples must be"),
        ({"noise": -1}, "noise must be"),
        ({"noise": float("nan")}, "noise must be"),
        ({"test_fraction": 1.0}, "test fraction"),
        ({"seed": "x"}, "seed must be"),
    ],
)
def test_bad_arguments(kwargs, message):
    with pytest.raises(ValueError, match=message):
        make_dataset(**kwargs)


@pytest.mark.parametrize(
    ("points", "labels", "message"),
    [
        ([], [], "at least one point"),
        ([(0, 0)], [2], "labels must be class numbers from 0 to 1"),
        ([(0, float("inf"))], [1], "two finite numbers"),
        ([(0, "a")], [1], "two finite numbers"),
        ([(0, 0), (1, 1)], [1], "2 points but 1 labels"),
        ([(0, 0)], None, r"\(x, y, label\)"),
    ],
)
def test_bad_points(points, labels, message):
    with pytest.raises(ValueError, match=message):
        dataset_from_points(points, labels)


def test_the_shipped_table_names_are_scikit_learns_and_need_no_scikit_learn():
    """Choosing iris or wine names its columns without importing scikit-learn (seconds on the GUI thread)."""
    import subprocess
    import sys

    from sklearn import datasets as sk

    from autograd_core.learn.data import table_class_names, table_feature_names

    for name in ("iris", "wine"):
        table = getattr(sk, f"load_{name}")()
        assert table_feature_names(name) == list(table.feature_names)
        assert table_class_names(name) == [str(n) for n in table.target_names]
    probe = (
        "import sys; from autograd_core.learn.data import table_feature_names, table_class_names;"
        "table_feature_names('wine'); table_class_names('iris'); print('sklearn' in sys.modules)"
    )
    root = str(Path(__file__).resolve().parents[3])
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=root, check=True)
    assert out.stdout.strip() == "False"
    with pytest.raises(ValueError, match="not a bundled table"):
        table_feature_names("moons")


@pytest.mark.parametrize("samples", [1, 2, 7, 200, 301])
@pytest.mark.parametrize("seed", [0, 42, 2**31 - 2])
def test_moons_circles_and_blobs_are_scikit_learns_points_exactly(samples, seed):
    """Our numpy generators (no scikit-learn import, which takes a second) give scikit-learn's very numbers."""
    from sklearn import datasets as sk

    from autograd_core.learn.data import make_blobs, make_circles, make_moons

    pairs = [
        (make_moons(samples, 0.2, seed), sk.make_moons(n_samples=samples, noise=0.2, random_state=seed)),
        (make_moons(samples, 0.0, seed), sk.make_moons(n_samples=samples, noise=0.0, random_state=seed)),
        (
            make_circles(samples, 0.1, 0.5, seed),
            sk.make_circles(n_samples=samples, noise=0.1, factor=0.5, random_state=seed),
        ),
    ]
    for centers in ([[-1.0, -1.0], [1.0, 1.0]], [[0.0, 1.0], [1.0, 0.0], [-1.0, 0.5]]):
        if samples >= len(centers):
            pairs.append(
                (
                    make_blobs(samples, centers, 0.6, seed),
                    sk.make_blobs(n_samples=samples, centers=centers, cluster_std=0.6, random_state=seed),
                )
            )
    for (X, y), (sk_X, sk_y) in pairs:
        np.testing.assert_array_equal(X, sk_X)
        np.testing.assert_array_equal(y, sk_y)


def test_making_the_default_data_imports_no_scikit_learn():
    """The training process makes its data before its first picture: scikit-learn (with SciPy) would add a second."""
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from autograd_core.learn.data import make_dataset\n"
        "for name in ('moons', 'circles', 'blobs', 'xor', 'spiral'):\n"
        "    make_dataset(name, seed=3)\n"
        "print(sorted(m for m in ('sklearn', 'scipy') if m in sys.modules))\n"
    )
    root = Path(__file__).resolve().parents[3]
    out = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
