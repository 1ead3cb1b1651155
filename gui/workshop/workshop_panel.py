"""The Op workshop tab: the learner writes an op (its value and a derivative per input), the app checks the
derivative against the slope of the value, and a checked op is first-class everywhere in the app.

The maths is the core's (``autograd_core.language.workshop``): this panel only gathers the typed texts, shows the
article's ``_backward`` lines filled in from them as they are typed, runs the check on a click (in the GUI
thread: it answers in milliseconds, ``benchmarks/bench_workshop.py``), draws its verdict and says it in one
sentence, the field at fault marked.  The ops defined are listed from the registry's signal, and kept in the
app's settings so they come back on the next start (each checked again: one that no longer checks is said,
never used).
"""

from __future__ import annotations

import json

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from autograd_core.engine.custom_ops import CUSTOM_OPS
from autograd_core.language.workshop import (
    CheckResult,
    OpDefinition,
    define,
    load_definitions,
    save_definitions,
    undefine,
)

from ..look.app_style import monospace_font, set_text_role
from ..shell.number_box import NumberBox
from .derivative_plot import DerivativePlot
from .ops_signal import SAVED_OPS_KEY as SETTINGS_KEY
from .ops_signal import custom_ops_signal

STARTER = OpDefinition("soft", ("x",), "x / (1 + abs(x))", ("1 / (1 + abs(x))**2",))
MESSAGE_LIMIT = 600  # characters of a verdict on screen (the core's sentences are short; a pasted text is not)


def _short(text: str, limit: int = 40) -> str:
    return text if len(text) <= limit else text[:limit] + "…"


