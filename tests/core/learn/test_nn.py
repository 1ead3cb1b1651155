"""MLP: structure, seeds, initializations, state round trip, groups, and the numpy forward against the scalar one."""

import math
import random
import statistics

import numpy as np
import pytest

from autograd_core import Tensor, topological_order
from autograd_core.engine.tensor import no_grad
from autograd_core.learn.nn import ACTIVATIONS, MLP, Layer, Neuron, activate_array


def test_micrograd_shape_and_parameter_count():
    model = MLP(2, [16, 16, 1])
    assert model.num_parameters() == (2 + 1) * 16 + (16 + 1) * 16 + (16 + 1) * 1 == 337
    assert len(model.layers) == 3
    assert [len(layer.neurons) for layer in model.layers] == [16, 16, 1]
    assert model.layers[0].neurons[3].name == "L1.n4"
    assert all(n.b.data == 0.0 for layer in model.layers for n in layer.neurons)
    # Defaults as micrograd: ReLU hidden, linear output.
    assert model.layers[0].neurons[0].activation == "relu"
    assert model.layers[-1].neurons[0].activation == "linear"


def test_same_seed_same_weights_other_seed_other_weights():
    assert MLP(2, [4, 1], seed=3).state_dict() == MLP(2, [4, 1], seed=3).state_dict()
    assert MLP(2, [4, 1], seed=3).state_dict() != MLP(2, [4, 1], seed=4).state_dict()


def test_initializations_have_their_ranges_and_spreads():
    nin = 64
    uniform = [w.data for n in Layer(nin, 64, init="uniform", name="L").neurons for w in n.w]
    assert all(-1.0 <= w <= 1.0 for w in uniform)
    assert statistics.pstdev(uniform) == pytest.approx(1 / math.sqrt(3), rel=0.05)
    he = [w.data for n in Layer(nin, 64, init="he", name="L").neurons for w in n.w]
    assert statistics.pstdev(he) == pytest.approx(math.sqrt(2 / nin), rel=0.05)
    xavier = [w.data for n in Layer(nin, 64, init="xavier", name="L").neurons for w in n.w]
    limit = math.sqrt(6 / (nin + 64))
    assert all(-limit <= w <= limit for w in xavier)
    assert max(xavier) > 0.9 * limit


def test_state_dict_round_trip_and_bad_lengths():
    a, b = MLP(2, [5, 1], seed=1), MLP(2, [5, 1], seed=2)
    b.load_state_dict(a.state_dict())
    assert b.state_dict() == a.state_dict()
    assert b([0.3, -0.7]).data == a([0.3, -0.7]).data
    with pytest.raises(ValueError, match="expected 21 parameter values, got 20"):
        b.load_state_dict(a.state_dict()[:-1])


def test_zero_grad_clears_every_parameter():
    model = MLP(2, [3, 1], seed=0)
    model([1.0, 2.0]).backward()
    assert any(p.grad != 0.0 for p in model.parameters())
    model.zero_grad()
    assert all(p.grad == 0.0 for p in model.parameters())


def test_named_parameters_name_the_neuron():
    names = [name for name, _ in MLP(2, [2, 1]).named_parameters()]
    assert names[:3] == ["L1.n1.w1", "L1.n1.w2", "L1.n1.b"]
    assert names[-1] == "L2.n1.b"


@pytest.mark.parametrize("fused", [True, False])
def test_every_node_built_by_a_neuron_carries_its_group(fused):
    model = MLP(2, [3, 1], seed=0)
    x = [Tensor(0.5, label="x0"), Tensor(-1.0, label="x1")]
    out = model(x, fused=fused)
    for node in topological_order(out):
        if node in x:
            assert node.group is None
        else:
            assert node.group is not None and node.group.startswith(("L1.n", "L2.n"))
    assert out.group == "L2.n1"


def _described(nodes):
    return [(n.data, n.grad, n.op, n.kind, n.label, n.group, [p.data for p in n.parents]) for n in nodes]


