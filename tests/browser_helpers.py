"""Shared pieces of the browser tests: one Debian Chromium for the whole session, pages of the
built lesson, and small helpers that read what the reader sees ([data-node] cards, the timeline).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "tests" / "artifacts"
CHROMIUM = "/usr/bin/chromium"
LAUNCH_ARGS = ["--no-sandbox", "--disable-background-networking", "--disable-component-update",
               "--disable-sync", "--no-first-run", "--use-angle=swiftshader",
               "--enable-unsafe-swiftshader"]
LESSON = {"en": "02-autograd/", "ru": "ru/02-autograd/", "et": "et/02-autograd/"}
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
MINUS = "\u2212"

_shared: dict = {}


def shared_browser(request: pytest.FixtureRequest):
    """One Chromium per test session, however many modules ask for it."""
    if "browser" not in _shared:
        if not Path(CHROMIUM).exists() and shutil.which("chromium") is None:
            pytest.fail("Debian's Chromium is missing: `apt-get install -y chromium` (make test does it)")
        from playwright.sync_api import sync_playwright

        playwright = sync_playwright().start()
        _shared["playwright"] = playwright
        _shared["browser"] = playwright.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS)

        def close() -> None:
            browser = _shared.pop("browser", None)
            playwright = _shared.pop("playwright", None)
            if browser is not None:
                browser.close()
            if playwright is not None:
                playwright.stop()

        request.addfinalizer(close)
    return _shared["browser"]


def open_lesson(browser, base: str, lang: str = "en", viewport: dict | None = None, hash: str = "",
                **context):
    """A fresh page of the lesson with its sandbox mounted; the sandbox is scrolled into view."""
    ctx = browser.new_context(viewport=viewport or DESKTOP, **context)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors  # type: ignore[attr-defined]
    page.goto(base + LESSON[lang] + hash)
    if context.get("java_script_enabled", True):
        page.wait_for_selector("[data-sandbox][data-player]", state="attached")
        page.wait_for_function("document.querySelector('[data-sandbox]').dataset.player !== 'mounting'")
    return page


def sandbox_ready(page) -> None:
    page.wait_for_selector("[data-sandbox][data-player=ready]", state="attached")


def scroll_to_player(page) -> None:
    page.evaluate("document.querySelector('[data-sandbox] .tdg-player').scrollIntoView({block: 'start'})")


def moment(page, sandbox: str = "tinydag-1") -> dict:
    return page.evaluate(f"window.tinydagPlayer.sandboxes['{sandbox}'].moment()")


def engine_calls(page) -> int:
    return page.evaluate("window.tinydagPlayer.engineCalls")


def nodes(page) -> dict[str, str]:
    """Visual node label (as on the card) -> node id."""
    pairs = page.evaluate("[...document.querySelectorAll('[data-sandbox] [data-node]')]"
                          ".map(el => [el.getAttribute('aria-label'), el.dataset.node])")
    return dict(pairs)


def field(page, node_id: str, name: str) -> str:
    return page.locator(f"[data-sandbox] [data-node='{node_id}'] [data-field={name}]").inner_text()


def grads(page) -> dict[str, str]:
    """Card label -> the grad text the reader sees."""
    pairs = page.evaluate("[...document.querySelectorAll('[data-sandbox] [data-node]')].map(el => "
                          "[el.getAttribute('aria-label'), el.querySelector('[data-field=grad]').textContent])")
    return dict(pairs)


def set_range(page, selector: str, value: float) -> None:
    """Move a range input as a drag would: set its value and fire `input`."""
    page.locator(selector).evaluate(
        "(el, v) => { el.value = String(v); el.dispatchEvent(new Event('input', {bubbles: true})); }", value)


def seek(page, time: float) -> None:
    set_range(page, "[data-sandbox] input[name=time]", time)
    settle(page)


def settle(page) -> None:
    """Wait until the player has drawn the current state (two animation frames)."""
    page.evaluate("new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")


def type_expression(page, text: str) -> None:
    box = page.locator("[data-sandbox] input[name=expression]")
    box.fill(text)
    settle(page)


def pause(page) -> None:
    if moment(page)["playing"]:
        page.click("[data-sandbox] [data-action=play]")
    settle(page)


def num(text: str) -> float:
    return float(text.replace(MINUS, "-"))
