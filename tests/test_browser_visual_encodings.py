"""Pictures that carry meaning, in a real browser, on a desktop and a phone: during backward an
edge is as thick as its contribution is large (log-scaled) and a dead path is dashed with a `data-dead`
label; arrowheads point the way the pulse travels; a marker carries the number; a gradient built from
two contributions shows `2 + 2 = 4` on its card while the code strip marks the `+=` and the narration
says it; forward, a card shows how its value was made. Edge looks are read from the player's own
description of each drawn edge (edgePaths()). Nothing here depends on the language or the colour scheme:
the legend's words are checked in each language by test_browser_words.py
(test_the_sandbox_speaks_the_pages_language), colours by test_browser_drawing_and_controls.py's
palette test and the dark axe audit. The moments are opened by changing the address's hash in one
loaded page, as a reader's link does.
"""

from __future__ import annotations

from urllib.parse import quote

import pytest

from .browser_helpers import DESKTOP, MINUS, PHONE, lesson_page, seek, settle

SANDBOX = "[data-sandbox]"
SIZES = {"desktop": DESKTOP, "phone": PHONE}
pytestmark = pytest.mark.browser


def moment_hash(expression: str, values: dict[str, float], direction: str, time: float) -> str:
    vals = ",".join(f"{k}:{v}" for k, v in values.items())
    return (f"#tinydag-1?expr={quote(expression)}&vals={quote(vals)}&dir={direction}"
            f"&t={time}")


def open_at(browser, base, lang, size, scheme, expression, values, direction="backward", time=99):
    hash = moment_hash(expression, values, direction, time)
    page = lesson_page(browser, base, lang, SIZES[size], hash=hash, color_scheme=scheme)
    page.wait_for_function("window.tinydagPlayer.sandboxes['tinydag-1'] !== undefined")
    settle(page)
    return page


def go_to(page, expression, values, direction="backward", time=99):
    """Open a moment in the loaded page by changing the hash (the player follows `hashchange`)."""
    page.evaluate("h => { location.hash = h; }", moment_hash(expression, values, direction, time))
    page.wait_for_function("""([expr, dir]) => {
        const m = window.tinydagPlayer.sandboxes['tinydag-1'].moment();
        return document.querySelector('[data-sandbox] input[name=expression]').value === expr
            && m.direction === dir && !m.playing; }""", arg=[expression, direction], timeout=90_000)
    settle(page)
    return page


def drawn_edges(page) -> list[dict]:
    return page.evaluate("window.tinydagPlayer.sandboxes['tinydag-1'].edgePaths()")


def labels(page) -> dict[str, dict]:
    """Edge id -> what its visible label says and whether it is marked dead."""
    return {x["edge"]: x for x in page.evaluate(
        "[...document.querySelectorAll('[data-sandbox] .tdg-edge-label:not([hidden])')].map(el => "
        "({edge: el.dataset.edge, text: el.textContent, dead: el.hasAttribute('data-dead'),"
        "  sign: el.dataset.sign || null}))")}


def contribution(text: str) -> float:
    return float(text.split("=")[-1].split("\u2248")[-1].strip().replace(MINUS, "-"))


ACCUMULATE_MARKS = """() => [...CSS.highlights.get('tinydag-accumulate') || []].map(r => {
    const el = r.startContainer.parentElement;
    return [r.toString(), el.closest('.tdg-excerpt') ? 'excerpt' : 'strip', el.checkVisibility()]; })"""


def the_compact_player_waking_late_leaves_the_mark(browser, base: str, size: str) -> list:
    """A link opens the sandbox at a += while the compact player on the first screen still sleeps; it
    wakes after the sandbox has drawn (as it did in about two of three such loads: the page starts at
    its top). Its first frame, with nothing to mark, once took the sandbox's mark away. Returns the
    marks then."""
    context = browser.new_context(viewport=SIZES[size])
    page = context.new_page()
    # Here it wakes only when focused (a reader's tab), not by coming near the viewport.
    page.add_init_script("""(() => { const observe = IntersectionObserver.prototype.observe;
        IntersectionObserver.prototype.observe = function (el) {
            if (!el.matches('[data-sandbox-compact]')) observe.call(this, el); }; })()""")
    page.goto(f"{base}02-autograd/{moment_hash('a * a', {'a': 2}, 'backward', 99)}", wait_until="commit")
    page.wait_for_function("() => document.querySelector('#tinydag-1 .tdg-code-line[data-accumulate]')")
    settle(page)
    assert page.evaluate("document.querySelector('#tinydag-compact-1').dataset.wake") == "waiting"
    page.evaluate("""document.querySelector('#tinydag-compact-1')
        .dispatchEvent(new FocusEvent('focusin', {bubbles: true}))""")
    page.wait_for_function("document.querySelector('#tinydag-compact-1').dataset.player === 'ready'")
    settle(page)
    marks = page.evaluate(ACCUMULATE_MARKS)
    context.close()
    return marks


