"""Fuzz table: malformed sandbox blocks and UI-strings files, each through a real build of a small site.

Every case must fail `mkdocs build` with `file:line: message` naming the real line (and the key, for
strings), never a traceback. Blocks sit in docs/lesson.md after "# Lesson" and a blank line, so the
fence is line 3 and the block's first YAML line is line 4.
"""

from __future__ import annotations

import json

import pytest
import yaml

from tests.test_plugin import PAGES, STRINGS, Site, _restore_mkdocs_state, build_error  # noqa: F401
from tinydag_mkdocs.sandbox.blocks import find_blocks

HUGE = "1" + "0" * 400

# (id, block body, line, message fragment)
BLOCKS = [
    ("python object tag", 'expression: a\nvalues: {a: !!python/object/apply:os.system ["echo pwned"]}\n', 5,
     "YAML tags such as `!!python/object/apply:os.system` are not allowed"),
    ("python name tag", "expression: !!python/name:os.system a\n", 4, "`!!python/name:os.system`"),
    ("custom tag", "expression: a\nvalues: {a: !mine 1}\n", 5, "`!mine`"),
    ("non-specific tag", "expression: ! a\n", 4, "YAML tags"),
    ("int tag on text", 'expression: a\nvalues: {a: !!int "x"}\n', 5, "`!!int`"),
    ("float tag on text", 'expression: a\nvalues: {a: !!float "abc"}\n', 5, "`!!float`"),
    ("timestamp tag", 'expression: a\nvalues: {a: !!timestamp "yesterday"}\n', 5, "`!!timestamp`"),
    ("binary tag", "expression: !!binary aGVsbG8=\n", 4, "`!!binary`"),
    ("set tag", "expression: a\nvalues: !!set {a}\n", 5, "`!!set`"),
    ("recursive anchor", "expression: a\nvalues: &v {a: *v}\n", 5, "anchors and aliases"),
    ("alias of an expression", 'expression: &e "a"\npresets:\n  - label: x\n    expression: *e\n', 4,
     "anchors and aliases"),
    ("merge key", "expression: a\nvalues: {<<: {a: 1}}\n", 5, "must be a number, not a list or a mapping"),
    ("list as a key", "expression: a\nvalues: {? [a, b] : 1}\n", 5, "a key must be plain text"),
    ("mapping as a key", "expression: a\nvalues:\n  ? {a: 1}\n  : 1\n", 6, "a key must be plain text"),
    ("list as a top-level key", "[x]: 1\nexpression: a\n", 4, "a key must be plain text"),
    ("400-digit integer", f"expression: a\nvalues: {{a: {HUGE}}}\n", 5, "too large for a float"),
    ("infinity", "expression: a\nvalues: {a: .inf}\n", 5, "must be a finite number"),
    ("nan", "expression: a\nvalues: {a: .nan}\n", 5, "must be a finite number"),
    ("float that overflows", "expression: a\nvalues: {a: 1e999}\n", 5, "must be a finite number"),
    ("date as a value", "expression: a\nvalues: {a: 2001-12-14}\n", 5, "must be a number"),
    ("impossible date", "expression: a\nvalues: {a: 2001-13-45}\n", 5, "must be a number"),
    ("bool as a value", "expression: a\nvalues: {a: yes}\n", 5, "must be a number"),
    ("null as a value", "expression: a\nvalues: {a: null}\n", 5, "must be a number"),
    ("text as a value", "expression: a\nvalues: {a: two}\n", 5, "must be a number"),
    ("list as a value", "expression: a\nvalues: {a: [1]}\n", 5, "must be a number"),
    ("values as a list", "expression: a\nvalues: [1, 2]\n", 5, "`values` maps variable names"),
    ("value twice", "expression: a\nvalues: {a: 1, a: 2}\n", 5, "`a` is given twice"),
    ("unused value", "expression: a\nvalues: {a: 1, b: 2}\n", 5, "`values` sets b"),
    ("NUL byte on the third line", "expression: a\nvalues: {a: 1}\n# \x00\n", 6, "U+0000"),
    ("control character", "expression: a\x07\n", 4, "U+0007"),
    ("unclosed flow list", "expression: a\nvalues: [a\n", 5, "not valid YAML"),
    ("unclosed quote", 'expression: "a\n', 4, "not valid YAML"),
    ("tab indentation", "expression: a\nvalues:\n\ta: 1\n", 6, "not valid YAML"),
    ("bad indentation", "expression: a\n  values: {a: 1}\n", 5, "not valid YAML"),
    ("empty block", "", 4, "a sandbox block is a YAML mapping"),
    ("a list, not a mapping", "- expression: a\n", 4, "a sandbox block is a YAML mapping"),
    ("plain text", "a + b\n", 4, "a sandbox block is a YAML mapping"),
    ("no expression", "values: {a: 1}\n", 4, "has no `expression`"),
    ("empty expression", 'expression: ""\n', 4, "must be non-empty text"),
    ("expression as a list", "expression: [a, b]\n", 4, "must be non-empty text"),
    ("expression as a mapping", "expression: {a: 1}\n", 4, "must be non-empty text"),
    ("unknown key", "expression: a\ncolour: red\n", 5, "unknown key `colour`"),
    ("key twice", "expression: a\nexpression: b\n", 5, "appears twice"),
    ("presets as a mapping", "expression: a\npresets: {label: x}\n", 5, "`presets` is a list"),
    ("preset as text", "expression: a\npresets:\n  - just text\n", 6, "each preset is a mapping"),
    ("preset without label", "expression: a\npresets:\n  - expression: a\n", 6, "has no `label`"),
    ("preset without expression", "expression: a\npresets:\n  - label: x\n", 6, "has no `expression`"),
    ("preset with an unknown key", "expression: a\npresets:\n  - label: x\n    expression: a\n    y: 1\n", 8,
     "unknown key `y`"),
    ("too many presets", "expression: a\npresets:\n" + "  - {label: x, expression: a}\n" * 21, 5,
     "at most 20 presets"),
    ("label too long", f"expression: a\npresets:\n  - label: {'x' * 81}\n    expression: a\n", 6,
     "at most 80 characters"),
    ("label as a list", "expression: a\npresets:\n  - label: [x]\n    expression: a\n", 6,
     "must be non-empty text"),
    ("expression too long", f"expression: {'a+' * 150}a\n", 4, "longer than 200 characters"),
    ("syntax error", 'expression: "a +"\n', 4, "ends too early"),
    ("variable exponent", 'expression: "a ** b"\n', 4, "The exponent must be a constant"),
    ("domain error", 'expression: "log(a)"\nvalues: {a: -1}\n', 5, "log is defined only for positive"),
    ("overflow in a value", 'expression: "a * b"\nvalues: {a: 1e200, b: 1e200}\n', 5, "grows beyond"),
    ("overflowing edge derivative (F1)",
     'expression: "(a / b) * c"\nvalues: {a: 1e200, b: 1e-100, c: 1e-300}\n', 5,
     "grows beyond what a float can hold"),
    ("overflowing constants (F1)", 'expression: "0*(10/1e-154)"\n', 4, "grows beyond"),
    ("preset that overflows", 'expression: a\npresets:\n  - label: x\n    expression: "exp(a)"\n'
     "    values: {a: 1000}\n", 8, "grows beyond"),
    ("exponent notation is a number", 'expression: "a"\nvalues: {a: 1e-5, b: -2E3}\n', 5, "`values` sets b"),
    ("many nested lists", "expression: a\nvalues: " + "[" * 500 + "]" * 500 + "\n", 5, "`values` maps"),
]

