"""Random expressions for property tests: text in the sandbox grammar, plus an independent evaluator."""

from __future__ import annotations

import math

from hypothesis import strategies as st

VARIABLES = "abcx"
# Literal exponents, and constant ones that the parser folds to their number.
EXPONENTS = ("2", "3", "0.5", "-1", "-2", "1.5", "0", "(1/2)", "-(3 - 1)", "2 ** -1", "(1/3)")


def literal() -> st.SearchStrategy[str]:
    return st.sampled_from(["1", "2", "0.5", "3", "10", "1.5", "0.25"])


def expressions(max_leaves: int = 12) -> st.SearchStrategy[str]:
    leaves = st.one_of(st.sampled_from(list(VARIABLES)), literal())

    def extend(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
        binary = st.tuples(inner, st.sampled_from(["+", "-", "*", "/"]), inner).map(
            lambda t: f"({t[0]} {t[1]} {t[2]})")
        power = st.tuples(inner, st.sampled_from(EXPONENTS)).map(lambda t: f"({t[0]}) ** {t[1]}")
        call = st.tuples(st.sampled_from(["relu", "exp", "log"]), inner).map(
            lambda t: f"{t[0]}({t[1]})")
        neg = inner.map(lambda s: f"-({s})")
        return st.one_of(binary, binary, power, call, neg)

    return st.recursive(leaves, extend, max_leaves=max_leaves)


def values() -> st.SearchStrategy[dict[str, float]]:
    number = st.floats(min_value=-3, max_value=3, allow_nan=False).map(lambda v: round(v, 3))
    return st.fixed_dictionaries({name: number for name in VARIABLES})


def reference(expression: str, env: dict[str, float]) -> float:
    """The same expression, evaluated by Python itself (an independent second implementation)."""
    def relu(v: float | complex) -> float:
        if isinstance(v, complex):  # a fractional power of a negative number, inside the relu
            raise ValueError("complex")
        return max(0.0, v)

    scope = {"relu": relu, "exp": math.exp, "log": math.log, **env}
    result = eval(expression, {"__builtins__": {}}, scope)
    if isinstance(result, complex):
        raise ValueError("complex")
    return float(result)
