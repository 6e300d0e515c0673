// The sandbox's state and the pure transitions between states. No DOM, no WebGL: everything the
// reader can change is here, and the renderers only read it.

import type { ErrorPayload, Timeline } from "../inference/types";
import { clamp, type Direction, type Schedule, scheduleOf, stepTime } from "./timing";

export interface View {
  yaw: number; // radians around the vertical axis
  pitch: number; // radians around the horizontal axis
}

/** Limits that keep the graph readable; the default is a slight three-quarter view. */
export const VIEW_LIMITS = { yaw: 0.55, pitch: 0.3 } as const;
export const DEFAULT_VIEW: View = { yaw: -0.2, pitch: 0.13 };

export interface SandboxState {
  expression: string; // what the input holds, valid or not
  values: Record<string, number>; // every variable value the reader set
  timeline: Timeline; // the last valid graph: what is on screen
  schedule: Schedule;
  error: ErrorPayload | null; // why the input (or the latest values) gave no new graph
  direction: Direction;
  time: number; // in events, see timing.ts
  playing: boolean;
  localDerivatives: boolean;
  finalGradients: boolean;
  view: View;
}

export function initialState(timeline: Timeline, values: Record<string, number>): SandboxState {
  return {
    expression: timeline.expression,
    values: { ...values, ...valuesOf(timeline) },
    timeline,
    schedule: scheduleOf(timeline, "forward"),
    error: null,
    direction: "forward",
    time: 0,
    playing: false,
    localDerivatives: false,
    finalGradients: false,
    view: { ...DEFAULT_VIEW },
  };
}

export function valuesOf(timeline: Timeline): Record<string, number> {
  return Object.fromEntries(timeline.variables.map((v) => [v.name, v.value]));
}

/** The values the engine needs for the current graph's variables. */
export function valuesFor(state: SandboxState, timeline: Timeline = state.timeline): Record<string, number> {
  return Object.fromEntries(timeline.variables.map((v) => [v.name, state.values[v.name] ?? v.value]));
}

/** Two timelines with the same structure share geometry: only numbers changed. */
export function structureKey(timeline: Timeline): string {
  return JSON.stringify([
    timeline.nodes.map((n) => [n.id, n.op, n.x, n.y, n.z, n.inputs, n.exponent_label ?? ""]),
    timeline.edges.map((e) => [e.id, e.from, e.to, e.slot]),
  ]);
}

/** A new valid graph (from typing, a slider or a preset): keep the moment where it still makes sense. */
export function withTimeline(state: SandboxState, timeline: Timeline): SandboxState {
  const schedule = scheduleOf(timeline, state.direction);
  const atEnd = state.time >= state.schedule.duration;
  const time = atEnd ? schedule.duration : clamp(state.time, 0, schedule.duration);
  return {
    ...state,
    timeline,
    schedule,
    error: null,
    time,
    playing: state.playing && time < schedule.duration,
    values: { ...state.values, ...valuesOf(timeline) },
  };
}

/** Forward / Backward: switching (or pressing the same one again) restarts the pulse. */
export function restart(state: SandboxState, direction: Direction, play: boolean): SandboxState {
  return { ...state, direction, schedule: scheduleOf(state.timeline, direction), time: 0, playing: play };
}

export function seek(state: SandboxState, time: number): SandboxState {
  return { ...state, time: clamp(time, 0, state.schedule.duration), playing: false };
}

export function step(state: SandboxState, delta: 1 | -1): SandboxState {
  return seek(state, stepTime(state.schedule, state.time, delta));
}

/** Play from the start when at the end; pause otherwise. */
export function togglePlay(state: SandboxState): SandboxState {
  if (state.playing) return { ...state, playing: false };
  const time = state.time >= state.schedule.duration ? 0 : state.time;
  return { ...state, time, playing: state.schedule.duration > 0 };
}

/** Events per second while playing: one per second, faster for long timelines (at most ~12 s). */
export function playbackRate(schedule: Schedule): number {
  return Math.max(1, schedule.duration / 12);
}

/** Advance a playing state by dt seconds; `stepped` (reduced motion) jumps whole events. */
export function advance(state: SandboxState, dt: number, stepped: boolean, carry = 0): { state: SandboxState; carry: number } {
  if (!state.playing) return { state, carry: 0 };
  const rate = playbackRate(state.schedule);
  if (!stepped) {
    const time = Math.min(state.schedule.duration, state.time + dt * rate);
    return { state: { ...state, time, playing: time < state.schedule.duration }, carry: 0 };
  }
  let pending = carry + dt * rate;
  let time = state.time;
  while (pending >= 1 && time < state.schedule.duration) {
    time = stepTime(state.schedule, time, 1);
    pending -= 1;
  }
  return { state: { ...state, time, playing: time < state.schedule.duration }, carry: pending };
}

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

/** Slider range for a variable: −5..5, widened (to a round number) to include the value. */
export function sliderRange(value: number): { min: number; max: number; step: number } {
  const reach = Math.max(5, niceCeil(Math.abs(value) * 1.5));
  return { min: -reach, max: reach, step: reach > 50 ? 1 : 0.1 };
}

function niceCeil(x: number): number {
  if (x <= 5) return 5;
  const magnitude = 10 ** Math.floor(Math.log10(x));
  for (const m of [1, 2, 5, 10]) if (m * magnitude >= x) return m * magnitude;
  return 10 * magnitude;
}