# (id, Markdown of docs/lesson.md, line, message fragment): blocks that Markdown shows as code (F7)
PLACES = [
    ("indented code block after a paragraph",
     "# Lesson\n\nText.\n\n    ```tinydag\n    expression: a\n    ```\n", 5, "indented by 4 spaces or more"),
    ("indented code block at the top", "    ```tinydag\n    expression: a\n    ```\n", 1,
     "indented code block"),
    ("too deep in a list item",
     "# Lesson\n\n- item\n\n          ```tinydag\n          expression: a\n          ```\n", 5,
     "indented by 4 spaces or more"),
    ("inside a blockquote", "# Lesson\n\n> ```tinydag\n> expression: a\n> ```\n", 3, "inside a blockquote"),
    ("inside a nested blockquote", "# Lesson\n\n> > ~~~tinydag\n> > expression: a\n> > ~~~\n", 3,
     "blockquote"),
]


def lesson(body: str) -> str:
    return f"# Lesson\n\n```tinydag\n{body}```\n"


@pytest.mark.parametrize(("body", "line", "message"), [c[1:] for c in BLOCKS], ids=[c[0] for c in BLOCKS])
def test_a_malformed_block_fails_at_its_line(tmp_path, caplog, body, line, message):
    site = Site(tmp_path, {"index.md": "# Home\n", "lesson.md": lesson(body)}, languages=("en",))
    log = build_error(site, caplog)
    assert f"docs/lesson.md:{line}: " in log and message in log, log
    assert "Traceback" not in log


@pytest.mark.parametrize(("markdown", "line", "message"), [c[1:] for c in PLACES], ids=[c[0] for c in PLACES])
def test_a_block_shown_as_code_is_refused_at_its_line(tmp_path, caplog, markdown, line, message):
    site = Site(tmp_path, {"index.md": "# Home\n", "lesson.md": markdown}, languages=("en",))
    log = build_error(site, caplog)
    assert f"docs/lesson.md:{line}: " in log and message in log, log


def test_a_quoted_block_inside_a_listing_is_only_text():
    markdown = "````markdown\n> ```tinydag\n> expression: a\n> ```\n````\n"
    assert find_blocks(markdown) == []


