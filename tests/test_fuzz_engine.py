"""Fuzz: both engines on hostile and threshold inputs. Never a crash, never a non-finite number, and
the same outcome (a timeline, or the same error code at the same node) on both sides.

Only exp, log and a general ** (an exponent that is not whole or half) go through each platform's libm,
which may round differently in the last bit (see tests/test_equivalence.py); where that decides
between a graph and an error, the two sides may disagree. Those inputs (Python's run notes every pow
it hands to the platform, folded or traced) are counted, not failed, and `make fuzz` reports the
rate. Everything else (+ - * /, relu, whole and half exponents) must agree bit for bit. The grammar
chains constant exponents (2 ** -3 ** 0.5) and writes literals at a float's edges (5e-324, 1e308,
integers beyond 2 ** 53), where folding overflows or leaves the domain. `make fuzz` sets
TINYDAG_FUZZ_INPUTS=100000 (inputs per side) and prints the counts.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import random
import struct
import subprocess
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from unittest import mock

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import microgpt_annotated
import tinydag.parse
from microgpt_annotated import power
from tinydag import TinyDagError, build_timeline, dumps
from tinydag.errors import MAX_CHARS, MAX_NODES
from tinydag.parse import parse
from tinydag.trace import count_visual_nodes, trace

from .expressions import expressions

ROOT = Path(__file__).resolve().parents[1]
INPUTS = int(os.environ.get("TINYDAG_FUZZ_INPUTS", "2000"))  # per side, for the seeded batch
EXAMPLES = max(100, INPUTS // 20)  # per Hypothesis property
SCHEMA = json.loads((ROOT / "src/tinydag/timeline.schema.json").read_text())
RANDOM = settings(deadline=None, max_examples=EXAMPLES,
                  suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
EXTREMES = [0.0, -0.0, 5e-324, -5e-324, 1e-320, 1e-160, 1e-100, 1e-300, 1e154, 1e200, 1e300, 1.7e308,
            -1e200, 709.78, 710.0, -745.2, math.inf, -math.inf, math.nan, 1.0, -1.0, 2.0, 0.5]
SIMPLE_EXPONENTS = ["2", "3", "-1", "-2", "0.5", "1.5", "-0.5", "4", "16", "-3", "2.5"]
GENERAL_EXPONENTS = ["1.3", "2.7", "-0.7", "0.25", "17", "3.1"]
FOLDED_EXPONENTS = ["0", "(1/2)", "(3 - 1)", "2 ** -1", "-(1/3)", "(1e200 * 1e200)", "(1/0)"]  # constants
# Literals at a float's edges: zeros, the smallest subnormal, tiny, huge, integers beyond 2 ** 53.
EXTREME_LITERALS = ["0", "-0", "5e-324", "1e-320", "1e-300", "1e-160", "1e154", "1e200", "1e308", "1.7e308",
                    "18446744073709551617", "9" * 40, "1" + "0" * 60]


def bits(x: float) -> str:
    return struct.pack(">d", x).hex()


def sha1(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8")).hexdigest()


def all_finite(value: object) -> bool:
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, dict):
        return all(all_finite(v) for v in value.values())
    if isinstance(value, list):
        return all(all_finite(v) for v in value)
    return True


def whole_or_half(k: float) -> bool:
    """power() computes x ** k by *, / and sqrt (the same bits everywhere); any other k goes to libm."""
    return math.isfinite(k) and float(2 * k).is_integer() and abs(k) <= 16


@contextmanager
def noting_general_powers(noted: list[float]) -> Iterator[None]:
    """power() where the engine calls it (Value.__pow__, and the parser folding a constant exponent),
    noting every exponent it hands to the platform's pow: a chained exponent (2 ** -3 ** 0.5) folds to
    a number the text does not show, and k - 1 in the local derivative may leave whole and half (-16)."""
    def noting(x: float, k: float) -> float:
        if not whole_or_half(k):
            noted.append(k)
        return power(x, k)

    with mock.patch.object(microgpt_annotated, "power", noting), \
            mock.patch.object(tinydag.parse, "_power", noting):
        yield


# ---- the two sides ----

def python_outcome(expression: str, values: dict[str, float]) -> dict:
    """The outcome, and whether computing it called exp, log or a general pow (may round differently).
    TypeScript computes the same numbers in the same order, so it can only part from Python after such
    a call: what Python computed before its outcome is all there is to check."""
    general: list[float] = []
    libm = "exp" in expression or "log" in expression
    try:
        with noting_general_powers(general):
            timeline = build_timeline(expression, values)
    except TinyDagError as error:
        text = dumps(error.to_json())
        return {"outcome": error.code, "node": error.node, "finite": True, "sha1": sha1(text),
                "libm": libm or bool(general)}
    except Exception as exc:
        return {"outcome": "crash", "crash": repr(exc)}
    finite = all_finite(timeline)
    return {"outcome": "ok", "node": None, "finite": finite, "sha1": sha1(dumps(timeline) if finite else ""),
            "libm": libm or bool(general)}


def request(expression: str, values: dict[str, float]) -> str:
    return json.dumps({"expression": expression, "values": {k: bits(v) for k, v in values.items()}})


class TypeScriptEngine:
    """scripts/fuzz-outcomes.mjs: one long-lived node process, one JSON line each way."""

    def __init__(self) -> None:
        self.process = subprocess.Popen(["node", "scripts/fuzz-outcomes.mjs"], cwd=ROOT, text=True,
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, encoding="utf-8")

    def ask(self, expression: str, values: dict[str, float]) -> dict:
        assert self.process.stdin and self.process.stdout
        self.process.stdin.write(request(expression, values) + "\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        assert line, f"the node side exited with {self.process.poll()}"
        return json.loads(line)

    def close(self) -> None:
        assert self.process.stdin
        self.process.stdin.close()
        self.process.wait(timeout=30)


def typescript_outcomes(inputs: list[tuple[str, str, dict]]) -> list[dict]:
    """Many inputs through one node process at once (a pipe each way, written in full first)."""
    text = "".join(request(expression, values) + "\n" for _, expression, values in inputs)
    done = subprocess.run(["node", "scripts/fuzz-outcomes.mjs"], cwd=ROOT, input=text, capture_output=True,
                          text=True, encoding="utf-8", check=True)
    return [json.loads(line) for line in done.stdout.splitlines()]


@pytest.fixture(scope="module")
def typescript() -> Iterator[TypeScriptEngine]:
    engine = TypeScriptEngine()
    yield engine
    engine.close()


def verdict(expression: str, ours: dict, theirs: dict) -> str:
    """"agree", "residual" (a libm rounding changed the outcome) or what is wrong."""
    for side, result in (("python", ours), ("typescript", theirs)):
        if result["outcome"] == "crash":
            return f"{side} crashed: {result['crash']}"
        if not result["finite"]:
            return f"{side} returned a non-finite number"
    same_outcome = (ours["outcome"], ours["node"]) == (theirs["outcome"], theirs["node"])
    if ours["libm"]:
        return "agree" if same_outcome else "residual"
    if not same_outcome:
        return (f"outcomes differ: python {ours['outcome']} at {ours['node']}, "
                f"typescript {theirs['outcome']} at {theirs['node']}")
    return "agree" if ours["sha1"] == theirs["sha1"] else "bytes differ without exp, log or general **"


def assert_agree(expression: str, values: dict[str, float], theirs: dict) -> str:
    ours = python_outcome(expression, values)
    found = verdict(expression, ours, theirs)
    assert found in ("agree", "residual"), f"{expression!r} {values}: {found}"
    return found


# ---- seeded inputs: the same list for the same count, on every machine ----

def random_expression(rng: random.Random, depth: int, chained: float = 0.0) -> str:
    """An expression of the grammar; `chained` is the share of its exponents that random_constant writes."""
    if depth == 0 or rng.random() < 0.2:
        return rng.choice(["a", "b", "c", "x", "2", "0.5", "3", *EXTREME_LITERALS])
    kind = rng.choice(["+", "-", "*", "/", "/", "**", "relu", "exp", "log", "neg"])
    inner = random_expression(rng, depth - 1, chained)
    if kind in "+-*/":
        return f"({inner} {kind} {random_expression(rng, depth - 1, chained)})"
    if kind == "**":
        if rng.random() < chained:
            return f"{rng.choice([inner, f'({inner})'])} ** {random_constant(rng, rng.randint(1, 3))}"
        return f"({inner}) ** {rng.choice(SIMPLE_EXPONENTS + GENERAL_EXPONENTS + FOLDED_EXPONENTS)}"
    return f"-({inner})" if kind == "neg" else f"{kind}({inner})"


def random_constant(rng: random.Random, depth: int) -> str:
    """A constant exponent the parser folds, as a learner may chain it: 2 ** -3 ** 0.5 (right-associative,
    so the exponent's own exponent folds first), (1e-300 ** -2), -(1/3), exp(710), extreme literals."""
    leaves = SIMPLE_EXPONENTS + GENERAL_EXPONENTS + EXTREME_LITERALS
    if depth == 0 or rng.random() < 0.25:
        return rng.choice(leaves)
    kind = rng.choice(["chain", "chain", "chain", "parens", "neg", "call"])
    inner = random_constant(rng, depth - 1)
    if kind == "chain":
        return f"{rng.choice(leaves + ['(' + random_constant(rng, depth - 1) + ')'])} ** {inner}"
    if kind == "parens":
        return f"({inner} {rng.choice(['+', '-', '*', '/', '**'])} {random_constant(rng, depth - 1)})"
    return f"-{inner}" if kind == "neg" else f"{rng.choice(['relu', 'exp', 'log'])}({inner})"


def random_values(rng: random.Random) -> dict[str, float]:
    if rng.random() < 0.6:
        return {name: round(rng.uniform(-3, 3), 3) for name in "abcx"}
    return {name: rng.choice(EXTREMES) if rng.random() < 0.7 else rng.uniform(-1e3, 1e3) for name in "abcx"}


TOKENS = ["a", "b", "(", ")", "+", "-", "*", "/", "**", " ", "exp", "log", "relu", "1e999", "1e-400", "2",
          ".", "e", "\u2212", "\u00d7", "\x00", "\ud800", "\U0001F600", "\u202e", "\n", "%", "a b", "1_0"]


def hostile_text(rng: random.Random) -> str:
    choice = rng.random()
    if choice < 0.3:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(30))).decode("utf-8", "replace")
    if choice < 0.5:
        return "".join(chr(rng.choice([rng.randrange(0x20, 0x7f), rng.randrange(0x110000)]))
                       for _ in range(rng.randrange(40)))
    if choice < 0.8:
        return "".join(rng.choice(TOKENS) for _ in range(rng.randrange(40)))
    n = rng.randrange(1, 260)
    return rng.choice(["(" * n + "a" + ")" * n, "-" * n + "a", "a" + " + a" * n, "(" * n, "exp(" * n + "a"])


