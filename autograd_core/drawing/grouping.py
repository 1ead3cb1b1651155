"""Which nodes of a big expression's graph form one expandable box of its overview (no Qt).

The graph view shows an expression of more than 60 nodes as a few boxes, each
opened by a double-click.  A group is drawn as one box that shows the value
and gradient of its *output*, the one member with edges leaving the group, so
every rule below keeps that true: apart from its output, a member is used only
inside its group, and nodes used in several places stay alone.  Collapsing
then changes how much is drawn, never what the drawing says.

* ``sum_trees``: a tree of ``+`` (or ``*``) nodes, each inner one used only by
  the next: an n-ary sum ``a + b + c + …`` of at least four terms.
* ``unary_chains``: at least four one-argument ops in a row
  (``tanh(exp(sin(log(x))))``), each the only use of the one before.
* ``overview_groups``: both, plus an assigned name with what only it uses,
  and each term of a sum with what only that term uses.
"""

from __future__ import annotations

import re

import networkx as nx

from autograd_core.drawing.collapse import collapse_groups, forget_groups, groups_of, keep_collapsed
from autograd_core.drawing.graph import to_networkx, topological_nodes

OVERVIEW_NODES = 60  # above this an expression's graph is first shown as groups (double-click to open)
SUM_MIN_NODES = 3  # ``+`` nodes of an n-ary sum: three binary + add four terms
CHAIN_MIN_NODES = 4  # one-argument ops in a row


def _uses(graph: nx.DiGraph) -> dict:
    """Node -> how many edges leave it (a multigraph counts ``x*x`` twice)."""
    multi = graph.is_multigraph()
    return {n: (sum(map(len, nbrs.values())) if multi else len(nbrs)) for n, nbrs in graph.adjacency()}


def sum_trees(graph: nx.DiGraph, min_size: int = SUM_MIN_NODES, order: list | None = None, uses=None) -> dict:
    """Node -> name ("Σ 50 terms", "y: Σ 4 terms"; a second unnamed sum of 50 terms "Σ 50 terms (2)") for each
    tree of one associative op.

    A tree grows from its last node through arguments that have the same op,
    no name of their own and no other use; trees of fewer than ``min_size``
    nodes are left out.  ``order`` and ``uses``: the graph's ``topological_nodes`` and ``_uses``, when known.
    """
    order = order if order is not None else topological_nodes(graph)
    uses = uses if uses is not None else _uses(graph)
    attrs = graph.nodes
    tree: dict = {}
    taken: set = set()
    for n in reversed(order):  # from the end of each tree
        op = attrs[n].get("op")
        if op not in ("+", "*") or n in tree:
            continue
        members = {n}
        frontier = [n]
        while frontier:
            m = frontier.pop()
            for p in graph.predecessors(m):
                if attrs[p].get("op") == op and uses[p] == 1 and not attrs[p].get("label") and p not in tree:
                    members.add(p)
                    frontier.append(p)
        if len(members) >= min_size:
            terms = sum(1 for m in members for p in graph.predecessors(m) if p not in members)
            name = f"{'Σ' if op == '+' else 'Π'} {terms} {'terms' if op == '+' else 'factors'}"
            label = attrs[n].get("label")
            name = f"{label}: {name}" if label else _unique(name, taken)
            taken.add(name)
            for m in members:
                tree[m] = name
    return tree


def unary_chains(
    graph: nx.DiGraph, min_size: int = CHAIN_MIN_NODES, among=None, order: list | None = None, uses=None
) -> list[list]:
    """Runs of at least ``min_size`` one-argument ops, each in order from the first to the last.

    A member has exactly one argument; every member but the last is used only
    by the next one (a value used anywhere else ends the chain there, so the
    chain's box, which shows its last value, never stands for another).  The
    last member may be used in several places: all those edges leave from the
    value the box shows.  ``among`` (a set) limits the members to those nodes.  ``order`` and ``uses``: the
    graph's ``topological_nodes`` and ``_uses``, when already known.
    """
    uses = uses if uses is not None else _uses(graph)
    multi = graph.is_multigraph()  # (graph.in_degree(), from networkx's own dict)
    indegree = {n: sum(map(len, nbrs.values())) if multi else len(nbrs) for n, nbrs in graph._pred.items()}

    def member(n) -> bool:
        return indegree[n] == 1 and (among is None or n in among)

    chains = []
    for n in order if order is not None else topological_nodes(graph):
        if not member(n):
            continue
        (p,) = graph.predecessors(n)
        if member(p) and uses[p] == 1:
            continue  # not the first of its run
        run = [n]
        while uses[run[-1]] == 1:
            (s,) = graph.successors(run[-1])
            if not member(s):
                break
            run.append(s)
        if len(run) >= min_size:
            chains.append(run)
    return chains


# The names this module makes up: "Σ 32 terms", "Π 4 factors", "term 3 of Σ 16 terms", "exp∘sin∘cos∘log", each
# perhaps with " (2)" when another group already has it.  Never a node id: the learner never sees "tanh #112".
_GENERATED = re.compile(r"^(?:[ΣΠ] \d+ (?:terms|factors)|term \d+ of .+|[^\s:]*∘.*)(?: \(\d+\))?$")


def is_generated_name(group: str) -> bool:
    """True for a name this module made up (``Σ 32 terms``, ``exp∘sin∘cos∘log``): it names no value of the
    expression, so an opened member's box needs only its op, not the group's name again."""
    return bool(_GENERATED.match(group))


