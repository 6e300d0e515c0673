"""The static figure (plugins/tinydag_mkdocs/sandbox/figure.py): one card per node, numbers, edges, badges."""

from __future__ import annotations

import html
import json
import random
import re
import subprocess
import xml.etree.ElementTree as ET

import pytest
import yaml

from tests.conftest import ROOT
from tests.test_site import LESSON, read
from tinydag import build_timeline
from tinydag_mkdocs.base.numbers import format_number, product_text
from tinydag_mkdocs.sandbox.figure import render_svg, width_of
from tinydag_mkdocs.site.typography import typeset_text

SVG = "{http://www.w3.org/2000/svg}"
LABELS = {"value": "value", "grad": "grad", "derived": "derived", "const": "const",
          "not_reached": "not reached yet"}
EXPRESSIONS = [
    ("(a + b) * c", {"a": 2, "b": -3, "c": 10}),
    ("relu(a * b)", {"a": 2, "b": 3}),
    ("a * a", {"a": 3}),
    ("(a - b) / c", {"a": 5, "b": 2, "c": 4}),
    ("log(exp(a) + b ** 2)", {"a": 1, "b": 2}),
    ("relu(w * x + v * y + b)", {"w": 0.5, "x": 2, "v": -1, "y": 0.5, "b": 0.25}),
    ("-a + 2 * a ** 3 - 1 / a", {"a": 1.5}),
]


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def cards(root: ET.Element) -> dict[str, ET.Element]:
    return {g.get("data-figure-node"): g for g in root.iter(f"{SVG}g") if g.get("data-figure-node")}


def field(card: ET.Element, name: str) -> str:
    (text,) = [t.text for t in card.iter(f"{SVG}text") if t.get("data-figure-field") == name]
    return text


def number(text: str) -> float:
    return float(text.replace("\u2212", "-"))


@pytest.mark.parametrize(("expression", "values"), EXPRESSIONS)
def test_one_card_per_node_with_its_value_and_grad(expression, values):
    timeline = build_timeline(expression, values)
    found = cards(parse(render_svg(timeline, LABELS)))
    assert list(found) == [n["id"] for n in timeline["nodes"]]
    for node in timeline["nodes"]:
        card = found[node["id"]]
        assert field(card, "value") == format_number(node["value"])
        assert field(card, "grad") == format_number(node["grad"])
        assert number(field(card, "grad")) == pytest.approx(node["grad"], rel=1e-3, abs=1e-9)


@pytest.mark.parametrize(("expression", "values"), EXPRESSIONS)
def test_one_arrow_per_edge_and_a_chain_rule_label_per_backward_step(expression, values):
    timeline = build_timeline(expression, values)
    root = parse(render_svg(timeline, LABELS, id_prefix="fig-3"))
    paths = [p for p in root.iter(f"{SVG}path") if p.get("data-figure-edge")]
    assert [p.get("data-figure-edge") for p in paths] == [e["id"] for e in timeline["edges"]]
    assert all(p.get("marker-end") == f"url(#fig-3-arrow-{p.get('data-sign')})" for p in paths)
    assert len({p.get("d") for p in paths}) == len(paths), "parallel edges must be distinct arcs"
    chains = {t.get("data-figure-edge"): t.text for t in root.iter(f"{SVG}text") if t.get("data-figure-edge")}
    for step in timeline["backward"]:
        assert chains[step["edge"]] == product_text(step["incoming"], step["local"], step["contribution"])


def test_edges_into_one_card_never_cross_before_it():
    """Their ports follow their inputs' heights (log(a) sits above its sibling, next to its leaf a), as
    the player's do (tests/ts/player-geometry.test.ts)."""
    timeline = build_timeline("(a + b) * c + log(a)", {"a": 2, "b": -3, "c": 10})
    root = parse(render_svg(timeline, LABELS))
    ends = {}  # edge id -> (start y, end y): the path is "Mx0,y0 C… x1,y1"
    for path in root.iter(f"{SVG}path"):
        if path.get("data-figure-edge"):
            numbers = [float(n) for n in re.findall(r"-?[\d.]+", path.get("d"))]
            ends[path.get("data-figure-edge")] = (numbers[1], numbers[-1])
    out = timeline["nodes"][-1]
    (upper, lower) = sorted((e for e in timeline["edges"] if e["to"] == out["id"]),
                            key=lambda e: ends[e["id"]][0])
    assert upper["slot"] == 1, "log(a), the second input, is the upper one"
    assert ends[upper["id"]][1] < ends[lower["id"]][1]


