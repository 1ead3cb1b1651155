"""A graph picture of a backward broken on purpose (Break it): marked broken in the file, never taken for a result.

The picture is the view's own (``GraphView.render_image`` / ``export_svg``) with a banner above it that says it is
broken and why, in the palette's error color; the file says it too where a program reads it: a PNG's text chunks
``Broken`` and ``Description``, an SVG's ``<desc>`` and ``<metadata>``.
"""

from __future__ import annotations

import re
import textwrap
from html import escape

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QFont, QImage, QPainter

from ..look.theme import palette

BANNER_PAD = 8
SVG_CHARS = (60, 90)  # a banner line of the SVG wraps at this many characters (the bold label, the sentence)
SVG_CHAR_WIDTH = 0.64  # an average character's width in a sans-serif font, per unit of font size (bold: wider)


def note(label: str, reason: str) -> str:
    return f"{label}. {reason}" if reason else label


def export_broken(view, path: str, label: str, reason: str) -> None:
    """Write the graph to ``path`` (PNG or SVG by its extension) with the broken banner and flag."""
    if str(path).lower().endswith(".svg"):
        _svg(view, str(path), label, reason)
    else:
        _png(view, str(path), label, reason)


def _png(view, path: str, label: str, reason: str) -> None:
    graph = view.render_image()
    pal = palette()
    bold, plain = QFont(view.font()), QFont(view.font())
    bold.setBold(True)
    bold.setPointSizeF(max(11.0, plain.pointSizeF() * 1.4))
    plain.setPointSizeF(max(10.0, plain.pointSizeF() * 1.2))
    width = max(graph.width(), 480)
    text_width = width - 2 * BANNER_PAD
    probe = QImage(1, 1, QImage.Format.Format_ARGB32)
    painter = QPainter(probe)
    painter.setFont(bold)
    flags = int(Qt.TextFlag.TextWordWrap)
    top = painter.boundingRect(QRectF(0, 0, text_width, 10_000), flags, label).height()
    painter.setFont(plain)
    below = painter.boundingRect(QRectF(0, 0, text_width, 10_000), flags, reason).height() if reason else 0.0
    painter.end()
    banner = int(top + below + 3 * BANNER_PAD)
    image = QImage(width, graph.height() + banner, QImage.Format.Format_ARGB32)
    image.fill(QColor(pal.graph_background))
    painter = QPainter(image)
    painter.setRenderHints(QPainter.RenderHint.Antialiasing | QPainter.RenderHint.TextAntialiasing)
    painter.setPen(QColor(pal.error))
    painter.setFont(bold)
    painter.drawText(QRectF(BANNER_PAD, BANNER_PAD, text_width, top), flags, label)
    painter.setPen(QColor(pal.graph_text))
    painter.setFont(plain)
    if reason:
        painter.drawText(QRectF(BANNER_PAD, 2 * BANNER_PAD + top, text_width, below), flags, reason)
    painter.drawImage(0, banner, graph)
    painter.end()
    image.setText("Broken", "true")
    image.setText("Description", note(label, reason))
    if not image.save(path, "PNG"):
        raise OSError(f"could not write {path}")


def _svg(view, path: str, label: str, reason: str) -> None:
    view.export_svg(path)
    with open(path, encoding="utf-8") as f:
        svg = f.read()
    box = re.search(r'viewBox="0 0 ([\d.]+) ([\d.]+)"', svg)
    if box is None:
        raise OSError(f"could not mark {path} as broken: no viewBox in the SVG written")
    width, height = float(box.group(1)), float(box.group(2))
    lines = [(line, 15, True) for line in textwrap.wrap(label, SVG_CHARS[0])]
    lines += [(line, 12, False) for line in textwrap.wrap(reason, SVG_CHARS[1])]
    banner = sum(size + 6 for _t, size, _b in lines) + 2 * BANNER_PAD
    width = max(width, max(len(t) * size * SVG_CHAR_WIDTH for t, size, _b in lines) + 2 * BANNER_PAD)
    pal = palette()
    svg = svg.replace(box.group(0), f'viewBox="0 {-banner:g} {width:g} {height + banner:g}"', 1)
    svg = re.sub(
        r'<svg width="[^"]*" height="[^"]*"', f'<svg width="{width:g}" height="{height + banner:g}"', svg, count=1
    )
    flag = escape(note(label, reason))
    svg = svg.replace(
        "<desc>Generated with Qt</desc>",
        f'<desc>{flag}</desc>\n<metadata id="broken" data-broken="true">{flag}</metadata>\n'
        f'<rect x="0" y="{-banner:g}" width="{width:g}" height="{height + banner:g}" fill="{pal.graph_background}"/>',
        1,
    )
    y = -banner + BANNER_PAD
    texts = []
    for text, size, bold in lines:
        y += size + 4
        color = pal.error if bold else pal.graph_text
        weight = ' font-weight="bold"' if bold else ""
        texts.append(
            f'<text x="{BANNER_PAD}" y="{y:g}" fill="{color}" font-family="sans-serif" font-size="{size}"{weight}>'
            f"{escape(text)}</text>"
        )
    end = svg.rindex("</svg>")
    svg = svg[:end] + "\n".join(texts) + "\n" + svg[end:]
    with open(path, "w", encoding="utf-8") as f:
        f.write(svg)
