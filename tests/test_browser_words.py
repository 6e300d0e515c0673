"""What the sandbox says, in a real browser, in en, ru and et.

Each language's words and numbers are checked in one page load per language
(test_the_sandbox_speaks_the_pages_language): the controls, the legends, the narration, the table, the
error messages, the nudge sentence, the pan hint, the exercises' links, and axe over the busy sandbox;
and in one touch-phone page per language (test_on_a_phone_the_sandbox_speaks_the_pages_language). What
does not depend on the language runs once, in English: the controls' look here, titles, badges and
labels adding up in test_browser_cards_and_labels.py; the sentences themselves are proven in every
language in node (tests/ts/player-words, player-i18n, player-logic).

A touch screen's hint speaks of dragging; the table names operations as the cards do, translated; the
nudge check and the table look like controls; the code strip's arrow never dangles; error messages
name their place inside the sentence, quote only a short excerpt, mark the divisor alone and name
invisible characters by code point.
"""

from __future__ import annotations

import re

import pytest

from .browser_helpers import (
    CARDS,
    MINUS,
    PHONE,
    at_each_time,
    lesson_page,
    open_lesson,
    paused_in_view,
    seek,
    set_values,
    settle,
    table_rows,
    type_expression,
)
from .test_browser_caption import the_caption_under_the_graph_says_the_step
from .test_browser_exercise_links_and_compact_sandbox import (
    LINK_TEXT,
    LINKS,
    compact_sandbox_keeps_its_height,
    on_a_phone_the_one_line_strip_does_the_excerpts_job,
)
from .test_browser_frameworks import the_panel_says_why_it_refuses_in_the_pages_language
from .test_browser_links_and_accessibility import axe_violations, busy_sandbox
from .test_browser_misreadings import (
    a_typed_number_is_explained_and_a_decimal_comma_gets_its_hint,
    phone_legend_explains_v_and_g,
)
from .test_browser_nudge_graph import the_nudge_speaks_the_pages_language
from .test_browser_predict import predict_then_check_and_walk_the_graph

pytestmark = pytest.mark.browser

SANDBOX = "[data-sandbox]"
LANGS = ("en", "ru", "et")


# ---- words ----------------------------------------------------------------------------------------

HINTS = {
    "en": ("Drag the graph sideways to turn it: backward's gradients run on their own layer, "
           "above the values.",
           "arrow keys"),
    "ru": ("Проведите по графу вбок, чтобы повернуть его: градиенты обратного прохода идут по своему "
           "слою, над значениями.",
           "стрелками"),
    "et": ("Pööramiseks lohista graafi külgsuunas: tagasisuunalise läbimise gradiendid liiguvad oma "
           "kihil, väärtuste kohal.",
           "nooleklahvidega"),
}


TABLE_OPS = {
    "en": ["variable a", "constant 2", "×", "− (negation)", "variable b", "** 3", "÷", "variable c", "−"],
    "ru": ["переменная a", "константа 2", "×", "− (смена знака)", "переменная b", "** 3", "÷",
           "переменная c", "−"],
    "et": ["muutuja a", "konstant 2", "×", "− (märgivahetus)", "muutuja b", "** 3", "÷", "muutuja c", "−"],
}


def test_nudge_table_and_frameworks_look_like_controls(browser, site_server):
    """Nudge check, the table of nodes and the PyTorch / JAX panel under the sandbox are buttons that
    open, alike, not Material's boxed "note" admonitions (which Material makes of every details)."""
    page = lesson_page(browser, site_server)
    looks = {}
    panels = (f"{SANDBOX} details.tdg-nudge", f"{SANDBOX} details.tdg-table", "details.tinydag-frameworks")
    for panel in panels:
        summary = page.locator(f"{panel} > summary")
        look = summary.evaluate("""el => {
          const before = getComputedStyle(el, '::before'), css = getComputedStyle(el);
          const box = el.closest('details');
          return {icon: before.content !== 'none' && before.display !== 'none'
                        && (before.maskImage || before.webkitMaskImage || 'none') !== 'none',
                  border: parseFloat(css.borderTopWidth), radius: parseFloat(css.borderTopLeftRadius),
                  cursor: css.cursor, panelBorder: parseFloat(getComputedStyle(box).borderLeftWidth),
                  panelPadding: parseFloat(getComputedStyle(box).paddingLeft),
                  chevron: getComputedStyle(el, '::after').content !== 'none',
                  same: [css.paddingLeft, css.borderLeftWidth, css.fontSize]};
        }""")
        assert not look["icon"], f"{panel}: no pencil 'note' icon"
        assert look["border"] >= 1 and look["radius"] >= 4 and look["cursor"] == "pointer", look
        assert look["panelBorder"] == look["panelPadding"] == 0, f"{panel}: not boxed like an admonition"
        assert look["chevron"], f"{panel}: a disclosure chevron says it opens"
        looks[panel] = look["same"]
    assert len(set(map(tuple, looks.values()))) == 1, looks


