"""A sandbox a learner can rely on, in a real browser: the site's chrome stays above it (on a desktop
and a phone), typing never loses a variable, controls are never rebuilt under the learner's hand, and
no gradient shows before the backward wave brings it (nudge check included).

The transitions are proven in node (tests/ts/player-model.test.ts); here each runs once, in English
on a desktop, for the wiring. The words of each language: test_browser_words.py.
"""

from __future__ import annotations

import pytest

from .big_graph_helpers import FORTY_NODES
from .browser_helpers import (
    DESKTOP,
    MINUS,
    PHONE,
    SETTLED,
    lesson_page,
    moment,
    num,
    open_lesson,
    open_moment,
    paused_in_view,
    scroll_to_player,
    seek,
    set_range,
    settle,
)

SANDBOX = "[data-sandbox]"
SIZES = {"desktop": DESKTOP, "phone": PHONE}
pytestmark = pytest.mark.browser


@pytest.fixture
def open_page(browser, site_server):
    def load(lang: str = "en", size: str = "desktop", **kw):
        page = lesson_page(browser, site_server, lang=lang, viewport=SIZES[size], **kw)
        paused_in_view(page)
        return page
    return load


def type_slowly(page, text: str) -> None:
    """Clear the expression and type it key by key, as a learner does."""
    box = page.locator(f"{SANDBOX} input[name=expression]")
    box.click()
    box.press("Control+a")
    box.press("Backspace")
    for ch in text:
        box.press_sequentially(ch)
    settle(page)


def slider_names(page) -> list[str]:
    return page.evaluate("[...document.querySelectorAll('[data-sandbox] .tdg-vars input[type=range]')]"
                         ".map(el => el.name)")


def card_centres(page) -> list[dict]:
    return page.evaluate("""[...document.querySelectorAll('[data-sandbox] [data-node]')].map(el => {
        const b = el.getBoundingClientRect(); return {id: el.dataset.node, x: b.left + b.width / 2,
        y: b.top + b.height / 2, w: b.width, h: b.height}; })""")


def covered_points(page, container: str, points: list[tuple[float, float]]) -> list[str]:
    """The points (viewport px) where something other than `container` is on top."""
    return page.evaluate("""([sel, pts]) => pts.flatMap(([x, y]) => {
        const el = document.elementFromPoint(x, y);
        return el && el.closest(sel) ? [] : [`(${x}, ${y}): ${el ? el.className || el.tagName : 'nothing'}`];
    })""", [container, points])


# ---- 1. the site's chrome stays on top ------------------------------------------------------------

@pytest.mark.parametrize("size", SIZES)
def test_the_sites_header_search_and_drawer_stay_above_the_sandbox(open_page, size):
    """(Search in each language: test_browser_language.py.)"""
    page = open_page(size=size)
    header_stays_above_cards_labels_and_canvas(page, size)
    if size == "phone":
        phone_drawer_stays_above_the_sandbox(page)
        page.evaluate("document.getElementById('__drawer').click()")  # the reader closes it again
        page.wait_for_function("document.querySelector('.md-sidebar--primary')"
                               ".getBoundingClientRect().right <= 0")
    search_results_stay_above_the_sandbox(page, size)


def header_stays_above_cards_labels_and_canvas(page, size: str) -> None:
    page.click(f"{SANDBOX} [data-action=backward]")
    seek(page, 1e9)
    page.evaluate(SETTLED)  # the pulse the click started brought the stage into view (smoothly)
    header = page.locator("header.md-header").bounding_box()
    assert header and header["height"] > 20
    # Scroll each card's centre (and so labels and canvas around it) under the middle of the header.
    for card_id in [c["id"] for c in card_centres(page)][:6]:
        card = next(c for c in card_centres(page) if c["id"] == card_id)
        page.evaluate("dy => window.scrollBy(0, dy)", card["y"] - header["y"] - header["height"] / 2)
        settle(page)
        moved = next(c for c in card_centres(page) if c["id"] == card["id"])
        assert abs(moved["y"] - (header["y"] + header["height"] / 2)) < 2, "the card is under the header"
        xs = [moved["x"] - moved["w"] / 3, moved["x"], moved["x"] + moved["w"] / 3]
        points = [(x, header["y"] + header["height"] / 2) for x in xs if 0 < x < SIZES[size]["width"]]
        assert covered_points(page, "header.md-header", points) == [], f"card {card['id']} over the header"


