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
const SIDE = 5; // CSS px between the line and a number beside it (a line running up or down)
const GAP = 8; // CSS px kept between two numbers where there is room (walk 42: "10" beside "−1" by a card, whose was which?)

/** Where a number is written: a point of its edge on screen, and its offset from it (CSS px). */
interface Place {
  q: Projected;
  dx: number;
  dy: number;
}

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
   * other side, or further out, or, where that is taken too, slips under it, whose words stay whole;
   * a number never lies over or under another one (it waits unseen where there is no room).
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
    const numbers: Rect[] = []; // the numbers placed before
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
      const box = ({ q, dx, dy }: Place): Rect => ({
        x: q.x + dx - size.w / 2,
        y: q.y + dy - size.h / 2,
        ...size,
      });
      // Beside the pulse (over the line or under it; where the line runs up or down, either side of
      // it first), else a little further along towards the edge's middle, clear of the cards and their
      // tabs, of the labels and of the numbers placed before (two numbers converging on one card, a
      // sum's two inputs, part: walkthrough 15, "−1" half under "10" where both edges ran down to it).
      // Clear of the cards only, it slips under the others; where no place is clear of the cards (a
      // short edge between crowded cards), beneath the cards, where it covers them least (they stay
      // whole).
      const spot = (t: number): Projected => project(along(curve, t, item.kind));
      const ts = [0, 1, 2, 3, 4].map((k) => at + (0.5 - at) * (k / 4));
      const points = ts.map(spot);
      const aside = size.w / 2 + SIDE;
      const nearest: Place[] = points.flatMap((q, k) => {
        const next = spot(Math.min(1, ts[k]! + 0.01)); // where the line runs here, on screen
        const onLine: Place[] = [
          { q, dx: 0, dy: -ABOVE },
          { q, dx: 0, dy: ABOVE },
        ];
        const steep = Math.abs(next.y - q.y) > Math.abs(next.x - q.x);
        return steep ? [{ q, dx: aside, dy: 0 }, { q, dx: -aside, dy: 0 }, ...onLine] : onLine;
      });
      // Last, a line further out: over or under a number in the way where two edges meet a card.
      const further = ABOVE + size.h + 2;
      nearest.push(...points.flatMap((q) => [-further, further].map((dy) => ({ q, dx: 0, dy }))));
      const free = (place: Place): boolean => !boxes.some((b) => overlaps(b, box(place)));
      const open = (place: Place): boolean => free(place) && !taken.some((b) => overlaps(b, box(place)));
      const area = (rects: Rect[], place: Place): number =>
        rects.reduce((sum, b) => sum + overlapArea(b, box(place)), 0);
      const least = (among: Place[], rects: Rect[]): Place | undefined =>
        among.reduce<Place | undefined>((a, b) => (a && area(rects, a) <= area(rects, b) ? a : b), undefined);
      const under = !nearest.some(open);
      // Else under the labels, where it lies under the least of them (under no number if it can).
      const apart = (place: Place): boolean => free(place) && !numbers.some((b) => overlaps(b, box(place)));
      const place =
        nearest.find((p) => open(p) && !numbers.some((b) => overlaps(b, box(p), GAP))) ??
        nearest.find(open) ??
        least(nearest.filter(apart), taken) ??
        least(nearest.filter(free), taken) ??
        least(nearest, boxes)!;
      // One that has arrived with no room left: its card's grad and its edge's label say it, rather
      // than a sliver of it under them (walkthrough 12: the neuron's "0.5" under x's label at the end).
      // Nor is one shown half under another number: the pair would read as one heap (walkthrough 15).
      if (under && (item.landed || numbers.some((b) => overlaps(b, box(place))))) {
        if (!el.hidden) el.hidden = true;
        return;
      }
      taken.push(box(place));
      numbers.push(box(place));
      setText(el, text);
      setAttr(el, "data-edge", item.edge);
      setAttr(el, "data-kind", item.kind);
      setAttr(el, "data-sign", item.kind === "backward" ? signOf(item.number) : null);
      setAttr(el, "data-landed", item.landed ? "true" : null);
      setAttr(el, "data-under", under ? "true" : null);
      const { q, dx, dy } = place;
      el.style.transform = `translate(${(q.x + dx).toFixed(1)}px, ${(q.y + dy).toFixed(1)}px) translate(-50%, -50%)`;
      if (el.hidden) el.hidden = false;
    });
  }
}
