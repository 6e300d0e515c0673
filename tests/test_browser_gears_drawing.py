"""How the gears widget is drawn, in Chromium, on the small trilingual site of tests/gears_helpers.py:
the wheels' sizes say their ratios and they mesh (through an idler, directly for a negative ratio, not
at all for a dead one); every gear comes home with x whatever the path, and is drawn so; with reduced
motion a gear jumps to its angle; the static figure stands without JavaScript at the live widget's
size, on a desktop and a phone; axe finds nothing serious in the dark palette. How the gears turn and
what the readout says: test_browser_gears_turning.py.
"""

from __future__ import annotations

import json
import math

import pytest

from tinydag_mkdocs.widgets import gears_train

from .browser_helpers import DESKTOP, PHONE
from .gears_helpers import DEAD, DEFAULT, NEGATIVE, POLE, angles, awake, close, open_page, readout
from .test_browser_links_and_accessibility import axe_violations

VIEWPORTS = {"desktop": DESKTOP, "phone": PHONE}
pytestmark = pytest.mark.browser


def rotors(page, widget: str = DEFAULT) -> list[str]:
    """What is drawn: each rotor's transform once its turn has played out."""
    page.wait_for_function(f"""() => [...document.querySelectorAll(
        '{widget} .tdg-gears--live .tdg-gear-rotor')].every(r => r.getAttribute('transform')
        === `rotate(${{Math.round(Number(r.dataset.angle) * 1000) / 1000}})`)""")
    return page.eval_on_selector_all(f"{widget} .tdg-gears--live .tdg-gear-rotor",
                                     "rs => rs.map(r => r.getAttribute('transform'))")


def test_an_english_field_reads_a_number_as_the_lessons_fields_do(browser, gears_server):
    """Walkthrough 32: "1,000" stayed in x's field while the gears turned to x = 1. The field reads what
    the sandbox's fields read: "1/2" is a half, "1,5" a decimal comma; "2,718" and "1,000" (2.718 or
    2718?) and "2 3" are no number, so x stays, and the sentence under the bar says why; "1,000,000" goes
    to the end of the range. Committed, the field says the x in use."""
    page = open_page(browser, gears_server, "en")
    awake(page)
    field = f"{DEFAULT} .tdg-gears-field"
    said = {"2,718": "x: is “2,718” 2.718 or 2718? Type one of the two; until then x stays 0.5.",
            "2 3": "x: “2 3” is not a number, so x stays 0.5."}
    for typed, x in (("1/2", "0.5"), ("1,000", "0.5"), ("2,718", "0.5"), ("2 3", "0.5"), ("1,5", "1.5"),
                     ("1,000,000", "3")):
        page.fill(field, typed)
        page.press(field, "Enter")
        assert (readout(page)["field"], readout(page)["x"]) == (x, f"x = {x}"), typed
        if typed in said:  # the sentence under the bar says why, until the next turn
            assert readout(page)["step"] == said[typed]
    assert page.errors == []


def test_every_gear_comes_home_with_x_whatever_the_path(browser, gears_server):
    """Buttons, the arrow keys, the slider, typing (a comma in et, the reader's own slips) and a
    drag out and back: x = 1 again puts every hand at 0 degrees, drawn so."""
    page = open_page(browser, gears_server, "et")
    awake(page)
    home = {"x": 0, "u": 0, "y": 0}
    drawn = train(page)  # the static figure's train, drawn by gears.py at the start
    plus, minus = (f"{DEFAULT} .tdg-gears-button >> nth={i}" for i in (1, 0))
    for _ in range(10):
        page.click(plus)
    assert readout(page)["x"] == "x = 2" and close(angles(page), {"x": 60, "u": 180, "y": 60 * 27})
    for _ in range(10):
        page.click(minus)
    assert close(angles(page), home), angles(page)
    slider = f"{DEFAULT} .tdg-gears-slider"
    for value in ("3", "-1", "2.3", "1"):  # a slider dragged far: jumps, not steps
        page.eval_on_selector(slider, f"s => {{ s.value = '{value}'; s.dispatchEvent(new Event('input')); }}")
    assert close(angles(page), home), angles(page)
    field = f"{DEFAULT} .tdg-gears-field"
    for typed in ("2,5", "1,2,3", "0,25", "1"):  # "1,2,3" is no number: refused, x stays at 2.5
        page.fill(field, typed)
        page.press(field, "Enter")
        if typed == "1,2,3":
            assert readout(page)["field"] == "2,5"
    assert close(angles(page), home), angles(page)
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    assert close(angles(page), home)
    box = page.locator(f"{DEFAULT} .tdg-gears--live .tdg-gear-x .tdg-gear-body").bounding_box()
    cx, cy, r = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2, box["width"] / 2 * 0.8
    page.mouse.move(cx, cy - r)
    page.mouse.down()
    for degrees in [*range(10, 91, 10), *range(80, -1, -10)]:  # a quarter turn out, and back
        a = math.radians(degrees)
        page.mouse.move(cx + r * math.sin(a), cy - r * math.cos(a))
    page.mouse.up()
    assert readout(page)["x"] == "x = 1" and close(angles(page), home), angles(page)
    assert rotors(page) == ["rotate(0)"] * 4
    again = train(page)  # the teeth too, as gears.py drew them (to its two decimals)
    assert again["wheels"].keys() == drawn["wheels"].keys() and len(again["idlers"]) == len(drawn["idlers"])
    for name, wheel in drawn["wheels"].items():
        assert all(math.isclose(again["wheels"][name][k], wheel[k], abs_tol=0.006) for k in wheel), name
    pairs = zip(again["idlers"], drawn["idlers"], strict=True)
    assert all(math.isclose(a, b, abs_tol=0.006) for a, b in pairs)
    assert page.errors == []