LIBM = {"exp": ("exp(b)", math.exp), "log": ("log(b)", math.log)}
KINDS = ("grammar", "constant exponents", "extreme", "text", "threshold, whole/half **", "threshold, exp",
         "threshold, log", "threshold, other **")


def threshold(rng: random.Random, kind: str) -> tuple[str, dict[str, float]]:
    """1/(f(b) - c) or log(f(b) - c) with c = Python's own f(b), or one ulp off: whether it is a domain
    error (division by zero, log of 0 or less) turns on the last bit of f(b) on each side."""
    b = rng.choice([rng.uniform(0.01, 10), rng.uniform(10, 1e3), math.exp(rng.uniform(-20, 20))])
    if kind == "threshold, whole/half **":
        form, f = rng.choice([("1/b", lambda v: power(v, -1.0)), ("b * b", lambda v: v * v)]
                             + [(f"b ** {k}", lambda v, k=k: power(v, float(k))) for k in SIMPLE_EXPONENTS])
    elif kind == "threshold, other **":
        k = rng.choice(GENERAL_EXPONENTS)
        form, f = f"b ** {k}", lambda v: v ** float(k)
    else:
        form, f = LIBM[kind.split()[-1]]
    try:
        c = f(b)
    except OverflowError:
        c = 1.0
    c = rng.choice([c, math.nextafter(c, 0.0), math.nextafter(c, math.inf)])  # on it, or 1 ulp off
    outer = rng.choice(["1/({} - c)", "log({} - c)"])  # division by zero / log domain: error or graph
    return outer.format(form), {"b": b, "c": c}


