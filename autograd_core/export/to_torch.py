"""A training run as a PyTorch script that needs only ``torch`` and ``numpy``: ``nn.Linear`` layers and
activations, the matching ``torch.optim`` optimizer, the same loss and L1/L2 penalty, float64, the app's
learning-rate schedule set on the param group each step, the same data, initial weights and batch order.
It prints ``train loss X`` last; it agrees with ``main.py train`` to about 1e-9 (the engine follows torch's
update rules, so only the order of float additions differs).
"""

from __future__ import annotations

import inspect

import numpy as np

from autograd_core.engine.custom_ops import CUSTOM_OPS
from autograd_core.export.common import (
    BATCH_ORDER,
    INLINE_LIMIT,
    ExportUnsupported,
    TorchExport,
    check_activation,
    feature_code,
    list_literal,
    number,
    one_line,
    spellings,
)
from autograd_core.export.custom_op import torch_module, torch_module_name
from autograd_core.learn.data import Dataset
from autograd_core.learn.optim import FINAL_LR_FRACTION, make_optimizer
from autograd_core.learn.regression import RegressionConfig, RegressionData, make_regression_data
from autograd_core.learn.training import DIVERGENCE_FACTOR, TrainingConfig

_SCHEDULE_CODE = {
    "constant": "    return LR  # constant",
    "linear": f"    return LR * (1.0 - (1.0 - {FINAL_LR_FRACTION!r}) * min(step / STEPS, 1.0))  # linear, down to 10 %",
    "cosine": (
        f"    final = LR * {FINAL_LR_FRACTION!r}  # cosine: from LR down to 10 % of it along half a cosine\n"
        "    return final + (LR - final) * 0.5 * (1.0 + math.cos(math.pi * min(step / STEPS, 1.0)))"
    ),
}

_CLASSIFICATION_BATCHES = "\nn = len(y_train)\n" + BATCH_ORDER

_REGRESSION_BATCHES = """
n = len(y_train)
rng = random.Random(f"batches:{SEED}")  # each step samples BATCH distinct points


def next_batch():
    return list(range(n)) if BATCH <= 0 or BATCH >= n else rng.sample(range(n), BATCH)

"""

_START = """
# as the app, stop when the loss stops being a number or explodes past {factor:g} times where it started
with torch.no_grad():
    limit = {factor!r} * max(1.0, float(loss_of(model(X_train), y_train)))
"""
_SAVE = "    saved = [p.detach().clone() for p in model.parameters()]\n"
_CHECK = """    with torch.no_grad():
        now = float(loss_of(model(X_train), y_train))
        if not (math.isfinite(float(loss)) and now <= limit):  # diverged: back to the last good weights
            for p, old in zip(model.parameters(), saved):
                p.copy_(old)
            print(f"training stopped at step {step + 1}: the loss diverged (learning rate too large?)")
            break
"""

_LOOP = """
for step in range(STEPS):
    for group in optimizer.param_groups:
        group["lr"] = learning_rate(step)
    batch = next_batch()
    loss = loss_of(model(X_train[batch]), y_train[batch]) + penalty()  # forward over the batch: loss + penalty
    optimizer.zero_grad()  # gradients add up: start each step from 0
    loss.backward()  # backward: d loss / d w for every weight
{save}    optimizer.step()  # move every weight against its gradient
{check}
# ---- the whole training set's data loss (no penalty)
with torch.no_grad():
    final = float(loss_of(model(X_train), y_train))
print(f"train loss {{final!r}}")
"""


