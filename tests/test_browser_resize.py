"""The window changes size under an awake player (a phone turned, a desktop window dragged): the
stage follows and the page raises no error, not even the ResizeObserver loop message that the
DevTools protocol never reports (browser_helpers.PAGE_ERRORS hears it in the page itself).
"""

from __future__ import annotations

import pytest

from .browser_helpers import DESKTOP, LANDSCAPE, PHONE, SETTLED, open_lesson, paused_in_view, settle
from .test_browser_caption import EXERCISE_IN_VIEW

pytestmark = pytest.mark.browser
SANDBOX = "#tinydag-1"


FITS = """() => { const stage = document.querySelector('[data-sandbox] .tdg-stage').getBoundingClientRect();
    const cards = [...document.querySelectorAll('[data-sandbox] [data-node]')];
    return cards.length > 0 && cards.every(c => c.getBoundingClientRect().right <= stage.right + 1); }"""


def stage_width(page) -> float:
    return page.evaluate("document.querySelector('[data-sandbox] .tdg-stage').getBoundingClientRect().width")


def test_resizing_the_window_with_the_player_awake_raises_no_error(browser, site_server):
    """Narrower, then wider, then both again: after each resize the stage follows the window and no
    error was raised. (A page loaded on a phone and then widened: test_browser_reliable_sandbox.py,
    test_on_a_phone_many_variables_fold_so_the_graph_stays_near_the_expression.)"""
    page = open_lesson(browser, site_server, viewport=DESKTOP)
    paused_in_view(page)
    widths = {DESKTOP["width"]: stage_width(page)}
    for viewport in (PHONE, DESKTOP, PHONE, DESKTOP):
        page.set_viewport_size(viewport)
        page.wait_for_function(FITS)  # the stage lays out again in the frame after
        settle(page)  # and a ResizeObserver loop, if any, has been reported
        settle(page)
        widths[viewport["width"]] = stage_width(page)
        assert page.errors == [], (viewport, page.errors)
    assert widths[PHONE["width"]] < widths[DESKTOP["width"]]


STAGE = "(() => { const r = document.querySelector('[data-sandbox] .tdg-stage').getBoundingClientRect();" \
        " return {top: r.top, bottom: r.bottom, height: innerHeight}; })()"


