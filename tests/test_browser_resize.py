"""The window changes size under an awake player (a phone turned, a desktop window dragged): the
stage follows and the page raises no error, not even the ResizeObserver loop message that the
DevTools protocol never reports (browser_helpers.PAGE_ERRORS hears it in the page itself).
"""

from __future__ import annotations

import pytest

from .browser_helpers import DESKTOP, PHONE, open_lesson, paused_in_view

pytestmark = pytest.mark.browser


FITS = """() => { const stage = document.querySelector('[data-sandbox] .tdg-stage').getBoundingClientRect();
    const cards = [...document.querySelectorAll('[data-sandbox] [data-node]')];
    return cards.length > 0 && cards.every(c => c.getBoundingClientRect().right <= stage.right + 1); }"""


def stage_width(page) -> float:
    return page.evaluate("document.querySelector('[data-sandbox] .tdg-stage').getBoundingClientRect().width")


@pytest.mark.parametrize("first, then", [(DESKTOP, PHONE), (PHONE, DESKTOP)], ids=["narrower", "wider"])
def test_resizing_the_window_with_the_player_awake_raises_no_error(browser, site_server, first, then):
    page = open_lesson(browser, site_server, viewport=first)
    paused_in_view(page)
    before = stage_width(page)
    for viewport in (then, first, then):
        page.set_viewport_size(viewport)
        page.wait_for_function(FITS)  # the stage lays out again in the frame after
        page.wait_for_timeout(200)
    assert page.errors == []
    assert (stage_width(page) < before) == (then["width"] < first["width"])
    page.context.close()


def test_a_jump_to_the_sandbox_after_the_compact_player_woke_raises_no_error(browser, site_server):
    """The compact player above the listing wakes first; a click in the table of contents then jumps
    over the deferred listing, which renders on the way (its size settles in that frame)."""
    page = open_lesson(browser, site_server, viewport=PHONE)
    page.evaluate("document.querySelector('[data-sandbox]').scrollIntoView()")
    page.wait_for_timeout(300)
    page.evaluate("document.querySelector('a[href=\"#the-sandbox\"]').click()")
    page.wait_for_timeout(600)
    assert page.errors == []
    page.context.close()
