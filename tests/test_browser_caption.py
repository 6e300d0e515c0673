"""One place for the eyes: the step in words right under the graph, and predict-then-check with the
graph in view (the caption's sentences are proven in node: tests/ts/player-words.test.ts; the caption
in each language: test_browser_words.py, test_the_sandbox_speaks_the_pages_language)."""

from __future__ import annotations

from urllib.parse import quote

import pytest

from .big_graph_helpers import FORTY_NODES
from .browser_helpers import (
    DESKTOP,
    LANDSCAPE,
    PHONE,
    SETTLED,
    at_each_time,
    fresh_url,
    num,
    open_lesson,
    pause,
    reused_page,
    sandbox_ready,
    seek,
    set_range,
    set_values,
    settle,
    type_expression,
)

pytestmark = pytest.mark.browser

FULL = "#tinydag-1"
EXERCISE_A = "a[data-open-in-sandbox] >> nth=1"  # the compact player's link, then (a)-(d)
SQUARE = "#tinydag-1?expr=a%20*%20a&vals=a:3&dir=backward&t=3"
LAST_STEP = {
    "en": "Step 3 of 3 · a receives 1 × 3 = 3; += adds it to what a already had: a.grad = 3 + 3 = 6",
    "ru": "Шаг 3 из 3 · a получает 1 × 3 = 3; += прибавляет это к\u00a0тому, что у\u00a0a уже было: "
          "a.grad = 3 + 3 = 6",  # the build binds one-letter words (U+00A0)
    "et": "Samm 3/3 · a saab 1 × 3 = 3; += liidab selle a senisele gradiendile: a.grad = 3 + 3 = 6",
}
BOXES = f"""() => {{
  const box = sel => {{ const b = document.querySelector(sel).getBoundingClientRect();
                       return {{top: b.top, bottom: b.bottom, height: b.height}}; }};
  const caption = document.querySelector('{FULL} [data-caption]');
  return {{stage: box('{FULL} .tdg-stage'), caption: box('{FULL} [data-caption]'),
           predict: box('{FULL} .tdg-predict'), options: box('{FULL} .tdg-options'),
           transport: box('{FULL} .tdg-transport'),
           lineHeight: parseFloat(getComputedStyle(caption).lineHeight),
           header: document.querySelector('.md-header').getBoundingClientRect().bottom,
           text: caption.textContent, visible: caption.checkVisibility(),
           clipped: caption.scrollHeight > caption.clientHeight + 1}};
}}"""


def boxes(page) -> dict:
    return page.evaluate(BOXES)


def the_caption_under_the_graph_says_the_step(page, lang: str) -> None:
    """In a loaded lesson: a moment opened by its address (a × a, the last step of backward), the caption
    right under the stage says the step in the page's language. (Once per language, in the language's
    one page load: test_browser_words.py, test_the_sandbox_speaks_the_pages_language.)"""
    page.evaluate("h => { location.hash = h; }", SQUARE + "&local=0&final=0")  # the options as on a load
    page.wait_for_function("t => document.querySelector('#tinydag-1 [data-caption]').textContent === t",
                           arg=LAST_STEP[lang])
    settle(page)
    b = boxes(page)
    assert b["visible"] and b["text"] == LAST_STEP[lang]
    assert 0 <= b["caption"]["top"] - b["stage"]["bottom"] < 24, "right under the stage"
    # The controls a learner uses with the picture come next: the toggles, predict, then the timeline.
    assert b["caption"]["bottom"] <= b["options"]["top"] < b["predict"]["top"] < b["transport"]["top"]
    # A step taken by the reader: the caption and the screen reader's sentence say the same.
    page.focus(f"{FULL} input[name=time]")
    page.keyboard.press("ArrowLeft")
    page.wait_for_function(f"t => document.querySelector('{FULL} [data-caption]').textContent !== t",
                           arg=LAST_STEP[lang])
    live = page.evaluate(f"document.querySelector('{FULL} [data-role=narration]').textContent")
    caption = boxes(page)["text"]
    assert live and caption.endswith(live) and caption != live
    # While a pulse travels, the caption and the counter name its step, the one whose card is lit
    # (a learner read the last step's sentence under the next card's glow); the card's number waits
    # for the pulse to land, and so does the caption's "a.grad = 3 + 3 = 6" (walkthrough 8 read a
    # grad in the caption that the card did not show yet).
    set_range(page, f"{FULL} input[name=time]", 2.3)
    settle(page)
    assert boxes(page)["text"] == LAST_STEP[lang].split(";")[0]
    counter_and_lit_grad = page.evaluate(f"""() => [
        document.querySelector('{FULL} .tdg-time-text').textContent,
        document.querySelector('{FULL} [data-node][data-active] [data-field=grad]').textContent]""")
    assert counter_and_lit_grad == ["3 / 3", "3"]
    if lang == "en":
        # A value changed and let go (or typed and committed): the screen reader's sentence says the
        # landed step again with its new numbers (quiet while a slider is dragged).
        before = page.evaluate(f"document.querySelector('{FULL} [data-role=narration]').textContent")
        set_values(page, {"a": 4})
        live = page.evaluate(f"document.querySelector('{FULL} [data-role=narration]').textContent")
        assert live == "a receives 1 × 4 = 4; a.grad is now 4" != before, (before, live)


