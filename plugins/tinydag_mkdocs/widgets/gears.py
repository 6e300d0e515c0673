"""The gears widget: the chain rule as gear ratios, x -> u = g(x) -> y = f(u).

A block names the inner function (of x), the outer one (of u) and the starting point:

    inner: 3 * x
    outer: u * u
    x: 1
    range: [-1, 3]      # optional: the slider's interval (default x - 2 .. x + 2)
    step: 0.1           # optional: one arrow key / button turns x by this much
    choices:            # optional: more inner functions the reader can choose instead
      - -2 * x
      - relu(x - 1)

Three gears stand for x, u and y. Turning the x gear by a small step dx turns the u gear by
g'(x) * dx and the y gear by f'(u) * g'(x) * dx: the ratios are the local derivatives, which the
lesson's engine computes here (the browser recomputes them with the TypeScript mirror as x moves).
Beside their product stands what backward() finds for the composed expression (u replaced by
(inner) in outer), so the reader sees the chain rule agree with the engine.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from html import escape

# By module, not by name: `mkdocs serve` reloads a changed engine in place (tinydag.MODULES), and names
# imported from it would keep the old classes (an error of the new engine would not be caught here).
import tinydag.errors as engine_errors
import tinydag.parse as engine
import tinydag.trace as tracing
from tinydag.errors import MAX_CHARS, MAX_NODES

from ..base.numbers import product_text, prose_number
from . import fields
from .gears_train import CENTER_Y, IDLER_TEETH, PITCH, bodies, fixed, gear_path, hand_length, train

KEYS = ("inner", "outer", "x", "range", "step", "choices")
STRING_PREFIXES = ("gears_", "value_")  # a refused x says why in the sandbox's value_* words
MAX_CHOICES = 6
DEFAULT_STEP = 0.1
DEFAULT_HALF_RANGE = 2.0
MAX_SLIDER_STOPS = 1000  # range / step: more stops than pixels on any slider
# Degrees the x gear turns per unit of x: the largest of these that keeps the fastest gear's turn
# for one step at the start point under TURN_LIMIT (a bigger turn would read as a turn backwards).
DEGREES_PER_UNIT = (360, 180, 120, 90, 60, 45, 30, 20, 15, 10, 5, 2, 1)
TURN_LIMIT = 150.0
# Drawing, in the SVG's user units (src/widgets/gears.ts draws nothing new: it clones this figure).
WIDTH, HEIGHT = 600, 256


@dataclass(frozen=True)
class GearsSpec:
    inner: str  # u = g(x)
    outer: str  # y = f(u)
    composed: str  # outer with every u replaced by (inner): y as a function of x
    x: float
    low: float
    high: float
    step: float
    others: tuple[tuple[str, str], ...] = ()  # more (inner, composed) pairs the reader can choose

    def choices(self) -> list[GearsSpec]:
        """The spec once per inner function on offer, the block's own first."""
        return [self] + [GearsSpec(inner, self.outer, composed, self.x, self.low, self.high, self.step)
                         for inner, composed in self.others]


def parse(keys: dict, line: int, lines: dict[str, int]) -> GearsSpec:
    """Check a block's keys; every problem is a fields.WidgetError at the line of its key."""
    at = lambda key: lines.get(key, line)  # noqa: E731
    fields.check_keys(keys, KEYS, ("inner", "outer", "x"), "gears", line, lines)
    inner, _ = _expression(keys["inner"], "inner", "x", at("inner"))
    outer, outer_tree = _expression(keys["outer"], "outer", "u", at("outer"))
    x = fields.number(keys["x"], "x", at("x"))
    step = fields.number(keys.get("step", DEFAULT_STEP), "step", at("step"))
    if step <= 0:
        raise fields.WidgetError(at("step"), f"`step` must be above 0, not {_plain(step)}")
    low, high = _range(keys.get("range"), x, at("range"))
    if not low <= x <= high:
        raise fields.WidgetError(at("x"), f"x = {_plain(x)} lies outside the range "
                                           f"[{_plain(low)}, {_plain(high)}]")
    stops = (high - low) / step
    if stops > MAX_SLIDER_STOPS:
        raise fields.WidgetError(at("step"), f"the range holds {stops:.0f} steps of {_plain(step)}; "
                                              f"at most {MAX_SLIDER_STOPS} fit a slider")
    if abs((x - low) / step - round((x - low) / step)) > 1e-9:
        raise fields.WidgetError(at("x"), f"x = {_plain(x)} is not a whole number of steps "
                                           f"({_plain(step)}) from the range's start {_plain(low)}")
    others = _choices(keys.get("choices"), inner, at("choices"))
    pairs = tuple((text, _composed(text, outer, outer_tree, at("outer"))) for text in others)
    spec = GearsSpec(inner, outer, _composed(inner, outer, outer_tree, at("outer")), x, low, high, step,
                     pairs)
    for n in range(round((high - low) / step) + 1):  # the chain must compute at every slider stop
        at_x = slider_stop(low, step, n)
        for choice in spec.choices():
            try:
                chain_at(choice, at_x)
            except engine_errors.TinyDagError as error:
                where = (at("choices") if choice is not spec else at("x") if at_x == x
                         else at("range") if "range" in keys else line)
                which = "" if choice is spec else f" with u = {choice.inner}"
                raise fields.WidgetError(where, f"at x = {_plain(at_x)} the chain{which} does not "
                                                 f"compute: {error.message} (choose a `range` where "
                                                 "it does)") from None
    return spec


