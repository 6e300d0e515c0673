"""A timeline -> the same computation as a short PyTorch script and a short JAX script.

Each script sets the variables to the sandbox's values, computes the expression in that framework's
spelling, asks for the gradients (PyTorch: backward() and .grad; JAX: jax.grad over every variable)
and prints each variable's gradient by name: the grad on that variable's card after the backward pass.
The expression is written from the timeline's nodes (the engine's own parse: one node per operation,
its inputs in slot order), never parsed again, with as few parentheses as Python's precedence allows
and none that would change the order of operations. Numbers are Python's repr, so the script holds
the very floats the engine used; both scripts compute in float64, as the engine does.
src/inference/frameworks.ts mirrors this module string for string (tests/test_frameworks.py).
"""

from __future__ import annotations

from typing import Literal, TypedDict

from .types import NodeId, Timeline, TimelineNode

Framework = Literal["pytorch", "jax"]
FRAMEWORKS: tuple[Framework, ...] = ("pytorch", "jax")
FUNCTION_NAMES: dict[Framework, dict[str, str]] = {
    "pytorch": {"relu": "torch.relu", "exp": "torch.exp", "log": "torch.log"},
    "jax": {"relu": "jax.nn.relu", "exp": "jnp.exp", "log": "jnp.log"},
}
# Python's binding strength: what an operand needs around it to stay one operand.
LEVEL = {"+": 1, "-": 1, "*": 2, "/": 2, "neg": 3, "**": 4}
ATOM = 5  # a name, a call, a parenthesised expression, a non-negative number
WHOLE_EXPONENT = 2**53  # up to here a whole exponent is written as an int (JAX: lax.integer_pow)


class Scripts(TypedDict):
    pytorch: str
    jax: str


def number(x: float) -> str:
    """A float as Python writes it (repr): the shortest digits that read back as the same float."""
    return repr(float(x))


def exponent_text(p: float) -> str:
    """A constant exponent: a whole one as an int, as a learner writes a ** 3."""
    return str(int(p)) if p.is_integer() and abs(p) <= WHOLE_EXPONENT else number(p)


def expression_in(timeline: Timeline, framework: Framework) -> str:
    """The timeline's expression in the framework's spelling, from its nodes."""
    nodes = {n["id"]: n for n in timeline["nodes"]}
    names = FUNCTION_NAMES[framework]

    def has_variable(node: TimelineNode) -> bool:
        return node["op"] == "var" or any(has_variable(nodes[i]) for i in node["inputs"])

    def operand(node_id: NodeId, need: int) -> str:
        text, level = write(nodes[node_id])
        return f"({text})" if level < need else text

    def write(node: TimelineNode) -> tuple[str, int]:
        op, inputs = node["op"], node["inputs"]
        if op == "var":
            return node.get("name", ""), ATOM
        if op == "const":
            text = number(node["value"])
            return text, LEVEL["neg"] if text.startswith("-") else ATOM
        if op == "neg":
            return f"-{operand(inputs[0], LEVEL['**'])}", LEVEL["neg"]
        if op == "**":
            return f"{operand(inputs[0], ATOM)} ** {exponent_text(node.get('exponent', 1.0))}", LEVEL["**"]
        if op in names:
            arg = write(nodes[inputs[0]])[0]
            if framework == "pytorch" and not has_variable(nodes[inputs[0]]):
                arg = f"torch.tensor({arg})"  # torch's functions take tensors, not Python floats
            return f"{names[op]}({arg})", ATOM
        level = LEVEL[op]  # + - * /: left-associative, so a right operand of the same level keeps (...)
        return f"{operand(inputs[0], level)} {op} {operand(inputs[1], level + 1)}", level

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
