"""The gears widget at build time: engine numbers, the chain rule, the fixture the TypeScript side
is checked against, the static figure, and an author's mistakes reported at their line.

`python -m tests.test_gears` rewrites tests/vectors/gears.json (a test fails while it is stale).
"""

from __future__ import annotations

import json
import math
import re
import subprocess
import sys
from pathlib import Path

import pytest

from microgpt_annotated import Value
from tinydag_mkdocs.widgets import gears, gears_train, registry

from .test_plugin import Site, build_error
from .test_widgets import STRINGS, widget_data

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = ROOT / "tests" / "vectors" / "gears.json"
TRAIN_FIXTURE = ROOT / "tests" / "vectors" / "gears-train.json"

# Each chain twice: as the block's text, and as Python functions of Values (an independent writing).
CHAINS = [
    ("3 * x", "u * u", 1, [-1, 3], 0.1, lambda x: 3 * x, lambda u: u * u),
    ("x - 1", "relu(u)", 0, [-1, 3], 0.1, lambda x: x - 1, lambda u: u.relu()),
    ("2 - x", "u ** 3", 0.5, [-1, 2], 0.25, lambda x: 2 - x, lambda u: u**3),
    ("x * x + 1", "1 / u", 0, [-2, 2], 0.2, lambda x: x * x + 1, lambda u: 1 / u),
    ("exp(x) / 4", "log(u + 1)", 0, [-2, 2], 0.2, lambda x: x.exp() / 4, lambda u: (u + 1).log()),
    ("relu(x)", "3 * u - u * u", -1, [-2, 2], 0.1, lambda x: x.relu(), lambda u: 3 * u - u * u),
    ("-2 * x", "u * u", 1, [-1, 3], 0.1, lambda x: -2 * x, lambda u: u * u),
]
# Page 00's block: the reader chooses the first step among three (predict (b), (c) and a dead relu).
PAGE_CHOICES = ["-2 * x", "relu(x - 1)"]


def spec_of(inner: str, outer: str, x: float, span: list[float], step: float,
            choices: list[str] | None = None) -> gears.GearsSpec:
    keys = {"inner": inner, "outer": outer, "x": x, "range": span, "step": step}
    return gears.parse(keys | ({"choices": choices} if choices else {}), 1, {})


def fixture() -> list[dict]:
    """Every chain at every stop of its slider, by the Python engine: what gears-model.ts must equal."""
    cases = []
    for inner, outer, x, span, step, *_ in CHAINS:
        spec = spec_of(inner, outer, x, span, step)
        count = round((spec.high - spec.low) / step) + 1
        stops = [gears.slider_stop(spec.low, step, n) for n in range(count)]
        cases.append({"data": gears.data(spec), "points": [gears.chain_at(spec, s) for s in stops]})
    spec = spec_of("3 * x", "u * u", 1, [-1, 3], 0.1, PAGE_CHOICES)
    stops = [gears.slider_stop(spec.low, spec.step, n) for n in range(41)]
    cases.append({"data": gears.data(spec), "points": [gears.chain_at(spec, s) for s in stops],
                  "choice_points": [[gears.chain_at(c, s) for s in stops] for c in spec.choices()]})
    return cases


# Ratios the train is drawn for in the fixture: to scale, clamped, negative, dead, fractional.
TRAIN_RATIOS = [3, 6, 7.8, 0.5, 1, -2, -4, -0.25, 0, 12, -36, 2.5]
TRAIN_HANDS = [{"x": 0.0, "u": 0.0, "y": 0.0}, {"x": 6.0, "u": 18.0, "y": 113.4},
               {"x": -123.4, "u": 370.2, "y": -2000.0}]


def train_fixture() -> dict:
    """The gear train the static figure draws (gears.py), which gears-model.ts must draw the same."""
    pairs = [[gears_train.train(a, b), [gears_train.bodies(gears_train.train(a, b), h) for h in TRAIN_HANDS]]
             for a, b in zip(TRAIN_RATIOS, TRAIN_RATIOS[::-1], strict=True)]
    paths = {t: gears_train.gear_path(t) for t in range(gears_train.TEETH_MIN, gears_train.TEETH_MAX + 1)}
    return {"ratios": TRAIN_RATIOS, "hands": TRAIN_HANDS, "trains": pairs, "paths": paths}


def test_the_fixture_for_typescript_is_what_the_engine_computes_now():
    assert json.loads(FIXTURE.read_text(encoding="utf-8")) == fixture(), "run python -m tests.test_gears"
    train = json.loads(json.dumps(train_fixture()))  # as JSON has it (tuples become lists, keys strings)
    assert json.loads(TRAIN_FIXTURE.read_text(encoding="utf-8")) == train, "run python -m tests.test_gears"


