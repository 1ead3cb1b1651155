"""Looking inside a trained network: the library behind the app's linked views.

- ``sample_graph``: one data point's whole scalar computation graph (forward
  through the model, then its loss, then ``backward()``), grouped by neuron, so
  a learner sees the exact chain of numbers that classified the point and how
  its loss pushes every weight.
- ``dead_units``: ReLU units that output zero for every training point.
- ``layer_gradient_norms``: how much gradient reaches each layer.
- ``loss_slice``: the loss as one weight varies, its tangent (slope = the
  weight's gradient) and where the optimizer's next step lands
  (``next_step`` takes that step on a deep copy of the trainer, so it is the
  real one whatever the optimizer).

Everything works on a *copy* of the model's weights, so it is safe to call
while another thread trains the model and never disturbs its gradients.
"""

from __future__ import annotations

import copy
import math
from dataclasses import dataclass

import numpy as np

from autograd_core.engine.ops import stable_sigmoid, stable_softmax
from autograd_core.engine.tensor import Tensor
from autograd_core.language.naming import input_name
from autograd_core.learn.losses import data_loss, loss_array, penalty_array, regularization
from autograd_core.learn.nn import MLP


def clone_model(model: MLP, weights: list[float] | None = None) -> MLP:
    """A new MLP of the same shape with ``weights`` (default: the model's current ones)."""
    twin = MLP(model.nin, model.nouts, list(model.activations[:-1]), model.output_activation, model.init, seed=0)
    twin.load_state_dict(list(weights) if weights is not None else model.state_dict())
    return twin


def parameter_index(model: MLP, layer: int, neuron: int, source: int | None) -> int:
    """Position in ``model.parameters()`` of the weight from input/unit ``source`` into
    ``neuron`` of ``layer`` (0-based), or of that neuron's bias when ``source`` is None."""
    index = 0
    for li, lay in enumerate(model.layers):
        for ni, unit in enumerate(lay.neurons):
            if li == layer and ni == neuron:
                nin = len(unit.w)
                if source is None:
                    return index + nin
                if not 0 <= source < nin:
                    raise IndexError(f"neuron {neuron} of layer {layer} has {nin} inputs, not {source + 1}")
                return index + source
            index += len(unit.w) + 1
    raise IndexError(f"no neuron {neuron} in layer {layer}")


def parameter_name(model: MLP, index: int) -> str:
    """A readable name such as ``L1.n3.w1`` (weight) or ``L2.n1.b`` (bias)."""
    params = model.parameters()
    if not 0 <= index < len(params):
        raise IndexError(f"the model has {len(params)} parameters, not {index + 1}")
    p = params[index]
    return f"{p.group}.{p.label}"


# ---------------------------------------------------------------- one sample


@dataclass
class SampleGraph:
    """One point's forward pass and loss, after ``backward()``."""

    loss: Tensor  # the root: this point's loss
    score: Tensor  # the model's raw output (logit) for the point
    inputs: list[Tensor]  # the two input leaves, x1 and x2
    model: MLP  # the copy whose parameters are leaves of this graph
    label: int

    scores: list[Tensor] | None = None  # with K > 2 classes: the K output scores (``score`` is the label's)

    @property
    def probability(self) -> float:
        """σ(score): the model's probability of class 1 for this point; with K classes, of its own label."""
        if self.scores:
            return stable_softmax([t.data for t in self.scores])[self.label]
        return stable_sigmoid(self.score.data)

    def parameter_grads(self) -> list[float]:
        return [p.grad for p in self.model.parameters()]


def sample_graph(
    model: MLP,
    point: tuple[float, float],
    label: int,
    loss: str = "bce",
    weights: list[float] | None = None,
    fused: bool = False,
) -> SampleGraph:
    """Build and backpropagate one sample's loss on a copy of ``model``.

    ``fused=False`` (default) builds every multiply and add as its own node,
    the full scalar picture; each node carries its neuron's name as ``group``
    (``L1.n1`` …) and the loss nodes the group ``loss``.
    """
    twin = clone_model(model, weights)
    x = [Tensor(float(point[i]), label=input_name(i), kind="input") for i in range(2)]
    out = twin(x, fused=fused)
    scores = None
    if isinstance(out, list):  # K classes: K scores, softmax cross-entropy over them
        scores = out
        for k, t in enumerate(scores):
            t.label = f"score{k + 1}"
        root = data_loss(loss, [scores], [int(label)])
        score = scores[int(label)]
    else:
        score = out
        score.label = "score"
        root = data_loss(loss, [score], [int(label)])
    root.label = "loss"
    _tag_loss_nodes(root, scores or [score])
    root.backward()
    return SampleGraph(loss=root, score=score, inputs=x, model=twin, label=int(label), scores=scores)


