"""The timeline JSON, as tinydag writes it and src/inference (TypeScript) rebuilds it.

Mirror of src/inference/types.ts; schema: timeline.schema.json. Field names follow the JSON exactly.
Keys that only some entries have are NotRequired (no `from __future__ import annotations` here: the
tests read __required_keys__, which needs the annotations evaluated).
"""

from typing import Literal, NotRequired, TypedDict

NodeId = str  # "n0", "n1", ...; the root is the last one
EdgeId = str  # "e0", "e1", ...
Op = Literal["var", "const", "+", "*", "**", "exp", "log", "relu", "-", "/", "neg"]
ErrorCode = Literal["syntax", "unknown-function", "variable-exponent", "domain", "overflow", "too-large"]


class Primitive(TypedDict):
    id: str  # "n4.0": a Value a derived node created internally
    op: Literal["const", "+", "*", "**"]
    value: float
    grad: float
    inputs: list[str]  # primitive ids or visual node ids
    local: list[float]  # d(this)/d(input), per input
    exponent: NotRequired[float]  # op "**" only


class TimelineNode(TypedDict):
    id: NodeId
    op: Op
    label: str  # the node's source text
    start: int  # span in the expression, in code points
    end: int
    value: float
    grad: float  # the final gradient, as Value.backward() leaves it
    inputs: list[NodeId]  # one per slot, in order (a * a lists the same id twice)
    column: int
    row: int
    x: float
    y: float
    z: float
    name: NotRequired[str]  # op "var"
    exponent: NotRequired[float]  # op "**": the constant exponent (a badge, not a node)
    exponent_label: NotRequired[str]
    derived: NotRequired[Literal[True]]  # op "-", "/", "neg"
    primitives: NotRequired[list[Primitive]]  # derived nodes: their expansion, children first, output last


# "from" is a Python keyword: the functional form keeps the JSON's own key
Edge = TypedDict("Edge", {
    "id": EdgeId,
    "from": NodeId,  # the input (child)
    "to": NodeId,  # the operation (parent)
    "slot": int,
    "local": float,  # d(to)/d(from) along this edge
    "contribution": float,  # what backward adds to from.grad along this edge
})


class ForwardStep(TypedDict):
    node: NodeId
    value: float
    edges: list[EdgeId]  # the edges feeding this node


class BackwardStep(TypedDict):
    edge: EdgeId
    parent: NodeId
    child: NodeId
    incoming: float  # parent's gradient
    local: float
    contribution: float  # incoming x local, as the += adds it
    grad_after: float  # child's gradient after the +=


class Variable(TypedDict):
    name: str
    node: NodeId
    value: float


class Seed(TypedDict):
    node: NodeId
    grad: float


class Timeline(TypedDict):
    version: Literal[1]
    expression: str
    root: NodeId
    variables: list[Variable]
    nodes: list[TimelineNode]
    edges: list[Edge]
    topo: list[NodeId]  # children before parents, the order Value.backward() walks in reverse
    forward: list[ForwardStep]
    seed: Seed
    backward: list[BackwardStep]


class ErrorPayload(TypedDict):
    code: ErrorCode
    message: str
    params: dict[str, str]
    start: NotRequired[int]  # input errors (and numeric ones: the offending node's span)
    end: NotRequired[int]
    node: NotRequired[NodeId]  # numeric errors


class ErrorResult(TypedDict):
    error: ErrorPayload  # what TinyDagError.to_json() returns and the CLI prints (exit 2)
