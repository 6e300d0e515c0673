"""Readable up to the 40-node limit, in a real browser at 1280x800 and 390x844: at the end of the
backward pass every card's value and grad are at least 10 CSS px high, no two cards overlap, no edge
runs under a card, no label covers one, a preset's turned graph keeps even margins, and while each
pulse plays no label covers a card either. With "Local derivatives" on, a derived operation's
expansion stays inside the stage, breaks only between terms, every ∂ line ends in its number. A
forty-node expression is accepted, its sliders are measured from input to frame, and backward reaches
its end. The graphs of one size share a page load: each is typed or picked as the reader would. (A
graph bigger than the stage is panned: test_browser_panning.py.)
"""

from __future__ import annotations

import re

import pytest

from .big_graph_helpers import BIG, EXPANSIONS, NUMBER, SIZES, assert_readable, to_end_of_backward
from .browser_helpers import (
    DESKTOP,
    PHONE,
    SETTLED,
    at_each_time,
    covered_cards,
    grads,
    layout_problems,
    lesson_page,
    moment,
    nodes,
    num,
    open_lesson,
    open_moment,
    pause,
    paused_in_view,
    seek,
    set_range,
    settle,
    stage_geometry,
    type_expression,
)

SANDBOX = "[data-sandbox]"
PRESETS = ["Sum times a factor", "Dead ReLU", "A variable used twice", "Derived operations", "exp and log",
           "A small neuron"]
pytestmark = pytest.mark.browser

# CSS px between the stage's sides and its outermost cards, left and right.
SIDE_MARGINS = f"""() => {{
  const stage = document.querySelector('{SANDBOX} .tdg-stage').getBoundingClientRect();
  const cards = [...document.querySelectorAll('{SANDBOX} [data-node]')].map(c => c.getBoundingClientRect());
  return [Math.min(...cards.map(c => c.left)) - stage.left,
          stage.right - Math.max(...cards.map(c => c.right))];
}}"""


# ---- readable at both sizes, for the big graphs and every preset ------------------------------------

@pytest.mark.parametrize("size", SIZES)
def test_big_graphs_and_every_preset_stay_readable_and_local_derivatives_fit(browser, site_server, size):
    """In one page per size, each graph typed or picked as the reader would: the big graphs and every
    preset at the end of backward, then three presets with their local derivatives. On a phone, where
    labels crowd most, each big graph also while backward plays: no label over a card or another label
    at every third step (test_no_label_covers_a_card_at_any_step does the presets at every half step)."""
    page = lesson_page(browser, site_server, viewport=SIZES[size])
    paused_in_view(page)
    phone = size == "390x844"
    for name, expression in BIG.items():
        if phone:
            type_expression(page, expression)
            found = overlaps_at_every_step(page, name, 3, ("backward",))
            assert found == [], found[:5]
        to_end_of_backward(page, expression=None if phone else expression)
        assert page.locator(f"{SANDBOX} .tdg-error:not([hidden])").count() == 0, f"the engine accepts {name}"
        assert_readable(page, f"{name} at {size}")
    for preset in PRESETS:
        page.click(f"{SANDBOX} [data-action=preset] >> text={preset}")
        page.click(f"{SANDBOX} [data-action=backward]")
        pause(page)
        seek(page, moment(page)["duration"])
        assert_readable(page, f"{preset} at {size}")
        # the lesson's presets fit: nothing to pan, the drag still turns the graph
        assert page.get_attribute(f"{SANDBOX} .tdg-stage", "data-pannable") is None, preset
        # ... turned, with as much room right of the outermost cards as left of them (walkthrough 31: the
        # nearer side's card touched the frame, 50 px from the other side's)
        left, right = page.evaluate(SIDE_MARGINS)
        assert abs(left - right) <= 2 and min(left, right) >= 8, f"{preset} at {size}: {left}, {right} px"
    local_derivatives_fit_the_stage(page, size)
    assert page.errors == []


def overlaps_at_every_step(page, what: str, step: float, directions=("forward", "backward")) -> list[str]:
    """Labels over a card or over each other at every `step` of each direction's pulse, paused there."""
    found = []
    for direction in directions:
        page.click(f"{SANDBOX} [data-action={direction}]")
        pause(page)
        duration, t, times = moment(page)["duration"], 0.0, []
        while t <= duration + 1e-9:
            times.append(t)
            t += step
        for t, geometry in zip(times, at_each_time(page, times), strict=True):
            found += [f"{what}, {direction} at {t}: {p}" for p in layout_problems(geometry)
                      if "covers card" in p or "overlap" in p or "scroll bar" in p]
    return found


