"""Language in the browser: a clean page load in every language, and search in the reader's language
(Estonian case endings included), each language's queries in one page. The player's words and numbers
in each language: test_browser_words.py (test_the_sandbox_speaks_the_pages_language)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.browser_helpers import LESSON, sandbox_ready
from tests.conftest import SITE_URL

SANDBOX = "#tinydag-1"
HOME = {"en": "", "ru": "ru/", "et": "et/"}
pytestmark = pytest.mark.browser


def published(page, base: str) -> None:
    """Requests to the site's public address (hreflang, canonical) go to the local copy, as on Pages."""
    def local(route) -> None:
        route.fulfill(response=route.fetch(url=route.request.url.replace(SITE_URL, base)))

    page.context.route(f"{SITE_URL}**", local)


def search(page, query: str) -> list[str]:
    """The result links Material's search lists for `query` on this page."""
    box = page.locator("input.md-search__input")
    box.click()
    if box.input_value():  # the last query's results go first
        box.fill("")
        box.press("Backspace")
        page.wait_for_function("!document.querySelector('.md-search-result__item')")
    box.press_sequentially(query, delay=30)  # key by key; Cyrillic and "õ" arrive as text, with no keyup
    try:
        page.wait_for_function("document.querySelectorAll('.md-search-result__item').length", timeout=8000)
    except PlaywrightTimeout:
        return []
    page.wait_for_timeout(300)  # the last keystroke's results
    return page.eval_on_selector_all(".md-search-result__item > a", "links => links.map(a => a.href)")


# Each language's words, and the code words its prose mixes in (Latin words on a Russian page).
QUERIES = {"en": ["gradient", "derivative", "backward"],
           "ru": ["градиент", "производная", "backward", "ReLU"],
           "et": ["gradient", "tuletis", "relu"]}
INFLECTED = ["gradientidega", "ahelreeglit", "liivakastis", "tuletistega", "sõlmedele"]  # Estonian


@pytest.mark.parametrize("lang", QUERIES)
def test_pages_load_cleanly_and_search_lists_pages_of_the_readers_language_only(browser, site_server, lang):
    """The home page and the lesson load without a 404 or a console message; then, in the lesson, search
    lists pages of the reader's language only (in Estonian, inflected words find the lesson too)."""
    ctx = browser.new_context()
    page = ctx.new_page()
    published(page, site_server)
    failed: list[str] = []
    console: list[str] = []
    page.on("response", lambda r: r.status >= 400 and failed.append(f"{r.status} {r.url}"))
    page.on("requestfailed", lambda r: failed.append(f"failed {r.url}"))
    page.on("console", lambda m: m.type in ("error", "warning") and console.append(f"{m.type}: {m.text}"))
    page.on("pageerror", lambda e: console.append(f"pageerror: {e}"))
    try:
        for path in (HOME[lang], LESSON[lang]):
            page.goto(f"{site_server}{path}", wait_until="load")
            page.wait_for_load_state("networkidle")  # after load Material fetches sitemaps, the index
        assert failed == [] and console == [], failed + console
        sandbox_ready(page)  # the lesson's players woke (search runs over a live page)
        for query in QUERIES[lang]:
            results = search(page, query)
            assert results, f"{lang}: no results for {query!r}"
            root = f"{site_server}{HOME[lang]}"
            for href in results:
                assert href.startswith(root), (lang, href)
                rest = href.removeprefix(site_server)
                assert lang != "en" or not re.match(r"(ru|et)/", rest), (lang, href)
            assert any("02-autograd/" in href for href in results), results
        for query in INFLECTED if lang == "et" else ():
            results = search(page, query)
            assert any(href.startswith(f"{site_server}et/02-autograd/") for href in results), (query, results)
        assert failed == [] and console == [], failed + console
    finally:
        ctx.close()
