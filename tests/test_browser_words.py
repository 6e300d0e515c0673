"""What the sandbox says, in a real browser (issue 10, items 6, 8 and 9), in en, ru and et.

Card titles name their node without repeating the operation or cutting a term, and the whole
expression is on hover, on keyboard focus and in the node table; numbers of the expression wear the
const badge; every edge label's shown factors multiply to its shown contribution; a touch screen's
hint speaks of dragging; the table names operations as the cards do, translated; the nudge check and
the table look like controls; the code strip's arrow never dangles; error messages name their place
inside the sentence, quote only a short excerpt, mark the divisor alone and name invisible characters
by code point.
"""

from __future__ import annotations

import re

import pytest

from .browser_helpers import DESKTOP, MINUS, PHONE, lesson_page, open_lesson, seek, settle, type_expression

SANDBOX = "[data-sandbox]"
LANGS = ("en", "ru", "et")
PRESETS = 6
EXPRESSIONS = [  # beyond the presets: long titles, literals, derived operations, many labels
    ("relu(w * x + v * y + b) * relu(a * c - d) + exp(e / f) * log(g + h)", {}),
    ("1 / (1 + exp(-a))", {"a": 0.7}),
    ("-(3 - a) / (a * a - 2 * -a)", {"a": 1.3}),
    ("(a * b - c) ** 2 / 2", {"a": 0.37, "b": 2.9, "c": -1.1}),
    ("log(a) * exp(b) + c ** 3", {"a": 2.5, "b": 0.3, "c": -0.7}),
]
OPERATOR_AT_END = re.compile(r"[+×−/*]\s*\)?$")


def set_values(page, values: dict[str, float]) -> None:
    for name, value in values.items():
        page.locator(f"{SANDBOX} input[name=num-{name}]").fill(str(value))
        page.locator(f"{SANDBOX} input[name=num-{name}]").dispatch_event("change")
    settle(page)


def end_of_backward(page) -> None:
    page.click(f"{SANDBOX} [data-action=backward]")
    seek(page, 10_000)


CARDS = """() => [...document.querySelectorAll('[data-sandbox] [data-node]')].map(card => {
  const title = card.querySelector('.tdg-label');
  return {
    op: card.dataset.op, glyph: card.querySelector('.tdg-glyph').textContent,
    title: title ? title.textContent : null,
    overflows: title ? title.scrollWidth > title.clientWidth + 1 : false,
    name: card.getAttribute('aria-label'), tooltip: card.getAttribute('title'),
    focusable: card.hasAttribute('tabindex'),  // one card is in the tab order, arrow keys reach the rest
    badges: [...card.querySelectorAll('[data-badge]')].map(b => [b.dataset.badge, b.textContent]),
  };
})"""


def table_rows(page) -> list[list[str]]:
    return page.evaluate("[...document.querySelectorAll('[data-sandbox] .tdg-table tbody tr')]"
                         ".map(tr => [...tr.cells].map(c => c.textContent))")


# ---- 6. cards name their node well --------------------------------------------------------------

def check_titles(page) -> None:
    cards = page.evaluate(CARDS)
    table = {row[0] for row in table_rows(page)}
    for card in cards:
        title, glyph = card["title"], card["glyph"]
        assert card["focusable"], f"{card['name']}: a card can take keyboard focus"
        assert card["tooltip"] == card["name"], "the whole expression is the tooltip and the name"
        assert card["name"] in table, f"{card['name']}: the table lists the whole expression"
        if title is None:
            continue
        assert not card["overflows"], f"{title!r} is cut by its card"
        assert not title.startswith(glyph) or card["op"] in ("+", "*"), f"{glyph} {title}: repeated"
        assert not OPERATOR_AT_END.search(title), f"{title!r} ends mid-expression"
        if "…" not in title:  # spaces may close up around × and **
            assert title.replace(" ", "") in card["name"].replace(" ", ""), f"{title!r} in {card['name']!r}"


@pytest.mark.parametrize("lang", LANGS)
def test_titles_never_repeat_the_operation_nor_cut_a_term(browser, site_server, lang):
    page = lesson_page(browser, site_server, lang)
    for i in range(PRESETS):
        page.locator(f"{SANDBOX} [data-action=preset]").nth(i).click()
        settle(page)
        check_titles(page)
    for expression, values in EXPRESSIONS:
        type_expression(page, expression)
        set_values(page, values)
        check_titles(page)
    type_expression(page, "log(exp(a) + b ** 2)")
    titles = {c["name"]: (c["glyph"], c["title"]) for c in page.evaluate(CARDS)}
    assert titles["exp(a)"] == ("exp", "(a)")
    assert titles["b ** 2"] == ("**", "b"), "the exponent is on the badge, not in the title"
    assert titles["log(exp(a) + b ** 2)"][1] in ("(exp(a) + b ** 2)", "(… + b ** 2)", "(exp(a) + …)",
                                                 "(… + …)")
    assert page.errors == []