def test_a_block_in_a_list_item_is_still_a_sandbox(tmp_path):
    block = "```tinydag\nexpression: a * b\nvalues: {a: 2, b: 3}\n```\n"
    indented = "".join("    " + line if line else line for line in block.splitlines(keepends=True))
    site = Site(tmp_path, {"index.md": f"# Home\n\n- Try it:\n\n{indented}"}, languages=("en",))
    site.build()
    assert 'class="tinydag-data"' in site.page("index.html")


def strings_text(lang: str) -> str:
    return yaml.safe_dump(STRINGS[lang], allow_unicode=True)


GOOD_RU = strings_text("ru")
RU_LINES = GOOD_RU.count("\n")

# (id, bytes of strings/ru.yml or "folder", line, message fragment)
STRINGS_FILES = [
    ("cp1251", GOOD_RU.encode("cp1251"), 1, "not UTF-8"),
    ("UTF-16 with a byte-order mark", GOOD_RU.encode("utf-16"), 1, "saved as UTF-16"),
    ("UTF-16 without a byte-order mark", GOOD_RU.encode("utf-16-le"), 1, "U+0000"),
    ("one stray byte on line 3", "\n".join(GOOD_RU.split("\n")[:2]).encode() + b"\n\xff: x\n", 3,
     "not UTF-8"),
    ("Latin-1 text", "const: konst.\ngrad: gradi\u00e9nt\n".encode("latin-1"), 2, "not UTF-8"),
    ("NUL byte on the last line", (GOOD_RU + "step: x\x00\n").encode(), RU_LINES + 1, "U+0000"),
    ("unclosed list at the end", (GOOD_RU + "oops: [unclosed\n").encode(), RU_LINES + 1, "not valid YAML"),
    ("unclosed quote", (GOOD_RU + 'oops: "x\n').encode(), RU_LINES + 1, "not valid YAML"),
    ("python tag", (GOOD_RU + "oops: !!python/object/apply:os.system [ls]\n").encode(), RU_LINES + 1,
     "`!!python/object/apply:os.system`"),
    ("str tag", (GOOD_RU + "oops: !!str 1\n").encode(), RU_LINES + 1, "`!!str`"),
    ("custom tag", (GOOD_RU + "oops: !local x\n").encode(), RU_LINES + 1, "`!local`"),
    ("anchor", (GOOD_RU + "oops: &a x\n").encode(), RU_LINES + 1, "anchors and aliases"),
    ("list as a key", (GOOD_RU + "? [a, b]\n: x\n").encode(), RU_LINES + 1, "a key must be plain text"),
    ("mapping as a key", (GOOD_RU + "? {a: 1}\n: x\n").encode(), RU_LINES + 1, "a key must be plain text"),
    ("number as a value", GOOD_RU.replace("value: значение", "value: 3").encode(), None,
     "key 'value' must be text"),
    ("list as a value", GOOD_RU.replace("value: значение", "value: [a]").encode(), None,
     "key 'value' must be text"),
    ("a list, not a mapping", b"- value\n- grad\n", 1, "expected `key: text` lines"),
    ("plain text", b"just some text\n", 1, "expected `key: text` lines"),
    ("empty file", b"", 1, "missing key"),
    ("key twice", (GOOD_RU + "grad: again\n").encode(), RU_LINES + 1, "key 'grad' appears twice"),
    ("extra key", (GOOD_RU + "extra: x\n").encode(), RU_LINES + 1, "extra key 'extra'"),
    ("changed placeholder", GOOD_RU.replace("{total}", "{all}").encode(), None,
     "key 'step' has placeholders"),
    ("folder", "folder", 1, "this is a folder"),
    ("control character", (GOOD_RU + "oops: \x1b[31m\n").encode(), RU_LINES + 1, "U+001B"),
]


@pytest.mark.parametrize(("content", "line", "message"), [c[1:] for c in STRINGS_FILES],
                         ids=[c[0] for c in STRINGS_FILES])
def test_a_malformed_strings_file_fails_at_its_line(tmp_path, caplog, content, line, message):
    site = Site(tmp_path, PAGES)
    path = tmp_path / "strings/ru.yml"
    if content == "folder":
        path.unlink()
        path.mkdir()
    else:
        path.write_bytes(content)
    log = build_error(site, caplog)
    where = "strings/ru.yml:" if line is None else f"strings/ru.yml:{line}: "
    assert where in log and message in log, log
    assert "Traceback" not in log


def test_the_fuzz_tables_hold_sixty_malformed_blocks_and_twenty_strings_files():
    assert len(BLOCKS) + len(PLACES) >= 60 and len(STRINGS_FILES) >= 20
    assert json.dumps([c[0] for c in BLOCKS + PLACES + STRINGS_FILES])  # ids are plain text
    print(f"\nplugin fuzz: {len(BLOCKS) + len(PLACES)} malformed sandbox blocks and {len(STRINGS_FILES)} "
          "malformed UI-strings files, each through a real build")