def _composed(inner: str, outer: str, outer_tree: engine.Node, line: int) -> str:
    composed = compose(inner, outer, outer_tree)
    if len(composed) > MAX_CHARS or tracing.count_visual_nodes(engine.parse(composed)) > MAX_NODES:
        raise fields.WidgetError(line, f"outer with u replaced by ({inner}) is too large for "
                                        f"the engine ({MAX_CHARS} characters, {MAX_NODES} "
                                        "nodes): use shorter functions")
    return composed


def _choices(value: object, inner: str, line: int) -> list[str]:
    """More inner functions of x the reader may choose: each checked as `inner` is, none twice."""
    if value is None:
        return []
    if not isinstance(value, list) or not value:
        raise fields.WidgetError(line, "`choices` must be a list of inner functions of x, "
                                        "such as [-2 * x, relu(x - 1)]")
    if len(value) > MAX_CHOICES:
        raise fields.WidgetError(line, f"`choices` holds {len(value)} functions; at most "
                                        f"{MAX_CHOICES} fit the menu")
    texts = [_expression(v, "choices", "x", line)[0] for v in value]
    seen = [inner]
    for text in texts:
        if text in seen:
            raise fields.WidgetError(line, f"`choices` offers u = {text} twice")
        seen.append(text)
    return texts


def slider_stop(low: float, step: float, n: int) -> float:
    """The n-th stop of the slider, rounded as the browser's range input rounds it (to the step's
    decimals): the same x in Python, in the fixture and in the browser."""
    decimals = max(0, -Decimal(repr(step)).normalize().as_tuple().exponent)  # type: ignore[operator]
    return float(round(Decimal(repr(low)) + n * Decimal(repr(step)), decimals + 2))


def _expression(value: object, key: str, variable: str, line: int) -> tuple[str, engine.Node]:
    """The expression's text and tree; it must use `variable` and no other."""
    text = fields.text(value, key, line).strip()
    try:
        tree = engine.parse(text)
    except engine_errors.TinyDagError as error:
        raise fields.WidgetError(line, f"`{key}`: {error.message} "
                                        f"(expression \"{text}\")") from None
    names = sorted({v.name for v in _variables(tree)})
    others = [n for n in names if n != variable]
    if others:
        raise fields.WidgetError(line, f"`{key}` may use only the variable {variable}, "
                                        f"not {', '.join(others)}")
    if variable not in names:
        raise fields.WidgetError(line, f"`{key}` must use the variable {variable} "
                                        f"(a gear that nothing turns is no chain)")
    return text, tree


def _nodes(tree: engine.Node) -> list[engine.Node]:
    found, stack = [], [tree]
    while stack:
        node = stack.pop()
        found.append(node)
        if not isinstance(node, engine.Var):
            stack += engine.operands(node)
    return found


def _variables(tree: engine.Node) -> list[engine.Var]:
    return [node for node in _nodes(tree) if isinstance(node, engine.Var)]


