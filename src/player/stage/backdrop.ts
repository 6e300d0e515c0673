// Depth cues behind the graph: a wall with a faint grid that fades out towards its borders, and on it
// the soft shadows of the cards and edges, cast by a light above, left and in front of the graph.
// The shadow of a card lies further from it the further the card stands out from the wall, and the
// wall turns with the graph at its own depth, so rotating shows parallax. The grid is drawn by the
// wall's shader (gridOf); the shadows are drawn once per graph on a small 2D canvas, uploaded as a
// texture: they are blurred anyway, so a few pixels per card are enough.

import type { NodeId } from "../../inference/types";
import { luminance, type Palette, type RGB } from "./colors";
import { type EdgeCurve, pointOnEdge } from "./curves";
import { CARD_WORLD_WIDTH, type V3 } from "./fit";

export const WALL_Z = -1; // scene units behind the middle plane of the graph
export const LIGHT: [number, number] = [0.05, -0.1]; // shadow shift on the wall per unit of height
export const CELL = 0.6; // grid spacing, scene units
const MARGIN = 2.6; // wall beyond the graph, so its border stays out of view when rotated
const MAX_WALL_PIXELS = 90_000; // shadows only: uploading a bigger texture costs a new graph milliseconds
const MAX_TEXTURE = 2048; // px per side
const MIN_DENSITY = 4; // texture px per scene unit, however big the graph

/** The grid's colour and opacity on this palette (drawn by the wall's shader). */
export function gridOf(palette: Palette): { colour: RGB; alpha: number } {
  return { colour: palette.fg, alpha: luminance(palette.bg) < 0.2 ? 0.1 : 0.085 };
}

export interface WallExtent {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

export interface BackdropInput {
  curves: EdgeCurve[];
  positions: Map<NodeId, V3>;
  cardHeight: number; // scene units
  density: number; // wanted texture px per scene unit
  palette: Palette;
}

export function wallExtent(positions: Map<NodeId, V3>, cardHeight: number): WallExtent {
  const xs = [...positions.values()].map((p) => p[0]);
  const ys = [...positions.values()].map((p) => p[1]);
  const half = CARD_WORLD_WIDTH / 2 + MARGIN;
  const halfY = cardHeight / 2 + MARGIN;
  return {
    x0: Math.min(...xs) - half,
    x1: Math.max(...xs) + half,
    y0: Math.min(...ys) - halfY,
    y1: Math.max(...ys) + halfY,
  };
}

/** Where a point of the graph casts its shadow on the wall (x, y). */
export function shadowOf(p: V3): [number, number] {
  const height = p[2] - WALL_Z;
  return [p[0] + LIGHT[0] * height, p[1] + LIGHT[1] * height];
}

export function drawBackdrop(canvas: HTMLCanvasElement, input: BackdropInput): WallExtent {
  const extent = wallExtent(input.positions, input.cardHeight);
  const w = extent.x1 - extent.x0;
  const h = extent.y1 - extent.y0;
  // Blurred shadows: past MAX_WALL_PIXELS a sharper texture costs time to draw (blur is per pixel)
  // and to upload, and shows nothing more.
  const budget = Math.sqrt(MAX_WALL_PIXELS / (w * h));
  const d = Math.max(MIN_DENSITY, Math.min(input.density, MAX_TEXTURE / w, MAX_TEXTURE / h, budget));
  canvas.width = Math.round(w * d);
  canvas.height = Math.round(h * d);
  const ctx = canvas.getContext("2d");
  if (!ctx) return extent;
  const tx = (x: number): number => (x - extent.x0) * d;
  const ty = (y: number): number => (extent.y1 - y) * d;
  const dark = luminance(input.palette.bg) < 0.2;
  ctx.clearRect(0, 0, canvas.width, canvas.height);

  // Shadows: only the blur of each shape is drawn (the shape itself is far off the canvas), so they
  // read as soft light and not as more graph.
  const away = canvas.width + 4 * d;
  ctx.shadowOffsetX = away;
  const halfW = CARD_WORLD_WIDTH / 2;
  const halfH = input.cardHeight / 2;
  ctx.shadowColor = dark ? "rgba(0,0,0,0.55)" : "rgba(30,35,60,0.16)";
  ctx.shadowBlur = 0.28 * d;
  ctx.fillStyle = "#000";
  // One path of all the cards, filled once: one blur for the lot, not one per card (a blur costs
  // per pixel of its shape's bounds; a 40-node graph's shadows went from ~10 ms to under 1).
  ctx.beginPath();
  for (const p of input.positions.values()) {
    const [sx, sy] = shadowOf(p);
    roundedRect(ctx, tx(sx - halfW) - away, ty(sy + halfH), 2 * halfW * d, 2 * halfH * d, 0.12 * d);
  }
  ctx.fill();
  ctx.shadowColor = dark ? "rgba(0,0,0,0.4)" : "rgba(30,35,60,0.09)";
  ctx.shadowBlur = 0.09 * d;
  ctx.strokeStyle = "#000";
  ctx.lineWidth = 0.07 * d;
  ctx.lineCap = "round";
  ctx.beginPath(); // the edges too: one stroke of all of them
  for (const curve of input.curves) {
    for (let i = 0; i <= 32; i++) {
      const [sx, sy] = shadowOf(pointOnEdge(curve, i / 32));
      if (i === 0) ctx.moveTo(tx(sx) - away, ty(sy));
      else ctx.lineTo(tx(sx) - away, ty(sy));
    }
  }
  ctx.stroke();
  return extent;
}

function roundedRect(
  ctx: CanvasRenderingContext2D,
  x: number,
  y: number,
  w: number,
  h: number,
  r: number,
): void {
  ctx.moveTo(x + r, y); // a new subpath of the current path
  ctx.arcTo(x + w, y, x + w, y + h, r);
  ctx.arcTo(x + w, y + h, x, y + h, r);
  ctx.arcTo(x, y + h, x, y, r);
  ctx.arcTo(x, y, x + w, y, r);
  ctx.closePath();
}
