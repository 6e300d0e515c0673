// The gears widget's arithmetic in node: the TypeScript engine's chain equals the Python engine's
// (tests/vectors/gears.json, written by `python -m tests.test_gears`; tests/test_gears.py fails while
// it is stale), and a step turns each gear by its ratio.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import {
  angleBetween,
  anglesAt,
  type Chain,
  chainAt,
  type GearsData,
  pointerAngle,
  snap,
  stepBetween,
  turnArc,
} from "../../src/widgets/gears-model";

interface Case {
  data: GearsData;
  points: Chain[];
  choice_points?: Chain[][]; // per choice, at every stop (the page's block only)
}

const cases = JSON.parse(readFileSync(join(process.cwd(), "tests/vectors/gears.json"), "utf8")) as Case[];
const byInner = (inner: string): Case => cases.find((c) => c.data.inner === inner && !c.choice_points)!;
const page = cases.find((c) => c.choice_points)!;
// exp and log come from each platform's libm: the last bit may differ (README, "Hostile input").
const libm = (c: Case): boolean => /exp|log/.test(c.data.composed);
const near = (a: number, b: number): boolean => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b));

function assertChain(actual: Chain, expected: Chain, close: boolean): void {
  for (const key of Object.keys(expected) as (keyof Chain)[]) {
    if (close)
      assert.ok(Math.abs(actual[key] - expected[key]) <= 1e-12 * Math.max(1, Math.abs(expected[key])), key);
    else assert.equal(actual[key], expected[key], `${key} at x = ${expected.x}`);
  }
}

test("the fixture holds every chain the Python tests name, at every stop of its slider", () => {
  assert.equal(cases.length, 8);
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

test("every inner function on offer computes with the TypeScript engine as Python computed it", () => {
  const { data } = page;
  assert.deepEqual(
    data.choices.map((c) => c.inner),
    ["3 * x", "-2 * x", "relu(x - 1)"],
  );
  data.choices.forEach((choice, i) => {
    const chain = { ...choice, outer: data.outer };
    assertChain(chainAt(chain, data.x), choice.start, false);
    for (const point of page.choice_points![i]!) assertChain(chainAt(chain, point.x), point, false);
  });
  const minus = chainAt({ ...data.choices[1]!, outer: data.outer }, 1); // predict (c): two minus signs
  assert.deepEqual([minus.u, minus.du_dx, minus.dy_du, minus.product, minus.backward], [-2, -2, -4, 8, 8]);
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

/** Walk x along `path` as the widget does (each x snapped as a button or slider would, or typed as is). */
function walk(c: Case, path: readonly number[], typed = false): Chain[] {
  return path.map((x) => chainAt(c.data, typed ? x : snap(c.data, x)));
}

test("a gear's angle depends on its value alone: x back at the start puts every gear back at 0°", () => {
  const c = byInner("3 * x");
  const k = c.data.degrees_per_unit;
  const { start } = c.data;
  const up = Array.from({ length: 10 }, (_, i) => 1 + 0.1 * (i + 1));
  const down = Array.from({ length: 10 }, (_, i) => 2 - 0.1 * (i + 1));
  const paths: [string, Chain[]][] = [
    ["ten steps up, ten down (buttons, arrow keys)", walk(c, [...up, ...down])],
    ["the slider dragged 1 -> 3 -> -1 -> 1", walk(c, [1.5, 3, 0.2, -1, 1])],
    ["typed 1.234, 2.9, 1", walk(c, [1.234, 2.9, 1], true)],
  ];
  for (const [name, chains] of paths) {
    const end = chains[chains.length - 1]!;
    assert.equal(end.x, 1, name);
    assert.deepEqual(anglesAt(end, start, k), { x: 0, u: 0, y: 0 }, name);
  }
  // And anywhere on the way, the angle is that value's: k · (value − its value at the start).
  const at2 = anglesAt(chainAt(c.data, 2), start, k);
  assert.deepEqual(at2, { x: k * 1, u: k * 3, y: k * 27 });
  for (const chains of paths.map((p) => p[1]))
    for (const chain of chains) {
      const a = anglesAt(chain, start, k);
      assert.ok(near(a.y, k * (chain.y - 9)) && near(a.u, k * (chain.u - 3)) && near(a.x, k * (chain.x - 1)));
    }
});

test("one step from x = 1 of u = 3x, y = u²: the estimate uses the ratios at its start, y moves 1.89", () => {
  const c = byInner("3 * x");
  assert.equal(c.data.degrees_per_unit, 60);
  const start = chainAt(c.data, 1);
  assert.deepEqual([start.du_dx, start.dy_du, start.product, start.backward], [3, 6, 18, 18]);
  const step = stepBetween(start, chainAt(c.data, snap(c.data, 1.1)));
  assert.ok(near(step.dx, 0.1) && near(step.estimate.u, 0.3) && near(step.estimate.y, 1.8));
  assert.ok(near(step.actual.u, 0.3) && near(step.actual.y, 1.89)); // 10.89 − 9: the ratio grew on the way
  assert.equal(step.from, start); // its ratios are the table's before the step: 6 × 3 = 18
  const angles = anglesAt(step.to, start, 60);
  assert.ok(near(angles.x, 6) && near(angles.u, 18) && near(angles.y, 113.4));
});

test("a negative ratio turns the later gear the other way; a dead ratio leaves it still", () => {
  const negative = byInner("2 - x");
  const k = negative.data.degrees_per_unit;
  const turned = anglesAt(chainAt(negative.data, 0.75), negative.data.start, k);
  assert.ok(turned.x > 0 && turned.u < 0 && turned.y < 0); // u = 2 - x falls, y = u³ falls with it
  const minus = { ...page.data.choices[1]!, outer: page.data.outer }; // u = -2x: u turns against x
  const m = anglesAt(chainAt(minus, 1.1), page.data.choices[1]!.start, page.data.degrees_per_unit);
  assert.ok(m.x > 0 && near(m.u, -2 * m.x) && m.y > 0); // y = 4x² still grows: two minus signs
  const relu = { ...page.data.choices[2]!, outer: page.data.outer }; // u = relu(x - 1), from x = 1
  const k0 = page.data.degrees_per_unit;
  const dead = anglesAt(chainAt(relu, 0.5), chainAt(relu, 1), k0);
  assert.ok(dead.x < 0);
  assert.deepEqual([dead.u, dead.y], [0, 0]); // left of the kink relu passes nothing on
  const alive = stepBetween(chainAt(relu, 2), chainAt(relu, 2.1));
  assert.ok(alive.actual.u > 0 && alive.actual.y > 0);
});

test("a point where the chain does not compute throws the engine's error", () => {
  const data: GearsData = { ...byInner("3 * x").data, inner: "x", outer: "log(u)", composed: "log((x))" };
  assert.throws(() => chainAt(data, -0.05), /log is defined only for positive numbers/);
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
