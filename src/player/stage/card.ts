// One card of the graph as elements: the head (glyph, a title that fits, badges), the value and grad
// rows, the local-derivatives panel and the tab over its top edge (cards.ts fills and places them).

import type { Timeline, TimelineNode } from "../../inference/types";
import { h } from "../shared/dom";
import { expansionOf, fullLabel, glyphOf, prettyLabel, termsOf, titleOf } from "../teaching/expansion";
import type { CardSize } from "./fit";
import type { I18n } from "../shared/i18n";

export const CARD_FULL: CardSize = { width: 112, height: 70 };
export const CARD_COMPACT: CardSize = { width: 66, height: 54 }; // phones: keys shortened to v / g
export const CARD_COMPACT_WIDE: CardSize = { width: 80, height: 54 }; // ... in a panned graph: room for "1.072e13"
export const NOT_REACHED = "--";

export interface Card {
  el: HTMLElement;
  value: HTMLElement;
  grad: HTMLElement;
  expansion: HTMLElement;
  note: HTMLElement; // a tab on the card's top edge: how the value was made, or the gradient's running sum
  sum: HTMLElement;
  made: HTMLElement;
  delta: HTMLElement; // a tab under the card (or its expansion): what the last nudge changed its value by
  nudged: boolean; // the last nudge moved its value: room is kept for the delta tab
  madeText: string | null; // forward: "−1 × 10 = −10" (this graph's numbers; written when first shown)
  expansionOf: Timeline | null; // the numbers the expansion panel shows (refreshed while it is shown)
  noteWidth: number; // CSS px at scale 1 of the tab shown (0: none), estimated from its text
  noteShift: number; // CSS px (scale 1) the tab moves left, so a card at the stage's right border keeps it inside
  height: number | null; // CSS px at scale 1, measured when first needed
  panel: { w: number; h: number } | null; // the expansion's size at scale 1, measured when shown
  shift: number; // CSS px (scale 1) the expansion moves left of the card, to stay inside the stage
  at: { x: number; y: number; scale: number } | null; // where place() put it (top-left, CSS px)
  glow: number; // 0..1: the pulse is here (its halo)
  lift: number; // 0..1: how far the card stands out from the wall behind the graph (its shadow)
  shadowOf: string; // what its shadow was last written for (cards.ts shade)
  sums: [string, string] | null; // the running sum in full and as its tail, "… + 2 = 1.531" (cards.ts)
  fold: number; // which of them its tab shows: 0, 1, or none (2) where either would meet another card
}

/** One card's elements: its head (glyph, title, badges), value and grad rows, expansion panel and tab. */
export function buildCard(node: TimelineNode, timeline: Timeline, t: I18n["t"]): Card {
  const badges: HTMLElement[] = [];
  if (node.derived)
    badges.push(
      h(
        "span",
        { class: "tdg-badge", "data-badge": "derived", title: t("badge_derived_title") },
        t("derived"),
      ),
    );
  if (node.op === "**")
    badges.push(
      h(
        "span",
        { class: "tdg-badge tdg-exponent", "data-badge": "const", title: t("badge_const_title") },
        // The glyph already says **: the badge holds the exponent and "const".
        h(
          "span",
          { class: "tdg-exponent-value" },
          prettyLabel(node.exponent_label ?? String(node.exponent ?? "")),
        ),
        " ",
        t("const"),
      ),
    );
  if (node.op === "const")
    badges.push(
      h("span", { class: "tdg-badge", "data-badge": "const", title: t("badge_literal_title") }, t("const")),
    );
  const value = h("span", { class: "tdg-num", "data-field": "value" }, NOT_REACHED);
  const grad = h("span", { class: "tdg-num", "data-field": "grad" }, NOT_REACHED);
  const expansion = h("div", { class: "tdg-expansion", hidden: true });
  const sum = h("span", { "data-field": "sum", hidden: true });
  const made = h("span", { "data-field": "made", hidden: true });
  const note = h("div", { class: "tdg-note", hidden: true }, made, sum);
  const delta = h("div", { class: "tdg-delta", "data-field": "delta", hidden: true });
  const expanded = expansionOf(node, timeline);
  if (expanded) expansion.append(h("div", {}, expanded), h("div", { class: "tdg-expansion-locals" }));
  // The whole expression is the card's label and tooltip (hover, and keyboard focus: the card is
  // focusable); the head holds a title shortened to fit beside the glyph and badges. walk.ts adds
  // the spoken name (operation, value, grad, what it feeds) and keeps one card in the tab order.
  const full = fullLabel(node);
  const glyph = glyphOf(node);
  const title = titleOf(node, timeline, titleBudget(glyph));
  const el = h(
    "div",
    {
      class: "tdg-card",
      "data-node": node.id,
      "data-op": node.op,
      "data-expression": node.inputs.length > 0 ? full : null,
      "data-shortened": node.inputs.length > 0 && title !== full ? "true" : null,
      role: "group",
      tabindex: "0",
      "aria-label": full,
      title: full,
    },
    h(
      "div",
      { class: "tdg-card-head" },
      h("span", { class: "tdg-glyph" }, glyph),
      title ? h("span", { class: "tdg-label", "aria-hidden": "true" }, title) : null,
      ...badges,
    ),
    h("div", { class: "tdg-row tdg-row-value" }, key(t("value"), t("value_short")), value),
    h("div", { class: "tdg-row tdg-row-grad" }, key(t("grad"), t("grad_short")), grad),
    expansion,
    note,
    delta,
  );
  return {
    el,
    value,
    grad,
    expansion,
    note,
    sum,
    made,
    delta,
    nudged: false,
    madeText: null,
    expansionOf: null,
    noteWidth: 0,
    noteShift: 0,
    height: null,
    panel: null,
    shift: 0,
    at: null,
    glow: 0,
    lift: 0.5,
    shadowOf: "",
    sums: null,
    fold: 0,
  };
}

