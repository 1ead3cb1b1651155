"""A graph's SVG picture (``autograd_core.draw``, a notebook cell's ``Tensor._repr_svg_``): valid XML, every box's
name, value and gradient, both orientations and themes readable, written to a file, and a big graph folded into
an overview that says so."""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET

import pytest

import autograd_core
from autograd_core import Tensor, draw
from autograd_core.drawing.folding import dominators, fold
from autograd_core.drawing.svg import THEMES, contrast_ratio
from autograd_core.engine.tensor import topological_order
from autograd_core.numbers import format_number

SVG = "{http://www.w3.org/2000/svg}"


def article_graph() -> Tensor:
    """The article's L = (a*b + c) * f, after backward (its hand-derived grads: a 6, b −4, c −2, f 4)."""
    a, b, c, f = Tensor(2.0, label="a"), Tensor(-3.0, label="b"), Tensor(10.0, label="c"), Tensor(-2.0, label="f")
    e = a * b
    e.label = "e"
    d = e + c
    d.label = "d"
    out = d * f
    out.label = "L"
    out.backward()
    return out


def box_list(svg: str) -> list[tuple[float, float, list[str], str, str]]:
    """(x, y, its three lines, text color, fill) of every box of the picture."""
    root = ET.fromstring(svg)
    found = []
    for g in root.iter(f"{SVG}g"):
        rect, texts = g.find(f"{SVG}rect"), g.findall(f"{SVG}text")
        move = re.fullmatch(r"translate\(([-\d.]+),([-\d.]+)\)", g.get("transform", ""))
        if move and rect is not None and len(texts) == 3:
            lines = [t.text or "" for t in texts]
            found.append((float(move[1]), float(move[2]), lines, g.get("fill"), rect.get("fill")))
    return found


def boxes(svg: str) -> dict[str, tuple[float, float, list[str], str, str]]:
    """Title -> box, for a picture whose titles differ."""
    found = box_list(svg)
    assert len({b[2][0] for b in found}) == len(found)
    return {b[2][0]: b for b in found}


def article_loss(points: int) -> Tensor:
    """The article's training loss (its MLP 2-16-16-1, its cross-entropy) on ``points`` moons points."""
    from benchmarks.bench_draw import article_loss as build

    return build(points)


def test_the_picture_is_xml_with_each_nodes_name_value_and_gradient():
    out = article_graph()
    picture = draw(out)
    shown = boxes(picture.svg)
    assert picture._repr_svg_() == picture.svg and out._repr_svg_() == picture.svg
    assert set(shown) == {"a", "b", "c", "f", "e = *", "d = +", "L = *"}
    for node in topological_order(out):
        title = f"{node.label} = {node.op}" if node.op else node.label
        assert shown[title][2][1:] == [f"data {format_number(node.data)}", f"grad {format_number(node.grad)}"]
    assert shown["a"][2][2] == "grad 6" and shown["b"][2][2] == "grad −4" and shown["f"][2][2] == "grad 4"
    assert not picture.folded and picture.nodes == 7 and "folded" not in picture.svg


def test_left_to_right_and_top_to_bottom_put_the_output_after_its_inputs():
    out = article_graph()
    lr, tb = boxes(draw(out, "LR").svg), boxes(draw(out, direction="TB").svg)
    # LR: each op right of its operands (inputs at the left); TB: below them (inputs at the top)
    for op, operands in (("e = *", ("a", "b")), ("d = +", ("e = *", "c")), ("L = *", ("d = +", "f"))):
        assert all(lr[op][0] > lr[x][0] for x in operands)
        assert all(tb[op][1] > tb[x][1] for x in operands)
    assert max(v[0] for v in lr.values()) == lr["L = *"][0] and max(v[1] for v in tb.values()) == tb["L = *"][1]
    assert len({round(v[1]) for v in lr.values()}) > 1 and len({round(v[0]) for v in tb.values()}) > 1


def test_save_writes_the_svg_and_it_reads_back(tmp_path):
    picture = draw(article_graph(), theme="dark")
    path = picture.save(tmp_path / "graph.svg")
    text = path.read_text(encoding="utf-8")
    assert text == picture.svg and "data −3" in text  # (the true minus sign, written as UTF-8)
    assert set(boxes(text)) == set(boxes(picture.svg))


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_each_theme_draws_its_background_and_readable_text(theme):
    random.seed(1)
    xs = [Tensor(random.uniform(-2, 2), label=f"x{i}") for i in range(6)]
    out = sum((x * x if i % 2 else -x for i, x in enumerate(xs)), Tensor(0.0, label="b")).tanh()
    out.backward()
    svg = draw(out, theme=theme).svg
    root = ET.fromstring(svg)
    background = root.find(f"{SVG}rect")
    assert (background.get("width"), background.get("height")) == (root.get("width"), root.get("height"))
    assert background.get("fill") == THEMES[theme]["background"]
    dark = contrast_ratio(background.get("fill"), "#000000") < contrast_ratio(background.get("fill"), "#ffffff")
    assert dark == (theme == "dark")
    shown = box_list(svg)
    assert len(shown) == len(topological_order(out))
    fills = {fill for *_, fill in shown}
    assert len(fills) > 3  # gradients of both signs and sizes
    for *_, text, fill in shown:
        assert contrast_ratio(text, fill) >= 4.5
    for legend_or_note in root.iter(f"{SVG}g"):
        if legend_or_note.get("font-size") and legend_or_note.get("fill"):
            assert contrast_ratio(legend_or_note.get("fill"), background.get("fill")) >= 3.0


