"""The Python engine: Value, parse, trace, layout, timeline, against hand-derived numbers."""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

import jsonschema
import pytest

from microgpt_annotated import Value
from tinydag import TinyDagError, build_timeline, dumps
from tinydag.errors import CODES, MAX_NODES
from tinydag.trace import trace

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
    order = out.backward()  # the order build(v) found, returned for the animation

    expected, seen = [], set()

    def visit(v):
        if id(v) not in seen:
            seen.add(id(v))
            for child in v._children:
                visit(child)
            expected.append(v)

    visit(out)
    assert [id(v) for v in order] == [id(v) for v in expected]


def longest_path(v: Value, memo: dict[int, int]) -> int:
    """Values on the longest path from v down to a leaf: how deep backward()'s build(v) recurses."""
    if id(v) not in memo:
        memo[id(v)] = 1 + max((longest_path(c, memo) for c in v._children), default=0)
    return memo[id(v)]


def stack_depth() -> int:
    frame, depth = sys._getframe(), 0
    while frame:
        frame, depth = frame.f_back, depth + 1
    return depth


DEEPEST = "a/(" * 38 + "a/a" + ")" * 38  # 39 divisions of one variable: 40 nodes, the most allowed


def test_the_recursive_build_is_79_calls_deep_at_the_engine_limit():
    t = trace(DEEPEST, {"a": 1.5})
    assert len(t.nodes) == MAX_NODES
    # a derived node is two Values deep (a / b is a * b**-1), so 39 of them and a leaf make 79
    assert longest_path(t.root.out, {}) == 79
    with pytest.raises(TinyDagError) as refused:  # one more node is refused before any Value exists
        trace("a/(" + DEEPEST + ")", {"a": 1.5})
    assert refused.value.code == "too-large"
    assert refused.value.params == {"reason": "nodes", "limit": "40", "count": "41"}  # how much to cut
    grads = [v.grad for v in t.topo]
    limit = sys.getrecursionlimit()
    assert stack_depth() + 79 < limit / 2  # Python's default 1,000 leaves room for mkdocs' own stack
    def runs_with(room: int) -> bool:  # backward() under a recursion limit `room` frames above here
        for v in t.topo:
            v.grad = 0.0
        sys.setrecursionlimit(stack_depth() + room)
        try:
            order = t.root.out.backward()
        except RecursionError:
            return False
        finally:
            sys.setrecursionlimit(limit)
        assert order == t.topo and [v.grad for v in t.topo] == grads
        return True

    # build(v) really recurses, about 79 frames deep: the least room it runs in is 79 and a few frames
    # (what the interpreter counts beside build's own frames differs a little between runners)
    least = next(room for room in range(40, 200) if runs_with(room))
    assert 79 <= least <= 79 + 20, least


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


# ---- the engine refuses only what it must: a constant exponent is folded at parse time ----

@pytest.mark.parametrize("expression, exponent", [
    ("2 ** 3 ** 2", 9.0), ("a ** (1/2)", 0.5), ("a ** -(1/2)", -0.5), ("a ** (2 * 3 - 4)", 2.0),
    ("a ** 2 ** -1", 0.5), ("a ** (exp(0) + log(1) + relu(-2))", 1.0), ("a ** (1/3)", 1 / 3),
    ("(a + 1) ** ((((2))))", 2.0), ("a ** -(3 - 1)", -2.0),
])
def test_a_constant_exponent_folds_as_python_computes_it(expression, exponent):
    env = {"a": 4.0}
    t = build_timeline(expression, env)
    power = t["nodes"][-1]
    assert power["op"] == "**" and power["exponent"] == exponent  # the const badge, no node of its own
    assert power["exponent_label"] == expression[expression.index("**") + 2:].strip()
    expected = eval(expression, {"__builtins__": {}}, {"exp": math.exp, "log": math.log,
                                                      "relu": lambda x: max(0.0, x), **env})
    assert power["value"] == pytest.approx(expected, rel=1e-15)


