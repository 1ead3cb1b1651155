"""The linked-view library: one sample's graph, dead units, gradient norms, loss slice."""

import math

import numpy as np
import pytest

from autograd_core import Tensor
from autograd_core.learn.inspection import (
    clone_model,
    dead_units,
    full_batch_loss,
    layer_gradient_norms,
    loss_slice,
    objective_name,
    parameter_index,
    parameter_name,
    sample_graph,
)
from autograd_core.learn.losses import data_loss, loss_array
from autograd_core.learn.nn import MLP


@pytest.fixture
def model():
    return MLP(2, [16, 16, 1], seed=3, init="he")


@pytest.mark.parametrize("loss", ["bce", "hinge", "mse"])
@pytest.mark.parametrize("label", [0, 1])
def test_sample_graph_matches_model_prediction_and_scalar_backward(model, loss, label):
    point = (0.4, -0.7)
    graph = sample_graph(model, point, label, loss=loss)
    assert graph.score.data == pytest.approx(float(model.forward_array(np.array([point]))[0]), abs=1e-12)

    # Reference: a plain scalar backward of the same sample's loss on the model itself (fused neurons).
    model.zero_grad()
    reference = data_loss(loss, [model([Tensor(point[0]), Tensor(point[1])])], [label])
    reference.backward()
    assert graph.loss.data == pytest.approx(reference.data, abs=1e-12)
    assert graph.parameter_grads() == pytest.approx([p.grad for p in model.parameters()], abs=1e-12)


def test_sample_graph_does_not_touch_the_models_gradients(model):
    for p in model.parameters():
        p.grad = 0.25
    sample_graph(model, (0.1, 0.2), 1)
    assert all(p.grad == 0.25 for p in model.parameters())


def test_sample_graph_is_grouped_by_neuron_and_loss(model):
    graph = sample_graph(model, (0.5, 0.5), 1)
    from autograd_core import topological_order

    nodes = topological_order(graph.loss)
    groups = {n.group for n in nodes}
    assert {"L1.n1", "L1.n16", "L2.n8", "L3.n1", "loss"} <= groups
    assert all(n.group is None for n in graph.inputs)
    assert graph.loss.group == "loss" and graph.score.group == "L3.n1"
    # Long form: a 2-16-16-1 network is several hundred op nodes, not a few dozen fused ones.
    assert sum(1 for n in nodes if n.kind == "op") > 600
    fused = sample_graph(model, (0.5, 0.5), 1, fused=True)
    assert sum(1 for n in topological_order(fused.loss) if n.kind == "op") < 80
    assert fused.parameter_grads() == pytest.approx(graph.parameter_grads(), abs=1e-12)


def test_sample_graph_uses_given_weights(model):
    weights = [0.0] * model.num_parameters()
    graph = sample_graph(model, (1.0, 2.0), 0, weights=weights)
    assert graph.score.data == 0.0
    assert graph.probability == 0.5


def test_dead_units_on_a_constructed_case():
    model = MLP(2, [3, 2, 1], seed=0)
    first = model.layers[0].neurons
    # Unit L1.n1 gets a large negative bias: its pre-activation is < 0 on the whole unit square.
    for n in first:
        n.w[0].data, n.w[1].data, n.b.data = 1.0, 1.0, 0.0
    first[1].b.data = -10.0
    # Unit L2.n0 only sees non-negative inputs through negative weights: dead as well.
    second = model.layers[1].neurons
    second[0].w[0].data = second[0].w[1].data = second[0].w[2].data = -1.0
    second[0].b.data = -0.1
    second[1].w[0].data, second[1].w[1].data, second[1].w[2].data, second[1].b.data = 1.0, 1.0, 1.0, 0.0
    X = np.random.default_rng(0).uniform(0, 1, size=(50, 2))
    assert dead_units(model, X) == [(0, 1), (1, 0)]
    # Revive L1.n1 for one point only: it is no longer dead.
    first[1].b.data = -1.5
    assert (0, 1) not in dead_units(model, np.vstack([X, [[1.0, 1.0]]]))
    assert dead_units(MLP(2, [3, 1], activation="tanh", seed=0), X) == []


