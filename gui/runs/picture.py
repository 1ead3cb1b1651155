"""A kept run's small picture (``autograd_core.learn.runs.RunPicture``), and two of them side by side.

The picture is what the run ended with: each cell of its boundary in the predicted class's color, paler where
the network was less sure, the data points on top; for regression, the points and the fitted curve.  The
dialog puts two runs next to each other with their names, settings that differ and final figures.
"""

from __future__ import annotations

from html import escape

from PySide6.QtCore import QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QImage, QPainter, QPainterPath, QPen
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QGridLayout, QLabel, QSizePolicy, QWidget

from autograd_core.learn.runs import describe_change
from autograd_core.numbers import format_number

from ..look.theme import palette
from .table import best_score, format_score


def picture_image(picture, pal) -> QImage:
    """The boundary cells as an image (one pixel per cell, y up), in the class colors on the plot background."""
    size = picture.size
    image = QImage(size, size, QImage.Format.Format_RGB32)
    background = QColor(pal.plot_background)
    colors = [QColor(c) for c in pal.class_colors]
    for row in range(size):
        for col in range(size):
            k = row * size + col
            color = colors[picture.labels[k] % len(colors)]
            # confidence 50 % (a coin toss between two classes) is the background; 100 % is 55 % of the class color
            share = 0.55 * max(0.0, min(1.0, (picture.confidence[k] - 50) / 50))
            mixed = QColor(
                round(background.red() + share * (color.red() - background.red())),
                round(background.green() + share * (color.green() - background.green())),
                round(background.blue() + share * (color.blue() - background.blue())),
            )
            image.setPixelColor(col, size - 1 - row, mixed)
    return image


class RunPictureView(QWidget):
    """One run's final picture, square, scaled to the room it has."""

    def __init__(self, picture=None, parent=None):
        super().__init__(parent)
        self.picture = picture
        self.setMinimumSize(160, 160)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)

    def sizeHint(self) -> QSize:
        return QSize(320, 320)

    def set_picture(self, picture) -> None:
        self.picture = picture
        self.update()

    def paintEvent(self, _event) -> None:
        pal = palette()
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)  # 40 × 40 cells, drawn smooth
        side = min(self.width(), self.height()) - 2
        area = QRectF((self.width() - side) / 2, (self.height() - side) / 2, side, side)
        painter.fillRect(area, QColor(pal.plot_background))
        picture = self.picture
        if picture is None:
            painter.setPen(QColor(pal.muted))
            painter.drawText(area, Qt.AlignmentFlag.AlignCenter, "no picture\n(the run took no step)")
            return
        x0, x1, y0, y1 = picture.extent
        sx = side / ((x1 - x0) or 1.0)
        sy = side / ((y1 - y0) or 1.0)

        def at(x: float, y: float) -> QPointF:
            return QPointF(area.left() + (x - x0) * sx, area.bottom() - (y - y0) * sy)

        if picture.kind == "classes":
            painter.drawImage(area, picture_image(picture, pal))
            colors = [QColor(c) for c in pal.class_colors]
            painter.setPen(QPen(QColor(pal.point_outline), 0.8))
            for x, y, label in picture.points:
                painter.setBrush(colors[int(label) % len(colors)])
                painter.drawEllipse(at(x, y), 3.2, 3.2)
        else:
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(QColor(pal.class_colors[0]))
            for x, y, *_ in picture.points:
                painter.drawEllipse(at(x, y), 2.6, 2.6)
            if picture.curve:
                path = QPainterPath(at(*picture.curve[0]))
                for x, y in picture.curve[1:]:
                    path.lineTo(at(x, y))
                painter.setPen(QPen(QColor(pal.train), 2.5))
                painter.setBrush(Qt.BrushStyle.NoBrush)
                painter.drawPath(path)
        painter.setPen(QPen(QColor(pal.axis), 1))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawRect(area)


def run_caption(run, other) -> str:
    """Name, what differs from the other run, and the final figures, as a few lines of rich text."""
    score = format_score(run, best_score(run)).replace(" ", "\u00a0")  # a figure and its unit never part
    part = "test" if run.best("test_r2" if run.task == "regression" else "test_acc") is not None else "train"
    differs = describe_change(other.config, run.config) if other.task == run.task else run.task
    return (
        f"<b>{escape(run.name)}</b><br>"
        f"differs from the other: {escape(differs)}<br>"
        f"{run.steps:,} steps · train loss {format_number(run.final('train_loss'), 4)} · best {part} {score}"
    )


class SideBySideDialog(QDialog):
    """Two runs' final pictures next to each other, with what tells them apart."""

    def __init__(self, first, second, parent=None):
        super().__init__(parent)
        self.setWindowTitle(f"Runs side by side: {first.name} | {second.name}")
        self.views = (RunPictureView(first.picture), RunPictureView(second.picture))
        self.captions = (QLabel(run_caption(first, second)), QLabel(run_caption(second, first)))
        grid = QGridLayout(self)
        for column, (view, caption) in enumerate(zip(self.views, self.captions)):
            caption.setWordWrap(True)
            caption.setTextFormat(Qt.TextFormat.RichText)
            grid.addWidget(view, 0, column)
            grid.addWidget(caption, 1, column)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        grid.addWidget(buttons, 2, 0, 1, 2)
        chars = self.fontMetrics().averageCharWidth()
        self.resize(max(760, 84 * chars), max(480, 52 * chars))  # presentation mode's larger text: more room
