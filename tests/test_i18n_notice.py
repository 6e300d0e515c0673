"""The "translation lags" notice, on a throwaway site in its own git repository.

A ru page shows the notice (in Russian, with a link to the English page) only when its English page
was committed after it, by the same rule `make i18n-status` uses; a page with no translation says so.
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest
from mkdocs import utils

from tests.test_plugin import STRINGS, Site
from tinydag_mkdocs.base.git_history import UNAFFECTED
from tinydag_mkdocs.site import i18n_status

NOTICES = {
    "en": {"page_outdated": "English changed.", "page_outdated_link": "English page",
           "page_missing": "Not translated."},
    "ru": {"page_outdated": "Английский оригинал изменился.", "page_outdated_link": "Английская версия",
           "page_missing": "Ещё не переведено."},
    "et": {"page_outdated": "Ingliskeelne originaal muutus.", "page_outdated_link": "Ingliskeelne leht",
           "page_missing": "Pole veel tõlgitud."},
}
PAGES = {"index.md": "# Home\n", "index.ru.md": "# Главная\n", "index.et.md": "# Avaleht\n",
         "lesson.md": "# Lesson\n\nOne.\n", "lesson.ru.md": "# Урок\n\nОдин.\n"}  # no lesson.et.md


@pytest.fixture(autouse=True)
def _restore_mkdocs_state(monkeypatch):
    monkeypatch.setattr(utils, "clean_directory", utils.clean_directory)


def git(root: Path, *args: str, when: int | None = None) -> None:
    env = dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@example.org", GIT_COMMITTER_NAME="t",
               GIT_COMMITTER_EMAIL="t@example.org")
    if when is not None:
        env["GIT_AUTHOR_DATE"] = env["GIT_COMMITTER_DATE"] = f"@{when} +0000"
    subprocess.run(["git", *args], cwd=root, env=env, check=True, capture_output=True)


@pytest.fixture
def site(tmp_path: Path) -> Site:
    strings = {lang: {**STRINGS[lang], **NOTICES[lang]} for lang in STRINGS}
    site = Site(tmp_path, PAGES, strings=strings)
    (tmp_path / ".gitignore").write_text("site/\n.cache/\n")
    git(tmp_path, "init", "-q")
    git(tmp_path, "add", ".")
    git(tmp_path, "commit", "-q", "-m", "all", when=1_700_000_000)
    return site


def notice(html: str, kind: str = "outdated") -> re.Match | None:
    pattern = rf'<p class="tdg-translation-notice"[^>]*data-translation-{kind}[^>]*>(.*?)</p>'
    return re.search(pattern, html, re.S)


def commit_edit(site: Site, page: str, text: str, when: int, message: str = "") -> None:
    (site.root / "docs" / page).write_text(text, encoding="utf-8")
    git(site.root, "commit", "-q", "-am", message or f"edit {page}", when=when)


def test_up_to_date_translations_carry_no_notice(site):
    site.build()
    for page in ("ru/lesson/index.html", "ru/index.html", "et/index.html", "lesson/index.html"):
        assert "data-translation-outdated" not in site.page(page), page


def test_notice_appears_after_a_later_english_commit(site):
    commit_edit(site, "lesson.md", "# Lesson\n\nOne, and a correction.\n", when=1_700_100_000)
    site.build()
    ru = site.page("ru/lesson/index.html")
    found = notice(ru)
    assert found, "the ru lesson should say that English changed"
    assert "Английский оригинал изменился." in found[1]
    link = re.search(r'<a href="([^"]+)" hreflang="en">([^<]+)</a>', found[1])
    assert link and link[2] == "Английская версия"
    assert (site.root / "site/ru/lesson" / link[1] / "index.html").resolve() == \
        (site.root / "site/lesson/index.html").resolve()
    assert notice(site.page("ru/index.html")) is None  # its English page did not change
    assert "data-translation-outdated" not in site.page("lesson/index.html")  # English is the source
    older = {r.locale: r.older_pages for r in i18n_status.report(site.root / "mkdocs.yml")}
    assert older["ru"] == ["lesson.ru.md"]  # the same rule as `make i18n-status`


def test_notice_goes_away_once_the_translation_catches_up(site):
    commit_edit(site, "lesson.md", "# Lesson\n\nOne, and a correction.\n", when=1_700_100_000)
    commit_edit(site, "lesson.ru.md", "# Урок\n\nОдин, с поправкой.\n", when=1_700_200_000)
    site.build()
    assert notice(site.page("ru/lesson/index.html")) is None


def test_an_english_edit_marked_as_leaving_the_translations_unaffected_is_not_counted(site):
    """Walkthrough 29: the English lesson's "±1,000,000" written "±10⁶" put "the English original has
    changed" on both translations. A commit whose message has the line `Translations: unaffected` is
    passed over, for pages and for strings alike (`make i18n-status` too); the next one, which only
    quotes the words, is not."""
    marked = f"Typography only\n\n{UNAFFECTED}"
    commit_edit(site, "lesson.md", "# Lesson\n\nOne!\n", when=1_700_100_000, message=marked)
    en_strings = site.root / "strings/en.yml"
    en_strings.write_text(en_strings.read_text(encoding="utf-8").replace("grad: grad", "grad: grad."),
                          encoding="utf-8")
    git(site.root, "commit", "-q", "-am", marked, when=1_700_150_000)
    site.build()
    assert notice(site.page("ru/lesson/index.html")) is None
    (ru,) = [r for r in i18n_status.report(site.root / "mkdocs.yml") if r.locale == "ru"]
    assert ru.older_pages == [] and ru.older_keys == []
    commit_edit(site, "lesson.md", "# Lesson\n\nOne, and a new sentence.\n", when=1_700_200_000)
    en_strings.write_text(en_strings.read_text(encoding="utf-8").replace("grad: grad.", "grad: gradient"),
                          encoding="utf-8")
    git(site.root, "commit", "-q", "-am", f"grad's new word (no '{UNAFFECTED}' here)", when=1_700_250_000)
    (ru,) = [r for r in i18n_status.report(site.root / "mkdocs.yml") if r.locale == "ru"]
    assert ru.older_pages == ["lesson.ru.md"] and ru.older_keys == ["grad"]


def test_a_marked_commit_still_dates_the_translations_and_a_source_marked_throughout(site):
    """Review 59: the mark is for English edits only. A translation brought up to date in a marked commit
    (with an English typo fixed beside it) is up to date; and an English page whose every commit is marked
    dates from its first, not from its file's time (a fresh checkout's: newer than every translation)."""
    commit_edit(site, "lesson.md", "# Lesson\n\nOne, and a new sentence.\n", when=1_700_100_000)
    (site.root / "docs/lesson.ru.md").write_text("# Урок\n\nОдин, и новое предложение.\n", encoding="utf-8")
    (site.root / "docs/lesson.md").write_text("# Lesson\n\nOne, and a new sentence!\n", encoding="utf-8")
    git(site.root, "commit", "-q", "-am", f"ru catches up, a typo\n\n{UNAFFECTED}", when=1_700_200_000)
    for name, text in (("extra.md", "# Extra\n"), ("extra.ru.md", "# Ещё\n"), ("extra.et.md", "# Veel\n")):
        (site.root / "docs" / name).write_text(text, encoding="utf-8")
    git(site.root, "add", "docs")
    git(site.root, "commit", "-q", "-m", f"A page\n\n{UNAFFECTED}", when=1_700_300_000)
    site.build()
    assert notice(site.page("ru/lesson/index.html")) is None
    assert notice(site.page("ru/extra/index.html")) is None
    older = {r.locale: r.older_pages for r in i18n_status.report(site.root / "mkdocs.yml")}
    assert older == {"ru": [], "et": []}


def test_a_page_without_translation_says_so_in_the_readers_language(site):
    site.build()
    et = site.page("et/lesson/index.html")
    found = notice(et, "missing")
    assert found and "Pole veel tõlgitud." in found[1]
    assert 'lang="et"' in found[0]
    assert notice(site.page("ru/lesson/index.html"), "missing") is None
