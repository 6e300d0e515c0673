"""A timeline -> the same computation as a short PyTorch script and a short JAX script.

Each script sets the variables to the sandbox's values, computes the expression in that framework's
spelling, asks for the gradients (PyTorch: backward() and .grad; JAX: jax.grad over every variable)
and prints each variable's gradient by name: the grad on that variable's card after the backward pass.
The expression is written from the timeline's nodes (the engine's own parse: one node per operation,
its inputs in slot order), never parsed again, with as few parentheses as Python's precedence allows
and none that would change the order of operations. Numbers are written as JavaScript prints them
(the shortest digits that read back as the same float: the very floats the engine used), with ".0"
on whole ones so that Python reads a float; both scripts compute in float64, as the engine does.
src/inference/frameworks.ts mirrors this module string for string (tests/test_frameworks.py).
"""

from __future__ import annotations

import math
from decimal import Decimal
from typing import Literal, TypedDict

from .ops import ATOM, OPS
from .types import NodeId, Timeline, TimelineNode

Framework = Literal["pytorch", "jax"]
FRAMEWORKS: tuple[Framework, ...] = ("pytorch", "jax")


class Scripts(TypedDict):
    pytorch: str
    jax: str


def js_string(x: float) -> str:
    """JavaScript's String(x) for a finite float: repr's shortest digits in JavaScript's layout
    (fixed from 1e-6 to below 1e21, else 1.5e-7 and 1e+21); the player writes its numbers with it."""
    if x == 0:
        return "0"
    shortest = Decimal(repr(abs(x))).normalize().as_tuple()  # repr's digits, trailing zeros dropped
    digits = "".join(map(str, shortest.digits))
    point = len(digits) + int(shortest.exponent)  # |x| = 0.digits * 10 ** point
    sign = "-" if x < 0 else ""
    if len(digits) <= point <= 21:
        return sign + digits + "0" * (point - len(digits))
    if 0 < point <= 21:
        return f"{sign}{digits[:point]}.{digits[point:]}"
    if -6 < point <= 0:
        return f"{sign}0.{'0' * -point}{digits}"
    e = point - 1
    rest = f".{digits[1:]}" if len(digits) > 1 else ""
    return f"{sign}{digits[0]}{rest}e{'+' if e >= 0 else '-'}{abs(e)}"


def number(x: float) -> str:
    """A float literal for Python: a whole number gets ".0" (JAX and torch differentiate floats only)."""
    if x == 0 and math.copysign(1.0, x) < 0:
        return "-0.0"
    text = js_string(x)
    return text if "." in text or "e" in text else text + ".0"


def expression_in(timeline: Timeline, framework: Framework) -> str:
    """The timeline's expression in the framework's spelling, from its nodes."""
    nodes = {n["id"]: n for n in timeline["nodes"]}

    def has_variable(node: TimelineNode) -> bool:
        return node["op"] == "var" or any(has_variable(nodes[i]) for i in node["inputs"])

    def operand(node_id: NodeId, need: int) -> str:
        text, level = write(nodes[node_id])
        return f"({text})" if level < need else text

    def write(node: TimelineNode) -> tuple[str, int]:
        op, inputs = node["op"], node["inputs"]
        spec = OPS[op]  # its shape, Python's binding strength (level) and a call's name
        if op == "var":
            return node.get("name", ""), ATOM
        if op == "const":
            text = number(node["value"])
            return text, OPS["neg"].level if text.startswith("-") else ATOM
        if spec.shape == "prefix":
            return f"-{operand(inputs[0], OPS['**'].level)}", spec.level
        if spec.shape == "power":
            return f"{operand(inputs[0], ATOM)} ** {js_string(node.get('exponent', 1.0))}", spec.level
        if spec.frameworks is not None:
            arg = write(nodes[inputs[0]])[0]
            if framework == "pytorch" and not has_variable(nodes[inputs[0]]):
                arg = f"torch.tensor({arg})"  # torch's functions take tensors, not Python floats
            return f"{getattr(spec.frameworks, framework)}({arg})", ATOM
        # infix, left-associative: a right operand of the same level keeps its parentheses
        return f"{operand(inputs[0], spec.level)} {op} {operand(inputs[1], spec.level + 1)}", spec.level

    return write(nodes[timeline["root"]])[0]


def pytorch_script(timeline: Timeline) -> str:
    names = [v["name"] for v in timeline["variables"]]
    return "\n".join([
        "import torch",
        "",
        "torch.set_default_dtype(torch.float64)",
        "",
        *(f"{v['name']} = torch.tensor({number(v['value'])}, requires_grad=True)"
          for v in timeline["variables"]),
        f"out = {expression_in(timeline, 'pytorch')}",
        "out.backward()",
        *(f'print("{name}.grad =", {name}.grad.item())' for name in names),
        "",
    ])


def jax_script(timeline: Timeline) -> str:
    names = [v["name"] for v in timeline["variables"]]
    listed = ", ".join(names)
    slots = ", ".join(str(i) for i in range(len(names))) + ("," if len(names) == 1 else "")
    return "\n".join([
        "import jax",
        "import jax.numpy as jnp",
        "",
        'jax.config.update("jax_enable_x64", True)',
        "",
        "",
        f"def out({listed}):",
        f"    return {expression_in(timeline, 'jax')}",
        "",
        "",
        *(f"{v['name']} = {number(v['value'])}" for v in timeline["variables"]),
        f"grads = jax.grad(out, argnums=({slots}))({listed})",
        *(f'print("{name}.grad =", float(grads[{i}]))' for i, name in enumerate(names)),
        "",
    ])


def scripts(timeline: Timeline) -> Scripts | None:
    """Both scripts; None for an expression without variables (it has no gradient to ask for)."""
    if not timeline["variables"]:
        return None
    return {"pytorch": pytorch_script(timeline), "jax": jax_script(timeline)}
