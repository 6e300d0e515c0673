"""The sandbox's "The same in PyTorch / JAX" scripts (src/tinydag/frameworks.py, src/inference/frameworks.ts).

Proven three ways: the JAX script, run with real JAX (float64) in this process, prints the engine's
gradients for every preset of the site and a few hundred random expressions; the PyTorch script
parses and calls backward() (torch is too large for the test budget, so it is not run); and the
TypeScript mirror writes the same text, byte for byte, for the same timelines.
"""

from __future__ import annotations

import ast
import contextlib
import io
import math
import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tinydag import TinyDagError, build_timeline, dumps
from tinydag.frameworks import expression_in, scripts
from tinydag.types import Timeline
from tinydag_mkdocs.sandbox.blocks import find_blocks

from .expressions import expressions, values
from .test_equivalence import Probe, started_probe

ROOT = Path(__file__).resolve().parents[1]
RELATIVE = 1e-9  # the framework's gradients must be the engine's to this relative error
PRINTED = re.compile(r'^print\("(?P<name>\w)\.grad =", ')
OUTPUT = re.compile(r"^(?P<name>\w)\.grad = (?P<value>\S+)$")
RANDOM = settings(deadline=None, derandomize=True, database=None,
                  suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
STATS: Counter[str] = Counter()
VARIABLE = re.compile(r"\b[a-z]\b")  # a single letter on its own: a variable, not part of exp


def site_graphs() -> list[tuple[str, str, dict[str, float]]]:
    """Every full sandbox's default graph and presets, on every page in every language."""
    found: dict[tuple[str, tuple], tuple[str, str, dict[str, float]]] = {}
    for page in sorted((ROOT / "docs").glob("*.md")):
        for block in find_blocks(page.read_text(encoding="utf-8")):
            if block.compact:
                continue
            for graph in [block.default, *block.presets]:
                key = (graph.expression, tuple(sorted(graph.values.items())))
                found.setdefault(key, (f"{page.name}:{graph.label or 'default'}", graph.expression,
                                       graph.values))
    return list(found.values())


SITE = site_graphs()


@pytest.fixture(scope="module")
def jax():
    try:
        import jax as module
    except ImportError:  # pragma: no cover - the test extra installs it
        pytest.fail("JAX is a test dependency: install the test extra (make setup)")
    return module


def run_jax(timeline: Timeline) -> dict[str, float]:
    """Run the JAX script as the learner would, in this process; what it printed, by name."""
    script = scripts(timeline)
    assert script is not None
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(script["jax"], "<sandbox jax script>", "exec"), {"__name__": "sandbox"})
    printed = {}
    for line in out.getvalue().splitlines():
        match = OUTPUT.match(line)
        assert match, f"unexpected output line {line!r}"
        printed[match["name"]] = float(match["value"])
    return printed


def assert_same_gradients(timeline: Timeline, printed: dict[str, float]) -> None:
    nodes = {n["id"]: n for n in timeline["nodes"]}
    engine = {v["name"]: nodes[v["node"]]["grad"] for v in timeline["variables"]}
    assert list(printed) == list(engine), "every variable printed once, in the sandbox's order"
    for name, grad in engine.items():
        assert math.isclose(printed[name], grad, rel_tol=RELATIVE, abs_tol=0), (
            f"{timeline['expression']} at {timeline['variables']}: JAX says {name}.grad = {printed[name]!r}, "
            f"the engine {grad!r}")


@pytest.mark.parametrize("where, expression, values", SITE, ids=[s[0] for s in SITE])
def test_the_jax_script_prints_the_engine_gradients_for_every_preset(jax, where, expression, values):
    timeline = build_timeline(expression, values)
    assert_same_gradients(timeline, run_jax(timeline))


@settings(RANDOM, max_examples=400)
@given(expression=expressions().filter(lambda text: VARIABLE.search(text) is not None), env=values())
def test_the_jax_script_prints_the_engine_gradients_for_random_expressions(jax, expression, env):
    try:
        timeline = build_timeline(expression, env)
    except TinyDagError:
        STATS["refused"] += 1
        return  # the panel says why instead (tests/ts/player-frameworks.test.ts)
    if not timeline["variables"]:
        STATS["constant"] += 1
        return
    assert_same_gradients(timeline, run_jax(timeline))
    STATS["compared"] += 1


def test_enough_random_expressions_were_run_with_jax():
    assert STATS["compared"] >= 200, STATS  # runs after the random test: pytest keeps file order


