"""A training run as a readable script on this project's library: the same data, layers, initial weights,
optimizer, learning-rate schedule and batch order as ``Trainer`` (or ``RegressionTrainer``), with the loop
written out.  It prints ``train loss X`` last, the number ``main.py train --json`` reports as ``train_loss``.
"""

from __future__ import annotations

from autograd_core.export.common import BATCH_ORDER, INLINE_LIMIT, ScriptExport, list_literal, number, one_line
from autograd_core.export.custom_op import definitions_code
from autograd_core.learn.data import Dataset
from autograd_core.learn.regression import RegressionConfig, RegressionData
from autograd_core.learn.training import DIVERGENCE_FACTOR, TrainingConfig

_LOOP = """
# ---- the training loop: one optimizer step per batch
n = len(labels)
{batch_order}

# as the app, stop when the loss stops being a number or explodes past {factor:g} times where it started
limit = {factor!r} * max(1.0, loss_array(LOSS, model.forward_array(X_train), y_train))

for step in range(STEPS):
    lr = learning_rate(SCHEDULE, LR, step, STEPS)  # {schedule_words}
    batch = next_batch()
    scores = [model(inputs[i]) for i in batch]  # forward: each point through the layers
    loss = data_loss(LOSS, scores, [labels[i] for i in batch])  # {loss_words}, averaged over the batch
    penalty = regularization(params, L1, L2)  # L1 * sum|w| + L2 * sum w**2 over every weight and bias
    if penalty is not None:
        loss = loss + penalty
    model.zero_grad()  # gradients add up: start each step from 0
    loss.backward()  # backward: d loss / d w for every weight
    saved = model.state_dict()
    optimizer.step(lr=lr)  # move every weight against its gradient
    now = loss_array(LOSS, model.forward_array(X_train), y_train)
    if not (math.isfinite(loss.data) and now <= limit):  # diverged: back to the last good weights
        model.load_state_dict(saved)
        print(f"training stopped at step {{step + 1}}: the loss diverged (learning rate too large?)")
        break

# ---- the whole training set's data loss (no penalty), with the vectorized forward pass
final = loss_array(LOSS, model.forward_array(X_train), y_train)
print(f"train loss {{final!r}}")
"""

_SCHEDULES = {
    "constant": "the same rate every step",
    "linear": "from LR down to 0.1 * LR along a straight line",
    "cosine": "from LR down to 0.1 * LR along half a cosine",
}
_LOSSES = {"bce": "cross-entropy from the logit", "hinge": "hinge loss relu(1 - t*z)", "mse": "(z - t)**2, t = ±1"}


def _header(title: str, lines: list[str]) -> str:
    body = "\n".join(lines)
    run = (
        "It needs autograd_core importable: with the project installed (pip install .), python FILE;\n"
        "from a clone, PYTHONPATH=path/to/the/project python FILE"
    )
    return f'"""{title}\n\n{body}\n\n{run}\n"""\n'


def python_script(config: TrainingConfig | RegressionConfig, data: Dataset | RegressionData | None = None) -> str:
    """The script's text, with any given or painted data written into it (however many points)."""
    return _export(config, data, inline_limit=None).text


def python_export(
    config: TrainingConfig | RegressionConfig, data: Dataset | RegressionData | None = None
) -> ScriptExport:
    """The script, and its data as arrays for a ``.npz`` beside it when there are over 10,000 points."""
    return _export(config, data, inline_limit=INLINE_LIMIT)


def _export(config, data, inline_limit) -> ScriptExport:
    if isinstance(config, RegressionConfig):
        return _regression(config.validate(), data, inline_limit)
    return _classification(config.validate(), data, inline_limit)


def _data_block(arrays: dict, inline_limit: int | None, rows: int) -> tuple[list[str], dict | None]:
    """Code binding each array by name: written out, or read from the .npz beside the script."""
    if inline_limit is not None and rows > inline_limit:
        lines = [
            f"# {rows:,} points: they are in the .npz file beside this script",
            'data = np.load(Path(__file__).with_suffix(".npz"))',
            *(f'{name} = data["{name}"]' for name in arrays),
        ]
        return lines, dict(arrays)
    return [f"{name} = np.array({list_literal(values)})" for name, values in arrays.items()], None


