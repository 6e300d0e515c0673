"""Exercise links and compact sandboxes on tiny temporary sites: what the Markdown turns into, and the
errors a translator or an author gets (file:line, from the Python engine)."""

from __future__ import annotations

import html
import json
import re
import subprocess

import pytest

import tinydag
from tests.conftest import ROOT
from tests.test_plugin import PAGES, Site, build_error
from tinydag_mkdocs.sandbox.blocks import find_blocks
from tinydag_mkdocs.sandbox.exercises import ExerciseLink, js_number, moment_fragment

FULL = '```tinydag\nexpression: "(a + b) * c"\nvalues: {a: 2, b: -3, c: 10}\n```\n'
COMPACT = '```tinydag\ncompact: true\nexpression: "(a + b) * c"\nvalues: {a: 2, b: -3, c: 10}\n```\n'
LINK = '[Open in the sandbox]{open-in-sandbox expr="relu(a * b)" vals="a=2, b=3" dir=backward t=end}'
ANCHOR = re.compile(r'<a class="tinydag-open" href="#([^"]*)" data-open-in-sandbox="([^"]*)">(.*?)</a>')


def lesson_site(tmp_path, lesson: str, languages=("en",)) -> Site:
    pages = {"index.md": "# Home\n", "lesson.md": lesson}
    if "ru" in languages:
        pages |= {k: v for k, v in PAGES.items() if k.endswith(".ru.md") or k.endswith(".et.md")}
        pages["lesson.ru.md"] = lesson.replace("Open in the sandbox", "Открыть в песочнице")
        pages["lesson.et.md"] = lesson.replace("Open in the sandbox", "Ava liivakastis")
    return Site(tmp_path, pages, languages=languages)


def test_an_exercise_link_becomes_the_moment_link_in_every_language(tmp_path):
    site = lesson_site(tmp_path, f"# Lesson\n\n{COMPACT}\n{FULL}\n**(b)** A dead ReLU.\n\n{LINK}\n",
                       languages=("en", "ru", "et"))
    site.build()
    for path, text in (("lesson/index.html", "Open in the sandbox"),
                       ("ru/lesson/index.html", "Открыть в песочнице"),
                       ("et/lesson/index.html", "Ava liivakastis")):
        page = site.page(path)
        ((fragment, sandbox, shown),) = ANCHOR.findall(page)
        fragment = html.unescape(fragment)
        assert (sandbox, shown.replace("\xa0", " ")) == ("tinydag-1", text)  # ru binds short words
        # relu(a*b) backward: the seed and three hand-offs, so t=end is step 4
        assert fragment == "tinydag-1?expr=relu%28a%20*%20b%29&vals=a%3A2%2Cb%3A3&dir=backward&t=4"
        # without JavaScript the address still lands on the sandbox: an element bears it as its id
        target = re.search(r'<div class="tinydag" data-sandbox id="tinydag-1"[^>]*>'
                           r'<span class="tinydag-target" id="([^"]*)"></span>', page)
        assert target and html.unescape(target[1]) == fragment
        # the compact sandbox before it did not take its id
        assert '<div class="tinydag tinydag--compact" data-sandbox-compact id="tinydag-compact-1"' in page
        assert page.count('class="tinydag-data"') == 1 and page.count('class="tinydag-compact-data"') == 1


def test_the_fragment_reads_back_as_the_setup_in_the_players_url_ts(tmp_path):
    """Python writes the address, url.ts decodes it: the same expression, values, direction, time and
    panel to unfold."""
    setups = [("(a + b) * c", {"a": 1.0, "b": 4.0, "c": -2.0}, "forward", None, "predict"),
              ("relu(w * x + v * y + b)", {"w": 0.5, "x": 2.0, "v": -1.0, "y": 0.5, "b": 0.25},
               "backward", 3.0, "nudge"),
              ("log(exp(a) + b ** 2) / 3 - a", {"a": 1e-7, "b": -123456.5}, "backward", 0.0, "")]
    fragments = []
    for expression, values, direction, time, opens in setups:
        link = ExerciseLink(1, "x", "tinydag-1", expression, values, direction, time, opens)
        fragments.append(moment_fragment(link, tinydag.build_timeline(expression, values)))
    probe = tmp_path / "probe.ts"
    probe.write_text(f'import {{ decodeMoment }} from "{ROOT / "src/player/page/url.ts"}";\n'
                     'const xs: string[] = JSON.parse(process.argv[2] ?? "[]");\n'
                     'console.log(JSON.stringify(xs.map((h) => decodeMoment("#" + h, "tinydag-1"))));\n')
    subprocess.run([str(ROOT / "node_modules/.bin/esbuild"), str(probe), "--bundle", "--platform=node",
                    "--format=esm", f"--outfile={tmp_path / 'probe.mjs'}", "--log-level=error"], check=True)
    done = subprocess.run(["node", str(tmp_path / "probe.mjs"), json.dumps(fragments)],
                          capture_output=True, text=True, check=True)
    for (expression, values, direction, time, opens), moment in zip(setups, json.loads(done.stdout)):
        assert moment.get("open", "") == opens
        assert moment["expression"] == expression
        assert moment["values"] == values
        assert moment["direction"] == direction
        if time is not None:
            assert moment["time"] == time
    assert [js_number(x) for x in (1.0, -2.0, 0.25, 1e-7, 1e21, -123456.5)] == \
        ["1", "-2", "0.25", "1e-7", "1e+21", "-123456.5"]


