"""Write tests/vectors/corpus.json: expressions and what the Python engine makes of them.

The TypeScript port must reproduce every case (tests/ts/inference.test.ts); tests/test_equivalence.py
fails when this file is stale, so regenerate it with `make corpus` after changing the engine.
Values that JSON cannot hold (inf, nan) are written as the strings "inf", "-inf", "nan".
Each case also lists `libm`: every exp, log and ** the engine computed, as [op, exponent, input, value,
local derivative], so the TypeScript test can replay Python's rounding of those (see that test).
"""

from __future__ import annotations

import json
import math
import random
import sys
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from microgpt_annotated import Value, power  # noqa: E402
from tinydag import TinyDagError, build_timeline  # noqa: E402

CORPUS = ROOT / "tests/vectors/corpus.json"
LESSON = {"a": 2, "b": -3, "c": 10}

# (name, expression, values): every operation, the lesson's presets and exercises, sharing, derived
# operations inside derived operations, signed zeros, whitespace and typographic operators.
VALID = [
    ("lesson default", "(a + b) * c", LESSON),
    ("dead relu", "relu(a * b)", {"a": 2, "b": -3}),
    ("live relu", "relu(a * b)", {"a": 2, "b": 3}),
    ("relu at zero", "relu(a) * relu(-a)", {"a": 0}),
    ("variable used twice", "a * a", {"a": 3}),
    ("derived preset", "(a - b) / c", {"a": 5, "b": 2, "c": 4}),
    ("exp and log preset", "log(exp(a) + b ** 2)", {"a": 1, "b": 2}),
    ("small neuron", "relu(w * x + v * y + b)", {"w": 0.5, "x": 2, "v": -1, "y": 0.5, "b": 0.25}),
    ("output moves down", "a * -b + c", LESSON),
    ("add", "a + b", LESSON), ("mul", "a * b", LESSON), ("sub", "a - b", LESSON),
    ("div", "a / b", LESSON), ("neg", "-a", LESSON), ("exp", "exp(a)", LESSON),
    ("log", "log(a)", LESSON), ("relu", "relu(b)", LESSON),
    ("pow 3", "a ** 3", LESSON), ("pow 2", "b ** 2", LESSON), ("pow 0.5", "a ** 0.5", LESSON),
    ("pow -1", "a ** -1", LESSON), ("pow -2", "b ** -2", LESSON), ("pow 1.5", "c ** 1.5", LESSON),
    ("pow 0", "a ** 0", LESSON), ("pow 1", "a ** 1", LESSON), ("pow -0.5", "c ** -0.5", LESSON),
    ("pow of negative base, integer", "b ** 3", LESSON), ("pow 0 at negative", "b ** 0", LESSON),
    ("pow zero base", "a ** 2", {"a": 0}), ("pow zero base, exponent 1", "a ** 1", {"a": 0}),
    ("pow with a parenthesised negative exponent", "a ** -(2)", LESSON),
    ("power binds tighter than minus", "-a ** 2", LESSON), ("negative literal power", "-2 ** 2", {}),
    ("power of a power in parentheses", "(a ** 2) ** 3", LESSON),
    ("parenthesised exponent", "(a) ** (2)", LESSON),
    ("constant only", "2", {}), ("negative constant only", "-2", {}), ("variable only", "a", LESSON),
    ("constant times constant", "2 * 3", {}), ("function of a constant", "exp(2)", {}),
    ("literal forms", "1e3 * a + .5 * b + 2. * c + 1E-2", LESSON),
    ("long literal", "0.1000000000000000055511151231257827 * a", LESSON),
    ("tiny literal", "1e-320 * a", LESSON), ("huge literal", "1e308 * a", {"a": 1}),
    ("negative zero literal", "-0", {}), ("times negative zero", "a * -0", LESSON),
    ("negative zero value", "a * 0", {"a": -2}), ("exponent negative zero", "a ** -0", LESSON),
    ("negative zero variable", "a + a", {"a": -0.0}),
    ("unset variables are 1", "a + z", {}), ("upper case and underscore", "A * _ + Z", {"A": 2}),
    ("precedence", "a + b * c", LESSON), ("left associative minus", "a - b - c", LESSON),
    ("left associative division", "a / b / c", LESSON), ("minus a negation", "a * -b", LESSON),
    ("negate a sum", "-(a + b)", LESSON), ("double negation", "--a", LESSON),
    ("triple negation", "---a", LESSON), ("sqrt squared", "a ** 0.5 * a ** 0.5", LESSON),
    ("parallel add", "a + a", LESSON), ("parallel sub", "a - a", LESSON),
    ("parallel div", "a / a", LESSON), ("cube by products", "a * a * a", LESSON),
    ("shared products", "(a * a) * (a * a)", LESSON), ("shared subtree twice", "(a + b) * (a + b)", LESSON),
    ("nested derived", "-(3 - a) / (a * a - 2 * -a)", LESSON),
    ("derived in derived", "-(a - b) / -(c / a)", LESSON),
    ("division chain", "1 / (1 / (1 / a))", LESSON),
    ("reflected constants", "2 - a + 3 / a - 1 * a", LESSON),
    ("layout stress", "relu(w * x + v * y + b) * 2 - log(x)", {"x": 2}),
    ("wide sum", "a * b + c * d + e * f + g * h + i * j", {}),
    ("deep chain", "exp(log(exp(log(exp(log(a))))))", {"a": 1.5}),
    ("softplus-ish", "log(1 + exp(a)) - log(1 + exp(-a))", LESSON),
    ("sigmoid", "1 / (1 + exp(-a))", LESSON),
    ("tanh by exp", "(exp(a) - exp(-a)) / (exp(a) + exp(-a))", LESSON),
    ("squared error", "(a * b - c) ** 2 / 2", LESSON),
    ("typographic operators", "a \u2212 b \u00d7 c \u00b7 a", LESSON),
    ("whitespace", " \ta\n+\r b\t", LESSON), ("no spaces", "(a+b)*c-a/b", LESSON),
    ("deep parentheses", "(" * 90 + "a" + ")" * 90, LESSON),
    ("forty nodes", " + ".join("abcdefghijklmnopqrst"), {}),
    ("ten products summed (40 nodes)", "relu(a*b + c*d + e*f + g*h + k*m + n*p + q*r + s*t + u*v + w*x)", {}),
    ("27 nodes mixed", "relu(w * x + v * y + b) * relu(a * c - d) + exp(e / f) * log(g + h)", {}),
    ("39 factors of one variable", " * ".join(["a"] * 39), {"a": 1.01}),
    ("40 nodes, shared variables", "relu(a * b + c * d - e / f) * exp(g - h) + log(a * a + 1) ** 2"
     " - (b - c) / (d + 2) + relu(-e * f) * (g + h * 0.5) - exp(-a) * b", {"a": 0.5, "b": -1.5}),
    ("tiny gradients", "a * b", {"a": 1e-200, "b": 1e-200}), ("subnormal power", "a ** 2", {"a": 1e-160}),
    ("big but finite", "a * b", {"a": 1e154, "b": 1e154}),
    ("exp near the edge", "exp(a)", {"a": 709.78}), ("exp underflow", "exp(a)", {"a": -800}),
    ("log of tiny", "log(a)", {"a": 5e-324}),
    ("non-integer values", "a * b + c", {"a": 0.1, "b": 0.2, "c": 0.3}),
    ("floats that print in exponent form", "a + b", {"a": 1e16, "b": 1e-5}),
    ("floats at the repr boundary", "a + b", {"a": 1e15, "b": 1e-4}),
    # a constant exponent is folded to its number at parse time, as Python computes it
    ("power tower", "2 ** 3 ** 2", {}), ("folded half", "a ** (1/2)", LESSON),
    ("folded negative half", "a ** -(1/2)", LESSON), ("folded third", "c ** (1/3)", LESSON),
    ("folded arithmetic", "a ** (2 * 3 - 4)", LESSON), ("folded power", "a ** 2 ** -1", LESSON),
    ("folded functions", "a ** (exp(0) + log(1) + relu(-2))", LESSON),
    ("exp and log in the exponent", "a ** (exp(0.5) - log(3))", LESSON), ("folded e", "c ** exp(1)", LESSON),
    ("zero to the zero", "a ** 0", {"a": 0}), ("zero to a folded zero", "a ** (3 - 3)", {"a": 0}),
    ("zero to the negative zero", "a ** -0", {"a": 0}),
    ("folded exponent underflows to zero", "a ** 1e-300 ** 2", LESSON),
    ("folded chain of whole and half exponents", "a ** 4 ** 0.5 ** -1", LESSON),
]

