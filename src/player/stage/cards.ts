// Node chips as HTML cards: operation, `value` and `grad`, positioned every frame over the WebGL
// scene from the projected node positions. Text stays crisp, selectable and readable by screen
// readers; [data-node=ID] [data-field=value|grad] is the testing contract.

import type { NodeId, Timeline, TimelineNode } from "../../inference/types";
import { madeText, sumText } from "../model/arithmetic";
import { buildCard, type Card, cardShadow, NOT_REACHED, noteWidth, unbreakableTerms } from "./card";
import { h, setAttr, setStyle, setText } from "../shared/dom";
import { expansionOf, localsOf } from "../teaching/expansion";
import type { CardSize } from "./fit";
import { formatChange, formatNumber } from "../model/format";
import type { I18n } from "../shared/i18n";
import { overlaps, type Rect } from "./placement";
import type { Projected } from "./scene";
import type { Frame, NodeFrame } from "../model/timing";

export { CARD_COMPACT, CARD_COMPACT_WIDE, CARD_FULL } from "./card";

const NOTE_LEFT = 6; // px (scale 1): where the tab over a card starts, from the card's left side
const NOTE_ABOVE = 17; // ... and how far it reaches above the card's top
const TAB_OVERLAP = 2; // px it reaches down over the card's top edge, and a neighbour's in the same row
const DELTA_BELOW = 17; // px (scale 1) the nudge's tab reaches below the card (or its expansion)
const PANEL_GAP = 4; // px kept between an expansion panel and the stage's border
const PANEL_MAX = 240; // px at scale 1: wider panels would cover too much of the graph
const CARDS_PER_STEP = 14; // while waking: a 40-node graph's cards in three frames

export class Cards {
  private cards = new Map<NodeId, Card>();
  private size: CardSize | null = null; // setSize()
  private chip: [number, number] = [0, 0]; // setChip()
  private colours: [side: string, forward: string, backward: string] = ["", "", ""]; // setColours()
  private backward = false; // the direction of the frame last drawn (its halo's colour)
  private readonly guessed = new Set<Card>(); // panels measured before their card was placed

  constructor(
    private readonly layer: HTMLElement,
    private readonly i18n: I18n,
  ) {}

  /** One card per visual node; rebuilt only when the graph's structure changes. */
  build(timeline: Timeline): void {
    this.layer.replaceChildren();
    this.cards.clear();
    this.guessed.clear();
    for (const node of timeline.nodes) this.add(node, timeline);
    this.refresh(timeline);
  }

  /**
   * build(), a few cards per task (waking): the browser styles and lays out each batch in a frame
   * of its own, instead of all the cards of a big graph in one long frame.
   */
  async buildInSteps(timeline: Timeline, next: () => Promise<void>): Promise<void> {
    this.layer.replaceChildren();
    this.cards.clear();
    this.guessed.clear();
    for (let i = 0; i < timeline.nodes.length; i += CARDS_PER_STEP) {
      if (i > 0) await next();
      for (const node of timeline.nodes.slice(i, i + CARDS_PER_STEP)) this.add(node, timeline);
    }
    this.refresh(timeline);
  }

  private add(node: TimelineNode, timeline: Timeline): void {
    const card = buildCard(node, timeline, this.i18n.t);
    this.sized(card);
    this.cards.set(node.id, card);
    this.layer.append(card.el);
  }

