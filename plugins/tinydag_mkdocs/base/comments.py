"""The listing's comments in the page's language.

The code a lesson shows comes from the engine's own source (pymdownx.snippets), whose comments are
English. A translated page gives each comment its translation in one block, anywhere in the page:

    ```tinydag-comments
    "the number it holds": "число, которое он хранит"
    "parents before children": "родители раньше детей"
    ```

A docstring is translated the same way, its English words on one line as the key (however the code
wraps them); the translation is wrapped into as many lines as the English takes, so the listing keeps
its lines and their numbers.

The block shows nothing; every listing of the page then reads the translations (the code itself never
changes). Each comment must be one the page's listings have, and no translated line may grow wider
than the code column holds (WIDTH), nor a docstring need more lines than the English: these are build
errors at the line of the block that says so.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass

import yaml

from .fences import BlockError, fences
from .safe_yaml import YamlProblem, compose, line_of

LANGUAGE = "tinydag-comments"
WIDTH = 80  # characters: what the code column shows at 1280 px without a scroll bar (tests/test_listing.py)
# A comment as Pygments writes it, and a block of code (a listing, whatever its title or line numbers).
COMMENT = re.compile(r'<span class="c1">#(\s*)(.*?)</span>', re.S)
DOCSTRING = re.compile(r'<span class="sd">(.*?)</span>', re.S)  # one line's part of a docstring
CODE = re.compile(r"(<code[^>]*>)(.*?)(</code>)", re.S)
QUOTES = '"""'


@dataclass(frozen=True)
class Translations:
    table: dict[str, str]  # English comment or docstring (its words on one line) -> the page's words
    lines: dict[str, int]  # ... and the Markdown line that says so


def take_translations(markdown: str, first_line: int = 1) -> tuple[str, Translations | None]:
    """The page without its ```tinydag-comments block (blank lines in its place, so that later lines keep
    their numbers), and the translations it gave; BlockError at the line of a mistake."""
    lines = markdown.split("\n")
    found = [fence for fence in fences(lines, first_line) if fence.info == LANGUAGE]
    if not found:
        return markdown, None
    if len(found) > 1:
        raise BlockError(first_line + found[1].start, "a page has one ```tinydag-comments block: "
                         "put every translation in the first")
    fence = found[0]
    body_line = first_line + fence.start + 1
    try:
        root = compose(fence.body)
    except YamlProblem as problem:
        raise BlockError(body_line + problem.line, f"the comments block is {problem.message}") from None
    if root is not None and not isinstance(root, yaml.MappingNode):
        raise BlockError(body_line, 'the comments block maps each English comment to its translation, '
                         'one per line: "the number it holds": "…"')
    table: dict[str, str] = {}
    at: dict[str, int] = {}
    for key, value in root.value if root is not None else []:
        line = line_of(key, body_line)
        if not isinstance(value, yaml.ScalarNode) or not key.value.strip() or not value.value.strip():
            raise BlockError(line, "each English comment needs its translation as text on the same line")
        english, words = key.value.strip(), " ".join(value.value.split())
        if english in table:
            raise BlockError(line, f"“{english}” is translated twice")
        table[english], at[english] = words, line
    lines[fence.start:fence.end] = [""] * (fence.end - fence.start)
    return "\n".join(lines), Translations(table, at)


def translate_listings(page_html: str, translations: Translations) -> str:
    """Every listing of the page with its comments and docstrings in the page's words; BlockError, at the
    block's line for that one, for a comment or docstring no listing has, a line grown too wide, or a
    docstring that needs more lines than the English or has a blank line (_docstrings)."""
    used: set[str] = set()

    def line(code_line: str) -> str:
        said: list[str] = []

        def comment(match: re.Match) -> str:
            english = html.unescape(match[2]).strip()
            words = translations.table.get(english)
            if words is None:
                return match[0]
            said.append(english)
            return f'<span class="c1">#{match[1]}{html.escape(words, quote=False)}</span>'

        translated = COMMENT.sub(comment, code_line)
        text = html.unescape(re.sub(r"<[^>]+>", "", translated))
        if said and len(text) > WIDTH:
            raise BlockError(translations.lines[said[-1]], f"with this translation the line “{text.strip()}” "
                             f"is {len(text)} characters wide; at most {WIDTH} fit the code column: say it "
                             "shorter")
        used.update(said)
        return translated

    def code(match: re.Match) -> str:
        lines = _docstrings(match[2].split("\n"), translations, used)
        return match[1] + "\n".join(map(line, lines)) + match[3]

    page_html = CODE.sub(code, page_html)
    unknown = [english for english in translations.table if english not in used]
    if unknown:
        raise BlockError(translations.lines[unknown[0]], f"no listing of the page has the comment or "
                         f"docstring “{unknown[0]}”: copy a comment exactly as the code writes it after "
                         "the #, a docstring's words as they are, on one line")
    return page_html