def phone_drawer_stays_above_the_sandbox(page) -> None:
    scroll_to_player(page)
    page.evaluate("window.scrollBy(0, document.querySelector('[data-sandbox] .tdg-stage')"
                  ".getBoundingClientRect().top - 120)")
    page.click("label.md-header__button[for=__drawer]")
    page.wait_for_function("document.querySelector('.md-sidebar--primary')"
                           ".getBoundingClientRect().right > 200")
    page.wait_for_timeout(400)  # the drawer slides in
    drawer = page.locator(".md-sidebar--primary").bounding_box()
    under = [c for c in card_centres(page) if c["x"] < drawer["x"] + drawer["width"] - 4 and 0 < c["y"] < 844]
    assert under, "the test needs cards behind the drawer"
    points = [(c["x"], c["y"]) for c in under]
    assert covered_points(page, ".md-sidebar--primary, .md-overlay", points) == []


def search_results_stay_above_the_sandbox(page, size: str) -> None:
    page.evaluate("window.scrollBy(0, document.querySelector('[data-sandbox] .tdg-stage')"
                  ".getBoundingClientRect().top - 60)")
    settle(page)
    page.click("label.md-header__button[for=__search]" if size == "phone" else ".md-search__input")
    page.locator(".md-search__input").press_sequentially("gradient", delay=20)
    page.wait_for_selector(".md-search-result__item", state="visible")
    out = page.locator(".md-search__output").bounding_box()
    assert out and out["height"] > 50
    points = [(out["x"] + out["width"] * fx, out["y"] + out["height"] * fy)
              for fx in (0.1, 0.5, 0.9) for fy in (0.1, 0.4, 0.8)]
    points = [(x, y) for x, y in points if y < SIZES[size]["height"]]
    assert covered_points(page, ".md-search", points) == []


# ---- 2. typing never loses a variable ---------------------------------------------------------------

def test_a_value_field_reads_what_the_cards_write_and_says_the_value_in_use(open_page):
    """Walkthrough 17: a number field dropped what it could not read ("1/3" became 13, the cards' "−3"
    became 3) and an emptied one stayed blank. Now "−4" is −4, and an emptied field, once left, gives
    way to the value in use. A value field reads what a prediction field reads (review 58: "1/3" was
    refused there, and "1,000" was 1 in English): typed key by key, "1/3" is a third, written as the
    number taken once committed, "1,000,000" a million, and "3,5" is 3.5, written so."""
    page = open_page()
    field = page.locator(f"{SANDBOX} input[name=num-b]")
    slider = f"{SANDBOX} input[name=var-b]"
    field.fill("\u22124")  # as a card writes it
    field.press("Enter")
    settle(page)
    assert page.input_value(slider) == "-4"
    field.fill("")
    field.press("Enter")
    page.wait_for_function("f => f.value === '\u22124'", arg=field.element_handle())
    # Once committed, written the page's way (walkthrough 29: "3,5" stayed on the English page).
    for typed, card, written in (("1/3", "0.3333", "0.3333333333333333"), ("1,000,000", "1e6", "1000000"),
                                 ("3,5", "3.5", "3.5")):
        field.fill("")
        field.press_sequentially(typed)
        assert field.input_value() == typed, "kept as typed while it is the learner's"
        field.press("Enter")
        settle(page)
        assert card_value(page, "b") == card and field.input_value() == written
        assert not page.locator(f"{SANDBOX} .tdg-var[data-var=b] .tdg-error").count()
    # "2,718": 2.718 or 2718? The field asks, and the value before it comes back (walkthrough 31: a
    # decimal comma before three digits was read as a thousands one, silently).
    field.fill("")
    field.press_sequentially("2,718")
    field.press("Enter")
    settle(page)
    assert card_value(page, "b") == "3.5" and field.input_value() == "3.5"
    assert page.locator(f"{SANDBOX} .tdg-var[data-var=b] .tdg-error").inner_text() == (
        "b: is “2,718” 2.718 or 2718? Type one of the two; until then b stays 3.5.")
    # A value typed and undone before the field is left (no change to commit), then a drag: text the
    # field refuses gives back the dragged value (review 59: it gave back the one typed before).
    field.fill("3")
    field.press("Enter")
    field.press("End")
    field.press_sequentially("5")  # 35, applied as typed
    field.press("Backspace")  # 3 again: leaving commits nothing
    field.press("Tab")
    set_range(page, slider, 2)
    field.fill("")
    field.press_sequentially("x")
    field.press("Enter")
    settle(page)
    assert card_value(page, "b") == "2" and field.input_value() == "2"
    # The words on a refused text go as soon as a number is typed in its place (walkthrough 30: they
    # said "b stays 2" beside a 7 the graph already used, until the field was left).
    message = page.locator(f"{SANDBOX} .tdg-var[data-var=b] .tdg-error")
    assert message.count() == 1
    field.press("Backspace")
    field.press_sequentially("7")
    settle(page)
    assert not message.count() and card_value(page, "b") == "7"
    assert field.get_attribute("aria-describedby") is None
    assert page.errors == []