def test_a_graph_in_view_stays_in_view_when_the_window_changes_width(browser, site_server):
    """Walkthrough 9: mid-exercise, 1280 -> 800 px wide put the graph out of view, and back it came 344 px
    lower; a phone's width put it 3,000 px below. A graph that was in view comes back into view, its top
    under the header (walkthroughs 27, 28: from a phone's landscape to a desktop's window it stayed at
    614-940 of 800, half of it in view, its words under the fold). A change of height alone (a phone's
    address bar as the reader scrolls) moves nothing."""
    page = open_lesson(browser, site_server, viewport=DESKTOP)
    page.evaluate("scrollBy(0, document.querySelector('[data-sandbox] .tdg-stage')"
                  ".getBoundingClientRect().top - 300)")
    settle(page)
    for viewport in ({"width": 800, "height": 700}, PHONE, DESKTOP, LANDSCAPE, DESKTOP):
        page.set_viewport_size(viewport)
        page.wait_for_function(FITS)
        page.wait_for_timeout(400)  # the page's pieces settle in the frames after (wiring.ts SETTLE_MS)
        settle(page)
        at = page.evaluate(STAGE)
        assert at["top"] >= 40 and at["bottom"] <= at["height"], (viewport, at)
    # A window dragged wider, a new width every frame or so (walkthrough 30: the graph ended under the
    # fold, its first steps having moved it out of view before a frame could bring it back).
    page.set_viewport_size({"width": 400, "height": DESKTOP["height"]})
    page.wait_for_timeout(400)
    for width in range(460, DESKTOP["width"] + 1, 60):
        page.set_viewport_size({"width": width, "height": DESKTOP["height"]})
        page.wait_for_timeout(16)
    page.wait_for_function(FITS)
    page.wait_for_timeout(600)
    settle(page)
    at = page.evaluate(STAGE)
    assert at["top"] >= 40 and at["bottom"] <= at["height"], at
    # Its top under the header, most of it in view (walkthrough 29: narrowed to 390 px, at 12 under the
    # 48 px header): brought back too.
    page.evaluate("scrollBy(0, document.querySelector('[data-sandbox] .tdg-stage')"
                  ".getBoundingClientRect().top - 20)")
    settle(page)
    page.set_viewport_size({"width": 1260, "height": 800})  # the same layout, a little narrower
    page.wait_for_function(FITS)
    page.wait_for_timeout(400)
    settle(page)
    assert page.evaluate(STAGE)["top"] >= 40
    # Half of it at the window's bottom, the reader above it: a slightly narrower window leaves it there
    # (review 59: any width change pulled it up).
    page.evaluate("scrollBy(0, document.querySelector('[data-sandbox] .tdg-stage')"
                  ".getBoundingClientRect().top - innerHeight + 200)")
    settle(page)
    before = page.evaluate(STAGE)["top"]
    page.set_viewport_size({"width": 1240, "height": 800})
    page.wait_for_function(FITS)
    page.wait_for_timeout(400)
    settle(page)
    assert abs(page.evaluate(STAGE)["top"] - before) < 50, before
    page.evaluate("scrollTo(0, 0)")
    settle(page)
    page.set_viewport_size({"width": 1240, "height": 700})  # the height alone
    page.wait_for_timeout(400)
    settle(page)
    assert page.evaluate("scrollY") == 0
    assert page.errors == [], page.errors


def test_a_jump_to_the_sandbox_after_the_compact_player_woke_raises_no_error(browser, site_server):
    """The compact player above the listing wakes first; a click in the table of contents then jumps
    over the deferred listing, which renders on the way (its size settles in that frame)."""
    page = open_lesson(browser, site_server, viewport=PHONE)
    page.evaluate("document.querySelector('[data-sandbox]').scrollIntoView()")
    page.wait_for_timeout(300)
    page.evaluate("document.querySelector('a[href=\"#the-sandbox\"]').click()")
    page.wait_for_timeout(600)
    assert page.errors == []


def test_turning_a_phone_keeps_an_exercises_fields_unfolded(browser, site_server):
    """Walkthrough 16: exercise (a)'s link unfolds "Predict, then check" on a phone, where it folds; turned
    to landscape (wide enough not to fold) and back, it folded again, the exercise's words and the
    answers with it. The reader's own folding stays too."""
    page = open_lesson(browser, site_server, viewport=PHONE)
    page.locator("a[data-open-in-sandbox]").nth(1).click()  # exercise (a)
    page.wait_for_selector(f"{SANDBOX} .tdg-predict .tdg-task")
    settle(page)
    predict = page.locator(f"{SANDBOX} .tdg-predict")
    for size in (LANDSCAPE, PHONE, DESKTOP, PHONE):
        page.set_viewport_size(size)
        settle(page)
        assert "is-folded" not in predict.get_attribute("class"), size
        assert page.locator(f"{SANDBOX} .tdg-task").is_visible(), size
    page.click(f"{SANDBOX} .tdg-predict-toggle")  # folded by the reader
    for size in (DESKTOP, PHONE):
        page.set_viewport_size(size)
        settle(page)
    assert "is-folded" in predict.get_attribute("class")
    assert page.errors == [], page.errors


SIDE_BY_SIDE = f"""() => {{
    const box = (s) => document.querySelector('{SANDBOX} ' + s).getBoundingClientRect();
    const header = document.querySelector('.md-header').getBoundingClientRect().bottom;
    const slider = box('input[name=var-a]'), stage = box('.tdg-stage'), caption = box('[data-caption]');
    const seen = (r) => r.top >= header - 1 && r.bottom <= innerHeight + 1;
    return {{slider: seen(slider), stage: seen(stage), caption: seen(caption),
             beside: slider.right < stage.left && slider.top < stage.bottom && slider.bottom > stage.top}};
}}"""


