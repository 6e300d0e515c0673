"""The plugin on tiny temporary sites: errors an author can act on, the cache, strings, escaping."""

from __future__ import annotations

import json
import logging
import os
import re
import sys
import textwrap
from pathlib import Path

import pytest
import yaml
from mkdocs import utils
from mkdocs.commands.build import build
from mkdocs.config import load_config
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import Abort

import tinydag
from tinydag_mkdocs.base.page_json import script_json
from tinydag_mkdocs.sandbox import cache as cache_module
from tinydag_mkdocs.sandbox.blocks import find_blocks
from tinydag_mkdocs.sandbox.cache import BuildCache
from tinydag_mkdocs.site import i18n_status

BLOCK = """\
```tinydag
expression: "(a + b) * c"
values: {a: 2, b: -3, c: 10}
presets:
  - label: "Default"
    expression: "(a + b) * c"
    values: {a: 2, b: -3, c: 10}
  - label: "Square"
    expression: "a * a"
    values: {a: 3}
```
"""

STRINGS = {
    "en": {"value": "value", "grad": "grad", "figure_caption": "Graph {expression}",
           "figure_caption_forward": "Graph {expression}, forward", "not_reached": "not yet",
           "no_webgl": "No WebGL",
           "derived": "derived", "const": "const", "step": "step {n} of {total}",
           "frameworks": "The same in PyTorch / JAX",
           "frameworks_note": "The grads.", "frameworks_constant": "None."},
    "ru": {"value": "значение", "grad": "градиент", "figure_caption": "Граф {expression}",
           "figure_caption_forward": "Граф {expression}, прямой", "not_reached": "ещё нет",
           "no_webgl": "Нет WebGL", "derived": "составная", "const": "конст.", "step": "шаг {n} из {total}",
           "frameworks": "То же самое в PyTorch / JAX",
           "frameworks_note": "Градиенты.", "frameworks_constant": "Нет."},
    "et": {"value": "väärtus", "grad": "gradient", "figure_caption": "Graaf {expression}",
           "figure_caption_forward": "Graaf {expression}, edasi", "not_reached": "veel mitte",
           "no_webgl": "WebGL puudub", "derived": "tuletatud", "const": "konst.", "step": "samm {n}/{total}",
           "frameworks": "Sama PyTorchis / JAX-is",
           "frameworks_note": "Gradiendid.", "frameworks_constant": "Pole."},
}


class Site:
    """A throwaway project: mkdocs.yml, docs/, a tiny player entry and UI strings."""

    def __init__(self, root: Path, pages: dict[str, str], strings: dict | None = None,
                 languages: tuple[str, ...] = ("en", "ru", "et"), enabled: bool = True,
                 wings: dict | None = None) -> None:
        self.root = root
        (root / "docs").mkdir()
        for name, text in pages.items():
            (root / "docs" / name).write_text(text, encoding="utf-8")
        (root / "strings").mkdir()
        for lang, table in (STRINGS if strings is None else strings).items():
            (root / "strings" / f"{lang}.yml").write_text(yaml.safe_dump(table, allow_unicode=True),
                                                          encoding="utf-8")
        config = {
            "site_name": "Tiny", "theme": {"name": "material"},
            "markdown_extensions": ["admonition", "pymdownx.superfences"],
            "plugins": [
                {"i18n": {"docs_structure": "suffix", "languages": [
                    {"locale": lang, "name": lang, "default": lang == "en"} for lang in languages]}},
                {"tinydag": {"enabled": enabled, "strings_dir": "strings", **(wings or {})}},
            ],
        }
        (root / "mkdocs.yml").write_text(yaml.safe_dump(config, allow_unicode=True), encoding="utf-8")

    def build(self):
        config = load_config(config_file=str(self.root / "mkdocs.yml"), strict=True,
                             site_dir=str(self.root / "site"))
        build(config)
        return config

    def page(self, path: str) -> str:
        return (self.root / "site" / path).read_text(encoding="utf-8")


@pytest.fixture(autouse=True)
def _restore_mkdocs_state(monkeypatch):
    """static-i18n patches mkdocs while it builds the other languages and restores it only on success."""
    monkeypatch.setattr(utils, "clean_directory", utils.clean_directory)


@pytest.fixture
def engine_calls(monkeypatch) -> list[str]:
    # MkDocs keeps a plugin that has on_startup, and its caches, for the whole process (what `mkdocs
    # serve` wants): start from a fresh one, or the count depends on the tests that ran before.
    monkeypatch.setattr(dict(MkDocsConfig._schema)["plugins"], "plugin_cache", {})
    calls: list[str] = []
    real = tinydag.build_timeline

    def counting(expression, values):
        calls.append(expression)
        return real(expression, values)

    monkeypatch.setattr(tinydag, "build_timeline", counting)
    return calls