def test_power_tower_is_right_associative():
    t = build_timeline("2 ** 3 ** 2", {})
    assert t["nodes"][-1]["value"] == 512.0 == 2 ** 3 ** 2
    assert [n["op"] for n in t["nodes"]] == ["const", "**"]


def test_a_folded_exponent_draws_and_differentiates_like_its_literal():
    folded, literal = build_timeline("a ** (1/2)", {"a": 4}), build_timeline("a ** 0.5", {"a": 4})
    numbers = ("op", "value", "grad", "exponent", "column", "row")
    assert [[n.get(k) for k in numbers] for n in folded["nodes"]] == \
        [[n.get(k) for k in numbers] for n in literal["nodes"]]
    assert grads(folded) == {"a": 0.25}  # d/da a ** 0.5 = 0.5 / sqrt(a), by hand
    h = 1e-6
    assert math.isclose(((4 + h) ** 0.5 - (4 - h) ** 0.5) / (2 * h), 0.25, rel_tol=1e-8)


@pytest.mark.parametrize("expression, code, start, end, reason", [
    ("a ** (2 * (1 + b))", "variable-exponent", 5, 18, None),
    ("a ** 2 ** b", "variable-exponent", 10, 11, None),
    ("a ** -b", "variable-exponent", 5, 7, None),
    ("a ** (1 / (2 - 2))", "domain", 10, 17, "division"), ("a ** log(0)", "domain", 5, 11, "log"),
    ("a ** (0 ** -1)", "domain", 6, 13, "zero-negative-power"),
    ("a ** ((-8) ** (1/3))", "domain", 6, 19, "negative-base"),
    ("a ** (1e200 * 1e200)", "overflow", 6, 19, None), ("a ** exp(1000)", "overflow", 5, 14, None),
    # chained: the exponent's own power folds first, and its error names that power's span
    ("b ** 1e-300 ** -2", "overflow", 5, 17, None),  # 1e600; power() divided by 1e-600, which is 0.0
    ("a ** (5e-324) ** -2", "overflow", 5, 19, None), ("a ** 2 ** 1e-160 ** -3", "overflow", 10, 22, None),
    ("a ** 0 ** -1 ** 2", "domain", 5, 17, "zero-negative-power"),  # -1 ** 2 is -(1 ** 2)
    ("a ** (-8) ** 2 ** -1", "domain", 5, 20, "negative-base"),
])
def test_only_a_variable_in_the_exponent_is_refused_and_folding_errors_name_their_span(
        expression, code, start, end, reason):
    with pytest.raises(TinyDagError) as caught:
        build_timeline(expression, {"a": 2, "b": 3})
    error = caught.value
    assert (error.code, error.start, error.end, error.node) == (code, start, end, None), error.message
    assert error.params.get("reason") == reason
    jsonschema.validate(error.to_json(), SCHEMA)


def test_an_exponent_that_underflows_folds_to_zero_as_python_computes_it():
    t = build_timeline("a ** 1e-300 ** 2", {"a": 3})  # 1e-600 is below the smallest float: 0.0
    assert (t["nodes"][-1]["exponent"], t["nodes"][-1]["value"], grads(t)) == (0.0, 1.0, {"a": 0.0})
    assert 1e-300 ** 2 == 0.0 and 3.0 ** 0.0 == 1.0


@pytest.mark.parametrize("expression, a, start, end", [
    ("a ** -2", 1e-300, 0, 7), ("a ** -16", 1e-30, 0, 8), ("a ** -1.5", 1e-250, 0, 9),
    ("(1e-300) ** -2 * a", 1.0, 0, 14), ("(a) ** 1e308", 2.0, 0, 12),
])
def test_a_traced_power_beyond_a_float_is_an_overflow_at_its_node(expression, a, start, end):
    # 1e600, 1e480, 1e375, 1e600 and 2 ** 1e308: each beyond the largest float, 1.8e308
    with pytest.raises(TinyDagError) as caught:
        build_timeline(expression, {"a": a})
    error = caught.value
    assert (error.code, error.start, error.end, error.node) == ("overflow", start, end, "n1"), error.message