def train(page, widget: str = DEFAULT) -> dict:
    """The drawn train once every turn has played out: each wheel's teeth, centre and teeth's angle,
    and each idler's angle (None while it is hidden)."""
    rotors(page, widget)
    return page.eval_on_selector(widget, """w => {
        const live = w.querySelector('.tdg-gears--live');
        const angle = g => Number(/rotate\\(([^)]*)\\)/.exec(
            g.querySelector('.tdg-gear-teeth').getAttribute('transform'))[1]);
        const cx = g => Number(/translate\\(([^ ]*)/.exec(g.getAttribute('transform'))[1]);
        const wheels = Object.fromEntries([...live.querySelectorAll('.tdg-gear')].map(g => [g.dataset.gear,
            {teeth: Number(g.dataset.teeth), cx: cx(g), angle: angle(g)}]));
        const idlers = [...live.querySelectorAll('.tdg-gear-idler')].map(
            g => g.getAttribute('display') === 'none' ? null : angle(g));
        return {wheels, idlers};
    }""")


def test_the_gears_mesh_in_the_proportion_of_their_ratios(browser, gears_server):
    """Sizes say the ratios (teeth 42 : 14 for g' = 3, 42 : 7 for f' = 6), a positive ratio turns
    the driven gear with its driver through an idler, a negative one meshes directly and turns it
    the other way, a dead one stands apart and still; the arcs the hands sweep never cover a gear."""
    page = open_page(browser, gears_server, reduced_motion="reduce")
    awake(page)
    arcs_never_run_over_another_gear(page)
    start = train(page)
    assert {k: w["teeth"] for k, w in start["wheels"].items()} == {"x": 42, "u": 14, "u2": 42, "y": 7}
    assert None not in start["idlers"]
    page.click(f"{DEFAULT} .tdg-gears-button >> nth=1")  # x 1 -> 1.1: the x gear turns 6 degrees
    moved = train(page)
    turn = {k: moved["wheels"][k]["angle"] - start["wheels"][k]["angle"] for k in ("x", "u")}
    assert math.isclose(turn["x"], 6, abs_tol=1e-3) and math.isclose(turn["u"], 18, abs_tol=1e-3)
    assert moved["idlers"][0] < start["idlers"][0]  # the idler between them turns the other way
    page.click(f"{DEFAULT} .tdg-gears-button >> nth=0")
    page.select_option(f"{DEFAULT} .tdg-gears--live .tdg-gears-menu", label="-2 * x")
    negative = train(page)
    assert negative["wheels"]["u"]["teeth"] == 21 and negative["idlers"][0] is None
    x, u = negative["wheels"]["x"], negative["wheels"]["u"]
    meshed = (42 + 21) * gears_train.PITCH / (2 * math.pi)  # the two pitch radii
    assert math.isclose(u["cx"] - x["cx"], meshed, abs_tol=0.01)
    page.click(f"{DEFAULT} .tdg-gears-button >> nth=1")
    turned = train(page)
    assert math.isclose(turned["wheels"]["x"]["angle"] - x["angle"], 6, abs_tol=1e-3)
    assert math.isclose(turned["wheels"]["u"]["angle"] - u["angle"], -12, abs_tol=1e-3)  # against x
    # A long ratio stays in its pill (walkthrough 10: "×−8.516" ran over it at x = 2.129).
    page.fill(f"{DEFAULT} .tdg-gears-field", "2.129")
    page.press(f"{DEFAULT} .tdg-gears-field", "Enter")
    assert page.evaluate(RATIOS_INSIDE % DEFAULT) == [["×−2", True], ["×−8.516", True]]
    page.fill(f"{DEFAULT} .tdg-gears-field", "1.1")
    page.press(f"{DEFAULT} .tdg-gears-field", "Enter")
    page.select_option(f"{DEFAULT} .tdg-gears--live .tdg-gears-menu", label="relu(x - 1)")
    for _ in range(3):
        page.click(f"{DEFAULT} .tdg-gears-button >> nth=0")  # x = 0.8: relu's input is negative
    dead = train(page)
    page.click(f"{DEFAULT} .tdg-gears-button >> nth=0")
    still = train(page)
    x, u = still["wheels"]["x"], still["wheels"]["u"]
    assert still["wheels"]["x"]["angle"] != dead["wheels"]["x"]["angle"]
    assert u["angle"] == dead["wheels"]["u"]["angle"] and still["idlers"][0] is None
    pitch = gears_train.PITCH
    reach = (x["teeth"] + u["teeth"]) * pitch / (2 * math.pi) + 2 * 0.32 * pitch  # tip to tip
    assert u["cx"] - x["cx"] > reach  # apart: the x gear's teeth pass the u gear by
    assert page.errors == []


