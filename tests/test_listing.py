"""Lesson 02's listing, read from the built HTML: the short Value class the lesson shows, the rest of
the class folded under a localized title, both the very code the engine runs, and the lesson's words
about it (how many lines, which methods) true to it in every language."""

from __future__ import annotations

import ast
import html
import re
from pathlib import Path

import pytest

import microgpt_annotated
import tinydag.trace
from tinydag_mkdocs.base.comments import WIDTH, take_translations, translate_listings
from tinydag_mkdocs.base.fences import BlockError

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT / "src/microgpt_annotated.py"
LESSON = {"en": "02-autograd/index.html", "ru": "ru/02-autograd/index.html",
          "et": "et/02-autograd/index.html"}
FOLD = {"en": "The rest of the class", "ru": "Остальная часть класса", "et": "Klassi ülejäänud osa"}
FORTY = {"en": "one Python class of some forty lines", "ru": "один класс на Python, строк на сорок",
         "et": "üks umbes neljakümnerealine Pythoni klass"}
MAX_SHOWN = 45  # lines before the fold
MAX_WIDTH = WIDTH  # characters: what fits in the code column at 1280 px (tests/test_browser_listing.py)
SHOWN = ["def __init__(self, data, _children=(), _local_grads=()):", "self.data = ", "self.grad = ",
         "self._children = ", "self._local_grads = ", "def __add__(self, other):",
         "def __mul__(self, other):", "def __pow__(self, k):", "def exp(self):", "def log(self):",
         "def relu(self):", "def backward(self):", "def build(v):", "build(child)", "build(self)",
         "child.grad += local_grad * v.grad"]
FOLDED = ["def __neg__", "def __sub__", "def __truediv__", "def __radd__", "def __rmul__", "def __rsub__",
          "def __rtruediv__", "def power(x, k):"]


