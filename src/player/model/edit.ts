// What only the engine answers: a text typed (its graph, or, while it gives no graph, the graph to fall
// back to) and a value set. Only a reader's change gets here, after the engine has loaded: its bundle
// carries this (engine.ts); reduce() reaches it through its Context (model.ts).

import type { Timeline } from "../../inference/types";
import {
  type Context,
  isGhostOf,
  isValueError,
  namesOf,
  type SandboxState,
  settle,
  structureKey,
  valuesFor,
  withTimeline,
} from "./model";
import { clamp, scheduleOf } from "./timing";

export function edit(state: SandboxState, text: string, context: Context): SandboxState {
  const changed = { ...state, expression: text, nudge: null };
  const next = settle(changed, context.compute(text, state.values), context, false);
  return next.error ? withoutGhost(next, context) : next;
}

/**
 * While the text gives no graph, a graph made by a word still being typed, or a lone name or number, is a
 * ghost (isGhostOf): the dimmed graph is the most recent one that is not, with the sliders' values and the
 * moment the reader left it at; a ghost where there is no other.
 */
function withoutGhost(state: SandboxState, context: Context): SandboxState {
  const isGhost = (timeline: Timeline): boolean => isGhostOf(timeline.expression, state.expression);
  if (!isGhost(state.timeline)) return state;
  const earlier = [...state.earlier];
  for (let entry = earlier.pop(); entry; entry = earlier.pop()) {
    if (isGhost(entry.timeline)) continue;
    const result = context.compute(entry.timeline.expression, valuesFor(state, entry.timeline));
    if (!result.ok) continue; // its numbers would not be the sliders'
    const timeline = result.timeline;
    const schedule = scheduleOf(timeline, entry.direction);
    return {
      ...state,
      earlier,
      timeline,
      structure: structureKey(timeline),
      schedule,
      direction: entry.direction,
      time: clamp(entry.time, 0, schedule.duration),
      playing: false,
      // A value error shows the typed text's sliders; otherwise the graph on screen has its own.
      variables: isValueError(state.error) ? state.variables : namesOf(timeline),
    };
  }
  return state;
}

export function setValue(state: SandboxState, name: string, value: number, context: Context): SandboxState {
  const changed = { ...state, values: { ...state.values, [name]: value }, nudge: null };
  if (state.error && !isValueError(state.error)) {
    // The input holds text that does not parse: the sliders keep driving the graph on screen.
    const result = context.compute(state.timeline.expression, changed.values);
    if (!result.ok) return changed;
    return { ...withTimeline(changed, result.timeline), error: state.error };
  }
  return settle(changed, context.compute(state.expression, changed.values), context, false);
}
