// Where each edge label goes on the stage: a greedy placement, in priority order, that never lets a
// label cover a card or another label, or leave the stage. A label may slide along its edge and sit
// on it, beside it, or a little away with a leader line; when its full text fits nowhere it tries its shorter form, and when
// nothing fits it stays hidden (its numbers are on the cards, in the table and in the narration).
// Pure and deterministic: the same inputs always give the same picture (scrubbing stays honest).

export interface Point {
  x: number;
  y: number;
}

export interface Rect {
  x: number; // left, CSS px from the stage's left
  y: number; // top
  w: number;
  h: number;
}

export interface LabelRequest {
  id: string;
  sizes: { w: number; h: number }[]; // one per form, preferred first (full, then compact)
  path: Point[]; // the edge on screen, sampled evenly from its child (0) to its arrow (1)
  prefer: number; // 0..1 along the path: where the label sits when nothing is in the way
}

export interface Placement {
  id: string;
  form: number; // index into sizes
  box: Rect;
  leader: Segment | null; // from the edge to the label, when the label stands off its edge
}

export interface PlacementInput {
  width: number; // stage, CSS px
  height: number;
  cards: Rect[]; // obstacles (card boxes on screen)
  edges: Point[][]; // every edge on screen, to keep labels off other edges where possible
  labels: LabelRequest[]; // in priority order
  upgrade?: number; // labels from this index on are first placed in their last form, then upgraded
  keepShort?: boolean; // ... or not upgraded at all (a crowded stage stays calm)
  near?: NearCache; // kept by the caller while the edges stay where they are
}

/** What lies near one label's edge: the other edges its candidate boxes could cross. */
export interface Neighbourhood {
  margin: number; // px around the edge's bounds it covers
  edges: Point[][];
  bounds: Rect[]; // of those edges
  // The label's last answers, by question: its form, size and preferred point, and the cards and
  // labels already placed near it. The edges stay put while the cache lives, so the same question
  // has the same answer: a slider drag changes a few labels' sizes and the cards' notes, and the
  // labels nothing changed around are not searched again.
  answers: { question: number[]; found: Found | null }[];
}

type Found = { box: Rect; leader: Segment | null };
const ANSWERS_KEPT = 8; // per label: a drag back and forth asks a handful of questions

/**
 * Neighbourhoods by label id. A slider drag moves no edge, only the labels' sizes and the cards'
 * tabs: the caller keeps this map while the geometry stays, so each frame skips the search.
 */
export type NearCache = Map<string, Neighbourhood>;
const NEAR_MARGIN = 240; // px: covers the candidates of all but the widest labels (those search anew)

const GAP = 3; // px kept free around cards, other labels and the stage's border
const CROSSING_COST = 0.6; // per sampled point of another edge a label would hide
const STEPS = [0, -0.1, 0.1, -0.2, 0.2, -0.3, 0.3, -0.4, 0.4]; // along the edge, from the preferred point
const TOUCH = 4; // px of overlap with the line for the off-line anchors, so the label stays attached
// Ways a label can hold on to a point of its edge: centred on it, touching it from above, below,
// left or right, by a corner, or (a callout) a little away from it with a leader line. The costs
// make "on the line" the first choice and a long leader the last.
interface Anchor {
  dx: number; // the box's left edge, in box widths from the point (-0.5: centred)
  dy: number;
  ox: number; // then this many px more
  oy: number;
  cost: number;
  leader: boolean;
}
const ANCHORS: Anchor[] = [
  { dx: -0.5, dy: -0.5, ox: 0, oy: 0, cost: 0, leader: false },
  { dx: -0.5, dy: -1, ox: 0, oy: TOUCH, cost: 1.2, leader: false },
  { dx: -0.5, dy: 0, ox: 0, oy: -TOUCH, cost: 1.2, leader: false },
  { dx: 0, dy: -0.5, ox: -TOUCH, oy: 0, cost: 1.6, leader: false },
  { dx: -1, dy: -0.5, ox: TOUCH, oy: 0, cost: 1.6, leader: false },
  { dx: 0, dy: -1, ox: -TOUCH, oy: TOUCH, cost: 2, leader: false },
  { dx: -1, dy: -1, ox: TOUCH, oy: TOUCH, cost: 2, leader: false },
  { dx: 0, dy: 0, ox: -TOUCH, oy: -TOUCH, cost: 2, leader: false },
  { dx: -1, dy: 0, ox: TOUCH, oy: -TOUCH, cost: 2, leader: false },
  ...[14, 28, 44].flatMap((d, k) =>
    [-0.5, -0.15, -0.85].flatMap((dx, j) => [
      { dx, dy: -1, ox: 0, oy: -d, cost: 4 + 2.5 * k + j * 0.5, leader: true },
      { dx, dy: 0, ox: 0, oy: d, cost: 4 + 2.5 * k + j * 0.5, leader: true },
    ]),
  ),
].sort((a, b) => a.cost - b.cost);

