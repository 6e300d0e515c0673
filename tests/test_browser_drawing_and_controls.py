"""The player draws and answers its controls, on the built lesson page in Debian's Chromium: the
first frame comes from the page's embedded JSON; the canvas draws, with depth, and stops drawing when
idle; edge labels stay readable on crowded graphs and show in full where pointed at; a drag or a
finger turns the view within limits (a tap on the timeline scrubs) and Reset brings it back; colours
follow the palette toggle; the keyboard reaches and operates every control; a phone's page never
scrolls sideways; several sandboxes share a page; the lesson's JavaScript stays within its budget.
Driven the way a reader would and asserted from what the reader sees (the [data-node] cards' texts).
"""

from __future__ import annotations

import gzip
import re

import pytest

from .browser_helpers import (
    LESSON,
    MINUS,
    PHONE,
    SETTLED,
    SHOTS,
    at_each_time,
    engine_calls,
    field,
    grads,
    layout_problems,
    lesson_page,
    moment,
    moment_hash,
    nodes,
    open_lesson,
    open_moment,
    pause,
    paused_in_view,
    pixel_stats,
    sandbox_ready,
    scroll_to_player,
    seek,
    set_range,
    settle,
    stage_geometry,
    step_backward_to,
    type_expression,
)

SANDBOX = "[data-sandbox]"
pytestmark = pytest.mark.browser


# ---- first frame, canvas, render loop -----------------------------------------------------------

def test_first_frame_uses_the_embedded_json(browser, site_server):
    page = lesson_page(browser, site_server)
    settle(page)
    assert page.evaluate("performance.getEntriesByName('tinydag:first-frame').length") == 1
    assert engine_calls(page) == 0, "the TypeScript engine ran before the reader changed anything"
    ids = nodes(page)
    assert set(ids) == {"a", "b", "a + b", "c", "(a + b) × c"}
    embedded = page.evaluate("JSON.parse(document.querySelector('script.tinydag-data').textContent).timeline")
    assert sorted(ids.values()) == sorted(n["id"] for n in embedded["nodes"])
    assert field(page, ids["b"], "value") == f"{MINUS}3"
    assert page.locator(f"{SANDBOX} .tinydag-figure").is_hidden()
    scroll_to_player(page)
    page.wait_for_timeout(300)  # autoplay of the forward pulse starts when the sandbox is seen
    assert engine_calls(page) == 0


def test_the_canvas_draws_with_depth_and_stops_drawing_when_idle(lesson):
    """One page: the canvas is not blank, the render loop stops when idle, depth is drawn behind."""
    canvas_is_not_blank(lesson)
    open_moment(lesson)
    render_loop_stops_when_idle(lesson)
    open_moment(lesson)
    depth_is_drawn_behind_the_graph(lesson)


def canvas_is_not_blank(lesson) -> None:
    step_backward_to(lesson, 3)
    stats = pixel_stats(lesson)
    assert stats["drawn"] > 0.01 * stats["total"], stats
    assert stats["colours"] > 20, stats
    shot = lesson.locator(f"{SANDBOX} .tdg-stage").screenshot()
    assert len(shot) > 10_000  # a PNG of a flat colour would be a few hundred bytes


def render_loop_stops_when_idle(lesson) -> None:
    pause(lesson)
    before = moment(lesson)["frames"]
    lesson.wait_for_timeout(400)  # a span of nothing happening: what is asserted is that nothing is drawn
    assert moment(lesson)["frames"] == before, "frames drawn while nothing changed"
    beside = f"{SANDBOX} [data-action=backward]"
    where = lesson.locator(beside).bounding_box()
    lesson.click(f"{SANDBOX} [data-action=play]")
    # Play turns into Pause (its word and its sign): the buttons beside it stay where the hand is.
    play = lesson.locator(f"{SANDBOX} [data-action=play]")
    assert play.inner_text() == "Pause"
    assert "\u275a\u275a" in play.evaluate("el => getComputedStyle(el, '::before').content")
    assert lesson.locator(beside).bounding_box() == where
    # playing draws again: more than three frames (a condition, so a loaded machine's slow frames pass)
    lesson.wait_for_function("n => window.tinydagPlayer.sandboxes['tinydag-1'].moment().frames > n + 3",
                             arg=before, timeout=30_000)


