"""Autograd Playground's engine and library: usable on its own, never imports Qt."""

from autograd_core.tensor import (
    GradcheckResult,
    NonFinite,
    Tensor,
    gradcheck,
    is_grad_enabled,
    no_grad,
    non_finite_nodes,
    topological_order,
)

__all__ = [
    "GradcheckResult",
    "NonFinite",
    "Tensor",
    "gradcheck",
    "is_grad_enabled",
    "no_grad",
    "non_finite_nodes",
    "topological_order",
]
