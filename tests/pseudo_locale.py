"""A pseudo-locale made the way a translator adds a language, by files only: `docs/<page>.<code>.md`,
`src/player/strings/<code>.yml` and one language entry in mkdocs.yml, written into a copy of the
project's docs and config (test_pseudo_locale.py builds and browses it).

Every interface string and preset label is wrapped in ⟦…⟧, its Latin letters swapped for accented
ones and each word about 40 % longer (as German or Estonian run longer than English); {placeholders}
and the plural selectors `{n|one:…|other:…}` stay as they are, only their forms' words change. So on
the built pages any plain ASCII word left in the player or a widget is English nobody can translate.

The code is German (`de`): a code has to be one Material has UI words for (theme.language: its
`partials/languages/<code>.html`) and static-i18n accepts (`xx` or `xx_XX`), and lunr-languages knows
German too, so this is exactly what a German translator's first build does.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
CODE = "de"
OPEN, CLOSE = "⟦", "⟧"
ACCENTED = dict(zip("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
                    "áƀçðéƒĝĥíĵķļɱñóþǫŕšţúṽŵẋýžÁƁÇÐÉƑĜĤÍĴĶĻṀÑÓÞǪŔŠŢÚṼŴẊÝŽ", strict=True))
PLACEHOLDER = re.compile(r"\{[A-Za-z_][A-Za-z0-9_]*(?:\|[^{}]*)?\}")
WORD = re.compile(r"[A-Za-z]+")
STRING_LINE = re.compile(r'^([A-Za-z_][A-Za-z0-9_]*): "(.*)"$')
LABEL_LINE = re.compile(r'^(\s*- label: )"(.*)"$', re.M)


def longer(word: str) -> str:
    """A word in accented letters, about 40 % longer: "Play" -> "Þļáýþļ"."""
    extra = word[: round(len(word) * 0.4)]
    return "".join(ACCENTED[c] for c in word + extra.lower())


def pseudo_text(text: str) -> str:
    """Plain text: every Latin word accented and lengthened (spaces and punctuation kept)."""
    return WORD.sub(lambda m: longer(m[0]), text)


def pseudo_placeholder(token: str) -> str:
    """{name} stays; {n|one:node|other:nodes} keeps n and the categories, and its forms turn pseudo."""
    name, bar, forms = token[1:-1].partition("|")
    if not bar:
        return token
    parts = [f"{category}:{pseudo_text(form)}" for category, _, form in
             (part.partition(":") for part in forms.split("|"))]
    return "{" + name + "|" + "|".join(parts) + "}"


def pseudo(text: str) -> str:
    """One interface string, wrapped: "Play" -> "⟦Þļáýþļ⟧"."""
    out, at = [], 0
    for m in PLACEHOLDER.finditer(text):
        out += [pseudo_text(text[at:m.start()]), pseudo_placeholder(m[0])]
        at = m.end()
    out.append(pseudo_text(text[at:]))
    return OPEN + "".join(out) + CLOSE


def strings_file(english: str) -> str:
    """The strings file from en.yml's text, line for line (comments and blank lines kept)."""
    lines = []
    for line in english.splitlines():
        m = STRING_LINE.match(line)
        if m:
            value = yaml.safe_load(line)[m[1]]
            line = f"{m[1]}: {json.dumps(pseudo(value), ensure_ascii=False)}"
        lines.append(line)
    return "\n".join(lines) + "\n"


def page_file(english: str) -> str:
    """A page from the English one: only its sandbox presets' labels change (the rest is the check's
    business only where it is the player's or a widget's words)."""
    return "\n".join(LABEL_LINE.sub(lambda m: f'{m[1]}"{pseudo(m[2])}"', line)
                     for line in english.splitlines()) + "\n"


LANGUAGE_ENTRY = f"""        - locale: {CODE}
          name: "{pseudo('Pseudo German')}"
          build: true
          site_name: "{pseudo('How neural networks learn')}"
          nav_translations:
            Home: "{pseudo('Home')}"
            "00 · Basic concepts": "00 · {pseudo('Basic concepts')}"
          theme:
            palette:
              - toggle: {{name: "{pseudo('Switch to dark mode')}"}}
              - toggle: {{name: "{pseudo('Switch to light mode')}"}}
"""


def add_language(project: Path) -> None:
    """Copy the site's sources into `project` and add the pseudo-locale there, by files only."""
    shutil.copy2(ROOT / "mkdocs.yml", project / "mkdocs.yml")
    shutil.copytree(ROOT / "docs", project / "docs")
    (project / "src").mkdir()
    shutil.copy2(ROOT / "src" / "microgpt_annotated.py", project / "src")  # the lesson's snippet
    strings = project / "src" / "player" / "strings"
    shutil.copytree(ROOT / "src" / "player" / "strings", strings)
    (strings / f"{CODE}.yml").write_text(strings_file((strings / "en.yml").read_text(encoding="utf-8")),
                                         encoding="utf-8")
    for english in sorted((project / "docs").glob("*.md")):
        if len(english.suffixes) == 1:  # page.md, not page.ru.md
            target = english.with_suffix(f".{CODE}.md")
            target.write_text(page_file(english.read_text(encoding="utf-8")), encoding="utf-8")
    config = (project / "mkdocs.yml").read_text(encoding="utf-8")
    anchor = "  # Sandbox blocks"  # the line after the i18n plugin's language list
    assert config.count(anchor) == 1, "mkdocs.yml changed: put the language entry after the last one"
    (project / "mkdocs.yml").write_text(config.replace(anchor, LANGUAGE_ENTRY + anchor), encoding="utf-8")
