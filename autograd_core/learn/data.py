"""Toy data sets in the plane: moons, circles, blobs, XOR, spiral, iris, wine, painted points.

Moons, circles and XOR have two classes; blobs (K centers) and spiral (K arms)
have 2 to ``MAX_CLASSES``; iris and wine (scikit-learn's bundled copies) have
three, seen through two chosen features or their first two principal
components.

Moons, circles and blobs are scikit-learn's generators, point for point (the same numbers for the same
``random_state``, so figures match what learners see elsewhere), written out here in a few lines of numpy:
importing scikit-learn takes a second or more (it pulls in SciPy), and the training process makes its data
before its first picture.  XOR and spiral are our own.
Labels are 0 … K−1 everywhere; losses that want ±1 (hinge, MSE, two classes) convert inside.
The train/test split is stratified and seeded, so the same seed always gives
the same points on every machine.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from autograd_core.language.naming import class_name, input_label, standardized_name

DATASETS = ("moons", "circles", "blobs", "xor", "spiral", "iris", "wine")
MAX_SAMPLES = 100_000
MAX_CLASSES = 6
MULTICLASS_DATASETS = ("blobs", "spiral")  # take any number of classes from 2 to MAX_CLASSES
TABLE_DATASETS = {"iris": 3, "wine": 3}  # scikit-learn's bundled tables: their number of classes
TWO_CLASS_DATASETS = ("moons", "circles", "xor")
SKLEARN_DATASETS = (
    "moons",
    "circles",
    "blobs",
)  # scikit-learn's generators, point for point (``sklearn_seed`` applies)


def dataset_classes(name: str, classes: int = 2) -> int:
    """How many classes data set ``name`` has when ``classes`` are asked for (the tables fix their own)."""
    if name in TABLE_DATASETS:
        return TABLE_DATASETS[name]
    if name in TWO_CLASS_DATASETS:
        return 2
    return classes


# The bundled tables' names, as scikit-learn's loaders give them (tests/core/learn/test_data.py checks they agree):
# shipped here so that choosing iris or wine in the app names its columns without importing scikit-learn,
# which took 1.3-4.3 s on the GUI thread the first time.
TABLE_COLUMNS = {
    "iris": ("sepal length (cm)", "sepal width (cm)", "petal length (cm)", "petal width (cm)"),
    "wine": (
        "alcohol",
        "malic_acid",
        "ash",
        "alcalinity_of_ash",
        "magnesium",
        "total_phenols",
        "flavanoids",
        "nonflavanoid_phenols",
        "proanthocyanins",
        "color_intensity",
        "hue",
        "od280/od315_of_diluted_wines",
        "proline",
    ),
}
TABLE_CLASSES = {"iris": ("setosa", "versicolor", "virginica"), "wine": ("class_0", "class_1", "class_2")}


def table_feature_names(name: str) -> list[str]:
    """The columns of a bundled table (iris, wine), in order."""
    _check_table(name)
    return list(TABLE_COLUMNS[name])


def table_class_names(name: str) -> list[str]:
    """The classes of a bundled table, class 0 first: scikit-learn's ``target_names`` (iris: setosa, versicolor,
    virginica; wine: class_0, class_1, class_2)."""
    _check_table(name)
    return list(TABLE_CLASSES[name])


def _check_table(name: str) -> None:
    if name not in TABLE_COLUMNS:
        raise ValueError(f"{name!r} is not a bundled table; choose iris or wine")


def table_axis_names(name: str, features: list[int] | None = None) -> list[str]:
    """What the two coordinates of ``table_points(name, features)`` are: the two columns' names, or PC1, PC2."""
    if features is None:
        return ["PC1", "PC2"]
    columns = table_feature_names(name)
    return [columns[f] for f in features]


def _load_table(name: str):
    from sklearn import datasets as sk

    if name == "iris":
        return sk.load_iris()
    if name == "wine":
        return sk.load_wine()
    _check_table(name)


