// The gears widget's arithmetic, free of the DOM (tested in node): the chain x -> u = g(x) -> y = f(u)
// at a point, by the lesson's TypeScript engine, and how far each gear turns when x moves.
// plugins/tinydag_mkdocs/gears.py computes the same numbers with the Python engine at build time.

import { trace } from "../inference/trace";

/** One inner function the reader can choose, with its composition and its chain at the start. */
export interface Choice {
  inner: string; // u = g(x)
  composed: string; // outer with every u replaced by (inner): y as a function of x
  start: Chain; // the chain at data.x, computed by the Python engine
}

/** What the build embeds (gears.py `data`); inner, composed and start are choices[0]'s. */
export interface GearsData extends Choice {
  outer: string; // y = f(u)
  x: number; // the starting point
  range: [number, number]; // the slider's interval
  step: number; // one arrow key or button turns x by this much
  degrees_per_unit: number; // how far a gear turns per unit of its value
  choices: Choice[]; // the inner functions on offer, the block's own first
}

/** The chain at one x (gears.py `chain_at`). */
export interface Chain {
  x: number;
  u: number;
  y: number;
  du_dx: number; // g'(x): the u gear's turn per turn of the x gear
  dy_du: number; // f'(u): the y gear's turn per turn of the u gear
  product: number; // f'(u) * g'(x): the chain rule
  backward: number; // x.grad after backward() on the composed expression
  y_composed: number; // y computed in one expression (equals y)
}

export type GearName = "x" | "u" | "y";
export type Turns = Record<GearName, number>; // degrees, clockwise positive

/** The chain at x: three runs of the engine (each runs backward(), so a leaf's grad is the slope). */
export function chainAt(data: Pick<GearsData, "inner" | "outer" | "composed">, x: number): Chain {
  const inner = trace(data.inner, { x });
  const u = inner.nodes[inner.nodes.length - 1]!.out.data;
  const outer = trace(data.outer, { u });
  const whole = trace(data.composed, { x });
  const du_dx = inner.variables[0]!.out.grad;
  const dy_du = outer.variables[0]!.out.grad;
  return {
    x,
    u,
    y: outer.nodes[outer.nodes.length - 1]!.out.data,
    du_dx,
    dy_du,
    product: dy_du * du_dx,
    backward: whole.variables[0]!.out.grad,
    y_composed: whole.nodes[whole.nodes.length - 1]!.out.data,
  };
}

/**
 * Each gear's angle: degrees_per_unit times how far its value is from its value at the start. A
 * function of the chain alone, so x back where it was puts every gear back where it was, whatever
 * the path. For a small step the u gear turns about g'(x) times as far as x, the y gear about
 * f'(u) · g'(x) times: the ratios; where a ratio is negative the gear turns the other way, where it
 * is 0 the gear stands still.
 */
export function anglesAt(chain: Chain, origin: Chain, degreesPerUnit: number): Turns {
  return {
    x: degreesPerUnit * (chain.x - origin.x),
    u: degreesPerUnit * (chain.u - origin.u),
    y: degreesPerUnit * (chain.y - origin.y),
  };
}

/** A move from one chain to another, as the step sentence tells it. */
export interface Step {
  from: Chain; // its start: the ratios the estimate multiplies
  to: Chain;
  dx: number;
  estimate: { u: number; y: number }; // g'(x)·Δx and f'(u)·g'(x)·Δx with the ratios at the start
  actual: { u: number; y: number }; // how far u and y really moved
}

export function stepBetween(from: Chain, to: Chain): Step {
  const dx = to.x - from.x;
  return {
    from,
    to,
    dx,
    estimate: { u: from.du_dx * dx, y: from.dy_du * from.du_dx * dx },
    actual: { u: to.u - from.u, y: to.y - from.y },
  };
}

/** The chain rule's product and backward() differ at most by rounding (gears.py `agrees`). */
export function agrees(product: number, backward: number): boolean {
  return Math.abs(product - backward) <= 1e-9 * Math.max(1, Math.abs(product), Math.abs(backward));
}

/** x on the slider's grid nearest to `x`, inside the range, rounded as the range input rounds it. */
export function snap(data: GearsData, x: number): number {
  const [low, high] = data.range;
  const n = Math.round((Math.min(high, Math.max(low, x)) - low) / data.step);
  return Number((low + n * data.step).toFixed(decimalsOf(data.step) + 2));
}

function decimalsOf(step: number): number {
  const text = String(step);
  const exponent = text.includes("e-") ? Number(text.split("e-")[1]) : 0;
  const fraction = (text.split("e")[0]!.split(".")[1] ?? "").length;
  return fraction + exponent;
}

/** Degrees of a pointer at (dx, dy) from a gear's centre, clockwise from straight up (SVG y points down). */
export function pointerAngle(dx: number, dy: number): number {
  return (Math.atan2(dx, -dy) * 180) / Math.PI;
}

/** The shortest signed difference b - a between two angles, in (-180, 180]. */
export function angleBetween(a: number, b: number): number {
  const d = (((b - a) % 360) + 360) % 360;
  return d > 180 ? d - 360 : d;
}

/**
 * The arc a gear's hand swept in its last turn, on a circle of `radius` around the gear's centre,
 * from `from` degrees to `from + turn` (clockwise when turn > 0); a full circle from 360° on.
 */
export function turnArc(from: number, turn: number, radius: number): string {
  if (Math.abs(turn) < 0.5) return "";
  const sweep = Math.max(-359.9, Math.min(359.9, turn));
  const point = (deg: number): string => {
    const a = (deg * Math.PI) / 180;
    return `${fixed(radius * Math.sin(a))} ${fixed(-radius * Math.cos(a))}`;
  };
  const large = Math.abs(sweep) > 180 ? 1 : 0;
  return `M${point(from)} A${fixed(radius)} ${fixed(radius)} 0 ${large} ${sweep > 0 ? 1 : 0} ${point(from + sweep)}`;
}

function fixed(x: number): string {
  const text = x.toFixed(2).replace(/\.?0+$/, "");
  return text === "-0" || text === "" ? "0" : text;
}
