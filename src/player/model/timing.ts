// The animation as a pure function of time (the llm-viz way): a schedule of events built from the
// timeline JSON, and frameAt(schedule, time) describing everything visible at that moment.
// Time is counted in events: event k runs over [k, k + 1]; scrubbing, stepping, playing and
// restoring a shared link all go through frameAt, so one time always gives one picture.

import type {
  BackwardStep,
  EdgeId,
  ForwardStep,
  NodeId,
  Timeline,
  TimelineNode,
} from "../../inference/types";

export type Direction = "forward" | "backward";

const byTimeline = new WeakMap<Timeline, ReadonlyMap<NodeId, TimelineNode>>();

/** A timeline's nodes by id, made once per timeline (a new graph's 40 cards each asked for it anew). */
export function nodesById(timeline: Timeline): ReadonlyMap<NodeId, TimelineNode> {
  let nodes = byTimeline.get(timeline);
  if (!nodes) byTimeline.set(timeline, (nodes = new Map(timeline.nodes.map((n) => [n.id, n]))));
  return nodes;
}

/** Fraction of an event spent travelling along the edge; the result lands at the end of it. */
export const TRAVEL = 0.75;

export type ScheduledEvent =
  | { kind: "compute"; step: ForwardStep } // forward: a node computes its value from its inputs
  | { kind: "seed"; node: NodeId; grad: number } // backward: root.grad = 1
  | { kind: "handoff"; step: BackwardStep }; // backward: child.grad += local * parent.grad

export interface Schedule {
  direction: Direction;
  events: ScheduledEvent[];
  duration: number; // = events.length
}

export function scheduleOf(timeline: Timeline, direction: Direction): Schedule {
  const events: ScheduledEvent[] =
    direction === "forward"
      ? timeline.forward.map((step) => ({ kind: "compute", step }))
      : [
          { kind: "seed", node: timeline.seed.node, grad: timeline.seed.grad },
          ...timeline.backward.map((step): ScheduledEvent => ({ kind: "handoff", step })),
        ];
  return { direction, events, duration: events.length };
}

export const clamp = (x: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, x));

/** 0 before the event starts, rising to 1 when its result lands (at k + TRAVEL). */
export function progress(time: number, index: number): number {
  return clamp((time - index) / TRAVEL, 0, 1);
}

export interface NodeFrame {
  value: number | null; // null: not computed yet (shown as --)
  grad: number | null; // null: no gradient has reached it yet
  glow: number; // 0..1, fades after a value or gradient lands here
  active: boolean; // the node the current event is about
  received: number[]; // backward: the contributions that have landed here so far, in order (the += terms)
}

export interface EdgeLabel {
  incoming: number;
  local: number;
  contribution: number;
  current: boolean; // the hand-off happening now (older labels are dimmed)
}

export interface EdgeFrame {
  fill: number; // 0..1 of the edge lit by the pulse, from its source end
  reversed: boolean; // backward: the fill starts at the parent's end
  label: EdgeLabel | null;
}

export interface Pulse {
  edge: EdgeId;
  at: number; // 0..1 along the edge from its child (from) to its parent (to)
  kind: Direction;
}

/** The number a pulse carries along its edge, drawn beside it (and left at its end once it lands). */
export interface Carried {
  edge: EdgeId;
  to: NodeId; // the node receiving it: forward the operation, backward the child
  at: number; // 0..1 along the edge from its child to its arrow, as Pulse.at
  kind: Direction;
  number: number; // forward: the input's value; backward: the contribution
  landed: boolean;
}

export interface Frame {
  direction: Direction;
  time: number;
  current: number; // index of the event in progress or last finished; -1 before the first
  completed: number; // how many events have fully landed
  nodes: Map<NodeId, NodeFrame>;
  edges: Map<EdgeId, EdgeFrame>;
  pulses: Pulse[];
  carried: Carried[]; // the current event's numbers in transit (or just arrived)
}

const GLOW_FADE = 0.9; // events

