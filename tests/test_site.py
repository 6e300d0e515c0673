"""The real site, built once per session (tests/conftest.py): pages, languages, links, assets, data."""

from __future__ import annotations

import html
import json
import re
import subprocess
import sys
from functools import cache
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import pytest
import yaml

from tests.conftest import ROOT, SITE_URL
from tinydag_mkdocs.site.typography import typeset_text

LANGS = ("en", "ru", "et")
LESSON = {"en": "02-autograd/index.html", "ru": "ru/02-autograd/index.html",
          "et": "et/02-autograd/index.html"}
HOME = {"en": "index.html", "ru": "ru/index.html", "et": "et/index.html"}


class Tags(HTMLParser):
    """Every start tag with its attributes, plus the text of <script class="tinydag-data">."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.data: list[str] = []
        self._in_data = False
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        self.tags.append((tag, attributes))
        self._in_data = tag == "script" and "tinydag-data" in (attributes.get("class") or "")

    def handle_endtag(self, tag):
        self._in_data = False

    def handle_data(self, data):
        if self._in_data:
            self.data.append(data)

    def find(self, tag: str, **want: str) -> list[dict[str, str | None]]:
        return [a for t, a in self.tags if t == tag and all(a.get(k.replace("_", "-")) == v
                                                           for k, v in want.items())]


def read(site: Path, page: str) -> str:
    return (site / page).read_text(encoding="utf-8")


def page_url(page: str) -> str:
    return urljoin(SITE_URL, page.removesuffix("index.html"))


def sandboxes(site: Path, lang: str) -> list[dict]:
    return [json.loads(text) for text in Tags(read(site, LESSON[lang])).data]


@cache
def cli(expression: str, values: tuple[tuple[str, float], ...]) -> dict:
    args = [sys.executable, "-m", "tinydag", expression]
    for name, value in values:
        args += ["--set", f"{name}={value!r}"]
    done = subprocess.run(args, capture_output=True, text=True, check=True, cwd=ROOT)
    return json.loads(done.stdout)


@pytest.mark.parametrize("lang", LANGS)
def test_pages_have_their_language(built_site, lang):
    for page in (HOME[lang], LESSON[lang]):
        assert re.search(rf'<html lang="{lang}"', read(built_site, page)), page


@pytest.mark.parametrize("lang", LANGS)
def test_each_lesson_links_to_its_translations(built_site, lang):
    tags = Tags(read(built_site, LESSON[lang]))
    for other in LANGS:
        links = tags.find("a", hreflang=other)
        assert links, f"{LESSON[lang]} has no link to {other}"
        target = urljoin(page_url(LESSON[lang]), links[0]["href"])
        assert target == page_url(LESSON[other]), (lang, other, target)


@pytest.mark.parametrize("lang", LANGS)
def test_every_embedded_timeline_equals_the_cli(built_site, lang):
    (sandbox,) = sandboxes(built_site, lang)
    graphs = [sandbox, *sandbox["presets"]]
    assert len(graphs) == 7
    for graph in graphs:
        expected = cli(graph["expression"], tuple(sorted(graph["values"].items())))
        assert graph["timeline"] == expected, graph["expression"]


@pytest.mark.parametrize("lang", LANGS)
def test_sandbox_markup_follows_the_contract(built_site, lang):
    text = read(built_site, LESSON[lang])
    (root,) = [a for t, a in Tags(text).tags if t == "div" and "data-sandbox" in a]
    assert (root["class"], root["id"], root["lang"]) == ("tinydag", "tinydag-1", lang)
    (sandbox,) = sandboxes(built_site, lang)
    assert sandbox["lang"] == lang
    assert (sandbox["expression"], sandbox["values"]) == ("(a + b) * c", {"a": 2, "b": -3, "c": 10})
    strings = yaml.safe_load((ROOT / "src/player/strings" / f"{lang}.yml").read_text(encoding="utf-8"))
    assert sandbox["strings"] == {key: typeset_text(text, lang) for key, text in strings.items()}  # + U+00A0
    script = re.search(r'<script type="application/json" class="tinydag-data">(.*?)</script>', text, re.S)
    assert not re.search(r"[<>&]", script[1]), "the JSON must not contain raw <, > or &"
    figure = re.search(r'<figure class="tinydag-figure">.*?</figure>', text, re.S)
    assert "<svg" in figure[0] and "<figcaption>" in figure[0]


@pytest.mark.parametrize("lang", LANGS)
def test_preset_labels_stay_in_the_page_language(built_site, lang):
    labels = [p["label"] for p in sandboxes(built_site, lang)[0]["presets"]]
    source = ROOT / "docs" / ("02-autograd.md" if lang == "en" else f"02-autograd.{lang}.md")
    assert all(f'label: "{label}"' in source.read_text(encoding="utf-8") for label in labels)


@pytest.mark.parametrize("lang", LANGS)
def test_listing_shows_the_value_class(built_site, lang):
    text = html.unescape(re.sub(r"<[^>]+>", "", read(built_site, LESSON[lang])))
    assert "class Value:" in text
    assert "child.grad += local_grad * v.grad" in text
    assert "--8<--" not in text  # the snippet was included, and its section markers are gone


@pytest.mark.parametrize("lang", LANGS)
def test_a_moving_picture_comes_first_and_the_listing_after_it(built_site, lang):
    """The compact player follows the opening paragraph and its invitation to press Backward; the
    reading rules and the listing come after it."""
    text = read(built_site, LESSON[lang])
    body = text[text.index("<h1"):]
    compact = body.index("data-sandbox-compact")
    assert body[:compact].count("<p>") == 2, "the opening paragraph and the invitation"
    assert compact < body.index('<h2 id="') < body.index('class="language-python highlight"')


def test_every_language_has_the_same_exercise_links_in_the_same_order(built_site):
    """A language link carries the open exercise as its link's place among its sandbox's links (`task=2`,
    url.ts): a translation that adds, drops or reorders one would show another exercise's words beside the
    carried setup. Each page, per sandbox: the same setups (address, panel) in the same order."""
    def links(lang: str) -> list[tuple[str | None, str | None]]:
        return [(a.get("data-open-in-sandbox"), a.get("href"))
                for a in Tags(read(built_site, LESSON[lang])).find("a") if "data-open-in-sandbox" in a]
    english = links("en")
    assert len(english) >= 5, english  # the compact player's, then the exercises (a)-(d)
    for lang in LANGS[1:]:
        assert links(lang) == english, lang


def all_pages(site: Path) -> list[str]:
    return sorted(p.relative_to(site).as_posix() for p in site.rglob("*.html"))


def test_no_script_or_stylesheet_comes_from_outside_the_site(built_site):
    for page in all_pages(built_site):
        tags = Tags(read(built_site, page))
        urls = [a["src"] for a in tags.find("script") if a.get("src")]
        urls += [a["href"] for t, a in tags.tags if t == "link" and a.get("href")]
        for url in urls:
            assert urljoin(page_url(page), url).startswith(SITE_URL), f"{page}: {url}"


def unresolved(site: Path, pages: list[str], site_url: str = SITE_URL) -> list[str]:
    """Every script, stylesheet, image and link of `pages` under `site_url` that names no built file."""
    missing = []
    for page in pages:
        tags = Tags(read(site, page))
        urls = [a["src"] for t, a in tags.tags if t in ("script", "img") and a.get("src")]
        urls += [a["href"] for t, a in tags.tags if t in ("link", "a") and a.get("href")]
        for url in urls:
            absolute = urljoin(urljoin(site_url, page.removesuffix("index.html")), url)
            if not absolute.startswith(site_url):
                continue  # external links in the prose are not assets
            path = urlsplit(absolute).path.removeprefix(urlsplit(site_url).path)
            target = site / (path + "index.html" if path.endswith("/") or not path else path)
            if not target.is_file():
                missing.append(f"{page}: {url} -> {target.relative_to(site)}")
    return missing


@pytest.mark.parametrize("lang", LANGS)
def test_assets_and_links_resolve_to_files(built_site, lang):
    assert unresolved(built_site, [HOME[lang], LESSON[lang]]) == []


def test_player_assets_load_only_where_there_is_a_sandbox(built_site):
    for lang in LANGS:
        lesson, home = read(built_site, LESSON[lang]), read(built_site, HOME[lang])
        for asset in ("assets/tinydag/player.js?v=", "assets/tinydag/figure.css?v="):
            assert asset in lesson and asset not in home, (lang, asset)
    assert (built_site / "assets/tinydag/player.js").stat().st_size > 0
    assert not (built_site / "ru/assets/tinydag").exists()  # one copy, shared by every language


def test_search_index_holds_no_sandbox_data(built_site):
    index = (built_site / "search/search_index.json").read_text(encoding="utf-8")
    assert "tinydag-data" not in index and '"timeline"' not in index


@pytest.mark.parametrize("lang, label", [("en", "Search"), ("ru", "Поиск"), ("et", "Otsi")])
def test_search_dialog_has_an_accessible_name_in_the_page_language(built_site, lang, label):
    html = read(built_site, f"{'' if lang == 'en' else lang + '/'}02-autograd/index.html")
    dialog = re.search(r'<div class="md-search"[^>]*role="dialog"[^>]*>', html)
    assert dialog and f'aria-label="{label}' in dialog[0]
