"""A fourth language, added by files only, is a whole language: a pseudo-locale (tests/pseudo_locale.py:
`docs/<page>.de.md`, `src/player/strings/de.yml`, one entry in mkdocs.yml, every string and preset
label wrapped in ⟦…⟧, accented and ~40 % longer) builds with --strict, `make i18n-status` reports it
like the others, search works in it, and on a phone the player and the widgets show only its words
(an English word there is a hard-coded string) with nothing running past the 390 px screen.

One build for the module; one phone page for the lesson and one for page 00, each walked through the
states that bring out most of the strings (a step of each pass, local derivatives, the nudge check,
the node table, a wrong and a right prediction, a broken and an oversized expression, a preset; the
knob's presets, a broken and a refused function; a gear turn).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from tinydag_mkdocs.site import i18n_status

from . import browser_helpers
from .browser_helpers import PHONE, serving, settle
from .pseudo_locale import CLOSE, CODE, LABEL_LINE, OPEN, ROOT, add_language, pseudo
from .test_browser_language import search

SUBPATH = "tinydag-lesson"
ENGLISH = yaml.safe_load((ROOT / "src" / "player" / "strings" / "en.yml").read_text(encoding="utf-8"))
PLAYER_WORDS = pseudo(ENGLISH["local_derivatives"])  # a control the player always shows
WIDGET_WORDS = pseudo(ENGLISH["gears_controls"])  # the gears' controls' name
PRESET = LABEL_LINE.search((ROOT / "docs" / "02-autograd.md").read_text(encoding="utf-8"))
PLAYER = "[data-sandbox], [data-sandbox-compact]"
WIDGETS = "figure.tdg-widget"
FULL = "#tinydag-1"
CODE_WORDS = {"relu", "exp", "log"}  # the engine's functions, written as code in every language
NAMES = {"pytorch", "jax"}  # the frameworks panel's headings: names, the same in every language

# Everything a reader (or a screen reader) gets from the roots: text outside code, and the attributes
# that speak. Visually hidden text counts: it is read aloud.
TEXTS = """roots => {
  const out = [];
  const attrs = ['aria-label', 'aria-valuetext', 'aria-description', 'aria-roledescription', 'title',
                 'placeholder', 'alt'];
  for (const root of document.querySelectorAll(roots)) {
    const walk = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
    for (let n = walk.currentNode; n; n = walk.nextNode()) {
      if (n.nodeType === Node.ELEMENT_NODE && n.matches('.md-code__nav *')) continue;  // Material's own
      if (n.nodeType === Node.TEXT_NODE) {
        if (n.data.trim() && !n.parentElement.closest('pre, code, script, style, template, noscript'))
          out.push(n.data.trim());
      } else for (const a of attrs) if (n.getAttribute(a)?.trim()) out.push(n.getAttribute(a).trim());
    }
  }
  return out;
}"""
# Text that runs past the screen's edges, or is cut off by its own box (the graph's stage pans by
# design, a phone's presets are a row that scrolls sideways and the expression's mirror scrolls with
# its field; visually hidden text is 1 px wide).
OVERFLOW = """([roots, width]) => {
  const out = [];
  for (const root of document.querySelectorAll(roots))
    for (const el of root.querySelectorAll('*')) {
      if (!el.checkVisibility({visibilityProperty: true, opacityProperty: true})) continue;
      if (![...el.childNodes].some(n => n.nodeType === Node.TEXT_NODE && n.data.trim())) continue;
      const box = el.getBoundingClientRect(), style = getComputedStyle(el);
      const what = `${el.tagName.toLowerCase()}.${el.getAttribute('class') || ''} `
        + `“${el.textContent.trim().slice(0, 50)}”`;
      if (!el.closest('.tdg-stage, pre, .tdg-presets') && (box.right > width + 0.5 || box.left < -0.5))
        out.push(`${what} spans ${Math.round(box.left)}..${Math.round(box.right)} px`);
      if (style.overflowX !== 'visible' && el.clientWidth > 1 && !el.matches('.tdg-expr-mirror, svg')
          && el.scrollWidth > el.clientWidth + 1)
        out.push(`${what} is cut off: ${el.scrollWidth} px in ${el.clientWidth} px`);
    }
  return out;
}"""


def english_words(texts: list[str]) -> list[tuple[list[str], str]]:
    """The plain Latin words left once every ⟦…⟧ (nested: a string filled into a string) is taken out."""
    found = []
    for text in texts:
        rest, before = text, None
        while rest != before:
            before, rest = rest, re.sub(f"{OPEN}[^{OPEN}{CLOSE}]*{CLOSE}", " ", rest)
        words = [w for w in re.findall(r"(?<![^\W\d_])[A-Za-z]{2,}(?![^\W\d_])", rest)
                 if w.lower() not in CODE_WORDS | NAMES]
        if words:
            found.append((words, text[:160]))
    return found


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    """A copy of the site's docs and config with the pseudo-locale added (files only)."""
    root = tmp_path_factory.mktemp("pseudo-locale")
    add_language(root)
    return root


