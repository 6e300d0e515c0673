"""The sensitivity knob: y = f(x) with a point x, a nudge h, the secant and the engine's tangent.

    ```tinydag-knob
    expression: x * x        # one variable, x (required)
    x: 1.5                   # the starting point (default 1), inside the range
    h: 0.5                   # the starting nudge, H_MIN <= h <= H_MAX (default 0.5)
    range: [-2, 3]           # the plotted x interval (default [-2, 3])
    presets: [exp(x) / 4, relu(x - 1)]   # optional: other functions the reader can pick
    ```

The curve's samples (x, f(x), f'(x)) are computed here by the lesson's engine (tinydag.trace over
the Value class): f'(x) is x.grad after backward(). Where f is undefined (log of a negative number,
a division by zero) or overflows, a sample is None: a gap in the curve, never NaN in the page.
The browser recomputes the same samples with the TypeScript mirror when the reader types.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

# Modules, not names: `mkdocs serve` reloads a changed engine in place (cache.reload_engine), and a name
# imported from it would keep the old function and the old error class.
import tinydag.errors as engine_errors
import tinydag.trace as tracing

from . import fields
from .knob_svg import svg

__all__ = ["H_MAX", "H_MIN", "KnobSpec", "SAMPLES", "data", "evaluate", "is_kink", "parse", "svg", "xs_of"]

KEYS = ("expression", "x", "h", "range", "presets")
SAMPLES = 201  # points of each curve across the range
H_MIN, H_MAX = 1e-4, 1.0  # the nudge slider's ends (log scale)
KINK_STEP = 1e-7  # one-sided differences this close tell a kink from a smooth bend
KINK_TOLERANCE = 1e-4
MAX_PRESETS = 8  # more would not fit the menu
MAX_SPAN = 1000.0  # widest range; farther than MAX_ABS from 0 makes ticks unreadable
MAX_ABS = 1e4
DEFAULT_X, DEFAULT_H, DEFAULT_RANGE = 1.0, 0.5, (-2.0, 3.0)
# The live field's messages reuse the player's error_* strings, a refused number the value_* ones.
STRING_PREFIXES = ("knob_", "error_", "value_")


@dataclass(frozen=True)
class KnobSpec:
    expression: str
    x: float
    h: float
    lo: float
    hi: float
    presets: tuple[str, ...]


def parse(keys: dict, line: int, lines: dict[str, int]) -> KnobSpec:
    fields.check_keys(keys, KEYS, ("expression",), "knob", line, lines)
    expression = fields.text(keys["expression"], "expression", lines["expression"])
    lo, hi = DEFAULT_RANGE
    if "range" in keys:
        lo, hi = _range(keys["range"], lines)
    x = fields.number(keys["x"], "x", lines["x"]) if "x" in keys else DEFAULT_X
    if not lo <= x <= hi:
        raise fields.WidgetError(lines.get("x", line), f"`x` ({x:g}) lies outside the range "
                                  f"[{lo:g}, {hi:g}]")
    h = fields.number(keys["h"], "h", lines["h"]) if "h" in keys else DEFAULT_H
    if not H_MIN <= h <= H_MAX:
        raise fields.WidgetError(lines["h"], f"`h` must be between {H_MIN:g} and {H_MAX:g} (the "
                                  f"nudge slider's ends), not {h:g}")
    presets: list[str] = []
    if "presets" in keys:
        items = keys["presets"]
        if not isinstance(items, list):
            raise fields.WidgetError(lines["presets"], "`presets` is a list of expressions in x, "
                                      "like [exp(x) / 4, relu(x - 1)]")
        if len(items) > MAX_PRESETS:
            raise fields.WidgetError(lines["presets"], f"a knob has at most {MAX_PRESETS} presets, "
                                      f"not {len(items)}")
        for index, item in enumerate(items):
            here = lines[f"presets[{index}]"]
            presets.append(fields.text(item, "presets", here))
            _check_expression(presets[-1], here, lo, hi)
    _check_expression(expression, lines["expression"], lo, hi)
    if evaluate(expression, x) is None:
        raise fields.WidgetError(lines.get("x", line), f"the expression \"{expression}\" is undefined "
                                  f"at the starting x = {x:g}: start where it has a value")
    return KnobSpec(expression, x, h, lo, hi, tuple(dict.fromkeys(p for p in presets if p != expression)))


def _range(value: object, lines: dict[str, int]) -> tuple[float, float]:
    here = lines["range"]
    if not isinstance(value, list) or len(value) != 2:
        raise fields.WidgetError(here, "`range` is two numbers, the plot's left and right ends, "
                                  "like [-2, 3]")
    lo, hi = (fields.number(v, "range", lines.get(f"range[{i}]", here)) for i, v in enumerate(value))
    if not lo < hi:
        raise fields.WidgetError(here, f"`range` must go from left to right: {lo:g} is not less than {hi:g}")
    if hi - lo > MAX_SPAN or max(abs(lo), abs(hi)) > MAX_ABS:
        raise fields.WidgetError(here, f"`range` is at most {MAX_SPAN:g} wide and within "
                                  f"±{MAX_ABS:g} of 0")
    return lo, hi


def _check_expression(expression: str, line: int, lo: float, hi: float) -> None:
    """Fails at `line` when the text does not parse, uses a letter other than x, or is nowhere defined."""
    names = None
    for x in ((lo + hi) / 2, *xs_of(lo, hi)):  # the letters, from the first point where f has a value
        try:
            names = {v.name or "" for v in tracing.trace(expression, {"x": x}).variables}
            break
        except engine_errors.TinyDagError as error:
            if error.code not in ("domain", "overflow"):
                raise fields.WidgetError(line, f"{error.message} (expression \"{expression}\")") from None
    if names is None:
        raise fields.WidgetError(line, f"\"{expression}\" has no value anywhere in the range: "
                                  "choose another range or expression")
    if names - {"x"}:
        others = ", ".join(sorted(names - {"x"}))
        raise fields.WidgetError(line, f"the knob varies only x, but \"{expression}\" also uses "
                                  f"{others} (it would silently be 1)")
    if "x" not in names:
        raise fields.WidgetError(line, f"\"{expression}\" does not use x: its curve would be flat")


def xs_of(lo: float, hi: float, count: int = SAMPLES) -> list[float]:
    """The sample points; src/widgets/knob-math.ts computes the same doubles in the same order."""
    return [lo + (hi - lo) * i / (count - 1) for i in range(count)]


def evaluate(expression: str, x: float) -> tuple[float, float] | None:
    """(f(x), f'(x)) from the engine's forward and backward pass; None where f is undefined."""
    try:
        traced = tracing.trace(expression, {"x": x})
    except engine_errors.TinyDagError as error:
        if error.code in ("domain", "overflow"):
            return None
        raise
    y = traced.root.out.data
    slope = next((v.out.grad for v in traced.variables if v.name == "x"), 0.0)
    return (y, slope) if math.isfinite(y) and math.isfinite(slope) else None


def curve(expression: str, xs: list[float]) -> dict:
    points = [evaluate(expression, x) for x in xs]
    return {"expression": expression, "ys": [p[0] if p else None for p in points],
            "slopes": [p[1] if p else None for p in points]}


def is_kink(expression: str, x: float) -> bool:
    """A kink: the slopes from the right and from the left differ, and keep differing as the step
    shrinks (on a smooth curve their difference shrinks with the step; at relu's corner it stays put).
    Mirror of isKink in src/widgets/knob-math.ts."""
    def f(t: float) -> float | None:
        point = evaluate(expression, t)
        return point[0] if point else None

    def gap(d: float) -> float | None:
        a, b, c = f(x - d), f(x), f(x + d)
        if a is None or b is None or c is None:
            return None
        return abs((c - b) / d - (b - a) / d)

    d = KINK_STEP * max(1.0, abs(x))
    wide, narrow = gap(d), gap(d / 10)
    if wide is None or narrow is None:
        return False
    here = evaluate(expression, x)
    scale = 1 + abs(here[1] if here else 0.0)
    return narrow > KINK_TOLERANCE * scale and narrow > 0.5 * wide


def gap_of(x: float, h: float, y: float, y_h: float, slope: float) -> float:
    """|Δy / h − dy/dx|, or 0 where it is no bigger than the rounding of the numbers it is made of:
    f(x), f(x + h) and x + h each rounded to a double, the error divided by h (walk 35: a straight
    line showed a difference between 1 and 1). Mirror of gapOf in src/widgets/knob-math.ts."""
    gap = abs((y_h - y) / h - slope)
    scale = (abs(y) + abs(y_h) + abs(x + h) * abs(slope)) / h + abs(slope)
    return 0.0 if gap <= 4 * math.ulp(1.0) * scale else gap


def data(spec: KnobSpec) -> dict:
    xs = xs_of(spec.lo, spec.hi)
    here = evaluate(spec.expression, spec.x)
    ahead = evaluate(spec.expression, spec.x + spec.h)
    behind = evaluate(spec.expression, spec.x - spec.h)
    assert here is not None  # parse() checked it
    return {
        "expression": spec.expression, "x": spec.x, "h": spec.h, "range": [spec.lo, spec.hi],
        "h_range": [H_MIN, H_MAX], "xs": xs,
        "curves": [curve(e, xs) for e in (spec.expression, *spec.presets)],
        # The starting readout, for the static figure: f(x), f(x + h), f(x - h) (None: undefined),
        # f'(x), and whether x sits on a kink (then both one-sided ratios are shown).
        "start": {"y": here[0], "y_h": ahead[0] if ahead else None, "y_left": behind[0] if behind else None,
                  "slope": here[1], "kink": is_kink(spec.expression, spec.x),
                  "gap": gap_of(spec.x, spec.h, here[0], ahead[0], here[1])
                  if ahead and math.isfinite((ahead[0] - here[0]) / spec.h) else None},
    }
