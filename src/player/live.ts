// Live recompute: the TypeScript port of the engine (src/inference), called only after the reader
// edits the expression or moves a value (the first frame uses the JSON the site embedded). Every
// call is counted on window.tinydagPlayer.engineCalls so tests can prove that.

import { CODES } from "../inference/errors";
import { buildTimeline } from "../inference/index";
import { type Node, parse } from "../inference/parse";
import type { ErrorCode, ErrorPayload, Timeline } from "../inference/types";
import { debugHandle } from "./debug";

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

/** The engine's TinyDagError as the plain payload the player works with. */
export function asPayload(thrown: unknown): ErrorPayload | null {
  if (typeof thrown !== "object" || thrown === null) return null;
  const e = thrown as Partial<Record<keyof ErrorPayload, unknown>>;
  if (typeof e.code !== "string" || !(CODES as readonly string[]).includes(e.code)) return null;
  const params: Record<string, string> = {};
  if (typeof e.params === "object" && e.params !== null)
    for (const [k, v] of Object.entries(e.params)) params[k] = String(v);
  const payload: ErrorPayload = {
    code: e.code as ErrorCode,
    message: typeof e.message === "string" ? e.message : "",
    params,
  };
  if (typeof e.start === "number") payload.start = e.start;
  if (typeof e.end === "number") payload.end = e.end;
  if (typeof e.node === "string") payload.node = e.node;
  return payload;
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
    switch (node.kind) {
      case "var":
        names.add(node.name);
        return;
      case "num":
        return;
      case "paren":
        return visit(node.inner);
      case "unary":
        return visit(node.operand);
      case "pow":
        return visit(node.base);
      case "call":
        return visit(node.arg);
      case "binary":
        visit(node.left);
        return visit(node.right);
    }
  };
  visit(tree);
  return [...names];
}