@pytest.fixture(scope="module")
def pseudo_site(project: Path) -> Path:
    site = project / "www" / SUBPATH
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1", SITE_URL=f"https://owner.github.io/{SUBPATH}/",
               TINYDAG_ENABLED="true")
    run = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
                         cwd=project, env=env, capture_output=True, text=True, check=False)
    if run.returncode != 0:
        pytest.fail(f"the pseudo-locale fails mkdocs build --strict:\n{run.stdout}\n{run.stderr}",
                    pytrace=False)
    return site


@pytest.fixture(scope="module")
def pseudo_server(pseudo_site: Path):
    with serving(pseudo_site.parent, f"{SUBPATH}/") as url:
        yield url


def test_the_pseudo_strings_keep_placeholders_and_plural_selectors():
    text = "Backward pass, {total} {total|one:step|other:steps}: press {play}."
    out = pseudo(text)
    assert out.startswith(OPEN) and out.endswith(CLOSE)
    assert "{play}" in out and "{total|one:" in out and "|other:" in out
    assert english_words([out]) == [] and english_words([text]) != []
    plain = "Reset the view to the default"
    assert 1.35 * len(plain) <= len(pseudo(plain)) <= 1.5 * len(plain)  # about 40 % longer


@pytest.mark.browser  # no browser, but the build is the browser tests': in their run, it is built once
def test_a_fourth_language_builds_and_is_a_language_of_the_site(pseudo_site: Path):
    lesson = (pseudo_site / CODE / "02-autograd" / "index.html").read_text(encoding="utf-8")
    assert f'<html lang="{CODE}"' in lesson
    assert f'hreflang="{CODE}"' in (pseudo_site / "02-autograd" / "index.html").read_text(encoding="utf-8")
    assert PLAYER_WORDS in lesson  # the player's words come from de.yml
    assert PRESET and pseudo(PRESET[2]) in lesson  # a preset's label from 02-autograd.de.md
    basics = (pseudo_site / CODE / "00-basics" / "index.html").read_text(encoding="utf-8")
    assert WIDGET_WORDS in basics
    index = json.loads((pseudo_site / CODE / "search" / "search_index.json").read_text(encoding="utf-8"))
    assert index["config"]["lang"] == [CODE, "en"]
    assert {doc["location"].split("#")[0] for doc in index["docs"]} == {"", "00-basics/", "02-autograd/"}


def test_i18n_status_reports_the_new_language_like_the_others(tmp_path, capsys):
    add_language(tmp_path)  # its own copy: a page is taken away below
    reports = {r.locale: r for r in i18n_status.report(tmp_path / "mkdocs.yml")}
    assert list(reports) == ["ru", "et", CODE]
    new, russian = reports[CODE], reports["ru"]
    assert (new.name, new.pages_total, new.strings_total) == \
        (pseudo("Pseudo German"), russian.pages_total, russian.strings_total)
    assert new.clean, new
    (tmp_path / "docs" / f"index.{CODE}.md").unlink()
    (tmp_path / "src" / "player" / "strings" / f"{CODE}.yml").write_text(
        (tmp_path / "src" / "player" / "strings" / f"{CODE}.yml").read_text(encoding="utf-8")
        .replace("\nplay:", "\nplay_typo:"), encoding="utf-8")
    assert i18n_status.main(["--config", str(tmp_path / "mkdocs.yml")]) == 0
    out = capsys.readouterr().out
    section = out[out.index(f"{CODE} ({pseudo('Pseudo German')})"):]
    assert section.split("\n")[1:7] == [
        "  pages:   2 of 3 translated, 0 older than English",
        "    missing  index.md",
        f"  strings: {new.strings_total - 1} of {new.strings_total} keys, 1 missing, 1 extra, "
        "0 older than English",
        "    missing  play",
        "    extra    play_typo",
        "",
    ], section


@pytest.mark.parametrize(("code", "known"), [("uk", True), ("pt-BR", True), ("yy", False)])
def test_a_language_code_material_does_not_know_is_named_before_the_build(tmp_path, code, known):
    """Material would stop with a template traceback (partials/languages/yy.html not found)."""
    from mkdocs.config import load_config

    from tinydag_mkdocs.site.language import unknown_theme_languages

    (tmp_path / "docs").mkdir()
    (tmp_path / "mkdocs.yml").write_text(yaml.safe_dump({
        "site_name": "x", "theme": {"name": "material"},
        "plugins": [{"i18n": {"docs_structure": "suffix", "languages": [
            {"locale": "en", "default": True, "name": "English"}, {"locale": code, "name": code}]}}],
    }), encoding="utf-8")
    problem = unknown_theme_languages(load_config(str(tmp_path / "mkdocs.yml")))
    if known:
        assert problem is None
    else:
        assert problem and "'yy'" in problem and "mkdocs.yml" in problem and ", de, " in problem