def engine_inputs(count: int, seed: int = 15) -> list[tuple[str, str, dict]]:
    rng = random.Random(seed)
    inputs = []
    for _ in range(count):
        kind = rng.choices(KINDS, weights=(30, 15, 10, 15, 15, 5, 5, 5))[0]
        if kind == "grammar":
            inputs.append((kind, random_expression(rng, rng.randint(1, 6), chained=0.3), random_values(rng)))
        elif kind == "constant exponents":  # any base, to a chain of constants (folding it may overflow)
            base = random_expression(rng, rng.randint(0, 3), chained=0.8)
            exponent = random_constant(rng, rng.randint(1, 3))
            inputs.append((kind, f"({base}) ** {exponent}", random_values(rng)))
        elif kind == "extreme":
            form = rng.choice(["(a / b) * c", "0*(10/a)", "a * b", "a ** -2", "1 / a", "exp(a) * b",
                               "log(a) * b", "a / b / c", "(a - b) / c", "-(a / b)", "a ** 0.5 / b"])
            inputs.append((kind, form, {name: rng.choice(EXTREMES) for name in "abc"}))
        elif kind == "text":
            inputs.append((kind, hostile_text(rng), {}))
        else:
            inputs.append((kind, *threshold(rng, kind)))
    return inputs


