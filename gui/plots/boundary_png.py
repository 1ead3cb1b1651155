"""Render a trainer's decision boundary to a PNG without a screen (``python main.py train --plot FILE.png``).

Qt draws offscreen into a QImage: the probability map P(class 1) in the app's
blue–white–orange colors, the P = 0.5 contour, train points filled and test
points hollow, axes with ticks, a color bar and a title with the accuracy.
The numbers come from the same vectorised forward pass the app paints with.
"""

from __future__ import annotations

import math
import os

import numpy as np

from autograd_core.learn.regions import GRID_MARGIN
from autograd_core.numbers import LEDGER, format_number, format_percent

GRID = 240  # samples per axis of the probability map


def _ensure_app():
    """A QGuiApplication (offscreen if none exists yet), needed for fonts and painting."""
    from PySide6.QtGui import QGuiApplication

    app = QGuiApplication.instance()
    if app is None:
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
        app = QGuiApplication(["autograd-playground-plot"])
    return app


def nice_ticks(lo: float, hi: float, target: int = 6) -> list[float]:
    """Round tick values (1, 2, 5 × 10ⁿ steps) covering [lo, hi]."""
    span = max(hi - lo, 1e-9)
    raw = span / target
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 5, 10) if m * magnitude >= raw)
    first = math.ceil(lo / step) * step
    return [round(first + i * step, 10) for i in range(int((hi - first) / step + 1e-9) + 1)]


def _equal_aspect(bounds, width: int, height: int):
    """Widen the shorter side of the data window so one unit is as long on both axes."""
    x0, x1, y0, y1 = bounds
    scale = max((x1 - x0) / width, (y1 - y0) / height)
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    return cx - scale * width / 2, cx + scale * width / 2, cy - scale * height / 2, cy + scale * height / 2


def map_pixels(regions, pal) -> np.ndarray:
    """The map of a ``RegionGrid`` as RGBA rows from the top (y1) down: the live map's ``region_rgba``, flipped."""
    from autograd_core.learn.regions import region_rgba

    from ..training.training_style import region_colors

    return np.ascontiguousarray(region_rgba(regions, **region_colors(pal))[::-1])


