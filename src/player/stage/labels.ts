// HTML labels on the edges. During backward each hand-off writes `incoming × local = contribution`
// on its edge; with "local derivatives" on, edges still waiting show their local derivative.
// The label of the hand-off happening now, and those of an edge or card under the pointer, get the
// first and best places in the full form. Older labels follow, in their full form where there is
// room and otherwise as just the contribution. placement.ts keeps every label off the cards, off
// the other labels and inside the stage; a label with no room at all is hidden.

import type { EdgeId, NodeId, Timeline } from "../../inference/types";
import { type EdgeCurve, pointOnEdge } from "./curves";
import { h, setAttr, setStyle, setText } from "../shared/dom";
import { type EdgeLook, edgeLook } from "./encoding";
import type { V3 } from "./fit";
import { formatNumber, operand, productParts, productText } from "../model/format";
import type { I18n } from "../shared/i18n";
import { type LabelRequest, type NearCache, type Point, placeLabels, type Rect } from "./placement";
import type { Projected } from "./scene";
import type { Frame } from "../model/timing";

const SAMPLES = 24; // points per edge on screen, for placing labels and finding the edge under the pointer
// Labels ask for room in steps of this many CSS px of width (and sit centred in it): while a slider
// drags, a number one digit longer or shorter then rarely changes the question, so the last
// placement is reused instead of searched again.
const WIDTH_STEP = 4;

type Kind = "current" | "done" | "local";
const KINDS: readonly Kind[] = ["current", "done", "local"];

interface Label {
  el: HTMLElement;
  leader: HTMLElement; // a thin line from the edge to a label that stands off it
  curve: EdgeCurve;
  kind: Kind | null;
  forms: string[]; // texts, preferred first
  emphasis: boolean;
  look: EdgeLook; // how the scene draws the edge now (encoding.ts)
}

export interface LabelStage {
  width: number; // CSS px
  height: number;
  scale: number; // labels' CSS scale
  cards: () => Rect[]; // asked for only when there are labels to place (it may read the layout)
  crowded: boolean; // tiny cards: older labels keep to the contribution alone
  overview?: boolean; // the whole graph at once (viewport.ts): only the hand-off in flight and pointed ones
  along?: (curve: EdgeCurve, at: number) => V3; // where the scene draws a point of an edge (the backward layer raised)
  geometry?: string; // while it stays the same, every edge lands where it did: its path on screen is reused
}

export class EdgeLabels {
  private labels = new Map<EdgeId, Label>();
  private order = new Map<EdgeId, number>(); // position of each edge's hand-off in the backward pass
  private paths = new Map<EdgeId, Point[]>(); // last placed: each edge on screen
  private pathsOf: string | null = null; // the stage geometry the paths were sampled for
  private near: NearCache = new Map(); // what lies near each edge, for nearKey
  private nearKey: string | null = null;
  private towards: "parent" | "child" = "parent"; // the end whose arrowhead is shown: where the pulse travels
  private placed: Rect[] = []; // the shown labels' boxes on the stage, as last placed
  private readonly meter: LabelMeter;

  constructor(
    private readonly layer: HTMLElement,
    private readonly i18n: I18n,
  ) {
    this.meter = new LabelMeter(layer);
  }

  build(curves: EdgeCurve[]): void {
    this.layer.replaceChildren();
    this.labels.clear();
    this.paths.clear();
    this.pathsOf = null;
    this.near = new Map(); // new edges: nothing known about them yet
    this.nearKey = null; // the labels' fonts stay: they change with the stage's size (remeasure)
    for (const curve of curves) {
      const el = h("span", { class: "tdg-edge-label", "data-edge": curve.id, hidden: true });
      const leader = h("span", { class: "tdg-edge-leader", hidden: true });
      this.labels.set(curve.id, {
        el,
        leader,
        curve,
        kind: null,
        forms: [],
        emphasis: false,
        look: edgeLook(null),
      });
      this.layer.append(leader, el);
    }
  }

