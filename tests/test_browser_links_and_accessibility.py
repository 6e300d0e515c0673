"""Shareable links and a sandbox every reader can use, in a real browser: a copied link reopens the
exact moment and the address follows the reader once they act; hostile URLs are shown as text and a
link's values are validated; the table of nodes, the lesson's listing and print follow the player;
reduced motion means no autoplay and stepped movement; axe finds nothing serious (the dark sandbox,
the whole page); without JavaScript or WebGL the static figure stands, with a note in the page's
language.
"""

from __future__ import annotations

import json
import re
from urllib.parse import quote

import pytest

from .browser_helpers import (
    MINUS,
    ROOT,
    grads,
    lesson_page,
    moment,
    nodes,
    open_lesson,
    open_moment,
    sandbox_ready,
    scroll_to_player,
    seek,
    settle,
    type_expression,
)

SANDBOX = "[data-sandbox]"
pytestmark = pytest.mark.browser
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"


def picture(page) -> tuple:
    """Everything a reader sees of the graph: card texts, edge labels, toggles, the moment."""
    cards = page.evaluate("[...document.querySelectorAll('[data-sandbox] [data-node]')]"
                          ".map(el => el.innerText)")
    labels = page.locator(f"{SANDBOX} .tdg-edge-label:not([hidden])").all_inner_texts()
    m = moment(page)
    return (tuple(cards), tuple(labels), m["direction"], round(m["time"], 6),
            page.is_checked(f"{SANDBOX} input[name=local-derivatives]"),
            page.input_value(f"{SANDBOX} input[name=expression]"))


# ---- shareable moment ---------------------------------------------------------------------------

def test_the_url_reopens_the_exact_moment(lesson, browser, site_server):
    type_expression(lesson, "relu(a * b) + c")
    lesson.locator(f"{SANDBOX} input[name=num-b]").fill("-0.5")
    lesson.click(f"{SANDBOX} [data-action=backward]")
    seek(lesson, 3.25)
    lesson.check(f"{SANDBOX} input[name=local-derivatives]")
    lesson.click(f"{SANDBOX} [data-action=copy-link]")
    lesson.wait_for_function("location.hash.includes('dir=backward') && location.hash.includes('local=1')")
    assert lesson.locator(f"{SANDBOX} .tdg-status").inner_text() != ""
    url = lesson.url
    assert "#tinydag-1?" in url
    seen = picture(lesson)
    page = lesson.context.new_page()  # a second tab opening the shared link
    page.goto(url)
    sandbox_ready(page)
    settle(page)
    assert picture(page) == seen
    assert not moment(page)["playing"], "a shared moment is shown, not played over"
    page.close()
    # The moment moves on: "Link copied" was about the one before, and goes (xwalk 35: it stayed for
    # minutes, over other values an exercise link had set).
    seek(lesson, 2)
    lesson.wait_for_function(f"document.querySelector('{SANDBOX} .tdg-status').textContent === ''")


def test_the_url_follows_the_reader_after_an_interaction(browser, site_server):
    page = open_lesson(browser, site_server)
    scroll_to_player(page)  # the reader only reads: the forward pulse plays by itself, to its end
    page.wait_for_function("window.tinydagPlayer.sandboxes['tinydag-1'].moment().playing")
    page.wait_for_function("!window.tinydagPlayer.sandboxes['tinydag-1'].moment().playing")
    page.wait_for_timeout(500)  # longer than the address's write delay
    assert "#tinydag-1?" not in page.url, "reading alone never rewrites the address"
    page.click(f"{SANDBOX} [data-action=backward]")  # the backward pass plays
    # While it plays, the address keeps up with it (walkthrough 18: it kept the pulse's first moment,
    # so a reload mid-pulse reopened at step 1): a reload reopens where the address says, and the pulse
    # plays on from there (walkthrough 19).
    page.wait_for_function("""() => /[?&]t=(0\\.[5-9]|[1-9])/.test(location.hash)
        && location.hash.includes('dir=backward') && location.hash.includes('play=1')
        && window.tinydagPlayer.sandboxes['tinydag-1'].moment().playing""")
    written = float(re.search(r"[?&]t=([0-9.]+)", page.url).group(1))
    page.reload()
    sandbox_ready(page)
    reopened = moment(page)
    assert reopened["direction"] == "backward" and reopened["playing"], reopened
    assert written - 1e-3 <= reopened["time"] < written + 2.5, (written, reopened)  # a slow wake
    page.wait_for_function("!window.tinydagPlayer.sandboxes['tinydag-1'].moment().playing")
    page.wait_for_function("!location.hash.includes('play=1')")  # the address of the pulse's end
    seek(page, 2)
    page.wait_for_function("location.hash.includes('t=2')")
    assert "expr=" in page.url
    assert page.errors == []