def test_the_pytorch_script_parses_calls_backward_and_prints_every_gradient():
    for _, expression, env in SITE:
        timeline = build_timeline(expression, env)
        script = scripts(timeline)
        assert script is not None
        tree = ast.parse(script["pytorch"])
        calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)]
        assert any(c.func.attr == "backward" and isinstance(c.func.value, ast.Name)
                   and c.func.value.id == "out" for c in calls), "out.backward()"
        names = [v["name"] for v in timeline["variables"]]
        printed = [m["name"] for line in script["pytorch"].splitlines() if (m := PRINTED.match(line))]
        assert printed == names
        for name in names:
            assert f"{name} = torch.tensor(" in script["pytorch"]
            assert f"{name}.grad.item()" in script["pytorch"]
        ast.parse(script["jax"])


@pytest.mark.parametrize("expression, pytorch, jax", [
    ("relu(a) + exp(b) * log(c)", "torch.relu(a) + torch.exp(b) * torch.log(c)",
     "jax.nn.relu(a) + jnp.exp(b) * jnp.log(c)"),
    ("(a - b) / c", "(a - b) / c", "(a - b) / c"),
    ("a - (b - c)", "a - (b - c)", "a - (b - c)"),  # the engine's grouping, not Python's default
    ("a / (b * c)", "a / (b * c)", "a / (b * c)"),
    ("-a ** 2 + (-a) ** 3 + a ** (1/2) + a ** -1", "-a ** 2 + (-a) ** 3 + a ** 0.5 + a ** -1",
     "-a ** 2 + (-a) ** 3 + a ** 0.5 + a ** -1"),
    ("(a ** 2) ** 3 * -(-a)", "(a ** 2) ** 3 * -(-a)", "(a ** 2) ** 3 * -(-a)"),
    ("2 * a - 3 + exp(1)", "2.0 * a - 3.0 + torch.exp(torch.tensor(1.0))", "2.0 * a - 3.0 + jnp.exp(1.0)"),
    ("a * -3 + 1e-7 + 1e21 * a ** 3", "a * -3.0 + 1e-7 + 1e+21 * a ** 3", "a * -3.0 + 1e-7 + 1e+21 * a ** 3"),
])
def test_each_framework_spells_the_expression_its_own_way(expression, pytorch, jax):
    timeline = build_timeline(expression, {"a": 2.0, "b": 1.0, "c": 3.0})
    assert expression_in(timeline, "pytorch") == pytorch
    assert expression_in(timeline, "jax") == jax


def test_the_scripts_hold_the_exact_values_and_float64():
    timeline = build_timeline("a * b", {"a": 0.1, "b": -2.5e-8})
    script = scripts(timeline)
    assert script is not None
    assert "a = torch.tensor(0.1, requires_grad=True)" in script["pytorch"]
    assert "torch.set_default_dtype(torch.float64)" in script["pytorch"]
    assert "b = -2.5e-8" in script["jax"]
    assert 'jax.config.update("jax_enable_x64", True)' in script["jax"]
    assert "grads = jax.grad(out, argnums=(0, 1))(a, b)" in script["jax"]
    assert "argnums=(0,))(a)" in scripts(build_timeline("a", {"a": 1.0}))["jax"]  # type: ignore[index]


def test_an_expression_without_variables_has_no_script():
    assert scripts(build_timeline("2 * 3", {})) is None


@pytest.fixture(scope="module")
def probe() -> Iterator[Probe]:
    yield from started_probe("frameworks")


def assert_mirrored(probe: Probe, timeline: Timeline) -> None:
    theirs = probe.ask(op="frameworks", timeline=dumps(timeline))["scripts"]
    assert theirs == scripts(timeline), timeline["expression"]


@pytest.mark.parametrize("where, expression, values", SITE, ids=[s[0] for s in SITE])
def test_typescript_writes_the_same_scripts_for_every_preset(probe, where, expression, values):
    assert_mirrored(probe, build_timeline(expression, values))


ANY_FLOAT = st.floats(allow_nan=False, allow_infinity=False)


@settings(RANDOM, max_examples=300)
@given(expression=expressions(), env=values(), scale=st.sampled_from([1.0, 1e-7, 3e16, -1e-300]),
       a=ANY_FLOAT)
def test_typescript_writes_the_same_scripts_for_random_expressions(probe, expression, env, scale, a):
    try:
        timeline = build_timeline(expression, {**{k: v * scale for k, v in env.items()}, "a": a})
    except TinyDagError:
        return
    assert_mirrored(probe, timeline)