def through_a_pulse(page, expression: str, direction: str, per_second: int, kind: str):
    """Type the expression and read its layout `per_second` times a second of `direction`'s pulse, and at
    its end: the times, and the problems of that `kind` (how layout_problems begins their words)."""
    type_expression(page, expression)
    page.click(f"{SANDBOX} [data-action={direction}]")
    pause(page)
    duration = moment(page)["duration"]
    times = [k / per_second for k in range(int(duration * per_second) + 1)]
    times += [duration] if times[-1] < duration else []
    found = [f"at {t}: {p}" for t, geometry in zip(times, at_each_time(page, times), strict=True)
             for p in layout_problems(geometry) if p.startswith(kind)]
    return times, found


def test_the_numbers_a_sum_receives_never_lie_over_each_other(lesson):
    """Walkthrough 15: on a long sum, typed, the two numbers travelling into each + converge on its card
    (both edges run down its lane), and one slid half under the other ("−1" under "10"). Every
    twentieth of a second of the forward pass: no carried number over or under another."""
    times, found = through_a_pulse(lesson, "a+b+c+d+e+f+g+h+i+j+k+l+m", "forward", 20, "carried number")
    assert found == [], found[:5]
    # ... and none hides to keep apart while it travels (review 50): each + receives two numbers
    travelling = [t for t in times if 0.05 < t % 1 < 0.7]
    shown = [len(g["carried"]) for g in at_each_time(lesson, travelling)]
    assert shown == [2] * len(travelling), list(zip(travelling, shown))


def test_the_numbers_two_edges_bring_to_a_card_keep_apart(browser, site_server):
    """Walks 41 and 42: on a phone the first screen's player ended its forward pass with "10" touching
    "−1" by the × card where both edges arrive, and a learner could not tell which number rode which
    edge. Where there is room, a number keeps a few px off the others: "10" waits further back on c's
    edge."""
    page = open_lesson(browser, site_server, "ru", viewport=PHONE, has_touch=True, is_mobile=True)
    compact = ".tdg-player--compact"
    page.locator(f"{compact} .tdg-stage").scroll_into_view_if_needed()
    page.wait_for_function(f"document.querySelectorAll('{compact} .tdg-carried:not([hidden])').length === 2")
    settle(page)
    a, b = page.locator(f"{compact} .tdg-carried:not([hidden])").evaluate_all(
        "els => els.map(e => { const r = e.getBoundingClientRect();"
        " return [r.left, r.top, r.right, r.bottom]; })")
    gap = max(b[0] - a[2], a[0] - b[2], b[1] - a[3], a[1] - b[3])  # the widest empty band between them
    assert gap >= 7, (a, b)
    assert page.errors == []


def test_two_running_sums_never_lie_over_each_other(lesson):
    """Walkthrough 24: at the end of this 34-node graph's backward pass on a desktop, e's running sum
    lay over the end of b's, "≈ −0.8094". Each tab keeps off the ones placed before it, and off the
    later ones' tails, at every step."""
    expression = ("relu(a*b + c) * exp(d - e) + log(a*a + 1) / (b + 2) + exp(-c) * d - e*e*0.5"
                  " + relu(a) * log(b*b + 1)")
    _, found = through_a_pulse(lesson, expression, "backward", 2, "the tab")
    assert found == [], found[:5]
    # ...nor does one take the other's place: at the end b and e both keep a sum, shortened where the
    # whole would not fit (walkthrough 25: b's whole sum stayed and e's went)
    seek(lesson, moment(lesson)["duration"])
    settle(lesson)
    tabs = lesson.evaluate(f"""() => Object.fromEntries(
        [...document.querySelectorAll('{SANDBOX} [data-node]')]
        .map(card => [card.getAttribute('aria-label'), card.querySelector('.tdg-note')])
        .filter(([, note]) => note && note.checkVisibility())
        .map(([name, note]) => [name, note.textContent]))""")
    assert tabs.get("b", "").endswith("−0.8094") and tabs.get("e", "").endswith("= −5"), tabs