class WorkshopPanel(QWidget):
    """Fields, the ``_backward`` lines, the verdict and the list of ops on the left; the plot on the right."""

    status = Signal(str)
    checked = Signal(object)  # the CheckResult of each click of Check and define

    def __init__(self, settings=None, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("workshopPanel")
        self.settings = settings
        self.result: CheckResult | None = None
        self.refused_derivatives = 0  # derivatives refused as wrong since the fields were last cleared (lessons)
        self._loading = False
        self.marked: QWidget | None = None  # the field the last verdict named

        self.name = QLineEdit(STARTER.name)
        self.name.setObjectName("workshop_name")
        self.name.setToolTip("The op's name, typed in expressions as name(x): letters, digits and _")
        self.inputs = QLineEdit(", ".join(STARTER.inputs))
        self.inputs.setObjectName("workshop_inputs")
        self.inputs.setToolTip("One input (x) or two (x, y), separated by a comma")
        self.value = QLineEdit(STARTER.value)
        self.value.setObjectName("workshop_value")
        self.value.setToolTip("The op's value, in the expression language: x / (1 + abs(x))")
        self.derivatives = [QLineEdit(STARTER.derivatives[0]), QLineEdit()]
        self.derivative_labels = [QLabel(), QLabel()]
        for i, field in enumerate(self.derivatives):
            field.setObjectName(f"workshop_derivative_{i}")
            field.setToolTip("The local derivative for this input, in the expression language")
        self.lo, self.hi = NumberBox(-1e6, 1e6, 4), NumberBox(-1e6, 1e6, 4)
        self.lo.setObjectName("workshop_lo")
        self.hi.setObjectName("workshop_hi")
        self.lo.setValue(-3.0)
        self.hi.setValue(3.0)
        self.lo.setToolTip("The check's grid starts here (201 points; 21 × 21 for two inputs)")
        self.hi.setToolTip("The check's grid ends here")
        self.define_button = QPushButton("Check and define")
        self.define_button.setObjectName("workshop_define")
        self.define_button.setDefault(True)
        self.define_button.setToolTip(
            "Compare your derivative with the slope of your value on the range; if they agree, the op is yours"
        )
        self.clear_button = QPushButton("New op")
        self.clear_button.setToolTip("Empty the fields for a new op (your ops stay defined)")

        self.labels = {
            "name": QLabel("Name"),
            "inputs": QLabel("Inputs"),
            "value": QLabel("Value"),
            "range": QLabel("Range"),
        }
        range_row = QHBoxLayout()
        range_row.addWidget(self.lo, 1)
        range_row.addWidget(QLabel("to"))
        range_row.addWidget(self.hi, 1)
        form = QFormLayout()
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        form.addRow(self.labels["name"], self.name)
        form.addRow(self.labels["inputs"], self.inputs)
        form.addRow(self.labels["value"], self.value)
        for label, field in zip(self.derivative_labels, self.derivatives):
            form.addRow(label, field)
        form.addRow(self.labels["range"], range_row)
        self.form = form
        buttons = QHBoxLayout()
        buttons.addWidget(self.define_button)
        buttons.addWidget(self.clear_button)
        buttons.addStretch(1)

        self.code_title = QLabel("The article's form, filled in as you type")
        self.code = QPlainTextEdit()
        self.code.setObjectName("workshop_code")
        self.code.setReadOnly(True)
        self.code.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)  # (a narrow window wraps, never cuts)
        self.code.setFont(monospace_font())
        self.code.setToolTip("Your op in the article's engine: its value, then _backward adding local × out.grad")
        self.message = QLabel()
        self.message.setObjectName("workshop_message")
        self.message.setWordWrap(True)
        self.message.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.ops_title = QLabel("Your ops (typed by name in expressions, an activation in the network builder)")
        self.ops_title.setWordWrap(True)
        self.ops = QListWidget()
        self.ops.setObjectName("workshop_ops")
        self.ops.setToolTip("Click one to edit it again")
        self.remove_button = QPushButton("Remove")
        self.remove_button.setObjectName("workshop_remove")
        self.remove_button.setToolTip("Forget the selected op (graphs and networks built with it keep it)")

        left = QWidget()
        column = QVBoxLayout(left)
        column.addLayout(form)
        column.addLayout(buttons)
        column.addWidget(self.message)
        column.addWidget(self.code_title)
        column.addWidget(self.code)
        column.addWidget(self.ops_title)
        column.addWidget(self.ops)
        column.addWidget(self.remove_button, 0, Qt.AlignmentFlag.AlignLeft)
        column.addStretch(1)
        scroll = QScrollArea()
        scroll.setWidget(left)
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        scroll.setMinimumWidth(300)
        self.plot = DerivativePlot()
        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.addWidget(scroll)
        self.splitter.addWidget(self.plot)
        self.splitter.setStretchFactor(0, 2)
        self.splitter.setStretchFactor(1, 3)
        self.splitter.setChildrenCollapsible(False)
        self._split_once = False
        layout = QVBoxLayout(self)
        layout.addWidget(self.splitter)

        for field in (self.name, self.inputs, self.value, *self.derivatives):
            field.textChanged.connect(self._typed)
            field.returnPressed.connect(self.define_button.click)
        self.define_button.clicked.connect(self.check_and_define)
        self.clear_button.clicked.connect(self.clear)
        self.remove_button.clicked.connect(self.remove_selected)
        self.ops.itemClicked.connect(self._edit_item)
        custom_ops_signal().changed.connect(self._ops_changed)
        self._fit_code()
        self._typed()
        self._load_settings()
        self._ops_changed()

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if not self._split_once:  # the fields and the article's code get 45 %, the plot the rest
            self._split_once = True
            width = max(self.splitter.width(), 600)
            self.splitter.setSizes([int(width * 0.45), width - int(width * 0.45)])

    # ------------------------------------------------------------ what is typed

    def input_names(self) -> tuple[str, ...]:
        return tuple(part.strip() for part in self.inputs.text().split(",") if part.strip())

    def definition(self) -> OpDefinition:
        inputs = self.input_names()
        count = max(1, min(len(inputs), 2))
        return OpDefinition(
            self.name.text().strip(),
            inputs,
            self.value.text().strip(),
            tuple(field.text().strip() for field in self.derivatives[:count]),
        )

    def show_definition(self, definition: OpDefinition) -> None:
        """Put ``definition``'s texts in the fields (the verdict and the plot wait for the next check)."""
        self.name.setText(definition.name)
        self.inputs.setText(", ".join(definition.inputs))
        self.value.setText(definition.value)
        for field, text in zip(self.derivatives, (*definition.derivatives, "", "")):
            field.setText(text)

    def clear(self) -> None:
        """Empty fields, no verdict, and the count of refusals starts again (a lesson's setup uses this)."""
        for field in (self.name, self.value, *self.derivatives):
            field.clear()
        self.inputs.setText("x")
        self.lo.setValue(-3.0)
        self.hi.setValue(3.0)
        self.refused_derivatives = 0
        self.result = None
        self.plot.show_result(None)
        self._say("", None)
        self._mark(None)

    def _typed(self, *_args) -> None:
        """The derivative rows follow the inputs, and the article's code follows every key."""
        inputs = self.input_names() or ("x",)
        name = self.name.text().strip() or "op"
        for i, (label, field) in enumerate(zip(self.derivative_labels, self.derivatives)):
            shown = i < min(len(inputs), 2)
            label.setVisible(shown)
            field.setVisible(shown)
            if shown:
                label.setText(f"∂{_short(name, 16)}/∂{_short(inputs[i], 8)}")
        self.code.setPlainText(self.article_code())

    def article_code(self) -> str:
        """The op in the article's form: ``out`` from the typed value, ``_backward`` from the typed derivatives."""
        d = self.definition()
        name = _short(d.name or "op")
        inputs = d.inputs or ("x",)
        derivatives = (*d.derivatives, "", "")
        backward = OpDefinition(name, inputs[:2], d.value, tuple(t or "?" for t in derivatives[: len(inputs[:2])]))
        value = " ".join(d.value.split()) or "?"
        lines = [
            f"def {name}({', '.join(inputs[:2])}):",
            f"    out = Tensor({value}, {name!r})",
            "",
            "    def _backward():",
            *(f"        {line}" for line in backward.backward_lines()),
            "",
            "    out._backward = _backward",
            "    return out",
        ]
        return "\n".join(lines)

    # ------------------------------------------------------------ the check

    def check_and_define(self) -> CheckResult:
        """Check what is typed on the range; define the op when the derivative agrees with the slope."""
        result = define(self.definition(), self.lo.value(), self.hi.value())
        self.result = result
        self.plot.show_result(result)
        name = _short(result.definition.name)
        if result.accepted:
            self._say(f"✓ {name} is defined: {result.message}", "ok")
            self.status.emit(f"Your op {name} is defined: type {name}(…) in an expression, or pick it as an activation")
        else:
            if result.worst is not None:
                self.refused_derivatives += 1
            self._say(f"✗ Refused: {result.message}", "error")
        self._mark(None if result.accepted else self.field_at_fault(result))
        self.checked.emit(result)
        return result

    @staticmethod
    def field_at_fault(result: CheckResult) -> str | None:
        """The field a refusal is about: the one the core names, else the derivative of the worst point."""
        if result.field:
            return result.field
        return f"derivative {result.worst['input']}" if result.worst else None

    def _say(self, text: str, role: str | None) -> None:
        self.message.setText(text if len(text) <= MESSAGE_LIMIT else text[:MESSAGE_LIMIT] + "…")
        set_text_role(self.message, role)

    def field_widget(self, field: str | None) -> QWidget | None:
        """The field a verdict names ("name", "inputs", "value", "derivative x", "range")."""
        if field in ("name", "inputs", "value"):
            return getattr(self, field)
        if field == "range":
            return self.lo
        if field and field.startswith("derivative "):
            name = field.split(" ", 1)[1]
            inputs = self.input_names()
            return self.derivatives[inputs.index(name)] if name in inputs[:2] else self.derivatives[0]
        return None

    def _mark(self, field: str | None) -> None:
        """The label of the field at fault in the error color (and the cursor in it); the others plain."""
        marked = self.field_widget(field)
        pairs = [(self.labels[k], getattr(self, k) if k != "range" else self.lo) for k in self.labels]
        pairs += list(zip(self.derivative_labels, self.derivatives))
        self.marked = None
        for label, widget in pairs:
            wrong = widget is marked
            set_text_role(label, "error" if wrong else None)
            widget.setProperty("offending", wrong)
            if wrong:
                self.marked = widget
        if marked is not None and self.isVisible():
            marked.setFocus()

    # ------------------------------------------------------------ the ops

    def _ops_changed(self) -> None:
        """The list shows the ops defined now (by this panel, a session or the settings); the settings keep them."""
        self.ops.clear()
        for name in CUSTOM_OPS.names():
            d = CUSTOM_OPS.source(name).definition
            item = QListWidgetItem(f"{d.signature()} = {d.value}")
            item.setData(Qt.ItemDataRole.UserRole, name)
            item.setToolTip("\n".join(d.backward_lines()))
            self.ops.addItem(item)
        self.remove_button.setEnabled(self.ops.count() > 0)
        if self.settings is not None and not self._loading:
            self.settings.set(SETTINGS_KEY, json.dumps(save_definitions()))
            self.settings.sync()  # (an op is the learner's work: on disk at once, not only when the app closes)

    def _edit_item(self, item: QListWidgetItem) -> None:
        source = CUSTOM_OPS.source(item.data(Qt.ItemDataRole.UserRole))
        if source is not None:
            self.show_definition(source.definition)

    def remove_op(self, name: str) -> bool:
        """Remove your op ``name`` if there is one (a lesson's setup defines it afresh); False when none."""
        if name not in CUSTOM_OPS:
            return False
        undefine(name)
        return True

    def action_widget(self, words: list[str]) -> QWidget:
        """The widget a lesson's ``op STEP …`` action types into or clicks (for its pointer)."""
        step = words[0] if words else ""
        if step in ("name", "inputs", "value"):
            return getattr(self, step)
        if step == "derivative":
            inputs = self.input_names()
            name = words[1] if len(words) > 1 else ""
            return self.derivatives[inputs.index(name)] if name in inputs[:2] else self.derivatives[0]
        if step == "range":
            return self.lo
        return {"clear": self.clear_button, "remove": self.remove_button}.get(step, self.define_button)

    def remove_selected(self) -> None:
        item = self.ops.currentItem() or (self.ops.item(0) if self.ops.count() == 1 else None)
        if item is None:
            self.status.emit("Select an op in the list to remove it")
            return
        name = item.data(Qt.ItemDataRole.UserRole)
        if name in CUSTOM_OPS:
            undefine(name)
            self.status.emit(f"Your op {name} is removed (graphs and networks built with it keep it)")

    def _load_settings(self) -> None:
        """The ops of the last run, each checked again: one that no longer checks is said here, not used."""
        if self.settings is None:
            return
        text = self.settings.get_str(SETTINGS_KEY, "")
        if not text:
            return
        try:
            data = json.loads(text)
        except ValueError:
            problems = ["the saved ops are not readable (the settings file was edited?)"]
        else:
            self._loading = True
            try:
                problems = load_definitions(data)
            finally:
                self._loading = False
        if problems:
            more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
            self._say(f"A saved op no longer checks and was left out: {problems[0]}{more}", "error")

    # ------------------------------------------------------------ area parts

    def session_state(self) -> dict:
        """The fields as typed (the ops themselves are in the session's own list)."""
        return {**self.definition().to_dict(), "lo": self.lo.value(), "hi": self.hi.value()}

    def restore_session(self, section: dict, *_data) -> None:
        if not section:
            return
        try:
            self.show_definition(OpDefinition.from_dict(section))
        except ValueError:
            return
        for box, key in ((self.lo, "lo"), (self.hi, "hi")):
            if isinstance(section.get(key), int | float):
                box.setValue(float(section[key]))

    def _fit_code(self) -> None:
        """The article's code box tall enough for its lines (and a few wrapped ones) at the font now in use."""
        self.code.setFixedHeight(self.code.fontMetrics().lineSpacing() * 12 + 12)
        self.ops.setMaximumHeight(self.ops.fontMetrics().lineSpacing() * 7)

    def set_theme(self, _theme: str) -> None:
        self.plot.restyle()

    def set_presentation(self, _on: bool) -> None:
        self.plot.restyle()
        self._fit_code()


def install_workshop(window) -> WorkshopPanel:
    """Add the Op workshop tab to ``window`` (a MainWindow), with the window's settings."""
    panel = WorkshopPanel(window.settings)
    window.add_area("workshop", panel)  # (its title and tip: the window's AREA_TABS)
    return panel