@pytest.mark.parametrize("size", SIZES)
def test_every_encoding_reads(browser, site_server, size):
    # 1. Size and sign: at the end of backward, widths are ordered as |contribution| is.
    page = open_at(browser, site_server, "en", size, "light", "(a + b) * c", {"a": 2, "b": -3, "c": 0.01})
    edges = drawn_edges(page)
    shown = labels(page)
    assert edges and all(e["towards"] == "child" for e in edges), "backward arrowheads point at the leaves"
    measured = sorted((abs(contribution(shown[e["id"]]["text"])), e["width"])
                      for e in edges if e["id"] in shown)
    assert len(measured) >= 3, shown
    widths = [w for _, w in measured]
    assert widths == sorted(widths) and widths[0] < widths[-1], measured
    signs = {e["id"]: e["sign"] for e in edges}
    for edge, label in shown.items():
        value = contribution(label["text"])
        assert signs[edge] == ("negative" if value < 0 else "positive" if value > 0 else "zero")
        assert label["sign"] == signs[edge]
    legend = page.locator(f"{SANDBOX} .tdg-legend-encoding")
    assert legend.is_visible() and legend.locator("[data-look]").count() == 4

    # 2. Dead paths: relu(a * b) with a·b < 0 stops the flow, labels say so.
    go_to(page, "relu(a * b)", {"a": 2, "b": -3})
    shown = labels(page)
    assert shown, "backward labels are shown"
    for edge in drawn_edges(page):
        assert edge["sign"] == "zero" and edge["width"] < 1, edge
    assert all(label["dead"] for label in shown.values()), shown
    page.evaluate("document.querySelector('[data-sandbox] [data-action=forward]').click()")
    settle(page)
    assert not any(label["dead"] for label in labels(page).values())
    assert all(e["towards"] == "parent" for e in drawn_edges(page)), "forward arrowheads point at the root"

    # 4. Accumulation: a * a at a = 2 ends backward with 2 + 2 = 4 on a's card, the += marked.
    go_to(page, "a * a", {"a": 2})
    sums = page.locator(f"{SANDBOX} [data-field=sum]:not([hidden])")
    assert sums.count() == 1
    assert sums.inner_text() == "2 + 2 = 4"
    assert page.locator(f"{SANDBOX} .tdg-code-line[data-accumulate]").count() == 1
    # The += is marked where the running line shows: the strip on a phone, "Running now" beside it.
    marked = page.evaluate(ACCUMULATE_MARKS)
    where = "strip" if size == "phone" else "excerpt"
    assert ["+=", where, True] in marked, marked
    assert the_compact_player_waking_late_leaves_the_mark(browser, site_server, size) == marked
    said = page.locator(f"{SANDBOX} input[name=time]").get_attribute("aria-valuetext")
    assert "+=" in said and "2 + 2 = 4" in said, said
    # 3. Direction: the number that just arrived waits at the end of its edge, by a's card.
    marker = page.locator(f"{SANDBOX} .tdg-carried:not([hidden])")
    assert marker.count() == 1 and marker.inner_text() == "2"
    assert marker.get_attribute("data-landed") == "true"
    # ... and before the second contribution lands there is no sum yet.
    seek(page, 2)
    assert page.locator(f"{SANDBOX} [data-field=sum]:not([hidden])").count() == 0
    assert page.locator(f"{SANDBOX} .tdg-code-line[data-accumulate]").count() == 0

    # 5. Forward, too: the root's card shows how its value was made, for a moment.
    go_to(page, "(a + b) * c", {"a": 2, "b": -3, "c": 10}, direction="forward", time=2)
    made = page.locator(f"{SANDBOX} [data-field=made]:not([hidden])")
    assert made.count() == 1 and made.inner_text() == f"{MINUS}1 \u00d7 10 = {MINUS}10"
    # The root's card stands at the stage's right border: its tab slides left to stay whole.
    tab = page.locator(f"{SANDBOX} .tdg-note:not([hidden])").bounding_box()
    stage = page.locator(f"{SANDBOX} .tdg-stage").bounding_box()
    assert stage["x"] <= tab["x"] and tab["x"] + tab["width"] <= stage["x"] + stage["width"], (tab, stage)
    seek(page, 1.6)
    assert page.locator(f"{SANDBOX} .tdg-carried:not([hidden])").count() == 2, "values travel on both inputs"
    assert page.errors == [], page.errors


