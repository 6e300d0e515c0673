"""The folded "The same in PyTorch / JAX" panel under the lesson's sandbox, in a real browser.

The scripts themselves are proven in tests/test_frameworks.py (real JAX, the TypeScript mirror); here:
the page has them before any JavaScript runs, each language's words once, the panel following the
sandbox as a learner types key by key (an unfinished expression says why instead of code), drags a
slider, picks a preset and shares a link, and the copy button copying the script as it reads now.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
import yaml

from tinydag import build_timeline
from tinydag.frameworks import scripts
from tinydag_mkdocs.site.typography import typeset_text

from .browser_helpers import DESKTOP, LESSON, lesson_page, open_lesson, paused_in_view, set_range, settle

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[1]
PANEL = "[data-sandbox] + [data-frameworks]"  # right after the sandbox, outside its box
PYTORCH = f"{PANEL} [data-framework=pytorch]"
JAX = f"{PANEL} [data-framework=jax]"
DEFAULT = build_timeline("(a + b) * c", {"a": 2, "b": -3, "c": 10})


def strings(lang: str) -> dict[str, str]:
    table = yaml.safe_load((ROOT / f"src/player/strings/{lang}.yml").read_text(encoding="utf-8"))
    return {key: typeset_text(text, lang) for key, text in table.items()}  # as the build binds them


def code(page, selector: str) -> str:
    return page.locator(selector).text_content() or ""


def open_panel(page) -> None:
    page.locator(f"{PANEL} > summary").click()


def test_every_language_has_the_panel_before_javascript(browser, site_server):
    """Without JavaScript, one page per language in one context: the panel in the page's words, with
    the scripts the build wrote. (With JavaScript, the panel's refusal in each language:
    the_panel_says_why_it_refuses_in_the_pages_language, run by test_browser_words.py.)"""
    written = scripts(DEFAULT)
    assert written is not None
    page = open_lesson(browser, site_server, lang="en", java_script_enabled=False)
    for lang in LESSON:
        if lang != "en":
            page.goto(f"{site_server}{LESSON[lang]}")
        words = strings(lang)
        assert page.evaluate("document.documentElement.lang") == lang
        raw = html.unescape(page.content())
        assert written["pytorch"] in raw and written["jax"] in raw  # what the build wrote, untouched
        panel = page.locator(PANEL)
        assert panel.locator("summary").inner_text() == words["frameworks"]
        open_panel(page)
        assert panel.locator(".tinydag-frameworks__note").inner_text() == words["frameworks_note"]
        assert code(page, PYTORCH) == written["pytorch"]
        assert page.locator(f"{PANEL} .tinydag-frameworks__why").is_hidden()


def the_panel_says_why_it_refuses_in_the_pages_language(page, lang: str) -> None:
    """In a loaded lesson: an expression the panel cannot write, "log(", is refused in the page's words
    and the code hides. (Once per language, in the language's one page load: test_browser_words.py.)"""
    words = strings(lang)
    if not page.locator(PANEL).evaluate("el => el.open"):
        open_panel(page)
    page.locator("[data-sandbox] input[name=expression]").fill("log(")  # refused: the panel says why
    settle(page)
    why = page.locator(f"{PANEL} .tinydag-frameworks__why")
    prefix = words["frameworks_refused"].split("{message}")[0]
    assert why.is_visible() and why.inner_text().startswith(prefix)
    assert why.inner_text() != prefix and page.locator(PYTORCH).is_hidden()


def test_the_panel_follows_typing_sliders_presets_and_shared_links(browser, site_server):
    page = lesson_page(browser, site_server, viewport=DESKTOP)
    paused_in_view(page)
    open_panel(page)
    assert "out = (a + b) * c\n" in code(page, PYTORCH)
    box = page.locator("[data-sandbox] input[name=expression]")
    box.click()
    box.press("Control+a")
    box.press("Backspace")
    why = page.locator(f"{PANEL} .tinydag-frameworks__why")
    seen_refusal = False
    for ch in "relu(a * b) - a / 2":
        box.press_sequentially(ch)
        settle(page)
        seen_refusal |= why.is_visible()
        assert why.is_visible() != page.locator(PYTORCH).is_visible()  # a reason or the code, never both
    assert seen_refusal, "an unfinished expression (relu(a *) says why instead of showing code"
    assert "out = torch.relu(a * b) - a / 2.0\n" in code(page, PYTORCH)
    assert "    return jax.nn.relu(a * b) - a / 2.0\n" in code(page, JAX)
    assert "grads = jax.grad(out, argnums=(0, 1))(a, b)" in code(page, JAX)

    set_range(page, "[data-sandbox] input[name=var-b]", 1.5)
    settle(page)
    assert "b = torch.tensor(1.5, requires_grad=True)" in code(page, PYTORCH)
    assert "\nb = 1.5\n" in code(page, JAX)

    page.locator("[data-sandbox] [data-action=preset]").nth(4).click()  # exp and log
    settle(page)
    preset = build_timeline("log(exp(a) + b ** 2)", {"a": 1, "b": 2})
    assert code(page, JAX) == (scripts(preset) or {})["jax"]
    assert code(page, PYTORCH) == (scripts(preset) or {})["pytorch"]
    page.locator("[data-sandbox] [data-action=copy-link]").click()  # writes the moment into the address
    shared = page.evaluate("location.hash")
    assert "exp" in shared

    again = lesson_page(browser, site_server, viewport={"width": 1000, "height": 800}, hash=shared)
    open_panel(again)  # written as it opens (a folded panel costs a drag nothing)
    settle(again)
    assert code(again, JAX) == (scripts(preset) or {})["jax"]
    assert page.errors == [] and again.errors == []


def test_the_copy_button_copies_the_script_as_it_reads_now(browser, site_server):
    page = open_lesson(browser, site_server, permissions=["clipboard-read", "clipboard-write"])
    page.locator("[data-sandbox] input[name=expression]").fill("a * exp(b)")
    settle(page)
    open_panel(page)
    pre = page.locator(f"{PANEL} pre").nth(1)
    pre.hover()
    button = pre.locator("button[data-md-type=copy]")
    assert button.count() == 1, "the theme's copy button, as on every code block"
    button.click()
    page.wait_for_function("navigator.clipboard.readText().then(t => t.includes('jnp.exp(b)'))")
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied.strip() == code(page, JAX).strip()
    assert re.search(r"^    return a \* jnp\.exp\(b\)$", copied, re.M)
    assert page.errors == []
