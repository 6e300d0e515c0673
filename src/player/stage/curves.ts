// Edge shapes: a cubic Bézier per edge from the child's right side to the parent's left side,
// ending in an arrowhead. Inputs of one operation arrive at separate ports, so merging branches
// visibly converge; parallel edges (a * a) bow apart into two distinct arcs; in a chain wrapped into
// bands, an edge into a later band runs through the gaps and gutters around the cards. Pure geometry.

import type { EdgeId, NodeId, Timeline } from "../../inference/types";
import { type Bands, CARD_WORLD_WIDTH, type V3 } from "./fit";
import { nodesById } from "../model/timing";

export const ARROW_LENGTH = 0.2;
const PORT_SPACING = 0.26;
const PARALLEL_BOW = 0.55;
const CLEARANCE = 0.18; // scene units kept free around cards an edge runs past

type Cubic = [V3, V3, V3, V3];

export interface EdgeCurve {
  id: EdgeId;
  from: NodeId;
  to: NodeId;
  segments: Cubic[]; // a path of cubic Béziers from the child's port to the arrowhead's base
  lengths: number[]; // approximate length of each segment
  tip: V3; // arrowhead tip, just outside the parent's card
}

/**
 * Which port of its operation each edge arrives at, from the top (0): in the order of the inputs'
 * heights, so two edges into one card never cross just before it (in `(a + b) * c + log(a)` the layout
 * puts log(a) above its sibling, by its leaf a); inputs at the same height keep their slots' order.
 */
export function portsBySource(timeline: Timeline, positions: Map<NodeId, V3>): Map<EdgeId, number> {
  const into = new Map<NodeId, Timeline["edges"]>();
  for (const e of timeline.edges) into.set(e.to, [...(into.get(e.to) ?? []), e]);
  const height = (id: NodeId): number => positions.get(id)?.[1] ?? 0;
  const ports = new Map<EdgeId, number>();
  for (const edges of into.values())
    [...edges]
      .sort((p, q) => height(q.from) - height(p.from) || p.slot - q.slot)
      .forEach((e, i) => {
        ports.set(e.id, i);
      });
  return ports;
}

/**
 * An S-curve between neighbouring columns. An edge that skips columns runs level through a
 * corridor free of the cards it passes (so `c` in `(a + b) * c` never hides behind `a + b`) and
 * turns in the first and last gaps.
 */
