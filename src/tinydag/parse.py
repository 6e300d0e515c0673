"""Expression text -> syntax tree, with Python's precedence and associativity.

Grammar (the subset of Python's that the sandbox accepts):
    expr   := term (('+' | '-') term)*
    term   := factor (('*' | '/') factor)*
    factor := '-' factor | power
    power  := atom ('**' factor)?            -- right-associative, binds tighter than unary minus
    atom   := NUMBER | LETTER | FUNC '(' expr ')' | '(' expr ')'
The exponent of '**' must be constant (no variable in it): it is folded to its number here, as
Python would compute it (2 ** 3 ** 2 is 2 ** 9; a ** (1/2) is a ** 0.5).
Spans count code points, so the TypeScript mirror must iterate code points too.
"""

from __future__ import annotations

import math
import re
import sys
from dataclasses import dataclass
from typing import Literal, cast

from microgpt_annotated import Value
from microgpt_annotated import power as _power

from .errors import MAX_CHARS, TinyDagError
from .ops import FUNCTIONS, FunctionName

BinaryOp = Literal["+", "-", "*", "/"]
# A number literal as the engine reads it (ASCII digits only, as in JavaScript); the CLI reads with it too.
NUMBER_PATTERN = r"(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?"
_NUMBER = re.compile(NUMBER_PATTERN)
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_OPERATORS = ("**", "+", "-", "*", "/", "(", ")")
_ALIASES = {"\u2212": "-", "\u00d7": "*", "\u00b7": "*"}  # typographic minus, times, middle dot


@dataclass(frozen=True)
class Token:
    kind: str  # "num" | "name" | "op" | "end"
    text: str
    start: int
    end: int


@dataclass(frozen=True)
class Num:
    value: float
    start: int
    end: int


@dataclass(frozen=True)
class Var:
    name: str
    start: int
    end: int


@dataclass(frozen=True)
class Unary:  # unary minus
    operand: Node
    start: int
    end: int


@dataclass(frozen=True)
class Binary:  # + - * /
    op: BinaryOp
    left: Node
    right: Node
    start: int
    end: int


@dataclass(frozen=True)
class Pow:
    base: Node
    exponent: float
    exponent_text: str
    start: int
    end: int


@dataclass(frozen=True)
class Paren:  # ( inner ): no node of its own, but its span includes the parentheses
    inner: Node
    start: int
    end: int


@dataclass(frozen=True)
class Call:  # relu, exp, log: the calls of ops.py
    name: FunctionName
    arg: Node
    start: int
    end: int


Node = Num | Var | Unary | Binary | Pow | Paren | Call


def unwrap(node: Node) -> Node:
    while isinstance(node, Paren):
        node = node.inner
    return node


def _syntax(reason: str, message: str, start: int, end: int, **params: str) -> TinyDagError:
    return TinyDagError("syntax", message, start, end, params={"reason": reason, **params})


def tokenize(text: str) -> list[Token]:
    tokens: list[Token] = []
    i = 0
    while i < len(text):
        ch = _ALIASES.get(text[i], text[i])
        if ch in " \t\n\r":
            i += 1
            continue
        if number := _NUMBER.match(text, i):
            tokens.append(Token("num", number.group(), i, number.end()))
            i = number.end()
        elif name := _NAME.match(text, i):
            tokens.append(Token("name", name.group(), i, name.end()))
            i = name.end()
        elif text.startswith("**", i):
            tokens.append(Token("op", "**", i, i + 2))
            i += 2
        elif ch in _OPERATORS:
            tokens.append(Token("op", ch, i, i + 1))
            i += 1
        else:
            raise _syntax("character", f"The character '{text[i]}' is not allowed here.", i, i + 1,
                          char=text[i])
    tokens.append(Token("end", "", len(text), len(text)))
    return tokens


