"""The knob's static figure: the default curve, the point, the secant and the tangent, and the readout.

Shown without JavaScript, in print, and until the live widget (src/widgets/knob.ts) takes its place.
The live plot uses the same viewBox, margins, y bounds and ticks (src/widgets/knob-plot.ts mirrors
this file), so waking changes the picture's details, never its size.
"""

from __future__ import annotations

import math
from html import escape

from ..base.numbers import prose_number

WIDTH, HEIGHT = 480, 300  # the plot's viewBox
LEFT, RIGHT, TOP, BOTTOM = 44, 12, 12, 26  # margins for the tick labels
Y_PAD = 0.08  # of the y span, above and below the curve
X_TICKS, Y_TICKS = 6, 6  # about this many labelled grid lines each way
LEG_MIN = 24  # viewBox units: a shorter leg of the nudge triangle goes unnamed
SPIKE = 10  # a curve this many times taller than its middle 90 % is cut to that middle


# src/widgets/knob-plot.ts: the knob's 270° travel, the radii of its scale's arc and of its numbers
DIAL_SWEEP, DIAL_RADIUS, DIAL_LABELS = 135, 27, 36
DIAL_STEPS = (1, 2, 3, 4, 5, 6, 8, 10)


def dial_scale(slopes: list[float | None]) -> float:
    """The dial's full scale: the round number at least the curve's steepest |slope|, or that of its
    middle 95 % where a spike is more than twice as steep (it pegs the pointer instead of squeezing
    the scale). knob-plot.ts dialScale."""
    sizes = sorted(abs(s) for s in slopes if s is not None)
    top = sizes[math.ceil(0.95 * (len(sizes) - 1))] if sizes else 0.0
    if sizes and sizes[-1] <= 2 * top:  # no spike: the steepest slope fits on the scale
        top = sizes[-1]
    if not top > 0:
        return 1.0
    power = 10.0 ** math.floor(math.log10(top))
    found = next((m * power for m in DIAL_STEPS if m * power >= top * (1 - 1e-12)), 10 * power)
    return float(f"{found:.12g}")


def dial_angle(slope: float, scale: float) -> float:
    """The pointer's angle: clockwise from straight up, pegged at the scale's ends."""
    return DIAL_SWEEP * max(-1.0, min(1.0, slope / scale))


def dial(slope: float, ratio: float | None, scale: float, label: str, lang: str) -> str:
    """The knob: a dial whose dashed pointer stands at dy/dx and whose solid one at Δy / h (the same
    elements src/widgets/knob-view.ts draws and turns)."""
    a = math.radians(DIAL_SWEEP)
    ex, ey = _n(DIAL_RADIUS * math.sin(a)), _n(-DIAL_RADIUS * math.cos(a))
    ticks = "".join(
        f'<line class="tdg-knob__dial-tick" x1="0" y1="-{DIAL_RADIUS - 4}" x2="0" y2="-{DIAL_RADIUS + 1}" '
        f'transform="rotate({_n(DIAL_SWEEP * f)})"/>' for f in (-1, -0.5, 0, 0.5, 1))
    lx, ly = _n(DIAL_LABELS * math.sin(a)), _n(-DIAL_LABELS * math.cos(a) + 3)
    labels = (f'<text class="tdg-knob__dial-label" x="-{lx}" y="{ly}" text-anchor="middle">'
              f'{escape(prose(-scale, lang))}</text>'
              f'<text class="tdg-knob__dial-label" x="0" y="{-DIAL_LABELS + 4}" text-anchor="middle">0</text>'
              f'<text class="tdg-knob__dial-label" x="{lx}" y="{ly}" text-anchor="middle">'
              f'{escape(prose(scale, lang))}</text>')
    pointer = lambda css, value: (  # noqa: E731
        f'<line class="{css}" x1="0" y1="0" x2="0" y2="-{DIAL_RADIUS - 5}" '
        f'transform="rotate({_n(dial_angle(value, scale))})"/>')
    ratio_line = (pointer("tdg-knob__dial-ratio", ratio) if ratio is not None
                  else f'<line class="tdg-knob__dial-ratio" x1="0" y1="0" x2="0" y2="-{DIAL_RADIUS - 5}" '
                       'style="display:none"/>')
    return (f'<svg class="tdg-knob__dial" viewBox="-44 -44 88 88" role="img" aria-label="{escape(label)}">'
            f'<circle class="tdg-knob__dial-face" r="43"/>'
            f'<path class="tdg-knob__dial-scale" '
            f'd="M-{ex} {ey} A{DIAL_RADIUS} {DIAL_RADIUS} 0 1 1 {ex} {ey}"/>'
            f'{ticks}{labels}{pointer("tdg-knob__dial-slope", slope)}{ratio_line}'
            f'<circle class="tdg-knob__dial-hub" r="3.5"/></svg>')


