"""Property tests: random expressions against Python's own arithmetic and finite differences."""

from __future__ import annotations

import json
import math
import struct
from pathlib import Path

import jsonschema
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tinydag import TinyDagError, build_timeline
from tinydag.trace import trace

from .expressions import expressions, reference, values

SCHEMA = json.loads((Path(__file__).parents[1] / "src/tinydag/timeline.schema.json").read_text())
PROPERTY = settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def one_sided_differences(expression: str, env: dict[str, float], name: str,
                          h: float) -> tuple[float, float]:
    """(f(x + h) - f(x)) / h and (f(x) - f(x - h)) / h: equal in the limit only where f is smooth."""
    up, down = dict(env), dict(env)
    up[name] += h
    down[name] -= h
    here = reference(expression, env)
    return (reference(expression, up) - here) / h, (here - reference(expression, down)) / h


@PROPERTY
@given(expressions(max_leaves=8), values())
def test_gradients_match_finite_differences(expression, env):
    try:
        t = build_timeline(expression, env)
    except TinyDagError as error:
        assert error.code in ("domain", "overflow", "too-large"), error.message
        return
    jsonschema.validate(t, SCHEMA)
    assert t["nodes"][-1]["value"] == reference(expression, env) or math.isclose(
        t["nodes"][-1]["value"], reference(expression, env), rel_tol=1e-12, abs_tol=1e-12)
    for variable in t["variables"]:
        grad = next(n["grad"] for n in t["nodes"] if n["id"] == variable["node"])
        name = variable["name"]
        try:
            h = 1e-5 * max(1.0, abs(env[name]))
            ahead, behind = one_sided_differences(expression, env, name, h)
        except (ValueError, ZeroDivisionError, OverflowError, TypeError):
            # a nudge crossed a domain boundary (log, division, or a fractional power below 0, where
            # Python's ** gives a complex number that math.exp refuses): no derivative to compare
            continue
        if not math.isclose(ahead, behind, rel_tol=1e-2, abs_tol=1e-5):
            continue  # not smooth here (a ReLU kink, a pole nearby): finite differences lie
        central = (ahead + behind) / 2
        assert math.isclose(grad, central, rel_tol=1e-4, abs_tol=1e-5), (name, grad, central)


@PROPERTY
@given(expressions(max_leaves=8), values())
def test_recorded_backward_equals_value_backward_bit_for_bit(expression, env):
    try:
        recorded = trace(expression, env)
        fresh = trace(expression, env)
    except TinyDagError:
        return
    for v in fresh.topo:
        v.grad = 0.0
    fresh.root.out.backward()
    assert [n.out.grad for n in recorded.nodes] == [n.out.grad for n in fresh.nodes]
    assert [v.grad for v in recorded.topo] == [v.grad for v in fresh.topo]


@PROPERTY
@given(expressions(max_leaves=8), values())
def test_the_recorded_steps_end_where_value_backward_left_every_grad(expression, env):
    """The trace writes down backward()'s steps after it ran: each child's last grad_after is the grad
    backward() left it, bit for bit (-0.0 and NaN included), and each step's incoming is its v.grad."""
    try:
        t = trace(expression, env)
    except TinyDagError:
        return
    last: dict[int, float] = {}
    for event in t.events:
        assert struct.pack(">d", event.incoming) == struct.pack(">d", event.primitive.grad)
        last[id(event.child)] = event.grad_after
    for v in t.topo:
        if v is not t.root.out:
            assert struct.pack(">d", last[id(v)]) == struct.pack(">d", v.grad)


@PROPERTY
@given(expressions(max_leaves=8), values())
def test_each_visual_edge_gets_exactly_one_handoff_and_grads_add_up(expression, env):
    try:
        t = build_timeline(expression, env)
    except TinyDagError:
        return
    assert sorted(s["edge"] for s in t["backward"]) == sorted(e["id"] for e in t["edges"])
    assert t["topo"][-1] == t["root"]
    total: dict[str, float] = {}
    for step in t["backward"]:
        assert t["topo"].index(step["parent"]) > t["topo"].index(step["child"])
        total[step["child"]] = total.get(step["child"], 0.0) + step["contribution"]
        assert step["grad_after"] == total[step["child"]]
    for n in t["nodes"]:
        if n["id"] != t["root"]:
            assert n["grad"] == total[n["id"]]


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=60))
def test_arbitrary_text_never_crashes(text):
    try:
        t = build_timeline(text, {})
    except TinyDagError as error:
        payload = error.to_json()
        jsonschema.validate(payload, SCHEMA)
        assert 0 <= payload["error"].get("start", 0) <= payload["error"].get("end", len(text))
        return
    jsonschema.validate(t, SCHEMA)
