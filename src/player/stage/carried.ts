// The number a pulse carries, written beside it as it travels along its edge: forward the input's
// value, backward the contribution. Once the pulse has landed the number waits at the edge's end,
// by the card that received it, until the next event starts (with reduced motion, time moves in
// whole events: the number only ever appears there, at its end).

import type { EdgeId } from "../../inference/types";
import { type EdgeCurve, pointOnEdge } from "./curves";
import { h, setAttr, setText } from "../shared/dom";
import { signOf } from "./encoding";
import type { V3 } from "./fit";
import { formatNumber } from "../model/format";
import { overlaps, type Rect } from "./placement";
import type { Projected } from "./scene";
import type { Frame } from "../model/timing";

const ENDS = 0.16; // kept this far from either end of the edge, clear of the cards
const ABOVE = 13; // CSS px the number floats over the line (or under it, clear of a label)

/** How much of two boxes lies over each other (px²). */
function overlapArea(a: Rect, b: Rect): number {
  const w = Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y);
  return w > 0 && h > 0 ? w * h : 0;
}

export class CarriedNumbers {
  private curves = new Map<EdgeId, EdgeCurve>();
  private pool: HTMLElement[] = [];

  constructor(private readonly layer: HTMLElement) {}

  /** New edges (the layer was emptied by the labels' build). */
  build(curves: EdgeCurve[]): void {
    this.curves = new Map(curves.map((c) => [c.id, c]));
    this.pool = [];
  }

  /**
   * `cards`: their boxes on the stage (and their tabs); a number never covers one: it moves along its
   * edge, or to the line's other side, or, on an edge too short for it, slips beneath the cards.
   * `labels`: the edge labels' boxes; a number passing one (or another number) floats on the line's
   * other side, or, where that is taken too, slips under it, whose words stay whole.
   */
  place(
    frame: Frame,
    project: (p: V3) => Projected,
    along: (curve: EdgeCurve, at: number, kind: Frame["direction"]) => V3 = (c, at) => pointOnEdge(c, at),
    cards: () => Rect[] = () => [],
    labels: () => Rect[] = () => [],
  ): void {
    const items = frame.carried.filter((c) => this.curves.has(c.edge));
    while (this.pool.length < items.length) {
      const el = h("span", { class: "tdg-carried", hidden: true });
      this.pool.push(el);
      this.layer.append(el);
    }
    let obstacles: Rect[] | undefined;
    const taken = items.length ? [...labels()] : []; // and the numbers placed before (walkthrough 11)
    this.pool.forEach((el, i) => {
      const item = items[i];
      if (!item) {
        if (!el.hidden) el.hidden = true;
        return;
      }
      const text = formatNumber(item.number);
      const size = { w: text.length * 6.6 + 14, h: 19 }; // player.css: 11 px monospace, padding, border
      const curve = this.curves.get(item.edge)!;
      const at = Math.min(1 - ENDS, Math.max(ENDS, item.at));
      const boxes = items.length ? (obstacles ??= cards()) : [];
      const box = (p: Projected, dy: number): Rect => ({
        x: p.x - size.w / 2,
        y: p.y + dy - size.h / 2,
        ...size,
      });
      // Over the line where it is, else a little further along towards the edge's middle; where the
      // line runs past cards and their tabs all the way (a short edge between crowded cards), under the
      // line; where that is taken too, beneath the cards, where it covers them least (they stay whole).
      const points = [0, 1, 2, 3, 4].map((k) => project(along(curve, at + (0.5 - at) * (k / 4), item.kind)));
      const free = (q: Projected, side: number): boolean => !boxes.some((b) => overlaps(b, box(q, side)));
      let dy = -ABOVE;
      let p = points.find((q) => free(q, -ABOVE));
      if (!p) {
        dy = ABOVE;
        p = points.find((q) => free(q, ABOVE));
      }
      let under = false;
      if (!p) {
        const covered = (q: Projected, side: number): number =>
          boxes.reduce((sum, b) => sum + overlapArea(b, box(q, side)), 0);
        const sides = points.flatMap((q) =>
          [-ABOVE, ABOVE].map((side) => ({ q, side, area: covered(q, side) })),
        );
        const least = sides.reduce((a, b) => (b.area < a.area ? b : a));
        p = least.q;
        dy = least.side;
        under = true;
      } else if (taken.some((b) => overlaps(b, box(p!, dy)))) {
        const clear = (r: Rect): boolean =>
          !taken.some((b) => overlaps(b, r)) && !boxes.some((b) => overlaps(b, r));
        if (clear(box(p, -dy))) dy = -dy;
        else under = true;
      }
      // One that has arrived with no room left: its card's grad and its edge's label say it, rather
      // than a sliver of it under them (walkthrough 12: the neuron's "0.5" under x's label at the end).
      if (under && item.landed) {
        if (!el.hidden) el.hidden = true;
        return;
      }
      if (!under) taken.push(box(p, dy));
      setText(el, text);
      setAttr(el, "data-edge", item.edge);
      setAttr(el, "data-kind", item.kind);
      setAttr(el, "data-sign", item.kind === "backward" ? signOf(item.number) : null);
      setAttr(el, "data-landed", item.landed ? "true" : null);
      setAttr(el, "data-under", under ? "true" : null);
      el.style.transform = `translate(${p.x.toFixed(1)}px, ${(p.y + dy).toFixed(1)}px) translate(-50%, -50%)`;
      if (el.hidden) el.hidden = false;
    });
  }
}
