// The sandbox's state and the pure transitions between states: `reduce(state, action, context)`.
// No DOM, no WebGL: everything the reader can change is here, the engine is handed in (so node:test
// drives the same transitions the page does), and the renderers only read the result.

import { FUNCTIONS } from "../../inference/ops";
import type { ErrorPayload, NodeId, Timeline } from "../../inference/types";
import type { EngineResult } from "../engine/live";
import { readNumber } from "./verdict";
import type { NudgeResult } from "./nudge";
import { clamp, type Direction, type Schedule, scheduleOf, stepTime, TRAVEL } from "./timing";
import { clampView, DEFAULT_VIEW, type View } from "./view";
import type { SharedMoment } from "../page/url";

export const DEFAULT_VALUE = 1; // what the engine gives a variable nobody set (inference/trace.ts)

/** The nudge check's last answer, kept until anything it depends on changes. */
export type NudgeState =
  | { leaf: string; h: number; result: NudgeResult }
  | { leaf: string; problem: "h-zero" | "h-invalid" };

export interface SandboxState {
  expression: string; // what the input holds, valid or not
  values: Record<string, number>; // every variable value the reader set
  variables: string[]; // the sliders shown: the typed text's variables when it parses, else the last ones
  timeline: Timeline; // the last valid graph: what is on screen
  structure: string; // structureKey(timeline)
  schedule: Schedule;
  error: ErrorPayload | null; // why the input (or the latest values) gave no new graph
  direction: Direction;
  time: number; // in events, see timing.ts
  playing: boolean;
  localDerivatives: boolean;
  finalGradients: boolean;
  view: View;
  nudge: NudgeState | null;
  earlier: Earlier[]; // graphs shown before this one, most recent last: what unfinished text falls back to
}

/** A graph that was on screen, with the moment the reader left it at. */
export interface Earlier {
  timeline: Timeline;
  direction: Direction;
  time: number;
}

const EARLIER_KEPT = 4; // enough for a few ghosts (typed prefixes) between two real graphs

/** What the transitions need from outside: the engine, and whether a new graph may start playing. */
export interface Context {
  compute(expression: string, values: Record<string, number>): EngineResult;
  variablesOf(expression: string): string[] | null; // null: the text does not parse
  // Nudge check's measurement (nudge.ts: the engine runs the graph again with the leaf moved by h).
  nudgeCheck(timeline: Timeline, values: Record<string, number>, leaf: string, h: number): NudgeResult;
  // The text typed: its graph, or the graph it falls back to (edit.ts: only the engine answers a text).
  edit(state: SandboxState, text: string, context: Context): SandboxState;
  setValue(state: SandboxState, name: string, value: number, context: Context): SandboxState; // (edit.ts)
  autoplay: boolean; // false under prefers-reduced-motion
  lang: string; // the page's, as Nudge check's h is read (as a prediction is: "1/1000", "0,001")
}

export interface Preset {
  label: string;
  expression: string;
  values: Record<string, number>;
  timeline?: Timeline; // computed at build time
}

export type Action =
  | { type: "edit"; text: string } // the expression field changed
  | { type: "set-value"; name: string; value: number } // a slider or number field moved
  | { type: "preset"; preset: Preset }
  | { type: "moment"; moment: SharedMoment } // a shared link opened
  | { type: "toggle-play" }
  | { type: "restart"; direction: Direction }
  | { type: "seek"; time: number }
  | { type: "step"; delta: 1 | -1 }
  | { type: "option"; name: "localDerivatives" | "finalGradients"; on: boolean }
  | { type: "view"; view: View }
  | { type: "nudge"; leaf: string; step: string } // step: the h field's text
  | { type: "forget-nudge" }; // another leaf chosen: the last answer was about the previous one

export function initialState(timeline: Timeline, values: Record<string, number>): SandboxState {
  return {
    expression: timeline.expression,
    values: { ...values, ...valuesOf(timeline) },
    variables: namesOf(timeline),
    timeline,
    structure: structureKey(timeline),
    schedule: scheduleOf(timeline, "forward"),
    error: null,
    direction: "forward",
    time: 0,
    playing: false,
    localDerivatives: false,
    finalGradients: false,
    view: { ...DEFAULT_VIEW },
    nudge: null,
    earlier: [],
  };
}