HOSTILE = [
    "<img src=x onerror=window.__pwned=1>",
    "\"><script>window.__pwned=1</script>",
    "javascript:window.__pwned=1",
    "a</script><svg onload=window.__pwned=1>",
]


def hostile_hash(payload: str) -> str:
    return (f"#tinydag-1?expr={quote(payload)}&vals=a:1e999,b:{quote('<b>')},c:3&dir={quote('<i>')}"
            f"&t={quote('1;alert(1)')}")


def test_hostile_urls_are_shown_as_text_and_url_values_are_validated(browser, site_server):
    """The first payload arrives with the page load, the others as the reader's hash changes; then a
    link's values are validated (url_values_are_validated)."""
    page = lesson_page(browser, site_server, hash=hostile_hash(HOSTILE[0]))
    for i, payload in enumerate(HOSTILE):
        if i:
            page.evaluate("h => { location.hash = h; }", hostile_hash(payload))
            page.wait_for_function("p => document.querySelector('[data-sandbox] input[name=expression]')"
                                   ".value === p", arg=payload)
        settle(page)
        assert page.input_value(f"{SANDBOX} input[name=expression]") == payload
        assert page.evaluate("window.__pwned") is None
        assert page.locator(f"{SANDBOX} .tdg-player img, {SANDBOX} .tdg-player script, "
                            f"{SANDBOX} .tdg-player svg").count() == 0
        error = page.locator(f"{SANDBOX} .tdg-error")
        assert error.is_visible(), "the parser rejects it with a message"
        mirror = page.locator(f"{SANDBOX} .tdg-expr-mirror")
        assert "<" not in mirror.evaluate("el => el.innerHTML.replace(/<\\/?mark[^>]*>/g, '')")
        assert len(nodes(page)) == 5, "the embedded graph stays"
        assert page.errors == []


    url_values_are_validated(page)


def url_values_are_validated(page) -> None:
    """(In the page of test_hostile_urls_are_shown_as_text_and_url_values_are_validated, the moment opened
    by a hash change; the rules themselves: node, player-logic.test.ts, "URL: a moment round-trips;
    hostile input is dropped".)"""
    hash = "#tinydag-1?expr=a%20*%20b&vals=a:3,b:NaN,zz:4,b:-2&dir=backward&t=99&final=1"
    page.evaluate("h => { location.hash = h; }", hash)
    page.wait_for_function("document.querySelector('[data-sandbox] input[name=expression]').value"
                           " === 'a * b'")
    settle(page)
    assert page.input_value(f"{SANDBOX} input[name=num-a]") == "3"
    assert page.input_value(f"{SANDBOX} input[name=num-b]") == "\u22122"
    assert grads(page) == {"a": f"{MINUS}2", "b": "3", "a × b": "1"}
    assert moment(page)["time"] == moment(page)["duration"]


# ---- accessibility ------------------------------------------------------------------------------

# Keys step the pulse and each step is narrated, in each language: test_browser_words.py,
# test_the_sandbox_speaks_the_pages_language (the stepping itself: node, player-logic.test.ts).


def test_a_control_the_keyboard_reaches_stops_clear_of_the_header(lesson):
    """Walkthrough 16: Shift+Tab onto a's slider, which lay under Material's fixed header, left it there
    (the browser counts it in view), and the arrow keys then changed a out of sight."""
    lesson.focus(f"{SANDBOX} input[name=num-a]")
    lesson.evaluate(f"scrollBy(0, document.querySelector('{SANDBOX} input[name=var-a]')"
                    ".getBoundingClientRect().top - 8)")  # under the 48 px header
    lesson.keyboard.press("Shift+Tab")
    at = lesson.evaluate("""() => ({name: document.activeElement.name,
        top: document.activeElement.getBoundingClientRect().top,
        header: document.querySelector('.md-header').getBoundingClientRect().bottom})""")
    assert at["name"] == "var-a" and at["top"] >= at["header"], at


def test_the_table_the_listing_and_print_follow_the_player(lesson):
    """One page: the table of nodes matches the cards, the lesson's listing follows the pulse, print shows
    the static figure; the lesson's own moment opened by the hash between them."""
    the_table_of_nodes_matches_the_cards(lesson)
    open_moment(lesson)
    the_listing_follows_the_pulse(lesson)
    open_moment(lesson)
    print_shows_the_figure_not_the_player(lesson)


def the_table_of_nodes_matches_the_cards(lesson) -> None:
    lesson.click(f"{SANDBOX} [data-action=backward]")
    seek(lesson, 3)
    lesson.click(f"{SANDBOX} .tdg-table summary")
    rows = lesson.evaluate("[...document.querySelectorAll('[data-sandbox] .tdg-table tbody tr')]"
                           ".map(tr => [...tr.cells].map(c => c.textContent))")
    cards = grads(lesson)
    assert {r[0]: r[3] for r in rows} == cards
    assert [r[0] for r in rows] == list(cards)
    headers = lesson.locator(f"{SANDBOX} .tdg-table th[scope=col]").all_inner_texts()
    assert headers[2:] == ["value", "grad"]


