"""The gears widget turns in Chromium, on the small trilingual site of tests/gears_helpers.py: arrow keys,
the buttons, a drag and a finger turn the gears by their ratios and the readout follows (numbers the
language's way, the step told in a sentence); a point where the chain does not compute stops them
with a message; the reader's choice of first step is the engine's; a dead relu leaves its gear still
and a negative ratio turns its gear the other way. The numbers and words of each language are checked
in one page load per language (the arrow keys' test, which ends with axe). How the gears are drawn:
test_browser_gears_drawing.py.
"""

from __future__ import annotations

import functools
import json
import math
from pathlib import Path

import pytest

from tinydag_mkdocs.base.numbers import format_number, operand, product_text, shown_as
from tinydag_mkdocs.widgets import gears

from .browser_helpers import PHONE
from .gears_helpers import DEAD, DEFAULT, NEGATIVE, PAGE, POLE, angles, awake, close, open_page, readout
from .test_browser_links_and_accessibility import axe_violations

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.browser


def expected(inner: str, outer: str, x: float, lang: str) -> dict[str, str]:
    spec = gears.GearsSpec(inner, outer, gears.compose(inner, outer), x, -5, 5, 0.1)
    c = gears.chain_at(spec, x)
    n = functools.partial(gears.prose_number, lang=lang)
    return {"x": f"x = {n(c['x'])}", "u": f"u = {n(c['u'])}", "y": f"y = {n(c['y'])}",
            "inner": n(c["du_dx"]), "outer": n(c["dy_du"]),
            "product": product_text(c["dy_du"], c["du_dx"], c["product"], lang)}  # "≈": test_gears.py


def field_number(text: str) -> float:
    return float(text.replace("\u2212", "-").replace(",", "."))


@functools.cache
def words(lang: str) -> dict[str, str]:
    from tinydag_mkdocs.base.strings import load_all
    from tinydag_mkdocs.site.typography import typeset_text

    table = load_all(ROOT / "src" / "player" / "strings", ["en", "ru", "et"], "src/player/strings")[lang]
    return {key: typeset_text(text, lang) for key, text in table.items()}  # as the build binds them


def sentence(lang: str, start: float, end: float) -> str:
    """The step sentence for u = 3x, y = u² from `start` to `end`, from the language's own strings."""
    spec = gears.GearsSpec("3 * x", "u * u", "(3 * x) * (3 * x)", start, -5, 5, 0.1)
    a, b = gears.chain_at(spec, start), gears.chain_at(spec, end)
    n = functools.partial(gears.prose_number, lang=lang)
    dx = end - start
    estimate, moved = n(a["dy_du"] * a["du_dx"] * dx), n(b["y"] - a["y"])
    worked = shown_as(a["dy_du"]) * shown_as(a["du_dx"]) * shown_as(dx)  # from the factors shown
    sign = "=" if format_number(worked) == format_number(a["dy_du"] * a["du_dx"] * dx) else "\u2248"
    text = gears._fill(words(lang)["gears_step"], **{"from": n(start)}, to=n(end), dx=n(dx),
                       du_dx=n(a["du_dx"]), dy_du=n(a["dy_du"]), estimate=estimate, dy=moved, sign=sign,
                       du_dx_factor=operand(n(a["du_dx"])), dx_factor=operand(n(dx)))
    tail = (words(lang)["gears_step_same"] if estimate == moved
            else gears._fill(words(lang)["gears_step_drift"], to=n(end)))
    return f"{text} {tail}"


