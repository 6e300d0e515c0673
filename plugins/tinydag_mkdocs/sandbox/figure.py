"""A timeline's final state as a static SVG: what readers without JavaScript or WebGL see, and what prints.
A compact sandbox's figure shows the state its player wakes in instead: the forward pass done, every
value on its card and no gradient yet (`backward=False`), so nothing on the first screen changes when
the player takes the figure's place.

Cards sit at the layout's own x/y (the player's scene coordinates, scaled to pixels), showing the
operation, the value and the final gradient; edges are curves with arrowheads, labelled with the
chain-rule step that crossed them: incoming grad x local derivative = contribution. Edges use the
player's encodings (src/player/stage/encoding.ts): the stroke grows with |contribution| (log-scaled), the
colour gives its sign, negative edges are hollow (a pale core line) as a second cue, and a dead path
(exactly 0) is thin, grey and dashed; each edge element carries data-contribution.
Colours come from CSS classes (the site's stylesheet follows the light/dark palette); presentation
attributes keep the figure readable without any stylesheet.
"""

from __future__ import annotations

import math
from html import escape

from tinydag.types import BackwardStep, Timeline, TimelineNode

from ..base.numbers import format_number, product_text

SCALE_X, SCALE_Y = 105.0, 84.0  # pixels per scene unit: columns 252 px apart, rows 126 px
CARD_W, CARD_H = 128.0, 76.0
MARGIN = 24.0
BADGE_ROOM = 12  # above the top row, where badges stick out of their cards
LABEL_ROOM = 16  # beside the widest chain-rule label, when columns spread apart to fit it
SLOT_GAP = 16.0  # vertical distance between the input slots on a card's left side
BOW = 34.0  # how far parallel edges (a * a) bend apart
LABEL_FONT = 11
LABEL_SPOTS = (0.5, 0.62, 0.38, 0.74, 0.26, 0.84, 0.16)  # where along an edge its label may sit
OP_TEXT = {"neg": "-", "var": "", "const": ""}
NOT_REACHED = "--"  # a number the pulse has not reached, as the player's cards write it (card.ts)
EDGE_STROKE = 1.6  # px for an edge of relative width 1
# As src/player/stage/encoding.ts: |contribution| 0.001 draws thinnest, 1000 thickest, log-scaled.
DECADES_LOW, DECADES_HIGH, THINNEST, THICKEST, DEAD_WIDTH = -3.0, 3.0, 0.55, 2.6, 0.55
SIGN_COLOUR = {"positive": "#a93c0c", "negative": "#0b7a72", "zero": "#8a8a8a"}
MONOSPACE = 0.6  # em per character of monospace text (digits)
# A card, in pixels from its top left corner (font sizes in px too).
CARD_RADIUS = 8
PAD = 10  # text's distance from the left and right sides
HEADING_FONT, HEADING_BASELINE = 15, 20
HEADING_LETTER = 9.5  # the bold 15 px heading's width per letter, roughly
HEADING_GAP = 8  # between the heading and the subtitle beside it
SUBTITLE_FONT, SUBTITLE_BASELINE = 11, 19
ROW_FONT, NUMBER_FONT = 12, 13  # "value" / "grad" and their numbers
FIRST_ROW, ROW_STEP = 44, 20  # baselines of the value row and the grad row below it
# The badge (derived, const) straddles the card's top edge at its right.
BADGE_TOP, BADGE_HEIGHT, BADGE_BASELINE, BADGE_INSET = -9, 17, 3.5, 8
BADGE_FONT, BADGE_PADDING, BADGE_LETTER = 10.5, 14, 6.5  # width: padding + letter width per letter

Point = tuple[float, float]
Curve = tuple[Point, Point, Point, Point]  # a cubic Bezier's four control points
Box = tuple[float, float, float, float]  # left, top, right, bottom


def width_of(contribution: float) -> float:
    """Relative thickness of an edge that carried `contribution` (encoding.ts widthOf)."""
    if contribution == 0:
        return DEAD_WIDTH
    if not math.isfinite(contribution):
        return THICKEST
    t = (math.log10(abs(contribution)) - DECADES_LOW) / (DECADES_HIGH - DECADES_LOW)
    return THINNEST + (THICKEST - THINNEST) * min(1.0, max(0.0, t))


def sign_of(contribution: float) -> str:
    return "zero" if contribution == 0 else "positive" if contribution > 0 else "negative"


