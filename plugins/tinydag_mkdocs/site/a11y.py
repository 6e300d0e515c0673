"""Two accessibility gaps in Material's own output that an axe audit of the lesson flags as serious.

1. The search overlay has role="dialog" but no accessible name: give it the (already translated)
   label of its own search field.
2. Code comments, docstrings and operator words (light palette) and builtins (slate palette) sit
   just under the 4.5:1 contrast WCAG asks for on the code background, and so does the footer's
   "Made with" line: darken / lighten them a little.
3. Links inside running text differ from it by colour alone (axe: link-in-text-block): underline them.
"""

from __future__ import annotations

import re

SEARCH_DIALOG = '<div class="md-search" data-md-component="search" role="dialog">'
SEARCH_LABEL = re.compile(r'<input[^>]*class="md-search__input"[^>]*aria-label="([^"]*)"')
CONTRAST_CSS = (
    "<style>"
    "[data-md-color-scheme=default]{--md-code-hl-comment-color:rgba(0,0,0,.64);"
    "--md-code-hl-operator-color:rgba(0,0,0,.64);--md-code-hl-punctuation-color:rgba(0,0,0,.64);"
    "--md-code-hl-generic-color:rgba(0,0,0,.64);--md-code-hl-variable-color:rgba(0,0,0,.64)}"
    "[data-md-color-scheme=slate]{--md-code-hl-constant-color:#a395ee}"
    ".md-copyright{color:var(--md-footer-fg-color--light)}"
    ".md-typeset :is(p,li,td)>a:not([class]){text-decoration:underline;text-underline-offset:.15em}"
    "</style>"
)


def mend(html: str) -> str:
    label = SEARCH_LABEL.search(html)
    if label and SEARCH_DIALOG in html:
        html = html.replace(SEARCH_DIALOG, SEARCH_DIALOG[:-1] + f' aria-label="{label[1]}">', 1)
    return html.replace("</head>", CONTRAST_CSS + "</head>", 1)