export function placeLabels(input: PlacementInput): Placement[] {
  const placed = new Map<string, Placement>();
  const bounds = new Map<Point[], Rect>();
  const upgradeFrom = input.upgrade ?? input.labels.length;
  input.labels.forEach((label, i) => {
    const forms = i < upgradeFrom ? label.sizes.map((_, f) => f) : [label.sizes.length - 1];
    for (const form of forms) {
      const best = bestBox(input, bounds, label, form, placed);
      if (best) {
        placed.set(label.id, { id: label.id, form, ...best });
        return;
      }
    }
  });
  // Second pass: labels placed in their short form take their full form where there is room.
  for (const label of input.keepShort ? [] : input.labels.slice(upgradeFrom)) {
    const current = placed.get(label.id);
    if (!current) continue;
    for (let form = 0; form < current.form; form++) {
      const best = bestBox(input, bounds, label, form, placed);
      if (best) {
        placed.set(label.id, { id: label.id, form, ...best });
        break;
      }
    }
  }
  return input.labels.flatMap((l) => placed.get(l.id) ?? []);
}

function bestBox(
  input: PlacementInput,
  bounds: Map<Point[], Rect>,
  label: LabelRequest,
  form: number,
  placed: ReadonlyMap<string, Placement>,
): Found | null {
  const size = label.sizes[form];
  if (!size || label.path.length === 0) return null;
  // Only what lies near the edge can be in the way: a few cards and labels, not the whole graph.
  // Every candidate box lies within `reach` px of the edge, past its own size.
  const reach = 60;
  const margin = Math.max(size.w, size.h) + reach;
  let hood = input.near?.get(label.id);
  if (!hood || hood.margin < margin) {
    // A wider search sees more edges, but each answer only ever depended on those near its boxes.
    const answers = hood?.answers ?? [];
    hood = { ...neighbourhood(input, bounds, label.path, Math.max(margin, NEAR_MARGIN)), answers };
    input.near?.set(label.id, hood);
  }
  const near = grow(boundsOf(label.path), margin);
  const local = {
    width: input.width,
    height: input.height,
    cards: input.cards.filter((c) => overlaps(c, near)),
  };
  const taken: Rect[] = [];
  for (const other of placed.values())
    if (other.id !== label.id && overlaps(other.box, near)) taken.push(other.box);
  // Asked in a scratch array (every label asks every frame of a drag); copied only when kept.
  const question = scratch;
  question.length = 0;
  question.push(form, size.w, size.h, label.prefer, local.cards.length);
  for (const r of local.cards) question.push(r.x, r.y, r.w, r.h);
  for (const r of taken) question.push(r.x, r.y, r.w, r.h);
  const known = hood.answers.find((a) => sameNumbers(a.question, question));
  if (known) return known.found;
  const found = search(label, size, local, taken, hood);
  if (hood.answers.length >= ANSWERS_KEPT) hood.answers.shift();
  hood.answers.push({ question: question.slice(), found });
  return found;
}

const scratch: number[] = [];

