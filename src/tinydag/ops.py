"""Every operation a graph can hold, one row each: what the engine, the frameworks panel, the cards,
the spoken names and the code listing need to know about it. src/inference/ops.ts mirrors this table
(there each row is written in two tables, LOOKS and RULES; tests/test_equivalence.py compares their
union with this one). An operation added to Op without its row, a row without a field, or a call-shaped
row missing from FunctionName stops the import; tests/test_ops.py then runs each row's example through
the parser, the engine, the frameworks panel, the strings and the listing.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal, TypeVar, get_args

from .types import Op

Shape = Literal["leaf", "infix", "prefix", "power", "call"]  # a, a + b, -a, a ** 2, exp(a)
ATOM = 5  # a name, a call, a parenthesised expression, a non-negative number


@dataclass(frozen=True)
class Frameworks:
    pytorch: str
    jax: str


@dataclass(frozen=True)
class OpSpec:
    arity: Literal[0, 1, 2]  # visual inputs (a power's exponent is a badge, not an input)
    shape: Shape
    glyph: str  # the card's large symbol; "" for a leaf (it shows its name or number)
    level: int  # Python's binding strength of the written form; ATOM binds tightest
    derived: bool  # made of primitives by Value (a - b = a + (b * -1)), no derivative of its own
    code: str | None  # text of the listing's line that computes it (src/microgpt_annotated.py)
    words: str  # the strings key (src/player/strings/*.yml) that names it in speech
    frameworks: Frameworks | None  # a call's name in PyTorch and in JAX
    example: str  # a short expression whose root is this operation


OPS: dict[Op, OpSpec] = {
    "var": OpSpec(0, "leaf", "", ATOM, False, None, "card_op_var", None, "a"),
    "const": OpSpec(0, "leaf", "", ATOM, False, None, "card_op_const", None, "2"),
    "+": OpSpec(2, "infix", "+", 1, False, "self.data + other.data", "card_op_add", None, "a + b"),
    "*": OpSpec(2, "infix", "×", 2, False, "self.data * other.data", "card_op_mul", None, "a * b"),
    "**": OpSpec(1, "power", "**", 4, False, "power(self.data, k)", "card_op_pow", None, "a ** 3"),
    "relu": OpSpec(1, "call", "relu", ATOM, False, "max(0.0, self.data)", "card_op_relu",
                   Frameworks("torch.relu", "jax.nn.relu"), "relu(a)"),
    "exp": OpSpec(1, "call", "exp", ATOM, False, "math.exp(self.data)", "card_op_exp",
                  Frameworks("torch.exp", "jnp.exp"), "exp(a)"),
    "log": OpSpec(1, "call", "log", ATOM, False, "math.log(self.data)", "card_op_log",
                  Frameworks("torch.log", "jnp.log"), "log(a)"),
    "-": OpSpec(2, "infix", "−", 1, True, "self + (-other)", "card_op_sub", None, "a - b"),
    "/": OpSpec(2, "infix", "÷", 2, True, "self * other**-1", "card_op_div", None, "a / b"),
    "neg": OpSpec(1, "prefix", "−", 3, True, "self * -1", "card_op_neg", None, "-a"),
}

FunctionName = Literal["relu", "exp", "log"]  # the rows whose shape is "call", in their order
FUNCTIONS: tuple[FunctionName, ...] = get_args(FunctionName)


K = TypeVar("K", bound=str)


def table_problems(ops: Mapping[K, OpSpec], known: tuple[K, ...], functions: tuple[str, ...]) -> list[str]:
    """What keeps a table from describing exactly the operations `known`, with `functions` its calls."""
    problems = [f"{op}: no row" for op in known if op not in ops]
    problems += [f"{op}: a row for an operation Op does not have" for op in ops if op not in known]
    calls = tuple(op for op, spec in ops.items() if spec.shape == "call")
    if set(calls) != set(functions):
        problems.append(f"the calls {sorted(calls)} are not FunctionName {sorted(functions)}")
    problems += [f"{op}: a call needs its name in the frameworks" for op, spec in ops.items()
                 if (spec.shape == "call") != (spec.frameworks is not None)]
    return problems


_problems = table_problems(OPS, get_args(Op), FUNCTIONS)
if _problems:  # at import, so that no test and no build runs with an incomplete table
    raise ImportError("tinydag.ops: " + "; ".join(_problems))