def test_layer_gradient_norms(model):
    root = full_batch_loss(model, np.array([[0.1, 0.2], [-0.5, 0.3]]), np.array([0, 1]), "bce")
    model.zero_grad()
    root.backward()
    norms = layer_gradient_norms(model)
    assert len(norms) == 3
    expected = [math.sqrt(sum(p.grad**2 for p in layer.parameters())) for layer in model.layers]
    assert norms == pytest.approx(expected)


def test_parameter_index_and_name(model):
    assert parameter_index(model, 0, 0, 0) == 0
    assert parameter_index(model, 0, 0, None) == 2
    assert parameter_index(model, 0, 1, 1) == 4
    assert parameter_index(model, 1, 0, 0) == 16 * 3
    assert parameter_name(model, parameter_index(model, 1, 2, 5)) == "L2.n3.w6"
    assert parameter_name(model, parameter_index(model, 2, 0, None)) == "L3.n1.b"
    with pytest.raises(IndexError):
        parameter_index(model, 0, 0, 2)
    with pytest.raises(IndexError):
        parameter_index(model, 5, 0, 0)


@pytest.mark.parametrize("loss", ["bce", "hinge", "mse"])
def test_loss_slice_tangent_slope_is_the_gradient(model, loss):
    rng = np.random.default_rng(1)
    X = rng.normal(size=(40, 2))
    y = (X[:, 0] * X[:, 1] > 0).astype(int)
    index = parameter_index(model, 1, 3, 2)
    sl = loss_slice(model, X, y, index, loss=loss, lr=0.3, l2=1e-3)

    # The slope equals the engine's gradient of the full-batch loss for that weight ...
    twin = clone_model(model)
    root = full_batch_loss(twin, X, y, loss, l2=1e-3)
    root.backward()
    assert sl.gradient == pytest.approx(twin.parameters()[index].grad, abs=1e-12)
    assert sl.loss == pytest.approx(root.data, abs=1e-9)
    # ... and the numeric slope of the plotted curve at the current weight.
    h = 1e-6
    up = loss_slice(model, X, y, index, loss=loss, l2=1e-3, span=h, points=3).losses[2]
    down = loss_slice(model, X, y, index, loss=loss, l2=1e-3, span=h, points=3).losses[0]
    assert (up - down) / (2 * h) == pytest.approx(sl.gradient, rel=1e-4, abs=1e-7)
    # The next SGD step and the tangent line.
    assert sl.next_weight == pytest.approx(sl.weight - 0.3 * sl.gradient)
    assert sl.tangent(np.array([sl.weight + 1.0]))[0] == pytest.approx(sl.loss + sl.gradient)
    assert sl.values[0] < sl.weight < sl.values[-1]
    assert sl.name == "L2.n4.w3"
    assert model.parameters()[index].grad == 0.0  # the model itself was not touched


def test_loss_slice_splits_its_reading_into_data_loss_and_the_penalties_in_force(model):
    rng = np.random.default_rng(2)
    X = rng.normal(size=(30, 2))
    y = (X[:, 0] > 0).astype(int)
    weights = np.array(model.state_dict())
    sl = loss_slice(model, X, y, 5, l2=0.01)
    assert sl.data_loss == loss_array("bce", model.forward_array(X), y)  # the trainer's "train loss"
    assert sl.penalty == pytest.approx(0.01 * float((weights**2).sum()), rel=1e-12)
    assert sl.loss == sl.data_loss + sl.penalty and sl.objective == "data loss + L2 penalty"
    plain = loss_slice(model, X, y, 5)
    assert plain.penalty == 0.0 and plain.loss == plain.data_loss and plain.objective == "loss"
    assert objective_name(0.1, 0.0) == "data loss + L1 penalty"
    assert objective_name(0.1, 0.2) == "data loss + L1 + L2 penalty"


def test_loss_slice_with_diverging_step_is_finite_or_reported(model):
    X = np.array([[0.0, 1.0], [1.0, 0.0]])
    y = np.array([0, 1])
    sl = loss_slice(model, X, y, 0, lr=1e6)
    assert sl.values.size == 61 and np.all(np.isfinite(sl.values))
    assert math.isfinite(sl.next_weight) or math.isnan(sl.next_loss)
