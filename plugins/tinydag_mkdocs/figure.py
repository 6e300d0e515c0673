"""A timeline's final state as a static SVG: what readers without JavaScript or WebGL see, and what prints.

Cards sit at the layout's own x/y (the player's scene coordinates, scaled to pixels), showing the
operation, the value and the final gradient; edges are curves with arrowheads, labelled with the
chain-rule step that crossed them: incoming grad x local derivative = contribution. Edges use the
player's encodings (src/player/encoding.ts): the stroke grows with |contribution| (log-scaled), the
colour gives its sign, negative edges are hollow (a pale core line) as a second cue, and a dead path
(exactly 0) is thin, grey and dashed; each edge element carries data-contribution.
Colours come from CSS classes (the site's stylesheet follows the light/dark palette); presentation
attributes keep the figure readable without any stylesheet.
"""

from __future__ import annotations

import math
from decimal import ROUND_HALF_UP, Decimal
from html import escape

SCALE_X, SCALE_Y = 105.0, 84.0  # pixels per scene unit: columns 252 px apart, rows 126 px
CARD_W, CARD_H = 128.0, 76.0
MARGIN = 24.0
SLOT_GAP = 16.0  # vertical distance between the input slots on a card's left side
BOW = 34.0  # how far parallel edges (a * a) bend apart
LABEL_FONT = 11
LABEL_SPOTS = (0.5, 0.62, 0.38, 0.74, 0.26, 0.84, 0.16)  # where along an edge its label may sit
MINUS = "\u2212"
OP_TEXT = {"neg": "-", "var": "", "const": ""}
EDGE_STROKE = 1.6  # px for an edge of relative width 1
# As src/player/encoding.ts: |contribution| 0.001 draws thinnest, 1000 thickest, log-scaled.
DECADES_LOW, DECADES_HIGH, THINNEST, THICKEST, DEAD_WIDTH = -3.0, 3.0, 0.55, 2.6, 0.55
SIGN_COLOUR = {"positive": "#a93c0c", "negative": "#0b7a72", "zero": "#8a8a8a"}


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


def format_number(x: float) -> str:
    """Compact, at most 4 significant digits; the same text as the player's formatNumber()."""
    if x == 0:
        return "0"  # also -0.0
    magnitude = Decimal(abs(x))  # exact: rounded half up, as JavaScript's toPrecision(4) does
    rounded = magnitude.quantize(Decimal(1).scaleb(magnitude.adjusted() - 3), ROUND_HALF_UP)
    if rounded >= 10_000 or rounded < Decimal("0.001"):  # judged after rounding: 9999.6 is 1e4
        exponent = rounded.adjusted()
        text = f"{_strip_zeros(f'{rounded.scaleb(-exponent):f}')}e{exponent}"
    else:
        text = _strip_zeros(f"{rounded:f}")
    if text == "0":
        return "0"
    return MINUS + text if x < 0 else text


def _strip_zeros(fixed: str) -> str:
    return fixed.rstrip("0").rstrip(".") if "." in fixed else fixed