def card_value(page, leaf: str) -> str:
    """The value on the leaf's card, as the card writes it."""
    return page.evaluate(f"""() => [...document.querySelectorAll('{SANDBOX} [data-node]')]
        .find(c => c.querySelector('.tdg-glyph').textContent.trim() === '{leaf}')
        .querySelector('[data-field=value]').textContent""")


REFUSED = {
    "en": ("b: “abc” is not a number, so b stays −4.",
           "b: 1e400 lies beyond ±1,000,000, the most the sandbox takes, so b stays 2."),
    "ru": ("b: «abc»\u00a0— не число, поэтому b остаётся равным −4.",
           "b: 1e400 выходит за пределы ±1\u00a0000\u00a0000, допустимые в\u00a0песочнице, "
           "поэтому b остаётся равным 2."),
    "et": ("b: „abc“ ei ole arv, seega jääb b väärtuseks −4.",
           "b: 1e400 on väljaspool liivakastis lubatud vahemikku ±1\u00a0000\u00a0000, "
           "seega jääb b väärtuseks 2."),
}


KEPT = {"en": "b stays 987,654.5.", "ru": "b остаётся равным 987\u00a0654,5.",
        "et": "jääb b väärtuseks 987\u00a0654,5."}


@pytest.mark.parametrize("lang", ["en", "ru", "et"])
def test_a_value_the_sandbox_cannot_take_is_said_under_its_field(open_page, lang):
    """Walkthrough 28: "1e400" typed key by key into a value field became "1e+40" with no word (its
    prefix "1e40", beyond what an address keeps, had been applied) and the slider kept a range of ±2e40
    ever after; "abc" was put back without a word. Text that is no number, or a number beyond ±10⁶ (the
    address's limit), once committed, is said under its field, and the value before it comes back
    (review 58: "1e400" typed over 2 had applied its "1e4" and left b at 10,000); the words go with the
    next value, and the field's description with them (it pointed at nothing). A slider fits a value
    typed up to a large number and back, or set by a preset after it."""
    page = open_page(lang=lang)
    field = page.locator(f"{SANDBOX} input[name=num-b]")
    message = page.locator(f"{SANDBOX} .tdg-var[data-var=b] .tdg-error")
    slider = f"{SANDBOX} input[name=var-b]"

    def commit(text: str) -> None:
        field.fill("")
        field.press_sequentially(text)
        field.press("Enter")
        settle(page)

    commit("\u22124")
    commit("abc")
    assert message.inner_text() == REFUSED[lang][0] and num(field.input_value()) == -4
    assert field.get_attribute("aria-describedby") == message.get_attribute("id")
    commit("900000")
    assert not message.count() and page.get_attribute(slider, "max") == "2000000"
    assert field.get_attribute("aria-describedby") is None, "no description pointing at words gone"
    commit("987654.5")
    commit("1000001")  # beyond reach: the value before comes back, said with every digit the field has
    assert num(field.input_value().replace(",", ".")) == 987654.5  # "987654,5" in ru and et
    assert message.inner_text().endswith(KEPT[lang]), "walkthrough 31: 'a stays 1,000,000' beside 999999"
    commit("2")
    assert page.get_attribute(slider, "max") == "5" and page.input_value(slider) == "2"
    commit("1e400")  # its "1", "1e4" apply as typed; "1e40" is beyond reach: 2 comes back
    assert message.inner_text() == REFUSED[lang][1] and num(field.input_value()) == 2
    assert page.get_attribute(slider, "max") == "5" and page.input_value(slider) == "2"
    assert num(card_value(page, "b")) == 2, "the graph is computed at b = 2 again"
    set_range(page, slider, 1.5)  # the words were about the value before
    settle(page)
    assert not message.count() and field.get_attribute("aria-describedby") is None
    commit("900000")
    page.locator(f"{SANDBOX} [data-action=preset]").first.click()  # b = −3
    settle(page)
    assert page.get_attribute(slider, "max") == "5" and page.input_value(slider) == "-3"
    # xwalk 35: a preset's values are new ones, even one equal to what a refusal kept ("b stays −3")
    commit("abc")
    assert message.count() == 1
    page.locator(f"{SANDBOX} [data-action=preset]").first.click()
    settle(page)
    assert not message.count() and field.get_attribute("aria-describedby") is None
    assert page.errors == []


