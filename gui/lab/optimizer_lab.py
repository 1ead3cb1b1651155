"""The Optimizer lab area: type f(x, y) or pick a preset, click a start point, watch optimizers race.

Widgets only: the function, grid, race and timer live in ``LabState``
(``gui/lab/optimizer_lab_state.py``); the numbers in ``autograd_core.lab.surfaces`` and
``autograd_core.lab.race``.  The map is a pyqtgraph plot: the surface as filled
contour bands (log-spaced levels, inf/nan gray), optional gradient arrows, the
known minima (stars) and one path per racer.  A click on the map starts a race
there; a click on a path point opens that step's expression graph, with the
gradient that moved it, in the same graph view as the Expression tab.
"""

from __future__ import annotations

import html
import re
import time

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QEvent, QPoint, Qt, QTimer, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QApplication,
    QCheckBox,
    QComboBox,
    QFrame,
    QGraphicsItem,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from autograd_core.lab.race import EngineHessian, Racer
from autograd_core.lab.surfaces import PRESETS
from autograd_core.numbers import format_number

from ..expression.expression_editor import ExpressionEditor
from ..graph_view import GraphView, view_tool_buttons
from ..graph_view.graph_state import GraphState
from ..look.app_style import monospace_font
from ..look.theme import graph_colors, lab_colors
from ..plots.surface_image import BandKey, beside, show_bands
from ..training.training_style import data_to_pixel, map_plot, pixel_to_data, plot_font, style_axes
from .optimizer_lab_state import CUSTOM, SPEEDS, LabChange, LabState
from .results_table import ResultsTable

CLICK_PX = 4  # a press and release this close together is a click, not a pan
HIT_PX = 8  # a click this close to a path point picks that step
RANGE_DEBOUNCE_MS = 200  # after a zoom or pan, the grid is evaluated again for the new view
TABLE_INTERVAL_S = 0.1
NARROW_CHARS = 135  # below this many average characters of width, two columns: the step graph under the controls
CENTER_PX = 560  # … and when the map and its table would be narrower than this beside the two side columns
STEP_HINT = "Click a point of a path to see the graph of that step, with its gradient."


def formula_html(text: str) -> str:
    """An update rule as rich text: escaped, and each hatted letter (m̂, v̂: a letter and U+0302) in italics.
    With the upright face Qt drew the combining hat over another letter or at a line's end (lr̂, m without
    its hat); the italic face places it over its letter (and a variable is italic in maths anyway)."""
    return re.sub("(\\w\u0302)", r"<i>\1</i>", html.escape(text))


