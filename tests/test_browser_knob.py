"""The knob in Chromium, on a small trilingual site built by the real plugin: a mouse drag and the arrow
keys move the point and the readout follows (the Python engine's numbers, written the language's way),
shrinking h closes Δy / h in on dy/dx (not at relu's kink), typing an expression character by
character never shows NaN or Infinity and ends drawing it, the static figure stands without JavaScript
and in print, a link wakes it, a screen reader hears the readout, waking shifts nothing, and axe finds
nothing serious. Each language and size is one page load (waking, the readout's numbers, the longest
message, axe); what is the same in every language (h closing in, relu's kink, typing) runs in English.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tinydag_mkdocs.widgets import knob, knob_svg
from tinydag_mkdocs.widgets.knob_svg import prose

from .browser_helpers import DESKTOP, PHONE
from .test_browser_links_and_accessibility import axe_violations
from .test_widgets import KNOB as KNOB_FENCE
from .widget_site import WIDGET_PAGE, open_widget_page, widget_site

FENCE = KNOB_FENCE  # the knob as test_widgets.py writes it
# The knob sits two screens down, so that it sleeps until scrolled to (waking is then observable).
BODY = "# Knob\n\n" + "".join(f"Paragraph {i} before the knob.\n\n" for i in range(40)) + FENCE + \
    "\nThe paragraph after the knob.\n"
KNOB = "#tinydag-knob-1"
VIEWPORTS = {"desktop": DESKTOP, "phone": PHONE}
PAGE = WIDGET_PAGE
ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def knob_server(tmp_path_factory):
    with widget_site(tmp_path_factory.mktemp("knob"), BODY, "Knob") as url:
        yield url


open_page = open_widget_page


def awake(page) -> None:
    page.locator(KNOB).scroll_into_view_if_needed()
    page.wait_for_selector(f'{KNOB}[data-live="ready"]')


def number(text: str) -> float:
    """A number as the readout writes it (3,5 · −2 · 1 234,5 · 1,2 × 10⁻⁵) -> float."""
    text = text.replace("\u2212", "-").replace("\u00a0", "").replace(" ", "").replace(",", ".")
    text = text.replace("×10", "e").translate(str.maketrans("⁻⁰¹²³⁴⁵⁶⁷⁸⁹", "-0123456789"))
    return float(text)


def shown(page) -> dict[str, str]:
    return page.eval_on_selector(KNOB, """w => {
        const live = w.querySelector('.tdg-knob--live');
        const text = s => live.querySelector(s).textContent;
        return {ratio: text('.tdg-knob__ratio'), slope: text('.tdg-knob__slope'), gap: text('.tdg-knob__gap'),
                note: text('.tdg-knob__note'), x: live.querySelectorAll('.tdg-knob__number')[0].value,
                h: live.querySelectorAll('.tdg-knob__number')[1].value, panel: live.textContent,
                message: live.querySelector('.tdg-knob__message').hidden ? '' : text('.tdg-knob__message'),
                paths: [...live.querySelectorAll('path, line, circle')].map(e => e.outerHTML).join('')};
    }""")


def expected(expression: str, x: float, h: float, lang: str) -> dict[str, str]:
    y, slope = knob.evaluate(expression, x)
    ahead = knob.evaluate(expression, x + h)
    return {"ratio": f"Δy / h = {prose((ahead[0] - y) / h, lang)}", "slope": f"dy/dx = {prose(slope, lang)}"}


def settle(page) -> None:
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")


# Every language on a phone (the narrowest panel for the language's words), English on a desktop too.
@pytest.mark.parametrize(("lang", "view"),
                         [("en", "desktop"), ("en", "phone"), ("ru", "phone"), ("et", "phone")])
def test_the_knob_wakes_in_place_and_a_drag_and_the_arrow_keys_move_the_point(browser, knob_server, lang,
                                                                              view):
    """Waking shifts nothing and the controls fit the reserved height, even with the longest state (a
    message in the language's words); the readout follows a drag and the arrow keys, with the engine's
    numbers written the language's way; axe finds nothing serious in the knob, once per language."""
    page = open_page(browser, knob_server, lang, VIEWPORTS[view])
    assert page.get_attribute(KNOB, "data-live") is None  # asleep, two screens down
    measure = f"""() => {{ const f = document.querySelector('{KNOB}');
        return [f.getBoundingClientRect().height, f.nextElementSibling.offsetTop]; }}"""
    before = page.evaluate(measure)
    awake(page)
    settle(page)
    assert page.evaluate(measure) == before
    overflow = page.eval_on_selector(f"{KNOB} .tdg-knob--live .tdg-knob__panel",
                                     "p => p.scrollHeight - p.clientHeight")
    assert overflow <= 0  # the controls fit the reserved height
    drag_and_keys(page, lang)
    page.fill(f"{KNOB} .tdg-knob__input", "x * (x + 1")  # the longest state: a message
    settle(page)
    assert page.evaluate(measure) == before
    assert page.eval_on_selector(f"{KNOB} .tdg-knob--live .tdg-knob__panel",
                                 "p => p.scrollHeight - p.clientHeight") <= 0
    if view == "desktop" or lang != "en":  # each language once (dark: test_axe_..._in_the_dark_knob)
        assert axe_violations(page, f"{{include: ['{KNOB}']}}") == []
    assert page.errors == []


def drag_and_keys(page, lang: str) -> None:
    now = shown(page)
    assert {k: now[k] for k in ("ratio", "slope")} == expected("x * x", 1.5, 0.5, lang)
    # Drag the point from x = 1.5 to where x = -1 is drawn (the plot spans [-2, 3] between its margins).
    plot = page.locator(f"{KNOB} .tdg-knob--live .tdg-knob__plot").bounding_box()
    point = page.locator(f"{KNOB} .tdg-knob--live .tdg-knob__point").bounding_box()
    scale = plot["width"] / 480
    target_x = plot["x"] + (44 + (-1 + 2) / 5 * (480 - 44 - 12)) * scale
    page.mouse.move(point["x"] + point["width"] / 2, point["y"] + point["height"] / 2)
    page.mouse.down()
    page.mouse.move(target_x + 30, point["y"], steps=4)
    page.mouse.move(target_x, point["y"], steps=4)
    page.mouse.up()
    settle(page)
    now = shown(page)
    x = number(now["x"])
    assert abs(x - -1) <= 0.02, now["x"]  # within a slider step or two of the pointer
    assert {k: now[k] for k in ("ratio", "slope")} == expected("x * x", x, 0.5, lang)
    # Keyboard: the x slider steps by 0.01.
    page.focus(f"{KNOB} .tdg-knob--live .tdg-knob__range >> nth=0")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    settle(page)
    now = shown(page)
    assert number(now["x"]) == pytest.approx(x + 0.02)
    assert {k: now[k] for k in ("ratio", "slope")} == expected("x * x", number(now["x"]), 0.5, lang)
    # At the range's end x + h = 3.5 lies off the plot: the note says so (xwalk 35: a readout of 6.5
    # with no nudged point drawn), in the panel's room.
    page.keyboard.press("End")
    settle(page)
    now = shown(page)
    beyond = {"en": "beyond the plot's right edge", "ru": "правее края графика",
              "et": "paremast servast välja"}
    assert now["note"].startswith(f"x + h = {prose(3.5, lang)} ") and beyond[lang] in now["note"], now["note"]
    assert page.eval_on_selector(f"{KNOB} .tdg-knob--live .tdg-knob__panel",
                                 "p => p.scrollHeight - p.clientHeight") <= 0
    page.keyboard.press("Home")
    settle(page)
    assert not shown(page)["note"].startswith("x + h")


def test_shrinking_h_closes_the_ratio_in_on_the_slope(browser, knob_server):
    page = open_page(browser, knob_server)
    awake(page)
    page.focus(f"{KNOB} .tdg-knob--live .tdg-knob__range >> nth=1")
    gaps = []
    for _ in range(8):  # h from 0.5 down by five slider steps (a factor 10 ** -0.5) at a time
        now = shown(page)
        gaps.append(number(now["gap"].split()[-1]))  # |Δy / h − dy/dx|, as the readout writes it
        shown_ratio, shown_slope = (number(now[k].split("=")[1]) for k in ("ratio", "slope"))
        assert abs(shown_ratio - shown_slope) == pytest.approx(gaps[-1], abs=1e-5)  # 6 digits each
        # For x * x the difference is h itself: the h its field shows (walk 41: "0.000158" in the field,
        # "difference 0.000158489" beside it)
        assert gaps[-1] == number(now["h"]), now
        for _ in range(5):
            page.keyboard.press("ArrowLeft")
        settle(page)
    assert all(later < earlier for earlier, later in zip(gaps, gaps[1:])), gaps
    assert gaps[0] == pytest.approx(0.5) and gaps[-1] < 0.001
    assert number(shown(page)["h"]) == 0.0001  # 40 steps of 0.1 on log10 h: the slider stops at its end


def test_at_relus_kink_the_two_sides_keep_apart(browser, knob_server):
    page = open_page(browser, knob_server)
    awake(page)
    page.select_option(f"{KNOB} .tdg-knob__select", label="relu(x - 1)")
    page.fill(f"{KNOB} .tdg-knob--live .tdg-knob__number >> nth=0", "1")
    for h in ("0.1", "0.001", "0.0001"):
        page.fill(f"{KNOB} .tdg-knob--live .tdg-knob__number >> nth=1", h)
        settle(page)
        now = shown(page)
        assert number(now["ratio"].split("=")[1]) == pytest.approx(1) and now["slope"].endswith("= 0")
        numbers = [number(n) for n in re.findall(r"\u2212?\d+(?:[.,]\d+)?", now["note"])]
        assert numbers[:4] == pytest.approx([1, 1, 0, 0]), now["note"]  # x = 1, right 1, left 0, engine 0
    assert page.locator(f"{KNOB} .tdg-knob__input").input_value() == "relu(x - 1)"


def dial(page) -> dict[str, float | None]:
    """The dial's pointers as drawn: degrees clockwise from straight up (None: hidden)."""
    return page.eval_on_selector(f"{KNOB} .tdg-knob--live .tdg-knob__dial", """d => Object.fromEntries(
        ['slope', 'ratio'].map(k => { const p = d.querySelector('.tdg-knob__dial-' + k);
          return [k, p.style.display === 'none' ? null
                     : Number(/rotate\\(([^)]*)\\)/.exec(p.getAttribute('transform'))[1])]; }))""")


@pytest.mark.parametrize("lang", ["ru", "et"])
def test_the_fields_write_and_read_the_decimal_comma_and_the_dial_follows_h(browser, knob_server, lang):
    """ru and et: the fields show 1,5 and 0,5, as the readouts write numbers; a typed 0,25 (character
    by character) is h = 0.25; the dial's pointers stand at the two slopes, and close in as h shrinks."""
    page = open_page(browser, knob_server, lang)
    awake(page)
    settle(page)
    now = shown(page)
    assert (now["x"], now["h"]) == ("1,5", "0,5")
    scale = 6  # x * x on [-2, 3]: slopes up to 6
    assert dial(page) == {"slope": knob_svg.dial_angle(3, scale), "ratio": knob_svg.dial_angle(3.5, scale)}
    field = page.locator(f"{KNOB} .tdg-knob--live .tdg-knob__number >> nth=1")
    field.fill("")
    field.press_sequentially("0,25")
    settle(page)
    assert shown(page)["ratio"] == expected("x * x", 1.5, 0.25, lang)["ratio"]
    assert dial(page)["ratio"] == pytest.approx(knob_svg.dial_angle(3.25, scale), abs=0.01)
    field.press("Tab")  # the field keeps what the reader typed, written the language's way
    settle(page)
    assert shown(page)["h"] == "0,25"
    # A number the knob cannot use: once typed, the field says the h in use (walkthrough 16: −0.1 stayed
    # in it while the readout worked with another h); x beyond its range, the range's end (below).
    field.fill("")
    field.press_sequentially("-0,1")
    field.press("Enter")
    settle(page)
    assert shown(page)["h"] == "0,25"
    label = page.get_attribute(f"{KNOB} .tdg-knob--live .tdg-knob__dial", "aria-label")
    assert prose(3.25, lang) in label and prose(-6, lang) in label
    order = page.eval_on_selector_all(f"{KNOB} .tdg-knob--live .tdg-knob__clip > *",
                                      "es => es.map(e => e.getAttribute('class'))")
    assert order.index("tdg-knob__curve") > max(order.index("tdg-knob__secant"),
                                                order.index("tdg-knob__tangent"))  # the curve on top
    x = page.locator(f"{KNOB} .tdg-knob--live .tdg-knob__number >> nth=0")
    x.fill("")
    x.press_sequentially("9")
    x.press("Enter")
    settle(page)
    assert shown(page)["x"] == "3"
    assert page.errors == []


def test_a_number_field_says_why_it_did_not_take_a_text(browser, knob_server):
    """Walkthrough 32: "abc" in x's field was put back without a word, and an English "2,718" was taken
    as 2.718. The fields read what the lesson's fields read; text that is no number gives back the value
    before the edit, and the note says why until the next change."""
    page = open_page(browser, knob_server)
    awake(page)
    settle(page)
    x = page.locator(f"{KNOB} .tdg-knob--live .tdg-knob__number >> nth=0")
    either = "x: is “2,718” 2.718 or 2718? Type one of the two; until then x stays 1.5."
    for typed, said in (("abc", "x: “abc” is not a number, so x stays 1.5."), ("2,718", either)):
        x.fill(typed)
        x.press("Enter")
        settle(page)
        assert (shown(page)["x"], shown(page)["note"]) == ("1.5", said)
    # Typed key by key, "2,718" applies its "2,7" and "2,71" on the way: refused, x goes back to the
    # value the edit started from.
    x.fill("")
    x.press_sequentially("2,718")
    x.press("Enter")
    settle(page)
    assert (shown(page)["x"], shown(page)["note"]) == ("1.5", either)
    x.fill("2")  # a number taken: the note is the widget's own again
    x.press("Enter")
    settle(page)
    assert shown(page)["x"] == "2" and "“" not in shown(page)["note"]
    # A number outside the range: x and h go to its end, or h, not above 0, stays; the note says why
    # (walk 33: h = 0 and 1e-300 were put back or taken to the end without a word).
    h = page.locator(f"{KNOB} .tdg-knob--live .tdg-knob__number >> nth=1")
    for field, typed, said, value in (
            (x, "9", "x goes from −2 to 3 here: 9 is outside, so x is 3.", "3"),
            (x, "-9", "x goes from −2 to 3 here: −9 is outside, so x is −2.", "−2"),
            (h, "0", "h goes from 0.0001 to 1 here: 0 is outside, so h stays 0.5.", "0.5"),
            (h, "-99", "h goes from 0.0001 to 1 here: −99 is outside, so h stays 0.5.", "0.5"),
            (h, "1e-300", "h goes from 0.0001 to 1 here: 1e−300 is outside, so h is 0.0001.", "0.0001")):
        field.fill(typed)
        field.press("Enter")
        settle(page)
        assert (field.input_value(), shown(page)["note"]) == (value, said)
    assert page.errors == []


def test_typing_character_by_character_never_shows_nan_and_ends_drawing_it(browser, knob_server):
    page = open_page(browser, knob_server)
    awake(page)
    field = page.locator(f"{KNOB} .tdg-knob__input")
    field.fill("")
    before = page.get_attribute(f"{KNOB} .tdg-knob--live .tdg-knob__curve", "d")
    messages = 0
    for char in "log(x) / (x - 1) + relu(x)":
        field.press_sequentially(char)
        settle(page)
        now = shown(page)
        bad = re.search(r"NaN|Infinity|∞|undefined", now["panel"] + now["paths"])
        assert not bad, (field.input_value(), now)
        messages += bool(now["message"])
    assert messages >= 5  # the unfinished text was refused, with a message, many times on the way
    now = shown(page)
    assert now["message"] == "" and field.get_attribute("aria-invalid") is None
    d = page.get_attribute(f"{KNOB} .tdg-knob--live .tdg-knob__curve", "d")
    assert d != before
    # log: undefined for x <= 0; x = 1 divides by zero: three gaps, so the curve is drawn in two pieces
    data = knob.curve("log(x) / (x - 1) + relu(x)", knob.xs_of(-2, 3))
    ys = data["ys"]
    pieces = sum(1 for i, y in enumerate(ys) if y is not None and (i == 0 or ys[i - 1] is None))
    assert d.count("M") == pieces == 2
    assert d.count("L") + d.count("M") == sum(y is not None for y in data["ys"])
    assert page.errors == []


def test_a_refused_expression_names_its_place_and_keeps_the_last_curve(browser, knob_server):
    page = open_page(browser, knob_server, "ru")
    awake(page)
    before = page.get_attribute(f"{KNOB} .tdg-knob--live .tdg-knob__curve", "d")
    page.fill(f"{KNOB} .tdg-knob__input", "x * (x + 1")
    settle(page)
    now = shown(page)
    message = now["message"]
    assert "x + 1" in message and "не закрыта" in message and "На графике остаётся" in message
    assert page.get_attribute(f"{KNOB} .tdg-knob--live .tdg-knob__curve", "d") == before
    assert page.locator(f"{KNOB} .tdg-knob__mirror mark.tdg-error-span").count() == 1
    page.fill(f"{KNOB} .tdg-knob__input", "x * a")
    settle(page)
    assert "«a»" in shown(page)["message"]


def test_typing_over_a_function_keeps_it_not_a_letter_typed_on_the_way(browser, knob_server):
    """Walk 42, M2: `x ** y` typed one key at a time over x ** 3 - 2*x left the plot and the readout on the
    lone x that the first key made (dy/dx = 1, a function on screen nowhere), and the message's last words,
    "The plot keeps the last function that worked.", were cut off at the panel's bottom."""
    page = open_page(browser, knob_server, "en", DESKTOP)
    awake(page)
    field = page.locator(f"{KNOB} .tdg-knob__input")
    field.fill("x ** 3 - 2*x")
    settle(page)
    cubic = page.get_attribute(f"{KNOB} .tdg-knob--live .tdg-knob__curve", "d")
    field.press("Control+a")
    field.press_sequentially("x ** y", delay=20)
    settle(page)
    now = shown(page)
    assert page.get_attribute(f"{KNOB} .tdg-knob--live .tdg-knob__curve", "d") == cubic
    assert now["slope"] == expected("x ** 3 - 2*x", 1.5, 0.5, "en")["slope"] == "dy/dx = 4.75"
    assert now["message"].endswith("The plot keeps the last function that worked."), now["message"]
    message = page.locator(f"{KNOB} .tdg-knob__message").bounding_box()
    panel = page.locator(f"{KNOB} .tdg-knob--live .tdg-knob__panel").bounding_box()
    assert message["y"] + message["height"] <= panel["y"] + panel["height"], (message, panel)
    assert page.eval_on_selector(f"{KNOB} .tdg-knob--live .tdg-knob__panel",
                                 "p => p.scrollHeight - p.clientHeight") <= 0
    assert page.errors == []


def test_without_javascript_the_static_figure_shows_the_default(browser, knob_server):
    for view, lang in ((view, lang) for view in VIEWPORTS for lang in PAGE):
        page = open_page(browser, knob_server, lang, VIEWPORTS[view], java_script_enabled=False)
        figure = page.locator(f"{KNOB} .tdg-widget__static")
        assert figure.is_visible()
        text = figure.inner_text()
        assert expected("x * x", 1.5, 0.5, lang)["ratio"] in text and "dy/dx = 3" in text
        assert page.locator(f"{KNOB} .tdg-knob__plot path.tdg-knob__curve").count() == 1
        panel = page.locator(f"{KNOB} .tdg-knob__panel").bounding_box()
        lines = page.locator(f"{KNOB} .tdg-knob__result").bounding_box()  # the dial and the readout
        assert panel["y"] + panel["height"] - (lines["y"] + lines["height"]) < 40  # no empty reserved space


def test_axe_finds_no_serious_violation_in_the_dark_knob(browser, knob_server):
    page = open_page(browser, knob_server, color_scheme="dark")
    awake(page)
    page.fill(f"{KNOB} .tdg-knob__input", "x * (x + 1")
    settle(page)
    assert axe_violations(page, f"{{include: ['{KNOB}']}}") == []


def test_a_link_to_the_knob_wakes_it_and_print_shows_the_static_figure(browser, knob_server):
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    page.goto(f"{knob_server}et/#tinydag-knob-1")
    page.wait_for_selector(f'{KNOB}[data-live="ready"]')  # named by the address: awake without a scroll
    assert page.locator(f"{KNOB} .tdg-widget__static").is_hidden()
    page.emulate_media(media="print")
    assert page.locator(f"{KNOB} .tdg-widget__static").is_visible()
    assert page.locator(f"{KNOB} .tdg-knob--live").is_hidden()
    context.close()


def test_a_screen_reader_hears_the_readout_once_the_hand_rests(browser, knob_server):
    page = open_page(browser, knob_server, "ru")
    awake(page)
    spoken = page.locator(f"{KNOB} .tdg-knob--live [aria-live=polite]")
    assert spoken.text_content() == ""  # nothing said on waking
    page.fill(f"{KNOB} .tdg-knob--live .tdg-knob__number >> nth=0", "2")
    page.wait_for_function(f"document.querySelector('{KNOB} [aria-live=polite]').textContent !== ''")
    text = spoken.text_content()
    assert expected("x * x", 2, 0.5, "ru")["ratio"] in text and "dy/dx = 4" in text
    label = page.get_attribute(f"{KNOB} .tdg-knob--live .tdg-knob__plot", "aria-label")
    assert label.startswith("График y = x * x: точка x = 2,")