def look(page, roots: str, seen: list[str], overflow: list[str]) -> None:
    settle(page)
    seen += page.evaluate(TEXTS, roots)
    overflow += page.evaluate(OVERFLOW, [roots, PHONE["width"]])


def test_the_lesson_on_a_phone_speaks_only_the_new_language(browser, pseudo_server):
    page = browser_helpers.open_page(browser, f"{pseudo_server}{CODE}/02-autograd/", PHONE)
    browser_helpers.sandbox_ready(page)
    seen: list[str] = []
    overflow: list[str] = []
    look(page, PLAYER, seen, overflow)
    page.locator(f"{FULL} .tdg-player").scroll_into_view_if_needed()
    page.click(f"{FULL} [data-action=backward]")
    page.check(f"{FULL} input[name=local-derivatives]")
    browser_helpers.seek(page, 3)
    look(page, PLAYER, seen, overflow)
    page.click(f"{FULL} [data-action=forward]")
    browser_helpers.seek(page, 2)
    look(page, PLAYER, seen, overflow)
    page.click(f"{FULL} [data-action=backward]")
    browser_helpers.seek(page, 1e9)
    page.click(f"{FULL} .tdg-nudge summary")
    page.fill(f"{FULL} input[name=nudge-h]", "0.001")
    page.click(f"{FULL} [data-action=nudge]")
    page.click(f"{FULL} .tdg-table summary")
    page.click(f"{FULL} .tdg-predict-toggle")  # on a phone the fields are folded under their title
    page.fill(f"{FULL} .tdg-predict input[name=predict-a]", "x")
    page.click(f"{FULL} .tdg-predict [data-action=check]")
    look(page, PLAYER, seen, overflow)
    page.fill(f"{FULL} .tdg-predict input[name=predict-a]", "7")
    page.click(f"{FULL} .tdg-predict [data-action=check]")
    look(page, PLAYER, seen, overflow)
    browser_helpers.type_expression(page, "a * (b + ")
    look(page, PLAYER, seen, overflow)
    browser_helpers.type_expression(page, " * ".join(["a"] * 39))
    look(page, PLAYER, seen, overflow)
    page.locator(f"{FULL} [data-action=preset]").nth(5).click()
    look(page, PLAYER, seen, overflow)
    assert any(PLAYER_WORDS in text for text in seen)  # the walk saw the player
    english = sorted({text for _, text in english_words(seen)})
    assert english == [], ("hard-coded English in the player", english)
    assert overflow == [], overflow
    assert page.errors == [], page.errors


def test_page_00_on_a_phone_speaks_only_the_new_language(browser, pseudo_server):
    page = browser_helpers.open_page(browser, f"{pseudo_server}{CODE}/00-basics/", PHONE)
    knob, gears = "#tinydag-knob-1", "#tinydag-gears-1"
    for widget in (knob, gears):
        page.locator(widget).scroll_into_view_if_needed()
        page.wait_for_selector(f'{widget}[data-live="ready"]')
    seen: list[str] = []
    overflow: list[str] = []
    look(page, WIDGETS, seen, overflow)
    page.select_option(f"{knob} .tdg-knob__select", index=2)  # relu(x - 1): its kink is at 1
    page.fill(f"{knob} .tdg-knob__number >> nth=0", "1")
    page.press(f"{knob} .tdg-knob__number >> nth=0", "Enter")
    look(page, WIDGETS, seen, overflow)
    page.fill(f"{knob} .tdg-knob__input", "x * (x + 1")
    look(page, WIDGETS, seen, overflow)
    page.fill(f"{knob} .tdg-knob__input", "x * a")
    look(page, WIDGETS, seen, overflow)
    page.locator(f"{gears} .tdg-gears-button").nth(1).click()
    look(page, WIDGETS, seen, overflow)
    assert any(WIDGET_WORDS in text for text in seen)  # the walk saw the widgets
    assert english_words(seen) == [], "hard-coded English in page 00's widgets"
    assert overflow == [], overflow
    page.click("label.md-header__button[for=__search]")  # search, in the new language's pages only
    results = search(page, "gradient")
    assert results and all(href.startswith(f"{pseudo_server}{CODE}/") for href in results), results
    assert page.errors == [], page.errors
