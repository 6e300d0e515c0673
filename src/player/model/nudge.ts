// The nudge check: move one leaf by a small h and compare Δoutput / h with its gradient — the
// derivative as a sensitivity knob (page 00), measured.

import type { ErrorPayload, NodeId, Timeline } from "../../inference/types";
import type { EngineResult } from "../engine/live";

export type NudgeResult =
  | {
      ok: true;
      node: string;
      before: number;
      after: number;
      ratio: number;
      grad: number;
      rounding: boolean;
      moved: Map<NodeId, number>; // every node whose value the nudge changed: nudged minus original
    }
  | { ok: false; error: ErrorPayload };

// Δoutput is trustworthy while the rounding in computing it (a few ulps of the output) stays below
// this share of Δoutput itself; past it, Δoutput / h is mostly rounding noise.
const ROUNDING_SHARE = 1e-4;

export function nudgeCheck(
  compute: (expression: string, values: Record<string, number>) => EngineResult,
  timeline: Timeline,
  values: Record<string, number>,
  leaf: string,
  h: number,
): NudgeResult {
  const root = timeline.nodes.find((n) => n.id === timeline.root)!;
  const variable = timeline.nodes.find((n) => n.op === "var" && n.name === leaf);
  if (!variable) return { ok: false, error: { code: "syntax", message: `No variable ${leaf}.`, params: {} } };
  const result = compute(timeline.expression, { ...values, [leaf]: variable.value + h });
  if (!result.ok) return { ok: false, error: result.error };
  const after = result.timeline.nodes.find((n) => n.id === result.timeline.root)!.value;
  const delta = after - root.value;
  return {
    ok: true,
    node: variable.id,
    before: root.value,
    after,
    ratio: delta / h,
    grad: variable.grad,
    rounding: lostToRounding(root.value, after, variable.value, h, delta),
    moved: movedBy(timeline, result.timeline),
  };
}

/**
 * The nodes a nudge moved, and by how much (nudged − original), in the graph's order: the same
 * expression gives the same nodes, so ids match. A node the nudge does not reach (another leaf, a
 * dead relu and everything only it feeds) is left out.
 */
export function movedBy(original: Timeline, nudged: Timeline): Map<NodeId, number> {
  const after = new Map(nudged.nodes.map((n) => [n.id, n.value]));
  const moved = new Map<NodeId, number>();
  for (const n of original.nodes) {
    const d = (after.get(n.id) ?? n.value) - n.value;
    if (d !== 0) moved.set(n.id, d);
  }
  return moved;
}

/** Is Δoutput (or the step actually taken, x + h − x) drowned in floating-point rounding? */
export function lostToRounding(before: number, after: number, x: number, h: number, delta: number): boolean {
  const noise = Number.EPSILON * Math.max(Math.abs(before), Math.abs(after));
  const stepNoise = Number.EPSILON * Math.abs(x);
  return delta === 0 || noise > ROUNDING_SHARE * Math.abs(delta) || stepNoise > ROUNDING_SHARE * Math.abs(h);
}
