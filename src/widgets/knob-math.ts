// The knob's numbers, from the TypeScript engine (mirror of plugins/tinydag_mkdocs/widgets/knob.py): f(x) is
// the root's value and f'(x) is x.grad after backward(), as the build computed them in Python. Where f
// is undefined (log of a negative number) or overflows, a sample is null: a gap, never NaN.

import { TinyDagError } from "../inference/errors";
import { trace } from "../inference/trace";
import type { ErrorPayload } from "../inference/types";

export const SAMPLES = 201;
const KINK_STEP = 1e-7; // one-sided differences this close tell a kink from a smooth bend
const KINK_TOLERANCE = 1e-4;

export interface Point {
  y: number;
  slope: number;
}

export interface Curve {
  expression: string;
  ys: (number | null)[];
  slopes: (number | null)[];
}

/** The sample points: the same doubles, in the same order, as knob.py's xs_of. */
export function xsOf(lo: number, hi: number, count = SAMPLES): number[] {
  return Array.from({ length: count }, (_, i) => lo + ((hi - lo) * i) / (count - 1));
}

/** (f(x), f'(x)), or null where f is undefined; other engine errors (syntax…) are thrown. */
export function evaluate(expression: string, x: number): Point | null {
  let traced: ReturnType<typeof trace>;
  try {
    traced = trace(expression, { x });
  } catch (error) {
    if (error instanceof TinyDagError && (error.code === "domain" || error.code === "overflow")) return null;
    throw error;
  }
  const y = traced.nodes[traced.nodes.length - 1]!.out.data;
  const slope = traced.variables.find((v) => v.name === "x")?.out.grad ?? 0;
  return Number.isFinite(y) && Number.isFinite(slope) ? { y, slope } : null;
}

export function curveOf(expression: string, xs: readonly number[]): Curve {
  const points = xs.map((x) => evaluate(expression, x));
  return { expression, ys: points.map((p) => p?.y ?? null), slopes: points.map((p) => p?.slope ?? null) };
}

/** Why an expression cannot be a knob's curve, or null when it can. */
export type Problem =
  | { kind: "engine"; error: ErrorPayload }
  | { kind: "other-letter"; name: string }
  | { kind: "nowhere" };

/** Checks the text (parse, letters) before the curve is sampled, as knob.py does at build time. */
export function problemOf(expression: string, xs: readonly number[]): Problem | null {
  const mid = (xs[0]! + xs[xs.length - 1]!) / 2;
  for (const x of [mid, ...xs]) {
    try {
      const names = trace(expression, { x }).variables.map((v) => v.name ?? "");
      const other = names.find((name) => name !== "x");
      return other === undefined ? null : { kind: "other-letter", name: other };
    } catch (error) {
      if (!(error instanceof TinyDagError)) throw error;
      if (error.code !== "domain" && error.code !== "overflow")
        return { kind: "engine", error: error.toJSON().error };
    }
  }
  return { kind: "nowhere" };
}

export interface Readout {
  y: number | null; // f(x)
  yh: number | null; // f(x + h)
  slope: number | null; // the engine's f'(x)
  ratio: number | null; // (f(x + h) - f(x)) / h
  left: number | null; // (f(x) - f(x - h)) / h: shown when x sits on a kink
  kink: boolean;
  gap: number | null; // |ratio - slope|: 0 where it is only the rounding of the numbers (gapOf)
}

export function readout(expression: string, x: number, h: number): Readout {
  const here = evaluate(expression, x);
  const ahead = evaluate(expression, x + h);
  const behind = evaluate(expression, x - h);
  const ratio = here && ahead ? (ahead.y - here.y) / h : null;
  const left = here && behind ? (here.y - behind.y) / h : null;
  return {
    y: here?.y ?? null,
    yh: ahead?.y ?? null,
    slope: here?.slope ?? null,
    ratio: ratio !== null && Number.isFinite(ratio) ? ratio : null,
    left: left !== null && Number.isFinite(left) ? left : null,
    kink: here !== null && isKink(expression, x),
    gap: here && ahead && Number.isFinite(ratio) ? gapOf(x, h, here.y, ahead.y, here.slope) : null,
  };
}

/**
 * |Δy / h − dy/dx|, or 0 where it is no bigger than the rounding of the numbers it is made of (walk 35:
 * relu(x − 1) at x = 1.5, a straight line there, showed "difference 1.10134 × 10⁻¹³" between 1 and 1,
 * growing as h shrank): f(x), f(x + h) and x + h each rounded to a double, the error divided by h.
 */
export function gapOf(x: number, h: number, y: number, yh: number, slope: number): number {
  const gap = Math.abs((yh - y) / h - slope);
  const scale = (Math.abs(y) + Math.abs(yh) + Math.abs(x + h) * Math.abs(slope)) / h + Math.abs(slope);
  return gap <= 4 * Number.EPSILON * scale ? 0 : gap;
}

/** The slopes of the two sides of x, each over a step `d`; null where f has no value (page 00's gears). */
export function sidesOf(
  expression: string,
  x: number,
  d = KINK_STEP * Math.max(1, Math.abs(x)),
): { left: number; right: number } | null {
  const [a, b, c] = [x - d, x, x + d].map((t) => evaluate(expression, t)?.y);
  if (a === undefined || b === undefined || c === undefined) return null;
  return { left: (b - a) / d, right: (c - b) / d };
}

/**
 * A kink: the slopes from the right and from the left differ, and keep differing as the step
 * shrinks (on a smooth curve their difference shrinks with the step, ten times for a ten times
 * smaller step; at relu's corner it stays put).
 */
export function isKink(expression: string, x: number): boolean {
  const gap = (d: number): number | null => {
    const sides = sidesOf(expression, x, d);
    return sides && Math.abs(sides.right - sides.left);
  };
  const d = KINK_STEP * Math.max(1, Math.abs(x));
  const wide = gap(d);
  const narrow = gap(d / 10);
  if (wide === null || narrow === null) return false;
  const scale = 1 + Math.abs(evaluate(expression, x)?.slope ?? 0);
  return narrow > KINK_TOLERANCE * scale && narrow > 0.5 * wide;
}
