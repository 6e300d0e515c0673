"""Less work for the browser on a page's first load.

1. Long code listings render only when the reader gets near them (CSS content-visibility).

Style and layout of an 85-line listing, about 1,600 highlighted tokens and text nodes, were the
biggest share of the lesson's first load, although the listing sits far below the first screen. An
inline style `content-visibility: auto` lets the browser skip them until the listing comes close to
the viewport; its height is estimated from its line count meanwhile (and remembered once rendered),
so the page's length barely changes when it renders. Find in page, print and screen readers still
see every line.

The style goes on the listing's `<code>` element, not on a block around it. Material's code-block
component reads that element's width on DOMContentLoaded (does it scroll sideways?). Inside a
skipped block, that read lays out the whole listing there and then: the load's longest task (about
100 ms of the 4x-throttled, traced Lighthouse run). When the `<code>` element is itself the skipped
one, its own box answers the read and its contents keep waiting. The estimate is half a line short
on purpose: the listing's first render then changes its size, Material's ResizeObserver looks again,
and a listing that scrolls sideways gets its tabindex for keyboard readers, as without deferring.

2. The page declares the colour schemes it supports up front. Material's palette adds a
`<meta name="color-scheme">` at start-up and fills it in; a change of the document's colour scheme
restyles every element (a whole-page style recalculation in the load's long task, 5 ms of CPU
before Lighthouse's 4x slowdown). With this one first in the head, Material's own comes second and
changes nothing; "light dark" follows the reader's system setting, as the palette does.
"""

from __future__ import annotations

import re

MIN_LINES = 20  # shorter listings cost little; they render with the page
LINE_EM = 1.4  # Material's code line height, in the code's own font size (19.04 px at 13.6 px)
SHORT_EM = 0.7  # the estimate's shortfall: half a line, so the first render always changes the size
LISTING = re.compile(r'<div class="(language-[\w-]+ highlight)"><pre>(<span></span>)?<code>'
                     r'(.*?</code></pre>)', re.S)
LINE = re.compile(r'<span id="__span-\d+-\d+">')


def defer_long_listings(html: str) -> str:
    def mark(match: re.Match) -> str:
        lines = len(LINE.findall(match[3])) or match[3].count("\n")
        if lines < MIN_LINES:
            return match[0]
        height = f"calc({lines} * {LINE_EM}em - {SHORT_EM}em)"
        style = f"content-visibility: auto; contain-intrinsic-block-size: auto {height}"
        return f'<div class="{match[1]}"><pre>{match[2] or ""}<code style="{style}">{match[3]}'

    return LISTING.sub(mark, html)


COLOR_SCHEME = '<meta name="color-scheme" content="light dark">'


def declare_color_schemes(html: str) -> str:
    if 'name="color-scheme"' in html:
        return html
    return html.replace("<head>", "<head>" + COLOR_SCHEME, 1)
