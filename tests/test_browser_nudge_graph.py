"""The nudge on the graph, as a learner does it.

Exercise (d)'s link, then Nudge check: pick a leaf, press Nudge, and every card the nudge moves shows
its change under it ([data-field=delta], written as the cards write numbers), each edge carrying it
says what it multiplies it by, a dead relu stops it; the sentence says backward() gets it for every
leaf in one pass. The tabs keep off the labels and the other cards, and go under an expansion panel.
The check's ratio Δoutput / h sits beside the gradient, close to it on a curve, and a new expression
clears the old answer. Once in English on a desktop; the words (the panel, the sentence, exercise (d)
naming Nudge check) once per language, in the language's one page load (test_browser_words.py).
Which nodes move and by how much is proven in node (tests/ts/player-nudge.test.ts).
"""

from __future__ import annotations

import pytest
import yaml

from tinydag_mkdocs.site.typography import typeset_text

from .browser_helpers import (
    DESKTOP,
    MINUS,
    PHONE,
    ROOT,
    SETTLED,
    _overlap,
    layout_problems,
    lesson_page,
    open_moment,
    seek,
    set_range,
    settle,
    stage_geometry,
    step_backward_to,
    type_expression,
)

pytestmark = pytest.mark.browser

SANDBOX = "[data-sandbox]"
EXERCISE_D = "a[data-open-in-sandbox] >> nth=4"  # the compact player's link, then (a)-(d)

# What the reader sees: card label -> its delta tab ("" when it has none); edge labels by end cards.
TABS = """() => Object.fromEntries([...document.querySelectorAll('[data-sandbox] [data-node]')].map(el => {
    const tab = el.querySelector('[data-field=delta]');
    return [el.getAttribute('aria-label'), tab && tab.checkVisibility() ? tab.innerText : ''];
}))"""
TAB_BOXES = """() => {
  const stage = document.querySelector('[data-sandbox] .tdg-stage').getBoundingClientRect();
  return [...document.querySelectorAll('[data-sandbox] [data-node]')].flatMap(el => {
    const tab = el.querySelector('[data-field=delta]');
    if (!tab || !tab.checkVisibility()) return [];
    const b = tab.getBoundingClientRect(), panel = el.querySelector('.tdg-expansion:not([hidden])');
    return [{id: el.dataset.node, x: b.left - stage.left, y: b.top - stage.top, w: b.width, h: b.height,
             panelBottom: panel ? panel.getBoundingClientRect().bottom - stage.top : null}];
  }); }"""


def strings(lang: str) -> dict[str, str]:
    table = yaml.safe_load((ROOT / "src/player/strings" / f"{lang}.yml").read_text(encoding="utf-8"))
    return {key: typeset_text(text, lang) for key, text in table.items()}  # as the build binds them


def nudge(page, leaf: str, h: str = "0.001", enter: bool = False) -> None:
    """Nudge `leaf` by `h`: the button, or (enter) Enter in the h field."""
    page.select_option(f"{SANDBOX} select[name=nudge-leaf]", leaf)
    page.fill(f"{SANDBOX} input[name=nudge-h]", h)
    if enter:
        page.press(f"{SANDBOX} input[name=nudge-h]", "Enter")
    else:
        page.click(f"{SANDBOX} [data-action=nudge]")
    settle(page)
    settle(page)  # the tabs take room: the stage is laid out again


def at_end(page, direction: str = "forward") -> None:
    page.click(f"{SANDBOX} [data-action={direction}]")
    set_range(page, f"{SANDBOX} input[name=time]", 1e9)
    settle(page)


def edge_labels(page) -> dict[tuple[str, str], str]:
    """(child label, parent label) -> the text on that edge, for edges that show one."""
    geometry = stage_geometry(page)
    names = {c: page.get_attribute(f"{SANDBOX} [data-node='{c}']", "aria-label")
             for c in {e[k] for e in geometry["edges"] for k in ("from", "to")}}
    ends = {e["id"]: (names[e["from"]], names[e["to"]]) for e in geometry["edges"]}
    return {ends[label["edge"]]: label["text"] for label in geometry["labels"]}


def tabs_keep_clear(page) -> None:
    """No tab over another card or an edge label; a tab under an expansion hangs below the panel."""
    geometry = stage_geometry(page)
    assert layout_problems(geometry) == []
    for tab in page.evaluate(TAB_BOXES):
        assert tab["y"] + tab["h"] <= geometry["height"] + 0.5, f"tab of {tab['id']} cut off by the stage"
        inside = tab["x"] >= -0.5 and tab["x"] + tab["w"] <= geometry["width"] + 0.5
        assert inside, f"tab of {tab['id']} cut off at the stage's side"
        covered = [c["id"] for c in geometry["cards"] if c["id"] != tab["id"] and _overlap(tab, c)]
        assert covered == [], f"tab of {tab['id']} covers {covered}"
        labels = [label["text"] for label in geometry["labels"] if _overlap(tab, label)]
        assert labels == [], f"tab of {tab['id']} covers labels {labels}"
        if tab["panelBottom"] is not None:
            assert tab["y"] >= tab["panelBottom"] - 3, "the tab hangs under the expansion panel"