def table_points(name: str, features: list[int] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Two columns of iris or wine (``features``: two column indices), or, with None, the first two principal
    components of the standardized table (plain numpy SVD, signs fixed so each component's largest loading is
    positive)."""
    table = _load_table(name)
    X, y = np.asarray(table.data, dtype=float), np.asarray(table.target, dtype=int)
    if features is not None:
        n = X.shape[1]
        if len(features) != 2 or any(isinstance(f, bool) or not isinstance(f, int) or not 0 <= f < n for f in features):
            raise ValueError(f"{name} features must be two column numbers from 0 to {n - 1}, got {features!r}")
        return X[:, list(features)], y
    Z = (X - X.mean(axis=0)) / np.where(X.std(axis=0) > 1e-12, X.std(axis=0), 1.0)
    _, _, vt = np.linalg.svd(Z, full_matrices=False)
    components = vt[:2]
    signs = np.sign(components[np.arange(2), np.argmax(np.abs(components), axis=1)])
    return Z @ (components * signs[:, None]).T, y


@dataclass
class Dataset:
    """Train and test points (rows of X, two features) with 0/1 labels.

    ``mean`` and ``scale`` are the standardization applied (zeros and ones if
    none), so a caller can map painted or plotted coordinates back.
    """

    X_train: np.ndarray
    y_train: np.ndarray
    X_test: np.ndarray
    y_test: np.ndarray
    name: str = "custom"
    mean: np.ndarray = field(default_factory=lambda: np.zeros(2))
    scale: np.ndarray = field(default_factory=lambda: np.ones(2))
    # The data's own names, where it has them (iris, wine, an imported file; None for the generated sets):
    # each class's name, class 0 first (a file's labels as written), and what the two coordinates are
    # (PC1/PC2, a table's or a file's column names).  Views show them through class_label / input_label.
    class_names: list[str] | None = None
    feature_names: list[str] | None = None

    def class_label(self, k: int) -> str:
        """Class ``k``'s name: ``setosa``, or ``class 2`` when the data set names none."""
        return class_name(int(k), self.class_names)

    def class_labels(self, classes: int | None = None) -> list[str]:
        """The names of classes 0 … K−1 (K: ``classes``, else as many as named or labeled, at least 2)."""
        if classes is None:
            top = int(max(self.y.max(initial=0), 1)) + 1 if len(self.y) else 2
            classes = max(top, len(self.class_names or ()))
        return [self.class_label(k) for k in range(classes)]

    def feature_label(self, i: int) -> str | None:
        """Coordinate ``i``'s human name as the views show it (``PC1``; ``petal length (standardized)`` for a
        column standardized here: its values are not in the column's own units), or None."""
        names = self.feature_names
        if names is None or not 0 <= i < len(names):
            return None
        name = str(names[i])
        standardized = i < len(self.mean) and (self.mean[i] != 0.0 or self.scale[i] != 1.0)
        return standardized_name(name) if standardized else name

    def input_label(self, i: int) -> str:
        """Input ``i`` with its human name beside it where there is one: ``x1 · PC1``, else ``x1``."""
        return input_label(i, self.feature_label(i))

    @property
    def X(self) -> np.ndarray:
        """Every point, train first."""
        return np.vstack([self.X_train, self.X_test])

    @property
    def y(self) -> np.ndarray:
        return np.concatenate([self.y_train, self.y_test])

    def bounds(self, margin: float = 0.25) -> tuple[float, float, float, float]:
        """(xmin, xmax, ymin, ymax) around every point, widened by ``margin`` of the span."""
        X = self.X
        lo, hi = X.min(axis=0), X.max(axis=0)
        pad = np.maximum(hi - lo, 1e-3) * margin
        return float(lo[0] - pad[0]), float(hi[0] + pad[0]), float(lo[1] - pad[1]), float(hi[1] + pad[1])

    def to_dict(self) -> dict:
        """JSON-ready lists (sessions store the exact points trained on)."""
        names = {}
        if self.class_names is not None:
            names["class_names"] = list(self.class_names)
        if self.feature_names is not None:
            names["feature_names"] = list(self.feature_names)
        return {
            **names,
            "name": self.name,
            "X_train": self.X_train.tolist(),
            "y_train": self.y_train.astype(int).tolist(),
            "X_test": self.X_test.tolist(),
            "y_test": self.y_test.astype(int).tolist(),
            "mean": self.mean.tolist(),
            "scale": self.scale.tolist(),
        }

    @classmethod
    def from_dict(cls, d: dict, allow_empty: bool = False) -> Dataset:
        """Inverse of ``to_dict``; raises ValueError on anything malformed (``allow_empty``: a cleared plane)."""
        if not isinstance(d, dict):
            raise ValueError("data must be an object")
        expected = {"name", "X_train", "y_train", "X_test", "y_test", "mean", "scale"}
        optional = {"class_names", "feature_names"}
        if not expected <= set(d) <= expected | optional:
            raise ValueError(f"data must have exactly the keys {sorted(expected)} (and optionally {sorted(optional)})")
        extra = {}
        for key, count in (("class_names", None), ("feature_names", 2)):
            if key in d:
                v = d[key]
                if not (
                    isinstance(v, list)
                    and all(isinstance(n, str) and len(n) <= 200 for n in v)
                    and (len(v) == count if count else 2 <= len(v) <= MAX_CLASSES)
                ):
                    raise ValueError(f"data.{key} must be a list of names")
                extra[key] = list(v)
        if not isinstance(d["name"], str):
            raise ValueError("data.name must be a string")
        arrays = {}
        for part in ("train", "test"):
            X, y = d[f"X_{part}"], d[f"y_{part}"]
            if not isinstance(X, list) or not isinstance(y, list) or len(X) != len(y):
                raise ValueError(f"data.X_{part} and data.y_{part} must be lists of the same length")
            rows = []
            for row in X:
                if not (isinstance(row, list) and len(row) == 2 and all(_is_finite_number(v) for v in row)):
                    raise ValueError(f"every point in data.X_{part} must be two finite numbers")
                rows.append([float(v) for v in row])
            if not all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v < MAX_CLASSES for v in y):
                raise ValueError(f"every label in data.y_{part} must be a class number from 0 to {MAX_CLASSES - 1}")
            arrays[f"X_{part}"] = np.array(rows, dtype=float).reshape(-1, 2)
            arrays[f"y_{part}"] = np.array(y, dtype=int)
        for key in ("mean", "scale"):
            v = d[key]
            if not (isinstance(v, list) and len(v) == 2 and all(_is_finite_number(x) for x in v)):
                raise ValueError(f"data.{key} must be two finite numbers")
        if len(arrays["X_train"]) < 1 and not allow_empty:
            raise ValueError("data needs at least one training point")
        return cls(
            name=d["name"], mean=np.array(d["mean"], float), scale=np.array(d["scale"], float), **arrays, **extra
        )