def y_bounds(ys: list[float | None]) -> tuple[float, float]:
    """The plot's y interval: the curve's, unless a few samples shoot far off (1/x next to 0), then
    the middle 90 % of the samples with half their span again on each side (the rest is clipped)."""
    finite = sorted(y for y in ys if y is not None)
    lo, hi = finite[0], finite[-1]
    q_lo = finite[math.floor(0.05 * (len(finite) - 1))]
    q_hi = finite[math.ceil(0.95 * (len(finite) - 1))]
    if q_hi > q_lo and hi - lo > SPIKE * (q_hi - q_lo):
        lo, hi = max(lo, q_lo - (q_hi - q_lo) / 2), min(hi, q_hi + (q_hi - q_lo) / 2)
    if hi - lo < 1e-9 * max(1.0, abs(hi)):
        lo, hi = lo - 1, hi + 1
    pad = (hi - lo) * Y_PAD
    return lo - pad, hi + pad


def ticks(lo: float, hi: float, count: int) -> list[float]:
    """About `count` round numbers (1, 2 or 5 times a power of ten apart) inside [lo, hi]."""
    raw = (hi - lo) / count
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    first = math.ceil(lo / step)
    return [k * step for k in range(first, math.floor(hi / step) + 1)]


class Frame:
    """Data coordinates -> viewBox coordinates."""

    def __init__(self, x_range: tuple[float, float], y_range: tuple[float, float]) -> None:
        self.x0, self.x1 = x_range
        self.y0, self.y1 = y_range

    def px(self, x: float) -> float:
        return LEFT + (x - self.x0) / (self.x1 - self.x0) * (WIDTH - LEFT - RIGHT)

    def py(self, y: float) -> float:
        return HEIGHT - BOTTOM - (y - self.y0) / (self.y1 - self.y0) * (HEIGHT - TOP - BOTTOM)


def prose(x: float, lang: str) -> str:
    """A number in the knob's sentences: 6 significant digits, as knob-view.ts asks proseNumber for."""
    return prose_number(x, lang, 6)


def fill(template: str, **params: str) -> str:
    for name, value in params.items():
        template = template.replace("{" + name + "}", value)
    return template


