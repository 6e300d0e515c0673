"""Predict, then check, and a graph a keyboard and a screen reader can walk, in a real browser, in en,
ru and et (decimal commas, the spoken names' words), once per language, in the language's one desktop
page load (test_browser_words.py, test_the_sandbox_speaks_the_pages_language runs
predict_then_check_and_walk_the_graph): the checks read values, names and focus, not the layout, so a
phone adds nothing they could see.

Predict: exercise (a) opens the full sandbox with (a + b) * c, a = 1, b = 4, c = −2, whose gradients
are a.grad = b.grad = c = −2 and c.grad = a + b = 5. Walk: the default graph, (a + b) * c with
a = 2, b = −3, c = 10.
"""

from __future__ import annotations

import json
import re
from urllib.parse import quote

import pytest

from .browser_helpers import (
    DESKTOP,
    LANDSCAPE,
    MINUS,
    PHONE,
    SETTLED,
    grads,
    lesson_page,
    moment,
    moment_hash,
    pause,
    seek,
    set_range,
    settle,
)
from .test_browser_links_and_accessibility import axe_violations

FULL = "#tinydag-1"
PREDICT = f"{FULL} .tdg-predict"
EXERCISE_A = "#tinydag-1?expr=" + quote("(a + b) * c") + "&vals=" + quote("a:1,b:4,c:-2") + "&dir=forward&t=2"
NUMBER = re.compile(r"[−-]?\d+(?:[.,]\d+)?")
ANSWERS = {"−2", "-2", "5"}  # the exercise's gradients, as any text could write them
pytestmark = pytest.mark.browser


def field(page, name: str):
    return page.locator(f"{PREDICT} input[name=predict-{name}]")


def verdicts(page) -> dict[str, str | None]:
    return page.evaluate(f"Object.fromEntries([...document.querySelectorAll('{PREDICT} input')]"
                         ".map(i => [i.name.slice(8), i.dataset.verdict ?? null]))")


def message(page, name: str) -> str:
    """What a screen reader hears as the field's description (aria-describedby)."""
    return field(page, name).evaluate(
        "el => (el.getAttribute('aria-describedby') || '').split(' ').filter(Boolean)"
        ".map(id => document.getElementById(id).textContent).join(' ')")


def block_text(page) -> str:
    """Everything the predict block says or carries: text, attribute values, values typed."""
    return page.locator(PREDICT).evaluate(
        "el => [el.textContent, ...[el, ...el.querySelectorAll('*')].flatMap(n => "
        "[...n.attributes].map(a => a.value))].join(' ')")


def predict_then_check_and_walk_the_graph(page, lang: str) -> None:
    """In the language's one desktop page load (test_browser_words.py,
    test_the_sandbox_speaks_the_pages_language): exercise (a)'s moment opened by its address, its
    predictions, then the keyboard walk of the default graph, loaded by its preset (which empties them)."""
    page.evaluate("h => { location.hash = h; }", EXERCISE_A + "&local=0&final=0")  # options as on a load
    page.wait_for_function(f"document.querySelector('{FULL} input[name=num-b]').value === '4'")
    settle(page)
    predict_then_check(page, lang, "desktop")
    page.click(f"{FULL} [data-action=preset] >> nth=0")  # the default graph (a = 2, b = −3, c = 10)
    # A preset is a new setup: what was typed was about another graph (a learner took a stale
    # prediction for part of the next exercise).
    assert [field(page, name).input_value() for name in "abc"] == ["", "", ""]
    walk_the_graph(page, lang)


