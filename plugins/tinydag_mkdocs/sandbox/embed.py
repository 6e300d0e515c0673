"""The HTML of one sandbox: the player's mount point, its data as JSON, and the static figure."""

from __future__ import annotations

from html import escape

from tinydag.frameworks import FRAMEWORKS, scripts
from tinydag.types import Timeline

from ..base.page_json import script_json

FRAMEWORK_NAMES = {"pytorch": "PyTorch", "jax": "JAX"}

def frameworks_html(timeline: Timeline, strings: dict[str, str], sandbox_id: str) -> str:
    """The folded "The same in PyTorch / JAX" panel with the default graph's scripts, as the page has
    it before (or without) JavaScript. The player rewrites the scripts as the reader edits the sandbox
    (src/player/teaching/frameworks.ts); each <pre><code> gets the theme's own copy button, as every
    code block of the site does (content.code.copy), and it copies the script as it reads at the click.
    Each <pre> has an id of its own: the theme names the code a button copies after the closest id."""
    written = scripts(timeline)
    blocks = []
    for framework in FRAMEWORKS:
        name = FRAMEWORK_NAMES[framework]
        code = escape(written[framework]) if written else ""
        blocks.append(f'<p class="tinydag-frameworks__name">{name}</p>'
                      f'<pre id="{escape(sandbox_id)}-{framework}"><code data-framework="{framework}">{code}'
                      "</code></pre>")
    why = "" if written else escape(strings["frameworks_constant"])
    return (f'<details class="tinydag-frameworks" data-frameworks><summary>{escape(strings["frameworks"])}'
            f'</summary><p class="tinydag-frameworks__note">{escape(strings["frameworks_note"])}</p>'
            f'<p class="tinydag-frameworks__why"{"" if why else " hidden"}>{why}</p>'
            f'<div class="tinydag-frameworks__scripts"{" hidden" if why else ""}>{"".join(blocks)}</div>'
            "</details>")


def sandbox_html(sandbox_id: str, lang: str, data: dict, svg: str, caption: str, note: str,
                 compact: bool = False, targets: list[str] | None = None, panel: str = "") -> str:
    """A full sandbox is `div.tinydag[data-sandbox]`. A compact one is marked differently
    (`div.tinydag.tinydag--compact[data-sandbox-compact]`, its JSON in `script.tinydag-compact-data`,
    its figure `figure.tinydag-figure.tinydag-figure--compact`): whatever looks for "the sandbox" of a
    page (its first [data-sandbox], its .tinydag-data) keeps finding the full one.
    `targets` are the addresses of exercise links to this sandbox: empty elements with those ids make
    the links scroll here without JavaScript (see exercises.py). `panel` (the frameworks panel) follows
    the root rather than sits in it: a sandbox held at its figure's height while it wakes (reveal.ts)
    would clip it, and the text after it would move."""
    kind = "compact" if compact else "full"
    root_class, root_marker, data_class, figure_class = {
        "full": ("tinydag", "data-sandbox", "tinydag-data", "tinydag-figure"),
        "compact": ("tinydag tinydag--compact", "data-sandbox-compact", "tinydag-compact-data",
                    "tinydag-figure tinydag-figure--compact"),
    }[kind]
    anchors = "".join(f'<span class="tinydag-target" id="{escape(t)}"></span>' for t in targets or [])
    return (
        f'<div class="{root_class}" {root_marker} id="{escape(sandbox_id)}" lang="{escape(lang)}">'
        f"{anchors}\n"
        f'<script type="application/json" class="{data_class}">{script_json(data)}</script>\n'
        f'<figure class="{figure_class}">{svg}'
        f'<figcaption>{escape(caption)} <span class="tinydag-figure__note">{escape(note)}</span>'
        f"</figcaption></figure>\n"
        f"</div>{panel}"
    )
