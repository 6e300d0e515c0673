"""Page 00's widgets in a site of their own: a three-language site built by the plugin around one
page of widget fences, served, and its pages opened in a fresh browser context."""

from __future__ import annotations

import contextlib
from pathlib import Path

import yaml
from mkdocs.commands.build import build
from mkdocs.config import load_config

from .browser_helpers import DESKTOP, ROOT, open_page, serving

WIDGET_PAGE = {"en": "", "ru": "ru/", "et": "et/"}  # where widget_site() puts each language's page


def open_widget_page(browser, base: str, lang: str = "en", viewport: dict = DESKTOP, **options):
    """widget_site()'s page in `lang`, in a fresh context (open_page)."""
    return open_page(browser, f"{base}{WIDGET_PAGE[lang]}", viewport, **options)


PALETTE = [  # the lesson's light and slate palettes, with their toggles (as mkdocs.yml has them)
    {"media": "(prefers-color-scheme: light)", "scheme": "default", "primary": "indigo",
     "accent": "deep orange", "toggle": {"icon": "material/weather-night", "name": "Dark"}},
    {"media": "(prefers-color-scheme: dark)", "scheme": "slate", "primary": "indigo", "accent": "orange",
     "toggle": {"icon": "material/weather-sunny", "name": "Light"}},
]


@contextlib.contextmanager
def widget_site(root: Path, body: str, name: str):
    """A three-language site whose one page is `body` (the same in en, ru and et), built by the plugin
    with the real UI strings, served; yields its URL (a language's page: + WIDGET_PAGE[lang])."""
    (root / "docs").mkdir(parents=True)
    for lang in WIDGET_PAGE:
        page = "index.md" if lang == "en" else f"index.{lang}.md"
        (root / "docs" / page).write_text(body, encoding="utf-8")
    config = {
        "site_name": name, "theme": {"name": "material", "font": False, "palette": PALETTE},
        "markdown_extensions": ["admonition", "pymdownx.superfences"],
        "plugins": [
            {"i18n": {"docs_structure": "suffix", "languages": [
                {"locale": lang, "name": lang, "default": lang == "en", "build": True}
                for lang in WIDGET_PAGE]}},
            {"tinydag": {"strings_dir": str(ROOT / "src" / "player" / "strings")}},
        ],
    }
    (root / "mkdocs.yml").write_text(yaml.safe_dump(config, allow_unicode=True), encoding="utf-8")
    build(load_config(config_file=str(root / "mkdocs.yml"), strict=True, site_dir=str(root / "site")))
    with serving(root / "site") as url:
        yield url