# ---- crowded graphs: every label that is shown can be read ------------------------------------

CROWDED = ["A small neuron", "exp and log", "Derived operations"]


@pytest.mark.parametrize("size", ["1280x800", "390x844"])
def test_edge_labels_stay_readable_on_crowded_graphs(browser, site_server, size):
    """At every step of backward, no visible label covers a card or another label or is cut off by
    the stage, and no edge runs under a card it does not belong to."""
    width, height = map(int, size.split("x"))
    page = lesson_page(browser, site_server, viewport={"width": width, "height": height})
    paused_in_view(page)
    for preset in CROWDED:
        page.click(f"{SANDBOX} [data-action=preset] >> text={preset}")
        if preset == "Derived operations":
            page.check(f"{SANDBOX} input[name=local-derivatives]")  # taller cards, local labels
        step_backward_to(page, 0)
        duration = moment(page)["duration"]
        times = [*range(1, duration + 1), duration - 0.5]
        for t, geometry in zip(times, at_each_time(page, times), strict=True):
            problems = layout_problems(geometry)
            assert problems == [], f"{preset} at {t}: {problems}"
        labels = geometry["labels"]
        assert len(labels) >= len(geometry["edges"]) - 1, f"{preset}: {len(labels)} labels shown"
        current = [label for label in labels if label["kind"] == "current"]
        assert len(current) == 1 and current[0]["form"] == "full", "the hand-off now shows in full"
        assert re.fullmatch(r"\S+ × \S+ [=≈] \S+", current[0]["text"])
    assert page.errors == []


