"""The HTML of one sandbox: the player's mount point, its data as JSON, and the static figure."""

from __future__ import annotations

import json
from html import escape

# Inside <script>, "</script>" or "<!--" would end or confuse the element: write <, > and & as
# JSON escapes, which JSON.parse reads back unchanged. U+2028/9 are escaped for old JS parsers.
_SCRIPT_SAFE = str.maketrans({"<": "\\u003c", ">": "\\u003e", "&": "\\u0026",
                              "\u2028": "\\u2028", "\u2029": "\\u2029"})


def script_json(data: object) -> str:
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return text.translate(_SCRIPT_SAFE)


def sandbox_html(number: int, lang: str, data: dict, svg: str, caption: str, note: str) -> str:
    """`number` counts the sandboxes of a page from 1; ids derive from it."""
    sandbox_id = f"tinydag-{number}"
    return (
        f'<div class="tinydag" data-sandbox id="{sandbox_id}" lang="{escape(lang)}">\n'
        f'<script type="application/json" class="tinydag-data">{script_json(data)}</script>\n'
        f'<figure class="tinydag-figure">{svg}'
        f'<figcaption>{escape(caption)} <span class="tinydag-figure__note">{escape(note)}</span>'
        f"</figcaption></figure>\n"
        f"</div>"
    )
