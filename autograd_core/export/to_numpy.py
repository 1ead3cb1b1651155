"""A trained model as a small NumPy script: its weights written out and ``predict(X)``, the same numbers as
the model's ``forward_array`` (each activation is written as the op table's numpy twin)."""

from __future__ import annotations

import numpy as np

from autograd_core.export.common import (
    ExportUnsupported,
    feature_code,
    list_literal,
    numpy_helper_table,
    numpy_helpers,
    one_line,
)


def numpy_model_script(
    model,
    activations: list[str] | None = None,
    features: list[str] | None = None,
    task: str = "classification",
    classes: int = 2,
) -> str:
    """``predict(X)`` of a trained model as a NumPy script (numpy and the standard library only).

    ``model`` is an MLP (or FeatureMLP, whose features are taken from it) or a list of (W, b) per layer with
    W of shape (units, inputs); ``activations`` one per layer, or one per hidden layer (the output is then
    linear); by default the model's.  ``predict`` returns what the model outputs: the logit (two classes),
    one score per class (K > 2), or y (``task`` "regression"); ``probabilities`` and ``predict_class`` are
    defined for classification.  Raises ExportUnsupported for an activation NumPy has no twin of here.
    """
    if task not in ("classification", "regression"):
        raise ValueError(f"task must be classification or regression, got {task!r}")
    if hasattr(model, "weight_arrays"):
        weights = model.weight_arrays()
        activations = list(activations if activations is not None else model.activations)
        if features is None:
            features = list(getattr(model, "features", ()) or ())
    else:
        weights = [(np.asarray(W, float), np.asarray(b, float)) for W, b in model]
        if activations is None:
            raise ValueError("give one activation per layer with a list of weights")
        activations = list(activations)
    features = list(features or [])
    if len(activations) == len(weights) - 1:
        activations.append("linear")
    if len(activations) != len(weights):
        raise ValueError(f"{len(activations)} activations for {len(weights)} layers")
    helpers = numpy_helper_table()
    for name in activations:
        if name not in helpers:
            raise ExportUnsupported(f"the activation {name} has no NumPy twin in this export")
    inputs = 1 if task == "regression" else 2
    if weights[0][0].shape[1] != inputs + len(features):
        raise ValueError(f"the first layer takes {weights[0][0].shape[1]} inputs, not {inputs} + {len(features)}")
    used = set(activations)
    codes, setup = [], []
    for i, f in enumerate(features):
        code, helpers, lines = feature_code(f, "numpy", prefix=f"feature{i + 1}_part")
        codes.append(code)
        setup += lines
        used |= helpers

    sizes = " → ".join(str(n) for n in [weights[0][0].shape[1], *(W.shape[0] for W, _ in weights)])
    kind = (
        "y (regression)"
        if task == "regression"
        else "the logit: class 1 where it is above 0"
        if weights[-1][0].shape[0] == 1
        else f"one score per class ({classes} classes): the largest wins"
    )
    lines = [
        '"""Autograd Playground: a trained model as NumPy.',
        "",
        f"predict(X) gives the network's output, {kind}.",
        f"Layers {sizes}, activations {', '.join(activations)}; each computes act(X @ W.T + b). Needs only numpy.",
        '"""',
        "",
        *(["import math", ""] if used & {"erf", "erfc", "gelu"} else []),
        "import numpy as np",
        "",
        "# ---- the trained weights and biases, layer by layer (W: one row per unit, one column per input)",
        "LAYERS = [",
    ]
    for i, ((W, b), act) in enumerate(zip(weights, activations)):
        lines.append(f"    # layer {i + 1}: {W.shape[0]} unit{'s' * (W.shape[0] != 1)}, {act}")
        lines.append(
            "    (np.array("
            + list_literal(W).replace("\n", "\n    ")
            + "), np.array("
            + list_literal(b).replace("\n", "\n    ")
            + f"), {act!r}),"
        )
    lines += ["]", "", "", "# ---- activations", numpy_helpers(used), ""]
    lines += ["ACTIVATIONS = {" + ", ".join(f"{a!r}: {a}" for a in sorted(set(activations))) + "}", "", ""]
    if task == "regression":
        lines += [
            "def predict(x):",
            '    """The fitted curve y at each x (a number or an array of them)."""',
            "    a = np.asarray(x, dtype=float).reshape(-1, 1)",
        ]
    else:
        lines += [
            "def predict(X):",
            '    """The network\'s raw output for each row (x1, x2) of X."""',
            "    a = np.asarray(X, dtype=float).reshape(-1, 2)",
        ]
        if features:
            lines += [
                "    # the input features, computed from x1 and x2 as the app does:",
                *(f"    #   {one_line(f, 200)!r}" for f in features),
                "    x1, x2 = a[:, 0], a[:, 1]",
                *(f"    {line}" for line in setup),
                "    a = np.column_stack([a, " + ", ".join(codes) + "])",
            ]
    lines += [
        "    with np.errstate(all='ignore'):",
        "        for W, b, act in LAYERS:",
        "            a = ACTIVATIONS[act](a @ W.T + b)",
        "    return a[:, 0] if a.shape[1] == 1 else a",
    ]
    if task == "classification":
        lines += [
            "",
            "",
            "def probabilities(X):",
            '    """Each row\'s probability of each class: [1 - sigmoid(z), sigmoid(z)], or the softmax."""',
            "    z = predict(X)",
            "    if z.ndim == 1:",
            "        e = np.exp(-np.abs(z))",
            "        p = np.where(z >= 0, 1.0 / (1.0 + e), e / (1.0 + e))",
            "        return np.column_stack([1.0 - p, p])",
            "    e = np.exp(z - z.max(axis=1, keepdims=True))",
            "    return e / e.sum(axis=1, keepdims=True)",
            "",
            "",
            "def predict_class(X):",
            '    """The class of each row: 1 where the logit is above 0, or the largest score."""',
            "    z = predict(X)",
            "    return (z > 0).astype(int) if z.ndim == 1 else np.argmax(z, axis=1)",
        ]
    example = "predict(np.linspace(-2.0, 2.0, 5))" if task == "regression" else "predict([[0.0, 0.0], [1.0, 0.5]])"
    lines += ["", "", 'if __name__ == "__main__":', f"    print({example})", ""]
    return "\n".join(lines)
