"""Widget fences (```tinydag-<kind>): where they are found, what a broken one says, what a page loads.

Sites are built in a temporary folder with the real UI strings (tests/test_plugin.py's Site).
"""

from __future__ import annotations

import json
import re
from html import escape
from pathlib import Path

import pytest
import yaml

from tinydag_mkdocs.base.fences import BlockError
from tinydag_mkdocs.site.deferred import COLOR_SCHEME
from tinydag_mkdocs.site.typography import typeset_text
from tinydag_mkdocs.widgets import registry
from tinydag_mkdocs.widgets.fields import WidgetError
from tinydag_mkdocs.widgets.registry import find_widgets

from .test_plugin import BLOCK, Site, build_error

ROOT = Path(__file__).resolve().parent.parent
STRINGS = {lang: yaml.safe_load((ROOT / f"src/player/strings/{lang}.yml").read_text(encoding="utf-8"))
           for lang in ("en", "ru", "et")}

KNOB = """\
```tinydag-knob
expression: x * x
x: 1.5
h: 0.5
range: [-2, 3]
presets:
  - exp(x) / 4
  - relu(x - 1)
```
"""


def knob_site(tmp_path: Path, pages: dict[str, str], wings: dict | None = None) -> Site:
    full = {"index.md": "# Home\n", "index.ru.md": "# Главная\n", "index.et.md": "# Avaleht\n"}
    for name, text in pages.items():
        full |= {f"{name}.md": text, f"{name}.ru.md": text, f"{name}.et.md": text}
    return Site(tmp_path, full, strings=STRINGS, wings=wings)


def widget_data(page_html: str) -> list[dict]:
    found = re.findall(r'<script type="application/json" class="tdg-widget-data">(.*?)</script>', page_html)
    return [json.loads(text) for text in found]


# ---- finding fences ----

def test_fences_are_found_with_their_lines_ids_and_kinds():
    page = "# Title\n\nText.\n\n" + KNOB + "\nMore.\n\n" + KNOB.replace("x * x", "x * x * x")
    found = find_widgets(page, first_line=3)  # front matter of two lines above
    assert [(w.kind, w.line, w.widget_id) for w in found] == [("knob", 7, "tinydag-knob-1"),
                                                              ("knob", 19, "tinydag-knob-2")]
    assert found[0].spec.expression == "x * x" and found[1].spec.expression == "x * x * x"
    lines = page.split("\n")
    assert lines[found[0].start].startswith("```tinydag-knob") and lines[found[0].end - 1] == "```"


def test_a_fence_inside_another_fence_is_an_example_not_a_widget():
    listing = "````markdown\n" + KNOB + "````\n"
    assert find_widgets(listing) == []
    assert len(find_widgets(listing + "\n" + KNOB)) == 1


def test_fences_in_lists_and_admonitions_are_widgets_and_an_indented_code_block_is_an_error():
    in_list = "- item\n\n" + "".join("    " + line + "\n" for line in KNOB.splitlines())
    admonition = "!!! note\n\n" + "".join("    " + line + "\n" for line in KNOB.splitlines())
    assert [w.indent for w in find_widgets(in_list)] == ["    "]
    assert len(find_widgets(admonition)) == 1
    code_block = "Text.\n\n" + "".join("    " + line + "\n" for line in KNOB.splitlines())
    with pytest.raises(WidgetError, match="indented by 4 spaces or more") as error:
        find_widgets(code_block)
    assert error.value.line == 3


def test_an_unknown_kind_fails_instead_of_showing_code():
    with pytest.raises(WidgetError, match=r"unknown widget kind `dial` in ```tinydag-dial \(known: "
                       r"tinydag-knob") as error:
        find_widgets("Text\n\n```tinydag-dial\nx: 1\n```\n")
    assert error.value.line == 3
    assert set(registry.KINDS) >= {"knob"}


# ---- every bad key or value, at its line ----

