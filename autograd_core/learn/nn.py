"""Neurons, layers and MLPs built from scalar Tensors.

A neuron's weighted sum Σ wᵢ·xᵢ + b is one fused node (``Tensor.weighted_sum``)
by default: about ten times fewer nodes than one node per multiply and add, so
training is fast.  ``fused=False`` builds the long form, one ``*`` and one
``+`` per input, for a learner who wants to see every scalar.  Every node a
neuron builds carries the neuron's name as its ``group`` so a graph view can
collapse it.
"""

from __future__ import annotations

import contextlib
import math
import random

import numpy as np

from autograd_core.engine.custom_ops import CUSTOM_OPS
from autograd_core.engine.ops import ACTIVATION_OPS, OPS, Op
from autograd_core.engine.tensor import Tensor, grouped
from autograd_core.language.naming import weight_label

LINEAR = "linear"  # no activation: the neuron's output is its weighted sum
# Every activation op of the table (``autograd_core.engine.ops``), in its order, then linear.
ACTIVATIONS: tuple[str, ...] = (*(op.name for op in ACTIVATION_OPS), LINEAR)
ACTIVATION_HELP: dict[str, str] = {
    **{op.name: op.help for op in ACTIVATION_OPS},
    LINEAR: "no activation — the whole network stays a linear model",
}
INITIALIZATIONS = ("uniform", "he", "xavier")


def check_activation(activation) -> None:
    """Refuse, in one sentence, what is not the name of an activation of the op table."""
    if callable(activation):  # an op written in Python: a network here must be saved and exported, by name
        name = getattr(activation, "__name__", "function")
        raise ValueError(
            f"the activation {name} is a Python function, and a network here takes an activation by name so that "
            f"its sessions and exports can write it ({', '.join(ACTIVATIONS)}): use your op in your own Neuron"
        )
    if activation not in ACTIVATIONS and activation not in CUSTOM_OPS.activations():
        choices = ", ".join(activation_names())
        raise ValueError(f"unknown activation {activation!r}; choose one of {choices}")


def activation_names() -> tuple[str, ...]:
    """Every activation a network can take now: the table's, the learner's one-input ops, then linear."""
    return (*ACTIVATIONS[:-1], *CUSTOM_OPS.activations(), LINEAR)


def _activation_op(activation: str) -> Op:
    check_activation(activation)
    return OPS.get(activation) or CUSTOM_OPS.get(activation)


def activation_range(activation: str) -> tuple[float, float]:
    """The values a unit with this activation can output: (lo, hi), ±inf when unbounded (for color scales)."""
    if activation == LINEAR:
        return -math.inf, math.inf
    return _activation_op(activation).range()


def activate(x: Tensor, activation: str) -> Tensor:
    """Apply a named activation (with its default parameters) to a Tensor."""
    if activation == LINEAR:
        return x
    return _activation_op(activation).apply(x)


def activate_array(z: np.ndarray, activation: str) -> np.ndarray:
    """The same activation on numpy arrays (the op's numpy twin), for the vectorised forward pass."""
    if activation == LINEAR:
        return z
    op = _activation_op(activation)
    with np.errstate(all="ignore"):
        return op.numpy(z, *op.args)


def initial_weight(rng: random.Random, init: str, nin: int, nout: int) -> float:
    """One initial weight: U(−1, 1) as micrograd, or He / Xavier scaled."""
    if init == "uniform":
        return rng.uniform(-1.0, 1.0)
    if init == "he":
        return rng.gauss(0.0, math.sqrt(2.0 / nin))
    if init == "xavier":
        limit = math.sqrt(6.0 / (nin + nout))
        return rng.uniform(-limit, limit)
    raise ValueError(f"unknown initialization {init!r}; choose one of {', '.join(INITIALIZATIONS)}")


class Outputs(list):
    """The outputs of a layer or of a model with several output units: a plain list of Tensors that says, when
    ``backward()`` is called on it (the beginner's ``model(x).backward()`` with K outputs), what to do instead."""

    def backward(self, *args, **kwargs):
        n = len(self)
        raise TypeError(
            f"backward() needs one number (a Tensor), but the model gave a list of {n} output{'s' * (n != 1)}: "
            "call backward() on a loss, e.g. on their sum (Tensor.sum(outputs)) or on one element (outputs[0])"
        )

    def __getattr__(self, name: str):
        if name in ("data", "grad"):
            raise AttributeError(
                f"a list of {len(self)} outputs has no .{name}: each element (a Tensor) has one, e.g. outputs[0].{name}"
            )
        raise AttributeError(f"'Outputs' object has no attribute {name!r}")