CODE_STRIP_ARROW = """() => {
  const arrow = document.querySelector('[data-sandbox] .tdg-code-note .tdg-code-arrow');
  const words = arrow.nextElementSibling.firstChild;
  if (arrow.hidden || !words) return null;
  const top = (node, i) => {
    const r = document.createRange();
    r.setStart(node, i);
    r.setEnd(node, i + 1);
    return r.getBoundingClientRect().top;
  };
  return [top(arrow.firstChild, 0), top(words, 0)];
}"""


TABLE_FIT = """() => { const t = document.querySelector('[data-sandbox] .tdg-table table');
    const grad = t.querySelector('thead th:last-child').getBoundingClientRect();
    return {scroll: t.scrollWidth, client: t.clientWidth, gradRight: grad.right,
            right: t.getBoundingClientRect().right}; }"""


@pytest.mark.parametrize("lang", LANGS)
def test_on_a_phone_the_sandbox_speaks_the_pages_language(browser, site_server, lang):
    """One touch phone page per language (the words' widths differ by language): the hint speaks of
    dragging, v and g are explained, the option buttons line up, the compact sandbox keeps its height
    at every step, the one-line code strip does the excerpt's job and keeps its arrow with its words,
    the node table fits its column (every column, grad included, in view without scrolling the table
    sideways), a typed number is explained and a decimal comma gets its hint."""
    page = open_lesson(browser, site_server, lang, viewport=PHONE, has_touch=True, is_mobile=True)
    touch, keys = HINTS[lang]  # (a desktop's hint names the arrow keys: the language's own test)
    hint = page.locator(f"{SANDBOX} .tdg-drag-hint").inner_text()
    assert hint == touch and keys not in hint
    described = page.locator(f"{SANDBOX} .tdg-stage").evaluate(
        "el => document.getElementById(el.getAttribute('aria-describedby')).innerText")
    assert described == touch
    phone_legend_explains_v_and_g(page, lang)
    rows = page.evaluate("""() => [...document.querySelectorAll(
        '[data-sandbox] .tdg-options > :is(label, button)')].map(el => {
      const b = el.getBoundingClientRect();
      const line = parseFloat(getComputedStyle(el).lineHeight);
      return {tag: el.tagName, top: Math.round(b.top), height: Math.round(b.height),
              lines: Math.round(b.height / line)};
    })""")
    toggles = [r for r in rows if r["tag"] == "LABEL"]
    buttons = [r for r in rows if r["tag"] == "BUTTON"]
    assert len({r["top"] for r in toggles}) == len(toggles), "one toggle per row"
    assert len({r["top"] for r in buttons}) == 1, "the buttons share one row"
    assert len({r["height"] for r in buttons}) == 1 and all(r["lines"] <= 1 for r in toggles)
    compact_sandbox_keeps_its_height(page)
    on_a_phone_the_one_line_strip_does_the_excerpts_job(page)
    type_expression(page, "-(a * 2) / b ** 3 - c")
    for direction in ("forward", "backward"):
        page.click(f"{SANDBOX} [data-action={direction}]")
        total = int(page.locator(f"{SANDBOX} input[name=time]").get_attribute("max") or 0)
        for t, tops in zip(range(1, total + 1), at_each_time(page, range(1, total + 1), CODE_STRIP_ARROW),
                           strict=True):
            if tops is not None:
                assert abs(tops[0] - tops[1]) < 2, f"{direction} {t}: the arrow ends a line alone"
    page.click(f"{SANDBOX} .tdg-table summary")
    for expression in ("(a + b) * c", "-(a * 2) / b ** 3 - c"):
        type_expression(page, expression)
        fit = page.evaluate(TABLE_FIT)
        fits = fit["scroll"] <= fit["client"] + 1 and fit["gradRight"] <= fit["right"] + 1
        assert fits, (expression, fit)
    a_typed_number_is_explained_and_a_decimal_comma_gets_its_hint(page, lang)
    assert page.errors == [], page.errors