def render_svg(timeline: Timeline, labels: dict[str, str], id_prefix: str = "tinydag",
               backward: bool = True) -> str:
    """The SVG markup; `labels` holds the page language's value, grad, derived, const and not_reached.
    `backward=False`: after the forward pass only (grads "--", plain edges, no chain-rule labels)."""
    if not backward:
        timeline = {**timeline, "backward": []}
    grid = _Grid(timeline)
    arrow = f"{id_prefix}-arrow"
    edges, edge_labels = _edges(timeline, grid, arrow)
    cards = [_card(node, *grid.center(node), labels, backward) for node in timeline["nodes"]]
    title = "; ".join(f'{n["label"]}: {_numbers(n, labels, backward)}' for n in timeline["nodes"])
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="tinydag-svg" role="img" '
        f'aria-labelledby="{id_prefix}-title" viewBox="0 0 {_n(grid.width)} {_n(grid.height)}" '
        f'width="{_n(grid.width)}" height="{_n(grid.height)}" font-family="sans-serif">'
        f'<title id="{id_prefix}-title">{escape(timeline["expression"])}. {escape(title)}</title>'
        f'<defs>{"".join(_marker(arrow, sign) for sign in SIGN_COLOUR)}</defs>'
        f'<g class="tinydag-svg__edges">{"".join(edges)}</g>'
        f'<g class="tinydag-svg__cards">{"".join(cards)}</g>'
        f'<g class="tinydag-svg__chains" paint-order="stroke">{"".join(edge_labels)}</g>'
        f"</svg>"
    )


def _chain_texts(timeline: Timeline) -> dict[str, str]:
    """Per edge that backward crossed: incoming grad x local derivative = contribution."""
    steps = timeline["backward"]
    return {s["edge"]: product_text(s["incoming"], s["local"], s["contribution"]) for s in steps}


class _Grid:
    """Scene coordinates to pixels. Columns spread apart when a chain-rule label would not fit
    between two cards."""

    def __init__(self, timeline: Timeline) -> None:
        nodes = timeline["nodes"]
        columns = max(n["column"] for n in nodes)
        unit = max(n["x"] for n in nodes) / columns if columns else 1.0
        widest = max((_text_width(text) for text in _chain_texts(timeline).values()), default=0.0)
        self.scale_x = max(SCALE_X, (CARD_W + widest + LABEL_ROOM) / unit)
        self.top = max(n["y"] for n in nodes)
        self.width = MARGIN * 2 + CARD_W + columns * unit * self.scale_x
        self.height = (MARGIN * 2 + CARD_H + (self.top - min(n["y"] for n in nodes)) * SCALE_Y
                       + BADGE_ROOM)

    def center(self, node: TimelineNode) -> tuple[float, float]:
        return (MARGIN + CARD_W / 2 + node["x"] * self.scale_x,
                MARGIN + BADGE_ROOM + CARD_H / 2 + (self.top - node["y"]) * SCALE_Y)


def _ports_by_source(timeline: Timeline) -> dict[str, int]:
    """Which slot on its operation's side each edge arrives at, from the top: in the order of the inputs'
    heights, so two edges into one card never cross just before it; inputs at the same height keep
    their slots' order (the player's curves.ts, portsBySource)."""
    height = {n["id"]: n["y"] for n in timeline["nodes"]}
    into: dict[str, list] = {}
    for edge in timeline["edges"]:
        into.setdefault(edge["to"], []).append(edge)
    return {edge["id"]: port for edges in into.values()
            for port, edge in enumerate(sorted(edges, key=lambda e: (-height[e["from"]], e["slot"])))}