IN_VIEW = f"""() => {{ const box = sel => {{ const b = document.querySelector(sel).getBoundingClientRect();
                                            return [b.top, b.bottom]; }};
  return {{stage: box('{SANDBOX} .tdg-stage'), button: box('{SANDBOX} [data-action=nudge]'),
          height: innerHeight,
          header: document.querySelector('.md-header').getBoundingClientRect().bottom}}; }}"""


def test_nudge_check_draws_the_change_on_every_card_it_moves(browser, site_server):
    page = lesson_page(browser, site_server)
    page.locator(EXERCISE_D).click()
    page.wait_for_function("document.querySelector('#tinydag-1 input[name=expression]').value"
                           " === '(a + b) * c'")
    # (d) asks for Nudge check: its link unfolds it (landing with it under the graph: the links' test).
    assert page.locator(f"{SANDBOX} .tdg-nudge").get_attribute("open") is not None
    assert set(page.evaluate(TABS).values()) == {""}, "no tabs before a nudge"
    page.evaluate("window.scrollBy(0, 400)")  # reading on, past the graph, down to the Nudge button
    nudge(page, "a")
    # The change is drawn on the cards: the graph comes back into view, and at 1280x800 the Nudge
    # button stays in view with it (its sentence follows right under it).
    page.evaluate(SETTLED)
    seen = page.evaluate(IN_VIEW)
    assert seen["stage"][0] >= seen["header"] - 1 and seen["stage"][1] <= seen["height"], seen
    assert seen["button"][1] <= seen["height"], seen
    # a + b moves as a does (× 1), the output ten times as much (× c = × 10); b and c stay.
    assert page.evaluate(TABS) == {"a": "+0.001", "b": "", "a + b": "+0.001", "c": "",
                                   "(a + b) × c": "+0.01"}
    labels = edge_labels(page)
    assert labels[("a", "a + b")] == "× 1" and labels[("a + b", "(a + b) × c")] == "× 10", labels
    assert ("b", "a + b") not in labels and ("c", "(a + b) × c") not in labels, labels
    tabs_keep_clear(page)
    out = page.locator(f"{SANDBOX} .tdg-nudge-result").inner_text()
    assert out.endswith("backward() finds this sensitivity for every leaf in one pass; "
                        "nudging needs one run per leaf."), out
    # Another leaf chosen: the old answer goes; a nudge of c moves the output by (a + b) × 0.001.
    page.select_option(f"{SANDBOX} select[name=nudge-leaf]", "c")
    settle(page)
    assert set(page.evaluate(TABS).values()) == {""}
    assert page.locator(f"{SANDBOX} .tdg-nudge-result").inner_text() == ""
    nudge(page, "c", enter=True)  # Enter in h nudges, as the button does (walkthrough 8)
    assert page.evaluate(TABS)["(a + b) × c"] == f"{MINUS}0.001"
    # The backward pass that follows keeps the tabs (its labels take the edges).
    at_end(page, "backward")
    assert page.evaluate(TABS)["c"] == "+0.001"
    tabs_keep_clear(page)
    # A dead relu stops the change: a × b moves, relu(a × b) does not; its edge multiplies by 0.
    type_expression(page, "relu(a * b)")
    set_range(page, f"{SANDBOX} input[name=var-b]", -3)
    at_end(page)
    nudge(page, "a")
    assert page.evaluate(TABS) == {"a": "+0.001", "b": "", "a × b": f"{MINUS}0.003", "relu(a × b)": ""}
    assert edge_labels(page)[("a × b", "relu(a × b)")] == "× 0"
    # A value changed: the tabs go. Under an expansion panel (local derivatives) a tab hangs below it.
    set_range(page, f"{SANDBOX} input[name=var-b]", 3)
    settle(page)
    assert set(page.evaluate(TABS).values()) == {""}
    type_expression(page, "a - b")
    at_end(page)
    page.check(f"{SANDBOX} input[name=local-derivatives]")
    nudge(page, "b")
    assert page.evaluate(TABS)["a − b"] == f"{MINUS}0.001"
    tabs_keep_clear(page)
    # On a phone the output's card sits at the stage's right border: its tab, longer than the card
    # (a small change is written with an exponent), slides left to stay whole.
    page.set_viewport_size(PHONE)
    open_moment(page, "(a - b) / c", {"a": 5, "b": 2, "c": 4}, "forward", 2)
    nudge(page, "c")
    assert page.evaluate(TABS)["(a − b) / c"] == f"{MINUS}1.875e{MINUS}4"
    tabs_keep_clear(page)
    page.set_viewport_size(DESKTOP)
    assert page.errors == [], page.errors


