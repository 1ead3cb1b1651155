"""The ``main.py train`` options that write exports: ``--export-python``, ``--export-torch`` (the recipe, written
before training) and ``--export-numpy`` (the trained model, written after it).

Paths are checked before anything is trained (``check_export_paths``); an export that cannot be written or
made (``ExportUnsupported``) is one line on stderr and a nonzero exit code, never a traceback.
"""

from __future__ import annotations

import argparse
import io
import os

import numpy as np

from autograd_core.export.common import ExportUnsupported, ScriptExport
from autograd_core.export.to_numpy import numpy_model_script
from autograd_core.export.to_python import python_export
from autograd_core.export.to_torch import torch_script
from autograd_core.files import FileError, check_writable, write_atomically, write_target

EXPORT_OPTIONS = ("export_python", "export_torch", "export_numpy")
RECIPES = {"export_python": python_export, "export_torch": torch_script}


def add_export_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("exports (code you can take away)")
    group.add_argument(
        "--export-python",
        metavar="FILE.py",
        help="write the run as a script on this project's library (same data, weights, batches: same loss)",
    )
    group.add_argument(
        "--export-torch",
        metavar="FILE.py",
        help="write the run as a PyTorch script (needs only torch and numpy; a .npz beside it for big data)",
    )
    group.add_argument(
        "--export-numpy", metavar="FILE.py", help="after training, write the trained model as NumPy predict(X)"
    )


def npz_path(path: str) -> str:
    """Where a script's arrays go: beside it, ``.npz`` instead of its extension (the script looks there)."""
    return os.path.splitext(str(path))[0] + ".npz"


def export_paths(args: dict) -> dict[str, str]:
    return {option: args[option] for option in EXPORT_OPTIONS if option in args}


def check_export_paths(args: dict, others: tuple[str, ...] = ()) -> str | None:
    """A one-line problem with the export paths (not writable, the same file twice), or None."""
    paths = export_paths(args)
    seen: dict[str, str] = {write_target(args[o]): o for o in others if o in args}
    for option, path in paths.items():
        flag = "--" + option.replace("_", "-")
        try:
            check_writable(path)
        except FileError as exc:
            return f"cannot write {flag} {path}: {exc}"
        target = write_target(path)
        if target in seen:
            return f"{flag} and --{seen[target].replace('_', '-')} name the same file"
        seen[target] = option
    return None


def write_export(path: str, export: ScriptExport | str) -> None:
    """The script at ``path`` (and its .npz beside it when it has arrays); FileError if the OS refuses."""
    if isinstance(export, str):
        export = ScriptExport(export)
    if export.arrays:
        buffer = io.BytesIO()
        np.savez(buffer, **export.arrays)
        write_atomically(npz_path(path), buffer.getvalue())
    write_atomically(path, export.text.encode("utf-8"))


def write_recipes(args: dict, config, data, err, out, quiet: bool) -> int:
    """Write ``--export-python`` and ``--export-torch`` for ``config`` (``data``: the points it trains on when
    they are not rebuilt from the config).  Returns 0, or 1 after a one-line error on ``err``."""
    for option, make in RECIPES.items():
        if option in args and _write(option, args[option], lambda make=make: make(config, data), err, out, quiet):
            return 1
    return 0


def write_model(args: dict, model, task: str, classes: int, err, out, quiet: bool) -> int:
    """Write ``--export-numpy`` (the trained model).  Returns 0, or 1 after a one-line error on ``err``."""
    if "export_numpy" not in args:
        return 0
    script = lambda: numpy_model_script(model, task=task, classes=classes)  # noqa: E731
    return 1 if _write("export_numpy", args["export_numpy"], script, err, out, quiet) else 0


def _write(option: str, path: str, make, err, out, quiet: bool) -> bool:
    """``make()``'s script written to ``path``; True after a one-line error on ``err`` (the script has no
    counterpart in its target, or the file cannot be written)."""
    flag = "--" + option.replace("_", "-")
    try:
        write_export(path, make())
    except ExportUnsupported as exc:
        err.write(f"error: cannot write {flag}: {exc}\n")
        return True
    except FileError as exc:
        err.write(f"error: cannot write {flag} {path}: {exc}\n")
        return True
    if not quiet:
        out.write(f"wrote {path}\n")
    return False