def _edges(timeline: Timeline, grid: _Grid, arrow: str) -> tuple[list[str], list[str]]:
    """Each edge as a curve from its input's right side to its slot on the operation's left side,
    and each chain-rule label at a spot on its curve that no card or other label covers."""
    nodes = {n["id"]: n for n in timeline["nodes"]}
    steps = {step["edge"]: step for step in timeline["backward"]}
    chains = _chain_texts(timeline)
    boxes = [_box(*grid.center(n), CARD_W + 8, CARD_H + 8) for n in nodes.values()]  # labels keep off
    ports = _ports_by_source(timeline)
    edges, edge_labels = [], []
    for edge in timeline["edges"]:
        source, target = nodes[edge["from"]], nodes[edge["to"]]
        (sx, sy), (tx, ty) = grid.center(source), grid.center(target)
        slots = len(target["inputs"])
        x0, y0 = sx + CARD_W / 2, sy
        x1, y1 = tx - CARD_W / 2 - 2, ty + (ports[edge["id"]] - (slots - 1) / 2) * SLOT_GAP
        twins = [e for e in timeline["edges"] if e["from"] == edge["from"] and e["to"] == edge["to"]]
        bend = (twins.index(edge) - (len(twins) - 1) / 2) * 2 * BOW if len(twins) > 1 else 0.0
        reach = (x1 - x0) / 2
        curve: Curve = ((x0, y0), (x0 + reach, y0 + bend), (x1 - reach, y1 + bend), (x1, y1))
        _, c0, c1, _ = curve
        edges.append(_edge(edge["id"], f'M{_n(x0)},{_n(y0)} C{_n(c0[0])},{_n(c0[1])} {_n(c1[0])},'
                                       f'{_n(c1[1])} {_n(x1)},{_n(y1)}', steps.get(edge["id"]), arrow))
        if edge["id"] in chains:
            text = chains[edge["id"]]
            x, y, box = _place_label(curve, _text_width(text), boxes)
            boxes.append(box)
            edge_labels.append(f'<text class="tinydag-svg__chain" data-figure-edge="{edge["id"]}" '
                               f'x="{_n(x)}" y="{_n(y)}" text-anchor="middle" font-size="{LABEL_FONT}" '
                               f'fill="#555">{escape(text)}</text>')
    return edges, edge_labels


def _edge(edge_id: str, path: str, step: BackwardStep | None, arrow: str) -> str:
    """One edge as its backward step left it: stroke width, colour and dashes say its contribution."""
    if step is None:  # nothing crossed it (never the case after a whole backward pass)
        return (f'<path class="tinydag-svg__edge" data-figure-edge="{edge_id}" d="{path}" fill="none" '
                f'stroke="#8a8a8a" stroke-width="{EDGE_STROKE}" marker-end="url(#{arrow}-zero)"/>')
    contribution = step["contribution"]
    sign = sign_of(contribution)
    width = EDGE_STROKE * width_of(contribution)
    common = (f'data-figure-edge="{edge_id}" data-contribution="{contribution!r}" data-sign="{sign}" '
              f'd="{path}" fill="none"')
    dashes = ' stroke-dasharray="5 4"' if sign == "zero" else ""
    out = (f'<path class="tinydag-svg__edge tinydag-svg__edge--{sign}" {common} '
           f'stroke="{SIGN_COLOUR[sign]}" stroke-width="{_n(width)}"{dashes} '
           f'marker-end="url(#{arrow}-{sign})"/>')
    if sign == "negative":  # hollow: a pale core along the stroke, the sign without its colour
        out += (f'<path class="tinydag-svg__core" d="{path}" fill="none" stroke="#ffffff" '
                f'stroke-width="{_n(max(0.8, width * 0.4))}"/>')
    return out


def _marker(arrow: str, sign: str) -> str:
    return (f'<marker id="{arrow}-{sign}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="9" '
            f'markerHeight="9" markerUnits="userSpaceOnUse" orient="auto-start-reverse">'
            f'<path class="tinydag-svg__arrowhead tinydag-svg__arrowhead--{sign}" d="M0,0 L10,5 L0,10 z" '
            f'fill="{SIGN_COLOUR[sign]}"/></marker>')


def _place_label(curve: Curve, width: float, taken: list[Box]) -> tuple[float, float, Box]:
    """A point on the curve, near its middle, where the label overlaps no card and no other label."""
    first: tuple[float, float, Box] | None = None
    for t in LABEL_SPOTS:
        x, y = _bezier(curve, t)
        box = _box(x, y - 8, width, LABEL_FONT + 4)
        first = first or (x, y - 4, box)
        if not any(_overlap(box, other) for other in taken):
            return x, y - 4, box
    assert first is not None
    return first


def _bezier(curve: Curve, t: float) -> Point:
    (p0, p1, p2, p3), u = curve, 1 - t
    x, y = (u**3 * a + 3 * u * u * t * b + 3 * u * t * t * c + t**3 * d for a, b, c, d in zip(p0, p1, p2, p3))
    return x, y


def _box(cx: float, cy: float, w: float, h: float) -> Box:
    return cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2