# (name, expression, values): every error code, with its span and message.
ERRORS = [
    ("variable exponent", "a ** b", {}), ("variable exponent on a literal", "2 ** a", {}),
    ("variable exponent in parentheses", "a ** (b + 1)", {}),
    ("variable deep in the exponent", "a ** (2 * (1 + b))", {}), ("variable at the top", "a ** 2 ** b", {}),
    ("folded division by zero", "a ** (1 / (2 - 2))", {}), ("folded log of zero", "a ** log(0)", {}),
    ("folded zero to a negative power", "a ** (0 ** -1)", {}),
    ("folded negative base", "a ** ((-8) ** (1/3))", {}), ("folded overflow", "a ** (1e200 * 1e200)", {}),
    ("folded exp overflow", "a ** exp(1000)", {}),
    ("folded power beyond a float", "b ** 1e-300 ** -2", {}),
    ("folded subnormal power", "a ** (5e-324) ** -2", {}),
    ("folded chain overflow", "a ** 2 ** 1e-160 ** -3", {}),
    ("folded chain zero to a negative power", "a ** 0 ** -1 ** 2", {}),
    ("folded chain negative base", "a ** (-8) ** 2 ** -1", {}),
    ("power beyond a float", "a ** -2", {"a": 1e-300}),
    ("constant power beyond a float", "(1e-300) ** -2 * a", {}),
    ("negated variable exponent", "a ** -b", {}), ("unknown function", "sin(x)", {}),
    ("unknown function, long name", "softmax(a)", {}), ("ends early", "a +", {}),
    ("never closed", "(a + b", {}), ("closes nothing", "a + b)", {}), ("bad character", "a $ b", {}),
    ("two letters", "ab", {}), ("a function on its way", "lo", {}),
    ("a function on its way, mid-sum", "a + ex * b", {}),
    ("function without call", "relu + 1", {}), ("empty", "", {}),
    ("only spaces", "   ", {}), ("missing operator", "a b", {}), ("literal overflow", "1e999", {}),
    ("exponent literal overflow", "a ** 1e400", {}), ("empty call", "relu()", {}),
    ("empty call, spaced", "a * relu( )", {}),
    ("operator first", "* a", {}), ("double operator", "a * * b", {}),
    ("typographic double times", "a \u00d7\u00d7 b", {}),
    ("number then name", "2a", {}), ("exponent letter", "1e", {}), ("dangling power", "a **", {}),
    ("emoji", "a + \U0001F600", {}), ("emoji before the error", "\U0001F600 + a", {}),
    ("accented letter", "\u00e9 + a", {}), ("arabic digit", "\u0661 + a", {}),
    ("html", "<b>a</b>", {}), ("html entity", "a &amp; b", {}), ("quote", 'a + "b"', {}),
    ("backslash", "a \\ b", {}), ("nul", "a\x00", {}), ("no-break space", "a +\u00a0b", {}),
    ("line separator", "a\u2028+ b", {}), ("fullwidth plus", "a \uff0b b", {}),
    ("combining mark", "a\u0301 + b", {}), ("right-to-left text", "\u05d0 + a", {}),
    ("too long", "a" + " + a" * 60, {}), ("too long in emoji", "\U0001F600" * 201, {}),
    ("41 nodes", " + ".join("abcdefghijklmnopqrstu") + " * 2 * 3 * 4", {}),
    ("deeply unclosed", "(" * 120, {}), ("unclosed call", "exp(a", {}), ("stray closer", ")", {}),
    ("divide by zero", "a / b", {"b": 0}), ("divide by negative zero", "a / b", {"b": -0.0}),
    ("divide by a zero difference", "a / (b - b)", {"b": 3}),
    ("log of negative", "log(a)", {"a": -1}), ("log of zero difference", "log(a - b)", {"a": 1, "b": 1}),
    ("zero to a negative power", "b ** -1", {"b": 0}), ("zero-slope root", "a ** 0.5", {"a": 0}),
    ("negative base, fractional power", "a ** 0.5", {"a": -4}),
    ("exp overflow", "exp(a)", {"a": 1000}), ("power overflow", "a ** 3", {"a": 1e200}),
    ("product overflow", "a * b", {"a": 1e200, "b": 1e200}),
    ("sum overflow", "a + b", {"a": 1.7e308, "b": 1.7e308}),
    ("reciprocal overflow", "1 / a", {"a": 1e-310}), ("gradient overflow", "log(a) * 1e300", {"a": 1e-10}),
    ("log local overflow", "log(a)", {"a": 1e-320}), ("infinite value", "a + 1", {"a": math.inf}),
    ("nan value", "a + 1", {"a": math.nan}), ("negative infinite value", "b * a", {"a": -math.inf}),
    ("domain error deep inside", "exp(a) + log(b - a) * c", LESSON),
    # finite values and gradients, but an edge's local derivative (a product along the hidden path
    # of '/') overflows: an overflow error at that node (timeline.schema.json, "num")
    ("edge local overflow in a quotient", "(a / b) * c", {"a": 1e200, "b": 1e-100, "c": 1e-300}),
    ("edge local overflow of constants", "0*(10/1e-154)", {}),
    ("reciprocal of an underflowing square", "a ** -2", {"a": 1e-200}),
]


