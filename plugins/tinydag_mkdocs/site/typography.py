"""Non-breaking spaces added at build time to the page's prose: where Russian typesetting puts them,
and in every language between a one-letter variable and its value.

Translators type ordinary spaces; the build binds, with U+00A0:
- in every language, a one-letter variable to its value ("b = −3": never "b =" at a line's end);
- in Russian, the word before a dash to the dash ("граф — схема" never starts a line with "—");
- in Russian, a one-letter preposition or conjunction to the next word ("в c", "к a", "и b");
- "§" to its number ("§ 4"), and "урок(е) 04" (Russian) or "õppetunnis 04" (Estonian) to its number.
Text inside code, pre, script, style and tag attributes is left alone.
The UI strings get the same rules when the plugin loads them (typeset_text): the player, the widgets
and their static figures (inside <svg>, which typeset skips) show them as the prose is shown.
"""

from __future__ import annotations

import html as html_lib
import re

NBSP = "\u00a0"
TAG = re.compile(r"(<[^>]*>)")
RAW = re.compile(r"<(/?)(code|pre|script|style|kbd|svg)\b", re.IGNORECASE)
BEFORE_DASH = re.compile(r" (?=[—–] )")
ONE_LETTER = re.compile(r"(?<![\w\u00a0-])([вВкКсСоОуУиИаАяЯ]) (?=\S|$)")  # $: inline code follows
SECTION = re.compile(r"§ ?(?=\d)")
LESSON_NUMBER = re.compile(r"(?<=\b[Уу]рок)([а-я]{0,2}) (?=\d)")
ESTONIAN_LESSON = re.compile(r"(?<=[Õõ]ppetun)(\w{0,3}) (?=\d)")
VALUE = re.compile(r"(?<![\w.])([A-Za-z]) = (?=[−-]?\.?\d)")  # "a = 2", "b = −3", not "a.grad = 3"


def _values(text: str) -> str:
    return VALUE.sub(lambda m: f"{m[1]}{NBSP}={NBSP}", text)


def _russian(text: str) -> str:
    text = _values(BEFORE_DASH.sub(NBSP, text))
    text = ONE_LETTER.sub(lambda m: m[1] + NBSP, text)
    text = SECTION.sub("§" + NBSP, text)
    return LESSON_NUMBER.sub(lambda m: m[1] + NBSP, text)


def _estonian(text: str) -> str:
    return _values(ESTONIAN_LESSON.sub(lambda m: m[1] + NBSP, SECTION.sub("§" + NBSP, text)))


RULES = {"en": _values, "ru": _russian, "et": _estonian}


def typeset_text(text: str, lang: str) -> str:
    """A plain-text UI string with the language's non-breaking spaces."""
    rule = RULES.get(lang)
    return rule(text) if rule else text


def typeset(html: str, lang: str) -> str:
    """The page's HTML with the language's non-breaking spaces in its text (not in code)."""
    rule = RULES.get(lang)
    if rule is None:
        return html
    out: list[str] = []
    raw = 0  # depth inside code-like elements
    parts = TAG.split(html)
    for i, part in enumerate(parts):
        if part.startswith("<") and part.endswith(">"):
            tag = RAW.match(part)
            if tag and not part.endswith("/>"):
                raw = max(0, raw - 1) if tag[1] else raw + 1
            out.append(_short_code(part, parts, i) if raw == 1 else part)
        elif raw:
            out.append(part)
        else:
            out.append(rule(part))
    return "".join(out)


SHORT_CODE = 16  # characters: an inline code this short never breaks inside ("a * b < 0")


def _short_code(tag: str, parts: list[str], i: int) -> str:
    """A bare inline <code> of a few words kept on one line, by style rather than U+00A0 (a learner
    who copies `a * b < 0` into the sandbox's field must get plain spaces)."""
    if tag != "<code>" or i + 2 >= len(parts) or parts[i + 2] != "</code>":
        return tag
    text = html_lib.unescape(parts[i + 1])
    return '<code style="white-space: nowrap">' if " " in text and len(text) <= SHORT_CODE else tag