@pytest.mark.parametrize("lang", PAGE)
def test_arrow_keys_turn_each_gear_by_its_ratio_and_the_readout_follows(browser, gears_server, lang):
    page = open_page(browser, gears_server, lang)
    awake(page)
    assert angles(page) == {"x": 0, "u": 0, "y": 0}
    page.focus(f"{DEFAULT} .tdg-gears-slider")
    before = readout(page)["product"]  # the table at x = 1: f'(u) x g'(x) = 6 x 3 = 18
    page.keyboard.press("ArrowRight")  # x 1 -> 1.1 at 60 degrees per unit of each gear's value
    assert close(angles(page), {"x": 6, "u": 18, "y": 60 * 1.89})  # y = 9 -> 10.89
    scale = page.eval_on_selector_all(f"{DEFAULT} .tdg-gears--live .tdg-gear-scale",
                                      "ts => ts.map(t => t.textContent)")
    assert scale == ["", words(lang)["gears_not_to_scale"]]  # f'(u) = 6.6: 42 teeth to 7 at most
    shown = readout(page)
    numbers = {k: shown[k] for k in ("x", "u", "y", "inner", "outer", "product")}
    assert numbers == expected("3 * x", "u * u", 1.1, lang)
    n = functools.partial(gears.prose_number, lang=lang)
    assert shown["field"] == n(1.1)  # 1,1 in ru and et, as the readouts write it
    assert page.get_attribute(f"{DEFAULT} .tdg-gears-slider", "aria-valuetext") == f"x = {n(1.1)}"
    assert shown["backward"].startswith(n(19.8))
    # The sentence: the table's numbers at the step's start, times Δx, and how far y really moved.
    assert shown["step"] == sentence(lang, 1, 1.1)
    assert before == f"{n(6)} \u00d7 {n(3)} = {n(18)}"
    assert f"{n(6)} \u00d7 {n(3)} \u00d7 {n(0.1)} = {n(1.8)}" in shown["step"]
    y_before, y_after = (field_number(v.split("= ")[1]) for v in ("y = 9", shown["y"]))
    assert n(y_after - y_before) == n(1.89) and n(1.89) in shown["step"]
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")  # x = 0.9: each gear at its value's angle
    assert close(angles(page), {"x": -6, "u": -18, "y": 60 * (7.29 - 9)})
    assert readout(page)["x"] == f"x = {n(0.9)}"
    assert readout(page)["step"] == sentence(lang, 1, 0.9)
    page.click(f"{DEFAULT} .tdg-gears-button >> nth=1")  # + : one step up again, home at x = 1
    assert close(angles(page), {"x": 0, "u": 0, "y": 0})
    assert page.get_attribute(f"{DEFAULT} .tdg-gears--live .tdg-gears-step", "aria-live") == "polite"
    # Walk 36: relu(x - 1) at x = 1, its bend: the ratios of its two sides and the engine's 0, not "the u
    # gear stands still" (a turn up moved it)
    page.select_option(f"{DEFAULT} .tdg-gears--live .tdg-gears-menu", label="relu(x - 1)")
    step = readout(page)["step"]
    assert gears._fill(words(lang)["gears_kink"], x=n(1), inner="relu(x - 1)", left=n(0), right=n(1),
                       slope=n(0)) in step, step
    assert gears._fill(words(lang)["gears_still"], name="u") not in step
    # Every widget awake, in this language: axe finds nothing serious (the dark palette: its own test).
    for widget in (DEFAULT, DEAD, NEGATIVE, POLE):
        awake(page, widget)
    serious = axe_violations(page, "{include: ['.tdg-widget']}")
    assert serious == [], json.dumps(serious, ensure_ascii=False, indent=1)
    assert page.errors == []


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
    # The drag is one step, from its start, x to three decimals as the figure writes it (walkthrough
    # 15: "From x = 2.412 to 2.506", the last move alone, and 2.505898 in the field).
    assert readout(page)["field"] == f"{x:g}" and len(f"{x:g}".split(".")[-1]) <= 3, readout(page)
    assert readout(page)["step"].startswith(f"From x = 1 to {x:g}, "), readout(page)["step"]
    # The chain rule's product as the static figure writes it, "≈" where the ratios shown do not give
    # it (walkthrough 26: a quarter turn to x = 2.496 read "14.98 × 3 = 44.93")
    assert readout(page)["product"] == expected("3 * x", "u * u", x, "en")["product"]
    turned = angles(page)
    assert math.isclose(turned["x"], 60 * (x - 1), abs_tol=1e-6)
    assert math.isclose(turned["u"], 3 * turned["x"], abs_tol=1e-6)  # g is linear: always 3 x as far
    assert turned["y"] > turned["u"] > 0
    assert {k: readout(page)[k] for k in ("x", "u", "y", "inner", "outer", "product")} == expected(
        "3 * x", "u * u", x, "en")