@pytest.mark.parametrize("a", [0.0, -0.0, -3.0, 2.5])
def test_anything_to_the_zero_is_one_with_gradient_zero(a):
    for expression in ("a ** 0", "a ** -0", "a ** (1 - 1)"):
        t = build_timeline(expression, {"a": a})
        assert t["nodes"][-1]["value"] == 1.0
        assert math.copysign(1, grads(t)["a"]) == 1 and grads(t)["a"] == 0.0  # +0.0, flat
        assert t["edges"][0]["local"] == 0.0
    h = 1e-6  # finite differences agree: x ** 0 is 1 on both sides
    assert ((a + h) ** 0 - (a - h) ** 0) / (2 * h) == 0.0


def test_value_pow_zero_at_zero_by_hand():
    a = Value(0.0)
    out = a**0
    out.backward()
    assert (out.data, a.grad) == (1.0, 0.0)
    b = Value(0.0)
    with pytest.raises(ZeroDivisionError):  # the slope of sqrt at 0 is infinite: the tracer refuses it
        b**0.5


def test_the_engine_names_its_modules_and_owns_its_cache_key(tmp_path, monkeypatch):
    import tinydag

    package = Path(tinydag.__file__).parent
    assert set(tinydag.MODULES) == {"microgpt_annotated", "tinydag"} | {
        f"tinydag.{p.stem}" for p in package.glob("*.py") if p.stem not in ("__init__", "__main__")}
    digest = tinydag.source_digest()
    assert digest == tinydag.source_digest() and len(digest) == 64
    copy = tmp_path / "tinydag"  # the same source elsewhere: the same key; one byte more: another
    copy.mkdir()
    for path in package.glob("*.py"):
        (copy / path.name).write_bytes(path.read_bytes())
    monkeypatch.setattr(tinydag, "__file__", str(copy / "__init__.py"))
    assert tinydag.source_digest() == digest
    (copy / "new_module.py").write_text("# a module the plugin never heard of\n")
    assert tinydag.source_digest() != digest


def test_the_typed_timeline_names_the_schema_fields():
    """tinydag/types.py (the TypedDicts mypy checks the engine against) says what the schema says."""
    from tinydag import types

    defs = SCHEMA["$defs"]
    for typed, name in ((types.Timeline, "timeline"), (types.TimelineNode, "node"), (types.Edge, "edge"),
                        (types.ErrorResult, "errorResult")):
        assert set(typed.__required_keys__) == set(defs[name]["required"]), name
        assert set(typed.__required_keys__ | typed.__optional_keys__) == set(defs[name]["properties"]), name
    error = defs["errorResult"]["properties"]["error"]
    assert types.ErrorPayload.__required_keys__ == set(error["required"])
    assert set(error["properties"]["code"]["enum"]) == set(types.ErrorCode.__args__) == set(CODES)


def test_a_built_timeline_has_exactly_the_typed_keys():
    from tinydag import types

    t = build_timeline("(a - b) / c + a ** 2", {"a": 5, "b": 2, "c": 4})
    assert set(t) == types.Timeline.__required_keys__
    for node in t["nodes"]:
        assert types.TimelineNode.__required_keys__ <= set(node) <= (
            types.TimelineNode.__required_keys__ | types.TimelineNode.__optional_keys__)
        for primitive in node.get("primitives", []):
            assert set(primitive) <= types.Primitive.__required_keys__ | types.Primitive.__optional_keys__
    assert all(set(e) == types.Edge.__required_keys__ for e in t["edges"])
    assert all(set(s) == types.BackwardStep.__required_keys__ for s in t["backward"])
