// From the layout in the timeline JSON to the stage: where each node sits in scene units, how many
// pixels a scene unit is, how big the whole graph (the world) is and how much of it the stage shows.
// Cards (HTML, fixed CSS size) and edges (WebGL) line up on any screen from a phone to a desktop.
// Cards never shrink below a readable size: a graph too big for the stage at that size gets a taller
// stage, a long chain wraps into bands, and beyond that the stage becomes a window onto the graph
// that the reader pans (viewport.ts). Pure; see tests/ts/player-geometry.test.ts.

import { COLUMN_GAP, ROW_GAP } from "../../inference/layout";
import type { NodeId, Timeline } from "../../inference/types";

export type V3 = [number, number, number];

export const CARD_WORLD_WIDTH = 1.5; // a card spans this many scene units across, at any zoom
const MIN_EDGE_GAP = 0.5; // scene units of visible edge between neighbouring columns
const MIN_ROW_GAP = 0.32;
const KX_MAX = 1.6; // how far columns may spread on a wide stage
const KX_MAX_TALL = 3; // ... and when the stage height, not its width, limits the zoom
const MARGIN_X = 0.3;
const MARGIN_Y = 0.45;

export interface CardSize {
  width: number; // CSS px of a card at scale 1
  height: number;
}

/** A long thin graph wrapped into bands of columns, like lines of text (see wrapLongChain). */
export interface Bands {
  of: Map<NodeId, number>; // each node's band, 0 at the top
  top: number[]; // scene units: the top edge of each band's cards
  bottom: number[]; // ... and their bottom edge (grown cards included)
  left: number; // x of the leftmost card's left side, and of the rightmost card's right side
  right: number;
}

export interface Fit {
  positions: Map<NodeId, V3>; // scene units; the world's centre is the origin
  bands: Bands | null; // a long chain wrapped into bands, or null
  ppu: number; // CSS px per scene unit at the centre depth
  scale: number; // card CSS scale = ppu / (card px per scene unit)
  height: number; // stage height, CSS px
  world: { width: number; height: number }; // the whole graph with its margins, CSS px
  cardHeight: number; // scene units
  kx: number; // horizontal squeeze applied to the layout (narrow screens)
  ky: number;
}

export interface FitLimits {
  minHeight: number;
  maxHeight: number;
  maxScale: number;
  minScale: number; // cards never get smaller than this (their text would be too small to read)
  rowGap: number; // CSS px wanted free between the cards of neighbouring rows (room for labels)
}

export const DEFAULT_LIMITS: FitLimits = {
  minHeight: 220,
  maxHeight: 620,
  maxScale: 1,
  minScale: 0,
  rowGap: 56,
};
const KY_MAX = 2.2; // rows never spread further than this

/**
 * `grown`: CSS px (at card scale 1) that some cards reach further down than usual (local
 * derivatives shown); the world makes room for them.
 */