def test_the_fields_write_numbers_as_the_pages_language(open_page):
    """Walkthrough 18: on the et page a caption said "0 × −0,2" beside a value field's "-0.2", and the
    nudge's h field "0.001" under a text that says 0,001; page 00's fields write "1,5". The fields a
    learner types into write numbers as the page's language does (cards and labels keep code's point)."""
    page = open_page(lang="ru")
    assert page.input_value(f"{SANDBOX} input[name=num-b]") == "\u22123"
    assert page.input_value(f"{SANDBOX} input[name=nudge-h]") == "0,001"
    set_range(page, f"{SANDBOX} input[name=var-a]", 2.5)
    settle(page)
    assert page.input_value(f"{SANDBOX} input[name=num-a]") == "2,5"
    field = page.locator(f"{SANDBOX} input[name=num-b]")
    field.fill("1 000,5")  # grouped as Russian writes it: read, and written as the number it is
    field.press("Enter")
    settle(page)
    assert field.input_value() == "1000,5" and card_value(page, "b") == "1001"  # 4 digits on a card
    field.fill("-0,5")  # as a learner types it: read, and kept as typed while it is theirs
    settle(page)
    assert page.input_value(f"{SANDBOX} input[name=var-b]") == "-0.5"
    assert field.input_value() == "-0,5"
    page.click(f"{SANDBOX} .tdg-nudge summary")
    page.fill(f"{SANDBOX} input[name=nudge-h]", "0,01")
    page.press(f"{SANDBOX} input[name=nudge-h]", "Enter")
    page.wait_for_selector(f"{SANDBOX} .tdg-nudge-result:not(:empty)")
    assert "Сдвиг a на 0,01 " in page.inner_text(f"{SANDBOX} .tdg-nudge-result")
    assert page.errors == []


def test_typing_log_a_with_a_negative_keeps_an_a_slider(open_page):
    page = open_page()
    page.locator(f"{SANDBOX} input[name=num-a]").fill("-1")
    type_slowly(page, "log(a)")
    error = page.locator(f"{SANDBOX} .tdg-error")
    assert error.is_visible()
    assert error.get_attribute("data-code") == "domain"
    assert "log" in error.inner_text()
    assert slider_names(page) == ["var-a"], "the sliders follow the typed text, not a prefix of it"
    assert num(page.input_value(f"{SANDBOX} input[name=num-a]")) == -1, "the value the learner set is kept"
    assert "is-stale" in page.locator(f"{SANDBOX} .tdg-player").get_attribute("class"), "the old graph fades"
    set_range(page, f"{SANDBOX} input[name=var-a]", 2)
    settle(page)
    assert not error.is_visible()
    assert "is-stale" not in page.locator(f"{SANDBOX} .tdg-player").get_attribute("class")
    root = page.evaluate("[...document.querySelectorAll('[data-sandbox] [data-node]')].at(-1).dataset.node")
    m = moment(page)
    seek(page, m["duration"])
    value = page.locator(f"{SANDBOX} [data-node='{root}'] [data-field=value]").inner_text()
    assert abs(num(value) - 0.6931) < 1e-3