def predict_then_check(page, lang: str, size: str) -> None:
    page.locator(PREDICT).scroll_into_view_if_needed()
    assert sorted(verdicts(page)) == ["a", "b", "c"], "one field per leaf"
    assert set(grads(page).values()) == {"--"}, "no gradient on the cards yet"
    # Nothing reveals an answer before Check: not the block's text, attributes or names.
    assert not ANSWERS & set(NUMBER.findall(block_text(page))), block_text(page)
    # An empty field and one that is not a number: a message there, no verdicts, no NaN.
    decimal = "." if lang == "en" else ","
    field(page, "a").fill(f"{MINUS}2")
    field(page, "b").fill("abc")
    page.click(f"{PREDICT} [data-action=check]")
    assert verdicts(page) == {"a": None, "b": None, "c": None}
    for name in ("b", "c"):
        assert field(page, name).get_attribute("aria-invalid") == "true"
        assert message(page, name) and "NaN" not in message(page, name)
    assert "abc" in message(page, "b")
    # under the row of fields, each message names its field (walkthrough 15)
    assert message(page, "b").startswith("b.grad: ") and message(page, "c").startswith("c.grad: ")
    assert moment(page)["direction"] == "forward", "nothing played: nothing revealed"
    # Right and wrong, with the language's decimal comma; Enter in a field checks.
    field(page, "b").fill(f"{MINUS}2{decimal}5")
    # (a reading problem mended: its message goes, and nothing says an answer changed: none was marked)
    assert page.locator(f"{PREDICT} [aria-live]").inner_text() == "" and message(page, "b") == ""
    field(page, "c").fill(f"5{decimal}0")
    field(page, "c").press("Enter")
    assert verdicts(page) == {"a": "right", "b": "wrong", "c": "right"}
    # a ✗ inside the wrong field as a ✓ inside the right ones (walkthrough 15: a border's colour alone),
    # once the backward pass has brought the gradients (test_each_verdict_waits_for_the_gradient_it_judges)
    m = moment(page)
    assert m["direction"] == "backward" and (m["playing"] or m["time"] == m["duration"]), "Check plays"
    pause(page)
    seek(page, 0)  # no gradient yet: the outcome says what the marks wait for, in the page's language
    assert spaced(page.locator(f"{PREDICT} [aria-live]").inner_text()) == WAITING_IN[lang]
    seek(page, moment(page)["duration"])
    marks = page.evaluate(f"""[...document.querySelectorAll('{PREDICT} .tdg-predict-field')]
        .map(f => getComputedStyle(f, '::after').content)""")
    assert marks == ['"✓" / ""', '"✗" / ""', '"✓" / ""'], marks
    assert field(page, "b").get_attribute("aria-invalid") is None
    why = message(page, "b")
    assert f"b → (a + b) → (a + b) × c: 1 × ({MINUS}2) × 1 = {MINUS}2" in why, why
    assert "NaN" not in why and "{" not in why
    summary = page.locator(f"{PREDICT} [aria-live]").inner_text()
    # (walk 36: the et "Õigeid vastuseid: 2/3." read as the fraction two thirds, beside fields that take
    # fractions)
    assert summary == {"en": "2 of 3 right.", "ru": "Верно 2 из 3.", "et": "3-st vastusest 2 on õiged."}[lang]
    if size == "desktop":
        settle(page)
        serious = axe_violations(page, "{include: ['[data-sandbox]', '[data-sandbox-compact]']}")
        assert serious == [], json.dumps(serious, ensure_ascii=False, indent=1)
    # Come back to the wrong answer with a click: it is selected, so what is typed replaces it
    # (walkthrough 31: "-2" typed after a ✗ on "2" made "2-2"); it is unmarked until the next Check.
    field(page, "b").click()
    field(page, "b").press_sequentially(f"{MINUS}2{decimal}5")
    assert field(page, "b").input_value() == f"{MINUS}2{decimal}5" and verdicts(page)["b"] is None
    if lang == "en":
        # ...and checked from it with Enter, the focus staying there: its ✗ selects it as it shows, so
        # what is typed replaces it too (walk 33: "-1", ✗, then "5" made "-15").
        field(page, "b").fill("7")
        field(page, "b").press("Enter")
        page.wait_for_function(f"""() => document.querySelector('{PREDICT} input[name=predict-b]')
            .parentElement.closest('[data-verdict=wrong]:not([data-pending])')""", timeout=15_000)
        field(page, "b").press_sequentially("-2.5")
        assert field(page, "b").input_value() == "-2.5"
        # ...and clicked to be mended, the focus still there: still selected (walk 38: the click put the
        # caret at the end of "-5", and "5" made "-55"); a second click places the caret.
        field(page, "b").press("Enter")
        page.wait_for_function(f"""() => {{
            const i = document.querySelector('{PREDICT} input[name=predict-b]');
            return i.parentElement.closest('[data-verdict=wrong]:not([data-pending])')
                && i.selectionStart === 0 && i.selectionEnd === i.value.length; }}""", timeout=15_000)
        selection = "i => [i.selectionStart, i.selectionEnd, i.value.length]"
        field(page, "b").click()
        assert field(page, "b").evaluate(selection) == [0, 4, 4]
        field(page, "b").click()
        start, end, _ = field(page, "b").evaluate(selection)
        assert start == end, "the second click places the caret"
        field(page, "b").press("Control+A")
        field(page, "b").press_sequentially("7")
        assert field(page, "b").input_value() == "7"
    # New numbers: the verdicts go, the answers stay for the learner to check again (walkthroughs 22,
    # 23: trying another value lost them all), and the outcome says so; a key typed in one starts it
    # anew (walkthrough 12: a new answer typed after an old "−2" read "−23"); Backspace edits it.
    # A checked answer typed in again: the outcome no longer counts it, and says what to do.
    field(page, "a").press("End")
    field(page, "a").press_sequentially("0")
    assert spaced(page.locator(f"{PREDICT} [aria-live]").inner_text()) == CHANGED_IN[lang]
    assert verdicts(page)["a"] is None
    typed = [field(page, name).input_value() for name in "abc"]
    set_range(page, f"{FULL} input[name=var-a]", 2)
    settle(page)
    # ...and the cards do not show the new gradients before Check does (walkthrough 24: c.grad = 7 was
    # on screen while its field asked for it): the forward pass's end, the new numbers' values.
    m = moment(page)
    assert m["direction"] == "forward" and m["time"] == m["duration"] and not m["playing"], m
    assert set(grads(page).values()) == {"--"}, grads(page)
    assert verdicts(page) == {"a": None, "b": None, "c": None}
    assert [field(page, name).input_value() for name in "abc"] == typed
    assert spaced(page.locator(f"{PREDICT} [aria-live]").inner_text()) == AGAIN_IN[lang]
    kept = field(page, "a").evaluate(
        "el => [getComputedStyle(el).borderTopStyle, getComputedStyle(el).fontStyle]")
    assert kept == ["dashed", "normal"], "kept, unmarked: not a placeholder's grey italics"
    field(page, "b").press_sequentially("3")  # the first key replaces a kept answer...
    field(page, "c").press("End")  # ...a deletion edits it...
    field(page, "c").press("Backspace")
    # ...and so does a key once the caret has been moved in it (walkthrough 25: a sign could not be mended)
    field(page, "a").press("Home")
    assert field(page, "a").get_attribute("data-kept") is None, "edited, no longer kept"
    field(page, "a").press_sequentially("-")
    assert [field(page, name).input_value() for name in "abc"] == ["-" + typed[0], "3", typed[2][:-1]]
    # Kept once: the next numbers leave the graph where the reader has taken it (review 56: each move
    # took it back to the forward pass, a drag to watch the gradients change too). (A field emptied:
    # Backward with every answer typed would check them, test_backward_with_every_answer_typed_checks_them.)
    field(page, "c").fill("")
    page.click(f"{FULL} [data-action=backward]")
    pause(page)
    seek(page, moment(page)["duration"])
    set_range(page, f"{FULL} input[name=var-a]", 3)
    settle(page)
    m = moment(page)
    assert m["direction"] == "backward" and m["time"] == m["duration"], m
    assert [field(page, name).input_value() for name in "bc"] == ["3", ""]
    # A new expression: the fields follow its leaves. The answers checked on the old one go, kept or
    # not, with the line about them; an answer typed since, unchecked, stays with a leaf that stays.
    expression = page.locator(f"{FULL} input[name=expression]")
    expression.fill("a * a")
    settle(page)
    assert list(verdicts(page)) == ["a"] and field(page, "a").input_value() == ""
    assert page.locator(f"{PREDICT} [aria-live]").inner_text() == ""
    field(page, "a").fill(f"{MINUS}2")
    expression.fill("a * a + 1")
    settle(page)
    assert field(page, "a").input_value() == f"{MINUS}2"


