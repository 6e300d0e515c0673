// How the reader has turned the graph: a yaw and a pitch within limits that keep it readable.

import { clamp } from "./timing";

export interface View {
  yaw: number; // radians around the vertical axis
  pitch: number; // radians around the horizontal axis
}

/** Limits that keep the graph readable; the default is a slight three-quarter view. */
export const VIEW_LIMITS = { yaw: 0.55, pitch: 0.3 } as const;
export const DEFAULT_VIEW: View = { yaw: -0.2, pitch: 0.13 };

export function clampView(view: View): View {
  return {
    yaw: clamp(view.yaw, -VIEW_LIMITS.yaw, VIEW_LIMITS.yaw),
    pitch: clamp(view.pitch, -VIEW_LIMITS.pitch, VIEW_LIMITS.pitch),
  };
}

/** Dragging by (dx, dy) CSS pixels on a stage `width` pixels wide. */
export function rotate(view: View, dx: number, dy: number, width: number): View {
  const perPixel = 2.2 / Math.max(320, width);
  return clampView({ yaw: view.yaw + dx * perPixel, pitch: view.pitch + dy * perPixel });
}