@pytest.mark.parametrize("chain", CHAINS, ids=[f"{c[0]} -> {c[1]}" for c in CHAINS])
def test_embedded_numbers_equal_the_value_class_run_by_hand(chain):
    inner, outer, x0, span, step, g, f = chain
    spec = spec_of(inner, outer, x0, span, step)
    assert gears.data(spec)["start"] == gears.chain_at(spec, x0)
    for case in fixture():
        if case["data"]["inner"] == inner:
            points = case["points"]
    for point in points:
        x = Value(point["x"])
        u = g(x)
        u.backward()
        u_leaf = Value(u.data)
        y = f(u_leaf)
        y.backward()
        x2 = Value(point["x"])
        y2 = f(g(x2))
        y2.backward()
        by_hand = (u.data, y.data, x.grad, u_leaf.grad)
        assert (point["u"], point["y"], point["du_dx"], point["dy_du"]) == by_hand
        assert (point["backward"], point["y_composed"]) == (x2.grad, y2.data)
        assert point["product"] == u_leaf.grad * x.grad


@pytest.mark.parametrize("chain", CHAINS, ids=[f"{c[0]} -> {c[1]}" for c in CHAINS])
def test_local_derivatives_match_central_differences(chain):
    inner, outer, x0, span, step, g, f = chain
    spec = spec_of(inner, outer, x0, span, step)
    value = lambda fn, t: fn(Value(t)).data  # noqa: E731
    h = 1e-6
    checked = 0
    for n in range(round((spec.high - spec.low) / step) + 1):
        x = gears.slider_stop(spec.low, step, n)
        c = gears.chain_at(spec, x)
        kinks = [x, c["u"]]  # relu bends at 0: a central difference straddling it is no slope
        if any(abs(k) < 10 * h for k in kinks) or (inner == "x - 1" and abs(x - 1) < 10 * h):
            continue
        du_dx = (value(g, x + h) - value(g, x - h)) / (2 * h)
        dy_du = (value(f, c["u"] + h) - value(f, c["u"] - h)) / (2 * h)
        dy_dx = (value(lambda t: f(g(t)), x + h) - value(lambda t: f(g(t)), x - h)) / (2 * h)
        assert c["du_dx"] == pytest.approx(du_dx, rel=1e-6, abs=1e-6)
        assert c["dy_du"] == pytest.approx(dy_du, rel=1e-6, abs=1e-6)
        assert c["backward"] == pytest.approx(dy_dx, rel=1e-6, abs=1e-6)
        checked += 1
    assert checked >= 10


def test_the_chain_rule_product_agrees_with_backward_on_the_composition_everywhere():
    for case in fixture():
        for point in case["points"]:
            assert gears.agrees(point["product"], point["backward"]), (case["data"]["composed"], point)
            assert point["y"] == pytest.approx(point["y_composed"], rel=1e-12, abs=1e-12)


def test_a_dead_relu_leaves_the_later_gears_still():
    spec = spec_of("x - 1", "relu(u)", 0, [-1, 3], 0.1)
    dead, alive = gears.chain_at(spec, 0.5), gears.chain_at(spec, 2.0)
    assert (dead["du_dx"], dead["dy_du"], dead["product"], dead["backward"]) == (1.0, 0.0, 0.0, 0.0)
    assert (alive["dy_du"], alive["product"], alive["backward"]) == (1.0, 1.0, 1.0)


def test_composition_substitutes_inner_for_every_u_keeping_precedence():
    assert gears.compose("3 * x", "u * u") == "(3 * x) * (3 * x)"
    assert gears.compose("x + 1", "-u ** 2 + relu(u)") == "-(x + 1) ** 2 + relu(x + 1)"
    # A call or a variable needs no parentheses, nor a u between its own (walk 35: the page's third
    # choice read "(relu(x - 1)) * (relu(x - 1))")
    assert gears.compose("relu(x - 1)", "u * u") == "relu(x - 1) * relu(x - 1)"
    assert gears.compose("x", "u ** 2 + (u) * 3") == "x ** 2 + (x) * 3"
    assert gears.compose("-x", "u ** 2") == "(-x) ** 2"
    spec = spec_of("x + 1", "-u ** 2", 1, [-1, 3], 0.1)
    c = gears.chain_at(spec, 1.0)
    assert (c["y"], c["y_composed"], c["backward"]) == (-4.0, -4.0, -4.0)  # -(x+1)^2, slope -2(x+1)