BROKEN_LINKS = [
    ("expression that does not parse", '[Go]{open-in-sandbox expr="a +" vals="a=1"}',
     "The expression ends too early"),
    ("variable exponent", '[Go]{open-in-sandbox expr="a ** b" vals="a=1, b=2"}',
     "The exponent must be a constant"),
    ("value outside the domain", '[Go]{open-in-sandbox expr="log(a)" vals="a=-1"}',
     "log is defined only for positive numbers"),
    ("a variable without a value", '[Go]{open-in-sandbox expr="a * b" vals="a=1"}', "gives no value to b"),
    ("a value the expression does not use", '[Go]{open-in-sandbox expr="a" vals="a=1, z=2"}',
     "`vals` sets z"),
    ("no expression", '[Go]{open-in-sandbox vals="a=1"}', "needs the expression"),
    ("unknown key", '[Go]{open-in-sandbox expr="a" vals="a=1" speed=2}', "unknown key `speed`"),
    ("bad direction", '[Go]{open-in-sandbox expr="a" vals="a=1" dir=sideways}',
     "`dir` is forward or backward"),
    ("bad time", '[Go]{open-in-sandbox expr="a" vals="a=1" t=-1}', "`t` is a step of the timeline"),
    ("a panel the sandbox does not have", '[Go]{open-in-sandbox expr="a" vals="a=1" open=table}',
     "`open` is predict or nudge, not 'table'"),
    ("bad value", '[Go]{open-in-sandbox expr="a" vals="a=two"}', "cannot read 'a=two' in `vals`"),
    ("unquoted value with spaces", '[Go]{open-in-sandbox expr=a * b vals="a=1, b=2"}', "cannot read `*"),
    ("no such sandbox", '[Go]{open-in-sandbox expr="a" vals="a=1" sandbox=tinydag-9}',
     "opens the sandbox 'tinydag-9', but the page has only tinydag-1"),
    ("brackets lost in translation", 'Go {open-in-sandbox expr="a" vals="a=1"}', "not written as [text]"),
]


@pytest.mark.parametrize(("link", "message"), [b[1:] for b in BROKEN_LINKS], ids=[b[0] for b in BROKEN_LINKS])
def test_a_broken_exercise_link_fails_the_build_at_its_line(tmp_path, caplog, link, message):
    site = lesson_site(tmp_path, f"# Lesson\n\n{FULL}\nSome text.\n\n{link}\n")
    log = build_error(site, caplog)
    assert "docs/lesson.md:10: " in log and message in log, log


def test_a_page_without_a_sandbox_cannot_have_exercise_links(tmp_path, caplog):
    log = build_error(lesson_site(tmp_path, f"# Lesson\n\n{LINK}\n"), caplog)
    assert "docs/lesson.md:3: " in log and "no ```tinydag block" in log, log


def test_a_translation_with_front_matter_names_its_own_line(tmp_path, caplog):
    pages = dict(PAGES, **{"lesson.ru.md": f"---\ntitle: Урок\n---\n\n# Урок\n\n{FULL}\n"
                           '[Открыть]{open-in-sandbox expr="a * (b" vals="a=1, b=2"}\n'})
    log = build_error(Site(tmp_path, pages), caplog)
    assert "docs/lesson.ru.md:12: the exercise link's setup does not compute" in log, log


def test_the_syntax_shown_as_code_is_left_alone(tmp_path):
    lesson = (f"# Lesson\n\n{FULL}\nWrite `{LINK}` under an exercise.\n\n"
              f"```markdown\n{LINK}\n```\n")
    site = lesson_site(tmp_path, lesson)
    site.build()
    page = site.page("lesson/index.html")
    assert "data-open-in-sandbox" not in page and page.count("open-in-sandbox expr=") == 2


def test_compact_blocks_are_named_apart_from_full_ones():
    blocks = find_blocks(f"{COMPACT}\n{FULL}\n{COMPACT}\n{FULL}")
    assert [(b.sandbox_id, b.compact) for b in blocks] == [
        ("tinydag-compact-1", True), ("tinydag-1", False), ("tinydag-compact-2", True), ("tinydag-2", False)]


@pytest.mark.parametrize(("body", "line", "message"), [
    ('compact: yes please\nexpression: a\n', 4, "`compact` is true or false, not 'yes please'"),
    ('compact: true\nexpression: a\npresets:\n  - label: x\n    expression: a\n', 6,
     "a compact sandbox (`compact: true`) has no presets menu"),
])
def test_a_broken_compact_block_names_its_line(tmp_path, caplog, body, line, message):
    site = lesson_site(tmp_path, f"# Lesson\n\n```tinydag\n{body}```\n")
    log = build_error(site, caplog)
    assert f"docs/lesson.md:{line}: " in log and message in log, log
