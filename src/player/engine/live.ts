// Live recompute: the TypeScript port of the engine (src/inference), called only after the reader
// edits the expression or moves a value (the first frame uses the JSON the site embedded). Every
// call is counted on window.tinydagPlayer.engineCalls so tests can prove that.

import { buildTimeline, TinyDagError } from "../../inference/index";
import { type Node, operands, parse } from "../../inference/parse";
import type { ErrorPayload, Timeline } from "../../inference/types";
import { type NudgeResult, nudgeCheck } from "../model/nudge";
import { debugHandle } from "../shared/debug";

export type EngineResult = { ok: true; timeline: Timeline } | { ok: false; error: ErrorPayload };

export function recompute(expression: string, values: Record<string, number>): EngineResult {
  debugHandle().engineCalls += 1;
  try {
    return { ok: true, timeline: buildTimeline(expression, values) };
  } catch (thrown) {
    const error = asPayload(thrown);
    if (error) return { ok: false, error };
    throw thrown; // a bug, not a learner's input: let it surface
  }
}

/** Nudge check: the graph run again with `leaf` moved by h, against its gradient (nudge.ts). */
export function nudge(
  timeline: Timeline,
  values: Record<string, number>,
  leaf: string,
  h: number,
): NudgeResult {
  return nudgeCheck(recompute, timeline, values, leaf, h);
}

/** The engine's TinyDagError as the plain payload the player works with; null for anything else (a bug). */
export function asPayload(thrown: unknown): ErrorPayload | null {
  return thrown instanceof TinyDagError ? thrown.toJSON().error : null;
}

/**
 * The variables of a text that parses, in the engine's order (first appearance, as trace visits the
 * tree); null when it does not parse. The sliders follow what the reader types with it.
 */
export function variablesOf(expression: string): string[] | null {
  let tree: Node;
  try {
    tree = parse(expression);
  } catch (thrown) {
    if (asPayload(thrown)) return null;
    throw thrown;
  }
  const names = new Set<string>();
  const visit = (node: Node): void => {
    if (node.kind === "var") names.add(node.name);
    else operands(node).forEach(visit); // left before right, as the tracer visits them
  };
  visit(tree);
  return [...names];
}