def test_a_finger_turns_the_x_gear_on_a_phone(browser, gears_server):
    """A finger turns x (the page does not scroll); Estonian's long "sizes not to scale" under the
    second pair, at a phone's larger type, stays inside the figure (walkthrough 8 saw it cut)."""
    page = open_page(browser, gears_server, "et", PHONE, has_touch=True, is_mobile=True)
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
    x = field_number(readout(page)["field"])
    assert 1.8 < x < 2.2, x  # a sixth of a turn is 60 / 60 = 1 unit of x
    assert math.isclose(angles(page)["u"], 3 * 60 * (x - 1), abs_tol=1e-6)
    assert page.evaluate("scrollY") == scroll  # the finger turned the gear, not the page
    # The slider for a finger: a row of its own, the bar's width (walk 31: beside x's buttons and field,
    # about 100 px for 40 steps)
    slider, bar = (page.locator(f"{DEFAULT} .tdg-gears--live {s}").bounding_box()
                   for s in (".tdg-gears-slider", ".tdg-gears-bar"))
    assert slider["width"] >= 0.95 * bar["width"], (slider, bar)
    inside = page.evaluate(f"""() => {{ const svg = document.querySelector('{DEFAULT} .tdg-gears--live svg')
        .getBoundingClientRect();
      return [...document.querySelectorAll('{DEFAULT} .tdg-gears--live .tdg-gear-scale')]
        .filter(t => t.textContent).map(t => {{ const b = t.getBoundingClientRect();
          return [t.textContent, b.left >= svg.left && b.right <= svg.right]; }}); }}""")
    assert inside and all(ok for _, ok in inside), inside  # f' = 2u = 12 at x = 2: not to scale
    # x's and u's words under their close gears keep apart at this larger type (walkthrough 24: "x = 0,5
    # u = 0" read as one expression), the longest values too
    field = page.locator(f"{DEFAULT} .tdg-gears--live .tdg-gears-field")
    field.fill("−0,75")
    field.press("Enter")
    assert readout(page)["x"] == "x = −0,75"
    gap, inside = page.evaluate(f"""() => {{ const box = g => document.querySelector(
        '{DEFAULT} .tdg-gears--live .tdg-gear-' + g + ' .tdg-gear-value').getBoundingClientRect();
      const svg = document.querySelector('{DEFAULT} .tdg-gears--live svg').getBoundingClientRect();
      return [box('u').left - box('x').right, box('x').left >= svg.left]; }}""")
    assert gap >= 12 and inside, (gap, inside)


def test_the_step_buttons_stay_under_the_pointer_as_the_words_of_a_step_change(browser, gears_server):
    """Walkthrough 26: the first step's sentence took a line more than the hint above the controls, and
    moved the + button 14 px down between two presses. The words come under the controls."""
    page = open_page(browser, gears_server)
    awake(page)
    plus = page.locator(f"{DEFAULT} .tdg-gears--live .tdg-gears-button").nth(1)
    step = page.locator(f"{DEFAULT} .tdg-gears--live .tdg-gears-step")
    heights, places = set(), set()
    for _ in range(3):
        places.add(plus.bounding_box()["y"])
        heights.add(step.bounding_box()["height"])
        plus.click()
        page.wait_for_function(f"document.querySelector('{DEFAULT} .tdg-gears--live .tdg-gears-step')"
                               ".textContent.startsWith('From x')")
    places.add(plus.bounding_box()["y"])
    heights.add(step.bounding_box()["height"])
    assert len(heights) > 1, heights  # the words did change length (the hint, then the steps)
    assert len(places) == 1, places
    assert page.errors == []


def test_a_point_where_the_chain_does_not_compute_stops_the_gears_with_a_message(browser, gears_server):
    page = open_page(browser, gears_server, "et")
    awake(page, POLE)
    page.fill(f"{POLE} .tdg-gears-field", "0,15")  # u - 0.15 = 0: a division by zero
    page.press(f"{POLE} .tdg-gears-field", "Enter")
    shown = readout(page, POLE)
    assert shown["step"] == ("Kohal x = 0,15 ahelat arvutada ei saa, seepärast peatuvad hammasrattad "
                             "enne seda.")
    assert (shown["field"], shown["x"], angles(page, POLE)) == ("0,5", "x = 0,5", {"x": 0, "u": 0, "y": 0})
    assert page.errors == []