def _optimizer_code(name: str, lr: str, momentum: float, betas, alpha: float, weight_decay: float) -> str:
    calls = {
        "sgd": "torch.optim.SGD(model.parameters(), lr={lr})",
        "momentum": "torch.optim.SGD(model.parameters(), lr={lr}, momentum={m})",
        "nesterov": "torch.optim.SGD(model.parameters(), lr={lr}, momentum={m}, nesterov=True)",
        "rmsprop": "torch.optim.RMSprop(model.parameters(), lr={lr}, alpha={a})",
        "adagrad": "torch.optim.Adagrad(model.parameters(), lr={lr})",
        "adam": "torch.optim.Adam(model.parameters(), lr={lr}, betas=({b1}, {b2}))",
        "adamw": "torch.optim.AdamW(model.parameters(), lr={lr}, betas=({b1}, {b2}), weight_decay={wd})",
    }
    if name not in calls:
        raise ExportUnsupported(f"the optimizer {name} has no torch.optim counterpart")
    b1, b2 = (number(b) for b in betas)
    return calls[name].format(lr=lr, m=number(momentum), a=number(alpha), b1=b1, b2=b2, wd=number(weight_decay))


def _regression_optimizer_defaults() -> dict:
    """The settings RegressionTrainer's ``make_optimizer(name, params, lr)`` leaves at their defaults."""
    sig = inspect.signature(make_optimizer).parameters
    return {k: sig[k].default for k in ("momentum", "betas", "alpha", "weight_decay")}


def _model_code(inputs: int, layers: list[int], outputs: int, activations: list[str]) -> str:
    sizes = [inputs, *layers, outputs]
    parts = []
    modules: dict[str, str] = {}  # the learner's ops used as activations, as torch modules
    torch_modules = spellings("torch_module")  # (from the op's record)
    for i in range(len(sizes) - 1):
        parts.append(f"nn.Linear({sizes[i]}, {sizes[i + 1]})")
        if i < len(layers) and activations[i] != "linear":
            source = CUSTOM_OPS.source(activations[i]) if activations[i] not in torch_modules else None
            if source is not None:  # a workshop op: its value as a torch module of its own
                modules.setdefault(activations[i], torch_module(source.definition))
                parts.append(f"{torch_module_name(activations[i])}()")
                continue
            check_activation(activations[i], torch_modules, "PyTorch")
            parts.append(torch_modules[activations[i]])
    classes = "".join(f"{code}\n\n" for code in modules.values())
    return classes + "model = nn.Sequential(\n" + "".join(f"    {p},\n" for p in parts) + ")"


def torch_script(
    config: TrainingConfig | RegressionConfig, data: Dataset | RegressionData | None = None
) -> TorchExport:
    """The PyTorch script of the run; ``arrays`` holds the data and weights for a ``.npz`` beside it when they
    are over 10,000 numbers (else None: everything is in the text).  Raises ExportUnsupported (one sentence)
    for a setting PyTorch has no counterpart for."""
    if isinstance(config, RegressionConfig):
        return _build(_regression_parts(config.validate(), data))
    return _build(_classification_parts(config.validate(), data))


