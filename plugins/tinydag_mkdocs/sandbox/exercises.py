"""Exercise links: a setup written in the Markdown that opens in a sandbox of the same page.

    [Open in the sandbox]{open-in-sandbox expr="relu(a * b)" vals="a=2, b=3" dir=backward t=end}

becomes a plain link whose address is the sandbox's shared moment (url.ts reads it):

    <a class="tinydag-open" href="#tinydag-1?expr=relu%28a%20*%20b%29&vals=a%3A2%2Cb%3A3&dir=backward&t=6"
       data-open-in-sandbox="tinydag-1">Open in the sandbox</a>

Translators translate the text in brackets and keep the braces as they are. Keys: `expr` (required), `vals`
(every variable of the expression, `a=1, b=-2`), `dir` (forward or backward; forward if left out), `t` (a step
of the timeline, or `end`; 0 if left out), `sandbox` (the id of a full sandbox of the page; its first one if
left out), `open` (`predict` or `nudge`: the panel the exercise asks the learner to use, unfolded when the
link lands; none if left out). The build runs each expression through the engine: a link to a setup that does
not compute fails it at the link's line. The sandbox gets an empty element whose id is that address, so that
without JavaScript the link still scrolls to the sandbox.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from html import escape
from urllib.parse import quote

from ..base.fences import FENCE_OPEN, BlockError, closing_fence

LINK = re.compile(r"\[(?P<text>[^\[\]\n]+)\]\{open-in-sandbox(?P<attrs>[^{}\n]*)\}")
MARKER = re.compile(r"\{\s*open-in-sandbox\b")
ATTRIBUTE = re.compile(r'[ \t]+(?P<key>[A-Za-z_-]+)[ \t]*=[ \t]*(?:"(?P<quoted>[^"]*)"|(?P<bare>[^\s"]+))')
INLINE_CODE = re.compile(r"(`+).*?\1")
KEYS = ("expr", "vals", "dir", "t", "sandbox", "open")
PANELS = ("predict", "nudge")  # what `open` may unfold (src/player/page/url.ts)
PAIR = re.compile(r"^\s*(?P<name>[A-Za-z_])\s*[=:]\s*(?P<number>\S+)\s*$")
NUMBER = re.compile(r"^[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$")
MAX_MAGNITUDE = 1e6  # the player ignores larger values in an address (src/player/page/url.ts)
SYNTAX = '[text]{open-in-sandbox expr="…" vals="a=1, b=2" dir=backward t=0}'


@dataclass(frozen=True)
class ExerciseLink:
    line: int  # 1-based, in the Markdown file
    text: str
    sandbox: str
    expression: str
    values: dict[str, float]
    direction: str
    time: float | None  # None: the end of the timeline
    opens: str = ""  # a panel the link unfolds (PANELS), or none


# The engine's verdict on a setup: the timeline, or BlockError(line, message).
Compute = Callable[[str, dict[str, float], int], dict]


def expand_links(markdown: str, first_line: int, sandbox_ids: list[str],
                 compute: Compute) -> tuple[str, dict[str, list[str]]]:
    """Markdown with every exercise link expanded, and the moment addresses each sandbox must answer
    (sandbox id -> fragments, without '#'). Raises BlockError at the line of a broken link."""
    lines = markdown.split("\n")
    targets: dict[str, list[str]] = {}
    for i in _prose_lines(lines):
        if "open-in-sandbox" not in lines[i]:
            continue
        line = first_line + i
        masked = INLINE_CODE.sub(lambda m: "\0" * len(m[0]), lines[i])  # `code` shows the syntax
        pieces, last = [], 0
        for match in LINK.finditer(masked):
            link = _parse(match, lines[i], line, sandbox_ids)
            fragment = moment_fragment(link, compute(link.expression, link.values, line))
            if fragment not in targets.setdefault(link.sandbox, []):
                targets[link.sandbox].append(fragment)
            pieces += [lines[i][last:match.start()], _anchor(link, fragment)]
            last = match.end()
        rest = LINK.sub(lambda m: "\0" * len(m[0]), masked)
        if MARKER.search(rest):
            raise BlockError(line, f"this exercise link is not written as {SYNTAX}: keep the text in "
                             "[brackets] right before the {braces}, on one line")
        lines[i] = "".join(pieces) + lines[i][last:]
    return "\n".join(lines), targets


def _prose_lines(lines: list[str]):
    """Indexes of the lines outside fenced code."""
    i = 0
    while i < len(lines):
        opening = FENCE_OPEN.match(lines[i])
        if opening:
            i = closing_fence(lines, i + 1, opening["fence"]) + 1
            continue
        yield i
        i += 1


def _parse(match: re.Match, source: str, line: int, sandbox_ids: list[str]) -> ExerciseLink:
    attrs = source[match.start("attrs"):match.end("attrs")]
    found: dict[str, str] = {}
    position = 0
    for attribute in ATTRIBUTE.finditer(attrs):
        if attribute.start() != position:
            break
        key = attribute["key"]
        if key not in KEYS:
            raise BlockError(line, f"unknown key `{key}` in an exercise link (allowed: {', '.join(KEYS)})")
        if key in found:
            raise BlockError(line, f"`{key}` appears twice in an exercise link")
        found[key] = attribute["quoted"] if attribute["quoted"] is not None else attribute["bare"]
        position = attribute.end()
    if attrs[position:].strip():
        raise BlockError(line, f"cannot read `{attrs[position:].strip()}` in an exercise link: write "
                         'key=value or key="value with spaces", as in ' + SYNTAX)
    expression = found.get("expr", "").strip()
    if not expression:
        raise BlockError(line, 'an exercise link needs the expression it opens: expr="…"')
    direction = found.get("dir", "forward")
    if direction not in ("forward", "backward"):
        raise BlockError(line, f"`dir` is forward or backward, not {direction!r}")
    time = _time(found.get("t", "0"), line)
    opens = found.get("open", "")
    if "open" in found and opens not in PANELS:
        raise BlockError(line, f"`open` is {' or '.join(PANELS)}, not {opens!r}")
    sandbox = found.get("sandbox") or next((s for s in sandbox_ids if not s.startswith("tinydag-compact")),
                                           "")
    if sandbox not in sandbox_ids:
        named = f"the sandbox {sandbox!r}" if sandbox else "a full sandbox"
        raise BlockError(line, f"this exercise link opens {named}, but the page has "
                         + (f"only {', '.join(sandbox_ids)}" if sandbox_ids else "no ```tinydag block"))
    return ExerciseLink(line, source[match.start("text"):match.end("text")], sandbox, expression,
                        _values(found.get("vals", ""), line), direction, time, opens)


def _time(text: str, line: int) -> float | None:
    if text == "end":
        return None
    if not NUMBER.match(text) or not math.isfinite(float(text)) or float(text) < 0:
        raise BlockError(line, f"`t` is a step of the timeline (0 or more) or `end`, not {text!r}")
    return float(text)


def _values(text: str, line: int) -> dict[str, float]:
    values: dict[str, float] = {}
    for pair in filter(str.strip, text.split(",")):
        m = PAIR.match(pair)
        if not m or not NUMBER.match(m["number"]):
            raise BlockError(line, f"cannot read {pair.strip()!r} in `vals`: write a=1, b=-2.5 "
                             "(single-letter names, numbers with a decimal point)")
        name, number = m["name"], float(m["number"])
        if name in values:
            raise BlockError(line, f"`{name}` is given twice in `vals`")
        if not math.isfinite(number) or abs(number) > MAX_MAGNITUDE:
            raise BlockError(line, f"the value of `{name}` in `vals` must lie within ±{MAX_MAGNITUDE:g}, "
                             "as a link carries it")
        values[name] = number
    return values


def check_variables(link: ExerciseLink, timeline: dict) -> None:
    """Every variable of the expression has a value in the link, and no other name has."""
    names = [v["name"] for v in timeline["variables"]]
    missing = [n for n in names if n not in link.values]
    extra = sorted(set(link.values) - set(names))
    if missing:
        raise BlockError(link.line, f"the exercise link gives no value to {', '.join(missing)}: "
                         f'add it to vals (expression "{link.expression}")')
    if extra:
        raise BlockError(link.line, f"`vals` sets {', '.join(extra)}, which the expression "
                         f'"{link.expression}" does not use')


def moment_fragment(link: ExerciseLink, timeline: dict) -> str:
    """The shared-moment address of the link's setup, written as src/player/page/url.ts writes it."""
    check_variables(link, timeline)
    steps = len(timeline["forward"]) if link.direction == "forward" else 1 + len(timeline["backward"])
    time = steps if link.time is None else min(link.time, steps)
    vals = ",".join(f"{name}:{js_number(value)}" for name, value in link.values.items())
    query = [("expr", link.expression), ("vals", vals), ("dir", link.direction), ("t", js_number(time)),
             ("open", link.opens)]
    return f"{_component(link.sandbox)}?" + "&".join(f"{k}={_component(v)}" for k, v in query if v)


def _component(text: str) -> str:
    """As URLSearchParams writes a value, with a space as %20 (url.ts)."""
    return quote(text, safe="*").replace("~", "%7E")


def js_number(x: float) -> str:
    """String(x) in JavaScript, for the numbers a link carries."""
    if x == int(x) and abs(x) < 1e21:
        return str(int(x))
    text = repr(x)
    mantissa, _, exponent = text.partition("e")
    return f"{mantissa}e{int(exponent):+d}" if exponent else text


def _anchor(link: ExerciseLink, fragment: str) -> str:
    return (f'<a class="tinydag-open" href="#{escape(fragment)}" '
            f'data-open-in-sandbox="{escape(link.sandbox)}">{link.text}</a>')
