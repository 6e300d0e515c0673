"""Long code listings render only near the viewport (plugins/tinydag_mkdocs/deferred.py)."""

import re

from tinydag_mkdocs.deferred import MIN_LINES, declare_color_schemes, defer_long_listings


def listing(lines: int, language: str = "python") -> str:
    spans = "".join(f'<span id="__span-0-{i}">x = {i}\n</span>' for i in range(1, lines + 1))
    return f'<div class="language-{language} highlight"><pre><span></span><code>{spans}</code></pre></div>'


def test_a_long_listing_is_deferred_with_a_height_from_its_line_count():
    out = defer_long_listings("<p>before</p>" + listing(85) + "<p>after</p>")
    (style,) = re.findall(r'<div class="language-python highlight"><pre><span></span>'
                          r'<code style="([^"]*)">', out)
    assert "content-visibility: auto" in style
    assert "contain-intrinsic-block-size: auto calc(85 * 1.4em - 0.7em)" in style  # half a line short
    assert out.count("__span-0-") == 85 and out.startswith("<p>before</p>") and out.endswith("<p>after</p>")


def test_short_listings_and_other_blocks_are_left_alone():
    short = listing(MIN_LINES - 1, "text")
    assert defer_long_listings(short) == short
    prose = "<p>no code here</p><pre><code>plain</code></pre>"
    assert defer_long_listings(prose) == prose


def test_each_long_listing_gets_its_own_height():
    out = defer_long_listings(listing(30) + listing(5) + listing(40, "yaml"))
    assert re.findall(r"calc\((\d+) \*", out) == ["30", "40"]


def test_the_lesson_listing_is_deferred_in_every_language(built_site):
    for path in ("02-autograd/index.html", "ru/02-autograd/index.html", "et/02-autograd/index.html"):
        html = (built_site / path).read_text(encoding="utf-8")
        deferred = re.findall(r'<div class="language-python highlight"><pre><span></span>'
                              r'<code style="'
                              r'content-visibility: auto; contain-intrinsic-block-size: auto calc\((\d+) \*',
                              html)
        assert deferred and int(deferred[0]) >= MIN_LINES, path


def test_every_page_declares_its_colour_schemes_before_material_does(built_site):
    """Material's palette adds its own color-scheme meta at start-up; ours, first in the head, keeps
    that from changing the document's colour scheme (a whole-page restyle in the load's long task)."""
    pages = [p for p in built_site.rglob("index.html") if "assets" not in p.parts]
    assert len(pages) >= 9
    for page in pages:
        html = page.read_text(encoding="utf-8")
        assert html.count('name="color-scheme"') == 1, page
        assert html.index('<meta name="color-scheme" content="light dark">') < html.index("<link"), page
    assert declare_color_schemes("<html><head><title>t</title></head></html>").startswith(
        '<html><head><meta name="color-scheme" content="light dark"><title>')
    once = declare_color_schemes("<head></head>")
    assert declare_color_schemes(once) == once