  /**
   * Numbers, highlight and flags for a frame, and the change the last nudge made to each value it
   * moved (`moved`, once that value is on the card). Cheap: only changed text is written.
   */
  update(
    frame: Frame,
    timeline: Timeline,
    flagged: NodeId | null,
    localDerivatives: boolean,
    moved: ReadonlyMap<NodeId, number> | null,
  ): void {
    this.backward = frame.direction === "backward";
    for (const node of timeline.nodes) {
      const card = this.cards.get(node.id);
      const state = frame.nodes.get(node.id);
      if (!card || !state) continue;
      setText(card.value, state.value === null ? NOT_REACHED : formatNumber(state.value));
      setText(card.grad, state.grad === null ? NOT_REACHED : formatNumber(state.grad));
      setAttr(card.grad, "aria-label", state.grad === null ? this.i18n.t("not_reached") : null);
      setAttr(card.value, "data-raw", state.value === null ? null : String(state.value));
      setAttr(card.grad, "data-raw", state.grad === null ? null : String(state.grad));
      card.el.toggleAttribute("data-active", state.active); // attributes, not classes: stage.css
      card.el.toggleAttribute("data-has-grad", state.grad !== null);
      card.el.classList.toggle("is-flagged", node.id === flagged);
      setAttr(card.el, "aria-invalid", node.id === flagged ? "true" : null);
      card.glow = Number(state.glow.toFixed(3));
      this.shade(card);
      this.updateNote(card, frame, state, node, timeline);
      const showExpansion = localDerivatives && card.expansion.childElementCount > 0;
      if (showExpansion && card.expansionOf !== timeline) this.refreshExpansion(card, node, timeline);
      if (card.expansion.hidden === showExpansion) {
        card.expansion.hidden = !showExpansion;
        card.el.classList.toggle("is-expanded", showExpansion);
        card.height = null;
        card.panel = null;
      }
      // Room is kept for the tab from the nudge on (the layout does not move while the values
      // arrive); the tab itself shows with the value.
      const delta = moved?.get(node.id);
      card.nudged = delta !== undefined;
      const shown = delta !== undefined && state.value !== null;
      if (shown) setText(card.delta, formatChange(delta));
      if (card.delta.hidden === shown) card.delta.hidden = !shown;
      // Under the expansion panel when it shows, so that the two never cover each other.
      const host = showExpansion ? card.expansion : card.el;
      if (card.delta.parentElement !== host) host.append(card.delta);
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
    const full = backward ? sumText(state.received) : null;
    card.sums = full === null ? null : [full, sumText(state.received, formatNumber, true)!];
    const made =
      !backward && state.value !== null && state.glow > 0
        ? (card.madeText ??= madeText(node, timeline))
        : null;
    writeNote(card, card.sums?.[card.fold] ?? null, made);
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
    const measure = [...this.cards].filter(([, card]) => !card.expansion.hidden || card.nudged);
    // A panel is as wide as the room right of its card allows (it wraps between terms instead of
    // covering the cards to its left); all writes first, then all reads: one layout.
    const fresh = measure.filter(([, card]) => !card.expansion.hidden && card.panel === null);
    for (const [, card] of fresh) {
      if (!card.at) this.guessed.add(card);
      const room = card.at ? this.roomRightOf(card, size, stageWidth) : PANEL_MAX;
      card.el.style.setProperty(
        "--tdg-expansion-max",
        `${Math.round(Math.max(size.width, Math.min(PANEL_MAX, room)))}px`,
      );
    }
    // A term wider than the room is never cut: that panel takes the term's width (a second layout,
    // only then).
    const cut = fresh.filter(([, card]) => card.expansion.scrollWidth > card.expansion.clientWidth + 1);
    for (const [, card] of cut)
      card.el.style.setProperty("--tdg-expansion-max", `${Math.ceil(card.expansion.scrollWidth) + 2}px`);
    for (const [, card] of fresh)
      card.panel = { w: card.expansion.offsetWidth, h: card.expansion.offsetHeight };
    for (const [id, card] of measure) {
      const panel = card.expansion.hidden ? 0 : (card.panel?.h ?? 0);
      const below = this.height(card, size) - size.height + panel + deltaBelow(card);
      if (below > 1) out.set(id, below);
    }
    return out;
  }

  /**
   * Panels measured before their cards had a place (a graph opened with local derivatives on: its
   * cards are new), whose room was a guess: forgotten now that the cards are placed, so that the next
   * frame measures them in their real room. True if there were any (the stage draws again).
   */
  measureGuessesAgain(): boolean {
    if (this.guessed.size === 0) return false;
    for (const card of this.guessed) card.panel = null;
    this.guessed.clear();
    return true;
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
    return [...this.cards.values()].flatMap((card) => this.boxesOf(card, size));
  }

  /** One card's boxes as last placed: itself (with its nudge's tab), its running sum's tab, its panel. */
  private boxesOf(card: Card, size: CardSize, withNote = true): Rect[] {
    const at = card.at;
    if (!at) return [];
    const height = this.height(card, size) * at.scale;
    const panel = card.expansion.hidden ? null : card.panel;
    const tab = deltaBelow(card) * at.scale; // the nudge's tab, under the card or its panel
    const box = { x: at.x, y: at.y, w: size.width * at.scale, h: height + (panel ? 0 : tab) };
    const note =
      withNote && card.noteWidth > 0
        ? [
            {
              x: at.x + (NOTE_LEFT - card.noteShift) * at.scale,
              y: at.y - NOTE_ABOVE * at.scale,
              w: card.noteWidth * at.scale,
              h: NOTE_ABOVE * at.scale,
            },
          ]
        : [];
    if (!panel) return [box, ...note];
    return [
      box,
      ...note,
      {
        x: at.x - card.shift * at.scale,
        y: at.y + height - at.scale,
        w: panel.w * at.scale,
        h: panel.h * at.scale + tab,
      },
    ];
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
      card.lift = Number((lift.get(id) ?? 0.5).toFixed(2));
      this.shade(card);
      card.at = { x, y, scale: s };
      // The tab ("−1 × 10 = −10") and the expansion panel slide left where the stage's right border
      // would cut them off. The tab's offset is written on the tab itself: nothing inside the card restyles.
      card.noteShift = shiftInside(x + NOTE_LEFT * s, card.noteWidth * s, s, width);
      setStyle(card.note, "left", `${(NOTE_LEFT - card.noteShift).toFixed(1)}px`);
      // The nudge's tab under the card likewise (under an expansion, the panel keeps inside).
      if (!card.delta.hidden && card.delta.parentElement === card.el) {
        const tab = noteWidth(`Δ ${card.delta.textContent ?? ""}`);
        setStyle(
          card.delta,
          "left",
          `${(NOTE_LEFT - shiftInside(x + NOTE_LEFT * s, tab * s, s, width)).toFixed(1)}px`,
        );
      }
      const panel = card.expansion.hidden ? null : card.panel;
      if (panel) {
        const shift = shiftInside(x, panel.w * s, s, width);
        if (Math.abs(shift - card.shift) > 0.25)
          card.el.style.setProperty("--tdg-expansion-shift", `${shift.toFixed(1)}px`);
        card.shift = shift;
      }
    }
    this.keepTabsClear(size, width);
  }

