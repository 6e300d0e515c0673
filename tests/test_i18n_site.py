"""Language on the built site: absolute hreflang, a sitemap wherever Material asks, one search index
per language, Russian non-breaking spaces, and numbers in prose written the language's way."""

from __future__ import annotations

import json
import re
from pathlib import Path
from urllib.parse import urlparse

import pytest

from tests.conftest import SITE_URL

LANGS = ("en", "ru", "et")
PAGES = {lang: [f"{'' if lang == 'en' else lang + '/'}{page}index.html" for page in ("", "02-autograd/")]
         for lang in LANGS}
CODE = re.compile(r"<(pre|code|script|style|svg)\b.*?</\1>", re.S)


def read(site: Path, path: str) -> str:
    return (site / path).read_text(encoding="utf-8")


def prose(html: str) -> str:
    """The article's text outside code, tags removed."""
    article = html[html.index('<article class="md-content__inner md-typeset">'):html.index("</article>")]
    article = re.sub(r'<div class="tinydag"[^>]*data-sandbox.*?<noscript>', "", article, flags=re.S)
    return re.sub(r"<[^>]+>", "", CODE.sub("", article))


@pytest.mark.parametrize("lang", LANGS)
def test_hreflang_and_canonical_links_are_absolute(built_site, lang):
    for path in PAGES[lang]:
        html = read(built_site, path)
        links = re.findall(r'<link rel="(alternate|canonical)" href="([^"]*)"', html)
        assert {rel for rel, _ in links} == {"alternate", "canonical"}, path
        for _, href in links:
            assert href.startswith(SITE_URL), (path, href)
        assert sorted(re.findall(r'hreflang="([^"]+)"', html.split("</head>")[0])) == sorted(LANGS)


def test_material_finds_a_sitemap_beside_every_alternate(built_site):
    """Material fetches sitemap.xml relative to each hreflang URL: none of those may 404."""
    for lang in LANGS:
        for path in PAGES[lang]:
            for href in re.findall(r'<link rel="alternate" href="([^"]*)"', read(built_site, path)):
                folder = urlparse(href).path.removeprefix(urlparse(SITE_URL).path)
                assert (built_site / folder / "sitemap.xml").is_file(), (path, href)


def test_each_language_has_its_own_search_index(built_site):
    indexes = {"en": "search/search_index.json", "ru": "ru/search/search_index.json",
               "et": "et/search/search_index.json"}
    for lang, path in indexes.items():
        index = json.loads(read(built_site, path))
        assert index["config"]["lang"] == {"ru": ["ru", "en"]}.get(lang, [lang])  # ru: Latin code words too
        locations = {doc["location"].split("#")[0] for doc in index["docs"]}
        assert locations == {"", "00-basics/", "02-autograd/"}, (lang, locations)  # relative to its root
        text = " ".join(doc["text"] for doc in index["docs"])
        cyrillic = len(re.findall(r"[а-яё]", text, re.I))
        assert (cyrillic > 1000) == (lang == "ru"), lang
        assert ("õ" in text) == (lang == "et"), lang
    assert (built_site / "assets/javascripts/lunr/min/lunr.et.min.js").is_file()


@pytest.mark.parametrize("lang", LANGS)
def test_each_page_searches_its_own_language(built_site, lang):
    for path in PAGES[lang]:
        config = json.loads(re.search(r'<script id="__config" type="application/json">(.*?)</script>',
                                      read(built_site, path), re.S)[1])
        root = (built_site / Path(path).parent / config["base"]).resolve()
        assert root == (built_site / ("" if lang == "en" else lang)).resolve(), path
        assert (root / "search/search_index.json").is_file()


def test_russian_prose_binds_dashes_prepositions_and_sections(built_site):
    text = prose(read(built_site, "ru/02-autograd/index.html"))
    assert " —" not in text and "\u00a0—" in text
    assert not re.search(r"(?<![\w\u00a0-])[вкксоуиаВКСОУИА] ", text), "a one-letter word left at a line end"
    assert "§\u00a04" in text and "уроке\u00a004" in text
    html = read(built_site, "ru/02-autograd/index.html")
    listing = re.search(r'<div class="language-python highlight"[^>]*>.*?</pre>', html, re.S)
    assert listing and "\u00a0" not in listing[0]  # code keeps its plain spaces


@pytest.mark.parametrize("lang", LANGS)
def test_a_variables_value_stays_on_its_line(built_site, lang):
    """"b = −3" never breaks at a line's end (a reader saw "b =" end a line on a Russian phone)."""
    text = prose(read(built_site, f"{'' if lang == 'en' else lang + '/'}02-autograd/index.html"))
    assert "b\u00a0=\u00a0−3" in text
    broken = re.search(r".{0,30}(?<![\w.])[A-Za-z] = [−-]?\.?\d", text)
    assert broken is None, broken