# Where the prediction fields and Check are in their panel (a scroll moves them all alike).
PLACED = f"""() => {{ const panel = document.querySelector('{FULL} .tdg-predict').getBoundingClientRect();
    return [...document.querySelectorAll('{FULL} .tdg-predict :is(input, [data-action=check])')]
        .map(e => e.getBoundingClientRect()).map(r => [r.x - panel.x, r.y - panel.y]); }}"""


def test_on_a_phone_the_caption_keeps_to_two_lines_below_the_graph(browser, site_server):
    """At every step of a dead ReLU's backward pass, the longest sentences among them (the ReLU's says
    why the path dies there)."""
    page = open_lesson(browser, site_server, viewport=PHONE,
                       hash="#tinydag-1?expr=relu(w%20*%20x%20%2B%20b)&vals=w:0.5,x:2,b:-3&dir=backward&t=0")
    settle(page)
    total = int(page.locator(f"{FULL} input[name=time]").get_attribute("max") or 0)
    seen = at_each_time(page, range(1, total + 1), BOXES)
    assert "the ReLU's input is not positive" in seen[1]["text"], seen[1]["text"]
    for t, b in enumerate(seen, start=1):
        assert b["text"].startswith(f"Step {t} of {total} · ")
        assert b["caption"]["height"] <= 2 * b["lineHeight"] + 1, b["text"]
        assert b["caption"]["top"] >= b["stage"]["bottom"], "never over the graph"
        assert not b["clipped"], f"cut short: {b['text']}"  # walkthrough 18: "…and the path is dead" cut
    # A sum whose whole sentence fits the two lines shows whole (walk 36: "a.grad = … + 4 = 12" where
    # "4 + 4 + 4 = 12" fitted) ...
    page = open_lesson(browser, site_server, viewport=PHONE,
                       hash="#tinydag-1?expr=a%20*%20a%20*%20a&vals=a:2&dir=backward&t=5")
    settle(page)
    whole = boxes(page)
    assert whole["text"].endswith("a.grad = 4 + 4 + 4 = 12") and not whole["clipped"], whole["text"]
    # ... a gradient summed from many terms, the two lines end with what it adds up to, the sum's tail
    # (walkthrough 18: "b.grad = −0,1353 − 0,3333 + 2 =…", the 40-node graph's last step, cut there).
    page = open_lesson(browser, site_server, "ru", viewport=PHONE, has_touch=True, hash=(
        "#tinydag-1?expr=" + quote(FORTY_NODES) + "&dir=backward&t=51"))
    settle(page)
    last = boxes(page)
    assert last["text"].endswith("b.grad = … + 2 = 1,531") and not last["clipped"], last["text"]
    caption = page.locator(f"{FULL} [data-caption]")
    caption.tap()  # the whole sum at a tap (review 51), two lines again once the step changes
    assert boxes(page)["text"].endswith("b.grad = −0,1353 − 0,3333 + 2 = 1,531")
    seek(page, 50)
    assert not boxes(page)["clipped"] and caption.get_attribute("data-open") is None
    # Anything longer (an error's message with the dimmed graph's words) shows whole at a tap.
    type_expression(page, "a ** b")
    page.wait_for_function(f"document.querySelector('{FULL} [data-caption]').textContent.includes('Бледным')")
    assert boxes(page)["clipped"]
    caption.tap()
    opened = boxes(page)
    assert not opened["clipped"] and opened["caption"]["height"] > 2 * opened["lineHeight"], opened["text"]
    assert page.errors == []
    # A desktop's caption has the room: the whole sum.
    page = open_lesson(browser, site_server, viewport=DESKTOP, hash=(
        "#tinydag-1?expr=" + quote(FORTY_NODES) + "&dir=backward&t=51"))
    settle(page)
    assert boxes(page)["text"].endswith("b.grad = −0.1353 − 0.3333 + 2 = 1.531")





