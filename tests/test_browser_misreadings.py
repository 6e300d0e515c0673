"""What a learner could misread, in Chromium: a typed number's grad is explained beside the graph and
drawn muted; a phone's legend says what the cards' v and g stand for; a decimal comma in the expression
gets the hint to write a point (each language's words once per language, in the language's
touch-phone page: test_browser_words.py); the dimmed graph under a typing error is the last complete
one, never a prefix's ghost; Material's "Back to top" never covers a sandbox's or a widget's control.
The rules themselves are proven in node (tests/ts/player-model.test.ts: the ghost;
player-words.test.ts: the comma's message).
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .browser_helpers import (
    DESKTOP,
    LESSON,
    PHONE,
    _watch_errors,
    moment,
    num,
    open_lesson,
    sandbox_ready,
    seek,
    settle,
    type_expression,
)

pytestmark = pytest.mark.browser

SANDBOX = "[data-sandbox]"
# (what v and g stand for, a piece of the typed number's sentence, the decimal comma's hint)
WORDS = {
    "en": ("v = value, g = grad", "is a Value too", "write “3.5”, not “3,5”"),
    "ru": ("v\u00a0— value (значение), g\u00a0— grad (градиент)", "тоже Value",  # U+00A0: the build's
           "пишите «3.5», а\u00a0не «3,5»"),
    "et": ("v – value (väärtus), g – grad (gradient)", "on samuti Value", "kirjuta „3.5“, mitte „3,5“"),
}


def shown(page, selector: str) -> bool:
    return page.locator(selector).evaluate("el => el.checkVisibility()")


def phone_legend_explains_v_and_g(page, lang: str) -> None:
    """On a phone (the default graph, (a + b) * c): the legend says what the cards' v and g stand for."""
    keys = WORDS[lang][0]
    assert shown(page, f"{SANDBOX} .tdg-legend-keys")
    assert page.locator(f"{SANDBOX} .tdg-legend-keys").inner_text() == keys
    assert page.locator(f"{SANDBOX} .tdg-card .tdg-key-short").first.inner_text() == "v"
    assert not shown(page, f"{SANDBOX} .tdg-legend-literal"), "(a + b) * c has no typed number"


def a_typed_number_is_explained_and_a_decimal_comma_gets_its_hint(page, lang: str) -> None:
    """A typed number's grad is explained beside the graph and drawn muted; a decimal comma in the
    expression gets the hint to write a point, in the language's words. (Run on a touch phone, once
    per language: test_browser_words.py, test_on_a_phone_the_sandbox_speaks_the_pages_language.)"""
    _, literal, comma = WORDS[lang]
    type_expression(page, "1 / a")
    assert shown(page, f"{SANDBOX} .tdg-legend-literal")
    assert literal in page.locator(f"{SANDBOX} .tdg-legend-literal").inner_text()
    page.click(f"{SANDBOX} [data-action=backward]")
    seek(page, 1e9)
    look = page.evaluate("""() => Object.fromEntries([...document.querySelectorAll(
        '[data-sandbox] .tdg-card')].map(card => { const g = card.querySelector('[data-field=grad]');
        return [card.dataset.op, {grad: g.textContent, weight: getComputedStyle(g).fontWeight,
                marker: getComputedStyle(g.closest('.tdg-row')).borderLeftColor}]; }))""")
    assert num(look["const"]["grad"].replace(",", ".")) == 0.5, "the number a learner reads is all there"
    assert int(look["const"]["weight"]) < int(look["var"]["weight"]), "a typed number's grad is muted"
    assert look["const"]["marker"] != look["var"]["marker"], "without the grad's orange marker"
    type_expression(page, "3,5 * a")
    error = page.locator(f"{SANDBOX} .tdg-error")
    assert error.is_visible() and comma in error.inner_text()


CARD_LABELS = ("[...document.querySelectorAll('[data-sandbox] [data-node]')]"
               ".map(el => el.getAttribute('aria-label')).sort().join(' ')")


