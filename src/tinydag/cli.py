"""`python -m tinydag "EXPR" --set a=2`: the timeline JSON on stdout (exit 0) or an error (exit 2).

`--help` prints the usage on stdout (exit 0); usage errors go to stderr (exit 64); a reader that
closes the pipe early ends it quietly (exit 1, see __main__.py). The output is always valid UTF-8,
whatever bytes the arguments hold.
"""

from __future__ import annotations

import json
import os
import re
import sys

from .errors import TinyDagError
from .parse import NUMBER_PATTERN
from .timeline import build_timeline, dumps

USAGE = 'usage: python -m tinydag "EXPR" [--set NAME=VALUE]... (options may precede EXPR; -- ends them)'
HELP = ("Prints the timeline of EXPR as JSON (exit 0), or the error it has as JSON (exit 2). Variables\n"
        "that --set does not name are 1. Misuse prints this usage on stderr (exit 64).")


VALUE = re.compile(rf"[ \t]*[-+]?{NUMBER_PATTERN}[ \t]*")  # a literal of the sandbox's grammar, signed


def wants_help(argv: list[str]) -> bool:
    """--help anywhere before `--` (after it, "--help" would be the expression)."""
    options = argv[:argv.index("--")] if "--" in argv else argv
    return "--help" in options


def parse_args(argv: list[str]) -> tuple[str, dict[str, float]]:
    """Split argv into the expression and the --set values; ValueError on misuse."""
    positional: list[str] = []
    values: dict[str, float] = {}
    args = iter(argv)
    for arg in args:
        if arg == "--":
            positional.extend(args)
        elif arg == "--set" or arg.startswith("--set="):
            pair = arg[len("--set="):] if arg.startswith("--set=") else next(args, None)
            name, sep, number = (pair or "").partition("=")
            name = name.strip(" \t")
            if not sep or not name or not VALUE.fullmatch(number):
                raise ValueError(f"--set expects NAME=VALUE with a number, got {quoted(pair)}")
            values[name] = float(number)
        elif arg.startswith("--"):
            raise ValueError(f"unknown option {arg}")
        else:
            positional.append(arg)
    if len(positional) != 1:
        raise ValueError("expected exactly one expression")
    return positional[0], values


def quoted(text: str | None) -> str:
    """The text as JSON writes a string (both command lines quote alike), or `nothing`."""
    return "nothing" if text is None else json.dumps(text, ensure_ascii=False)


def main(argv: list[str] | None = None) -> int:
    if argv is None:  # bytes that are not UTF-8 read as U+FFFD, as Node reads its argv
        argv = [os.fsencode(arg).decode("utf-8", "replace") for arg in sys.argv[1:]]
    if wants_help(argv):
        print(f"{USAGE}\n{HELP}")
        return 0
    try:
        expression, values = parse_args(argv)
    except ValueError as exc:
        print(f"{exc}\n{USAGE}", file=sys.stderr)
        return 64
    try:
        print(dumps(build_timeline(expression, values)))
    except TinyDagError as error:
        print(dumps(error.to_json()))
        return 2
    return 0