export function fitStage(
  timeline: Timeline,
  stageWidth: number,
  card: CardSize,
  limits: FitLimits = DEFAULT_LIMITS,
  grown: ReadonlyMap<NodeId, number> = new Map(),
): Fit {
  const pxPerUnit = card.width / CARD_WORLD_WIDTH; // card px per scene unit at scale 1
  const cardHeight = card.height / pxPerUnit;
  const minPpu = pxPerUnit * Math.min(limits.minScale, limits.maxScale);
  const xs = timeline.nodes.map((n) => n.x);
  const ys = timeline.nodes.map((n) => n.y);
  const spanX = Math.max(...xs) - Math.min(...xs);
  const spanY = Math.max(...ys) - Math.min(...ys);
  const below = (ky: number): number => {
    // how far the lowest grown card reaches below the lowest row, scene units (0 when none grew)
    const bottom = Math.min(...ys);
    let reach = 0;
    for (const n of timeline.nodes)
      reach = Math.max(reach, (grown.get(n.id) ?? 0) / pxPerUnit - (n.y - bottom) * ky);
    return reach;
  };

  const kxMin = Math.min(1, (CARD_WORLD_WIDTH + MIN_EDGE_GAP) / COLUMN_GAP);
  let ky = Math.max(1, (cardHeight + MIN_ROW_GAP) / ROW_GAP);
  const widthAt = (kx: number): number => spanX * kx + CARD_WORLD_WIDTH + 2 * MARGIN_X;
  const heightAt = (ky: number): number => spanY * ky + cardHeight + below(ky) + 2 * MARGIN_Y;
  let heightWorld = heightAt(ky);
  const ppuFor = (kx: number): number =>
    Math.max(
      minPpu,
      Math.min(pxPerUnit * limits.maxScale, stageWidth / widthAt(kx), limits.maxHeight / heightWorld),
    );

  // Wide stage: spread the columns (up to KX_MAX) so edge labels fit between the cards, keeping
  // cards at natural size. Narrow stage: squeeze the columns (down to kxMin) before shrinking the
  // cards below 90 %.
  let kx = 1;
  if (spanX > 0) {
    const atNatural = (stageWidth / pxPerUnit - CARD_WORLD_WIDTH - 2 * MARGIN_X) / spanX;
    if (atNatural > 1) kx = Math.min(KX_MAX, atNatural);
    else if (ppuFor(1) < 0.9 * pxPerUnit) {
      const wanted = (stageWidth / (0.9 * pxPerUnit) - CARD_WORLD_WIDTH - 2 * MARGIN_X) / spanX;
      kx = Math.max(kxMin, Math.min(1, wanted));
    }
  }
  let ppu = ppuFor(kx);
  // A tall graph (many leaves) is limited by the stage height: use the spare width for the edges.
  if (spanX > 0 && widthAt(kx) * ppu < stageWidth - 1) {
    kx = Math.min(KX_MAX_TALL, Math.max(kx, (stageWidth / ppu - CARD_WORLD_WIDTH - 2 * MARGIN_X) / spanX));
    ppu = ppuFor(kx);
  }
  // Edge labels sit between rows: when the width, not the height, limits the zoom, spread the rows
  // until there is room for them (a graph with many rows gets a taller stage). A graph taller than
  // the tallest stage is panned anyway: its rows get all the room they want.
  if (spanY > 0) {
    const wanted = Math.min(KY_MAX, (cardHeight + limits.rowGap / ppu) / ROW_GAP);
    const room = (limits.maxHeight / ppu - cardHeight - below(ky) - 2 * MARGIN_Y) / spanY;
    const panned = heightAt(ky) * ppu > limits.maxHeight + 0.5; // taller than the stage even with rows packed
    ky = Math.max(ky, panned ? wanted : Math.min(wanted, room));
  }
  // A card showing its local derivatives hangs a panel below it: the card under it in its column
  // moves down out of the way (all rows spread alike, so the graph keeps its shape).
  for (const n of timeline.nodes) {
    const hangs = (grown.get(n.id) ?? 0) / pxPerUnit;
    if (hangs <= 0) continue;
    for (const m of timeline.nodes) {
      if (m.column === n.column && m.y < n.y)
        ky = Math.max(ky, (cardHeight + hangs + MIN_ROW_GAP) / (n.y - m.y));
    }
  }
  heightWorld = heightAt(ky);
  const cx = (Math.max(...xs) + Math.min(...xs)) / 2;
  const cy = (Math.max(...ys) + Math.min(...ys)) / 2;
  const dy = below(ky) / 2; // the world's centre moves down by half of what grown cards add below
  const world = { width: widthAt(kx) * ppu, height: heightWorld * ppu };
  const positions = new Map<NodeId, V3>();
  for (const n of timeline.nodes) positions.set(n.id, [(n.x - cx) * kx, (n.y - cy) * ky + dy, n.z]); // z: 0, the values' plane
  const height = Math.round(Math.min(limits.maxHeight, Math.max(limits.minHeight, world.height)));
  const fit = { positions, bands: null, ppu, scale: ppu / pxPerUnit, height, world, cardHeight, kx, ky };
  return wrapLongChain(timeline, fit, stageWidth, limits, grown, pxPerUnit) ?? fit;
}

