// The gears widget's arithmetic in node: the TypeScript engine's chain equals the Python engine's
// (tests/vectors/gears.json, written by `python -m tests.test_gears`; tests/test_gears.py fails while
// it is stale), and a step turns each gear by its ratio.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import {
  angleBetween,
  type Chain,
  chainAt,
  type GearsData,
  move,
  pointerAngle,
  snap,
  stepTurns,
  turnArc,
} from "../../src/widgets/gears-model";

interface Case {
  data: GearsData;
  points: Chain[];
}

const cases = JSON.parse(readFileSync(join(process.cwd(), "tests/vectors/gears.json"), "utf8")) as Case[];
const byInner = (inner: string): Case => cases.find((c) => c.data.inner === inner)!;
// exp and log come from each platform's libm: the last bit may differ (README, "Hostile input").
const libm = (c: Case): boolean => /exp|log/.test(c.data.composed);

function assertChain(actual: Chain, expected: Chain, close: boolean): void {
  for (const key of Object.keys(expected) as (keyof Chain)[]) {
    if (close)
      assert.ok(Math.abs(actual[key] - expected[key]) <= 1e-12 * Math.max(1, Math.abs(expected[key])), key);
    else assert.equal(actual[key], expected[key], `${key} at x = ${expected.x}`);
  }
}

test("the fixture holds every chain the Python tests name, at every stop of its slider", () => {
  assert.equal(cases.length, 6);
  for (const c of cases) {
    const stops = Math.round((c.data.range[1] - c.data.range[0]) / c.data.step) + 1;
    assert.equal(c.points.length, stops);
  }
});

test("the TypeScript engine computes the chain Python embedded, at the start and at every slider stop", () => {
  for (const c of cases) {
    assertChain(chainAt(c.data, c.data.x), c.data.start, libm(c));
    for (const point of c.points) assertChain(chainAt(c.data, point.x), point, libm(c));
  }
});

test("the slider's stops are the x values Python computed at", () => {
  for (const c of cases) {
    c.points.forEach((point, n) => {
      assert.equal(snap(c.data, c.data.range[0] + n * c.data.step), point.x);
    });
    assert.equal(snap(c.data, 1e9), c.data.range[1]);
    assert.equal(snap(c.data, -1e9), c.data.range[0]);
  }
});

test("one step at x = 1 of u = 3x, y = u²: x turns 6°, u 3 × 6° = 18°, y 18 × 6° = 108°", () => {
  const c = byInner("3 * x");
  assert.equal(c.data.degrees_per_unit, 60);
  const start = chainAt(c.data, 1);
  assert.deepEqual([start.du_dx, start.dy_du, start.product, start.backward], [3, 6, 18, 18]);
  const turns = stepTurns(start, 0.1, c.data.degrees_per_unit);
  assert.ok(
    Math.abs(turns.x - 6) < 1e-12 && Math.abs(turns.u - 18) < 1e-12 && Math.abs(turns.y - 108) < 1e-12,
  );
  const back = move(c.data, start, snap(c.data, 0.9));
  assert.ok(
    Math.abs(back.turns.x + 6) < 1e-9 &&
      Math.abs(back.turns.u + 18) < 1e-9 &&
      Math.abs(back.turns.y + 108) < 1e-9,
  );
  assert.equal(back.chain.x, 0.9);
});

test("a negative ratio turns the later gear the other way; a dead relu leaves it still", () => {
  const negative = byInner("2 - x");
  const turns = stepTurns(chainAt(negative.data, 0.5), 0.25, negative.data.degrees_per_unit);
  assert.ok(turns.x > 0 && turns.u < 0 && turns.y < 0); // u = 2 - x falls, y = u³ falls with it
  const relu = byInner("x - 1");
  const dead = move(relu.data, chainAt(relu.data, 0), 0.5);
  assert.ok(dead.turns.x > 0 && dead.turns.u > 0);
  assert.equal(dead.turns.y, 0);
  const alive = move(relu.data, chainAt(relu.data, 2), 2.1);
  assert.ok(Math.abs(alive.turns.y - alive.turns.u) < 1e-9 && alive.turns.y > 0);
});

test("a long move is cut into steps read where each begins: the x gear turns exactly k·Δx", () => {
  const c = byInner("3 * x");
  const from = chainAt(c.data, -1);
  const far = move(c.data, from, 3);
  const k = c.data.degrees_per_unit;
  assert.ok(Math.abs(far.turns.x - k * 4) < 1e-9);
  assert.ok(Math.abs(far.turns.u - k * 12) < 1e-9); // g is linear: 3 · Δx exactly
  // y = 9x²: each of the 40 steps of 0.1 uses the slope where it starts (18x), a left Riemann sum
  let expected = 0;
  for (let i = 0; i < 40; i++) expected += 18 * (-1 + i * 0.1) * 0.1;
  assert.ok(Math.abs(far.deltas.y - expected) < 1e-9, `${far.deltas.y} vs ${expected}`);
  assert.ok(Math.abs(far.turns.y - k * expected) < 1e-6);
  assert.equal(far.chain.x, 3);
  assert.equal(far.chain.y, 81);
});

test("a move through a point where the chain does not compute throws the engine's error", () => {
  const data: GearsData = { ...byInner("3 * x").data, inner: "x", outer: "log(u)", composed: "log((x))" };
  assert.throws(() => move(data, chainAt(data, 1), -0.05), /log is defined only for positive numbers/);
});

test("pointer angles run clockwise from straight up, and differences wrap to (-180, 180]", () => {
  assert.equal(pointerAngle(0, -1), 0);
  assert.equal(pointerAngle(1, 0), 90);
  assert.equal(pointerAngle(-1, 0), -90);
  assert.equal(angleBetween(170, -170), 20);
  assert.equal(angleBetween(-170, 170), -20);
  assert.equal(angleBetween(0, 180), 180);
});

test("the swept arc goes clockwise for a positive turn, counter-clockwise for a negative one, none for zero", () => {
  assert.equal(turnArc(0, 90, 10), "M0 -10 A10 10 0 0 1 10 0");
  assert.equal(turnArc(0, -90, 10), "M0 -10 A10 10 0 0 0 -10 0");
  assert.equal(turnArc(0, 270, 10), "M0 -10 A10 10 0 1 1 -10 0");
  assert.equal(turnArc(45, 0, 10), "");
  assert.match(turnArc(0, 720, 10), /A10 10 0 1 1 /); // more than a full turn: drawn as (almost) a circle
});