BAD = [
    ("expression: x * x\ncolour: red\n", 2, r"unknown key `colour` in a knob widget \(allowed: expr"),
    ("x: 1\n", 0, "the knob widget has no `expression`"),
    ("expression: x * x\nexpression: x\n", 2, "`expression` appears twice"),
    ("expression: ''\n", 1, "`expression` must be non-empty text"),
    ("expression: [x]\n", 1, "`expression` must be non-empty text"),
    ("expression: x * x\nx: one\n", 2, "`x` must be a number, not 'one'"),
    ("expression: x * x\nx: .nan\n", 2, "`x` must be a finite number"),
    ("expression: x * x\nx: true\n", 2, "`x` must be a number, not True"),
    ("expression: x * x\nrange: [0, 1]\nx: 5\n", 3, r"`x` \(5\) lies outside the range \[0, 1\]"),
    ("expression: x * x\nh: 0\n", 2, "`h` must be between 0.0001 and 1"),
    ("expression: x * x\nh: 2\n", 2, "`h` must be between 0.0001 and 1"),
    ("expression: x * x\nrange: 3\n", 2, "`range` is two numbers"),
    ("expression: x * x\nrange: [1, 2, 3]\n", 2, "`range` is two numbers"),
    ("expression: x * x\nrange:\n  - 0\n  - b\n", 4, "`range` must be a number, not 'b'"),
    ("expression: x * x\nx: 2\nrange: [3, 1]\n", 3, "`range` must go from left to right"),
    ("expression: x * x\nrange: [-5000, 5000]\n", 2, "`range` is at most 1000 wide"),
    ("expression: x * x\npresets: exp(x)\n", 2, "`presets` is a list of expressions"),
    ("expression: x * x\npresets:\n  - exp(x)\n  - x +\n", 4, r"ends too early.*\(expression \"x \+\"\)"),
    ("expression: x * x\npresets:\n  - a * x\n", 3, r"varies only x, but \"a \* x\" also uses a"),
    ("expression: x * x\npresets: [" + ", ".join(["x"] * 9) + "]\n", 2, "at most 8 presets, not 9"),
    ("expression: sin(x)\n", 1, "There is no function"),
    ("expression: x ** y\n", 1, "exponent"),
    ("expression: 3 * 2\n", 1, "does not use x"),
    ("expression: log(x)\nrange: [-3, -1]\nx: -2\n", 1, "has no value anywhere in the range"),
    ("expression: log(x)\nx: -1\n", 2, "undefined at the starting x = -1"),
    ("expression: x * x\nx: !!float 1\n", 2, "YAML tags"),
    ("expression: x * x\nx: &a 1\n", 2, "anchors and aliases"),
    ("expression: [x\n", 1, "the knob widget is not valid YAML"),
    ("- x * x\n", 1, "a knob widget is a YAML mapping"),
]


@pytest.mark.parametrize("body,line,message", BAD, ids=[m[:30] for _, _, m in BAD])
def test_each_mistake_is_named_at_its_line(body, line, message):
    page = "# Title\n\n```tinydag-knob\n" + body + "```\n"
    with pytest.raises(WidgetError) as error:
        find_widgets(page, first_line=1)
    assert re.search(message, error.value.message), error.value.message
    assert error.value.line == (3 if line == 0 else 3 + line)  # 0: the fence's own line


def test_the_build_fails_with_file_and_line(tmp_path, caplog):
    site = knob_site(tmp_path, {"knob": "# Knob\n\nText.\n\n" + KNOB.replace("h: 0.5", "h: -1")})
    text = build_error(site, caplog)
    assert "docs/knob.md:8: `h` must be between 0.0001 and 1" in text


def test_the_build_fails_on_an_unknown_kind(tmp_path, caplog):
    site = knob_site(tmp_path, {"knob": "# Knob\n\n```tinydag-dial\nx: 1\n```\n"})
    assert "docs/knob.md:3: unknown widget kind `dial`" in build_error(site, caplog)


# ---- the HTML and the assets each page loads ----

def test_each_page_loads_only_the_bundle_it_uses(tmp_path):
    site = knob_site(tmp_path, {"knob": "# Knob\n\n" + KNOB, "sandbox": "# Sandbox\n\n" + BLOCK,
                                "both": "# Both\n\n" + BLOCK + "\n" + KNOB, "plain": "# Plain\n\nText.\n"})
    site.build()
    for prefix in ("", "ru/", "et/"):
        loads = {}
        for name in ("knob", "sandbox", "both", "plain"):
            html = site.page(f"{prefix}{name}/index.html")
            head = html[:html.index("</head>")]
            loads[name] = sorted(re.findall(r"assets/tinydag/([a-z.]+)\?v=", head))
        # The player names its engine (data-engine), which it loads when a reader's change needs it.
        assert loads == {
            "knob": ["widgets.css", "widgets.js"],
            "sandbox": ["engine.js", "figure.css", "player.css", "player.js"],
            "both": ["engine.js", "figure.css", "player.css", "player.js", "widgets.css", "widgets.js"],
            "plain": [],
        }, prefix
    assert (tmp_path / "site/assets/tinydag/widgets.js").stat().st_size > 1000


