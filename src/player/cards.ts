// Node chips as HTML cards: operation, `value` and `grad`, positioned every frame over the WebGL
// scene from the projected node positions. Text stays crisp, selectable and readable by screen
// readers; [data-node=ID] [data-field=value|grad] is the testing contract.

import type { NodeId, Timeline, TimelineNode } from "../inference/types";
import { setAttr, setText, h } from "./dom";
import { expansionOf, glyphOf, localsOf, prettyLabel } from "./expansion";
import type { CardSize } from "./fit";
import { formatNumber } from "./format";
import type { I18n } from "./i18n";
import type { Rect } from "./placement";
import type { Projected } from "./scene";
import type { Frame } from "./timing";

export const CARD_FULL: CardSize = { width: 112, height: 70 };
export const CARD_COMPACT: CardSize = { width: 66, height: 54 }; // phones: keys shortened to v / g
export const NOT_REACHED = "--";

interface Card {
  el: HTMLElement;
  value: HTMLElement;
  grad: HTMLElement;
  expansion: HTMLElement;
  height: number | null; // CSS px at scale 1, measured when first needed
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
    if (node.derived) badges.push(h("span", { class: "tdg-badge", "data-badge": "derived", title: t("badge_derived_title") }, t("derived")));
    if (node.op === "**")
      badges.push(
        h(
          "span",
          { class: "tdg-badge tdg-exponent", "data-badge": "const", title: t("badge_const_title") },
          // On a phone's narrow card the glyph already says **: the badge keeps the exponent and "const".
          h("span", { class: "tdg-exponent-value" }, h("span", { class: "tdg-exponent-op" }, "** "), prettyLabel(node.exponent_label ?? String(node.exponent ?? ""))),
          " ",
          t("const"),
        ),
      );
    const value = h("span", { class: "tdg-num", "data-field": "value" }, NOT_REACHED);
    const grad = h("span", { class: "tdg-num", "data-field": "grad" }, NOT_REACHED);
    const expansion = h("div", { class: "tdg-expansion", hidden: true });
    const expanded = expansionOf(node, timeline);
    if (expanded) expansion.append(h("div", { class: "tdg-expansion-formula" }, expanded), h("div", { class: "tdg-expansion-locals" }));
    const label = prettyLabel(node.label);
    const el = h(
      "div",
      { class: "tdg-card", "data-node": node.id, "data-op": node.op, role: "group", "aria-label": label, title: label },
      h(
        "div",
        { class: "tdg-card-head" },
        h("span", { class: "tdg-glyph" }, glyphOf(node)),
        node.inputs.length > 0 ? h("span", { class: "tdg-label" }, label) : null,
        ...badges,
      ),
      h("div", { class: "tdg-row tdg-row-value" }, key(t("value"), t("value_short")), value),
      h("div", { class: "tdg-row tdg-row-grad" }, key(t("grad"), t("grad_short")), grad),
      expansion,
    );
    return { el, value, grad, expansion, height: null, at: null };
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
      card.el.style.setProperty("--tdg-glow", state.glow.toFixed(3));
      const showExpansion = localDerivatives && card.expansion.childElementCount > 0;
      if (card.expansion.hidden === showExpansion) {
        card.expansion.hidden = !showExpansion;
        card.height = null;
      }
    }
  }

  /** Replace the texts that depend on numbers of the current graph (after a slider moved). */
  refresh(timeline: Timeline): void {
    for (const node of timeline.nodes) {
      const card = this.cards.get(node.id);
      if (!card) continue;
      const head = card.el.querySelector(".tdg-glyph");
      if (head) setText(head, glyphOf(node));
      const expanded = expansionOf(node, timeline);
      if (expanded) {
        const [formula, locals] = Array.from(card.expansion.children);
        if (formula) setText(formula, expanded);
        if (locals) {
          const lines = localsOf(node, timeline);
          if (lines.join("") !== locals.textContent) locals.replaceChildren(...lines.map((l) => h("span", {}, l)));
        }
      }
    }
  }

  /** How far each card showing its expansion reaches below its usual height (CSS px at scale 1). */
  grown(size: CardSize): Map<NodeId, number> {
    const out = new Map<NodeId, number>();
    for (const [id, card] of this.cards) {
      if (card.expansion.hidden) continue; // no layout read for cards that cannot have grown
      const height = this.height(card, size);
      if (height > size.height + 1) out.set(id, height - size.height);
    }
    return out;
  }

  /** The cards' boxes on the stage as last placed (edge labels keep clear of them). */
  boxes(size: CardSize): Rect[] {
    return [...this.cards.values()].flatMap((card) => {
      const at = card.at;
      return at ? [{ x: at.x, y: at.y, w: size.width * at.scale, h: this.height(card, size) * at.scale }] : [];
    });
  }

  private height(card: Card, size: CardSize): number {
    card.height ??= Math.max(size.height, card.el.offsetHeight);
    return card.height;
  }

  /** Card sizes changed (compact or full cards): measure the heights again. */
  resize(): void {
    for (const card of this.cards.values()) card.height = null;
  }

  /** Move each card over its node; `lift` (0..1) is how far it stands out from the wall (its shadow). */
  place(positions: Map<NodeId, Projected>, size: CardSize, scale: number, lift: Map<NodeId, number>): void {
    for (const [id, card] of this.cards) {
      const p = positions.get(id);
      if (!p) continue;
      const s = scale * p.scale;
      const x = Math.round(p.x - (size.width * s) / 2);
      const y = Math.round(p.y - (size.height * s) / 2);
      card.el.style.transform = `translate(${x}px, ${y}px) scale(${s.toFixed(4)})`;
      card.el.style.zIndex = String(1000 - Math.round(p.depth * 10));
      card.el.style.setProperty("--tdg-lift", (lift.get(id) ?? 0.5).toFixed(2));
      card.at = { x, y, scale: s };
    }
  }
}

/** A field name, in full on wide stages and shortened (v, g) on narrow ones. */
function key(long: string, short: string): HTMLElement {
  return h("span", { class: "tdg-key" }, h("span", { class: "tdg-key-long" }, long), h("span", { class: "tdg-key-short", "aria-hidden": "true" }, short));
}