def test_the_neuron_at_the_end_of_backward_shows_every_hand_off_and_pointing_shows_labels_in_full(lesson):
    lesson.click(f"{SANDBOX} [data-action=preset] >> text=A small neuron")
    step_backward_to(lesson, 99)
    geometry = stage_geometry(lesson)
    assert layout_problems(geometry) == []
    assert len(geometry["labels"]) == 9, [label["text"] for label in geometry["labels"]]
    assert all(label["form"] == "full" for label in geometry["labels"]), "a 688 px stage has room for all"
    assert geometry["height"] > 400, f"four rows of cards get a taller stage: {geometry['height']} px"
    # Pointing at a card (then at an edge) shows its labels in full.
    ids = nodes(lesson)
    lesson.hover(f"{SANDBOX} [data-node='{ids['v × y']}']")
    settle(lesson)
    pointed = lesson.locator(f"{SANDBOX} .tdg-edge-label[data-emphasis]")
    assert sorted(pointed.all_inner_texts()) == ["1 × (−1) = −1", "1 × 0.5 = 0.5", "1 × 1 = 1"]
    assert set(pointed.evaluate_all("els => els.map(e => e.dataset.form)")) == {"full"}
    assert layout_problems(stage_geometry(lesson)) == []
    # an edge line under the pointer does the same for that edge
    edge = next(e for e in stage_geometry(lesson)["edges"] if e["from"] == ids["b"])
    point = edge["path"][len(edge["path"]) // 3]
    box = lesson.locator(f"{SANDBOX} .tdg-stage").bounding_box()
    lesson.mouse.move(box["x"] + point["x"], box["y"] + point["y"])
    settle(lesson)
    assert pointed.all_inner_texts() == ["1 × 1 = 1"]
    assert pointed.get_attribute("data-edge") == edge["id"]
    lesson.mouse.move(1, 1)
    settle(lesson)
    assert pointed.count() == 0


def depth_is_drawn_behind_the_graph(lesson) -> None:
    """A wall with a grid and the graph's soft shadows fills the stage behind the edges."""
    step_backward_to(lesson, 0)
    stats = pixel_stats(lesson)
    assert stats["drawn"] > 0.15 * stats["total"], stats
    before = lesson.locator(f"{SANDBOX} .tdg-stage").screenshot()
    lesson.focus(f"{SANDBOX} .tdg-stage")
    for _ in range(4):
        lesson.keyboard.press("ArrowRight")
    settle(lesson)
    assert lesson.locator(f"{SANDBOX} .tdg-stage").screenshot() != before, "turning the view moves the scene"
    assert layout_problems(stage_geometry(lesson)) == []


# ---- camera, colours ----------------------------------------------------------------------------

def test_drag_rotates_within_limits_and_reset(lesson):
    pause(lesson)
    # pausing scrolled to Play: the graph back in the middle of the window, clear of the header
    lesson.evaluate(f"document.querySelector('{SANDBOX} .tdg-stage').scrollIntoView({{block: 'center'}})")
    box = lesson.locator(f"{SANDBOX} .tdg-stage").bounding_box()
    start = moment(lesson)
    lesson.mouse.move(box["x"] + 10, box["y"] + 10)
    lesson.mouse.down()
    lesson.mouse.move(box["x"] + box["width"] - 10, box["y"] + box["height"] - 10, steps=8)
    lesson.mouse.up()
    settle(lesson)
    turned = moment(lesson)
    assert turned["yaw"] > start["yaw"] and turned["pitch"] > start["pitch"]
    assert abs(turned["yaw"]) <= 0.55 + 1e-9 and abs(turned["pitch"]) <= 0.3 + 1e-9
    lesson.click(f"{SANDBOX} [data-action=reset-view]")
    back = moment(lesson)
    assert (back["yaw"], back["pitch"]) == (start["yaw"], start["pitch"])
    # A drag begun on a card turns the graph too, and selects none of its text (walk 32: cards cover
    # much of the stage, and the drag selected their numbers).
    card = lesson.locator(f"{SANDBOX} .tdg-card:not([hidden])").first.bounding_box()
    x, y = card["x"] + card["width"] / 2, card["y"] + card["height"] / 2
    lesson.mouse.move(x, y)
    lesson.mouse.down()
    lesson.mouse.move(x + 200, y + 40, steps=8)
    lesson.mouse.up()
    settle(lesson)
    assert moment(lesson)["yaw"] > start["yaw"]
    assert lesson.evaluate("getSelection().toString()") == ""


def test_touch_rotates_and_scrubs(browser, site_server):
    page = open_lesson(browser, site_server, viewport=PHONE, has_touch=True, is_mobile=True)
    paused_in_view(page)
    # pausing scrolled to Play: the graph back in the middle of the window, clear of the header
    page.evaluate(f"document.querySelector('{SANDBOX} .tdg-stage').scrollIntoView({{block: 'center'}})")
    box = page.locator(f"{SANDBOX} .tdg-stage").bounding_box()
    cdp = page.context.new_cdp_session(page)
    x, y = box["x"] + 12, box["y"] + box["height"] - 12
    yaw = moment(page)["yaw"]

    def touch(kind: str, px: float, py: float) -> None:
        points = [] if kind == "touchEnd" else [{"x": px, "y": py, "id": 1}]
        cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    touch("touchStart", x, y)
    for i in range(1, 9):
        touch("touchMove", x + i * 25, y)
    touch("touchEnd", x + 200, y)
    settle(page)
    assert moment(page)["yaw"] > yaw, "a horizontal swipe on the graph rotates it"

    page.evaluate(f"document.querySelector('{SANDBOX} input[name=time]').scrollIntoView({{block: 'center'}})")
    scrub = page.locator(f"{SANDBOX} input[name=time]").bounding_box()
    page.touchscreen.tap(scrub["x"] + scrub["width"] * 0.95, scrub["y"] + scrub["height"] / 2)
    settle(page)
    assert moment(page)["time"] > 1.5, "tapping the timeline scrubs"


def test_a_message_above_never_moves_the_slider_under_a_finger(browser, site_server):
    """Walkthrough 13: on an Estonian phone, log's message (four lines where the hint had two) came as
    a touch drag took a below 0, and the slider moved 54 px down under the finger; the page now keeps
    the held slider where it was as the message comes and as it goes (a touch drag does not focus it)."""
    page = open_lesson(browser, site_server, lang="et", viewport=PHONE, has_touch=True, is_mobile=True,
                       hash=moment_hash("log(a) * b", {"a": 2, "b": 3}))
    slider = page.locator(f"{SANDBOX} input[type=range][name=var-a]")
    slider.scroll_into_view_if_needed()
    settle(page)
    box = slider.bounding_box()
    cdp = page.context.new_cdp_session(page)
    y = box["y"] + box["height"] / 2
    start, end = box["x"] + box["width"] * 0.7, box["x"] + 2  # from a = 2 to the left end, a < 0
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": start, "y": y}]})
    hint = page.locator(f"{SANDBOX} .tdg-expr > .tdg-help").evaluate("el => el.offsetHeight")
    tops, errors, heights = [], [], []
    for x in [start + (end - start) * i / 12 for i in range(1, 13)] + [start - 6]:  # out, then back
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]})
        settle(page)
        tops.append(round(slider.bounding_box()["y"] - box["y"], 1))
        errors.append(page.locator(f"{SANDBOX} .tdg-error").is_visible())
        heights.append(page.locator(f"{SANDBOX} .tdg-error").evaluate("el => el.offsetHeight"))
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    assert errors[-2] and not errors[-1], f"the message came below 0 and went back above: {errors}"
    # The message is lines taller than the hint it replaces: there was a shift to keep the slider from.
    assert max(heights) > hint + 20, (hint, heights)
    assert page.evaluate("document.activeElement.name") != "var-a", "a touch drag leaves the focus alone"
    assert all(abs(top) <= 1 for top in tops), f"the slider moved under the finger (px, each step): {tops}"