def test_seeded_batch_both_engines(record_property):
    """INPUTS seeded inputs per side: no crash, finite everywhere, the same outcome (see the docstring)."""
    inputs = engine_inputs(INPUTS)
    theirs = typescript_outcomes(inputs)
    assert len(theirs) == len(inputs)
    counts: Counter[tuple[str, str]] = Counter()
    problems = []
    folding_errors = 0  # chained constant exponents whose folding overflows or leaves the domain
    for (kind, expression, values), result in zip(inputs, theirs):
        ours = python_outcome(expression, values)
        found = verdict(expression, ours, result)
        folding_errors += (kind == "constant exponents" and ours["outcome"] in ("overflow", "domain")
                           and ours["node"] is None)
        counts[kind, found if found in ("agree", "residual") else "problem"] += 1
        if found not in ("agree", "residual"):
            problems.append(f"{kind}: {expression!r} {values}: {found}")
    lines = [f"engine fuzz: {len(inputs)} inputs per side (Python and TypeScript)"]
    for kind in KINDS:
        total = sum(n for (k, _), n in counts.items() if k == kind)
        residual = counts[kind, "residual"]
        lines.append(f"  {kind:<25} {total:>7} inputs, {counts[kind, 'problem']} failures, {residual} "
                     f"outcome disagreements from libm rounding ({residual / max(total, 1):.3%})")
    lines.append(f"  {folding_errors} chained constant exponents end in an overflow or domain error as "
                 "they fold")
    print("\n" + "\n".join(lines))
    record_property("engine fuzz", "; ".join(lines))
    assert not problems, "\n".join(problems[:20])
    assert counts["threshold, whole/half **", "residual"] == 0
    assert folding_errors > INPUTS // 200, "the grammar no longer reaches folding's overflow or domain"


# ---- properties (Hypothesis): random expressions, extreme values, thresholds ----

VALUE = st.one_of(st.floats(-3, 3).map(lambda v: round(v, 3)), st.sampled_from(EXTREMES), st.floats())


@RANDOM
@given(expressions(max_leaves=10), st.fixed_dictionaries({name: VALUE for name in "abcx"}))
def test_random_expressions_agree_and_stay_finite(typescript, expression, env):
    assert_agree(expression, env, typescript.ask(expression, env))
    try:
        jsonschema.validate(build_timeline(expression, env), SCHEMA)
    except TinyDagError as error:
        assert error.code in ("domain", "overflow"), error.message


