"""Fenced blocks of a Markdown page, found with their file lines: the sandboxes' ```tinydag blocks and
the widgets' ```tinydag-<kind> fences alike, and the error an author can act on (file line + message).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

FENCE_OPEN = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})[ \t]*(?P<info>[^\s`]*)[^`]*$")

# Markdown containers a fence may be indented under: list items, and Material's admonitions, details
# and content tabs. Python-Markdown indents their content by 4, whatever the marker's width.
CONTAINER = re.compile(r"^[ \t]*(?:[-*+]|[0-9]{1,9}[.)]|!!!|\?\?\?\+?|===)[ \t]")
QUOTED_FENCE = re.compile(r"^[ \t]*>.*?(?:`{3,}|~{3,})[ \t]*tinydag\b")


class BlockError(Exception):
    """An author's mistake in a block or a widget fence, at a line of the Markdown text (1-based)."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(message)
        self.line = line
        self.message = message


@dataclass(frozen=True)
class Fence:
    """A fenced block of a page: where it stands, its info word, its body; the widgets' fences too."""

    lines: list[str] = field(repr=False)  # the page's lines
    start: int  # index of the opening fence
    close: int  # index of the closing fence (len(lines) when unclosed)
    indent: str
    info: str

    @property
    def end(self) -> int:
        return min(self.close + 1, len(self.lines))

    @property
    def too_deep(self) -> bool:
        """Indented 4 columns or more past its container: Markdown shows it as an indented code block."""
        return _width(self.indent) - _content_column(self.lines, self.start) >= 4

    @property
    def body(self) -> str:
        return "\n".join(line[len(self.indent):] if line.startswith(self.indent) else line
                         for line in self.lines[self.start + 1:self.close])


def fences(lines: list[str], first_line: int = 1) -> Iterator[Fence]:
    """Every top-level fence (fences inside other fences, a listing of Markdown, are not blocks)."""
    i = 0
    while i < len(lines):
        opening = FENCE_OPEN.match(lines[i])
        if not opening:
            if QUOTED_FENCE.match(lines[i]):
                raise BlockError(first_line + i, "a ```tinydag block or widget cannot stand inside a "
                                 "blockquote (>): Markdown would show it as code; take it out of the quote")
            i += 1
            continue
        close = closing_fence(lines, i + 1, opening["fence"])
        yield Fence(lines, i, close, opening["indent"], opening["info"])
        i = close + 1


def _width(indent: str) -> int:
    return len(indent.expandtabs(4))


def _content_column(lines: list[str], i: int) -> int:
    """Where the content of the container around line i starts: 4 in from a list item or an
    admonition, else the indentation of the nearest less indented line (0 at the top)."""
    own = _width(lines[i][:len(lines[i]) - len(lines[i].lstrip(" \t"))])
    for line in reversed(lines[:i]):
        if not line.strip():
            continue
        width = _width(line[:len(line) - len(line.lstrip(" \t"))])
        if width >= own:
            continue
        return width + 4 if CONTAINER.match(line) else width
    return 0


def closing_fence(lines: list[str], start: int, fence: str) -> int:
    closing = re.compile(rf"^[ \t]*{re.escape(fence[0])}{{{len(fence)},}}[ \t]*$")
    for j in range(start, len(lines)):
        if closing.match(lines[j]):
            return j
    return len(lines)  # an unclosed fence runs to the end, as in CommonMark