def test_colours_follow_the_palette_toggle(lesson):
    step_backward_to(lesson, 99)
    light = lesson.evaluate("getComputedStyle(document.querySelector('.tdg-card')).backgroundColor")
    lesson.evaluate("document.body.setAttribute('data-md-color-scheme', 'slate')")
    settle(lesson)
    dark = lesson.evaluate("getComputedStyle(document.querySelector('.tdg-card')).backgroundColor")
    assert light != dark
    stats = pixel_stats(lesson)
    assert stats["colours"] > 20


# ---- keyboard -----------------------------------------------------------------------------------

def test_keyboard_reaches_and_operates_every_control(lesson):
    """Tab reaches every control, each with a visible focus ring in the text's colour."""
    pause(lesson)
    lesson.focus(f"{SANDBOX} input[name=expression]")
    reached = []
    for _ in range(60):
        info = lesson.evaluate("""() => { const el = document.activeElement;
            const style = getComputedStyle(el);
            const probe = document.createElement('span');
            probe.style.color = 'var(--tdg-fg)';
            (el.closest('[data-sandbox]') || document.body).append(probe);
            const text = getComputedStyle(probe).color;
            probe.remove();
            return {inside: !!el.closest('[data-sandbox]'), name: el.getAttribute('name'),
                    action: el.dataset.action || null, tag: el.tagName,
                    outline: style.outlineStyle !== 'none' && style.outlineWidth !== '0px',
                    ring: style.outlineColor, text}; }""")
        if not info["inside"]:
            break
        reached.append(info)
        assert info["outline"], f"no visible focus on {info}"
        # in the text's colour: never the gradients' orange, nor near an error's or a wrong answer's red
        assert info["ring"] == info["text"], info
        lesson.keyboard.press("Tab")
    names = {r["name"] for r in reached} | {r["action"] for r in reached}
    for wanted in ("expression", "preset", "var-a", "num-a", "var-c", "play", "forward", "backward", "time",
                   "local-derivatives", "final-gradients", "reset-view", "copy-link"):
        assert wanted in names, f"{wanted} is not reachable with Tab: {names}"
    assert any(r["tag"] == "DIV" for r in reached), "the stage (rotate with arrow keys) is reachable"

    # operate: backward with Enter, step with arrows, play with Space, toggles with Space
    lesson.focus(f"{SANDBOX} [data-action=backward]")
    lesson.keyboard.press("Enter")
    lesson.focus(f"{SANDBOX} input[name=time]")
    lesson.keyboard.press("Home")
    for _ in range(2):
        lesson.keyboard.press("ArrowRight")
    settle(lesson)
    assert moment(lesson)["time"] == 2 and not moment(lesson)["playing"]
    assert grads(lesson)["a + b"] == "10"
    lesson.keyboard.press("ArrowLeft")
    settle(lesson)
    assert grads(lesson)["a + b"] == "--"
    lesson.keyboard.press("Space")
    assert moment(lesson)["playing"]
    lesson.keyboard.press("Space")
    assert not moment(lesson)["playing"]
    lesson.focus(f"{SANDBOX} input[name=final-gradients]")
    lesson.keyboard.press("Space")
    assert lesson.is_checked(f"{SANDBOX} input[name=final-gradients]")
    lesson.focus(f"{SANDBOX} input[type=range][name=var-c]")
    lesson.keyboard.press("ArrowRight")
    settle(lesson)
    assert lesson.input_value(f"{SANDBOX} input[name=num-c]") == "10.1"
    assert grads(lesson)["c"] == f"{MINUS}1"
    lesson.focus(f"{SANDBOX} .tdg-stage")
    yaw = moment(lesson)["yaw"]
    lesson.keyboard.press("ArrowRight")
    assert moment(lesson)["yaw"] > yaw
    lesson.focus(f"{SANDBOX} [data-action=preset] >> nth=2")
    lesson.keyboard.press("Enter")
    settle(lesson)
    assert lesson.input_value(f"{SANDBOX} input[name=expression]") == "a * a"


