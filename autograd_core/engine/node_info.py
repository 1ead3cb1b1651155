"""What a node is besides its numbers, shared between nodes: its op, kind, label and group; and the mark of an
n-ary node.

A graph of 70,000 nodes holds a handful of distinct descriptions, so each node keeps a reference to a shared one
instead of four slots of its own (``Tensor._op``).
"""

from __future__ import annotations

from autograd_core.engine.ops import Op


class NodeInfo:
    """What a node is besides its numbers: its op (None for a leaf), kind, label and group.

    Kept in the node's ``_op`` slot and shared by every node with the same four
    facts, so a label costs no memory per node.  An unlabeled op node holds its
    ``Op`` there directly: an ``Op`` answers the same questions (``entry``,
    ``kind``, ``label``, ``group``, ``tag``).
    """

    __slots__ = ("entry", "kind", "label", "group", "tag")

    def __init__(self, entry: Op | None, kind: str, label: str, group: str | None):
        self.entry, self.kind, self.label, self.group = entry, kind, label, group
        self.tag = entry.tag if entry is not None else ""

    def __repr__(self) -> str:
        return f"NodeInfo({self.tag or self.kind!r}, label={self.label!r}, group={self.group!r})"


LEAF_KINDS = ("input", "parameter", "constant")
_INFOS: dict[tuple, NodeInfo] = {}
_MAX_INFOS = 100_000


def node_info(entry: Op | None, kind: str, label: str, group: str | None) -> Op | NodeInfo:
    """The shared description of a node (its bare ``Op`` when it has no label or group)."""
    if entry is not None and not label and group is None:
        return entry
    key = (entry, kind, label, group)
    info = _INFOS.get(key)
    if info is None:
        if len(_INFOS) >= _MAX_INFOS:  # many distinct labels: start again (nodes keep theirs)
            _INFOS.clear()
        info = _INFOS[key] = NodeInfo(entry, kind, label, group)
    return info


class _Many:
    """Marks an n-ary node: its parents are the list in ``_a``, their locals the array in ``_da``."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "MANY"


MANY = _Many()