def _docstrings(lines: list[str], translations: Translations, used: set[str]) -> list[str]:
    """`lines` (a listing's, as Pygments wrote them) with each translated docstring in the page's words,
    wrapped into the lines the English took."""
    lines = list(lines)
    start = 0
    while start < len(lines):
        first = DOCSTRING.search(lines[start])
        if not first or not html.unescape(first[1]).lstrip().startswith(QUOTES):
            start += 1
            continue
        end = start  # the line whose docstring part closes it
        while end < len(lines) - 1 and not _closes(lines[end], opening=end == start):
            end += 1
        parts = [html.unescape(m[1]) for k in range(start, end + 1) for m in DOCSTRING.finditer(lines[k])]
        english = " ".join(" ".join(parts).strip().strip('"').split())
        words = translations.table.get(english)
        if words is not None:
            used.add(english)
            # A blank line (Pygments writes it without a docstring part) parts paragraphs: the words of
            # one translation cannot say where.
            if not all(DOCSTRING.search(lines[k]) for k in range(start, end + 1)):
                raise BlockError(translations.lines[english], "this docstring has a blank line, which the "
                                 "comments block cannot translate: leave it in English")
            lines[start:end + 1] = _rewrapped(lines[start:end + 1], words, translations.lines[english])
        start = end + 1
    return lines


def _closes(line: str, opening: bool) -> bool:
    text = "".join(html.unescape(m[1]) for m in DOCSTRING.finditer(line)).strip()
    return text.endswith(QUOTES) and (not opening or len(text) >= 2 * len(QUOTES))


def _rewrapped(lines: list[str], words: str, block_line: int, closing: str = QUOTES) -> list[str]:
    """The docstring's lines with `words` in place of their text: as many lines, each within WIDTH,
    as evenly filled as they can be, closing quotes left on a line of their own if the English has them
    so; BlockError at `block_line` when the words need more lines."""
    if len(lines) > 1 and html.unescape(DOCSTRING.findall(lines[-1])[0]).strip() == QUOTES:
        return _rewrapped(lines[:-1], words, block_line, closing="") + lines[-1:]
    room = []  # characters of text each line holds
    indents = []
    for k, line in enumerate(lines):
        before = html.unescape(re.sub(r"<[^>]+>", "", line.split('<span class="sd">', 1)[0]))
        part = html.unescape(DOCSTRING.findall(line)[0])
        indent = part[:len(part) - len(part.lstrip())]
        indents.append(indent)
        quotes = len(QUOTES) * (k == 0) + len(closing) * (k == len(lines) - 1)
        room.append(WIDTH - len(before) - len(indent) - quotes)
    tokens = words.split()
    filled = None
    for target in range(max(1, -(-len(words) // len(lines))), max(room) + 1):
        filled = _fill(tokens, [min(target, r) for r in room])
        if filled is not None:
            break
    if filled is None:
        raise BlockError(block_line, f"this docstring's translation does not fit the {len(lines)} "
                         f"line{'s' * (len(lines) > 1)} of at most {WIDTH} characters the English takes: "
                         "say it shorter")
    out = []
    for k, (line, indent, text) in enumerate(zip(lines, indents, filled, strict=True)):
        said = html.escape((QUOTES if k == 0 else indent) + text + (closing if k == len(lines) - 1 else ""),
                           quote=False)
        head, _, tail = DOCSTRING.split(line, maxsplit=1)
        out.append(f'{head}<span class="sd">{said}</span>{tail}')
    return out


def _fill(tokens: list[str], widths: list[int]) -> list[str] | None:
    """The words in len(widths) lines, line k at most widths[k] characters, each as full as it can be;
    None when they need more lines (or a word is wider than its line)."""
    lines: list[str] = [""] * len(widths)
    k = 0
    for token in tokens:
        while k < len(widths) and len(f"{lines[k]} {token}".strip()) > widths[k]:
            k += 1
        if k == len(widths):
            return None
        lines[k] = f"{lines[k]} {token}".strip()
    return lines
