"""Page 00 · Basic concepts on the real site (built once per session: tests/conftest.py): the page in
three languages with its § 4 anchor, every way in (lesson 02's link, the home page, the nav), its table
of shrinking nudges and its gear numbers against the engine, and its two widget blocks (only the keys
each widget takes, expressions the engine computes, the same in every language). How the widgets
render is tested in test_knob.py and test_gears.py."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote, urljoin, urlsplit

import pytest
import yaml

from tests.conftest import ROOT, SITE_URL
from tests.test_i18n_site import prose
from tests.test_site import HOME, LANGS, LESSON, Tags, page_url, read
from tinydag.timeline import build_timeline
from tinydag_mkdocs.base.git_history import Git

PAGE = {lang: ("" if lang == "en" else f"{lang}/") + "00-basics/index.html" for lang in LANGS}
SOURCE = {lang: ROOT / "docs" / ("00-basics.md" if lang == "en" else f"00-basics.{lang}.md")
          for lang in LANGS}
ANCHOR = "knob-and-gears"
NAV_LABEL = {"en": "00 · Basic concepts", "ru": "00 · Основные понятия", "et": "00 · Põhimõisted"}
ANSWER = {"en": "Answer", "ru": "Ответ", "et": "Vastus"}
COMING_SOON = ("coming soon", "скоро", "tulekul")
KNOB_KEYS = {"expression", "x", "h", "range", "presets"}
GEARS_KEYS = {"inner", "outer", "x", "choices"}


def site_path(href: str, base_page: str) -> tuple[str, str]:
    """The built file a link on `base_page` lands on (relative to the site), and its fragment."""
    target = urlsplit(urljoin(page_url(base_page), href))
    assert target.geturl().startswith(SITE_URL), href
    path = unquote(target.path).removeprefix(urlsplit(SITE_URL).path)
    return (path + "index.html" if path.endswith("/") or not path else path), unquote(target.fragment)


def article(html: str) -> str:
    return html[html.index('<article class="md-content__inner md-typeset">'):html.index("</article>")]


def element_ids(html: str) -> set[str]:
    return {str(a["id"]) for _, a in Tags(html).tags if a.get("id")}


def fences(lang: str, kind: str) -> list[dict]:
    """The YAML of every ```tinydag-<kind> block in the page's Markdown source."""
    text = SOURCE[lang].read_text(encoding="utf-8")
    bodies = re.findall(rf"^```tinydag-{kind}[ \t]*\n(.*?)^```[ \t]*$", text, re.S | re.M)
    return [yaml.safe_load(body) for body in bodies]


def engine(expression: str, name: str, value: float) -> tuple[float, float]:
    """(value, derivative) of a one-variable expression, by the lesson's engine (Value.backward)."""
    timeline = build_timeline(expression, {name: value})
    assert "error" not in timeline, timeline
    nodes = {node["id"]: node for node in timeline["nodes"]}
    (variable,) = timeline["variables"]
    assert variable["name"] == name, expression  # one variable, named as the widget expects
    return nodes[timeline["root"]]["value"], nodes[variable["node"]]["grad"]


def page_prose(site: Path, lang: str) -> str:
    """The page's own text: the article outside code, without the widgets (their words are UI strings)."""
    html = re.sub(r'<figure class="tdg-widget".*?</figure>', "", read(site, PAGE[lang]), flags=re.S)
    return prose(html)


def number(cell: str, lang: str) -> float:
    text = cell.strip().replace("\u2212", "-")
    return float(text.replace(",", ".") if lang != "en" else text)


@pytest.mark.parametrize("lang", LANGS)
def test_the_page_exists_in_its_language_with_the_section_4_anchor(built_site, lang):
    html = read(built_site, PAGE[lang])
    assert f'<html lang="{lang}"' in html
    heading = re.search(rf'<h2 id="{ANCHOR}">(.*?)<a class="headerlink"', html, re.S)
    assert heading, f"{PAGE[lang]} has no <h2 id={ANCHOR}>"
    assert heading[1].startswith("4. "), heading[1]
    assert html.count(f'id="{ANCHOR}"') == 1
    assert "data-translation-missing" not in html  # the translation itself is served, not English
    # The gears' caption says what the arc behind each hand is (walkthrough 8: the arcs were unexplained).
    caption = re.search(r'id="tinydag-gears-1".*?<figcaption>(.*?)</figcaption>', html, re.S)
    assert caption and {"en": " arc ", "ru": " дуга ", "et": " kaar"}[lang] in caption[1], caption


@pytest.mark.parametrize("lang", LANGS)
def test_lesson_02_links_to_section_4_in_the_same_language(built_site, lang):
    links = [a["href"] for a in Tags(article(read(built_site, LESSON[lang]))).find("a")
             if "00-basics" in (a.get("href") or "")]
    assert len(links) == 1, links
    path, fragment = site_path(links[0], LESSON[lang])
    assert (path, fragment) == (PAGE[lang], ANCHOR)
    assert ANCHOR in element_ids(read(built_site, path))


@pytest.mark.parametrize("lang", LANGS)
def test_the_home_page_lists_page_00_as_available(built_site, lang):
    html = read(built_site, HOME[lang])
    (item,) = re.findall(r"<li>(.*?)</li>", article(html), re.S)[:1]
    assert item.startswith('<a href="') and "00 ·" in item, item
    path, _ = site_path(Tags(item).find("a")[0]["href"], HOME[lang])
    assert path == PAGE[lang]
    assert not any(marker in item for marker in COMING_SOON), item
    assert html.count("<em>(") == 3  # lessons 01, 03 and 04 are still to come


@pytest.mark.parametrize("lang", LANGS)
def test_the_nav_names_page_00_in_the_page_language_before_lesson_02(built_site, lang):
    for page in (HOME[lang], PAGE[lang], LESSON[lang]):
        html = read(built_site, page)
        primary = html[html.index("md-nav--primary"):html.index("md-sidebar--secondary")]
        primary = re.sub(r'<nav class="md-nav md-nav--secondary".*?</nav>', "", primary, flags=re.S)
        entries = [(site_path(href, page)[0], label) for href, label in re.findall(
            r'<a href="([^"]*)" class="md-nav__link[^"]*">\s*<span class="md-ellipsis">\s*([^<]*?)\s*</span>',
            primary)]
        targets = [target for target, _ in entries]
        assert (PAGE[lang], NAV_LABEL[lang]) in entries, (page, entries)
        assert targets.index(PAGE[lang]) < targets.index(LESSON[lang]), (page, entries)


@pytest.mark.parametrize("lang", LANGS)
def test_no_coming_soon_is_left_for_page_00(lang):
    for name in ("index", "02-autograd"):
        source = ROOT / "docs" / (f"{name}.md" if lang == "en" else f"{name}.{lang}.md")
        for line in source.read_text(encoding="utf-8").splitlines():
            if "00 ·" in line:
                assert not any(marker in line for marker in COMING_SOON), (source.name, line)


@pytest.mark.parametrize("lang", LANGS)
def test_the_page_ends_at_lesson_02_and_folds_its_answers(built_site, lang):
    html = read(built_site, PAGE[lang])
    text = article(html)
    last_link = Tags(text[text.rindex("<p>"):]).find("a")
    assert last_link and site_path(last_link[0]["href"], PAGE[lang]) == (LESSON[lang], "")
    answers = re.findall(r'<details class="question">\s*<summary>(.*?)</summary>', text, re.S)
    assert answers == [ANSWER[lang]] * 4


@pytest.mark.parametrize("lang", LANGS)
def test_the_widget_blocks_follow_the_contract(lang):
    (knob,) = fences(lang, "knob")
    (gears,) = fences(lang, "gears")
    assert set(knob) <= KNOB_KEYS and {"expression", "x", "h", "range"} <= set(knob), knob
    low, high = knob["range"]
    assert low < knob["x"] < high and knob["h"] > 0
    for expression in [knob["expression"], *knob.get("presets", [])]:
        engine(expression, "x", knob["x"])  # computes, in the engine's language, with x as its variable
    assert set(gears) == GEARS_KEYS, gears
    assert (gears["inner"], gears["outer"], gears["x"]) == ("3 * x", "u * u", 1)
    # Translators translate nothing in the blocks: every language has the same ones.
    assert (knob, gears) == (fences("en", "knob")[0], fences("en", "gears")[0])


@pytest.mark.parametrize("lang", LANGS)
def test_the_table_of_shrinking_nudges_is_what_the_engine_computes(lang):
    (knob,) = fences(lang, "knob")
    x = knob["x"]
    f_x, slope = engine(knob["expression"], "x", x)
    text = SOURCE[lang].read_text(encoding="utf-8")
    rows = [line.strip("|").split("|") for line in text.splitlines()
            if re.match(r"^\|\s*[\d,.]+\s*\|", line)]
    assert len(rows) >= 4
    shown_x, shown_f = (f"{v:g}" if lang == "en" else f"{v:g}".replace(".", ",") for v in (x, f_x))
    assert f"| f({shown_x} + h) |" in text and f"f({shown_x}) = {shown_f}" in text  # the knob's x, f(x)
    gaps = []
    for cells in rows:
        h, f_x_h, change, ratio = (number(cell, lang) for cell in cells)
        value, _ = engine(knob["expression"], "x", x + h)
        for shown, exact in ((f_x_h, value), (change, value - f_x), (ratio, (value - f_x) / h)):
            assert shown == pytest.approx(exact, rel=0, abs=1e-9), (lang, cells, exact)  # exact, not rounded
        gaps.append(abs(ratio - slope))
    assert gaps == sorted(gaps, reverse=True) and gaps[-1] < 0.01, gaps  # Δy/h closes in on dy/dx


@pytest.mark.parametrize("lang", LANGS)
def test_the_gear_numbers_in_the_text_are_the_engines(lang):
    (gears,) = fences(lang, "gears")
    u, inner_slope = engine(gears["inner"], "x", gears["x"])
    y, outer_slope = engine(gears["outer"], "u", u)
    composed_y, composed_slope = engine(f"({gears['inner']}) * ({gears['inner']})", "x", gears["x"])
    assert (u, inner_slope, outer_slope, y) == (3, 3, 6, 9)
    assert composed_slope == outer_slope * inner_slope == 18 and composed_y == y
    text = SOURCE[lang].read_text(encoding="utf-8")
    assert f"dy/dx = f′(u) · g′(x) = {outer_slope:g} × {inner_slope:g} = {composed_slope:g}" in text
    nudged, _ = engine(gears["outer"], "u", engine(gears["inner"], "x", 1.001)[0])
    shown = f"{(nudged - y) / 0.001:.3f}"
    assert (shown if lang == "en" else shown.replace(".", ",")) in text  # "Δy / Δx = 18.009"


@pytest.mark.parametrize("lang", LANGS)
def test_predict_c_can_be_checked_in_the_gears_and_its_answer_is_the_engines(lang):
    (gears,) = fences(lang, "gears")
    assert "-2 * x" in gears["choices"]  # "make the first step u = −2x": one of the gears' menu
    text = SOURCE[lang].read_text(encoding="utf-8")
    [question] = [line for line in text.splitlines() if line.startswith("**(") and "u = −2x" in line]
    assert "`-2 * x`" in question  # the question says where to check it
    u, inner_slope = engine("-2 * x", "x", gears["x"])
    _, outer_slope = engine(gears["outer"], "u", u)
    _, composed_slope = engine("(-2 * x) * (-2 * x)", "x", gears["x"])
    assert (u, inner_slope, outer_slope, composed_slope) == (-2, -2, -4, 8)
    assert "(−4) × (−2) = 8" in text


@pytest.mark.parametrize("lang", LANGS)
def test_numbers_in_prose_use_the_languages_decimal_separator(built_site, lang):
    text = page_prose(built_site, lang)
    assert ("2.25" if lang == "en" else "2,25") in text
    wrong = r"\d,\d" if lang == "en" else r"\d\.\d"
    assert not re.findall(wrong, text), re.findall(rf".{{20}}{wrong}.{{10}}", text)


@pytest.mark.parametrize("lang", ["ru", "et"])
def test_the_translation_notice_follows_the_git_rule(built_site, lang):
    """An up-to-date translation shows no notice; one older than English (by git) shows it."""
    git = Git()
    older = git.file_time(SOURCE["en"], source=True) > git.file_time(SOURCE[lang])
    html = read(built_site, PAGE[lang])
    assert ("data-translation-outdated" in html) == older
    assert "data-translation-missing" not in html


def test_russian_section_sign_and_dashes_are_bound(built_site):
    text = page_prose(built_site, "ru")
    assert "§\u00a04" in text and " —" not in text and "уроке\u00a002" in text


# Each language once and each size at least once (the link's target in every language is proven
# without a browser: test_lesson_02_links_to_section_4_in_the_same_language).
@pytest.mark.parametrize(("lang", "size"), [("en", "1280x800"), ("ru", "390x844"), ("et", "1280x800")])
def test_clicking_lesson_02s_link_lands_on_section_4(browser, site_server, lang, size):
    """In a real browser: the link opens page 00 in the same language with § 4 just under the header,
    and it stays there while the widgets on the page wake."""
    width, height = map(int, size.split("x"))
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        page.goto(site_server + LESSON[lang].removesuffix("index.html"))
        page.click("article a[href*='00-basics']")
        page.wait_for_url(f"**/{PAGE[lang].removesuffix('index.html')}#{ANCHOR}", timeout=5000)
        assert page.evaluate("document.documentElement.lang") == lang
        for woken in (False, True):  # once on arrival, again after the knob under the heading has woken
            if woken:
                page.wait_for_function("document.querySelector('#tinydag-knob-1').dataset.live === 'ready'")
            header, heading = page.evaluate(f"""[
                document.querySelector('.md-header').getBoundingClientRect().bottom,
                document.getElementById('{ANCHOR}').getBoundingClientRect().top]""")
            assert header <= heading <= header + 60, (lang, size, woken, header, heading)
        assert errors == []
    finally:
        context.close()