def compose(inner: str, outer: str, outer_tree: engine.Node | None = None) -> str:
    """outer with every variable u replaced by (inner), by the parser's spans (code points); a call,
    a variable or a parenthesized inner goes in as it is (walk 35: "(relu(x - 1)) * (relu(x - 1))")."""
    tree = outer_tree if outer_tree is not None else engine.parse(outer)
    bare = inner.strip()
    atom = isinstance(engine.parse(bare), engine.Call | engine.Var | engine.Paren)  # the whole of it
    # u alone between parentheses of its own, or a call's: inner needs none more ("relu(x + 1)")
    enclosed = {id(node.inner if isinstance(node, engine.Paren) else node.arg)
                for node in _nodes(tree) if isinstance(node, engine.Paren | engine.Call)}
    text = outer
    for var in sorted(_variables(tree), key=lambda v: v.start, reverse=True):
        text = f"{text[:var.start]}{bare if atom or id(var) in enclosed else f'({inner})'}{text[var.end:]}"
    return text


def _range(value: object, x: float, line: int) -> tuple[float, float]:
    if value is None:
        return x - DEFAULT_HALF_RANGE, x + DEFAULT_HALF_RANGE
    if not isinstance(value, list) or len(value) != 2:
        raise fields.WidgetError(line, "`range` must be two numbers, such as [-1, 3]")
    low, high = (fields.number(v, "range", line) for v in value)
    if not low < high:
        raise fields.WidgetError(line, f"`range` must go up: [{_plain(low)}, {_plain(high)}]")
    return low, high


def _plain(x: float) -> str:
    return f"{x:g}"


def chain_at(spec: GearsSpec, x: float) -> dict[str, float]:
    """The chain at x, all by the engine: values, the two local derivatives, their product and
    backward()'s dy/dx of the composed expression (the same names as gears-model.ts `chainAt`)."""
    inner = tracing.trace(spec.inner, {"x": x})
    u = inner.root.out.data
    outer = tracing.trace(spec.outer, {"u": u})
    whole = tracing.trace(spec.composed, {"x": x})
    du_dx = inner.variables[0].out.grad  # trace() ran backward(): the leaf's grad is dg/dx
    dy_du = outer.variables[0].out.grad
    return {"x": x, "u": u, "y": outer.root.out.data, "du_dx": du_dx, "dy_du": dy_du,
            "product": dy_du * du_dx, "backward": whole.variables[0].out.grad,
            "y_composed": whole.root.out.data}


def degrees_per_unit(starts: list[dict[str, float]], step: float) -> float:
    fastest = max(max(1.0, abs(s["du_dx"]), abs(s["product"])) for s in starts)
    return next((d for d in DEGREES_PER_UNIT if d * step * fastest <= TURN_LIMIT), DEGREES_PER_UNIT[-1])


def data(spec: GearsSpec) -> dict:
    starts = [chain_at(c, spec.x) for c in spec.choices()]
    choices = [{"inner": c.inner, "composed": c.composed, "start": start}
               for c, start in zip(spec.choices(), starts, strict=True)]
    return {"inner": spec.inner, "outer": spec.outer, "composed": spec.composed,
            "x": spec.x, "range": [spec.low, spec.high], "step": spec.step,
            "degrees_per_unit": degrees_per_unit(starts, spec.step),
            "start": starts[0], "choices": choices}


# ---- the static figure: the live widget (src/widgets/gears.ts) clones it, so both have one size ----

def _fill(template: str, **values: str) -> str:
    for name, value in values.items():
        template = template.replace("{" + name + "}", value)
    return template


def sign_of(ratio: float) -> str:
    """How a gear turns against x: with it, against it, or not at all (the sandbox's sign colours)."""
    return "zero" if ratio == 0 else "positive" if ratio > 0 else "negative"


