"""The decision boundary: P(class 1) as a heat map (K classes: the regions), its boundaries, and the data on top.

Everything heavy (the grid forward pass, the boundaries, the map's extent)
is computed by the training service and arrives as the snapshot's
``RegionGrid``; this widget turns it into pixels with the core's
``region_rgba`` (the PNG export's function too) and hands the arrays to
pyqtgraph, so a frame costs about a millisecond of Python.

The plot is also a tool: a row of modes decides what a click does.
Inspect (default) selects the data point under the pointer (a ring marks it,
``point_picked`` says which) and drags a point to move it; Paint class 0/1
adds a point where you click; Erase removes the nearest point within a few
pixels; Clear all removes every point.  Edits leave as signals; the widget
redraws when the new data set comes back (at once: the controller shows an
edit before the trainer has it).  Panning and wheel zoom are off, so every
click means what the mode says and the map keeps its extent.
"""

from __future__ import annotations

import html
import math

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QEvent, QPoint, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QColor, QFontMetricsF, QPalette, QTextDocument
from PySide6.QtWidgets import (
    QButtonGroup,
    QCheckBox,
    QLabel,
    QPushButton,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from autograd_core.language.naming import class_name, input_name
from autograd_core.learn.data import MAX_CLASSES
from autograd_core.learn.regions import region_rgba
from autograd_core.live.service import Snapshot
from autograd_core.numbers import format_fixed

from ..look.theme import Palette, palette, plot_text_size, readable_text
from ..shell.flow_layout import FlowLayout
from ..training.training_style import (
    data_to_pixel,
    pixel_to_data,
    plot_font,
    probability_colormap,
    readable_ticks,
    refit_title,
    region_colors,
    set_plot_title,
    style_plot,
)

PAINT_MODES = tuple(f"paint{k}" for k in range(MAX_CLASSES))
MODES = ("inspect", *PAINT_MODES, "erase")
MODE_LABELS = {
    "inspect": "Inspect",
    **{f"paint{k}": f"Paint class {k}" for k in range(MAX_CLASSES)},
    "erase": "Erase",
}
MODE_TIPS = {
    "inspect": "Click a data point to select it and show its computation graph; drag a point to move it",
    "paint0": "Click to add a point of class 0 (blue); it joins the training set and training goes on",
    "paint1": "Click to add a point of class 1 (orange); it joins the training set and training goes on",
    **{
        f"paint{k}": f"Click to add a point of class {k}; it joins the training set and training goes on"
        for k in range(2, MAX_CLASSES)
    },
    "erase": "Click a point to delete it (the nearest within a few pixels)",
}
HIT_PX = 10.0  # a click this close to a point (in pixels) hits it
DRAG_PX = 3.0  # the pointer must move this far before a press becomes a drag


def _class_colors(button: QToolButton, label: int, pal: Palette | None = None) -> None:
    """The class color as the button's face and a text color that reads on it, in any theme.

    Colored text on the theme's gray face was unreadable (blue on the dark theme, orange on the
    light one); set as palette roles, the face survives theme changes and keeps its pressed look.
    """
    face = QColor((pal or palette()).class_colors[label])
    colors = button.palette()
    colors.setColor(QPalette.ColorRole.Button, face)
    colors.setColor(QPalette.ColorRole.ButtonText, readable_text(face))  # white or black, the higher contrast
    button.setPalette(colors)
    font = button.font()
    font.setBold(True)
    button.setFont(font)


class KeyLabel(QLabel):
    """The legend under the map: as wide as its one line (a wrapped QLabel guesses a narrow block), wrapping
    between its entries only when the row is narrower than that."""

    def sizeHint(self) -> QSize:
        doc = QTextDocument()
        doc.setDefaultFont(self.font())
        doc.setDocumentMargin(0)
        doc.setHtml(self.text())
        m = self.contentsMargins()
        width = math.ceil(doc.idealWidth()) + m.left() + m.right() + 2
        return QSize(width, self.heightForWidth(width))

    def minimumSizeHint(self) -> QSize:
        return QSize(0, super().minimumSizeHint().height())


class BoundaryPlot(QWidget):
    """Heat map + 0.5 contour + train (filled) and test (hollow) points + color bar, and the paint tools."""

    toggles_changed = Signal()
    point_picked = Signal(float, float, int)  # Inspect: the selected data point (x, y, label)
    point_painted = Signal(float, float, int)  # Paint: a new point of class label at (x, y)
    point_erased = Signal(str, int)  # Erase: ("train" | "test", index)
    point_moved = Signal(str, int, float, float)  # a dragged point's new place
    clear_requested = Signal()
    message = Signal(str)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.colors = palette()
        self.plot = pg.PlotWidget(background=self.colors.plot_background)
        self.plot.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
        item = self.plot.getPlotItem()
        self.plot.plain_title = "Decision boundary: P(class 1)"
        item.setLabel("bottom", input_name(0))
        item.setLabel("left", input_name(1))
        item.setMenuEnabled(False)
        item.hideButtons()
        item.getViewBox().setMouseEnabled(x=False, y=False)
        # Not aspect-locked: the square data area fills the plot's shape (a locked aspect left wide margins, and
        # a short, wide plot showed the data as a thumbnail on a −15…15 axis).
        self.plot.setAspectLocked(False)

        self.image = pg.ImageItem(axisOrder="col-major")
        self.image.setZValue(-10)
        item.addItem(self.image)
        self.colorbar = pg.ColorBarItem(
            values=(0.0, 1.0),
            colorMap=probability_colormap(self.colors),
            interactive=False,
            width=16,
            label="P(class 1)",
        )
        # Beside the plot but not tied to the image: the image is RGBA already (region_rgba), painted with the bar's
        # own colors; a tied bar would take the image's byte levels (0…255) as its scale.
        self.colorbar.setImageItem([], insert_in=item)
        self.contour = pg.PlotCurveItem(connect="pairs")
        self.contour.setZValue(5)
        item.addItem(self.contour)

        self._brushes = [pg.mkBrush(c) for c in self.colors.class_colors]
        self._ring_pens = [pg.mkPen(c, width=2.5) for c in self.colors.class_colors]
        self.classes = 2
        # Points of a clicked confusion-matrix cell, ringed.
        self.highlight_ring = pg.ScatterPlotItem(size=20, pen=pg.mkPen(self.colors.selection, width=2.5), brush=None)
        self.highlight_ring.setZValue(19)
        item.addItem(self.highlight_ring)
        self.highlighted: dict[str, np.ndarray] = {}
        self.train_points = pg.ScatterPlotItem(size=9, name="train")
        self.test_points = pg.ScatterPlotItem(size=10, brush=pg.mkBrush(None), name="test")
        self.train_points.setZValue(10)
        self.test_points.setZValue(11)
        item.addItem(self.train_points)
        item.addItem(self.test_points)
        self.selection_ring = pg.ScatterPlotItem(size=24, brush=None)
        self.selection_ring.setZValue(20)
        item.addItem(self.selection_ring)
        self.selected: tuple[float, float, int] | None = None
        # Until the training process sends its first map (about a second): a plain −2…2 plane and a word on what
        # is happening, not pyqtgraph's ±0.5.  The map's extent comes with the map (the service computes it).
        self.placeholder = pg.TextItem("Starting the training process…", anchor=(0.5, 0.5))
        self.placeholder.setZValue(30)
        item.addItem(self.placeholder)
        item.setRange(xRange=(-2.0, 2.0), yRange=(-2.0, 2.0), padding=0)

        self.mode = "inspect"
        self.mode_group = QButtonGroup(self)
        self.mode_buttons: dict[str, QToolButton] = {}
        self.tools = QWidget()  # (one widget: a lesson steps the paint tools back as one control)
        self.tools.setObjectName("boundaryTools")
        tools = FlowLayout(self.tools)  # wraps onto two lines in a narrow column
        for mode in MODES:
            button = QToolButton()
            button.setText(MODE_LABELS[mode])
            button.setCheckable(True)
            button.setToolTip(MODE_TIPS[mode])
            button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
            if mode in PAINT_MODES:
                _class_colors(button, int(mode[-1]), self.colors)
                button.setVisible(int(mode[-1]) < 2)
            self.mode_group.addButton(button)
            self.mode_buttons[mode] = button
            button.toggled.connect(lambda on, m=mode: on and self.set_mode(m))
            tools.addWidget(button)
        self.mode_buttons["inspect"].setChecked(True)
        self.clear_button = QPushButton("Clear all")
        self.clear_button.setToolTip("Remove every point; then paint a new data set from an empty plane")
        self.clear_button.clicked.connect(self.clear_requested)
        tools.addSpacing(8)
        tools.addWidget(self.clear_button)
        self._press: tuple[QPoint, tuple[str, int] | None] | None = None  # where a press began, the point it hit
        self._dragging = False
        self.plot.viewport().installEventFilter(self)
        item.getViewBox().sigResized.connect(self._fit_axis_labels)

        self.discretize = QCheckBox("Discretize")
        self.discretize.setToolTip("Color each point of the plane by the predicted class only (P > 0.5 or not)")
        self.show_test = QCheckBox("Show test data")
        self.show_test.setChecked(True)
        self.show_test.setToolTip("Draw the held-out test points (hollow circles) on the map")
        self.discretize.toggled.connect(self._redraw_image)
        self.discretize.toggled.connect(self.toggles_changed)
        self.show_test.toggled.connect(self.test_points.setVisible)
        self.show_test.toggled.connect(self.toggles_changed)
        key = KeyLabel()
        key.setObjectName("hintLabel")
        key.setWordWrap(True)
        self.key = key
        self._show_key()

        toggles = FlowLayout()  # toggles and the key share a line (two when narrow): the plot keeps the height
        toggles.addWidget(self.discretize)
        toggles.addWidget(self.show_test)
        toggles.addWidget(key)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.tools)
        layout.addWidget(self.plot, 1)
        layout.addLayout(toggles)

        self._dataset = None
        self._X: dict[str, np.ndarray] = {}
        self._y: dict[str, np.ndarray] = {}
        self._grid = None
        self._extent = None
        self.apply_palette(self.colors)

    def apply_palette(self, pal: Palette, presentation: bool | None = None) -> None:
        """The theme's colors (map, points, contour, axes, key) and the mode's text sizes."""
        self.colors = pal
        style_plot(self.plot, pal, presentation)
        set_plot_title(self.plot, self.plot.plain_title, pal, presentation)
        self.colorbar.setColorMap(probability_colormap(pal))
        readable_ticks(self.colorbar.axis)  # fewer ticks on a short bar
        # the bar's numbers in the axes' size, and room for them ("1.0" was cut to "1." at pyqtgraph's 45 px)
        tick_font = plot_font(presentation)
        self.colorbar.axis.setStyle(tickFont=tick_font)
        self.colorbar.axis.setWidth(math.ceil(QFontMetricsF(tick_font).horizontalAdvance("0.00") + 18))
        self.colorbar.axis.setPen(pal.axis)
        self.colorbar.axis.setTextPen(pal.plot_text)
        self.colorbar.axis.labelStyle = {
            "color": pal.plot_text,
            "font-size": f"{plot_text_size(presentation, 0.9):.1f}pt",  # grows in presentation mode as the axes do
        }
        self.colorbar.axis._updateLabel()
        title = self.colorbar.getAxis("left")  # a vertical bar's label ("P(class 1)") is on its other side
        readable_ticks(title)  # (hidden when the bar is shorter than it)
        title.labelStyle = dict(self.colorbar.axis.labelStyle)
        title._updateLabel()
        self.contour.setPen(pg.mkPen(pal.contour, width=2.5))
        self._brushes = [pg.mkBrush(c) for c in pal.class_colors]
        self._ring_pens = [pg.mkPen(c, width=2.5) for c in pal.class_colors]
        self.train_points.setPen(pg.mkPen(pal.point_outline, width=1))
        self.selection_ring.setPen(pg.mkPen(pal.selection, width=3.5))
        self.highlight_ring.setPen(pg.mkPen(pal.selection, width=2.5))
        self.placeholder.setColor(pal.muted)
        for mode in PAINT_MODES:
            _class_colors(self.mode_buttons[mode], int(mode[-1]), pal)
        self._show_key()
        self._fit_axis_labels()  # the mode's text size changes what fits
        if self._X:
            self._draw_points()
        self._redraw_image()

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        refit_title(self.plot)  # a long title is cut short rather than widen the plot past its view

    # --------------------------------------------------------------- updates

    def _show_key(self) -> None:
        """The legend: one swatch per class, what filled and hollow mean, what the lines are."""
        colors = self.colors.class_colors
        swatches = " &nbsp; ".join(
            f"<span style='white-space:nowrap'><span style='color:{colors[k]}'>●</span> "
            f"{html.escape(self.class_label(k))}</span>"
            for k in range(self.classes)
        )
        # a line breaks between entries, never inside one; "○ test" only when there are test points to draw
        has_test = len(getattr(self, "_X", {}).get("test", ())) > 0
        test = " &nbsp; <span style='white-space:nowrap'>○ test</span>" if has_test else ""
        line = "white" if self.colors.name == "dark" else "black"
        lines = f"{line} line = boundary (P = 0.5)" if self.classes == 2 else f"{line} lines = class boundaries"
        if self.key.text() != swatches + test:  # (unchanged: not set again, no re-layout)
            self.key.setText(swatches + test)
        self.key.setToolTip(f"Filled = train, hollow = test; {lines}" if has_test else f"Filled = train; {lines}")

    def class_label(self, k: int) -> str:
        """Class ``k`` by its data set's name (iris: setosa …), else ``class k``."""
        return class_name(k, getattr(getattr(self, "_dataset", None), "class_names", None))

    def axis_labels(self) -> tuple[str, str]:
        """The axes' text: the inputs' names with the data's own beside them (``x1 · PC1``), else x1, x2."""
        dataset = getattr(self, "_dataset", None)
        if dataset is None or not hasattr(dataset, "input_label"):
            return input_name(0), input_name(1)
        return dataset.input_label(0), dataset.input_label(1)

    def _show_names(self) -> None:
        """Axes, legend, paint tools and title in the data's own names (a new data set may bring new ones)."""
        self._fit_axis_labels()
        for k in range(MAX_CLASSES):
            name = self.class_label(k)
            button = self.mode_buttons[f"paint{k}"]
            button.setText(f"Paint {name}")
            button.setToolTip(f"Click to add a point of {name}; it joins the training set and training goes on")
        self._set_title()
        self._show_key()

    def _fit_axis_labels(self, *_args) -> None:
        """Each axis says ``x1 · PC1`` where the data area has room for it, else ``x1`` (the whole name then in
        the axis's tooltip): a short plot (presentation mode at 1024×700) keeps a readable label."""
        item = self.plot.getPlotItem()
        box = item.getViewBox()
        room = {"bottom": box.width(), "left": box.height()}
        for index, (side, full) in enumerate(zip(("bottom", "left"), self.axis_labels())):
            axis = item.getAxis(side)
            fits = QFontMetricsF(axis.label.font()).horizontalAdvance(full) <= room[side] - 8
            text = html.escape(full if fits else input_name(index))
            if axis.labelText != text:
                axis.labelText = text  # (keeps the palette's label style)
                axis._updateLabel()
            axis.setToolTip("" if fits else full)

    def _set_title(self) -> None:
        many = self.classes > 2
        title = (
            "Decision regions: color = class, intensity = confidence"
            if many
            else f"Decision boundary: P({self.class_label(1)})"
        )
        if title != self.plot.plain_title:
            self.plot.plain_title = title
            set_plot_title(self.plot, title, self.colors)
        bar = self.colorbar.getAxis("left")  # the color bar's own label: P(class 1), P(yes) …
        text = html.escape(f"P({self.class_label(1)})")
        if bar.labelText != text:
            bar.labelText = text  # (not setLabel: it would show a label hidden for a short bar)
            bar._updateLabel()

    def set_classes(self, classes: int) -> None:
        """Show the paint tools, legend and title for ``classes`` classes."""
        classes = max(2, min(MAX_CLASSES, int(classes)))
        if classes == self.classes:
            return
        self.classes = classes
        for k in range(MAX_CLASSES):
            self.mode_buttons[f"paint{k}"].setVisible(k < classes)
        if self.mode in PAINT_MODES and int(self.mode[-1]) >= classes:
            self.set_mode("inspect")
        many = classes > 2
        self.colorbar.setVisible(not many)
        self._set_title()
        self.discretize.setToolTip(
            "Color each point of the plane by the predicted class only"
            + (" (full color, whatever the confidence)" if many else " (P > 0.5 or not)")
        )
        self._show_key()
        self._redraw_image()

    def highlight(self, masks: dict[str, np.ndarray] | None) -> None:
        """Ring the points selected by boolean ``masks`` per part ("train", "test"); None clears."""
        self.highlighted = {k: np.asarray(v, bool) for k, v in (masks or {}).items()}
        xs, ys = [], []
        for part, mask in self.highlighted.items():
            X = self._X.get(part)
            if X is not None and len(X) == len(mask):
                xs.append(X[mask, 0])
                ys.append(X[mask, 1])
        if xs:
            self.highlight_ring.setData(np.concatenate(xs), np.concatenate(ys))
        else:
            self.highlight_ring.setData([], [])

    def update_snapshot(self, snap: Snapshot) -> None:
        if snap.dataset is not self._dataset and snap.dataset is not None:
            self.set_dataset(snap.dataset)
        if snap.grid is not None:
            self.set_classes(snap.grid.classes)
            self._grid = snap.grid
            self._redraw_image()
            self.contour.setData(snap.grid.boundary_x, snap.grid.boundary_y)

    def set_dataset(self, dataset) -> None:
        """Draw the points of ``dataset`` (train filled, test hollow)."""
        if dataset is self._dataset:
            return
        names = (getattr(self._dataset, "class_names", None), getattr(self._dataset, "feature_names", None))
        self._dataset = dataset
        if names != (getattr(dataset, "class_names", None), getattr(dataset, "feature_names", None)):
            self._show_names()
        self._X = {
            "train": np.asarray(dataset.X_train, float).reshape(-1, 2).copy(),
            "test": np.asarray(dataset.X_test, float).reshape(-1, 2).copy(),
        }
        self._y = {"train": np.asarray(dataset.y_train, int), "test": np.asarray(dataset.y_test, int)}
        self._draw_points()
        self._show_key()  # (a test set or none)
        self.highlight(None)  # the highlighted points were those of other data
        if self.selected is not None and self.find_point(*self.selected) is None:
            self.clear_selection()  # the selected point was erased

    def _draw_points(self, which=("train", "test")) -> None:
        if "train" in which:
            self.train_points.setData(pos=self._X["train"], brush=[self._brushes[c] for c in self._y["train"]])
        if "test" in which:
            self.test_points.setData(
                pos=self._X["test"], pen=[self._ring_pens[c] for c in self._y["test"]], brush=pg.mkBrush(None)
            )

    def _redraw_image(self) -> None:
        grid = self._grid
        if grid is None:
            return
        self.placeholder.hide()
        rgba = region_rgba(grid, discrete=self.discretize.isChecked(), **region_colors(self.colors))
        # The grid is row-major (rgba[i, j] at y_i, x_j); the image item wants [x, y].
        self.image.setImage(np.ascontiguousarray(rgba.transpose(1, 0, 2)), autoLevels=False, levels=(0, 255))
        if grid.extent != self._extent:  # the service's extent, as it arrives
            self._extent = grid.extent
            x0, x1, y0, y1 = grid.extent
            n_y, n_x = grid.probability.shape
            dx, dy = (x1 - x0) / (n_x - 1), (y1 - y0) / (n_y - 1)
            # Pixel centers sit on the grid points, so the contour and the colors line up.
            self.image.setRect(QRectF(x0 - dx / 2, y0 - dy / 2, x1 - x0 + dx, y1 - y0 + dy))
            self.plot.getPlotItem().setRange(xRange=(x0, x1), yRange=(y0, y1), padding=0)

    # ----------------------------------------------------------- selection

    def select(self, x: float, y: float, label: int) -> None:
        """Ring the point (x, y); it need not be a data point (typed coordinates)."""
        self.selected = (float(x), float(y), int(label))
        self.selection_ring.setData([x], [y])

    def clear_selection(self) -> None:
        self.selected = None
        self.selection_ring.setData([], [])

    def find_point(self, x: float, y: float, label: int | None = None) -> tuple[str, int] | None:
        """The data point exactly at (x, y) (of class ``label`` if given), or None."""
        for part in ("train", "test"):
            X = self._X.get(part) if self._dataset is not None else None
            if X is None or not len(X):
                continue
            hit = np.flatnonzero((X[:, 0] == x) & (X[:, 1] == y))
            for i in hit:
                if label is None or self._y[part][i] == label:
                    return part, int(i)
        return None

    # ---------------------------------------------------------- coordinates

    def to_view(self, x: float, y: float) -> QPoint:
        """Data coordinates → a pixel of the plot's viewport (where a click would land)."""
        return data_to_pixel(self.plot, x, y)

    def from_view(self, pos: QPoint) -> tuple[float, float]:
        return pixel_to_data(self.plot, pos)

    def nearest_point(self, pos: QPoint, within_px: float = HIT_PX) -> tuple[str, int] | None:
        """The drawn point nearest to pixel ``pos`` if it is within ``within_px`` pixels (test points if shown)."""
        if self._dataset is None:
            return None
        x, y = self.from_view(pos)
        sx, sy = self.plot.getPlotItem().getViewBox().viewPixelSize()
        best, best_d = None, within_px
        for part in ("train", "test") if self.show_test.isChecked() else ("train",):
            X = self._X[part]
            if not len(X):
                continue
            d = np.hypot((X[:, 0] - x) / sx, (X[:, 1] - y) / sy)
            i = int(np.argmin(d))
            if d[i] <= best_d:
                best, best_d = (part, i), float(d[i])
        return best

    # ---------------------------------------------------------------- tools

    def set_mode(self, mode: str) -> None:
        if mode not in MODES:
            raise ValueError(f"unknown mode {mode!r}; choose one of {', '.join(MODES)}")
        self.mode = mode
        if not self.mode_buttons[mode].isChecked():
            self.mode_buttons[mode].setChecked(True)
        cursor = Qt.CursorShape.ArrowCursor if mode == "inspect" else Qt.CursorShape.CrossCursor
        self.plot.viewport().setCursor(cursor)

    def eventFilter(self, watched, event) -> bool:
        kind = event.type()
        if watched is not self.plot.viewport() or kind not in (
            QEvent.Type.MouseButtonPress,
            QEvent.Type.MouseMove,
            QEvent.Type.MouseButtonRelease,
            QEvent.Type.MouseButtonDblClick,
        ):
            return super().eventFilter(watched, event)
        pos = event.position().toPoint()
        if kind == QEvent.Type.MouseButtonPress and event.button() == Qt.MouseButton.LeftButton:
            if not self._inside(pos):
                return False  # the axes and the color bar are not the plane
            self._press, self._dragging = (pos, self.nearest_point(pos)), False
            return True
        if kind == QEvent.Type.MouseMove and self._press is not None:
            start, hit = self._press
            if self.mode == "inspect" and hit is not None:
                if self._dragging or (pos - start).manhattanLength() >= DRAG_PX:
                    self._dragging = True
                    self._drag_to(hit, pos)
            return True
        if kind == QEvent.Type.MouseButtonRelease and self._press is not None:
            start, hit = self._press
            self._press = None
            if self._dragging:
                self._dragging = False
                x, y = self._clamped(pos)
                if self.selected is not None and self.find_point(*self.selected) == hit:
                    self.select(x, y, int(self._y[hit[0]][hit[1]]))
                self.point_moved.emit(hit[0], hit[1], x, y)
            else:
                self._click(start, hit)
            return True
        return kind != QEvent.Type.MouseMove  # a plain hover move still reaches pyqtgraph

    def _inside(self, pos: QPoint) -> bool:
        vb = self.plot.getPlotItem().getViewBox()
        return vb.sceneBoundingRect().contains(self.plot.mapToScene(pos))

    def _clamped(self, pos: QPoint) -> tuple[float, float]:
        """Data coordinates of ``pos``, kept inside the visible plane."""
        x, y = self.from_view(pos)
        (x0, x1), (y0, y1) = self.plot.getPlotItem().getViewBox().viewRange()
        return float(min(max(x, x0), x1)), float(min(max(y, y0), y1))

    def _drag_to(self, hit: tuple[str, int], pos: QPoint) -> None:
        part, i = hit
        self._X[part][i] = self._clamped(pos)
        self._draw_points((part,))

    def _click(self, pos: QPoint, hit: tuple[str, int] | None) -> None:
        if self.mode in PAINT_MODES:
            x, y = self._clamped(pos)
            self.point_painted.emit(x, y, int(self.mode[-1]))
        elif self.mode == "erase":
            if hit is None:
                self.message.emit(f"No point within {format_fixed(HIT_PX, 0)} pixels of the click: nothing erased.")
            else:
                self.point_erased.emit(*hit)
        elif hit is not None:
            part, i = hit
            x, y = (float(v) for v in self._X[part][i])
            label = int(self._y[part][i])
            self.select(x, y, label)
            self.point_picked.emit(x, y, label)

    def set_point_size(self, size: float) -> None:
        self.train_points.setSize(size)
        self.test_points.setSize(size + 1)

    # ---------------------------------------------------------------- state

    def view_state(self) -> dict:
        return {"discretize": self.discretize.isChecked(), "show_test": self.show_test.isChecked(), "mode": self.mode}

    def restore_view_state(self, state: dict) -> None:
        # the second key: what sessions saved before the one spelling called it
        self.discretize.setChecked(bool(state.get("discretize", state.get("discretise", False))))
        self.show_test.setChecked(bool(state.get("show_test", True)))
        if state.get("mode") in MODES:
            self.set_mode(state["mode"])
