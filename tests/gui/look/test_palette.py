"""One palette per theme: no view writes a color of its own, every text color reads, and a theme switch recolors
the live widgets (the gradient check's verdicts, the status bar's inf/nan line, the editor's syntax colors…).
The color difference itself (CIELAB, CIEDE2000) is tested in tests/core/drawing/test_color_difference.py."""

from __future__ import annotations

import ast
import itertools
import re
from pathlib import Path

import pytest
from conftest import new_main_window
from PySide6.QtCore import Qt
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QApplication

from autograd_core.drawing.color_difference import CVD_KINDS, delta_e, lab, nearest, simulate
from gui.look.theme import (
    CLASS_TEXT_ON,
    PALETTES,
    SYNTAX_KINDS,
    TEXT_ON,
    Palette,
    contrast_ratio,
    graph_colors,
    palette,
    readable_text,
)
from tests.expression_gui_helpers import LAYOUT_WAIT_MS

pytestmark = [pytest.mark.qt_log_level_fail("WARNING"), pytest.mark.qt_log_ignore("propagateSizeHints")]

GUI = Path(__file__).resolve().parents[3] / "gui"

# ------------------------------------------------------------------ no color outside the theme

HEX = re.compile(r"(?<![\w&])#(?:[0-9a-fA-F]{8}|[0-9a-fA-F]{6}|[0-9a-fA-F]{3,4})(?![\w])")
STYLE_VALUE = re.compile(r"\b(?:color|background(?:-color)?|border(?:-color)?)\s*:[^;{}]*?(?:#|rgba?\(|\b[a-z]+\s*;)")
COLOR_CALLS = {"QColor", "mkColor", "mkPen", "mkBrush", "QPen", "QBrush", "setColor", "setBackground"}
COLOR_KEYWORDS = {"color", "background", "foreground", "pen", "brush", "symbolBrush", "symbolPen"}
QT_COLOR_NAMES = {"white", "black", "red", "green", "blue", "cyan", "magenta", "yellow", "gray", "darkGray"}
COLOR_WORDS = QT_COLOR_NAMES | {"gray", "orange", "purple", "w", "k", "r", "g", "b", "c", "m", "y"}
# (file, a fragment of the offending line): why it may stay.
ALLOWED: dict[tuple[str, str], str] = {
    ("gui/look/tab_frame.py", "Qt.GlobalColor.transparent"): "clears a cached picture before Fusion paints on it",
}


def _literal_color(node: ast.AST) -> bool:
    """A literal that names a color: "#fff", "white", "w", or numbers (QColor(255, 0, 0))."""
    if isinstance(node, ast.Constant):
        if isinstance(node.value, str):
            return bool(HEX.search(node.value)) or node.value in COLOR_WORDS
        return isinstance(node.value, int | float) and not isinstance(node.value, bool)
    return False


