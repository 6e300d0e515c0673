"""What mkdocs-static-i18n is doing now, read in one place: it builds the site once per language with
the same plugin instances (English first; its on_post_build builds the others), and these are the only
functions that read its internals. Without the i18n plugin the site has one language, the theme's."""

from __future__ import annotations

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.pages import Page


def is_translation_build(config: MkDocsConfig) -> bool:
    """static-i18n sets `building` while its English on_post_build runs the other languages."""
    return bool(getattr(config.plugins.get("i18n"), "building", False))


def building_language(config: MkDocsConfig) -> str:
    """The language of the build under way."""
    current = getattr(config.plugins.get("i18n"), "current_language", None)
    return current or config.theme.get("language") or "en"


def default_language(config: MkDocsConfig) -> str:
    i18n = config.plugins.get("i18n")
    if i18n is None:
        return config.theme.get("language") or "en"
    return next((lang.locale for lang in i18n.config.languages if lang.default), "en")


def languages(config: MkDocsConfig) -> list[str]:
    """Every language the site builds."""
    i18n = config.plugins.get("i18n")
    if i18n is None:
        return [config.theme.get("language") or "en"]
    return [lang.locale for lang in i18n.config.languages if lang.build]


def page_language(page: Page, config: MkDocsConfig) -> str:
    return getattr(page.file, "locale", None) or config.theme.get("language") or "en"
