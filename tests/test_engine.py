"""The Python engine: Value, parse, trace, layout, timeline, against hand-derived numbers."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from microgpt_annotated import Value
from tinydag import TinyDagError, build_timeline, dumps

SCHEMA = json.loads((Path(__file__).parents[1] / "src/tinydag/timeline.schema.json").read_text())


def node(timeline: dict, label: str) -> dict:
    (found,) = [n for n in timeline["nodes"] if n["label"] == label]
    return found


def grads(timeline: dict) -> dict[str, float]:
    return {v["name"]: node(timeline, v["name"])["grad"] for v in timeline["variables"]}


def test_value_class_lesson_example():
    a, b, c = Value(2), Value(-3), Value(10)
    loss = (a + b) * c
    loss.backward()
    assert (loss.data, a.grad, b.grad, c.grad) == (-10.0, 10.0, 10.0, -1.0)
    assert isinstance(Value(1).grad, float) and isinstance(Value(1).data, float)


def test_value_reflected_and_derived_operations():
    a = Value(4.0)
    assert (2 - a).data == -2.0 and (2 / a).data == 0.5 and (3 + a).data == 7.0
    assert (3 * a).data == 12.0 and (-a).data == -4.0
    out = 2 / a
    out.backward()
    assert a.grad == -2 / 16


def test_topological_order_is_the_recursive_dfs_order():
    a, b = Value(1.0), Value(2.0)
    ab = a * b
    out = (ab + a) * (ab + b.exp())
    order = out.topological_order()

    expected, seen = [], set()

    def visit(v):
        if id(v) not in seen:
            seen.add(id(v))
            for child in v._children:
                visit(child)
            expected.append(v)

    visit(out)
    assert [id(v) for v in order] == [id(v) for v in expected]


def test_deep_chain_needs_no_recursion():
    x = Value(1.0)
    out = x
    for _ in range(20_000):
        out = out + 1.0
    out.backward()
    assert x.grad == 1.0


def test_lesson_default_numbers_and_chain_rule_labels():
    t = build_timeline("(a + b) * c", {"a": 2, "b": -3, "c": 10})
    assert grads(t) == {"a": 10.0, "b": 10.0, "c": -1.0}
    assert node(t, "a + b")["value"] == -1.0
    steps = [(s["parent"], s["child"], s["incoming"], s["local"], s["contribution"])
             for s in t["backward"]]
    mul, add = node(t, "(a + b) * c")["id"], node(t, "a + b")["id"]
    a, b, c = (node(t, x)["id"] for x in "abc")
    assert steps == [(mul, add, 1.0, 10.0, 10.0), (mul, c, 1.0, -1.0, -1.0),
                     (add, a, 10.0, 1.0, 10.0), (add, b, 10.0, 1.0, 10.0)]
    assert t["seed"] == {"node": mul, "grad": 1.0} and t["root"] == mul


def test_variable_used_twice_is_one_leaf_with_two_edges_and_accumulates():
    t = build_timeline("a * a", {"a": 3})
    leaves = [n for n in t["nodes"] if n["op"] == "var"]
    assert len(leaves) == 1
    assert [(e["from"], e["slot"]) for e in t["edges"]] == [(leaves[0]["id"], 0),
                                                           (leaves[0]["id"], 1)]
    assert [s["grad_after"] for s in t["backward"]] == [3.0, 6.0]
    assert leaves[0]["grad"] == 6.0


def test_dead_relu_sends_zero_upstream():
    t = build_timeline("relu(a * b)", {"a": 2, "b": -3})
    assert t["nodes"][-1]["value"] == 0.0
    assert all(g == 0 for g in grads(t).values())
    live = build_timeline("relu(a * b)", {"a": 2, "b": 3})
    assert grads(live) == {"a": 3.0, "b": 2.0}


def test_subtraction_is_derived_with_local_minus_one():
    t = build_timeline("a - b", {"a": 5, "b": 2})
    sub = t["nodes"][-1]
    assert sub["op"] == "-" and sub["derived"] and sub["value"] == 3.0
    assert [e["local"] for e in t["edges"]] == [1.0, -1.0]
    assert grads(t) == {"a": 1.0, "b": -1.0}
    # a - b = a + (b * -1): the hidden constant -1, the hidden product, the visible sum
    assert [(p["op"], p["value"]) for p in sub["primitives"]] == [("const", -1.0), ("*", -2.0),
                                                                  ("+", 3.0)]


def test_division_is_derived_and_exact():
    t = build_timeline("a / b", {"a": 3, "b": 4})
    assert t["nodes"][-1]["derived"] and t["nodes"][-1]["value"] == 0.75
    assert grads(t) == {"a": 0.25, "b": -3 / 16}
    assert [p["op"] for p in t["nodes"][-1]["primitives"]] == ["**", "*"]


def test_constant_exponent_is_a_badge_not_a_node():
    t = build_timeline("a ** 3", {"a": 2})
    assert len(t["nodes"]) == 2
    power = t["nodes"][-1]
    assert (power["op"], power["exponent"], power["exponent_label"]) == ("**", 3.0, "3")
    assert grads(t) == {"a": 12.0}


@pytest.mark.parametrize("expression, expected", [
    ("-a ** 2", -4.0), ("-2 ** 2", -4.0),
    ("a - b - c", -5.0), ("a / b / c", 2 / -3 / 10), ("a * -b", 6.0), ("a ** -1", 0.5),
    ("(a) ** (2)", 4.0), ("a + b * c", -28.0), ("-(a + b)", 1.0), ("a ** 0.5 * a ** 0.5", 2.0),
])
def test_precedence_follows_python(expression, expected):
    t = build_timeline(expression, {"a": 2, "b": -3, "c": 10})
    assert t["nodes"][-1]["value"] == pytest.approx(expected, rel=1e-15)


ERRORS = [
    ("a ** b", "variable-exponent", 5, 6), ("2 ** a", "variable-exponent", 5, 6),
    ("a ** (b + 1)", "variable-exponent", 5, 12), ("sin(x)", "unknown-function", 0, 3),
    ("a +", "syntax", 3, 3), ("(a + b", "syntax", 0, 1), ("a + b)", "syntax", 5, 6),
    ("a $ b", "syntax", 2, 3), ("ab", "syntax", 0, 2), ("relu + 1", "syntax", 0, 4),
    ("", "syntax", 0, 0), ("(" * 200, "syntax", 200, 200),
    ("(" * 99 + "a" + ")" * 99 + "+", "syntax", 200, 200), ("a b", "syntax", 2, 3),
    ("1e999", "overflow", 0, 5),
    ("a" + " + a" * 60, "too-large", 200, 241),
    (" + ".join("abcdefghijklmnopqrstu") + " * 2 * 3 * 4", "too-large", 0, 93),
]


@pytest.mark.parametrize("expression, code, start, end", ERRORS)
def test_input_errors_have_code_and_span(expression, code, start, end):
    with pytest.raises(TinyDagError) as caught:
        build_timeline(expression, {})
    error = caught.value
    assert (error.code, error.start, error.end) == (code, start, end), error.message
    assert error.message and error.node is None
    jsonschema.validate(error.to_json(), SCHEMA)


@pytest.mark.parametrize("expression, values, code, label", [
    ("log(a)", {"a": -1}, "domain", "log(a)"), ("log(a - b)", {"a": 1, "b": 1}, "domain",
                                                "log(a - b)"),
    ("a / b", {"b": 0}, "domain", "b"), ("a / (b - b)", {"b": 3}, "domain", "(b - b)"),
    ("(a + 1) / b / (a - a)", {"a": 2, "b": 4}, "domain", "(a - a)"),
    ("b ** -1", {"b": 0}, "domain", "b ** -1"),
    ("a ** 0.5", {"a": -4}, "domain", "a ** 0.5"), ("a ** 0.5", {"a": 0}, "domain", "a ** 0.5"),
    ("exp(a)", {"a": 1000}, "overflow", "exp(a)"), ("a ** 3", {"a": 1e200}, "overflow", "a ** 3"),
    ("a * b", {"a": 1e200, "b": 1e200}, "overflow", "a * b"),
    ("log(a) * 1e300", {"a": 1e-10}, "overflow", "a"),  # finite values, infinite gradient
])
def test_numeric_errors_name_the_offending_node(expression, values, code, label):
    with pytest.raises(TinyDagError) as caught:
        build_timeline(expression, values)
    error = caught.value
    assert error.code == code and error.node is not None
    if label is not None:
        assert expression[error.start:error.end] == label
    jsonschema.validate(error.to_json(), SCHEMA)


def test_negative_base_with_integer_exponent_is_fine():
    t = build_timeline("a ** 3", {"a": -2})
    assert t["nodes"][-1]["value"] == -8.0 and grads(t) == {"a": 12.0}


def test_unset_variables_default_to_one():
    assert build_timeline("a + z", {})["variables"] == [
        {"name": "a", "node": "n0", "value": 1.0}, {"name": "z", "node": "n1", "value": 1.0}]


@pytest.mark.parametrize("expression", ["(a + b) * c", "a * a", "(a - b) / c", "relu(a * b)",
                                        "log(exp(a) + b ** 2)", "relu(w * x + v * y + b)", "-a",
                                        "2", "a", "-(3 - a) / (a * a - 2 * -a)"])
def test_schema_and_byte_identical_twice(expression):
    values = {"a": 2, "b": -3, "c": 10, "w": 0.5, "x": 2, "v": -1, "y": 0.5}
    first = dumps(build_timeline(expression, values))
    assert first == dumps(build_timeline(expression, values))
    jsonschema.validate(json.loads(first), SCHEMA)


def test_layout_columns_and_root_alone():
    t = build_timeline("relu(w * x + v * y + b) * 2 - log(x)", {"x": 2})
    by_id = {n["id"]: n for n in t["nodes"]}
    last = max(n["column"] for n in t["nodes"])
    assert [n["id"] for n in t["nodes"] if n["column"] == last] == [t["root"]]
    for n in t["nodes"]:
        if n["op"] == "var":
            assert n["column"] == 0
        for i in n["inputs"]:
            assert by_id[i]["column"] < n["column"]
            assert by_id[i]["x"] < n["x"]
    cells = {(n["column"], n["row"]) for n in t["nodes"]}
    assert len(cells) == len(t["nodes"])
