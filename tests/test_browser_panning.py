"""A graph bigger than the stage is panned, in a real browser at 1280x800 and 390x844: the arrow keys
on the focused stage, a mouse drag and, on a phone, one finger bring every card into view; following
the pulse keeps the active card in view until the reader pans by hand; Reset view brings a panned
graph back to its start; a focused card is brought into view, a derived operation with its whole
expansion. A graph that fits still turns. (Readable at both sizes: test_browser_readable_graphs.py.)
"""

from __future__ import annotations

import re
from urllib.parse import quote

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from .big_graph_helpers import (
    BIG,
    EXPANSIONS,
    FORTY_NODES,
    NUMBER,
    SIZES,
    assert_readable,
    to_end_of_backward,
)
from .browser_helpers import (
    DESKTOP,
    PHONE,
    SETTLED,
    covered_cards,
    layout_problems,
    lesson_page,
    moment,
    open_lesson,
    paused_in_view,
    scroll_to_player,
    seek,
    settle,
    stage_geometry,
    type_expression,
)

SANDBOX = "[data-sandbox]"
NODE_IDS = "[...document.querySelectorAll('[data-sandbox] [data-node]')].map(e => e.dataset.node)"
pytestmark = pytest.mark.browser


def open_at_end_of_backward(browser, site_server, viewport, expression=None, preset=None, local=False):
    page = lesson_page(browser, site_server, viewport=viewport)
    paused_in_view(page)
    return to_end_of_backward(page, expression, preset, local)


VISIBLE_IN_STAGE = """id => {
  const stage = document.querySelector('[data-sandbox] .tdg-stage').getBoundingClientRect();
  const card = document.querySelector(`[data-sandbox] [data-node="${id}"]`);
  const b = card.getBoundingClientRect();
  if (b.left < stage.left - 0.5 || b.right > stage.right + 0.5 || b.top < stage.top - 0.5
      || b.bottom > stage.bottom + 0.5) return false;
  if (b.top < 0 || b.bottom > innerHeight) return false;
  const hit = document.elementFromPoint(b.left + b.width / 2, b.top + b.height / 2);
  return !!hit && card.contains(hit);
}"""


def visible_in_stage(page, node: str) -> bool:
    """The whole card lies inside the stage, and the reader sees it there (nothing covers its centre)."""
    return page.evaluate(VISIBLE_IN_STAGE, node)


def card_offset(page, node: str) -> tuple[float, float]:
    """How far (CSS px) the card's centre is from the stage's centre."""
    return tuple(page.evaluate("""id => {
      const s = document.querySelector('[data-sandbox] .tdg-stage').getBoundingClientRect();
      const b = document.querySelector(`[data-sandbox] [data-node="${id}"]`).getBoundingClientRect();
      return [b.left + b.width / 2 - (s.left + s.width / 2), b.top + b.height / 2 - (s.top + s.height / 2)];
    }""", node))


def direction_to(sides: list[float]) -> str:
    """The arrow key that moves the view towards a side of the stage the card sticks out of (`sides`: how
    far the card sticks out of the stage's left, top, right and bottom)."""
    left, top, right, bottom = sides
    worst = max((left, "ArrowLeft"), (right, "ArrowRight"), (top, "ArrowUp"), (bottom, "ArrowDown"))
    return worst[1]


def keep_stage_in_window(page) -> None:
    page.evaluate("document.querySelector('[data-sandbox] .tdg-stage').scrollIntoView({block: 'center'})")


# The stage kept in the window, then whether the card is in view and how far it sticks out of each side
# of the stage: one round trip per arrow key.
IN_VIEW_AND_SIDES = f"""id => {{
  document.querySelector('[data-sandbox] .tdg-stage').scrollIntoView({{block: 'center'}});
  const s = document.querySelector('[data-sandbox] .tdg-stage').getBoundingClientRect();
  const b = document.querySelector(`[data-sandbox] [data-node="${{id}}"]`).getBoundingClientRect();
  return [({VISIBLE_IN_STAGE})(id), [s.left - b.left, s.top - b.top, b.right - s.right, b.bottom - s.bottom]];
}}"""


# ---- panning: every card of a big graph can be brought into view ---------------------------------

