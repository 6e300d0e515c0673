"""The lesson's code listing renders with the page, and Material treats it as a listing: one that
scrolls sideways has its tabindex (keyboard readers scroll it), and every line is there at Material's
line height. At 1280 px it does not scroll sideways at all (its comments are short), nor does the
folded rest of the class, and a derived operation's method runs in that fold.
"""

from __future__ import annotations

import pytest

from .browser_helpers import DESKTOP, LESSON, PHONE, SHIFTS, lesson_page, seek, settle, type_expression

CODE = ".language-python.highlight pre > code"
NARROW = {"width": 600, "height": 800}  # a desktop window with a mouse, too narrow for 80 characters
pytestmark = pytest.mark.browser
STATE = f"""() => {{ const c = document.querySelector('{CODE}');
    // The listing's own box first: a read inside it would lay its lines out.
    const tab = c.getAttribute('tabindex'), scrolls = c.scrollWidth > c.clientWidth;
    const style = getComputedStyle(c);
    const lines = c.querySelectorAll('span[id^="__span-"]');
    return {{ tab, scrolls, lines: lines.length, height: c.getBoundingClientRect().height,
             lastHeight: lines[lines.length - 1].getBoundingClientRect().height,
             lineHeight: parseFloat(style.lineHeight), skipped: style.contentVisibility,
             padding: parseFloat(style.paddingTop) + parseFloat(style.paddingBottom) }}; }}"""


WIDTH = """selector => { const c = document.querySelector(selector);
    return {scroll: c.scrollWidth, client: c.clientWidth, first: c.textContent.split('\\n')[0],
            height: c.getBoundingClientRect().height}; }"""


def near_listing(page) -> None:
    """Scroll to a screen above the listing, then onto it, the way a reader arrives."""
    page.evaluate(f"window.scrollBy(0, document.querySelector('{CODE}').getBoundingClientRect().top"
                  " - 1.5 * innerHeight)")
    page.wait_for_timeout(300)
    page.evaluate(f"document.querySelector('{CODE}').scrollIntoView()")
    page.wait_for_function(f"document.querySelector('{CODE}').getBoundingClientRect().height > 0")
    page.wait_for_timeout(300)


FOLD_TITLE = {"en": "The rest of the class", "ru": "Остальная часть класса", "et": "Klassi ülejäänud osa"}


FIRST_COMMENT = {"en": "a number that remembers how it was computed",
                 "ru": "число, которое помнит, как его вычислили",
                 "et": "arv, mis mäletab, kuidas see arvutati"}
REST_COMMENT = {"en": "Derived operations", "ru": "Составные операции", "et": "Tuletatud tehted"}


def test_the_listing_lays_out_every_line_and_scrolls_sideways_only_where_it_must(browser, site_server):
    """One page per window size, each language loaded in turn: at 1280 px every line is laid out at
    Material's line height, nothing scrolls sideways (so no tabindex either) and the folded rest of the
    class, opened, does not scroll either; in a narrow window with a mouse the longest lines overflow and
    Material gave the listing its tabindex (keyboard readers scroll it)."""
    for viewport, langs in ((DESKTOP, ("en", "ru", "et")), (NARROW, ("en",))):
        page = browser.new_context(viewport=viewport).new_page()
        for lang in langs:
            page.goto(site_server + LESSON[lang], wait_until="load")
            near_listing(page)
            near = page.evaluate(STATE)
            assert near["skipped"] == "visible", "rendered with the page"
            if viewport is DESKTOP:  # short lines: nothing to scroll, so no tabindex either
                assert not near["scrolls"] and near["tab"] is None, f"{lang}: sideways scrolling at 1280 px"
            else:  # a narrow window with a mouse: the longest lines overflow, and Material gave a tabindex
                assert near["scrolls"] and near["tab"] == "0", f"{lang}: no tabindex"
                continue
            assert near["lines"] >= 20 and near["lastHeight"] > 0
            exact = near["lines"] * near["lineHeight"] + near["padding"]
            assert abs(near["height"] - exact) < 2, "every line laid out, at Material's line height"
            shown = page.evaluate(WIDTH, CODE)
            assert shown["first"] == "class Value:  # " + FIRST_COMMENT[lang]  # in the page's words
            fold = page.locator("details", has_text="def __rtruediv__")
            title = fold.locator("summary").inner_text().strip()
            assert title == FOLD_TITLE[lang] and fold.get_attribute("open") is None
            fold.locator("summary").click()
            page.evaluate(f"document.querySelector('details {CODE}').scrollIntoView()")
            page.wait_for_timeout(300)
            rest = page.evaluate(WIDTH, f"details {CODE}")
            assert rest["first"].startswith("    # " + REST_COMMENT[lang]) and rest["height"] > 0
            for listing in (shown, rest):
                assert listing["scroll"] <= listing["client"], (lang, listing)
        page.context.close()


@pytest.mark.alone  # layout shifts while a reader scrolls: timing
def test_on_a_phone_the_listing_renders_whole_with_no_shift_in_view(browser, site_server):
    page = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    page.goto(site_server + LESSON["en"], wait_until="load")
    page.evaluate(SHIFTS)
    top = page.evaluate(f"document.querySelector('{CODE}').getBoundingClientRect().top")
    for _ in range(int(top / (PHONE["height"] * 0.5)) + 4):  # a reader's half screens, past the listing
        page.mouse.wheel(0, PHONE["height"] * 0.5)
        page.wait_for_timeout(120)
    state = page.evaluate(STATE)
    assert state["scrolls"] and state["tab"] is None  # no hover on a phone: Material gives no tabindex
    assert abs(state["height"] - (state["lines"] * state["lineHeight"] + state["padding"])) < 2
    assert sum(page.evaluate("window.__shifts")) < 0.01
    page.context.close()


def test_a_derived_operation_runs_in_the_folded_rest_of_the_class(browser, site_server):
    page = lesson_page(browser, site_server, "et")
    type_expression(page, "a - b")
    page.click("#tinydag-1 [data-action=forward]")
    seek(page, 0.5)
    settle(page)
    state = page.evaluate("""() => {
        const [shown, rest] = [...document.querySelectorAll('.language-python.highlight pre')];
        const lines = rest.querySelector('code').textContent.split('\\n');
        return {shown: shown.getAttribute('data-tinydag-line'), rest: rest.getAttribute('data-tinydag-line'),
                sub: String(lines.findIndex(l => l.includes('self + (-other)')) + 1),
                excerpt: document.querySelector('#tinydag-1 .tdg-excerpt code').textContent,
                strip: document.querySelector('#tinydag-1 .tdg-code-line').textContent}; }""")
    assert state["shown"] is None and state["rest"] == state["sub"], state
    assert state["excerpt"].startswith("def __sub__(self, other):"), state
    assert "return self + (-other)" in state["excerpt"]
    assert state["strip"].startswith("return self + (-other)"), state
    assert page.errors == [], page.errors