  /**
   * What each label says at this frame; `emphasis`: edges the reader points at; `moved`: the nodes
   * the last nudge moved, whose edges say what they multiply that change by ("× 10").
   */
  update(
    frame: Frame,
    timeline: Timeline,
    localDerivatives: boolean,
    emphasis: ReadonlySet<EdgeId>,
    moved: ReadonlyMap<NodeId, number> | null,
  ): void {
    this.order = new Map(timeline.backward.map((step, i) => [step.edge, i]));
    this.towards = frame.direction === "backward" ? "child" : "parent";
    const edges = new Map(timeline.edges.map((e) => [e.id, e]));
    for (const [id, label] of this.labels) {
      const state = frame.edges.get(id)?.label ?? null;
      const edge = edges.get(id);
      const carries =
        edge !== undefined &&
        moved?.has(edge.from) === true &&
        (frame.nodes.get(edge.from)?.value ?? null) !== null;
      label.emphasis = false;
      label.look = edgeLook(frame.direction === "backward" ? (state?.contribution ?? null) : null);
      if (state) {
        label.kind = state.current ? "current" : "done";
        label.forms = [
          productText(state.incoming, state.local, state.contribution),
          formatNumber(state.contribution),
        ];
        label.emphasis = emphasis.has(id);
      } else if (localDerivatives || carries) {
        const value = formatNumber(edge?.local ?? 0);
        label.kind = "local";
        label.forms = [carries ? `× ${operand(value)}` : this.i18n.t("local_tag", { value })];
      } else {
        label.kind = null;
        label.forms = [];
      }
    }
  }

  /** Place the labels that have something to say; hide the rest. */
  place(project: (p: V3) => Projected, stage: LabelStage): void {
    // In the overview, ~40 older labels would be the loudest thing in the frame (walkthrough 11).
    const shown = [...this.labels.entries()].filter(
      ([, l]) => l.kind !== null && (!stage.overview || l.kind === "current" || l.emphasis),
    );
    this.placed = [];
    if (shown.length === 0) {
      this.paths.clear();
      this.pathsOf = null;
      for (const label of this.labels.values()) {
        hide(label.el);
        hide(label.leader);
      }
      return;
    }
    if (stage.geometry === undefined || stage.geometry !== this.pathsOf) {
      this.pathsOf = stage.geometry ?? null;
      for (const [id, label] of this.labels) {
        const path: Point[] = [];
        for (let i = 0; i <= SAMPLES; i++) {
          const p = project((stage.along ?? pointOnEdge)(label.curve, i / SAMPLES));
          path.push({ x: p.x, y: p.y });
        }
        this.paths.set(id, path);
      }
    }
    const rank = (kind: Kind | null, emphasis: boolean): number =>
      kind === "current" ? 0 : emphasis ? 1 : kind === "done" ? 2 : 3;
    shown.sort(
      ([a, la], [b, lb]) =>
        rank(la.kind, la.emphasis) - rank(lb.kind, lb.emphasis) ||
        (this.order.get(a) ?? 0) - (this.order.get(b) ?? 0),
    );
    const sizes = this.meter.measure(
      shown.flatMap(([, l]) => l.forms.map((text) => ({ kind: l.kind!, text }))),
    );
    const formStart: number[] = [];
    let next = 0;
    for (const [, l] of shown) {
      formStart.push(next);
      next += l.forms.length;
    }
    next = 0;
    const requests: LabelRequest[] = shown.map(([id, l]) => {
      const forms = l.forms
        .map(() => sizes[next++]!)
        .map((s) => ({ w: Math.ceil((s.w * stage.scale) / WIDTH_STEP) * WIDTH_STEP, h: s.h * stage.scale }));
      return { id, sizes: forms, path: this.paths.get(id)!, prefer: l.kind === "local" ? 0.62 : 0.5 };
    });
    const cards = stage.cards();
    const upgrade = firstIndex(shown, ([, l]) => rank(l.kind, l.emphasis) >= 2);
    // What lies near each edge, and each label's last answers (placement.ts), stay while the edges
    // do: a slider drag searches again only around the labels and card notes that changed.
    const nearKey = stage.geometry === undefined ? null : `${stage.geometry}|${stage.width}|${stage.height}`;
    if (nearKey === null || nearKey !== this.nearKey) this.near = new Map();
    this.nearKey = nearKey;
    const placements = placeLabels({
      width: stage.width,
      height: stage.height,
      cards,
      edges: [...this.paths.values()],
      labels: requests,
      upgrade,
      keepShort: stage.crowded,
      near: this.near,
    });
    const where = new Map(placements.map((p) => [p.id, p]));
    const widths = new Map(
      shown.map(([id, l], i) => [
        id,
        l.forms.map((_, f) => (sizes[formStart[i]! + f]?.w ?? 0) * stage.scale),
      ]),
    );
    for (const [id, label] of this.labels) {
      const at = label.kind === null ? undefined : where.get(id);
      if (!at) {
        hide(label.el);
        hide(label.leader);
        continue;
      }
      const text = label.forms[at.form] ?? "";
      if (at.form === 0 && label.kind !== "local") writeProduct(label.el, text);
      else setText(label.el, text);
      setAttr(label.el, "data-kind", label.kind);
      setAttr(label.el, "data-form", at.form === 0 ? "full" : "compact");
      setAttr(label.el, "data-emphasis", label.emphasis ? "true" : null);
      // A dead path (contribution exactly 0) is dim and dashed, its label too; the sign's second cue.
      setAttr(label.el, "data-dead", label.look.sign === "zero" ? "true" : null);
      setAttr(label.el, "data-sign", label.kind === "local" ? null : label.look.sign);
      const width = widths.get(id)?.[at.form] ?? at.box.w;
      const x = at.box.x + (at.box.w - width) / 2; // centred in the room it asked for
      this.placed.push({ x, y: at.box.y, w: width, h: at.box.h });
      setStyle(
        label.el,
        "transform",
        `translate(${x.toFixed(1)}px, ${at.box.y.toFixed(1)}px) scale(${stage.scale.toFixed(3)})`,
      );
      if (label.el.hidden) label.el.hidden = false;
      if (at.leader) {
        const { from, to } = at.leader;
        const angle = Math.atan2(to.y - from.y, to.x - from.x);
        setStyle(label.leader, "width", `${Math.hypot(to.x - from.x, to.y - from.y).toFixed(1)}px`);
        setStyle(
          label.leader,
          "transform",
          `translate(${from.x.toFixed(1)}px, ${from.y.toFixed(1)}px) rotate(${angle.toFixed(4)}rad)`,
        );
        setAttr(label.leader, "data-kind", label.kind);
        if (label.leader.hidden) label.leader.hidden = false;
      } else hide(label.leader);
    }
  }

