"""Search in the reader's language: one search index per language, each with its own word rules.

Material's search plugin writes one index for every language the site builds
(search/search_index.json, with documents under ru/ and et/ beside the English ones), and every page
loads it from its `__config.base`. After each language build this module splits that index:

- search/search_index.json       English documents (lunr's English trimmer and stop words);
- ru/search/search_index.json     Russian documents (lunr's Russian and English word rules together);
- et/search/search_index.json     Estonian documents (the Estonian query stemmer below);
- <xx>/search/search_index.json   any other language the site builds, the same way (see `lunr_languages`);

and a ru or et page's `__config.base` points at its language's root, so its search box loads its
language's index (and result links resolve there). Locations in a language's index are relative to
that language's root.

Code words in translated prose: the Russian lesson says `backward`, `relu`, `ReLU` among Cyrillic
words. lunr's Russian trimmer keeps Cyrillic letters only, so alone it strips every Latin word to
nothing and "backward" finds no page. A translated index therefore uses lunr's multi-language mode
(`lang: [ru, en]`, Material's own setting for mixed-language sites: lunr.multi.min.js ships with it),
whose trimmer keeps both alphabets and whose stop words are both languages'.

A language lunr-languages does not know (Ukrainian, Latvian...) gets a small generated language file
(assets/lunr.words.js: a Unicode-letter trimmer, no stemmer), since Material's worker imports
`lunr.<lang>.min.js` for every language in the index and one missing file stops search altogether.

Estonian: lunr has no Estonian stemmer, and Estonian inflects heavily (gradient, gradiendi,
gradienti, gradientidega). Material already searches by prefix (every query term gets a trailing
`*`); on top of that, `lunr.et` strips common case and plural endings from indexed and queried words
alike, so an inflected query finds a page that uses another form of the word.
"""

from __future__ import annotations

import json
import re
from importlib.util import find_spec
from pathlib import Path

from mkdocs.utils import get_relative_url

INDEX = "search/search_index.json"
ASSETS = Path(__file__).resolve().parents[1] / "assets"
LUNR_DIR = "assets/javascripts/lunr/min"  # where Material's worker looks for lunr.<lang>.min.js
OWN_LUNR = {"et": ASSETS / "lunr.et.js"}  # our own language files (Material ships none for these)
LUNR_WORDS = ASSETS / "lunr.words.js"  # for a language nobody ships: Unicode words, no stemmer
MATERIAL = Path(find_spec("material").origin or "").parent  # type: ignore[union-attr]
MATERIAL_LUNR = MATERIAL / "templates" / LUNR_DIR  # lunr-languages, as Material ships them
# lunr pipeline functions kept per language (Material removes the others). No stemmer: Material
# searches every term as a prefix and lunr skips the pipeline for such terms, so a stemmed index
# would miss the very word typed ("производная*" finds no token "производн"); whole words plus
# prefix search find every form that starts with what the reader typed.
PIPELINES = {
    "et": ["trimmer"],  # lunr.et keeps whole words in the index and stems the query (assets/lunr.et.js)
}
DEFAULT_PIPELINE = ["trimmer", "stopWordFilter"]
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
            config = {**self.config, "lang": lunr_languages(locale),
                      "pipeline": PIPELINES.get(locale, DEFAULT_PIPELINE)}
            target = site_dir / (INDEX if locale == default else f"{locale}/{INDEX}")
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(json.dumps({"config": config, "docs": list(docs.values())}, ensure_ascii=False),
                              encoding="utf-8")
            write_lunr_language(locale, site_dir)


def lunr_languages(locale: str) -> list[str]:
    """The index's `lang`: a language lunr-languages knows goes together with English, so the code words
    in its prose stay searchable; English, Estonian and a language nobody ships go alone (their
    trimmers keep every letter, Latin ones included)."""
    shipped = locale != "en" and (MATERIAL_LUNR / f"lunr.{locale}.min.js").is_file()
    return [locale, "en"] if shipped else [locale]


def write_lunr_language(locale: str, site_dir: Path) -> None:
    """Put the language file Material's worker will import, unless Material ships it."""
    if locale == "en":
        return
    target = site_dir / LUNR_DIR / f"lunr.{locale}.min.js"
    if locale in OWN_LUNR:
        source = OWN_LUNR[locale].read_text(encoding="utf-8")
    elif (MATERIAL_LUNR / target.name).is_file():
        return  # one of lunr-languages' (Material copies them with its assets)
    else:
        source = LUNR_WORDS.read_text(encoding="utf-8").replace('"__LANG__"', json.dumps(locale))
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(source, encoding="utf-8")


def _locale_of(location: str, locales: list[str], default: str) -> str:
    """"ru/02-autograd/#x" -> "ru"; an English page's location has no language folder."""
    first, slash, _ = location.partition("/")
    return first if slash and first in locales and first != default else default


# Material searches on the box's keyup only. Text that arrives without keys (a Cyrillic or Estonian
# letter from an input method, a word picked from a phone keyboard's suggestions, dictation, paste from
# the menu) left the box at "start typing" with the word in it. Every input now counts as a keyup;
# Material ignores a value it has searched already.
TYPED = ('<script>addEventListener("input",function(e){var t=e.target;t.matches&&'
         't.matches(".md-search__input")&&t.dispatchEvent(new KeyboardEvent("keyup"))},true)</script>')


def search_on_input(html: str) -> str:
    """Add the input-to-search script to a page that has Material's search box."""
    if 'class="md-search__input"' not in html or TYPED in html:
        return html
    at = html.rfind("</body>")
    return html if at < 0 else html[:at] + TYPED + html[at:]
