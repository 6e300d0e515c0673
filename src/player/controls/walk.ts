// The graph as a keyboard and a screen reader walk it. One card is in the tab order (a roving
// tabindex); arrow keys move along the graph's arrows:
//   ←  to an input of this card (back to the one you came from, else its first input)
//   →  to the operation this card feeds (back to the one you came from, else the first)
//   ↑ ↓ to the card above or below in the same column of the layout
//   Home / End  to the first leaf (the top variable) / the root
// Each card's accessible name is a sentence that follows the timeline: "(a + b): sum, value −1,
// grad not reached yet; feeds (a + b) × c". The pure half (neighbour, cardName) is node-tested.

import { LOOKS } from "../../inference/ops";
import type { NodeId, Timeline, TimelineNode } from "../../inference/types";
import { h, setText } from "../shared/dom";
import { fullLabel, prettyLabel } from "../teaching/expansion";
import { proseNumber } from "../model/format";
import type { I18n } from "../shared/i18n";
import { type Frame, type NodeFrame, nodesById } from "../model/timing";

export type WalkKey = "ArrowLeft" | "ArrowRight" | "ArrowUp" | "ArrowDown" | "Home" | "End";
const WALK_KEYS = new Set<string>(["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End"]);
const TIP_MARGIN = 4; // px between a focused card's expression and the stage's edge
const NAMES_AFTER_DRAG_MS = 150; // while a slider moves, the cards' spoken names wait for it to rest

/** The operations each node feeds, without repeats, in the graph's edge order. */
export function consumersOf(timeline: Timeline): Map<NodeId, NodeId[]> {
  const consumers = new Map<NodeId, NodeId[]>(timeline.nodes.map((n) => [n.id, []]));
  for (const edge of timeline.edges) {
    const list = consumers.get(edge.from);
    if (list && !list.includes(edge.to)) list.push(edge.to);
  }
  return consumers;
}

/** The first leaf: the top variable of the first column (a number written in the expression only when there is no variable). */
export function firstLeaf(timeline: Timeline): NodeId {
  const leaves = timeline.nodes.filter((n) => n.inputs.length === 0);
  leaves.sort(
    (a, b) => Number(a.op !== "var") - Number(b.op !== "var") || a.column - b.column || a.row - b.row,
  );
  return leaves[0]?.id ?? timeline.root;
}

/**
 * Where `key` moves the focus from card `from`; null when there is nowhere to go that way (the
 * focus stays). `cameFrom`: the card the focus was on before, so ← after → goes back.
 */
export function neighbour(
  timeline: Timeline,
  from: NodeId,
  key: WalkKey,
  cameFrom: NodeId | null = null,
): NodeId | null {
  if (key === "Home") return firstLeaf(timeline);
  if (key === "End") return timeline.root;
  const node = timeline.nodes.find((n) => n.id === from);
  if (!node) return timeline.root;
  if (key === "ArrowLeft" || key === "ArrowRight") {
    const options = key === "ArrowLeft" ? [...new Set(node.inputs)] : (consumersOf(timeline).get(from) ?? []);
    if (cameFrom !== null && options.includes(cameFrom)) return cameFrom;
    return options[0] ?? null;
  }
  const column = timeline.nodes.filter((n) => n.column === node.column).sort((a, b) => a.row - b.row);
  const at = column.indexOf(node);
  return column[at + (key === "ArrowDown" ? 1 : -1)]?.id ?? null;
}

/** The card's accessible name at this moment of the timeline. */
export function cardName(
  node: TimelineNode,
  timeline: Timeline,
  state: Pick<NodeFrame, "value" | "grad"> | undefined,
  i18n: I18n,
  consumersByNode: Map<NodeId, NodeId[]> = consumersOf(timeline),
): string {
  const byId = nodesById(timeline); // made once per timeline
  const say = (x: number): string => proseNumber(x, i18n.lang);
  const consumers = consumersByNode.get(node.id) ?? [];
  const feeds =
    node.id === timeline.root
      ? i18n.t("card_output")
      : i18n.t("card_feeds", {
          consumers: consumers.map((id) => (byId.get(id) ? fullLabel(byId.get(id)!) : id)).join(", "),
        });
  const value = state?.value ?? null;
  const grad = state?.grad ?? null;
  return i18n.t("card_name", {
    node: fullLabel(node),
    operation: operationName(node, i18n),
    value: value === null ? i18n.t("card_not_computed") : say(value),
    grad: grad === null ? i18n.t("not_reached") : say(grad),
    feeds,
  });
}