def test_nudge_check_compares_delta_output_over_h_with_the_gradient(lesson):
    lesson.click(f"{SANDBOX} [data-action=backward]")
    seek(lesson, 1e9)  # the gradients have arrived: the nudge can show them beside its ratio
    lesson.click(f"{SANDBOX} .tdg-nudge summary")
    lesson.select_option(f"{SANDBOX} select[name=nudge-leaf]", "c")
    lesson.fill(f"{SANDBOX} input[name=nudge-h]", "0.001")
    lesson.click(f"{SANDBOX} [data-action=nudge]")
    result = lesson.locator(f"{SANDBOX} .tdg-nudge-result")
    text = result.inner_text()
    assert "−10.001" in text and "c.grad = −1" in text
    assert abs(float(result.get_attribute("data-ratio")) - float(result.get_attribute("data-grad"))) < 1e-6
    type_expression(lesson, "a * a")
    assert result.inner_text() == "", "a new expression clears the old answer"
    lesson.select_option(f"{SANDBOX} select[name=nudge-leaf]", "a")
    lesson.click(f"{SANDBOX} [data-action=nudge]")
    ratio = float(result.get_attribute("data-ratio"))
    assert abs(ratio - 4) < 0.01 and ratio != 4, "on a curve the two agree closely, not exactly"


def the_nudge_speaks_the_pages_language(page, lang: str) -> None:
    """In a loaded lesson: exercise (d) names Nudge check as the sandbox does, the panel and its button
    say it, the tabs are code (a dot), the sentence ends with the one-pass sentence. (Once per language,
    in the language's one page load: test_browser_words.py, test_the_sandbox_speaks_the_pages_language.)"""
    words = strings(lang)
    # Exercise (d) sends the learner to Nudge check, by the names the sandbox gives it.
    exercise = page.locator("article p").filter(has=page.locator(f"strong:text-is('{words['nudge_check']}')"))
    assert exercise.count() == 1
    assert exercise.inner_text().startswith(("(d)", "(г)")) and words["nudge_run"] in exercise.inner_text()
    summary = page.locator(f"{SANDBOX} .tdg-nudge summary")
    assert summary.inner_text() == words["nudge_check"]
    if not page.locator(f"{SANDBOX} details.tdg-nudge").evaluate("el => el.open"):
        summary.click()
    at_end(page)
    assert page.locator(f"{SANDBOX} [data-action=nudge]").inner_text() == words["nudge_run"]
    nudge(page, "a")
    # The tabs are code, written with a dot; the sentence ends with the one-pass sentence.
    assert page.evaluate(TABS)["a"] == "+0.001"
    out = page.locator(f"{SANDBOX} .tdg-nudge-result").inner_text()
    assert words["nudge_one_pass"] in out, out
    # Before the backward pass it names the button that plays it (walkthrough 24: "Play the backward
    # pass" sent the learner to Play, which played the forward pass again).
    assert words["backward"] in out and words["play"] not in out, out
    # The caption under the graph says what was measured at once (walkthrough 8: exercise (d) lands on
    # the forward pass, where the words were only in the panel below the fold), and when a.grad comes.
    h = "0.001" if lang == "en" else "0,001"
    waiting = words["caption_nudge_waiting"].replace("{name}", "a").replace("{h}", h).replace("{ratio}", "10")
    assert page.locator(f"{SANDBOX} [data-caption]").inner_text() == waiting
    # A pulse on its way says its steps (walkthrough 10: the nudge's sentence silenced them).
    step_backward_to(page, 2)
    step = words["caption_step"].split("{step}")[0]
    assert page.locator(f"{SANDBOX} [data-caption]").inner_text().startswith(step + "2"), step
    # Once the backward wave has brought a.grad, it compares the two.
    at_end(page, "backward")
    page.wait_for_function(f"document.querySelector('{SANDBOX} .tdg-nudge-result').dataset.state"
                           " === 'compared'")
    settle(page)
    expected = (words["caption_nudge"].replace("{name}", "a").replace("{h}", h)
                .replace("{ratio}", "10").replace("{grad}", "10"))
    assert page.locator(f"{SANDBOX} [data-caption]").inner_text() == expected
