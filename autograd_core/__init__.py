"""Autograd Playground's engine and library: usable on its own, never imports Qt."""

from autograd_core.data import Dataset, dataset_from_points, make_dataset
from autograd_core.nn import MLP
from autograd_core.session import SessionError, load_session, save_session, trainer_from_session
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
from autograd_core.training import StepMetrics, Trainer, TrainingConfig, TrainingStopped

__all__ = [
    "MLP",
    "Dataset",
    "GradcheckResult",
    "NonFinite",
    "SessionError",
    "StepMetrics",
    "Tensor",
    "Trainer",
    "TrainingConfig",
    "TrainingStopped",
    "dataset_from_points",
    "gradcheck",
    "is_grad_enabled",
    "load_session",
    "make_dataset",
    "no_grad",
    "non_finite_nodes",
    "save_session",
    "topological_order",
    "trainer_from_session",
]