/** Terms as nodes: no break inside a term (its spaces are no-break spaces), a plain space between. */
export function unbreakableTerms(text: string): (HTMLElement | string)[] {
  return termsOf(text).flatMap((term, i) => [
    ...(i ? [" "] : []),
    h("span", { class: "tdg-term" }, term.replace(/ /g, "\u00a0")),
  ]);
}

/**
 * How many characters of title fit in a full card's head beside the glyph (badges sit on the card's
 * top edge, player.css). Monospace fonts advance 0.6 em: 9 px per glyph character at 15 px, 6.6 px
 * per title character at 11 px.
 */
function titleBudget(glyph: string): number {
  const room = CARD_FULL.width - 18 - glyph.length * 9 - 5; // 8 px padding and 1 px border each side; the gap
  return Math.max(0, Math.floor(room / 6.6));
}

/** The tab's width at scale 1 (player.css: 10.5 px monospace, 0.6 em a character, padding and border). */
export function noteWidth(text: string): number {
  return Math.ceil(text.length * 6.3 + 12);
}

/** A field name, in full on wide stages and shortened (v, g) on narrow ones. */
function key(long: string, short: string): HTMLElement {
  return h(
    "span",
    { class: "tdg-key" },
    h("span", { class: "tdg-key-long" }, long),
    h("span", { class: "tdg-key-short", "aria-hidden": "true" }, short),
  );
}

/**
 * A card's shadows, written inline (cards.ts): its side as a chip (colour `side`), the side turned
 * towards the viewer by `chip` px (2 px of it even from the front); a soft shadow on the wall, longer
 * the higher it stands; a halo of colour `halo` while the pulse is there. One non-inherited property:
 * a frame restyles the card alone, not the elements inside it (a custom property would be inherited by
 * all of them); its colours are resolved (stage.ts readPalette), for a var() in it would make every
 * restyle parse the whole value again (a frame of the 40-node graph's pulse: 2 ms of style, not 0.3).
 */
export function cardShadow(
  glow: number,
  lift: number,
  chip: readonly [number, number],
  side: string,
  halo: string,
): string {
  const px = (v: number): string => `${Number(v.toFixed(2))}px`;
  const [x, y] = chip;
  return [
    `${px(x * 0.5)} ${px(1 + y * 0.5)} 0 0 ${side}`,
    `${px(x)} ${px(2 + y)} 0 0 ${side}`,
    `${px(x)} ${px(3 + lift * 3 + y)} ${px(5 + lift * 7)} rgb(0 0 0 / ${(0.1 + lift * 0.08).toFixed(3)})`,
    `0 0 ${px(glow * 16)} ${px(glow * 3)} ${halo}`,
  ].join(", ");
}
