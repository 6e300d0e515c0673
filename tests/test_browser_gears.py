"""The gears widget in Chromium, on a small trilingual site built by the real plugin: arrow keys, the
buttons and a drag turn the gears by their ratios and the readout follows (numbers the language's
way), a dead relu leaves its gear still, reduced motion jumps, the static figure stands without
JavaScript at the live widget's size, and axe finds nothing serious. The numbers and words of each
language are checked in one page load per language (the arrow keys' test, which ends with axe); the
phone's layout by the finger and the static figure's tests.
"""

from __future__ import annotations

import functools
import json
import math
from pathlib import Path

import pytest

from tinydag_mkdocs import gears

from . import browser_helpers
from .browser_helpers import CHROMIUM, DESKTOP, LAUNCH_ARGS, PHONE, WIDGET_PAGE, serving, widget_site  # noqa: F401  (the shared browser)
from .test_browser_beyond import axe_violations

ROOT = Path(__file__).resolve().parent.parent
BLOCKS = """\
# Gears

```tinydag-gears
inner: 3 * x
outer: u * u
x: 1
```

A chain with a dead relu:

```tinydag-gears
inner: x - 1
outer: relu(u)
x: 0
range: [-1, 3]
```

One that turns the other way:

```tinydag-gears
inner: 2 - x
outer: u ** 3
x: 0.5
range: [-1, 2]
step: 0.25
```

One with a pole between two stops of its slider:

```tinydag-gears
inner: x
outer: 1 / (u - 0.15)
x: 0.5
range: [0, 1]
```
"""
PAGE = WIDGET_PAGE
VIEWPORTS = {"desktop": DESKTOP, "phone": PHONE}
DEFAULT, DEAD, NEGATIVE, POLE = (f"#tinydag-gears-{n}" for n in range(1, 5))
pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def gears_server(tmp_path_factory):
    with widget_site(tmp_path_factory.mktemp("gears"), BLOCKS, "Gears") as url:
        yield url


def open_page(browser, base: str, lang: str = "en", viewport: dict = DESKTOP, **options):
    return browser_helpers.open_page(browser, f"{base}{PAGE[lang]}", viewport, **options)


def awake(page, widget: str = DEFAULT) -> None:
    page.locator(widget).scroll_into_view_if_needed()
    page.wait_for_selector(f'{widget}[data-live="ready"]')


def angles(page, widget: str = DEFAULT) -> dict[str, float]:
    return page.eval_on_selector(widget, """w => Object.fromEntries([...w.querySelectorAll(
        '.tdg-gears--live .tdg-gear')].map(g => [g.dataset.gear,
        Number(g.querySelector('.tdg-gear-rotor').dataset.angle)]))""")


def readout(page, widget: str = DEFAULT) -> dict[str, str]:
    return page.eval_on_selector(widget, """w => {
        const live = w.querySelector('.tdg-gears--live');
        const text = s => live.querySelector(s).textContent;
        return {x: text('.tdg-gear-x .tdg-gear-value'), u: text('.tdg-gear-u .tdg-gear-value'),
                y: text('.tdg-gear-y .tdg-gear-value'), inner: text('[data-row=inner] dd'),
                outer: text('[data-row=outer] dd'), product: text('[data-row=product] dd'),
                backward: text('[data-row=backward] dd'), step: text('.tdg-gears-step'),
                field: live.querySelector('.tdg-gears-field').value};
    }""")


def expected(inner: str, outer: str, x: float, lang: str) -> dict[str, str]:
    spec = gears.GearsSpec(inner, outer, gears.compose(inner, outer), x, -5, 5, 0.1)
    c = gears.chain_at(spec, x)
    n = functools.partial(gears.prose_number, lang=lang)
    return {"x": f"x = {n(c['x'])}", "u": f"u = {n(c['u'])}", "y": f"y = {n(c['y'])}",
            "inner": n(c["du_dx"]), "outer": n(c["dy_du"]),
            "product": f"{n(c['dy_du'])} \u00d7 {n(c['du_dx'])} = {n(c['product'])}"}


def close(a: dict[str, float], b: dict[str, float]) -> bool:
    return all(math.isclose(a[k], b[k], abs_tol=1e-6) for k in b)