def test_the_whole_expression_shows_on_keyboard_focus(browser, site_server):
    page = lesson_page(browser, site_server)
    type_expression(page, "relu(w * x + v * y + b)")
    page.focus(f"{SANDBOX} input[name=expression]")
    card = page.locator(f"{SANDBOX} [data-op=relu]")
    for _ in range(40):  # Tab through the controls until the relu card has focus
        page.keyboard.press("Tab")
        if card.evaluate("el => el === document.activeElement"):
            break
    assert card.evaluate("el => el === document.activeElement"), "the card is reachable with Tab"
    shown = card.evaluate("el => getComputedStyle(el, '::after').content")
    assert shown == '"relu(w × x + v × y + b)"'
    assert card.get_attribute("aria-label") == "relu(w × x + v × y + b)"


@pytest.mark.parametrize("lang", LANGS)
def test_numbers_of_the_expression_wear_the_const_badge(browser, site_server, lang):
    page = lesson_page(browser, site_server, lang)
    type_expression(page, "1 / a + 2.5 * a")
    cards = {c["name"]: c for c in page.evaluate(CARDS)}
    for literal in ("1", "2.5"):
        assert cards[literal]["badges"] == [["const", "const"]]
        assert cards[literal]["glyph"] == literal and cards[literal]["title"] is None
    assert cards["a"]["badges"] == [], "a variable wears no badge"
    italic = page.evaluate("[...document.querySelectorAll('[data-sandbox] [data-node]')].map(el => "
                           "[el.dataset.op, getComputedStyle(el.querySelector('.tdg-glyph')).fontStyle])")
    styles = {op: style for op, style in italic if op in ("var", "const")}
    assert styles == {"var": "italic", "const": "normal"}, "a number does not read as a variable"


# ---- 8. labels add up ---------------------------------------------------------------------------

LABEL = re.compile(r"^(\S+) × (\S+) ([=≈]) (\S+)$")


def number(text: str) -> float:
    return float(text.replace(MINUS, "-"))


def last_digit(text: str) -> float:
    """The value of one unit in the last shown digit: "0.4046" -> 1e-4, "1.235e5" -> 1e2."""
    mantissa, _, exponent = text.replace(MINUS, "-").partition("e")
    decimals = len(mantissa.partition(".")[2])
    return 10.0 ** (int(exponent or 0) - decimals)


def check_labels(page, seen: set[str]) -> None:
    for text in page.locator(f"{SANDBOX} .tdg-edge-label[data-form=full]:not([hidden])").all_inner_texts():
        text = text.lstrip("←\u00a0 ")
        m = LABEL.match(text)
        assert m, f"{text!r} is not a chain-rule label"
        product = number(m[1]) * number(m[2])
        shown, unit = number(m[4]), last_digit(m[4])
        if m[3] == "=":
            assert abs(product - shown) <= unit / 2 * (1 + 1e-9), f"{text}: the factors give {product}"
        else:
            assert abs(product - shown) > unit / 2 * (1 - 1e-9), f"{text}: '≈' where '=' holds"
        seen.add(text)


def walk_backward(page, seen: set[str]) -> None:
    page.click(f"{SANDBOX} [data-action=backward]")
    total = int(page.locator(f"{SANDBOX} input[name=time]").get_attribute("max") or 0)
    for t in range(1, total + 1):
        seek(page, t)
        check_labels(page, seen)


def test_every_edge_label_multiplies_out(browser, site_server):
    page = lesson_page(browser, site_server)
    seen: set[str] = set()
    for i in range(PRESETS):
        page.locator(f"{SANDBOX} [data-action=preset]").nth(i).click()
        settle(page)
        walk_backward(page, seen)
    for expression, values in EXPRESSIONS[1:]:
        type_expression(page, expression)
        set_values(page, values)
        walk_backward(page, seen)
    assert "0.1488 × 2.718 = 0.4046" not in seen
    assert any("0.14885 × 2.7183 = 0.4046" in s for s in seen), "exp and log: a fifth digit makes it add up"
    assert len(seen) > 40
    assert page.errors == []


# ---- 9. words -------------------------------------------------------------------------------------