# ---- error messages --------------------------------------------------------------------------------

QUOTE = re.compile(r"[“«„]([^”»“]*)[”»“]")


def error_text(page) -> str:
    return page.locator(f"{SANDBOX} .tdg-error").inner_text()


def place_is_inside(message: str, place: str) -> bool:
    at = message.find(place)
    return at >= 0 and re.search(r"[.!?]", message[at + len(place):]) is not None


POWER = {"en": "exponent must be a plain number", "ru": "Показатель степени", "et": "Astendaja"}


def check_error_messages(page, lang: str) -> None:
    """Messages name their place inside the sentence, in the language's words; a long expression is
    quoted in short; the divisor alone is marked; an invisible character is named by code point."""
    for expression, place in [("a ** b", "b"), ("(a + b", "(a + b"), ("a + b)", "a + b)"), ("a +", "a +"),
                              ("a b", "b"), ("log(a - a)", "log(a - a)")]:
        type_expression(page, expression)
        message = error_text(page)
        assert place_is_inside(message, place), f"{expression}: {message}"
        assert not re.search(r"[.!?] (at|в|kohas) [“«„]", message), f"appended after the full stop: {message}"
        if expression == "a ** b":
            assert POWER[lang] in message, message
    long = "a" + " + a" * 60  # 241 characters
    big = " + ".join("abcdefghijklmnopqrstu") + " * 2 * 3 * 4"  # 93 characters, 44 nodes
    for expression in (long, big, "(" + "a + " * 30 + "a"):
        page.locator(f"{SANDBOX} input[name=expression]").fill(expression)
        settle(page)
        message = error_text(page)
        assert all(len(q) <= 21 for q in QUOTE.findall(message)), message
        assert len(message) < 160, message
    type_expression(page, "a / (b - b)")
    assert page.locator(f"{SANDBOX} mark.tdg-error-span").inner_text() == "(b - b)"
    assert place_is_inside(error_text(page), "(b - b)")
    type_expression(page, "a / b")
    set_values(page, {"b": 0})
    assert page.locator(f"{SANDBOX} mark.tdg-error-span").inner_text() == "b"
    assert page.locator(f"{SANDBOX} [aria-invalid=true][data-node]").count() == 1, "the division's card"
    type_expression(page, "a +\u200b b")
    message = error_text(page)
    assert "U+200B" in message and "\u200b" not in message, message
    assert "“”" not in message and "«»" not in message and "„“" not in message
    mark = page.locator(f"{SANDBOX} mark.tdg-error-span")
    assert mark.get_attribute("data-start") == "3" and mark.bounding_box()["width"] > 2, "the mark is visible"


# ---- each language's words, in one page load per language -----------------------------------------

STEPS = {"en": ["Previous step", "Next step"], "ru": ["Предыдущий шаг", "Следующий шаг"],
         "et": ["Eelmine samm", "Järgmine samm"]}
UI = {  # what the reader sees on the controls, per language
    "en": ("Expression", "Presets", "Play", "Forward", "Backward", "Local derivatives", "Final gradients",
           "Reset view", "Copy link", "Timeline"),
    "ru": ("Выражение", "Примеры", "Пуск", "Прямой", "Обратный", "Локальные производные",
           "Итоговые градиенты", "Сбросить вид", "Копировать ссылку", "Шкала времени"),
    "et": ("Avaldis", "Näited", "Esita", "Edasisuund", "Tagasisuund", "Lokaalsed tuletised", "Lõppgradiendid",
           "Lähtesta vaade", "Kopeeri link", "Ajatelg"),
}
LEGEND = {"en": "incoming grad × local derivative = contribution",
          "ru": "входящий градиент × локальная производная = вклад",
          "et": "sissetulev gradient × lokaalne tuletis = panus"}