@pytest.mark.parametrize("lang", PAGE)
def test_arrow_keys_turn_each_gear_by_its_ratio_and_the_readout_follows(browser, gears_server, lang):
    page = open_page(browser, gears_server, lang)
    awake(page)
    assert angles(page) == {"x": 0, "u": 0, "y": 0}
    page.focus(f"{DEFAULT} .tdg-gears-slider")
    page.keyboard.press("ArrowRight")  # x 1 -> 1.1 at 60 degrees per unit: ratios 3 and 18 at x = 1
    assert close(angles(page), {"x": 6, "u": 18, "y": 108})
    shown = readout(page)
    numbers = {k: shown[k] for k in ("x", "u", "y", "inner", "outer", "product")}
    assert numbers == expected("3 * x", "u * u", 1.1, lang)
    n = functools.partial(gears.prose_number, lang=lang)
    assert shown["field"] == "1.1"  # an exact value, written as code is
    assert page.get_attribute(f"{DEFAULT} .tdg-gears-slider", "aria-valuetext") == f"x = {n(1.1)}"
    assert shown["backward"].startswith(n(19.8)) and shown["step"].startswith(f"\u0394x = {n(0.1)}.")
    assert f"({n(108)}\u00b0)" in shown["step"] and f"= {n(1.8)} (" in shown["step"]  # 18 x 0.1 for y
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")  # back at the ratios of 1.1, then of 1.0: 19.8 and 18 for y
    assert close(angles(page), {"x": -6, "u": -18, "y": 108 - 118.8 - 108})
    assert readout(page)["x"] == f"x = {n(0.9)}"
    page.click(f"{DEFAULT} .tdg-gears-button >> nth=1")  # + : one step up again
    assert close(angles(page), {"x": 0, "u": 0, "y": 108 - 118.8 - 108 + 97.2})
    assert page.get_attribute(f"{DEFAULT} .tdg-gears--live .tdg-gears-step", "aria-live") == "polite"
    # Every widget awake, in this language: axe finds nothing serious (the dark palette: its own test).
    for widget in (DEFAULT, DEAD, NEGATIVE, POLE):
        awake(page, widget)
    serious = axe_violations(page, "{include: ['.tdg-widget']}")
    assert serious == [], json.dumps(serious, ensure_ascii=False, indent=1)
    assert page.errors == []
    page.context.close()


def test_dragging_the_x_gear_turns_x_and_the_others_by_their_ratios(browser, gears_server):
    page = open_page(browser, gears_server)
    awake(page)
    box = page.locator(f"{DEFAULT} .tdg-gears--live .tdg-gear-x .tdg-gear-body").bounding_box()
    cx, cy, r = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2, box["width"] / 2 * 0.8
    page.mouse.move(cx, cy - r)  # the top of the gear, then a quarter turn clockwise
    page.mouse.down()
    for degrees in range(10, 91, 10):
        a = math.radians(degrees)
        page.mouse.move(cx + r * math.sin(a), cy - r * math.cos(a))
    page.mouse.up()
    x = float(readout(page)["field"])
    assert 2.3 < x < 2.7, x  # a quarter turn is 90 / 60 = 1.5 units of x
    turned = angles(page)
    assert math.isclose(turned["x"], 60 * (x - 1), abs_tol=1e-6)
    assert math.isclose(turned["u"], 3 * turned["x"], abs_tol=1e-6)  # g is linear: always 3 x as far
    assert turned["y"] > turned["u"] > 0
    assert {k: readout(page)[k] for k in ("x", "u", "y", "inner", "outer", "product")} == expected(
        "3 * x", "u * u", x, "en")
    page.context.close()


def test_a_finger_turns_the_x_gear_on_a_phone(browser, gears_server):
    page = open_page(browser, gears_server, "ru", PHONE, has_touch=True, is_mobile=True)
    awake(page)
    box = page.locator(f"{DEFAULT} .tdg-gears--live .tdg-gear-x .tdg-gear-body").bounding_box()
    cx, cy, r = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2, box["width"] / 2 * 0.8
    scroll = page.evaluate("scrollY")
    touch = page.context.new_cdp_session(page)
    points = [(cx + r * math.sin(math.radians(d)), cy - r * math.cos(math.radians(d)))
              for d in range(0, 61, 10)]
    for kind, (x, y) in [("touchStart", points[0])] + [("touchMove", p) for p in points[1:]]:
        touch.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": [{"x": x, "y": y}]})
    touch.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    x = float(readout(page)["field"])
    assert 1.8 < x < 2.2, x  # a sixth of a turn is 60 / 60 = 1 unit of x
    assert math.isclose(angles(page)["u"], 3 * 60 * (x - 1), abs_tol=1e-6)
    assert page.evaluate("scrollY") == scroll  # the finger turned the gear, not the page
    page.context.close()


def test_a_point_where_the_chain_does_not_compute_stops_the_gears_with_a_message(browser, gears_server):
    page = open_page(browser, gears_server, "et")
    awake(page, POLE)
    page.fill(f"{POLE} .tdg-gears-field", "0,15")  # u - 0.15 = 0: a division by zero
    page.press(f"{POLE} .tdg-gears-field", "Enter")
    shown = readout(page, POLE)
    assert shown["step"] == ("Kohal x = 0,15 ahelat arvutada ei saa, seepärast peatuvad hammasrattad "
                             "enne seda.")
    assert (shown["field"], shown["x"], angles(page, POLE)) == ("0.5", "x = 0,5", {"x": 0, "u": 0, "y": 0})
    assert page.errors == []
    page.context.close()