def test_a_phone_turned_sideways_keeps_a_slider_beside_the_graph(browser, site_server):
    """Walk 40: on a phone turned sideways, exercise (b)'s sliders filled the screen above the graph, of
    which 80 px showed; dragging a until a * b < 0, the learner could not see the gradients go to 0. In a
    window that short the values sit beside the stage: the slider held, the whole graph and its words in
    view together, and upright again the values are above the graph as before."""
    page = open_lesson(browser, site_server, viewport=PHONE, has_touch=True, is_mobile=True)
    page.locator("a[data-open-in-sandbox]").nth(2).click()  # exercise (b): relu(a * b)
    page.wait_for_selector(f"{SANDBOX} .tdg-expr .tdg-task")
    settle(page)
    page.set_viewport_size(LANDSCAPE)
    page.wait_for_function(FITS)
    page.wait_for_timeout(400)  # the page's pieces settle in the frames after (wiring.ts SETTLE_MS)
    settle(page)
    # The reader scrolls down to the graph (the words above it, the exercise's among them, stay a short
    # scroll up; turned, the page stays where it was, the expression at its top).
    page.evaluate(f"document.querySelector('{SANDBOX} .tdg-stage').scrollIntoView({{block: 'start'}})")
    settle(page)
    slider = page.locator(f"{SANDBOX} input[name=var-a]")
    slider.focus()
    slider.press("Home")  # a at its least: a * b < 0
    settle(page)
    assert page.evaluate(SIDE_BY_SIDE) == {"slider": True, "stage": True, "caption": True, "beside": True}
    # The first screen's player, which has no values, keeps its column: its words right under its graph
    # (the held caption's rule once put them a graph's height lower, over an empty band).
    gap = page.evaluate("""() => { const p = document.querySelector('.tdg-player--compact');
        return p.querySelector('.tdg-caption').getBoundingClientRect().top
             - p.querySelector('.tdg-stage').getBoundingClientRect().bottom; }""")
    assert 0 <= gap <= 16, gap
    # The presets in one row a finger swipes, as upright, not two rows above the graph
    chips = page.locator(f"{SANDBOX} .tdg-presets .tdg-chip").evaluate_all(
        "cs => new Set(cs.map(c => Math.round(c.getBoundingClientRect().top))).size")
    assert chips == 1, chips
    assert page.locator(f"{SANDBOX} [data-node] [data-field=grad]").all_inner_texts()[:3] == ["0", "0", "0"]
    page.set_viewport_size(PHONE)
    page.wait_for_function(FITS)
    settle(page)
    assert not page.evaluate(SIDE_BY_SIDE)["beside"], "upright, the values are above the graph"
    assert page.errors == [], page.errors


# Every part of the player beside the held graph or under its caption, never over it or under it: the
# boxes of the player's parts that overlap the stage's or its caption's, as the window shows them now.
OVER_THE_GRAPH = f"""() => {{
    const root = document.querySelector('{SANDBOX}');
    const stage = root.querySelector('.tdg-stage').getBoundingClientRect();
    const caption = root.querySelector('.tdg-caption').getBoundingClientRect();
    const over = (a, b) => a.left < b.right - 1 && b.left < a.right - 1
        && a.top < b.bottom - 1 && b.top < a.bottom - 1;
    const parts = [...root.querySelectorAll(
        '.tdg-player > :not(.tdg-stage, .tdg-caption, .tdg-below, .tdg-sr-only), .tdg-below > *')];
    const found = parts.filter(p => {{ const r = p.getBoundingClientRect();
        return r.height > 0 && (over(r, stage) || over(r, caption)); }}).map(p => p.className);
    return over(stage, caption) ? [...found, 'the caption over the stage'] : found; }}"""