def text(fragment: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", fragment))


def listings(page: str) -> list[str]:
    """Every Python listing of the page, as the reader reads it."""
    found = re.findall(r'<div class="language-python highlight"><pre>.*?<code[^>]*>(.*?)</code></pre>', page,
                       re.S)
    return [text(code).rstrip("\n") for code in found]


def section(name: str) -> str:
    found = re.search(rf"^[^\n]*--8<-- \[start:{name}\]\n(.*?)^[^\n]*--8<-- \[end:{name}\]",
                      SOURCE.read_text(), re.S | re.M)
    assert found, name
    return found[1].strip("\n")


@pytest.mark.parametrize("lang", list(LESSON))
def test_the_listing_is_a_short_value_class_and_the_rest_is_folded(built_site, lang):
    page = (built_site / LESSON[lang]).read_text(encoding="utf-8")
    shown, rest = listings(page)
    lines = shown.split("\n")
    assert lines[0].startswith("class Value:") and len(lines) <= MAX_SHOWN, len(lines)
    for needle in SHOWN:
        assert needle in shown, needle
    for needle in FOLDED:
        assert needle in rest and needle not in shown, needle
    assert max(len(line) for line in lines + rest.split("\n")) <= MAX_WIDTH
    # the fold: a closed Material details block with the page's own title, holding the rest
    fold = re.search(r'<details class="note">\s*<summary>(.*?)</summary>(.*?)</details>', page, re.S)
    assert fold and text(fold[1]) == FOLD[lang]
    assert listings(fold[2]) == [rest]
    # what the reader sees is the source's two sections, and nothing else, its comments in the page's
    # language (walkthrough 16: English in ru and et)
    # (docstrings compared by their words and lines: a translation is wrapped anew)
    assert (flat_docstrings(shown), flat_docstrings(rest)) == tuple(
        in_words(section(name), lang) for name in ("autograd-value-class", "autograd-value-rest"))


DOCSTRING = re.compile(r'"""(.*?)"""', re.S)


def comments(code: str) -> list[str]:
    """The code's comments and docstrings, each docstring's words on one line."""
    said = [" ".join(m[1].split()) for m in DOCSTRING.finditer(code)]
    code = DOCSTRING.sub("", code)
    return said + [line.split("#", 1)[1].strip() for line in code.split("\n") if "#" in line]


def flat_docstrings(code: str, words=lambda english: english) -> str:
    """Each docstring's words on its first line (`words` of its English), its other lines left empty."""
    return DOCSTRING.sub(lambda m: f'"""{words(" ".join(m[1].split()))}"""' + "\n" * m[0].count("\n"), code)


def in_words(code: str, lang: str) -> str:
    """The source's code with each comment and docstring as the lesson's page in `lang` translates it
    (every one), its docstrings flat (flat_docstrings)."""
    if lang == "en":
        return flat_docstrings(code)
    page = (ROOT / f"docs/02-autograd.{lang}.md").read_text(encoding="utf-8")
    table = take_translations(page)[1].table
    english = comments(section("autograd-value-class") + "\n" + section("autograd-value-rest"))
    assert sorted(table) == sorted(english), "every comment and docstring of the listing, and nothing else"
    lines = []
    for line in flat_docstrings(code, table.get).split("\n"):
        head, hash_, comment = line.partition("#")
        lines.append(f"{head}# {table[comment.strip()]}" if hash_ and '"""' not in line else line)
    return "\n".join(lines)


def test_the_two_sections_are_the_whole_class_the_engine_runs():
    assert tinydag.trace.Value is microgpt_annotated.Value
    source = SOURCE.read_text()
    defined = [node.name for node in ast.parse(source).body
               if isinstance(node, ast.ClassDef | ast.FunctionDef)]
    assert defined == ["Value", "power"]
    # every line from `class Value` to the end of the module is in one of the two listings, in order
    module = [line for line in source[source.index("class Value"):].split("\n") if line.strip()
              and "--8<--" not in line]
    sections = section("autograd-value-class") + "\n" + section("autograd-value-rest")
    assert module == [line for line in sections.split("\n") if line.strip()]


@pytest.mark.parametrize("lang", list(LESSON))
def test_the_lesson_counts_the_lines_and_names_the_methods_of_this_listing(built_site, lang):
    page = (built_site / LESSON[lang]).read_text(encoding="utf-8")
    shown, rest = listings(page)
    article = re.search(r"<article.*?</article>", page, re.S)[0]
    prose = text(re.sub(r"<pre>.*?</pre>", "", article, flags=re.S))
    assert FORTY[lang] in prose and 35 <= len(shown.split("\n")) <= MAX_SHOWN
    # every method the prose names as `name()` or `__name__` is one the reader can find in the listing
    named = set(re.findall(r"<code>(__\w+__|\w+)\((?:\w*)\)</code>", re.sub(r"<pre>.*?</pre>", "", article,
                                                                       flags=re.S)))
    named |= set(re.findall(r"<code>(__\w+__)</code>", article))
    assert {"backward", "build", "power", "__add__", "__mul__", "__pow__"} <= named, named
    for name in named:
        assert f"def {name}(" in shown + rest, name
    assert "topological_order" not in page


CODE = ('<div class="language-python highlight"><pre><span></span><code><span id="__span-0-1">'
        '<span class="n">x</span> <span class="o">=</span> <span class="mi">1</span>  '
        '<span class="c1"># the number it holds</span>\n</span></code></pre></div>')


@pytest.mark.parametrize(("block", "line", "message"), [
    ('"the number it holds": "число"\n"no such comment": "нет"\n', 5, "no listing of the page has"),
    ('"the number it holds": "' + "очень " * 14 + '"\n', 4, "characters wide; at most 80"),
    ('"the number it holds": "a"\n"the number it holds": "b"\n', 5, "translated twice"),
    ('- "the number it holds"\n', 4, "maps each English comment to its translation"),
    ('"the number it holds":\n', 4, "needs its translation"),
    ('"the number it holds": [a\n', 4, "not valid YAML"),
])
def test_a_translators_comments_block_fails_at_its_line(block, line, message):
    """A page's comment translations (base/comments.py): each mistake is named at its line."""
    markdown = f"# Урок\n\n```tinydag-comments\n{block}```\n"
    with pytest.raises(BlockError) as error:
        page, translations = take_translations(markdown)
        assert page.count("\n") == markdown.count("\n") and "tinydag-comments" not in page
        translate_listings(CODE, translations)
    assert error.value.line == line and message in error.value.message, (error.value.line, str(error.value))


DOCSTRING_CODE = (
    '<div class="language-python highlight"><pre><span></span><code><span id="__span-0-1">'
    '<span class="k">def</span><span class="w"> </span><span class="nf">f</span><span class="p">():</span>\n'
    '</span><span id="__span-0-2"><span class="w">    </span>'
    '<span class="sd">"""One line &amp; a half</span>\n'
    '</span><span id="__span-0-3"><span class="sd">    of words."""</span>\n'
    '</span><span id="__span-0-4">    <span class="k">return</span>\n</span></code></pre></div>')


def test_a_docstring_is_translated_into_the_lines_the_english_takes():
    """The power() docstring stayed English on the ru and et pages (walkthrough 17)."""
    def shown(words: str) -> list[str]:
        block = f'```tinydag-comments\n"One line & a half of words.": "{words}"\n```\n'
        code = translate_listings(DOCSTRING_CODE, take_translations(block)[1])
        assert code.count("__span-0-") == 4, "the same lines, numbered as before"
        return html.unescape(re.sub(r"<[^>]+>", "", code)).split("\n")[1:3]

    assert shown("Строка <и> половина слов.") == ['    """Строка <и>', '    половина слов."""']
    assert shown("Кратко.") == ['    """Кратко.', '    """']
    long = shown(" ".join(["слово"] * 24))  # 143 characters in two lines of at most 80, filled evenly
    assert [len(line) for line in long] == [78, 78] and long[1].endswith('"""')
    assert " ".join(long).split() == ['"""слово'] + ["слово"] * 22 + ['слово"""']
    with pytest.raises(BlockError) as error:
        shown(" ".join(["слово"] * 30))
    assert error.value.line == 2 and "does not fit the 2 lines of at most 80" in error.value.message


def test_every_shape_of_docstring_pygments_writes_is_translated_or_refused_by_name():
    """Review 51: one line, closing quotes on their own line, a module's at column zero (its words ran
    together), and one with a blank line (refused at its line, not as a comment no listing has)."""
    from pygments import highlight
    from pygments.formatters import HtmlFormatter
    from pygments.lexers import PythonLexer

    source = ('def f():\n    """One line only."""\n\n\n'
              'def g():\n    """Words here,\n    more words.\n    """\n\n\n'
              '"""Module words\nat column zero."""\n\n\n'
              'def h():\n    """Para one.\n\n    Para two."""\n')
    code = f"<code>{highlight(source, PythonLexer(), HtmlFormatter(nowrap=True))}</code>"

    def shown(pairs: dict[str, str]) -> list[str]:
        block = "".join(f'"{english}": "{words}"\n' for english, words in pairs.items())
        out = translate_listings(code, take_translations(f"```tinydag-comments\n{block}```\n")[1])
        return text(out).split("\n")

    lines = shown({"One line only.": "Одна строка.", "Words here, more words.": "Слова, ещё слова.",
                   "Module words at column zero.": "Слова модуля."})
    assert lines[1] == '    """Одна строка."""'
    assert " ".join(lines[5:7]).split() == ['"""Слова,', "ещё", "слова."] and lines[7] == '    """', lines
    assert " ".join(lines[10:12]).split() == ['"""Слова', 'модуля."""'], lines[10:12]
    with pytest.raises(BlockError) as error:
        shown({"Para one. Para two.": "Абзац."})
    assert error.value.line == 2 and "has a blank line" in error.value.message


def test_a_translated_comment_is_escaped_and_the_code_kept():
    _, translations = take_translations('```tinydag-comments\n"the number it holds": "<b> & x"\n```\n')
    out = translate_listings(CODE, translations)
    assert '<span class="c1"># &lt;b&gt; &amp; x</span>' in out
    assert out.replace('# &lt;b&gt; &amp; x', '# the number it holds') == CODE
    # any listing: with line numbers (a table), a title, fenced as py (review 50)
    table = ('<div class="language-py highlight"><span class="filename">value.py</span><table class='
             '"highlighttable"><tr><td class="code"><div><pre><span></span><code><span class="n">x</span>  '
             '<span class="c1"># the number it holds</span>\n</code></pre></div></td></tr></table></div>')
    assert '# &lt;b&gt; &amp; x</span>' in translate_listings(table, translations)
