"""The language switch keeps the sandbox's moment: a learner who changes language mid-exercise finds
the same graph, values, direction and time in the other language, and the predictions they typed."""

from __future__ import annotations

import pytest

from .browser_helpers import PHONE, moment, open_lesson, sandbox_ready, seek, settle, type_expression

pytestmark = pytest.mark.browser

SANDBOX = "#tinydag-1"
STATE = f"""() => ({{
  expression: document.querySelector('{SANDBOX} input[name=expression]').value,
  sliders: Object.fromEntries([...document.querySelectorAll('{SANDBOX} .tdg-var')]
    .map(row => [row.dataset.var, row.querySelector('input[type=range]').value])),
  predictions: [...document.querySelectorAll('{SANDBOX} [data-predict] input')].map(i => i.value),
}})"""


def state(page) -> dict:
    m = moment(page)
    return {**page.evaluate(STATE), "direction": m["direction"], "time": m["time"]}


def switch_language(page, lang: str) -> None:
    """As a reader does it: open the header's language menu, then follow the language's link."""
    page.hover(".md-header .md-select")
    link = page.locator(f".md-header a.md-select__link[hreflang={lang}]")
    link.wait_for(state="visible")
    with page.expect_navigation():
        link.click()
    sandbox_ready(page)
    settle(page)


def test_switching_language_mid_exercise_keeps_the_moment(browser, site_server):
    page = open_lesson(browser, site_server)
    page.locator(SANDBOX).scroll_into_view_if_needed()
    type_expression(page, "relu(a * b)")
    page.click(f"{SANDBOX} [data-action=backward]")
    seek(page, 1)
    page.wait_for_function("location.hash.includes('t=1')")
    page.locator(f"{SANDBOX} input[name=var-a]").press("ArrowRight")
    page.wait_for_function("decodeURIComponent(location.hash).includes('a:2.1')")
    # What the learner predicted so far travels too, each number as the other language reads it.
    page.fill(f"{SANDBOX} input[name=predict-a]", "1,000")  # a thousand, in English
    before = state(page)
    assert before["expression"] == "relu(a * b)" and before["sliders"]["a"] == "2.1"

    switch_language(page, "ru")
    assert "/ru/02-autograd/" in page.url and "#tinydag-1?" in page.url
    assert state(page) == {**before, "predictions": ["1000", ""]}
    page.fill(f"{SANDBOX} input[name=predict-b]", "0,5")

    switch_language(page, "et")  # and on from there, the moment travelling with the reader
    assert "/et/02-autograd/" in page.url
    assert state(page) == {**before, "predictions": ["1000", "0,5"]}
    assert page.errors == []


def test_a_section_anchor_is_not_carried_to_another_language(browser, site_server):
    """Headings have other slugs in other languages: only a sandbox's moment travels."""
    page = open_lesson(browser, site_server, viewport=PHONE, hash="#the-sandbox")
    page.evaluate("document.querySelector('.md-header a.md-select__link[hreflang=ru]')"
                  ".dispatchEvent(new Event('pointerdown', {bubbles: true}))")
    href = page.evaluate("document.querySelector('.md-header a.md-select__link[hreflang=ru]').href")
    assert href.endswith("/ru/02-autograd/"), href


def test_switching_language_keeps_the_exercise_beside_its_control(browser, site_server):
    """The words of the exercise a link opened come along, in the new language, where they were
    (walkthrough 10: they were gone, and the prediction fields below the window)."""
    page = open_lesson(browser, site_server)
    page.locator(f"a[data-open-in-sandbox={SANDBOX[1:]}]").nth(1).click()  # exercise (a)
    page.wait_for_selector(f"{SANDBOX} [data-predict] .tdg-task")
    settle(page)
    page.fill(f"{SANDBOX} input[name=predict-a]", "-2")
    for lang, title in (("ru", "(а) Предскажите градиенты."), ("et", "(a) Ennusta gradiendid.")):
        switch_language(page, lang)
        assert "task=1" in page.url and "open=predict" in page.url, page.url
        page.wait_for_selector(f"{SANDBOX} [data-predict] .tdg-task")  # in the panel, as it was
        assert page.locator(f"{SANDBOX} .tdg-task-text strong").first.inner_text() == title
        assert page.locator(f"{SANDBOX} input[name=predict-a]").input_value() == "-2"
        # Landed as the exercise's link lands: the graph, and the fields under it, in view.
        page.wait_for_timeout(1600)  # a smooth scroll
        stage = page.locator(f"{SANDBOX} .tdg-stage").bounding_box()
        field = page.locator(f"{SANDBOX} input[name=predict-a]").bounding_box()
        assert stage["y"] + stage["height"] / 2 > 0 and field["y"] + field["height"] <= 800, (stage, field)
    # Closed, the words stay behind: the next language shows none.
    page.click(f"{SANDBOX} .tdg-task-close")
    switch_language(page, "en")
    assert "task=" not in page.url
    assert page.locator(f"{SANDBOX} .tdg-task").count() == 0
    assert page.errors == []