def _classification_parts(c: TrainingConfig, data: Dataset | None) -> dict:
    d = data if data is not None else c.make_data()
    model = c.make_model()
    features = list(c.features or [])
    feature_lines = []
    if features:
        codes, setup = [], []
        for i, f in enumerate(features):
            code, _, lines = feature_code(f, "torch", prefix=f"feature{i + 1}_part")
            codes.append(code)
            setup += lines
        feature_lines = [
            "# the input features, computed from x1 and x2 as the app does:",
            *(f"#   {one_line(f, 200)!r}" for f in features),
            "x1, x2 = X_train[:, 0], X_train[:, 1]",
            *setup,
            "X_train = torch.column_stack([X_train, " + ", ".join(codes) + "])",
        ]
    if c.outputs > 1:
        loss = [
            "def loss_of(scores, y):",
            '    """Softmax cross-entropy: mean of log sum exp(z) - z[y]."""',
            "    return F.cross_entropy(scores, y)",
        ]
        y_code = "y_train = torch.tensor(labels)"
    else:
        body = {
            "bce": "    return F.binary_cross_entropy_with_logits(z, y)  # mean of softplus(z) - y*z",
            "hinge": "    return torch.relu(1.0 - (2.0 * y - 1.0) * z).mean()  # relu(1 - t*z), t = ±1",
            "mse": "    return ((z - (2.0 * y - 1.0)) ** 2).mean()  # (z - t)**2, t = ±1",
        }[c.loss]
        loss = [
            "def loss_of(scores, y):",
            f'    """The {c.loss} loss of the logits z against the labels 0/1, averaged."""',
            "    z = scores[:, 0]",
            body,
        ]
        y_code = "y_train = torch.tensor(labels, dtype=torch.float64)"
    return {
        "title": "Autograd Playground: the classification run in PyTorch.",
        # (data given with no points of the config's own is that config's data set, passed in so it is not made
        # again: the app has it already, and making it would import scikit-learn on a click)
        "what": f"{c.num_classes} classes, " + (one_line(c.dataset) if c.points is None else "your points"),
        "X": np.asarray(d.X_train, float),
        "y": np.asarray(d.y_train).astype(int),
        "y_code": y_code,
        "features": feature_lines,
        "model": _model_code(c.inputs, list(c.layers), c.outputs, c.hidden_activations),
        "weights": model.weight_arrays(),
        "optimizer": _optimizer_code(c.optimizer, "LR", c.momentum, c.betas, c.alpha, c.weight_decay),
        "constants": [
            f"STEPS, BATCH, SEED = {c.steps}, {c.batch_size}, {c.seed}  # BATCH 0: full batch",
            f"LR, L1, L2 = {number(c.lr)}, {number(c.l1)}, {number(c.l2)}",
        ],
        "schedule": c.schedule,
        "loss": loss,
        "penalty": (c.l1, c.l2),
        "batches": _CLASSIFICATION_BATCHES,
        "stops": True,
    }


def _regression_parts(c: RegressionConfig, data: RegressionData | None) -> dict:
    from autograd_core.learn.nn import MLP

    d = data if data is not None else make_regression_data(c)
    model = MLP(1, [*c.layers, 1], activation=c.activation, init=c.init, seed=c.seed)
    defaults = _regression_optimizer_defaults()
    if c.loss == "huber":
        body = "    return F.huber_loss(pred, y, delta=HUBER_DELTA)  # ½r² near 0, linear beyond HUBER_DELTA"
    else:
        body = "    return F.mse_loss(pred, y)  # mean squared error"
    return {
        "title": "Autograd Playground: the regression run in PyTorch.",
        "what": "a target " + repr(one_line(c.target)) if data is None else "your points",
        "X": np.asarray(d.x_train, float).reshape(-1, 1),
        "y": np.asarray(d.y_train, float),
        "y_code": "y_train = torch.tensor(targets)",
        "features": [],
        "model": _model_code(1, list(c.layers), 1, [c.activation] * len(c.layers)),
        "weights": model.weight_arrays(),
        "optimizer": _optimizer_code(
            c.optimizer, "LR", defaults["momentum"], defaults["betas"], defaults["alpha"], defaults["weight_decay"]
        ),
        "constants": [
            f"STEPS, BATCH, SEED = {c.steps}, {c.batch_size}, {c.seed}  # BATCH 0: full batch",
            f"LR, L1, L2, HUBER_DELTA = {number(c.lr)}, 0.0, {number(c.l2)}, {number(c.huber_delta)}",
        ],
        "schedule": c.schedule,
        "loss": [
            "def loss_of(pred, y):",
            f'    """The {c.loss} loss of the predictions against the targets, averaged."""',
            "    pred = pred[:, 0]",
            body,
        ],
        "penalty": (0.0, c.l2),
        "batches": _REGRESSION_BATCHES,
        "stops": False,
    }