def _overlap(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _text_width(text: str, font: float = 11.0) -> float:
    return len(text) * font * MONOSPACE + 6


def _numbers(node: TimelineNode, labels: dict[str, str], backward: bool) -> str:
    """"value 2, grad 10" (after backward), or "value 2, grad not reached yet" (before it)."""
    grad = format_number(node["grad"]) if backward else labels["not_reached"]
    return f'{labels["value"]} {format_number(node["value"])}, {labels["grad"]} {grad}'


def _card(node: TimelineNode, cx: float, cy: float, labels: dict[str, str], backward: bool = True) -> str:
    left, top = cx - CARD_W / 2, cy - CARD_H / 2
    right = left + CARD_W - PAD  # where right-aligned text ends
    op = node["op"]
    heading = node.get("name") or (node["label"] if op == "const" else OP_TEXT.get(op, op))
    if op == "**":
        heading = f'** {node.get("exponent_label", "")}'
    room = CARD_W - 2 * PAD - HEADING_GAP - len(heading) * HEADING_LETTER  # beside the heading
    subtitle = "" if op in ("var", "const") else _fit(node["label"], room)
    kind = "var" if op == "var" else "const" if op == "const" else "op"
    parts = [
        f'<g class="tinydag-svg__card tinydag-svg__card--{kind}" data-figure-node="{node["id"]}" '
        f'data-op="{escape(op)}">',
        f'<title>{escape(node["label"])}: {escape(_numbers(node, labels, backward))}</title>',
        f'<rect x="{_n(left)}" y="{_n(top)}" width="{_n(CARD_W)}" height="{_n(CARD_H)}" rx="{CARD_RADIUS}" '
        f'fill="#ffffff" stroke="#8a8a8a"/>',
        f'<text class="tinydag-svg__op" x="{_n(left + PAD)}" y="{_n(top + HEADING_BASELINE)}" '
        f'font-size="{HEADING_FONT}" font-weight="700" fill="#222">{escape(heading)}</text>',
    ]
    if subtitle and subtitle != heading:
        parts.append(f'<text class="tinydag-svg__label" x="{_n(right)}" y="{_n(top + SUBTITLE_BASELINE)}" '
                     f'text-anchor="end" font-size="{SUBTITLE_FONT}" fill="#666">{escape(subtitle)}</text>')
    for row, field in enumerate(("value", "grad")):
        y = top + FIRST_ROW + row * ROW_STEP
        number = format_number(node["value"] if field == "value" else node["grad"])
        if field == "grad" and not backward:
            number = NOT_REACHED
        parts.append(
            f'<text class="tinydag-svg__row tinydag-svg__row--{field}" x="{_n(left + PAD)}" y="{_n(y)}" '
            f'font-size="{ROW_FONT}" fill="#555">{escape(labels[field])}</text>'
            f'<text class="tinydag-svg__number tinydag-svg__number--{field}" data-figure-field="{field}" '
            f'x="{_n(right)}" y="{_n(y)}" text-anchor="end" font-size="{NUMBER_FONT}" '
            f'fill="#222">{number}</text>')
    if node.get("derived") or op in ("**", "const"):
        parts.append(_badge("derived" if node.get("derived") else "const", labels, left, top))
    parts.append("</g>")
    return "".join(parts)


def _badge(kind: str, labels: dict[str, str], left: float, top: float) -> str:
    text = labels[kind]
    width = BADGE_PADDING + BADGE_LETTER * len(text)
    return (f'<g class="tinydag-svg__badge" data-badge="{kind}">'
            f'<rect x="{_n(left + CARD_W - width - BADGE_INSET)}" y="{_n(top + BADGE_TOP)}" '
            f'width="{_n(width)}" height="{BADGE_HEIGHT}" rx="{BADGE_HEIGHT / 2}" fill="#eeeeee" '
            f'stroke="#8a8a8a"/>'
            f'<text x="{_n(left + CARD_W - BADGE_INSET - width / 2)}" y="{_n(top + BADGE_BASELINE)}" '
            f'text-anchor="middle" font-size="{BADGE_FONT}" fill="#444">{escape(text)}</text></g>')


def _fit(label: str, room: float, font: float = 11.0) -> str:
    """The label, cut with an ellipsis to the characters that fit in `room` pixels of monospace."""
    chars = int(room // (font * MONOSPACE))
    if len(label) <= chars:
        return label
    return label[: chars - 1] + "\u2026" if chars >= 4 else ""


def _n(x: float) -> str:
    """Pixel coordinates with at most one decimal, so the markup stays small."""
    text = f"{x:.1f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text