def test_the_x_gear_turns_a_round_angle_and_the_fastest_gear_no_more_than_the_limit():
    data = gears.data(spec_of("3 * x", "u * u", 1, [-1, 3], 0.1))
    assert data["degrees_per_unit"] == 60  # 18 * 0.1 * 60 = 108 degrees for the y gear, 90 would be 162
    dead = gears.data(spec_of("relu(x)", "u", -1, [-2, 2], 0.1))
    assert dead["degrees_per_unit"] == 360  # nothing turns faster than x: one step is 36 degrees
    fast = gears.data(spec_of("relu(x - 1)", "u * u", 1, [-1, 3], 0.1, ["10 * x"]))
    assert fast["degrees_per_unit"] == 5  # every choice counts: 200 * 0.1 * 5 = 100 degrees for u = 10x


def test_each_choice_is_computed_by_the_engine_at_the_start():
    data = gears.data(spec_of("3 * x", "u * u", 1, [-1, 3], 0.1, PAGE_CHOICES))
    assert [c["inner"] for c in data["choices"]] == ["3 * x", "-2 * x", "relu(x - 1)"]
    assert data["choices"][0] == {"inner": "3 * x", "composed": "(3 * x) * (3 * x)", "start": data["start"]}
    minus, dead = (c["start"] for c in data["choices"][1:])
    # predict (c): u = -2, g' = -2, f'(u) = 2u = -4, dy/dx = 8 (two minus signs)
    assert [minus[k] for k in ("u", "du_dx", "dy_du", "product", "backward")] == [-2, -2, -4, 8, 8]
    assert data["choices"][1]["composed"] == "(-2 * x) * (-2 * x)"
    assert (dead["u"], dead["du_dx"], dead["product"]) == (0, 0, 0)  # relu(0): the engine's slope is 0


@pytest.mark.parametrize(("x", "en", "ru", "et"), [
    (18.0, "18", "18", "18"), (-0.5, "\u22120.5", "\u22120,5", "\u22120,5"),
    (12345.678, "12,350", "12\u00a0350", "12\u00a0350"), (1234.5, "1,235", "1\u00a0235", "1235"),
    (2.5e-7, "2.5\u00a0×\u00a010⁻⁷", "2,5\u00a0×\u00a010⁻⁷", "2,5\u00a0×\u00a010⁻⁷"), (0.0, "0", "0", "0"),
])
def test_numbers_in_the_readout_are_written_the_languages_way(x, en, ru, et):
    assert [gears.prose_number(x, lang) for lang in ("en", "ru", "et")] == [en, ru, et]


def strings(lang: str = "en") -> dict[str, str]:
    from tinydag_mkdocs.base.strings import load_all

    table = load_all(ROOT / "src" / "player" / "strings", ["en", "ru", "et"], "src/player/strings")[lang]
    return {**{k: v for k, v in table.items() if k.startswith("gears_")}, "lang": lang}


def test_the_static_figure_shows_the_start_in_the_pages_language():
    data = gears.data(spec_of("x * 0.5", "u * u", 1, [-1, 3], 0.1))  # u = 0.5, f'(u) = 1, y = 0.25
    html = gears.svg(data, strings("ru"))
    assert 'viewBox="0 0 600 256"' in html and "<title>" in html
    texts = re.findall(r'class="tdg-gear-value"[^>]*>([^<]*)<', html)
    assert texts == ["x = 1", "u = 0,5", "y = 0,25"]
    assert re.findall(r'class="tdg-gear-ratio-value"[^>]*>([^<]*)<', html) == ["\u00d70,5", "\u00d71"]
    assert "0,5 \u00d7 1 = 0,5" not in html and "1 \u00d7 0,5 = 0,5" in html  # f'(u) x g'(x) = product
    assert "то же число" in html and "y = (x * 0.5) * (x * 0.5)" in html  # code keeps its dot
    hands = html.count('class="tdg-gear-rotor" data-angle="0" transform="rotate(0)"')
    assert hands == 4  # x, u, y and the u shaft's second wheel


def test_the_readouts_product_says_approximately_where_the_ratios_shown_do_not_give_it():
    """Walkthrough 26: at x = 2.496, u = 3x and y = u², f'(u) = 14.976 shows as 14.98, and 14.98 x 3 is
    44.94, not the 44.93 shown for 44.928: the lesson's number rule writes "≈" there."""
    data = gears.data(spec_of("3 * x", "u * u", 2.496, [2, 3], 0.002))
    assert "14.98 \u00d7 3 \u2248 44.93" in gears.svg(data, strings("en"))
    assert "14,98 \u00d7 3 \u2248 44,93" in gears.svg(data, strings("et"))
    data = gears.data(spec_of("3 * x", "u * u", 2, [2, 3], 0.002))  # 12 x 3 = 36, exactly as shown
    assert "12 \u00d7 3 = 36" in gears.svg(data, strings("en"))