export function reduce(state: SandboxState, action: Action, context: Context): SandboxState {
  switch (action.type) {
    case "edit":
      return context.edit(state, action.text, context);
    case "set-value":
      // The same number typed again changes nothing: the checked answers keep their marks (review 55b).
      if (state.values[action.name] === action.value && !state.error) return state;
      return context.setValue(state, action.name, action.value, context);
    case "preset":
      return loadPreset(state, action.preset, context);
    case "moment":
      return openMoment(state, action.moment, context);
    case "toggle-play":
      return togglePlay(state);
    case "restart":
      return restart(state, action.direction, true);
    case "seek":
      return seek(state, action.time);
    case "step":
      return step(state, action.delta);
    case "option":
      return { ...state, [action.name]: action.on };
    case "view":
      return { ...state, view: clampView(action.view) };
    case "nudge":
      return { ...state, nudge: nudge(state, action.leaf, action.step, context) };
    case "forget-nudge":
      return { ...state, nudge: null };
  }
}

/** Errors the reader fixes with a slider: the typed text parses, its values do not compute. */
export function isValueError(error: ErrorPayload | null): boolean {
  return error !== null && (error.code === "domain" || error.code === "overflow");
}

/**
 * A graph the text's own unfinished word made: `head` ends inside a function's name or a number that
 * `text` goes on writing (the variable l on the way to `log(a)`, 2 on the way to `2.5`; a name that
 * "(" follows, as the text writes it, was a function's name). A complete graph followed by more
 * (`a * b` before `a * b +`) is no ghost: it is the last graph the learner built, unless it is a lone
 * name or number (one is a ghost of any other text); nor is one whose last variable a typo goes on (`a * a` before `a * ab`: walkthrough
 * 16, an older graph was dimmed in its place).
 */
export function isGhostOf(head: string, text: string): boolean {
  // A lone name or number is a ghost of any other text: one written on (walkthroughs 18 and 19: typing
  // `3,5 * a` or `a ** b` over a graph dimmed the lone 3 or a, not the graph the learner had), or one left
  // on the way (walk 40: "a * a" erased and "3," typed dimmed the lone a, and a lone 3 took the sliders
  // and the prediction fields away).
  if (/^\s*[\w.]+\s*$/.test(head)) return head.trim() !== text.trim();
  if (head.length >= text.length || !text.startsWith(head)) return false;
  const last = /[\w.]+$/.exec(head); // the name or number the graph ends with
  if (!last) return false;
  const rest = text.slice(last.index);
  // A number goes on as a number, its exponent too (2 on the way to 2.5 or to 2e-3).
  if (/^[\d.]/.test(last[0])) return UNFINISHED_NUMBER.exec(rest)![0].length > last[0].length;
  const word = /^\w*/.exec(rest)![0]; // ... a name as the text writes it
  // A name followed by "(" was a function's name, one the engine knows or not (walkthrough 20: typing
  // `… + foo(c)` left the graph of `… + f` dimmed, an f slider in place of c's).
  if (rest[word.length] === "(") return true;
  return word.length > last[0].length && FUNCTIONS.some((name) => name.startsWith(word));
}
// The engine's literal on its way, or a decimal comma's (`2,5`: the engine asks for 2.5)
const UNFINISHED_NUMBER = /^(?:\d+[.,]?\d*|\.\d+)(?:[eE][+-]?\d*)?/;

/**
 * The graphs to fall back to once `next` replaces the one on screen: a ghost of `next` never shows again.
 * One left playing is kept at its pass's end (edit.ts clamps the time): dimmed mid-pulse, its numbers
 * hung between cards (walk 31).
 */