@pytest.mark.parametrize(("size", "name"), [("1280x800", "39-factor product"), ("390x844", "27-node mixed")])
def test_arrow_keys_bring_every_card_into_view(browser, site_server, size, name):
    """A long row on a desktop, a wide and deep graph on a phone (dragging: both on a desktop)."""
    page = open_at_end_of_backward(browser, site_server, SIZES[size], expression=BIG[name])
    stage = page.locator(f"{SANDBOX} .tdg-stage")
    assert stage.get_attribute("data-pannable") == "true", "bigger than the stage at a readable size"
    assert page.locator(f"{SANDBOX} .tdg-pan-toolbar").is_visible(), "the reader is told how to see the rest"
    ids = page.evaluate(NODE_IDS)
    before = moment(page)
    stage.focus()
    for node in ids:
        for _ in range(80):
            visible, sides = page.evaluate(IN_VIEW_AND_SIDES, node)
            if visible:
                break
            page.keyboard.press(direction_to(sides))
            settle(page)
        assert visible_in_stage(page, node), f"{name} at {size}: the arrow keys never showed card {node}: " \
            f"{card_offset(page, node)}"
    after = moment(page)
    assert (after["yaw"], after["pitch"]) == (before["yaw"], before["pitch"]), "panning, not turning"
    assert layout_problems(stage_geometry(page)) == []


def test_dragging_brings_every_card_into_view(browser, site_server):
    """With the mouse, on a desktop (a finger on a phone: test_one_finger_pans_a_big_graph_on_a_phone)."""
    size = "1280x800"
    page = open_at_end_of_backward(browser, site_server, SIZES[size], expression=BIG["27-node mixed"])
    ids = page.evaluate(NODE_IDS)
    before = moment(page)
    for node in ids:
        for _ in range(12):
            keep_stage_in_window(page)
            if visible_in_stage(page, node):
                break
            dx, dy = card_offset(page, node)
            box = page.locator(f"{SANDBOX} .tdg-stage").bounding_box()
            # grab the stage where no card is, and pull the card towards the middle
            start = page.evaluate("""() => {
              const s = document.querySelector('[data-sandbox] .tdg-stage').getBoundingClientRect();
              for (let y = s.top + 8; y < s.bottom - 8; y += 13)
                for (let x = s.left + 8; x < s.right - 8; x += 13) {
                  const hit = document.elementFromPoint(x, y);
                  if (hit && hit.matches('canvas')) return [x, y];
                }
              return null; }""")
            assert start, "somewhere to grab the stage"
            limit = min(box["width"], box["height"]) / 2 - 10
            step_x = max(-limit, min(limit, -dx))
            step_y = max(-limit, min(limit, -dy))
            page.mouse.move(*start)
            page.mouse.down()
            page.mouse.move(start[0] + step_x, start[1] + step_y, steps=4)
            page.mouse.up()
            settle(page)
        assert visible_in_stage(page, node), f"at {size}: dragging never showed card {node}"
    after = moment(page)
    assert (after["yaw"], after["pitch"]) == (before["yaw"], before["pitch"]), "a drag pans a big graph"
    assert layout_problems(stage_geometry(page)) == []


def test_a_graph_that_fits_still_turns(browser, site_server):
    page = open_at_end_of_backward(browser, site_server, DESKTOP)
    stage = page.locator(f"{SANDBOX} .tdg-stage")
    assert stage.get_attribute("data-pannable") is None
    assert not page.locator(f"{SANDBOX} .tdg-pan-toolbar").is_visible()
    before = moment(page)
    stage.focus()
    page.keyboard.press("ArrowRight")
    settle(page)
    assert moment(page)["yaw"] > before["yaw"]


def test_follow_the_pulse_keeps_the_active_card_in_view(browser, site_server):
    """A 39-factor product is wider than the stage: the backward wave walks right to left along it."""
    page = open_at_end_of_backward(browser, site_server, DESKTOP, expression=BIG["39-factor product"])
    follow = page.locator(f"{SANDBOX} [data-action=follow]")
    assert follow.get_attribute("aria-pressed") == "true"
    for t in (2, 20, 40, 60):
        seek(page, t)
        keep_stage_in_window(page)
        active = page.evaluate("[...document.querySelectorAll('[data-sandbox] .tdg-card[data-active]')]"
                               ".map(e => e.dataset.node)")
        assert all(visible_in_stage(page, node) for node in active), f"step {t}: {active}"
    page.locator(f"{SANDBOX} .tdg-stage").focus()
    page.keyboard.press("ArrowLeft")
    assert follow.get_attribute("aria-pressed") == "false", "panning by hand stops following"