def render_boundary(trainer, width: int = 820, height: int = 700):
    """The picture as a QImage (exposed for tests and for the app's "export" action)."""
    _ensure_app()
    from PySide6.QtCore import QPointF, QRectF, Qt
    from PySide6.QtGui import QBrush, QColor, QFont, QImage, QPainter, QPainterPath, QPen

    from ..look.theme import PALETTES
    from ..training.training_style import probability_colormap

    pal = PALETTES["light"]  # a file for print or slides: always the light theme

    left, right, top, bottom = 70, 110, 64, 56
    pw, ph = width - left - right, height - top - bottom
    data = trainer.data
    # The service's margin, the window widened to this canvas's shape (the live map's is square: map_extent).
    x0, x1, y0, y1 = _equal_aspect(data.bounds(GRID_MARGIN), pw, ph)

    # One pipeline with the live view: autograd_core.learn.regions evaluates the grid (rows y0 → y1) and traces the
    # boundaries, and region_rgba paints it as the live map does.
    from autograd_core.learn.regions import class_regions

    classes = trainer.config.num_classes
    regions = class_regions(trainer.model, (x0, x1, y0, y1), GRID)
    rgba = map_pixels(regions, pal)
    heat = QImage(rgba.data, GRID, GRID, 4 * GRID, QImage.Format.Format_RGBA8888).copy()

    image = QImage(width, height, QImage.Format.Format_ARGB32)
    image.fill(QColor(pal.plot_background))
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
    plot = QRectF(left, top, pw, ph)

    def px(x, y):
        return QPointF(left + (x - x0) / (x1 - x0) * pw, top + (y1 - y) / (y1 - y0) * ph)

    # Pixel centers of the map sit on the grid points.
    cell_w, cell_h = pw / (GRID - 1), ph / (GRID - 1)
    painter.drawImage(QRectF(left - cell_w / 2, top - cell_h / 2, pw + cell_w, ph + cell_h), heat)
    painter.setClipRect(plot)

    # Every class boundary (for two classes the P = 0.5 line), as the segments autograd_core.learn.regions traced.
    path = QPainterPath()
    for i in range(0, len(regions.boundary_x), 2):
        path.moveTo(px(regions.boundary_x[i], regions.boundary_y[i]))
        path.lineTo(px(regions.boundary_x[i + 1], regions.boundary_y[i + 1]))
    painter.setPen(QPen(QColor(pal.contour), 2.5))
    painter.setBrush(Qt.BrushStyle.NoBrush)
    painter.drawPath(path)

    colors = [QColor(c) for c in pal.class_colors]
    painter.setPen(QPen(QColor(pal.point_outline), 1.0))
    for (x, y), label in zip(data.X_train, data.y_train):
        painter.setBrush(QBrush(colors[int(label)]))
        painter.drawEllipse(px(x, y), 4.5, 4.5)
    painter.setBrush(Qt.BrushStyle.NoBrush)
    for (x, y), label in zip(data.X_test, data.y_test):
        painter.setPen(QPen(colors[int(label)], 2.2))
        painter.drawEllipse(px(x, y), 5.0, 5.0)
    painter.setClipping(False)

    # Frame, ticks and labels.
    ink = QColor(pal.plot_text)
    painter.setPen(QPen(QColor(pal.axis), 1.0))
    painter.drawRect(plot)
    font = QFont()
    font.setPixelSize(13)
    painter.setFont(font)
    for t in nice_ticks(x0, x1):
        p = px(t, y0)
        painter.setPen(QPen(QColor(pal.axis), 1.0))
        painter.drawLine(p, p + QPointF(0, 5))
        painter.setPen(ink)
        painter.drawText(QRectF(p.x() - 40, p.y() + 7, 80, 18), Qt.AlignmentFlag.AlignHCenter, format_number(t, LEDGER))
    for t in nice_ticks(y0, y1):
        p = px(x0, t)
        painter.setPen(QPen(QColor(pal.axis), 1.0))
        painter.drawLine(p, p - QPointF(5, 0))
        painter.setPen(ink)
        painter.drawText(
            QRectF(p.x() - 60, p.y() - 9, 52, 18),
            Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter,
            format_number(t, LEDGER),
        )
    # The axes name the inputs and, beside them, what the data calls them (x1 · PC1, x2 · petal width (cm)).
    painter.drawText(QRectF(left, height - 24, pw, 20), Qt.AlignmentFlag.AlignHCenter, data.input_label(0))
    painter.save()
    painter.translate(16, top + ph / 2)
    painter.rotate(-90)
    painter.drawText(QRectF(-ph / 2, -10, ph, 20), Qt.AlignmentFlag.AlignCenter, data.input_label(1))
    painter.restore()

    if classes > 2:  # a legend: one swatch per class
        for k in range(classes):
            y = top + 6 + 24 * k
            painter.setPen(QPen(QColor(pal.point_outline), 1.0))
            painter.setBrush(QBrush(colors[k]))
            painter.drawEllipse(QPointF(left + pw + 24, y + 9), 6, 6)
            painter.setPen(ink)
            name = data.class_label(k)
            painter.drawText(QRectF(left + pw + 36, y, right - 40, 18), Qt.AlignmentFlag.AlignVCenter, name)
        painter.setBrush(Qt.BrushStyle.NoBrush)
    else:  # color bar with its 0.5 mark
        bar = QRectF(left + pw + 30, top, 18, ph)
        ramp = np.linspace(1.0, 0.0, 256)
        ramp_rgba = np.ascontiguousarray(probability_colormap(pal).map(ramp, mode="byte").reshape(256, 1, 4))
        painter.drawImage(bar, QImage(ramp_rgba.data, 1, 256, 4, QImage.Format.Format_RGBA8888).copy())
        painter.setPen(QPen(QColor(pal.axis), 1.0))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawRect(bar)
        for v in (0.0, 0.5, 1.0):
            y = bar.top() + (1.0 - v) * bar.height()
            painter.drawLine(QPointF(bar.right(), y), QPointF(bar.right() + 4, y))
            painter.drawText(QRectF(bar.right() + 6, y - 9, 40, 18), Qt.AlignmentFlag.AlignVCenter, format_number(v))
        painter.save()
        painter.translate(bar.right() + 52, top + ph / 2)
        painter.rotate(90)
        painter.drawText(QRectF(-ph / 2, -10, ph, 20), Qt.AlignmentFlag.AlignCenter, f"P({data.class_label(1)})")
        painter.restore()

    # Title: what was trained and how well.
    m = trainer.evaluate()
    c = trainer.config
    test = f", test {format_percent(m.test_acc)}" if m.test_acc is not None else ""
    title = f"{data.name}: train accuracy {format_percent(m.train_acc)}{test} after {trainer.step_count} steps"
    sub = (
        f"MLP {'-'.join(map(str, [c.inputs, *c.layers, c.outputs]))} {'/'.join(c.hidden_activations) or c.activation}, "
        f"{'cross-entropy' if classes > 2 else c.loss} loss, {c.optimizer} lr {format_number(c.lr, LEDGER)}"
        + ("   ●  train   ○  test" if len(data.y_test) else "   ●  train")
        + ("   —  class boundaries" if classes > 2 else "   —  P = 0.5")
    )
    bold = QFont(font)
    bold.setPixelSize(17)
    bold.setBold(True)
    painter.setFont(bold)
    painter.setPen(ink)
    painter.drawText(QRectF(left, 10, pw + right - 10, 24), Qt.AlignmentFlag.AlignLeft, title)
    painter.setFont(font)
    painter.setPen(QColor(pal.axis))
    painter.drawText(QRectF(left, 36, pw + right - 10, 20), Qt.AlignmentFlag.AlignLeft, sub)
    painter.end()
    return image


def write_boundary_png(path: str, trainer, width: int = 820, height: int = 700) -> None:
    """Write the decision-boundary picture; raises OSError if the file cannot be written."""
    image = render_boundary(trainer, width, height)
    if not image.save(os.fspath(path), "PNG"):
        raise OSError(f"Qt could not write the PNG to {path}")
