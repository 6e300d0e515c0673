"""Less work for the browser on a page's first load.

1. Long code listings render only when the reader gets near them (CSS content-visibility).

Style and layout of an 85-line listing, a few hundred highlighted tokens, were the biggest share of
the lesson's first load, although the listing sits far below the first screen. An inline style
`content-visibility: auto` lets the browser skip them until the listing comes close to the
viewport; its height is estimated from its line count meanwhile (and remembered once rendered), so
the page's length barely changes when it renders. Find in page, print and screen readers still see
every line.

2. The page declares the colour schemes it supports up front. Material's palette adds a
`<meta name="color-scheme">` at start-up and fills it in; a change of the document's colour scheme
restyles every element (a whole-page style recalculation in the load's long task, 5 ms of CPU
before Lighthouse's 4x slowdown). With this one first in the head, Material's own comes second and
changes nothing; "light dark" follows the reader's system setting, as the palette does.
"""

from __future__ import annotations

import re

MIN_LINES = 20  # shorter listings cost little; they render with the page
LINE_EM = 1.21  # Material's code lines, measured: 19.4 px at the 16 px of the text around them
PADDING_EM = 1.5  # the block's padding, top and bottom
LISTING = re.compile(r'<div class="(language-[\w-]+ highlight)">(.*?</code></pre>)', re.S)
LINE = re.compile(r'<span id="__span-\d+-\d+">')


def defer_long_listings(html: str) -> str:
    def mark(match: re.Match) -> str:
        lines = len(LINE.findall(match[2])) or match[2].count("\n")
        if lines < MIN_LINES:
            return match[0]
        height = f"calc({lines} * {LINE_EM}em + {PADDING_EM}em)"
        style = f"content-visibility: auto; contain-intrinsic-block-size: auto {height}"
        return f'<div class="{match[1]}" style="{style}">{match[2]}'

    return LISTING.sub(mark, html)


COLOR_SCHEME = '<meta name="color-scheme" content="light dark">'


def declare_color_schemes(html: str) -> str:
    if 'name="color-scheme"' in html:
        return html
    return html.replace("<head>", "<head>" + COLOR_SCHEME, 1)