def test_the_default_graph_reads_as_the_lesson_says():
    timeline = build_timeline("(a + b) * c", {"a": 2, "b": -3, "c": 10})
    root = parse(render_svg(timeline, LABELS))
    chains = sorted(t.text for t in root.iter(f"{SVG}text") if t.get("data-figure-edge"))
    times, minus = "\u00d7", "\u2212"
    assert chains == [f"1 {times} ({minus}1) = {minus}1", f"1 {times} 10 = 10", f"10 {times} 1 = 10",
                      f"10 {times} 1 = 10"]
    assert root.find(f"{SVG}title").text.startswith("(a + b) * c. a: value 2, grad 10;")


SMALL_FACTOR = ("(a + b) * c", {"a": 2, "b": -3, "c": 0.01})  # contributions 0.01 and 1: widths differ


@pytest.mark.parametrize(("expression", "values"), [*EXPRESSIONS, SMALL_FACTOR])
def test_edges_are_as_thick_as_their_contribution_and_dead_paths_dashed(expression, values):
    """Edges encode as the player's do: data-contribution, stroke-width ordered by |contribution|."""
    timeline = build_timeline(expression, values)
    root = parse(render_svg(timeline, LABELS))
    paths = [p for p in root.iter(f"{SVG}path") if p.get("data-figure-edge")]
    contributions = {s["edge"]: s["contribution"] for s in timeline["backward"]}
    drawn = []
    for path in paths:
        contribution = float(path.get("data-contribution"))
        assert contribution == contributions[path.get("data-figure-edge")]
        dashed = path.get("stroke-dasharray") is not None
        assert dashed == (contribution == 0)
        assert path.get("data-sign") == ("zero" if contribution == 0 else "positive" if contribution > 0
                                         else "negative")
        drawn.append((abs(contribution), float(path.get("stroke-width"))))
    widths = [w for _, w in sorted(drawn)]
    assert widths == sorted(widths)
    cores = [p for p in root.iter(f"{SVG}path") if "tinydag-svg__core" in (p.get("class") or "")]
    assert len(cores) == sum(1 for p in paths if p.get("data-sign") == "negative")


def test_dead_relu_figure_is_dashed():
    root = parse(render_svg(build_timeline("relu(a * b)", {"a": 2, "b": -3}), LABELS))
    paths = [p for p in root.iter(f"{SVG}path") if p.get("data-figure-edge")]
    assert paths and all(p.get("stroke-dasharray") and float(p.get("data-contribution")) == 0 for p in paths)