def test_a_widget_figure_carries_its_static_figure_data_and_own_strings(tmp_path):
    site = knob_site(tmp_path, {"knob": "# Knob\n\n" + KNOB + "\n" + KNOB})
    site.build()
    for lang, prefix in (("en", ""), ("ru", "ru/"), ("et", "et/")):
        html = site.page(f"{prefix}knob/index.html")
        figures = re.findall(r'<figure class="tdg-widget" data-widget="knob" id="(tinydag-knob-\d)" '
                             r'lang="(\w+)">', html)
        assert figures == [("tinydag-knob-1", lang), ("tinydag-knob-2", lang)]
        payload = widget_data(html)[0]
        assert payload["kind"] == "knob" and payload["lang"] == lang
        assert set(payload["strings"]) == {k for k in STRINGS[lang] if k.startswith(("knob_", "widget_",
                                                                                    "error_", "value_"))}
        caption = typeset_text(STRINGS[lang]["knob_caption"], lang)  # with ru's no-break spaces
        assert payload["strings"]["knob_caption"] == caption
        assert f"<figcaption>{escape(caption)}" in html
        assert '<div class="tdg-widget__static"><div class="tdg-knob tdg-knob--static"><svg' in html
        assert "NaN" not in html and "Infinity" not in html
        assert "```tinydag-knob" not in html and "tinydag-slot" not in html


def test_a_widget_in_a_list_item_is_placed_in_it(tmp_path):
    listed = "# Knob\n\n1. Look:\n\n" + "".join("    " + line + "\n" for line in KNOB.splitlines())
    site = knob_site(tmp_path, {"knob": listed})
    site.build()
    html = site.page("knob/index.html")
    assert re.search(r"<li>\s*<p>Look:</p>\s*<figure class=\"tdg-widget\"", html)


def test_bench_weighs_the_javascript_each_page_loads(tmp_path):
    from bench.weights import gzip_size, page_weights

    site = knob_site(tmp_path, {"knob": "# Knob\n\n" + KNOB, "sandbox": "# Sandbox\n\n" + BLOCK})
    site.build()
    built = tmp_path / "site"
    rows = {row.metric: row for row in page_weights(built, ["knob/index.html", "sandbox/index.html",
                                                            "index.html"])}
    assets = built / "assets/tinydag"
    widgets_kb = gzip_size((assets / "widgets.js").read_bytes()) / 1024
    player_kb = gzip_size((assets / "player.js").read_bytes()) / 1024
    assert rows["widgets.js (gzip)"].value == widgets_kb
    assert rows["own JS on knob/index.html (widgets.js; gzip)"].value == widgets_kb
    assert rows["own JS on sandbox/index.html (player.js; gzip)"].value == player_kb
    assert rows["own JS on index.html (none; gzip)"].value == 0
    assert all(row.holds for row in rows.values() if row.holds is not None)
    assert 3 < widgets_kb < 30 and widgets_kb < player_kb


def test_a_widget_in_a_blockquote_is_an_error_at_its_line():
    page = "# Title\n\n> " + KNOB.replace("\n", "\n> ").rstrip("> ")
    with pytest.raises(BlockError) as error:  # the sandbox's own check, for every ```tinydag fence
        find_widgets(page, first_line=1)
    assert error.value.line == 3 and "inside a blockquote" in error.value.message


@pytest.mark.parametrize("off", ["sandboxes", "widgets", "site", "the whole plugin"])
def test_each_wing_turns_off_alone_and_enabled_false_turns_off_all(tmp_path, off):
    """mkdocs.yml's `sandboxes`, `widgets` and `site` each switch their wing off; the others go on."""
    wings = {"enabled": False} if off == "the whole plugin" else {off: {"enabled": False}}
    site = knob_site(tmp_path, {"both": f"# Both\n\n{BLOCK}\n{KNOB}"}, wings)
    site.build()
    page = site.page("both/index.html")
    assert ("data-sandbox" in page) == (off not in ("sandboxes", "the whole plugin"))
    assert ('data-widget="knob"' in page) == (off not in ("widgets", "the whole plugin"))
    assert (COLOR_SCHEME in page) == (off not in ("site", "the whole plugin"))  # a site-wide fix
    assert ("values: {a: 2" in page) == (off in ("sandboxes", "the whole plugin"))  # the block left as code
