"""The maths on screen: a node's formula, the chain rule along a path, the expression's symbolic derivative.

Everything is computed in ``autograd_core`` (``symbolic`` builds formulas and
derivatives from the op table, ``chain_path`` the path and its product);
this panel writes them as Qt rich text: italic names, powers as superscripts
and each ∂a/∂b as a fraction (a small HTML table, which Qt's rich text lays
out).  It also chooses which derivative graph the graph view shows.
"""

from __future__ import annotations

import html

from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QTextBrowser, QVBoxLayout, QWidget

from autograd_core.engine.user_ops import UnknownDerivative
from autograd_core.language.symbolic import Builder, SymbolicError, derivative_of, local_derivatives, to_html
from autograd_core.language.trace import node_name
from autograd_core.numbers import LEDGER, format_number

from ..graph_view.graph_state import Change

GRAPH_CHOICES = (("f", 0), ("∂f/∂x", 1), ("∂²f/∂x²", 2))  # the expression f, its 1st or 2nd derivative (f: the
# output's own name on screen, g for a program ending in g = …)
SYMBOLIC_LIMIT = 1500  # characters of a symbolic derivative shown before it is cut
EXPRESSION_LIMIT = 400  # characters of the expression itself shown above it
SYMBOLIC_MAX_NODES = 400  # beyond this the formula is far longer than SYMBOLIC_LIMIT and costs 100s of ms to build
PATH_SHOWN = 6  # a longer chain-rule path shows its first and last 3 factors, "⋯" between


def esc(text: str) -> str:
    return html.escape(str(text), quote=False)


def name_html(name: str) -> str:
    """A node's name: one letter in italics (as in print), longer names upright."""
    return f"<i>{esc(name)}</i>" if len(name) == 1 and name.isalpha() else esc(name)


def number_html(x: float, factor: bool = False) -> str:
    """A number as the maths panel writes it; a negative factor of a product in brackets: 1 · (−3)."""
    text = format_number(x, LEDGER)
    return f"({text})" if factor and text.startswith("\u2212") else text


def fraction(top: str, bottom: str) -> str:
    """top over bottom, a line between (rich text has no inline fractions: a two-row table)."""
    return (
        "<table cellspacing='0' cellpadding='0' style='margin:0'>"
        f"<tr><td align='center' style='border-bottom:1px solid; padding:0 2px; white-space:nowrap'>{top}</td></tr>"
        f"<tr><td align='center' style='padding:0 2px; white-space:nowrap'>{bottom}</td></tr></table>"
    )


def partial(of: str, by: str, order: int = 1) -> str:
    if order == 1:
        return fraction(f"∂{name_html(of)}", f"∂{name_html(by)}")
    return fraction(f"∂<sup>{order}</sup>{name_html(of)}", f"∂{name_html(by)}<sup>{order}</sup>")


def row(*cells: str) -> str:
    """Cells side by side, centered vertically: one line of maths."""
    tds = "".join(f"<td valign='middle' style='padding:0 2px; white-space:nowrap'>{c}</td>" for c in cells)
    return f"<table cellspacing='0' cellpadding='0'><tr>{tds}</tr></table>"