def hard_coded_colors(path: Path) -> list[tuple[int, str]]:
    """(line, what) for every color written in ``path`` instead of taken from the theme."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if HEX.search(node.value) or STYLE_VALUE.search(node.value):
                found.append((node.lineno, repr(node.value[:60])))
        elif isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if name in COLOR_CALLS and node.args and all(_literal_color(a) for a in node.args):
                found.append((node.lineno, f"{name}(literal)"))
            for kw in node.keywords:
                if kw.arg in COLOR_KEYWORDS and _literal_color(kw.value):
                    found.append((node.lineno, f"{kw.arg}={ast.unparse(kw.value)}"))
        elif isinstance(node, ast.Attribute):
            if node.attr == "GlobalColor" or (
                node.attr in QT_COLOR_NAMES and isinstance(node.value, ast.Name) and node.value.id == "Qt"
            ):
                found.append((node.lineno, ast.unparse(node)))
    return found


def test_the_scanner_finds_what_it_looks_for(tmp_path):
    sample = tmp_path / "view.py"
    sample.write_text(
        "a = QColor('#d0021b')\n"
        "b = QColor(255, 0, 30, 40)\n"
        "label.setStyleSheet('color: red; font-weight: bold;')\n"
        "c = pg.PlotWidget(background='w')\n"
        "d = Qt.GlobalColor.white\n"
        "e = f\"<span style='color:{pal.error}'>x</span>\"\n"  # from the palette: fine
        "f = pg.mkPen(pal.axis, width=2)\n"  # fine
        "g = 'issue #12 and &#123;'\n"  # not colors
        "h = 'border: 1px solid #c0001a;'\n",
        encoding="utf-8",
    )
    assert sorted({line for line, _ in hard_coded_colors(sample)}) == [1, 2, 3, 4, 5, 9]


def colors_outside_the_theme(gui: Path) -> list[str]:
    """``path:line: what`` for every color written in a module of ``gui`` (every folder of it) but
    the theme's own."""
    offences = []
    for path in sorted(gui.rglob("*.py")):
        name = path.relative_to(gui.parent).as_posix()
        if name == "gui/look/theme.py":
            continue
        lines = path.read_text(encoding="utf-8").splitlines()
        for line, what in hard_coded_colors(path):
            text = lines[line - 1]
            if not any(allowed == name and fragment in text for allowed, fragment in ALLOWED):
                offences.append(f"{name}:{line}: {what}")
    return offences


def test_a_color_in_a_nested_gui_module_is_found(tmp_path):
    gui = tmp_path / "gui"
    for name, text in {
        "__init__.py": "",
        "look/theme.py": "LIGHT = '#ffffff'\n",  # the palette itself may name colors
        "plots/deep/curve.py": "from PySide6.QtGui import QColor\nPEN = QColor('#d0021b')\n",
        "training/panel.py": "label.setStyleSheet(f'color: {pal.error};')\n",  # from the palette: fine
    }.items():
        (gui / name).parent.mkdir(parents=True, exist_ok=True)
        (gui / name).write_text(text, encoding="utf-8")
    assert sorted(colors_outside_the_theme(gui)) == [
        "gui/plots/deep/curve.py:2: '#d0021b'",
        "gui/plots/deep/curve.py:2: QColor(literal)",
    ]


def test_no_view_writes_a_color_of_its_own():
    """Every color of gui/ comes from gui/look/theme.py (the palette of the theme applied)."""
    assert len(list(GUI.rglob("*.py"))) > 50  # every folder of the app is read
    assert colors_outside_the_theme(GUI) == []


# ------------------------------------------------------------------ contrast


@pytest.mark.parametrize("theme", sorted(PALETTES))
def test_every_text_color_reads_on_its_background(theme):
    """WCAG 2 contrast ratio ≥ 4.5 for every (text, background) pair the views draw, in both themes."""
    pal = palette(theme)
    low = []
    for text, background in TEXT_ON:
        ratio = contrast_ratio(getattr(pal, text), getattr(pal, background))
        if ratio < 4.5:
            low.append(f"{text} on {background}: {ratio:.2f}")
    for k, color in enumerate(pal.class_text):
        for background in CLASS_TEXT_ON:
            ratio = contrast_ratio(color, getattr(pal, background))
            if ratio < 4.5:
                low.append(f"class_text[{k}] on {background}: {ratio:.2f}")
    graph = graph_colors(theme)
    for name in ("text",):
        ratio = contrast_ratio(getattr(graph, name).name(), graph.background.name())
        if ratio < 4.5:
            low.append(f"graph {name}: {ratio:.2f}")
    assert low == []
    # every syntax color is one of the pairs checked, and every field named in TEXT_ON exists
    assert {f"syntax_{k}" for k in SYNTAX_KINDS} <= {t for t, _ in TEXT_ON}
    fields = set(Palette.__dataclass_fields__)
    assert {name for pair in TEXT_ON for name in pair} <= fields


