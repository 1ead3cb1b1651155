"""Guard the pinned Qt binding: PySide6 6.12.0 on Python 3.11 corrupts None's reference count.

Each QPainter.setPen / drawLine call there drops one reference to None, and the
interpreter aborts after a few thousand (pyqtgraph makes dozens per frame).
requirements.txt pins a release without the bug; this test fails loudly if
an upgrade brings it back.
"""

import subprocess
import sys

SCRIPT = """
import sys
from PySide6.QtCore import QPointF
from PySide6.QtGui import QColor, QGuiApplication, QImage, QPainter, QPen
app = QGuiApplication([])
image = QImage(64, 64, QImage.Format.Format_ARGB32)
painter = QPainter(image)
pen = QPen(QColor("red"))
before = sys.getrefcount(None)
for _ in range(20000):
    painter.setPen(pen)
    painter.drawLine(QPointF(0, 0), QPointF(10, 10))
painter.end()
print(sys.getrefcount(None) - before)
"""


def test_painting_does_not_leak_references_to_none():
    result = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr[-2000:]
    assert abs(int(result.stdout.strip().splitlines()[-1])) < 100
