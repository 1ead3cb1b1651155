"""Overview groups of a big expression: which nodes form each expandable box (pure graph logic)."""

from autograd_core import Tensor
from autograd_core.drawing.graph import to_networkx
from autograd_core.drawing.grouping import chain_name, is_generated_name, overview_groups, sum_trees, unary_chains
from tests.graph_cases import cases, graph_of


def node(graph, op=None, label=None):
    """The one node with this op (and label)."""
    found = [
        n
        for n, a in graph.nodes(data=True)
        if (op is None or a.get("op") == op) and (label is None or a.get("label") == label)
    ]
    assert len(found) == 1, (op, label, found)
    return found[0]


def ops(graph, nodes):
    return [graph.nodes[n].get("op") for n in nodes]


def test_four_one_argument_ops_in_a_row_are_a_chain_in_order():
    graph = graph_of("tanh(exp(sin(log(a*b)))) + c")
    (chain,) = unary_chains(graph)
    assert ops(graph, chain) == ["log", "sin", "exp", "tanh"]
    assert chain_name(graph, chain) == "tanh∘exp∘sin∘log"  # the ops as written, no node id
    assert chain_name(graph, chain, {"tanh∘exp∘sin∘log"}) == "tanh∘exp∘sin∘log (2)"  # another chain has it
    assert unary_chains(graph_of("exp(sin(log(a*b))) + c")) == []  # three are not enough


def test_a_value_used_outside_the_chain_breaks_it():
    # s = sin(log(a)) is used twice: the chain log→sin ends at s (it may end there: its box shows s);
    # exp(s) starts a new run, too short
    graph = graph_of("s = sin(cos(log(a)))\ny = tanh(exp(s)) + s")
    assert [ops(graph, c) for c in unary_chains(graph, 3)] == [["log", "cos", "sin"]]
    s = node(graph, label="s")
    for chain in unary_chains(graph, 2):
        inner = chain[:-1]
        assert s not in inner  # no member but the last is used outside
    # a long run with a second use in its middle is two runs
    graph = graph_of("m = exp(sin(cos(log(a))))\ny = tanh(relu(abs(sigmoid(m)))) * m")
    runs = unary_chains(graph)
    assert [ops(graph, c) for c in runs] == [["log", "cos", "sin", "exp"], ["sigmoid", "abs", "relu", "tanh"]]


def test_two_argument_ops_and_branches_are_never_in_a_chain():
    graph = graph_of("tanh(exp(a) * sin(log(b)))")
    assert unary_chains(graph, 2) == [[node(graph, "log"), node(graph, "sin")]]
    # x*x has one parent twice: two arguments, not a chain
    graph = graph_of("tanh(exp(sin(x*x)))")
    assert ops(graph, unary_chains(graph, 3)[0]) == ["sin", "exp", "tanh"]


def test_an_n_ary_sum_is_one_group_of_its_plus_nodes():
    graph = graph_of("a*b + c*d + e + f")
    tree = sum_trees(graph)
    plus = [n for n, a in graph.nodes(data=True) if a.get("op") == "+"]
    assert set(tree) == set(plus) and len(plus) == 3
    assert set(tree.values()) == {"Σ 4 terms"}
    # two sums of four terms: told apart without a node id
    assert set(sum_trees(graph_of("p = a + b + c + d\ny = exp(p) * (e + f + g + h)")).values()) == {
        "p: Σ 4 terms",
        "Σ 4 terms",
    }
    assert set(sum_trees(graph_of("exp(a + b + c + d) * sin(e + f + g + h)")).values()) == {
        "Σ 4 terms",
        "Σ 4 terms (2)",
    }
    assert sum_trees(graph_of("a + b + c")) == {}  # three terms: not a group
    # a bracketed tree counts too; a partial sum used elsewhere is not swallowed
    graph = graph_of("(a + b) + (c + d)")
    assert len(sum_trees(graph)) == 3
    graph = graph_of("p = a + b\ny = p + c + d + e + p")
    p = node(graph, label="p")
    assert p not in sum_trees(graph)


def test_overview_groups_keep_the_meaning_of_every_edge():
    """Each group has one output: every edge that leaves a group leaves from its last node, so a collapsed
    box (which shows that node's value) stands for exactly the value its edges carry."""
    texts = [text for _name, text in cases(60)]
    texts.append("\n".join(f"h{i} = tanh(w{i}*x{i % 7} + b{i})" for i in range(30)))
    texts[-1] += "\n" + "exp(sin(cos(relu(" + " + ".join(f"h{i}" for i in range(30)) + "))))"
    for text in texts:
        graph = graph_of(text)
        groups = overview_groups(graph)
        members: dict = {}
        for n, g in groups.items():
            members.setdefault(g, []).append(n)
        for g, nodes in members.items():
            leaving = {u for u, v in graph.edges() if groups.get(u) == g and groups.get(v) != g}
            assert len(leaving) <= 1, (text, g, leaving)
            if leaving:
                assert leaving == {max(nodes)}  # ids are topological: the group's last node
    # the big one: one box per name, one for the sum, one for the chain on top
    graph = graph_of(texts[-1])
    names = set(overview_groups(graph).values())
    assert {f"h{i}" for i in range(30)} <= names
    assert any(name.startswith("Σ 30 terms") for name in names)
    assert any(name.startswith("exp∘sin∘cos∘relu") for name in names)


def test_names_made_up_by_grouping_are_told_from_the_expression_s_own():
    graph = to_networkx(Tensor(0.3, label="x").exp().sin().cos().tanh())
    chain = unary_chains(graph)[0]
    assert is_generated_name(chain_name(graph, chain))
    for made_up in ("Σ 32 terms", "Σ 4 terms (2)", "Π 5 factors", "term 3 of Σ 16 terms", "exp∘sin∘…∘log (6 ops)"):
        assert is_generated_name(made_up), made_up
    for own in ("h3", "L1.n0", "h: Σ 4 terms", "#12", "tanh #x", "terms"):
        assert not is_generated_name(own), own


def test_groups_of_is_read_once_and_read_again_when_overview_groups_are_given():
    from autograd_core.drawing.collapse import groups_of
    from autograd_core.drawing.graph import to_networkx
    from autograd_core.drawing.grouping import add_overview_groups
    from autograd_core.language.expression import compile_expression

    text = " + ".join(f"tanh(a*{k}.5 + b*c{k % 3})" for k in range(30))
    graph = to_networkx(compile_expression(text).evaluate({"a": 1.0, "b": 2.0, "c0": 0.5, "c1": 1.0, "c2": 2.0}).output)
    assert groups_of(graph) == []
    assert add_overview_groups(graph)
    names = sorted({g for _, g in graph.nodes(data="group") if g})
    assert names and groups_of(graph) == names and groups_of(graph) == names
    groups_of(graph).append("changed by the caller")  # (a copy each time)
    assert groups_of(graph) == names