@RANDOM
@given(st.floats(1e-6, 1e6), st.sampled_from(SIMPLE_EXPONENTS), st.sampled_from([0, 0, 1, -1]),
       st.sampled_from(["1/({} - c)", "log({} - c)"]))
def test_whole_and_half_exponents_agree_at_thresholds(typescript, b, k, ulps, outer):
    c = power(b, float(k))
    for _ in range(abs(ulps)):
        c = math.nextafter(c, math.copysign(math.inf, ulps))
    expression = outer.format(f"b ** {k}")
    assert assert_agree(expression, {"b": b, "c": c}, typescript.ask(expression, {"b": b, "c": c})) == "agree"


@RANDOM
@given(st.text(max_size=60) | st.lists(st.sampled_from(TOKENS), max_size=30).map("".join))
def test_hostile_text_agrees(typescript, text):
    assert_agree(text, {}, typescript.ask(text, {}))


def deepest_at_the_limit(rng: random.Random) -> str:
    """An expression of exactly MAX_NODES nodes nested as deep as it goes: mostly derived operations
    (two Values deep each: a / b is a * b**-1), now and then a one-Value step, around what came before."""
    expression = rng.choice("abc")
    while True:
        x = rng.choice("abc")
        step = rng.choice(["/", "/", "-", "-", "neg", "relu", "exp", "*", "+"])
        if step in ("neg", "relu", "exp"):
            grown = f"-({expression})" if step == "neg" else f"{step}({expression})"
        else:  # no spaces: 40 nodes fit in MAX_CHARS
            grown = rng.choice([f"{x}{step}({expression})", f"({expression}){step}{x}"])
        if len(grown) > MAX_CHARS or count_visual_nodes(parse(grown)) > MAX_NODES:
            return expression
        expression = grown


def test_the_deepest_graphs_at_the_node_limit_agree(typescript):
    """backward()'s build(v) recurses once per level: at 40 nodes the graph is at most 79 Values deep
    (39 divisions of one variable), and no deeper expression gets past the limit. Both engines, seeded."""
    rng = random.Random(26)
    deepest = "a/(" * 38 + "a/a" + ")" * 38
    cases = [(deepest, {"a": 1.5}), *((deepest_at_the_limit(rng), random_values(rng))
                                      for _ in range(max(50, INPUTS // 20)))]
    for expression, values in cases:
        assert count_visual_nodes(parse(expression)) == MAX_NODES, expression
        assert assert_agree(expression, values, typescript.ask(expression, values)) in ("agree", "residual")
    t = trace(deepest, {"a": 1.5})
    memo: dict[int, int] = {}

    def depth(v) -> int:
        if id(v) not in memo:
            memo[id(v)] = 1 + max((depth(c) for c in v._children), default=0)
        return memo[id(v)]

    assert depth(t.root.out) == 79
    with pytest.raises(TinyDagError):
        trace(f"a/({deepest})", {"a": 1.5})


def test_overflows_at_a_floats_edges_are_reported_at_their_node_alike_on_both_sides(typescript):
    """Minimal inputs at a float's edges: an overflow at the node (or at the folded exponent's span), and
    one outcome on both sides."""
    cases = [("(a / b) * c", {"a": 1e200, "b": 1e-100, "c": 1e-300}, "overflow"),
             ("0*(10/1e-154)", {}, "overflow"),
             ("(1e200/1e-100)*1e-300", {}, "overflow"),
             ("1/(1/b - c)", {"b": 8.84179473681791, "c": 0.11309921003209036}, "ok"),
             ("log(1/b - c)", {"b": 8.84179473681791, "c": 0.11309921003209036}, "ok"),
             ("b ** 1e-300 ** -2", {}, "overflow")]  # 1e600: an overflow, not a division by 0 in power()
    for expression, values, outcome in cases:
        theirs = typescript.ask(expression, values)
        assert assert_agree(expression, values, theirs) == "agree"
        assert theirs["outcome"] == outcome, (expression, theirs)
