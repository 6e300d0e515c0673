"""Syntax tree -> traced DAG, evaluated by the lesson's own Value class.

Every operation of the expression becomes one *visual* node. Derived operations
(binary '-', '/', unary minus) create hidden primitive Values inside their node;
the node keeps them as its `primitives`, so the player can show the expansion.
Value.backward() computes the gradients, and every `child.grad += local_grad * v.grad`
it made is written down in its own order.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypedDict, Unpack

from microgpt_annotated import Value

from .errors import MAX_NODES, TinyDagError
from .ops import OPS
from .parse import Binary, Call, Node, Num, Paren, Pow, Unary, Var, operands, parse
from .types import Op


@dataclass(frozen=True)
class Exit:
    primitive: Value  # the Value whose child is an input of the visual node
    index: int  # which of its children
    local: float  # d(out)/d(input) along the hidden path


@dataclass
class VisualNode:
    id: str
    op: Op  # var, const, +, *, **, exp, log, relu, or derived: -, /, neg
    label: str  # its source text
    start: int
    end: int
    out: Value  # the Value this node stands for
    inputs: list[VisualNode] = field(default_factory=list)  # one per slot, in order
    name: str | None = None  # variables only
    exponent: float | None = None  # '**' only: the constant exponent
    exponent_label: str | None = None
    primitives: list[Value] = field(default_factory=list)  # Values made here, children first
    exits: list[Exit] = field(default_factory=list)  # one per slot

    @property
    def derived(self) -> bool:
        return OPS[self.op].derived


@dataclass(frozen=True)
class BackwardEvent:
    primitive: Value  # the v whose gradient is being handed down
    index: int  # which of v's children
    child: Value
    local: float  # v._local_grads[index]
    incoming: float  # v.grad
    contribution: float  # local * incoming, exactly as backward() adds it
    grad_after: float  # child.grad after the +=


@dataclass
class Trace:
    expression: str
    nodes: list[VisualNode]  # in creation order; the root is last
    variables: list[VisualNode]  # in order of first appearance
    topo: list[Value]  # the order Value.backward() walked, children before parents
    events: list[BackwardEvent]

    @property
    def root(self) -> VisualNode:
        return self.nodes[-1]


def count_visual_nodes(tree: Node) -> int:
    """Nodes the graph would have: one per operation or literal, one per distinct variable."""
    names: set[str] = set()
    count = 0
    stack = [tree]
    while stack:  # iterative: a 200-character expression can nest deeply
        node = stack.pop()
        if isinstance(node, Var):
            names.add(node.name)
        else:
            count += not isinstance(node, Paren)  # parentheses make no node
            stack += operands(node)
    return count + len(names)


class Extra(TypedDict, total=False):  # what only some visual nodes have
    name: str
    exponent: float
    exponent_label: str


class _Tracer:
    def __init__(self, source: str, values: dict[str, float]) -> None:
        self.source = source
        self.values = values
        self.nodes: list[VisualNode] = []
        self.variables: dict[str, VisualNode] = {}

    def next_id(self) -> str:
        return f"n{len(self.nodes)}"

    def domain(self, message: str, tree: Node, reason: str) -> TinyDagError:
        return TinyDagError("domain", message, tree.start, tree.end, node=self.next_id(),
                            params={"reason": reason})

    def visit(self, tree: Node) -> VisualNode:
        if isinstance(tree, Paren):
            return self.visit(tree.inner)
        if isinstance(tree, Var):
            if tree.name not in self.variables:
                value = Value(self.values.get(tree.name, 1.0))
                if not math.isfinite(value.data):
                    raise TinyDagError("overflow", f"The value of {tree.name} is not a finite "
                                       "number.", tree.start, tree.end, node=self.next_id())
                self.variables[tree.name] = self.add(tree, "var", value, [], name=tree.name)
            return self.variables[tree.name]
        if isinstance(tree, Num):
            return self.add(tree, "const", Value(tree.value), [])
        if isinstance(tree, Binary):
            return self.binary(tree)
        if isinstance(tree, Unary):
            operand = self.visit(tree.operand)
            return self.compute(tree, "neg", lambda: -operand.out, [operand])
        if isinstance(tree, Pow):
            base = self.visit(tree.base)
            self.check_pow(tree, base.out.data)
            return self.compute(tree, "**", lambda: base.out ** tree.exponent, [base],
                                exponent=tree.exponent, exponent_label=tree.exponent_text)
        assert isinstance(tree, Call)
        return self.call(tree)

    def binary(self, tree: Binary) -> VisualNode:
        left, right = self.visit(tree.left), self.visit(tree.right)
        if tree.op == "/" and right.out.data == 0:  # the span marks the divisor alone
            raise self.domain("Division by zero: the divisor is 0 here.", tree.right, "division")
        apply = {"+": Value.__add__, "*": Value.__mul__,
                 "-": Value.__sub__, "/": Value.__truediv__}[tree.op]
        return self.compute(tree, tree.op, lambda: apply(left.out, right.out), [left, right])

    def call(self, tree: Call) -> VisualNode:
        arg = self.visit(tree.arg)
        if tree.name == "log" and arg.out.data <= 0:
            raise self.domain("log is defined only for positive numbers, and its input here "
                              "is not positive.", tree, "log")
        return self.compute(tree, tree.name, getattr(arg.out, tree.name), [arg])

    def check_pow(self, tree: Pow, base: float) -> None:
        p = tree.exponent
        if base == 0 and p < 0:
            raise self.domain("0 to a negative power divides by zero.", tree, "zero-negative-power")
        if base == 0 and 0 < p < 1:
            raise self.domain(f"The slope of x ** {tree.exponent_text} at x = 0 is infinite.",
                              tree, "zero-slope")
        if base < 0 and not p.is_integer():
            raise self.domain("A negative number to a fractional power is not a real number.",
                              tree, "negative-base")

    def compute(self, tree: Node, op: Op, make: Callable[[], Value], inputs: list[VisualNode],
                **extra: Unpack[Extra]) -> VisualNode:
        """Run one operation of the Value class; any non-finite number it makes is an overflow.

        That includes the node's own local derivatives (exits): along a derived node's hidden path
        they are products, which can overflow although every factor is finite ((a / b) * c with
        a = 1e200, b = 1e-100, c = 1e-300). The schema promises finite numbers in every field.
        """
        overflow = TinyDagError("overflow", "A number here grows beyond what a float can hold.",
                                tree.start, tree.end, node=self.next_id())
        try:
            out = make()
        except (OverflowError, ZeroDivisionError):  # where JavaScript returns Infinity instead
            raise overflow from None
        node = self.add(tree, op, out, inputs, **extra)
        numbers = [x for v in node.primitives for x in (v.data, *v._local_grads)]
        if not all(math.isfinite(x) for x in numbers + [exit.local for exit in node.exits]):
            raise overflow
        return node

    def add(self, tree: Node, op: Op, out: Value, inputs: list[VisualNode],
            **extra: Unpack[Extra]) -> VisualNode:
        node = VisualNode(self.next_id(), op, self.source[tree.start:tree.end], tree.start,
                          tree.end, out, inputs, **extra)
        collect_primitives(node)
        self.nodes.append(node)
        return node


def collect_primitives(node: VisualNode) -> None:
    """Walk down from node.out to the inputs' Values: what lies between was made here."""
    outside = {id(i.out) for i in node.inputs}
    primitives: list[Value] = []
    exits: list[Exit] = []

    def walk(v: Value, local_to_v: float) -> None:
        for index, (child, local) in enumerate(zip(v._children, v._local_grads)):
            if id(child) in outside:
                exits.append(Exit(v, index, local_to_v * local))
            else:
                walk(child, local_to_v * local)
        primitives.append(v)

    walk(node.out, 1.0)
    node.primitives, node.exits = primitives, exits