def test_a_syntax_error_keeps_the_sliders_and_they_still_drive_the_graph(open_page):
    """(Its own page load: a moment opened by the hash keeps the graphs shown before it as the fallback
    of unfinished text, and "(a + b) * c +" would fall back to an earlier test's graph.)"""
    page = open_page()
    type_slowly(page, "(a + b) * c +")
    assert slider_names(page) == ["var-a", "var-b", "var-c"]
    set_range(page, f"{SANDBOX} input[name=var-c]", 3)
    seek(page, 1e9)
    values = page.locator(f"{SANDBOX} [data-field=value]").all_inner_texts()
    assert f"{MINUS}3" in values, "(a + b) * c with c = 3 on screen"
    assert page.locator(f"{SANDBOX} .tdg-error").get_attribute("data-code") == "syntax"


def test_on_a_phone_many_variables_fold_so_the_graph_stays_near_the_expression(open_page):
    """Thirteen variables would be a screen of sliders between the expression and its graph: on a phone
    they fold under "Values", which a tap opens; few variables show them all, up to ten on a desktop. Then 40
    nodes: a pulse started from the buttons under the tall stage plays in view."""
    page = open_page(size="phone")
    values = page.locator(f"{SANDBOX} details.tdg-vars")
    expression = page.locator(f"{SANDBOX} input[name=expression]")
    thirteen = "a * b + c * d + e * f + g * h + i * j + k * l + m"
    assert values.evaluate("el => el.open"), "three variables need no fold"
    expression.fill(thirteen)
    settle(page)
    assert len(slider_names(page)) == 13
    assert not values.evaluate("el => el.open")
    assert page.locator(f"{SANDBOX} .tdg-vars > summary").inner_text() == "Values: 13 variables"
    assert not page.locator(f"{SANDBOX} input[name=var-a]").is_visible()
    gap = page.evaluate(f"""() => document.querySelector('{SANDBOX} .tdg-stage').getBoundingClientRect().top
        - document.querySelector('{SANDBOX} input[name=expression]').getBoundingClientRect().bottom""")
    assert gap < PHONE["height"] / 2, f"the graph starts {gap:.0f} px below the expression"
    page.click(f"{SANDBOX} .tdg-vars > summary")
    slider = page.locator(f"{SANDBOX} input[name=num-m]")
    assert slider.is_visible()
    slider.fill("3")
    settle(page)
    assert page.input_value(f"{SANDBOX} input[name=var-m]") == "3", "an opened value drives the graph"
    expression.fill(thirteen + " * n")
    settle(page)
    assert values.evaluate("el => el.open"), "the reader opened it: one more variable does not close it"
    expression.fill("a * b + c")
    settle(page)
    assert values.evaluate("el => el.open")
    assert page.locator(f"{SANDBOX} input[name=var-a]").is_visible()
    # Numbers alone have no values to set: no "Values: 0 variables" over an empty fold (walkthrough 18)
    expression.fill("2 * 3")
    settle(page)
    assert values.is_visible(), "while typing, its room stays (the graph does not jump)"
    # ... nor a leaf to nudge: no Nudge check over an empty menu (walk 40)
    assert not page.locator(f"{SANDBOX} .tdg-nudge").is_visible()
    expression.blur()
    settle(page)
    assert not values.is_visible()
    expression.focus()
    expression.fill("a * b + c")
    settle(page)
    assert values.is_visible()
    page.set_viewport_size(DESKTOP)  # a desktop shows ten at once, two to a row
    expression.fill("a * b + c * d + e * f + g * h + i * j")
    settle(page)
    assert values.evaluate("el => el.open")
    expression.fill("a * b + c")
    settle(page)
    # ... but not thirteen (walkthrough 14: seven rows of them put the graph about 500 px under the field;
    # walkthrough 12: twenty, ten rows)
    expression.fill(thirteen)
    settle(page)
    assert not values.evaluate("el => el.open")
    gap = page.evaluate(f"""() => document.querySelector('{SANDBOX} .tdg-stage').getBoundingClientRect().top
        - document.querySelector('{SANDBOX} input[name=expression]').getBoundingClientRect().bottom""")
    assert gap < DESKTOP["height"] / 3, f"the graph starts {gap:.0f} px below the expression"
    page.set_viewport_size(PHONE)
    a_pulse_started_below_a_tall_graph_plays_in_view(page)
    assert page.errors == [], page.errors


