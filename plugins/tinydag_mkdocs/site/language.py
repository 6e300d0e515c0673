"""The site's language features, run by the plugin in every language build (sandboxes or not).

- typography.py: Russian non-breaking spaces in a page's prose (on_page_content, before search
  indexes it);
- notice.py: the "translation lags" and "not translated yet" notices (on_post_page);
- seo.py: absolute hreflang links, and the sitemap Material asks for beside every page;
- search_lang.py: one search index per language, and each page searching its own language's.
"""

from __future__ import annotations

from pathlib import Path, PurePosixPath

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.pages import Page

from ..base.i18n_build import (
    building_language,
    default_language,
    is_translation_build,
    languages,
    page_language,
)
from . import search_lang, seo, typography
from .notice import Notices


class LanguageFeatures:
    def __init__(self) -> None:
        self.notices = Notices()
        self.index = search_lang.IndexSplitter()
        self.page_dirs: set[str] = set()
        self.not_found: str | None = None  # the default language's 404.html

    def start(self) -> None:
        """A new site build (the English one; ru and et follow with the same instance)."""
        self.notices = Notices()
        self.index.reset()
        self.page_dirs.clear()
        self.not_found = None

    def post_template(self, output: str, template_name: str, config: MkDocsConfig) -> str:
        """404.html: no hreflang (it is no page's translation); the default language's copy is kept,
        since static-i18n lets the last language built (et) overwrite the one GitHub Pages serves."""
        if template_name != "404.html":
            return output
        output = seo.ALTERNATE.sub("", output)
        if building_language(config) == default_language(config):
            self.not_found = output
        return output

    def page_content(self, html: str, page: Page, config: MkDocsConfig) -> str:
        return typography.typeset(html, page_language(page, config))

    def post_page(self, html: str, page: Page, config: MkDocsConfig,
                  strings: dict[str, dict[str, str]]) -> str:
        building, default = building_language(config), default_language(config)  # a fallback page is English text in ru/
        html = seo.absolute_alternates(html, page.canonical_url)
        html = search_lang.language_base(html, page.url, building, default)
        html = search_lang.search_on_input(html)
        html = self.notices.insert(html, page, building, default, strings.get(building, {}))
        self.page_dirs.add(PurePosixPath(page.file.dest_uri).parent.as_posix())
        return html

    def post_build(self, config: MkDocsConfig) -> None:
        site = Path(config.site_dir)
        if self.not_found is not None and not is_translation_build(config):  # the last call: after ru, et
            (site / "404.html").write_text(self.not_found, encoding="utf-8")
        seo.sitemap_beside_pages(site, self.page_dirs)
        self.index.split(site, languages(config), default_language(config))


def unknown_theme_languages(config: MkDocsConfig) -> str | None:
    """A language the site builds that Material has no interface words for stops its build with a
    template traceback (partials/languages/<code>.html not found): say so, in mkdocs.yml's terms."""
    if config.theme.name != "material":
        return None
    partials = search_lang.MATERIAL / "templates" / "partials" / "languages"
    known = sorted(p.stem for p in partials.glob("*.html"))
    unknown = [locale for locale in languages(config) if locale not in known]
    if not unknown or not known:
        return None
    return (f"mkdocs.yml: plugins → i18n → languages: Material has no interface words for "
            f"{', '.join(repr(u) for u in unknown)}; use a language code it knows: {', '.join(known)}")