@pytest.mark.parametrize("size", SIZES)
def test_no_label_covers_a_card_at_any_step(browser, site_server, size):
    """Not only at the end: while each pulse plays, no edge label lies over a card's value or grad or over
    another label, for every preset with the local derivatives on (their labels wait on every edge). The
    big graphs on a phone: test_big_graphs_and_every_preset_stay_readable_and_local_derivatives_fit."""
    page = lesson_page(browser, site_server, viewport=SIZES[size])
    paused_in_view(page)
    page.check(f"{SANDBOX} input[name=local-derivatives]")
    found = []
    for preset in PRESETS:
        page.click(f"{SANDBOX} [data-action=preset] >> text={preset}")
        found += overlaps_at_every_step(page, preset, 0.5)
    assert found == [], found[:5]
    assert page.errors == []


# ---- local derivatives fit the stage ------------------------------------------------------------

LABEL_FONTS = f"""() => [...document.querySelectorAll('{SANDBOX} .tdg-edge-label:not([hidden])')].map(el =>
    parseFloat(getComputedStyle(el).fontSize) * new DOMMatrixReadOnly(getComputedStyle(el).transform).a)"""


def local_derivatives_fit_the_stage(page, size: str) -> None:
    for preset in ("Derived operations", "A small neuron", "exp and log"):
        to_end_of_backward(page, preset=preset, local=True)
        what = f"{preset} with local derivatives at {size}"
        check_expansions_fit(page, what, derived_operations=preset == "Derived operations")
        if preset == "exp and log" and size == "1280x800":
            # A desktop's single pixels drew a 10 px label's "≈" as "=" (walk 41: "0.1488 × 4 ≈ 0.5954",
            # the lesson's own rule for rounded products, read as a wrong "=")
            fonts = page.evaluate(LABEL_FONTS)
            assert fonts and min(fonts) >= 11, fonts
    # A link that opens a graph with them on (a shared moment, an exercise): the panels are measured
    # before the new cards have their places, and measured again once they have.
    open_moment(page, "(a - b) / c", {"a": 5, "b": 2, "c": 4}, "backward", 5, local=True)
    page.evaluate(f"document.querySelector('{SANDBOX} .tdg-stage').scrollIntoView({{block: 'center'}})")
    settle(page)
    check_expansions_fit(page, f"(a - b) / c opened by a link at {size}", derived_operations=True)
    # A running sum's tab keeps off what hangs under another card, its panel of local derivatives
    # (review 48: on a phone a's sum ran over the panel of a / b at the end of backward).
    open_moment(page, "a / b + a / c - b", {"a": 1.5, "b": 2, "c": 2.5}, "backward", 99, local=True)
    settle(page)
    assert layout_problems(stage_geometry(page)) == [], f"a / b + a / c - b at {size}"


def check_expansions_fit(page, what: str, derived_operations: bool) -> None:
    expansions = page.evaluate(EXPANSIONS)
    if derived_operations:
        assert len(expansions) == 2, "a − b and ÷ show their expansions"
    for e in expansions:
        box, stage = e["box"], e["stage"]
        assert box["x"] >= 0 and box["y"] >= 0, e
        assert box["x"] + box["w"] <= stage["w"] + 0.5 and box["y"] + box["h"] <= stage["h"] + 0.5, e
        assert not e["clipped"], e
        assert e["brokenTerms"] == [], f"broken inside a term: {e['brokenTerms']}"
        assert e["lines"], e
        for line in e["lines"]:
            assert re.fullmatch(r"∂/∂\S.* = " + NUMBER, line.replace("\u00a0", " ")), line
    geometry = stage_geometry(page)
    assert layout_problems(geometry) == [], what
    for e in expansions:
        covered = covered_cards(e, geometry)
        assert covered == [], f"the expansion of {e['node']} covers {covered}"
    for i, a in enumerate(expansions):
        for b in expansions[i + 1:]:
            p, q = a["box"], b["box"]
            assert not (p["x"] < q["x"] + q["w"] and q["x"] < p["x"] + p["w"]
                        and p["y"] < q["y"] + q["h"] and q["y"] < p["y"] + p["h"]), "expansions overlap"
    assert_readable(page, what)


ONE_SCREEN = """() => {
  const box = s => document.querySelector('[data-sandbox] ' + s).getBoundingClientRect();
  const header = document.querySelector('.md-header').getBoundingClientRect().bottom;
  return {header, stage: box('.tdg-stage'), caption: box('[data-caption]'),
          backward: box('[data-action=backward]'), height: innerHeight}; }"""


