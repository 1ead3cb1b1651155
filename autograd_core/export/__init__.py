"""Code you can take away: a training run as a script on this library (``python_script``), the same run in
PyTorch (``torch_script``), and a trained model as a NumPy ``predict(X)`` (``numpy_model_script``)."""

from autograd_core.export.common import ExportUnsupported, ScriptExport, TorchExport
from autograd_core.export.to_numpy import numpy_model_script
from autograd_core.export.to_python import python_export, python_script
from autograd_core.export.to_torch import torch_script

__all__ = [
    "ExportUnsupported",
    "ScriptExport",
    "TorchExport",
    "numpy_model_script",
    "python_export",
    "python_script",
    "torch_script",
]