def test_while_typing_the_dimmed_graph_is_the_last_complete_one_never_a_prefix(browser, site_server):
    """From a + b with a = -2, log(a) + b typed key by key never leaves a card "l" (the prefix l would
    parse) under the error: the graph under it is a + b, and a slider recovers the typed graph; then
    " *" typed after it leaves log(a) + b, the last graph built, under the error. An error at the end
    being typed is said when the learner pauses or presses Enter, not at every key. The caption under the
    stage names the dimmed graph instead of a step of it, and the messages that come and go on the way
    take the hint's place: nothing below them moves."""
    page = open_lesson(browser, site_server)
    type_expression(page, "a + b")
    page.locator(f"{SANDBOX} input[name=num-a]").fill("-2")
    settle(page)
    box = page.locator(f"{SANDBOX} input[name=expression]")
    box.click()
    box.press("Control+a")
    labels, below, flagged = [], [], []
    error = page.locator(f"{SANDBOX} .tdg-error")
    for ch in "log(a) + b":
        box.press_sequentially(ch)
        settle(page)
        labels.append(page.evaluate(CARD_LABELS))
        below.append(page.evaluate(f"document.querySelector('{SANDBOX} .tdg-presets')"
                                   ".getBoundingClientRect().top"))
        flagged.append(error.is_visible())
    # Walkthrough 8: the unfinished end being typed ("lo", "log(", "log(a", "log(a) +") is not flagged
    # red at each key; log of a negative a is, at once. Messages in the hint's place move nothing.
    typed = ["l", "lo", "log", "log(", "log(a", "log(a)", "log(a) ", "log(a) +", "log(a) + ", "log(a) + b"]
    said = [t for t, shown in zip(typed, flagged, strict=True) if shown]
    assert said == ["log(a)", "log(a) ", "log(a) + b"], said
    assert max(below) - min(below) < 1, below
    assert error.get_attribute("data-code") == "domain"
    assert labels[-1] == "a a + b b", "the dimmed graph is a + b"
    assert all(label != "l" for label in labels[1:]), labels
    assert "is-stale" in page.locator(f"{SANDBOX} .tdg-player").get_attribute("class")
    # The words under the graph say why it is dimmed (walkthrough 12: a 41-node text left the old graph
    # playing with no word of why, its message scrolled away above): which graph is shown, then the
    # error line's message (walk 40: a phone's two lines cut the name when it came last).
    caption = page.locator(f"{SANDBOX} [data-caption]")
    assert caption.inner_text() == f"Dimmed: an earlier graph, “a + b”. {error.inner_text()}"
    assert error.inner_text().startswith("log is defined only for positive numbers")
    page.locator(f"{SANDBOX} input[name=num-a]").fill("2")
    settle(page)
    assert not page.locator(f"{SANDBOX} .tdg-error").is_visible()
    assert "Dimmed" not in caption.inner_text(), "a step of the graph again"
    # A value that leaves the domain keeps the graph at its last values: the caption says so rather than
    # narrate those values while the slider shows another (walkthrough 12: "log(a) = 0.6931" at a = −1.7).
    page.locator(f"{SANDBOX} input[name=num-a]").fill("-1")
    settle(page)
    assert error.is_visible() and error.inner_text().endswith("The graph keeps the last values that worked.")
    assert caption.inner_text() == error.inner_text()
    page.click(f"{SANDBOX} [data-action=backward]")  # played at the kept values: still said
    settle(page)
    assert caption.inner_text() == error.inner_text()
    page.locator(f"{SANDBOX} input[name=num-a]").fill("2")
    settle(page)
    # A complete graph followed by an operator is no prefix's ghost: it stays, dimmed.
    built = page.evaluate(CARD_LABELS)
    box.click()
    box.press("End")
    box.press_sequentially(" *")
    settle(page)
    assert not error.is_visible(), "the end being typed waits for a pause"
    assert page.evaluate(CARD_LABELS) == built, "the dimmed graph is log(a) + b, not a + b"
    # no message yet (the end is being typed): the caption names the dimmed graph, and no error
    assert caption.inner_text() == "Dimmed: an earlier graph, “log(a) + b”."
    box.press("Enter")  # or a pause, or leaving the field: then it is said
    assert error.is_visible() and error.get_attribute("data-code") == "syntax"
    assert caption.inner_text().endswith(error.inner_text()), "said under the graph as well"
    assert box.get_attribute("aria-invalid") == "true"
    box.press("Backspace")
    settle(page)
    assert not error.is_visible(), "log(a) + b again: no message"
    box.press_sequentially("*")
    settle(page)
    assert not error.is_visible()
    expect(error).to_be_visible()  # after the learner's pause
    assert error.get_attribute("data-code") == "syntax"
    assert page.errors == [], page.errors