class _Parser:
    def __init__(self, source: str) -> None:
        self.source = source
        self.tokens = tokenize(source)
        self.pos = 0

    @property
    def peek(self) -> Token:
        return self.tokens[self.pos]

    def take(self) -> Token:
        token = self.tokens[self.pos]
        self.pos += 1
        return token

    def at(self, *ops: str) -> bool:
        return self.peek.kind == "op" and self.peek.text in ops

    def expr(self) -> Node:
        node = self.term()
        while self.at("+", "-"):
            op = cast(BinaryOp, self.take().text)
            right = self.term()
            node = Binary(op, node, right, node.start, right.end)
        return node

    def term(self) -> Node:
        node = self.factor()
        while self.at("*", "/"):
            op = cast(BinaryOp, self.take().text)
            right = self.factor()
            node = Binary(op, node, right, node.start, right.end)
        return node

    def factor(self) -> Node:
        if self.at("-"):
            minus = self.take()
            operand = self.factor()
            literal = unwrap(operand)
            if isinstance(literal, Num):  # a negative literal is one constant, not an operation
                return Num(-literal.value, minus.start, operand.end)
            return Unary(operand, minus.start, operand.end)
        return self.power()

    def power(self) -> Node:
        base = self.atom()
        if not self.at("**"):
            return base
        self.take()
        exponent = self.factor()
        if has_variable(exponent):
            raise TinyDagError(
                "variable-exponent",
                "The exponent must be a constant, like a ** 3 or a ** (1/2). This engine's pow "
                "differentiates only the base, so a gradient for anything in the exponent "
                "would silently stay 0.",
                exponent.start, exponent.end)
        return Pow(base, fold(exponent), self.source[exponent.start:exponent.end],
                   base.start, exponent.end)

    def atom(self) -> Node:
        token = self.take()
        if token.kind == "num":
            value = float(token.text)
            if not math.isfinite(value):
                raise TinyDagError("overflow", f"The number {token.text} is too large.",
                                   token.start, token.end)
            return Num(value, token.start, token.end)
        if token.kind == "name":
            return self.name(token)
        if token.kind == "op" and token.text == "(":
            inner = self.expr()
            close = self.expect_close(token)
            return Paren(inner, token.start, close.end)
        if token.kind == "end":
            raise _syntax("end", "The expression ends too early: something is missing here.",
                          token.start, token.end)
        raise _syntax("token", f"'{token.text}' cannot stand here.", token.start, token.end,
                      token=token.text)

    def name(self, token: Token) -> Node:
        if self.at("("):
            if token.text not in FUNCTIONS:
                raise TinyDagError(
                    "unknown-function",
                    f"There is no function '{token.text}'. Available: {', '.join(FUNCTIONS)}.",
                    token.start, token.end, params={"name": token.text})
            opening = self.take()
            if self.at(")"):
                raise _syntax("argument", f"'{token.text}' needs an input inside its parentheses, "
                              f"like {token.text}(x).", opening.start, self.peek.end, name=token.text)
            arg = self.expr()
            close = self.expect_close(opening)
            return Call(cast(FunctionName, token.text), arg, token.start, close.end)
        if token.text in FUNCTIONS:
            raise _syntax("call", f"'{token.text}' needs parentheses, like {token.text}(x).",
                          token.start, token.end, name=token.text)
        if len(token.text) > 1:
            # "lo" is most often log on its way: the message says so, not only to multiply letters
            function = next((f for f in FUNCTIONS if f.startswith(token.text)), None)
            if function is not None:
                raise _syntax("name-function", f"'{token.text}' is not a variable (a variable's name is "
                              f"one letter): to call {function}, finish its name, for example {function}(x); "
                              "to multiply letters, put * between them.", token.start, token.end,
                              name=token.text, function=function)
            raise _syntax("name", f"'{token.text}': variables are single letters; "
                          "put * between them, as in a * b.", token.start, token.end,
                          name=token.text)
        return Var(token.text, token.start, token.end)

    def expect_close(self, opening: Token) -> Token:
        if not self.at(")"):
            raise _syntax("paren", "This parenthesis is never closed.", opening.start, opening.end)
        return self.take()


