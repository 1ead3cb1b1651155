"""The training area's data files: undo/redo of data edits, import (dialog or a dropped file), export with predictions.

Composed into ``TrainingWorkspace`` (which hands it its controller and its ``status`` signal), kept apart
because file handling is its own job: the export runs on a worker thread and reports back through a queued
signal, so the window never waits for a disk.
"""

from __future__ import annotations

import threading

from PySide6.QtCore import QObject, Signal, SignalInstance
from PySide6.QtWidgets import QFileDialog, QWidget

from autograd_core.files import FileError, write_atomically
from autograd_core.learn.regression import regression_csv
from autograd_core.learn.tabular import predictions_csv

from .import_dialog import ImportDialog


class _ExportDone(QObject):
    """Carries an export's outcome from its worker thread to the GUI thread (queued)."""

    finished = Signal(str)


class DataFileActions(QObject):
    """Undo, redo, import and export of the training area's data; dialogs open over ``host``, and every
    outcome is said through ``status``."""

    def __init__(self, host: QWidget, controller, status: SignalInstance):
        super().__init__(host)
        self.host, self.controller, self.status = host, controller, status
        self.import_dialog = None
        self.export_thread: threading.Thread | None = None  # File > Export data with predictions, writing
        self._export_done = _ExportDone(self)
        self._export_done.finished.connect(status)

    def undo(self) -> None:
        if self.controller.can_undo():
            self.controller.undo()
            self.status.emit("Undone: the data are as before the last edit (Ctrl+Shift+Z redoes it).")
        else:
            self.status.emit("Nothing to undo: no data edit yet.")

    def redo(self) -> None:
        if self.controller.can_redo():
            self.controller.redo()
            self.status.emit("Redone.")
        else:
            self.status.emit("Nothing to redo.")

    def import_data(self, path: str | None = None) -> ImportDialog | None:
        """Open the import dialog on ``path`` (asked for when None); on OK the data train a new network."""
        if path is None:
            path, _ = QFileDialog.getOpenFileName(
                self.host, "Import data", "", "Tables (*.csv *.tsv *.txt);;All files (*)"
            )
            if not path:
                return None
        dialog = ImportDialog(path, self.host, test_percent=round(100 * self.controller.config.test_fraction))
        dialog.accepted.connect(self._import_accepted)
        dialog.finished.connect(dialog.deleteLater)  # one dialog per import; its reading thread ends with it
        self.import_dialog = dialog
        dialog.open()
        return dialog

    def _import_accepted(self) -> None:
        dialog = self.import_dialog
        if dialog is None or dialog.dataset is None:
            return
        dataset = dialog.dataset
        if self.controller.import_dataset(dataset):
            names = ", ".join(dataset.class_names or [])
            self.status.emit(
                f"Imported {len(dataset.y):,} points of {len(dataset.class_names or [])} classes ({names}) "
                f"from {dialog.path}; Ctrl+Z undoes it."
            )

    def export_predictions(self, path: str | None = None) -> None:
        """Write the data with the model's prediction and class probabilities for every point, as CSV.

        The GUI thread only takes the model and data of the latest snapshot (copies nothing trains on); the
        forward pass, the CSV text and the atomic write run on a worker thread (100,000 points took ~0.6 s of
        the GUI thread), and ``status`` says when the file is written or why not."""
        if path is None:
            path, _ = QFileDialog.getSaveFileName(self.host, "Export data with predictions", "", "CSV (*.csv)")
            if not path:
                return
        snap = self.controller.last_snapshot
        if snap is not None and snap.regression is not None:  # the regression's points and the model's curve
            view, model = snap.regression, self.controller.current_model()

            def text() -> str:
                return regression_csv(
                    view.x_train,
                    view.y_train,
                    view.x_test,
                    view.y_test,
                    lambda x: model.forward_array(x.reshape(-1, 1)),
                )

            self._write_export(path, text, len(view.x_train) + len(view.x_test))
            return
        model, dataset = self.controller.current_model(), self.controller.dataset
        if model is None or dataset is None or not len(dataset.y):
            self.status.emit("Nothing to export yet: no data or no trained network.")
            return
        self._write_export(path, lambda: predictions_csv(dataset, model.forward_array(dataset.X)), len(dataset.y))

    def _write_export(self, path: str, text, rows: int) -> None:
        """``text()`` written atomically to ``path`` on a worker thread; the outcome comes back as ``status``."""
        done = self._export_done

        def run() -> None:
            try:
                write_atomically(path, text().encode("utf-8"))
                message = f"Wrote {rows:,} rows with predictions to {path}."
            except FileError as exc:
                message = f"Cannot write {path}: {exc}"
            except Exception as exc:  # the window says what went wrong; it never ends the app
                message = f"Could not export the data: {type(exc).__name__}: {exc}"
            try:
                done.finished.emit(message)  # queued to the GUI thread
            except RuntimeError:
                pass  # the window was closed meanwhile

        self.status.emit(f"Writing {rows:,} rows with predictions to {path}…")
        self.export_thread = threading.Thread(target=run, name="export-predictions", daemon=True)
        self.export_thread.start()

    def finish(self, timeout: float = 10.0) -> None:
        """Give a data export being written a few seconds to finish (its file is whole or not there at all)."""
        if self.export_thread is not None:
            self.export_thread.join(timeout=timeout)

    @staticmethod
    def dropped_file(event) -> str | None:
        """The one local file a drag carries, or None."""
        urls = event.mimeData().urls() if event.mimeData().hasUrls() else []
        if len(urls) == 1 and urls[0].isLocalFile():
            return urls[0].toLocalFile()
        return None