def _is_finite_number(v) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v)


def _num(v) -> float | None:
    """``v`` as a float if it is a real number (numpy scalars included), else None."""
    if isinstance(v, bool | str | bytes):
        return None
    try:
        return float(v)
    except (TypeError, ValueError):
        return None


# scikit-learn's make_moons, make_circles and make_blobs (1.x), step for step and draw for draw: the same
# RandomState, the same order of draws (shuffle, then noise), so the same seed gives the same points
# (tests/core/learn/test_data.py compares them with scikit-learn's own).


def _halves(samples: int) -> tuple[int, int]:
    return samples // 2, samples - samples // 2


def _shuffled(X: np.ndarray, y: np.ndarray, generator: np.random.RandomState):
    """``sklearn.utils.shuffle(X, y, random_state=generator)``."""
    indices = np.arange(len(X))
    generator.shuffle(indices)
    return X[indices], y[indices]


def _two_rings(out_x, out_y, in_x, in_y, n_out: int, n_in: int):
    X = np.vstack([np.append(out_x, in_x), np.append(out_y, in_y)]).T
    y = np.hstack([np.zeros(n_out, dtype=np.intp), np.ones(n_in, dtype=np.intp)])
    return X, y


def make_moons(samples: int, noise: float | None, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """``sklearn.datasets.make_moons(samples, noise=noise, random_state=seed)``."""
    n_out, n_in = _halves(samples)
    generator = np.random.RandomState(seed)
    X, y = _two_rings(
        np.cos(np.linspace(0, np.pi, n_out)),
        np.sin(np.linspace(0, np.pi, n_out)),
        1 - np.cos(np.linspace(0, np.pi, n_in)),
        1 - np.sin(np.linspace(0, np.pi, n_in)) - 0.5,
        n_out,
        n_in,
    )
    X, y = _shuffled(X, y, generator)
    if noise is not None:
        X += generator.normal(scale=noise, size=X.shape)
    return X, y


def make_circles(samples: int, noise: float | None, factor: float, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """``sklearn.datasets.make_circles(samples, noise=noise, factor=factor, random_state=seed)``."""
    n_out, n_in = _halves(samples)
    generator = np.random.RandomState(seed)
    outer = np.linspace(0, 2 * np.pi, n_out, endpoint=False)
    inner = np.linspace(0, 2 * np.pi, n_in, endpoint=False)
    X, y = _two_rings(np.cos(outer), np.sin(outer), np.cos(inner) * factor, np.sin(inner) * factor, n_out, n_in)
    X, y = _shuffled(X, y, generator)
    if noise is not None:
        X += generator.normal(scale=noise, size=X.shape)
    return X, y


def make_blobs(samples: int, centers, std: float, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """``sklearn.datasets.make_blobs(samples, centers=centers, cluster_std=std, random_state=seed)``."""
    generator = np.random.RandomState(seed)
    centers = np.asarray(centers, dtype=float)
    k = len(centers)
    counts = [samples // k + (i < samples % k) for i in range(k)]
    X = np.empty((samples, centers.shape[1]), dtype=np.float64)
    y = np.empty(samples, dtype=int)
    start = 0
    for i, n in enumerate(counts):
        X[start : start + n] = generator.normal(loc=centers[i], scale=std, size=(n, centers.shape[1]))
        y[start : start + n] = i
        start += n
    return _shuffled(X, y, generator)


def _generate(
    name: str,
    samples: int,
    noise: float,
    rng: np.random.Generator,
    classes: int = 2,
    features=None,
    sklearn_seed: int | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    # scikit-learn takes an int seed; derive it from our generator so one seed drives everything
    # (drawn even when ``sklearn_seed`` is given, so the split's stream is the same either way).
    sk_seed = int(rng.integers(0, 2**31 - 1))
    if sklearn_seed is not None:
        sk_seed = sklearn_seed
    if name == "moons":
        return make_moons(samples, noise, sk_seed)
    if name == "circles":
        return make_circles(samples, noise, 0.5, sk_seed)
    if name == "blobs":
        # Fixed centers so "noise" means the same thing as elsewhere: 0 → tight, 0.3 → overlapping.
        if classes > 2:  # K centers evenly round a circle of radius √2 (two classes keep their diagonal pair)
            angles = 2.0 * math.pi * np.arange(classes) / classes + math.pi / 4
            centers = math.sqrt(2.0) * np.column_stack([np.cos(angles), np.sin(angles)])
            return make_blobs(samples, centers, 0.2 + 4.0 * noise, sk_seed)
        return make_blobs(samples, [[-1.0, -1.0], [1.0, 1.0]], 0.2 + 4.0 * noise, sk_seed)
    if name == "xor":
        X = rng.uniform(-1.0, 1.0, size=(samples, 2))
        y = (X[:, 0] * X[:, 1] < 0).astype(int)
        return X + rng.normal(0.0, noise, size=X.shape), y
    if name == "spiral":
        y = np.arange(samples) % classes
        t = np.sqrt(rng.uniform(0.02, 1.0, size=samples))  # sqrt: even density along the arm
        angle = t * 3.0 * math.pi + y * (2.0 * math.pi / classes)  # K arms, evenly turned (2: half a turn)
        X = np.column_stack([t * np.cos(angle), t * np.sin(angle)])
        return X + rng.normal(0.0, noise, size=X.shape), y
    if name in TABLE_DATASETS:
        X, y = table_points(name, features)
        Z = (X - X.mean(axis=0)) / np.where(X.std(axis=0) > 1e-12, X.std(axis=0), 1.0)
        return Z + rng.normal(0.0, noise, size=Z.shape), y
    raise ValueError(f"unknown data set {name!r}; choose one of {', '.join(DATASETS)}")


def _check_common(test_fraction: float) -> float:
    if not _is_finite_number(test_fraction) or not 0.0 <= test_fraction < 1.0:
        raise ValueError(f"test fraction must be at least 0 and below 1, got {test_fraction!r}")
    return float(test_fraction)


def _split(
    X: np.ndarray, y: np.ndarray, test_fraction: float, rng: np.random.Generator, keep_order: bool = False
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Stratified split: each class gives the same fraction to the test set; at least one point stays in train.

    With ``keep_order`` and no test set, the points stay in the order they were made (scikit-learn's).
    """
    if keep_order and test_fraction == 0.0:
        return X, y, X[:0], y[:0]
    test_idx = []
    for label in np.unique(y).tolist():
        idx = np.flatnonzero(y == label)
        rng.shuffle(idx)
        test_idx.extend(idx[: round(len(idx) * test_fraction)].tolist())
    mask = np.zeros(len(y), dtype=bool)
    mask[test_idx] = True
    if mask.all():
        mask[test_idx[0]] = False
    train = rng.permutation(np.flatnonzero(~mask))
    test = rng.permutation(np.flatnonzero(mask))
    return X[train], y[train], X[test], y[test]


def _finish(
    X, y, test_fraction, rng, standardize, name, class_names=None, feature_names=None, keep_order=False
) -> Dataset:
    X = np.asarray(X, dtype=float).reshape(-1, 2)
    y = np.asarray(y, dtype=int)
    X_train, y_train, X_test, y_test = _split(X, y, test_fraction, rng, keep_order)
    mean, scale = np.zeros(2), np.ones(2)
    if standardize:
        # Statistics of the training points only: the test set must not leak into training.
        mean = X_train.mean(axis=0)
        std = X_train.std(axis=0)
        scale = np.where(std > 1e-12, std, 1.0)
        X_train = (X_train - mean) / scale
        X_test = (X_test - mean) / scale
    return Dataset(
        X_train,
        y_train,
        X_test,
        y_test,
        name=name,
        mean=mean,
        scale=scale,
        class_names=class_names,
        feature_names=feature_names,
    )


def make_dataset(
    name: str = "moons",
    samples: int = 200,
    noise: float = 0.1,
    seed: int = 0,
    test_fraction: float = 0.25,
    standardize: bool = False,
    classes: int = 2,
    features: list[int] | None = None,
    sklearn_seed: int | None = None,
) -> Dataset:
    """A named data set, split into train and test, reproducible from ``seed``.

    ``sklearn_seed``, for moons, circles and blobs: scikit-learn's own ``random_state`` instead of one derived
    from ``seed``, so the points are exactly those of ``make_moons(..., random_state=sklearn_seed)``; with no
    test set they also keep scikit-learn's order (the article's run: ``make_moons(200, noise=0.2,
    random_state=42)``, all 200 points trained on).

    ``classes`` (2 … MAX_CLASSES) is the number of blobs or spiral arms; iris and wine have 3 and take all
    their rows (``samples`` does not apply), through ``features`` (two column numbers) or, with None, their
    first two principal components.
    """
    if name not in DATASETS:
        raise ValueError(f"unknown data set {name!r}; choose one of {', '.join(DATASETS)}")
    if isinstance(samples, bool) or not isinstance(samples, int) or not 4 <= samples <= MAX_SAMPLES:
        raise ValueError(f"samples must be a whole number from 4 to {MAX_SAMPLES}, got {samples!r}")
    if not _is_finite_number(noise) or not 0.0 <= noise <= 10.0:
        raise ValueError(f"noise must be between 0 and 10, got {noise!r}")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(f"seed must be a whole number, got {seed!r}")
    if isinstance(classes, bool) or not isinstance(classes, int) or not 2 <= classes <= MAX_CLASSES:
        raise ValueError(f"classes must be a whole number from 2 to {MAX_CLASSES}, got {classes!r}")
    if name in TWO_CLASS_DATASETS and classes != 2:
        raise ValueError(f"{name} has two classes; blobs and spiral take 2 to {MAX_CLASSES}")
    if sklearn_seed is not None and (
        isinstance(sklearn_seed, bool) or not isinstance(sklearn_seed, int) or not 0 <= sklearn_seed < 2**32
    ):
        raise ValueError(f"sklearn_seed must be a whole number from 0 to {2**32 - 1}, got {sklearn_seed!r}")
    test_fraction = _check_common(test_fraction)
    rng = np.random.default_rng(seed)
    X, y = _generate(name, samples, float(noise), rng, classes, features, sklearn_seed)
    names = {}
    if name in TABLE_DATASETS:  # the table's own names travel with its points
        names = {"class_names": table_class_names(name), "feature_names": table_axis_names(name, features)}
    keep_order = sklearn_seed is not None and name in SKLEARN_DATASETS
    data = _finish(X, y, test_fraction, rng, standardize, name, keep_order=keep_order, **names)
    if name in TABLE_DATASETS and features is not None and not standardize:
        # Two columns, standardized by _generate over the whole table: the data set knows by how (the views say
        # "standardized"; the export writes the table's own units).  Principal components have no such units.
        data.mean, data.scale = _table_standardization(name, features)
    return data


def _table_standardization(name: str, features: list[int]) -> tuple[np.ndarray, np.ndarray]:
    """The mean and scale ``_generate`` standardized two columns of a bundled table by."""
    X, _ = table_points(name, features)
    std = X.std(axis=0)
    return X.mean(axis=0), np.where(std > 1e-12, std, 1.0)


def dataset_from_points(
    points, labels=None, test_fraction: float = 0.0, seed: int = 0, standardize: bool = False, classes: int = 2
) -> Dataset:
    """A data set from given points, e.g. painted by the user.

    ``points`` is a sequence of (x, y) with ``labels`` 0 … classes−1 alongside, or of
    (x, y, label) triples with ``labels=None``.  Coordinates are kept as given
    unless ``standardize``.
    """
    test_fraction = _check_common(test_fraction)
    pts = list(points)
    if labels is None:
        if not all(isinstance(p, list | tuple) and len(p) == 3 for p in pts):
            raise ValueError("without labels, every point must be (x, y, label)")
        labels = [p[2] for p in pts]
        pts = [p[:2] for p in pts]
    labels = list(labels)
    if len(pts) != len(labels):
        raise ValueError(f"{len(pts)} points but {len(labels)} labels")
    if len(pts) < 1:
        raise ValueError("paint at least one point")
    for p in pts:
        if not (
            isinstance(p, list | tuple | np.ndarray) and len(p) == 2 and all(_is_finite_number(_num(v)) for v in p)
        ):
            raise ValueError(f"every point must be two finite numbers, got {p!r}")
    clean = []
    allowed = [float(k) for k in range(classes)]
    for v in labels:
        if isinstance(v, bool) or _num(v) not in allowed:
            raise ValueError(f"labels must be class numbers from 0 to {classes - 1}, got {v!r}")
        clean.append(int(v))
    rng = np.random.default_rng(seed)
    return _finish(np.array(pts, dtype=float), np.array(clean), test_fraction, rng, standardize, "points")


# ---------------------------------------------------------------- painted edits
# Pure functions on a Dataset for the GUI's paint, erase and drag tools.  The
# train/test split is kept as it is (a painted point joins the training set),
# so editing never reshuffles which points are held out.  Coordinates are the
# model's own (already standardized if they were), so the result has no
# standardization of its own.


def dataset_points(dataset: Dataset) -> list[list]:
    """Every point as ``[x, y, label]``, train first: the form ``TrainingConfig.points`` stores."""
    return [[float(a), float(b), int(c)] for (a, b), c in zip(dataset.X.tolist(), dataset.y.tolist())]


def _edited(X_train, y_train, X_test, y_test, like: Dataset | None = None) -> Dataset:
    return Dataset(
        np.asarray(X_train, dtype=float).reshape(-1, 2),
        np.asarray(y_train, dtype=int),
        np.asarray(X_test, dtype=float).reshape(-1, 2),
        np.asarray(y_test, dtype=int),
        name="points",
        # painting on iris's plane keeps its axes, and the standardization its coordinates are in
        mean=np.zeros(2) if like is None else np.array(like.mean, dtype=float),
        scale=np.ones(2) if like is None else np.array(like.scale, dtype=float),
        class_names=None if like is None else like.class_names,
        feature_names=None if like is None else like.feature_names,
    )


def _check_point(x, y) -> tuple[float, float]:
    if not (_is_finite_number(_num(x)) and _is_finite_number(_num(y))):
        raise ValueError(f"a point needs two finite coordinates, got ({x!r}, {y!r})")
    return float(x), float(y)


def _check_part(dataset: Dataset, part: str, index: int) -> None:
    if part not in ("train", "test"):
        raise ValueError(f"part must be 'train' or 'test', got {part!r}")
    n = len(dataset.y_train if part == "train" else dataset.y_test)
    if isinstance(index, bool) or not isinstance(index, int | np.integer) or not 0 <= index < n:
        raise IndexError(f"the {part} set has {n} points; there is no point {index!r}")


def add_point(dataset: Dataset, x: float, y: float, label: int, classes: int = 2) -> Dataset:
    """A copy of ``dataset`` with (x, y) of class ``label`` (0 … classes−1) added to the training points."""
    x, y = _check_point(x, y)
    if isinstance(label, bool) or _num(label) not in [float(k) for k in range(min(classes, MAX_CLASSES))]:
        raise ValueError(f"labels must be class numbers from 0 to {classes - 1}, got {label!r}")
    if len(dataset.y_train) + len(dataset.y_test) >= MAX_SAMPLES:
        raise ValueError(f"a data set holds at most {MAX_SAMPLES:,} points")  # sessions refuse more
    return _edited(
        np.vstack([dataset.X_train.reshape(-1, 2), [[x, y]]]),
        np.append(dataset.y_train, int(label)),
        dataset.X_test,
        dataset.y_test,
        like=dataset,
    )


def remove_point(dataset: Dataset, part: str, index: int) -> Dataset:
    """A copy of ``dataset`` without point ``index`` of its ``part`` ("train" or "test")."""
    _check_part(dataset, part, index)
    X_train, y_train, X_test, y_test = dataset.X_train, dataset.y_train, dataset.X_test, dataset.y_test
    if part == "train":
        X_train, y_train = np.delete(X_train, index, axis=0), np.delete(y_train, index)
    else:
        X_test, y_test = np.delete(X_test, index, axis=0), np.delete(y_test, index)
    return _edited(X_train, y_train, X_test, y_test, like=dataset)


def move_point(dataset: Dataset, part: str, index: int, x: float, y: float) -> Dataset:
    """A copy of ``dataset`` with point ``index`` of ``part`` moved to (x, y); its label and set stay."""
    _check_part(dataset, part, index)
    x, y = _check_point(x, y)
    X_train, X_test = dataset.X_train.copy(), dataset.X_test.copy()
    (X_train if part == "train" else X_test)[index] = (x, y)
    return _edited(X_train, dataset.y_train, X_test, dataset.y_test, like=dataset)


def empty_dataset(like: Dataset | None = None) -> Dataset:
    """No points at all (the plane after "Clear all"); a Trainer refuses it until a point is painted.

    ``like``: the data set cleared, whose plane it stays (its axis and class names, its standardization).
    """
    return _edited(np.empty((0, 2)), np.empty(0, dtype=int), np.empty((0, 2)), np.empty(0, dtype=int), like=like)