# Each ratio's number, and whether it lies inside its pill (the outline's box).
RATIOS_INSIDE = """[...document.querySelectorAll('%s .tdg-gears--live .tdg-gear-ratio')].map(g => {
  const text = g.querySelector('.tdg-gear-ratio-value'), t = text.getBBox();
  const r = g.querySelector('rect').getBBox();
  return [text.textContent, t.x >= r.x + 4 && t.x + t.width <= r.x + r.width - 4];
})"""


# Points of each swept arc that lie over another gear (its teeth' circle) and are not masked there:
# what the reader would see of an arc running over a gear it meshes with.
ARC_OVER_A_GEAR = """([pitch, idlerTeeth, tip]) => {
  const live = document.querySelector('%s .tdg-gears--live');
  const cx = g => Number(/translate\\(([^ ]*)/.exec(g.getAttribute('transform'))[1]);
  const radius = teeth => teeth * pitch / (2 * Math.PI) + tip;
  const gears = [...live.querySelectorAll('.tdg-gear, .tdg-gear-idler')]
    .filter(g => g.getAttribute('display') !== 'none')
    .map(g => ({g, cx: cx(g), r: radius(Number(g.dataset.teeth || idlerTeeth))}));
  const seen = [];
  for (const arc of live.querySelectorAll('.tdg-gear-turn')) {
    if (!arc.getAttribute('d')) continue;
    const own = arc.closest('.tdg-gear'), at = cx(own);
    const mask = document.getElementById((/url\\(#([^)]*)\\)/.exec(arc.getAttribute('mask') || '') || [])[1]);
    const number = (c, name) => Number(c.getAttribute(name));
    const holes = [...(mask?.querySelectorAll('circle') ?? [])]
      .map(c => ({x: number(c, 'cx'), y: number(c, 'cy'), r: number(c, 'r')}));
    const length = arc.getTotalLength();
    for (let i = 0; i <= 200; i++) {
      const p = arc.getPointAtLength(length * i / 200);
      const under = gears.find(o => o.g !== own && Math.hypot(p.x + at - o.cx, p.y) < o.r);
      if (under && !holes.some(h => Math.hypot(p.x - h.x, p.y - h.y) < h.r))
        seen.push(`${own.dataset.gear}'s arc over ${under.g.dataset.gear || 'an idler'}`);
    }
  }
  return [...new Set(seen)];
}"""


def arcs_never_run_over_another_gear(page) -> None:
    """Walkthrough 7: at x = 2.1 the small y gear's arc (f' = 12.6: nearly a full turn per step) ran over
    its idler. Over the gears it meshes with an arc is left out, as if behind them; everywhere else it
    is drawn. Stepped from x = 1 up to 2.1, down to 0.1 and back to 1, the three arcs at every stop."""
    found, drawn = [], 0
    for button in [1] * 11 + [0] * 20 + [1] * 9:
        page.click(f"{DEFAULT} .tdg-gears-button >> nth={button}")
        rotors(page)
        found += page.evaluate(ARC_OVER_A_GEAR % DEFAULT, [gears_train.PITCH, gears_train.IDLER_TEETH,
                                                            0.32 * gears_train.PITCH])
        drawn += page.locator(f"{DEFAULT} .tdg-gears--live .tdg-gear-turn:not([d=''])").count()
    assert sorted(set(found)) == [], sorted(set(found))
    assert drawn >= 2 * 40, "the arcs are drawn"
    assert readout(page)["x"] == "x = 1"


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


def test_axe_finds_nothing_serious_in_the_dark_gears(browser, gears_server):
    page = open_page(browser, gears_server, color_scheme="dark")
    for widget in (DEFAULT, DEAD, NEGATIVE, POLE):
        awake(page, widget)
    page.focus(f"{DEFAULT} .tdg-gears-slider")
    page.keyboard.press("ArrowRight")
    serious = axe_violations(page, "{include: ['.tdg-widget']}")
    assert serious == [], json.dumps(serious, ensure_ascii=False, indent=1)