def threshold_cases() -> list[tuple[str, str, dict]]:
    """Inputs on the edge of a domain error, where one ulp of ** decides between graph and error.

    Whole and half exponents are computed by *, / and sqrt (power() in the Value class), so both
    engines must land on the same side; b = 8.84179473681791 is where glibc's and V8's pow(b, -1)
    once differed in the last bit.
    """
    b = 8.84179473681791
    cases = []
    for k in ("-1", "2", "3", "0.5", "1.5", "-2", "-0.5"):
        exact = power(b, float(k))
        for side, c in (("on", exact), ("below", math.nextafter(exact, 0.0))):
            cases.append((f"threshold {side}: 1/(b ** {k} - c)", f"1/(b ** {k} - c)", {"b": b, "c": c}))
            cases.append((f"threshold {side}: log(b ** {k} - c)", f"log(b ** {k} - c)", {"b": b, "c": c}))
    return cases + [("threshold: 1/(1/b - c)", "1/(1/b - c)", {"b": b, "c": 0.11309921003209036}),
                    ("threshold: log(1/b - c)", "log(1/b - c)", {"b": b, "c": 0.11309921003209036})]


def random_expression(rng: random.Random, depth: int) -> str:
    """A seeded expression in the sandbox grammar (the corpus must regenerate byte for byte)."""
    if depth == 0 or rng.random() < 0.25:
        return rng.choice(["a", "b", "c", "x", "2", "0.5", "3", "1.5"])
    kind = rng.choice(["+", "-", "*", "/", "**", "relu", "exp", "log", "neg"])
    inner = random_expression(rng, depth - 1)
    if kind in "+-*/":
        return f"({inner} {kind} {random_expression(rng, depth - 1)})"
    if kind == "**":
        return f"({inner}) ** {rng.choice(['2', '3', '0.5', '-1', '-2', '1.5', '(1/2)', '3 ** -1'])}"
    return f"-({inner})" if kind == "neg" else f"{kind}({inner})"


