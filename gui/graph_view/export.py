"""Saving the graph as PNG or SVG: the scene painted at its own scale with the legend below it."""

from __future__ import annotations

import math
import os
import threading
from collections.abc import Callable
from contextlib import ExitStack, contextmanager

from PySide6.QtCore import QRectF, QSize, QTimer
from PySide6.QtGui import QImage, QPainter
from PySide6.QtWidgets import QGraphicsView

from .appearance import Appearance
from .builder import ItemBuilder
from .overlays import Legend

EXPORT_MAX_PIXELS = 8e6  # PNG export size cap (painting 12 MP took ~0.8 s in the GUI thread)
# A PNG exported from the app is painted in bands of at most this many pixels, one per event-loop turn: the whole
# 8 MP of a big graph in one go blocked the window for 0.4–1.1 s.
EXPORT_BAND_PIXELS = 1e6


class Exporter:
    """PNG and SVG export of one graph view: ``view``'s scene, its ``builder``'s items and ``legend`` painted in
    ``look``'s colors; ``stamp`` tells which graph is drawn (a banded export stops when it changes) and ``say``
    reports the outcome (from the saving thread too: a queued signal's emit)."""

    def __init__(
        self,
        view: QGraphicsView,
        look: Appearance,
        builder: ItemBuilder,
        legend: Legend,
        stamp: Callable[[], tuple],
        say: Callable[[str], None],
    ):
        self.view, self.look, self.builder, self.legend, self.stamp, self.say = view, look, builder, legend, stamp, say
        self.exports = 0  # exports painting now (banded ones span turns): boxes paint themselves until the last ends
        self._plain_before = False  # whether the boxes were plain before the first of them

    @property
    def exporting(self) -> bool:
        return self.exports > 0

    @contextmanager
    def _boxes_painting_themselves(self):
        """Around an export: every box paints itself at the export's own scale (its text when it fits).  Exports
        may overlap (a second one asked while the first paints its bands): the first in sets, the last out restores."""
        if not self.exports:
            self._plain_before = self.builder.plain
            if self.builder.plain:
                self.builder.set_plain(False)
        self.exports += 1
        try:
            yield
        finally:
            self.exports -= 1
            if not self.exports and self._plain_before:
                self.builder.set_plain(True)

    # ---- export

    def canvas(self, scale: float = 2.0) -> tuple[QImage, QRectF, float]:
        """The blank image, the scene rectangle it shows and the scale it shows it at."""
        rect = self.builder.graph_rect().adjusted(-20, -20, 20, 20)
        if rect.isEmpty():
            rect = QRectF(0, 0, 200, 100)
        legend = self.legend.sizeHint()
        limit = 8000.0 / max(rect.width(), rect.height(), 1.0)
        # at most EXPORT_MAX_PIXELS: a 2,000-node graph at twice its size took seconds to paint and compress
        pixels = math.sqrt(EXPORT_MAX_PIXELS / max(rect.width() * rect.height(), 1.0))
        scale = min(scale, limit, max(pixels, 0.5))
        width = int(rect.width() * scale)
        height = int(rect.height() * scale) + legend.height() + 16
        image = QImage(max(width, legend.width() + 16), height, QImage.Format.Format_ARGB32)
        image.fill(self.look.colors.background)
        return image, rect, scale

    def bands_of(self, image: QImage, rect: QRectF, scale: float) -> list[tuple[QRectF, QRectF]]:
        """(target in the image, source in the scene) per band of rows, top to bottom."""
        rows = int(rect.height() * scale)
        per_band = max(16, int(EXPORT_BAND_PIXELS / max(image.width(), 1)))
        bands = []
        for top in range(0, max(rows, 1), per_band):
            n = min(per_band, rows - top)
            target = QRectF(0, top, rect.width() * scale, n)
            bands.append((target, QRectF(rect.left(), rect.top() + top / scale, rect.width(), n / scale)))
        return bands

    def paint_band(self, image: QImage, target: QRectF, source: QRectF) -> None:
        painter = QPainter(image)
        painter.setRenderHints(QPainter.RenderHint.Antialiasing | QPainter.RenderHint.TextAntialiasing)
        painter.setClipRect(target)
        self.view.scene().render(painter, target, source)
        painter.end()

    def paint_legend(self, image: QImage) -> None:
        legend = self.legend.sizeHint()
        painter = QPainter(image)
        painter.setRenderHints(QPainter.RenderHint.Antialiasing | QPainter.RenderHint.TextAntialiasing)
        height = image.height()
        self.legend.draw(painter, QRectF(8, height - legend.height() - 8, legend.width(), legend.height()))
        painter.end()

    def render_image(self, scale: float = 2.0) -> QImage:
        """The whole picture in one call (the command line, tests; the app paints it in bands)."""
        image, rect, scale = self.canvas(scale)
        with self._boxes_painting_themselves():
            for target, source in self.bands_of(image, rect, scale):
                self.paint_band(image, target, source)
        self.paint_legend(image)
        return image

    def export_png(self, path: str, background: bool = False) -> None:
        """Paint the graph and write it as PNG.

        With ``background`` the painting goes band by band, one per event-loop turn, and the compression (1–2 s
        for a big graph; Qt releases Python's lock meanwhile) runs on a worker thread into ``path + ".part"``,
        renamed when complete; the outcome comes as ``message``: the window never freezes, and a half-written
        file never takes the name.  A graph redrawn before the painting ends stops the export with a message.
        """
        if not background:
            image = self.render_image()
            if not image.save(str(path), "PNG"):
                raise OSError(f"could not write {path}")
            return
        self.say(f"Saving the graph to {path}…")
        image, rect, scale = self.canvas()
        bands = self.bands_of(image, rect, scale)
        held = ExitStack()
        held.enter_context(self._boxes_painting_themselves())
        drawn = self.stamp()

        def next_band() -> None:
            try:
                if self.stamp() != drawn:
                    held.close()
                    self.say(f"The graph changed while it was being exported: {path} not written")
                    return
                target, source = bands.pop(0)
                self.paint_band(image, target, source)
                if bands:
                    QTimer.singleShot(
                        1, self.view, next_band
                    )  # (a 0 ms one is a posted event: ahead of timers and input)
                    return
                held.close()
                self.paint_legend(image)
            except RuntimeError:  # the view was closed meanwhile
                return
            threading.Thread(target=self._save_png, args=(image, str(path)), daemon=True).start()

        next_band()

    def _save_png(self, image: QImage, path: str) -> None:
        part = path + ".part"
        try:
            if not image.save(part, "PNG"):
                raise OSError(f"could not write {path}")
            os.replace(part, path)
            text = f"Graph saved to {path}"
        except OSError as err:
            text = f"Could not save the graph: {err}"
            try:
                os.remove(part)
            except OSError:
                pass
        try:
            self.say(text)  # queued to the GUI thread
        except RuntimeError:
            pass  # the view was closed meanwhile

    def export_svg(self, path: str) -> None:
        from PySide6.QtSvg import QSvgGenerator

        rect = self.builder.graph_rect().adjusted(-20, -20, 20, 20)
        legend = self.legend.sizeHint()
        generator = QSvgGenerator()
        generator.setFileName(str(path))
        size = QSize(int(max(rect.width(), legend.width() + 16)), int(rect.height()) + legend.height() + 16)
        generator.setSize(size)
        generator.setViewBox(QRectF(0, 0, size.width(), size.height()))
        generator.setTitle("Autograd Playground graph")
        painter = QPainter()
        if not painter.begin(generator):
            raise OSError(f"could not write {path}")
        painter.fillRect(QRectF(0, 0, size.width(), size.height()), self.look.colors.background)
        with self._boxes_painting_themselves():
            self.view.scene().render(painter, QRectF(0, 0, rect.width(), rect.height()), rect)
        self.legend.draw(painter, QRectF(8, size.height() - legend.height() - 8, legend.width(), legend.height()))
        painter.end()

    def export(self, path: str, background: bool = False) -> None:
        """PNG or SVG by the file's extension (``background``: see ``export_png``; SVG is quick and always here)."""
        if str(path).lower().endswith(".svg"):
            self.export_svg(path)
            if background:
                self.say(f"Graph saved to {path}")
        else:
            self.export_png(path, background=background)