function remember(state: SandboxState, next: Timeline): Earlier[] {
  const left: Earlier = {
    timeline: state.timeline,
    direction: state.direction,
    time: state.playing ? Infinity : state.time,
  };
  return [...state.earlier, left]
    .filter(
      (e) => e.timeline.expression !== next.expression && !isGhostOf(e.timeline.expression, next.expression),
    )
    .slice(-EARLIER_KEPT);
}

/** The engine's answer for the typed text: a graph to adopt, or an error that keeps the graph. */
export function settle(
  state: SandboxState,
  result: EngineResult,
  context: Context,
  forceRestart: boolean,
): SandboxState {
  if (result.ok) return adopt(state, result.timeline, context, forceRestart);
  const error = result.error;
  // A value error shows the typed text's sliders, so the value can be fixed right there; any other
  // error keeps the sliders the reader had.
  const typed = isValueError(error) ? context.variablesOf(state.expression) : null;
  if (!typed) return { ...state, error };
  const defaults = Object.fromEntries(typed.map((name) => [name, DEFAULT_VALUE]));
  return { ...state, error, variables: typed, values: { ...defaults, ...state.values } };
}

/**
 * A new valid graph. Same structure (a slider moved): keep the moment. New structure (typed, preset):
 * the pulse starts again from its beginning, so no gradient shows before its wave has reached it.
 */
function adopt(
  state: SandboxState,
  timeline: Timeline,
  context: Context,
  forceRestart: boolean,
): SandboxState {
  // The same text always makes the same graph: a slider drag skips the key (40 nodes: a millisecond).
  const structure =
    timeline.expression === state.timeline.expression ? state.structure : structureKey(timeline);
  const next = { ...state, error: null, structure, variables: namesOf(timeline) };
  if (structure === state.structure && !forceRestart) return withTimeline(next, timeline);
  const schedule = scheduleOf(timeline, state.direction);
  const values = { ...state.values, ...valuesOf(timeline) };
  const earlier = remember(state, timeline);
  return {
    ...next,
    timeline,
    schedule,
    values,
    earlier,
    time: 0,
    playing: context.autoplay && schedule.duration > 0,
  };
}

function loadPreset(state: SandboxState, preset: Preset, context: Context): SandboxState {
  const values = { ...state.values, ...preset.values };
  const changed = { ...state, expression: preset.expression, values, nudge: null };
  // Presets carry the timelines the build computed: no engine call needed.
  const result: EngineResult = preset.timeline
    ? { ok: true, timeline: preset.timeline }
    : context.compute(preset.expression, values);
  return settle(changed, result, context, true);
}

function openMoment(state: SandboxState, m: SharedMoment, context: Context): SandboxState {
  const expression = m.expression ?? state.expression;
  let next: SandboxState = { ...state, expression, values: { ...state.values, ...m.values }, nudge: null };
  const known = valuesFor(next);
  const same =
    expression === state.timeline.expression &&
    state.timeline.variables.every((v) => v.value === known[v.name]);
  if (!same) next = settle(next, context.compute(expression, next.values), context, false);
  next = restart(next, m.direction ?? next.direction, false);
  // A moment is whole: a toggle it does not name is off, as encodeMoment writes it (walkthrough 20:
  // "Final gradients", ticked before, showed exercise (a)'s answers as its link opened it).
  next = { ...next, localDerivatives: !!m.localDerivatives, finalGradients: !!m.finalGradients };
  next = seek(next, m.time ?? 0);
  // A pulse that was playing plays on (walkthrough 19: a language switched mid-pulse stopped it, the
  // verdicts of a check said a gradient its card never received)
  return m.playing && context.autoplay ? { ...next, playing: next.time < next.schedule.duration } : next;
}

function nudge(state: SandboxState, leaf: string, text: string, context: Context): NudgeState {
  const h = readNumber(text, context.lang);
  if (!Number.isFinite(h)) return { leaf, problem: "h-invalid" };
  if (h === 0) return { leaf, problem: "h-zero" };
  return { leaf, h, result: context.nudgeCheck(state.timeline, valuesFor(state), leaf, h) };
}

