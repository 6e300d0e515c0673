// Node chips as HTML cards: operation, `value` and `grad`, positioned every frame over the WebGL
// scene from the projected node positions. Text stays crisp, selectable and readable by screen
// readers; [data-node=ID] [data-field=value|grad] is the testing contract.

import type { NodeId, Timeline, TimelineNode } from "../inference/types";
import { madeText, sumText } from "./arithmetic";
import { h, setAttr, setStyle, setText } from "./dom";
import { expansionOf, fullLabel, glyphOf, localsOf, prettyLabel, titleOf } from "./expansion";
import type { CardSize } from "./fit";
import { formatNumber } from "./format";
import type { I18n } from "./i18n";
import type { Rect } from "./placement";
import type { Projected } from "./scene";
import type { Frame, NodeFrame } from "./timing";

export const CARD_FULL: CardSize = { width: 112, height: 70 };
export const CARD_COMPACT: CardSize = { width: 66, height: 54 }; // phones: keys shortened to v / g
export const CARD_COMPACT_WIDE: CardSize = { width: 80, height: 54 }; // ... in a panned graph: room for "1.072e13"
export const NOT_REACHED = "--";

const NOTE_LEFT = 6; // px (scale 1): where the tab over a card starts, from the card's left side
const NOTE_ABOVE = 17; // ... and how far it reaches above the card's top
const PANEL_GAP = 4; // px kept between an expansion panel and the stage's border
const PANEL_MAX = 240; // px at scale 1: wider panels would cover too much of the graph

interface Card {
  el: HTMLElement;
  value: HTMLElement;
  grad: HTMLElement;
  expansion: HTMLElement;
  note: HTMLElement; // a tab on the card's top edge: how the value was made, or the gradient's running sum
  sum: HTMLElement;
  made: HTMLElement;
  madeText: string | null; // forward: "−1 × 10 = −10" (this graph's numbers; written when first shown)
  expansionOf: Timeline | null; // the numbers the expansion panel shows (refreshed while it is shown)
  noteWidth: number; // CSS px at scale 1 of the tab shown (0: none), estimated from its text
  height: number | null; // CSS px at scale 1, measured when first needed
  panel: { w: number; h: number } | null; // the expansion's size at scale 1, measured when shown
  shift: number; // CSS px (scale 1) the expansion moves left of the card, to stay inside the stage
  at: { x: number; y: number; scale: number } | null; // where place() put it (top-left, CSS px)
}

export class Cards {
  private cards = new Map<NodeId, Card>();

  constructor(
    private readonly layer: HTMLElement,
    private readonly i18n: I18n,
  ) {}

  /** One card per visual node; rebuilt only when the graph's structure changes. */
  build(timeline: Timeline): void {
    this.layer.replaceChildren();
    this.cards.clear();
    for (const node of timeline.nodes) {
      const card = this.card(node, timeline);
      this.cards.set(node.id, card);
      this.layer.append(card.el);
    }
    this.refresh(timeline);
  }