def a_pulse_started_below_a_tall_graph_plays_in_view(page) -> None:
    """On a phone the 40-node graph's stage is most of a screen tall: a learner who scrolled down to the
    buttons under it and presses Backward sees the pulse play, the graph in view with its caption."""
    page.locator(f"{SANDBOX} input[name=expression]").fill(FORTY_NODES)
    settle(page)
    backward = page.locator(f"{SANDBOX} [data-action=backward]")
    backward.evaluate("el => el.scrollIntoView({block: 'center'})")
    page.evaluate(SETTLED)
    seen = f"""() => {{ const stage = document.querySelector('{SANDBOX} .tdg-stage').getBoundingClientRect();
        const caption = document.querySelector('{SANDBOX} [data-caption]').getBoundingClientRect();
        const header = document.querySelector('.md-header').getBoundingClientRect().bottom;
        return {{share: (Math.min(stage.bottom, innerHeight) - Math.max(stage.top, header)) / stage.height,
                 caption: caption.bottom <= innerHeight && caption.top >= header}}; }}"""
    before = page.evaluate(seen)
    assert before["share"] < 0.5, before  # only a strip of the graph above the buttons
    backward.click()
    page.evaluate(SETTLED)
    assert moment(page)["playing"]
    after = page.evaluate(seen)
    assert after["share"] > 0.99 and after["caption"], after
    # The button that stops it is in view under the graph too (walkthrough 7: it was 40 px below the
    # fold): the transport keeps to the window's bottom while its place is below it. Paused there, on
    # the step the learner wants to read, nothing moves.
    play = page.locator(f"{SANDBOX} [data-action=play]")
    box = play.bounding_box()
    stage = page.locator(f"{SANDBOX} .tdg-stage").bounding_box()
    assert stage["y"] + stage["height"] <= box["y"] and box["y"] + box["height"] <= PHONE["height"], box
    play.click()
    assert not moment(page)["playing"]
    assert page.evaluate(seen) == after
    # One step on, one step back, beside the slider (a finger cannot land on one step of 51 on it).
    paused = moment(page)["time"]
    page.locator(f"{SANDBOX} [data-action=step-on]").click()
    on = moment(page)["time"]
    assert on == int(on) and paused < on <= paused + 1, (paused, on)
    page.locator(f"{SANDBOX} [data-action=step-back]").click()
    assert moment(page)["time"] == on - 1 and not moment(page)["playing"]
    assert page.evaluate(seen) == after, "the graph stays where it was"
    # The bar never covers the words under the graph: with them at the window's bottom it stays under
    # them (a screenshot of walkthrough 12's time: it hid the caption's second line).
    page.evaluate(f"""() => {{ const c = document.querySelector('{SANDBOX} [data-caption]');
        window.scrollBy(0, c.getBoundingClientRect().bottom - innerHeight + 4); }}""")
    page.evaluate(SETTLED)
    words = page.locator(f"{SANDBOX} [data-caption]").bounding_box()
    bar = page.locator(f"{SANDBOX} .tdg-transport").bounding_box()
    assert bar["y"] >= words["y"] + words["height"] - 1, (words, bar)
    # Seen whole, the graph keeps Play under it in the window: the bar still keeps to the window's bottom
    # (walkthrough 12: in a 640 px frame it went 40 px below it).
    page.locator(f"{SANDBOX} [data-action=whole]").click()
    page.evaluate(SETTLED)
    assert page.evaluate(f"getComputedStyle(document.querySelector('{SANDBOX} .tdg-transport')).position")\
        == "sticky"
    # Its hint under the buttons, whose words change with it (walkthrough 13: a line more in Russian
    # moved the button down under the finger).
    whole = page.locator(f"{SANDBOX} [data-action=whole]").bounding_box()
    hint = page.locator(f"{SANDBOX} .tdg-pan-hint").bounding_box()
    assert hint["y"] >= whole["y"] + whole["height"], (whole, hint)
    box = play.bounding_box()
    assert box["y"] + box["height"] <= PHONE["height"], box