STAGE_IN_WINDOW = """() => {
  const b = document.querySelector('[data-sandbox] .tdg-stage').getBoundingClientRect();
  return b.top >= 0 && b.bottom <= innerHeight; }"""


def test_whole_graph_shows_a_big_graph_at_once_and_gives_the_reading_size_back(browser, site_server):
    """Walkthrough 10: a 40-node graph showed a third of itself at a time. "Whole graph" fits all of it
    in the stage (cards too small to read, the wave still on them), then gives the readable size back,
    following the pulse; a graph that fits at a readable size has no overview."""
    page = open_at_end_of_backward(browser, site_server, DESKTOP, expression=BIG["40 nodes"])
    stage = page.locator(f"{SANDBOX} .tdg-stage")
    whole = page.locator(f"{SANDBOX} [data-action=whole]")
    ids = page.evaluate(NODE_IDS)
    assert stage.get_attribute("data-pannable") == "true"
    assert not all(visible_in_stage(page, node) for node in ids)
    # Pressed from below the graph (its button is under it): the resized stage comes into the window
    # (walkthrough 11: its top stayed above it).
    whole.evaluate("el => el.scrollIntoView({block: 'start'})")
    pressed = whole.bounding_box()
    whole.click()
    settle(page)
    page.wait_for_function(STAGE_IN_WINDOW, timeout=5_000)
    page.evaluate(SETTLED)  # its smooth scroll ended: the stage's top no longer under the header
    # The button keeps its place in its row, for the press that gives the size back (walkthrough 12: it
    # moved 138 px to the right, and a second click there turned Follow the pulse off).
    assert whole.bounding_box()["x"] == pressed["x"], (pressed, whole.bounding_box())
    assert stage.get_attribute("data-pannable") is None and whole.get_attribute("aria-pressed") == "true"
    assert all(visible_in_stage(page, node) for node in ids), "every card in the stage"
    assert "too small to read" in page.locator(f"{SANDBOX} .tdg-pan-hint").inner_text()
    assert not page.locator(f"{SANDBOX} [data-action=follow]").is_visible()
    assert layout_problems(stage_geometry(page)) == []
    # Seen whole, the graph is a map: a drag or an arrow key does not turn it unseen (review 48: the turn
    # showed later, on the next small graph), and the hint under it does not speak of turning.
    view = {key: moment(page)[key] for key in ("yaw", "pitch")}
    box = stage.bounding_box()
    page.mouse.move(box["x"] + 12, box["y"] + 12)
    page.mouse.down()
    page.mouse.move(box["x"] + 160, box["y"] + 90, steps=4)
    page.mouse.up()
    stage.focus()
    page.keyboard.press("ArrowLeft")
    assert {key: moment(page)[key] for key in ("yaw", "pitch")} == view
    assert not page.locator(f"{SANDBOX} .tdg-drag-hint").is_visible()
    assert stage.evaluate("el => getComputedStyle(el).cursor") == "default"
    whole.click()
    settle(page)
    assert stage.get_attribute("data-pannable") == "true" and whole.get_attribute("aria-pressed") == "false"
    assert page.get_attribute(f"{SANDBOX} [data-action=follow]", "aria-pressed") == "true"
    # In the overview a new expression that fits at a readable size is simply drawn: no bar at all.
    whole.click()
    type_expression(page, "(a + b) * c")
    assert not page.locator(f"{SANDBOX} .tdg-pan-toolbar").is_visible()
    type_expression(page, BIG["40 nodes"])
    assert stage.get_attribute("data-pannable") == "true", "the next big graph is read at its readable size"
    assert page.errors == []


def test_one_finger_pans_a_big_graph_on_a_phone(browser, site_server):
    """On a touch screen a sideways drag pans the graph; when there is nothing to pan upright, an
    upright swipe still scrolls the page (touch-action pan-y), otherwise the stage takes it all."""
    page = open_lesson(browser, site_server, viewport=PHONE, has_touch=True, is_mobile=True)
    scroll_to_player(page)
    type_expression(page, BIG["27-node mixed"])
    keep_stage_in_window(page)
    stage = page.locator(f"{SANDBOX} .tdg-stage")
    assert stage.get_attribute("data-pannable") == "true"
    assert stage.evaluate("el => getComputedStyle(el).touchAction") in ("none", "pan-y")
    assert "one finger" in page.locator(f"{SANDBOX} .tdg-pan-hint").inner_text()
    box = stage.bounding_box()
    ids = page.evaluate(NODE_IDS)
    before = {node: card_offset(page, node) for node in ids[:3]}
    cdp = page.context.new_cdp_session(page)
    x, y = box["x"] + box["width"] - 20, box["y"] + box["height"] / 2

    def touch(kind: str, px: float, py: float) -> None:
        points = [] if kind == "touchEnd" else [{"x": px, "y": py}]
        cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    touch("touchStart", x, y)
    for step in range(1, 9):
        touch("touchMove", x - 25 * step, y)
    touch("touchEnd", x - 200, y)
    settle(page)
    for node in ids[:3]:
        dx = card_offset(page, node)[0] - before[node][0]
        assert dx < -100, f"card {node} did not follow the finger: moved by {dx:.0f} px"
    assert page.errors == []


