"""A graph with some groups drawn as one box each: what the view draws when the user collapses groups (no Qt)."""

from __future__ import annotations

import networkx as nx


def collapse_groups(graph: nx.MultiDiGraph, collapsed: set[str]) -> nx.MultiDiGraph:
    """The graph with every node of each collapsed group merged into one box.

    A group box shows the value and gradient of the group's output (its last
    node, in topological order, with an edge leaving the group); ``output_op``
    and ``output_label`` name that node (``relu``, ``score``) for the box's title.
    """
    if not collapsed:
        return graph
    kept = graph.graph.get(_KEPT)
    if kept is not None and kept[0] == frozenset(collapsed):
        return kept[1]
    nodes_attrs = graph.nodes
    mapping = {}
    members: dict[str, list] = {}
    for node, attrs in graph.nodes(data=True):
        group = attrs.get("group")
        if group in collapsed:
            mapping[node] = f"group:{group}"
            members.setdefault(group, []).append(node)
        else:
            mapping[node] = node
    out = nx.MultiDiGraph()
    # networkx's own dicts, filled in place (as add_node / add_edge would; several times faster)
    out_nodes, succ, pred = out._node, out._succ, out._pred
    for node, attrs in graph.nodes(data=True):
        if mapping[node] == node:
            out_nodes[node] = dict(attrs)
            succ[node], pred[node] = {}, {}
    for group, nodes in members.items():
        order = sorted(nodes)  # ids are topological
        leaving = [n for n in order if any(mapping[s] != mapping[n] for s in graph._succ[n])]
        output = (leaving or order)[-1]
        o = nodes_attrs[output]
        box = f"group:{group}"
        out_nodes[box] = dict(
            label=group,
            op=f"{len(nodes)} nodes",
            output_op=o.get("op") or "",
            output_label=o.get("label") or "",
            data=o.get("data"),
            grad=o.get("grad"),
            kind="group",
            depth=max(nodes_attrs[n].get("depth", 0) for n in nodes),
            group=group,
            tensor=o.get("tensor"),
            members=order,
            output=output,
        )
        succ[box], pred[box] = {}, {}
    for u, targets in graph._succ.items():
        a = mapping[u]
        for v, keys in targets.items():
            b = mapping[v]
            if a == b:
                continue
            grouped = isinstance(a, str) or isinstance(b, str)
            if grouped and b in succ[a]:
                continue  # one edge between a group box and a neighbor
            out_keys = succ[a].get(b)
            if out_keys is None:
                out_keys = succ[a][b] = pred[b][a] = {}
            for key, attrs in keys.items():
                if grouped:
                    out_keys[0] = {"local": None, "formula": "", "index": attrs.get("index", key)}
                    break
                out_keys[key] = dict(attrs)
    return out


_KEPT = "collapsed_graph"  # graph.graph key: (groups, collapse_groups(graph, groups)) computed ahead


def keep_collapsed(graph: nx.MultiDiGraph, collapsed: set[str], result: nx.MultiDiGraph) -> None:
    """Remember ``result`` as ``collapse_groups(graph, collapsed)`` (computed ahead, e.g. on a worker thread),
    so that the view's own call returns it at once; only valid while ``graph`` and ``result`` are not changed."""
    graph.graph[_KEPT] = (frozenset(collapsed), result)


_GROUPS = "group_names"  # graph.graph key: (node count, groups_of(graph)), kept with the graph


def groups_of(graph: nx.MultiDiGraph) -> list[str]:
    """The names of the graph's groups, sorted; read once and kept with the graph (a view asks several times per
    change of a 2,000-node graph), so a node's group is never changed afterwards (``add_overview_groups``, which
    gives them, forgets what was kept)."""
    kept = graph.graph.get(_GROUPS)
    if kept is not None and kept[0] == graph.number_of_nodes():
        return list(kept[1])
    groups = sorted({g for _, g in graph.nodes(data="group") if g})
    graph.graph[_GROUPS] = (graph.number_of_nodes(), tuple(groups))
    return groups


def forget_groups(graph: nx.MultiDiGraph) -> None:
    """After changing nodes' groups: ``groups_of`` reads them again."""
    graph.graph.pop(_GROUPS, None)
