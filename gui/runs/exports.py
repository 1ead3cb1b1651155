"""File → Export run as Python / as PyTorch, Export trained model as NumPy: the code shown before it is saved.

The scripts come from ``autograd_core.export`` (the command line's ``--export-python``, ``--export-torch`` and
``--export-numpy`` write the same text).  The run is the one on screen, from its start: the settings in force
now, the same data, initial weights and batch order.  The dialog shows the script as the lessons show code, and
Save writes it (with its ``.npz`` of data beside it for a big data set); a run with no PyTorch counterpart gets
the one sentence that says why, never a script that trains differently.
"""

from __future__ import annotations

import os

from PySide6.QtGui import QFontDatabase, QGuiApplication
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QLabel,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
)

from autograd_core.export import ExportUnsupported, numpy_model_script, python_export, torch_script
from autograd_core.export.common import ScriptExport
from autograd_core.export.options import npz_path, write_export
from autograd_core.files import FileError

# kind → (menu text, what the dialog says the script is, suggested file name, menu tooltip)
EXPORTS = {
    "python": (
        "Export run as &Python…",
        "This run as a Python script on this project's library (autograd_core): same data, weights, batch order "
        "and steps; it prints the final train loss last.",
        "train_run.py",
        "A script that trains this run again with autograd_core, step by step",
    ),
    "torch": (
        "Export run as Py&Torch…",
        "This run in PyTorch (needs only torch and numpy): torch.nn layers, the matching torch.optim optimizer, "
        "float64; it prints the final train loss last.",
        "train_run_torch.py",
        "The same run written with torch.nn and torch.optim, to carry on in PyTorch",
    ),
    "numpy": (
        "Export trained &model as NumPy…",
        "The trained network as NumPy: predict(X) gives the app's outputs for the weights on screen now.",
        "model_numpy.py",
        "A small NumPy script whose predict(X) reproduces the trained network",
    ),
}


def make_export(kind: str, controller) -> ScriptExport:
    """The script for the run (or the trained model) on screen; ExportUnsupported says why there is none."""
    if kind == "numpy":
        model = controller.current_model()
        snap = controller.last_snapshot
        if model is None or snap is None:
            raise ExportUnsupported("there is no trained network yet: press Step or Play first")
        return ScriptExport(numpy_model_script(model, task=controller.task, classes=max(2, snap.classes)))
    if controller.regression is not None:
        config, data = controller.regression, None
    else:
        config = controller.config
        if controller.dataset is not None and not len(controller.dataset.y_train):
            raise ExportUnsupported("there are no training points: paint some (or pick a data set) first")
        data = controller.dataset if config.points is not None else None  # painted or imported: these points
    if kind == "python":
        return python_export(config, data)
    # PyTorch gets the data written in: the ones on screen (making them again would import scikit-learn on the
    # GUI thread, 1.2 s the first time)
    return torch_script(config, controller.dataset if controller.regression is None else None)


class ExportDialog(QDialog):
    """The script, read-only, with Save… and Copy."""

    def __init__(self, kind: str, export: ScriptExport, parent=None):
        super().__init__(parent)
        self.kind, self.export = kind, export
        title, about, self.suggested, _tip = EXPORTS[kind]
        self.setWindowTitle(title.replace("&", "").rstrip("…"))
        intro = QLabel(about)
        intro.setWordWrap(True)
        self.code = QPlainTextEdit(export.text)
        self.code.setReadOnly(True)
        self.code.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        code_font = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        code_font.setPointSizeF(max(code_font.pointSizeF(), self.font().pointSizeF()))  # presentation: as big
        self.code.setFont(code_font)
        self.code.setObjectName("exportCode")
        lines = export.text.count("\n") + 1
        data = " Its data go into a .npz file beside it." if export.arrays else ""
        self.summary = QLabel(f"{lines:,} lines.{data}")
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.save_button = QPushButton("Save…")
        self.copy_button = QPushButton("Copy")
        buttons.addButton(self.save_button, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.addButton(self.copy_button, QDialogButtonBox.ButtonRole.ActionRole)
        self.save_button.clicked.connect(lambda: self.save())
        self.copy_button.clicked.connect(self.copy)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(self.code, 1)
        layout.addWidget(self.summary)
        layout.addWidget(buttons)
        self.resize(820, 640)

    def copy(self) -> None:
        QGuiApplication.clipboard().setText(self.export.text)
        self.summary.setText("Copied to the clipboard.")

    def save(self, path: str | None = None) -> bool:
        """Write the script (asked where when ``path`` is None); the dialog says where it went, or why not."""
        if path is None:
            path, _ = QFileDialog.getSaveFileName(self, "Save script", self.suggested, "Python (*.py)")
            if not path:
                return False
        try:
            write_export(path, self.export)
        except FileError as exc:
            self.summary.setText(f"Cannot write {path}: {exc}")
            return False
        beside = f" and {os.path.basename(npz_path(path))}" if self.export.arrays else ""
        run = "python" if self.kind != "python" else "python (with autograd_core importable: see its first lines)"
        self.summary.setText(f"Saved {path}{beside}. Run it with {run} {os.path.basename(path)}.")
        return True


def show_export(parent, kind: str, controller) -> ExportDialog | None:
    """The export dialog for the run on screen, or a message saying why this run has no such export."""
    try:
        export = make_export(kind, controller)
    except ExportUnsupported as exc:
        title = EXPORTS[kind][0].replace("&", "").rstrip("…")
        box = QMessageBox(QMessageBox.Icon.Information, title, f"No export for this run: {exc}.", parent=parent)
        box.setObjectName("exportRefusal")
        box.open()  # modeless: the window keeps running
        return None
    dialog = ExportDialog(kind, export, parent)
    dialog.open()
    return dialog


def add_export_actions(menus, menu) -> dict:
    """The three File-menu actions, made by ``menus`` (the window's ``AppMenus``) into ``menu``; each asks the
    window for its export."""
    window = menus.window
    return {
        kind: menus.action(menu, text, lambda kind=kind: window.show_export(kind), None, tip)
        for kind, (text, _about, _name, tip) in EXPORTS.items()
    }
