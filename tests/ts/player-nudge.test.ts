// The nudge on the graph: which cards a nudge moves and by how much, against hand-derived numbers,
// and when the model forgets it. What the cards and edges show is read in the browser
// (tests/test_browser_nudge_graph.py).
import assert from "node:assert/strict";
import { test } from "node:test";
import { buildTimeline } from "../../src/inference/index";
import { formatChange } from "../../src/player/model/format";
import { recompute } from "../../src/player/engine/live";
import { liveContext } from "./live-context";
import {
  type Context,
  initialState,
  nudgeMoved,
  reduce,
  type SandboxState,
} from "../../src/player/model/model";
import { movedBy, nudgeCheck } from "../../src/player/model/nudge";

const context: Context = liveContext(false);

/** Card label -> the change a nudge of `leaf` by `h` made to it, as the card's tab writes it. */
function tabs(expression: string, values: Record<string, number>, leaf: string, h: number) {
  const timeline = buildTimeline(expression, values);
  const result = nudgeCheck(recompute, timeline, values, leaf, h);
  assert.ok(result.ok);
  const label = new Map(timeline.nodes.map((n) => [n.id, n.label]));
  return Object.fromEntries([...result.moved].map(([id, d]) => [label.get(id), formatChange(d)]));
}

test("(a + b) * c at a = 2, b = −3, c = 10, a nudged by 0.001: a and a + b move by +0.001, the output by 10 × 0.001", () => {
  // Δ(a + b) = 1 × Δa (its local derivative to a is 1); Δoutput = c × Δ(a + b) = 10 × 0.001.
  assert.deepEqual(tabs("(a + b) * c", { a: 2, b: -3, c: 10 }, "a", 0.001), {
    a: "+0.001",
    "a + b": "+0.001",
    "(a + b) * c": "+0.01",
  });
  // c nudged: only c and the output move, the output by (a + b) × 0.001 = −0.001.
  assert.deepEqual(tabs("(a + b) * c", { a: 2, b: -3, c: 10 }, "c", 0.001), {
    c: "+0.001",
    "(a + b) * c": "\u22120.001",
  });
  // A negative h: every change turns its sign.
  assert.deepEqual(tabs("(a + b) * c", { a: 2, b: -3, c: 10 }, "b", -0.001), {
    b: "\u22120.001",
    "a + b": "\u22120.001",
    "(a + b) * c": "\u22120.01",
  });
});

test("a dead relu stops the change: relu(a * b) with a * b = −6 shows nothing on relu", () => {
  // Δ(a * b) = b × Δa = −3 × 0.001; relu stays 0 (its local derivative is 0 below the kink).
  assert.deepEqual(tabs("relu(a * b)", { a: 2, b: -3 }, "a", 0.001), {
    a: "+0.001",
    "a * b": "\u22120.003",
  });
  // Alive (a * b = 6), the change goes through: relu moves as a * b does.
  assert.deepEqual(tabs("relu(a * b)", { a: 2, b: 3 }, "a", 0.001), {
    a: "+0.001",
    "a * b": "+0.003",
    "relu(a * b)": "+0.003",
  });
});

test("movedBy: exact differences, in the graph's order, nothing for a node that kept its value", () => {
  const before = buildTimeline("a * a + b", { a: 3, b: 1 });
  const after = buildTimeline("a * a + b", { a: 3.5, b: 1 });
  const moved = movedBy(before, after);
  const labels = [...moved.keys()].map((id) => before.nodes.find((n) => n.id === id)?.label);
  assert.deepEqual(labels, ["a", "a * a", "a * a + b"]);
  assert.equal(moved.get(before.root), 3.5 * 3.5 - 9, "the output's change: 12.25 − 9");
  assert.equal(formatChange(0), "0");
  assert.equal(formatChange(-1234567), "\u22121.235e6");
});

test("the model keeps the nudge's changes until the leaf, the values or the graph change", () => {
  const values = { a: 2, b: -3, c: 10 };
  let s: SandboxState = initialState(buildTimeline("(a + b) * c", values), values);
  assert.equal(nudgeMoved(s), null);
  s = reduce(s, { type: "nudge", leaf: "a", step: "0.001" }, context);
  assert.equal(nudgeMoved(s)?.size, 3);
  // Playing, stepping and changing direction keep it: the learner plays backward to compare.
  for (const action of [
    { type: "restart", direction: "backward" },
    { type: "seek", time: 2 },
    { type: "option", name: "localDerivatives", on: true },
  ] as const)
    s = reduce(s, action, context);
  assert.equal(nudgeMoved(s)?.size, 3);
  assert.equal(nudgeMoved(reduce(s, { type: "forget-nudge" }, context)), null, "another leaf chosen");
  assert.equal(nudgeMoved(reduce(s, { type: "set-value", name: "b", value: 1 }, context)), null);
  assert.equal(nudgeMoved(reduce(s, { type: "edit", text: "a * c" }, context)), null);
  const again = reduce(s, { type: "nudge", leaf: "c", step: "0.001" }, context);
  assert.equal(nudgeMoved(again)?.size, 2, "a new nudge replaces the last one");
  assert.equal(nudgeMoved(reduce(s, { type: "nudge", leaf: "c", step: "0" }, context)), null, "h = 0");
});