STAGE_TOP = ("document.querySelector('[data-sandbox] .tdg-stage').getBoundingClientRect().top + scrollY")
SLIDER_NAMES = "[...document.querySelectorAll('[data-sandbox] input[name^=var-]')].map(el => el.name)"


def test_while_typing_the_graph_stays_put_as_sliders_go_and_come(browser, site_server):
    """Walkthrough 7: typing (a + b) * c key by key, the prefix (a + b) took c's slider away and the graph
    jumped up 33 px, then down again. Now the sliders' room stays while the field has the focus; when
    the learner leaves it, a graph with fewer sliders moves up once."""
    page = open_lesson(browser, site_server)
    box = page.locator(f"{SANDBOX} input[name=expression]")
    box.click()
    box.press("Control+a")
    tops, sliders = [], []
    for ch in "(a + b) * c":
        box.press_sequentially(ch)
        settle(page)
        tops.append(page.evaluate(STAGE_TOP))
        sliders.append(len(page.evaluate(SLIDER_NAMES)))
    assert 2 in sliders and sliders[-1] == 3, sliders  # (a + b) had two
    assert max(tops) - min(tops) < 1, tops
    box.press("End")
    for _ in range(4):
        box.press("Backspace")  # back to (a + b)
    settle(page)
    assert page.evaluate(SLIDER_NAMES) == ["var-a", "var-b"] and abs(page.evaluate(STAGE_TOP) - tops[-1]) < 1
    box.press("Tab")  # leaving the field gives the room back
    settle(page)
    assert page.evaluate(STAGE_TOP) < tops[-1] - 10
    # Walkthrough 9: leaving the field by a click gave the room back at the mousedown, the button went
    # 33 px up from under the pointer and the click missed it. The room now goes after the click.
    box.click()
    box.press("End")
    box.press_sequentially(" * c")
    box.press("Backspace")
    box.press("Backspace")
    box.press("Backspace")
    box.press("Backspace")  # (a + b) again, in the room of three sliders
    settle(page)
    # The sliders and the button both in view, as the learner had them (a shrink above the window is
    # made up for by the browser's scroll anchoring).
    page.evaluate(f"scrollBy(0, document.querySelector('{SANDBOX} [data-action=backward]')"
                  ".getBoundingClientRect().top - 600)")
    button = page.locator(f"{SANDBOX} [data-action=backward]").bounding_box()
    assert button["y"] + button["height"] < DESKTOP["height"], button
    page.mouse.move(button["x"] + button["width"] / 2, button["y"] + button["height"] / 2)
    page.mouse.down()
    page.wait_for_timeout(100)  # a hand's click
    page.mouse.up()
    settle(page)
    assert moment(page)["direction"] == "backward", "the click reached Backward"
    assert page.evaluate(SLIDER_NAMES) == ["var-a", "var-b"]
    assert page.evaluate(STAGE_TOP) < tops[-1] - 10, "and the room went after it"
    # A drag that takes the focus from the field (xb13, WebKit): the room went at the release, and a's
    # slider, centred in the held room of three, jumped 16 px up from under the pointer then.
    box.click()
    box.press("End")
    box.press_sequentially(" * c")
    for _ in range(4):
        box.press("Backspace")
    settle(page)
    slider = page.locator(f"{SANDBOX} input[name=var-a]")
    before = slider.bounding_box()
    page.mouse.move(before["x"] + before["width"] / 2, before["y"] + before["height"] / 2)
    page.mouse.down()
    page.mouse.move(before["x"] + before["width"] * 0.7, before["y"] + before["height"] / 2, steps=5)
    page.mouse.up()
    settle(page)
    assert page.evaluate(STAGE_TOP) < tops[-1] - 10, "the room went at the release"
    assert abs(slider.bounding_box()["y"] - before["y"]) < 1, (before, slider.bounding_box())
    assert page.errors == [], page.errors