def test_contrast_ratio_matches_the_wcag_examples():
    assert contrast_ratio("#000000", "#ffffff") == pytest.approx(21.0)
    assert contrast_ratio("#ffffff", "#ffffff") == pytest.approx(1.0)
    assert contrast_ratio("#777777", "#ffffff") == pytest.approx(4.48, abs=0.01)  # the classic near miss
    # readable_text picks the one of near-black/near-white with the higher ratio
    for fill in ("#1565c0", "#ef6c00", "#ffa040", "#2166ac", "#b2182b", "#ffffff", "#1e1f24"):
        chosen = readable_text(fill).name()
        other = "#f5f5f5" if chosen == "#111111" else "#111111"
        assert contrast_ratio(chosen, fill) >= contrast_ratio(other, fill)


# ------------------------------------------------------------------ the sign colors are not class colors

# ΔE00 a sign color keeps from every class color: the dark theme's two closest classes (pink and purple) are
# 18.1 apart and read as two colors, so 20 is "more different than any two classes"; a purple or green sign 10.0
# (light) or 8.5 (dark) from the purple and green classes reads as a shade of the same hue.
SIGN_FROM_CLASS = 20.0
# The same under a simulated color-vision deficiency: the classes' own closest pair is 7.3 (light) and 8.5 (dark)
# there (so no sign color can be asked to do much better than the classes do among themselves).
SIGN_FROM_CLASS_CVD = 6.0
SIGN_APART = 25.0  # the two signs from each other, seen normally and with each deficiency


@pytest.mark.parametrize("theme", sorted(PALETTES))
def test_sign_colors_are_far_from_every_class_color_and_from_each_other(theme):
    pal = palette(theme)
    negative, positive = pal.sign_colors
    closest_classes = min(delta_e(a, b) for a, b in itertools.combinations(pal.class_colors, 2))
    assert closest_classes >= 18.0  # what SIGN_FROM_CLASS is measured against
    for sign in pal.sign_colors:
        gap, which = nearest(sign, pal.class_colors)
        assert gap >= SIGN_FROM_CLASS, (theme, sign, which, round(gap, 1))
        for kind in CVD_KINDS:
            seen = [simulate(c, kind) for c in pal.class_colors]
            gap, which = nearest(simulate(sign, kind), seen)
            assert gap >= SIGN_FROM_CLASS_CVD, (theme, sign, kind, which, round(gap, 1))
        assert delta_e(sign, pal.error) >= SIGN_FROM_CLASS  # an edge never reads as an error mark
        # edges and the key's strokes are thin lines: they read at text contrast on the diagram's background
        assert contrast_ratio(sign, pal.plot_background) >= 4.5, (theme, sign)
    assert delta_e(negative, positive) >= SIGN_APART
    for kind in CVD_KINDS:
        assert delta_e(simulate(negative, kind), simulate(positive, kind)) >= SIGN_APART, kind
    # the words in the keys say what is drawn: gold has red > blue, a neutral has r = g = b
    assert pal.sign_names[0] == "gold" and lab(negative)[2] > 40  # yellow (b* > 0), not a gray
    r, g, b = (int(positive[i : i + 2], 16) for i in (1, 3, 5))
    assert r == g == b and pal.sign_names[1] == ("white" if lab(positive)[0] > 50 else "black")


# ------------------------------------------------------------------ the live switch


@pytest.fixture
def window(qtbot, tmp_path, in_process_training):
    w = new_main_window(qtbot, tmp_path)
    qtbot.waitUntil(lambda: not w.expression.view.busy)
    yield w
    w.expression.state.stop()
    w.set_theme("light")


def _type(qtbot, window, text):
    panel = window.expression
    edit = panel.editor.edit
    edit.setFocus()
    edit.selectAll()
    qtbot.keyClick(edit, Qt.Key.Key_Delete)
    qtbot.keyClicks(edit, text)
    qtbot.waitUntil(lambda: panel.state.text == text and not panel.editor.pending, timeout=3000)
    qtbot.waitUntil(lambda: not panel.view.busy, timeout=LAYOUT_WAIT_MS)