/** The operation in words, for speech: "sum", "power 2" (a glyph like × reads badly aloud). */
export function operationName(node: TimelineNode, i18n: I18n): string {
  return i18n.t(LOOKS[node.op].words, {
    exponent: prettyLabel(node.exponent_label ?? String(node.exponent ?? "")),
  });
}

/**
 * The walk over one sandbox's cards (the [data-node] elements cards.ts builds in `layer`): the
 * roving tabindex, the arrow keys, the spoken names, and focus kept across a rebuild of the graph.
 */
export class GraphWalk {
  private timeline: Timeline | null = null;
  private cards = new Map<NodeId, { el: HTMLElement; name: HTMLElement }>();
  private tabStop: NodeId | null = null; // the one card in the tab order
  private chosen = false; // the reader put the tab stop on a card other than the output (focus)
  private cameFrom: NodeId | null = null; // where the last arrow key came from (for ← after →)
  private arriving: NodeId | null = null; // the card an arrow key is moving the focus to
  private named: {
    timeline: Timeline;
    direction: string;
    completed: number;
    finalGradients: boolean;
  } | null = null; // names written for
  private later: ReturnType<typeof setTimeout> | null = null; // the names a slider drag put off

  constructor(
    private readonly layer: HTMLElement,
    private readonly i18n: I18n,
  ) {
    layer.addEventListener("keydown", (e) => this.key(e));
    layer.addEventListener("focusin", (e) => {
      const id = this.idOf(e.target);
      if (!id) return;
      if (id !== this.arriving) this.cameFrom = null; // reached by Tab or a click: no way back to remember
      this.arriving = null;
      this.chosen = id !== this.timeline?.root; // Tab's landing on the output is no choice (review 49)
      this.setTabStop(id);
      // Its whole expression, shown over it while it has the focus (cards.css), stays inside the stage
      // (walkthrough 20: on a phone, a tapped card's ran off the stage's edge): moved sideways as far as
      // the stage needs, and under the card where there is no room above it.
      const el = e.target as HTMLElement;
      el.removeAttribute("data-tip-under");
      const tip = getComputedStyle(el, "::after");
      if (tip.content === "none") return;
      const card = el.getBoundingClientRect();
      const stage = layer.parentElement!.getBoundingClientRect();
      const scale = card.width / el.offsetWidth || 1; // the card's own scale (cards.ts)
      const px = (name: "width" | "top"): number => parseFloat(tip[name]) * scale;
      const left = Math.min(card.left, stage.right - TIP_MARGIN - px("width"));
      el.style.setProperty("--tip-x", `${(Math.max(stage.left + TIP_MARGIN, left) - card.left) / scale}px`);
      el.toggleAttribute("data-tip-under", card.top + px("top") < stage.top + TIP_MARGIN);
    });
  }

  /** The card with focus now (its expression: ids are renumbered by a new graph), to find it again after a rebuild. */
  focused(): string | null {
    const id = this.idOf(this.layer.ownerDocument.activeElement);
    const node = id ? this.timeline?.nodes.find((n) => n.id === id) : undefined;
    return node ? fullLabel(node) : null;
  }

