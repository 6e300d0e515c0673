"""YAML as authors and translators write it: mappings, lists and plain scalars, every problem at a line.

Sandbox blocks and UI-strings files need nothing more. So, before any node is composed, tags
(`!!python/object`, `!!int`, `!custom`), anchors and aliases (`&v`, `*v`) are refused, and so are
characters YAML forbids (a NUL byte, most control characters); keys must be plain scalars, not lists
or mappings. Nothing is ever constructed from an author's tag. Lines are 0-based within the text.
"""

from __future__ import annotations

import re

import yaml
from yaml.constructor import SafeConstructor

LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when present: same nodes, faster
# What YAML 1.1 does not allow in a stream (tab, LF, CR and NEL are fine).
FORBIDDEN = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x84\x86-\x9f\ud800-\udfff\ufffe\uffff]")
SHORT_TAG = "tag:yaml.org,2002:"


class YamlProblem(Exception):
    """What is wrong (a phrase that reads after "file:line: ") and on which line of the text."""

    def __init__(self, line: int, message: str, *, syntax: bool = False) -> None:
        super().__init__(message)
        self.line = line
        self.message = message
        self.syntax = syntax  # the text does not parse as YAML at all


def compose(text: str) -> yaml.Node | None:
    """The node tree of `text` (None when it is empty); YamlProblem for anything outside the subset."""
    last = text.rstrip("\n").count("\n")  # libyaml may point just past the end: clamp to the text
    if bad := FORBIDDEN.search(text):
        hint = " (is the file saved as UTF-16? save it as UTF-8)" if bad[0] == "\x00" else ""
        raise YamlProblem(text.count("\n", 0, bad.start()),
                          f"the character U+{ord(bad[0]):04X} is not allowed in YAML{hint}")
    try:
        events = list(yaml.parse(text, Loader=LOADER))
        for event in events:
            _check(event)
        root = yaml.compose(text, Loader=LOADER)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        problem = getattr(exc, "problem", None) or getattr(exc, "reason", None) or str(exc).splitlines()[0]
        raise YamlProblem(min(mark.line if mark else 0, last), f"not valid YAML: {problem}",
                          syntax=True) from None
    stack = [root] if root is not None else []
    while stack:  # iterative: nesting depth is the author's choice
        node = stack.pop()
        if isinstance(node, yaml.MappingNode):
            for key, value in node.value:
                if not isinstance(key, yaml.ScalarNode):
                    raise YamlProblem(key.start_mark.line,
                                      "a key must be plain text, not a list or a mapping")
                stack.append(value)
        elif isinstance(node, yaml.SequenceNode):
            stack.extend(node.value)
    return root


def _check(event: yaml.Event) -> None:
    line = event.start_mark.line if event.start_mark else 0
    if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None):
        raise YamlProblem(line, "YAML anchors and aliases (&name, *name) are not allowed: "
                          "write the value out")
    tag = getattr(event, "tag", None)
    if tag is not None:  # only an explicit tag is reported by the parser
        shown = "!!" + tag[len(SHORT_TAG):] if tag.startswith(SHORT_TAG) else tag
        raise YamlProblem(line, f"YAML tags such as `{shown}` are not allowed: write a plain value "
                          "(in quotes if it is text)")


# A plain 1e200 (YAML 1.1 reads it as text): a number, as in the expression.
PLAIN_NUMBER = re.compile(r"[-+]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)[eE][-+]?[0-9]+")


def construct(node: yaml.ScalarNode) -> object:
    """The Python value of a scalar, as yaml.safe_load gives it (tags are refused before), except that
    a plain 1e200 is a number, as in the expression, not text (YAML 1.1 wants 1.0e+200)."""
    if not node.style and PLAIN_NUMBER.fullmatch(node.value):  # plain: style None or ""
        return float(node.value)
    try:
        return SafeConstructor().construct_object(node)
    except (ValueError, yaml.YAMLError):  # a timestamp-looking scalar that is no date, say
        return None


def line_of(node: yaml.Node, first_line: int) -> int:
    return first_line + node.start_mark.line