def test_a_user_op_is_a_box_named_by_its_label():
    a, b = Tensor(1.5, label="a"), Tensor(-2.0, label="b")
    mine = Tensor(a.data * b.data, label="my_mul", _children=(a, b))
    out = mine + a
    shown = boxes(draw(out).svg)
    assert shown["my_mul"][2][1] == "data −3"
    assert mine.op_entry is None and not mine.is_leaf
    assert shown["my_mul"][0] > shown["a"][0] and shown["+"][0] > shown["my_mul"][0]


def test_text_is_escaped_and_bad_arguments_are_refused():
    x = Tensor(1.0, label='<x & "y">\x01')
    svg = draw(x * 2).svg
    assert '<x & "y">\ufffd' in boxes(svg)  # the name as written (a control character replaced)
    with pytest.raises(ValueError, match="direction"):
        draw(x, "RL")
    with pytest.raises(ValueError, match="theme"):
        draw(x, theme="blue")
    with pytest.raises(TypeError, match="Tensor"):
        draw(1.0)


def test_draw_is_the_packages_and_loads_the_drawing_only_when_used():
    assert autograd_core.draw is draw and "draw" in autograd_core.__all__


def test_dominators_by_hand():
    # x → x*x (twice) → s = x*x + y; y → s; t = s.tanh(): every node's every path to t passes through s
    x, y = Tensor(0.5, label="x"), Tensor(2.0, label="y")
    sq = x * x
    s = sq + y
    t = s.tanh()
    order = topological_order(t)
    idom, parents, consumers = dominators(order)
    name = {i: node for i, node in enumerate(order)}
    at = {node: i for i, node in name.items()}
    assert name[idom[at[x]]] is sq and name[idom[at[sq]]] is s and name[idom[at[y]]] is s
    assert name[idom[at[s]]] is t and idom[at[t]] == at[t]
    assert parents[at[sq]] == [at[x], at[x]] and consumers[at[x]] == [at[sq], at[sq]]


@pytest.mark.parametrize("seed", range(5))
def test_dominators_agree_with_networkx_on_random_graphs(seed):
    import networkx as nx

    rng = random.Random(seed)
    values = [Tensor(rng.uniform(-1, 1), label=f"x{i}") for i in range(6)]
    for _ in range(60):  # each op reuses earlier values at random: shared nodes, x*x, long and short paths
        a, b = rng.choice(values), rng.choice(values[-8:])
        values.append(rng.choice([a * b, a + b, a.tanh(), a - b]))
    root = Tensor.sum(values[-10:])
    order = topological_order(root)
    idom, parents, _ = dominators(order)
    reverse = nx.DiGraph((i, p) for i, ps in enumerate(parents) for p in ps)
    reverse.add_nodes_from(range(len(order)))
    expected = nx.immediate_dominators(reverse, len(order) - 1)
    assert {i: idom[i] for i in expected} == expected


def test_a_big_graph_is_folded_into_a_small_overview_that_says_so():
    loss = article_loss(20)
    n = len(topological_order(loss))
    assert n > 10_000
    picture = draw(loss)
    size = len(picture.svg.encode())
    assert picture.folded and size < 300_000 and picture.boxes <= 45
    assert f"{n:,} nodes, too many to draw one by one" in picture.svg
    shown = box_list(picture.svg)
    last = max(shown, key=lambda b: b[0])  # the loss, the mean (Σ … × 1/20): its value and grad as computed
    assert last[2] == ["*", f"data {format_number(loss.data)}", "grad 1"]
    assert any(b[2][0] == "▣ Σ 21 terms" for b in shown)  # the article's sum(…) of 20 terms, from 0
    graph, note = fold(loss)
    assert note == picture.note
    # every node is in exactly one box, and every box but the loss's feeds another (no edge between boxes lost)
    assert sum(attrs.get("members", 1) for _, attrs in graph.nodes(data=True)) == n
    assert [b for b in graph if graph.out_degree(b) == 0] == [n - 1]
    assert draw(loss, max_boxes=80).boxes > picture.boxes