def test_tab_from_the_frame_reaches_the_output_of_a_graph_typed_key_by_key(lesson):
    """The lesson says Tab goes from the graph's frame to its output card (walkthrough 14: typed key by
    key, "a*b + a" passed through the graph "a", whose only card stayed the tab stop); a card the
    reader walked to stays the tab stop while the new graph has it."""
    open_moment(lesson)
    field = lesson.locator(f"{SANDBOX} input[name=expression]")
    field.fill("")
    field.type("a*b + a", delay=30)
    settle(lesson)
    lesson.focus(f"{SANDBOX} .tdg-stage")
    lesson.keyboard.press("Tab")
    assert lesson.evaluate("document.activeElement.dataset.node") == nodes(lesson)["a×b + a"], nodes(lesson)
    # Tab's own landing on the output is no choice: a longer expression's output has the tab stop
    # (review 49: a × b + a kept it once a + ... had been typed after it).
    field.press("End")
    field.type(" + c", delay=30)
    settle(lesson)
    lesson.focus(f"{SANDBOX} .tdg-stage")
    lesson.keyboard.press("Tab")
    focused = lesson.evaluate("document.activeElement.dataset.node")
    assert focused == nodes(lesson)["a×b + a + c"], nodes(lesson)
    lesson.keyboard.press("Home")  # to the first leaf, a: the reader's choice, kept by a new graph with it
    lesson.locator(f"{SANDBOX} input[type=range][name=var-b]").focus()
    type_expression(lesson, "a * c")
    lesson.focus(f"{SANDBOX} .tdg-stage")
    lesson.keyboard.press("Tab")
    assert lesson.evaluate("document.activeElement.dataset.node") == nodes(lesson)["a"]


# Where the focused card and the stage are in the window, and the page's scroll.
FOCUSED_IN_WINDOW = """() => { const card = document.activeElement.getBoundingClientRect();
    const stage = document.querySelector('[data-sandbox] .tdg-stage').getBoundingClientRect();
    const header = document.querySelector('.md-header').getBoundingClientRect().bottom;
    return {card: card.top >= stage.top && card.bottom <= stage.bottom,
            stage: stage.top >= header - 1 && stage.bottom <= innerHeight + 1,
            node: document.activeElement.dataset.node, at: [header, stage.top, stage.bottom]}; }"""


@pytest.mark.parametrize("viewport", [None, PHONE], ids=["desktop", "phone"])
def test_walking_a_big_graph_with_the_keys_keeps_it_in_the_window(browser, site_server, viewport):
    """Walk 35: on a 39-node graph bigger than its frame, Tab from the frame to the output card left the
    whole stage above the window, Home (to the first leaf) below it and End above it: the browser
    scrolled the page to the card where it was before the graph panned to it. The graph pans to the
    card and the whole stage stays in the window."""
    page = lesson_page(browser, site_server, viewport=viewport)
    expression = "a*b + c*d + e*f + g*h + i*j + k*l + m*n + o*p + q*r + s*t"
    open_moment(page, expression, {}, "forward", 2)
    page.evaluate("document.querySelector('[data-sandbox] .tdg-stage').scrollIntoView({block: 'center'})")
    page.focus(f"{SANDBOX} .tdg-stage")
    leaves = set()
    for key in ("Tab", "Home", "End", "Home", "ArrowRight"):
        page.keyboard.press(key)
        page.evaluate(SETTLED)
        where = page.evaluate(FOCUSED_IN_WINDOW)
        assert where["card"] and where["stage"], (key, where)
        leaves.add(where["node"])
    assert len(leaves) == 3, "the output, a, a × b"
    assert page.errors == []


