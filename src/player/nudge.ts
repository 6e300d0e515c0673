// The nudge check: move one leaf by a small h and compare Δoutput / h with its gradient — the
// derivative as a sensitivity knob (page 00), measured.

import type { ErrorPayload, Timeline } from "../inference/types";
import { recompute } from "./engine";

export type NudgeResult =
  | { ok: true; before: number; after: number; ratio: number; grad: number }
  | { ok: false; error: ErrorPayload };

export function nudgeCheck(timeline: Timeline, values: Record<string, number>, leaf: string, h: number): NudgeResult | null {
  const root = timeline.nodes.find((n) => n.id === timeline.root);
  const variable = timeline.nodes.find((n) => n.op === "var" && n.name === leaf);
  if (!root || !variable || !(h !== 0 && Number.isFinite(h))) return null;
  const result = recompute(timeline.expression, { ...values, [leaf]: variable.value + h });
  if (!result.ok) return { ok: false, error: result.error };
  const after = result.timeline.nodes.find((n) => n.id === result.timeline.root)?.value ?? NaN;
  return { ok: true, before: root.value, after, ratio: (after - root.value) / h, grad: variable.grad };
}