  /** Right after cards.ts built the cards of `timeline`; `focused`: what focused() said before. */
  build(timeline: Timeline, focused: string | null = null): void {
    const previous = this.tabStop ? this.timeline?.nodes.find((n) => n.id === this.tabStop) : undefined;
    this.timeline = timeline;
    this.cards.clear();
    this.named = null;
    this.cameFrom = null;
    for (const el of this.layer.querySelectorAll<HTMLElement>("[data-node]")) {
      const id = el.dataset.node!;
      const name = h("span", { id: `${el.closest("[id]")?.id ?? "tdg"}-${id}-name`, hidden: true });
      el.append(name);
      el.setAttribute("aria-labelledby", name.id);
      el.tabIndex = -1;
      this.cards.set(id, { el, name });
    }
    const find = (label: string | null | undefined): NodeId | undefined =>
      label ? timeline.nodes.find((n) => fullLabel(n) === label)?.id : undefined;
    // A card the reader went to stays the tab stop while the graph has it; otherwise the output is
    // (walkthrough 14: typed key by key, "a*b + a" passed through the graph "a", whose output stayed).
    const kept = find(focused) ?? (this.chosen ? find(previous ? fullLabel(previous) : null) : undefined);
    this.chosen = kept !== undefined;
    const stop = kept ?? timeline.root;
    this.tabStop = null;
    this.setTabStop(this.cards.has(stop) ? stop : timeline.root);
    // A card had the focus: it keeps it in the new graph, or hands it to the root when it is gone.
    if (focused !== null) this.cards.get(this.tabStop!)?.el.focus();
  }

  /**
   * Names for this frame, written only when a value or gradient has arrived or left: what the cards
   * show depends on the graph's numbers, the direction, how many events have landed and whether the
   * final gradients are on.
   */
  update(timeline: Timeline, frame: Frame, finalGradients: boolean): void {
    this.timeline = timeline; // new numbers on the same cards
    const moment = { timeline, direction: frame.direction, completed: frame.completed, finalGradients };
    const last = this.named;
    if (last && Object.entries(moment).every(([k, v]) => last[k as keyof typeof moment] === v)) return;
    this.named = moment;
    const write = (only: NodeId | null): void => {
      const consumers = consumersOf(timeline);
      for (const node of timeline.nodes) {
        const card = this.cards.get(node.id);
        if (card && (only === null || only === node.id))
          setText(card.name, cardName(node, timeline, frame.nodes.get(node.id), this.i18n, consumers));
      }
    };
    if (this.later !== null) clearTimeout(this.later);
    this.later = null;
    // Only the numbers changed (a slider is moving, perhaps every frame): the focused card's name now,
    // the others once the hand rests. Anything else (a pulse landing, a new graph) renames at once.
    const numbersOnly =
      last !== null &&
      last.timeline !== timeline &&
      last.direction === moment.direction &&
      last.completed === moment.completed &&
      last.finalGradients === finalGradients;
    if (!numbersOnly) {
      write(null);
      return;
    }
    const focused = this.idOf(this.layer.ownerDocument.activeElement);
    if (focused !== null) write(focused);
    this.later = setTimeout(() => {
      this.later = null;
      write(null);
    }, NAMES_AFTER_DRAG_MS);
  }

  private key(e: KeyboardEvent): void {
    const from = this.idOf(e.target);
    if (!from || !this.timeline || !WALK_KEYS.has(e.key) || e.altKey || e.ctrlKey || e.metaKey) return;
    e.preventDefault();
    e.stopPropagation(); // the stage's own arrow keys turn or pan the view
    const to = neighbour(this.timeline, from, e.key as WalkKey, this.cameFrom);
    if (to === null || to === from) return;
    this.cameFrom = from;
    this.arriving = to;
    this.setTabStop(to);
    this.cards.get(to)?.el.focus();
  }

  private setTabStop(id: NodeId): void {
    if (id === this.tabStop) return;
    const old = this.tabStop ? this.cards.get(this.tabStop) : undefined;
    if (old) old.el.tabIndex = -1;
    const card = this.cards.get(id);
    if (card) card.el.tabIndex = 0;
    this.tabStop = card ? id : null;
  }

  private idOf(target: EventTarget | Element | null): NodeId | null {
    if (!(target instanceof HTMLElement) || !this.layer.contains(target)) return null;
    return target.dataset.node ?? null;
  }
}