export function edgeCurves(
  timeline: Timeline,
  positions: Map<NodeId, V3>,
  cardHeight = 0.9,
  grown: ReadonlyMap<NodeId, number> = new Map(), // scene units a card reaches further down (local derivatives shown)
  bands: Bands | null = null, // a long chain wrapped into bands (fit.ts)
): EdgeCurve[] {
  const half = CARD_WORLD_WIDTH / 2;
  const parallel = new Map<string, EdgeId[]>();
  for (const e of timeline.edges) {
    const key = `${e.from}>${e.to}`;
    parallel.set(key, [...(parallel.get(key) ?? []), e.id]);
  }
  const byId = nodesById(timeline);
  const ports = portsBySource(timeline, positions);
  return timeline.edges.map((e) => {
    const a = positions.get(e.from) ?? [0, 0, 0];
    const b = positions.get(e.to) ?? [0, 0, 0];
    const siblings = parallel.get(`${e.from}>${e.to}`) ?? [e.id];
    const j = siblings.indexOf(e.id);
    const offset = (siblings.length - 1) / 2 - j; // +: upper arc
    const n = byId.get(e.to)?.inputs.length ?? 1;
    const port = ((n - 1) / 2 - (ports.get(e.id) ?? e.slot)) * PORT_SPACING;
    const p0: V3 = [a[0] + half + 0.04, a[1] + offset * 0.12, a[2]]; // just clear of the card, also when turned
    const tip: V3 = [b[0] - half - 0.03, b[1] + port, b[2]];
    const p3: V3 = [tip[0] - ARROW_LENGTH, tip[1], tip[2]];
    const fromColumn = byId.get(e.from)?.column ?? 0;
    const toColumn = byId.get(e.to)?.column ?? fromColumn + 1;
    const band = (id: NodeId): number => bands?.of.get(id) ?? 0;
    const between = timeline.nodes.filter(
      (m) => m.column > fromColumn && m.column < toColumn && band(m.id) === band(e.from),
    );
    let segments: Cubic[];
    if (bands && band(e.from) !== band(e.to)) {
      segments = bandRoute(p0, p3, a, b, band(e.from), band(e.to), e.slot, bands);
    } else if (between.length === 0) {
      const bow = siblings.length > 1 ? offset * PARALLEL_BOW * 2 : 0;
      segments = [sCurve(p0, p3, bow)];
    } else {
      const obstacles = between.map((m) => {
        const p = positions.get(m.id) ?? [0, 0, 0];
        return {
          x: p[0],
          span: [p[1] - cardHeight / 2 - (grown.get(m.id) ?? 0), p[1] + cardHeight / 2] as Span,
        };
      });
      const y = corridor(
        p0[1],
        p3[1],
        obstacles.map((o) => o.span),
        CLEARANCE,
      );
      const xIn = Math.min(...obstacles.map((o) => o.x)) - half - 0.08;
      const xOut = Math.max(...obstacles.map((o) => o.x)) + half + 0.08;
      const q1: V3 = [xIn, y, lerp(p0[2], p3[2], 0.33)];
      const q2: V3 = [xOut, y, lerp(p0[2], p3[2], 0.66)];
      segments = [sCurve(p0, q1, 0), line(q1, q2), sCurve(q2, p3, 0)];
    }
    return { id: e.id, from: e.from, to: e.to, segments, lengths: segments.map(chordLength), tip };
  });
}

type Span = [number, number]; // bottom and top of a card, scene units

const LANE_OUT = 0.3; // scene units from a child's right side to the lane its edge leaves the band by
const LANE_IN = 0.62; // ... from a parent's left side to the lane its edge arrives by (arrowhead clear)
const CORNER = 0.16;

/**
 * An edge into a later band of a wrapped chain: right out of its child, down the gap beside it, along
 * the gutter under the parent's band (or, into the parent's first input, the gutter above it, as a
 * line of text returns to the left margin), then up or down the gap before the parent and into it.
 */
function bandRoute(
  p0: V3,
  p3: V3,
  from: V3,
  to: V3,
  fromBand: number,
  toBand: number,
  slot: number,
  bands: Bands,
): Cubic[] {
  const half = CARD_WORLD_WIDTH / 2;
  const out = from[0] + half + LANE_OUT;
  const into = to[0] - half - LANE_IN;
  // Two levels per gutter: returns to the margin run high, the inputs of the band below run low.
  const fromAbove = slot === 0;
  const gutter = fromAbove
    ? (bands.bottom[toBand - 1]! + bands.top[toBand]!) / 2 + 0.22
    : (bands.bottom[toBand]! + (bands.top[toBand + 1] ?? bands.bottom[toBand]! - 1.7)) / 2 - 0.22;
  void fromBand; // any band above: the gap beside the child runs clear of every band's cards
  const corners: V3[] = [p0, [out, p0[1], 0], [out, gutter, 0], [into, gutter, 0], [into, p3[1], 0], p3];
  return rounded(corners);
}

/** A polyline with rounded corners, as cubic segments. */
function rounded(points: V3[]): Cubic[] {
  const segments: Cubic[] = [];
  let start = points[0]!;
  for (let i = 1; i < points.length - 1; i++) {
    const p = points[i]!;
    const prev = points[i - 1]!;
    const next = points[i + 1]!;
    const r = Math.min(CORNER, dist(prev, p) / 2, dist(p, next) / 2);
    const enter = towards(p, prev, r);
    const leave = towards(p, next, r);
    if (dist(start, enter) > 1e-6) segments.push(line(start, enter));
    if (r > 1e-6) segments.push([enter, p, p, leave]);
    start = leave;
  }
  segments.push(line(start, points[points.length - 1]!));
  return segments;
}