def _classification(c: TrainingConfig, data: Dataset | None, inline_limit) -> ScriptExport:
    given = data is not None or c.points is not None
    lines = ["import math", "import random"]
    if given and inline_limit is not None:
        lines.append("from pathlib import Path")
    lines += ["", "import numpy as np", "", "from autograd_core.engine.tensor import Tensor"]
    if not given:
        lines.append("from autograd_core.learn.data import make_dataset")
    if c.features:
        lines.append("from autograd_core.learn.features import FeatureMLP, feature_values")
    lines.append("from autograd_core.learn.losses import data_loss, loss_array, regularization")
    if not c.features:
        lines.append("from autograd_core.learn.nn import MLP")
    lines += ["from autograd_core.learn.optim import learning_rate, make_optimizer", ""]
    lines += [*definitions_code(c.activations or [c.activation]), "# ---- the data"]
    arrays = None
    if given:
        d = data if data is not None else c.make_data()
        block, arrays = _data_block(
            {"X_train": d.X_train, "y_train": d.y_train.astype(int)}, inline_limit, len(d.y_train)
        )
        lines += ["# the training points (painted or imported), as they were trained on: x1, x2 and the class", *block]
    else:
        lines += [
            f"# {c.dataset}: {c.samples} points, noise {c.noise:g}, {c.test_fraction:.0%} held out for testing",
            "data = make_dataset(",
            f"    {c.dataset!r}, samples={c.samples}, noise={number(c.noise)}, seed={c.data_seed},",
            f"    test_fraction={number(c.test_fraction)}, standardize={c.standardize}, classes={c.num_classes},",
            f"    features={c.columns!r}, sklearn_seed={c.sklearn_seed!r},",
            ")",
            "X_train, y_train = data.X_train, data.y_train",
        ]
    lines += [
        "labels = [int(v) for v in y_train]",
        "# every point's inputs are leaves of the graph, made once",
        'inputs = [[Tensor(a, label="x1", kind="input"), Tensor(b, label="x2", kind="input")]',
        "          for a, b in X_train.tolist()]",
    ]
    activation = c.activations if c.activations is not None else c.activation
    sizes = [*c.layers, c.outputs]
    if c.features:
        lines += [
            f"FEATURES = {list(c.features)!r}  # extra inputs, expressions of x1 and x2 (the app's language)",
            "for leaves, row in zip(inputs, feature_values(FEATURES, X_train).tolist()):",
            '    leaves.extend(Tensor(v, label=f, kind="input") for f, v in zip(FEATURES, row))',
        ]
    widths = " → ".join(map(str, [c.inputs, *sizes]))
    lines += [
        "",
        f"# ---- the network: layers {widths}, {'/'.join(c.hidden_activations) or 'no hidden layer'}, "
        "a linear output" + (" (one score per class)" if c.outputs > 1 else " (the logit)"),
        f"# initial weights drawn from the seed ({c.init}), biases 0",
    ]
    if c.features:
        lines.append(
            f"model = FeatureMLP(FEATURES, {sizes!r}, activation={activation!r}, init={c.init!r}, seed={c.seed})"
        )
    else:
        lines.append(f"model = MLP(2, {sizes!r}, activation={activation!r}, init={c.init!r}, seed={c.seed})")
    lines += [
        "params = model.parameters()",
        f"# {c.optimizer}; settings it does not use are ignored",
        f"optimizer = make_optimizer({c.optimizer!r}, params, {number(c.lr)}, momentum={number(c.momentum)},",
        f"                           betas={tuple(c.betas)!r}, alpha={number(c.alpha)}, "
        f"weight_decay={number(c.weight_decay)})",
        "",
        f"STEPS, BATCH, SEED = {c.steps}, {c.batch_size}, {c.seed}  # BATCH 0: full batch",
        f"LR, SCHEDULE = {number(c.lr)}, {c.schedule!r}",
        f"LOSS, L1, L2 = {c.loss!r}, {number(c.l1)}, {number(c.l2)}",
    ]
    loss_words = "softmax cross-entropy" if c.outputs > 1 else _LOSSES[c.loss]
    loop = _LOOP.format(
        schedule_words=_SCHEDULES[c.schedule], loss_words=loss_words, factor=DIVERGENCE_FACTOR, batch_order=BATCH_ORDER
    )
    title = "Autograd Playground: a classification run as a script."
    what = f"{c.num_classes} classes, {one_line(c.dataset if not given else 'your points')}"
    header = _header(
        title,
        [
            f"Trains the network of the app's run ({what}) with the scalar engine, step by step:",
            "forward over the batch, loss + penalty, zero_grad, backward, optimizer step.",
            "The last line printed is the training set's loss, the app's train loss.",
        ],
    )
    return ScriptExport(header + "\n" + "\n".join(lines) + "\n" + loop, arrays)