CARD_NAMES = """sel => Object.fromEntries([...document.querySelectorAll(sel + ' [data-node]')].map(c =>
  [c.getAttribute('aria-label'), document.getElementById(c.getAttribute('aria-labelledby')).textContent]))"""


FOCUSED = """() => { const card = document.activeElement;
  if (!card?.dataset?.node) return null;
  return document.getElementById(card.getAttribute('aria-labelledby')).textContent.split(': ')[0]; }"""


def focused(page) -> str | None:
    """The expression of the focused card (its spoken name's start), or None when no card has focus."""
    return page.evaluate(FOCUSED)


def walk_the_graph(page, lang: str) -> None:
    page.click(f"{FULL} [data-action=backward]")
    seek(page, 0)
    tab_stops = page.evaluate(f"[...document.querySelectorAll('{FULL} [data-node]')]"
                              ".filter(c => c.tabIndex === 0).length")
    assert tab_stops == 1, "one card in the tab order"
    # Tab from the stage lands on the graph's root card.
    page.focus(f"{FULL} .tdg-stage")
    page.keyboard.press("Tab")
    assert focused(page) == "(a + b) × c"
    names = page.evaluate(CARD_NAMES, FULL)
    not_reached = {"en": "not reached yet", "ru": "ещё не дошёл", "et": "pole veel jõudnud"}[lang]
    assert all(not_reached in name for name in names.values()), names
    assert names["a"].startswith("a: ") and names["a"].endswith("a + b"), names["a"]
    # The name Chrome computes is the sentence (aria-labelledby), not the bare expression.
    # (Within the full sandbox: the compact player above, once awake, has a root card of the same name.)
    root = page.locator(FULL).get_by_role("group", name=re.compile(r"^\(a \+ b\) × c: .*" + MINUS + "10"))
    assert root.count() == 1
    walk = [("ArrowLeft", "a + b"), ("ArrowLeft", "a"), ("ArrowLeft", "a"), ("ArrowDown", "b"),
            ("ArrowRight", "a + b"), ("ArrowLeft", "b"), ("ArrowRight", "a + b"),
            ("ArrowRight", "(a + b) × c"), ("ArrowLeft", "a + b"), ("Home", "a"), ("End", "(a + b) × c")]
    for key, expected in walk:
        page.keyboard.press(key)
        assert focused(page) == expected, f"{key} -> {focused(page)}, expected {expected}"
    # The names follow the backward wave: the root's grad arrives first, the leaves' last.
    seek(page, 1)
    names = page.evaluate(CARD_NAMES, FULL)
    assert not_reached not in names["(a + b) × c"] and not_reached in names["a"], names
    seek(page, 10_000)
    names = page.evaluate(CARD_NAMES, FULL)
    assert all(not_reached not in name for name in names.values()), names
    assert "grad 10" in names["a"] and f"grad {MINUS}1" in names["c"], names
    # Playing the pulse does not move the focus.
    page.keyboard.press("Home")
    page.evaluate(f"document.querySelector('{FULL} [data-action=play]').click()")
    page.wait_for_timeout(300)
    assert moment(page)["playing"] and focused(page) == "a"
    # A rebuilt graph keeps a card that stays, and hands a card that is gone to the root.
    retype = "(e, text) => { e.value = text; e.dispatchEvent(new Event('input', {bubbles: true})); }"
    page.locator(f"{FULL} input[name=expression]").evaluate(retype, "a * b")
    settle(page)
    assert focused(page) == "a", "the focused leaf is still there"
    page.keyboard.press("End")
    assert focused(page) == "a × b"
    page.locator(f"{FULL} input[name=expression]").evaluate(retype, "(a + b) * c")
    settle(page)
    assert focused(page) == "(a + b) × c", "the focused card is gone: focus goes to the root"