class OptimizerLabPanel(QWidget):
    """The lab tab."""

    status = Signal(str)
    title = "Optimizer lab"

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("optimizerLab")
        self.theme = "light"
        self.lab = LabState(self)
        self.step_state = GraphState(self)
        self.selected: tuple[int, int] | None = None  # (racer index, step) shown in the step graph
        self._press: QPoint | None = None
        self._table_time = 0.0

        # ---- left: function and controls
        self.preset_combo = QComboBox()
        self.preset_combo.setObjectName("labPresetCombo")
        self.preset_combo.addItems([*PRESETS, CUSTOM])
        self.preset_combo.setToolTip("A classic test function, or Custom: type your own f(x, y) below")
        self.preset_combo.currentTextChanged.connect(self._preset_chosen)
        self.editor = ExpressionEditor()
        self.editor.edit.setPlaceholderText("f(x, y), e.g.  (1 - x)**2 + 100*(y - x**2)**2")
        self.editor.edit.setToolTip(
            "Type f(x, y) in the expression language (the inputs are x and y; assignments and # comments work)"
        )
        self.editor.edit.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)  # a formula, not a program
        self.editor.setMaximumHeight(170)
        self.editor.text_edited.connect(self.lab.set_text)
        self.editor.evaluate_requested.connect(self.lab.set_text)
        self.note_label = QLabel()
        self.note_label.setObjectName("labNote")
        self.note_label.setWordWrap(True)
        self.arrows_box = QCheckBox("Gradient arrows (−∇f)")
        self.arrows_box.setToolTip("Draw the downhill direction −∇f on a grid; longer where the slope is steeper")
        self.arrows_box.toggled.connect(self.lab.set_show_arrows)
        self.play_button = QPushButton("Play")
        self.play_button.setObjectName("labPlayButton")
        self.play_button.setToolTip("Run the race, or pause it")
        self.play_button.clicked.connect(self._play_clicked)
        self.step_button = QPushButton("Step")
        self.step_button.setObjectName("labStepButton")
        self.step_button.setToolTip("Pause, then one step of every optimizer")
        self.step_button.clicked.connect(self.lab.step)
        self.reset_button = QPushButton("Reset")
        self.reset_button.setObjectName("labResetButton")
        self.reset_button.setToolTip("Every optimizer back to the start point, with fresh state")
        self.reset_button.clicked.connect(self.lab.reset)
        self.speed_combo = QComboBox()
        self.speed_combo.setObjectName("labSpeedCombo")
        for n in SPEEDS:
            self.speed_combo.addItem(f"{n} step{'s' if n > 1 else ''} / frame", n)
        self.speed_combo.setCurrentIndex(SPEEDS.index(self.lab.speed))
        self.speed_combo.setToolTip("How many steps each optimizer takes per frame (about 30 frames a second)")
        self.speed_combo.currentIndexChanged.connect(lambda _i: self.lab.set_speed(self.speed_combo.currentData()))
        buttons = QHBoxLayout()
        for b in (self.play_button, self.step_button, self.reset_button):
            buttons.addWidget(b)
        left = QWidget()
        left_layout = QVBoxLayout(left)
        left_layout.setContentsMargins(4, 4, 4, 4)
        head = QHBoxLayout()
        head.addWidget(QLabel("<b>f(x, y)</b>"))
        head.addStretch(1)
        head.addWidget(self.preset_combo)
        left_layout.addLayout(head)
        left_layout.addWidget(self.editor)
        left_layout.addWidget(self.note_label)
        left_layout.addWidget(self.arrows_box)
        race_label = QLabel("<b>Race</b> — click the map to start one there")
        race_label.setWordWrap(True)  # the column stays narrow in presentation mode: the map keeps the width
        left_layout.addWidget(race_label)
        left_layout.addLayout(buttons)
        left_layout.addWidget(self.speed_combo)
        self.timing_label = QLabel()
        self.timing_label.setObjectName("labTiming")
        self.timing_label.setWordWrap(True)
        self.timing_label.setToolTip("Time to evaluate the grid, and the last and longest animation frame")
        left_layout.addWidget(self.timing_label)
        self.newton_label = QLabel(f"Newton's Hessian comes from {EngineHessian.description}.")
        self.newton_label.setObjectName("labNewtonNote")
        self.newton_label.setWordWrap(True)
        left_layout.addWidget(self.newton_label)
        left_layout.addStretch(1)

        # ---- center: the map over the table
        self.plot, self.image = map_plot("labMap", "x", "y")
        item = self.plot.getPlotItem()
        # the scaled surface is kept as a pixmap: a frame that moves the paths blits it instead of rescaling it
        self.image.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
        self.arrow_item = pg.PlotDataItem(connect="pairs")
        self.plot.addItem(self.arrow_item)
        self.minima_item = pg.ScatterPlotItem(symbol="star", size=16)
        self.plot.addItem(self.minima_item)
        self.start_item = pg.ScatterPlotItem(symbol="o", size=14, brush=None)
        self.plot.addItem(self.start_item)
        self.path_items: list[pg.PlotCurveItem] = []  # lighter than PlotDataItem: set on every frame
        self.note_items: list[pg.TextItem] = []
        self._drawn: list[int] = []  # per racer: the path length last drawn
        self._shown_paths: dict[int, tuple] = {}
        self.heads = pg.ScatterPlotItem(size=11)
        self.heads.setZValue(11)
        self.plot.addItem(self.heads)
        self.selected_item = pg.ScatterPlotItem(symbol="o", size=20, brush=None)
        self.selected_item.setZValue(20)
        self.plot.addItem(self.selected_item)
        self.plot.viewport().installEventFilter(self)
        self._range_timer = QTimer(self)
        self._range_timer.setSingleShot(True)
        self._range_timer.setInterval(RANGE_DEBOUNCE_MS)
        self._range_timer.timeout.connect(self._range_settled)
        self._setting_range = False
        item.getViewBox().sigRangeChangedManually.connect(lambda *_: self._range_timer.start())

        self.results = ResultsTable(self.lab)
        self.results.status.connect(self.status)
        self.results.compact_changed.connect(self._share_height)
        self.table, self.table_tabs = self.results.table, self.results.tabs
        center = QSplitter(Qt.Orientation.Vertical)
        self.band_key = BandKey("f(x, y)")  # the map's color scale: which band is which value
        center.addWidget(beside(self.plot, self.band_key))
        center.addWidget(self.results)
        center.setStretchFactor(0, 3)
        center.setSizes([520, 260])

        # ---- right: one step explained
        self.view = GraphView()
        self.step_caption = QLabel(STEP_HINT)
        self.step_caption.setObjectName("labStepCaption")
        self.step_caption.setWordWrap(True)
        self.step_caption.setTextFormat(Qt.TextFormat.RichText)
        zoom_out, zoom_in, fit, export = view_tool_buttons(self.view, self._export_graph)
        bar = QHBoxLayout()
        bar.addWidget(QLabel("<b>One step explained</b>"))
        bar.addStretch(1)
        for b in (zoom_out, zoom_in, fit):
            bar.addWidget(b)
        export.setVisible(False)
        right = QWidget()
        right_layout = QVBoxLayout(right)
        right_layout.setContentsMargins(4, 4, 4, 4)
        right_layout.addLayout(bar)
        right_layout.addWidget(self.step_caption)
        right_layout.addWidget(self.view, 1)
        self.step_state.changed.connect(lambda _change: self.view.show_state(self.step_state))

        self.right = right
        self.center = center
        # the controls scroll up and down rather than squeeze their text
        self.controls = QScrollArea()
        self.controls.setObjectName("labControls")
        self.controls.setWidget(left)
        self.controls.setWidgetResizable(True)
        self.controls.setFrameShape(QFrame.Shape.NoFrame)
        self.controls.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        # narrow (1024 px in presentation mode): the controls and the step graph share the left column as two
        # tabs, the map keeps the width
        self.side_tabs = QTabWidget()
        self.side_tabs.setObjectName("labSideTabs")
        self.side_tabs.hide()
        self.side_tabs.currentChanged.connect(lambda _index: self._reflow())
        self._narrow = False
        self._shape = None  # (narrow, presentation, width) the columns were last shared for
        self.presentation = False
        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.setObjectName("labSplitter")
        self.splitter.addWidget(self.controls)
        self.splitter.addWidget(center)
        self.splitter.addWidget(right)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setSizes([300, 700, 380])
        for splitter in (self.splitter, center):  # a drag rescales the map once, on release (as in training)
            splitter.setOpaqueResize(False)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.splitter)

        self.lab.changed.connect(self._lab_changed)
        self.lab.message.connect(self.status)
        self.results.fill()
        self.editor.set_text(self.lab.text)
        self.set_theme("light")
        self._lab_changed(LabChange.SURFACE | LabChange.ERROR | LabChange.RACE | LabChange.PLAYING)

    # ------------------------------------------------------------ function

    def _preset_chosen(self, name: str) -> None:
        if name in PRESETS and name != self.lab.preset:
            self.lab.set_preset(name)
            self.editor.set_text(self.lab.text)

    def _range_settled(self) -> None:
        (x0, x1), (y0, y1) = self.plot.getPlotItem().getViewBox().viewRange()
        self.lab.set_box((x0, x1, y0, y1))

    # ------------------------------------------------------------ state -> widgets

    def _lab_changed(self, change: LabChange) -> None:
        lab = self.lab
        if change & LabChange.ERROR:
            self.editor.show_error(lab.error)
        if change & LabChange.SURFACE:
            self._draw_surface()
            self.preset_combo.blockSignals(True)
            self.preset_combo.setCurrentText(lab.preset)
            self.preset_combo.blockSignals(False)
            surface = PRESETS.get(lab.preset)
            self.note_label.setText(
                f"{surface.note}." if surface else "Your own function: no minima are known, so no distances."
            )
        if change & LabChange.RACE:
            if lab.race is not None:
                self.results.show_results()
            self._new_paths()
        if change & (LabChange.PATHS | LabChange.RACE):
            self._draw_paths()
            # while playing, the numbers change faster than anyone reads them: 10 times a second is enough
            now = time.monotonic()
            if not lab.playing or change & LabChange.RACE or now - self._table_time >= TABLE_INTERVAL_S:
                self.results.update_figures()
                self._table_time = now
        if change & LabChange.PLAYING and not lab.playing:
            self.results.update_figures()
        if change & LabChange.PLAYING:
            self.play_button.setText("Pause" if lab.playing else "Play")
        if change & (LabChange.PATHS | LabChange.SURFACE):
            self.timing_label.setText(
                f"Grid {lab.resolution}² in {lab.grid_ms:.1f} ms; frame {lab.last_tick_ms:.1f} ms "
                f"(longest {lab.max_tick_ms:.1f} ms)"
            )

    def _draw_surface(self) -> None:
        grid = self.lab.grid
        x0, x1, y0, y1 = grid.box
        n = len(grid.levels)
        show_bands(self.image, grid.values, grid.levels, grid.xs, grid.ys, self.theme)
        self.band_key.set_bands(grid.levels, self.theme)
        levels = ", ".join(format_number(v) for v in grid.levels[:: max(1, n // 5)])
        self.image.setToolTip(f"f(x, y), bands between log-spaced levels ({levels}, …); gray: inf or nan")
        if self.lab.arrows is not None:
            self.arrow_item.setData(*self.lab.arrows)
        else:
            self.arrow_item.setData([], [])
        mins = self.lab.minima
        self.minima_item.setData([m[0] for m in mins], [m[1] for m in mins])
        vb = self.plot.getPlotItem().getViewBox()
        (vx0, vx1), (vy0, vy1) = vb.viewRange()
        if not np.allclose((vx0, vx1, vy0, vy1), self.lab.box):
            self._setting_range = True
            vb.setRange(xRange=(x0, x1), yRange=(y0, y1), padding=0)
            self._setting_range = False

    def _new_paths(self) -> None:
        for item in (*self.path_items, *self.note_items):
            self.plot.removeItem(item)
        self.path_items, self.note_items, self._drawn = [], [], []
        self._clear_step()  # the step shown was a point of these paths: it goes with them
        self.selected_item.setData([], [])
        self.heads.setData([], [])
        race = self.lab.race
        start = self.lab.start
        self.start_item.setData(*(([start[0]], [start[1]]) if start else ([], [])))
        if race is None:
            self.results.fill()
            return
        for i, _racer in enumerate(race.racers):
            color = self._racer_color(i)
            path = pg.PlotCurveItem(pen=pg.mkPen(color, width=2.5), skipFiniteCheck=True)
            path.setZValue(10)
            note = pg.TextItem(color=color, anchor=(0, 1))
            note.setFont(plot_font(self.presentation))
            note.setZValue(12)
            for item in (path, note):
                self.plot.addItem(item)
            self.path_items.append(path)
            self.note_items.append(note)
            self._drawn.append(-1)
        # the same brush objects every frame, so the scatter item reuses its rendered symbols
        self._head_brushes = [pg.mkBrush(self._racer_color(i)) for i in range(len(race.racers))]
        self.results.fill()

    def _racer_color(self, racer_index: int) -> QColor:
        row = self.lab.race_rows[racer_index]
        racers = lab_colors(self.theme).racers
        return racers[row % len(racers)]

    def _draw_paths(self) -> None:
        """Redraw the paths that moved, and every racer's head (one scatter item for all: one call a frame)."""
        race = self.lab.race
        if race is None:
            return
        heads_x, heads_y, brushes, symbols = [], [], [], []
        for i, (racer, path, note) in enumerate(zip(race.racers, self.path_items, self.note_items)):
            xs, ys = self._shown_paths[i] if self._drawn[i] == len(racer.path_x) else (None, None)
            if xs is None:
                xs, ys = finite_path(racer, self.lab.box)
                path.setData(xs, ys)
                self._drawn[i] = len(racer.path_x)
                self._shown_paths[i] = (xs, ys)
                diverged = racer.diverged and len(xs)
                note.setText(f"{racer.spec.label}: diverged" if diverged else "")
                if diverged:
                    self._place_note(note, xs[-1], ys[-1])
            if len(xs):
                heads_x.append(xs[-1])
                heads_y.append(ys[-1])
                brushes.append(self._head_brushes[i])
                symbols.append("x" if racer.diverged else "o")
        self.heads.setData(heads_x, heads_y, brush=brushes, symbol=symbols)

    def _place_note(self, note, x: float, y: float) -> None:
        """A diverged racer's note where its path leaves the map (its last point is often far outside)."""
        x0, x1, y0, y1 = self.lab.box
        px, py = min(max(x, x0), x1), min(max(y, y0), y1)
        note.setAnchor((1.0 if px > (x0 + x1) / 2 else 0.0, 0.0 if py > (y0 + y1) / 2 else 1.0))
        note.setPos(px, py)

    # ------------------------------------------------------------ clicks

    def _play_clicked(self) -> None:
        if self.lab.playing:
            self.lab.pause()
        elif self.lab.race is not None and self.lab.race.running:
            self.lab.play()
        else:
            self.status.emit(
                "Click a start point on the map first." if self.lab.race is None else "Every racer has stopped."
            )

    def to_view(self, x: float, y: float) -> QPoint:
        """Data coordinates → a pixel of the map's viewport (where a click would land)."""
        return data_to_pixel(self.plot, x, y)

    def from_view(self, pos: QPoint) -> tuple[float, float]:
        return pixel_to_data(self.plot, pos)

    def eventFilter(self, watched, event) -> bool:
        if watched is self.plot.viewport():
            kind = event.type()
            if kind == QEvent.Type.MouseButtonPress and event.button() == Qt.MouseButton.LeftButton:
                self._press = event.position().toPoint()
            elif kind == QEvent.Type.MouseButtonRelease and event.button() == Qt.MouseButton.LeftButton:
                pos, start = event.position().toPoint(), self._press
                self._press = None
                if start is not None and (pos - start).manhattanLength() <= CLICK_PX and self._inside(pos):
                    self.click_at(pos)
        return super().eventFilter(watched, event)

    def _inside(self, pos: QPoint) -> bool:
        vb = self.plot.getPlotItem().getViewBox()
        return vb.sceneBoundingRect().contains(self.plot.mapToScene(pos))

    def click_at(self, pos: QPoint) -> None:
        """A click on the map: a path point opens its step; anywhere else starts a race."""
        hit = self.nearest_step(pos)
        if hit is not None:
            self.show_step(*hit)
            return
        x, y = self.from_view(pos)
        self.lab.start_race(x, y)

    def nearest_step(self, pos: QPoint, within_px: float = HIT_PX) -> tuple[int, int] | None:
        """(racer index, step) of the path point nearest to pixel ``pos``, if within ``within_px`` pixels."""
        race = self.lab.race
        if race is None:
            return None
        x, y = self.from_view(pos)
        sx, sy = self.plot.getPlotItem().getViewBox().viewPixelSize()
        best, best_d = None, within_px
        for i, racer in enumerate(race.racers):
            px, py = np.asarray(racer.path_x), np.asarray(racer.path_y)
            with np.errstate(invalid="ignore", over="ignore"):
                d = np.hypot((px - x) / sx, (py - y) / sy)
            d[~np.isfinite(d)] = np.inf
            if not len(d):
                continue
            k = int(np.argmin(d))
            if d[k] <= best_d:
                best, best_d = (i, k), float(d[k])
        return best

    def _clear_step(self) -> None:
        """No step chosen (a new function or race): the step view is blank with its hint, not an old graph."""
        self.selected = None
        self.step_state.show_root(None)
        self.step_caption.setText(STEP_HINT)

    def show_step(self, racer_index: int, k: int) -> None:
        """Open step k of a racer: f's graph at that point, backward done: the gradient that moved it on."""
        racer: Racer = self.lab.race.racers[racer_index]
        evaluation = racer.step_graph(k)
        root = evaluation.output
        root.zero_grad()  # the state's "done" mode runs the backward pass itself
        self.step_state.mode = "done"
        self.step_state.show_root(root)
        self.selected = (racer_index, k)
        if self._narrow:
            self.side_tabs.setCurrentWidget(self.right)  # the step graph shares the column with the controls
        self.selected_item.setPen(pg.mkPen(self._racer_color(racer_index), width=3))
        self.selected_item.setData([racer.path_x[k]], [racer.path_y[k]])
        f = format_number
        gx, gy = racer.grads[k]
        there = f"({f(racer.path_x[k])}, {f(racer.path_y[k])})"
        if k < racer.steps:
            moved = f"moved it to ({f(racer.path_x[k + 1])}, {f(racer.path_y[k + 1])})"
            rule = formula_html(racer.optimizer.formula or racer.optimizer.name)
            how = f"Step {k + 1} of <b>{racer.spec.label}</b> (lr {f(racer.spec.lr)}; {rule}) {moved}."
        else:
            how = f"The latest point of <b>{racer.spec.label}</b>: its next step starts from this gradient."
        self.step_caption.setText(
            f"At {there}: f = {f(racer.losses[k])}, ∇f = ({f(gx)}, {f(gy)}) — the gradients on the leaves "
            f"x and y below. {how}"
        )
        which = f"step {k + 1}" if k < racer.steps else "the latest point"
        self.status.emit(f"{racer.spec.label}, {which}: its graph, with the gradient that moved it.")

    # ------------------------------------------------------------ look, export

    def set_theme(self, theme: str) -> None:
        self.theme = theme
        self.results.set_theme(theme)
        colors = graph_colors(theme)
        lab = lab_colors(theme)
        self.plot.setBackground(colors.background)
        self._style_axes()
        self.arrow_item.setPen(pg.mkPen(lab.arrows, width=1.2))
        self.minima_item.setBrush(pg.mkBrush(lab.minimum))
        self.minima_item.setPen(pg.mkPen(colors.background, width=1))
        self.start_item.setPen(pg.mkPen(lab.start, width=2))
        self.heads.setPen(pg.mkPen(lab.text, width=1))
        self.view.set_theme(theme)
        self.editor.set_dark(theme == "dark")
        self._draw_surface()
        selected = self.selected
        self._new_paths()
        self._draw_paths()
        if selected is not None:
            self.show_step(*selected)

    def hideEvent(self, event) -> None:
        """A race in a tab nobody sees would only slow the others down: it pauses (Play goes on)."""
        self.lab.pause()
        super().hideEvent(event)

    def set_presentation(self, on: bool) -> None:
        self.presentation = on
        self.view.set_presentation(on)
        self.editor.edit.setFont(monospace_font(QApplication.font().pointSizeF() * 1.15))
        self._style_axes()
        self._reflow()
        self.results.measure_columns()  # (in the new font)

    def _style_axes(self) -> None:
        """Axis text in the theme's color and the mode's plot text size (≥ 1.5× in presentation mode)."""
        colors = graph_colors(self.theme)
        style_axes(self.plot, colors.muted.name(), colors.text.name(), self.presentation, ("bottom", "left"))
        font = plot_font(self.presentation)
        for note in self.note_items:
            note.setFont(font)

    # ---- reflow

    def _reflow(self) -> None:
        """Three columns need about 135 characters of width: narrower (1280 px in presentation mode), the step
        graph moves under the controls and the map keeps the rest of the width.  Hidden, the lab keeps its
        arrangement (a mode switch elsewhere changes its font): it reflows once when shown, not twice."""
        if not self.isVisible():
            return
        # the controls scroll up and down only: as wide as their content (in the font in use) and a scroll bar
        content = self.controls.widget().minimumSizeHint().width()
        self.controls.setMinimumWidth(content + self.controls.verticalScrollBar().sizeHint().width() + 2)
        chars = self.width() / max(1, self.fontMetrics().averageCharWidth())
        side = min(330, int(self.width() * 0.24))
        step = int(side * 1.5) if self.presentation else side + 60
        # (1024 px in normal mode: the map and its table would keep a third of the width)
        narrow = chars < NARROW_CHARS or self.width() - side - step < CENTER_PX
        stepping = narrow and self.side_tabs.currentWidget() is self.right
        shape = (narrow, self.presentation, self.width(), stepping)
        if shape == self._shape:
            return
        self._shape = shape  # a new size or mode: the columns' shares again (a drag keeps its own until then)
        width = max(self.width(), 1)
        if narrow != self._narrow:
            self._narrow = narrow
            if narrow:
                self.side_tabs.addTab(self.controls, "Race")
                self.side_tabs.addTab(self.right, "One step")
                self.splitter.insertWidget(0, self.side_tabs)
                self.side_tabs.show()
                if self.selected is not None:
                    self.side_tabs.setCurrentWidget(self.right)
            else:
                self.splitter.insertWidget(0, self.controls)
                self.splitter.insertWidget(self.splitter.indexOf(self.center) + 1, self.right)
                self.side_tabs.hide()  # (it stays in the splitter, hidden: it gets no width)
            self.controls.show()
            self.right.show()
        if narrow:
            # the column in view gets the room: the step graph's text is 1.5× on a projector (its legend then
            # fits on one line), the race's controls need less
            share = (0.56 if stepping else 0.39) if self.presentation else 0.36
            sizes = {self.side_tabs: int(width * share), self.center: width - int(width * share)}
        else:
            # the step graph is a tall, narrow column: its width sets its size, and its text is 1.5× in presentation
            sizes = {self.controls: side, self.center: width - side - step, self.right: step}
        self.splitter.setSizes([sizes.get(self.splitter.widget(i), 0) for i in range(self.splitter.count())])
        self._share_height()

    def _share_height(self) -> None:
        """The table as tall as every racer's row needs (with its header, and the view tabs when shown), up to
        half of the center's height; the map takes the rest.  (A drag keeps its own until the next size.)"""
        total = sum(self.center.sizes())
        if total <= 0:
            return
        height = min(self.results.needed_height(), total // 2)
        self.center.setSizes([total - height, height])

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._reflow()

    def showEvent(self, event) -> None:
        super().showEvent(event)
        self._reflow()

    def changeEvent(self, event) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange:
            self._reflow()

    def export_image(self, path: str) -> None:
        """The map as PNG or SVG (with the paths)."""
        if path.lower().endswith(".svg"):
            from pyqtgraph.exporters import SVGExporter

            SVGExporter(self.plot.getPlotItem()).export(path)
        elif not self.plot.grab().save(path):
            raise OSError(f"could not write {path}")
        self.status.emit(f"Map saved to {path}")

    def _export_graph(self) -> None:
        pass


def finite_path(racer: Racer, box: tuple[float, float, float, float]) -> tuple[np.ndarray, np.ndarray]:
    """The racer's path to draw: without the non-finite point a divergence may end on, and kept within
    ten box sizes of the view (a diverging path reaches 1e300, which no painter can draw)."""
    xs, ys = np.asarray(racer.path_x, dtype=float), np.asarray(racer.path_y, dtype=float)
    if racer.stopped:
        ok = np.isfinite(xs) & np.isfinite(ys)
        xs, ys = xs[ok], ys[ok]
    x0, x1, y0, y1 = box
    w, h = x1 - x0, y1 - y0
    return np.clip(xs, x0 - 10 * w, x1 + 10 * w), np.clip(ys, y0 - 10 * h, y1 + 10 * h)
