"""Cards and edge labels say the right thing, in a real browser, once in English (nothing here depends
on the language): card titles name their node without repeating the operation or cutting a term, and
the whole expression is on hover, on keyboard focus and in the node table; numbers of the expression
wear the const badge; every edge label's shown factors multiply to its shown contribution. The words
of each language: test_browser_words.py.
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
    moment_hash,
    open_moment,
    set_values,
    settle,
    table_rows,
    type_expression,
)

pytestmark = pytest.mark.browser

SANDBOX = "[data-sandbox]"
PRESETS = 6
EXPRESSIONS = [  # beyond the presets: long titles, literals, derived operations, many labels
    ("relu(w * x + v * y + b) * relu(a * c - d) + exp(e / f) * log(g + h)", {}),
    ("1 / (1 + exp(-a))", {"a": 0.7}),
    ("-(3 - a) / (a * a - 2 * -a)", {"a": 1.3}),
    ("(a * b - c) ** 2 / 2", {"a": 0.37, "b": 2.9, "c": -1.1}),
    ("log(a) * exp(b) + c ** 3", {"a": 2.5, "b": 0.3, "c": -0.7}),
]
OPERATOR_AT_END = re.compile(r"[+×−/*]\s*\)?$")


# ---- cards name their node well -----------------------------------------------------------------

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


def test_titles_never_repeat_the_operation_nor_cut_a_term(browser, site_server):
    page = lesson_page(browser, site_server)
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
    # ÷ is drawn larger than the other signs (walkthrough 14: under 1:1 its dots merged with its bar
    # and it read as +): the same monospace advance, 1.35 times as wide on screen.
    type_expression(page, "a / b + c")
    widths = page.evaluate(f"""() => Object.fromEntries([...document.querySelectorAll('{SANDBOX} .tdg-glyph')]
        .map(g => [g.textContent, g.getBoundingClientRect().width]))""")
    assert widths["÷"] >= 1.3 * widths["+"], widths
    # ...but not with a flagged card's ⚠ after it, which would cover the title (review 49)
    set_values(page, {"a": 1e300, "b": 1e-300})
    assert page.evaluate(f"""() => {{ const card = document.querySelector('{SANDBOX} .tdg-card.is-flagged');
        const glyph = card.querySelector('.tdg-glyph').getBoundingClientRect();
        return glyph.right <= card.querySelector('.tdg-label').getBoundingClientRect().left; }}""")
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
    # The site's one-key shortcuts stay out of the graph, as out of a field (walkthrough 21: "p" on a card
    # went to page 00, "s" opened the search).
    # The page's address, not its fragment: a pulse that plays moves the fragment's time.
    path = page.evaluate("location.pathname")
    for key in ("p", "n", "s", "/"):
        page.keyboard.press(key)
    assert page.evaluate("location.pathname") == path
    assert card.evaluate("el => el === document.activeElement")
    assert not page.evaluate("document.getElementById('__search').checked")


def test_numbers_of_the_expression_wear_the_const_badge(browser, site_server):
    page = lesson_page(browser, site_server)
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


# ---- labels add up ------------------------------------------------------------------------------

LABEL = re.compile(r"^(\S+) × (\(−\S+\)|[^\s(−]\S*) ([=≈]) (\S+)$")  # "1 × (−1)": a negative factor in ()


def number(text: str) -> float:
    return float(text.strip("()").replace(MINUS, "-"))


def last_digit(text: str) -> float:
    """The value of one unit in the last shown digit: "0.4046" -> 1e-4, "1.235e5" -> 1e2."""
    mantissa, _, exponent = text.replace(MINUS, "-").partition("e")
    decimals = len(mantissa.partition(".")[2])
    return 10.0 ** (int(exponent or 0) - decimals)


FULL_LABELS = """() => [...document.querySelectorAll(
    '[data-sandbox] .tdg-edge-label[data-form=full]:not([hidden])')].map(el => el.innerText)"""


def check_labels(texts: list[str], seen: set[str]) -> None:
    for text in texts:
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
    for texts in at_each_time(page, range(1, total + 1), FULL_LABELS):
        check_labels(texts, seen)


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
    assert any("0.1488 × 2.718 ≈ 0.4046" in s for s in seen), "exp and log: the card's digits, and ≈"
    assert len(seen) > 40
    assert page.errors == []


# Each derived card's badge: [its card's note shown, badge shown, badge meets the note or a number].
DERIVED_BADGES = f"""() => [...document.querySelectorAll('{SANDBOX} .tdg-card:has([data-badge=derived])')]
  .map(c => {{
  const meet = (a, b) => a.left < b.right && a.right > b.left && a.top < b.bottom && a.bottom > b.top;
  const badge = c.querySelector('[data-badge]'), box = badge.getBoundingClientRect();
  const note = c.querySelector('.tdg-note'), shown = Boolean(note?.checkVisibility());
  const near = [...c.querySelectorAll('.tdg-num, .tdg-note, .tdg-delta')].filter(n => n.checkVisibility());
  const visible = badge.checkVisibility({{visibilityProperty: true}});
  return [shown, visible, visible && near.some(n => meet(n.getBoundingClientRect(), box))]; }})"""


def test_a_derived_card_keeps_its_badge_while_its_working_shows(browser, site_server):
    """Walk 37: the lesson says subtraction and division wear a derived badge, and all through the
    forward pass's end the output's was missing: its working (2 − (−0.3) = 2.3) took the card's top
    edge and hid it. The badge moves to the bottom edge, clear of the tab and the numbers."""
    page = lesson_page(browser, site_server)
    open_moment(page, "a - b / c", {"a": 2, "b": 3, "c": -10}, "forward", 2)
    assert sorted(page.evaluate(DERIVED_BADGES)) == [[False, True, False], [True, True, False]]
    # A nudge's change takes the bottom edge too: there the badge never covers it (it gives way).
    hash = moment_hash("a - b / c", {"a": 2, "b": 3, "c": -10}, "forward", 2)
    page.evaluate("h => { location.hash = h; }", f"{hash}&open=nudge&nudge=a:0.001")
    page.wait_for_selector(f"{SANDBOX} .tdg-card[data-op='-'] .tdg-delta:not([hidden])")
    settle(page)
    badges = page.evaluate(DERIVED_BADGES)
    assert len(badges) == 2 and all(not meets for _, _, meets in badges), badges
    assert page.errors == []


# The tabs over cards on screen that cover another card: [its text, covered or not], one per tab shown.
NOTES_OVER_CARDS = f"""() => {{ const cards = [...document.querySelectorAll('{SANDBOX} .tdg-card')];
  return [...document.querySelectorAll('{SANDBOX} .tdg-note')].filter(n => n.checkVisibility()).map(n => {{
    const b = n.getBoundingClientRect(), own = n.closest('.tdg-card');
    return [n.textContent, cards.some(c => {{ const r = c.getBoundingClientRect(); return c !== own
      && b.left < r.right && b.right > r.left && b.top < r.bottom && b.bottom > r.top; }})]; }}); }}"""


def test_how_a_value_was_made_shows_over_its_card_but_never_over_another(browser, site_server):
    """Walkthrough 15: on a phone "−0.5108 × (−3) = 1.532", the tab over log(a) * b's card just after
    its value arrived, covered log's grad. Where it would cover another card it does not show (the
    line under the graph says it); where there is room it does."""
    page = lesson_page(browser, site_server)
    open_moment(page, "(a + b) * c", {"a": 2, "b": -3, "c": 10}, "forward", 0.8)
    assert page.evaluate(NOTES_OVER_CARDS) == [["2 + (−3) = −1", False]]
    assert page.errors == []
    page = lesson_page(browser, site_server, viewport=PHONE)
    open_moment(page, "log(a) * b", {"a": 0.6, "b": -3}, "forward", 1.8)
    page.evaluate(f"document.querySelector('{SANDBOX} .tdg-stage').scrollIntoView({{block: 'center'}})")
    settle(page)
    assert [note for note in page.evaluate(NOTES_OVER_CARDS) if note[1]] == []
    # Walk 34: a phone card's longest number touched its italic key, "g−1e−300" read as one word; it
    # keeps apart from the key and inside its card.
    open_moment(page, "(a + b) * c", {"a": 1e-300, "b": -3, "c": -1e-300}, "backward", 99)
    rows = page.evaluate(f"""() => [...document.querySelectorAll('{SANDBOX} .tdg-card .tdg-row')].map(r => {{
        const key = r.querySelector('.tdg-key-short').getBoundingClientRect();
        const num = r.querySelector('.tdg-num').getBoundingClientRect();
        const card = r.closest('.tdg-card').getBoundingClientRect();
        return [r.querySelector('.tdg-num').textContent, num.left - key.right, card.right - num.right];
    }})""")
    assert f"{MINUS}1e{MINUS}300" in [text for text, _, _ in rows]
    assert all(gap >= 2.5 and room >= 1.5 for _, gap, room in rows), rows
    assert page.errors == []