def _tag_loss_nodes(root: Tensor, scores: list[Tensor]) -> None:
    """Put the nodes between the scores and the loss (and their constants) in group ``loss``."""
    stack, seen = [root], set()
    while stack:
        node = stack.pop()
        if any(node is s for s in scores) or node in seen:
            continue
        seen.add(node)
        node.group = "loss"
        stack.extend(node.parents)


# ---------------------------------------------------------------- diagnostics


def dead_units(model: MLP, X: np.ndarray, weights: list[float] | None = None) -> list[tuple[int, int]]:
    """(layer, neuron) of every hidden ReLU unit whose output is 0 for all rows of X.

    Such a unit passes no gradient to its weights for any of these points, so
    gradient descent can never revive it.
    """
    if "relu" not in model.activations[:-1] or len(X) == 0:
        return []
    twin = clone_model(model, weights) if weights is not None else model
    _, hidden = twin.forward_array(np.asarray(X, dtype=float), return_hidden=True)
    dead = []
    for li, activations in enumerate(hidden[:-1]):  # the output layer is linear
        if model.activations[li] != "relu":
            continue
        for ni in np.flatnonzero(np.all(activations <= 0.0, axis=0)):
            dead.append((li, int(ni)))
    return dead


def layer_gradient_norms(model: MLP) -> list[float]:
    """‖∂loss/∂θ‖₂ over each layer's weights and biases, from the gradients now stored."""
    return [math.sqrt(math.fsum(p.grad * p.grad for p in layer.parameters())) for layer in model.layers]


# ---------------------------------------------------------------- loss slice


@dataclass
class NextStep:
    """What the optimizer's next update does, found by taking it on a deep copy of the trainer."""

    optimizer: str  # the optimizer's name in the config: "sgd", "momentum", "adam"
    lr: float  # the learning rate of that step (after the schedule)
    batch: int  # training points in the batch it uses
    train_size: int  # training points in all
    weights: list[float] | None  # every parameter after the step; None when there is no next step
    problem: str | None = None  # why there is none (finished, or the step would diverge)


def next_step(trainer) -> NextStep:
    """Take ``trainer``'s next update on a deep copy: model, optimizer state and batch position.

    The copy runs the trainer's own ``step()``, so the answer is the step that
    will really happen (the next minibatch, momentum or Adam's running
    averages, the schedule) without re-deriving any optimizer's rule here.
    The trainer itself is untouched.
    """
    config = trainer.config
    n = len(trainer.data.y_train)
    batch = n if config.batch_size <= 0 or config.batch_size >= n else config.batch_size
    memo = {id(trainer.history): [], id(trainer.data): trainer.data}  # neither is needed for one step
    if trainer.finished:
        problem = trainer.stopped_reason or f"all {config.steps} steps are done"
        return NextStep(config.optimizer, config.lr, batch, n, None, problem)
    twin = copy.deepcopy(trainer, memo)
    lr = twin.step().lr
    if twin.stopped_reason is not None:
        return NextStep(config.optimizer, lr, batch, n, None, "the next step would diverge (it is rolled back)")
    return NextStep(config.optimizer, lr, batch, n, twin.model.state_dict())


def objective_name(l1: float, l2: float) -> str:
    """The trained objective's name with only the penalties in force (a plain "loss" when neither is)."""
    terms = [name for name, strength in (("L1", l1), ("L2", l2)) if strength]
    return f"data loss + {' + '.join(terms)} penalty" if terms else "loss"


@dataclass
class LossSlice:
    """The training loss along one weight, with the tangent and the optimizer's next step."""

    name: str
    values: np.ndarray  # weight values along the slice
    losses: np.ndarray  # training loss (data loss + penalty) at each value
    weight: float  # current value
    loss: float  # loss at the current value
    gradient: float  # ∂loss/∂weight at the current value, full batch (the tangent's slope)
    lr: float
    next_weight: float  # the weight after the optimizer's next step (nan: no next step)
    next_loss: float  # loss after that step (other weights fixed)
    optimizer: str = "sgd"  # whose step next_weight is
    batch: int = 0  # points in the batch of that step
    train_size: int = 0  # training points (the slice's loss is over all of them)
    problem: str | None = None  # why there is no next step
    data_loss: float = math.nan  # the data part of ``loss`` (what the header's "train loss" reads)
    penalty: float = 0.0  # the L1/L2 part of ``loss``: loss = data_loss + penalty
    l1: float = 0.0
    l2: float = 0.0
    step: int | None = None  # the training step (epoch, full batch) whose weights these are, when known

    @property
    def objective(self) -> str:
        """What ``losses`` are, naming only the terms in force: "loss", "data loss + L2 penalty" …"""
        return objective_name(self.l1, self.l2)

    def tangent(self, w: np.ndarray) -> np.ndarray:
        """The tangent line at the current weight."""
        return self.loss + self.gradient * (np.asarray(w) - self.weight)