def build_error(site: Site, caplog) -> str:
    caplog.set_level(logging.ERROR)
    with pytest.raises(Abort):
        site.build()
    return caplog.text


def sandbox_data(page_html: str) -> list[dict]:
    found = re.findall(r'<script type="application/json" class="tinydag-data">(.*?)</script>', page_html)
    return [json.loads(text) for text in found]


PAGES = {"index.md": "# Home\n", "index.ru.md": "# Главная\n", "index.et.md": "# Avaleht\n",
         "lesson.md": f"# Lesson\n\n{BLOCK}", "lesson.ru.md": f"# Урок\n\n{BLOCK}",
         "lesson.et.md": f"# Õppetund\n\n{BLOCK}"}


def test_each_distinct_graph_runs_the_engine_once_per_build(tmp_path, engine_calls):
    site = Site(tmp_path, PAGES)
    config = site.build()
    # three languages x (default + two presets), of which two distinct graphs
    assert sorted(engine_calls) == ["(a + b) * c", "a * a"]
    for path, lang in (("lesson/index.html", "en"), ("ru/lesson/index.html", "ru"),
                       ("et/lesson/index.html", "et")):
        (data,) = sandbox_data(site.page(path))
        # ru strings come with the prose's no-break spaces ("в\u00a0PyTorch": test_i18n_site)
        plain = {key: text.replace("\u00a0", " ") for key, text in data["strings"].items()}
        assert data["lang"] == lang and plain == STRINGS[lang]
        assert [p["label"] for p in data["presets"]] == ["Default", "Square"]
    assert "player.js" not in site.page("index.html")  # no sandbox, no player
    assert re.search(r'<script src="\.\./\.\./assets/tinydag/player\.js\?v=\w+" '
                     r'data-engine="\.\./\.\./assets/tinydag/engine\.js\?v=\w+" async>',
                     site.page("ru/lesson/index.html"))
    assert (tmp_path / "site/assets/tinydag/player.js").read_text().strip()
    build(config)  # what `mkdocs serve` does on a change elsewhere: nothing to recompute
    assert len(engine_calls) == 2


BROKEN = [
    ("unknown key", "expression: a\ncolour: red\n", 5, "unknown key `colour`"),
    ("unparsable YAML", "expression: [a\n", 4, "not valid YAML"),
    ("preset that fails to parse",
     'expression: a\npresets:\n  - label: "x"\n    expression: "a +"\n', 7,
     "The expression ends too early"),
    ("variable exponent", 'expression: "a ** b"\n', 4, "The exponent must be a constant"),
    ("domain error", 'expression: "log(a)"\nvalues: {a: -1}\n', 5,
     "log is defined only for positive numbers"),
    ("value for a variable the expression lacks", "expression: a\nvalues: {a: 1, z: 2}\n", 5,
     "`values` sets z"),
]


@pytest.mark.parametrize(("body", "line", "message"), [b[1:] for b in BROKEN], ids=[b[0] for b in BROKEN])
def test_a_broken_block_fails_naming_file_line_and_problem(tmp_path, caplog, body, line, message):
    site = Site(tmp_path, {"index.md": "# Home\n", "lesson.md": f"# Lesson\n\n```tinydag\n{body}```\n"},
                languages=("en",))
    log = build_error(site, caplog)
    assert f"docs/lesson.md:{line}: " in log and message in log, log


def test_a_broken_translation_names_its_own_file(tmp_path, caplog):
    pages = dict(PAGES, **{"lesson.et.md": "---\ntitle: Õppetund\n---\n\n# Õppetund\n\n"
                           + BLOCK.replace('"a * a"', '"a ** b"')})
    log = build_error(Site(tmp_path, pages), caplog)
    # front matter counted: the preset's expression is on line 15 of the file
    assert 'docs/lesson.et.md:15: The exponent must be a constant' in log, log


def test_a_block_inside_an_admonition_works(tmp_path):
    indented = textwrap.indent(BLOCK, "    ")
    site = Site(tmp_path, {"index.md": f"# Home\n\n!!! note\n\n{indented}"}, languages=("en",))
    site.build()
    page = site.page("index.html")
    assert len(sandbox_data(page)) == 1 and "tinydag-slot" not in page
    assert not re.search(r"<p>\s*<div class=\"tinydag\"", page)