export function frameAt(timeline: Timeline, schedule: Schedule, time: number, finalGradients = false): Frame {
  const t = clamp(time, 0, schedule.duration);
  const backward = schedule.direction === "backward";
  const nodes = new Map<NodeId, NodeFrame>();
  for (const node of timeline.nodes) {
    const known = backward || node.inputs.length === 0;
    nodes.set(node.id, {
      value: known ? node.value : null,
      grad: null,
      glow: 0,
      active: false,
      received: [],
    });
  }
  const edges = new Map<EdgeId, EdgeFrame>();
  for (const edge of timeline.edges) edges.set(edge.id, { fill: 0, reversed: backward, label: null });

  const pulses: Pulse[] = [];
  const carried: Carried[] = [];
  const valueOfNode = new Map(timeline.nodes.map((n) => [n.id, n.value]));
  const sourceOf = new Map(timeline.edges.map((e) => [e.id, e.from]));
  let current = -1;
  let completed = 0;
  schedule.events.forEach((event, k) => {
    const p = progress(t, k);
    if (t <= k) return; // not started
    current = k;
    const landed = p >= 1;
    if (landed) completed = k + 1;
    const glow = landed ? clamp(1 - (t - k - TRAVEL) / GLOW_FADE, 0, 1) : 0;
    const inFlight = p > 0 && p < 1;
    carried.length = 0; // only the latest event that started carries numbers
    if (event.kind === "compute") {
      const node = nodes.get(event.step.node);
      for (const id of event.step.edges) {
        const edge = edges.get(id);
        if (edge) edge.fill = p;
        if (inFlight) pulses.push({ edge: id, at: p, kind: "forward" });
        carried.push({
          edge: id,
          to: event.step.node,
          at: p,
          kind: "forward",
          number: valueOfNode.get(sourceOf.get(id) ?? "") ?? 0,
          landed,
        });
      }
      if (node) {
        if (landed) node.value = event.step.value;
        node.glow = Math.max(node.glow, glow);
      }
    } else if (event.kind === "seed") {
      const node = nodes.get(event.node);
      if (node) {
        if (landed) node.grad = event.grad;
        node.glow = Math.max(node.glow, landed ? glow : p);
      }
    } else {
      const step = event.step;
      const edge = edges.get(step.edge);
      if (edge) {
        edge.fill = p;
        edge.label = {
          incoming: step.incoming,
          local: step.local,
          contribution: step.contribution,
          current: false,
        };
      }
      if (inFlight) pulses.push({ edge: step.edge, at: 1 - p, kind: "backward" });
      carried.push({
        edge: step.edge,
        to: step.child,
        at: 1 - p,
        kind: "backward",
        number: step.contribution,
        landed,
      });
      const child = nodes.get(step.child);
      if (child) {
        if (landed) {
          child.grad = step.grad_after;
          child.received.push(step.contribution);
        }
        child.glow = Math.max(child.glow, glow);
      }
    }
  });
  const now = schedule.events[current];
  if (now) {
    const node = nodes.get(eventNode(now));
    if (node) node.active = true;
  }
  if (now?.kind === "handoff") {
    const label = edges.get(now.step.edge)?.label;
    if (label) label.current = true;
  }
  // The final gradients, on the cards whose value has arrived (walkthrough 20: forward, "value --" sat
  // beside a gradient).
  if (finalGradients)
    for (const node of timeline.nodes) {
      const shown = nodes.get(node.id)!;
      if (shown.value !== null) shown.grad = node.grad;
    }
  return { direction: schedule.direction, time: t, current, completed, nodes, edges, pulses, carried };
}

/** The time one event later or earlier: the next or previous moment when a result has landed. */
export function stepTime(schedule: Schedule, time: number, delta: 1 | -1): number {
  const t = clamp(time, 0, schedule.duration);
  const next = delta > 0 ? Math.floor(t + 1e-9) + 1 : Math.ceil(t - 1e-9) - 1;
  return clamp(next, 0, schedule.duration);
}

/** The node an event is about (the one whose value or grad it changes). */
export function eventNode(event: ScheduledEvent): NodeId {
  return event.kind === "compute" ? event.step.node : event.kind === "seed" ? event.node : event.step.child;
}