def full_batch_loss(model: MLP, X: np.ndarray, y: np.ndarray, loss: str, l1: float = 0.0, l2: float = 0.0) -> Tensor:
    """The full-batch training loss as a Tensor graph (for exact gradients)."""
    inputs = [[Tensor(a), Tensor(b)] for a, b in np.asarray(X, dtype=float).tolist()]
    scores = [model(x) for x in inputs]
    total = data_loss(loss, scores, [int(v) for v in y])
    penalty = regularization(model.parameters(), l1, l2)
    return total if penalty is None else total + penalty


def loss_slice(
    model: MLP,
    X: np.ndarray,
    y: np.ndarray,
    index: int,
    loss: str = "bce",
    lr: float = 0.1,
    l1: float = 0.0,
    l2: float = 0.0,
    span: float | None = None,
    points: int = 61,
    weights: list[float] | None = None,
    step: NextStep | None = None,
) -> LossSlice:
    """The training loss as parameter ``index`` varies around its current value.

    The curve is evaluated with the vectorised forward pass; the gradient comes
    from the scalar engine (a full-batch backward on a copy), so the tangent
    drawn with it is exactly the slope of the curve.  ``step`` (from
    ``next_step``) places the optimizer's real next step on the curve; without
    it the next step is full-batch SGD, ``w − lr·gradient``.  ``span`` is the
    half-width of the slice (default: enough to show the next step).
    """
    twin = clone_model(model, weights)
    params = twin.parameters()
    name = parameter_name(twin, index)
    X = np.asarray(X, dtype=float)
    w0 = params[index].data

    root = full_batch_loss(twin, X, y, loss, l1, l2)
    root.backward()
    gradient = params[index].grad
    if step is None:
        step = NextStep("sgd", lr, len(X), len(X), None)
        next_weight = w0 - lr * gradient
    else:
        next_weight = step.weights[index] if step.weights is not None else math.nan
    if span is None:
        span = max(1.0, 1.5 * abs(next_weight - w0)) if math.isfinite(next_weight) else 1.0
    values = np.linspace(w0 - span, w0 + span, points)
    state = twin.state_dict()

    def loss_at(w: float) -> float:
        state[index] = w
        twin.load_state_dict(state)
        return loss_array(loss, twin.forward_array(X), y) + penalty_array(state, l1, l2)

    losses = np.array([loss_at(w) for w in values])
    next_loss = loss_at(next_weight) if math.isfinite(next_weight) else math.nan
    current = loss_at(w0)  # (leaves the copy at w0)
    data = loss_array(loss, twin.forward_array(X), y)  # the header's train loss, at these very weights
    penalty = penalty_array(state, l1, l2)
    return LossSlice(
        name,
        values,
        losses,
        w0,
        current,
        gradient,
        step.lr,
        next_weight,
        next_loss,
        optimizer=step.optimizer,
        batch=step.batch,
        train_size=step.train_size,
        problem=step.problem,
        data_loss=data,
        penalty=penalty,
        l1=l1,
        l2=l2,
    )


# ---------------------------------------------------------------- unit maps


def mlp_from_arrays(arrays: list, activation="relu", output_activation: str | None = None) -> MLP:
    """An MLP holding the weights given as ``[(W (nout×nin), b)]`` per layer (the form ``weight_arrays`` returns).

    ``activation``: one name for every hidden layer, or a list (one per hidden layer)."""
    arrays = [(np.asarray(W, dtype=float), np.asarray(b, dtype=float)) for W, b in arrays]
    if not arrays:
        raise ValueError("a network needs at least one layer")
    if isinstance(activation, list | tuple):
        activation = list(activation)
    nin = arrays[0][0].shape[1]
    model = MLP(nin, [W.shape[0] for W, _ in arrays], activation, output_activation, seed=0)
    state = []
    for W, b in arrays:
        for row, bias in zip(W.tolist(), b.tolist()):
            state.extend(row)
            state.append(bias)
    model.load_state_dict(state)
    return model


def unit_maps(
    model: MLP, extent: tuple[float, float, float, float], resolution: int = 24, arrays: list | None = None
) -> list[np.ndarray]:
    """Every hidden unit's output over a ``resolution``² grid of the plane (vectorised forward).

    One array per hidden layer, shaped (units, resolution, resolution), where
    ``[k, i, j]`` is unit k's output at x = xs[j], y = ys[i] (row-major, y up,
    the layout of the decision-boundary grid).  ``arrays`` are weights as
    ``weight_arrays()`` gives them (default: the model's own).
    """
    x0, x1, y0, y1 = extent
    gx, gy = np.meshgrid(np.linspace(x0, x1, resolution), np.linspace(y0, y1, resolution))
    _, hidden = model.forward_array(np.column_stack([gx.ravel(), gy.ravel()]), weights=arrays, return_hidden=True)
    return [h.T.reshape(h.shape[1], resolution, resolution) for h in hidden[:-1]]
