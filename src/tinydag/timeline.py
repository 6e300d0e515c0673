"""Traced DAG + layout -> the timeline JSON the player animates (schema: timeline.schema.json).

`forward` lists the operations in the order the forward pass computed them;
`backward` lists every gradient hand-off along a visual edge, in the order
Value.backward() performed it. A derived node's internal hand-offs stay in its
`primitives` (shown by the "local derivatives" toggle).
"""

from __future__ import annotations

import json
import re
from typing import Literal

from microgpt_annotated import Value

from .layout import layout
from .trace import Trace, VisualNode, trace
from .types import BackwardStep, Edge, ErrorResult, Primitive, Timeline, TimelineNode

VERSION: Literal[1] = 1


def build_timeline(expression: str, values: dict[str, float]) -> Timeline:
    """The whole timeline for an expression; raises TinyDagError on bad input."""
    return timeline_of(trace(expression, values))


def timeline_of(t: Trace) -> Timeline:
    edges, edge_of = edges_of(t)
    backward = backward_steps(t, edges, edge_of)
    visual_outputs = {id(n.out): n.id for n in t.nodes}
    return {
        "version": VERSION,
        "expression": t.expression,
        "root": t.root.id,
        "variables": [{"name": v.name or "", "node": v.id, "value": v.out.data} for v in t.variables],
        "nodes": node_entries(t),
        "edges": edges,
        "topo": [visual_outputs[id(v)] for v in t.topo if id(v) in visual_outputs],
        "forward": [{"node": n.id, "value": n.out.data,
                     "edges": [e["id"] for e in edges if e["to"] == n.id]}
                    for n in t.nodes if n.inputs],
        "seed": {"node": t.root.id, "grad": 1.0},
        "backward": backward,
    }


def edges_of(t: Trace) -> tuple[list[Edge], dict[tuple[int, int], str]]:
    """One edge per input slot, and which (primitive, child index) hand-off each one carries."""
    edge_of: dict[tuple[int, int], str] = {}
    edges: list[Edge] = []
    for node in t.nodes:
        for slot, (exit, source) in enumerate(zip(node.exits, node.inputs)):
            edge_id = f"e{len(edges)}"
            edge_of[(id(exit.primitive), exit.index)] = edge_id
            edges.append({"id": edge_id, "from": source.id, "to": node.id, "slot": slot,
                          "local": exit.local, "contribution": 0.0})
    return edges, edge_of


def backward_steps(t: Trace, edges: list[Edge], edge_of: dict[tuple[int, int], str]) -> list[BackwardStep]:
    """The recorded hand-offs that cross a visual edge, in backward's order; each edge keeps its
    contribution."""
    owner: dict[int, VisualNode] = {id(p): n for n in t.nodes for p in n.primitives}
    by_id = {e["id"]: e for e in edges}
    backward: list[BackwardStep] = []
    for event in t.events:
        crossed = edge_of.get((id(event.primitive), event.index))
        if crossed is None:
            continue  # a hand-off inside a derived node
        edge = by_id[crossed]
        parent = owner[id(event.primitive)]
        edge["contribution"] = event.contribution
        backward.append({"edge": crossed, "parent": parent.id, "child": edge["from"],
                         "incoming": parent.out.grad, "local": edge["local"],
                         "contribution": event.contribution, "grad_after": event.grad_after})
    return backward


def node_entries(t: Trace) -> list[TimelineNode]:
    positions = layout(t.nodes)
    nodes: list[TimelineNode] = []
    for node in t.nodes:
        p = positions[node.id]
        entry: TimelineNode = {"id": node.id, "op": node.op, "label": node.label, "start": node.start,
                               "end": node.end, "value": node.out.data, "grad": node.out.grad,
                               "inputs": [i.id for i in node.inputs], "column": p.column, "row": p.row,
                               "x": p.x, "y": p.y, "z": p.z}
        if node.name is not None:
            entry["name"] = node.name
        if node.exponent is not None:
            entry["exponent"], entry["exponent_label"] = node.exponent, node.exponent_label or ""
        if node.derived:
            entry["derived"] = True
            entry["primitives"] = primitives_of(node)
        nodes.append(entry)
    return nodes


def primitives_of(node: VisualNode) -> list[Primitive]:
    """The primitive Values a derived node was built from, children first; ids `nK.i`.

    Value keeps no operator name, but the constructions are fixed by the class:
    a - b = a + (b * -1), a / b = a * b ** -1, -a = a * -1.
    """
    outside = {id(i.out): i.id for i in node.inputs}
    local_ids = {id(p): f"{node.id}.{k}" for k, p in enumerate(node.primitives)}
    result: list[Primitive] = []
    for prim in node.primitives:
        entry: Primitive = {"id": local_ids[id(prim)], "op": _primitive_op(node, prim), "value": prim.data,
                 "grad": prim.grad,
                 "inputs": [local_ids.get(id(c)) or outside[id(c)] for c in prim._children],
                 "local": list(prim._local_grads)}
        if entry["op"] == "**":
            entry["exponent"] = -1.0
        result.append(entry)
    return result


def _primitive_op(node: VisualNode, prim: Value) -> Literal["const", "+", "*", "**"]:
    arity = len(prim._children)
    if arity == 0:
        return "const"
    if arity == 1:
        return "**"
    return "+" if node.op == "-" and prim is node.out else "*"


LONE_SURROGATE = re.compile("[\ud800-\udfff]")  # text that was not valid Unicode (an error echoes it)


def dumps(timeline: Timeline | ErrorResult) -> str:
    """Compact JSON, byte for byte what the TypeScript dumps() prints: lone surrogates escaped as
    JSON.stringify escapes them (\\ud800), so the text is always valid UTF-8."""
    text = json.dumps(timeline, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return LONE_SURROGATE.sub(lambda m: f"\\u{ord(m[0]):04x}", text)