def _gear(name: str, label: str, wheel: dict, body: float, sign: str, value: str, still_text: str) -> str:
    """A gear of the train, around its shaft: the teeth turn to mesh (`body`), the hand shows the value
    (at the start: 0). The wheel on the u shaft that drives y carries only its name, beside u's."""
    still = sign == "zero"
    r = wheel["radius"]
    hand, tip = hand_length(r), r + 0.32 * PITCH
    hub = min(8.0, 0.3 * r)
    text = "" if name == "u2" else (
        f'<text class="tdg-gear-value" x="0" y="{fixed(204 - CENTER_Y)}" text-anchor="middle" '
        f'font-size="17">{escape(value)}</text>'
        f'<text class="tdg-gear-still" x="0" y="{fixed(228 - CENTER_Y)}" text-anchor="middle" '
        f'font-size="14">{escape(still_text if still else "")}</text>')
    return (
        f'<g class="tdg-gear tdg-gear-{name}{" is-still" if still else ""}" data-gear="{name}" '
        f'data-sign="{sign}" data-teeth="{wheel["teeth"]}" '
        f'transform="translate({fixed(wheel["cx"])} {fixed(CENTER_Y)})">'
        f'<text class="tdg-gear-name" x="0" y="{fixed(20 - CENTER_Y)}" text-anchor="middle" '
        f'font-size="16" font-weight="700">{escape(label)}</text>'
        f'<path class="tdg-gear-tick" d="M-5 {fixed(-tip - 12)} L5 {fixed(-tip - 12)} '
        f'L0 {fixed(-tip - 3)} Z" '
        f'fill="#888"/>'
        f'<path class="tdg-gear-turn" d="" fill="none" stroke="#888" stroke-width="3"/>'
        f'<g class="tdg-gear-teeth" transform="rotate({fixed(body)})">'
        f'<path class="tdg-gear-body" d="{gear_path(wheel["teeth"])}" fill="#e8eaf6" stroke="#555" '
        f'stroke-width="2"/></g>'
        f'<g class="tdg-gear-rotor" data-angle="0" transform="rotate(0)">'
        f'<line class="tdg-gear-hand" x1="0" y1="0" x2="0" y2="{fixed(-hand)}" stroke="#333" '
        f'stroke-width="{3 if r < 20 else 4}" stroke-linecap="round"/>'
        f'<circle class="tdg-gear-hand-tip" cx="0" cy="{fixed(-hand)}" r="{3 if r < 20 else 5}" fill="#333"/>'
        f'</g>'
        f'<circle class="tdg-gear-hub" r="{fixed(hub)}" fill="#555"/>'
        f'{text}</g>'
    )


def _idler(index: int, pair: dict, angle: float) -> str:
    """The small gear between a pair whose ratio is positive (hidden while the ratio is not)."""
    idler = pair["idler"] or {"cx": pair["contact"]}
    hidden = "" if pair["idler"] else ' display="none"'
    return (f'<g class="tdg-gear-idler" data-idler="{index}"{hidden} '
            f'transform="translate({fixed(idler["cx"])} {fixed(CENTER_Y)})">'
            f'<g class="tdg-gear-teeth" transform="rotate({fixed(angle)})"><path class="tdg-gear-body" '
            f'd="{gear_path(IDLER_TEETH)}" fill="#eee" stroke="#888" stroke-width="2"/></g>'
            f'<circle class="tdg-gear-hub" r="3" fill="#555"/></g>')


def _ratio(index: int, label: str, pair: dict, value: str, sign: str, not_to_scale: str) -> str:
    """The ratio between a pair, above the point where the driver passes the turn on."""
    return (
        f'<g class="tdg-gear-ratio" data-ratio="{index}" data-sign="{sign}" '
        f'transform="translate({fixed(pair["contact"])} {fixed(CENTER_Y)})">'
        # Room for the longest ratio the widget writes, four digits with a sign ("×−8.516").
        f'<rect x="-64" y="{fixed(28 - CENTER_Y)}" width="128" height="28" rx="14" fill="none" '
        f'stroke="#888"/>'
        f'<text class="tdg-gear-ratio-name" x="-33" y="{fixed(47 - CENTER_Y)}" text-anchor="middle" '
        f'font-size="13">{escape(label)}</text>'
        f'<text class="tdg-gear-ratio-value" x="28" y="{fixed(48 - CENTER_Y)}" text-anchor="middle" '
        f'font-size="16" font-weight="700">\u00d7{escape(value)}</text>'
        f'<text class="tdg-gear-scale" x="0" y="{fixed(249 - CENTER_Y)}" text-anchor="middle" '
        f'font-size="12">{escape("" if pair["to_scale"] else not_to_scale)}</text>'
        f'</g>'
    )


