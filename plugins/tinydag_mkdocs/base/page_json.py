"""Data for the browser, written into a page inside <script type="application/json">."""

from __future__ import annotations

import json

# Inside <script>, "</script>" or "<!--" would end or confuse the element: write <, > and & as
# JSON escapes, which JSON.parse reads back unchanged. U+2028/9 are escaped for old JS parsers.
_SCRIPT_SAFE = str.maketrans({"<": "\\u003c", ">": "\\u003e", "&": "\\u0026",
                              "\u2028": "\\u2028", "\u2029": "\\u2029"})


def script_json(data: object) -> str:
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return text.translate(_SCRIPT_SAFE)
