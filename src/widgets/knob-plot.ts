// The knob's plot geometry: viewBox, margins, y bounds, ticks, the curve's path and the lines through
// the point. Mirror of plugins/tinydag_mkdocs/widgets/knob_svg.py, so the live plot sits exactly where the
// static figure was.

export const WIDTH = 480;
export const HEIGHT = 300;
export const LEFT = 44;
export const RIGHT = 12;
export const TOP = 12;
export const BOTTOM = 26;
export const X_TICKS = 6; // about this many labelled grid lines each way
export const Y_TICKS = 6;
const Y_PAD = 0.08;
const SPIKE = 10; // a curve this many times taller than its middle 90 % is cut to that middle

/** The plot's y interval: the curve's, unless a few samples shoot far off (1/x next to 0), then the
 * middle 90 % of the samples with half their span again on each side (the rest is clipped). */
export function yBounds(ys: readonly (number | null)[]): [number, number] {
  const finite = ys.filter((y): y is number => y !== null).sort((a, b) => a - b);
  if (finite.length === 0) return [-1, 1]; // no finite sample: the caller keeps the last good curve instead
  let lo = finite[0]!;
  let hi = finite[finite.length - 1]!;
  const qLo = finite[Math.floor(0.05 * (finite.length - 1))]!;
  const qHi = finite[Math.ceil(0.95 * (finite.length - 1))]!;
  if (qHi > qLo && hi - lo > SPIKE * (qHi - qLo)) {
    lo = Math.max(lo, qLo - (qHi - qLo) / 2);
    hi = Math.min(hi, qHi + (qHi - qLo) / 2);
  }
  if (hi - lo < 1e-9 * Math.max(1, Math.abs(hi))) {
    lo -= 1;
    hi += 1;
  }
  const pad = (hi - lo) * Y_PAD;
  return [lo - pad, hi + pad];
}

/** About `count` round numbers (1, 2 or 5 times a power of ten apart) inside [lo, hi]. */
export function ticks(lo: number, hi: number, count: number): number[] {
  const raw = (hi - lo) / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw)!;
  const out: number[] = [];
  for (let k = Math.ceil(lo / step); k <= Math.floor(hi / step); k++) out.push(k * step || 0); // never -0
  return out;
}

export class Frame {
  constructor(
    readonly x0: number,
    readonly x1: number,
    readonly y0: number,
    readonly y1: number,
  ) {}

  px(x: number): number {
    return LEFT + ((x - this.x0) / (this.x1 - this.x0)) * (WIDTH - LEFT - RIGHT);
  }

  py(y: number): number {
    return HEIGHT - BOTTOM - ((y - this.y0) / (this.y1 - this.y0)) * (HEIGHT - TOP - BOTTOM);
  }

  /** The data x under a viewBox x (a pointer), clamped to the range. */
  xAt(px: number): number {
    const t = (px - LEFT) / (WIDTH - LEFT - RIGHT);
    return this.x0 + Math.min(1, Math.max(0, t)) * (this.x1 - this.x0);
  }
}

export function n(v: number): string {
  return String(Math.round(v * 100) / 100);
}

/** Line segments through the samples; a null (f undefined there) lifts the pen. */
export function curvePath(frame: Frame, xs: readonly number[], ys: readonly (number | null)[]): string {
  let out = "";
  let down = false;
  ys.forEach((y, i) => {
    if (y === null) {
      down = false;
      return;
    }
    out += `${down ? "L" : "M"}${n(frame.px(xs[i]!))} ${n(frame.py(y))}`;
    down = true;
  });
  return out;
}

/** Ends of the line through (x, y) with `slope` over the x range, cut a plot's height beyond it. */
export function lineEnds(
  frame: Frame,
  x: number,
  y: number,
  slope: number,
): [number, number, number, number] {
  const span = frame.y1 - frame.y0;
  let a = frame.x0;
  let b = frame.x1;
  if (slope !== 0) {
    const ends = [x + (frame.y0 - span - y) / slope, x + (frame.y1 + span - y) / slope].sort((p, q) => p - q);
    a = Math.max(a, ends[0]!);
    b = Math.min(b, ends[1]!);
  }
  return [frame.px(a), frame.py(y + slope * (a - x)), frame.px(b), frame.py(y + slope * (b - x))];
}

// ---- the dial: the knob itself, a pointer per slope on a scale of ±DIAL_SWEEP degrees ----

export const DIAL_SWEEP = 135; // degrees either side of straight up: a knob's 270° travel
export const DIAL_RADIUS = 27; // the scale's arc, in the dial's viewBox (-44 -44 88 88)
export const DIAL_LABELS = 36; // the radius of the scale's numbers: outside the arc, clear of the pointers
const DIAL_STEPS = [1, 2, 3, 4, 5, 6, 8, 10];

/** The dial's full scale: the round number at least the curve's steepest |slope|, or that of its
 * middle 95 % where a spike (1/x next to 0) is more than twice as steep: it pegs the pointer instead
 * of squeezing the scale. knob_svg.dial_scale. */
export function dialScale(slopes: readonly (number | null)[]): number {
  const sizes = slopes.filter((s): s is number => s !== null).map(Math.abs);
  sizes.sort((a, b) => a - b);
  let top = sizes.length ? sizes[Math.ceil(0.95 * (sizes.length - 1))]! : 0;
  if (sizes.length && sizes[sizes.length - 1]! <= 2 * top) top = sizes[sizes.length - 1]!; // no spike
  if (!(top > 0)) return 1;
  const power = 10 ** Math.floor(Math.log10(top));
  return Number(
    (DIAL_STEPS.map((m) => m * power).find((s) => s >= top * (1 - 1e-12)) ?? 10 * power).toPrecision(12),
  );
}

/** The pointer's angle for a slope: clockwise from straight up, 0 at the top, pegged at the ends. */
export function dialAngle(slope: number, scale: number): number {
  return DIAL_SWEEP * Math.max(-1, Math.min(1, slope / scale));
}

/** The scale's arc from -DIAL_SWEEP to +DIAL_SWEEP through the top. */
export function dialArc(radius = DIAL_RADIUS): string {
  const a = (DIAL_SWEEP * Math.PI) / 180;
  const x = n(radius * Math.sin(a));
  const y = n(-radius * Math.cos(a));
  return `M-${x} ${y} A${radius} ${radius} 0 1 1 ${x} ${y}`;
}