  /** The boxes of the labels on screen, as last placed (the carried numbers keep off them). */
  boxes(): Rect[] {
    return this.placed;
  }

  /** Each edge on screen, as last placed, and how it is drawn (for tests). */
  screenPaths(): {
    id: EdgeId;
    from: string;
    to: string;
    path: Point[];
    width: number;
    sign: string | null;
    towards: string;
  }[] {
    return [...this.labels].map(([id, l]) => ({
      id,
      from: l.curve.from,
      to: l.curve.to,
      path: this.paths.get(id) ?? [],
      ...l.look,
      towards: this.towards,
    }));
  }

  /** Web fonts arrived, or the stage turned compact or back: label sizes measured before are stale. */
  remeasure(): void {
    this.meter.reset();
  }

  /** Read the labels' fonts now (it reads computed styles): waking does it in a task of its own. */
  prepare(): void {
    this.meter.prepare();
  }

  /** The edge whose line passes within `radius` px of a point of the stage (after the last place()). */
  edgeAt(x: number, y: number, radius = 8): EdgeId | null {
    let best: EdgeId | null = null;
    let bestDistance = radius;
    for (const [id, path] of this.paths) {
      for (let i = 1; i < path.length; i++) {
        const d = segmentDistance({ x, y }, path[i - 1]!, path[i]!);
        if (d < bestDistance) {
          bestDistance = d;
          best = id;
        }
      }
    }
    return best;
  }
}

const firstIndex = <T>(items: T[], test: (item: T) => boolean): number => {
  const i = items.findIndex(test);
  return i < 0 ? items.length : i;
};

function hide(el: HTMLElement): void {
  if (!el.hidden) el.hidden = true;
}

function segmentDistance(p: Point, a: Point, b: Point): number {
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const t = Math.max(0, Math.min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / (dx * dx + dy * dy || 1)));
  return Math.hypot(p.x - (a.x + t * dx), p.y - (a.y + t * dy));
}

