"""Find the ```tinydag fenced blocks of a page and read their YAML, remembering line numbers.

A block declares the default graph and the presets:

    expression: "(a + b) * c"
    values: {a: 2, b: -3, c: 10}
    presets:
      - label: "Sum times a factor"
        expression: "(a + b) * c"
        values: {a: 2, b: -3, c: 10}

Every error names the line of the offending key in the Markdown file, so an author can act on it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import yaml
from yaml.constructor import SafeConstructor

FENCE_OPEN = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})[ \t]*(?P<info>[^\s`]*)[^`]*$")
LANGUAGE = "tinydag"
BLOCK_KEYS = ("expression", "values", "presets")
PRESET_KEYS = ("label", "expression", "values")
LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when present: same nodes, faster


class BlockError(Exception):
    """An author's mistake in a block, at a line of the Markdown text (1-based)."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(message)
        self.line = line
        self.message = message


@dataclass(frozen=True)
class Graph:
    """One expression with its leaf values: the default graph or a preset."""

    expression: str
    values: dict[str, float]
    line: int  # of the `expression` key: where engine errors point
    values_line: int  # of the `values` key (or of the expression when there is none)
    label: str | None = None  # presets only


@dataclass(frozen=True)
class Block:
    start: int  # index of the opening fence in the page's lines
    end: int  # index just past the closing fence
    indent: str
    line: int  # 1-based line of the opening fence
    default: Graph
    presets: list[Graph] = field(default_factory=list)


def find_blocks(markdown: str, first_line: int = 1) -> list[Block]:
    """Every top-level ```tinydag block; `first_line` is the file line of markdown's first line."""
    lines = markdown.split("\n")
    blocks: list[Block] = []
    i = 0
    while i < len(lines):
        opening = FENCE_OPEN.match(lines[i])
        if not opening:
            i += 1
            continue
        fence, indent = opening["fence"], opening["indent"]
        close = _closing_fence(lines, i + 1, fence)
        if opening["info"] == LANGUAGE:
            body = "\n".join(line[len(indent):] if line.startswith(indent) else line
                             for line in lines[i + 1:close])
            fence_line = first_line + i
            default, presets = parse_block(body, fence_line + 1)
            blocks.append(Block(i, min(close + 1, len(lines)), indent, fence_line, default, presets))
        i = close + 1  # fences inside other fences (a listing of Markdown) are not blocks
    return blocks


def _closing_fence(lines: list[str], start: int, fence: str) -> int:
    closing = re.compile(rf"^[ \t]*{re.escape(fence[0])}{{{len(fence)},}}[ \t]*$")
    for j in range(start, len(lines)):
        if closing.match(lines[j]):
            return j
    return len(lines)  # an unclosed fence runs to the end, as in CommonMark


def parse_block(body: str, first_line: int) -> tuple[Graph, list[Graph]]:
    """The block's YAML -> (default graph, presets); BlockError at the offending line."""
    try:
        root = yaml.compose(body, Loader=LOADER)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        last = first_line + body.rstrip("\n").count("\n")  # "unexpected end" points past the block
        line = min(first_line + (mark.line if mark else 0), last)
        raise BlockError(line, f"the sandbox block is not valid YAML: {_yaml_problem(exc)}") from None
    if not isinstance(root, yaml.MappingNode):
        raise BlockError(first_line, "a sandbox block is a YAML mapping with the keys "
                         + ", ".join(BLOCK_KEYS))
    keys = _mapping(root, BLOCK_KEYS, "sandbox block", first_line)
    if "expression" not in keys:
        raise BlockError(first_line, "the sandbox block has no `expression`")
    default = _graph(keys, first_line, label=None)
    presets: list[Graph] = []
    if "presets" in keys:
        key_node, seq = keys["presets"]
        if not isinstance(seq, yaml.SequenceNode):
            raise BlockError(_line(key_node, first_line), "`presets` is a list of "
                             "{label, expression, values}")
        for item in seq.value:
            here = _line(item, first_line)
            if not isinstance(item, yaml.MappingNode):
                raise BlockError(here, "each preset is a mapping with label, expression and values")
            entry = _mapping(item, PRESET_KEYS, "preset", first_line)
            for required in ("label", "expression"):
                if required not in entry:
                    raise BlockError(here, f"this preset has no `{required}`")
            label = _string(entry["label"], first_line)
            presets.append(_graph(entry, first_line, label=label))
    return default, presets


def _graph(keys: dict, first_line: int, label: str | None) -> Graph:
    expression_key, _ = keys["expression"]
    expression = _string(keys["expression"], first_line)
    line = _line(expression_key, first_line)
    values: dict[str, float] = {}
    values_line = line
    if "values" in keys:
        values_key, mapping = keys["values"]
        values_line = _line(values_key, first_line)
        if not isinstance(mapping, yaml.MappingNode):
            raise BlockError(values_line, "`values` maps variable names to numbers, like {a: 2, b: -3}")
        for name_node, number_node in mapping.value:
            number = _construct(number_node)
            name = name_node.value
            if not isinstance(number, int | float) or isinstance(number, bool):
                raise BlockError(_line(name_node, first_line),
                                 f"the value of `{name}` must be a number, not {number_node.value!r}")
            if name in values:
                raise BlockError(_line(name_node, first_line), f"`{name}` is given twice in `values`")
            values[name] = float(number)
    return Graph(expression, values, line, values_line, label)


def _mapping(node: yaml.MappingNode, allowed: tuple[str, ...], what: str, first_line: int) -> dict:
    """key -> (key node, value node); unknown or repeated keys are errors at their line."""
    result: dict[str, tuple[yaml.Node, yaml.Node]] = {}
    for key_node, value_node in node.value:
        key = key_node.value
        if key not in allowed:
            raise BlockError(_line(key_node, first_line), f"unknown key `{key}` in a {what} "
                             f"(allowed: {', '.join(allowed)})")
        if key in result:
            raise BlockError(_line(key_node, first_line), f"`{key}` appears twice in a {what}")
        result[key] = (key_node, value_node)
    return result


def _string(pair: tuple[yaml.Node, yaml.Node], first_line: int) -> str:
    key_node, value_node = pair
    if not isinstance(value_node, yaml.ScalarNode) or not value_node.value.strip():
        raise BlockError(_line(key_node, first_line), f"`{key_node.value}` must be non-empty text")
    return value_node.value


def _construct(node: yaml.Node) -> object:
    """The Python value of a composed node, as yaml.safe_load would give it."""
    return SafeConstructor().construct_object(node, deep=True)


def _line(node: yaml.Node, first_line: int) -> int:
    return first_line + node.start_mark.line


def _yaml_problem(exc: yaml.YAMLError) -> str:
    problem = getattr(exc, "problem", None)
    return problem or str(exc).splitlines()[0]