def svg(data: dict, strings: dict[str, str]) -> str:
    lang = strings.get("lang", "en")  # widgets.py adds the page's language
    default = data["curves"][0]
    xs, ys = data["xs"], default["ys"]
    x, h, start = data["x"], data["h"], data["start"]
    frame = Frame(tuple(data["range"]), y_bounds(ys))
    y, y_h, slope = start["y"], start["y_h"], start["slope"]
    parts = [_grid(frame, lang)]
    clip = (f'<svg class="tdg-knob__clip" x="{LEFT}" y="{TOP}" width="{WIDTH - LEFT - RIGHT}" '
            f'height="{HEIGHT - TOP - BOTTOM}" viewBox="{LEFT} {TOP} {WIDTH - LEFT - RIGHT} '
            f'{HEIGHT - TOP - BOTTOM}">')
    # The curve over the tangent and the secant: where the secant lies along it (relu right of its
    # kink) the curve stays in sight (knob-view.ts draws in the same order).
    lines = [_line(frame, x, y, slope, "tdg-knob__tangent")]
    if y_h is not None:
        lines.append(_line(frame, x, y, (y_h - y) / h, "tdg-knob__secant"))
    lines.append(f'<path class="tdg-knob__curve" d="{_path(frame, xs, ys)}"/>')
    if y_h is not None:  # the legs h and Δy, the nudged point (it may lie past the range)
        px, py, pxh, pyh = (_n(v) for v in (frame.px(x), frame.py(y), frame.px(x + h), frame.py(y_h)))
        lines += [f'<line class="tdg-knob__run" x1="{px}" y1="{py}" x2="{pxh}" y2="{py}"/>',
                  f'<line class="tdg-knob__rise" x1="{pxh}" y1="{py}" x2="{pxh}" y2="{pyh}"/>',
                  *_leg_labels(frame.px(x), frame.py(y), frame.px(x + h), frame.py(y_h)),
                  f'<circle class="tdg-knob__nudged" cx="{pxh}" cy="{pyh}" r="4.5"/>']
    parts.append(clip + "".join(lines) + "</svg>")
    if TOP <= frame.py(y) <= HEIGHT - BOTTOM:  # off the plot (a clipped spike): not drawn in the margin
        parts.append(f'<circle class="tdg-knob__point" cx="{_n(frame.px(x))}" cy="{_n(frame.py(y))}" r="7"/>')
    label = fill(strings["knob_plot_label"], expression=data["expression"], x=prose(x, lang),
                 h=prose(h, lang))
    plot = (f'<svg class="tdg-knob__plot" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
            f'aria-label="{escape(label)}">{"".join(parts)}</svg>')
    return f'<div class="tdg-knob tdg-knob--static">{plot}{_panel(data, strings, lang)}</div>{NO_SCRIPT}'


# The panel keeps the live controls' height so that waking shifts nothing; without JavaScript nothing
# wakes, and the static readout needs only its own lines. (Parsed as markup only when scripts are off.)
NO_SCRIPT = "<noscript><style>.tdg-knob--static .tdg-knob__panel{min-height:0}</style></noscript>"


def _leg_labels(px: float, py: float, pxh: float, pyh: float) -> list[str]:
    """"h" under the run and "Δy" beside the rise, when the leg is long enough to carry its name."""
    out = []
    if abs(pxh - px) >= LEG_MIN:
        below = py + (16 if pyh <= py else -6)  # on the side away from the rise
        out.append(f'<text class="tdg-knob__leg" x="{_n((px + pxh) / 2)}" y="{_n(below)}" '
                   'text-anchor="middle">h</text>')
    if abs(pyh - py) >= LEG_MIN:
        out.append(f'<text class="tdg-knob__leg" x="{_n(pxh + 5)}" y="{_n((py + pyh) / 2)}" '
                   'dominant-baseline="middle">Δy</text>')
    return out


def _panel(data: dict, strings: dict[str, str], lang: str) -> str:
    x, h, start = data["x"], data["h"], data["start"]
    y, y_h, slope = start["y"], start["y_h"], start["slope"]
    ratio = (fill(strings["knob_ratio"], ratio=prose((y_h - y) / h, lang)) if y_h is not None
             else fill(strings["knob_undefined_h"], xh=prose(x + h, lang)))
    gap = (f'<span class="tdg-knob__gap">'
           f'{escape(fill(strings["knob_gap"], gap=prose(start["gap"], lang)))}</span>'
           if y_h is not None else "")
    note = ""
    if start["kink"] and y_h is not None and start["y_left"] is not None:
        note = fill(strings["knob_kink"], x=prose(x, lang), right=prose((y_h - y) / h, lang),
                    left=prose((y - start["y_left"]) / h, lang), slope=prose(slope, lang))
    elif x + h > data["range"][1]:  # the nudged point off the plot (knob.ts)
        note = fill(strings["knob_beyond"], xh=prose(x + h, lang))
    rows = [
        f'<p class="tdg-knob__formula"><span>{escape(strings["knob_function"])}</span> '
        f'<code>{escape(data["expression"])}</code></p>',
        f'<p class="tdg-knob__at">{escape(fill(strings["knob_at"], x=prose(x, lang), h=prose(h, lang)))}</p>',
        f'<div class="tdg-knob__result">{_dial(data, strings, lang)}<div class="tdg-knob__words">'
        f'<p class="tdg-knob__readout"><span class="tdg-knob__ratio">{escape(ratio)}</span> '
        f'<span class="tdg-knob__slope">{escape(fill(strings["knob_slope"], slope=prose(slope, lang)))}'
        f"</span> {gap}</p>"
        f'<p class="tdg-knob__note">{escape(note)}</p></div></div>',
    ]
    return f'<div class="tdg-knob__panel">{"".join(rows)}</div>'