# Each field's leaf: the grad its card shows, whether the field wears its mark, whether its words are
# laid out, whether they describe the field (what a screen reader hears on it).
SHOWN = f"""() => Object.fromEntries([...document.querySelectorAll('{PREDICT} .tdg-predict-field')]
  .map(row => {{
  const card = document.querySelector('{FULL} [data-node][aria-label="' + row.dataset.var + '"]');
  const input = row.querySelector('input');
  const message = document.getElementById(input.id + '-message');
  return [row.dataset.var, [card.querySelector('[data-field=grad]').textContent,
    getComputedStyle(row, '::after').content !== 'none', getComputedStyle(message).display !== 'none',
    input.getAttribute('aria-describedby') === message.id]];
}}))"""


def test_each_verdict_waits_for_the_gradient_it_judges(browser, site_server):
    """Check plays the backward pass that answers: a field's ✓ or ✗ and its words show as its card gets
    its whole gradient (the rule: verdictWaits, node), not at step 1 (walkthrough 21: the explanation
    was read while every card still said --); dragged back or played forward, they wait again; the
    final gradients show them all. The outcome waits for the last one."""
    page = lesson_page(browser, site_server, hash=moment_hash("a * a + b", {"a": 3, "b": 1}))
    # a.grad = 2a = 6 comes in two hand-offs of 3 (its card says 3 between them); b.grad = 1.
    field(page, "a").fill("3")
    field(page, "b").fill("1")
    page.click(f"{PREDICT} [data-action=check]")
    pause(page)
    assert verdicts(page) == {"a": "wrong", "b": "right"}, "judged at Check"
    seen = []
    for k in range(int(moment(page)["duration"]) + 1):
        seek(page, k)
        if k == 0:
            waiting_height = page.locator(PREDICT).bounding_box()["height"]
        shown = page.evaluate(SHOWN)
        for name, whole in (("a", "6"), ("b", "1")):
            grad, mark, words, described = shown[name]
            # the mark, and for a screen reader the words, as the card has its whole gradient
            assert mark == described == (grad == whole), (k, name, shown)
            if name == "a":  # (b's are for screen readers alone: it is right)
                assert words == (grad == whole), (k, shown)
        seen.append(shown["a"][0])
        # The outcome comes with the last mark (walkthrough 22: "1 of 2 right" told of a wrong answer
        # before any mark); until then it says what they wait for.
        assert summary(page) == ("1 of 2 right." if shown["a"][1] and shown["b"][1] else WAITING), (k, shown)
    assert seen[0] == "--" and "3" in seen and seen[-1] == "6", seen  # the half-way 3 had no mark
    seek(page, 0)
    assert not any(shown[1] for shown in page.evaluate(SHOWN).values())
    # The forward pass brings no gradient: no mark either (walkthrough 22: they all showed on --).
    page.click(f"{FULL} [data-action=forward]")
    pause(page)
    seek(page, moment(page)["duration"])
    assert moment(page)["direction"] == "forward"
    assert not any(shown[1] for shown in page.evaluate(SHOWN).values()) and summary(page) == WAITING
    page.click(f"{FULL} input[name=final-gradients]")
    settle(page)
    assert all(shown[1] for shown in page.evaluate(SHOWN).values()) and page.evaluate(SHOWN)["a"][2]
    assert summary(page) == "1 of 2 right."
    # A field typed in again: its verdict and the outcome go, and no later frame brings them back
    # (review 55: the old tally came back with the next frame drawn); the line says what to do.
    field(page, "a").fill("6")
    page.hover(f"{FULL} .tdg-stage")
    seek(page, 1)
    assert verdicts(page) == {"a": None, "b": "right"}
    assert summary(page) == CHANGED_IN["en"], summary(page)
    # Nothing on the panel tells a right answer from a wrong one before its mark (walkthrough 23: the
    # room kept for a wrong answer's words gave them away): all right now, it looks as it did.
    page.click(f"{FULL} input[name=final-gradients]")  # off again
    page.click(f"{PREDICT} [data-action=check]")
    pause(page)
    seek(page, 0)
    assert verdicts(page) == {"a": "right", "b": "right"}
    assert not any(shown[1] for shown in page.evaluate(SHOWN).values()) and summary(page) == WAITING
    assert page.locator(PREDICT).bounding_box()["height"] == waiting_height
    assert page.errors == []