def test_russian_interface_strings_bind_like_the_prose(built_site):
    # Page 00's knob and gears draw UI strings inside <svg> and their own HTML; translators type plain
    # spaces in ru.yml and the build binds them as it binds the prose ("на шкале", "в точке").
    html = read(built_site, "ru/00-basics/index.html")
    widgets = html[html.index('class="tdg-widget'):html.index("</article>")]
    text = re.sub(r"<[^>]+>", "", re.sub(r"<(pre|code|script|style)\b.*?</\1>", "", widgets, flags=re.S))
    assert "сдвиньте" in text and "стрелками" in text, "the knob's caption and the gears' hint are there"
    assert not re.search(r"(?<![\w\u00a0-])[вкксоуиаВКСОУИА] ", text), "a one-letter word left at a line end"
    assert " —" not in text


@pytest.mark.parametrize("lang", LANGS)
def test_a_short_inline_code_keeps_to_one_line_with_plain_spaces(built_site, lang):
    """`a * b < 0` broke before "< 0" in exercise (b) (walkthrough 7): a short inline code is kept on
    one line by its style, its spaces plain (a learner copies it into the expression field); a long one
    may wrap, and code blocks are left alone."""
    html = read(built_site, f"{'' if lang == 'en' else lang + '/'}02-autograd/index.html")
    assert '<code style="white-space: nowrap">a * b &lt; 0</code>' in html
    long = re.findall(r"<code([^>]*)>([^<]{17,})</code>", html)
    assert long and all("nowrap" not in attrs for attrs, _ in long)
    assert "nowrap" not in "".join(re.findall(r"<pre.*?</pre>", html, re.S))


@pytest.mark.parametrize("lang", ["ru", "et"])
def test_numbers_in_prose_use_the_decimal_comma(built_site, lang):
    text = prose(read(built_site, f"{lang}/02-autograd/index.html"))
    assert "0,001" in text
    assert not re.findall(r"\d\.\d", text), re.findall(r".{20}\d\.\d.{10}", text)


def test_english_prose_uses_the_decimal_point(built_site):
    text = prose(read(built_site, "02-autograd/index.html"))
    assert "0.001" in text and not re.findall(r"\d,\d", text)


def test_the_404_page_is_the_default_languages_and_no_translation(built_site):
    html = read(built_site, "404.html")
    assert '<html lang="en"' in html
    assert 'rel="alternate"' not in html and "hreflang=" not in html.split("</head>")[0]


def test_a_language_lunr_does_not_know_still_gets_a_search_language(tmp_path):
    """Material's worker imports lunr.<lang>.min.js for every language of an index: one missing file
    stops search. German is lunr-languages' (with English for code words); Ukrainian is nobody's and gets
    the generated Unicode-word language; Estonian is ours."""
    from tinydag_mkdocs.site import search_lang

    assert search_lang.lunr_languages("de") == ["de", "en"]
    assert search_lang.lunr_languages("uk") == ["uk"] and search_lang.lunr_languages("et") == ["et"]
    for locale in ("de", "uk", "et", "en"):
        search_lang.write_lunr_language(locale, tmp_path)
    written = {p.name for p in (tmp_path / search_lang.LUNR_DIR).iterdir()}
    assert written == {"lunr.uk.min.js", "lunr.et.min.js"}  # Material copies lunr.de.min.js itself
    words = (tmp_path / search_lang.LUNR_DIR / "lunr.uk.min.js").read_text(encoding="utf-8")
    assert 'var name = "uk";' in words and "__LANG__" not in words


@pytest.mark.parametrize("lang", LANGS)
def test_the_exercises_follow_the_sandbox_and_its_controls_fold(built_site, lang):
    """Between the sandbox (its frameworks panel) and "Try it yourself", a paragraph says where to begin;
    every control's description waits in a fold (walk 37: about 1,550 words stood between a learner and
    the exercises)."""
    html = read(built_site, PAGES[lang][1])
    start = html.index("</details>", html.index('<details class="tinydag-frameworks"'))
    between = html[start:html.index("<h2", start)]
    folds = re.findall(r"<details class=\"info\">.*?</details>", between, flags=re.S)
    assert len(folds) == 1 and len(re.findall(r"<li>", folds[0])) >= 15, folds
    open_words = re.sub(r"<[^>]+>", " ", between.replace(folds[0], "")).split()
    assert 30 < len(open_words) < 120, open_words
