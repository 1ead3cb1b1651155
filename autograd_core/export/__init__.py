"""Code you can take away: a training run as a script on this library (``python_script``), the same run in
PyTorch (``torch_script``), a trained model as a NumPy ``predict(X)`` (``numpy_model_script``);
``write_export(path, export)`` writes one (and its ``.npz`` beside it, ``npz_path(path)``, when it has arrays)."""

from autograd_core.export.common import ExportUnsupported, ScriptExport, TorchExport
from autograd_core.export.options import npz_path, write_export
from autograd_core.export.to_numpy import numpy_model_script
from autograd_core.export.to_python import python_export, python_script
from autograd_core.export.to_torch import torch_script

__all__ = [
    "ExportUnsupported",
    "ScriptExport",
    "TorchExport",
    "npz_path",
    "numpy_model_script",
    "python_export",
    "python_script",
    "torch_script",
    "write_export",
]