  /**
   * A running sum whose tab would run under (or over) a neighbouring card shows only its tail, the
   * term just added and the total (walkthrough 10: on the 40-node graph b's sum ran under a × b's card);
   * where that too would, no tab (the card's grad and the line under the graph give the sum). A tab
   * that says how a value was made shows whole or not at all. A tab keeps off the tabs placed before
   * it too, in the cards' order, so that two deciding on each other cannot take turns frame after
   * frame (walkthrough 24: e's sum lay over the end of b's, "≈ −0.8094"), and off the tails of the sums
   * still to be placed.
   */
  private keepTabsClear(size: CardSize, width: number): void {
    const placed = [...this.cards.values()].filter((c) => c.at !== null);
    // What a tab must keep off: the other cards with their panels and nudge tabs (read once a frame has
    // a sum to place: most frames of a pass have none), and the tabs placed before it.
    let others: Map<Card, Rect[]> | null = null;
    const taken: Rect[] = [];
    // Where a tab goes over its card, and how far it slides left to stay on the stage.
    const tab = (card: Card, text: string): { box: Rect; shift: number } => {
      const at = card.at!;
      const w = noteWidth(text);
      const shift = shiftInside(at.x + NOTE_LEFT * at.scale, w * at.scale, at.scale, width);
      const x = at.x + (NOTE_LEFT - shift) * at.scale;
      const box = {
        x,
        y: at.y - NOTE_ABOVE * at.scale,
        w: w * at.scale,
        h: NOTE_ABOVE * at.scale + TAB_OVERLAP,
      };
      return { box, shift };
    };
    // Each sum's tail is kept free for it until its own card decides: a whole sum shows only where it
    // leaves the later sums their tails (walkthrough 25: b's whole sum took e's place, and e's went).
    const tails = new Map(placed.filter((c) => c.sums).map((c) => [c, tab(c, c.sums![1]!).box]));
    for (const card of placed) {
      tails.delete(card);
      const sums = card.sums;
      // No sum on its tab (a frame of the pass without one). How a value was made shows for a moment
      // after it arrives: only where it covers no other card (walkthrough 15: "−0.5108 × (−3) = 1.532"
      // over log's grad on a phone; the card and the line under the graph say it too).
      if (sums === null) {
        card.fold = 0;
        if (card.made.hidden || card.note.hidden) continue;
      }
      const clear = (text: string): boolean => {
        const box = tab(card, text).box;
        others ??= new Map(placed.map((c) => [c, this.boxesOf(c, size, false)]));
        const near = others;
        return (
          !placed.some((other) => other !== card && near.get(other)!.some((b) => overlaps(b, box))) &&
          ![...taken, ...tails.values()].some((b) => overlaps(b, box))
        );
      };
      if (sums === null) {
        const made = card.made.textContent ?? "";
        if (clear(made)) taken.push(tab(card, made).box);
        else writeNote(card, null, null);
        continue;
      }
      const fold = [0, 1].find((k) => clear(sums[k]!)) ?? 2;
      const text = sums[fold] ?? null;
      if (text !== null) taken.push(tab(card, text).box);
      if (fold === card.fold) continue;
      card.fold = fold;
      writeNote(card, text, null);
      if (text === null) continue;
      const shown = tab(card, text);
      card.noteShift = shown.shift;
      setStyle(card.note, "left", `${(NOTE_LEFT - shown.shift).toFixed(1)}px`);
    }
  }