def record_backward(root: Value) -> tuple[list[Value], list[BackwardEvent]]:
    """Value.backward(), then every `+=` it made, in the order it made them.

    A node's grad is complete before backward() hands it on (its consumers come first) and no later
    step changes it, so each step's numbers are v.grad and a running sum that adds the same floats
    in the same order as `child.grad +=` did, starting from the same 0.0."""
    topo = root.backward()
    events: list[BackwardEvent] = []
    running: dict[int, float] = {}  # id(child) -> its grad so far
    for v in reversed(topo):
        for index, (child, local_grad) in enumerate(zip(v._children, v._local_grads)):
            contribution = local_grad * v.grad
            running[id(child)] = running.get(id(child), 0.0) + contribution
            events.append(BackwardEvent(v, index, child, local_grad, v.grad, contribution,
                                        running[id(child)]))
    return topo, events


def trace(expression: str, values: dict[str, float]) -> Trace:
    """Parse, check the size, evaluate with Value and record backward."""
    tree = parse(expression)
    count = count_visual_nodes(tree)
    if count > MAX_NODES:  # the count says how much to cut (walk 42: a learner guessed)
        raise TinyDagError("too-large", f"This expression makes {count} nodes; at most {MAX_NODES} keep "
                           "the graph readable. Try a shorter expression.", 0, len(expression),
                           params={"reason": "nodes", "limit": str(MAX_NODES), "count": str(count)})
    tracer = _Tracer(expression, values)
    tracer.visit(tree)
    topo, events = record_backward(tracer.nodes[-1].out)
    owner = {id(p): n for n in tracer.nodes for p in n.primitives}
    for event in events:
        if not math.isfinite(event.grad_after):
            node = owner[id(event.child)]
            raise TinyDagError("overflow", "A gradient here grows beyond what a float can hold.",
                               node.start, node.end, node=node.id)
    return Trace(expression, tracer.nodes, list(tracer.variables.values()), topo, events)