def test_backward_with_every_answer_typed_checks_them(browser, site_server):
    """Walk 39: with the answers typed, Backward (the lesson's button from its first screen, and named in
    exercise (a)'s words) played the whole pass and marked nothing. Where every field has an answer no
    Check has marked, it is Check; with one left empty, it plays as ever."""
    page = lesson_page(browser, site_server, hash=moment_hash("a * a + b", {"a": 3, "b": 1}))
    backward = page.locator(f"{FULL} [data-action=backward]")
    field(page, "a").fill("6")
    backward.click()
    pause(page)
    assert moment(page)["direction"] == "backward"
    assert verdicts(page) == {"a": None, "b": None} and summary(page) == "", "one empty: not a Check"
    field(page, "b").fill("2")
    backward.click()
    assert verdicts(page) == {"a": "right", "b": "wrong"}, "judged as Check judges"
    assert moment(page)["direction"] == "backward" and moment(page)["playing"]
    page.wait_for_function(f"document.querySelector('{PREDICT} .tdg-predict-summary').textContent"
                           " === '1 of 2 right.'", timeout=60_000)
    # Judged: Backward plays again, and the marks stay as they were
    backward.click()
    assert verdicts(page) == {"a": "right", "b": "wrong"} and moment(page)["time"] < 1
    # A mended answer has no mark: Backward checks them again (walk 40: it stayed unmarked, "Changed
    # answers are marked at the next Check" under it)
    field(page, "b").fill("1")
    assert summary(page) == CHANGED_IN["en"]
    backward.click()
    assert verdicts(page) == {"a": "right", "b": "right"}
    assert page.errors == []


