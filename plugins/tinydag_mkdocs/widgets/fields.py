"""What every widget kind shares: the author's-mistake error and the checks a kind's parse() runs on
the keys of its fence (the registry in registry.py dispatches to the kinds, which import only this)."""

from __future__ import annotations

import math

from ..base.fences import BlockError


class WidgetError(BlockError):
    """An author's mistake in a widget fence, at a line of the Markdown file (1-based)."""


def check_keys(keys: dict[str, object], allowed: tuple[str, ...], required: tuple[str, ...], kind: str,
               line: int, lines: dict[str, int]) -> None:
    """Unknown keys fail at their line, a missing required key at the fence's line."""
    for key in keys:
        if key not in allowed:
            raise WidgetError(lines[key], f"unknown key `{key}` in a {kind} widget "
                              f"(allowed: {', '.join(allowed)})")
    for key in required:
        if key not in keys:
            raise WidgetError(line, f"the {kind} widget has no `{key}`")


def number(value: object, where: str, line: int) -> float:
    """A finite number, or WidgetError naming `where` (a key) at `line`."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        shown = "a list or a mapping" if isinstance(value, list | dict) else repr(value)
        raise WidgetError(line, f"`{where}` must be a number, not {shown}")
    if isinstance(value, int) and abs(value) > 2**1023:
        raise WidgetError(line, f"`{where}` is too large for a float")
    if not math.isfinite(value):
        raise WidgetError(line, f"`{where}` must be a finite number, not {value}")
    return float(value)


def text(value: object, where: str, line: int) -> str:
    """Non-empty text (a plain YAML number, like `3`, is taken as its text)."""
    if isinstance(value, bool) or value is None or isinstance(value, list | dict):
        raise WidgetError(line, f"`{where}` must be non-empty text")
    shown = value if isinstance(value, str) else _number_text(value)
    if not str(shown).strip():
        raise WidgetError(line, f"`{where}` must be non-empty text")
    return str(shown)


def _number_text(value: object) -> str:
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    return str(value)