def operands(node: Node) -> list[Node]:
    """The subtrees a node is computed from (a '**' node's exponent is a number by then)."""
    if isinstance(node, Binary):
        return [node.left, node.right]
    if isinstance(node, Unary):
        return [node.operand]
    if isinstance(node, Pow):
        return [node.base]
    if isinstance(node, Call):
        return [node.arg]
    if isinstance(node, Paren):
        return [node.inner]
    return []


def has_variable(node: Node) -> bool:
    return isinstance(node, Var) or any(has_variable(child) for child in operands(node))


def fold(node: Node) -> float:
    """The number a constant subtree stands for, computed as Python computes it, with power() for
    ** (whole and half exponents: the same bits in every language) and the Value class for exp and
    log (so tests/test_equivalence.py can replay their last bit). A domain error or an overflow names
    the offending span (there is no graph node yet)."""
    if isinstance(node, Num):
        return node.value
    if isinstance(node, Paren):
        return fold(node.inner)
    if isinstance(node, Unary):
        return -fold(node.operand)
    if isinstance(node, Binary):
        result = _fold_binary(node, fold(node.left), fold(node.right))
    elif isinstance(node, Pow):
        result = _fold_power(node, fold(node.base))
    else:
        assert isinstance(node, Call), "fold() is only called on trees without variables"
        result = _fold_call(node, fold(node.arg))
    if not math.isfinite(result):
        raise TinyDagError("overflow", "A number here grows beyond what a float can hold.",
                           node.start, node.end)
    return result


def _fold_binary(node: Binary, left: float, right: float) -> float:
    if node.op == "+":
        return left + right
    if node.op == "-":
        return left - right
    if node.op == "*":
        return left * right
    if right == 0:
        raise _domain("Division by zero: the divisor is 0 here.", node.right, "division")
    return left / right


def _fold_power(node: Pow, base: float) -> float:
    if base == 0 and node.exponent < 0:
        raise _domain("0 to a negative power divides by zero.", node, "zero-negative-power")
    if base < 0 and not node.exponent.is_integer():
        raise _domain("A negative number to a fractional power is not a real number.", node,
                      "negative-base")
    try:
        return _power(base, node.exponent)
    except (OverflowError, ZeroDivisionError):  # where JavaScript returns Infinity: for a negative
        return math.inf  # whole exponent, power() divides by |base| ** |k|, which underflowed to 0


def _fold_call(node: Call, x: float) -> float:
    if node.name == "log" and x <= 0:
        raise _domain("log is defined only for positive numbers, and its input here is not positive.",
                      node, "log")
    try:
        result: float = getattr(Value(x), node.name)().data  # Value's method of that name
    except OverflowError:  # from exp, where JavaScript returns Infinity
        return math.inf
    return result


def _domain(message: str, node: Node, reason: str) -> TinyDagError:
    return TinyDagError("domain", message, node.start, node.end, params={"reason": reason})


def parse(text: str) -> Node:
    """Parse an expression, or raise TinyDagError with the span of the problem."""
    if len(text) > MAX_CHARS:
        raise TinyDagError("too-large", f"The expression is longer than {MAX_CHARS} characters.",
                           MAX_CHARS, len(text), params={"reason": "characters", "limit": str(MAX_CHARS)})
    parser = _Parser(text)
    if parser.peek.kind == "end":
        raise _syntax("empty", "Type an expression, for example (a + b) * c.", 0, len(text))
    # Each '(' costs five nested calls (expr, term, factor, power, atom): 200 of them would pass
    # Python's default limit of 1000, so allow what MAX_CHARS can need, for this call only.
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(limit + 6 * MAX_CHARS)
    try:
        node = parser.expr()
    finally:
        sys.setrecursionlimit(limit)
    extra = parser.peek
    if extra.kind != "end":
        if extra.kind == "op" and extra.text == ")":
            raise _syntax("unopened", "This parenthesis closes nothing.", extra.start, extra.end)
        raise _syntax("operator", "An operator is missing before this.", extra.start, extra.end)
    return node