@pytest.mark.parametrize(("lang", "change", "expected"), [
    ("ru", lambda t: t.pop("grad"), "strings/ru.yml:1: missing key 'grad'"),
    ("et", lambda t: t.update(extra_button="Nupp"), "extra key 'extra_button'"),
    ("ru", lambda t: t.update(step="шаг {n}"), "key 'step' has placeholders {n} but"),
    ("en", lambda t: t.pop("figure_caption"), "missing key 'figure_caption'"),
    ("et", lambda t: t.update(value=3), "key 'value' must be text"),
], ids=["missing", "extra", "placeholder", "figure key", "not text"])
def test_ui_strings_must_match_english(tmp_path, caplog, lang, change, expected):
    strings = json.loads(json.dumps(STRINGS))
    change(strings[lang])
    log = build_error(Site(tmp_path, PAGES, strings=strings), caplog)
    assert f"strings/{lang}.yml" in log and expected in log, log


def test_a_missing_strings_file_is_named(tmp_path, caplog):
    strings = {k: v for k, v in STRINGS.items() if k != "et"}
    log = build_error(Site(tmp_path, PAGES, strings=strings), caplog)
    assert "strings/et.yml:1: file not found" in log, log


def test_a_duplicated_key_is_an_error(tmp_path, caplog):
    site = Site(tmp_path, PAGES)
    path = tmp_path / "strings/ru.yml"
    path.write_text(path.read_text(encoding="utf-8") + "grad: again\n", encoding="utf-8")
    log = build_error(site, caplog)
    assert "key 'grad' appears twice" in log, log


def test_hostile_text_cannot_leave_the_json(tmp_path):
    hostile = "</script><script>alert(1)</script><!--"
    block = BLOCK.replace('"Square"', json.dumps(hostile))
    site = Site(tmp_path, {"index.md": f"# Home\n\n{block}"}, languages=("en",))
    site.build()
    page = site.page("index.html")
    assert "alert(1)</script>" not in page
    assert sandbox_data(page)[0]["presets"][1]["label"] == hostile
    assert json.loads(script_json({"x": "<&>\u2028"})) == {"x": "<&>\u2028"}


def test_disabled_plugin_leaves_blocks_as_code(tmp_path):
    site = Site(tmp_path, {"index.md": f"# Home\n\n{BLOCK}"}, languages=("en",), enabled=False)
    site.build()
    page = site.page("index.html")
    assert "data-sandbox" not in page and "player.js" not in page and "expression:" in page


def test_fences_inside_other_fences_are_not_blocks():
    markdown = f"````markdown\n{BLOCK}````\n\n{BLOCK}"
    (block,) = find_blocks(markdown)
    assert block.line == 15 and block.default.expression == "(a + b) * c"
    assert [p.label for p in block.presets] == ["Default", "Square"]


def test_i18n_status_lists_missing_and_older_pages_and_strings(tmp_path, capsys):
    pages = {k: v for k, v in PAGES.items() if k != "lesson.et.md"}
    strings = json.loads(json.dumps(STRINGS))
    strings["ru"].pop("grad")
    strings["et"]["extra_button"] = "Nupp"
    strings["et"]["step"] = "samm {n}"
    Site(tmp_path, pages, strings=strings)
    old = tmp_path / "docs/index.ru.md"
    os.utime(old, (1_000_000_000, 1_000_000_000))  # the English index changed after this translation
    assert i18n_status.main(["--config", str(tmp_path / "mkdocs.yml"), "--check"]) == 1
    out = capsys.readouterr().out
    ru, et = out.split("\nru (ru)\n")[1].split("\net (et)\n")
    assert "older    index.ru.md" in ru and "missing  grad" in ru and "2 of 2 translated" in ru
    assert "missing  lesson.md" in et and "extra    extra_button" in et and "older    step" in et


def test_a_changed_engine_is_reloaded_and_its_results_forgotten(monkeypatch):
    cache = BuildCache()
    cache.timeline("a * b", {"a": 2.0, "b": 3.0})
    reloaded: list[str] = []
    monkeypatch.setattr(cache_module.importlib, "reload", lambda module: reloaded.append(module.__name__))
    monkeypatch.setattr(cache_module.tinydag, "source_digest", lambda: "edited")
    cache.start_build()
    assert reloaded == [m for m in tinydag.MODULES if m in sys.modules] and cache.digest == "edited"
    assert reloaded[0] == "microgpt_annotated" and reloaded[-1] == "tinydag"
    assert not cache.timelines and cache.runs == 1