def test_reduced_motion_means_no_autoplay_and_stepped_movement(browser, site_server):
    page = lesson_page(browser, site_server, reduced_motion="reduce")
    scroll_to_player(page)
    page.wait_for_timeout(400)
    m = moment(page)
    assert not m["playing"], "no autoplay"
    assert m["time"] == m["duration"], "the finished forward pass is shown instead"
    page.click(f"{SANDBOX} [data-action=backward]")
    times = set()
    for _ in range(9):
        page.wait_for_timeout(150)
        times.add(moment(page)["time"])
    assert all(float(t).is_integer() for t in times), f"stepped, never in between: {times}"
    assert len(times) >= 2, "it still moves when asked to play"


def axe_violations(page, context: str = "document") -> list:
    # Colours are judged as they end up: wait for fades (Material's back-to-top button) to finish.
    page.wait_for_function("document.getAnimations().every(a => a.playState !== 'running')")
    page.add_script_tag(path=str(AXE))
    result = page.evaluate(f"axe.run({context}, {{resultTypes: ['violations']}})")
    return [(v["id"], v["impact"], [n["target"] for n in v["nodes"]][:5])
            for v in result["violations"] if v["impact"] in ("serious", "critical")]


def busy_sandbox(page) -> None:
    """Everything the sandbox can show at once: labels, expansions, table, nudge, an error."""
    page.click(f"{SANDBOX} [data-action=backward]")
    seek(page, 3.5)
    page.check(f"{SANDBOX} input[name=local-derivatives]")
    for panel in ("tdg-table", "tdg-nudge"):  # opened, if it is not open yet
        if not page.locator(f"{SANDBOX} details.{panel}").evaluate("d => d.open"):
            page.click(f"{SANDBOX} details.{panel} > summary")
    page.click(f"{SANDBOX} [data-action=nudge]")
    type_expression(page, "a ** b")


def test_axe_finds_no_serious_violation_in_the_dark_sandbox(browser, site_server):
    """Contrast on the slate palette (each language in light: test_the_sandbox_speaks_the_pages_language)."""
    page = lesson_page(browser, site_server, color_scheme="dark")
    scroll_to_player(page)
    busy_sandbox(page)
    serious = axe_violations(page, "{include: ['[data-sandbox]']}")
    assert serious == [], json.dumps(serious, ensure_ascii=False, indent=1)
    # ... and an exercise's strip whose words gave way to the line about another expression (its button,
    # set like a link, was the primary colour: too dark on slate)
    page.locator("a[data-open-in-sandbox]").nth(3).click()
    page.wait_for_selector(f"{SANDBOX} .tdg-task[data-exercise='3']")
    page.fill(f"{SANDBOX} input[name=expression]", "a * a + d")
    page.wait_for_function(f"document.querySelector('{SANDBOX} .tdg-task-stale')?.hidden === false")
    serious = axe_violations(page, f"{{include: ['{SANDBOX} .tdg-task']}}")
    assert serious == [], json.dumps(serious, ensure_ascii=False, indent=1)


def test_axe_finds_no_serious_violation_on_the_whole_page(browser, site_server):
    page = lesson_page(browser, site_server)
    scroll_to_player(page)
    busy_sandbox(page)
    serious = axe_violations(page)
    assert serious == [], json.dumps(serious, ensure_ascii=False, indent=1)


# ---- code in step -------------------------------------------------------------------------------