const dist = (a: V3, b: V3): number => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
const towards = (a: V3, b: V3, r: number): V3 => {
  const d = dist(a, b) || 1;
  return [a[0] + ((b[0] - a[0]) * r) / d, a[1] + ((b[1] - a[1]) * r) / d, a[2] + ((b[2] - a[2]) * r) / d];
};

/** The level nearest to both ends that keeps `clearance` from every card's vertical span. */
export function corridor(y0: number, y1: number, spans: Span[], clearance: number): number {
  const free = (y: number): boolean =>
    spans.every(([lo, hi]) => y <= lo - clearance + 1e-9 || y >= hi + clearance - 1e-9);
  const candidates = [
    y0,
    y1,
    (y0 + y1) / 2,
    ...spans.flatMap(([lo, hi]) => [lo - clearance, hi + clearance]),
  ];
  const cost = (y: number): number => Math.abs(y - y0) + Math.abs(y - y1);
  return candidates.filter(free).sort((p, q) => cost(p) - cost(q))[0] ?? y0;
}

function sCurve(p0: V3, p3: V3, bow: number): Cubic {
  const reach = Math.max(0.2, (p3[0] - p0[0]) * 0.5);
  return [p0, [p0[0] + reach, p0[1] + bow, p0[2]], [p3[0] - reach, p3[1] + bow, p3[2]], p3];
}

function line(p0: V3, p3: V3): Cubic {
  return [p0, lerp3(p0, p3, 1 / 3), lerp3(p0, p3, 2 / 3), p3];
}

const lerp = (a: number, b: number, t: number): number => a + (b - a) * t;
const lerp3 = (a: V3, b: V3, t: number): V3 => [
  lerp(a[0], b[0], t),
  lerp(a[1], b[1], t),
  lerp(a[2], b[2], t),
];

function chordLength(c: Cubic): number {
  let total = 0;
  let prev = c[0];
  for (let i = 1; i <= 8; i++) {
    const p = bezier(c, i / 8);
    total += Math.hypot(p[0] - prev[0], p[1] - prev[1], p[2] - prev[2]);
    prev = p;
  }
  return total;
}

/** Which segment a parameter 0..1 of the whole path falls in, and where in it. */
function locate(
  curve: EdgeCurve,
  t: number,
  total = curve.lengths.reduce((x, y) => x + y, 0) || 1,
): { segment: Cubic; u: number } {
  let target = Math.min(1, Math.max(0, t)) * total;
  for (let i = 0; i < curve.segments.length; i++) {
    const length = curve.lengths[i] ?? 0;
    if (target <= length || i === curve.segments.length - 1)
      return { segment: curve.segments[i]!, u: length ? Math.min(1, target / length) : 0 };
    target -= length;
  }
  return { segment: curve.segments[0]!, u: 0 };
}

/** A point of the path without the arrowhead, 0..1. */
export function pathPoint(curve: EdgeCurve, t: number): V3 {
  const { segment, u } = locate(curve, t);
  return bezier(segment, u);
}

export function bezier(points: Readonly<Cubic>, t: number): V3 {
  const u = 1 - t;
  return weighted(points, [u * u * u, 3 * u * u * t, 3 * u * t * t, t * t * t]);
}

function derivative(points: Readonly<Cubic>, t: number): V3 {
  const u = 1 - t;
  return weighted(points, [-3 * u * u, 3 * u * u - 6 * u * t, 6 * u * t - 3 * t * t, 3 * t * t]);
}

function weighted(
  [a, b, c, d]: readonly [V3, V3, V3, V3],
  [wa, wb, wc, wd]: [number, number, number, number],
): V3 {
  return [
    wa * a[0] + wb * b[0] + wc * c[0] + wd * d[0],
    wa * a[1] + wb * b[1] + wc * c[1] + wd * d[1],
    wa * a[2] + wb * b[2] + wc * c[2] + wd * d[2],
  ];
}