def on_one_screen(page, words: str) -> None:
    """The whole stage under the site's header and the step's words under it, in the window."""
    b = boxes(page)
    assert b["text"].startswith(words), b["text"]
    assert b["stage"]["top"] >= b["header"] - 1, b
    assert b["caption"]["bottom"] <= page.viewport_size["height"], b


def test_a_phone_turned_to_landscape_shows_the_graph_and_its_words_together(browser, site_server):
    """Walkthroughs 24, 25: a phone turned to landscape (844x390) drew the graph 326 px tall from under
    the header, and the step's words started at y = 389, just under the window. A short window's stage
    leaves room for them: Backward plays with the whole stage and the words on one screen."""
    page = open_lesson(browser, site_server, "ru", viewport=PHONE, has_touch=True, is_mobile=True, hash=FULL)
    settle(page)
    page.set_viewport_size(LANDSCAPE)  # turned
    settle(page)
    page.click(f"{FULL} [data-action=backward]")
    page.evaluate(SETTLED)
    seek(page, 1.5)
    on_one_screen(page, "Шаг 2 из 5 · (a + b) получает")
    assert page.errors == []


def test_enter_after_a_typed_expression_brings_its_graph_and_words_into_view(browser, site_server):
    """Walkthrough 26: on a phone, the 40-node expression typed, its graph played with the step's words
    at y = 874 of 844. Enter says the typing is done: the graph and its words come into view; after an
    expression with an error, the field and its message stay."""
    page = open_lesson(browser, site_server, "et", viewport=PHONE, has_touch=True, is_mobile=True)
    page.locator(f"{FULL} input[name=expression]").evaluate("f => f.scrollIntoView({block: 'start'})")
    type_expression(page, FORTY_NODES)
    page.evaluate(SETTLED)
    on_one_screen(page, "")
    field = page.locator(f"{FULL} input[name=expression]")
    field.evaluate("f => f.scrollIntoView({block: 'center'})")
    before = field.bounding_box()["y"]
    type_expression(page, "a * (b +")
    page.evaluate(SETTLED)
    assert field.bounding_box()["y"] == before  # nothing moved
    error = page.locator(f"{FULL} .tdg-error").bounding_box()
    assert error and error["y"] + error["height"] <= PHONE["height"], error
    assert page.errors == []


# Empty room under the last slider row: the room held for the sliders of a longer expression.
EMPTY_UNDER_SLIDERS = f"""() => {{ const list = document.querySelector('{FULL} .tdg-var')?.parentElement;
    const rows = [...list.children].map(r => r.getBoundingClientRect().bottom);
    return list.getBoundingClientRect().bottom - Math.max(...rows); }}"""