def test_the_static_figure_names_the_chosen_inner_function_where_the_menu_will_be():
    plain = gears.svg(gears.data(spec_of("3 * x", "u * u", 1, [-1, 3], 0.1)), strings("et"))
    assert "tdg-gears-choice" not in plain  # nothing to choose: no line for it
    html = gears.svg(gears.data(spec_of("3 * x", "u * u", 1, [-1, 3], 0.1, PAGE_CHOICES)), strings("et"))
    assert ('<p class="tdg-gears-choice"><span class="tdg-gears-choice-label">Esimene samm: u =</span> '
            '<code class="tdg-gears-choice-value">3 * x</code></p>') in html


def test_the_static_figure_marks_a_still_gear():
    data = gears.data(spec_of("relu(x)", "u * u", -1, [-2, 2], 0.1))
    html = gears.svg(data, strings("en"))
    assert 'class="tdg-gear tdg-gear-u is-still"' in html and 'class="tdg-gear tdg-gear-y is-still"' in html
    assert html.count(">stands still</text>") == 2


def test_the_static_figure_escapes_what_it_shows():
    data = gears.data(spec_of("x", "u", 1, [-1, 3], 0.1))
    table = {**strings("en"), "gears_hint": "<b>&", "gears_agree": "<i>"}
    html = gears.svg(data, table)
    assert "<b>" not in html and "&lt;b&gt;&amp;" in html and "&lt;i&gt;" in html


def gear_error(body: str) -> registry.WidgetError:
    keys, lines = registry.read_keys(body, 11, "gears")
    with pytest.raises(registry.WidgetError) as caught:
        gears.parse(keys, 10, lines)
    return caught.value


@pytest.mark.parametrize(("body", "line", "words"), [
    ("inner: 3 * x\nouter: u * u\nx: 1\ncolour: red\n", 14, "unknown key `colour`"),
    ("inner: 3 * x\nx: 1\n", 10, "no `outer`"),
    ("inner: 3 * y\nouter: u * u\nx: 1\n", 11, "only the variable x, not y"),
    ("inner: 3 * x\nouter: x * u\nx: 1\n", 12, "only the variable u, not x"),
    ("inner: 3\nouter: u * u\nx: 1\n", 11, "must use the variable x"),
    ("inner: 3 * (x\nouter: u * u\nx: 1\n", 11, "never closed"),
    ("inner: 3 * x\nouter: u ** u\nx: 1\n", 12, "outer"),
    ("inner: 3 * x\nouter: u * u\nx: one\n", 13, "`x` must be a number"),
    ("inner: 3 * x\nouter: u * u\nx: 5\nrange: [-1, 3]\n", 13, "outside the range"),
    ("inner: 3 * x\nouter: u * u\nx: 1\nrange: [3, -1]\n", 14, "must go up"),
    ("inner: 3 * x\nouter: u * u\nx: 1\nstep: 0\n", 14, "`step` must be above 0"),
    ("inner: 3 * x\nouter: u * u\nx: 1.05\nrange: [-1, 3]\n", 13, "whole number of steps"),
    ("inner: 3 * x\nouter: log(u)\nx: 1\nrange: [-1, 3]\n", 14, "at x = -1 the chain does not compute"),
    ("inner: 3 * x\nouter: log(u)\nx: 0\nrange: [0, 3]\n", 13, "at x = 0 the chain does not compute"),
    ("inner: " + " + ".join(["x"] * 30) + "\nouter: u * u * u\nx: 1\n", 12, "too large"),
    ("inner: 3 * x\nouter: u * u\nx: 1\nchoices: -2 * x\n", 14, "`choices` must be a list"),
    ("inner: 3 * x\nouter: u * u\nx: 1\nchoices: [2 * y]\n", 14, "only the variable x, not y"),
    ("inner: 3 * x\nouter: u * u\nx: 1\nchoices: [-2 * x, 3 * x]\n", 14, "u = 3 * x twice"),
    ("inner: 3 * x\nouter: log(u)\nx: 1\nrange: [0.5, 2]\nchoices: [x - 1]\n", 15,
     "at x = 0.5 the chain with u = x - 1 does not compute"),
])
def test_an_authors_mistake_is_reported_at_its_line(body, line, words):
    error = gear_error(body)
    assert (error.line, words in error.message) == (line, True), (error.line, error.message)