def _dial(data: dict, strings: dict[str, str], lang: str) -> str:
    h, start = data["h"], data["start"]
    y, y_h, slope = start["y"], start["y_h"], start["slope"]
    ratio = (y_h - y) / h if y_h is not None else None
    scale = dial_scale(data["curves"][0]["slopes"])
    label = fill(strings["knob_dial"], lo=prose(-scale, lang), hi=prose(scale, lang),
                 ratio=prose(ratio, lang) if ratio is not None else "–", slope=prose(slope, lang))
    return dial(slope, ratio, scale, label, lang)


def _grid(frame: Frame, lang: str) -> str:
    out = []
    bottom, right = HEIGHT - BOTTOM, WIDTH - RIGHT
    for t in ticks(frame.x0, frame.x1, X_TICKS):
        px = _n(frame.px(t))
        out.append(f'<line class="tdg-knob__grid{" tdg-knob__axis" if t == 0 else ""}" x1="{px}" '
                   f'y1="{TOP}" x2="{px}" y2="{bottom}"/>'
                   f'<text class="tdg-knob__tick" x="{px}" y="{bottom + 17}" text-anchor="middle">'
                   f"{prose(t, lang)}</text>")
    for t in ticks(frame.y0, frame.y1, Y_TICKS):
        py = _n(frame.py(t))
        out.append(f'<line class="tdg-knob__grid{" tdg-knob__axis" if t == 0 else ""}" x1="{LEFT}" '
                   f'y1="{py}" x2="{right}" y2="{py}"/>'
                   f'<text class="tdg-knob__tick" x="{LEFT - 6}" y="{py}" text-anchor="end" '
                   f'dominant-baseline="middle">{prose(t, lang)}</text>')
    return f'<g aria-hidden="true">{"".join(out)}</g>'


def _path(frame: Frame, xs: list[float], ys: list[float | None]) -> str:
    """Line segments through the samples; a None (f undefined there) breaks the curve."""
    out, pen_down = [], False
    for x, y in zip(xs, ys):
        if y is None:
            pen_down = False
            continue
        out.append(f"{'L' if pen_down else 'M'}{_n(frame.px(x))} {_n(frame.py(y))}")
        pen_down = True
    return "".join(out)


def _line(frame: Frame, x: float, y: float, slope: float, css: str) -> str:
    """The line through (x, y) with `slope`, over the x range, cut where it leaves a band a plot's
    height above and below the plot (the nested svg clips the rest; coordinates stay small)."""
    span = frame.y1 - frame.y0
    a, b = frame.x0, frame.x1
    if slope != 0:
        ends = sorted((x + (frame.y0 - span - y) / slope, x + (frame.y1 + span - y) / slope))
        a, b = max(a, ends[0]), min(b, ends[1])
    return (f'<line class="{css}" x1="{_n(frame.px(a))}" y1="{_n(frame.py(y + slope * (a - x)))}" '
            f'x2="{_n(frame.px(b))}" y2="{_n(frame.py(y + slope * (b - x)))}"/>')


def _n(v: float) -> str:
    return f"{v:.2f}".rstrip("0").rstrip(".")