def test_a_reader_who_moved_on_during_the_answer_is_not_pulled_back(browser, site_server):
    """The first wrong answer's worked chain comes into view when the pass that Check plays ends
    (test_browser_caption.py), unless the reader has scrolled meanwhile (review 55)."""
    page = lesson_page(browser, site_server, viewport=PHONE, hash=EXERCISE_A + "&open=predict")
    for name, value in (("a", "1"), ("b", "-2"), ("c", "5")):
        field(page, name).fill(value)
    page.click(f"{PREDICT} [data-action=check]")
    page.evaluate(SETTLED)
    y = page.evaluate("scrollY")
    page.mouse.wheel(0, -120)
    page.wait_for_function("y => scrollY !== y", arg=y)
    page.evaluate(SETTLED)
    moved = page.evaluate("scrollY")
    page.wait_for_function(f"document.querySelector('{PREDICT} .tdg-predict-summary').textContent"
                           " === '2 of 3 right.'", timeout=60_000)
    page.evaluate(SETTLED)
    assert page.evaluate("scrollY") == moved
    assert page.errors == []


def test_every_answer_right_brings_the_outcome_into_view(browser, site_server):
    """Walk 33: on a phone turned to landscape, the pass that Check played ended with the graph and its
    words on screen, and the marks and "3 of 3 right" under them, out of sight: with no wrong answer to
    show, the outcome comes into view."""
    page = lesson_page(browser, site_server, viewport=LANDSCAPE, hash=EXERCISE_A + "&open=predict")
    for name, value in (("a", "-2"), ("b", "-2"), ("c", "5")):
        field(page, name).fill(value)
    page.click(f"{PREDICT} [data-action=check]")
    summary = page.locator(f"{PREDICT} .tdg-predict-summary")
    page.wait_for_function(f"document.querySelector('{PREDICT} .tdg-predict-summary').textContent"
                           " === '3 of 3 right.'", timeout=60_000)
    page.evaluate(SETTLED)
    box = summary.bounding_box()
    assert 0 <= box["y"] and box["y"] + box["height"] <= LANDSCAPE["height"] - 8, box  # with room under it
    # Walk 42, M1: and the graph beside it, whole (the outcome's line came with card c alone).
    stage = page.locator(f"{FULL} .tdg-stage").bounding_box()
    assert stage["y"] >= 48 and stage["y"] + stage["height"] <= LANDSCAPE["height"], stage
    assert page.errors == []


