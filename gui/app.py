"""Application start-up: one QApplication, one main window."""

from __future__ import annotations

import sys

from PySide6.QtWidgets import QApplication, QLabel, QMainWindow


def run(argv: list[str] | None = None) -> int:
    app = QApplication.instance() or QApplication([sys.argv[0], *(argv or [])])
    app.setApplicationName("Autograd Playground")
    app.setOrganizationName("AutogradPlayground")
    window = QMainWindow()
    window.setWindowTitle("Autograd Playground")
    window.setCentralWidget(QLabel("Autograd Playground"))
    window.resize(1280, 800)
    window.show()
    return app.exec()