def test_enter_gives_back_the_room_held_for_sliders_while_typing(browser, site_server):
    """Walkthrough 29: a longer expression's sliders kept their room while the learner typed a shorter
    one (so that the graph stays put under the typing), and after Enter a band of 200 px stayed over the
    graph for as long as the field had the focus. Enter says the expression is whole: the room goes,
    the field keeps the focus, and the graph and its words are on one screen."""
    page = open_lesson(browser, site_server, viewport=DESKTOP)
    field = page.locator(f"{FULL} input[name=expression]")
    field.evaluate("f => f.scrollIntoView({block: 'start'})")
    field.fill("a*b + c*d + e*f + g*h")  # eight sliders
    settle(page)
    field.fill("(a + b) * c")  # three, in the room of eight
    settle(page)
    assert page.evaluate(EMPTY_UNDER_SLIDERS) > 50  # two rows of sliders
    field.press("Enter")
    page.evaluate(SETTLED)
    assert page.evaluate(EMPTY_UNDER_SLIDERS) < 2
    assert page.evaluate("document.activeElement.name") == "expression"
    on_one_screen(page, "")
    assert page.errors == []


# The exercise open (its letter, from the words' first line) and the control it asks for, each whole under
# the header: (a) Check, (b) a slider, (c) Play, (d) Nudge.
EXERCISE_IN_VIEW = f"""() => {{
    const header = document.querySelector('.md-header').getBoundingClientRect().bottom;
    const seen = (el) => {{ const r = el?.getBoundingClientRect();
        return !!r && r.height > 0 && r.top >= header - 1 && r.bottom <= innerHeight + 1; }};
    const task = document.querySelector('{FULL} .tdg-task');
    if (!task) return {{task: null, control: true}};
    const letter = /\\((.)\\)/.exec(task.textContent)[1];
    const control = {{'a': '[data-action=check]', 'b': 'input[name=var-a]', 'c': '[data-action=play]',
                      'd': '[data-action=nudge]'}}[letter];
    return {{task: seen(task.querySelector('.tdg-task-text')) ? letter : 'hidden',
             control: seen(document.querySelector('{FULL} ' + control))}}; }}"""


def test_every_exercise_link_lands_with_the_whole_graph_and_its_words(browser, site_server):
    """Walkthrough 27: on a phone turned to landscape, exercise (a)'s link cut the graph's top 82 px under
    the header and still left Check under the fold, and (b), (c) and the first screen's link landed on the
    expression with 81 px of the graph in view. Where a panel and the graph cannot share the window, the
    whole graph and its words come first. On a desktop the first screen's link, whose words say "press
    Play", lands with Play in view (it was at y = 896 of 800)."""
    links = "a[data-open-in-sandbox]"
    page = open_lesson(browser, site_server, viewport=LANDSCAPE, has_touch=True, is_mobile=True)
    controls = []
    for i in range(page.locator(links).count()):
        page.goto(page.url.split("#")[0])
        sandbox_ready(page)
        page.locator(links).nth(i).click()
        page.evaluate(SETTLED)
        on_one_screen(page, "")  # whatever the step: at t = 0, what Play will do
        controls.append(page.evaluate(EXERCISE_IN_VIEW))
        if i == 2:  # (b), under the expression: the words say what to do, the field holds the expression
            lines, width = page.evaluate(f"""() => {{
                const text = document.querySelector('{FULL} .tdg-task-text');
                const field = document.querySelector('{FULL} input[name=expression]');
                return [text.clientHeight / parseFloat(getComputedStyle(text).lineHeight),
                        field.getBoundingClientRect().width]; }}""")
            # walk 43: two lines, "(б) Мёртвый ReLU. Возьмите пример…", in a 130 px field beside its name
            assert lines >= 3.9 and width >= 200, (lines, width)
    # Walk 42: turned, each exercise's words and the control they name were a screen from the graph
    # ((b) and (c)'s words above it, (a)'s Check and (d)'s Nudge under it, "press Play" with no Play in
    # sight). Now the graph is held beside them: the first screen's link has no exercise's words.
    assert controls == [
        {"task": None, "control": True},
        {"task": "a", "control": True},  # Check
        {"task": "b", "control": True},  # the slider of a
        {"task": "c", "control": True},  # Play
        {"task": "d", "control": True},  # Nudge
    ], controls
    assert page.errors == []
    page = open_lesson(browser, site_server, viewport=DESKTOP)
    page.locator(links).first.click()
    page.evaluate(SETTLED)
    on_one_screen(page, "Backward pass, 5 steps: press Play")
    play = page.locator(f"{FULL} [data-action=play]").bounding_box()
    assert play["y"] + play["height"] <= DESKTOP["height"], play


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE, {"width": 768, "height": 1024}, LANDSCAPE],
                         ids=["desktop", "phone", "tablet", "landscape"])
