"""What the lesson's first load asks of the browser: the compact player on the first
screen wakes without playing by itself, showing the forward pass done and waiting for the reader's
Backward, which plays at once; and no ::highlight() rule is on the page until the player marks a line
(while one is, Chromium computes highlight styles for every element in every whole-page restyle).
"""

from __future__ import annotations

import pytest

from .browser_helpers import DESKTOP, _overlap, lesson_page
from .test_browser_links_and_accessibility import axe_violations

COMPACT = "#tinydag-compact-1"
pytestmark = pytest.mark.browser

HIGHLIGHT_RULES = """() => [...document.styleSheets, ...document.adoptedStyleSheets]
    .flatMap(sheet => { try { return [...sheet.cssRules]; } catch { return []; } })
    .map(rule => rule.cssText).filter(text => text.includes('::highlight('))"""


def compact_moment(page) -> dict:
    return page.evaluate("window.tinydagPlayer.sandboxes['tinydag-compact-1'].moment()")


INVITATION = f"""() => {{ const box = el => {{ const b = el.getBoundingClientRect();
    return {{x: b.left, y: b.top, w: b.width, h: b.height}}; }};
  const start = document.querySelector('{COMPACT} .tdg-stage-start');
  return start && {{start: box(start), text: start.textContent, height: innerHeight,
    cards: [...document.querySelectorAll('{COMPACT} [data-node]')].map(box)}}; }}"""


@pytest.mark.alone  # what has not started after 1.5 s: timing
def test_the_compact_player_waits_for_backward_with_the_forward_pass_done(browser, site_server):
    """On a desktop: whether it waits is decided as it is made (sandbox.ts), whatever the screen; the
    compact player on a phone is stepped through by test_browser_words.py's phone test. Its stage
    carries a Backward of its own on the first screen at 1280x800 (the transport's is under the fold),
    clear of every card, which plays backward and goes."""
    page = lesson_page(browser, site_server, "en", DESKTOP)
    page.wait_for_function(f"document.querySelector('{COMPACT}').dataset.player === 'ready'")
    seen = page.evaluate(INVITATION)
    assert seen and seen["text"] == "Backward", seen
    assert seen["start"]["y"] + seen["start"]["h"] <= seen["height"], "on the first screen"
    assert not [c for c in seen["cards"] if _overlap(seen["start"], c)], seen
    assert axe_violations(page, f"{{include: ['{COMPACT}']}}") == []  # out of the tab order and unspoken
    page.evaluate(f"document.querySelector('{COMPACT}').scrollIntoView({{block: 'center'}})")
    page.wait_for_timeout(1500)  # long enough for an autoplay to have started
    still = compact_moment(page)
    assert not still["playing"], still
    assert still["direction"] == "forward" and still["time"] == still["duration"] > 0, still
    values = page.locator(f"{COMPACT} [data-node] [data-field=value]").all_text_contents()
    assert len(values) == 5 and all(v.strip() for v in values), values  # every value is on its card
    keys = f"""() => [...document.querySelectorAll('{COMPACT} .tdg-legend-edge')]
        .filter(el => el.checkVisibility({{visibilityProperty: true}})).map(el => el.dataset.look)"""
    assert page.evaluate(keys) == [], "forward: no edge looks to explain yet"
    page.locator(f"{COMPACT} .tdg-stage-start").click()
    playing = compact_moment(page)
    assert playing["direction"] == "backward" and playing["playing"], playing
    assert page.evaluate(INVITATION) is None, "the reader has found the controls"
    # c's contribution is negative (hollow, teal): the legend says what that look means.
    assert page.evaluate(keys) == ["negative"]
    page.wait_for_function(f"""() => [...document.querySelectorAll('{COMPACT} [data-node] [data-field=grad]')]
                                .some(el => el.textContent === '1')""")
    # At a pace a newcomer reads (walkthrough 14: five sentences in under four seconds): 0.6 of the
    # sandbox's event a second, or less where frames come slowly.
    pace = page.evaluate("""() => new Promise(done => {
        const time = () => window.tinydagPlayer.sandboxes['tinydag-compact-1'].moment().time;
        const [t0, m0] = [performance.now(), time()];
        setTimeout(() => done((time() - m0) / ((performance.now() - t0) / 1000)), 1000); })""")
    assert 0 < pace <= 0.6 + 0.02, f"{pace:.2f} events a second"
    assert page.errors == [], page.errors


def test_the_highlight_colours_join_the_page_with_the_first_marked_line(browser, site_server):
    page = lesson_page(browser, site_server, "en", DESKTOP)
    assert page.evaluate(HIGHLIGHT_RULES) == []
    page.evaluate("document.querySelector('#tinydag-1 [data-action=backward]').click()")
    page.wait_for_function("CSS.highlights.has('tinydag-line')")
    rules = page.evaluate(HIGHLIGHT_RULES)
    assert any("tinydag-line" in r for r in rules) and any("tinydag-accumulate" in r for r in rules), rules
    assert page.errors == [], page.errors

