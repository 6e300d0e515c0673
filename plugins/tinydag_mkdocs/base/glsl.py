"""The shaders' GLSL without the whitespace a reader needs and a GPU does not.

The player writes its shaders as tagged template literals (src/player/stage/shaders.ts), which a
JavaScript minifier leaves as they are: about 4 KB of indentation and spaces around operators. After
esbuild, before terser, each literal that holds a shader (`void main`) loses it: a line for each
preprocessor directive (or a `${…}` alone, which may be one), one space only between words, none
around punctuation, no comments. A `${…}` inside the literal is kept as it is, as a word.
"""

from __future__ import annotations

import re

TEMPLATE = re.compile(r"`((?:[^`\\$]|\\.|\$(?!\{)|\$\{[^{}`]*\})*)`")
PLACEHOLDER = re.compile(r"\$\{[^{}`]*\}")
SPACE = re.compile(r"(?<=(.)) (?=(.))")  # a space, with the characters either side
WORD = re.compile(r"[\w\x00.]")  # a character of a name, a number or a placeholder
PLACED = re.compile(r"\x00\d+\x00")  # a placeholder, as minify() marks it
# Character pairs that mean something else once the space between them is gone (a - -b, a / *p).
JOINED = ("--", "++", "//", "/*", "*/")


class ShaderError(Exception):
    pass


def minify_shaders(script: str) -> str:
    """`script` with the GLSL of every template literal that holds a shader minified; ShaderError when
    one was not found as a literal of its own (a `${…}` with braces before it throws the pairing off)."""
    found = 0

    def shader(match: re.Match) -> str:
        nonlocal found
        if "void main" not in match[1]:
            return match[0]
        found += 1
        return f"`{minify(match[1])}`"

    out = TEMPLATE.sub(shader, script)
    if found != script.count("void main"):
        raise ShaderError(f"found {found} of the {script.count('void main')} shaders as template literals")
    return out


def minify(glsl: str) -> str:
    """One shader's source, a literal's text with its `${…}` placeholders, minified."""
    kept = PLACEHOLDER.findall(glsl)
    text = PLACEHOLDER.sub(lambda m: f"\x00{kept.index(m[0])}\x00", glsl)
    runs: list[list[str]] = [[]]  # code between directives, line by line
    directives: list[str] = []
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)  # comments: joined lines would run into them
    for line in text.split("\n"):
        line = " ".join(line.split("//")[0].split())
        if line.startswith("#") or PLACED.fullmatch(line):  # a directive, or what may be one
            directives.append(line)
            runs.append([])
        elif line:
            runs[-1].append(line)
    code = [SPACE.sub(_space, " ".join(run)) for run in runs]
    out = (code[0] + "".join(f"\n{d}\n{c}" for d, c in zip(directives, code[1:], strict=True))).lstrip("\n")
    return re.sub(r"\x00(\d+)\x00", lambda m: kept[int(m[1])], out)


def _space(match: re.Match) -> str:
    """A space between two words stays, and one that keeps two operators apart (JOINED), or a sign from
    a placeholder (`b - ${x}`: x may be negative)."""
    left, right = match[1], match[2]
    needed = (WORD.match(left) and WORD.match(right)) or left + right in JOINED
    signed = {left, right} & {"+", "-"} and "\x00" in (left, right)
    return " " if needed or signed else ""