def test_a_phone_turned_sideways_holds_the_graph_beside_the_controls(browser, site_server):
    """Walk 43: turned sideways, the graph was held until the whole sandbox had passed, so the listing, the
    legend and the table of nodes, the whole width under the two columns, slid under it, and its caption
    over them and over its own cards; turned mid-exercise, (a)'s words and Check were a screen from the
    graph, or the page had gone to its footer. Now every part of the player is in the column beside the
    graph, from the player's top to its end, and a turn brings the exercise's words and control back."""
    page = open_lesson(browser, site_server, "et", viewport=PHONE, has_touch=True, is_mobile=True)
    page.locator("a[data-open-in-sandbox]").nth(1).click()  # exercise (a): predictions and Check
    page.wait_for_selector(f"{SANDBOX} .tdg-predict .tdg-task")
    page.evaluate(SETTLED)
    for size in (LANDSCAPE, PHONE, LANDSCAPE):
        page.set_viewport_size(size)
        page.wait_for_timeout(700)  # the turn's layout and the scroll that follows it (task.ts: 300 ms)
        page.evaluate(SETTLED)
    assert page.evaluate(EXERCISE_IN_VIEW) == {"task": "a", "control": True}
    stage = page.locator(f"{SANDBOX} .tdg-stage").bounding_box()
    assert stage["y"] >= 48 and stage["y"] + stage["height"] <= LANDSCAPE["height"], stage
    # The timeline's slider gets the column's width between ◀ and ▶ (walk 43: 62 px for 39 steps), and
    # on a smaller phone the column still holds a value's row (walk 43, 740x360: its field under the graph).
    assert page.locator(f"{SANDBOX} input[name=time]").bounding_box()["width"] >= 120
    page.set_viewport_size({"width": 740, "height": 360})
    page.wait_for_timeout(700)
    page.evaluate(SETTLED)
    field = page.locator(f"{SANDBOX} .tdg-vars .tdg-number").first.bounding_box()
    stage = page.locator(f"{SANDBOX} .tdg-stage").bounding_box()
    assert field["x"] + field["width"] <= stage["x"], (field, stage)
    page.locator(f"{SANDBOX} .tdg-table > summary").click()  # the table of nodes open: the longest player
    top, bottom = page.evaluate(f"""() => {{ const r = document.querySelector('{SANDBOX} .tdg-player')
        .getBoundingClientRect(); return [r.top + scrollY, r.bottom + scrollY]; }}""")
    for y in range(int(top) - 100, int(bottom), 60):
        page.evaluate(f"scrollTo(0, {y})")
        assert page.evaluate(OVER_THE_GRAPH) == [], y
    assert page.errors == []


def test_a_phone_turned_sideways_keeps_nudge_checks_names_beside_their_fields(browser, site_server):
    """Walk 43: in the narrow column (then 227 px), Russian's Nudge check read "Лист [a] h" on one line and
    the h field began the next. In the column's 16em each name sits beside its field."""
    page = open_lesson(browser, site_server, "ru", viewport=LANDSCAPE, has_touch=True, is_mobile=True)
    page.locator("a[data-open-in-sandbox]").nth(4).click()  # exercise (d): Nudge check
    page.wait_for_selector(f"{SANDBOX} .tdg-nudge .tdg-task")
    page.evaluate(SETTLED)
    def middle(selector: str) -> float:
        box = page.locator(f"{SANDBOX} {selector}").bounding_box()
        return box["y"] + box["height"] / 2
    for name in ("nudge-leaf", "nudge-h"):
        assert abs(middle(f"label[for$={name}]") - middle(f"[name={name}]")) < 6, name
    assert middle("[data-action=nudge]") > middle("[name=nudge-h]")
    assert page.errors == []