def test_a_link_to_a_moment_lands_with_the_graph_and_its_words_in_view(browser, site_server, viewport):
    """Walkthroughs 21, 27: a link to a step of a 40-node graph with eight variables landed on the
    sandbox's top, and its eight sliders pushed the graph half under a desktop's and a tablet's fold, the
    step's words with it. In landscape the pannable graph's toolbar came between the graph and its
    words, under the fold (words at 448-489 of 390): it now comes after them."""
    values = "a:0.5,b:1,c:-1,d:2,e:1,f:2,g:1,h:0.5"
    moment, words = f"expr={quote(FORTY_NODES)}&vals={quote(values)}&t=3.2", "Step 4 of 51 · "
    page = open_lesson(browser, site_server, viewport=viewport, hash=f"{FULL}?{moment}&dir=backward")
    page.evaluate(SETTLED)
    on_one_screen(page, words)
    assert page.errors == []


@pytest.mark.parametrize(("lang", "viewport", "words"), [
    ("et", PHONE, "Nügimiskatse · c 0,001 võrra: Δväljund / h = −1"),
    ("ru", DESKTOP, "Проверка сдвигом · c на 0,001: Δвыхода / h = −1"),
], ids=["phone", "desktop"])
def test_a_moment_with_a_nudge_lands_with_the_whole_graph_and_the_row_to_nudge_again(
        browser, site_server, lang, viewport, words):
    """Walkthrough 28: exercise (d)'s moment after its nudge (a reload, a switch of language, a shared
    link) landed on the nudge's long result, with the stage's top at -35 on a phone (card a hidden) and
    at 32 on a desktop. The nudge's changes are on the cards and its words under the graph: the whole
    graph comes with them, and the row to nudge again under it."""
    phone = viewport is PHONE
    page = open_lesson(browser, site_server, lang, viewport=viewport, has_touch=phone, is_mobile=phone)
    href = page.locator("a[data-open-in-sandbox]").nth(4).get_attribute("href")  # (d)
    assert "open=nudge" in href, href
    page.goto(fresh_url(page.url.split("#")[0] + href + "&nudge=c%3A0.001"), wait_until="commit")
    sandbox_ready(page)
    page.wait_for_selector(f"{FULL} [data-node] [data-field=delta]:not([hidden])")
    page.evaluate(SETTLED)
    on_one_screen(page, words)
    # ...and the row to nudge again comes into view under them (its top: on a loaded CI machine content
    # still settling after the landing left its bottom 5 px under a desktop's fold)
    row = page.locator(f"{FULL} .tdg-nudge-row").bounding_box()
    assert row["y"] < viewport["height"], row
    assert page.errors == []


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_predictions_are_typed_and_checked_with_the_graph_in_view(browser, site_server, viewport):
    """Exercise (a) as a reader does it: its link (which unfolds the fields a phone folds), the wheel a notch
    at a time until the last field shows (on a desktop on until half the graph is gone, and a click into a
    field brings it back whole), predictions typed key by key (a wrong one among them), the wheel on until
    the graph is out of view, Enter on a desktop, a tap on Check on a phone. The stage stays in view while
    typing (whole on a desktop, at least half on a phone), Check brings it back (clear of the header on a
    desktop, two thirds of it at least on a phone, with the first wrong answer's words), the verdicts do
    not scroll it away, the backward pass that answers plays in view, and Local derivatives
    stays right under the graph however long the verdicts grow: ticked, the stage and its edge labels are
    in view."""
    phone = viewport is PHONE
    page = open_lesson(browser, site_server, viewport=viewport, has_touch=phone, is_mobile=phone)
    page.locator(EXERCISE_A).click()
    # The link scrolls (smoothly) to the sandbox; the links' test says where exactly.
    page.wait_for_function(f"location.hash.startsWith('{FULL}?')")
    page.evaluate(SETTLED)
    if phone:
        # A phone folds the fields under their title (the graph and the buttons that play it share the
        # screen), but (a)'s link unfolds them, the exercise asks for them: graph and fields in view.
        assert page.locator(f"{FULL} .tdg-predict-toggle").get_attribute("aria-expanded") == "true"
        check = page.locator(f"{FULL} .tdg-predict [data-action=check]")
        box, b = check.bounding_box(), boxes(page)
        assert b["stage"]["top"] >= b["header"] - 1 and box["y"] + box["height"] <= viewport["height"], b
        # ... and nothing lies over Check (the transport keeps to the window's bottom only under a graph
        # too big for its frame).
        assert check.evaluate("el => { const r = el.getBoundingClientRect(); return"
                              " document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2) === el; }")
    last = page.locator(f"{FULL} input[name=predict-c]")
    while (box := last.bounding_box())["y"] + box["height"] > viewport["height"]:
        y = page.evaluate("scrollY")
        page.mouse.wheel(0, 100)
        page.wait_for_function("y => scrollY !== y", arg=y)
    page.evaluate(SETTLED)  # the wheel's own smooth scroll has ended
    need = 0.5 if phone else 1.0

    def stage_in_view() -> float:
        b = boxes(page)
        seen = min(b["stage"]["bottom"], viewport["height"]) - max(b["stage"]["top"], b["header"])
        return seen / b["stage"]["height"]

    if not phone:
        # A learner who scrolled on, the fields near the top and the graph half gone, clicks into one:
        # the whole graph comes back with it (walkthrough 5 typed with half of it out of view).
        first = page.locator(f"{FULL} input[name=predict-a]")
        while stage_in_view() > 0.5:
            y = page.evaluate("scrollY")
            page.mouse.wheel(0, 100)
            page.wait_for_function("y => scrollY !== y", arg=y)
        page.evaluate(SETTLED)
        assert first.bounding_box()["y"] > boxes(page)["header"], "the field is still in view"
    for name, value in (("a", "1"), ("b", "-2"), ("c", "5")):
        field = page.locator(f"{FULL} input[name=predict-{name}]")
        field.tap() if phone else field.click()
        page.evaluate(SETTLED)
        page.keyboard.type(value)
        page.evaluate(SETTLED)
        assert stage_in_view() >= need - 0.01, name
    # On a phone, scrolled on a little further, to the Check button, until the graph is no longer in
    # view; on a desktop back up a little: the graph and the fields in view, the verdicts to come
    # under the fold.
    while phone and stage_in_view() >= need:
        y = page.evaluate("scrollY")
        page.mouse.wheel(0, 100)
        page.wait_for_function("y => scrollY !== y", arg=y)
    for _ in range(0 if phone else 2):
        y = page.evaluate("scrollY")
        page.mouse.wheel(0, -100)
        page.wait_for_function("y => scrollY !== y", arg=y)
    if not phone:
        page.evaluate(SETTLED)
        panel = page.locator(f"{FULL} .tdg-predict").bounding_box()
        assert stage_in_view() >= 0.99 and panel["y"] + panel["height"] <= viewport["height"], panel
    placed = page.evaluate(PLACED)
    if phone:
        page.locator(f"{FULL} .tdg-predict [data-action=check]").tap()
    else:
        page.keyboard.press("Enter")
    page.evaluate(SETTLED)  # a smooth scroll, if any, has finished
    assert page.evaluate(f"window.tinydagPlayer.sandboxes['{FULL[1:]}'].moment()")["playing"]
    assert stage_in_view() >= need - 0.01, "the answer plays in view"
    verdicts = page.locator(f"{FULL} .tdg-predict input").evaluate_all(
        "els => els.map(e => e.dataset.verdict)")
    assert verdicts == ["wrong", "right", "right"], verdicts  # a.grad is −2, not 1
    # The verdicts move no field and not Check (walkthrough 12: a "Right" beside a pushed b on, and Check
    # went to a third row; walkthrough 13: the outcome above them moved them all): a ✓ inside a right
    # field; under the fields and Check the outcome, then the explanations (walkthrough 8 had "2 of 3
    # right" under the fold: it heads the verdicts, in view with the fields).
    assert page.evaluate(PLACED) == placed
    # The whole graph plays the answer (walkthrough 22: a third of it under the header hid the wrong
    # leaf's card as its gradient came); then, the pass ended, the wrong answer's worked chain is
    # brought into view (walkthrough 21: on a phone it stayed under the fold after Check).
    assert stage_in_view() >= 0.99, boxes(page)
    if not phone:  # ...with Pause and the timeline under the fields (walkthrough 25: the outcome's line
        # pushed them under the fold, 15 px of Pause in view for the whole pass)
        transport = page.locator(f"{FULL} .tdg-transport").bounding_box()
        assert transport["y"] + transport["height"] <= viewport["height"], transport
    page.wait_for_function(ALL_SHOWN, arg=f"{FULL} .tdg-predict", timeout=60_000)
    page.evaluate(SETTLED)
    assert page.evaluate(PLACED) == placed
    wrong = page.locator(f"{FULL} .tdg-predict .tdg-predict-message[data-kind=wrong]").bounding_box()
    outcome = page.locator(f"{FULL} .tdg-predict-summary").bounding_box()
    last = page.locator(f"{FULL} .tdg-predict-field").last.bounding_box()
    check = page.locator(f"{FULL} .tdg-predict [data-action=check]").bounding_box()
    assert max(last["y"] + last["height"], check["y"] + check["height"]) <= outcome["y"], (last, outcome)
    assert outcome["y"] + outcome["height"] <= wrong["y"], (outcome, wrong)
    # (scrolled to whole pixels: its bottom may be a fraction past the window's)
    assert wrong["y"] + wrong["height"] <= viewport["height"] + 1, (wrong, boxes(page))
    assert stage_in_view() >= (0.5 if phone else 0.99), boxes(page)
    if not phone:
        # The verdicts and the wrong answer's worked chain are in view with the whole graph.
        panel = page.locator(f"{FULL} .tdg-predict").bounding_box()
        assert panel["y"] + panel["height"] <= viewport["height"], panel
    # Straight to the end of the answer, where the toggle is judged.
    pause(page)
    seek(page, page.evaluate(f"window.tinydagPlayer.sandboxes['{FULL[1:]}'].moment()")["duration"])
    # the marks, once the gradients they judge have come (test_each_verdict_waits_for_the_gradient_it_judges)
    ticks = page.locator(f"{FULL} .tdg-predict-field").evaluate_all(
        "els => els.map(e => getComputedStyle(e, '::after').content)")
    assert "\u2717" in ticks[0] and all("\u2713" in tick for tick in ticks[1:]), ticks  # ✗ ✓ ✓
    # The toggles stay right under the graph, however long the verdicts under them grow.
    toggle = page.locator(f"{FULL} input[name=local-derivatives]")
    toggle.scroll_into_view_if_needed()
    # How a local derivative looks: its outline, and shaded or not.
    look = ("el => { const s = getComputedStyle(el); "
            "return s.outlineStyle + (s.backgroundColor === 'rgba(0, 0, 0, 0)' ? ' plain' : ' shaded'); }")
    marks = f"""() => [...document.querySelectorAll('{FULL} .tdg-edge-label:not([hidden]) .tdg-edge-local')]
        .map(el => [el.textContent, ({look})(el)])"""
    legend = f"({look})(document.querySelector('{FULL} .tdg-legend .tdg-edge-local'))"
    assert {mark for _, mark in page.evaluate(marks)} == {"none plain"}
    assert page.evaluate(legend) == "none plain"
    toggle.tap() if phone else toggle.click()
    assert toggle.is_checked()
    # Its change is on the edges: every hand-off's label has its local factor shaded and framed, as the
    # legend's "local derivative" is (never dashed: in the legend, dashes mean a dead path), and every
    # label is inside the window.
    marked = page.evaluate(marks)
    assert len(marked) >= 3 and {mark for _, mark in marked} == {"solid shaded"}, marked
    assert all(num(text.strip("()")) in (1, -2, 5, -1, 2) for text, _ in marked), marked
    assert page.evaluate(legend) == "solid shaded"
    labels = page.evaluate(f"""() => [...document.querySelectorAll('{FULL} .tdg-edge-label')]
        .filter(el => el.checkVisibility()).map(el => el.getBoundingClientRect())
        .map(r => r.top >= 0 && r.bottom <= innerHeight)""")
    assert len(labels) == 4 and all(labels), labels
    assert stage_in_view() >= need - 0.01, "the toggle's change shows in view"
    if not phone:
        # Three wrong answers: the verdicts are taller than the window holds with the graph; the graph
        # comes with the first wrong answer's explanation, at least.
        page.locator(f"{FULL} input[name=predict-c]").focus()
        page.evaluate(f"""() => {{ for (const n of ['a', 'b', 'c'])
            document.querySelector('{FULL} input[name=predict-' + n + ']').value = '7';
            const stage = document.querySelector('{FULL} .tdg-stage').getBoundingClientRect();
            window.scrollBy(0, stage.top - 300); }}""")
        page.evaluate(SETTLED)
        page.keyboard.press("Enter")
        page.wait_for_function(ALL_SHOWN, arg=f"{FULL} .tdg-predict", timeout=60_000)
        page.evaluate(SETTLED)
        first = page.locator(f"{FULL} .tdg-predict .tdg-predict-message").first.bounding_box()
        panel = page.locator(f"{FULL} .tdg-predict").bounding_box()
        assert panel["y"] + panel["height"] > viewport["height"], "the verdicts outgrow the window"
        assert stage_in_view() >= 0.99 and first["y"] + first["height"] <= viewport["height"] + 1, first
    assert page.errors == []


