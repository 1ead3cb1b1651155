"""Optimizers with PyTorch's update rules, a damped Newton step, and learning-rate schedules.

``SGD``, ``RMSprop``, ``Adagrad``, ``Adam`` and ``AdamW`` take the arguments of
their ``torch.optim`` namesakes and follow the algorithms in torch.optim's
documentation.  Each step does the floating-point operations of torch's CPU
code in its order, fused multiply–adds included (torch's ``add(alpha=)``,
``addcmul`` and ``lerp`` round once), so the same gradients give the same
numbers to the last bit, but for torch's float64 square root (MKL's, off by
one unit in the last place in about 1 % of cases, where ``math.sqrt`` is
exact).  Over 500 steps on Rosenbrock, Beale, Himmelblau and Booth, torch
2.13's trajectories and these differ by at most 2e-18 relative, most not at
all (``benchmarks/torch_crosscheck.py``).  Without the fused multiply–adds,
centered RMSprop on Rosenbrock drifted 5e-3 away: its ``v − ḡ²`` cancels and
magnifies the last bit.  State buffers carry torch's names (``momentum_buffer``,
``exp_avg``, ...).

``Newton`` is second order: ``θ ← θ − lr·(H + λI)⁻¹ ∇f`` with the Hessian ``H``
from a pluggable source (``hessian=``); by default central finite differences
of the engine's gradient.  It re-evaluates the function, so its ``step`` needs
a closure, as torch's LBFGS does.

Every optimizer reads each parameter's ``grad`` and changes its ``data``, and
keeps its per-parameter state in plain lists of floats (``state``), so it can
be shown, saved to JSON (``state_dict``), restored, reset and deep-copied.
The learning rate may change between any two steps (``step(lr=...)``).
"""

from autograd_core.learn.optim.base import (
    ALL_OPTIMIZERS,
    LEGACY_BUFFER_NAMES,
    OPTIMIZER_LABELS,
    OPTIMIZER_SETTINGS,
    OPTIMIZERS,
    SECOND_ORDER,
    SQUARE_BUFFERS,
    Optimizer,
)
from autograd_core.learn.optim.by_name import make_optimizer
from autograd_core.learn.optim.first_order import SGD, Adagrad, Adam, AdamW, RMSprop
from autograd_core.learn.optim.newton import (
    FiniteDifferenceHessian,
    HessianSource,
    Newton,
    default_hessian,
    hessian_description,
)
from autograd_core.learn.optim.schedules import FINAL_LR_FRACTION, SCHEDULES, learning_rate
from autograd_core.learn.optim.torch_float import fma

__all__ = [
    "ALL_OPTIMIZERS",
    "FINAL_LR_FRACTION",
    "LEGACY_BUFFER_NAMES",
    "OPTIMIZERS",
    "OPTIMIZER_LABELS",
    "OPTIMIZER_SETTINGS",
    "SCHEDULES",
    "SECOND_ORDER",
    "SGD",
    "SQUARE_BUFFERS",
    "Adagrad",
    "Adam",
    "AdamW",
    "FiniteDifferenceHessian",
    "HessianSource",
    "Newton",
    "Optimizer",
    "RMSprop",
    "default_hessian",
    "fma",
    "hessian_description",
    "learning_rate",
    "make_optimizer",
]