def render_svg(timeline: dict, labels: dict[str, str], id_prefix: str = "tinydag") -> str:
    """The SVG markup; `labels` holds the page language's value, grad, derived and const."""
    nodes = {n["id"]: n for n in timeline["nodes"]}
    steps = {step["edge"]: step for step in timeline["backward"]}
    chains = {edge_id: (f'{format_number(s["incoming"])} \u00d7 {format_number(s["local"])} = '
                        f'{format_number(s["contribution"])}') for edge_id, s in steps.items()}
    # Columns spread apart when a chain-rule label would not fit between two cards.
    columns = max(n["column"] for n in nodes.values())
    unit = max(n["x"] for n in nodes.values()) / columns if columns else 1.0
    widest = max((_text_width(text) for text in chains.values()), default=0.0)
    scale_x = max(SCALE_X, (CARD_W + widest + 16) / unit)
    top = max(n["y"] for n in nodes.values())
    width = MARGIN * 2 + CARD_W + columns * unit * scale_x
    height = MARGIN * 2 + CARD_H + (top - min(n["y"] for n in nodes.values())) * SCALE_Y + 12

    def center(node: dict) -> tuple[float, float]:
        return (MARGIN + CARD_W / 2 + node["x"] * scale_x,
                MARGIN + 12 + CARD_H / 2 + (top - node["y"]) * SCALE_Y)

    boxes = [_box(*center(n), CARD_W + 8, CARD_H + 8) for n in nodes.values()]  # labels keep off
    arrow = f"{id_prefix}-arrow"
    edges, edge_labels = [], []
    for edge in timeline["edges"]:
        source, target = nodes[edge["from"]], nodes[edge["to"]]
        (sx, sy), (tx, ty) = center(source), center(target)
        slots = len(target["inputs"])
        x0, y0 = sx + CARD_W / 2, sy
        x1, y1 = tx - CARD_W / 2 - 2, ty + (edge["slot"] - (slots - 1) / 2) * SLOT_GAP
        twins = [e for e in timeline["edges"] if e["from"] == edge["from"] and e["to"] == edge["to"]]
        bend = (twins.index(edge) - (len(twins) - 1) / 2) * 2 * BOW if len(twins) > 1 else 0.0
        reach = (x1 - x0) / 2
        curve = ((x0, y0), (x0 + reach, y0 + bend), (x1 - reach, y1 + bend), (x1, y1))
        (_, _), c0, c1, _ = curve
        edges.append(_edge(edge["id"], f'M{_n(x0)},{_n(y0)} C{_n(c0[0])},{_n(c0[1])} {_n(c1[0])},'
                                       f'{_n(c1[1])} {_n(x1)},{_n(y1)}', steps.get(edge["id"]), arrow))
        if edge["id"] in chains:
            text = chains[edge["id"]]
            x, y, box = _place_label(curve, _text_width(text), boxes)
            boxes.append(box)
            edge_labels.append(f'<text class="tinydag-svg__chain" data-figure-edge="{edge["id"]}" '
                               f'x="{_n(x)}" y="{_n(y)}" text-anchor="middle" font-size="{LABEL_FONT}" '
                               f'fill="#555">{escape(text)}</text>')

    cards = [_card(node, *center(node), labels) for node in timeline["nodes"]]
    title = "; ".join(f'{n["label"]}: {labels["value"]} {format_number(n["value"])}, '
                      f'{labels["grad"]} {format_number(n["grad"])}' for n in timeline["nodes"])
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="tinydag-svg" role="img" '
        f'aria-labelledby="{id_prefix}-title" viewBox="0 0 {_n(width)} {_n(height)}" '
        f'width="{_n(width)}" height="{_n(height)}" font-family="sans-serif">'
        f'<title id="{id_prefix}-title">{escape(timeline["expression"])}. {escape(title)}</title>'
        f'<defs>{"".join(_marker(arrow, sign) for sign in SIGN_COLOUR)}</defs>'
        f'<g class="tinydag-svg__edges">{"".join(edges)}</g>'
        f'<g class="tinydag-svg__cards">{"".join(cards)}</g>'
        f'<g class="tinydag-svg__chains" paint-order="stroke">{"".join(edge_labels)}</g>'
        f"</svg>"
    )


def _edge(edge_id: str, path: str, step: dict | None, arrow: str) -> str:
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


def _place_label(curve, width: float, taken: list[tuple[float, float, float, float]]):
    """A point on the curve, near its middle, where the label overlaps no card and no other label."""
    first = None
    for t in LABEL_SPOTS:
        x, y = _bezier(curve, t)
        box = _box(x, y - 8, width, LABEL_FONT + 4)
        first = first or (x, y - 4, box)
        if not any(_overlap(box, other) for other in taken):
            return x, y - 4, box
    return first


def _bezier(curve, t: float) -> tuple[float, float]:
    (p0, p1, p2, p3), u = curve, 1 - t
    return tuple(u**3 * a + 3 * u * u * t * b + 3 * u * t * t * c + t**3 * d
                 for a, b, c, d in zip(p0, p1, p2, p3))


