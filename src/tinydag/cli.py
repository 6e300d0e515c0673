"""`python -m tinydag "EXPR" --set a=2`: the timeline JSON on stdout (exit 0) or an error (exit 2)."""

from __future__ import annotations

import sys

from .errors import TinyDagError
from .timeline import build_timeline, dumps

USAGE = 'usage: python -m tinydag "EXPR" [--set NAME=VALUE]... (options may precede EXPR; -- ends them)'


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
            if not sep or not name:
                raise ValueError(f"--set expects NAME=VALUE, got {pair!r}")
            values[name.strip()] = float(number)
        elif arg.startswith("--"):
            raise ValueError(f"unknown option {arg}")
        else:
            positional.append(arg)
    if len(positional) != 1:
        raise ValueError("expected exactly one expression")
    return positional[0], values


def main(argv: list[str] | None = None) -> int:
    try:
        expression, values = parse_args(sys.argv[1:] if argv is None else argv)
    except ValueError as exc:
        print(f"{exc}\n{USAGE}", file=sys.stderr)
        return 64
    try:
        print(dumps(build_timeline(expression, values)))
    except TinyDagError as error:
        print(dumps(error.to_json()))
        return 2
    return 0
