"""Find the ```tinydag fenced blocks of a page and read their YAML, remembering line numbers.

A block declares the default graph and the presets:

    expression: "(a + b) * c"
    values: {a: 2, b: -3, c: 10}
    presets:
      - label: "Sum times a factor"
        expression: "(a + b) * c"
        values: {a: 2, b: -3, c: 10}

`compact: true` makes a small player of the default graph (no expression field, presets, sliders,
tables or nudge) to stand beside the prose that explains that graph; it takes no presets.
Sandboxes are named by kind and position, so adding a compact one never renames the full ones:
the full sandboxes of a page are `tinydag-1`, `tinydag-2`, ... (links and shared moments use these),
the compact ones `tinydag-compact-1`, ...

Every error names the line of the offending key in the Markdown file, so an author can act on it.
The YAML is read by safe_yaml (no tags, no anchors, plain keys), and sizes are checked here: how many
presets, how long a label, whether a number fits in a float.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import yaml

from ..base.fences import BlockError, fences
from ..base.safe_yaml import YamlProblem, compose, construct, line_of

LANGUAGE = "tinydag"
BLOCK_KEYS = ("expression", "values", "presets", "compact")
PRESET_KEYS = ("label", "expression", "values")
MAX_PRESETS = 20  # more would not fit the player's menu
MAX_LABEL = 80  # characters of a preset's label


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
    compact: bool = False
    sandbox_id: str = ""  # tinydag-<n> or tinydag-compact-<n>: see the module's docstring


def find_blocks(markdown: str, first_line: int = 1) -> list[Block]:
    """Every top-level ```tinydag block; `first_line` is the file line of markdown's first line."""
    lines = markdown.split("\n")
    blocks: list[Block] = []
    for fence in fences(lines, first_line):
        if fence.info != LANGUAGE:
            continue
        fence_line = first_line + fence.start
        if fence.too_deep:
            raise BlockError(fence_line, "this ```tinydag fence is indented by 4 spaces or more, "
                             "so Markdown shows it as an indented code block, not a sandbox: indent it "
                             "as the list item or admonition it belongs to, or not at all")
        default, presets, compact = parse_block(fence.body, fence_line + 1)
        kind = "tinydag-compact" if compact else "tinydag"
        number = 1 + sum(block.compact == compact for block in blocks)
        blocks.append(Block(fence.start, fence.end, fence.indent, fence_line, default, presets,
                            compact, f"{kind}-{number}"))
    return blocks


def parse_block(body: str, first_line: int) -> tuple[Graph, list[Graph], bool]:
    """The block's YAML -> (default graph, presets, compact); BlockError at the offending line."""
    try:
        root = compose(body)
    except YamlProblem as problem:
        prefix = "the sandbox block is " if problem.syntax else ""
        raise BlockError(first_line + problem.line, prefix + problem.message) from None
    if not isinstance(root, yaml.MappingNode):
        raise BlockError(first_line, "a sandbox block is a YAML mapping with the keys "
                         + ", ".join(BLOCK_KEYS))
    keys = _mapping(root, BLOCK_KEYS, "sandbox block", first_line)
    if "expression" not in keys:
        raise BlockError(first_line, "the sandbox block has no `expression`")
    default = _graph(keys, first_line, label=None)
    compact = _compact(keys, first_line)
    presets: list[Graph] = []
    if compact and "presets" in keys:
        raise BlockError(line_of(keys["presets"][0], first_line), "a compact sandbox (`compact: true`) has "
                         "no presets menu: remove `presets`, or `compact` to make it a full sandbox")
    if "presets" in keys:
        key_node, seq = keys["presets"]
        if not isinstance(seq, yaml.SequenceNode):
            raise BlockError(line_of(key_node, first_line), "`presets` is a list of "
                             "{label, expression, values}")
        if len(seq.value) > MAX_PRESETS:
            raise BlockError(line_of(key_node, first_line), f"a sandbox has at most {MAX_PRESETS} presets, "
                             f"not {len(seq.value)}")
        for item in seq.value:
            here = line_of(item, first_line)
            if not isinstance(item, yaml.MappingNode):
                raise BlockError(here, "each preset is a mapping with label, expression and values")
            entry = _mapping(item, PRESET_KEYS, "preset", first_line)
            for required in ("label", "expression"):
                if required not in entry:
                    raise BlockError(here, f"this preset has no `{required}`")
            label = _string(entry["label"], first_line)
            if len(label) > MAX_LABEL:
                raise BlockError(line_of(entry["label"][0], first_line),
                                 f"a preset's label has at most {MAX_LABEL} characters, not {len(label)}")
            presets.append(_graph(entry, first_line, label=label))
    return default, presets, compact


def _compact(keys: dict, first_line: int) -> bool:
    if "compact" not in keys:
        return False
    key_node, value_node = keys["compact"]
    value = construct(value_node) if isinstance(value_node, yaml.ScalarNode) else None
    if not isinstance(value, bool):
        shown = repr(value_node.value) if isinstance(value_node, yaml.ScalarNode) else "a list or a mapping"
        raise BlockError(line_of(key_node, first_line), f"`compact` is true or false, not {shown}")
    return value


def _graph(keys: dict, first_line: int, label: str | None) -> Graph:
    expression_key, _ = keys["expression"]
    expression = _string(keys["expression"], first_line)
    line = line_of(expression_key, first_line)
    values: dict[str, float] = {}
    values_line = line
    if "values" in keys:
        values_key, mapping = keys["values"]
        values_line = line_of(values_key, first_line)
        if not isinstance(mapping, yaml.MappingNode):
            raise BlockError(values_line, "`values` maps variable names to numbers, like {a: 2, b: -3}")
        for name_node, number_node in mapping.value:
            name, here = name_node.value, line_of(name_node, first_line)
            number = construct(number_node) if isinstance(number_node, yaml.ScalarNode) else None
            if not isinstance(number, int | float) or isinstance(number, bool):
                shown = (repr(number_node.value) if isinstance(number_node, yaml.ScalarNode)
                         else "a list or a mapping")
                raise BlockError(here, f"the value of `{name}` must be a number, not {shown}")
            if name in values:
                raise BlockError(here, f"`{name}` is given twice in `values`")
            if isinstance(number, int) and abs(number) > 2**1023:  # float() would raise OverflowError
                raise BlockError(here, f"the value of `{name}` is too large for a float")
            if not math.isfinite(number):
                raise BlockError(here, f"the value of `{name}` must be a finite number, "
                                 f"not {number_node.value}")
            values[name] = float(number)
    return Graph(expression, values, line, values_line, label)


def _mapping(node: yaml.MappingNode, allowed: tuple[str, ...], what: str, first_line: int) -> dict:
    """key -> (key node, value node); unknown or repeated keys are errors at their line."""
    result: dict[str, tuple[yaml.Node, yaml.Node]] = {}
    for key_node, value_node in node.value:
        key = key_node.value
        if key not in allowed:
            raise BlockError(line_of(key_node, first_line), f"unknown key `{key}` in a {what} "
                             f"(allowed: {', '.join(allowed)})")
        if key in result:
            raise BlockError(line_of(key_node, first_line), f"`{key}` appears twice in a {what}")
        result[key] = (key_node, value_node)
    return result


def _string(pair: tuple[yaml.Node, yaml.Node], first_line: int) -> str:
    key_node, value_node = pair
    if not isinstance(value_node, yaml.ScalarNode) or not value_node.value.strip():
        raise BlockError(line_of(key_node, first_line), f"`{key_node.value}` must be non-empty text")
    return value_node.value