# ---- 3. controls are never rebuilt under the learner's hand ------------------------------------

def test_keys_and_a_mouse_drag_carry_a_slider_through_an_error(open_page):
    """The arrow keys (focus kept) and a mouse drag both carry a slider from an error into a graph (one
    page, the lesson's own moment opened by the hash between the two)."""
    page = open_page()
    arrow_keys_carry_a_slider_through_an_error_with_focus_kept(page)
    open_moment(page)
    a_mouse_drag_continues_through_error_and_graph(page)


def arrow_keys_carry_a_slider_through_an_error_with_focus_kept(page) -> None:
    page.locator(f"{SANDBOX} input[name=num-a]").fill("-2")
    type_slowly(page, "log(a) + b")
    assert page.locator(f"{SANDBOX} .tdg-error").is_visible()
    slider = page.locator(f"{SANDBOX} input[name=var-a]")
    slider.evaluate("el => { el.dataset.probe = 'same'; el.focus(); }")
    for _ in range(32):
        page.keyboard.press("ArrowRight")
    settle(page)
    assert page.evaluate("document.activeElement.dataset.probe") == "same", "focus stayed on a's slider"
    assert num(page.input_value(f"{SANDBOX} input[name=num-a]")) > 1
    assert not page.locator(f"{SANDBOX} .tdg-error").is_visible()
    assert slider_names(page) == ["var-a", "var-b"]


def a_mouse_drag_continues_through_error_and_graph(page) -> None:
    page.locator(f"{SANDBOX} input[name=num-a]").fill("-2")
    type_slowly(page, "log(a) + b")
    slider = page.locator(f"{SANDBOX} input[name=var-a]")
    slider.evaluate("el => { el.dataset.probe = 'same'; el.scrollIntoView({block: 'center'}); }")
    box = slider.bounding_box()
    y = box["y"] + box["height"] / 2
    page.mouse.move(box["x"] + box["width"] * 0.3, y)  # a = -2 on -5..5
    page.mouse.down()
    seen_error, seen_graph = False, False
    for i in range(1, 21):
        page.mouse.move(box["x"] + box["width"] * (0.3 + 0.035 * i), y)
        settle(page)
        visible = page.locator(f"{SANDBOX} .tdg-error").is_visible()
        seen_error |= visible
        seen_graph |= not visible
    page.mouse.up()
    assert seen_error and seen_graph, "the drag went from the error into a graph"
    assert num(page.input_value(f"{SANDBOX} input[name=num-a]")) > 2, "the drag was not cut short"
    assert page.evaluate("document.activeElement.dataset.probe") == "same"


def test_a_touch_drag_continues_through_error_and_graph(browser, site_server):
    page = open_lesson(browser, site_server, viewport=PHONE, has_touch=True, is_mobile=True)
    page.locator(f"{SANDBOX} input[name=num-a]").fill("-2")
    page.locator(f"{SANDBOX} input[name=expression]").fill("log(a) + b")
    slider = page.locator(f"{SANDBOX} input[name=var-a]")
    slider.evaluate("el => { el.dataset.probe = 'same'; el.scrollIntoView({block: 'center'}); }")
    settle(page)
    box = slider.bounding_box()
    y = box["y"] + box["height"] / 2
    cdp = page.context.new_cdp_session(page)

    def touch(kind: str, x: float) -> None:
        points = [] if kind == "touchEnd" else [{"x": x, "y": y, "id": 1}]
        cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    x0 = box["x"] + box["width"] * 0.3
    touch("touchStart", x0)
    errors = []
    for i in range(1, 21):
        touch("touchMove", x0 + box["width"] * 0.035 * i)
        settle(page)
        errors.append(page.locator(f"{SANDBOX} .tdg-error").is_visible())
    touch("touchEnd", 0)
    assert errors[0] and not errors[-1], "the finger went from the error into a graph"
    assert num(page.input_value(f"{SANDBOX} input[name=num-a]")) > 2, "the drag was not cut short"
    assert slider.evaluate("el => el.isConnected && el.dataset.probe") == "same"


# ---- 4. no answer before its time --------------------------------------------------------------

