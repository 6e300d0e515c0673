"""Search in the reader's language: one search index per language, each with its own word rules.

Material's search plugin writes one index for every language the site builds
(search/search_index.json, with documents under ru/ and et/ beside the English ones), and every page
loads it from its `__config.base`. After each language build this module splits that index:

- search/search_index.json       English documents (lunr's English trimmer and stop words);
- ru/search/search_index.json     Russian documents (lunr's Russian trimmer and stop words);
- et/search/search_index.json     Estonian documents (the Estonian query stemmer below);

and a ru or et page's `__config.base` points at its language's root, so its search box loads its
language's index (and result links resolve there). Locations in a language's index are relative to
that language's root.

Estonian: lunr has no Estonian stemmer, and Estonian inflects heavily (gradient, gradiendi,
gradienti, gradientidega). Material already searches by prefix (every query term gets a trailing
`*`); on top of that, `lunr.et` strips common case and plural endings from indexed and queried words
alike, so an inflected query finds a page that uses another form of the word.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from mkdocs.utils import get_relative_url

INDEX = "search/search_index.json"
LUNR_ET = Path(__file__).parent / "assets" / "lunr.et.js"
LUNR_ET_TARGET = "assets/javascripts/lunr/min/lunr.et.min.js"  # where Material's worker looks for it
# lunr pipeline functions kept per language (Material removes the others). No stemmer: Material
# searches every term as a prefix and lunr skips the pipeline for such terms, so a stemmed index
# would miss the very word typed ("производная*" finds no token "производн"); whole words plus
# prefix search find every form that starts with what the reader typed.
PIPELINES = {
    "en": ["trimmer", "stopWordFilter"],
    "ru": ["trimmer", "stopWordFilter"],
    "et": ["trimmer"],  # lunr.et keeps whole words in the index and stems the query (assets/lunr.et.js)
}
CONFIG_BASE = re.compile(r'(<script id="__config" type="application/json">\{"annotate": [^,]*, "base": ")'
                         r'([^"]*)(")')


def language_base(html: str, page_url: str, locale: str, default: str) -> str:
    """Point a translated page's `__config.base` at its language's root (where its index lives)."""
    if locale == default:
        return html
    base = get_relative_url(f"{locale}/", page_url).rstrip("/") or "."
    return CONFIG_BASE.sub(lambda m: m[1] + base + m[3], html, count=1)


class IndexSplitter:
    """Collects every language's documents across the language builds and writes one index each."""

    def __init__(self) -> None:
        self.docs: dict[str, dict[str, dict]] = {}  # locale -> location -> document
        self.config: dict = {}

    def reset(self) -> None:
        self.docs.clear()

    def split(self, site_dir: Path, locales: list[str], default: str) -> None:
        """Run after every language build: the shared index then holds what that build added."""
        shared = site_dir / INDEX
        if not shared.is_file():
            return
        data = json.loads(shared.read_text(encoding="utf-8"))
        self.config = {**self.config, **data.get("config", {})}
        for doc in data.get("docs", []):
            locale = _locale_of(doc.get("location", ""), locales, default)
            if locale != default:
                doc = {**doc, "location": doc["location"].removeprefix(f"{locale}/")}
            self.docs.setdefault(locale, {})[doc["location"]] = doc
        for locale, docs in self.docs.items():
            config = {**self.config, "lang": [locale], "pipeline": PIPELINES.get(locale, [])}
            target = site_dir / (INDEX if locale == default else f"{locale}/{INDEX}")
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(json.dumps({"config": config, "docs": list(docs.values())}, ensure_ascii=False),
                              encoding="utf-8")
        if "et" in locales:
            lunr = site_dir / LUNR_ET_TARGET
            lunr.parent.mkdir(parents=True, exist_ok=True)
            lunr.write_bytes(LUNR_ET.read_bytes())


def _locale_of(location: str, locales: list[str], default: str) -> str:
    """"ru/02-autograd/#x" -> "ru"; an English page's location has no language folder."""
    first, slash, _ = location.partition("/")
    return first if slash and first in locales and first != default else default