class Module:
    """Anything with parameters."""

    def parameters(self) -> list[Tensor]:
        return []

    def zero_grad(self) -> None:
        for p in self.parameters():
            p.grad = 0.0

    def num_parameters(self) -> int:
        return len(self.parameters())

    def named_parameters(self) -> list[tuple[str, Tensor]]:
        """(name, parameter) pairs such as ("L1.n1.w2", w), in ``parameters()`` order: for messages."""
        return [(f"{p.group}.{p.label}" if p.group else p.label, p) for p in self.parameters()]

    def state_dict(self) -> list[float]:
        """The parameter values in a fixed order (plain floats, JSON-ready)."""
        return [p.data for p in self.parameters()]

    def load_state_dict(self, values: list[float]) -> None:
        params = self.parameters()
        if len(values) != len(params):
            raise ValueError(f"expected {len(params)} parameter values, got {len(values)}")
        checked = [float(v) for v in values]
        for p, v in zip(params, checked):
            p.data = v


class Neuron(Module):
    """act(Σ wᵢ·xᵢ + b)."""

    def __init__(
        self,
        nin: int,
        activation: str = "relu",
        init: str = "uniform",
        rng: random.Random | None = None,
        nout: int = 1,
        name: str = "neuron",
    ):
        rng = rng or random.Random()
        self.name = name
        self.activation = activation
        self.w = [
            Tensor(initial_weight(rng, init, nin, nout), label=weight_label(i), kind="parameter", group=name)
            for i in range(nin)
        ]
        self.b = Tensor(0.0, label="b", kind="parameter", group=name)

    def __call__(self, x: list[Tensor | float], fused: bool = True) -> Tensor:
        if fused:
            z = Tensor.weighted_sum(self.w, x, self.b)
            z.group = self.name
        else:
            z = self.b
            for wi, xi in zip(self.w, x):
                product = wi * xi
                product.group = self.name
                z = z + product
                z.group = self.name
        out = activate(z, self.activation)
        out.group = self.name
        return out

    def parameters(self) -> list[Tensor]:
        return [*self.w, self.b]


class Layer(Module):
    def __init__(
        self,
        nin: int,
        nout: int,
        activation: str = "relu",
        init: str = "uniform",
        rng: random.Random | None = None,
        name: str = "L1",
    ):
        rng = rng or random.Random()
        self.name = name
        self.neurons = [Neuron(nin, activation, init, rng, nout, name=f"{name}.n{j + 1}") for j in range(nout)]
        self._fast_key: list | None = None  # the neurons' (name, activation) that ``_fast`` was made for
        self._fast = None

    def __call__(self, x: list[Tensor | float], fused: bool = True) -> Outputs:
        if not fused:
            return Outputs(n(x, fused) for n in self.neurons)
        return Outputs(self.forward_batch([x])[0])

    def forward_batch(self, batch: list[list[Tensor | float]]) -> list[list[Tensor]]:
        """``[list(self(x)) for x in batch]``, with the weights read once for the batch (``Tensor.layer``): the
        same nodes and numbers."""
        neurons = self.neurons
        key = [(n.name, n.activation) for n in neurons]
        if key != self._fast_key:
            self._fast = _fast_layer(key)
            self._fast_key = key
        act, infos = self._fast
        # An activation of the learner's own, or plain numbers among the inputs (each neuron makes its own constant
        # of them): neuron by neuron.
        if act is False or any(v.__class__ is not Tensor for x in batch for v in x):
            return [[n(x) for n in neurons] for x in batch]
        return Tensor.layer([n.w for n in neurons], batch, [n.b for n in neurons], infos, act)

    def parameters(self) -> list[Tensor]:
        return [p for n in self.neurons for p in n.parameters()]


def _fast_layer(key: list[tuple[str, str]]) -> tuple:
    """What ``Tensor.layer`` needs to build a layer whose neurons have these (name, activation): the activation's
    op (None for linear; False when the neurons differ or the op is the learner's, which take the neuron's own
    path) and each neuron's node descriptions, so every node carries the neuron's name as its group."""
    activations = {activation for _, activation in key}
    activation = activations.pop() if len(activations) == 1 else None
    if activation is None or (activation != LINEAR and OPS.get(activation) is None):
        return False, None
    op = None if activation == LINEAR else _activation_op(activation)
    if op is not None and (op.arity != 1 or op.apply is not getattr(Tensor, op.name, None)):
        return False, None
    z_op = OPS["Σwx+b"]
    return op, [(grouped(z_op, name), grouped(op, name) if op else None) for name, _ in key]


