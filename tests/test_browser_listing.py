"""The lesson's long code listing renders only near the viewport (plugins/tinydag_mkdocs/deferred.py),
and Material still treats it as a listing: once it renders, one that scrolls sideways gets its
tabindex (keyboard readers scroll it), every line is there, and the page did no work for it at load.
"""

from __future__ import annotations

import pytest

from .browser_helpers import DESKTOP, LESSON, PHONE, SHIFTS

CODE = ".language-python.highlight pre > code"
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


def near_listing(page) -> None:
    """Scroll to a screen above the listing, then onto it, the way a reader arrives."""
    page.evaluate(f"window.scrollBy(0, document.querySelector('{CODE}').getBoundingClientRect().top"
                  " - 1.5 * innerHeight)")
    page.wait_for_timeout(300)
    page.evaluate(f"document.querySelector('{CODE}').scrollIntoView()")
    page.wait_for_function(f"document.querySelector('{CODE}').getBoundingClientRect().height > 0")
    page.wait_for_timeout(300)


def test_the_listing_waits_at_load_and_gets_its_tabindex_when_it_renders(browser, site_server):
    for lang in ("en", "ru", "et"):
        page = browser.new_context(viewport=DESKTOP).new_page()
        page.goto(site_server + LESSON[lang], wait_until="load")
        page.wait_for_timeout(300)
        at_load = page.evaluate(STATE)
        assert at_load["skipped"] == "auto"
        # Skipped: its box has the estimated size and nothing inside it was laid out, so nothing
        # overflows yet and Material, which asked at DOMContentLoaded, gave it no tabindex.
        assert not at_load["scrolls"] and at_load["tab"] is None, lang
        near_listing(page)
        near = page.evaluate(STATE)
        assert near["scrolls"], "at 1280 px the listing's longest lines overflow sideways"
        assert near["tab"] == "0", f"{lang}: Material looked again once the listing rendered"
        assert near["lines"] >= 20 and near["lastHeight"] > 0
        exact = near["lines"] * near["lineHeight"] + near["padding"]
        assert abs(near["height"] - exact) < 2, "every line laid out, at Material's line height"
        page.context.close()


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