# Where a focused card's whole expression (its ::after, cards.css) lies on screen, against the stage's
# frame: its resolved offsets are CSS px of the card's padding box, which the card's own scale shrinks.
TIP = """() => { const card = document.activeElement, tip = getComputedStyle(card, '::after');
  const box = card.getBoundingClientRect(), frame = card.closest('.tdg-stage').getBoundingClientRect();
  const scale = box.width / card.offsetWidth, px = name => parseFloat(tip[name]) * scale;
  const left = box.left + card.clientLeft * scale + px('left');
  return {words: tip.content, sizing: tip.boxSizing, left, right: left + px('width'),
          top: box.top + card.clientTop * scale + px('top'), frame: [frame.left, frame.right, frame.top]};
}"""


# A person looks, then taps: Chromium drops a tap that follows a swipe at once (the tap after each pan
# focused nothing, and the tip read was the previous card's); and, as a person does, taps again when a
# tap did nothing (a loaded machine dropped one after the pause too).
LOOK_MS = 500
TAPS = 3


def tap_to_focus(page, card, x: float, y: float) -> None:
    """Tap at (x, y) until `card` has the focus a tap gives it."""
    for _ in range(TAPS):
        page.touchscreen.tap(x, y)
        try:
            page.wait_for_function("card => document.activeElement === card", arg=card, timeout=3000)
            return
        except PlaywrightTimeout:
            continue
    pytest.fail(f"{TAPS} taps at ({x}, {y}) did not focus the card there")


def test_a_tapped_cards_expression_stays_inside_the_stage_on_a_phone(browser, site_server):
    """Walkthrough 20: on a phone a 40-node graph's cards show their operation only; a tap names the
    card with its whole expression, which ran off the stage's right edge for a card on the right (and,
    review 53, off its left edge for a long one right of the middle)."""
    page = open_lesson(browser, site_server, viewport=PHONE, has_touch=True, is_mobile=True,
                       hash="#tinydag-1?expr=" + quote(FORTY_NODES) + "&dir=backward&t=14")
    scroll_to_player(page)
    keep_stage_in_window(page)
    frame = page.locator(f"{SANDBOX} .tdg-stage").bounding_box()
    cards = page.locator(f"{SANDBOX} .tdg-card[data-expression]")
    cdp = page.context.new_cdp_session(page)
    tapped = []
    for pan in (0, 110, 110):  # the graph moved left by a finger: the long expressions reach the middle
        if pan:
            y = frame["y"] + frame["height"] / 2
            for kind, x in [("touchStart", 300), *(("touchMove", 300 - pan * k / 6) for k in range(1, 7))]:
                cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": [{"x": x, "y": y}]})
            cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
            settle(page)
            page.wait_for_timeout(LOOK_MS)
        for i in range(cards.count()):
            box = cards.nth(i).bounding_box()
            inside = (frame["x"] < box["x"] and box["x"] + box["width"] < frame["x"] + frame["width"]
                      and frame["y"] < box["y"] and box["y"] + box["height"] < frame["y"] + frame["height"])
            if not inside or page.evaluate("innerHeight") < box["y"] + box["height"]:
                continue
            # the tip read is this card's (its focus comes with the tap's click, a moment after touchend)
            tap_to_focus(page, cards.nth(i).element_handle(), box["x"] + box["width"] / 2,
                         box["y"] + box["height"] / 2)
            tip = page.evaluate(TIP)
            assert tip["words"].startswith('"') and len(tip["words"]) > 3, tip  # not "none"
            assert tip["sizing"] == "border-box", tip
            assert tip["left"] >= tip["frame"][0] and tip["right"] <= tip["frame"][1], tip
            assert tip["top"] >= tip["frame"][2], tip
            tapped.append(((box["x"] - frame["x"]) / frame["width"], len(tip["words"])))
    # cards across the stage, left, middle and right, long expressions in the middle among them
    assert min(tapped)[0] < 0.3 and max(tapped)[0] > 0.7, tapped
    assert any(0.3 < x < 0.7 and length > 25 for x, length in tapped), tapped
    assert page.errors == []


