"""Less work for the browser on a page's first load: the page declares the colour schemes it supports
up front. Material's palette adds a `<meta name="color-scheme">` at start-up and fills it in; a change
of the document's colour scheme restyles every element (a whole-page style recalculation in the load's
long task, 5 ms of CPU before Lighthouse's 4x slowdown). With this one first in the head, Material's
own comes second and changes nothing; "light dark" follows the reader's system setting, as the
palette does.

The lesson's listing is not deferred (no `content-visibility`): it once was, when it had 85 lines, but
when Gecko starts rendering a skipped code block its box changes size within a frame, and with
Material's observers on the page, Firefox reported "ResizeObserver loop completed with undelivered
notifications" on a window resize or a jump over it. At 45 lines (the rest folded in a closed
`<details>`, which is not laid out until opened) it renders with the page.
"""

from __future__ import annotations

COLOR_SCHEME = '<meta name="color-scheme" content="light dark">'


def declare_color_schemes(html: str) -> str:
    if 'name="color-scheme"' in html:
        return html
    return html.replace("<head>", "<head>" + COLOR_SCHEME, 1)