# Every verdict shown: the pass has brought every leaf's gradient (answers.ts reachAnswers), and the
# first wrong answer's words come into view. Waited for up to a minute: on a busy machine frames come
# slowly and the pulse, which moves at most 0.1 s a frame, with them.
ALL_SHOWN = "sel => !document.querySelector(sel + ' [data-pending]')"


def test_the_first_moving_picture_starts_on_the_first_screen(browser, site_server):
    """Right after the opening paragraph: on the first screen at 1280x800, within two on a phone; its
    Backward pressed there shows the graph with the line that says each step."""
    for lang, prefix in (("en", ""), ("ru", "ru/"), ("et", "et/")):
        for viewport, screens in ((DESKTOP, 1), (PHONE, 2)):
            page = reused_page(browser, viewport)
            page.goto(fresh_url(f"{site_server}{prefix}02-autograd/"))
            top = page.evaluate("document.querySelector('[data-sandbox-compact]')"
                                ".getBoundingClientRect().top")
            assert top + 120 < screens * viewport["height"], (lang, viewport, top)  # its graph shows
            if lang == "en" and viewport is DESKTOP:
                pressed_on_the_first_screen_the_graph_and_its_words_show_together(page)


def pressed_on_the_first_screen_the_graph_and_its_words_show_together(page) -> None:
    """The invitation's Backward, pressed where the page opened (the line under the graph is just below
    the fold at 1280x800): the page moves so the whole graph and the line show while the pulse plays."""
    compact = "[data-sandbox-compact]"
    page.wait_for_function(f"document.querySelector('{compact}').dataset.player === 'ready'")
    assert page.evaluate("scrollY") == 0
    page.locator(f"{compact} .tdg-stage-start").click()
    page.evaluate(SETTLED)
    seen = page.evaluate(f"""() => {{ const root = document.querySelector('{compact}');
        const stage = root.querySelector('.tdg-stage').getBoundingClientRect();
        const caption = root.querySelector('[data-caption]');
        return {{top: stage.top, header: document.querySelector('.md-header').getBoundingClientRect().bottom,
                 bottom: caption.getBoundingClientRect().bottom, text: caption.textContent}}; }}""")
    assert seen["top"] >= seen["header"] and seen["bottom"] <= DESKTOP["height"], seen
    assert seen["text"].startswith("Step "), seen