def _set_value(qtbot, window, name, value):
    spin = window.expression.inputs.rows[name].spin
    spin.setFocus()
    spin.lineEdit().selectAll()
    qtbot.keyClicks(spin.lineEdit(), str(value))
    qtbot.keyClick(spin.lineEdit(), Qt.Key.Key_Return)


def _text_color(widget) -> str:
    return widget.palette().color(QPalette.ColorRole.WindowText).name()


def _syntax_colors(edit) -> dict[str, str]:
    """The color the highlighter really gave each highlighted word of the first line, read from the layout (an
    operator's range takes the spaces around it, and neighbors of one format are one range: each word of it)."""
    block = edit.document().firstBlock()
    text = block.text()
    colors: dict[str, str] = {}
    for r in block.layout().formats():
        run, color = text[r.start : r.start + r.length], r.format.foreground().color().name()
        colors[run.strip()] = color
        for word in run.split():
            colors.setdefault(word, color)
    return colors


def _switch(qtbot, window, theme):
    window.menus.theme_actions[theme].trigger()  # the menu's own action
    assert (
        window.theme == theme
        and QApplication.instance().palette().color(QPalette.ColorRole.Window).name() == palette(theme).window
    )


def test_a_theme_switch_recolors_verdicts_status_editor_and_error_lines(qtbot, window):
    panel = window.expression
    _type(qtbot, window, "relu(x) + 2*a*b  # a kink at x = 0")
    _set_value(qtbot, window, "x", 0)
    qtbot.mouseClick(panel.inputs.gradcheck, Qt.MouseButton.LeftButton)
    # before Backward a verdict is pending: italic, in the ordinary text color
    row = panel.inputs.rows["x"]
    assert row.verdict == "pending" and row.error.font().italic() and _text_color(row.error) == palette().window_text
    qtbot.mouseClick(panel.backward.backward_button, Qt.MouseButton.LeftButton)
    bad, good = panel.inputs.rows["x"], panel.inputs.rows["a"]
    assert bad.verdict == "mismatch" and good.verdict == "ok"
    sample = window.areas["sample"].error_label if "sample" in window.areas else None
    for theme in ("light", "dark", "light"):
        if theme != window.theme:
            _switch(qtbot, window, theme)
        pal = palette(theme)
        assert _text_color(bad.error) == pal.error and bad.error.font().bold()
        assert _text_color(good.error) == pal.ok and not good.error.font().bold()
        assert _text_color(window.non_finite_label) == pal.error
        if sample is not None:
            assert _text_color(sample) == pal.error
        colors = _syntax_colors(panel.editor.edit)
        assert colors["relu"] == pal.syntax_function
        assert colors["# a kink at x = 0"] == pal.syntax_comment
        assert colors["2"] == pal.syntax_number
        assert colors["+"] == pal.syntax_operator
    # a gradient that is not finite: its verdict and the status bar's line are red in either theme
    _type(qtbot, window, "log(x)")
    _set_value(qtbot, window, "x", -1)
    row = panel.inputs.rows["x"]
    assert not row.error.font().italic()
    assert row.verdict == "nonfinite" and _text_color(row.error) == palette("light").error
    qtbot.waitUntil(lambda: window.non_finite_label.isVisible())
    _switch(qtbot, window, "dark")
    assert _text_color(row.error) == palette("dark").error
    assert window.non_finite_label.grab().toImage().pixelColor(2, 2).name() != palette("light").window


def test_a_parse_error_is_underlined_in_the_theme_colors(qtbot, window):
    editor = window.expression.editor
    _type(qtbot, window, "tanh(a +")
    for theme in ("light", "dark"):
        if theme != window.theme:
            _switch(qtbot, window, theme)
        (selection,) = editor.edit.extraSelections()
        assert selection.format.underlineColor().name() == palette(theme).error
        assert selection.format.background().color().name() == palette(theme).error_span
        assert _text_color(editor.error_label) == palette(theme).error