HINTS = {
    "en": ("Drag the graph sideways to rotate it.", "arrow keys"),
    "ru": ("Проведите по графу вбок, чтобы повернуть его.", "стрелками"),
    "et": ("Pööramiseks lohista graafi külgsuunas.", "nooleklahvidega"),
}


@pytest.mark.parametrize("lang", LANGS)
def test_touch_screens_speak_of_dragging(browser, site_server, lang):
    touch, keys = HINTS[lang]
    phone = open_lesson(browser, site_server, lang, viewport=PHONE, has_touch=True, is_mobile=True)
    try:
        hint = phone.locator(f"{SANDBOX} .tdg-drag-hint").inner_text()
        assert hint == touch and keys not in hint
        stage = phone.locator(f"{SANDBOX} .tdg-stage")
        described = stage.evaluate(
            "el => document.getElementById(el.getAttribute('aria-describedby')).innerText")
        assert described == touch
    finally:
        phone.context.close()
    desktop = lesson_page(browser, site_server, lang, viewport=DESKTOP)
    assert keys in desktop.locator(f"{SANDBOX} .tdg-drag-hint").inner_text()


TABLE_OPS = {
    "en": ["variable a", "constant 2", "×", "− (negation)", "variable b", "** 3", "÷", "variable c", "−"],
    "ru": ["переменная a", "константа 2", "×", "− (смена знака)", "переменная b", "** 3", "÷",
           "переменная c", "−"],
    "et": ["muutuja a", "konstant 2", "×", "− (märgivahetus)", "muutuja b", "** 3", "÷", "muutuja c", "−"],
}


@pytest.mark.parametrize("lang", LANGS)
def test_the_table_names_operations_as_the_cards_do(browser, site_server, lang):
    page = lesson_page(browser, site_server, lang)
    type_expression(page, "-(a * 2) / b ** 3 - c")
    page.click(f"{SANDBOX} .tdg-table summary")
    rows = table_rows(page)
    assert [r[1] for r in rows] == TABLE_OPS[lang]
    assert [r[0] for r in rows][-1] == "−(a × 2) / b ** 3 − c"


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_nudge_and_table_look_like_controls(browser, site_server, lang, viewport):
    page = lesson_page(browser, site_server, lang, viewport=viewport)
    for panel in ("tdg-nudge", "tdg-table"):
        summary = page.locator(f"{SANDBOX} details.{panel} > summary")
        look = summary.evaluate("""el => {
          const before = getComputedStyle(el, '::before'), css = getComputedStyle(el);
          const box = el.closest('details');
          return {icon: before.content !== 'none' && before.display !== 'none'
                        && (before.maskImage || before.webkitMaskImage || 'none') !== 'none',
                  border: parseFloat(css.borderTopWidth), radius: parseFloat(css.borderTopLeftRadius),
                  cursor: css.cursor, panelBorder: parseFloat(getComputedStyle(box).borderLeftWidth),
                  chevron: getComputedStyle(el, '::after').content !== 'none'};
        }""")
        assert not look["icon"], f"{panel}: no pencil 'note' icon"
        assert look["border"] >= 1 and look["radius"] >= 4 and look["cursor"] == "pointer", look
        assert look["panelBorder"] == 0, f"{panel}: not boxed like an admonition"
        assert look["chevron"], f"{panel}: a disclosure chevron says it opens"


@pytest.mark.parametrize("lang", LANGS)
def test_the_code_strip_keeps_its_arrow_with_its_words(browser, site_server, lang):
    page = open_lesson(browser, site_server, lang, viewport=PHONE, has_touch=True, is_mobile=True)
    try:
        type_expression(page, "-(a * 2) / b ** 3 - c")
        for direction in ("forward", "backward"):
            page.click(f"{SANDBOX} [data-action={direction}]")
            total = int(page.locator(f"{SANDBOX} input[name=time]").get_attribute("max") or 0)
            for t in range(1, total + 1):
                seek(page, t)
                tops = page.evaluate("""() => {
                  const note = document.querySelector('[data-sandbox] .tdg-code-note');
                  const text = note.firstChild;
                  if (!text || !text.textContent.startsWith('←')) return null;
                  const at = i => {
                    const r = document.createRange();
                    r.setStart(text, i);
                    r.setEnd(text, i + 1);
                    return r.getBoundingClientRect().top;
                  };
                  return [at(0), at(2)];
                }""")
                if tops is not None:
                    assert abs(tops[0] - tops[1]) < 2, f"{direction} {t}: the arrow ends a line alone"
    finally:
        page.context.close()


@pytest.mark.parametrize("lang", LANGS)
def test_option_buttons_line_up_on_a_phone(browser, site_server, lang):
    page = lesson_page(browser, site_server, lang, viewport=PHONE)
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