export const SPLIT = 0.92; // along the whole edge, the arrowhead takes the last 8 %

/** A point on the whole edge, arrowhead included: 0 at the child, 1 at the arrow's tip. */
export function pointOnEdge(curve: EdgeCurve, at: number): V3 {
  const split = SPLIT;
  if (at <= split) return pathPoint(curve, at / split);
  const from = pathPoint(curve, 1);
  const f = (at - split) / (1 - split);
  return [
    from[0] + (curve.tip[0] - from[0]) * f,
    from[1] + (curve.tip[1] - from[1]) * f,
    from[2] + (curve.tip[2] - from[2]) * f,
  ];
}

/**
 * A point on the edge raised `lift` scene units towards `eye` in its middle (the backward layer, as
 * the edge shader draws it); the ends stay on their cards. Raised along the line of sight from the
 * eye of the default view, the layer lies exactly over the values' plane from that view (the front
 * view reads as before) and separates from it as soon as the reader turns the graph.
 */
export function liftedPoint(curve: EdgeCurve, at: number, lift: number, eye: V3 = [0, 0, 1e9]): V3 {
  const p = pointOnEdge(curve, at);
  if (lift === 0) return p;
  const h = lift * Math.sin(Math.PI * Math.min(1, Math.max(0, at / SPLIT)));
  const d = normalize([eye[0] - p[0], eye[1] - p[1], eye[2] - p[2]]);
  return [p[0] + d[0] * h, p[1] + d[1] * h, p[2] + d[2] * h];
}

const normalize = (v: V3): V3 => {
  const l = Math.hypot(v[0], v[1], v[2]) || 1;
  return [v[0] / l, v[1] / l, v[2] / l];
};
const cross = (a: V3, b: V3): V3 => [
  a[1] * b[2] - a[2] * b[1],
  a[2] * b[0] - a[0] * b[2],
  a[0] * b[1] - a[1] * b[0],
];

/**
 * What a vertex of an edge mesh is, for the vertex shader (shaders.ts), which sets its radius: the
 * tube follows the contribution's size; each end has an arrowhead that opens (a cone) when the pulse
 * travels towards that end and otherwise closes into a plain piece of tube.
 */
export const ROLE = {
  tube: 0,
  headBase: 1, // the ring where the arrowhead at the parent's end (forward) is widest
  headTip: 2, // ... and the ring at its tip, closed to a point while the arrowhead is shown
  backBase: 3, // the same two rings of the arrowhead at the child's end (backward)
  backTip: 4,
  point: 5, // tips and caps: radius 0
  underBack: 6, // tube inside the backward arrowhead: it thins away while the arrowhead is shown
} as const;

export interface MeshData {
  position: Float32Array; // the point on the edge's spine
  offset: Float32Array; // unit direction from the spine to the surface (radius set by the shader)
  role: Float32Array; // ROLE
  along: Float32Array; // 0..1 along the edge, arrowhead = 1: the shader lights the pulse's trail from it
  index: Uint16Array;
}

/**
 * A tube along the curve with a closable arrowhead at each end, as one indexed mesh: `segments` + 1
 * rings along the path, two rings per arrowhead and a point at each ring that closes, written
 * straight into typed arrays (a new 40-node graph builds some 25,000 vertices). Its indices count
 * from `indexBase`: the mesh's first vertex in the buffers it is copied into (edges.ts).
 */
