// The small sums a card shows for a moment: how a value was made when it arrives (forward,
// "−1 × 10 = −10") and, during backward, the running sum of a gradient that more than one edge
// adds to ("2 + 2 = 4", the `+=` of backward()). Numbers as on the cards (formatNumber).

import { LOOKS } from "../../inference/ops";
import type { BackwardStep, Op, Timeline, TimelineNode } from "../../inference/types";
import { prettyLabel } from "../teaching/expansion";
import { equalsSign, formatNumber, operand, shownAs } from "./format";

const MAX_TERMS = 4; // a longer sum keeps its first two and its last term: "1 + 1 + … + 1 = 5"

// The number rule (format.ts equalsSign, as productText): where the numbers shown, worked out, do not
// give the result shown (rounding), the sum or the operation says "≈" instead of "=".
const WORKED: Partial<Record<Op, (x: number, y: number) => number>> = {
  "+": (x, y) => x + y,
  "-": (x, y) => x - y,
  "*": (x, y) => x * y,
  "/": (x, y) => x / y,
  "**": (x, y) => x ** y,
  exp: (x) => Math.exp(x),
  log: (x) => Math.log(x),
  relu: (x) => Math.max(0, x),
  neg: (x) => -x,
};

/**
 * "−1 × 10 = −10", "relu(−6) = 0", "2 − (−3) = 5"; null for variables and numbers. `write`: how a
 * number reads (the cards' formatNumber; prose passes the language's own, "0,5").
 */
export function madeText(
  node: TimelineNode,
  timeline: Timeline,
  write: (x: number) => string = formatNumber,
): string | null {
  if (node.inputs.length === 0) return null;
  const values = new Map(timeline.nodes.map((n) => [n.id, n.value]));
  const input = (i: number): number => values.get(node.inputs[i] ?? "") ?? 0;
  const work = WORKED[node.op];
  const second = node.op === "**" ? (node.exponent ?? 0) : shownAs(input(1)); // an exponent is as typed
  const result = `${work ? equalsSign(work(shownAs(input(0)), second), node.value) : "="} ${write(node.value)}`;
  const { shape, glyph } = LOOKS[node.op];
  if (shape === "power")
    // (the exponent as typed, written as the working writes it: walkthrough 27, "2 ** -1" among "−")
    return `${operand(write(input(0)))} ** ${prettyLabel(node.exponent_label ?? write(node.exponent ?? 0))} ${result}`;
  if (shape === "infix") return `${write(input(0))} ${glyph} ${operand(write(input(1)))} ${result}`;
  return `${glyph}(${write(input(0))}) ${result}`; // −(3) = −3, relu(−6) = 0
}

/** The contributions `step`'s child has received once it lands, in backward()'s order. */
export function termsAfter(timeline: Timeline, step: BackwardStep): number[] {
  const upto = timeline.backward.indexOf(step);
  const steps =
    upto < 0 ? timeline.backward.filter((s) => s.child === step.child) : timeline.backward.slice(0, upto + 1);
  return steps.filter((s) => s.child === step.child).map((s) => s.contribution);
}

/**
 * "2 + 2 = 4", "2 − 3 = −1" for two or more terms; null for fewer. `write`: how a number reads.
 * `tail`: only the term just added and the total, "… + 2 = 4" (a tab with no room for the rest).
 */
export function sumText(
  terms: readonly number[],
  write: (x: number) => string = formatNumber,
  tail = false,
): string | null {
  if (terms.length < 2) return null;
  const total = terms.reduce((sum, x) => sum + x, 0); // in backward()'s order: exactly the grad
  const last = terms[terms.length - 1]!;
  const shown = tail ? [null, last] : terms.length > MAX_TERMS ? [terms[0]!, terms[1]!, null, last] : terms;
  const text = shown
    .map((x, i) => {
      if (x === null) return i === 0 ? "…" : " + …";
      if (i === 0) return write(x);
      return x < 0 ? ` − ${write(-x)}` : ` + ${write(x)}`;
    })
    .join("");
  // Worked out from the terms shown (with "…" the reader cannot, and it is the exact sum anyway).
  const sign =
    tail || terms.length > MAX_TERMS
      ? "="
      : equalsSign(
          terms.map(shownAs).reduce((sum, x) => sum + x, 0),
          total,
        );
  return `${text} ${sign} ${write(total)}`;
}