def the_listing_follows_the_pulse(lesson) -> None:
    listing = lesson.locator("pre", has_text="child.grad += local_grad * v.grad").first
    lines = listing.evaluate("pre => (pre.querySelector('code') || pre).textContent").split("\n")
    backward_line = next(i for i, line in enumerate(lines, 1) if "child.grad += local_grad * v.grad" in line)
    add_line = next(i for i, line in enumerate(lines, 1) if "self.data + other.data" in line)
    mul_line = next(i for i, line in enumerate(lines, 1) if "self.data * other.data" in line)

    lesson.click(f"{SANDBOX} [data-action=forward]")
    seek(lesson, 0.5)
    assert listing.get_attribute("data-tinydag-line") == str(add_line)
    seek(lesson, 1.5)
    assert listing.get_attribute("data-tinydag-line") == str(mul_line)
    lesson.click(f"{SANDBOX} [data-action=backward]")
    seek(lesson, 2.5)
    assert listing.get_attribute("data-tinydag-line") == str(backward_line)
    assert lesson.evaluate("CSS.highlights.has('tinydag-line')")
    highlighted = lesson.evaluate("[...CSS.highlights.get('tinydag-line')][0].toString()")
    assert highlighted.startswith("child.grad += local_grad * v.grad")
    current = lesson.locator(f"{SANDBOX} .tdg-topo-list [aria-current=step]")
    assert current.inner_text() == "(a + b) × c"  # v: the root hands its grad to a + b, then to c
    seek(lesson, 3.5)
    assert current.inner_text() == "a + b"  # then v = a + b, the next node in reverse topological order
    # Those walked (the root, c) are shaded grey, not dashed: dashes mean a dead path (walk 35:
    # dashed chips read as "not yet"); those ahead are not.
    walked = lesson.evaluate(f"""() => [...document.querySelectorAll('{SANDBOX} .tdg-topo-list li')]
        .map(li => [li.textContent, li.dataset.state ?? '', getComputedStyle(li).borderStyle,
                    getComputedStyle(li).backgroundColor !== 'rgba(0, 0, 0, 0)'])""")
    assert [(text, filled) for text, state, _, filled in walked if state != "current"] == [
        ("a", False), ("b", False), ("c", True), ("(a + b) × c", True)], walked
    assert {style for _, _, style, _ in walked} == {"solid"}, walked
    # Beside "Running now", which marks the line, the strip under the order says only what it does here.
    running = lesson.locator(f"{SANDBOX} .tdg-excerpt-line[data-running]")
    assert running.inner_text().strip().startswith("child.grad += local_grad * v.grad")
    line = lesson.locator(f"{SANDBOX} .tdg-code-line").inner_text()
    assert line.replace("\u00a0", " ") == "backward(): v = a + b, child = a"  # a name kept on one line
    # ... right under the excerpt, with the topological order, not under the legend a screen below.
    gap = lesson.evaluate(f"""() => document.querySelector('{SANDBOX} .tdg-codestep')
        .getBoundingClientRect().top
        - document.querySelector('{SANDBOX} .tdg-excerpt').getBoundingClientRect().bottom""")
    assert 0 <= gap < 24, gap
    # At the pass's end every node is walked, the leaves too: backward's loop visits them, each
    # _backward doing nothing (walk 36: a and b stayed unshaded, as if the loop had stopped before them).
    seek(lesson, float(lesson.locator(f"{SANDBOX} input[name=time]").get_attribute("max")))
    states = lesson.evaluate(f"""() => [...document.querySelectorAll('{SANDBOX} .tdg-topo-list li')]
        .map(li => li.dataset.state ?? '')""")
    assert states == ["done"] * 5, states  # a, b, c, a + b, the root


# ---- without JavaScript or WebGL ----------------------------------------------------------------

def test_without_javascript_the_static_figure_shows(browser, site_server):
    page = open_lesson(browser, site_server, java_script_enabled=False)
    figure = page.locator(f"{SANDBOX} .tinydag-figure")
    assert figure.is_visible()
    assert figure.locator("svg").count() == 1
    assert page.locator(f"{SANDBOX} .tdg-player").count() == 0


def test_without_webgl_the_figure_stays_with_a_localized_note(browser, site_server):
    ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    ctx.add_init_script("""(() => { const real = HTMLCanvasElement.prototype.getContext;
        HTMLCanvasElement.prototype.getContext = function (kind, ...rest) {
            return /webgl/.test(kind) ? null : real.call(this, kind, ...rest); }; })()""")
    page = ctx.new_page()
    for lang, words in (("en", "WebGL is unavailable"), ("ru", "WebGL недоступен"), ("et", "WebGL pole")):
        page.goto(site_server + {"en": "", "ru": "ru/", "et": "et/"}[lang] + "02-autograd/")
        sandbox_ready(page)
        page.wait_for_selector(f"{SANDBOX}[data-webgl=unavailable]", state="attached")
        assert page.locator(f"{SANDBOX} .tinydag-figure").is_visible()
        assert page.locator(f"{SANDBOX} .tdg-player").count() == 0
        strings = page.evaluate("JSON.parse(document.querySelector('script.tinydag-data')"
                                ".textContent).strings")
        note = page.locator(f"{SANDBOX} .tinydag-figure__note")
        assert note.is_visible() and note.inner_text() == strings["no_webgl"]
        assert words in note.inner_text()
    ctx.close()


def print_shows_the_figure_not_the_player(lesson) -> None:
    lesson.emulate_media(media="print")
    assert lesson.locator(f"{SANDBOX} .tinydag-figure").is_visible()
    assert lesson.locator(f"{SANDBOX} .tdg-player").is_hidden()
    lesson.emulate_media(media="screen")
    assert lesson.locator(f"{SANDBOX} .tdg-player").is_visible()

