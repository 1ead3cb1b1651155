"""The article's own names work against the library: the constructor, ``_prev``, ``_backward``, the
hand-written topological loop, ``Neuron``/``Layer``/``MLP``, the zero-grad loop; and beginners' mistakes get
a message that names the mistake."""

from __future__ import annotations

import math
import random

import pytest

from autograd_core import MLP, Layer, Neuron, Tensor


def manual_backward(out: Tensor) -> None:
    """The article's loop, written as a reader would: a topological sort by hand, then ``_backward``."""
    topo, visited = [], set()

    def build(v):
        if v not in visited:
            visited.add(v)
            for child in v._prev:
                build(child)
            topo.append(v)

    build(out)
    out.grad = 1.0
    for node in reversed(topo):
        node._backward()


def test_the_constructor_takes_data_label_and_children_as_the_article_does():
    a = Tensor(2.0, "a")
    b = Tensor(-3.0, "b")
    made = Tensor(5.0, "made", (a, b))
    assert (made.data, made.label, made._prev) == (5.0, "made", {a, b})
    assert a._prev == set() and made.kind == "op"
    made.backward()  # a node made by hand has no local derivatives: it passes nothing back
    assert (a.grad, b.grad) == (0.0, 0.0)
    with pytest.raises(TypeError):
        Tensor(1.0, "x", "input")  # kind is keyword-only now; a string is not a list of children
    assert Tensor(1.0, kind="parameter").kind == "parameter"


def test_prev_is_the_set_of_parents():
    x, y = Tensor(1.5, "x"), Tensor(2.0, "y")
    z = x * y + x
    assert z._prev == set(z.parents) and len(z._prev) == 2
    assert (x * x)._prev == {x}  # a set: x once, though it is both operands


@pytest.mark.parametrize(
    ("build", "expected"),
    [
        (lambda x: 3 * x, 3.0),  # 3·x → 3
        (lambda x: x + x, 2.0),  # x + x → 2: two contributions add up
        (lambda x: (x * 2) * 3, 6.0),  # (santa·2)·3 → 6
    ],
)
def test_the_articles_numbers_by_its_own_loop_and_by_backward(build, expected):
    x = Tensor(4.0, "x")
    manual_backward(build(x))
    assert x.grad == expected
    x.grad = 0.0
    build(x).backward()
    assert x.grad == expected


def test_backward_and_the_hand_written_loop_give_the_same_gradients_on_a_network():
    model = MLP(2, [4, 4, 1], seed=3)
    points = [[0.5, -1.2], [1.1, 0.3], [-0.7, 0.9]]

    def grads(run):
        for p in model.parameters():
            p.grad = 0.0  # the article's zero-grad loop
        loss = sum(((model(x) - y) ** 2 for x, y in zip(points, [1.0, -1.0, 0.5])), Tensor(0.0))
        run(loss)
        return [p.grad for p in model.parameters()]

    by_backward = grads(lambda loss: loss.backward())
    by_hand = grads(manual_backward)
    # the same steps; only the order in which a node's contributions are summed differs (the article's sort
    # walks a set), so the sums agree to the last bits
    assert by_hand == pytest.approx(by_backward, rel=1e-12, abs=1e-15) and any(g != 0 for g in by_hand)


def test_neuron_layer_and_mlp_are_importable_and_count_337_parameters():
    assert len(MLP(2, [16, 16, 1]).parameters()) == 337
    assert len(Neuron(3, "relu", "uniform", random.Random(0), 1).parameters()) == 4
    assert len(Layer(2, 5, "tanh", "uniform", random.Random(0)).parameters()) == 15


def test_the_articles_training_loop_lowers_the_loss():
    random.seed(0)
    model = MLP(2, [8, 1], seed=1)
    xs = [[random.uniform(-1, 1), random.uniform(-1, 1)] for _ in range(20)]
    ys = [1.0 if a * b > 0 else 0.0 for a, b in xs]
    losses = []
    for _ in range(30):
        preds = [model(x).sigmoid() for x in xs]
        loss = sum(((p - y) ** 2 for p, y in zip(preds, ys)), Tensor(0.0)) * (1 / len(xs))
        for p in model.parameters():
            p.grad = 0.0
        loss.backward()
        for p in model.parameters():
            p.data -= 0.5 * p.grad
        losses.append(loss.data)
    assert losses[-1] < losses[0] and all(math.isfinite(v) for v in losses)


@pytest.mark.parametrize(
    ("make", "words"),
    [
        (lambda: Tensor("abc"), "the text 'abc'"),
        (lambda: Tensor(None), "got None"),
        (lambda: Tensor([1.0]), "holds one number"),
    ],
)
def test_a_tensor_of_something_that_is_not_a_number_says_so(make, words):
    with pytest.raises(TypeError, match=words):
        make()


def test_a_model_called_with_the_wrong_number_of_inputs_says_so():
    model = MLP(2, [16, 1])
    with pytest.raises(ValueError, match=r"takes 2 inputs per sample .* got 1 input$"):
        model([1.0])
    with pytest.raises(ValueError, match="got 3 inputs"):
        model([1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match="got one number"):
        model(1.0)
    assert isinstance(model([1.0, 2.0]), Tensor)


def test_an_mlp_without_inputs_says_it_needs_one():
    with pytest.raises(ValueError, match="at least one input"):
        MLP(0, [4, 1])


def test_backward_on_a_models_list_of_outputs_says_what_to_call_it_on():
    one = MLP(2, [4, 1])([1.0, 2.0])
    assert isinstance(one, Tensor)  # one output: the Tensor itself, so model(x).backward() works
    one.backward()
    outputs = MLP(2, [4, 3], seed=1)([1.0, 2.0])
    assert isinstance(outputs, list) and len(outputs) == 3 and all(isinstance(o, Tensor) for o in outputs)
    with pytest.raises(TypeError, match=r"^backward\(\) needs one number \(a Tensor\), but the model gave a list of 3"):
        outputs.backward()
    with pytest.raises(AttributeError, match=r"no \.data: each element .* outputs\[0\]\.data"):
        outputs.data  # noqa: B018 - the mistake under test
    with pytest.raises(TypeError, match="list of 4 outputs"):
        Layer(2, 4)([1.0, 2.0]).backward()
    Tensor.sum(outputs).backward()  # what the message suggests works
    with pytest.raises(AttributeError):
        [Tensor(1.0), Tensor(2.0)].backward()  # a plain list: Python's own error, nothing to intercept
