"""The numbers the boxes show and the tooltips that give them in full (a part of ``GraphView``)."""

from __future__ import annotations

import math

from autograd_core.drawing.graph import GraphSnapshot
from autograd_core.engine.user_ops import UNKNOWN_LOCAL
from autograd_core.numbers import format_full, format_number

from .items import NUMBERS_MIN_POINTS


def node_name(attrs: dict, node) -> str:
    label = attrs.get("label") or ""
    return label if label else f"{attrs.get('op') or 'node'} #{node}"


def _esc(text) -> str:
    return str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


class BoxNumbers:
    """Values, gradients and tooltips of a ``GraphView``'s boxes (mixed into it)."""

    def _source(self, node, attrs: dict):
        """The base-graph node whose numbers a drawn box shows (a collapsed group shows its output)."""
        return attrs.get("output") if attrs.get("kind") == "group" else node

    def grad_of(self, node, attrs: dict) -> float | None:
        return self.snapshot.grad(self._source(node, attrs)) if self.snapshot is not None else None

    def value_of(self, node, attrs: dict) -> float | None:
        return self.snapshot.value(self._source(node, attrs)) if self.snapshot is not None else None

    def refresh_values(self, previous: GraphSnapshot | None = None) -> None:
        """Give each box its numbers from the snapshot; repaint only what shows a change.

        A box whose numbers changed is repainted when its numbers can be read at
        this zoom; otherwise only if its color or border changed.  Zoomed far
        out, the box layer paints every box: it is repainted once, and only if
        some box's look changed.
        """
        if self.graph is None or self.snapshot is None:
            return
        snap = self.snapshot
        scale = 0.0
        for g in snap.grads:
            if g is not None and (g > scale or -g > scale) and math.isfinite(g):
                scale = abs(g)
        rescaled = scale != self.grad_scale
        self.grad_scale = scale
        same = previous is not None and previous.graph is snap.graph and previous.grad_name == snap.grad_name
        plain = self._plain
        numbers_shown = not plain and self.transform().m11() * self.body_font.pointSizeF() >= NUMBERS_MIN_POINTS
        values, grads = snap.values, snap.grads
        n = len(values) if len(grads) == len(values) else 0
        looks_changed = not same
        for item in self.nodes.values():
            source = item.source
            if type(source) is int and 0 <= source < n:
                value, grad = values[source], grads[source]
            else:
                value, grad = snap.value(source), snap.grad(source)
            old_value, old_grad = item.value, item.grad
            numbers_changed = not (old_value == value and old_grad == grad)  # nan never equals: redrawn
            if same and not rescaled and not numbers_changed:
                continue
            look_changed = item.set_numbers(value, grad, scale)
            looks_changed |= look_changed
            if not plain and (look_changed or not same or (numbers_shown and numbers_changed)):
                item.update()
        if looks_changed:
            if self._box_layer is not None:
                self._box_layer.mark_dirty()
            self.overview.invalidate()
        if rescaled or previous is None:
            self.legend.update()

    def tooltip_for(self, node) -> str:
        """Full-precision value and gradient, and the local derivative of each incoming edge."""
        graph = self.graph
        attrs = graph.nodes[node]
        name = node_name(attrs, node)
        grad = self.grad_of(node, attrs)
        lines = [
            f"<b>{_esc(name)}</b> ({_esc(attrs.get('kind', 'op'))}"
            + (f", op {_esc(attrs.get('op'))}" if attrs.get("op") else "")
            + ")",
            f"data = {format_full(self.value_of(node, attrs))}",
            f"{self.snapshot.grad_name} = {format_full(grad)}"
            if grad is not None
            else f"{self.snapshot.grad_name}: not computed yet",
        ]
        incoming = sorted(graph.in_edges(node, keys=True, data=True), key=lambda e: e[3].get("index", e[2]))
        if attrs.get("user_op"):  # an op written in Python: one sentence, never a guessed number
            lines.append(f"an op written in Python: its local derivative {UNKNOWN_LOCAL}")
            incoming = ()
        if incoming:
            lines.append("local derivatives:")
        for u, v, key, data in incoming:
            parent = node_name(graph.nodes[u], u)
            local = self.snapshot.local(u, v, key) if isinstance(u, int) and isinstance(v, int) else None
            if local is None:
                lines.append(f"&nbsp;&nbsp;from {_esc(parent)}")
                continue
            formula = data.get("formula") or ""
            shown = f"{_esc(formula)} = {format_full(local)}" if formula else format_full(local)
            lines.append(f"&nbsp;&nbsp;∂{_esc(name)}/∂{_esc(parent)} = {shown}")
        if attrs.get("kind") == "group":
            params = [m for m in attrs.get("members", ()) if self.base_graph.nodes[m].get("kind") == "parameter"]
            for m in params[:24]:
                p = self.base_graph.nodes[m]
                value, g = self.snapshot.value(m), self.snapshot.grad(m)
                lines.append(f"&nbsp;&nbsp;{_esc(p.get('label'))} = {format_number(value)}, grad {format_number(g)}")
            if len(params) > 24:
                lines.append(f"&nbsp;&nbsp;… and {len(params) - 24} more parameters")
            lines.append("Double-click to expand this group.")
        elif attrs.get("group"):
            lines.append(f"group {_esc(attrs['group'])}: double-click to collapse it.")
        return "<br>".join(lines)
