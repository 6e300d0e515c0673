"""The layered layout (tinydag/layout.py) on the lesson's graphs and big ones: columns by distance from
the root, rows in the expression's order that cut crossings, heights that keep edges short and straight.
The TypeScript mirror gives the same numbers (tests/test_equivalence.py, over the corpus and random
expressions); tests/ts/inference.test.ts checks the same geometry there."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings

from tinydag import TinyDagError, build_timeline
from tinydag.layout import ROW_GAP, add_placeholders, assign_columns, count_crossings, order_rows
from tinydag.trace import trace

from .expressions import expressions

SUM_OF_PRODUCTS = "relu(a*b + c*d + e*f + g*h + k*m + n*p + q*r + s*t + u*v + w*x)"
MIXED = "relu(w * x + v * y + b) * relu(a * c - d) + exp(e / f) * log(g + h)"
THIRTEEN = "a*b + c*d + e*f + g*h + k*m + n*p + q"  # 13 variables
SHARED = ("relu(a * b + c * d - e / f) * exp(g - h) + log(a * a + 1) ** 2 - (b - c) / (d + 2)"
          " + relu(-e * f) * (g + h * 0.5) - exp(-a) * b")
TREES = ["(a + b) * c", "relu(a * b)", "(a - b) / c", "log(exp(a) + b ** 2)", "relu(w * x + v * y + b)",
         MIXED, SUM_OF_PRODUCTS, THIRTEEN, "1 / (1 + exp(-a))", "exp(log(exp(log(a))))"]
EVERY = [*TREES, "a * a", SHARED, " * ".join(["a"] * 39), "relu(w * x + v * y + b) * 2 - log(x)"]


def laid_out(expression: str) -> tuple[dict, dict[str, dict]]:
    t = build_timeline(expression, {})
    return t, {n["label"]: n for n in t["nodes"]}


def consumers(t: dict) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {n["id"]: set() for n in t["nodes"]}
    for e in t["edges"]:
        out[e["from"]].add(e["to"])
    return out


@pytest.mark.parametrize("expression", EVERY)
def test_each_node_sits_one_column_left_of_its_leftmost_consumer(expression):
    t, _ = laid_out(expression)
    by_id = {n["id"]: n for n in t["nodes"]}
    last = max(n["column"] for n in t["nodes"])
    assert [n["id"] for n in t["nodes"] if n["column"] == last] == [t["root"]], "the root alone on the right"
    for nid, users in consumers(t).items():
        if users:
            assert by_id[nid]["column"] == min(by_id[u]["column"] for u in users) - 1, by_id[nid]["label"]
            assert all(by_id[nid]["x"] < by_id[u]["x"] for u in users)


@pytest.mark.parametrize("expression", EVERY)
def test_cards_of_a_column_keep_their_rows_and_room(expression):
    t, _ = laid_out(expression)
    for column, cards in itertools.groupby(sorted(t["nodes"], key=lambda n: (n["column"], n["row"])),
                                           key=lambda n: n["column"]):
        ys = [n["y"] for n in cards]
        assert all(upper - lower >= ROW_GAP - 1e-9 for upper, lower in itertools.pairwise(ys)), (
            f"column {column}: row 0 on top, ROW_GAP between neighbours: {ys}")
    ys = [n["y"] for n in t["nodes"]]
    assert max(ys) + min(ys) == pytest.approx(0, abs=1e-12), "centred on 0"


def test_every_product_sits_beside_its_own_two_leaves_and_the_sum_runs_wide():
    t, node = laid_out(SUM_OF_PRODUCTS)
    for left, right in ("ab", "cd", "ef", "gh", "km", "np", "qr", "st", "uv", "wx"):
        product, a, b = node[f"{left}*{right}"], node[left], node[right]
        assert a["column"] == b["column"] == product["column"] - 1
        assert b["row"] == a["row"] + 1, "the leaves in the expression's order, top to bottom"
        assert b["y"] - ROW_GAP / 2 <= product["y"] <= a["y"] + ROW_GAP / 2, "level with its leaves"
    columns = 1 + max(n["column"] for n in t["nodes"])
    tallest = max(sum(1 for n in t["nodes"] if n["column"] == c) for c in range(columns))
    assert (columns, tallest) == (12, 4), "twelve columns of at most four cards, not twenty leaves in one"
    # every edge reaches its neighbouring column: no trunk of long edges from a first column
    by_id = {n["id"]: n for n in t["nodes"]}
    assert {by_id[e["to"]]["column"] - by_id[e["from"]]["column"] for e in t["edges"]} == {1}


@pytest.mark.parametrize("expression", TREES)
def test_a_tree_keeps_the_expressions_order_and_has_no_crossing(expression):
    nodes = trace(expression, {}).nodes
    column = assign_columns(nodes)
    columns, children, parents = add_placeholders(nodes, column)
    created = [list(col) for col in columns]
    order_rows(columns, children, parents)
    assert count_crossings(columns, parents) == 0
    assert columns == created, "sibling order follows the expression"


def test_a_chain_of_one_input_operations_is_one_straight_line():
    t, _ = laid_out("relu(exp(log(exp(a))))")
    assert {n["y"] for n in t["nodes"]} == {0.0}
    t, node = laid_out("relu(w * x + v * y + b)")
    assert node["relu(w * x + v * y + b)"]["y"] == node["w * x + v * y + b"]["y"], "the last edge is level"


def test_the_sweeps_keep_the_best_ordering_they_met():
    nodes = trace(SHARED, {}).nodes
    column = assign_columns(nodes)
    columns, children, parents = add_placeholders(nodes, column)
    before = count_crossings(columns, parents)
    order_rows(columns, children, parents)
    assert count_crossings(columns, parents) < before


@settings(max_examples=150, deadline=None)
@given(expressions(max_leaves=10))
def test_ordering_never_adds_crossings_and_rows_never_collide(expression):
    try:
        nodes = trace(expression, {}).nodes
    except TinyDagError:  # a domain error of a random expression: nothing to lay out
        return
    column = assign_columns(nodes)
    columns, children, parents = add_placeholders(nodes, column)
    before = count_crossings(columns, parents)
    order_rows(columns, children, parents)
    assert count_crossings(columns, parents) <= before
    t = build_timeline(expression, {})
    cells = {(n["column"], n["row"]) for n in t["nodes"]}
    assert len(cells) == len(t["nodes"])
