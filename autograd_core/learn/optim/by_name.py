"""An optimizer made from the trainer's name for it and its settings."""

from __future__ import annotations

from collections.abc import Sequence

from autograd_core.engine.tensor import Tensor
from autograd_core.learn.optim.base import ALL_OPTIMIZERS, Optimizer
from autograd_core.learn.optim.first_order import SGD, Adagrad, Adam, AdamW, RMSprop
from autograd_core.learn.optim.newton import Newton


def make_optimizer(
    name: str,
    params: Sequence[Tensor],
    lr: float,
    momentum: float = 0.9,
    *,
    betas: Sequence[float] = (0.9, 0.999),
    alpha: float = 0.99,
    weight_decay: float = 0.01,
) -> Optimizer:
    """An optimizer by the trainer's name (``ALL_OPTIMIZERS``); each uses the settings in ``OPTIMIZER_SETTINGS``.

    ``sgd`` plain; ``momentum`` and ``nesterov`` SGD with ``momentum``; ``rmsprop``
    with ``alpha``; ``adagrad``; ``adam`` with ``betas``; ``adamw`` with ``betas``
    and decoupled ``weight_decay``; ``newton`` (finite-difference Hessian).
    Other settings keep torch's defaults.
    """
    if name == "sgd":
        return SGD(params, lr)
    if name == "momentum":
        return SGD(params, lr, momentum=momentum)
    if name == "nesterov":
        return SGD(params, lr, momentum=momentum, nesterov=True)
    if name == "rmsprop":
        return RMSprop(params, lr, alpha=alpha)
    if name == "adagrad":
        return Adagrad(params, lr)
    if name == "adam":
        return Adam(params, lr, betas=tuple(betas))
    if name == "adamw":
        return AdamW(params, lr, betas=tuple(betas), weight_decay=weight_decay)
    if name == "newton":
        return Newton(params, lr)
    raise ValueError(f"unknown optimizer {name!r}; choose one of {', '.join(ALL_OPTIMIZERS)}")
