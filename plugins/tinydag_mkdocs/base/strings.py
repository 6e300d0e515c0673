"""The sandbox's UI strings: one flat YAML file per language, checked against en.yml.

A translator edits `<strings_dir>/<lang>.yml`. A missing or extra key, a changed {placeholder}
or a value that is not text fails the build with the file, the line and the key; so does a file that
is not UTF-8 or not plain YAML (safe_yaml: no tags, anchors or non-text keys).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import yaml

from .safe_yaml import YamlProblem, compose

REFERENCE = "en"
PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")
FIGURE_KEYS = ("value", "grad", "figure_caption", "figure_caption_forward", "not_reached", "no_webgl",
               "derived", "const",  # the static figures' (the full sandbox's, and the compact one's)
               "frameworks", "frameworks_note", "frameworks_constant")  # and the PyTorch / JAX panel's
CAPTION_PLACEHOLDERS = {"expression"}  # what the figure caption may use


class StringsError(Exception):
    """One or more problems, one per line, each starting with `file:line:`."""


@dataclass(frozen=True)
class Entry:
    text: str
    line: int


def load_all(folder: Path, languages: list[str], shown_as: str) -> dict[str, dict[str, str]]:
    """Every language's strings, validated against en.yml; StringsError lists every problem.

    `shown_as` is how messages name the folder (relative to mkdocs.yml, for an author).
    """
    problems: list[str] = []
    loaded: dict[str, dict[str, Entry]] = {}
    for lang in dict.fromkeys([REFERENCE, *languages]):
        name = f"{shown_as}/{lang}.yml"
        try:
            loaded[lang] = read(folder / f"{lang}.yml", name)
        except StringsError as exc:
            problems.append(str(exc))
    reference = loaded.get(REFERENCE)
    if reference is not None:
        ref_name = f"{shown_as}/{REFERENCE}.yml"
        problems += [f"{ref_name}:1: missing key '{key}' (the static figure needs it)"
                     for key in FIGURE_KEYS if key not in reference]
        for key in ("figure_caption", "figure_caption_forward"):
            caption = reference.get(key)
            if caption and not set(PLACEHOLDER.findall(caption.text)) <= CAPTION_PLACEHOLDERS:
                problems.append(f"{ref_name}:{caption.line}: key '{key}' may use only "
                                + ", ".join("{" + p + "}" for p in sorted(CAPTION_PLACEHOLDERS)))
        for lang, entries in loaded.items():
            if lang != REFERENCE:
                problems += compare(reference, entries, f"{shown_as}/{lang}.yml", ref_name)
    if problems:
        raise StringsError("\n".join(problems))
    return {lang: {key: e.text for key, e in entries.items()} for lang, entries in loaded.items()}


def read(path: Path, name: str) -> dict[str, Entry]:
    """A flat mapping of key -> text, with the line of each key."""
    try:
        root = compose(decode(path.read_bytes(), name))
    except FileNotFoundError:
        raise StringsError(f"{name}:1: file not found (copy en.yml and translate it)") from None
    except IsADirectoryError:
        raise StringsError(f"{name}:1: this is a folder; it should be a file (copy en.yml)") from None
    except OSError as exc:
        raise StringsError(f"{name}:1: cannot be read: {exc.strerror}") from None
    except YamlProblem as problem:
        raise StringsError(f"{name}:{problem.line + 1}: {problem.message}") from None
    if root is None:
        return {}
    if not isinstance(root, yaml.MappingNode):
        raise StringsError(f"{name}:1: expected `key: text` lines")
    entries: dict[str, Entry] = {}
    problems: list[str] = []
    for key_node, value_node in root.value:
        key, line = key_node.value, key_node.start_mark.line + 1
        if key in entries:
            problems.append(f"{name}:{line}: key '{key}' appears twice")
        elif not isinstance(value_node, yaml.ScalarNode) or value_node.tag != "tag:yaml.org,2002:str":
            problems.append(f"{name}:{line}: key '{key}' must be text (quote it if in doubt)")
        else:
            entries[key] = Entry(value_node.value, line)
    if problems:
        raise StringsError("\n".join(problems))
    return entries


def decode(data: bytes, name: str) -> str:
    """The file's text; StringsError at the first line that is not UTF-8 (what editors call it)."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise StringsError(f"{name}:1: the file is saved as UTF-16; save it as UTF-8")
    try:
        return data.decode("utf-8").removeprefix("\ufeff")  # a UTF-8 byte-order mark is harmless
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise StringsError(f"{name}:{line}: not UTF-8 (byte 0x{data[exc.start]:02x}; saved as "
                           "Windows-1251 or Latin-1?): save the file as UTF-8") from None


def compare(reference: dict[str, Entry], other: dict[str, Entry], name: str, ref_name: str) -> list[str]:
    problems = [f"{name}:1: missing key '{key}' (present in {ref_name})"
                for key in reference if key not in other]
    for key, entry in other.items():
        if key not in reference:
            problems.append(f"{name}:{entry.line}: extra key '{key}' (not in {ref_name})")
            continue
        want, got = placeholders(reference[key].text), placeholders(entry.text)
        if want != got:
            problems.append(f"{name}:{entry.line}: key '{key}' has placeholders "
                            f"{_show(got)} but {ref_name} has {_show(want)}")
    return problems


def placeholders(text: str) -> set[str]:
    return set(PLACEHOLDER.findall(text))


def _show(names: set[str]) -> str:
    return "{" + "}, {".join(sorted(names)) + "}" if names else "none"