def test_the_reader_chooses_the_first_step_and_each_choice_is_the_engines(browser, gears_server):
    """Predict (c): u = −2x turns the u gear against x, f'(u) = −4 and dy/dx = 8; relu(x − 1) left
    of its kink leaves u and y still. Each chain is the TypeScript engine's, equal to Python's."""
    page = open_page(browser, gears_server, "ru")
    awake(page)
    menu = f"{DEFAULT} .tdg-gears--live .tdg-gears-menu"
    assert page.eval_on_selector_all(f"{menu} option", "os => os.map(o => o.textContent)") == [
        "3 * x", "-2 * x", "relu(x - 1)"]
    assert page.get_attribute(menu, "aria-label") == "Первый шаг, u = g(x)"
    page.select_option(menu, label="-2 * x")
    n = functools.partial(gears.prose_number, lang="ru")
    shown = readout(page)
    assert {k: shown[k] for k in ("x", "u", "y", "inner", "outer", "product")} == expected(
        "-2 * x", "u * u", 1, "ru")
    assert shown["product"] == f"{n(-4)} \u00d7 ({n(-2)}) = {n(8)}" and shown["backward"].startswith(n(8))
    assert "y = (-2 * x) * (-2 * x)" in page.text_content(f"{DEFAULT} .tdg-gears--live [data-row=backward]")
    assert close(angles(page), {"x": 0, "u": 0, "y": 0})  # x = 1: at the start of this chain too
    page.click(f"{DEFAULT} .tdg-gears-button >> nth=1")
    turned = angles(page)
    assert turned["x"] > 0 and math.isclose(turned["u"], -2 * turned["x"]) and turned["y"] > 0
    assert page.get_attribute(f"{DEFAULT} .tdg-gears--live .tdg-gear-u", "data-sign") == "negative"
    page.select_option(menu, label="relu(x - 1)")
    page.click(f"{DEFAULT} .tdg-gears-button >> nth=0")
    page.click(f"{DEFAULT} .tdg-gears-button >> nth=0")  # x = 0.9: relu's input is negative
    assert readout(page)["x"] == f"x = {n(0.9)}"
    dead = angles(page)
    assert dead["x"] < 0 and (dead["u"], dead["y"]) == (0, 0)
    assert "is-still" in page.get_attribute(f"{DEFAULT} .tdg-gears--live .tdg-gear-u", "class")
    assert "Шестерёнка u стоит" in readout(page)["step"]
    assert page.errors == []


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
    # Beyond the range (-1 to 3), x goes to its end, and the field says so; typed again at the end, too
    # (walkthrough 16: 9 stayed in the field while the gears said x = 3); the sentence under the bar says
    # why, before the step it made (walk 33: 99 became 3 without a word), and alone once at the end.
    outside = "x goes from −1 to 3 here: 9 is outside, so x is 3."
    for turned in (True, False):
        page.fill(f"{DEAD} .tdg-gears-field", "9")
        page.press(f"{DEAD} .tdg-gears-field", "Enter")
        shown = readout(page, DEAD)
        assert (shown["field"], shown["x"]) == ("3", "x = 3"), shown
        assert shown["step"].startswith(outside) and (len(shown["step"]) > len(outside)) == turned, shown
    page.fill(f"{DEAD} .tdg-gears-field", "")  # emptied: the x in use back, and no new words
    page.press(f"{DEAD} .tdg-gears-field", "Enter")
    assert (readout(page, DEAD)["field"], readout(page, DEAD)["step"]) == ("3", shown["step"])


def test_a_negative_ratio_turns_the_gear_the_other_way(browser, gears_server):
    page = open_page(browser, gears_server, "ru")
    awake(page, NEGATIVE)
    page.focus(f"{NEGATIVE} .tdg-gears-slider")
    page.keyboard.press("ArrowRight")
    turned = angles(page, NEGATIVE)
    assert turned["x"] > 0 and turned["u"] == -turned["x"] and turned["y"] < 0
    assert page.get_attribute(f"{NEGATIVE} .tdg-gears--live .tdg-gear-u", "data-sign") == "negative"