@pytest.mark.parametrize("size", SIZES)
def test_following_the_pulse_shows_both_ends_of_the_step(browser, site_server, size):
    """Walkthrough 15: thirteen variables summed one by one opened with the first sum in view and the
    leaf a that feeds it cut by the frame's top. Each step of the forward pass, paused mid-flight,
    shows the card it computes and the cards it reads."""
    page = lesson_page(browser, site_server, viewport=SIZES[size])
    paused_in_view(page)
    type_expression(page, "a+b+c+d+e+f+g+h+i+j+k+l+m")
    keep_stage_in_window(page)
    node = dict(page.evaluate("""[...document.querySelectorAll('[data-sandbox] [data-node]')]
        .map(card => [card.getAttribute('aria-label'), card.dataset.node])"""))
    for t, shown in ((0.4, ("a", "b", "a+b")), (1.4, ("a+b", "c", "a+b+c"))):
        seek(page, t)
        settle(page)
        missing = [label for label in shown if not visible_in_stage(page, node[label])]
        assert missing == [], f"at t = {t} on a {size}, not in view: {missing}"


def test_a_link_to_a_step_shows_the_card_the_step_is_about(browser, site_server):
    """Walkthrough 17's last look: a link to step 12 of a 40-node graph's backward pass, opened on a
    phone, centred the step's two ends, farther apart than the frame is wide, and left the card the
    caption speaks of (g receives 0 x 1 = 0) half outside the frame."""
    hash = f"#tinydag-1?expr={quote(FORTY_NODES)}&dir=backward&t=12"
    page = lesson_page(browser, site_server, viewport=PHONE, hash=hash)
    page.wait_for_function("document.querySelector('[data-sandbox] [data-caption]')?.textContent"
                           ".startsWith('Step 12 of 51 · g receives')")
    settle(page)
    keep_stage_in_window(page)
    active = page.evaluate("[...document.querySelectorAll('[data-sandbox] .tdg-card[data-active]')]"
                           ".map(e => e.dataset.node)")
    assert active and all(visible_in_stage(page, node) for node in active), active
    assert page.errors == []


def test_a_finger_past_a_big_graphs_end_scrolls_the_page(browser, site_server):
    """Walkthrough 14: on a phone an upright swipe on a graph that pans both ways moved the graph to its
    end, then nothing: the stage nearly filled the window, and the page did not scroll. The swipe now
    pans the graph to its end and scrolls the page with the rest of it, both ways."""
    page = open_lesson(browser, site_server, viewport=PHONE, has_touch=True, is_mobile=True)
    scroll_to_player(page)
    type_expression(page, BIG["40 nodes"])
    keep_stage_in_window(page)
    stage = page.locator(f"{SANDBOX} .tdg-stage")
    assert stage.evaluate("el => getComputedStyle(el).touchAction") == "none", "it pans upright too"
    cdp = page.context.new_cdp_session(page)
    card = page.evaluate(NODE_IDS)[0]

    def swipe(dy: float) -> tuple[float, float]:
        """One finger from the stage's middle, 40 moves of dy px; how far a card and the page moved."""
        keep_stage_in_window(page)
        box = stage.bounding_box()
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        top, card_y = page.evaluate("scrollY"), card_offset(page, card)[1]
        cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
        for step in range(1, 41):
            cdp.send("Input.dispatchTouchEvent",
                     {"type": "touchMove", "touchPoints": [{"x": x, "y": y + dy * step}]})
        cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        settle(page)
        return card_offset(page, card)[1] - card_y, page.evaluate("scrollY") - top

    for dy in (-40, 40):  # up, then down: each pans the graph to its end, then scrolls the page
        panned, scrolled = swipe(dy)
        assert panned * dy > 0, f"the graph followed the finger first ({dy}: {panned:.0f} px)"
        assert scrolled * dy < 0 and abs(scrolled) > 40, f"then the page scrolled ({dy}: {scrolled:.0f} px)"
        assert abs(panned) + abs(scrolled) <= 40 * abs(dy) + 2, "no more than the finger moved"
    assert page.errors == []