def svg(data: dict, strings: dict[str, str]) -> str:
    """The static figure at the start point: the gears (SVG), the readouts (HTML) and the bar
    where the live widget puts its controls (same height), so waking shifts nothing.
    strings["lang"] is the page's language (numbers are written its way)."""
    lang = strings.get("lang", "en")
    s = data["start"]
    num = lambda x: prose_number(x, lang)  # noqa: E731
    still = strings["gears_still_short"]
    pairs = train(s["du_dx"], s["dy_du"])
    at = bodies(pairs, {"x": 0.0, "u": 0.0, "y": 0.0})
    u_sign, y_sign = sign_of(s["du_dx"]), sign_of(s["product"])
    shaft = (f'<line class="tdg-gear-shaft" x1="{fixed(pairs[0]["driven"]["cx"])}" y1="{fixed(CENTER_Y)}" '
             f'x2="{fixed(pairs[1]["driver"]["cx"])}" y2="{fixed(CENTER_Y)}" stroke="#888" '
             f'stroke-width="6"/>')
    gears = [shaft,
             _gear("x", "x", pairs[0]["driver"], at["x"], "positive", f"x = {num(s['x'])}", still),
             _idler(0, pairs[0], at["idlers"][0]),
             _gear("u", "u = g(x)", pairs[0]["driven"], at["u"], u_sign, f"u = {num(s['u'])}", still),
             _gear("u2", "u", pairs[1]["driver"], at["u2"], u_sign, "", still),
             _idler(1, pairs[1], at["idlers"][1]),
             _gear("y", "y = f(u)", pairs[1]["driven"], at["y"], y_sign, f"y = {num(s['y'])}", still)]
    scale = strings["gears_not_to_scale"]
    ratios = [_ratio(0, "g\u2032(x)", pairs[0], num(s["du_dx"]), sign_of(s["du_dx"]), scale),
              _ratio(1, "f\u2032(u)", pairs[1], num(s["dy_du"]), sign_of(s["dy_du"]), scale)]
    title = _fill(strings["gears_figure_title"], inner=data["inner"], outer=data["outer"],
                  x=num(s["x"]), du_dx=num(s["du_dx"]), dy_du=num(s["dy_du"]))
    bar = _fill(strings["gears_static_bar"], x=num(s["x"]), low=num(data["range"][0]),
                high=num(data["range"][1]))
    figure = (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="tdg-gears-svg" role="img" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif"><title>{escape(title)}</title>'
        f'{"".join(gears)}{"".join(ratios)}</svg>'
    )
    choice = ""
    if len(data.get("choices", [])) > 1:  # the live widget puts its menu here, at the same height
        choice = (f'<p class="tdg-gears-choice"><span class="tdg-gears-choice-label">'
                  f'{escape(strings["gears_choice"])}</span> <code class="tdg-gears-choice-value">'
                  f'{escape(data["inner"])}</code></p>')
    # The step's words under the controls: however many lines a step's sentence takes, the − and +
    # buttons stay where the finger is (walkthrough 26: the first step's words moved them 14 px down).
    return (f'<div class="tdg-gears" data-gears-static="">{figure}{choice}{readout(data, strings, lang)}'
            f'<div class="tdg-gears-bar"><p class="tdg-gears-static-note">{escape(bar)}</p></div>'
            f'<p class="tdg-gears-step">{escape(strings["gears_hint"])}</p></div>')


def readout(data: dict, strings: dict[str, str], lang: str) -> str:
    """The numbers in words: each ratio, their product and backward()'s dy/dx for the composed y."""
    s = data["start"]
    num = lambda x: prose_number(x, lang)  # noqa: E731
    agree = strings["gears_agree"] if agrees(s["product"], s["backward"]) else strings["gears_differ"]
    rows = [
        ("inner", f"u = {data['inner']}", strings["gears_inner_ratio"], num(s["du_dx"])),
        ("outer", f"y = {data['outer']}", strings["gears_outer_ratio"], num(s["dy_du"])),
        ("product", "", strings["gears_product"], product_text(s["dy_du"], s["du_dx"], s["product"], lang)),
        ("backward", f"y = {data['composed']}", strings["gears_backward"], num(s["backward"])),
    ]
    items = "".join(
        f'<div class="tdg-gears-row" data-row="{key}"><dt>{escape(term)}'
        + (f' <code>{escape(code)}</code>' if code else "")
        + f'</dt><dd><span class="tdg-gears-number">{escape(value)}</span>'
        + (f' <span class="tdg-gears-agree">{escape(agree)}</span>' if key == "backward" else "")
        + "</dd></div>"
        for key, code, term, value in rows)
    return f'<dl class="tdg-gears-readout">{items}</dl>'


def agrees(product: float, backward: float) -> bool:
    """The chain rule's product and backward() differ at most by rounding (the same in gears-model.ts)."""
    return abs(product - backward) <= 1e-9 * max(1.0, abs(product), abs(backward))