_REGRESSION_LOOP = """
# ---- the training loop: one optimizer step per batch
rng = random.Random(f"batches:{{SEED}}")  # each step samples BATCH distinct points
n = len(targets)
for step in range(STEPS):
    lr = learning_rate(SCHEDULE, LR, step, STEPS)  # {schedule_words}
    batch = list(range(n)) if BATCH <= 0 or BATCH >= n else rng.sample(range(n), BATCH)
    residuals = [model(inputs[i]) - targets[i] for i in batch]  # forward: prediction minus target
    {loss_line}
    if L2:
        loss = loss + Tensor.sum(p * p for p in params) * L2  # L2 * sum w**2 over every weight and bias
    model.zero_grad()  # gradients add up: start each step from 0
    loss.backward()  # backward: d loss / d w for every weight
    optimizer.step(lr=lr)  # move every weight against its gradient

# ---- the whole training set's loss, with the vectorized forward pass
final = loss_array(LOSS, model.forward_array(x_train.reshape(-1, 1)), y_train, HUBER_DELTA)
print(f"train loss {{final!r}}")
"""


def _regression(c: RegressionConfig, data: RegressionData | None, inline_limit) -> ScriptExport:
    lines = ["import random"]
    if data is not None and inline_limit is not None:
        lines.append("from pathlib import Path")
    lines += [
        "",
        "import numpy as np",
        "",
        "from autograd_core.engine.tensor import Tensor",
        "from autograd_core.learn.nn import MLP",
        "from autograd_core.learn.optim import learning_rate, make_optimizer",
        "from autograd_core.learn.regression import loss_array"
        + (", huber" if c.loss == "huber" else "")
        + ("" if data is not None else ", make_regression_data, RegressionConfig"),
        "",
        *definitions_code([c.activation]),
        "# ---- the data",
    ]
    arrays = None
    if data is not None:
        block, arrays = _data_block({"x_train": data.x_train, "y_train": data.y_train}, inline_limit, len(data.x_train))
        lines += ["# the training points (imported), as they were trained on", *block]
    else:
        lines += [
            f"# y = {one_line(c.target)} plus noise {c.noise:g}, x from {c.x_min:g} to {c.x_max:g} "
            "(the target goes through the app's expression language)",
            "data = make_regression_data(RegressionConfig(",
            f"    target={c.target!r}, samples={c.samples}, noise={number(c.noise)}, x_min={number(c.x_min)},",
            f"    x_max={number(c.x_max)}, test_fraction={number(c.test_fraction)}, data_seed={c.data_seed},",
            "))",
            "x_train, y_train = data.x_train, data.y_train",
        ]
    sizes = [*c.layers, 1]
    lines += [
        'inputs = [[Tensor(float(v), label="x", kind="input")] for v in x_train.tolist()]',
        "targets = y_train.tolist()",
        "",
        f"# ---- the network: layers {' → '.join(map(str, [1, *sizes]))}, {c.activation}, a linear output",
        f"# initial weights drawn from the seed ({c.init}), biases 0",
        f"model = MLP(1, {sizes!r}, activation={c.activation!r}, init={c.init!r}, seed={c.seed})",
        "params = model.parameters()",
        f"optimizer = make_optimizer({c.optimizer!r}, params, {number(c.lr)})  # its other settings: torch's defaults",
        "",
        f"STEPS, BATCH, SEED = {c.steps}, {c.batch_size}, {c.seed}  # BATCH 0: full batch",
        f"LR, SCHEDULE = {number(c.lr)}, {c.schedule!r}",
        f"LOSS, HUBER_DELTA, L2 = {c.loss!r}, {number(c.huber_delta)}, {number(c.l2)}",
    ]
    if c.loss == "huber":
        loss_line = "loss = huber(residuals, HUBER_DELTA)  # ½r² near 0, linear beyond HUBER_DELTA, averaged"
    else:
        loss_line = "loss = Tensor.sum(r * r for r in residuals) * (1.0 / len(residuals))  # mean squared error"
    loop = _REGRESSION_LOOP.format(schedule_words=_SCHEDULES[c.schedule], loss_line=loss_line)
    header = _header(
        "Autograd Playground: a regression run as a script.",
        [
            "Fits the network of the app's run to the target with the scalar engine, step by step:",
            "forward over the batch, loss + penalty, zero_grad, backward, optimizer step.",
            "The last line printed is the training set's loss, the app's train loss.",
        ],
    )
    return ScriptExport(header + "\n" + "\n".join(lines) + "\n" + loop, arrays)