def _box(cx: float, cy: float, w: float, h: float) -> tuple[float, float, float, float]:
    return cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2


def _overlap(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _text_width(text: str, font: float = 11.0) -> float:
    return len(text) * font * 0.6 + 6  # monospace digits: 0.6 em each


def _card(node: dict, cx: float, cy: float, labels: dict[str, str]) -> str:
    left, top = cx - CARD_W / 2, cy - CARD_H / 2
    op = node["op"]
    heading = node.get("name") or (node["label"] if op == "const" else OP_TEXT.get(op, op))
    if op == "**":
        heading = f'** {node["exponent_label"]}'
    room = CARD_W - 20 - 8 - len(heading) * 9.5  # beside the heading (15 px bold: ~9.5 px a letter)
    subtitle = "" if op in ("var", "const") else _fit(node["label"], room)
    kind = "var" if op == "var" else "const" if op == "const" else "op"
    parts = [
        f'<g class="tinydag-svg__card tinydag-svg__card--{kind}" data-figure-node="{node["id"]}" '
        f'data-op="{escape(op)}">',
        f'<title>{escape(node["label"])}: {escape(labels["value"])} {format_number(node["value"])}, '
        f'{escape(labels["grad"])} {format_number(node["grad"])}</title>',
        f'<rect x="{_n(left)}" y="{_n(top)}" width="{_n(CARD_W)}" height="{_n(CARD_H)}" rx="8" '
        f'fill="#ffffff" stroke="#8a8a8a"/>',
        f'<text class="tinydag-svg__op" x="{_n(left + 10)}" y="{_n(top + 20)}" font-size="15" '
        f'font-weight="700" fill="#222">{escape(heading)}</text>',
    ]
    if subtitle and subtitle != heading:
        parts.append(f'<text class="tinydag-svg__label" x="{_n(left + CARD_W - 10)}" y="{_n(top + 19)}" '
                     f'text-anchor="end" font-size="11" fill="#666">{escape(subtitle)}</text>')
    for row, field in enumerate(("value", "grad")):
        y = top + 44 + row * 20
        parts.append(
            f'<text class="tinydag-svg__row tinydag-svg__row--{field}" x="{_n(left + 10)}" y="{_n(y)}" '
            f'font-size="12" fill="#555">{escape(labels[field])}</text>'
            f'<text class="tinydag-svg__number tinydag-svg__number--{field}" data-figure-field="{field}" '
            f'x="{_n(left + CARD_W - 10)}" y="{_n(y)}" text-anchor="end" font-size="13" '
            f'fill="#222">{format_number(node[field])}</text>')
    badge = labels["derived"] if node.get("derived") else labels["const"] if op in ("**", "const") else None
    if badge:
        width = 14 + 6.5 * len(badge)
        parts.append(
            f'<g class="tinydag-svg__badge" data-badge="{"derived" if node.get("derived") else "const"}">'
            f'<rect x="{_n(left + CARD_W - width - 8)}" y="{_n(top - 9)}" width="{_n(width)}" height="17" '
            f'rx="8.5" fill="#eeeeee" stroke="#8a8a8a"/>'
            f'<text x="{_n(left + CARD_W - 8 - width / 2)}" y="{_n(top + 3.5)}" text-anchor="middle" '
            f'font-size="10.5" fill="#444">{escape(badge)}</text></g>')
    parts.append("</g>")
    return "".join(parts)


def _fit(label: str, room: float, font: float = 11.0) -> str:
    """The label, cut with an ellipsis to the characters that fit in `room` pixels of monospace."""
    chars = int(room // (font * 0.6))
    if len(label) <= chars:
        return label
    return label[: chars - 1] + "\u2026" if chars >= 4 else ""


def _n(x: float) -> str:
    """Pixel coordinates with at most one decimal, so the markup stays small."""
    text = f"{x:.1f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text