def test_a_focused_cards_whole_expression_stands_over_its_tab_not_on_it(lesson):
    """Walkthrough 15: Tab to the output of relu(a * b) + c as its value arrives, and its whole expression
    (over a card whose title is shortened) covered the tab saying how it was made, "0 + 10 = 10"."""
    open_moment(lesson, "relu(a * b) + c", {"a": 2, "b": -3, "c": 10}, "forward", 99)
    seek(lesson, moment(lesson)["duration"] - 0.1)  # the output's value has just arrived
    lesson.focus(f"{SANDBOX} .tdg-stage")
    lesson.keyboard.press("Tab")
    at = lesson.evaluate("""() => {
      const card = document.activeElement, note = card.querySelector('.tdg-note');
      const words = getComputedStyle(card, '::after');
      return {shortened: card.dataset.shortened, words: words.content,
              note: note.hidden ? null : note.textContent,
              wordsBottom: card.clientHeight - parseFloat(words.bottom), noteTop: note.offsetTop}; }""")
    assert at["shortened"] == "true" and "relu" in at["words"] and at["note"] == "0 + 10 = 10", at
    assert at["wordsBottom"] <= at["noteTop"], at  # card-local px, above the tab's top


# ---- languages, phones, screenshots -------------------------------------------------------------

# Each language's words: test_browser_words.py, test_the_sandbox_speaks_the_pages_language.


def test_a_phones_timeline_slider_has_the_rows_width(browser, site_server):
    """Walkthrough 15: on a Russian phone the label "Шкала времени" left the timeline's slider 78 px,
    hard to hit a step with a finger. On a phone its name is for screen readers only."""
    page = open_lesson(browser, site_server, lang="ru", viewport=PHONE, has_touch=True, is_mobile=True)
    time = page.locator(SANDBOX).get_by_label("Шкала времени")  # still its name
    assert time.get_attribute("name") == "time"
    assert time.bounding_box()["width"] >= 150, time.bounding_box()


FADE = (f"parseFloat(getComputedStyle(document.querySelector('{SANDBOX} .tdg-presets'))"
        ".getPropertyValue('--tdg-fade'))")  # px: how far the presets row fades out at its right edge


