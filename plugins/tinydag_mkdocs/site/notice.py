"""Readers see when a translation lags: a short notice at the top of a ru/et page, in its language.

- Outdated: the English page changed after the translation did, by the same git rule as
  `make i18n-status` (i18n_status.Git: last commit, or the file's mtime when edited since). The notice
  links to the English page and sits in an element with `data-translation-outdated`.
- Missing: static-i18n shows the English text at the translation's address (fallback_to_default);
  the notice says so in the reader's language (`data-translation-missing`).

The sentences are UI strings (src/player/strings/<lang>.yml: page_outdated, page_outdated_link,
page_missing), so translators edit them where they edit every other word of the site.
"""

from __future__ import annotations

import subprocess
from html import escape
from pathlib import Path

from mkdocs.plugins import get_plugin_logger
from mkdocs.structure.pages import Page
from mkdocs.utils import get_relative_url

from ..base.git_history import Git

log = get_plugin_logger(__name__)

ARTICLE = '<article class="md-content__inner md-typeset">'
FALLBACK = {  # used when a strings file has no such key (a site with older strings files)
    "page_outdated": "The English original of this page has changed since it was translated.",
    "page_outdated_link": "Read the English page",
    "page_missing": "This page has not been translated yet: you are reading the English original.",
}


class Notices:
    def __init__(self) -> None:
        self.git = Git()
        self.times: dict[tuple[Path, bool], float] = {}
        self.checked_history = False

    def _time(self, path: Path, source: bool = False) -> float:
        if not self.checked_history:
            self.checked_history = True
            _warn_if_shallow(path.parent)
        if (path, source) not in self.times:
            self.times[path, source] = self.git.file_time(path, source)
        return self.times[path, source]

    def state(self, page: Page, locale: str, default: str) -> str | None:
        """'outdated', 'missing' or None for a page built for `locale` (not the default language)."""
        source = page.file.abs_src_path
        if locale == default or not source:
            return None
        path = Path(source)
        if getattr(page.file, "locale", locale) != locale or path.suffixes[-2:-1] != [f".{locale}"]:
            return "missing"  # the English file itself, served at the translation's address
        english = path.with_name(path.name.removesuffix(f".{locale}{path.suffix}") + path.suffix)
        if english.is_file() and self._time(english, source=True) > self._time(path):
            return "outdated"
        return None

    def insert(self, html: str, page: Page, locale: str, default: str, strings: dict[str, str]) -> str:
        state = self.state(page, locale, default)
        if state is None or ARTICLE not in html:
            return html
        say = {key: strings.get(key, text) for key, text in FALLBACK.items()}
        lang = f' lang="{escape(locale)}"'
        if state == "missing":
            box = (f'<p class="tdg-translation-notice" role="note" data-translation-missing{lang}>'
                   f'{escape(say["page_missing"])}</p>')
        else:
            english_url = page.url.removeprefix(f"{locale}/")
            href = get_relative_url(english_url or ".", page.url)
            box = (f'<p class="tdg-translation-notice" role="note" data-translation-outdated{lang}>'
                   f'{escape(say["page_outdated"])} '
                   f'<a href="{escape(href)}" hreflang="{escape(default)}">'
                   f'{escape(say["page_outdated_link"])}</a></p>')
        return html.replace(ARTICLE, ARTICLE + NOTICE_CSS + box, 1)


def _warn_if_shallow(folder: Path) -> None:
    """A shallow clone (actions/checkout's default) dates every file by its last commit: no notices."""
    try:
        done = subprocess.run(["git", "rev-parse", "--is-shallow-repository"], cwd=folder,
                              capture_output=True, text=True, check=False)
    except OSError:
        return
    if done.stdout.strip() == "true":
        log.info("this is a shallow git clone, so pages cannot tell whether a translation is older than "
                 "English; fetch the full history (actions/checkout: fetch-depth: 0) for the notices")


NOTICE_CSS = ("<style>.tdg-translation-notice{border-left:.2rem solid var(--md-accent-fg-color);"
              "padding:.4rem .8rem;background:var(--md-code-bg-color);font-size:.7rem}</style>")
