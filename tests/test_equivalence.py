"""The TypeScript port (src/inference) against the Python engine (src/tinydag), probed from inside.

One node process (tests/ts/inference_probe.ts, bundled by esbuild) serves the whole session over JSON
lines: for each expression it returns the timeline exactly as its dumps() prints it, and the raw Value
graph behind it (data, grad, children as indices, local grads, in topological order).

Both engines must print the same bytes and build the same Value graph, bit for bit, with one allowed
exception: exp, log and a ** whose exponent is not a whole or half number up to 16 (power() in the Value
class computes those with *, / and sqrt, which IEEE 754 rounds alike everywhere; checked below).
CPython calls glibc, whose exp/log/pow are correctly rounded in practice;
V8 ships ports of fdlibm, within 1 ulp but not always the nearest double. They disagree in the last bit
for about one input in ten (2 ulp in the local derivative of **, k * x ** (k - 1): a 1-ulp pow, then
one more rounding), and a difference then travels through later operations. So when the bytes differ,
Python runs again with the TypeScript result of every exp, log and ** (each checked to be within
MAX_ULP of Python's own for the same input), and then everything must be bit-identical. Near a domain
boundary that rounding can even decide between a result and an error; the replay explains those too,
and tests/test_fuzz_engine.py measures how often it happens.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import io
import json
import math
import os
import shutil
import struct
import subprocess
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, redirect_stderr, redirect_stdout
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from microgpt_annotated import Value
from tinydag import TinyDagError, build_timeline, cli, dumps
from tinydag.ops import OPS
from tinydag.timeline import timeline_of
from tinydag.trace import Trace, trace

from .expressions import expressions, values

ROOT = Path(__file__).resolve().parents[1]


def load_make_vectors():
    spec = importlib.util.spec_from_file_location("make_vectors", ROOT / "scripts/make_vectors.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


MAKE_VECTORS = load_make_vectors()  # the corpus, and the one context manager that patches Value
MAX_ULP = 2  # glibc vs fdlibm rounding of exp, log and ** (see the module docstring)
STATS: Counter[str] = Counter()
RANDOM = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def bits(x: float) -> str:
    return struct.pack(">d", x).hex()


def ulp_distance(a: float, b: float) -> int:
    def ordered(x: float) -> int:  # monotonic in x; -0.0 and 0.0 meet at 0
        (i,) = struct.unpack(">q", struct.pack(">d", x))
        return i if i >= 0 else -(i & 0x7FFF_FFFF_FFFF_FFFF)

    return abs(ordered(a) - ordered(b))


class Probe:
    """The long-lived node process; one JSON line out, one JSON line back."""

    def __init__(self, bundle: Path) -> None:
        self.process = subprocess.Popen(["node", str(bundle)], cwd=ROOT, stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, text=True, encoding="utf-8")

    def ask(self, **request: object) -> dict:
        assert self.process.stdin and self.process.stdout
        self.process.stdin.write(json.dumps(request) + "\n")  # ASCII-escaped: any str survives
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        assert line, f"the node probe exited with {self.process.poll()}"
        reply = json.loads(line)
        assert "crash" not in reply, reply["crash"]
        return reply

    def close(self) -> None:
        assert self.process.stdin
        self.process.stdin.close()
        self.process.wait(timeout=10)


def started_probe(folder: str) -> Iterator[Probe]:
    """The TypeScript probe bundled into .build/<folder> (one file per process: parallel runs), running."""
    esbuild = ROOT / "node_modules/.bin/esbuild"
    assert shutil.which("node") and esbuild.exists(), "node and esbuild are needed: run `make setup`"
    bundle = ROOT / ".build" / folder / f"probe-{os.getpid()}.mjs"
    subprocess.run([str(esbuild), "tests/ts/inference_probe.ts", "--bundle", "--platform=node",
                    "--format=esm", f"--outfile={bundle}", "--log-level=warning"], cwd=ROOT, check=True)
    node = Probe(bundle)
    yield node
    node.close()
    bundle.unlink(missing_ok=True)


@pytest.fixture(scope="session")
def probe(request: pytest.FixtureRequest) -> Iterator[Probe]:
    yield from started_probe("equivalence")
    summary = (f"equivalence: {STATS['expressions']} inputs compared node by node ({STATS['corpus']} corpus, "
               f"{STATS['random expressions']} random expressions, {STATS['extreme values']} at extreme "
               f"values, {STATS['random texts']} random texts); "
               f"{STATS['identical']} bit-identical as computed, {STATS['replayed']} after replaying "
               f"exp/log/** ({STATS['ops']} results checked, {STATS['ulp']} numbers differ "
               f"by 1..{MAX_ULP} ulp (worst {STATS['worst ulp']}), {STATS['outcome changed by rounding']} "
               f"outcomes (error or not) changed by that rounding); {STATS['argv']} command lines, "
               f"{STATS['floats']} float reprs")
    (ROOT / ".build" / "equivalence" / "stats.json").write_text(json.dumps(dict(STATS), indent=1))
    reporter = request.config.pluginmanager.get_plugin("terminalreporter")
    capture = request.config.pluginmanager.get_plugin("capturemanager")
    if reporter is not None and capture is not None:
        with capture.global_and_fixture_disabled():  # teardown output is captured otherwise
            reporter.write("\n")
            reporter.write_line(summary)


# ---- the Python side, and its replay with the TypeScript side's exp, log and ** ----

def python_side(expression: str, env: dict[str, float]) -> tuple[str, Trace | None]:
    try:
        t = trace(expression, env)
    except TinyDagError as error:
        return dumps(error.to_json()), None
    return dumps(timeline_of(t)), t


def libm_key(op: str, exponent: float | None, x: float) -> tuple:
    return op, None if exponent is None else bits(exponent), bits(x)  # bits: -0.0 is not 0.0 here


def typescript_results(libm: list[list]) -> AbstractContextManager[None]:
    """Value.exp, .log and ** answer the TypeScript engine's numbers, each checked against our own.

    libm: what the probe recorded, [op, exponent, input, value, local derivative] per operation.
    """
    found = {libm_key(op, exponent, x): (data, local) for op, exponent, x, data, local in libm}

    def replaying(original: Callable[..., Value], op: str) -> Callable[..., Value]:
        def method(self: Value, *exponent: float) -> Value:
            own = original(self, *exponent)  # OverflowError where TypeScript got Infinity
            at = libm_key(op, float(exponent[0]) if exponent else None, self.data)
            assert at in found, f"TypeScript computed no {op}{exponent} of {self.data!r}"
            data, local = found[at]
            if op == "**" and (2 * exponent[0]) % 1 == 0 and abs(exponent[0]) <= 16:  # *, / and sqrt only
                assert (bits(own.data), bits(own._local_grads[0])) == (bits(data), bits(local)), (
                    f"power({self.data!r}, {exponent[0]}) differs: {own.data!r} vs {data!r}")
            for ours, theirs in ((own.data, data), (own._local_grads[0], local)):
                distance = ulp_distance(ours, theirs)
                assert distance <= MAX_ULP, f"{op}{exponent}({self.data!r}): {ours!r} vs {theirs!r}"
                STATS["ulp"] += distance > 0
                STATS["worst ulp"] = max(STATS["worst ulp"], distance)
            STATS["ops"] += 1
            return Value(data, (self,), (local,))
        return method

    return MAKE_VECTORS.patched_libm(replaying)


def graph_of(t: Trace) -> list[dict]:
    """Python's Value graph in the probe's shape; numbers as bit patterns, so -0.0 != 0.0."""
    index = {id(v): i for i, v in enumerate(t.topo)}
    owner = {id(p): n.id for n in t.nodes for p in n.primitives}
    return [{"data": bits(v.data), "grad": bits(v.grad), "children": [index[id(c)] for c in v._children],
             "local": [bits(x) for x in v._local_grads], "owner": owner[id(v)]} for v in t.topo]


def as_bits(graph: list[dict]) -> list[dict]:
    return [{**v, "data": bits(v["data"]), "grad": bits(v["grad"]),
             "local": [bits(x) for x in v["local"]]} for v in graph]


def compare(probe: Probe, expression: str, env: dict[str, float], kind: str) -> None:
    """Same bytes, same Value graph; else the same after replaying exp, log and ** (see above)."""
    theirs = probe.ask(op="timeline", expression=expression, values={k: bits(v) for k, v in env.items()})
    ours, t = python_side(expression, env)
    STATS["expressions"] += 1
    STATS[kind] += 1
    if theirs["json"] != ours:
        before = ours
        with typescript_results(theirs["libm"]):
            ours, t = python_side(expression, env)
        assert theirs["json"] == ours, (f"{expression!r} {env}: the engines disagree, even replaying "
                                        f"exp/log/**\n  python:     {before}\n  typescript: {theirs['json']}")
        STATS["replayed"] += 1
        STATS["outcome changed by rounding"] += before.startswith('{"error"') != ours.startswith('{"error"')
    else:
        STATS["identical"] += 1
    if t is not None:
        assert as_bits(theirs["graph"]) == graph_of(t), f"{expression!r} {env}: Value graphs differ"


def test_ulp_distance():
    assert ulp_distance(1.0, math.nextafter(1.0, 2.0)) == 1
    assert ulp_distance(-5e-324, 5e-324) == 2 and ulp_distance(-0.0, 0.0) == 0
    assert ulp_distance(math.nextafter(2.0, 0.0), math.nextafter(2.0, 3.0)) == 2  # across a binade


# ---- the shared corpus ----

CORPUS_PATH = ROOT / "tests/vectors/corpus.json"
CORPUS = json.loads(CORPUS_PATH.read_text(encoding="utf-8"))


def test_corpus_is_fresh():
    assert MAKE_VECTORS.render(MAKE_VECTORS.build_corpus()) == CORPUS_PATH.read_text(encoding="utf-8"), (
        "tests/vectors/corpus.json is stale against the Python engine: run `make corpus`")


@pytest.mark.parametrize("case", CORPUS, ids=[c["name"] for c in CORPUS])
def test_corpus_case_node_by_node(probe, case):
    compare(probe, case["expression"], {k: float(v) for k, v in case["values"].items()}, "corpus")


# ---- differential random testing ----

@settings(RANDOM, max_examples=500)
@given(expressions(max_leaves=12), values())
def test_random_expressions(probe, expression, env):
    compare(probe, expression, env, "random expressions")


EXTREME = st.one_of(st.floats(), st.sampled_from([0.0, -0.0, 5e-324, 1e-320, 1e-160, 1e154, 1e200, 709.78,
                                                  710.0, -745.2, math.inf, -math.inf, math.nan]))


@settings(RANDOM, max_examples=150)
@given(expressions(max_leaves=6), st.fixed_dictionaries({name: EXTREME for name in "abcx"}))
def test_random_expressions_at_extreme_values(probe, expression, env):
    compare(probe, expression, env, "extreme values")


TOKENS = ["a", "b", "c", "x", "A", "_", "2", "0.5", "1e3", ".5", "1e999", "0", "-0", "2.", "1e", "1_0",
          "+", "-", "*", "/", "**", "(", ")", " ", "\t", "relu", "exp", "log", "sin", "ab", "e",
          "\u2212", "\u00d7", "\u00b7", "\U0001F600", "\u00e9", "\u0661", "\u00a0", "<b>", "&amp;",
          "<script>alert(1)</script>", "'", '"', "\\", "$", "\n"]


@settings(RANDOM, max_examples=500)
@given(st.lists(st.sampled_from(TOKENS), max_size=40).map("".join), values())
def test_random_token_soup(probe, text, env):
    compare(probe, text, env, "random texts")


@settings(RANDOM, max_examples=300)
@given(st.text(max_size=80))  # all of Unicode but lone surrogates: astral, emoji, controls, RTL
def test_random_unicode_text(probe, text):
    compare(probe, text, {}, "random texts")


@settings(RANDOM, max_examples=60)
@given(st.text(min_size=150, max_size=400) | st.lists(st.sampled_from(TOKENS), min_size=60).map("".join))
def test_random_long_text(probe, text):
    compare(probe, text, {}, "random texts")


def test_deeply_unclosed_parentheses(probe):
    compare(probe, "(" * 200, {}, "corpus")


# ---- numbers as text, and the command line ----

@settings(RANDOM, max_examples=200)
@given(st.lists(st.floats(allow_nan=False, allow_infinity=False), min_size=1, max_size=40))
def test_floats_print_as_python_repr(probe, floats):
    edges = [1e16, 1e15, 9999999999999998.0, 1e-4, 1e-5, 0.0001000000000000001, 5e-324, 0.1, 1 / 3,
             2.2250738585072014e-308, 1.7976931348623157e308, -0.0, 123456789.125, 1e22, 1e21]
    floats = floats + edges
    assert probe.ask(op="repr", floats=[bits(x) for x in floats])["reprs"] == [repr(x) for x in floats]
    STATS["floats"] += len(floats)


def test_the_tables_of_operations_are_the_same(probe):
    """src/tinydag/ops.py and src/inference/ops.ts: the same rows, in the same order, field for field."""
    theirs = probe.ask(op="ops")["ops"]
    ours = {op: dataclasses.asdict(spec) for op, spec in OPS.items()}
    assert list(theirs) == list(ours)
    assert theirs == ours


ARGV = ["--set", "a=2", "--set=b=-3", "c=1e400", "--", "-a + b", "(a + b) * c", "a ** b", "--bogus", "a",
        "=2", "a=", "a=nan", "a=1_000", " a = 2 ", "a=0x10", "a=\u0663", "a=-Infinity", "x=-0.0", "",
        "a=1e-5", "--set=", "-", "relu(a) * -b", "a=-1", "a=1__0", "b=\u00a02\u2003", "--set=a=it's", "€"]


@settings(RANDOM, max_examples=300)
@given(st.lists(st.sampled_from(ARGV), max_size=6))
def test_command_line_arguments_parse_alike(probe, argv):
    theirs = probe.ask(op="cli", argv=argv)
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = cli.main(argv)
    assert (theirs["code"], theirs["stdout"]) == (code, out.getvalue())
    # the usage line names each program; the message above it must match
    assert theirs["stderr"].split("\n")[:-2] == err.getvalue().split("\n")[:-2]
    STATS["argv"] += 1


CLI_CASES = [
    ["(a + b) * c", "--set", "a=2", "--set", "b=-3", "--set", "c=10"],
    ["--set", "a=2", "--", "-a + b"], ["-a + b", "--set=a=2"], ["a ** b"], ["log(a)", "--set", "a=0"],
    ["relu(w * x + v * y + b) - a / a", "--set", "w=0.5"], ["--set", "a", "a"], ["a", "b"], ["\U0001F600"],
    ["b ** 1e-300 ** -2"], ["a ** -2", "--set", "a=1e-300"],
]


@pytest.mark.parametrize("argv", CLI_CASES, ids=" ".join)
def test_the_two_command_lines_print_the_same(argv):
    python = subprocess.run([sys.executable, "-m", "tinydag", *argv], capture_output=True, text=True,
                            encoding="utf-8", cwd=ROOT)
    node = subprocess.run(["node", "scripts/timeline-cli.mjs", *argv], capture_output=True, text=True,
                          encoding="utf-8", cwd=ROOT)
    assert (node.returncode, node.stdout) == (python.returncode, python.stdout)
    assert node.stderr.split("\n")[:-2] == python.stderr.split("\n")[:-2]


def test_npm_run_timeline():
    done = subprocess.run(["npm", "run", "-s", "timeline", "--", "--set", "a=2", "--", "-a + b"],
                          capture_output=True, text=True, encoding="utf-8", cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert done.stdout == dumps(build_timeline("-a + b", {"a": 2})) + "\n"
