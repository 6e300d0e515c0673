// The nudge check: move one leaf by a small h and compare Δoutput / h with its gradient — the
// derivative as a sensitivity knob (page 00), measured.

import type { ErrorPayload, NodeId, Timeline } from "../../inference/types";
import type { EngineResult } from "../engine/live";
import { errorMessage, type I18n } from "../shared/i18n";
import { proseNumber } from "./format";
import type { NudgeState } from "./model";

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
      kink: Kink; // how the nudge met a relu's kink, if it did
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
    rounding: lostToRounding(root.value, after, variable.value, h, delta, variable.grad),
    moved: movedBy(timeline, result.timeline),
    kink: kinkMet(timeline, result.timeline),
  };
}

/** How a nudge met relu's kink at 0 (kinkMet). */
export type Kink = "on" | "across" | null;

/**
 * How a nudge met relu's kink at 0, where its slope jumps between 0 and 1 (walkthrough 28: at a = 0 in
 * relu(a * b), "Δoutput / h = 3, and a.grad = 0", with no word on why): "on", a relu's input was
 * exactly 0 and the nudge moved it up, so Δoutput / h carries relu's slope of 1 there, while
 * backward() takes relu's slope at 0 as 0 (walkthrough 29: this was said as "across the jump"); else
 * "across", the nudge took an input from one side of 0 to the other, and Δoutput / h averages the
 * slopes of both; null, neither.
 */
export function kinkMet(original: Timeline, nudged: Timeline): Kink {
  const before = new Map(original.nodes.map((n) => [n.id, n.value]));
  const after = new Map(nudged.nodes.map((n) => [n.id, n.value]));
  let kink: Kink = null;
  for (const n of original.nodes) {
    const input = n.op === "relu" ? n.inputs[0] : undefined;
    if (input === undefined) continue;
    const [from, to] = [before.get(input)!, after.get(input)!];
    if (from === 0 && to > 0) return "on"; // (down from 0 both slopes are relu's 0)
    if (from > 0 !== to > 0) kink = "across";
  }
  return kink;
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

/**
 * Is Δoutput (or the step actually taken, x + h − x) drowned in floating-point rounding? An output that
 * does not move where the gradient is 0 is flat, not drowned (review 52: a dead ReLU's nudge at h = 0.001
 * was told to try a larger h).
 */
export function lostToRounding(
  before: number,
  after: number,
  x: number,
  h: number,
  delta: number,
  grad: number,
): boolean {
  const noise = Number.EPSILON * Math.max(Math.abs(before), Math.abs(after));
  const stepNoise = Number.EPSILON * Math.abs(x);
  if (stepNoise > ROUNDING_SHARE * Math.abs(h)) return true;
  return delta === 0 ? grad !== 0 : noise > ROUNDING_SHARE * Math.abs(delta);
}

const NOISY_DIGITS = 8; // significant digits of a nudge's ratio when rounding has eaten into it
const NUDGE_DIGITS = 7; // before/after of a nudge: enough digits to see a small Δoutput ...
const NUDGE_MAX_DIGITS = 15; // ... and more where it is smaller still, up to what a double holds

/** What Nudge check says: its sentence in the panel, the line under the graph, and their state. */
export interface NudgeWords {
  text: string;
  state: "refused" | "failed" | "waiting" | "compared";
  caption: string | null; // the line under the graph that shows the change (a measure only)
  ratio?: number;
  grad?: number; // once the backward wave has brought the leaf's gradient (`reached`)
  rounding: boolean;
}

/**
 * A nudge's answer in words, its numbers written the language's way: compared with the leaf's gradient
 * once the backward wave has brought it, else with a word on when it will come. `expression`: the
 * text in the field, which a failed nudge's message quotes.
 */
export function nudgeWords(nudge: NudgeState, reached: boolean, i18n: I18n, expression: string): NudgeWords {
  const t = i18n.t;
  if ("problem" in nudge) {
    const text = t(nudge.problem === "h-zero" ? "nudge_h_zero" : "nudge_h_invalid");
    return { text, state: "refused", caption: null, rounding: false };
  }
  const r = nudge.result;
  if (!r.ok) {
    const text = t("nudge_failed", { message: errorMessage(i18n, r.error, expression) });
    return { text, state: "failed", caption: null, rounding: false };
  }
  const lang = i18n.lang;
  const say = (x: number, digits?: number): string => proseNumber(x, lang, digits);
  // As many digits as the two outputs need to differ (walkthrough 19: h = 1e-9 moved the output
  // "from −10 to −10", beside Δoutput / h = −1), and no more where it did not move (review 52:
  // "from 3.33333333333333 to 3.33333333333333")
  let digits = NUDGE_DIGITS;
  if (r.before !== r.after)
    while (digits < NUDGE_MAX_DIGITS && say(r.before, digits) === say(r.after, digits)) digits++;
  const params = {
    name: nudge.leaf,
    h: say(nudge.h),
    before: say(r.before, digits),
    after: say(r.after, digits),
    // 10.000889 where rounding drowns it, not a reassuring 10
    ratio: say(r.ratio, r.rounding ? NOISY_DIGITS : undefined),
    grad: say(r.grad),
  };
  let text = t(reached ? "nudge_result" : "nudge_result_waiting", params);
  // Two numbers that differ as shown are not left to look like one sensitivity (walkthrough 28): why
  // they differ (the output curves over h, or h crosses a relu's kink), and what backward() finds.
  const differ = reached && !r.rounding && params.ratio !== params.grad;
  if (differ) text += ` ${t(r.kink ? `nudge_kink_${r.kink}` : "nudge_curve", params)}`;
  text += ` ${t(differ ? "nudge_one_pass_point" : "nudge_one_pass")}`;
  if (r.rounding) text += ` ${t("nudge_rounding")}`;
  const caption = t(reached ? "caption_nudge" : "caption_nudge_waiting", params);
  const words: NudgeWords = {
    text,
    state: reached ? "compared" : "waiting",
    caption,
    ratio: r.ratio,
    rounding: r.rounding,
  };
  if (reached) words.grad = r.grad;
  return words;
}