def ts_map(tmp_path, module: str, function: str, xs: list, spread: bool = False) -> list:
    """`xs.map(function)` run by the player's own TypeScript (bundled by esbuild, run by node);
    `spread`: each x is a list of arguments."""
    call = f"(x) => {function}(...x)" if spread else function
    (tmp_path / "probe.ts").write_text(
        f'import {{ {function} }} from "{ROOT / module}";\n'
        'const xs = JSON.parse(process.argv[2] ?? "[]");\n'
        f"console.log(JSON.stringify(xs.map({call})));\n")
    subprocess.run([str(ROOT / "node_modules/.bin/esbuild"), str(tmp_path / "probe.ts"), "--bundle",
                    "--platform=node", "--format=esm", f"--outfile={tmp_path / 'probe.mjs'}",
                    "--log-level=error"], check=True)
    done = subprocess.run(["node", str(tmp_path / "probe.mjs"), json.dumps(xs)],
                          capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def test_edge_widths_match_the_players_encoding_ts(tmp_path):
    """tinydag_mkdocs/sandbox/figure.py width_of mirrors src/player/stage/encoding.ts widthOf."""
    xs = [0, 1e-9, 0.001, 0.0123, 0.5, -1, 2, 10, -99.5, 1000, 1e6, -3e-4]
    for x, theirs in zip(xs, ts_map(tmp_path, "src/player/stage/encoding.ts", "widthOf", xs)):
        assert width_of(x) == pytest.approx(theirs, abs=1e-12), x


def test_derived_and_const_badges():
    timeline = build_timeline("(a - b) / c + a ** 2 + 3 * a", {"a": 5, "b": 2, "c": 4})
    found = cards(parse(render_svg(timeline, LABELS)))

    def badge(node: dict) -> str | None:
        marks = [g.get("data-badge") for g in found[node["id"]].iter(f"{SVG}g") if g.get("data-badge")]
        return marks[0] if marks else None

    ops = {n["op"]: badge(n) for n in timeline["nodes"]}
    assert ops["-"] == ops["/"] == "derived"
    assert ops["**"] == ops["const"] == "const"
    assert ops["+"] is ops["*"] is ops["var"] is None


def test_labels_come_from_the_strings_given():
    timeline = build_timeline("a * b", {"a": 2, "b": 3})
    labels = {"value": "väärtus", "grad": "gradient", "derived": "tuletatud", "const": "konst."}
    root = parse(render_svg(timeline, labels))
    words = [t.text for t in root.iter(f"{SVG}text") if "tinydag-svg__row" in (t.get("class") or "")]
    assert words == ["väärtus", "gradient"] * 3


@pytest.mark.parametrize(("x", "text"), [
    (10, "10"), (-1, "\u22121"), (1 / 3, "0.3333"), (123456, "1.235e5"), (-0.0, "0"), (0.0, "0"),
    (0.015625, "0.01563"), (1234.5, "1235"), (0.99996, "1"), (9999.6, "1e4"), (0.00099996, "0.001"),
    (0.00099994, "9.999e\u22124"), (1e-7, "1e\u22127"), (-123456789, "\u22121.235e8"),
    (2.5e-7, "2.5e\u22127"), (-10.001, "\u221210"), (0.1 + 0.2, "0.3"), (6.0, "6"),
])
def test_numbers_are_compact_like_the_players(x, text):
    assert format_number(x) == text


@pytest.mark.parametrize("lang", ["en", "ru", "et"])
def test_the_built_page_has_the_figure_in_its_language(built_site, lang):
    strings = yaml.safe_load((ROOT / f"src/player/strings/{lang}.yml").read_text(encoding="utf-8"))
    page = read(built_site, LESSON[lang])
    figure = re.search(r'<figure class="tinydag-figure">(<svg.*?</svg>)<figcaption>(.*?)</figcaption>',
                       page, re.S)
    assert figure, "the sandbox has no static figure"
    root = parse(figure[1])
    rows = {t.text for t in root.iter(f"{SVG}text") if "tinydag-svg__row" in (t.get("class") or "")}
    assert rows == {strings["value"], strings["grad"]}
    caption = html.unescape(re.sub(r"<[^>]+>", "", figure[2]))
    expected = strings["figure_caption"].replace("{expression}", "(a + b) * c")
    assert caption == f"{expected} {strings['no_webgl']}"
    assert len(cards(root)) == 5
    edges = [p for p in root.iter(f"{SVG}path") if p.get("data-figure-edge")]
    assert len(edges) == 4 and all(p.get("data-contribution") and p.get("stroke-width") for p in edges)


@pytest.mark.parametrize(("expression", "values"), EXPRESSIONS[:3])
def test_after_the_forward_pass_only_every_value_shows_and_no_grad(expression, values):
    """The compact sandbox's figure: the state its player wakes in (forward done, waiting for Backward)."""
    timeline = build_timeline(expression, values)
    root = parse(render_svg(timeline, LABELS, backward=False))
    found = cards(root)
    assert list(found) == [n["id"] for n in timeline["nodes"]]
    for node in timeline["nodes"]:
        card = found[node["id"]]
        assert field(card, "value") == format_number(node["value"])
        assert field(card, "grad") == "--"  # as the player's cards write a number not reached yet
        assert card.find(f"{SVG}title").text.endswith("grad not reached yet")
    edges = [p for p in root.iter(f"{SVG}path") if p.get("data-figure-edge")]
    assert len(edges) == len(timeline["edges"]) and not any(p.get("data-contribution") for p in edges)
    assert not [t for t in root.iter(f"{SVG}text") if "tinydag-svg__chain" in (t.get("class") or "")]
    assert "grad " + format_number(timeline["nodes"][-1]["grad"]) not in root.find(f"{SVG}title").text


@pytest.mark.parametrize("lang", ["en", "ru", "et"])
def test_the_compact_sandboxs_figure_waits_for_backward_in_its_language(built_site, lang):
    strings = yaml.safe_load((ROOT / f"src/player/strings/{lang}.yml").read_text(encoding="utf-8"))
    page = read(built_site, LESSON[lang])
    figure = re.search(r'<figure class="tinydag-figure tinydag-figure--compact">(<svg.*?</svg>)'
                       r"<figcaption>(.*?)</figcaption>", page, re.S)
    assert figure, "the compact sandbox has no static figure"
    found = cards(parse(figure[1]))
    assert len(found) == 5 and {field(card, "grad") for card in found.values()} == {"--"}
    assert [field(card, "value") for card in found.values()] == ["2", "\u22123", "\u22121", "10", "\u221210"]
    caption = html.unescape(re.sub(r"<[^>]+>", "", figure[2]))
    expected = typeset_text(strings["figure_caption_forward"].replace("{expression}", "(a + b) * c"), lang)
    assert caption == f"{expected} {typeset_text(strings['no_webgl'], lang)}"


def test_numbers_match_the_players_format_ts(tmp_path):
    """The figure and the player print the same text for the same number (src/player/model/format.ts)."""
    rng = random.Random(2)
    numbers = [10, -1, 1 / 3, 123456, -0.0, 0.015625, 1234.5, 0.99996, 9999.6, 0.00099996, 0.00099994,
               2.5e-7, 1e-7, 0.1 + 0.2, 1e21, 5e-324, 1.7e308, 0.0005, 0.12345, 99995]
    numbers += [rng.choice((-1, 1)) * rng.uniform(1, 10) * 10.0 ** rng.randint(-9, 9) for _ in range(3000)]
    numbers += [round(rng.uniform(-20, 20), rng.randint(0, 5)) for _ in range(1000)]
    theirs = ts_map(tmp_path, "src/player/model/format.ts", "formatNumber", numbers)
    mismatches = [(x, ours, t) for x, t in zip(numbers, theirs) if (ours := format_number(x)) != t]
    assert not mismatches, mismatches[:10]


def test_chain_labels_match_the_players_product_text(tmp_path):
    """The figure's chain-rule labels read as the player's edge labels (format.ts productText): a
    negative factor in parentheses, "≈" where the factors shown do not multiply to the result shown."""
    assert product_text(1, -1, -1) == "1 \u00d7 (\u22121) = \u22121"
    assert product_text(0.14881, 2.71828, 0.14881 * 2.71828) == "0.1488 \u00d7 2.718 \u2248 0.4045"
    rng = random.Random(3)
    triples = [[1, -1, -1], [-2, -3, 6], [0.14881, 2.71828, 0.4045], [0, -5, 0], [1e-7, -3, -3e-7]]
    for _ in range(800):
        a, b = (rng.choice((-1, 1)) * rng.uniform(0.01, 50) for _ in range(2))
        triples.append([a, b, a * b])
    theirs = ts_map(tmp_path, "src/player/model/format.ts", "productText", triples, spread=True)
    mismatches = [(t, ours, x) for t, x in zip(triples, theirs) if (ours := product_text(*t)) != x]
    assert not mismatches, mismatches[:5]
