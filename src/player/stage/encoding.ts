// What an edge's look means, in one place for the scene, the labels and the tests (and mirrored by
// tinydag/figure.py for the static figure): during backward an edge's thickness grows with the size
// of the contribution it carried, log-scaled so 0.001 and 1000 both read; its colour gives the sign,
// and negative edges are hollow (a pale core along them), a second cue besides hue; a contribution of exactly 0 is a dead
// path, drawn dim and dashed.

export type Sign = "positive" | "negative" | "zero";

export interface EdgeLook {
  width: number; // tube radius relative to an edge nothing has crossed yet (1)
  sign: Sign | null; // null: no contribution has crossed the edge yet (or forward)
}

const DECADES_LOW = -3; // |contribution| = 0.001 draws thinnest ...
const DECADES_HIGH = 3; // ... and 1000 thickest
const THINNEST = 0.55;
const THICKEST = 2.6;
export const DEAD_WIDTH = 0.55; // as thin as the thinnest live edge, and dashed

/** Relative thickness for a contribution: grows with log10 |c|, from THINNEST to THICKEST. */
export function widthOf(contribution: number): number {
  if (contribution === 0 || !Number.isFinite(contribution)) return contribution === 0 ? DEAD_WIDTH : THICKEST;
  const decades = Math.log10(Math.abs(contribution));
  const t = Math.min(1, Math.max(0, (decades - DECADES_LOW) / (DECADES_HIGH - DECADES_LOW)));
  return THINNEST + (THICKEST - THINNEST) * t;
}

export function signOf(contribution: number): Sign {
  return contribution === 0 ? "zero" : contribution > 0 ? "positive" : "negative";
}

/** The look of an edge whose backward label is `contribution` (null: nothing crossed it yet). */
export function edgeLook(contribution: number | null): EdgeLook {
  if (contribution === null) return { width: 1, sign: null };
  return { width: widthOf(contribution), sign: signOf(contribution) };
}