function sameNumbers(a: number[], b: number[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The cheapest free box for one label, given what is near it. */
function search(
  label: LabelRequest,
  size: { w: number; h: number },
  local: Pick<PlacementInput, "width" | "height" | "cards">,
  taken: Rect[],
  hood: Neighbourhood,
): Found | null {
  let best: Found | null = null;
  const box: Rect = { x: 0, y: 0, w: size.w, h: size.h };
  let bestCost = Infinity;
  for (const step of STEPS) {
    const t = label.prefer + step;
    if (t < 0.06 || t > 0.94) continue;
    const p = pointAt(label.path, t);
    for (const anchor of ANCHORS) {
      const cost = Math.abs(step) * 10 + anchor.cost;
      if (cost >= bestCost) break; // anchors are sorted by cost
      // One scratch box for the candidates (a slider drag places every label every frame): only
      // the best so far is copied.
      box.x = p.x + anchor.dx * size.w + anchor.ox;
      box.y = p.y + anchor.dy * size.h + anchor.oy;
      if (!free(box, local, taken)) continue;
      let leader: Segment | null = null;
      if (anchor.leader) {
        leader = { from: p, to: nearestPoint(box, p) };
        if (local.cards.some((card) => segmentHitsRect(leader!, card))) continue;
      }
      // Counting stops once this box can no longer beat the best (the decision is the same).
      const total =
        cost + crossings(box, hood.edges, hood.bounds, (bestCost - cost) / CROSSING_COST) * CROSSING_COST;
      if (total < bestCost) {
        best = { box: { ...box }, leader };
        bestCost = total;
      }
    }
  }
  return best;
}

export interface Segment {
  from: Point;
  to: Point;
}

function nearestPoint(box: Rect, p: Point): Point {
  return {
    x: Math.min(box.x + box.w, Math.max(box.x, p.x)),
    y: Math.min(box.y + box.h, Math.max(box.y, p.y)),
  };
}

/** Whether a segment passes through a rectangle (sampled: leaders are short). */
function segmentHitsRect(s: Segment, r: Rect): boolean {
  for (let i = 0; i <= 8; i++) {
    const x = s.from.x + ((s.to.x - s.from.x) * i) / 8;
    const y = s.from.y + ((s.to.y - s.from.y) * i) / 8;
    if (x > r.x && x < r.x + r.w && y > r.y && y < r.y + r.h) return true;
  }
  return false;
}

function neighbourhood(
  input: PlacementInput,
  bounds: Map<Point[], Rect>,
  path: Point[],
  margin: number,
): Omit<Neighbourhood, "answers"> {
  const near = grow(boundsOf(path), margin);
  const edges: Point[][] = [];
  const edgeBounds: Rect[] = [];
  for (const edge of input.edges) {
    if (edge === path) continue;
    let b = bounds.get(edge);
    if (!b) bounds.set(edge, (b = boundsOf(edge)));
    if (!overlaps(b, near)) continue;
    edges.push(edge);
    edgeBounds.push(b);
  }
  return { margin, edges, bounds: edgeBounds };
}

function grow(r: Rect, by: number): Rect {
  return { x: r.x - by, y: r.y - by, w: r.w + 2 * by, h: r.h + 2 * by };
}

function free(box: Rect, input: Pick<PlacementInput, "width" | "height" | "cards">, taken: Rect[]): boolean {
  if (box.x < GAP || box.y < GAP || box.x + box.w > input.width - GAP || box.y + box.h > input.height - GAP)
    return false;
  for (const card of input.cards) if (overlaps(box, card, GAP)) return false;
  for (const other of taken) if (overlaps(box, other, GAP)) return false;
  return true;
}

export function overlaps(a: Rect, b: Rect, gap = 0): boolean {
  return a.x < b.x + b.w + gap && b.x < a.x + a.w + gap && a.y < b.y + b.h + gap && b.y < a.y + a.h + gap;
}

function boundsOf(path: Point[]): Rect {
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (const p of path) {
    x0 = Math.min(x0, p.x);
    y0 = Math.min(y0, p.y);
    x1 = Math.max(x1, p.x);
    y1 = Math.max(y1, p.y);
  }
  return { x: x0, y: y0, w: x1 - x0, h: y1 - y0 };
}

/** How many sampled points of other edges the box would hide. */
function crossings(box: Rect, edges: Point[][], bounds: Rect[], limit: number): number {
  let n = 0;
  for (let i = 0; i < edges.length; i++) {
    if (!overlaps(box, bounds[i]!)) continue;
    for (const p of edges[i]!) {
      if (p.x > box.x && p.x < box.x + box.w && p.y > box.y && p.y < box.y + box.h && ++n >= limit) return n;
    }
  }
  return n;
}

/** The point at fraction t of a sampled path (by index, the samples are evenly spaced along it). */
export function pointAt(path: Point[], t: number): Point {
  const f = Math.min(1, Math.max(0, t)) * (path.length - 1);
  const i = Math.min(path.length - 2, Math.floor(f));
  if (i < 0) return path[0]!;
  const a = path[i]!;
  const b = path[i + 1]!;
  const u = f - i;
  return { x: a.x + (b.x - a.x) * u, y: a.y + (b.y - a.y) * u };
}
