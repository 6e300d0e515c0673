"""The shaders' GLSL without the whitespace a reader needs and a GPU does not.

The player writes its shaders as tagged template literals (src/player/stage/shaders.ts), which a
JavaScript minifier leaves as they are: about 4 KB of indentation and spaces around operators. After
esbuild, before terser, each literal that holds a shader (`void main`) loses it: a line for each
preprocessor directive, one space only between words, none around punctuation. A `${…}` inside the
literal is kept as it is, as a word.
"""

from __future__ import annotations

import re

TEMPLATE = re.compile(r"`((?:[^`\\$]|\\.|\$(?!\{)|\$\{[^{}`]*\})*)`")
PLACEHOLDER = re.compile(r"\$\{[^{}`]*\}")
SPACE = re.compile(r"(?<=(.)) (?=(.))")  # a space, with the characters either side
WORD = re.compile(r"[\w\x00.]")  # a character of a name, a number or a placeholder
# Character pairs that mean something else once the space between them is gone (a - -b, a / *p).
JOINED = ("--", "++", "//", "/*", "*/")


def minify_shaders(script: str) -> str:
    """`script` with the GLSL of every template literal that holds a shader minified."""
    return TEMPLATE.sub(lambda m: f"`{minify(m[1])}`" if "void main" in m[1] else m[0], script)


def minify(glsl: str) -> str:
    """One shader's source, a literal's text with its `${…}` placeholders, minified."""
    kept = PLACEHOLDER.findall(glsl)
    text = PLACEHOLDER.sub(lambda m: f"\x00{kept.index(m[0])}\x00", glsl)
    runs: list[list[str]] = [[]]  # code between directives, line by line
    directives: list[str] = []
    for line in text.split("\n"):
        line = " ".join(line.split())
        if line.startswith("#"):
            directives.append(line)
            runs.append([])
        elif line:
            runs[-1].append(line)
    code = [SPACE.sub(_space, " ".join(run)) for run in runs]
    out = (code[0] + "".join(f"\n{d}\n{c}" for d, c in zip(directives, code[1:], strict=True))).lstrip("\n")
    return re.sub(r"\x00(\d+)\x00", lambda m: kept[int(m[1])], out)


def _space(match: re.Match) -> str:
    """A space between two words stays, and one that keeps two operators apart (JOINED)."""
    left, right = match[1], match[2]
    needed = (WORD.match(left) and WORD.match(right)) or left + right in JOINED
    return " " if needed else ""
