"""The knob's numbers: samples from the Python engine, checked against the engine itself, central finite
differences, relu's kink and log's gaps; the built page embeds exactly these numbers.

`python -m tests.test_knob` rewrites tests/vectors/knob.json, the fixture the TypeScript side
(tests/ts/widgets-knob.test.ts) recomputes; a test here fails while it is stale.
"""

from __future__ import annotations

import json
import math
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tinydag_mkdocs.widgets import knob, knob_svg
from tinydag_mkdocs.widgets.registry import find_widgets

from .test_widgets import knob_site, widget_data

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = ROOT / "tests" / "vectors" / "knob.json"

# (fence body, points (x, h) where the readout is recorded)
CASES = [
    ("expression: x * x\nx: 1.5\nh: 0.5\nrange: [-2, 3]\npresets: [exp(x) / 4, relu(x - 1)]\n",
     [(1.5, 0.5), (1.5, 0.001), (1, 0.1), (-0.7, 0.0001)]),
    ("expression: relu(x - 1)\nx: 1\nh: 0.1\nrange: [-2, 3]\n",
     [(1, 0.1), (1, 0.0001), (0.5, 0.2), (2, 1), (1.5, 0.001), (1.5, 0.1)]),
    ("expression: log(x)\nx: 1\nh: 0.5\nrange: [-1, 4]\npresets: [1 / x, x ** 3 - 2 * x]\n",
     [(1, 0.5), (0.25, 0.01), (-0.5, 0.1), (0, 0.3)]),
    ("expression: exp(x) * (x - 2) / (x * x + 1)\nx: 0\nh: 1\nrange: [-3, 3]\n", [(0, 1), (2.5, 0.001)]),
    ("expression: relu(x) + relu(-x) * 3\nx: 0\nh: 0.3\nrange: [-1, 1]\n", [(0, 0.3), (0.4, 0.01)]),
]
PROSE = [0, 1, -1, 0.5, 3.0001, -2.999999, 1234.5, 12345.678, 1e-5, 0.00012345, 123456789, 2.5e9,
         1 / 3, -0.000099999, 1e-4, 99999.95, 0.1 + 0.2]


def spec_of(body: str) -> knob.KnobSpec:
    (widget,) = find_widgets("```tinydag-knob\n" + body + "```\n")
    return widget.spec


def fixture() -> list[dict]:
    cases = []
    for body, points in CASES:
        spec = spec_of(body)
        data = knob.data(spec)
        readouts = []
        for x, h in points:
            here, ahead, behind = (knob.evaluate(spec.expression, t) for t in (x, x + h, x - h))
            readouts.append({"x": x, "h": h, "y": here and here[0], "y_h": ahead and ahead[0],
                             "y_left": behind and behind[0], "slope": here and here[1],
                             "kink": here is not None and knob.is_kink(spec.expression, x),
                             "gap": here and ahead and knob.gap_of(x, h, here[0], ahead[0], here[1])})
        bounds = [list(knob_svg.y_bounds(curve["ys"])) for curve in data["curves"]]
        cases.append({"data": data, "readouts": readouts, "y_bounds": bounds,
                      "y_ticks": [knob_svg.ticks(lo, hi, knob_svg.Y_TICKS) for lo, hi in bounds],
                      "x_ticks": knob_svg.ticks(*data["range"], knob_svg.X_TICKS),
                      "dial_scales": [knob_svg.dial_scale(curve["slopes"]) for curve in data["curves"]]})
    prose = [{"value": v, "lang": lang, "text": knob_svg.prose(v, lang)}
             for v in PROSE for lang in ("en", "ru", "et")]
    return [{"cases": cases, "prose": prose}]


def test_the_fixture_for_the_typescript_side_is_current():
    assert FIXTURE.is_file(), "run `python -m tests.test_knob` to write tests/vectors/knob.json"
    assert json.loads(FIXTURE.read_text(encoding="utf-8")) == fixture(), \
        "tests/vectors/knob.json is stale against the Python engine: run `python -m tests.test_knob`"


@pytest.mark.parametrize("body", [body for body, _ in CASES])
def test_samples_are_the_engines_and_slopes_match_central_differences(body):
    spec = spec_of(body)
    data = knob.data(spec)
    assert data["xs"] == [spec.lo + (spec.hi - spec.lo) * i / 200 for i in range(201)]
    assert data["xs"][0] == spec.lo and data["xs"][-1] == spec.hi
    checked = 0
    for curve in data["curves"]:
        for x, y, slope in zip(data["xs"], curve["ys"], curve["slopes"]):
            point = knob.evaluate(curve["expression"], x)
            assert (y, slope) == ((point[0], point[1]) if point else (None, None))
            if y is None or knob.is_kink(curve["expression"], x):
                continue
            e = 1e-5 * max(1.0, abs(x))
            left, right = knob.evaluate(curve["expression"], x - e), knob.evaluate(curve["expression"], x + e)
            if left is None or right is None:
                continue  # next to a gap
            central = (right[0] - left[0]) / (2 * e)
            assert slope == pytest.approx(central, rel=1e-4, abs=1e-4), (curve["expression"], x)
            checked += 1
    assert checked > 150