/**
 * A product ("incoming × local = contribution") with its middle factor in a span of its own, which
 * player.css marks while "Local derivatives" is on: the toggle then shows on every hand-off's label,
 * even at the end of backward, when no edge is left waiting for its hand-off. The legend's product
 * of words is written with it too (controls.ts). Returns `el`.
 */
export function writeProduct(el: HTMLElement, text: string): HTMLElement {
  if (el.textContent === text) return el;
  const [head, local, tail] = productParts(text);
  if (local === "") {
    el.textContent = text;
    return el;
  }
  // A slider drag rewrites every product each frame: the three parts are updated in place.
  const [a, span, b] = el.childNodes;
  if (el.childNodes.length === 3 && a instanceof Text && span instanceof HTMLElement && b instanceof Text) {
    if (a.data !== head) a.data = head;
    setText(span, local);
    if (b.data !== tail) b.data = tail;
  } else el.replaceChildren(head, h("span", { class: "tdg-edge-local" }, local), tail);
  return el;
}

/**
 * Sizes of label texts before they are shown, without a layout per frame: the font, padding and
 * border of each kind of label are read once from a hidden twin, then each character is measured
 * with a 2D canvas in that font (labels are one line of text in the code font).
 */
class LabelMeter {
  private readonly kinds = new Map<Kind, { font: string; prefix: string; extra: number; h: number }>();
  private readonly cache = new Map<string, { w: number; h: number }>();
  private readonly glyphs = new Map<string, number>(); // width of one character in a kind's font
  private readonly context = document.createElement("canvas").getContext("2d");
  private font = ""; // the context's font as last set (setting it parses the font again)

  constructor(private readonly layer: HTMLElement) {}

  /** Forget fonts and sizes (new stage layout, or web fonts arrived). */
  reset(): void {
    this.kinds.clear();
    this.cache.clear();
    this.glyphs.clear();
  }

  measure(items: { kind: Kind; text: string }[]): { w: number; h: number }[] {
    if (this.cache.size > 4000) this.cache.clear();
    return items.map(({ kind, text }) => {
      const key = `${kind}\u0000${text}`;
      let size = this.cache.get(key);
      if (!size) {
        const style = this.style(kind);
        size = {
          w: Math.ceil(this.width(kind, style.font, style.prefix + text) + style.extra) + 1,
          h: style.h,
        };
        this.cache.set(key, size);
      }
      return size;
    });
  }

  /**
   * A label's text width as the sum of its characters' widths, each measured once: labels are set
   * in the code font, monospaced, so a slider drag's new numbers need no new measurement.
   */
  private width(kind: Kind, font: string, text: string): number {
    let w = 0;
    for (const char of text) {
      const key = `${kind}\u0000${char}`;
      let glyph = this.glyphs.get(key);
      if (glyph === undefined) {
        glyph = 7; // no 2D canvas: a generous estimate
        if (this.context) {
          if (this.font !== font) this.context.font = this.font = font;
          glyph = this.context.measureText(char).width;
        }
        this.glyphs.set(key, glyph);
      }
      w += glyph;
    }
    return w;
  }

  prepare(): void {
    for (const kind of KINDS) this.style(kind);
  }

  private style(kind: Kind): { font: string; prefix: string; extra: number; h: number } {
    let style = this.kinds.get(kind);
    if (style) return style;
    const probe = h("span", { class: "tdg-label-probe", "data-kind": kind }, "0");
    const host = h("div", { class: "tdg-label-probes", "aria-hidden": "true" }, probe);
    this.layer.append(host);
    const css = getComputedStyle(probe);
    const before = getComputedStyle(probe, "::before").content;
    const px = (name: string): number => parseFloat(css.getPropertyValue(name)) || 0;
    style = {
      font: `${css.fontStyle} ${css.fontWeight} ${css.fontSize} ${css.fontFamily}`,
      prefix:
        before && before !== "none" && before !== "normal" ? JSON.parse(before.replace(/^'|'$/g, '"')) : "",
      extra: px("padding-left") + px("padding-right") + px("border-left-width") + px("border-right-width"),
      h: probe.offsetHeight,
    };
    host.remove();
    this.kinds.set(kind, style);
    return style;
  }
}