@pytest.mark.parametrize("activation", ACTIVATIONS)
def test_a_layer_at_once_builds_exactly_the_nodes_of_its_neurons_one_by_one(activation):
    """The training step's layer-at-once forward (``Tensor.layer``) against each neuron's own call."""
    layer = Layer(3, 4, activation, rng=random.Random(2), name="L2")
    x = [Tensor(0.4), Tensor(1.5, kind="constant"), Tensor(-0.7, label="x3")]
    at_once = layer.forward_batch([x, x[::-1]])[0]
    one_by_one = [n(x) for n in layer.neurons]
    Tensor.sum(at_once).backward()
    grads_at_once = [p.grad for p in layer.parameters()]
    layer.zero_grad()
    Tensor.sum(one_by_one).backward()
    assert [p.grad for p in layer.parameters()] == grads_at_once
    assert _described(topological_order(Tensor.sum(at_once))) == _described(topological_order(Tensor.sum(one_by_one)))
    with no_grad():
        assert _described(layer(x)) == _described([n(x) for n in layer.neurons])
    numbers = [0.4, 1.5, -0.7]  # plain numbers: each neuron its own constants, as before
    assert _described(topological_order(Tensor.sum(layer(numbers)))) == _described(
        topological_order(Tensor.sum([n(numbers) for n in layer.neurons]))
    )
    layer.neurons[1].activation = "sigmoid" if activation != "sigmoid" else "tanh"  # mixed: neuron by neuron
    assert _described(layer(x)) == _described([n(x) for n in layer.neurons])


def test_fused_and_long_form_agree_in_value_and_gradient():
    model = MLP(2, [4, 4, 1], activation="tanh", seed=5)
    fused = model([0.3, -1.2])
    fused.backward()
    g_fused = [p.grad for p in model.parameters()]
    model.zero_grad()
    long = model([0.3, -1.2], fused=False)
    long.backward()
    assert long.data == pytest.approx(fused.data, abs=1e-14)
    assert [p.grad for p in model.parameters()] == pytest.approx(g_fused, abs=1e-12)
    assert len(topological_order(long)) > len(topological_order(fused))


@pytest.mark.parametrize("activation", ACTIVATIONS)
@pytest.mark.parametrize("init", ["uniform", "he", "xavier"])
def test_vectorised_forward_matches_scalar_forward(activation, init):
    model = MLP(2, [8, 6, 1], activation=activation, output_activation="sigmoid", init=init, seed=11)
    X = np.random.default_rng(0).normal(size=(40, 2)) * 2
    fast = model.forward_array(X)
    slow = np.array([model(list(row)).data for row in X])
    assert fast.shape == (40,)
    np.testing.assert_allclose(fast, slow, rtol=0, atol=1e-12)


def test_vectorised_forward_returns_every_layer_and_uses_current_weights():
    model = MLP(2, [3, 2, 1], seed=0)
    X = np.array([[0.1, 0.2], [1.0, -1.0]])
    out, hidden = model.forward_array(X, return_hidden=True)
    assert [h.shape for h in hidden] == [(2, 3), (2, 2), (2, 1)]
    np.testing.assert_array_equal(hidden[-1][:, 0], out)
    model.layers[-1].neurons[0].b.data += 1.0  # the next call sees the change
    np.testing.assert_allclose(model.forward_array(X), out + 1.0, atol=1e-15)


def test_activate_array_is_stable_and_matches_the_engine():
    z = np.array([-800.0, -3.0, 0.0, 2.5, 800.0])
    for name in ACTIVATIONS:
        expected = [getattr(Tensor(v), name)().data if name != "linear" else v for v in z]
        np.testing.assert_allclose(activate_array(z, name), expected, atol=1e-15)


def test_bad_arguments_are_refused_with_a_message():
    with pytest.raises(ValueError, match="unknown activation 'swish'"):
        MLP(2, [3, 1], activation="swish")
    with pytest.raises(ValueError, match="unknown initialization"):
        MLP(2, [3, 1], init="zeros")
    with pytest.raises(ValueError, match="at least one neuron"):
        MLP(2, [0, 1])
    assert isinstance(Neuron(2, name="n")([1.0, 2.0]), Tensor)


def test_vectorised_forward_in_chunks_equals_plain_numpy():
    model = MLP(2, [5, 3, 1], activation="tanh", seed=2)
    X = np.random.default_rng(3).normal(size=(2500, 2))  # more rows than one chunk
    out, hidden = model.forward_array(X, return_hidden=True)
    a = X
    for i, (W, b) in enumerate(model.weight_arrays()):
        a = a @ W.T + b
        a = np.tanh(a) if i < 2 else a
        np.testing.assert_allclose(hidden[i], a, rtol=0, atol=1e-12)
    np.testing.assert_allclose(out, a[:, 0], rtol=0, atol=1e-12)
    assert model.forward_array(np.empty((0, 2))).shape == (0,)


def test_forward_array_of_diverged_weights_gives_inf_without_a_warning():
    """A diverged run's maps are painted from weights of 1e300: the overflow shows as ±inf (or a saturated
    tanh), not as a RuntimeWarning on the console for every frame."""
    import warnings

    model = MLP(2, [3, 1], activation="relu", seed=0)
    for p in model.parameters():
        p.data = 1e300
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = model.forward_array(np.array([[1e10, 1e10], [0.0, 0.0]]))
    assert np.isposinf(out).all()  # (1e300 · 1e300 overflows in the last layer for both points)