def test_the_engine_gives_the_hand_derived_slopes():
    assert knob.evaluate("x * x", 1.5) == (2.25, 3.0)
    y, slope = knob.evaluate("exp(x) / 4", 1.0)
    assert y == pytest.approx(math.e / 4) and slope == pytest.approx(math.e / 4)
    assert knob.evaluate("log(x)", 4.0)[1] == pytest.approx(0.25)
    assert knob.evaluate("x ** 3 - 2 * x", 2.0) == pytest.approx((4.0, 10.0))


def test_at_relus_kink_the_one_sided_ratios_stay_apart_as_h_shrinks():
    expression = "relu(x - 1)"
    assert knob.is_kink(expression, 1.0)
    assert not any(knob.is_kink(expression, x) for x in (0.9, 0.999, 1.001, 2.0))
    assert not any(knob.is_kink(e, x) for e in ("x * x", "exp(x) / 4", "1 / x") for x in (0.001, 0.5, 2.0))
    assert knob.evaluate(expression, 1.0) == (0.0, 0.0)  # the engine's relu: slope 0 at the corner
    for h in (0.1, 0.01, 0.001, 0.0001):
        right = (knob.evaluate(expression, 1 + h)[0] - 0.0) / h
        left = (0.0 - knob.evaluate(expression, 1 - h)[0]) / h
        assert right == pytest.approx(1.0) and left == 0.0
    data = knob.data(spec_of("expression: relu(x - 1)\nx: 1\nh: 0.1\n"))
    assert data["start"]["kink"] is True
    static = knob_svg.svg(data, strings("en"))
    assert "A kink at x = 1: from the right Δy / h = 1, from the left 0." in static


def test_where_log_is_undefined_the_curve_has_a_gap_and_the_json_no_nan():
    data = knob.data(spec_of("expression: log(x)\nx: 1\nrange: [-1, 4]\npresets: [1 / x]\n"))
    log_curve, reciprocal = data["curves"]
    undefined = [x for x, y in zip(data["xs"], log_curve["ys"]) if y is None]
    assert undefined == [x for x in data["xs"] if x <= 0] and len(undefined) == 41
    assert all(s is None for s, y in zip(log_curve["slopes"], log_curve["ys"]) if y is None)
    assert [x for x, y in zip(data["xs"], reciprocal["ys"]) if y is None] == [0.0]  # 1/0 only
    text = json.dumps(data, allow_nan=False)  # raises on NaN or Infinity
    assert "NaN" not in text and "Infinity" not in text
    figure = knob_svg.svg(knob.data(spec_of("expression: 1 / x\nx: 1\nrange: [-1, 4]\n")), strings("en"))
    curve = re.search(r'class="tdg-knob__curve" d="([^"]+)"', figure)[1]
    assert curve.count("M") == 2  # two pieces, either side of 0
    assert not re.search(r"\bnan\b|\binf", figure, re.IGNORECASE)


def test_a_spike_is_cut_from_the_plot_and_an_ordinary_curve_is_not():
    xs = knob.xs_of(-1, 4)
    lo, hi = knob_svg.y_bounds(knob.curve("1 / x", xs)["ys"])  # ±40 next to 0, within ±4 elsewhere
    assert -10 < lo < -3 and 3 < hi < 10  # the middle 90 %: ±4, and half that again, and the pad
    ys = knob.curve("x * x", knob.xs_of(-2, 3))["ys"]
    assert knob_svg.y_bounds(ys) == pytest.approx((0 - 9 * 0.08, 9 + 9 * 0.08))
    figure = knob_svg.svg(knob.data(spec_of("expression: 1 / x\nx: 0.05\nrange: [-1, 4]\n")), strings("en"))
    assert "tdg-knob__point" not in figure  # f(0.05) = 20 is off the cut plot: no dot in the margin
    assert re.search(r'<svg class="tdg-knob__clip"[^>]*>(<line [^>]*/>)*<path class="tdg-knob__curve"',
                     figure)


def test_the_curve_is_drawn_over_the_secant_and_the_tangent():
    """relu(x - 1) right of its kink: the secant lies along the curve, and the curve stays on top."""
    figure = knob_svg.svg(knob.data(spec_of("expression: relu(x - 1)\nx: 1\nh: 0.5\nrange: [-2, 3]\n")),
                          strings("en"))
    order = re.findall(r'class="(tdg-knob__(?:curve|secant|tangent))"', figure)
    assert order == ["tdg-knob__tangent", "tdg-knob__secant", "tdg-knob__curve"]