def test_a_phones_presets_are_one_row_that_shows_the_chosen_one(browser, site_server):
    """Walkthrough 20 / xb16: on a phone three rows of presets stood between exercise (b)'s words and its
    graph, and Play under the fold. They are one row that a finger swipes; a link to the last preset's
    graph brings its chip into the row's view, pressed."""
    moment = ("#tinydag-1?expr=relu%28w%20*%20x%20%2B%20v%20*%20y%20%2B%20b%29"
              "&vals=w%3A0.5%2Cx%3A2%2Cv%3A-1%2Cy%3A0.5%2Cb%3A0.25")
    page = open_lesson(browser, site_server, lang="et", viewport=PHONE, has_touch=True, is_mobile=True,
                       hash=moment)
    settle(page)
    row = page.evaluate(f"""() => {{
        const row = document.querySelector('{SANDBOX} .tdg-presets'), r = row.getBoundingClientRect();
        const chips = [...row.querySelectorAll('[data-action=preset]')].map(c => c.getBoundingClientRect());
        const chosen = row.querySelector('[aria-pressed=true]').getBoundingClientRect();
        return {{height: r.height, chip: chips[0].height, wide: row.scrollWidth > row.clientWidth,
                 shown: chosen.left >= r.left - 1 && chosen.right <= r.right + 1,
                 last: chosen.left === chips[chips.length - 1].left,
                 page: document.documentElement.scrollWidth <= innerWidth}}; }}""")
    assert row["wide"] and row["height"] < 1.5 * row["chip"], row  # one row, wider than the window
    assert row["last"] and row["shown"], row
    assert row["page"], "the row scrolls, not the page"
    assert page.evaluate(FADE) == 0, "at its end the row does not fade"
    assert page.errors == []
    # On load, the chosen chip in view moves nothing (walkthrough 26: each load moved the row 4 px, and
    # its label read "Іримеры").
    page = open_lesson(browser, site_server, lang="ru", viewport=PHONE, has_touch=True, is_mobile=True)
    scroll_to_player(page)
    settle(page)
    scrolled = f"document.querySelector('{SANDBOX} .tdg-presets').scrollLeft"
    assert page.evaluate(scrolled) == 0
    # More chips to the right: the row fades out at its right edge (walk 37: only the clipped chip said so),
    # and a chip chosen there comes in clear of the fade
    assert page.evaluate(FADE) == 50
    page.locator(f"{SANDBOX} [data-action=preset]").nth(1).click()
    settle(page)
    assert page.evaluate(f"""() => {{ const row = document.querySelector('{SANDBOX} .tdg-presets')
        .getBoundingClientRect(); const chip = document.querySelector('{SANDBOX} [aria-pressed=true]')
        .getBoundingClientRect(); return row.right - chip.right; }}""") >= 50 - 1
    # The first chosen again after the last: the row's start comes back, its label with it (walkthrough
    # 27: the row stayed 131 px on, "Presets" hidden and the first chip read "es a factor").
    chips = page.locator(f"{SANDBOX} [data-action=preset]")
    chips.last.click()
    settle(page)
    assert page.evaluate(scrolled) > 0
    chips.first.click()
    settle(page)
    assert page.evaluate(scrolled) == 0
    # A setup that is no preset (an expression of one's own, exercise (a)'s values) after one far along
    # the row: the row's start too (walkthrough 28: after (c)'s link, then (a)'s, it stayed 334 px on).
    chips.last.click()
    settle(page)
    # ...but a chip chosen after another leaves the row where it shows the chosen one (review 58: the
    # one before the last, in view, went out of it as the last's press went)
    chips.nth(chips.count() - 2).click()
    settle(page)
    assert page.evaluate(f"""() => {{ const row = document.querySelector('{SANDBOX} .tdg-presets')
        .getBoundingClientRect(); const chip = document.querySelector('{SANDBOX} [aria-pressed=true]')
        .getBoundingClientRect(); return chip.left >= row.left - 1 && chip.right <= row.right + 1; }}""")
    page.locator(f"{SANDBOX} input[name=expression]").fill("a * b")
    settle(page)
    assert page.locator(f"{SANDBOX} [data-action=preset][aria-pressed=true]").count() == 0
    assert page.evaluate(scrolled) == 0
    assert page.errors == []


def test_phone_viewport_fits_without_horizontal_scroll(browser, site_server):
    page = open_lesson(browser, site_server, viewport=PHONE, has_touch=True, is_mobile=True)
    scroll_to_player(page)
    presets = page.locator(f"{SANDBOX} [data-action=preset]")
    for preset in range(presets.count()):
        presets.nth(preset).click()
        settle(page)
        layout = page.evaluate("""() => {
            const box = el => el.getBoundingClientRect();
            const stage = box(document.querySelector('[data-sandbox] .tdg-stage'));
            const player = box(document.querySelector('[data-sandbox] .tdg-player'));
            const cards = [...document.querySelectorAll('[data-sandbox] [data-node]')].map(box);
            return {scroll: document.documentElement.scrollWidth, inner: innerWidth,
                    stage: [stage.left, stage.right], player: [player.left, player.right],
                    cards: cards.map(c => [c.left, c.right, c.width])}; }""")
        assert layout["scroll"] <= layout["inner"], f"preset {preset}: the page scrolls sideways"
        left, right = layout["stage"]
        assert left >= 0 and right <= PHONE["width"] and layout["player"][1] <= PHONE["width"]
        for card_left, card_right, width in layout["cards"]:
            assert card_left >= left - 1 and card_right <= right + 1, f"preset {preset}: a card sticks out"
            assert width >= 45, f"preset {preset}: cards stay readable ({width:.0f} px)"
    # A long output node: its chip in the topological order breaks inside the page (walk 34: 451 px wide
    # on this 390 px phone, and the page scrolled sideways)
    type_expression(page, "(a*b+c*d+e*f+g*h+a*c+b*d+e*g+f*h)*(a+b+c+d+e+f+g+h)")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