def random_cases(count: int) -> list[tuple[str, str, dict]]:
    rng = random.Random(20240602)
    cases = []
    for k in range(count):
        values = {name: round(rng.uniform(-3, 3), 3) for name in "abcx"}
        cases.append((f"random {k}", random_expression(rng, rng.randint(1, 5)), values))
    return cases


def portable(values: dict[str, float]) -> dict[str, float | str]:
    return {k: v if math.isfinite(v) else repr(float(v)) for k, v in values.items()}


LIBM = {"exp": "exp", "log": "log", "__pow__": "**"}  # Value's methods whose rounding is the platform's
Method = Callable[..., Value]


@contextmanager
def patched_libm(wrap: Callable[[Method, str], Method]) -> Iterator[None]:
    """Value.exp, .log and .__pow__ replaced by wrap(original method, op) while the block runs.

    The one place that patches the lesson's class: this script records with it, and
    tests/test_equivalence.py replays the TypeScript engine's numbers with it.
    """
    original = {name: getattr(Value, name) for name in LIBM}
    try:
        for name, op in LIBM.items():
            setattr(Value, name, wrap(original[name], op))
        yield
    finally:
        for name, method in original.items():
            setattr(Value, name, method)


def recording_libm(log: list[list]) -> AbstractContextManager[None]:
    """Write down every exp, log and ** that Value computes (the results pass through unchanged)."""
    def recording(original: Method, op: str) -> Method:
        def method(self: Value, *exponent: float) -> Value:
            out = original(self, *exponent)
            log.append([op, float(exponent[0]) if exponent else None, self.data, out.data,
                        out._local_grads[0]])
            return out
        return method

    return patched_libm(recording)


def case(name: str, expression: str, values: dict[str, float]) -> dict:
    libm: list[list] = []
    try:
        with recording_libm(libm):
            expected = build_timeline(expression, values)
    except TinyDagError as error:
        expected = error.to_json()
    libm = [op for op in libm if all(math.isfinite(x) for x in op[2:])]  # JSON holds no inf
    return {"name": name, "expression": expression, "values": portable(values), "libm": libm,
            "expected": expected}


def build_corpus() -> list[dict]:
    cases = [case(*c) for c in VALID + ERRORS + threshold_cases() + random_cases(200)]
    assert len({c["name"] for c in cases}) == len(cases), "case names must be unique"
    return cases


def render(cases: list[dict]) -> str:
    """One case per line, so a diff of the corpus shows which cases changed."""
    lines = (json.dumps(c, ensure_ascii=False, separators=(",", ":"), allow_nan=False) for c in cases)
    return "[\n" + ",\n".join(lines) + "\n]\n"


def main() -> None:
    CORPUS.parent.mkdir(parents=True, exist_ok=True)
    cases = build_corpus()
    CORPUS.write_text(render(cases), encoding="utf-8")
    errors = sum("error" in c["expected"] for c in cases)
    print(f"{CORPUS.relative_to(ROOT)}: {len(cases)} cases ({errors} errors)")


if __name__ == "__main__":
    main()