const WRAP_ROWS = 1; // a graph of at most this many rows apart (ROW_GAP each) is a chain that may wrap
const WRAP_PITCH = 2.8; // column spacing of a wrapped chain: room for two lanes and an arrowhead between cards
const WRAP_GUTTER = 1.7; // scene units between bands: labels, and the lanes of edges that change band

/**
 * A long, thin graph (a 39-factor product is one row of 39 columns) would be a ribbon many stages
 * wide. Wrapped into bands of as many columns as the stage shows, like lines of text, it reads top
 * to bottom: edges that change band run down the gap beside their child, along the gutter between
 * bands and up the gap before their parent (curves.ts).
 */
function wrapLongChain(
  timeline: Timeline,
  fit: Fit,
  stageWidth: number,
  limits: FitLimits,
  grown: ReadonlyMap<NodeId, number>,
  pxPerUnit: number,
): Fit | null {
  const ys = timeline.nodes.map((n) => n.y);
  const spanY = Math.max(...ys) - Math.min(...ys);
  const columns = Math.max(...timeline.nodes.map((n) => n.column)) + 1;
  if (spanY > WRAP_ROWS * ROW_GAP + 1e-9 || fit.world.width < 1.5 * stageWidth) return null;
  const ppu = fit.ppu;
  const fits = Math.floor((stageWidth / ppu - CARD_WORLD_WIDTH - 2 * MARGIN_X - 0.6) / WRAP_PITCH) + 1;
  const perBand = Math.max(2, Math.min(columns, fits));
  const bandCount = Math.ceil(columns / perBand);
  if (bandCount < 2) return null;
  const below = (band: number): number => {
    let reach = 0;
    for (const n of timeline.nodes) {
      if (Math.floor(n.column / perBand) !== band) continue;
      reach = Math.max(reach, (grown.get(n.id) ?? 0) / pxPerUnit - (n.y - Math.min(...ys)) * fit.ky);
    }
    return reach;
  };
  const bandHeight = spanY * fit.ky + fit.cardHeight;
  const top: number[] = [];
  const bottom: number[] = [];
  let y = 0; // top edge of the current band, going down
  for (let b = 0; b < bandCount; b++) {
    top.push(y);
    bottom.push(y - bandHeight - below(b));
    y = bottom[b]! - WRAP_GUTTER;
  }
  const worldHeight = top[0]! - bottom[bandCount - 1]! + 2 * MARGIN_Y + 0.6;
  const halfW = ((perBand - 1) * WRAP_PITCH) / 2;
  const shiftY = (top[0]! + bottom[bandCount - 1]!) / 2; // centre the bands on the origin
  const positions = new Map<NodeId, V3>();
  const of = new Map<NodeId, number>();
  for (const n of timeline.nodes) {
    const band = Math.floor(n.column / perBand);
    of.set(n.id, band);
    const x = (n.column - band * perBand) * WRAP_PITCH - halfW;
    positions.set(n.id, [x, top[band]! - fit.cardHeight / 2 - (Math.max(...ys) - n.y) * fit.ky - shiftY, 0]);
  }
  const bands: Bands = {
    of,
    top: top.map((t) => t - shiftY),
    bottom: bottom.map((b) => b - shiftY),
    left: -halfW - CARD_WORLD_WIDTH / 2,
    right: halfW + CARD_WORLD_WIDTH / 2,
  };
  const world = {
    width: (2 * halfW + CARD_WORLD_WIDTH + 2 * MARGIN_X + 0.6) * ppu,
    height: worldHeight * ppu,
  };
  const height = Math.round(Math.min(limits.maxHeight, Math.max(limits.minHeight, world.height)));
  return { ...fit, positions, bands, world, height, kx: WRAP_PITCH / COLUMN_GAP };
}
