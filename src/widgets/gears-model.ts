// The gears widget's arithmetic, free of the DOM (tested in node): the chain x -> u = g(x) -> y = f(u)
// at a point, by the lesson's TypeScript engine, and how far each gear turns when x moves.
// plugins/tinydag_mkdocs/widgets/gears.py computes the same numbers with the Python engine at build time.

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

export function fixed(x: number): string {
  const text = x.toFixed(2).replace(/\.?0+$/, "");
  return text === "-0" || text === "" ? "0" : text;
}

// ---- the gear train: the ratios drawn as gears that mesh (gears.py `train`, `bodies` and `gear_path`) ----
// Two pairs, as the page tells it: the x gear drives a wheel on the u shaft, a second wheel on that shaft
// drives the y gear. Every gear has teeth of one size (PITCH), so any two mesh and a pair's sizes are in
// the proportion of their teeth. The driven gear has 1/|ratio| times the driver's teeth: it turns |ratio|
// times as far. Meshing gears turn opposite ways, so a negative ratio meshes directly and a positive one
// through a small idler between them (the driven gear then turns the way its driver does); a ratio of 0
// leaves the driven gear apart, standing still.

export const PITCH = 8.6; // arc length per tooth on the pitch circle, in the SVG's units (42 teeth: 57.5 wide)
export const TIP = 0.32 * PITCH; // a tooth's height over the pitch circle (gearPath)
export const TEETH_MIN = 7;
export const TEETH_MAX = 42;
export const IDLER_TEETH = 6; // smaller than any gear it joins, so a small driven gear never reads as it
export const GAP = 16; // between a driver and the gear it no longer drives
export const CENTER_Y = 118;
const PAIR_MIDS = [150, 450]; // each pair in its half of the 600-unit figure

export interface Wheel {
  teeth: number;
  radius: number; // of the pitch circle, where two meshing gears touch
  cx: number;
}

export interface Pair {
  ratio: number;
  driver: Wheel;
  driven: Wheel;
  idler: Wheel | null; // between them when the ratio is positive
  toScale: boolean; // the teeth are in the ratio's proportion (within 5 %)
  contact: number; // x of the point where the driver passes the turn on (the ratio's badge stands above)
}

const half = (v: number): number => Math.floor(v + 0.5); // rounds as gears.py rounds

export const radiusOf = (teeth: number): number => (teeth * PITCH) / (2 * Math.PI);

/** Teeth of a pair's driver and driven gear: driver / driven = |ratio|, as far as TEETH_MIN..MAX allow. */
export function pairTeeth(ratio: number): [number, number] {
  const q = Math.abs(ratio);
  if (q === 0 || !Number.isFinite(q)) return [TEETH_MAX / 2, TEETH_MAX / 2];
  if (q >= 1) {
    const driven = Math.max(TEETH_MIN, half(TEETH_MAX / q));
    return [Math.min(TEETH_MAX, half(driven * q)), driven];
  }
  const driver = Math.max(TEETH_MIN, half(TEETH_MAX * q));
  return [driver, Math.min(TEETH_MAX, half(driver / q))];
}

function wheel(teeth: number, cx: number): Wheel {
  return { teeth, radius: radiusOf(teeth), cx };
}

/** One pair laid out in line, centred on `mid`: driver, idler (ratio > 0) or gap (ratio 0), driven. */
export function pairAt(ratio: number, mid: number): Pair {
  const [nd, nn] = pairTeeth(ratio);
  const rd = radiusOf(nd);
  const rn = radiusOf(nn);
  const ri = radiusOf(IDLER_TEETH);
  const width = 2 * rd + 2 * rn + (ratio > 0 ? 2 * ri : ratio === 0 ? GAP : 0);
  const left = mid - width / 2;
  const idler = ratio > 0 ? wheel(IDLER_TEETH, left + 2 * rd + ri) : null;
  const q = Math.abs(ratio);
  return {
    ratio,
    driver: wheel(nd, left + rd),
    driven: wheel(nn, left + width - rn),
    idler,
    toScale: q === 0 || Math.abs(nd / nn - q) <= 0.05 * q,
    contact: idler ? idler.cx : left + 2 * rd + (ratio === 0 ? GAP / 2 : 0),
  };
}

/** The two pairs for the chain's ratios g'(x) and f'(u). */
export function train(du_dx: number, dy_du: number): [Pair, Pair] {
  return [pairAt(du_dx, PAIR_MIDS[0]!), pairAt(dy_du, PAIR_MIDS[1]!)];
}

/**
 * The angle of a gear whose teeth fill the gaps of its driver's (the driver on its left), nearest to
 * `near` (the gear's hand: one tooth on, a gear looks the same) or, without it, rolled with the driver.
 * Angles in degrees clockwise from straight up; tooth k of a gear at angle a points at a + k * 360 / teeth.
 */
export function meshAngle(driverAngle: number, driverTeeth: number, teeth: number, near?: number): number {
  const pd = 360 / driverTeeth;
  const pn = 360 / teeth;
  const base = 270 - pn * ((driverAngle - 90) / pd + 0.5);
  return near === undefined ? base : base + pn * half((near - base) / pn);
}

/** Where each gear of the train is drawn when the hands (the values' angles) stand at `hands`. */
export interface Bodies {
  x: number;
  u: number; // the wheel x drives
  u2: number; // the wheel that drives y: it carries u's hand, on the same shaft
  y: number;
  idlers: [number, number]; // 0 where a pair has none
}

export function bodies(pairs: [Pair, Pair], hands: Turns): Bodies {
  const driven = (pair: Pair, driverAngle: number, near: number): [number, number] => {
    if (pair.ratio === 0) return [near, 0];
    if (!pair.idler) return [meshAngle(driverAngle, pair.driver.teeth, pair.driven.teeth, near), 0];
    const idler = meshAngle(driverAngle, pair.driver.teeth, IDLER_TEETH);
    return [meshAngle(idler, IDLER_TEETH, pair.driven.teeth, near), idler];
  };
  const [u, first] = driven(pairs[0], hands.x, hands.u);
  const [y, second] = driven(pairs[1], hands.u, hands.y);
  return { x: hands.x, u, u2: hands.u, y, idlers: [first, second] };
}

/** The hand's length inside a gear's roots (gears.py `hand_length`). */
export const handLength = (radius: number): number => Math.max(6, radius - 0.4 * PITCH - 4);

/** A gear's outline around (0, 0): per tooth a flank up, the flat tip centred on the tooth, a flank down. */
export function gearPath(teeth: number): string {
  const r = radiusOf(teeth);
  const tip = r + TIP;
  const root = r - 0.4 * PITCH;
  const points: string[] = [];
  for (let k = 0; k < teeth; k++) {
    for (const [radius, t] of [
      [root, -0.27],
      [tip, -0.12],
      [tip, 0.12],
      [root, 0.27],
    ] as const) {
      const a = ((k + t) * 2 * Math.PI) / teeth;
      points.push(`${fixed(radius * Math.sin(a))} ${fixed(-radius * Math.cos(a))}`);
    }
  }
  return `M${points.join(" L")} Z`;
}