/** The nodes the last nudge moved (nudged − original), for the cards and edges to show; null: none. */
export function nudgeMoved(state: SandboxState): ReadonlyMap<NodeId, number> | null {
  const n = state.nudge;
  return n && "result" in n && n.result.ok ? n.result.moved : null;
}

export function namesOf(timeline: Timeline): string[] {
  return timeline.variables.map((v) => v.name);
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
    // A leaf's name or a literal's text is drawn on the cards, the table and the topological strip:
    // renaming c to d is a new graph; spaces and parentheses that change no node are not.
    timeline.nodes.map((n) => [
      n.id,
      n.op,
      n.x,
      n.y,
      n.z,
      n.inputs,
      n.exponent_label ?? "",
      n.op === "var" || n.op === "const" ? n.label : "",
    ]),
    timeline.edges.map((e) => [e.id, e.from, e.to, e.slot]),
  ]);
}

/** New numbers on the same structure: keep the moment where it still makes sense. */
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

/** The expression of the graph on screen when it is not what the field says (a typo: dimmed), else null. */
export function dimmedExpression(s: SandboxState): string | null {
  return s.error !== null && s.expression !== s.timeline.expression ? s.timeline.expression : null;
}

/** Forward / Backward: switching (or pressing the same one again) restarts the pulse. */
export function restart(state: SandboxState, direction: Direction, play: boolean): SandboxState {
  return { ...state, direction, schedule: scheduleOf(state.timeline, direction), time: 0, playing: play };
}

/** The forward pass done and paused: every value shown, no gradient yet (where a backward pass starts). */
export function forwardDone(state: SandboxState): SandboxState {
  const forward = restart(state, "forward", false);
  return seek(forward, forward.schedule.duration);
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

/** Events per second while a sandbox plays: one per second, faster for long timelines (at most ~12 s). */
export function playbackRate(schedule: Schedule): number {
  return Math.max(1, schedule.duration / 12);
}

// The compact player, the lesson's first moving picture, plays at this share of a sandbox's pace
// (walkthrough 14: at one event a second its five sentences went by faster than a newcomer reads them),
// and lingers once each result has landed, at this share of its pace again (walkthrough 15: the end of
// a step's sentence, "…; c.grad is now −1", showed for 0.4 s before the next step replaced it).
export const COMPACT_PACE = 0.6;
export const COMPACT_LINGER = 0.5;
// The sandbox lingers too (walkthrough 16: its step's result, "a.grad is now 3", showed 0.25 s).
export const SANDBOX_LINGER = 0.5;

/**
 * Advance a playing state by dt seconds, at `pace` times the playback rate, and at `linger` times that
 * once an event's result has landed (its last quarter: TRAVEL); `stepped` (reduced motion) jumps
 * whole events.
 */
export function advance(
  state: SandboxState,
  dt: number,
  stepped: boolean,
  carry = 0,
  pace = 1,
  linger = 1,
): { state: SandboxState; carry: number } {
  if (!state.playing) return { state, carry: 0 };
  const rate = playbackRate(state.schedule) * pace;
  const end = state.schedule.duration;
  if (!stepped) {
    let time = state.time;
    let left = dt * rate; // of the playback's own time, at full speed
    if (linger === 1) time += left;
    // Part by part: travelling at full speed, landed at `linger` of it.
    for (let parts = 0; linger !== 1 && left > 0 && time < end && parts < 2 * end + 2; parts++) {
      const k = Math.floor(time);
      const landed = time - k >= TRAVEL;
      const speed = landed ? linger : 1;
      const step = Math.min(left * speed, (landed ? k + 1 : k + TRAVEL) - time);
      time += step;
      left -= step / speed;
    }
    time = Math.min(end, time);
    return { state: { ...state, time, playing: time < end }, carry: 0 };
  }
  let pending = carry + dt * rate;
  let time = state.time;
  while (pending >= 1 && time < end) {
    time = stepTime(state.schedule, time, 1);
    pending -= 1;
  }
  return { state: { ...state, time, playing: time < end }, carry: pending };
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