class MLP(Module):
    """A multi-layer perceptron: ``MLP(2, [16, 16, 1])`` as in micrograd.

    Hidden layers use ``activation`` (ReLU by default; a list gives one per
    hidden layer), the last layer ``output_activation`` (linear by default,
    i.e. a raw score / logit).  ``activations`` lists every layer's.
    """

    def __init__(
        self,
        nin: int,
        nouts: list[int],
        activation: str | list[str] = "relu",
        output_activation: str | None = None,
        init: str = "uniform",
        seed: int | None = None,
    ):
        hidden = len(nouts) - 1
        if isinstance(activation, list | tuple):
            if len(activation) != hidden:
                raise ValueError(f"{len(activation)} activations for {hidden} hidden layers")
            per_layer = [a if callable(a) else str(a) for a in activation]
        else:
            per_layer = [activation] * hidden
        for name in (*per_layer, output_activation or "linear"):
            check_activation(name)
        if init not in INITIALIZATIONS:
            raise ValueError(f"unknown initialization {init!r}; choose one of {', '.join(INITIALIZATIONS)}")
        if nin < 1:
            raise ValueError(f"an MLP needs at least one input, got nin={nin} (MLP(2, [16, 16, 1]) takes x1 and x2)")
        if not nouts or any(int(n) < 1 for n in nouts):
            raise ValueError("every layer needs at least one neuron")
        rng = random.Random(seed)
        self.nin = nin
        self.nouts = [int(n) for n in nouts]
        self.output_activation = output_activation or "linear"
        self.activations = [*per_layer, self.output_activation]
        # One name when every hidden layer shares it (the original API), else the first hidden layer's.
        self.activation = per_layer[0] if per_layer else (activation if isinstance(activation, str) else "relu")
        self.init = init
        sizes = [nin, *self.nouts]
        self.layers = [
            Layer(
                sizes[i],
                sizes[i + 1],
                self.activations[i],
                init,
                rng,
                name=f"L{i + 1}",
            )
            for i in range(len(self.nouts))
        ]

    def __call__(self, x: list[Tensor | float], fused: bool = True) -> Tensor | Outputs:
        if isinstance(x, Tensor | int | float) or len(x) != self.nin:  # zip would quietly drop the extra weights
            got = "one number" if isinstance(x, Tensor | int | float) else f"{len(x)} input{'s' * (len(x) != 1)}"
            raise ValueError(f"this MLP takes {self.nin} inputs per sample (a list of {self.nin} numbers), got {got}")
        for layer in self.layers:
            x = layer(x, fused)
        return x[0] if len(x) == 1 else Outputs(x)  # one output: the Tensor itself, ready for backward()

    def forward_batch(self, batch: list[list[Tensor]]) -> list:
        """``[self(x) for x in batch]`` layer by layer (``Layer.forward_batch``): the training step's forward pass,
        the same nodes and numbers."""
        # (inputs this MLP refuses, or a subclass's own, such as bare points for features: one by one)
        if any(not isinstance(x, list | tuple) or len(x) != self.nin for x in batch):
            return [self(x) for x in batch]
        for layer in self.layers:
            batch = layer.forward_batch(batch)
        return [x[0] if len(x) == 1 else Outputs(x) for x in batch]

    def parameters(self) -> list[Tensor]:
        return [p for layer in self.layers for p in layer.parameters()]

    def weight_arrays(self) -> list[tuple[np.ndarray, np.ndarray]]:
        """(W, b) per layer as numpy arrays; W has shape (nout, nin)."""
        return [
            (np.array([[w.data for w in n.w] for n in layer.neurons]), np.array([n.b.data for n in layer.neurons]))
            for layer in self.layers
        ]

    def forward_array(self, X: np.ndarray, weights=None, return_hidden: bool = False):
        """Vectorised forward pass over a batch (rows of X) with the current weights.

        Agrees with the scalar forward to 1e-12; used to paint decision
        boundaries and per-neuron maps.  With ``return_hidden`` it also returns
        every layer's activations.  Rows go through in cache-sized chunks with
        BLAS on one thread: the matrices are tiny, and on a busy machine BLAS
        threads and fresh multi-megabyte temporaries cost more than the
        arithmetic.
        """
        X = np.asarray(X, dtype=float)
        weights = weights or self.weight_arrays()
        acts = self.activations
        n = len(X)
        final = np.empty((n, weights[-1][0].shape[0]))
        hidden = [np.empty((n, W.shape[0])) for W, _ in weights] if return_hidden else None
        # a diverged run's weights overflow to inf, shown as such (the training reports the divergence), not warned
        with _one_blas_thread(), np.errstate(all="ignore"):
            for start in range(0, n, FORWARD_CHUNK):
                a = X[start : start + FORWARD_CHUNK]
                for i, (W, b) in enumerate(weights):
                    a = activate_array(a @ W.T + b, acts[i])
                    if hidden is not None:
                        hidden[i][start : start + FORWARD_CHUNK] = a
                final[start : start + FORWARD_CHUNK] = a
        out = final[:, 0] if final.shape[1] == 1 else final
        return (out, hidden) if return_hidden else out


FORWARD_CHUNK = 1024
_blas_controller = None


def _one_blas_thread():
    """Context manager limiting BLAS to one thread (threadpoolctl comes with scikit-learn); no-op without it."""
    global _blas_controller
    if _blas_controller is None:
        try:
            from threadpoolctl import ThreadpoolController

            _blas_controller = ThreadpoolController()
        except ImportError:  # pragma: no cover - scikit-learn always brings it
            _blas_controller = False
    if _blas_controller is False:
        return contextlib.nullcontext()
    return _blas_controller.limit(limits=1, user_api="blas")