# ---- 9. error messages -----------------------------------------------------------------------------

QUOTE = re.compile(r"[“«„]([^”»“]*)[”»“]")


def error_text(page) -> str:
    return page.locator(f"{SANDBOX} .tdg-error").inner_text()


def place_is_inside(message: str, place: str) -> bool:
    at = message.find(place)
    return at >= 0 and re.search(r"[.!?]", message[at + len(place):]) is not None


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_errors_name_their_place_inside_the_sentence(browser, site_server, lang, viewport):
    page = lesson_page(browser, site_server, lang, viewport=viewport)
    for expression, place in [("a ** b", "b"), ("(a + b", "(a + b"), ("a + b)", "a + b)"), ("a +", "a +"),
                              ("a b", "b"), ("log(a - a)", "log(a - a)")]:
        type_expression(page, expression)
        message = error_text(page)
        assert place_is_inside(message, place), f"{expression}: {message}"
        assert not re.search(r"[.!?] (at|в|kohas) [“«„]", message), f"appended after the full stop: {message}"


@pytest.mark.parametrize("lang", LANGS)
def test_division_by_zero_marks_the_divisor(browser, site_server, lang):
    page = lesson_page(browser, site_server, lang)
    type_expression(page, "a / (b - b)")
    assert page.locator(f"{SANDBOX} mark.tdg-error-span").inner_text() == "(b - b)"
    assert place_is_inside(error_text(page), "(b - b)")
    type_expression(page, "a / b")
    set_values(page, {"b": 0})
    assert page.locator(f"{SANDBOX} mark.tdg-error-span").inner_text() == "b"
    flagged = page.locator(f"{SANDBOX} [aria-invalid=true][data-node]")
    assert flagged.count() == 1, "the division's card is flagged"


@pytest.mark.parametrize("lang", LANGS)
def test_long_expressions_are_quoted_in_short(browser, site_server, lang):
    page = lesson_page(browser, site_server, lang)
    long = "a" + " + a" * 60  # 241 characters
    big = " + ".join("abcdefghijklmnopqrstu") + " * 2 * 3 * 4"  # 93 characters, 44 nodes
    for expression in (long, big, "(" + "a + " * 30 + "a"):
        page.locator(f"{SANDBOX} input[name=expression]").fill(expression)
        settle(page)
        message = error_text(page)
        assert all(len(q) <= 21 for q in QUOTE.findall(message)), message
        assert len(message) < 160, message


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_invisible_characters_are_named_by_code_point(browser, site_server, lang, viewport):
    page = lesson_page(browser, site_server, lang, viewport=viewport)
    type_expression(page, "a +\u200b b")
    message = error_text(page)
    assert "U+200B" in message and "\u200b" not in message, message
    assert "“”" not in message and "«»" not in message and "„“" not in message
    mark = page.locator(f"{SANDBOX} mark.tdg-error-span")
    assert mark.get_attribute("data-start") == "3" and mark.bounding_box()["width"] > 2, "the mark is visible"


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_no_rotation_hint_while_the_graph_lies_flat_to_pan(browser, site_server, viewport):
    page = lesson_page(browser, site_server, viewport=viewport)
    hint = page.locator(f"{SANDBOX} .tdg-drag-hint")
    assert hint.is_visible()
    type_expression(page, " * ".join("a" * 39))
    assert page.locator(f"{SANDBOX} .tdg-stage[data-pannable]").count() == 1, "a 39-factor product pans"
    assert hint.is_hidden(), "a drag pans this graph: the hint would speak of rotating"
    type_expression(page, "a * b")
    assert hint.is_visible()


@pytest.mark.parametrize("lang", LANGS)
def test_on_a_phone_the_node_table_fits_its_column(browser, site_server, lang):
    """Every column, grad included, in view without scrolling the table sideways."""
    page = lesson_page(browser, site_server, lang, viewport=PHONE)
    page.click(f"{SANDBOX} .tdg-table summary")
    for expression in ("(a + b) * c", "-(a * 2) / b ** 3 - c"):
        type_expression(page, expression)
        fit = page.evaluate("""() => { const t = document.querySelector('[data-sandbox] .tdg-table table');
            const grad = t.querySelector('thead th:last-child').getBoundingClientRect();
            return {scroll: t.scrollWidth, client: t.clientWidth, gradRight: grad.right,
                    right: t.getBoundingClientRect().right}; }""")
        assert fit["scroll"] <= fit["client"] + 1 and fit["gradRight"] <= fit["right"] + 1, (expression, fit)
