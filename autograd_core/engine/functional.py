"""Derivatives of derivatives: ``grad(..., create_graph=True)``, Hessians, Jacobians, Hessian-vector products.

``grad`` follows ``torch.autograd.grad``: it returns d(outputs)/d(inputs)
without touching any ``.grad``.  With ``create_graph=True`` the gradients are
Tensors built from the op table's ``derivative`` rules (each local derivative
written with the engine's own ops), so they are graphs of their own and can be
differentiated again, to any order.  Without it, the float pass is
``backward()``'s own arithmetic (the same numbers, bit for bit) and the
gradients come back as constant Tensors.

Piecewise-linear ops (relu, abs, max…) have constant local derivatives, so
their higher derivatives are 0, as in PyTorch; a constant local derivative of
0 passes nothing on, so an inf or nan gradient is not turned into nan there
(PyTorch masks in the same way).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from autograd_core.engine.tensor import Tensor, enable_grad, topological_order
from autograd_core.engine.user_ops import UnknownDerivative


def _as_list(x) -> tuple[list, bool]:
    if isinstance(x, Tensor):
        return [x], True
    return list(x), False


def graph_order(roots: Sequence[Tensor]) -> list[Tensor]:
    """Every node reachable from any of ``roots``, each after its parents (the roots' orders, merged)."""
    order: list[Tensor] = []
    seen: set[Tensor] = set()
    for root in roots:
        for node in topological_order(root):
            if node not in seen:
                seen.add(node)
                order.append(node)
    return order


def local_derivatives(node: Tensor) -> Sequence[Tensor | float]:
    """∂node/∂parent for each parent as Tensors built with the engine's ops (floats where constant).

    The op table's ``derivative`` rule applied to the node, its parents and
    its parameters; a piecewise-linear op gives its recorded float locals.
    """
    op = node.op_entry
    if node.is_leaf:
        return ()
    if op is None:
        raise UnknownDerivative(node, "its local derivative, which a derivative of a derivative is built from,")
    if op.derivative is None:
        return node.local_grads
    if op.arity == 0:
        return op.derivative(node, node.parents)
    return op.derivative(node, *node.parents, *op.args)


def _times(local: Tensor | float, g: Tensor) -> Tensor | None:
    """local · g, without the nodes a constant 1, −1 or 0 would add."""
    if isinstance(local, Tensor):
        return local * g
    if local == 1.0:
        return g
    if local == -1.0:
        return -g
    if local == 0.0:
        return None
    return g * local


def grad(
    outputs: Tensor | Sequence[Tensor],
    inputs: Tensor | Sequence[Tensor],
    grad_outputs: float | Tensor | Sequence[float | Tensor] | None = None,
    *,
    create_graph: bool = False,
    allow_unused: bool = False,
) -> tuple[Tensor | None, ...]:
    """d(Σ grad_outputsᵢ · outputsᵢ)/d(input) for each input, as a tuple (like ``torch.autograd.grad``).

    ``grad_outputs`` defaults to 1 for each output.  An input the outputs do
    not depend on raises ``ValueError``, unless ``allow_unused`` (then its
    entry is None).  With ``create_graph`` the results are differentiable
    Tensors; otherwise constant Tensors.  No ``.grad`` field changes.
    """
    outs, _ = _as_list(outputs)
    ins, _ = _as_list(inputs)
    if not outs:
        raise ValueError("grad needs at least one output")
    if grad_outputs is None:
        seeds: list = [1.0] * len(outs)
    else:
        seeds = [grad_outputs] if isinstance(grad_outputs, (Tensor, int, float)) else list(grad_outputs)
        if len(seeds) != len(outs):
            raise ValueError(f"{len(outs)} outputs but {len(seeds)} grad_outputs")
    order = graph_order(outs)
    reachable = set(order)
    grads = _tensor_pass(order, outs, seeds) if create_graph else _float_pass(order, outs, seeds)
    results: list[Tensor | None] = []
    for i, x in enumerate(ins):
        if not isinstance(x, Tensor):
            raise TypeError(f"input {i + 1} is a {type(x).__name__}, not a Tensor")
        if x not in reachable:
            if not allow_unused:
                name = f" '{x.label}'" if x.label else ""
                raise ValueError(
                    f"input {i + 1}{name} is not used to compute the outputs (pass allow_unused=True to get None)"
                )
            results.append(None)
            continue
        g = grads.get(x)
        if create_graph:
            results.append(g if g is not None else Tensor(0.0, kind="constant"))
        else:
            results.append(Tensor(g if g is not None else 0.0, kind="constant"))
    return tuple(results)


def _float_pass(order: list[Tensor], outs: list[Tensor], seeds: list) -> dict[Tensor, float]:
    """backward()'s loop on a dict: the same additions in the same order, nothing mutated."""
    grads: dict[Tensor, float] = {}
    for out, seed in zip(outs, seeds):
        value = seed.data if isinstance(seed, Tensor) else float(seed)
        grads[out] = grads.get(out, 0.0) + value
    for node in reversed(order):
        g = grads.get(node)
        if g is None or node.is_leaf:
            continue
        for parent, local in zip(node.parents, node.local_grads):
            grads[parent] = grads.get(parent, 0.0) + local * g
    return grads


def _tensor_pass(order: list[Tensor], outs: list[Tensor], seeds: list) -> dict[Tensor, Tensor]:
    """The same pass with Tensors: every product and sum is a node, so the result is differentiable."""
    grads: dict[Tensor, Tensor] = {}
    with enable_grad():
        for out, seed in zip(outs, seeds):
            seed = seed if isinstance(seed, Tensor) else Tensor(float(seed), kind="constant")
            grads[out] = grads[out] + seed if out in grads else seed
        for node in reversed(order):
            g = grads.get(node)
            if g is None or node.is_leaf:
                continue
            for parent, local in zip(node.parents, local_derivatives(node)):
                contribution = _times(local, g)
                if contribution is None:
                    continue
                previous = grads.get(parent)
                grads[parent] = contribution if previous is None else previous + contribution
    return grads


# ------------------------------------------------------------ built on grad


def _leaves(values: Sequence[float]) -> list[Tensor]:
    return [Tensor(float(v), label=f"x{i + 1}") for i, v in enumerate(values)]


def _outputs_of(result) -> list[Tensor]:
    outs, _ = _as_list(result)
    for i, out in enumerate(outs):
        if not isinstance(out, Tensor):
            raise TypeError(f"the function's output {i + 1} is a {type(out).__name__}, not a Tensor")
    return outs


def hessian(fn: Callable[..., Tensor], values: Sequence[float]) -> np.ndarray:
    """∂²fn/∂xᵢ∂xⱼ at ``values`` (an n × n array): reverse mode over reverse mode."""
    leaves = _leaves(values)
    (out,) = _outputs_of(fn(*leaves))
    first = grad(out, leaves, create_graph=True, allow_unused=True)
    result = np.zeros((len(leaves), len(leaves)))
    for i, gi in enumerate(first):
        if gi is None:
            continue
        for j, s in enumerate(grad(gi, leaves, allow_unused=True)):
            if s is not None:
                result[i, j] = s.data
    return result


def hessian_vector_product(
    fn: Callable[..., Tensor], values: Sequence[float], vector: Sequence[float]
) -> tuple[float, np.ndarray]:
    """(fn(values), H·v) without forming H: the gradient of (∇fn · v), one extra reverse pass."""
    leaves = _leaves(values)
    if len(vector) != len(leaves):
        raise ValueError(f"{len(leaves)} values but a vector of {len(vector)}")
    (out,) = _outputs_of(fn(*leaves))
    first = grad(out, leaves, create_graph=True, allow_unused=True)
    with enable_grad():
        terms = [g * float(v) for g, v in zip(first, vector) if g is not None]
        directional = Tensor.sum(terms)
    result = np.zeros(len(leaves))
    for j, s in enumerate(grad(directional, leaves, allow_unused=True)):
        if s is not None:
            result[j] = s.data
    return out.data, result


hvp = hessian_vector_product


def jacobian(
    fn: Callable[..., Tensor | Sequence[Tensor]], values: Sequence[float], mode: str = "reverse"
) -> np.ndarray:
    """∂outᵢ/∂xⱼ at ``values`` (outputs × inputs), by ``mode`` 'reverse' (one pass per output) or 'forward'
    (one dual-number pass per input): the same numbers, at different costs."""
    if mode == "forward":
        from autograd_core.engine.forward import jvp

        columns = []
        for j in range(len(values)):
            tangent = [1.0 if k == j else 0.0 for k in range(len(values))]
            _, column = jvp(fn, values, tangent)
            columns.append(np.atleast_1d(np.asarray(column, dtype=float)))
        return np.column_stack(columns) if columns else np.zeros((0, 0))
    if mode != "reverse":
        raise ValueError(f"unknown mode {mode!r}; choose 'reverse' or 'forward'")
    leaves = _leaves(values)
    outs = _outputs_of(fn(*leaves))
    result = np.zeros((len(outs), len(leaves)))
    for i, out in enumerate(outs):
        for j, g in enumerate(grad(out, leaves, allow_unused=True)):
            if g is not None:
                result[i, j] = g.data
    return result