def _build(p: dict) -> TorchExport:
    X, y, weights = p["X"], p["y"], p["weights"]
    big_data = X.size > INLINE_LIMIT
    big_weights = sum(W.size + b.size for W, b in weights) > INLINE_LIMIT
    arrays: dict[str, np.ndarray] = {}
    target_name = "labels" if "labels" in p["y_code"] else "targets"
    lines = [
        '"""' + p["title"],
        "",
        f"Trains the app's network ({p['what']}) with torch.nn and torch.optim in float64, step by step:",
        "forward over the batch, loss + penalty, zero_grad, backward, optimizer step; the data, the initial",
        "weights, the learning-rate schedule and the batch order are the app's. Needs only torch and numpy.",
        "The last line printed is the training set's loss, the app's train loss.",
        '"""',
        "",
        "import math",
        "import random",
    ]
    if big_data or big_weights:
        lines.append("from pathlib import Path")
    lines += [
        "",
        "import numpy as np",
        "import torch",
        "import torch.nn.functional as F",
        "from torch import nn",
        "",
        "torch.set_default_dtype(torch.float64)  # the app computes in float64 too",
        "",
        "# ---- the data: the training points (inputs per row) and what the network should output",
    ]
    if big_data or big_weights:
        lines += [
            "stored = np.load(Path(__file__).with_suffix('.npz'))  # the numbers too many to write here",
        ]
    if big_data:
        arrays["X_train"], arrays[target_name] = X, y
        lines += ['X_train = torch.tensor(stored["X_train"])', f'{target_name} = stored["{target_name}"].tolist()']
    else:
        lines += [f"X_train = torch.tensor({list_literal(X)})", f"{target_name} = {list_literal(y)}"]
    lines += [p["y_code"], *p["features"], "", "# ---- the network: linear layers and activations", p["model"]]
    lines += ["", "# the app's initial weights (drawn from its seed), so both start from the same point"]
    if big_weights:
        for i, (W, b) in enumerate(weights):
            arrays[f"W{i + 1}"], arrays[f"b{i + 1}"] = W, b
        lines.append(f"WEIGHTS = [(stored[f'W{{i}}'], stored[f'b{{i}}']) for i in range(1, {len(weights) + 1})]")
    else:
        lines.append("WEIGHTS = [")
        for i, (W, b) in enumerate(weights):
            units, inputs = W.shape
            lines.append(
                f"    # layer {i + 1}: {units} unit{'s' * (units != 1)} × {inputs} input{'s' * (inputs != 1)}, "
                "then the biases"
            )
            w_text = list_literal(W).replace("\n", "\n    ")
            b_text = list_literal(b).replace("\n", "\n    ")
            lines.append(f"    ({w_text}, {b_text}),")
        lines.append("]")
    lines += [
        "linears = [m for m in model if isinstance(m, nn.Linear)]",
        "with torch.no_grad():",
        "    for layer, (W, b) in zip(linears, WEIGHTS):",
        "        layer.weight.copy_(torch.tensor(W))",
        "        layer.bias.copy_(torch.tensor(b))",
        "",
        "# ---- the optimizer, the schedule, the loss and the penalty",
        *p["constants"],
        "optimizer = " + p["optimizer"],
        "",
        "",
        "def learning_rate(step):",
        '    """The app\'s schedule, set on the optimizer before each step."""',
        _SCHEDULE_CODE[p["schedule"]],
        "",
        "",
        *p["loss"],
        "",
        "",
        "def penalty():",
        '    """L1 * sum|w| + L2 * sum w**2 over every weight and bias (as the app)."""',
    ]
    l1, l2 = p["penalty"]
    terms = []
    if l1:
        terms.append("L1 * sum(p.abs().sum() for p in model.parameters())")
    if l2:
        terms.append("L2 * sum((p * p).sum() for p in model.parameters())")
    lines.append("    return " + (" + ".join(terms) if terms else "0.0"))
    lines.append("")
    if p["stops"]:  # classification: the Trainer's divergence stop
        loop = _START.format(factor=DIVERGENCE_FACTOR) + _LOOP.format(save=_SAVE, check=_CHECK)
    else:
        loop = _LOOP.format(save="", check="")
    text = "\n".join(lines) + "\n" + p["batches"] + loop
    return TorchExport(text, arrays or None)
