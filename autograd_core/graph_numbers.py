"""What a box of a drawn computation graph says: its title, its value and gradient lines, and the tooltip that
gives them in full with each incoming edge's local derivative.

The policy of the graph view's text, apart from any drawing: the view (``gui.graph_view``) paints these strings
and measures them, so a test or an export can read them without Qt.  Every number goes through ``numbers``.
"""

from __future__ import annotations

from autograd_core.drawing.graph import GraphSnapshot
from autograd_core.drawing.grouping import is_generated_name
from autograd_core.engine.user_ops import UNKNOWN_LOCAL
from autograd_core.numbers import format_full, format_number

GROUP_PARAMETERS_LISTED = 24  # a collapsed group's tooltip names this many of its parameters, then counts the rest


def node_name(attrs: dict, node) -> str:
    """A node's name in a sentence: its label, else its op and id."""
    label = attrs.get("label") or ""
    return label if label else f"{attrs.get('op') or 'node'} #{node}"


def box_title(attrs: dict) -> str:
    """A box's first line: its name and op (``softsign = x/(1+|x|)``), or its group and op for a node of a
    named group, or ``▣ name · function`` for a collapsed group."""
    label, op, kind = attrs.get("label") or "", attrs.get("op") or "", attrs.get("kind", "op")
    if kind == "group":
        function = attrs.get("output_op") or ""
        function = function if function.isalpha() else attrs.get("output_label") or ""  # relu, or "score"
        return f"▣ {label} · {function}" if function else f"▣ {label} ({op})"
    if label and op and label != op:  # an op written in Python is named by its label: "softsign", once
        return f"{label} = {op}"
    group = attrs.get("group")
    if op and group and kind == "op" and not is_generated_name(group):
        return f"{group} · {op}"  # which neuron (or named value) an opened group's node belongs to
    if label:
        return label
    if kind == "constant" and not op:
        return "const"
    return op or "?"


def box_lines(kind: str, value: float | None, grad: float | None, grad_name: str) -> tuple[str, str]:
    """A box's value and gradient lines at a glance (a collapsed group shows its output: ``out``)."""
    value_name = "out" if kind == "group" else "data"
    return f"{value_name} {format_number(value)}", f"{grad_name} {format_number(grad)}"


def shown_source(node, attrs: dict):
    """The base-graph node whose numbers a drawn box shows (a collapsed group shows its output)."""
    return attrs.get("output") if attrs.get("kind") == "group" else node


def value_of(snapshot: GraphSnapshot | None, node, attrs: dict) -> float | None:
    return snapshot.value(shown_source(node, attrs)) if snapshot is not None else None


def grad_of(snapshot: GraphSnapshot | None, node, attrs: dict) -> float | None:
    return snapshot.grad(shown_source(node, attrs)) if snapshot is not None else None


def _esc(text) -> str:
    return str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def tooltip_html(graph, base_graph, snapshot: GraphSnapshot, node) -> str:
    """Full-precision value and gradient of drawn ``node`` of ``graph`` (groups perhaps collapsed from
    ``base_graph``), the local derivative of each incoming edge, and how to open or close its group."""
    attrs = graph.nodes[node]
    name = node_name(attrs, node)
    grad = grad_of(snapshot, node, attrs)
    lines = [
        f"<b>{_esc(name)}</b> ({_esc(attrs.get('kind', 'op'))}"
        + (f", op {_esc(attrs.get('op'))}" if attrs.get("op") else "")
        + ")",
        f"data = {format_full(value_of(snapshot, node, attrs))}",
        f"{snapshot.grad_name} = {format_full(grad)}"
        if grad is not None
        else f"{snapshot.grad_name}: not computed yet",
    ]
    incoming = sorted(graph.in_edges(node, keys=True, data=True), key=lambda e: e[3].get("index", e[2]))
    if attrs.get("user_op"):  # an op written in Python: one sentence, never a guessed number
        lines.append(f"an op written in Python: its local derivative {UNKNOWN_LOCAL}")
        incoming = ()
    if incoming:
        lines.append("local derivatives:")
    for u, v, key, data in incoming:
        parent = node_name(graph.nodes[u], u)
        local = snapshot.local(u, v, key) if isinstance(u, int) and isinstance(v, int) else None
        if local is None:
            lines.append(f"&nbsp;&nbsp;from {_esc(parent)}")
            continue
        formula = data.get("formula") or ""
        shown = f"{_esc(formula)} = {format_full(local)}" if formula else format_full(local)
        lines.append(f"&nbsp;&nbsp;∂{_esc(name)}/∂{_esc(parent)} = {shown}")
    if attrs.get("kind") == "group":
        params = [m for m in attrs.get("members", ()) if base_graph.nodes[m].get("kind") == "parameter"]
        for m in params[:GROUP_PARAMETERS_LISTED]:
            p = base_graph.nodes[m]
            value, g = snapshot.value(m), snapshot.grad(m)
            lines.append(f"&nbsp;&nbsp;{_esc(p.get('label'))} = {format_number(value)}, grad {format_number(g)}")
        if len(params) > GROUP_PARAMETERS_LISTED:
            lines.append(f"&nbsp;&nbsp;… and {len(params) - GROUP_PARAMETERS_LISTED} more parameters")
        lines.append("Double-click to expand this group.")
    elif attrs.get("group"):
        lines.append(f"group {_esc(attrs['group'])}: double-click to collapse it.")
    return "<br>".join(lines)
