"""`make i18n-status`: per language, which pages and UI strings are missing or older than English.

The site shows readers the same page rule: notice.py puts a notice on an older ru/et page.

"Older" is judged by git: a translated page is older when its English page was committed (or
edited and not yet committed) after the translation last was; a UI string is older when the line of
its key in en.yml changed after the same key's line in the translation (git blame, per key).
Outside a git checkout, file modification times stand in for pages and per-key ages are skipped.

    python -m tinydag_mkdocs.i18n_status [--check] [--config mkdocs.yml]

--check exits 1 when anything is missing or older (for CI); without it the report is informational.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import yaml
from mkdocs.config import load_config

from ..base.git_history import Git
from ..base.safe_yaml import YamlProblem, compose
from ..base.strings import PLACEHOLDER, StringsError, decode
from ..config import TinyDagConfig


@dataclass
class LanguageReport:
    locale: str
    name: str
    pages_total: int = 0
    missing_pages: list[str] = field(default_factory=list)
    older_pages: list[str] = field(default_factory=list)
    strings_total: int = 0
    missing_keys: list[str] = field(default_factory=list)
    extra_keys: list[str] = field(default_factory=list)
    older_keys: list[str] = field(default_factory=list)
    strings_file_missing: bool = False

    @property
    def clean(self) -> bool:
        return not (self.missing_pages or self.older_pages or self.missing_keys or self.extra_keys
                    or self.older_keys or self.strings_file_missing)


@dataclass
class Site:
    """What the status needs from mkdocs.yml, read by MkDocs itself (plugin defaults included)."""

    docs: Path
    default: str  # the source language's locale
    others: list[tuple[str, str]]  # (locale, name) of every other language that is built
    strings_dir: Path
    shown_strings_dir: str  # as written in mkdocs.yml (or the plugin's default)


def read_site(config_file: Path) -> Site:
    config = load_config(str(config_file))
    i18n = config.plugins.get("i18n")
    languages = i18n.config.languages if i18n is not None else []
    default = next((lang.locale for lang in languages if lang.default), "en")
    others = [(lang.locale, lang.name or lang.locale) for lang in languages
              if not lang.default and lang.build]
    tinydag = config.plugins.get("tinydag")
    folder = tinydag.config.strings_dir if tinydag is not None else TinyDagConfig.strings_dir.default
    return Site(Path(config.docs_dir), default, others, config_file.parent / folder, folder)


def key_lines(path: Path) -> dict[str, tuple[str, int, int]]:
    """key -> (text, first line, last line), 0-based, for a flat YAML strings file."""
    try:  # a broken file ends the report with the build's own message, not a traceback
        root = compose(decode(path.read_bytes(), path.name))
    except StringsError as exc:
        raise SystemExit(str(exc)) from None
    except YamlProblem as problem:
        raise SystemExit(f"{path.name}:{problem.line + 1}: {problem.message}") from None
    if not isinstance(root, yaml.MappingNode):
        return {}
    return {k.value: (str(v.value), k.start_mark.line, max(k.start_mark.line, v.end_mark.line - 1))
            for k, v in root.value}


def report(config: Path | Site) -> list[LanguageReport]:
    """Per language other than the source, what is missing or older; `config` is mkdocs.yml or its Site."""
    site = config if isinstance(config, Site) else read_site(config)
    default, others, strings_dir = site.default, site.others, site.strings_dir
    git = Git()
    docs = site.docs.resolve()
    locales = {default, *(locale for locale, _ in others)}
    sources = sorted(p for p in docs.rglob("*.md") if p.suffixes[-2:-1] == [] or
                     p.suffixes[-2].lstrip(".") not in locales)
    en_strings = (strings_dir / f"{default}.yml").resolve()
    en_keys = key_lines(en_strings) if en_strings.exists() else {}
    en_times = git.line_times(en_strings, source=True) if en_strings.exists() else None

    source_times = {source: git.file_time(source, source=True) for source in sources}  # once, not per language
    reports = []
    for locale, name in others:
        r = LanguageReport(locale, name, pages_total=len(sources), strings_total=len(en_keys))
        for source in sources:
            shown = source.relative_to(docs).as_posix()
            translation = source.with_name(f"{source.stem}.{locale}{source.suffix}")
            if not translation.exists():
                r.missing_pages.append(shown)
            elif source_times[source] > git.file_time(translation):
                r.older_pages.append(translation.relative_to(docs).as_posix())
        path = (strings_dir / f"{locale}.yml").resolve()
        if not path.exists():
            r.strings_file_missing = True
            r.missing_keys = list(en_keys)
        else:
            keys = key_lines(path)
            times = git.line_times(path)
            r.missing_keys = [k for k in en_keys if k not in keys]
            r.extra_keys = [k for k in keys if k not in en_keys]
            for key, (text, first, last) in keys.items():
                if key not in en_keys:
                    continue
                en_text, en_first, en_last = en_keys[key]
                if set(PLACEHOLDER.findall(en_text)) != set(PLACEHOLDER.findall(text)):
                    r.older_keys.append(key)  # placeholders changed in English: surely older
                elif en_times and times and max(en_times[en_first:en_last + 1]) > \
                        max(times[first:last + 1]):
                    r.older_keys.append(key)
        reports.append(r)
    return reports


def render(reports: list[LanguageReport], strings_dir: str) -> str:
    out = ["Translation status: English is the source; 'older' means English changed after the "
           "translation did.", ""]
    for r in reports:
        translated = r.pages_total - len(r.missing_pages)
        out.append(f"{r.locale} ({r.name})")
        out.append(f"  pages:   {translated} of {r.pages_total} translated, "
                   f"{len(r.older_pages)} older than English")
        out += [f"    missing  {p}" for p in r.missing_pages]
        out += [f"    older    {p}" for p in r.older_pages]
        if r.strings_file_missing:
            out.append(f"  strings: {strings_dir}/{r.locale}.yml is missing: copy en.yml and translate it")
        else:
            present = r.strings_total - len(r.missing_keys)
            out.append(f"  strings: {present} of {r.strings_total} keys, {len(r.missing_keys)} missing, "
                       f"{len(r.extra_keys)} extra, {len(r.older_keys)} older than English")
            out += [f"    missing  {k}" for k in r.missing_keys]
            out += [f"    extra    {k}" for k in r.extra_keys]
            out += [f"    older    {k}" for k in r.older_keys]
        out.append("")
    out += ["Readers are told too: an older translated page shows a notice in its language with a link to",
            "the English page (data-translation-outdated); a missing page is served in English and says so.",
            "Numbers: code (cards, edge labels, the listing) uses a dot; sentences (lesson text, narration,",
            "the nudge check, messages) use the language's own separator (0,001 in ru and et). See README.",
            ""]
    stamp = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    out.append(f"({stamp}; `make build` fails on missing or extra keys, never on older ones)")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tinydag_mkdocs.i18n_status",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--config", default="mkdocs.yml", type=Path)
    parser.add_argument("--check", action="store_true", help="exit 1 if anything is missing or older")
    args = parser.parse_args(argv)
    site = read_site(args.config.resolve())
    reports = report(site)
    print(render(reports, site.shown_strings_dir))
    return 1 if args.check and not all(r.clean for r in reports) else 0


if __name__ == "__main__":
    sys.exit(main())