class MathsPanel(QWidget):
    """Derivative-graph choice and the maths of the selected node and of the whole expression."""

    def __init__(self, state, parent: QWidget | None = None):
        super().__init__(parent)
        self.state = state
        self.graph_combo = QComboBox()
        self.graph_combo.setObjectName("derivativeGraphCombo")
        for text, order in GRAPH_CHOICES:
            self.graph_combo.addItem(text, order)
        self.graph_combo.setToolTip(
            "What the graph shows: the expression f, or its 1st derivative ∂f/∂x or 2nd derivative ∂²f/∂x² as a "
            "graph of its own, built with grad(create_graph=True)"
        )
        self.input_combo = QComboBox()
        self._input_names: list[str] | None = None  # the inputs the combo lists
        self._output_name = "f"  # the output's name the graph combo's entries use
        self.input_combo.setObjectName("derivativeInputCombo")
        self.input_combo.setToolTip("The input x of the derivative (graph and symbolic formula)")
        self.graph_combo.activated.connect(self._choice_changed)
        self.input_combo.activated.connect(self._choice_changed)
        self.text = QTextBrowser()
        self.text.setObjectName("mathsText")
        self.text.setOpenLinks(False)
        self.text.setToolTip("Click a node in the graph to see its formula and the chain rule from it to the output")
        top = QHBoxLayout()
        top.setContentsMargins(0, 0, 0, 0)
        top.addWidget(QLabel("Graph of"))
        top.addWidget(self.graph_combo, 1)
        top.addWidget(QLabel("x ="))
        top.addWidget(self.input_combo, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(top)
        layout.addWidget(self.text, 1)
        self._html = ""
        self._cache: dict[str, tuple] = {}  # part -> (key, html): recomputed only when its inputs change
        state.changed.connect(self._state_changed)
        self.refresh()

    # ---- choices

    def _choice_changed(self, _index: int = 0) -> None:
        order = self.graph_combo.currentData()
        name = self.input_combo.currentData()
        self.state.set_derivative(name if order else None, order or 1)
        self.refresh()

    def _state_changed(self, change: Change) -> None:
        # Up to SYMBOLIC_MAX_NODES the formulas cost a few ms, so they follow every value at once: the text never
        # shows a number of an earlier point.
        if change & (Change.PROGRAM | Change.VALUES | Change.STEP | Change.STRUCTURE | Change.ERROR):
            self.refresh()

    def refresh(self) -> None:
        state = self.state
        inputs = state.inputs
        out = state.output_name
        if out != self._output_name:
            self._output_name = out
            for i, (text, _order) in enumerate(GRAPH_CHOICES):
                self.graph_combo.setItemText(i, text.replace("f", out, 1))
        if self._input_names != inputs:  # (reading 600 items back from the combo cost 2 ms per slider move)
            current = self.input_combo.currentData()
            self.input_combo.clear()
            for name in inputs:
                self.input_combo.addItem(name, name)
            self._input_names = inputs
            if current in inputs:
                self.input_combo.setCurrentIndex(inputs.index(current))
        if state.derivative is not None:
            name, order = state.derivative
            self.graph_combo.setCurrentIndex(order)
            if name in inputs:
                self.input_combo.setCurrentIndex(inputs.index(name))
        else:
            self.graph_combo.setCurrentIndex(0)
        html = self.html()
        if html != self._html:  # a Step changes nothing here: no new layout of the rich text
            self._html = html
            self.text.setHtml(html)

    # ---- the text

    def html(self) -> str:
        state = self.state
        node_key = (state.root, state.selected, state.evaluation)
        symbolic_key = (state.evaluation, self.input_combo.currentData(), state.derivative)
        parts = [
            self._cached("node", node_key, self._node_html),
            self._cached("symbolic", symbolic_key, self._symbolic_html),
        ]
        return "".join(p for p in parts if p)

    def _cached(self, part: str, key: tuple, make) -> str:
        hit = self._cache.get(part)
        if hit is not None and len(hit[0]) == len(key) and all(a is b for a, b in zip(hit[0], key)):
            return hit[1]
        text = make()
        self._cache[part] = (key, text)
        return text

    def _node_html(self) -> str:
        state = self.state
        try:
            path = state.selected_path()
        except UnknownDerivative as error:  # an op written in Python: its closure holds the derivative
            return f"<p>{esc(str(error))}.</p>"
        if path is None:
            return "<p><i>Click a node in the graph: its formula and the chain rule from it to the output.</i></p>"
        start = path.nodes[0]
        out = []
        name = node_name(start)
        if start.is_leaf:
            out.append(f"<p><b>{name_html(name)}</b> is a leaf ({esc(start.kind)}) = {number_html(start.data)}</p>")
        else:
            out.append(self._formula_html(start))
        root = path.nodes[-1]
        root_name = node_name(root)
        if start is root:
            out.append("<p>This node is the output.</p>")
            return "".join(out)
        # the chain rule: ∂out/∂start = Π ∂next/∂this = Π formula = Π value = product
        names = [node_name(n) for n in path.nodes]
        symbols = []
        for i in reversed(range(len(path.indices))):
            symbols.extend([partial(names[i + 1], names[i]), "·"])
        formulas = []
        for i in reversed(range(len(path.indices))):
            formula = path.formulas[i]
            formulas.extend([f"({esc(formula)})" if " " in formula and formula[0] != "(" else esc(formula), "·"])
        values = []
        for i in reversed(range(len(path.indices))):
            values.extend([number_html(path.locals[i], factor=True), "·"])
        if len(path.indices) > PATH_SHOWN:  # the first and last factors; the product is still the whole path's
            for part in (symbols, formulas, values):
                part[6:-6] = ["⋯", "·"]
        route = " → ".join(name_html(n) for n in names)
        if len(names) > PATH_SHOWN + 1:
            route = " → ".join([*(name_html(n) for n in names[:3]), "⋯", *(name_html(n) for n in names[-3:])])
        out.append(f"<p><b>Chain rule along the path</b> {route}</p>")
        out.append(row(partial(root_name, name), "=", *symbols[:-1]))  # one line each: symbols, formulas, numbers
        out.append(row("=", *formulas[:-1]))
        out.append(row("=", *values[:-1], "=", f"<b>{number_html(path.product)}</b>"))
        if path.count > 1:
            out.append(
                f"<p>{path.count} paths lead from {name_html(name)} to {name_html(root_name)}; this one carries "
                f"{number_html(path.product)}. Backward adds every path's product: "
                f"∂{name_html(root_name)}/∂{name_html(name)} = {number_html(path.total)}.</p>"
            )
        else:
            out.append(f"<p>The only path, so this product is the gradient {number_html(path.total)}.</p>")
        return "".join(out)

    def _formula_html(self, node) -> str:
        """The node as a formula of its operands, and its local derivatives as fractions (from the op table)."""
        builder = Builder()
        names = [node_name(p) for p in node.parents]
        # one variable per operand, even for x*x (written x·x, with two local derivatives)
        operands = tuple(builder.variable(n, p.data, key=i) for i, (n, p) in enumerate(zip(names, node.parents)))
        op = node.op_entry
        if op.arity == 0:
            text = esc(op.show(names, node))
            return f"<p><b>{name_html(node_name(node))}</b> = {text} = {number_html(node.data)}</p>"
        sym = builder.apply(op, operands)
        name = node_name(node)
        lines = [
            f"<p><b>{name_html(name)}</b> = {to_html(sym) if sym.op is not None else esc(op.show(names, node))}"
            f" = {number_html(node.data)}</p>"
        ]
        try:
            locals_ = local_derivatives(sym) if sym.op is not None else ()
        except (TypeError, ValueError):
            locals_ = ()
        cells = []
        for parent_name, local, value in zip(names, locals_, node.local_grads):
            cells += [partial(name, parent_name), "=", to_html(local, SYMBOLIC_LIMIT)]
            if not local.is_number:
                cells += ["=", number_html(value)]
            cells.append("&nbsp;&nbsp;&nbsp;")
        if cells:
            lines.append(row(*cells[:-1]))
        return "".join(lines)

    def _symbolic_html(self) -> str:
        state = self.state
        evaluation = state.evaluation
        name = self.input_combo.currentData()
        if evaluation is None or name is None or name not in evaluation.inputs:
            return ""
        order = state.derivative[1] if state.derivative is not None else 1
        title = "<p><b>Symbolic derivative</b> (built from the op table's rules, lightly simplified)</p>"
        if state.program is not None and state.program.node_count > SYMBOLIC_MAX_NODES:
            return (
                f"{title}<p>Shown for expressions of up to {SYMBOLIC_MAX_NODES} nodes "
                f"(this one has {state.program.node_count:,}): its formula would be too long to read.</p>"
            )
        try:
            expr, d = derivative_of(evaluation.output, evaluation.inputs[name], order)
        except SymbolicError as err:
            return f"{title}<p>{esc(err)}</p>"
        out = state.output_name  # backward runs from the output: the user's g, not an intermediate f
        cells = [f"{name_html(out)} = {to_html(expr, EXPRESSION_LIMIT)}"]
        body = to_html(d, SYMBOLIC_LIMIT)
        return (
            f"{title}{row(*cells)}{row(partial(out, name, order), '=', body)}"
            f"<p>= {format_number(d.data, LEDGER)} at the current values</p>"
        )