def test_the_knob_is_a_dial_whose_pointers_stand_at_the_two_slopes():
    # The scale: a round number at least the curve's steepest |slope| (its middle 95 %).
    slopes = lambda expression, lo, hi: knob.curve(expression, knob.xs_of(lo, hi))["slopes"]  # noqa: E731
    assert knob_svg.dial_scale(slopes("x * x", -2, 3)) == 6  # |2x| up to 6 at x = 3
    assert knob_svg.dial_scale(slopes("relu(x - 1)", -2, 3)) == 1
    assert knob_svg.dial_scale(slopes("exp(x) / 4", -2, 3)) == 6  # e³ / 4 = 5.02
    assert knob_svg.dial_scale(slopes("1 / x", -1, 4)) < 1000  # a spike pegs the pointer, the scale stays
    assert knob_svg.dial_scale([0.0, None]) == 1
    assert [knob_svg.dial_angle(s, 6) for s in (0, 3, -6, 60)] == [0, 67.5, -135, 135]
    for lang, words in (("en", "solid pointer at Δy / h = 3.5, its dashed pointer at dy/dx = 3"),
                        ("ru", "сплошная стрелка на Δy / h = 3,5, пунктирная на dy/dx = 3"),
                        ("et", "pidev osuti kohal Δy / h = 3,5, punktiirosuti kohal dy/dx = 3")):
        figure = knob_svg.svg(knob.data(spec_of(CASES[0][0])), strings(lang))  # x * x at 1.5, h = 0.5
        [dial] = re.findall(r'<svg class="tdg-knob__dial".*?</svg>', figure)
        assert words in dial and ("−6" if lang == "en" else "−6") in dial
        assert re.search(r'class="tdg-knob__dial-slope"[^>]*transform="rotate\(67.5\)"', dial)  # 3 of 6
        assert re.search(r'class="tdg-knob__dial-ratio"[^>]*transform="rotate\(78.75\)"', dial)  # 3.5 of 6


def test_after_mkdocs_serve_reloads_the_engine_gaps_are_still_gaps():
    """cache.reload_engine() re-runs the engine's modules: a new TinyDagError class, a new trace. (In a
    process of its own: a reload here would leave the other tests holding the old classes.)"""
    script = """
from tinydag_mkdocs.widgets import knob
from tinydag_mkdocs.sandbox.cache import reload_engine
old_error = knob.engine_errors.TinyDagError
reload_engine()
assert knob.engine_errors.TinyDagError is not old_error  # the reload really made a new class
assert knob.evaluate("log(x)", -1.0) is None  # caught: the knob looks the class up at call time
assert knob.evaluate("x * x", 3.0) == (9.0, 6.0)
"""
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stderr


def test_prose_numbers_are_written_each_languages_way():
    assert [knob_svg.prose(v, "en") for v in (3.0001, -2.5, 12345.678, 0.5)] == \
        ["3.0001", "\u22122.5", "12,345.7", "0.5"]
    assert [knob_svg.prose(v, "ru") for v in (3.0001, -2.5, 1234.5, 1e-5)] == \
        ["3,0001", "\u22122,5", "1\u00a0234,5", "1\u00a0×\u00a010⁻⁵"]
    assert [knob_svg.prose(v, "et") for v in (3.0001, 1234.5, 12345.5, 1e-5)] == \
        ["3,0001", "1234,5", "12\u00a0345,5", "1\u00a0×\u00a010⁻⁵"]


def strings(lang: str) -> dict[str, str]:
    import yaml

    table = yaml.safe_load((ROOT / f"src/player/strings/{lang}.yml").read_text(encoding="utf-8"))
    return {**table, "lang": lang}


@pytest.mark.parametrize("lang", ["en", "ru", "et"])
def test_the_static_figure_reads_in_each_language(lang):
    data = knob.data(spec_of(CASES[0][0]))
    figure = knob_svg.svg(data, strings(lang))
    ratio = {"en": "3.5", "ru": "3,5", "et": "3,5"}[lang]
    assert f"Δy / h = {ratio}" in figure and "dy/dx = 3<" in figure
    assert 'viewBox="0 0 480 300"' in figure and 'role="img"' in figure
    assert re.search(r'aria-label="[^"]*x \* x', figure)
    # A fence whose x + h lies beyond the plot: its note says so, as the live readout does (knob.ts)
    beyond = knob_svg.svg(knob.data(spec_of("expression: x * x\nx: 2.8\nh: 0.5\nrange: [-2, 3]\n")),
                          strings(lang))
    assert f"x + h = {knob_svg.prose(3.3, lang)} " in beyond and "x + h = 2 " not in figure


def test_the_built_page_embeds_the_engines_samples(tmp_path):
    fence = "```tinydag-knob\n" + CASES[2][0] + "```\n"
    site = knob_site(tmp_path, {"knob": "# Knob\n\n" + fence})
    site.build()
    expected = knob.data(spec_of(CASES[2][0]))
    for prefix in ("", "ru/", "et/"):
        (payload,) = widget_data(site.page(f"{prefix}knob/index.html"))
        assert payload["data"] == expected


if __name__ == "__main__":
    FIXTURE.write_text(json.dumps(fixture(), indent=1, allow_nan=False) + "\n", encoding="utf-8")
    print(f"wrote {FIXTURE.relative_to(ROOT)}", file=sys.stderr)