def test_a_dead_relu_leaves_the_y_gear_still_until_its_input_turns_positive(browser, gears_server):
    page = open_page(browser, gears_server)
    awake(page, DEAD)
    still = f"{DEAD} .tdg-gears--live .tdg-gear-y"
    assert "is-still" in page.get_attribute(still, "class")
    assert page.text_content(f"{still} .tdg-gear-still") == "stands still"
    page.focus(f"{DEAD} .tdg-gears-slider")
    page.keyboard.press("ArrowRight")  # nothing turns faster than x here: 360 degrees per unit
    assert close(angles(page, DEAD), {"x": 36, "u": 36, "y": 0})
    assert "The y gear stands still" in readout(page, DEAD)["step"]
    page.fill(f"{DEAD} .tdg-gears-field", "2")
    page.press(f"{DEAD} .tdg-gears-field", "Enter")  # u = 1 > 0: relu passes it on
    assert "is-still" not in page.get_attribute(still, "class")
    assert readout(page, DEAD)["product"] == "1 \u00d7 1 = 1"
    assert angles(page, DEAD)["y"] > 0
    page.context.close()


def test_a_negative_ratio_turns_the_gear_the_other_way(browser, gears_server):
    page = open_page(browser, gears_server, "ru")
    awake(page, NEGATIVE)
    page.focus(f"{NEGATIVE} .tdg-gears-slider")
    page.keyboard.press("ArrowRight")
    turned = angles(page, NEGATIVE)
    assert turned["x"] > 0 and turned["u"] == -turned["x"] and turned["y"] < 0
    assert page.get_attribute(f"{NEGATIVE} .tdg-gears--live .tdg-gear-u", "data-sign") == "negative"
    page.context.close()


def test_with_reduced_motion_a_gear_jumps_to_its_angle(browser, gears_server):
    page = open_page(browser, gears_server, reduced_motion="reduce")
    awake(page)
    page.focus(f"{DEFAULT} .tdg-gears-slider")
    shown = page.evaluate(f"""() => {{
        const slider = document.querySelector('{DEFAULT} .tdg-gears-slider');
        slider.value = '1.5';
        slider.dispatchEvent(new Event('input'));
        return [...document.querySelectorAll('{DEFAULT} .tdg-gears--live .tdg-gear-rotor')]
            .map(r => [r.getAttribute('transform'), Number(r.dataset.angle)]);
    }}""")  # read in the same task: no frame has passed
    assert [t for t, _ in shown] == [f"rotate({round(a, 3):g})" for _, a in shown]
    page.context.close()


def test_without_javascript_the_static_figure_shows_the_start_at_the_live_size(browser, gears_server):
    sizes = {}
    for view, viewport in VIEWPORTS.items():
        static = open_page(browser, gears_server, "et", viewport, java_script_enabled=False)
        figure = static.locator(f"{DEFAULT} .tdg-gears[data-gears-static]")
        assert figure.is_visible()
        text = figure.inner_text()
        assert "18" in text and "sama arv" in text and "y = (3 * x) * (3 * x)" in text
        assert static.locator(f"{DEFAULT} .tdg-gear-value").all_text_contents() == ["x = 1", "u = 3", "y = 9"]
        assert static.locator(f"{DEAD} .tdg-gear-y .tdg-gear-still").text_content() == "seisab"
        live = open_page(browser, gears_server, "et", viewport)
        awake(live)
        live_box = live.locator(f"{DEFAULT} .tdg-gears--live").bounding_box()
        sizes[view] = (figure.bounding_box()["height"], live_box["height"])
        assert abs(sizes[view][0] - sizes[view][1]) < 1, sizes
        assert live.locator(f"{DEFAULT} .tdg-gears[data-gears-static]").is_hidden()
        static.context.close()
        live.context.close()


def test_axe_finds_nothing_serious_in_the_dark_gears(browser, gears_server):
    page = open_page(browser, gears_server, color_scheme="dark")
    for widget in (DEFAULT, DEAD, NEGATIVE, POLE):
        awake(page, widget)
    page.focus(f"{DEFAULT} .tdg-gears-slider")
    page.keyboard.press("ArrowRight")
    serious = axe_violations(page, "{include: ['.tdg-widget']}")
    assert serious == [], json.dumps(serious, ensure_ascii=False, indent=1)
    page.context.close()