def spaced(text: str) -> str:
    """The words with plain spaces (ru and et keep a short word with the next one: a no-break space)."""
    return text.replace("\u00a0", " ")


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_check_that_cannot_judge_shows_why_with_the_graph(browser, site_server, size):
    """Check with a field left empty, right after exercise (a)'s link has landed: the line that says
    some fields need a number, and each field's message, come into view with the graph (walkthroughs
    23, 24: under a desktop's fold); on a phone, where both do not fit, the messages (walkthrough 25)."""
    viewport = PHONE if size == "phone" else DESKTOP
    page = lesson_page(browser, site_server, viewport=viewport)
    page.locator("a[data-open-in-sandbox=tinydag-1]").nth(1).click()  # exercise (a)
    page.wait_for_selector(f"{PREDICT} .tdg-task")
    page.evaluate(SETTLED)
    field(page, "c").fill("abc")
    page.click(f"{PREDICT} [data-action=check]")
    page.evaluate(SETTLED)
    line = page.locator(f"{PREDICT} .tdg-predict-summary").bounding_box()
    stage = page.locator(f"{FULL} .tdg-stage").bounding_box()
    assert summary(page).startswith("Some fields need a number first"), summary(page)
    why = page.locator(f"{PREDICT} .tdg-predict-messages").bounding_box()
    assert why["height"] > 60 and why["y"] + why["height"] <= viewport["height"], why
    assert line["y"] >= 0 and (size == "phone" or stage["y"] >= 0), (line, stage)
    assert page.errors == []


def summary(page) -> str:
    return page.inner_text(f"{PREDICT} .tdg-predict-summary")


WAITING_IN = {
    "en": "Each mark comes when its leaf has received its whole gradient.",
    "ru": "Каждая отметка появится, когда её лист получит весь свой градиент.",
    "et": "Iga märk tuleb siis, kui selle leht on saanud kogu oma gradiendi.",
}
AGAIN_IN = {
    "en": "New values: your answers stay, unmarked. Check (or Backward) marks them for the new numbers; "
          "typing in a field replaces its answer.",
    "ru": "Новые значения: ответы остались, но без отметок. «Проверить» (или «Обратный») отметит их уже для "
          "новых чисел; "
          "стоит начать печатать в поле, и прежний ответ в нём заменится новым.",
    "et": "Uued väärtused: vastused jäid alles, kuid märkideta. „Kontrolli“ (või „Tagasisuund“) märgib need "
          "uute arvude järgi; "
          "kui väljale midagi kirjutad, asendab see senise vastuse.",
}
CHANGED_IN = {
    "en": "Changed answers are marked at the next Check or Backward.",
    "ru": "Изменённые ответы будут отмечены, когда вы снова нажмёте «Проверить» или «Обратный».",
    "et": "Muudetud vastused märgitakse, kui vajutad uuesti „Kontrolli“ või „Tagasisuund“.",
}
WAITING = WAITING_IN["en"]