@pytest.mark.shots
@pytest.mark.parametrize("lang", ["en", "ru", "et"])
@pytest.mark.parametrize("size", ["1280x800", "390x844"])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_screenshots(browser, site_server, lang, size, scheme):
    """Pictures to look at (`make shots`, not `make test`): the default graph in the middle of backward
    and the crowded neuron at its end, in each language, light and dark, in .build/shots/. Its layout
    check is test_edge_labels_stay_readable_on_crowded_graphs's, at every step and both sizes."""
    width, height = map(int, size.split("x"))
    page = lesson_page(browser, site_server, lang, viewport={"width": width, "height": height})
    if scheme == "dark":  # Material's own toggle (the page remembers the reader's last choice)
        page.evaluate("document.body.setAttribute('data-md-color-scheme', 'slate')")
    center = "document.querySelector('[data-sandbox] .tdg-stage').scrollIntoView({block: 'center'})"
    page.evaluate(center)
    page.click(f"{SANDBOX} [data-action=backward]")
    seek(page, 3.5)  # c's contribution in flight, two labels written
    SHOTS.mkdir(parents=True, exist_ok=True)
    name = f"{lang}-{size}" + ("" if scheme == "light" else "-dark")
    page.screenshot(path=str(SHOTS / f"sandbox-{name}.png"))
    # The player is taller than the window: its picture is taken in parts, and Material's sticky header,
    # which stays at the window's top, would cross it in the middle; it is hidden for that picture only.
    page.locator(f"{SANDBOX} .tdg-player").screenshot(path=str(SHOTS / f"player-{name}.png"),
                                                     style=".md-header { visibility: hidden; }")
    page.click(f"{SANDBOX} [data-action=preset] >> nth=5")  # the neuron: five rows, five columns
    step_backward_to(page, 99)
    assert layout_problems(stage_geometry(page)) == []
    page.evaluate(center)  # clear of Material's sticky header
    page.locator(f"{SANDBOX} .tdg-stage").screenshot(path=str(SHOTS / f"neuron-{name}.png"))


# ---- several sandboxes, budgets -----------------------------------------------------------------

def test_several_sandboxes_on_one_page(browser, site_server):
    page = lesson_page(browser, site_server).context.new_page()  # a tab of its own: it reroutes the page
    url = site_server + LESSON["en"]

    def twice(route):
        html = route.fetch().text()
        block = re.search(r'<div class="tinydag" data-sandbox id="tinydag-1".*?</figure>\s*</div>', html,
                          re.S)
        assert block, "sandbox markup not found"
        second = block.group(0).replace('id="tinydag-1"', 'id="tinydag-2"')
        route.fulfill(body=html.replace(block.group(0), block.group(0) + second), content_type="text/html")

    page.route(url, twice)
    page.goto(url)
    sandbox_ready(page)
    assert page.locator("[data-sandbox][data-player=ready]").count() == 2
    first, second = "#tinydag-1", "#tinydag-2"
    page.locator(f"{second} input[name=expression]").fill("a * a")
    page.click(f"{second} [data-action=backward]")
    page.click(f"{first} [data-action=backward]")
    set_range(page, f"{first} input[name=time]", 99)
    set_range(page, f"{second} input[name=time]", 99)
    settle(page)
    assert page.locator(f"{first} [data-node]").count() == 5
    assert page.locator(f"{second} [data-node]").count() == 2
    assert page.locator(f"{second} [data-field=grad]").all_inner_texts() == ["4", "1"]  # a = 2: 2a
    for sandbox in ("tinydag-1", "tinydag-2"):
        assert pixel_stats(page, sandbox)["drawn"] > 1000
    page.close()


def test_lesson_javascript_budget(built_site, browser, site_server):
    """All JavaScript the lesson page loads beyond Material's own: at most 60 KB gzip."""
    page = lesson_page(browser, site_server).context.new_page()
    scripts: list[str] = []
    page.on("response", lambda r: scripts.append(r.url) if r.request.resource_type == "script" else None)
    page.goto(site_server + LESSON["en"])
    sandbox_ready(page)
    ours = [u for u in scripts if "/assets/javascripts/" not in u]
    assert ours, "the player script was not loaded"
    total = 0
    for url in ours:
        path = built_site / url.split(site_server, 1)[1].split("?")[0]
        total += len(gzip.compress(path.read_bytes(), 9))
    page.close()
    assert total <= 60 * 1024, f"{total / 1024:.1f} KB gzip"