def test_markers_travel_and_wait_at_the_end(browser, site_server):
    """Mid-event the marker lies between the ends of its edge; landed, it is by the receiving card."""
    page = open_at(browser, site_server, "en", "desktop", "light", "(a + b) * c", {"a": 2, "b": -3, "c": 10},
                   time=0)

    def where() -> tuple[float, dict]:
        box = page.locator(f"{SANDBOX} .tdg-carried:not([hidden])").bounding_box()
        stage = page.locator(f"{SANDBOX} .tdg-stage").bounding_box()
        edge = next(e for e in drawn_edges(page) if e["id"] == page.locator(
            f"{SANDBOX} .tdg-carried:not([hidden])").get_attribute("data-edge"))
        return box["x"] + box["width"] / 2 - stage["x"], edge

    seek(page, 1.3)  # the first hand-off, a third of the way
    x_mid, edge = where()
    path = edge["path"]
    assert min(path[0]["x"], path[-1]["x"]) + 10 < x_mid < max(path[0]["x"], path[-1]["x"]) - 10
    seek(page, 2)  # landed: by the child, at the start of the path
    x_end, _ = where()
    assert abs(x_end - path[0]["x"]) < abs(x_end - path[-1]["x"])


def test_reduced_motion_numbers_appear_at_their_end_and_the_layer_is_up_at_once(browser, site_server):
    """One page with reduced motion: a carried number shows only where it lands; then, the layer's
    moment opened by the hash, backward's layer is up from the start (backward_travels_on_its_own_layer)."""
    page = lesson_page(browser, site_server, reduced_motion="reduce",
                       hash=moment_hash("a * a", {"a": 2}, "backward", 0))
    page.wait_for_function("window.tinydagPlayer.sandboxes['tinydag-1'] !== undefined")
    page.click(f"{SANDBOX} [data-action=backward]")  # restarts the pulse, playing
    seen, ticks, drawn, steps = page.evaluate("""async () => {
      const out = [];
      const sandbox = window.tinydagPlayer.sandboxes['tinydag-1'];
      const playing = () => sandbox.moment().playing;
      const frames = sandbox.moment().frames;
      let ticks = 0;
      // To the pulse's end (a slow machine draws few frames: reduced motion steps by elapsed time)
      for (const until = performance.now() + 12000; performance.now() < until && playing(); ticks++) {
        await new Promise(r => requestAnimationFrame(r));
        for (const el of document.querySelectorAll('[data-sandbox] .tdg-carried:not([hidden])'))
          out.push(el.dataset.landed === 'true');
      }
      return [out, ticks, sandbox.moment().frames - frames, sandbox.moment().duration];
    }""")
    assert seen and all(seen), seen
    # A step at a time: the page redraws the graph when a step lands, not in the frames between.
    assert drawn <= steps + 2 < ticks, (drawn, steps, ticks)
    page.evaluate("h => { location.hash = h; }", LAYER)
    page.wait_for_function("document.querySelector('[data-sandbox] input[name=local-derivatives]').checked"
                           " && document.querySelector('[data-sandbox] input[name=expression]').value"
                           " === '(a + b) * c'")
    settle(page)
    backward_travels_on_its_own_layer(page, reduced=True)