def test_a_new_expression_at_the_end_of_backward_shows_no_gradient(open_page):
    page = open_page()
    page.click(f"{SANDBOX} [data-action=backward]")
    seek(page, 1e9)
    type_slowly(page, "a * a")
    m = moment(page)
    assert m["direction"] == "backward" and m["time"] < 1, "the pulse starts again"
    leaf = page.locator(f"{SANDBOX} [data-node][data-op=var]").get_attribute("data-node")
    assert page.locator(f"{SANDBOX} [data-node='{leaf}'] [data-field=grad]").inner_text() == "--"
    # The pulse's end (a bound for a loaded machine, which draws a few frames a second; not a speed test).
    page.wait_for_function("!window.tinydagPlayer.sandboxes['tinydag-1'].moment().playing", timeout=90000)
    assert num(page.locator(f"{SANDBOX} [data-node='{leaf}'] [data-field=grad]").inner_text()) == 4


def test_a_preset_mid_pulse_starts_over(open_page):
    page = open_page()
    page.click(f"{SANDBOX} [data-action=backward]")
    seek(page, 2.5)
    page.locator(f"{SANDBOX} [data-action=preset]").nth(2).click()
    m = moment(page)
    assert m["time"] < 1
    grads = page.locator(f"{SANDBOX} [data-field=grad]").all_inner_texts()
    assert all(g == "--" for g in grads[:-1])
    # Walk 36: the pulse of a preset with five sliders above the graph played under a desktop's fold,
    # the sandbox's top at the window's; it plays in view, with its words.
    page.locator(SANDBOX).evaluate("p => p.scrollIntoView({block: 'start'})")
    page.locator(f"{SANDBOX} [data-action=preset]").nth(5).click()  # a small neuron
    page.evaluate(SETTLED)
    assert moment(page)["playing"]
    caption = page.locator(f"{SANDBOX} .tdg-caption").bounding_box()
    assert caption["y"] + caption["height"] <= SIZES["desktop"]["height"], caption
    assert page.locator(f"{SANDBOX} .tdg-stage").bounding_box()["y"] >= 48


def test_the_nudge_check_waits_for_the_wave_refuses_zero_and_forgets_old_answers(open_page):
    page = open_page()
    page.locator(f"{SANDBOX} details.tdg-nudge summary").click()
    out = page.locator(f"{SANDBOX} .tdg-nudge-result")
    page.click(f"{SANDBOX} [data-action=backward]")
    page.click(f"{SANDBOX} [data-action=play]")  # pause at the start of backward
    seek(page, 0)
    page.select_option(f"{SANDBOX} select[name=nudge-leaf]", "a")
    page.click(f"{SANDBOX} [data-action=nudge]")
    settle(page)
    assert out.get_attribute("data-state") == "waiting"
    assert "a.grad" in out.inner_text() and "a.grad =" not in out.inner_text(), out.inner_text()
    assert out.get_attribute("data-grad") is None
    seek(page, 1e9)
    assert out.get_attribute("data-state") == "compared"
    assert float(out.get_attribute("data-grad")) == 10
    # h = 0 is refused with a message; a tiny h warns that rounding ate the difference.
    page.fill(f"{SANDBOX} input[name=nudge-h]", "0")
    page.click(f"{SANDBOX} [data-action=nudge]")
    assert out.get_attribute("data-state") == "refused" and out.inner_text()
    page.fill(f"{SANDBOX} input[name=nudge-h]", "1e-12")
    page.click(f"{SANDBOX} [data-action=nudge]")
    assert out.get_attribute("data-rounding") is not None
    assert "10.000889" in out.inner_text(), "the ratio shows the noise it warns of (ru, et: their commas)"
    # Any change of values, expression or preset clears the old answer.
    set_range(page, f"{SANDBOX} input[name=var-b]", 1)
    settle(page)
    assert out.inner_text() == "" and out.get_attribute("data-state") is None
    page.fill(f"{SANDBOX} input[name=nudge-h]", "0.001")
    page.click(f"{SANDBOX} [data-action=nudge]")
    assert out.inner_text()
    page.locator(f"{SANDBOX} [data-action=preset]").nth(1).click()
    settle(page)
    assert out.inner_text() == ""