NARRATION = {
    "en": "c receives 1 × (−1) = −1; c.grad is now −1",
    "ru": "c получает 1 × (−1) = −1; теперь c.grad = −1",
    "et": "c saab 1 × (−1) = −1; nüüd c.grad = −1",
}
POINT = {"en": ".", "ru": ",", "et": ","}  # the decimal point of the language's sentences
# ...and where the graph's own numbers, written as code writes them, differ from that, the legend says so
# (walk 41: "−2,1" in the caption and the field, "−2.1" on the card beside it, with no word of why)
CODE_POINT = {"en": None, "ru": "числа на графе записаны с точкой, как в коде",
              "et": "graafil on arvud kirjas nagu koodis, kümnendpunktiga"}
PAN = {"en": ("drag", "Follow", "Whole graph"), "ru": ("перетащите", "Следить", "Весь граф"),
       "et": ("lohista", "Jälgi", "Kogu graaf")}


@pytest.mark.parametrize("lang", LANGS)
def test_the_sandbox_speaks_the_pages_language(browser, site_server, lang):
    page = lesson_page(browser, site_server, lang)
    paused_in_view(page)
    # The controls, and nothing from another language.
    text = page.locator(f"{SANDBOX} .tdg-player").inner_text()
    for words in UI[lang]:
        assert words in text, f"{lang}: '{words}' missing"
    others = {w for other, ws in UI.items() if other != lang for w in ws} - set(UI[lang])
    for words in ("Local derivatives", "Локальные производные", "Lokaalsed tuletised"):
        if words in others:
            assert words not in text, f"{lang}: '{words}' from another language"
    assert HINTS[lang][1] in page.locator(f"{SANDBOX} .tdg-drag-hint").inner_text(), "a desktop: the keys"
    for name in STEPS[lang]:  # the buttons beside the timeline say what they do, to a screen reader too
        assert page.locator(SANDBOX).get_by_role("button", name=name, exact=True).count() == 1, name
    texts = [page.locator(LINKS).nth(i).inner_text() for i in range(1, 5)]
    assert texts == [LINK_TEXT[lang]] * 4, texts  # the exercises' links
    # Keys step the pulse and each step is narrated; the legend says what a label means.
    page.click(f"{SANDBOX} [data-action=backward]")
    legend = page.locator(f"{SANDBOX} .tdg-legend").inner_text().replace("\u00a0", " ")
    assert LEGEND[lang] in legend
    assert CODE_POINT[lang] is None or CODE_POINT[lang] in legend, legend
    assert page.locator(f"{SANDBOX} [data-field=value]").first.is_visible()
    assert page.locator(f"{SANDBOX} .tdg-key-long").first.inner_text() == "value"
    page.focus(f"{SANDBOX} input[name=time]")
    page.keyboard.press("Home")
    live = page.locator(f"{SANDBOX} [aria-live=polite][data-role=narration]")
    said = []
    for _ in range(5):
        page.keyboard.press("ArrowRight")
        settle(page)
        said.append(live.inner_text())
    assert NARRATION[lang] in said
    assert said[0].startswith("(a + b) × c"), said[0]
    assert len(set(said)) == 5, "one sentence per step"
    assert "5" in page.get_attribute(f"{SANDBOX} input[name=time]", "aria-valuetext")
    page.keyboard.press("ArrowLeft")
    settle(page)
    assert page.evaluate("window.tinydagPlayer.sandboxes['tinydag-1'].moment().time") == 4
    # The nudge sentence writes its numbers the language's way; cards are code: a dot, if any.
    seek(page, 1e9)
    legend = page.locator(f"{SANDBOX} .tdg-legend-encoding")
    assert legend.is_visible() and legend.locator("[data-look]").count() == 4
    assert all(legend.locator("[data-look]").nth(i).inner_text().strip() for i in range(4))
    point = POINT[lang]
    page.click(f"{SANDBOX} .tdg-nudge summary")
    page.select_option(f"{SANDBOX} select[name=nudge-leaf]", "c")
    page.fill(f"{SANDBOX} input[name=nudge-h]", "0.001")
    page.click(f"{SANDBOX} [data-action=nudge]")
    settle(page)  # the page's first nudge: the engine arrives first
    out = page.locator(f"{SANDBOX} .tdg-nudge-result")
    assert f"0{point}001" in out.inner_text() and f"{MINUS}10{point}001" in out.inner_text(), out.inner_text()
    assert f"c.grad = {MINUS}1" in out.inner_text()
    cards = page.locator(f"{SANDBOX} [data-field=value]").all_inner_texts()
    assert not any("," in card for card in cards), cards
    page.select_option(f"{SANDBOX} select[name=nudge-leaf]", "a")
    page.fill(f"{SANDBOX} input[name=nudge-h]", "1e-12")
    page.click(f"{SANDBOX} [data-action=nudge]")
    assert out.get_attribute("data-rounding") is not None
    assert f"10{point}000889" in out.inner_text(), "the ratio shows the noise it warns of"
    # The table names operations as the cards do, translated; a number wears the const badge.
    type_expression(page, "-(a * 2) / b ** 3 - c")
    page.click(f"{SANDBOX} .tdg-table summary")
    rows = table_rows(page)
    assert [r[1] for r in rows] == TABLE_OPS[lang]
    assert [r[0] for r in rows][-1] == "−(a × 2) / b ** 3 − c"
    type_expression(page, "1 / a + 2.5 * a")
    assert {c["name"]: c["badges"] for c in page.evaluate(CARDS)}["2.5"] == [["const", "const"]]
    check_error_messages(page, lang)
    # A graph too big for the stage says how to pan it.
    type_expression(page, " * ".join(["a"] * 39))
    hint = page.locator(f"{SANDBOX} .tdg-pan-hint").inner_text()
    follow = page.locator(f"{SANDBOX} [data-action=follow]").inner_text()
    assert PAN[lang][0] in hint.lower() and follow.startswith(PAN[lang][1]), (hint, follow)
    whole = page.locator(f"{SANDBOX} [data-action=whole]")
    assert whole.inner_text() == PAN[lang][2]
    whole.click()  # the whole graph at once: the hint says how to read it again, by the button's name
    assert PAN[lang][2] in page.locator(f"{SANDBOX} .tdg-pan-hint").inner_text()
    whole.click()
    described = page.locator(f"{SANDBOX} .tdg-stage").get_attribute("aria-describedby")
    assert page.locator(f"#{described}").inner_text() == hint, "the stage is described by how to pan it"
    # Everything the sandbox can show at once, in this language: axe finds nothing serious.
    page.locator(f"{SANDBOX} [data-action=preset]").nth(0).click()
    busy_sandbox(page)
    serious = axe_violations(page, "{include: ['[data-sandbox]']}")
    assert serious == [], serious
    # The nudge's words, the frameworks panel's refusal, and the caption of a moment a link opens.
    page.locator(f"{SANDBOX} [data-action=preset]").nth(0).click()
    the_nudge_speaks_the_pages_language(page, lang)
    the_panel_says_why_it_refuses_in_the_pages_language(page, lang)
    the_caption_under_the_graph_says_the_step(page, lang)
    predict_then_check_and_walk_the_graph(page, lang)
    assert page.errors == [], page.errors


def test_no_rotation_hint_while_the_graph_lies_flat_to_pan(browser, site_server):
    page = lesson_page(browser, site_server)
    hint = page.locator(f"{SANDBOX} .tdg-drag-hint")
    assert hint.is_visible()
    type_expression(page, " * ".join("a" * 39))
    assert page.locator(f"{SANDBOX} .tdg-stage[data-pannable]").count() == 1, "a 39-factor product pans"
    assert hint.is_hidden(), "a drag pans this graph: the hint would speak of rotating"
    type_expression(page, "a * b")
    assert hint.is_visible()