def test_reset_view_brings_a_panned_graph_back_to_its_start(browser, site_server):
    page = open_at_end_of_backward(browser, site_server, DESKTOP, expression=BIG["39-factor product"])
    first = page.evaluate(NODE_IDS)[0]  # the leaf a, on the far left
    page.click(f"{SANDBOX} [data-action=reset-view]")
    settle(page)
    keep_stage_in_window(page)
    assert visible_in_stage(page, first)
    assert page.get_attribute(f"{SANDBOX} [data-action=follow]", "aria-pressed") == "true"


# Focuses each card in turn (as an arrow key would), lets the pan to it be drawn (two animation frames),
# then keeps the stage in the window and reads which card has focus and whether it is in view: the
# steps of test_tab_brings_each_card_into_view... in one round trip, stopping where focus is lost.
FOCUS_EACH_CARD = f"""async ids => {{
  const visible = {VISIBLE_IN_STAGE}, found = [];
  for (const id of ids) {{
    document.querySelector(`[data-sandbox] [data-node="${{id}}"]`).focus();
    await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
    const node = document.activeElement.dataset.node || null;
    if (node === null) {{ found.push([null, false]); break; }}
    document.querySelector('[data-sandbox] .tdg-stage').scrollIntoView({{block: 'center'}});
    found.push([node, visible(node)]);
  }}
  return found;
}}"""


@pytest.mark.parametrize("size", SIZES)
def test_tab_brings_each_card_into_view_and_a_derived_operation_with_its_expansion(browser, site_server,
                                                                                 size):
    """Cards take keyboard focus (their full expression shows); a focused card is scrolled into view.
    Tab reaches the graph's one card in the tab order; the others are reached from it with the arrow
    keys (walk.ts), so here each is focused in turn as an arrow key would. Then, in the same page, a
    panned graph's derived operations with their local derivatives (local_derivatives_of_a_big_graph_fit)."""
    page = open_at_end_of_backward(browser, site_server, SIZES[size], expression=BIG["40 nodes"])
    ids = page.evaluate(NODE_IDS)
    page.locator(f"{SANDBOX} .tdg-stage").focus()
    page.keyboard.press("Tab")
    settle(page)  # the pan to that card is drawn before the next card takes focus
    assert page.evaluate("document.activeElement.dataset.node || null") is not None, "Tab reaches the graph"
    seen = []
    for node, visible in page.evaluate(FOCUS_EACH_CARD, ids):
        if node is None:
            break
        assert visible, f"at {size}: card {node} has focus but is out of view"
        seen.append(node)
    assert len(seen) == len(ids), f"focus reached {len(seen)} of {len(ids)} cards"
    local_derivatives_of_a_big_graph_fit_once_in_view(page, size)
    assert page.errors == []


def local_derivatives_of_a_big_graph_fit_once_in_view(page, size: str) -> None:
    """In a panned graph, a derived operation reached with Tab comes into view with its whole expansion."""
    to_end_of_backward(page, expression=BIG["27-node mixed"], local=True)
    derived = page.evaluate("[...document.querySelectorAll('[data-sandbox] .tdg-card')]"
                            ".filter(c => c.querySelector('.tdg-expansion:not([hidden])'))"
                            ".map(c => c.dataset.node)")
    assert len(derived) == 2, "a·c − d and e / f"
    for node in derived:
        page.focus(f"{SANDBOX} [data-node='{node}']")
        settle(page)
        keep_stage_in_window(page)
        assert visible_in_stage(page, node)
        expansion = next(e for e in page.evaluate(EXPANSIONS) if e["node"] == node)
        box, stage = expansion["box"], expansion["stage"]
        assert box["x"] >= 0 and box["y"] >= 0, expansion
        assert box["x"] + box["w"] <= stage["w"] + 0.5 and box["y"] + box["h"] <= stage["h"] + 0.5, expansion
        assert expansion["brokenTerms"] == [] and not expansion["clipped"], expansion
        for line in expansion["lines"]:
            assert re.fullmatch(r"∂/∂\S.* = " + NUMBER, line.replace("\u00a0", " ")), line
        assert covered_cards(expansion, stage_geometry(page)) == [], f"the expansion of {node} covers cards"
    assert_readable(page, f"27 nodes with local derivatives at {size}")


# Panning speaks the page's language: test_browser_words.py, test_the_sandbox_speaks_the_pages_language.
