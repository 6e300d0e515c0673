// Predict, then check — the pure half: read a number as the learner types it in their language,
// judge it against the engine's gradient, and explain the right number by the chain rule along the
// graph's paths. No DOM; predict.ts shows what this decides.

import type { NodeId, Timeline } from "../../inference/types";
import { sentenceLabel, sentenceName } from "../teaching/expansion";
import { equalsSign, formatNumber, operand, parseNumber, proseNumber, shownAs } from "./format";
import type { I18n } from "../shared/i18n";
import type { Direction } from "./timing";
import { eventNode, nodesById, scheduleOf } from "./timing";

export type Reading = { ok: true; value: number } | { ok: false; problem: "empty" | "not-a-number" };
export type Verdict = "right" | "wrong";

export const RELATIVE_TOLERANCE = 1e-6;
export const PATHS_SHOWN = 3; // a leaf with more paths than this gets the first ones and the count

const MINUSES = /[\u2212\u2012\u2013\u2014\ufe63\uff0d]/g; // typographic minus, dashes a keyboard may give
// "1 000" in ru and et, "1'000": a group of three digits; other spaces between digits are no number
// (review 59: "2 3" was 23).
const GROUP_SPACES = /(\d)[ \u00a0\u202f\u2009']+(?=\d{3}\b)/g;
// "1,000,000" and "12,345.5" in English; "0,125" is a decimal comma (review tr59: it was read as 125).
const EN_GROUPS = /^[-+]?[1-9]\d{0,2}(,\d{3})+(\.\d*)?$/;
const PLAIN = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

/**
 * A prediction as typed: "−2", "-2", "0,5" (a decimal comma in every language: a single comma that
 * is not an English thousands group), "1 000,5", "1.5e-3", "(−2)", or a fraction "1/3". In English,
 * "2,718" is no number: a decimal comma or a thousands one? (eitherWay says which two.)
 */
export function readPrediction(text: string, lang: string): Reading {
  const trimmed = text.trim();
  if (trimmed === "") return { ok: false, problem: "empty" };
  // Spaces go but between two digits: "2 3" stays and is no number.
  let t = trimmed
    .replace(MINUSES, "-")
    .replace(GROUP_SPACES, "$1")
    .replace(/(?<![\d\s])\s+|\s+(?![\d\s])/g, "");
  if (/^\(.*\)$/.test(t)) t = t.slice(1, -1);
  const parts = t.split("/");
  if (parts.length > 2) return { ok: false, problem: "not-a-number" };
  const numbers = parts.map((p) => plainNumber(p, lang));
  const [top, bottom = 1] = numbers;
  if (top === undefined || !numbers.every(Number.isFinite) || bottom === 0)
    return { ok: false, problem: "not-a-number" };
  const value = top / bottom;
  return Number.isFinite(value) ? { ok: true, value } : { ok: false, problem: "not-a-number" };
}

/**
 * What an English "2,718" could be, as the reader would type either (["2.718", "2718"]): the text
 * is no number, but it is with its one comma read as a point or as nothing. Null for any other text
 * (in Russian and Estonian a single comma is always a decimal one).
 */
export function eitherWay(text: string, lang: string): [string, string] | null {
  const t = text.trim();
  const ways: [string, string] = [t.replace(",", "."), t.replace(",", "")];
  const reads = (x: string): boolean => readPrediction(x, lang).ok;
  return t.split(",").length === 2 && !reads(t) && ways.every(reads) ? ways : null;
}

/** A number as a prediction field reads it (the value fields and Nudge check's h too); NaN for none. */
export function readNumber(text: string, lang: string): number {
  const reading = readPrediction(text, lang);
  return reading.ok ? reading.value : NaN;
}

function plainNumber(text: string, lang: string): number {
  let t = text;
  if (t.includes(",")) {
    const more = /\.|,.*,/.test(t); // a point or another comma
    if (lang.startsWith("en") && EN_GROUPS.test(t)) {
      // One group and no point, "2,718": a decimal comma or a thousands one? The reader is asked
      // (walkthrough 31: e, 2.718, was judged as 2718).
      if (!more) return NaN;
      t = t.replace(/,/g, "");
    } else if (more) return NaN; // "1,000.5" outside English, "1,2,3"
  }
  return PLAIN.test(t.replace(",", ".")) ? parseNumber(t) : NaN;
}

/** Why a prediction is no number: "2,718" in English could be either of two; anything else is none. */
function unreadable(leaf: string, text: string, i18n: I18n): string {
  const either = eitherWay(text, i18n.lang);
  const params = { leaf, text: quoted(text) };
  return either
    ? i18n.t("predict_either", { ...params, point: either[0], whole: either[1] })
    : i18n.t("predict_not_a_number", params);
}

/** Right: within a relative 1e-6 of the gradient, or equal to it as the cards round it. */
export function judge(predicted: number, gradient: number): Verdict {
  if (Math.abs(predicted - gradient) <= RELATIVE_TOLERANCE * Math.abs(gradient)) return "right";
  return formatNumber(predicted) === formatNumber(gradient) ? "right" : "wrong";
}

/**
 * For each node, how many of the backward pass's events have landed once its gradient is whole (its
 * last hand-off, or the seed for the output): a verdict on a leaf waits for them, as its card does.
 */
export function gradientsDue(timeline: Timeline): Map<NodeId, number> {
  return new Map(scheduleOf(timeline, "backward").events.map((event, k) => [eventNode(event), k + 1]));
}

/**
 * Whether a verdict waits, its gradient not on its card yet: before the `due` events have landed
 * (`completed`), and while the forward pass plays (its cards have no gradient), unless the final
 * gradients are shown.
 */
export function verdictWaits(
  s: { direction: Direction; finalGradients: boolean },
  completed: number,
  due: number,
): boolean {
  return !s.finalGradients && (s.direction === "forward" || completed < due);
}

export interface ChainPath {
  nodes: NodeId[]; // from the leaf to the root, along the graph's arrows
  locals: number[]; // the local derivative on each arrow, in the same order
  product: number; // locals × the root's seed gradient: what this path adds to the leaf's grad
}

/**
 * The paths from `leaf` to the root (the first `limit`, in the order of the edges) and how many there
 * are in all. Backward's `+=` sums exactly these products (up to float rounding).
 */
export function chainPaths(
  timeline: Timeline,
  leaf: NodeId,
  limit = PATHS_SHOWN,
): { paths: ChainPath[]; total: number } {
  const out = new Map<NodeId, typeof timeline.edges>();
  for (const edge of timeline.edges) out.set(edge.from, [...(out.get(edge.from) ?? []), edge]);
  const counts = new Map<NodeId, number>();
  const count = (id: NodeId): number => {
    if (id === timeline.root) return 1;
    let known = counts.get(id);
    if (known === undefined) {
      known = (out.get(id) ?? []).reduce((s, e) => s + count(e.to), 0);
      counts.set(id, known);
    }
    return known;
  };
  const seed = timeline.seed.grad;
  const paths: ChainPath[] = [];
  const walk = (id: NodeId, nodes: NodeId[], locals: number[]): void => {
    if (paths.length >= limit) return;
    if (id === timeline.root) {
      paths.push({ nodes, locals, product: locals.reduce((p, l) => p * l, seed) });
      return;
    }
    for (const edge of out.get(id) ?? [])
      if (count(edge.to) > 0) walk(edge.to, [...nodes, edge.to], [...locals, edge.local]);
  };
  walk(leaf, [leaf], []);
  return { paths, total: count(leaf) };
}

export interface Explanation {
  lead: string; // the sentence: the right number and how to get it
  lines: string[]; // one path a line ("a → (a + b) → (a + b) × c: 1 × (−2) × 1 = −2"), then the sum
}

/**
 * Why the gradient of `leaf` is what it is, in the page's language: the path (or the paths) from
 * the leaf to the output with the local derivative of every arrow multiplied out, and for several
 * paths the += that adds them up. `typed`: the learner's answer, which the sentence sets beside the
 * right one (walk 38: "Not quite: c.grad = 5." read as if 5 were the answer judged).
 */
export function explainGradient(timeline: Timeline, leaf: NodeId, i18n: I18n, typed: string): Explanation {
  const nodes = nodesById(timeline);
  const say = (x: number): string => proseNumber(x, i18n.lang);
  // Inner nodes in parentheses ("a → (a + b) → …"); the last one, the output, needs none. Long ones
  // elided as the caption names them (walkthrough 23: a big graph's paths ran to 25 lines on a phone).
  const name = (id: NodeId, last: boolean): string => {
    const n = nodes.get(id);
    return n ? (last ? sentenceLabel(n, timeline) : sentenceName(n, timeline)) : id;
  };
  const grad = nodes.get(leaf)?.grad ?? 0;
  const leafName = name(leaf, false);
  const { paths, total } = chainPaths(timeline, leaf);
  const seed = timeline.seed.grad;
  const routes = paths.map((p) => p.nodes.map((id, i) => name(id, i === p.nodes.length - 1)).join(" → "));
  // Paths through the same nodes differ by their edges (a * a): number them, "(edge 1)", "(edge 2)".
  const copies = new Map<string, number>();
  const lines = paths.map((p, k) => {
    const factors = [...p.locals, seed];
    let route = routes[k]!;
    if (routes.filter((r) => r === route).length > 1) {
      const n = (copies.get(route) ?? 0) + 1;
      copies.set(route, n);
      route += ` (${i18n.t("predict_edge", { n })})`;
    }
    return `${route}: ${factors.map((f) => factor(f, i18n.lang)).join(" × ")} ${equals(factors, p.product)} ${say(p.product)}`;
  });
  const params = { leaf: leafName, grad: say(grad), typed, seed: say(seed), count: total };
  if (total <= 1) return { lead: i18n.t("predict_wrong_one", params), lines };
  if (total > paths.length) lines.push(i18n.t("predict_more_paths", { count: total - paths.length }));
  const sum =
    total > paths.length
      ? say(grad)
      : `${paths.map((p) => factor(p.product, i18n.lang)).join(" + ")} ${equals(
          paths.map((p) => p.product),
          grad,
          "+",
        )} ${say(grad)}`;
  lines.push(i18n.t("predict_together", { sum }));
  return { lead: i18n.t("predict_wrong_many", params), lines };
}

/** The explanation as one text (what a screen reader hears, what a test reads). */
export function explanationText(e: Explanation): string {
  return [e.lead, ...e.lines].join(" ");
}

/** A factor inside a product: negative numbers in parentheses, "(−2)". */
const factor = (x: number, lang: string): string => operand(proseNumber(x, lang));

/** "=" when the numbers as shown give the result as shown, "≈" when rounding hides a digit. */
function equals(terms: number[], result: number, op: "×" | "+" = "×"): string {
  const shown = terms.map(shownAs);
  return equalsSign(op === "×" ? shown.reduce((p, x) => p * x, 1) : shown.reduce((s, x) => s + x, 0), result);
}

/** One field's answer at Check: unreadable, or judged right or wrong, with the words under it. */
export interface FieldAnswer {
  kind: "unreadable" | Verdict;
  lead: string;
  lines: string[];
}

/**
 * Check, decided: each field's answer (in the fields' order) and the summary. Any field that cannot
 * be read stops the judging: then only those fields have an answer (null for the others), and the
 * summary says how many need a number. `fields`: each field's leaf and what is typed in it.
 */
export function judgeAll(
  fields: readonly { name: string; text: string }[],
  timeline: Timeline,
  i18n: I18n,
): { answers: (FieldAnswer | null)[]; summary: string; judged: boolean } {
  const t = i18n.t;
  const readings = fields.map((f) => readPrediction(f.text, i18n.lang));
  const unread = readings.filter((r) => !r.ok).length;
  if (unread > 0) {
    const answers = readings.map((reading, i): FieldAnswer | null =>
      reading.ok
        ? null
        : {
            kind: "unreadable",
            lead:
              reading.problem === "empty"
                ? t("predict_empty", { leaf: fields[i]!.name })
                : unreadable(fields[i]!.name, fields[i]!.text, i18n),
            lines: [],
          },
    );
    return { answers, summary: t("predict_incomplete", { count: unread }), judged: false };
  }
  const leaves = new Map(timeline.variables.map((v) => [v.name, v.node]));
  const nodes = nodesById(timeline);
  let right = 0;
  const answers = readings.map((reading, i): FieldAnswer | null => {
    const node = nodes.get(leaves.get(fields[i]!.name) ?? "");
    if (!node || !reading.ok) return null;
    if (judge(reading.value, node.grad) === "right") {
      right += 1;
      const grad = proseNumber(node.grad, i18n.lang);
      return { kind: "right", lead: t("predict_right", { leaf: fields[i]!.name, grad }), lines: [] };
    }
    // Their number as the sentence writes numbers: rounded, it differs from the right one (judge).
    return {
      kind: "wrong",
      ...explainGradient(timeline, node.id, i18n, proseNumber(reading.value, i18n.lang)),
    };
  });
  // The tally, which waits for the last verdict to show (answers.ts reachAnswers).
  return { answers, summary: t("predict_tally", { right, total: fields.length }), judged: true };
}

const QUOTED = 24; // characters of an unreadable prediction the message repeats at most

/** What the learner typed, as a message quotes it: trimmed, and cut with "…" when long. */
function quoted(text: string): string {
  const chars = Array.from(text.trim());
  return chars.length <= QUOTED ? chars.join("") : `${chars.slice(0, QUOTED - 1).join("")}…`;
}
