"""Autograd Playground's engine and library: usable on its own, never imports Qt."""

from autograd_core.engine.explain import NonFinite, non_finite_nodes
from autograd_core.engine.gradcheck import GradcheckResult, gradcheck
from autograd_core.engine.tensor import Tensor, is_grad_enabled, no_grad, topological_order
from autograd_core.language.expression import ExpressionError, compile_expression
from autograd_core.language.trace import backward_steps, grads_after
from autograd_core.learn.data import Dataset, dataset_from_points, make_dataset
from autograd_core.learn.nn import MLP, Layer, Neuron
from autograd_core.learn.training import StepMetrics, Trainer, TrainingConfig, TrainingStopped
from autograd_core.session import SessionError, load_session, save_session, trainer_from_session

__version__ = "0.1.0"  # the one place; pyproject.toml reads it

__all__ = [
    "MLP",
    "Dataset",
    "ExpressionError",
    "GradcheckResult",
    "Layer",
    "Neuron",
    "NonFinite",
    "SessionError",
    "StepMetrics",
    "Tensor",
    "Trainer",
    "TrainingConfig",
    "TrainingStopped",
    "backward_steps",
    "compile_expression",
    "dataset_from_points",
    "draw",
    "gradcheck",
    "grads_after",
    "is_grad_enabled",
    "layout",
    "load_session",
    "make_dataset",
    "no_grad",
    "non_finite_nodes",
    "save_session",
    "to_networkx",
    "topological_order",
    "trainer_from_session",
]


def __getattr__(name: str):
    """``to_networkx``, ``layout`` and ``draw`` load networkx on first use (keeps ``import autograd_core`` quick)."""
    if name in ("to_networkx", "layout"):
        from autograd_core.drawing import graph

        return getattr(graph, name)
    if name == "draw":
        from autograd_core.drawing import svg

        return svg.draw
    raise AttributeError(f"module 'autograd_core' has no attribute {name!r}")


def _repr_svg_(self: Tensor) -> str:
    """A notebook cell that ends with a Tensor shows its graph (IPython's display protocol)."""
    from autograd_core.drawing import svg

    return svg.draw(self).svg


# Attached here, not in the engine: the engine never imports the drawing (the layers point one way), and the
# drawing loads networkx, which a plain ``import autograd_core`` does not need until a graph is shown.
Tensor._repr_svg_ = _repr_svg_