def _unique(name: str, taken: set) -> str:
    """``name``, or ``name (2)``, ``(3)`` … when a group already has it (names are the groups' identities)."""
    k = 1
    out = name
    while out in taken:
        k += 1
        out = f"{name} ({k})"
    return out


def chain_name(graph: nx.DiGraph, chain: list, taken: set | None = None) -> str:
    """``tanh∘exp∘sin∘log``: the ops as written, outermost first (``(2)`` after it when ``taken`` has it)."""
    ops = [str(graph.nodes[n].get("op") or "?") for n in reversed(chain)]
    text = "∘".join(ops) if len(ops) <= 4 else f"{ops[0]}∘{ops[1]}∘…∘{ops[-1]} ({len(ops)} ops)"
    return _unique(text, taken or set())


def overview_groups(graph: nx.MultiDiGraph, min_size: int = SUM_MIN_NODES) -> dict:
    """Node -> group name, so that a big expression can be shown as a few expandable boxes.

    * A tree of ``+`` (or ``*``) whose inner nodes feed only the next one (an
      n-ary sum written ``a + b + c + …``) is one group, "Σ 50 terms".
    * An assigned name (``h3 = tanh(w3*x + b3)``) is a group with every node
      that only it uses (its unnamed ops and the leaves used nowhere else).
    * What only one term of such a sum uses is that term's group.
    * Of the nodes left over, four or more one-argument ops in a row are a
      group (``unary_chains``).

    Nodes used in several places (shared inputs, reused names) stay alone, so
    every edge between groups is still drawn.  Groups smaller than ``min_size``
    are dropped.
    """
    order = topological_nodes(graph)
    uses = _uses(graph)
    succ = {n: list(nbrs) for n, nbrs in graph.adjacency()}
    pred = graph._pred
    attrs = graph.nodes
    chain = sum_trees(graph, min_size, order, uses)
    chain_names = set(chain.values())
    owner: dict = {}
    for n in reversed(order):
        if n in chain:
            owner[n] = chain[n]
            continue
        a = attrs[n]
        if a.get("label") and pred[n]:  # an assigned name heads its own group (one with inputs)
            owner[n] = a["label"]
            continue
        owners = {owner.get(s) for s in succ[n]}
        if len(owners) == 1 and uses[n] == 1 and None not in owners:
            target = owners.pop()
            if target in chain_names and n not in chain:  # a term of a sum: its own group
                owner[n] = a.get("label") or _short_name(graph, n) or ("term", target, n)  # (numbered below)
            else:
                owner[n] = target
        else:
            owner[n] = None
    # an unnamed term is "term k of Σ n terms": k counts the sum's unnamed terms in the order they were written
    terms: dict = {}  # sum -> its terms, each once (a dict: 400 terms were 800,000 list comparisons)
    for g in owner.values():
        if isinstance(g, tuple):
            terms.setdefault(g[1], {})[g] = None
    renamed = {g: f"term {k} of {total}" for total, gs in terms.items() for k, g in enumerate(sorted(gs, key=_rank), 1)}
    owner = {n: renamed.get(g, g) if isinstance(g, tuple) else g for n, g in owner.items()}
    sizes: dict = {}
    for g in owner.values():
        if g is not None:
            sizes[g] = sizes.get(g, 0) + 1
    groups = {n: g for n, g in owner.items() if g is not None and sizes[g] >= min_size}
    left = {n for n in graph if n not in groups}
    taken = set(groups.values())
    for run in unary_chains(graph, CHAIN_MIN_NODES, among=left, order=order, uses=uses):
        name = chain_name(graph, run, taken)
        taken.add(name)
        for n in run:
            groups[n] = name
    return groups


def _rank(term: tuple):
    """Terms in the order of their output nodes (topological: the order they were written)."""
    return _natural(term[2])


def _natural(n):
    return (0, n, "") if isinstance(n, int | float) else (1, 0, str(n))


def _short_name(graph: nx.MultiDiGraph, n) -> str | None:
    """``w3*x3`` for an op on named leaves, else None (the term is numbered instead)."""
    attrs = graph.nodes[n]
    op = attrs.get("op") or "node"
    names = [graph.nodes[p].get("label") for p in graph.predecessors(n)]
    if len(names) == 2 and all(names) and op in ("+", "-", "*", "/"):
        return f"{names[0]}{op}{names[1]}"
    return None


def add_overview_groups(graph: nx.MultiDiGraph, min_nodes: int = OVERVIEW_NODES) -> bool:
    """Give a big graph without groups of its own (an expression) overview groups; True if it got them.

    ``graph.graph["overview"]`` then tells a view to start with them collapsed.
    """
    if graph.number_of_nodes() <= min_nodes or any(g for _, g in graph.nodes(data="group")):
        return False
    for node, group in overview_groups(graph).items():
        graph.nodes[node]["group"] = group
    forget_groups(graph)
    graph.graph["overview"] = True
    return True


def overview_graph(root, min_nodes: int = OVERVIEW_NODES) -> nx.MultiDiGraph:
    """``to_networkx(root)`` with its overview groups and, kept with it, the graph a view first draws (every
    group collapsed): all the structure work of showing a new expression, in one call a worker thread can make."""
    graph = to_networkx(root)
    if add_overview_groups(graph, min_nodes):
        keep_collapsed(graph, set(groups_of(graph)), collapse_groups(graph, set(groups_of(graph))))
    return graph