export function edgeMesh(curve: EdgeCurve, indexBase = 0): MeshData {
  const segments = 12 * curve.segments.length + 16;
  const sides = 8;
  const vertices = (segments + 5) * sides + 4;
  const position = new Float32Array(3 * vertices);
  const offset = new Float32Array(3 * vertices); // zero at the points
  const role = new Float32Array(vertices);
  const along = new Float32Array(vertices);
  const index = new Uint16Array(6 * sides * (segments + 2) + 12 * sides);
  let v = 0; // vertices written
  let k = 0; // indices written
  const total = curve.lengths.reduce((x, y) => x + y, 0) || 1;
  const backHead = Math.min(0.4, ARROW_LENGTH / total); // share of the path the backward arrowhead covers
  const cosines = Array.from({ length: sides }, (_, s) => Math.cos((s / sides) * Math.PI * 2));
  const sines = Array.from({ length: sides }, (_, s) => Math.sin((s / sides) * Math.PI * 2));
  // ring() and point() answer with the index of their first vertex as band() and fan() write it.
  const ring = (c: V3, axis: V3, r: number, a: number): number => {
    const [n0, n1, n2] = normalize(cross(axis, [0, 0, 1]));
    const [b0, b1, b2] = cross(axis, [n0, n1, n2]);
    const first = indexBase + v;
    for (let s = 0; s < sides; s++, v++) {
      const cos = cosines[s]!;
      const sin = sines[s]!;
      position.set(c, 3 * v);
      offset[3 * v] = n0 * cos + b0 * sin;
      offset[3 * v + 1] = n1 * cos + b1 * sin;
      offset[3 * v + 2] = n2 * cos + b2 * sin;
      role[v] = r;
      along[v] = a;
    }
    return first;
  };
  const point = (c: V3, a: number): number => {
    position.set(c, 3 * v);
    role[v] = ROLE.point;
    along[v] = a;
    return indexBase + v++;
  };
  const triangle = (a: number, b: number, c: number): void => {
    index[k++] = a;
    index[k++] = b;
    index[k++] = c;
  };
  const band = (r0: number, r1: number): void => {
    for (let s = 0; s < sides; s++) {
      const next = (s + 1) % sides;
      triangle(r0 + s, r1 + s, r0 + next);
      triangle(r0 + next, r1 + s, r1 + next);
    }
  };
  const fan = (r: number, centre: number, flip: boolean): void => {
    for (let s = 0; s < sides; s++) {
      const next = (s + 1) % sides;
      if (flip) triangle(r + next, r + s, centre);
      else triangle(r + s, r + next, centre);
    }
  };
  let previous = -1;
  for (let i = 0; i <= segments; i++) {
    const t = i / segments;
    const { segment, u } = locate(curve, t, total);
    const r = ring(
      bezier(segment, u),
      normalize(derivative(segment, u)),
      t < backHead ? ROLE.underBack : ROLE.tube,
      t * SPLIT,
    );
    if (previous >= 0) band(previous, r);
    previous = r;
  }
  // The arrowhead at the parent's end, from the end of the path to the tip.
  const end = pathPoint(curve, 1);
  const forward = normalize([curve.tip[0] - end[0], curve.tip[1] - end[1], curve.tip[2] - end[2]]);
  const base = ring(end, forward, ROLE.headBase, SPLIT);
  const tipRing = ring(curve.tip, forward, ROLE.headTip, 1);
  band(base, tipRing);
  fan(base, point(end, SPLIT), true);
  fan(tipRing, point(curve.tip, 1), false);
  // The arrowhead at the child's end, pointing at the child, over the first piece of the path.
  const start = pathPoint(curve, 0);
  const backBaseAt = pathPoint(curve, backHead);
  const backward = normalize([start[0] - backBaseAt[0], start[1] - backBaseAt[1], start[2] - backBaseAt[2]]);
  const backBase = ring(backBaseAt, backward, ROLE.backBase, backHead * SPLIT);
  const backTip = ring(start, backward, ROLE.backTip, 0);
  band(backBase, backTip);
  fan(backBase, point(backBaseAt, backHead * SPLIT), true);
  fan(backTip, point(start, 0), false);
  return { position, offset, role, along, index };
}

/** The edge's length in scene units (the shader spaces dashes and bands by it). */
export function edgeLength(curve: EdgeCurve): number {
  const path = curve.lengths.reduce((x, y) => x + y, 0);
  const end = pathPoint(curve, 1);
  return path + Math.hypot(curve.tip[0] - end[0], curve.tip[1] - end[1], curve.tip[2] - end[2]);
}