def test_a_good_block_reads_with_defaults():
    keys, lines = registry.read_keys("inner: 3 * x\nouter: u * u\nx: 1\n", 11, "gears")
    spec = gears.parse(keys, 10, lines)
    assert (spec.low, spec.high, spec.step, spec.composed) == (-1.0, 3.0, 0.1, "(3 * x) * (3 * x)")
    assert math.isclose(gears.slider_stop(-1.0, 0.1, 13), 0.3) and gears.slider_stop(-1.0, 0.1, 13) == 0.3


GEARS = "```tinydag-gears\ninner: 3 * x\nouter: u * u\nx: 1\n```\n"


def gears_site(tmp_path: Path, text: str) -> Site:
    pages = {"index.md": "# Home\n", "index.ru.md": "# Главная\n", "index.et.md": "# Avaleht\n"}
    pages |= {"gears.md": text, "gears.ru.md": text, "gears.et.md": text}
    return Site(tmp_path, pages, strings=STRINGS)


@pytest.mark.parametrize(("change", "line", "message"), [  # the page: heading, text, the fence at line 5
    (("x: 1", "x: 10\nrange: [5, 9]"), 8, "x = 10 lies outside the range [5, 9]"),
    (("outer: u * u", "outer: u * v"), 7, "`outer` may use only the variable u, not v"),
    (("x: 1", "x: 1\nrange: [-1, 3]\nsteps: 2"), 10, "unknown key `steps`"),
    (("outer: u * u", "outer: log(u)"), 5, "at x = -1 the chain does not compute: log"),
])
def test_the_build_fails_naming_the_file_and_line(tmp_path, caplog, change, line, message):
    page = "# Gears\n\nText.\n\n" + GEARS.replace(*change)
    text = build_error(gears_site(tmp_path, page), caplog)
    assert f"docs/gears.md:{line}: {message}" in text, text


def test_each_language_embeds_the_engines_numbers_and_its_own_words(tmp_path):
    site = gears_site(tmp_path, "# Gears\n\n" + GEARS)
    site.build()
    for lang, prefix, agree in (("en", "", "the same number"), ("ru", "ru/", "то же число"),
                                ("et", "et/", "sama arv")):
        html = (tmp_path / "site" / prefix / "gears" / "index.html").read_text(encoding="utf-8")
        [payload] = widget_data(html)
        spec = gears.parse({"inner": "3 * x", "outer": "u * u", "x": 1}, 1, {})
        assert payload["data"] == gears.data(spec) and payload["lang"] == lang
        assert payload["data"]["start"] | {} == {"x": 1.0, "u": 3.0, "y": 9.0, "du_dx": 3.0, "dy_du": 6.0,
                                                  "product": 18.0, "backward": 18.0, "y_composed": 9.0}
        assert set(payload["strings"]) >= {"gears_step", "gears_caption"}
        assert not any(k.startswith("knob_") for k in payload["strings"])
        assert 'id="tinydag-gears-1"' in html and agree in html and "data-gears-static" in html


if __name__ == "__main__":
    FIXTURE.write_text(json.dumps(fixture(), indent=1) + "\n", encoding="utf-8")
    TRAIN_FIXTURE.write_text(json.dumps(train_fixture(), indent=1) + "\n", encoding="utf-8")
    print(f"wrote {FIXTURE} and {TRAIN_FIXTURE}")


def test_after_mkdocs_serve_reloads_the_engine_a_bad_chain_is_still_the_authors_error():
    """cache.reload_engine() re-runs the engine's modules (a new TinyDagError class): gears.py looks
    the engine up by module, so a chain that does not compute still fails at its line, with no
    traceback. (In a process of its own: a reload here would leave the other tests with old classes.)"""
    script = """
from tinydag_mkdocs.widgets import gears, registry
from tinydag_mkdocs.sandbox.cache import reload_engine
old_error = gears.engine_errors.TinyDagError
reload_engine()
assert gears.engine_errors.TinyDagError is not old_error  # the reload really made a new class
try:
    gears.parse({"inner": "log(x)", "outer": "u * u", "x": 1, "range": [-1, 1]}, 3, {"x": 6, "range": 7})
except registry.WidgetError as error:
    assert error.line == 7, error.line
else:
    raise SystemExit("a chain that does not compute at x = -1 was accepted")
assert gears.chain_at(gears.parse({"inner": "3 * x", "outer": "u * u", "x": 1}, 3, {}), 1.0) is not None
"""
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stderr