def test_a_tall_graph_folds_its_few_fields_so_pause_and_the_timeline_play_in_view(browser, site_server):
    """The small neuron has five leaves but a tall stage at 1280x800: its fields fold behind the legend,
    so the Backward a reader presses plays with the graph, its caption, Pause and the timeline on one
    screen (walkthrough 24: Pause and the timeline were at y = 839-872); a short graph's fields stay
    open."""
    page = lesson_page(browser, site_server)
    predict = page.locator(f"{SANDBOX} .tdg-predict")
    assert predict.locator(".tdg-predict-toggle").count() == 0, "the default graph: open, no fold"
    # Answers typed are never folded away (review 56: a tablet turned folded them, their marks with them)
    predict.locator("input").first.fill("1")
    page.set_viewport_size({"width": 390, "height": 800})  # phone-wide: empty fields would fold
    settle(page)
    assert predict.locator(".tdg-predict-toggle").count() == 1 and predict.locator("input").first.is_visible()
    predict.locator("input").first.fill("")
    page.set_viewport_size(DESKTOP)
    settle(page)
    page.locator(f"{SANDBOX} [data-action=preset]").nth(5).click()  # A small neuron
    settle(page)
    assert len(predict.locator("input").all()) == 5
    assert predict.locator(".tdg-predict-toggle").get_attribute("aria-expanded") == "false"
    page.click(f"{SANDBOX} [data-action=backward]")
    page.evaluate(SETTLED)  # the scroll that shows the pulse
    screen = page.evaluate(ONE_SCREEN)
    assert screen["stage"]["top"] >= screen["header"] - 1, screen
    timeline = page.locator(f"{SANDBOX} .tdg-timeline").bounding_box()
    for part in ("caption", "backward"):
        assert screen[part]["bottom"] <= screen["height"], f"{part} below the fold: {screen}"
    assert timeline["y"] + timeline["height"] <= screen["height"], timeline
    predict.locator(".tdg-predict-toggle").click()  # the fields are a click away, and Check with them
    page.evaluate(SETTLED)
    assert predict.locator("input").first.is_visible()
    check = predict.locator("[data-action=check]").bounding_box()
    assert check["y"] + check["height"] <= screen["height"] + 1, check  # walkthrough 25: at y = 790-823
    page.locator(f"{SANDBOX} [data-action=preset]").nth(0).click()  # a short graph: no fold again
    settle(page)
    assert predict.locator(".tdg-predict-toggle").count() == 0 and predict.locator("input").first.is_visible()
    assert page.errors == [], page.errors


def test_forty_node_expression_and_input_to_frame_measure(lesson):
    """A forty-node expression is accepted and measured; a tall graph's stage, its caption and the
    buttons that play it fit one screen at 1280x800, its 15 predictions folded behind the legend."""
    predict = lesson.locator(f"{SANDBOX} .tdg-predict")
    toggle = predict.locator(".tdg-predict-toggle")
    assert toggle.count() == 0 and predict.locator("input").first.is_visible(), "three leaves: open, no fold"
    expression = ("relu(a * b + c * d - e / f) * exp(g - h) + log(i * i + j) - (k + l) * (m - n) / (o + 2)")
    type_expression(lesson, expression)
    assert lesson.locator(f"{SANDBOX} .tdg-error").is_hidden()
    assert len(nodes(lesson)) >= 35
    # Fifteen leaves: the fields fold behind the legend, a button that opens and folds them again.
    assert toggle.get_attribute("aria-expanded") == "false" and predict.locator("input").first.is_hidden()
    assert toggle.inner_text().strip().endswith("Predict, then check")
    toggle.click()
    assert toggle.get_attribute("aria-expanded") == "true" and predict.locator("input").count() == 15
    assert predict.locator("input").last.is_visible()
    toggle.click()
    assert predict.locator("input").first.is_hidden()
    # The stage's top under the site's header: the caption and Backward are on the same screen.
    lesson.evaluate("document.querySelector('[data-sandbox] .tdg-stage').scrollIntoView({block: 'start'})")
    settle(lesson)
    screen = lesson.evaluate(ONE_SCREEN)
    assert screen["stage"]["top"] >= screen["header"] - 1, screen
    for part in ("caption", "backward"):
        assert screen[part]["bottom"] <= screen["height"], f"{part} below the fold: {screen}"
    for value in (0.5, 1.5, 2.5):
        set_range(lesson, f"{SANDBOX} input[type=range][name=var-a]", value)
        settle(lesson)
    measures = lesson.evaluate("performance.getEntriesByName('tinydag:input-to-frame').map(m => m.duration)")
    assert len(measures) >= 4
    lesson.click(f"{SANDBOX} [data-action=backward]")
    seek(lesson, 99)
    assert num(grads(lesson)[expression.replace("*", "×").replace("-", "−")]) == 1