  /**
   * CSS px of a card's value and grad text at scale 1 (the stage keeps them readable), read from a
   * probe: it works before a graph's cards exist, so that they are styled once, at their final size.
   */
  numberSize(): number {
    const probe = h("span", { class: "tdg-num" });
    const card = h("div", { class: "tdg-card", "aria-hidden": "true", hidden: true }, probe);
    this.layer.append(card);
    const size = parseFloat(getComputedStyle(probe).fontSize) || 13;
    card.remove();
    return size;
  }

  /**
   * The cards' size, and the side of a chip the view shows (CSS px): set on each card as properties
   * that do not inherit, not on the player, so a change restyles the cards alone.
   */
  setSize(size: CardSize): void {
    this.size = size;
    for (const card of this.cards.values()) this.sized(card);
  }

  setChip(x: number, y: number): void {
    this.chip = [x, y];
    for (const card of this.cards.values()) this.shade(card);
  }

  /** The shadows' colours, as the palette resolves them: a chip's side, the halo forward and backward. */
  setColours(side: string, forward: string, backward: string): void {
    this.colours = [side, forward, backward];
    for (const card of this.cards.values()) this.shade(card);
  }

  private sized(card: Card): void {
    if (this.size) {
      setStyle(card.el, "width", `${this.size.width}px`);
      setStyle(card.el, "min-height", `${this.size.height}px`);
    }
    this.shade(card);
  }

  /** The card's shadow, written again only when what it is made of changed (twice a frame otherwise). */
  private shade(card: Card): void {
    const [side, forward, backward] = this.colours;
    const halo = this.backward ? backward : forward;
    const of = `${card.glow} ${card.lift} ${this.chip} ${side} ${halo}`;
    if (of === card.shadowOf) return;
    card.shadowOf = of;
    setStyle(card.el, "box-shadow", cardShadow(card.glow, card.lift, this.chip, side, halo));
  }
}

/** The tab over a card: the running sum, or how the value was made, or nothing. */
function writeNote(card: Card, sum: string | null, made: string | null): void {
  if (sum !== null) setText(card.sum, sum);
  if (made !== null) setText(card.made, made);
  if (card.sum.hidden !== (sum === null)) card.sum.hidden = sum === null;
  if (card.made.hidden !== (made === null)) card.made.hidden = made === null;
  const shown = sum ?? made;
  if (card.note.hidden !== (shown === null)) card.note.hidden = shown === null;
  setAttr(card.note, "data-kind", sum !== null ? "sum" : made !== null ? "made" : null);
  card.noteWidth = shown === null ? 0 : noteWidth(shown);
}

function deltaBelow(card: Card): number {
  return card.nudged ? DELTA_BELOW : 0;
}

/**
 * How far (CSS px at scale 1) a box `w` px wide whose left side is at `left` (stage px) must move left
 * to end inside the stage's right border, as far as its left border allows.
 */
function shiftInside(left: number, w: number, scale: number, width: number): number {
  const overflow = left + w - (width - PANEL_GAP); // px past the stage's right border
  return Math.max(0, Math.min(overflow, left - PANEL_GAP)) / scale;
}
