"""Build-time widgets: ```tinydag-<kind> fences (the knob, the gears) -> engine data + static figure.

A widget fence holds a flat YAML mapping (kind-specific keys, see each kind module). This module finds
the fences (with the same rules as the sandbox blocks: indentation under lists and admonitions, fences
inside other fences are not widgets), reads the YAML with line numbers, dispatches by kind and emits:

    <figure class="tdg-widget" data-widget="knob" id="tinydag-knob-1" lang="en">
      <div class="tdg-widget__static">…static figure…</div>
      <script type="application/json" class="tdg-widget-data">{"kind", "lang", "data", "strings"}</script>
      <figcaption>…</figcaption>
    </figure>

A kind module (registered in KINDS) provides
    parse(keys, line, lines) -> spec   (raise WidgetError(line, message) for an author's mistake)
    data(spec) -> dict                 (JSON-able, engine-computed: everything the browser needs)
    svg(data, strings) -> str          (the static figure: no JavaScript, print, before waking;
                                        strings["lang"] is the page's language, for numbers)
and may set STRING_PREFIXES (default: its kind + "_"). Its caption is the UI string `<kind>_caption`;
`widget_static_note` follows it only without JavaScript (in <noscript>: waking changes no height).
`keys` are the Python values of the top-level keys; `lines` maps each key to its line, and each list
item to `key[i]` and each nested key to `key.sub` (lines are 1-based lines of the Markdown file).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from html import escape
from types import ModuleType

import yaml

from ..base.fences import fences
from ..base.page_json import script_json
from ..base.safe_yaml import YamlProblem, compose, construct
from . import gears, knob
from .fields import WidgetError

PREFIX = "tinydag-"  # a fence info string tinydag-<kind> is a widget (plain `tinydag` is a sandbox)
SHARED_STRINGS = "widget_"  # keys every widget receives


@dataclass(frozen=True)
class Widget:
    start: int  # index of the opening fence in the page's lines
    end: int  # index just past the closing fence
    indent: str
    line: int  # 1-based line of the opening fence
    kind: str
    body: str  # the YAML text (the cache key of its data)
    spec: object  # what the kind's parse() returned
    widget_id: str  # tinydag-<kind>-<n>, numbered per kind on the page


def find_widgets(markdown: str, first_line: int = 1) -> list[Widget]:
    """Every top-level ```tinydag-<kind> fence; `first_line` is the file line of markdown's first line."""
    lines = markdown.split("\n")
    widgets: list[Widget] = []
    for fence in fences(lines, first_line):
        info = fence.info
        if not info.startswith(PREFIX) or info == "tinydag-compact":
            continue
        here = first_line + fence.start
        kind = info[len(PREFIX):]
        if kind not in KINDS:
            raise WidgetError(here, f"unknown widget kind `{kind}` in ```{info} (known: "
                              + ", ".join(f"tinydag-{k}" for k in KINDS) + ")")
        if fence.too_deep:
            raise WidgetError(here, f"this ```{info} fence is indented by 4 spaces or more, so "
                              "Markdown shows it as an indented code block, not a widget: indent it "
                              "as the list item or admonition it belongs to, or not at all")
        body = fence.body
        keys, key_lines = read_keys(body, here + 1, kind)
        spec = KINDS[kind].parse(keys, here, key_lines)
        number = 1 + sum(w.kind == kind for w in widgets)
        widgets.append(Widget(fence.start, fence.end, fence.indent, here, kind, body, spec,
                              f"tinydag-{kind}-{number}"))
    return widgets


def read_keys(body: str, first_line: int, kind: str) -> tuple[dict[str, object], dict[str, int]]:
    """The fence's YAML mapping -> (key -> Python value, key path -> line)."""
    try:
        root = compose(body)
    except YamlProblem as problem:
        prefix = f"the {kind} widget is " if problem.syntax else ""
        raise WidgetError(first_line + problem.line, prefix + problem.message) from None
    if not isinstance(root, yaml.MappingNode):
        raise WidgetError(first_line, f"a {kind} widget is a YAML mapping of keys, like `x: 1`")
    lines: dict[str, int] = {}
    keys = _value(root, "", first_line, lines)
    assert isinstance(keys, dict)
    return keys, lines


def _value(node: yaml.Node, path: str, first_line: int, lines: dict[str, int]) -> object:
    if isinstance(node, yaml.MappingNode):
        result: dict[str, object] = {}
        for key_node, value_node in node.value:
            key = key_node.value
            where = f"{path}.{key}" if path else key
            if key in result:
                raise WidgetError(first_line + key_node.start_mark.line, f"`{where}` appears twice")
            lines[where] = first_line + key_node.start_mark.line
            result[key] = _value(value_node, where, first_line, lines)
        return result
    if isinstance(node, yaml.SequenceNode):
        items = []
        for index, item in enumerate(node.value):
            lines[f"{path}[{index}]"] = first_line + item.start_mark.line
            items.append(_value(item, f"{path}[{index}]", first_line, lines))
        return items
    assert isinstance(node, yaml.ScalarNode)
    return construct(node)


# ---- HTML ----

def strings_for(kind: str, strings: dict[str, str]) -> dict[str, str]:
    """Only what the kind shows: its own keys and the shared widget_* keys."""
    prefixes = (*getattr(KINDS[kind], "STRING_PREFIXES", (f"{kind}_",)), SHARED_STRINGS)
    return {key: value for key, value in strings.items() if key.startswith(prefixes)}


def widget_html(widget: Widget, lang: str, data: dict, strings: dict[str, str]) -> str:
    own = strings_for(widget.kind, strings)
    caption_key = f"{widget.kind}_caption"
    if caption_key not in own:
        raise WidgetError(widget.line, f"the UI strings have no `{caption_key}` (the {widget.kind} "
                          "widget's caption)")
    figure = KINDS[widget.kind].svg(data, {**own, "lang": lang})  # numbers the language's way
    payload = {"kind": widget.kind, "lang": lang, "data": data, "strings": own}  # script_json refuses NaN
    note = own.get("widget_static_note", "")
    return (
        f'<figure class="tdg-widget" data-widget="{widget.kind}" id="{widget.widget_id}" '
        f'lang="{escape(lang)}">'
        f'<div class="tdg-widget__static">{figure}</div>\n'
        f'<script type="application/json" class="tdg-widget-data">{script_json(payload)}</script>\n'
        f"<figcaption>{escape(own[caption_key])}"
        # Only without JavaScript: a caption that lost a line on waking would move the page below.
        + (f' <noscript><span class="tdg-widget__note">{escape(note)}</span></noscript>' if note else "")
        + "</figcaption></figure>"
    )


SLOT = '<div class="tinydag-slot" data-tinydag-widget="{}"></div>'
SLOT_IN_HTML = re.compile(  # in a list or an admonition, Markdown wraps it in a paragraph
    r'(?:<p>\s*)?<div class="tinydag-slot" data-tinydag-widget="(\d+)"></div>(?:\s*</p>)?')


KINDS: dict[str, ModuleType] = {"knob": knob, "gears": gears}