def test_a_tap_that_leaves_the_field_lands_where_it_was_aimed(browser, site_server):
    """Walkthrough 17: on a phone, the first tap after typing a * a + b over the room of three sliders, on
    Backward low on the screen, gave the room back as the field lost the focus; the click a tap makes
    comes after that, and went to the empty place 32 px under the button (9 taps of 9)."""
    page = open_lesson(browser, site_server, viewport=PHONE, has_touch=True, is_mobile=True)
    box = page.locator(f"{SANDBOX} input[name=expression]")
    box.tap()
    box.press("Control+a")
    box.type("a * a + b", delay=30)
    page.wait_for_function(f"document.querySelector('{SANDBOX} [data-action=play]')"
                           ".getAttribute('aria-pressed') !== 'true'", timeout=20_000)  # played to its end
    assert page.evaluate(SLIDER_NAMES) == ["var-a", "var-b"]
    button = page.locator(f"{SANDBOX} [data-action=backward]")
    page.evaluate("el => scrollBy(0, el.getBoundingClientRect().top - 600)", button.element_handle())
    before = page.evaluate(STAGE_TOP)
    at = button.bounding_box()
    point = [{"x": at["x"] + at["width"] / 2, "y": at["y"] + at["height"] / 2}]
    touch = page.context.new_cdp_session(page)
    touch.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": point})
    page.wait_for_timeout(60)  # a finger's tap
    touch.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    page.wait_for_timeout(600)
    assert moment(page)["direction"] == "backward", "the tap reached Backward"
    assert page.evaluate(STAGE_TOP) < before - 10, "and the room went after it"
    assert page.errors == [], page.errors


# Every visible control of every sandbox and widget that Material's button would cover, the button's
# state, and whether our roots are marked.
COVERED = """() => {
  const top = document.querySelector('.md-top');
  const css = getComputedStyle(top);
  const b = top.getBoundingClientRect();
  const covered = [...document.querySelectorAll(
      ':is([data-sandbox], [data-sandbox-compact], figure.tdg-widget) :is(button, input, select)')]
    .filter(el => el.checkVisibility({opacityProperty: true, visibilityProperty: true}))
    .filter(el => { const r = el.getBoundingClientRect();
                    return r.width > 0 && r.left < b.right && r.right > b.left
                           && r.top < b.bottom && r.bottom > b.top; })
    .map(el => el.name || el.textContent.trim().slice(0, 20));
  return {y: Math.round(scrollY), shown: !top.hidden && css.visibility === 'visible', covered,
          hidden: top.matches('[data-under-sandbox], [data-under-widget]')};
}"""


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_back_to_top_never_covers_a_sandbox_or_widget_control(browser, site_server, size):
    """Material's "Back to top" pill appears while the reader scrolls up, where it could land over the
    presets or the gears' labels. Scrolled up by the wheel from the foot of lesson 02 (the compact
    player, the sandbox) and of page 00 (the knob, the gears), the button shows over the prose and never
    over a control."""
    viewport = DESKTOP if size == "desktop" else PHONE
    page = browser.new_context(viewport=viewport).new_page()
    _watch_errors(page)
    try:
        for path in (LESSON["en"], "00-basics/"):
            page.goto(f"{site_server}{path}", wait_until="load")
            if path == LESSON["en"]:
                sandbox_ready(page)
                keys_shown = shown(page, f"{SANDBOX} .tdg-legend-keys")
                assert keys_shown == (size == "phone"), "v and g are explained where cards write them"
            page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
            settle(page)
            page.mouse.move(viewport["width"] / 2, viewport["height"] / 2)
            seen = {"shown": 0, "hidden": 0}
            for _ in range(120):
                page.mouse.wheel(0, -250)
                page.wait_for_timeout(50)
                state = page.evaluate(COVERED)
                assert not (state["shown"] and state["covered"]), (path, state)
                seen["shown"] += state["shown"]
                seen["hidden"] += state["hidden"]
                if state["y"] == 0:
                    break
            assert seen["shown"] and seen["hidden"], (path, seen, "the button showed, and hid for a control")
        assert page.errors == [], page.errors
    finally:
        page.context.close()