  private card(node: TimelineNode, timeline: Timeline): Card {
    const t = this.i18n.t;
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
    const expanded = expansionOf(node, timeline);
    if (expanded)
      expansion.append(
        h("div", { class: "tdg-expansion-formula" }, expanded),
        h("div", { class: "tdg-expansion-locals" }),
      );
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
    );
    return {
      el,
      value,
      grad,
      expansion,
      note,
      sum,
      made,
      madeText: null,
      expansionOf: null,
      noteWidth: 0,
      height: null,
      panel: null,
      shift: 0,
      at: null,
    };
  }

  /** Numbers, highlight and flags for a frame. Cheap: only changed text is written. */
  update(frame: Frame, timeline: Timeline, flagged: NodeId | null, localDerivatives: boolean): void {
    for (const node of timeline.nodes) {
      const card = this.cards.get(node.id);
      const state = frame.nodes.get(node.id);
      if (!card || !state) continue;
      setText(card.value, state.value === null ? NOT_REACHED : formatNumber(state.value));
      setText(card.grad, state.grad === null ? NOT_REACHED : formatNumber(state.grad));
      setAttr(card.grad, "aria-label", state.grad === null ? this.i18n.t("not_reached") : null);
      setAttr(card.value, "data-raw", state.value === null ? null : String(state.value));
      setAttr(card.grad, "data-raw", state.grad === null ? null : String(state.grad));
      card.el.classList.toggle("is-active", state.active);
      card.el.classList.toggle("has-grad", state.grad !== null);
      card.el.classList.toggle("is-flagged", node.id === flagged);
      setAttr(card.el, "aria-invalid", node.id === flagged ? "true" : null);
      setStyle(card.el, "--tdg-glow", state.glow.toFixed(3));
      this.updateNote(card, frame, state, node, timeline);
      const showExpansion = localDerivatives && card.expansion.childElementCount > 0;
      if (showExpansion && card.expansionOf !== timeline) this.refreshExpansion(card, node, timeline);
      if (card.expansion.hidden === showExpansion) {
        card.expansion.hidden = !showExpansion;
        card.el.classList.toggle("is-expanded", showExpansion);
        card.height = null;
        card.panel = null;
      }
    }
  }

  /**
   * The tab over the card: forward, for a moment after its value arrives, how it was made; backward,
   * once a second contribution has landed, the running sum that `+=` builds.
   */
  private updateNote(
    card: Card,
    frame: Frame,
    state: NodeFrame,
    node: TimelineNode,
    timeline: Timeline,
  ): void {
    const backward = frame.direction === "backward";
    const sum = backward ? sumText(state.received) : null;
    const made =
      !backward && state.value !== null && state.glow > 0
        ? (card.madeText ??= madeText(node, timeline))
        : null;
    if (sum !== null) setText(card.sum, sum);
    if (made !== null) setText(card.made, made);
    if (card.sum.hidden !== (sum === null)) card.sum.hidden = sum === null;
    if (card.made.hidden !== (made === null)) card.made.hidden = made === null;
    const shown = sum ?? made;
    if (card.note.hidden !== (shown === null)) card.note.hidden = shown === null;
    setAttr(card.note, "data-kind", sum !== null ? "sum" : made !== null ? "made" : null);
    card.noteWidth = shown === null ? 0 : noteWidth(shown);
  }

  /** Replace the texts that depend on numbers of the current graph (after a slider moved). */
  refresh(timeline: Timeline): void {
    // A slider drag refreshes every frame: texts not on screen are written when they next show
    // (update()), and a card's glyph belongs to the structure, which has not changed.
    for (const node of timeline.nodes) {
      const card = this.cards.get(node.id);
      if (!card) continue;
      card.madeText = null;
      if (!card.expansion.hidden) this.refreshExpansion(card, node, timeline);
    }
  }

  private refreshExpansion(card: Card, node: TimelineNode, timeline: Timeline): void {
    card.expansionOf = timeline;
    const expanded = expansionOf(node, timeline);
    if (!expanded) return;
    const [formula, locals] = Array.from(card.expansion.children);
    const lines = localsOf(node, timeline);
    if (formula && locals && card.expansion.dataset.text !== [expanded, ...lines].join("\n")) {
      card.expansion.dataset.text = [expanded, ...lines].join("\n");
      formula.replaceChildren(...unbreakableTerms(expanded));
      locals.replaceChildren(
        ...lines.map((l) => h("span", { class: "tdg-expansion-line" }, ...unbreakableTerms(l))),
      );
      card.panel = null;
    }
  }

  /**
   * How far each card showing its expansion reaches below its usual height (CSS px at scale 1): the
   * expansion hangs under the card as a panel of its own width, measured once when it appears.
   */
  grown(size: CardSize, stageWidth: number): Map<NodeId, number> {
    const out = new Map<NodeId, number>();
    const measure = [...this.cards].filter(([, card]) => !card.expansion.hidden);
    // A panel is as wide as the room right of its card allows (it wraps between terms instead of
    // covering the cards to its left); all writes first, then all reads: one layout.
    const fresh = measure.filter(([, card]) => card.panel === null);
    for (const [, card] of fresh) {
      const room = card.at ? this.roomRightOf(card, size, stageWidth) : PANEL_MAX;
      card.el.style.setProperty(
        "--tdg-expansion-max",
        `${Math.round(Math.max(size.width, Math.min(PANEL_MAX, room)))}px`,
      );
    }
    for (const [, card] of fresh)
      card.panel = { w: card.expansion.offsetWidth, h: card.expansion.offsetHeight };
    for (const [id, card] of measure) {
      const below = this.height(card, size) - size.height + (card.panel?.h ?? 0);
      if (below > 1) out.set(id, below);
    }
    return out;
  }

  /** Px (scale 1) a panel under `card` may take to its right: up to the stage's border or the next card below-right. */
  private roomRightOf(card: Card, size: CardSize, stageWidth: number): number {
    const at = card.at!;
    const top = at.y + size.height * at.scale;
    const bottom = top + PANEL_MAX * at.scale; // a panel is rarely taller than it may be wide
    let right = stageWidth - PANEL_GAP;
    for (const other of this.cards.values()) {
      const o = other.at;
      if (!o || other === card || o.x <= at.x + 1) continue;
      const overlaps = o.y < bottom && o.y + size.height * o.scale > top;
      if (overlaps) right = Math.min(right, o.x - PANEL_GAP);
    }
    return (right - at.x) / at.scale;
  }

  /** One card's box on the stage as last placed, with its expansion panel when shown. */
  boxOf(id: NodeId, size: CardSize): Rect | null {
    const card = this.cards.get(id);
    const at = card?.at;
    if (!card || !at) return null;
    const height = this.height(card, size) * at.scale;
    const panel = card.expansion.hidden ? null : card.panel;
    if (!panel) return { x: at.x, y: at.y, w: size.width * at.scale, h: height };
    const left = Math.min(at.x, at.x - card.shift * at.scale);
    const right = Math.max(at.x + size.width * at.scale, at.x + (panel.w - card.shift) * at.scale);
    return { x: left, y: at.y, w: right - left, h: height + panel.h * at.scale };
  }

  /** The cards' boxes on the stage as last placed, expansions included (edge labels keep clear of them). */
  boxes(size: CardSize): Rect[] {
    return [...this.cards.values()].flatMap((card) => {
      const at = card.at;
      if (!at) return [];
      const height = this.height(card, size) * at.scale;
      const box = { x: at.x, y: at.y, w: size.width * at.scale, h: height };
      const note =
        card.noteWidth > 0
          ? [
              {
                x: at.x + NOTE_LEFT * at.scale,
                y: at.y - NOTE_ABOVE * at.scale,
                w: card.noteWidth * at.scale,
                h: NOTE_ABOVE * at.scale,
              },
            ]
          : [];
      const panel = card.expansion.hidden ? null : card.panel;
      if (!panel) return [box, ...note];
      return [
        box,
        ...note,
        {
          x: at.x - card.shift * at.scale,
          y: at.y + height - at.scale,
          w: panel.w * at.scale,
          h: panel.h * at.scale,
        },
      ];
    });
  }

  /** Measure every card's height now (it reads the layout): waking does it in a task of its own. */
  measure(size: CardSize): void {
    for (const card of this.cards.values()) this.height(card, size);
  }

  private height(card: Card, size: CardSize): number {
    card.height ??= Math.max(size.height, card.el.offsetHeight);
    return card.height;
  }

  /** Card sizes or the stage's width changed: measure the heights (and the panels) again. */
  resize(panels = true): void {
    for (const card of this.cards.values()) {
      card.height = null;
      if (panels) card.panel = null;
    }
  }

  /**
   * Move each card over its node; `lift` (0..1) is how far it stands out from the wall (its shadow).
   * A card never gets smaller than `minScale` (turned away from the viewer, its text stays readable),
   * and an expansion panel slides left as far as it must to stay inside the stage's `width`.
   */
  place(
    positions: Map<NodeId, Projected>,
    size: CardSize,
    scale: number,
    lift: Map<NodeId, number>,
    minScale: number,
    width: number,
  ): void {
    for (const [id, card] of this.cards) {
      const p = positions.get(id);
      if (!p) continue;
      const s = Math.max(minScale, scale * p.scale);
      const x = Math.round(p.x - (size.width * s) / 2);
      const y = Math.round(p.y - (size.height * s) / 2);
      setStyle(card.el, "transform", `translate(${x}px, ${y}px) scale(${s.toFixed(4)})`);
      setStyle(card.el, "z-index", String(1000 - Math.round(p.depth * 10)));
      setStyle(card.el, "--tdg-lift", (lift.get(id) ?? 0.5).toFixed(2));
      card.at = { x, y, scale: s };
      const panel = card.expansion.hidden ? null : card.panel;
      if (panel) {
        const overflow = x + panel.w * s - (width - PANEL_GAP); // px past the stage's right border
        const shift = Math.max(0, Math.min(overflow, x - PANEL_GAP)) / s;
        if (Math.abs(shift - card.shift) > 0.25)
          card.el.style.setProperty("--tdg-expansion-shift", `${shift.toFixed(1)}px`);
        card.shift = shift;
      }
    }
  }

  /** CSS px of a card's value and grad text at scale 1 (the stage keeps them readable). */
  numberSize(): number {
    const first = this.cards.values().next().value;
    return first ? parseFloat(getComputedStyle(first.value).fontSize) || 13 : 13;
  }
}

/**
 * An expression as pieces a line may break between: before each operator outside parentheses, so
 * "(a − b) / c = (a − b) · c ** −1" wraps as "(a − b) / c =" … and never inside "(a − b)" or "c ** −1".
 */
export function termsOf(text: string): string[] {
  const terms: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === "(") depth++;
    else if (c === ")") depth--;
    else if (
      c === " " &&
      depth === 0 &&
      /^[=+−·×/] /.test(text.slice(i + 1, i + 3)) &&
      text.slice(i + 1, i + 3) !== "**"
    ) {
      terms.push(text.slice(start, i));
      start = i + 1;
    }
  }
  terms.push(text.slice(start));
  return terms.filter((t) => t.length > 0);
}

/** Terms as nodes: no break inside a term (its spaces are no-break spaces), a plain space between. */
function unbreakableTerms(text: string): (HTMLElement | string)[] {
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
function noteWidth(text: string): number {
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