def middles_and_ends(page) -> dict[str, tuple]:
    return {e["id"]: (e["path"][len(e["path"]) // 2], e["path"][0], e["path"][-1]) for e in drawn_edges(page)}


def turn(page) -> None:
    page.locator(f"{SANDBOX} .tdg-stage").focus()
    for key in ["ArrowLeft"] * 6 + ["ArrowDown"] * 3:
        page.keyboard.press(key)
    settle(page)


CHIP = "el => el.style.boxShadow"  # card.ts cardShadow: the chip's side follows the view


def shift(a: dict, b: dict) -> float:
    return abs(a["x"] - b["x"]) + abs(a["y"] - b["y"])


LAYER = moment_hash("(a + b) * c", {"a": 2, "b": -3, "c": 10}, "backward", 0) + "&local=1"


def test_backward_travels_on_its_own_layer(browser, site_server):
    """Over the seed event the gradient edges rise off the values' plane (their ends stay on the
    cards), so a turned graph shows two sheets (with reduced motion the layer is there at once:
    test_reduced_motion_numbers_appear_at_their_end_and_the_layer_is_up_at_once)."""
    page = lesson_page(browser, site_server, hash=LAYER)
    page.wait_for_function("window.tinydagPlayer.sandboxes['tinydag-1'] !== undefined")
    backward_travels_on_its_own_layer(page, reduced=False)


def backward_travels_on_its_own_layer(page, reduced: bool) -> None:
    card = page.locator(f"{SANDBOX} .tdg-card").first  # each card carries its chip's side (cards.ts)
    chip_before = card.evaluate(CHIP)
    turn(page)
    assert card.evaluate(CHIP) != chip_before, "turned, a card shows its side"
    seek(page, 0)
    flat = middles_and_ends(page)
    seek(page, 1)
    lifted = middles_and_ends(page)
    moved = [shift(flat[e][0], lifted[e][0]) for e in flat]
    ends = [shift(flat[e][k], lifted[e][k]) for e in flat for k in (1, 2)]
    if reduced:
        assert max(moved) < 0.5, "no lift animation with reduced motion: the layer is up from the start"
    else:
        assert min(moved) > 2, moved
    assert max(ends) < 1.5, "the ends stay on their cards"
    assert page.errors == [], page.errors


SHADOWS = f"""() => {{
  const player = document.querySelector('{SANDBOX} .tdg-player');
  const css = getComputedStyle(player);
  return {{cards: [...document.querySelectorAll('{SANDBOX} .tdg-card')].map(c => c.style.boxShadow),
          active: document.querySelector('{SANDBOX} .tdg-card[data-active]')?.style.boxShadow ?? '',
          grad: css.getPropertyValue('--tdg-grad-color').trim(),
          value: css.getPropertyValue('--tdg-value-color').trim()}};
}}"""


def test_a_cards_shadow_takes_the_schemes_colours_and_its_halo_the_pulses(browser, site_server):
    """Review 51: the shadows' colours are worked out from the palette (no var() in them, which made each
    card's restyle parse them again): a halo in the colour of the pulse going on (forward: values',
    backward: gradients'), a chip's side that follows a change of scheme."""
    page = lesson_page(browser, site_server, hash=moment_hash("(a + b) * c", {"a": 2, "b": -3, "c": 10},
                                                              "backward", 0.5))
    page.wait_for_function("window.tinydagPlayer.sandboxes['tinydag-1'] !== undefined")
    settle(page)
    light = page.evaluate(SHADOWS)
    assert not any("var(" in s for s in light["cards"]), light["cards"]
    def rgba(colour: str) -> str:  # "rgb(230 99 59)" as the halo is serialized, 70 % opaque
        return "rgba({}, {}, {}, 0.7)".format(*colour.strip("rgb()").split())

    assert rgba(light["grad"]) in light["active"], light  # the root lit by the seed, in grad's colour
    seek(page, 0)
    page.click(f"{SANDBOX} [data-action=forward]")
    seek(page, 0.5)
    forward = page.evaluate(SHADOWS)
    assert rgba(forward["value"]) in forward["active"], forward
    page.evaluate("document.body.dataset.mdColorScheme = 'slate'")  # as Material's toggle does
    page.wait_for_function(f"({SHADOWS})().cards[0] !== {forward['cards'][0]!r}")
    dark = page.evaluate(SHADOWS)
    assert dark["cards"][0] != forward["cards"][0], "the chip's side follows the scheme"
    assert page.errors == []
